//! SOCGPU's issue stage in an estimate (issue-stage spec §2.1, §4, §5): its instruction buffer,
//! dependence matrix, insert and a3 comparators, flush registers and local selection, one copy
//! per warp, replace both the in-order I-buffer ("front end/instruction buffer") and the
//! scoreboards ("issue/scoreboard") of the tree (its buffer and dependence matrix replace them,
//! §2.1): one leaf per SOCGPU structure in the "issue" group, area and leakage of one warp's
//! copy × warps per SM × SMs, dynamic energy from the §5 counters of `KernelActivity::socgpu`.

use crate::issuecost::IssueStageCost;
use models::gpu::{Part, TechCostSource};
use models::issue::{socgpu_cost, BaselineIssue, DesignCost, IssueCostError, SocgpuIssue};
use sim::activity::KernelActivity;
use sim::config::GpuConfig;

/// SOCGPU's costing (`sched.ooo.mode = "socgpu"`).
pub struct SocgpuCost;

impl IssueStageCost for SocgpuCost {
    fn design(
        &self,
        cfg: &GpuConfig,
        base: &BaselineIssue,
        src: &TechCostSource,
    ) -> Option<Result<DesignCost, IssueCostError>> {
        let hw = sim::timing::ooo::socgpu_hw_inputs(cfg)?;
        Some(socgpu_cost(&SocgpuIssue::from_hw(&hw), base, src))
    }

    /// The §5 counters of `KernelActivity::socgpu`; the buffer reads are SOCGPU's own.
    fn counter(&self, k: &KernelActivity, c: &str) -> Option<f64> {
        let x = k.socgpu.as_ref()?;
        let v = match c {
            "ib_inserts" => x.ib_inserts,
            "ib_reads" => x.ib_reads,
            "dm_row_writes" => x.dm_row_writes,
            "dm_nor_evals" => x.dm_nor_evals,
            "dm_column_clears" => x.dm_column_clears,
            "dm_comparisons" => x.dm_comparisons,
            "seniority_updates" => x.seniority_updates,
            "ready_ctr_increments" => x.ready_ctr_increments,
            "issued" => x.issued,
            "selections" => {
                x.candidate_hist.iter().skip(1).sum::<u64>() + x.smart_dual_reselections
            }
            _ => return None,
        };
        Some(v as f64)
    }

    /// One copy per warp.
    fn copies_per_sm(&self, cfg: &GpuConfig) -> u32 {
        cfg.sm.max_warps
    }

    /// Its buffer and dependence matrix replace the I-buffer and the scoreboards (§2.1).
    fn replaces(&self) -> &'static [Part] {
        &[Part::InstructionBuffer, Part::Scoreboard]
    }

    fn leaf_prefix(&self) -> &'static str {
        "SOCGPU"
    }

    fn ib_depth(&self, cfg: &GpuConfig) -> Option<u32> {
        Some(cfg.sched.ooo.ib_depth)
    }
}
