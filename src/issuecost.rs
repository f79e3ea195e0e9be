//! The issue stage in an estimate (issue-stage spec §4, §5): every run's per-warp issue
//! structures costed by [`models::issue`] at the study's technology point — the in-order
//! baseline's I-buffer and scoreboards, or, with `sched.ooo.mode = "socgpu"`, SOCGPU's
//! instruction buffer, dependence matrix, insert and a3 comparators, flush registers and local
//! selection — or, with `sched.ooo.mode = "loog"`, LOOG's per-slice collector units, RRS, RAT,
//! UUID counters and comparators, write-back buffers and broadcast bus (§3.1, §4) beside the
//! in-order I-buffer it keeps — with their dynamic energy from the run's counters.
//!
//! # In the tree
//! A baseline run's tree already costs its I-buffer ("front end/instruction buffer") and
//! scoreboards ("issue/scoreboard") with the chip model's generic sizes; it is left as it is.
//! A SOCGPU run replaces both leaves (its buffer and dependence matrix replace them, §2.1) by
//! one leaf per SOCGPU structure in the "issue" group: area and leakage of one warp's copy ×
//! warps per SM × SMs, dynamic energy from the §5 counters of `KernelActivity::socgpu`, leakage
//! over the time the SMs were powered (the removed scoreboard leaf's `leakage_j / leakage_w`).
//! A LOOG run keeps the I-buffer leaf (LOOG's IBuffer is the in-order one), drops the chip
//! model's "operand collectors" leaf (LOOG's collector units are the machine's collectors,
//! §3.1; its area and leakage count as removed) and replaces the scoreboard leaf by one leaf
//! per LOOG structure: one copy per issue slice × slices per SM ×
//! SMs, dynamic energy from the §5 counters of `KernelActivity::loog` (CU allocations, captures,
//! dispatches, RRS allocations, RAT reads and writes, UUID comparisons and the WAR-guard
//! register-id compares they gate, write-back-buffer writes, broadcasts).
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
    baseline_cost, loog_cost, socgpu_cost, BaselineIssue, DesignCost, IssueCostError, LoogSlice,
    SocgpuIssue, StructureCost,
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
    /// `baseline`, `socgpu` or `loog`.
    pub design: String,
    /// SOCGPU instruction-buffer depth N (absent for the baseline).
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
    /// Area the design removes from the baseline per SM (SOCGPU: the baseline's I-buffer and
    /// scoreboards; LOOG: the baseline's scoreboards; 0 for the baseline), mm².
    pub removed_area_per_sm_mm2: f64,
    /// Leakage of the structures per SM, W.
    pub leakage_per_sm_w: f64,
    /// Leakage the design removes per SM, W.
    pub removed_leakage_per_sm_w: f64,
    /// Of the removed area, the chip model's operand collectors that LOOG's collector units
    /// replace, per SM, mm² (0 for other designs).
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

fn sum(k: &KernelActivity, f: fn(&sim::activity::SmActivity) -> u64) -> f64 {
    k.sms.iter().map(f).sum::<u64>() as f64
}

/// The §5 counter named `c` in the run `k` (baseline counters from the SMs' I-buffer and
/// scoreboard records, SOCGPU counters from `KernelActivity::socgpu`, LOOG counters from
/// `KernelActivity::loog`).
fn counter(k: &KernelActivity, c: &str) -> f64 {
    if let Some(l) = k.loog.as_ref() {
        let v = match c {
            "cu_allocations" => Some(l.cu_allocs),
            "captures" => Some(l.captures),
            "dispatches" => Some(l.dispatches),
            "rrs_allocations" => Some(l.rrs_allocs),
            // an allocation-order probe reads one RAT entry (and a producer's dispatched bit)
            "rat_reads" => Some(l.rat_reads + l.head_probes),
            "rat_writes" => Some(l.rat_writes),
            "uuid_comparisons" => Some(l.uuid_comparisons),
            // each same-warp pair the dispatch rule compares also matches the candidate's
            // destination against the other CU's three source ids (the WAR guard, §3.2 step 5)
            "war_checks" => Some(3 * l.uuid_comparisons),
            "wb_buffer_writes" => Some(l.wb_buffer_writes),
            "broadcasts" => Some(l.broadcasts),
            "lsq_writes" => l.lsq.as_ref().map(|q| q.lq_allocs + q.sq_allocs),
            "lsq_searches" => l.lsq.as_ref().map(|q| q.searches),
            _ => None,
        };
        if let Some(v) = v {
            return v as f64;
        }
    }
    let s = k.socgpu.as_ref();
    let g = |f: fn(&sim::activity::SocgpuStats) -> u64| s.map_or(0.0, |x| f(x) as f64);
    match c {
        "ib_writes" => sum(k, |s| s.ibuffer.writes),
        "ib_reads" if s.is_none() => sum(k, |s| s.ibuffer.reads),
        "sb_lookups" => sum(k, |s| s.scoreboard.reads),
        "sb_updates" => sum(k, |s| s.scoreboard.writes),
        "ib_inserts" => g(|x| x.ib_inserts),
        "ib_reads" => g(|x| x.ib_reads),
        "dm_row_writes" => g(|x| x.dm_row_writes),
        "dm_nor_evals" => g(|x| x.dm_nor_evals),
        "dm_column_clears" => g(|x| x.dm_column_clears),
        "dm_comparisons" => g(|x| x.dm_comparisons),
        "seniority_updates" => g(|x| x.seniority_updates),
        "ready_ctr_increments" => g(|x| x.ready_ctr_increments),
        "issued" => g(|x| x.issued),
        "selections" => {
            g(|x| x.candidate_hist.iter().skip(1).sum::<u64>() + x.smart_dual_reselections)
        }
        _ => 0.0,
    }
}

/// The baseline issue design of `cfg`: its I-buffer entries per warp, the §4 defaults else.
pub fn baseline_design(cfg: &GpuConfig) -> BaselineIssue {
    BaselineIssue {
        ib_entries: cfg.frontend.ibuffer_entries.max(1),
        ..Default::default()
    }
}

/// The LOOG slice of `cfg` for the §4 model (`None` when `sched.ooo.mode` is not "loog"): the
/// simulated knobs (warps per slice, T, D, U, A, N_cu, R, write-back buffers) and the model's
/// defaults for the rest (payload bits, the RAT's SRAM threshold).
pub fn loog_slice(cfg: &GpuConfig) -> Option<LoogSlice> {
    let hw = sim::timing::ooo::loog_hw_inputs(cfg)?;
    Some(LoogSlice {
        warps: hw.warps_per_slice,
        threads: hw.threads_per_warp,
        data_bits: hw.data_bits,
        uuid_bits: hw.uuid_bits,
        arch_regs: hw.arch_regs,
        n_cu: hw.n_cu,
        rrs: (hw.n_rrs > 0).then_some(hw.n_rrs),
        n_wb: hw.wb_buffers,
        ready_first: cfg.sched.ooo.loog_ready_first,
        defer_load_consumers: cfg.sched.ooo.loog_defer_load_consumers,
        lsq: cfg
            .sched
            .ooo
            .loog_lsq
            .then_some((cfg.sched.ooo.loog_lq_entries, cfg.sched.ooo.loog_sq_entries)),
        ..LoogSlice::gtx1080ti_subcore()
    })
}

/// The issue stage of `cfg` costed at `src`: the SOCGPU design when `sched.ooo.mode` is
/// "socgpu", LOOG's (per issue slice) when it is "loog", else the baseline's.
pub fn design(cfg: &GpuConfig, src: &TechCostSource) -> Result<DesignCost, IssueError> {
    let base = baseline_design(cfg);
    if let Some(l) = loog_slice(cfg) {
        return Ok(loog_cost(&l, src)?);
    }
    Ok(match sim::timing::ooo::socgpu_hw_inputs(cfg) {
        Some(hw) => socgpu_cost(&SocgpuIssue::from_hw(&hw), &base, src)?,
        None => baseline_cost(&base, src)?,
    })
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
/// and, for a SOCGPU or LOOG run, the edits that put its structures into the tree in place of
/// the I-buffer (SOCGPU), operand-collector (LOOG) and scoreboard leaves. The record's SM and
/// chip areas are those of `e`; [`finish`] sets them to the edited tree's.
pub fn cost_with_edits(
    cfg: &GpuConfig,
    src: &TechCostSource,
    chip: &ChipModel,
    k: &KernelActivity,
    e: &Estimate,
) -> Result<(IssueRun, Vec<Edit>), IssueError> {
    let d = design(cfg, src)?;
    let n = chip.n_sm as f64;
    let t = powered_s(e);
    let count = |c: &str| counter(k, c);
    let loog = d.design == "loog";
    // copies per SM: one per warp, or for LOOG one per issue slice
    let per_sm = if loog {
        cfg.loog_slices()
    } else {
        cfg.sm.max_warps
    };
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
        Some(l) if loog => {
            let n = chip.n_sm.max(1) as f64;
            (l.area_m2 / n * 1e6, l.leakage_w / n)
        }
        _ => (0.0, 0.0),
    };
    let (removed_area_per_sm_mm2, removed_leakage_per_sm_w) = if loog {
        // LOOG keeps the in-order I-buffer and removes the baseline's scoreboards (§3): the
        // kept buffer is part of the design, the scoreboards are what it removes, both as the
        // baseline's own model costs them (so that a comparison with the baseline run compares
        // like with like). Its collector units are the machine's operand collectors (§3.1:
        // CUs as reservation stations), so the chip model's collector leaf goes too.
        let base = baseline_cost(&baseline_design(cfg), src)?;
        let w = cfg.sm.max_warps;
        let mut removed = collectors;
        for s in &base.added {
            if s.name == "scoreboards" {
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
    let socgpu = d.design == "socgpu";
    let edits = if socgpu || loog {
        edits(&d, &structures, per_sm, chip.n_sm)
    } else {
        Vec::new()
    };
    let sm_area_mm2 = sm_area_mm2(&e.root);
    let run = IssueRun {
        design: d.design.to_string(),
        ib_depth: socgpu.then_some(cfg.sched.ooo.ib_depth),
        warps_per_sm: cfg.sm.max_warps,
        n_sm: chip.n_sm,
        area_per_sm_mm2: if loog {
            structures.iter().map(|s| s.area_per_sm_mm2).sum()
        } else {
            d.added_area_m2() * per_sm as f64 * 1e6
        },
        removed_area_per_sm_mm2,
        leakage_per_sm_w: if loog {
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

/// The edits that replace the scoreboard leaf (and for SOCGPU the I-buffer leaf, for LOOG the
/// operand-collector leaf) by the design's structures, `copies` per SM (module doc).
fn edits(d: &DesignCost, st: &[IssueStructure], copies: u32, n_sm: u32) -> Vec<Edit> {
    let loog = d.design == "loog";
    let prefix = if loog { "LOOG" } else { "SOCGPU" };
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
    vec![
        // LOOG's collector units replace the operand collectors (cost_with_edits); SOCGPU's
        // in-order buffer gives way to its own
        Edit::Remove(if loog {
            Part::OperandCollectors
        } else {
            Part::InstructionBuffer
        }),
        Edit::Remove(Part::Scoreboard),
        Edit::Append {
            parent: Part::Issue,
            nodes,
        },
    ]
}
