//! `gpuenergy diag`: the microbenchmark suite of analytical-model §3–§5. It runs synthetic PTX
//! kernels on the timing simulator, recovers the scheduling model's parameters from observable
//! behaviour alone (in-kernel `%clock64` deltas, launch `Ok`/`Err`, `TIMEOUT`), and sets each
//! next to the configured value ([`configured`]) and the model's prediction
//! ([`models::sched`]), with PASS/FAIL against the thresholds of [`thresholds`]. The tests run
//! in the order of §3.3: [`kernel_limits`] → [`functional_units`] → [`num_mp`] →
//! [`warpsched_policy`] → [`warpslot_buffer`] → [`shmem_buffer`] → [`regfile_buffer`], each
//! consuming earlier outputs, then the §5 cross-check ([`crosscheck`]).

pub mod configured;
pub mod crosscheck;
pub mod functional_units;
pub mod granularity;
pub mod harness;
pub mod issue_stage;
pub mod kernel_limits;
pub mod kernels;
pub mod nslot;
pub mod num_mp;
pub mod regfile_buffer;
pub mod shmem_buffer;
pub mod thresholds;
pub mod warpsched_policy;
pub mod warpslot_buffer;

use sim::config::GpuConfig;
pub use thresholds::Thresholds;

/// How much of the suite runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Suite {
    /// A subset of block sizes, shapes and grids, sized for CI.
    Quick,
    /// Every block size, the whole sweep grids, longer periods.
    Full,
}

impl std::str::FromStr for Suite {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "quick" => Ok(Suite::Quick),
            "full" => Ok(Suite::Full),
            _ => Err(format!("unknown suite '{s}': expected 'quick' or 'full'")),
        }
    }
}

/// What a recovered parameter is compared as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Must equal the configured value exactly (a limit, a slot count, a latency).
    Discrete,
    /// Compared within a tolerance of the prediction (fu(c), throughput, knees).
    Continuous,
    /// A label (the warp-scheduling policy); reported, never blocking.
    Label,
    /// Reported without a verdict.
    Info,
}

/// One recovered parameter next to its configured value and the model's prediction.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Param {
    /// `test.key`, e.g. `warpslot_buffer.n2`.
    pub name: String,
    /// The configured value, where the configuration has one.
    pub configured: Option<f64>,
    /// The value recovered from behaviour.
    pub recovered: Option<f64>,
    /// The model's prediction, where it predicts this value.
    pub predicted: Option<f64>,
    /// How the verdict is reached.
    pub kind: Kind,
    /// PASS (true) / FAIL (false); `None` for info.
    pub pass: Option<bool>,
    /// Labels (policy) or a short explanation.
    pub note: String,
}

impl Param {
    /// A discrete parameter: PASS when recovered equals configured.
    pub fn discrete(name: &str, configured: f64, recovered: Option<f64>) -> Param {
        Param {
            name: name.to_string(),
            configured: Some(configured),
            recovered,
            predicted: Some(configured),
            kind: Kind::Discrete,
            pass: Some(recovered == Some(configured)),
            note: String::new(),
        }
    }

    /// A continuous parameter: PASS when `|recovered − predicted| ≤ tol·|predicted|`.
    pub fn continuous(
        name: &str,
        configured: Option<f64>,
        recovered: f64,
        predicted: f64,
        tol: f64,
    ) -> Param {
        let ok = (recovered - predicted).abs() <= tol * predicted.abs().max(1e-12);
        Param {
            name: name.to_string(),
            configured,
            recovered: Some(recovered),
            predicted: Some(predicted),
            kind: Kind::Continuous,
            pass: Some(ok),
            note: String::new(),
        }
    }

    /// A value reported without a verdict.
    pub fn info(name: &str, recovered: f64, note: &str) -> Param {
        Param {
            name: name.to_string(),
            configured: None,
            recovered: Some(recovered),
            predicted: None,
            kind: Kind::Info,
            pass: None,
            note: note.to_string(),
        }
    }

    /// The same parameter with a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Param {
        self.note = note.into();
        self
    }
}

/// Everything the suite found for one configuration.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PresetReport {
    /// Preset name or configuration file.
    pub preset: String,
    /// Suite that ran.
    pub suite: Suite,
    /// Recovered parameters in test order.
    pub parameters: Vec<Param>,
    /// Measured fu(c) curves per instruction class.
    pub fu_curves: Vec<functional_units::FuCurve>,
    /// The §5 cross-check.
    pub crosscheck: Option<crosscheck::CrossCheck>,
    /// The §5.5 issue-stage variant comparison, when a variant was given.
    pub issue_stage: Option<issue_stage::IssueStage>,
}

/// Which side a failed check points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The simulator does not behave as configured: a value recovered from its behaviour
    /// differs from the configured one (a limit, a slot count, a latency).
    Simulator,
    /// The analytical model misses what the simulator does: a measured curve, knee, label or
    /// kernel time differs from the model's prediction beyond the tolerance.
    Model,
}

impl Param {
    /// The side a failure of this parameter points at; `None` when it did not fail. A discrete
    /// parameter is predicted to equal its configured value, so a recovered value that differs
    /// from the configuration is the simulator's; every other verdict compares a measurement
    /// with the model's prediction, so its miss is the model's.
    pub fn failed_side(&self) -> Option<Side> {
        if self.pass != Some(false) {
            return None;
        }
        Some(match self.kind {
            Kind::Discrete if self.configured.is_some() && self.recovered != self.configured => {
                Side::Simulator
            }
            _ => Side::Model,
        })
    }
}

/// One preset's verdict in one line's worth: checks passed, and the names of the failed ones
/// by the side they point at.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Summary {
    /// Checks with a verdict (parameters and cross-check statistics).
    pub checks: usize,
    /// Of which passed.
    pub passed: usize,
    /// Failed checks that point at the simulator.
    pub simulator_side: Vec<String>,
    /// Failed checks that point at the analytical model.
    pub model_side: Vec<String>,
}

impl PresetReport {
    /// The preset's summary: every parameter with a verdict, and the cross-check of the measured
    /// and of the configured model (a kernel time the model misses is the model's side).
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        for p in self.parameters.iter().filter(|p| p.pass.is_some()) {
            s.checks += 1;
            match p.failed_side() {
                None => s.passed += 1,
                Some(Side::Simulator) => s.simulator_side.push(p.name.clone()),
                Some(Side::Model) => s.model_side.push(p.name.clone()),
            }
        }
        if let Some(c) = &self.crosscheck {
            for (name, st) in [
                ("crosscheck.measured", &c.measured),
                ("crosscheck.configured", &c.configured),
            ] {
                s.checks += 1;
                if st.pass {
                    s.passed += 1;
                } else {
                    s.model_side.push(name.to_string());
                }
            }
        }
        s
    }

    /// Parameters that failed, discrete ones only.
    pub fn discrete_failures(&self) -> Vec<&Param> {
        self.parameters
            .iter()
            .filter(|p| p.kind == Kind::Discrete && p.pass == Some(false))
            .collect()
    }
}

/// Progress sink: one line per step, written to stderr by the CLI.
pub type Progress<'a> = &'a (dyn Fn(&str) + Sync);

/// Runs the suite on `cfg` (named `name`) in the §3.3 order.
pub fn run(
    name: &str,
    cfg: &GpuConfig,
    suite: Suite,
    th: &Thresholds,
    progress: Progress,
) -> Result<PresetReport, String> {
    let mut params = Vec::new();
    let say = |s: &str| progress(&format!("[{name}] {s}"));
    say("kernel_limits");
    let limits = kernel_limits::run(cfg, suite, &mut params)?;
    say("functional_units");
    let fu = functional_units::run(cfg, suite, th, &limits, &mut params)?;
    say("num_mp");
    let n_mp = num_mp::run(cfg, th, &limits, &fu, &mut params)?;
    say("warpsched_policy");
    warpsched_policy::run(cfg, &limits, &mut params)?;
    let probe = nslot::Prober::new(cfg, n_mp, th)?;
    say("warpslot_buffer");
    let wsb = warpslot_buffer::run(cfg, suite, &limits, &probe, &mut params)?;
    say("shmem_buffer");
    let shm = shmem_buffer::run(cfg, suite, &limits, &wsb, &probe, &mut params)?;
    say("regfile_buffer");
    let rf = regfile_buffer::run(cfg, suite, &limits, &wsb, &probe, &mut params)?;
    say("crosscheck");
    let cc = crosscheck::run(cfg, suite, th, &limits, &fu, n_mp, &wsb, &shm, &rf, &probe)?;
    say("done");
    Ok(PresetReport {
        preset: name.to_string(),
        suite,
        parameters: params,
        fu_curves: fu.curves,
        crosscheck: Some(cc),
        issue_stage: None,
    })
}

/// §5.5: the whole suite on `variant` (which repeats §4.2 and §5 on it), then the
/// issue-stage comparison of `variant` against the in-order `base` ([`issue_stage`]).
pub fn run_variant(
    name: &str,
    base: &GpuConfig,
    variant: &GpuConfig,
    label: &str,
    suite: Suite,
    th: &Thresholds,
    progress: Progress,
) -> Result<PresetReport, String> {
    let vname = format!("{name}+{label}");
    let mut r = run(&vname, variant, suite, th, progress)?;
    progress(&format!("[{vname}] issue_stage"));
    let lim = kernel_limits::run(variant, suite, &mut Vec::new())?;
    let is = issue_stage::run(base, variant, label, suite, th, &lim, &mut r.parameters)?;
    r.issue_stage = Some(is);
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_points_at_the_side_that_missed() {
        let ok = Param::discrete("limits.max_ctas", 8.0, Some(8.0));
        assert_eq!(ok.failed_side(), None);
        let sim = Param::discrete("limits.max_ctas", 8.0, Some(7.0));
        assert_eq!(sim.failed_side(), Some(Side::Simulator));
        let model = Param {
            name: "functional_units.int_add.fu_max_rel_err".into(),
            configured: None,
            recovered: Some(0.5),
            predicted: Some(0.0),
            kind: Kind::Continuous,
            pass: Some(false),
            note: String::new(),
        };
        assert_eq!(model.failed_side(), Some(Side::Model));
        let r = PresetReport {
            preset: "p".into(),
            suite: Suite::Quick,
            parameters: vec![ok, sim, model],
            fu_curves: Vec::new(),
            crosscheck: None,
            issue_stage: None,
        };
        let s = r.summary();
        assert_eq!((s.checks, s.passed), (3, 1));
        assert_eq!(s.simulator_side, vec!["limits.max_ctas".to_string()]);
        assert_eq!(s.model_side.len(), 1);
    }
}
