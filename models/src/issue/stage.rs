//! The costing side of an out-of-order issue stage ([`IssueStageCost`]): what the generic
//! issue-stage costing asks of the design a configuration selects — its structures costed at
//! the technology point, its §5 counters by name, its copies per SM, and which of the chip
//! model's leaves (by [`Part`]) its structures replace. Each design implements it in its own
//! module and is registered once in [`super::STAGES`].

use super::{BaselineIssue, DesignCost, IssueCostError};
use crate::gpu::{Part, TechCostSource};
use sim::activity::KernelActivity;
use sim::config::GpuConfig;

/// The costing side of an out-of-order issue stage: what the generic issue-stage costing asks
/// of the technique a configuration selects (registered in [`super::STAGES`], which the
/// costing passes in).
pub trait IssueStageCost: Sync {
    /// The design of `cfg` costed at `src` (`base`: the machine's in-order design), `None` when
    /// `cfg` does not select this issue stage.
    fn design(
        &self,
        cfg: &GpuConfig,
        base: &BaselineIssue,
        src: &TechCostSource,
    ) -> Option<Result<DesignCost, IssueCostError>>;

    /// The §5 counter named `c` in the run `k` when it is one of this stage's; `None` lets the
    /// in-order counters answer (I-buffer and scoreboard records of the SMs, else 0).
    fn counter(&self, k: &KernelActivity, c: &str) -> Option<f64>;

    /// Copies of the design's structures per SM (one per warp, one per issue slice, …).
    fn copies_per_sm(&self, cfg: &GpuConfig) -> u32;

    /// The chip model's leaves its structures replace, in the order they are removed from the
    /// tree: [`Part::Scoreboard`] always; [`Part::InstructionBuffer`] when its structures
    /// replace the in-order I-buffer too (a stage that keeps it has the baseline's structures
    /// it does not replace costed as part of its design, as the baseline's own model costs
    /// them, so that a comparison with the baseline run compares like with like, and only the
    /// replaced ones count as removed); [`Part::OperandCollectors`] when its structures are the
    /// machine's operand collectors (their area and leakage count as removed).
    fn replaces(&self) -> &'static [Part];

    /// The prefix of its leaves' names in the tree.
    fn leaf_prefix(&self) -> &'static str;

    /// The instruction-buffer depth its record shows (`None`: no such knob).
    fn ib_depth(&self, cfg: &GpuConfig) -> Option<u32> {
        let _ = cfg;
        None
    }
}
