//! Evaluation of one design: its energy, delay products, area and slowdown against the
//! baseline. [`Evaluator`] is what the search sees; [`SimEvaluator`] runs the estimate
//! pipeline of `compare` ([`crate::study::Study::run`] per workload, in parallel over the
//! workloads on rayon's pool, Activity records from the on-disk cache
//! [`crate::activity_cache::ActivityCache`] when present) and [`Synthetic`] is a closed-form evaluator
//! for tests of the search itself.
//!
//! Aggregation over the workloads follows `compare` ([`crate::compare`]): energy, EDP and
//! ED²P are sums of the per-workload values; the slowdown is the mean over the workloads of
//! `T/T_baseline − 1`. Area is the chip estimate's area: the register-file and issue-stage
//! structures of the design and the sleep switches and gating controllers of every gated
//! domain ([`gating_area_m2`]) are leaves of it; the added area is that minus the baseline's.
//!
//! With kernel sampling on (`--sample`, [`crate::sample`]), the baseline samples each
//! workload's launches online and every design replays the baseline's decisions for that
//! workload ([`crate::sample::Sampling::follow`]), as `compare`'s variants do: the same
//! launches are timed in every design, so a difference between two designs is the designs',
//! not sampling noise. Each design's largest estimated errors over the workloads are kept
//! ([`SampleErrors`]) for the report.

use super::space::{Design, Space};
use crate::study::{Study, WorkloadResult};
use rayon::prelude::*;
use serde::Serialize;
use sim::config::GpuConfig;
use sim::workloads::Workload;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// Set by the SIGINT handler: no new simulation starts, the search returns what it has.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Why an evaluation failed.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The design does not make a valid configuration.
    #[error("{0}")]
    Config(String),
    /// A run failed.
    #[error(transparent)]
    Study(Box<crate::study::StudyError>),
    /// The gating area could not be costed.
    #[error("gating area: {0}")]
    Gating(String),
    /// Ctrl-C.
    #[error("interrupted")]
    Interrupted,
}

/// The numbers of one design over the workloads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Metrics {
    /// Total energy, J.
    pub energy_j: f64,
    /// Sum of the workloads' energy-delay products, J·s.
    pub edp_js: f64,
    /// Sum of the workloads' energy-delay² products, J·s².
    pub ed2p_js2: f64,
    /// Sum of the workloads' run times, s.
    pub runtime_s: f64,
    /// Chip area with everything the design adds, mm².
    pub area_mm2: f64,
    /// Area over the baseline's, mm².
    pub added_area_mm2: f64,
    /// Mean of `T/T_baseline − 1` over the workloads.
    pub slowdown: f64,
}

/// What kernel sampling did in one design's runs, over the workloads (`--sample`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SampleErrors {
    /// The largest estimated error of a workload's cycles, as a fraction of them.
    pub cycles_error: f64,
    /// The largest estimated error of a workload's total energy, as a fraction of it.
    pub energy_error: f64,
    /// Launches timed by the cycle-level model, over the workloads.
    pub timed_launches: u64,
    /// Launches, over the workloads.
    pub launches: u64,
    /// Workloads that `--sample auto` simulated in full (its estimate above the target).
    pub full_workloads: usize,
}

impl SampleErrors {
    /// The errors of `results` (one design's runs); `None` when none of them was sampled.
    pub fn of(results: &[WorkloadResult]) -> Option<SampleErrors> {
        let mut e = SampleErrors::default();
        let mut any = false;
        for r in results {
            let Some(s) = &r.sample else { continue };
            any = true;
            e.cycles_error = e.cycles_error.max(s.estimated_error.cycles);
            e.energy_error = e.energy_error.max(s.estimated_error.energy.unwrap_or(0.0));
            e.timed_launches += s.timed_launches;
            e.launches += s.launches;
            if s.method != "kernels" {
                e.full_workloads += 1;
            }
        }
        any.then_some(e)
    }
}

/// The quantity minimised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// Energy.
    Energy,
    /// Energy × delay.
    Edp,
    /// Energy × delay².
    Ed2p,
}

impl Objective {
    /// The objective's value of `m`.
    pub fn of(self, m: &Metrics) -> f64 {
        match self {
            Objective::Energy => m.energy_j,
            Objective::Edp => m.edp_js,
            Objective::Ed2p => m.ed2p_js2,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Energy => "energy",
            Objective::Edp => "edp",
            Objective::Ed2p => "ed2p",
        }
    }
}

impl From<crate::study_config::opt::OptObjective> for Objective {
    fn from(o: crate::study_config::opt::OptObjective) -> Self {
        use crate::study_config::opt::OptObjective as O;
        match o {
            O::Energy => Objective::Energy,
            O::Edp => Objective::Edp,
            O::Ed2p => Objective::Ed2p,
        }
    }
}

/// What the search evaluates designs with. Implementations are called from several threads.
pub trait Evaluator: Sync {
    /// The baseline (every group off).
    fn baseline(&self) -> Result<Metrics, EvalError>;
    /// One design.
    fn evaluate(&self, d: &Design) -> Result<Metrics, EvalError>;
    /// Designs evaluated so far (the baseline included).
    fn evaluations(&self) -> usize;
}

/// The sleep switches and gating controllers of every gated domain of `cfg` on the chip, m²
/// (power-gating §1.7): the sum over the gated classes of
/// [`models::gating::cost::hardware`] at the study's technology point, the chip's clock and the
/// study's calibration overlay, the same figures a gated run's estimate carries as its
/// "power-gating switches and controllers" leaves. 0 without gating.
pub fn gating_area_m2(study: &Study, cfg: &GpuConfig) -> Result<f64, EvalError> {
    use models::gating::cost::CostPoint;
    use sim::config::pg::PgPolicy;
    if cfg.pg.policy == PgPolicy::None {
        return Ok(0.0);
    }
    let s = study.variant(cfg.clone());
    let src = s.cost_source().map_err(|e| EvalError::Study(Box::new(e)))?;
    let chip = s.chip(&src).map_err(|e| EvalError::Study(Box::new(e)))?;
    let point = CostPoint::new(study.tech(), chip.core_clock_hz, cfg);
    let hw = models::gating::cost::hardware(cfg, &point, study.overlay())
        .map_err(|e| EvalError::Gating(e.to_string()))?;
    Ok(hw.iter().map(|h| h.area_m2()).sum())
}

/// Evaluates designs by simulating (or reading the cache) and costing every workload.
pub struct SimEvaluator<'a> {
    space: &'a Space,
    base: GpuConfig,
    set: Vec<(String, String)>,
    study: Study,
    workloads: Vec<&'static dyn Workload>,
    /// The baseline's numbers, its run time per workload and what each design samples each
    /// workload with (the baseline's decisions; off without sampling).
    baseline: OnceLock<(Metrics, Vec<f64>, Vec<crate::sample::Sampling>)>,
    /// Sampling's errors per design name.
    sampled: Mutex<BTreeMap<String, SampleErrors>>,
    evals: AtomicUsize,
    runs: AtomicUsize,
    on_run: Box<dyn Fn() + Send + Sync + 'a>,
}

impl<'a> SimEvaluator<'a> {
    /// Designs of `space` on `base` (with the user's `set` applied last) costed by `study`
    /// (its technology point, size and cache) on `workloads`; `on_run` is called after every
    /// workload run.
    pub fn new(
        space: &'a Space,
        base: GpuConfig,
        set: Vec<(String, String)>,
        study: Study,
        workloads: Vec<&'static dyn Workload>,
        on_run: impl Fn() + Send + Sync + 'a,
    ) -> Self {
        SimEvaluator {
            space,
            base,
            set,
            study,
            workloads,
            baseline: OnceLock::new(),
            sampled: Mutex::new(BTreeMap::new()),
            evals: AtomicUsize::new(0),
            runs: AtomicUsize::new(0),
            on_run: Box::new(on_run),
        }
    }

    /// Workload runs costed so far (simulated or from the cache).
    pub fn runs(&self) -> usize {
        self.runs.load(Ordering::Relaxed)
    }

    /// The configuration of a design.
    pub fn config(&self, d: &Design) -> Result<GpuConfig, EvalError> {
        self.space
            .config(&self.base, d, &self.set)
            .map_err(EvalError::Config)
    }

    /// Kernel sampling's errors of the design named `name` (by [`Space::name`]), when it was
    /// evaluated with sampling on.
    pub fn sample_errors(&self, name: &str) -> Option<SampleErrors> {
        self.sampled
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(name)
            .copied()
    }

    /// Runs `cfg` on every workload: the baseline (`follow` `None`), whose runs also give what
    /// each design samples that workload with, or a design replaying `follow`.
    #[allow(clippy::type_complexity)]
    fn run(
        &self,
        cfg: &GpuConfig,
        follow: Option<&[crate::sample::Sampling]>,
    ) -> Result<(Vec<WorkloadResult>, f64, Vec<crate::sample::Sampling>), EvalError> {
        models::gpu::limits::check_sizes(cfg).map_err(|e| EvalError::Config(e.to_string()))?;
        let study = self.study.variant(cfg.clone()).parallel(false);
        let sampling = study.sampling_settings().clone();
        let results: Result<Vec<(WorkloadResult, crate::sample::Sampling)>, EvalError> = self
            .workloads
            .par_iter()
            .enumerate()
            .map(|(i, w)| {
                if INTERRUPTED.load(Ordering::Relaxed) {
                    return Err(EvalError::Interrupted);
                }
                let r = match follow {
                    Some(f) if sampling.is_on() => study
                        .clone()
                        .sampling(f[i].clone())
                        .run(&[*w])
                        .map(|mut rep| (rep.workloads.remove(0), f[i].clone())),
                    _ => study.run_keep(&[*w]).map(|(mut rep, acts)| {
                        let next = sampling.follow(acts.into_iter().next().and_then(|a| a.sample));
                        (rep.workloads.remove(0), next)
                    }),
                }
                .map_err(|e| EvalError::Study(Box::new(e)));
                self.runs.fetch_add(1, Ordering::Relaxed);
                (self.on_run)();
                r
            })
            .collect();
        let (results, follow): (Vec<WorkloadResult>, Vec<crate::sample::Sampling>) =
            results?.into_iter().unzip();
        // the estimate tree carries every structure the design adds (register-file,
        // issue-stage, gating switches and controllers)
        let area_m2 = match results.first() {
            Some(r) => r.estimate.totals().area_m2,
            None => 0.0,
        };
        self.evals.fetch_add(1, Ordering::Relaxed);
        Ok((results, area_m2, follow))
    }

    /// Keeps the sampling errors of the design `d`'s `results`.
    fn keep_sample_errors(&self, d: &Design, results: &[WorkloadResult]) {
        if let Some(e) = SampleErrors::of(results) {
            self.sampled
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(self.space.name(d), e);
        }
    }

    fn sums(results: &[WorkloadResult], area_m2: f64) -> Metrics {
        Metrics {
            energy_j: results.iter().map(|r| r.energy_j).sum(),
            edp_js: results.iter().map(|r| r.edp_js).sum(),
            ed2p_js2: results
                .iter()
                .map(|r| r.energy_j * r.runtime_s * r.runtime_s)
                .sum(),
            runtime_s: results.iter().map(|r| r.runtime_s).sum(),
            area_mm2: area_m2 * 1e6,
            added_area_mm2: 0.0,
            slowdown: 0.0,
        }
    }

    #[allow(clippy::type_complexity)]
    fn base(&self) -> Result<&(Metrics, Vec<f64>, Vec<crate::sample::Sampling>), EvalError> {
        if let Some(b) = self.baseline.get() {
            return Ok(b);
        }
        let d = Design::baseline(self.space.groups.len());
        let cfg = self.config(&d)?;
        let (results, area, follow) = self.run(&cfg, None)?;
        self.keep_sample_errors(&d, &results);
        let m = Self::sums(&results, area);
        let times = results.iter().map(|r| r.runtime_s).collect();
        Ok(self.baseline.get_or_init(|| (m, times, follow)))
    }

    /// The estimate's area of the baseline's SMs, whole chip and register files, m² (the
    /// bases of `--budget-of sm|chip|rf`).
    pub fn budget_bases_m2(&self) -> Result<[f64; 3], EvalError> {
        let cfg = self.config(&Design::baseline(self.space.groups.len()))?;
        let r = self
            .study
            .variant(cfg)
            .static_only(true)
            .run(&[])
            .map_err(|e| EvalError::Study(Box::new(e)))?;
        let root = &r.area;
        let sm = root.children.first().map_or(0.0, |n| n.totals().area_m2);
        fn rf(n: &models::gpu::Node) -> f64 {
            if n.name == "register file" {
                return n.totals().area_m2;
            }
            n.children.iter().map(rf).sum()
        }
        Ok([sm, root.totals().area_m2, rf(root)])
    }
}

impl Evaluator for SimEvaluator<'_> {
    fn baseline(&self) -> Result<Metrics, EvalError> {
        Ok(self.base()?.0)
    }

    fn evaluate(&self, d: &Design) -> Result<Metrics, EvalError> {
        let (bm, bt, follow) = self.base()?;
        let (bm, bt) = (*bm, bt.clone());
        let cfg = self.config(d)?;
        let (results, area, _) = self.run(&cfg, Some(follow))?;
        self.keep_sample_errors(d, &results);
        let mut m = Self::sums(&results, area);
        m.added_area_mm2 = m.area_mm2 - bm.area_mm2;
        let n = results.len().max(1) as f64;
        m.slowdown = results
            .iter()
            .zip(&bt)
            .map(|(r, &t)| if t > 0.0 { r.runtime_s / t - 1.0 } else { 0.0 })
            .sum::<f64>()
            / n;
        Ok(m)
    }

    fn evaluations(&self) -> usize {
        self.evals.load(Ordering::Relaxed)
    }
}

/// A closed-form evaluator for tests of the search: each option adds its energy change, area
/// and slowdown; options of different groups interact by `interaction` × the product of their
/// energy changes over the baseline energy; a continuous knob `x` adds
/// `curvature·(x − x_opt)²` J and `area_per_unit·x` mm².
pub struct Synthetic {
    /// Baseline energy, J (also used as EDP and ED²P with T = 1 s).
    pub base_energy_j: f64,
    /// Per group, per option: `(ΔE J, area mm², slowdown)`; option 0 must be zeros.
    pub options: Vec<Vec<(f64, f64, f64)>>,
    /// Interaction coefficient.
    pub interaction: f64,
    /// Continuous knob per group: `(x_opt, curvature J, area_per_unit mm²)` applied to every
    /// option > 0 of the group that the space gives a knob.
    pub knob: Vec<Option<(f64, f64, f64)>>,
    /// Evaluations made.
    pub count: AtomicUsize,
}

impl Evaluator for Synthetic {
    fn baseline(&self) -> Result<Metrics, EvalError> {
        self.count.fetch_add(1, Ordering::Relaxed);
        Ok(Metrics {
            energy_j: self.base_energy_j,
            edp_js: self.base_energy_j,
            ed2p_js2: self.base_energy_j,
            runtime_s: 1.0,
            area_mm2: 100.0,
            added_area_mm2: 0.0,
            slowdown: 0.0,
        })
    }

    fn evaluate(&self, d: &Design) -> Result<Metrics, EvalError> {
        self.count.fetch_add(1, Ordering::Relaxed);
        let (mut de, mut area, mut slow) = (0.0, 0.0, 0.0);
        let mut changes = Vec::new();
        for (g, &o) in d.pick.iter().enumerate() {
            let (e, a, s) = self.options[g][o];
            de += e;
            area += a;
            slow += s;
            changes.push(e);
            if let (Some((x0, c, apu)), Some(x)) = (self.knob[g], d.value[g]) {
                if o > 0 {
                    de += c * (x - x0) * (x - x0);
                    area += apu * x;
                }
            }
        }
        for i in 0..changes.len() {
            for j in i + 1..changes.len() {
                de += self.interaction * changes[i] * changes[j] / self.base_energy_j;
            }
        }
        let e = self.base_energy_j + de;
        let t = 1.0 + slow;
        Ok(Metrics {
            energy_j: e,
            edp_js: e * t,
            ed2p_js2: e * t * t,
            runtime_s: t,
            area_mm2: 100.0 + area,
            added_area_mm2: area,
            slowdown: slow,
        })
    }

    fn evaluations(&self) -> usize {
        self.count.load(Ordering::Relaxed)
    }
}
