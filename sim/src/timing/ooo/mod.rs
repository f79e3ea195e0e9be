//! Out-of-order issue stages (issue-stage §2, §3), each in its own module with its hardware
//! inputs and the per-SM state that the SM's issue path for it (`sm/NAME.rs`) drives. Each is
//! an issue stage ([`IssueStage`](crate::timing::policy::IssueStage)) held in the SM's
//! issue-stage slot (`timing/slots.rs`); their dependence tracking is their own, so the
//! scoreboard calls of the trait find nothing to do (`no_scoreboard!`). Here: the modules'
//! registration and what they share. The in-order baseline does not use this module.

/// The scoreboard calls of `IssueStage` for a stage that tracks dependences its own way: no
/// hazard to check, nothing to reserve, release or count down, no long-latency producer.
macro_rules! no_scoreboard {
    () => {
        fn check(&self, _w: usize, _inst: &TInst) -> Result<(), Hazard> {
            Ok(())
        }
        fn reserve(&mut self, _w: usize, _inst: &TInst, _longop: bool) {}
        fn release(&mut self, _w: usize, _reg: u16) {}
        fn sources_read(&mut self, _w: usize, _inst: &TInst) {}
        fn reads_longop(&self, _w: usize, _inst: &TInst) -> bool {
            false
        }
    };
}

pub mod loog;
pub mod socgpu;

pub use loog::{
    loog_hw_inputs, loog_params, AllocStall, Cu, LoogHwInputs, LoogParams, LsqKind, LsqMem,
    Operand, RfArbiter, SmLoog,
};
pub(crate) use socgpu::SmSocgpu;
pub use socgpu::{
    ready_ctr_bits, socgpu_hw_inputs, DepMatrix, FlushOutcome, IbEntry, LocalPolicy,
    SocgpuHwInputs, WarpIb,
};

use crate::config::GpuConfig;

/// ⌈log2 n⌉ (0 for n ≤ 1).
pub fn ceil_log2(n: u32) -> u32 {
    if n <= 1 {
        0
    } else {
        32 - (n - 1).leading_zeros()
    }
}

/// Bytes of one instruction for the not-taken next PC: 8 for PTX, 16 for SASS traces.
pub fn inst_bytes(cfg: &GpuConfig) -> u32 {
    match cfg.sim.frontend {
        crate::config::Frontend::Ptx => 8,
        _ => 16,
    }
}
