//! What a study returns: a [`Report`] (the technology point, the chip's area and leakage, every
//! workload's costed run), each run's [`WorkloadResult`] with its technique records, the
//! power-gating metrics compared against a reference run ([`PgRunMetrics`]) and the calibration
//! overlay a study costs with ([`NamedOverlay`]).

use super::StudyError;
use models::gating::cost::ClassCost;
use models::gpu::{Estimate, Node};
use models::overlay::Overlay;
use serde::Serialize;
use std::path::Path;

/// A calibration overlay and the name its calibrated costs carry in their source.
#[derive(Clone, Debug)]
pub struct NamedOverlay {
    /// How sources name it (the file it came from).
    pub name: String,
    /// The overlay's fitted coefficients.
    pub overlay: Overlay,
}

impl NamedOverlay {
    /// Reads an overlay file; its name is the path as given.
    pub fn load(path: &Path) -> Result<NamedOverlay, StudyError> {
        Ok(NamedOverlay {
            name: path.display().to_string(),
            overlay: Overlay::load(path)?,
        })
    }
}

/// One workload's costed run.
#[derive(Clone, Debug, Serialize)]
pub struct WorkloadResult {
    /// Workload name (or the Activity file's label).
    pub workload: String,
    /// Simulated core cycles, all launches.
    pub cycles: u64,
    /// Warp instructions issued, all launches.
    pub warp_instructions: u64,
    /// A launch was stopped early (`sim.max_cycles` / `sim.max_warp_insts`): the counts, and
    /// so the energies, cover only part of the run.
    pub truncated: bool,
    /// Run time at the technology point's clock, s.
    pub runtime_s: f64,
    /// Total energy (dynamic + leakage + gating overhead), J.
    pub energy_j: f64,
    /// Dynamic energy, J.
    pub dynamic_j: f64,
    /// Leakage energy, J.
    pub leakage_j: f64,
    /// Energy over run time, W.
    pub average_power_w: f64,
    /// Energy-delay product, J·s.
    pub edp_js: f64,
    /// The whole component tree of the run.
    pub estimate: Estimate,
    /// What each technique's costing recorded about the run ([`crate::costing`]), one JSON
    /// field per record in the order the costings ran: `gating` (per gated domain class, the
    /// power-gating §1.6 accounting; absent without gating), `rf` (the register-file
    /// techniques' §8 accounting; absent without one), `issue` (the issue stage's structures,
    /// issue-stage §4: the baseline's I-buffer and scoreboards, or an out-of-order stage's), `dwf`
    /// (the DWF scheduler's hardware, control-flow §5.7, also in the tree as the SMs' "DWF
    /// scheduler" group; absent without DWF).
    #[serde(flatten)]
    pub techniques: crate::costing::Records,
    /// The §8 energy of a plain MRF on this run's register accesses (the baseline of a
    /// comparison); `None` when the run has a technique or the model could not cost it.
    #[serde(skip)]
    pub rf_plain: Option<models::rf::accounting::RfEnergy>,
    /// Run-level power-gating §9 metrics that `compare` sets against its baseline: the active
    /// set, the folding record, and the INT and FP pipes' idle time. Not written by `run`.
    #[serde(skip)]
    pub pg_metrics: PgRunMetrics,
    /// Kernel launches the run timed (the board model takes their launch latency out of the
    /// time a kernel repeated in a loop is busy).
    #[serde(skip)]
    pub launches: u64,
    /// What kernel sampling did and its estimated errors, for a sampled run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample: Option<crate::sample::SampleReport>,
}

impl WorkloadResult {
    /// The power-gating accounting per gated domain class, when the run is gated.
    pub fn gating(&self) -> Option<&Vec<ClassCost>> {
        match self.techniques.get("gating") {
            Some(crate::costing::Record::Gating(c)) => Some(c),
            _ => None,
        }
    }

    /// The register-file techniques' accounting, when the run has one.
    pub fn rf(&self) -> Option<&crate::rfcost::RfCost> {
        match self.techniques.get("rf") {
            Some(crate::costing::Record::Rf(r)) => Some(r),
            _ => None,
        }
    }

    /// The issue stage's costed structures (present whenever the built-in costings ran).
    pub fn issue(&self) -> Option<&crate::issuecost::IssueRun> {
        match self.techniques.get("issue") {
            Some(crate::costing::Record::Issue(r)) => Some(r),
            _ => None,
        }
    }

    /// The DWF scheduler's hardware, for a DWF run.
    pub fn dwf(&self) -> Option<&crate::dwfcost::DwfHardware> {
        match self.techniques.get("dwf") {
            Some(crate::costing::Record::Dwf(h)) => Some(h),
            _ => None,
        }
    }
}

/// The power-gating §9 metrics of one run that are compared against a reference run.
#[derive(Clone, Debug, Default)]
pub struct PgRunMetrics {
    /// Schedulers' active-set size (present with gating controllers or folding).
    pub active_set: Option<sim::activity::ActiveSetStats>,
    /// Warp folding (present with `fold.enabled`).
    pub fold: Option<sim::activity::FoldStats>,
    /// INT pipes' idle time, whatever the gating: `[pipe, lane]` × `[idle, total]` cycles.
    pub int_idle: [[u64; 2]; 2],
    /// FP pipes' idle time, as `int_idle`.
    pub fp_idle: [[u64; 2]; 2],
    /// `pg.bet` the controllers ran with (0 without gating).
    pub bet: u32,
}

impl PgRunMetrics {
    /// The metrics of aggregate record `k`: idle cycles and cycles of the SP clusters' INT and
    /// FP pipes (and of separate INT units) from their timelines, whole pipe (busy when any
    /// lane is) and per lane.
    pub fn of(k: &sim::activity::KernelActivity) -> Self {
        let mut m = PgRunMetrics {
            active_set: k.gating.as_ref().and_then(|g| g.active_set),
            fold: k.gating.as_ref().and_then(|g| g.fold.clone()),
            bet: k.gating.as_ref().map_or(0, |g| g.bet),
            ..Default::default()
        };
        for p in k.sms.iter().flat_map(|s| &s.exec) {
            let acc = match p.pipe.as_str() {
                "int" => &mut m.int_idle,
                "fp" => &mut m.fp_idle,
                _ => continue,
            };
            acc[0][0] += p.busy.idle_cycles;
            acc[0][1] += p.busy.idle_cycles + p.busy.busy_cycles;
            for l in &p.lane_idle {
                acc[1][0] += l.idle_cycles;
                acc[1][1] += l.idle_cycles + l.busy_cycles;
            }
        }
        m
    }
}

/// The result of a study: the technology point, the chip's area and leakage (the static tree)
/// and every workload's costed run, in the order the workloads were given.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// What produced the report (`"run"` in JSON): tool, version, command line, configuration
    /// and hash, overrides, techniques, technology point, clock, size, workloads.
    pub run: crate::provenance::RunInfo,
    /// Technology label, e.g. "finfet7 lvt" (node and flavour are separate fields of `run`).
    #[serde(skip)]
    pub tech: String,
    /// Operating supply, V.
    pub vdd_v: f64,
    /// Junction temperature, K.
    pub temperature_k: f64,
    /// Name of the GPU configuration (`run.config_name`).
    #[serde(skip)]
    pub gpu: String,
    /// Chip area with the structures the configuration's techniques add (power-gating
    /// switches and controllers, register-file, issue-stage and DWF structures: the costed
    /// runs' tree, the same on every run of one configuration), m²; without a run, the static
    /// tree's (`area`, which carries the same structures).
    pub area_m2: f64,
    /// Chip leakage power at the technology point with every block powered, the techniques'
    /// structures included (the static tree `area`'s), W.
    pub leakage_w: f64,
    /// Area and leakage (every block powered) of every component, the techniques' structures
    /// included, no activity ([`Study::static_tree`]).
    pub area: Node,
    /// The technique costings whose structures `area` (and so `area_m2` and `leakage_w`)
    /// includes, by key (`gating`, `rf`, `issue`, `dwf`); absent from JSON when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub technique_structures: Vec<String>,
    /// The costed runs, in the order the workloads were given.
    pub workloads: Vec<WorkloadResult>,
    /// Where the runs' activity came from: `"sim"` (the cycle-level simulator) or `"model"`
    /// (the analytical activity source, [`crate::amodel`]; not simulated).
    pub activity_source: String,
    /// Core clock at this technology point.
    #[serde(skip)]
    pub core_clock_hz: f64,
    /// The board model's power of every run (`estimate --board-power`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<super::board::BoardSection>,
}

impl Report {
    /// The static tree as an estimate with no run time, labelled `label`.
    pub fn static_estimate(&self, label: String) -> Estimate {
        Estimate {
            label,
            tech: self.tech.clone(),
            vdd_v: self.vdd_v,
            temperature_k: self.temperature_k,
            core_clock_hz: self.core_clock_hz,
            runtime_s: 0.0,
            sm_use: Default::default(),
            root: self.area.clone(),
        }
    }
}
