//! `Study`: the estimate pipeline as a library call — simulate each workload on a GPU
//! configuration (or read a saved Activity), build the chip model at a technology point, cost
//! every run, and collect the results in a [`Report`] that the [`crate::report`] renderers
//! print.
//!
//! One `Study` is one configuration at one technology point. Commands that compare variants
//! (several configurations against a baseline) or search a design space run one `Study` per
//! variant; the pieces of [`Study::run`] ([`Study::cost_source`], [`Study::chip`],
//! [`Study::simulate`], [`Study::cost`]) are public for callers that reuse an Activity across
//! technology points or share one chip model across many runs. The records a study returns
//! ([`Report`], [`WorkloadResult`], ...) are `study/results.rs`.
//!
//! ```no_run
//! use gpuenergy::study::{workloads_named, Study};
//! use sim::config::GpuConfig;
//!
//! let cfg = GpuConfig::preset("gtx480").unwrap();
//! let study = Study::new(cfg, techlib::ResolvedPoint::named("planar45").unwrap(), None);
//! let report = study.run(&workloads_named("hotspot").unwrap()).unwrap();
//! println!("{}", gpuenergy::report::table::render(&report));
//! ```

use crate::recorded_config::{recorded_config_differences, ConfigMismatch};
use crate::study_config::{IntoVariant, StudyConfig};
use models::gating::cost::CostPoint;
use models::gpu::{
    ChipError, ChipModel, Estimate, EstimateError, IdleSms, Node, SourceError, TechCostSource,
};
use models::overlay::{Overlay, OverlayError};
use rayon::prelude::*;
use sim::activity::Activity;
use sim::config::GpuConfig;
use sim::timing::{Program, Simulation, TimingGpu};
use sim::workloads::{self, Size, Workload};
use sim::SimError;
use std::path::PathBuf;
use std::sync::Arc;

pub mod board;
mod results;
mod sampling;
pub use results::{NamedOverlay, PgRunMetrics, Report, WorkloadResult};

/// Progress callback: called once per finished simulation with the workload's name, the
/// number finished so far and the total. Called from worker threads when running in parallel.
pub type Progress = dyn Fn(&str, usize, usize) + Send + Sync;

/// Why a study could not run. Each message names the input at fault (file, workload, node,
/// component) and, where there is a choice, the values allowed.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// The calibration overlay could not be read or is malformed.
    #[error(transparent)]
    Overlay(#[from] OverlayError),
    /// The technology point could not be set up (node, flavour, operating point, SRAM model).
    #[error(transparent)]
    Tech(#[from] SourceError),
    /// A component of the chip model could not be costed.
    #[error(transparent)]
    Chip(#[from] ChipError),
    /// A knob a technique derives from the technology point
    /// ([`models::technique::DerivedTiming`]) could not be derived; the message names the knob.
    #[error("{0}")]
    Derived(String),
    /// The power-gating physics or accounting refused its inputs.
    #[error("power gating: {0}")]
    Gating(#[from] models::gating::GatingError),
    /// The register-file technique models or accounting refused their inputs.
    #[error("register file: {0}")]
    Rf(#[from] models::rf::RfError),
    /// The issue-stage structures could not be costed.
    #[error(transparent)]
    Issue(#[from] crate::issuecost::IssueError),
    /// A technique's costing failed ([`crate::costing`]).
    #[error(transparent)]
    Costing(#[from] crate::costing::CostingError),
    /// A static estimate (no run) of a configuration whose technique's structures can be
    /// costed only from a run.
    #[error(
        "technique costing '{technique}' cannot cost its structures without a run ({reason}): \
         the chip's area and leakage with them need an Activity; run without --static"
    )]
    StaticTechnique {
        /// The costing's key.
        technique: &'static str,
        /// Why.
        reason: String,
    },
    /// The saved Activity file could not be read.
    #[error("cannot read activity file {}", path.display())]
    ReadActivity {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        error: std::io::Error,
    },
    /// The saved Activity file is not a valid Activity record.
    #[error(transparent)]
    Activity(SimError),
    /// The saved Activity was recorded on another configuration than the one being costed.
    #[error("{0}")]
    ConfigMismatch(Box<ConfigMismatch>),
    /// No built-in workload has this name.
    #[error("unknown workload '{name}'; known: {known}")]
    UnknownWorkload {
        /// The name asked for.
        name: String,
        /// The built-in workloads, comma-separated.
        known: String,
    },
    /// The simulation of a workload failed.
    #[error("simulating workload '{name}'")]
    Simulation {
        /// The workload.
        name: String,
        /// Why.
        #[source]
        error: SimError,
    },
    /// The analytical activity source cannot represent the configuration (a mechanism only the
    /// cycle-level simulator counts); the message names the knob and the values allowed.
    #[error("{0}")]
    ActivitySource(String),
    /// `prf.lat_srf = "derived"` could not be resolved from the register-file model.
    #[error("'prf.lat_srf' = \"derived\": {0}")]
    PrfDerivedLatency(String),
    /// An estimate broke an invariant (a non-finite or negative number, a group that is not
    /// the sum of its children, a share outside [0, 1]); nothing is printed.
    #[error("invalid estimate of {workload} (refusing to print it): {error}")]
    Invalid {
        /// The run (or the static view).
        workload: String,
        /// The node path and quantity.
        error: EstimateError,
    },
}

/// The built-in workloads `name` selects: `all` for the whole suite, else the one named, or a
/// comma-separated list of names (each once, in the order given).
pub fn workloads_named(name: &str) -> Result<Vec<&'static dyn Workload>, StudyError> {
    if name == "all" {
        return Ok(workloads::all());
    }
    let mut list: Vec<&'static dyn Workload> = Vec::new();
    for one in name.split(',').map(str::trim) {
        let w = workloads::find(one).ok_or_else(|| StudyError::UnknownWorkload {
            name: one.to_string(),
            known: workloads::all()
                .iter()
                .map(|w| w.info().name)
                .collect::<Vec<_>>()
                .join(", "),
        })?;
        if !list.iter().any(|x| x.info().name == w.info().name) {
            list.push(w);
        }
    }
    Ok(list)
}

/// The junction temperature every command costs at unless told otherwise, K (the one
/// default of [`techlib::ResolvedPoint::resolve`]).
pub use techlib::DEFAULT_TEMPERATURE_K;

/// The technology point of a node name, an optional supply (V) or named operating point, an
/// optional device flavour and a temperature (K), as every command and sweep file gives it,
/// resolved once ([`techlib::ResolvedPoint::resolve`]: the one set of defaults; the finfet7
/// node at its `stv` point when neither a supply nor a point is named).
pub fn tech_choice(
    tech: &str,
    vdd: Option<f64>,
    op: Option<&str>,
    device: Option<&str>,
    temperature_k: f64,
) -> anyhow::Result<techlib::ResolvedPoint> {
    Ok(techlib::ResolvedPoint::resolve(
        tech,
        device,
        vdd,
        op,
        Some(temperature_k),
    )?)
}

/// Where a study's activity comes from when it runs workloads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ActivitySource {
    /// The cycle-level simulator (`sim::timing`).
    #[default]
    Sim,
    /// The analytical activity source: functional counts and the analytical scheduling
    /// model's timing; a quick what-if, not a simulation (docs/estimate.md).
    Model,
    /// The reference-mode model of DWF, MIMD and NREC (scheduler-level timing, one warp per
    /// scheduler cycle); runs with `reconv.mode` = dwf, mimd or nrec use it whatever the
    /// source (docs/estimate.md).
    Reference,
}

impl ActivitySource {
    /// `"sim"` or `"model"`, as the JSON output's `activity_source` writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ActivitySource::Sim => "sim",
            ActivitySource::Model => crate::amodel::SOURCE_NAME,
            ActivitySource::Reference => "reference",
        }
    }
}

/// What a study costs besides the static view.
#[derive(Clone, Debug)]
enum Input {
    /// Simulate the workloads given to [`Study::run`].
    Simulate,
    /// Area and leakage only.
    Static,
    /// Cost a saved Activity file instead of simulating.
    Activity(PathBuf),
    /// Cost an Activity already in memory (a host program driven through the library), under
    /// its label.
    Given(Arc<Activity>, String),
}

/// The estimate pipeline for one GPU configuration at one technology point. Cloning is cheap
/// apart from the configuration; [`Study::variant`] and [`Study::at`] derive the studies of a
/// comparison or a sweep.
#[derive(Clone)]
pub struct Study {
    cfg: StudyConfig,
    tech: techlib::ResolvedPoint,
    overlay: Option<NamedOverlay>,
    size: Size,
    input: Input,
    progress: Option<Arc<Progress>>,
    parallel: bool,
    idle_sms: IdleSms,
    recost: bool,
    cache: Option<Arc<crate::activity_cache::ActivityCache>>,
    source: ActivitySource,
    costings: Arc<crate::costing::Registry>,
    board: Option<models::gpu::board::BoardScalars>,
    sampling: crate::sample::Sampling,
}

impl Study {
    /// A study of `cfg` at `tech`, logic calibrated by `overlay` where it has fits. Defaults:
    /// `test` size, simulate the workloads given to [`Study::run`], in parallel, no progress.
    pub fn new(
        cfg: impl Into<StudyConfig>,
        tech: techlib::ResolvedPoint,
        overlay: Option<NamedOverlay>,
    ) -> Study {
        Study {
            cfg: cfg.into(),
            tech,
            overlay,
            size: Size::Test,
            input: Input::Simulate,
            progress: None,
            parallel: true,
            idle_sms: IdleSms::default(),
            recost: false,
            cache: None,
            source: ActivitySource::Sim,
            costings: Arc::new(crate::costing::builtin()),
            board: None,
            sampling: crate::sample::Sampling::default(),
        }
    }

    /// Costs runs with `costings` instead of the built-in registry
    /// ([`crate::costing::builtin`]): to add a technique's costing, register it after the
    /// built-in ones.
    pub fn costings(mut self, costings: crate::costing::Registry) -> Study {
        self.costings = Arc::new(costings);
        self
    }

    /// Input size tier of the workloads.
    pub fn size(mut self, size: Size) -> Study {
        self.size = size;
        self
    }

    /// Only area and leakage: [`Study::run`] simulates nothing and ignores its workloads.
    pub fn static_only(mut self, on: bool) -> Study {
        if on {
            self.input = Input::Static;
        } else if matches!(self.input, Input::Static) {
            self.input = Input::Simulate;
        }
        self
    }

    /// Cost the Activity saved in `path` (by `gpuenergy simulate --out`) instead of simulating;
    /// [`Study::run`] ignores its workloads.
    pub fn activity(mut self, path: impl Into<PathBuf>) -> Study {
        self.input = Input::Activity(path.into());
        self
    }

    /// Cost `act`, an Activity in memory labelled `label` (a host program that drove a
    /// [`TimingGpu`] through the library), instead of simulating; [`Study::run`] ignores its
    /// workloads. The record is checked as a saved one is (consistency, configuration hash,
    /// SM count).
    pub fn given_activity(mut self, act: Activity, label: impl Into<String>) -> Study {
        self.input = Input::Given(Arc::new(act), label.into());
        self
    }

    /// Cost a saved Activity even when it was recorded on another configuration (its
    /// `config_hash` differs from this study's); without it such an Activity is refused.
    pub fn recost(mut self, on: bool) -> Study {
        self.recost = on;
        self
    }

    /// Called after each simulation finishes (see [`Progress`]).
    pub fn on_progress(mut self, f: impl Fn(&str, usize, usize) + Send + Sync + 'static) -> Study {
        self.progress = Some(Arc::new(f));
        self
    }

    /// Simulate the workloads in parallel on rayon's pool (default) or one after another.
    /// Results are in the workloads' order either way.
    pub fn parallel(mut self, on: bool) -> Study {
        self.parallel = on;
        self
    }

    /// Look simulations up in `cache` (keyed by the simulated configuration, workload and
    /// size) before running them, and store the ones that ran.
    pub fn cache(mut self, cache: Arc<crate::activity_cache::ActivityCache>) -> Study {
        self.cache = Some(cache);
        self
    }

    /// Where the workloads' activity comes from: the cycle-level simulator (default) or the
    /// analytical activity source ([`crate::amodel`]), which refuses configurations it cannot
    /// represent when the study runs.
    pub fn activity_source(mut self, source: ActivitySource) -> Study {
        self.source = source;
        self
    }

    /// Whether SMs without a resident CTA leak (default: power-gated, see [`IdleSms`]).
    pub fn idle_sms(mut self, idle: IdleSms) -> Study {
        self.idle_sms = idle;
        self
    }

    /// Adds the board model's power of every run ([`board`]) with these scalars.
    pub fn board_power(mut self, scalars: Option<models::gpu::board::BoardScalars>) -> Study {
        self.board = scalars;
        self
    }

    /// The same study (technology point, overlay, input, options) of another configuration:
    /// one variant of a comparison against a baseline. A machine alone ([`GpuConfig`]) keeps
    /// the study's `[energy]` and `[opt]`; a [`StudyConfig`] replaces them too.
    pub fn variant(&self, cfg: impl IntoVariant) -> Study {
        Study {
            cfg: cfg.into_variant(&self.cfg),
            ..self.clone()
        }
    }

    /// The same study at another technology point (a sweep over nodes or supplies).
    pub fn at(&self, tech: techlib::ResolvedPoint) -> Study {
        Study {
            tech,
            ..self.clone()
        }
    }

    /// The configuration studied.
    pub fn config(&self) -> &StudyConfig {
        &self.cfg
    }

    /// The technology point studied.
    pub fn tech(&self) -> &techlib::ResolvedPoint {
        &self.tech
    }

    /// The logic calibration overlay, when the study has one.
    pub fn overlay(&self) -> Option<&Overlay> {
        self.overlay.as_ref().map(|o| &o.overlay)
    }

    /// The cost source at the study's technology point (with the overlay, named).
    pub fn cost_source(&self) -> Result<TechCostSource, StudyError> {
        let src =
            TechCostSource::new(&self.tech, self.overlay.as_ref().map(|o| o.overlay.clone()))?;
        Ok(match &self.overlay {
            Some(o) => src.with_overlay_name(&o.name),
            None => src,
        })
    }

    /// The chip model of the configuration costed by `src`.
    pub fn chip(&self, src: &TechCostSource) -> Result<ChipModel, StudyError> {
        let mut chip = ChipModel::build(&self.cfg, src)?;
        chip.idle_sms = self.idle_sms;
        let knob = format!(
            "core clock (gpu.core_mhz = {} of '{}', scaled to this supply by the FO4 ratio)",
            self.cfg.gpu.core_mhz, self.cfg.gpu.name
        );
        src.check_core_clock(chip.core_clock_hz, &knob)?;
        Ok(chip)
    }

    /// Simulates one workload on the cycle-level timing model and returns its Activity, on the
    /// study's configuration as it stands (with `pg.timing = "Physical"`, call it on
    /// `self.variant(self.timed_config(&chip)?)`, as [`Study::run`] does, so that `pg.bet` and
    /// `pg.wakeup` come from the sleep-transistor model).
    /// The record carries the study configuration's hash ([`StudyConfig::hash_hex`]).
    pub fn simulate(&self, w: &dyn Workload) -> Result<Activity, StudyError> {
        let mut activity = self.simulate_sampled(w)?;
        activity.config_hash = self.cfg.hash_hex();
        Ok(activity)
    }

    /// [`Study::simulate`] with the record as the simulator stamps it (the machine's hash),
    /// its launches sampled when `sample` is set.
    fn simulate_machine(&self, w: &dyn Workload, sample: bool) -> Result<Activity, StudyError> {
        let name = w.info().name;
        let failed = |error| StudyError::Simulation {
            name: name.to_string(),
            error,
        };
        if self.source == ActivitySource::Model {
            crate::amodel::check_representable(&self.cfg).map_err(StudyError::ActivitySource)?;
            return crate::amodel::run_workload(&self.cfg, w, self.size).map_err(failed);
        }
        if self.source == ActivitySource::Reference
            || self.cfg.reconv.mode != sim::config::reconv::ReconvMode::Pdom
        {
            let mut gpu = sim::timing::dwf::refmodel::RefGpu::new(&self.cfg).map_err(failed)?;
            w.run(self.size, &mut gpu, false).map_err(failed)?;
            return Ok(gpu.into_activity());
        }
        let (ran, activity) = Simulation::new(&self.cfg)
            .run(Program(|gpu: &mut TimingGpu| {
                if sample {
                    gpu.set_sampling(self.sampling.settings.clone());
                }
                w.run(self.size, gpu, false)
            }))
            .map_err(failed)?;
        ran.map_err(failed)?;
        Ok(activity)
    }

    /// Costs one run's Activity with `chip`; `tech` labels the estimate.
    pub fn cost(
        &self,
        chip: &ChipModel,
        tech: &str,
        label: &str,
        act: &Activity,
    ) -> Result<WorkloadResult, StudyError> {
        let k = &act.aggregate;
        let mut e = chip.estimate(label, tech, self.tech.temperature_k(), k);
        let src = self.cost_source()?;
        let ctx = models::technique::CostContext {
            cfg: &self.cfg,
            energy: &self.cfg.energy,
            tech: &self.tech,
            source: &src,
            chip,
            overlay: self.overlay.as_ref().map(|o| &o.overlay),
        };
        let techniques = crate::costing::Records(self.costings.cost(&ctx, &mut e, k)?);
        // a plain run's own §8 energy, for comparisons; a configuration the register-file
        // model cannot cost (node, geometry) still gets its estimate
        let rf_plain = match techniques.get("rf") {
            None => {
                crate::rfcost::plain_energy(&self.cfg, &self.cfg.energy, &self.tech, chip, k).ok()
            }
            Some(_) => None,
        };
        e.validate().map_err(|error| StudyError::Invalid {
            workload: label.to_string(),
            error,
        })?;
        let tot = e.totals();
        let sample = self.sample_report(chip, tech, act, e.energy_j())?;
        Ok(WorkloadResult {
            workload: label.to_string(),
            cycles: k.cycles,
            warp_instructions: k.warp_insts,
            truncated: act.is_truncated(),
            runtime_s: e.runtime_s,
            energy_j: e.energy_j(),
            dynamic_j: tot.dynamic_j,
            leakage_j: tot.leakage_j,
            average_power_w: e.average_power_w(),
            edp_js: e.edp_js(),
            estimate: e,
            techniques,
            rf_plain,
            pg_metrics: PgRunMetrics::of(k),
            launches: k.launches,
            sample,
        })
    }

    /// The configuration to simulate: the study's, with `pg.bet`/`pg.wakeup` derived from the
    /// sleep-transistor model at this technology point when `pg.timing = "Physical"` (the
    /// simulator sees only those integers; power-gating §0, §1.7).
    pub fn timed_config(&self, chip: &ChipModel) -> Result<GpuConfig, StudyError> {
        use sim::config::pg::{PgPolicy, PgTiming};
        let mut cfg = self.cfg.machine.clone();
        if cfg.pg.policy != PgPolicy::None && cfg.pg.timing == PgTiming::Physical {
            let point = CostPoint::new(&self.tech, chip.core_clock_hz, &cfg);
            let (bet, w) =
                point.physical_timing(&cfg, self.overlay.as_ref().map(|o| &o.overlay))?;
            cfg.pg.bet = bet;
            cfg.pg.wakeup = w;
        }
        if cfg.prf.enabled && cfg.prf.lat_srf == sim::config::prf::LatSrf::Derived {
            let cycles = derived_srf_cycles(&cfg, &self.tech, chip.core_clock_hz)?;
            cfg.prf.lat_srf = sim::config::prf::LatSrf::Cycles(cycles);
        }
        for d in crate::technique::derived_timings() {
            if d.wanted(&cfg) {
                d.derive(&self.tech, chip, &mut cfg, "")
                    .map_err(StudyError::Derived)?;
            }
        }
        Ok(cfg)
    }

    /// The knobs the registered techniques derive from this study's technology point
    /// ([`models::technique::DerivedTiming`], [`crate::technique::derived_timings`]) written into `cfg`, with one note line
    /// per derived knob for technology label `tech`.
    pub fn derive_timings(
        &self,
        chip: &ChipModel,
        cfg: &mut GpuConfig,
        tech: &str,
    ) -> Result<Vec<String>, StudyError> {
        let mut notes = Vec::new();
        for d in crate::technique::derived_timings() {
            if d.wanted(cfg) {
                notes.extend(
                    d.derive(&self.tech, chip, cfg, tech)
                        .map_err(StudyError::Derived)?,
                );
            }
        }
        Ok(notes)
    }

    /// The static tree of the chip (area and leakage power with every block powered, no run)
    /// with the structures of the configuration's techniques: every registered costing's
    /// [`models::technique::TechniqueCost::cost_static`] on [`ChipModel::static_estimate`],
    /// the same leaves, areas and leakage powers as in a run's tree. A costing that cannot
    /// cost its structures without a run is [`StudyError::StaticTechnique`].
    /// Returns the tree and the keys of the costings that put structures into it.
    pub fn static_tree(
        &self,
        chip: &ChipModel,
        src: &TechCostSource,
    ) -> Result<(Node, Vec<&'static str>), StudyError> {
        let label = format!("{} (area and leakage)", self.cfg.gpu.name);
        let mut e = Estimate {
            root: chip.static_estimate(&label),
            label,
            tech: src.label.clone(),
            vdd_v: src.vdd_v_value(),
            temperature_k: self.tech.temperature_k(),
            core_clock_hz: chip.core_clock_hz,
            runtime_s: 0.0,
            sm_use: Default::default(),
        };
        let ctx = models::technique::CostContext {
            cfg: &self.cfg,
            energy: &self.cfg.energy,
            tech: &self.tech,
            source: src,
            chip,
            overlay: self.overlay.as_ref().map(|o| &o.overlay),
        };
        let keys = self
            .costings
            .cost_static(&ctx, &mut e)
            .map_err(|e| match e {
                models::technique::StaticError::Costing(c) => StudyError::Costing(c),
                models::technique::StaticError::NeedsRun { technique, reason } => {
                    StudyError::StaticTechnique { technique, reason }
                }
            })?;
        Ok((e.root, keys))
    }

    /// Simulates `list` (in order; in parallel unless turned off), reporting progress.
    fn simulate_all(&self, list: &[&dyn Workload]) -> Result<Vec<(String, Activity)>, StudyError> {
        let done = std::sync::atomic::AtomicUsize::new(0);
        let size = format!("{:?}", self.size);
        let one = |w: &&dyn Workload| {
            let name = w.info().name;
            let cache = match self.source {
                ActivitySource::Sim => self.cache.as_ref(),
                // the cache holds simulated records only (a PDOM run on the reference-mode
                // model has the cycle-level run's configuration)
                ActivitySource::Model | ActivitySource::Reference => None,
            };
            // a built-in workload is keyed by its name, a user program by its content
            let id = match self.sampling.cache_key() {
                Some(k) => format!("{}\n{k}", w.identity()),
                None => w.identity(),
            };
            let act = match cache {
                Some(c) => match c.get(&self.cfg, &id, &size) {
                    Some(a) => a,
                    None => {
                        let a = self.simulate(*w)?;
                        // a cache that cannot be written only costs a re-simulation later
                        let _ = c.put(&self.cfg, &id, &size, &a);
                        a
                    }
                },
                None => self.simulate(*w)?,
            };
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if let Some(p) = &self.progress {
                p(name, n, list.len());
            }
            Ok((name.to_string(), act))
        };
        if self.parallel {
            list.par_iter().map(one).collect()
        } else {
            list.iter().map(one).collect()
        }
    }

    /// Runs the pipeline: the static view, then every workload of `list` simulated and costed
    /// (or the saved Activity, or nothing for a static-only study).
    pub fn run(&self, list: &[&dyn Workload]) -> Result<Report, StudyError> {
        self.run_keep(list).map(|(report, _)| report)
    }

    /// [`Study::run`] that also returns the Activity of every costed run, in the report's
    /// order (a sweep stores them beside the estimates).
    pub fn run_keep(&self, list: &[&dyn Workload]) -> Result<(Report, Vec<Activity>), StudyError> {
        let src = self.cost_source()?;
        let chip = self.chip(&src)?;
        let tech = src.label.clone();
        // a costing that gives its structures only from a run refuses a static estimate; with
        // runs, the first run's tree without its energies stands for the static one
        let area = match self.static_tree(&chip, &src) {
            Err(StudyError::StaticTechnique { .. }) if !matches!(self.input, Input::Static) => None,
            other => Some(other?),
        };
        let mut results = Vec::new();
        let mut activities = Vec::new();
        let mut activity_source = self.source.as_str().to_string();
        if matches!(self.input, Input::Simulate) && self.source == ActivitySource::Model {
            crate::amodel::check_representable(&self.cfg).map_err(StudyError::ActivitySource)?;
        }
        match &self.input {
            Input::Static => {}
            Input::Activity(_) | Input::Given(..) => {
                let (act, label) = match &self.input {
                    Input::Activity(path) => {
                        let text = std::fs::read_to_string(path).map_err(|error| {
                            StudyError::ReadActivity {
                                path: path.clone(),
                                error,
                            }
                        })?;
                        let label = path.display().to_string();
                        let act =
                            Activity::from_json(&text, &label).map_err(StudyError::Activity)?;
                        (act, label)
                    }
                    Input::Given(act, label) => ((**act).clone(), label.clone()),
                    _ => unreachable!("matched above"),
                };
                act.check_consistent(&label).map_err(StudyError::Activity)?;
                let config_hash = self.cfg.hash_hex();
                if act.config_hash != config_hash && !self.recost {
                    return Err(StudyError::ConfigMismatch(Box::new(ConfigMismatch {
                        path: PathBuf::from(&label),
                        activity_gpu: act.config_name.clone(),
                        activity_hash: act.config_hash.clone(),
                        config_gpu: self.cfg.gpu.name.clone(),
                        config_hash,
                        differs: recorded_config_differences(&act, &self.cfg),
                    })));
                }
                let record_sms = act.aggregate.sms.len();
                if record_sms != self.cfg.gpu.n_sm as usize {
                    return Err(StudyError::Activity(sim::SimError::Parse {
                        file: label.clone(),
                        line: 1,
                        col: 1,
                        msg: format!(
                            "the record has {record_sms} SMs, but configuration '{}' has \
                             gpu.n_sm = {}: its per-SM counts cannot be costed on this chip",
                            self.cfg.gpu.name, self.cfg.gpu.n_sm
                        ),
                    }));
                }
                activity_source = act
                    .provenance
                    .as_ref()
                    .map_or_else(|| "sim".to_string(), |p| p.source.clone());
                results.push(self.cost(&chip, &tech, &label, &act)?);
                activities.push(act);
            }
            Input::Simulate => {
                let sim = self.variant(self.timed_config(&chip)?);
                for (name, act) in sim.simulate_all(list)? {
                    if let Some(p) = &act.provenance {
                        activity_source = p.source.clone();
                    }
                    results.push(self.cost(&chip, &tech, &name, &act)?);
                    activities.push(act);
                }
            }
        }
        let (area, structures) = match area {
            Some((a, keys)) => (a, keys.iter().map(|k| k.to_string()).collect()),
            None => match results.first() {
                Some(w) => (
                    without_energy(&w.estimate.root),
                    w.techniques.0.iter().map(|(k, _)| k.to_string()).collect(),
                ),
                None => (Node::default(), Vec::new()),
            },
        };
        let st = area.totals();
        let mut run = crate::provenance::RunInfo::new();
        run.config_name = self.cfg.gpu.name.clone();
        run.config_hash = self.cfg.hash_hex();
        let mut label = tech.split(' ');
        run.node = label.next().unwrap_or_default().to_string();
        run.flavour = label.next().unwrap_or_default().to_string();
        run.vdd_v = src.vdd_v_value();
        run.temperature_k = self.tech.temperature_k();
        run.core_clock_hz = chip.core_clock_hz;
        // a user program has fixed sizes: the tier does not apply to it
        let all_programs =
            !list.is_empty() && list.iter().all(|w| w.identity().starts_with("program:"));
        run.size = if (matches!(self.input, Input::Simulate) && all_programs)
            || matches!(self.input, Input::Given(..))
        {
            "program".into()
        } else {
            self.size.as_str().into()
        };
        run.workloads = results.iter().map(|r| r.workload.clone()).collect();
        run.activity_source = if results.is_empty() {
            "none".into()
        } else {
            activity_source.clone()
        };
        let mut report = Report {
            run,
            tech,
            vdd_v: src.vdd_v_value(),
            temperature_k: self.tech.temperature_k(),
            gpu: self.cfg.gpu.name.clone(),
            area_m2: results
                .first()
                .map_or(st.area_m2, |w| w.estimate.totals().area_m2),
            leakage_w: st.leakage_w,
            area,
            technique_structures: structures,
            workloads: results,
            activity_source,
            core_clock_hz: chip.core_clock_hz,
            board: None,
        };
        if let Some(scalars) = &self.board {
            let b = board::section(&report, &self.cfg.machine, scalars.clone());
            report.board = Some(b);
        }
        let label = format!("{} (area and leakage)", self.cfg.gpu.name);
        report
            .static_estimate(label.clone())
            .validate()
            .map_err(|error| StudyError::Invalid {
                workload: label,
                error,
            })?;
        Ok((report, activities))
    }
}

/// `n` with its energies set to zero (area and leakage power kept), every node.
fn without_energy(n: &Node) -> Node {
    Node {
        dynamic_j: 0.0,
        leakage_j: 0.0,
        gating_overhead_j: 0.0,
        children: n.children.iter().map(without_energy).collect(),
        ..n.clone()
    }
}

/// `prf.lat_srf = "derived"` (register-file spec §5.3): ⌈t_access(V_SRF) / t_clk⌉ of the SRF
/// array of `cfg`'s partitioned RF, from the register-file structures model
/// (`models::rf::structures`) at `tech`'s node and flavour, with the SRF at `prf.v_srf`, the
/// FRF at `prf.v_frf`, `cfg`'s entries, banks, warps and n, clocked at `clock_hz`.
pub fn derived_srf_cycles(
    cfg: &GpuConfig,
    tech: &techlib::ResolvedPoint,
    clock_hz: f64,
) -> Result<u32, StudyError> {
    use models::rf::structures::{evaluate, RfDesign};
    let design = RfDesign {
        node: tech.node().clone(),
        flavour: Some(tech.flavour()),
        temperature_k: tech.temperature_k(),
        entries: cfg.sm.n_registers / cfg.gpu.warp_size.max(1),
        entry_bytes: cfg.rf.entry_bytes,
        lanes: cfg.gpu.warp_size,
        banks: cfg.rf.n_banks,
        n_fast: cfg.prf.n_fast,
        max_warps: cfg.sm.max_warps,
        partitioned: true,
        adaptive_frf: false,
        vdd_stv_v: Some(cfg.prf.v_frf),
        vdd_ntv_v: Some(cfg.prf.v_srf),
        issue_width: sim::config::prf::sm_issue_width(cfg),
        clock_hz,
        ..RfDesign::kepler_ch6()
    };
    let rf = evaluate(&design, None).map_err(|e| StudyError::PrfDerivedLatency(e.to_string()))?;
    rf.derived_latencies().srf.ok_or_else(|| {
        StudyError::PrfDerivedLatency(format!(
            "'prf.n_fast' = {}: the FRF holds every entry, so there is no SRF to time",
            cfg.prf.n_fast
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workload_lists_are_comma_separated_and_checked() {
        let l = workloads_named("hotspot, bfs,hotspot").unwrap();
        let names: Vec<&str> = l.iter().map(|w| w.info().name).collect();
        assert_eq!(names, ["hotspot", "bfs"]);
        let e = workloads_named("hotspot,nope").err().unwrap().to_string();
        assert!(e.contains("nope") && e.contains("hotspot"), "{e}");
    }

    #[test]
    fn unknown_workload_names_the_known_ones() {
        let Err(e) = workloads_named("nosuch") else {
            panic!("'nosuch' is not a workload");
        };
        let e = e.to_string();
        assert!(e.contains("'nosuch'") && e.contains("hotspot"), "{e}");
    }

    #[test]
    fn static_study_has_no_runs_and_positive_area() {
        let cfg = GpuConfig::preset("gtx480").unwrap();
        let r = Study::new(
            cfg,
            techlib::ResolvedPoint::named("planar45").unwrap(),
            None,
        )
        .static_only(true)
        .run(&[])
        .unwrap();
        assert!(r.workloads.is_empty());
        assert!(r.area_m2 > 0.0 && r.leakage_w > 0.0);
        assert_eq!(r.gpu, "gtx480");
        let mut cfg = GpuConfig::preset("gtx480").unwrap();
        cfg.gpu.n_sm = 1;
        let one = Study::new(
            GpuConfig::preset("gtx480").unwrap(),
            techlib::ResolvedPoint::named("planar45").unwrap(),
            None,
        )
        .static_only(true)
        .variant(cfg)
        .run(&[])
        .unwrap();
        assert!(one.area_m2 < r.area_m2, "one SM is smaller than fifteen");
        let cold = techlib::ResolvedPoint::named("planar45")
            .unwrap()
            .with_temperature_k(300.0)
            .unwrap();
        let cold = Study::new(
            GpuConfig::preset("gtx480").unwrap(),
            techlib::ResolvedPoint::named("planar45").unwrap(),
            None,
        )
        .static_only(true)
        .at(cold)
        .run(&[])
        .unwrap();
        assert!(
            cold.leakage_w < r.leakage_w,
            "leakage falls with temperature"
        );
    }
}
