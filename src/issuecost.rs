//! The issue stage in an estimate (issue-stage spec §4, §5): every run's issue structures
//! costed by [`models::issue`] at the study's technology point — the in-order baseline's
//! I-buffer and scoreboards, or the structures of the out-of-order issue stage the
//! configuration selects (an [`IssueStageCost`] of [`models::issue::STAGES`],
//! each in its design's module of `models::issue`) — with their dynamic energy from the
//! run's counters.
//!
//! # In the tree
//! A baseline run's tree already costs its I-buffer ([`Part::InstructionBuffer`]) and
//! scoreboards ([`Part::Scoreboard`]) with the chip model's generic sizes; it is left as it is.
//! An out-of-order issue stage says which of the chip model's leaves its structures replace
//! ([`IssueStageCost::replaces`]: the scoreboards, and the I-buffer or the operand collectors);
//! those leaves are removed by their [`Part`] and one leaf per structure of its own, carrying
//! its [`models::gpu::Source`], is appended to the issue group: area and leakage of one copy ×
//! copies per SM × SMs, dynamic energy from its counters, leakage over the time the SMs were
//! powered (the removed scoreboard leaf's `leakage_j / leakage_w`).
//!
//! # The comparison's numbers
//! [`IssueRun`] (the `issue` field of a run) holds the costed structures of the run's design
//! and their energy on the run. Both designs are costed by the same §4 model, so that a
//! comparison's `issue_cost` (added − removed area per SM and chip, leakage, the issue-stage
//! energy of the variant against the baseline's) compares like with like; the baseline run's
//! tree keeps the generic leaves, so the tree totals of the two runs differ from `issue_cost`
//! by the difference between the generic and the §4 baseline models.

use models::gpu::{ChipModel, Estimate, Node, Part, TechCostSource};
use models::issue::{
    baseline_cost, BaselineIssue, DesignCost, IssueCostError, IssueStageCost, StructureCost,
};
use models::technique::Edit;
use serde::Serialize;
use sim::activity::KernelActivity;
use sim::config::GpuConfig;

/// One structure of a run's issue stage.
#[derive(Clone, Debug, Serialize)]
pub struct IssueStructure {
    /// Name, as its estimate leaf.
    pub name: String,
    /// Component model and size.
    pub model: String,
    /// State bits per warp.
    pub bits_per_warp: u64,
    /// Area per SM, mm².
    pub area_per_sm_mm2: f64,
    /// Leakage per SM, W.
    pub leakage_per_sm_w: f64,
    /// Dynamic energy over the run (all SMs), J.
    pub dynamic_j: f64,
    /// Leakage energy over the run (all SMs, while powered), J.
    pub leakage_j: f64,
}

/// A run's issue stage costed by the §4 model.
#[derive(Clone, Debug, Serialize)]
pub struct IssueRun {
    /// The design's name: `baseline`, or the out-of-order issue stage's own.
    pub design: String,
    /// The design's instruction-buffer depth N per warp, when it has that knob (absent for the
    /// baseline).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ib_depth: Option<u32>,
    /// Warps per SM.
    pub warps_per_sm: u32,
    /// SMs.
    pub n_sm: u32,
    /// The design's structures.
    pub structures: Vec<IssueStructure>,
    /// Area of the structures per SM, mm².
    pub area_per_sm_mm2: f64,
    /// Area the design removes from the baseline per SM (the baseline structures it replaces:
    /// the scoreboards, with or without the I-buffer; 0 for the baseline), mm².
    pub removed_area_per_sm_mm2: f64,
    /// Leakage of the structures per SM, W.
    pub leakage_per_sm_w: f64,
    /// Leakage the design removes per SM, W.
    pub removed_leakage_per_sm_w: f64,
    /// Of the removed area, the chip model's operand collectors when the design's structures
    /// replace them, per SM, mm² (0 otherwise).
    pub replaced_collectors_per_sm_mm2: f64,
    /// Their leakage per SM, W.
    pub replaced_collectors_leakage_per_sm_w: f64,
    /// Dynamic energy of the structures over the run, J.
    pub dynamic_j: f64,
    /// Leakage energy of the structures over the run, J.
    pub leakage_j: f64,
    /// Area of one SM in this run's estimate, mm².
    pub sm_area_mm2: f64,
    /// Chip area in this run's estimate, mm².
    pub chip_area_mm2: f64,
}

impl IssueRun {
    /// Dynamic + leakage energy of the issue structures over the run, J.
    pub fn energy_j(&self) -> f64 {
        self.dynamic_j + self.leakage_j
    }
}

/// Why the issue stage could not be costed.
#[derive(Debug, thiserror::Error)]
pub enum IssueError {
    /// The component models failed.
    #[error("issue-stage cost: {0}")]
    Cost(#[from] IssueCostError),
}

/// The out-of-order issue stage of `stages` that `cfg` selects and its costed design, if any.
fn selected(
    stages: &[&'static dyn IssueStageCost],
    cfg: &GpuConfig,
    base: &BaselineIssue,
    src: &TechCostSource,
) -> Result<Option<(&'static dyn IssueStageCost, DesignCost)>, IssueError> {
    for t in stages {
        if let Some(d) = t.design(cfg, base, src) {
            return Ok(Some((*t, d?)));
        }
    }
    Ok(None)
}

fn sum(k: &KernelActivity, f: fn(&sim::activity::SmActivity) -> u64) -> f64 {
    k.sms.iter().map(f).sum::<u64>() as f64
}

/// The §5 counter named `c` in the run `k`: the issue stage's own (`t`), else the baseline
/// counters from the SMs' I-buffer and scoreboard records.
fn counter(t: Option<&dyn IssueStageCost>, k: &KernelActivity, c: &str) -> f64 {
    if let Some(v) = t.and_then(|t| t.counter(k, c)) {
        return v;
    }
    match c {
        "ib_writes" => sum(k, |s| s.ibuffer.writes),
        "ib_reads" => sum(k, |s| s.ibuffer.reads),
        "sb_lookups" => sum(k, |s| s.scoreboard.reads),
        "sb_updates" => sum(k, |s| s.scoreboard.writes),
        _ => 0.0,
    }
}

/// The baseline issue design of `cfg`: its I-buffer entries per warp, the §4 defaults else.
pub fn baseline_design(cfg: &GpuConfig) -> BaselineIssue {
    BaselineIssue::of_config(cfg)
}

/// The issue stage of `cfg` costed at `src`: the design of the out-of-order issue stage it
/// selects among `stages` (the registered ones: `models::issue::STAGES`), else the
/// baseline's.
pub fn design(
    stages: &[&'static dyn IssueStageCost],
    cfg: &GpuConfig,
    src: &TechCostSource,
) -> Result<DesignCost, IssueError> {
    let base = baseline_design(cfg);
    match selected(stages, cfg, &base, src)? {
        Some((_, d)) => Ok(d),
        None => Ok(baseline_cost(&base, src)?),
    }
}

/// A leaf of the estimate tree for a costed structure: `instances` copies over the chip with
/// their total area, dynamic and leakage energy and leakage power.
pub(crate) fn structure_leaf(
    name: String,
    source: models::gpu::Source,
    instances: u32,
    area_m2: f64,
    (dynamic_j, leakage_j, leakage_w): (f64, f64, f64),
) -> Node {
    Node {
        name,
        source,
        instances,
        area_m2,
        dynamic_j,
        leakage_j,
        leakage_w,
        ..Node::default()
    }
}

/// Area of one SM in the tree `root`, mm² (0 when it has no SM group).
pub(crate) fn sm_area_mm2(root: &Node) -> f64 {
    find_sms(root).map_or(0.0, |s| s.area_m2 / s.instances.max(1) as f64) * 1e6
}

fn find_sms(n: &Node) -> Option<&Node> {
    n.find_part(Part::Sms)
}

/// Seconds the SMs were powered in `e` (the scoreboard leaf's leakage energy over its power;
/// the run time when the tree has none).
fn powered_s(e: &Estimate) -> f64 {
    match e.root.find_part(Part::Scoreboard) {
        Some(l) if l.leakage_w > 0.0 => l.leakage_j / l.leakage_w,
        _ => e.runtime_s,
    }
}

/// Costs the issue stage of the run `k` of `cfg` on its estimate `e` (module doc): the record
/// and, for a run of an out-of-order issue stage, the edits that put its structures into the
/// tree in place of the leaves it replaces. The record's SM and chip areas are those of `e`;
/// [`finish`] sets them to the edited tree's. `stages`: the registered out-of-order issue
/// stages (`models::issue::STAGES`).
pub fn cost_with_edits(
    stages: &[&'static dyn IssueStageCost],
    cfg: &GpuConfig,
    src: &TechCostSource,
    chip: &ChipModel,
    k: &KernelActivity,
    e: &Estimate,
) -> Result<(IssueRun, Vec<Edit>), IssueError> {
    let base = baseline_design(cfg);
    let (tech, d) = match selected(stages, cfg, &base, src)? {
        Some((t, d)) => (Some(t), d),
        None => (None, baseline_cost(&base, src)?),
    };
    let n = chip.n_sm as f64;
    let t = powered_s(e);
    let count = |c: &str| counter(tech, k, c);
    let replaces = tech.map_or(&[][..], |t| t.replaces());
    let keeps_ibuffer = tech.is_some() && !replaces.contains(&Part::InstructionBuffer);
    // copies per SM: the stage's own count, one per warp for the baseline
    let per_sm = tech.map_or(cfg.sm.max_warps, |t| t.copies_per_sm(cfg));
    let cost = |s: &StructureCost, copies: u32| {
        let c = copies as f64;
        IssueStructure {
            name: s.name.clone(),
            model: s.model.clone(),
            bits_per_warp: s.bits,
            area_per_sm_mm2: s.area_m2 * c * 1e6,
            leakage_per_sm_w: s.leakage_w * c,
            dynamic_j: s.dynamic_j(&count),
            leakage_j: s.leakage_w * c * n * t,
        }
    };
    let mut structures: Vec<IssueStructure> = d.added.iter().map(|s| cost(s, per_sm)).collect();
    let collectors = match e.root.find_part(Part::OperandCollectors) {
        Some(l) if replaces.contains(&Part::OperandCollectors) => {
            let n = chip.n_sm.max(1) as f64;
            (l.area_m2 / n * 1e6, l.leakage_w / n)
        }
        _ => (0.0, 0.0),
    };
    let (removed_area_per_sm_mm2, removed_leakage_per_sm_w) = if keeps_ibuffer {
        // the kept buffer is part of the design, the replaced structures are what it removes,
        // both as the baseline's own model costs them (so that a comparison with the baseline
        // run compares like with like); replaced collectors count as removed too
        let base = baseline_cost(&base, src)?;
        let w = cfg.sm.max_warps;
        let mut removed = collectors;
        for s in &base.added {
            if s.part.is_some_and(|p| replaces.contains(&p)) {
                removed.0 += s.area_m2 * w as f64 * 1e6;
                removed.1 += s.leakage_w * w as f64;
            } else {
                structures.push(cost(s, w));
            }
        }
        removed
    } else {
        let c = per_sm as f64;
        (
            d.removed_area_m2() * c * 1e6,
            d.removed.iter().map(|s| s.leakage_w).sum::<f64>() * c,
        )
    };
    let edits = match tech {
        Some(t) => edits(t, &d, &structures, per_sm, chip.n_sm),
        None => Vec::new(),
    };
    let sm_area_mm2 = sm_area_mm2(&e.root);
    let run = IssueRun {
        design: d.design.to_string(),
        ib_depth: tech.and_then(|t| t.ib_depth(cfg)),
        warps_per_sm: cfg.sm.max_warps,
        n_sm: chip.n_sm,
        area_per_sm_mm2: if keeps_ibuffer {
            structures.iter().map(|s| s.area_per_sm_mm2).sum()
        } else {
            d.added_area_m2() * per_sm as f64 * 1e6
        },
        removed_area_per_sm_mm2,
        leakage_per_sm_w: if keeps_ibuffer {
            structures.iter().map(|s| s.leakage_per_sm_w).sum()
        } else {
            d.added_leakage_w() * per_sm as f64
        },
        removed_leakage_per_sm_w,
        replaced_collectors_per_sm_mm2: collectors.0,
        replaced_collectors_leakage_per_sm_w: collectors.1,
        dynamic_j: structures.iter().map(|s| s.dynamic_j).sum(),
        leakage_j: structures.iter().map(|s| s.leakage_j).sum(),
        structures,
        sm_area_mm2,
        chip_area_mm2: e.root.area_m2 * 1e6,
    };
    Ok((run, edits))
}

/// Sets the record's SM and chip areas to those of the estimate `e` its edits were applied to.
pub fn finish(run: &mut IssueRun, e: &Estimate) {
    run.sm_area_mm2 = sm_area_mm2(&e.root);
    run.chip_area_mm2 = e.root.area_m2 * 1e6;
}

/// The edits that replace the leaves the stage `t` names ([`IssueStageCost::replaces`]) by the
/// design's structures, `copies` per SM (module doc).
fn edits(
    t: &dyn IssueStageCost,
    d: &DesignCost,
    st: &[IssueStructure],
    copies: u32,
    n_sm: u32,
) -> Vec<Edit> {
    let prefix = t.leaf_prefix();
    let nodes = d
        .added
        .iter()
        .zip(st)
        .map(|(s, x)| {
            structure_leaf(
                format!("{prefix} {}", s.name),
                s.source.clone(),
                copies * n_sm,
                x.area_per_sm_mm2 * 1e-6 * n_sm as f64,
                (x.dynamic_j, x.leakage_j, x.leakage_per_sm_w * n_sm as f64),
            )
        })
        .collect();
    let mut edits: Vec<Edit> = t.replaces().iter().map(|&p| Edit::Remove(p)).collect();
    edits.push(Edit::Append {
        parent: Part::Issue,
        nodes,
    });
    edits
}
