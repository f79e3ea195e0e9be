//! Kernel sampling in the estimate pipeline (`--sample`, `--sample-error`): the settings a
//! study samples with, the error estimate of a sampled run's total energy, and the record the
//! reports print (`sample` in JSON).
//!
//! The mechanism is `sim::sample` (clusters, timed members, extrapolation, the cycles
//! estimate). The energy estimate follows it: for each cluster the simulator keeps the
//! extrapolated launches' record as extrapolated from the pooled timed members and as
//! extrapolated from the member farthest from the pool; both are costed at the study's
//! technology point and the energy estimate is Σ_clusters |E(pool) − E(farthest)| over the
//! run's total energy (energy is linear in the counters, so the per-cluster differences are
//! the differences of the whole run's energy when one cluster's rate moves to its extreme).
//!
//! `--sample auto` runs kernel sampling and keeps it when both estimates are at most the
//! target (`--sample-error`, 2 % by default); otherwise it simulates the whole program and
//! says so (`method: "full"`, with the sampled estimate that was too large). Waves sampling
//! (inside one launch) is not built: a program whose error kernel sampling cannot bound runs
//! in full.

use serde::Serialize;
use sim::activity::{Activity, PlannedLaunch, SampleSummary};
use sim::sample::SampleSettings;
use std::sync::Arc;

/// How a study samples its launches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SampleMode {
    /// Every launch simulated (the default).
    #[default]
    Off,
    /// Kernel sampling: one cluster per group of similar launches, a few timed.
    Kernels,
    /// Kernel sampling when its estimated error is within the target, else full simulation.
    Auto,
}

impl SampleMode {
    /// The name as the flag takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            SampleMode::Off => "off",
            SampleMode::Kernels => "kernels",
            SampleMode::Auto => "auto",
        }
    }
}

/// The default target of `--sample auto`: 2 % on cycles and on total energy.
pub const DEFAULT_TARGET_ERROR: f64 = 0.02;

/// What a study samples with.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampling {
    /// Off, kernels or auto.
    pub mode: SampleMode,
    /// Largest estimated error (fraction) `auto` accepts, on cycles and on energy.
    pub target_error: f64,
    /// The simulator's settings (tolerance; the plan a comparison's variants replay).
    pub settings: SampleSettings,
}

impl Default for Sampling {
    fn default() -> Self {
        Sampling {
            mode: SampleMode::Off,
            target_error: DEFAULT_TARGET_ERROR,
            settings: SampleSettings::default(),
        }
    }
}

impl Sampling {
    /// Sampling in `mode` with target `target_error` and the default tolerance.
    pub fn new(mode: SampleMode, target_error: f64) -> Sampling {
        Sampling {
            mode,
            target_error,
            settings: SampleSettings::default(),
        }
    }

    /// Sampling in `mode` with `target`, the target of `auto` (default
    /// [`DEFAULT_TARGET_ERROR`]). A target with another mode is refused: `target_key` is how the
    /// caller spells the target's setting and `mode_as(m)` the mode's (`--sample m` on the
    /// command line, `sample = "m"` in a sweep file).
    pub fn checked(
        mode: SampleMode,
        target: Option<f64>,
        target_key: &str,
        mode_as: impl Fn(&str) -> String,
    ) -> Result<Sampling, String> {
        if target.is_some() && mode != SampleMode::Auto {
            return Err(format!(
                "{target_key} sets the target of {}; given with {} (allowed: {})",
                mode_as("auto"),
                mode_as(mode.as_str()),
                mode_as("auto")
            ));
        }
        Ok(Sampling::new(mode, target.unwrap_or(DEFAULT_TARGET_ERROR)))
    }

    /// Whether launches are sampled at all.
    pub fn is_on(&self) -> bool {
        self.mode != SampleMode::Off
    }

    /// These settings replaying `plan` (a baseline's decisions, for a comparison's variants).
    pub fn with_plan(&self, plan: Vec<PlannedLaunch>) -> Sampling {
        let mut s = self.clone();
        s.settings.plan = Some(Arc::new(plan));
        s
    }

    /// What a run must sample with to time the same launches as a sampled run whose record
    /// carries `summary` (a comparison's variant, an optimiser's design, after the baseline):
    /// kernel sampling replaying the baseline's plan, or full simulation where the baseline
    /// was simulated in full (`--sample auto` fell back, or nothing was sampled).
    pub fn follow(&self, summary: Option<SampleSummary>) -> Sampling {
        match summary {
            Some(s) if s.method == "kernels" => {
                let mut k = self.with_plan(s.plan);
                k.mode = SampleMode::Kernels;
                k
            }
            _ => Sampling::default(),
        }
    }

    /// What the Activity cache keys a sampled run by besides the configuration and workload
    /// (`None` when off): the mode, target, tolerance and a hash of the replayed plan.
    pub fn cache_key(&self) -> Option<String> {
        if !self.is_on() {
            return None;
        }
        let plan = self.settings.plan.as_ref().map_or(0, |p| {
            let text = serde_json::to_string(&**p).expect("plan serialises");
            crate::digest::fnv1a(crate::digest::FNV_OFFSET, text.as_bytes())
        });
        Some(format!(
            "sample={} target={} tolerance={} plan={plan:016x}",
            self.mode.as_str(),
            self.target_error,
            self.settings.tolerance
        ))
    }
}

/// Parses `--sample-error`: a percentage (`2%`) or a fraction (`0.02`), in (0, 1).
pub fn parse_error(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let v = match t.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|v| v / 100.0),
        None => t.parse::<f64>(),
    }
    .map_err(|_| format!("'{text}' is not a percentage (2%) or a fraction (0.02)"))?;
    if !(v.is_finite() && v > 0.0 && v < 1.0) {
        return Err(format!(
            "'{text}': the target error must lie between 0 and 100 % (exclusive)"
        ));
    }
    Ok(v)
}

/// The estimated errors of a sampled run, as fractions of the totals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EstimatedError {
    /// Of the total cycles.
    pub cycles: f64,
    /// Of the total energy (absent where nothing was costed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub energy: Option<f64>,
}

/// The `sample` object of the reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampleReport {
    /// `kernels`, or `full` where `--sample auto` fell back to full simulation.
    pub method: String,
    /// Clusters of launches.
    pub clusters: u64,
    /// Launches of the program.
    pub launches: u64,
    /// Launches timed by the cycle-level model.
    pub timed_launches: u64,
    /// The estimated errors (0 for a full simulation).
    pub estimated_error: EstimatedError,
    /// Warp instructions of the program over those timed: the timing model's share of the
    /// speed-up (the functional pass runs every launch).
    pub work_speedup: f64,
    /// Where `auto` fell back: the sampled run's larger estimated error, over the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_fallback_error: Option<f64>,
}

impl SampleReport {
    /// The report of a record's sampling summary, with the energy estimate `energy` (a
    /// fraction) where the run was costed; `None` for a full simulation without `--sample`.
    pub fn of(act: &Activity, energy: Option<f64>) -> Option<SampleReport> {
        let s = act.sample.as_ref()?;
        Some(SampleReport {
            method: s.method.clone(),
            clusters: s.clusters.len() as u64,
            launches: s.launches,
            timed_launches: s.timed_launches,
            estimated_error: EstimatedError {
                cycles: s.estimated_error_cycles,
                energy,
            },
            work_speedup: s.work_speedup(),
            auto_fallback_error: s.auto_fallback_error,
        })
    }

    /// One line for a table: method, clusters, launches timed, speed-up and errors.
    pub fn line(&self, workload: &str) -> String {
        let energy = self
            .estimated_error
            .energy
            .map_or_else(String::new, |e| format!(", energy {:.2} %", 100.0 * e));
        match self.auto_fallback_error {
            Some(e) => format!(
                "sampling ({workload}): auto fell back to full simulation (sampled estimate \
                 {:.2} % above the target); {} launches simulated",
                100.0 * e,
                self.launches
            ),
            None => format!(
                "sampling ({workload}): {}, {} clusters, {} of {} launches timed, work \
                 speed-up {:.1}x; estimated error: cycles {:.2} %{energy}",
                self.method,
                self.clusters,
                self.timed_launches,
                self.launches,
                self.work_speedup,
                100.0 * self.estimated_error.cycles
            ),
        }
    }
}

/// The summary of a full simulation that `--sample auto` chose over a sampled run whose
/// larger estimated error was `error`.
pub fn fallback_summary(act: &Activity, error: f64) -> SampleSummary {
    SampleSummary {
        method: "full".into(),
        tolerance: 0.0,
        launches: act.aggregate.launches,
        timed_launches: act.aggregate.launches,
        warp_insts: act.aggregate.warp_insts,
        timed_warp_insts: act.aggregate.warp_insts,
        estimated_error_cycles: 0.0,
        clusters: Vec::new(),
        plan: Vec::new(),
        auto_fallback_error: Some(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_as_percentages_or_fractions() {
        assert_eq!(parse_error("2%"), Ok(0.02));
        assert_eq!(parse_error("0.05"), Ok(0.05));
        assert!(parse_error("0").is_err());
        assert!(parse_error("150%").is_err());
        assert!(parse_error("two").is_err());
    }
}
