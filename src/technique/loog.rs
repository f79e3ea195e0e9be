//! LOOG's issue stage in an estimate (issue-stage spec §3.1, §4, §5): per-slice collector
//! units, RRS, RAT, UUID counters and comparators, write-back buffers and broadcast bus beside
//! the in-order I-buffer it keeps. A LOOG run keeps the I-buffer leaf (LOOG's IBuffer is the
//! in-order one), drops the chip model's "operand collectors" leaf (LOOG's collector units are
//! the machine's collectors, §3.1; its area and leakage count as removed) and replaces the
//! scoreboard leaf by one leaf per LOOG structure: one copy per issue slice × slices per SM ×
//! SMs, dynamic energy from the §5 counters of `KernelActivity::loog` (CU allocations,
//! captures, dispatches, RRS allocations, RAT reads and writes, UUID comparisons and the
//! WAR-guard register-id compares they gate, write-back-buffer writes, broadcasts).

use crate::issuecost::IssueStageCost;
use models::gpu::{Part, TechCostSource};
use models::issue::{loog_cost, BaselineIssue, DesignCost, IssueCostError, LoogSlice};
use sim::activity::KernelActivity;
use sim::config::GpuConfig;

/// LOOG's costing (`sched.ooo.mode = "loog"`).
pub struct LoogCost;

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

impl IssueStageCost for LoogCost {
    fn design(
        &self,
        cfg: &GpuConfig,
        _base: &BaselineIssue,
        src: &TechCostSource,
    ) -> Option<Result<DesignCost, IssueCostError>> {
        let l = loog_slice(cfg)?;
        Some(loog_cost(&l, src))
    }

    /// The §5 counters of `KernelActivity::loog`.
    fn counter(&self, k: &KernelActivity, c: &str) -> Option<f64> {
        let l = k.loog.as_ref()?;
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
        v.map(|v| v as f64)
    }

    /// One copy per issue slice.
    fn copies_per_sm(&self, cfg: &GpuConfig) -> u32 {
        cfg.loog_slices()
    }

    /// LOOG keeps the in-order I-buffer and removes the baseline's scoreboards (§3); its
    /// collector units are the machine's operand collectors (§3.1: CUs as reservation
    /// stations).
    fn replaces(&self) -> &'static [Part] {
        &[Part::OperandCollectors, Part::Scoreboard]
    }

    fn leaf_prefix(&self) -> &'static str {
        "LOOG"
    }
}
