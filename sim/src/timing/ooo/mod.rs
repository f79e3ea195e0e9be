//! Out-of-order issue stages (issue-stage §2, §3), each in its own module with its hardware
//! inputs, its per-SM state and its issue path (`NAME/path.rs`), which drives the SM through
//! [`host::IssueHost`] in the pipeline steps the stage takes over ([`host::StageStep`]). Each
//! is an issue stage ([`IssueStage`]) held in the SM's issue-stage slot (`timing/slots.rs`) as
//! one variant of [`OooStage`], the list of them; their dependence tracking is their own, so
//! the scoreboard calls of the trait find nothing to do (`no_scoreboard!`). Here: the modules'
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

pub(crate) mod host;
pub mod loog;
pub mod socgpu;

pub use loog::{
    loog_params, AllocStall, Cu, LoogHwInputs, LoogParams, LsqKind, LsqMem, Operand, RfArbiter,
    SmLoog,
};
pub(crate) use socgpu::SmSocgpu;
pub use socgpu::{DepMatrix, FlushOutcome, IbEntry, LocalPolicy, SocgpuHwInputs, WarpIb};

use crate::config::{GpuConfig, OooMode};
use crate::timing::memsys::MemSys;
use crate::timing::perclass::PerPipe;
use crate::{stream::KernelStream, SimError};
use host::{IssueHost, StageStep};

/// The built-in out-of-order issue stages, one variant each (the SM's issue-stage slot holds
/// one as `IssueStageSlot::Ooo`): which pipeline steps each takes over, and the calls into its
/// issue path. One match per step, no trait object.
pub(crate) enum OooStage {
    /// SOCGPU (`sched.ooo.mode = "socgpu"`, issue-stage §2): per-warp out-of-order buffers
    /// that also replace the in-order fetch and decode.
    Socgpu(Box<SmSocgpu>),
    /// LOOG (`sched.ooo.mode = "loog"`, issue-stage §3): collector units as reservation
    /// stations that also replace the operand collectors, the register-file reads and the
    /// dispatch.
    Loog(Box<SmLoog>),
}

/// Calls the same method on whichever stage an [`OooStage`] holds.
macro_rules! ooo_call {
    ($self:expr, $s:ident => $e:expr) => {
        match $self {
            OooStage::Socgpu($s) => $e,
            OooStage::Loog($s) => $e,
        }
    };
}

impl OooStage {
    /// The stage `sched.ooo.mode` selects for SM `sm` of `cfg`; `None` for the in-order stage.
    pub fn builtin(cfg: &GpuConfig, sm: u32) -> Option<Self> {
        let nw = cfg.sm.max_warps as usize;
        match cfg.sched.ooo.mode {
            OooMode::None => None,
            OooMode::Socgpu => Some(Self::Socgpu(Box::new(SmSocgpu::new(cfg, sm, nw)))),
            OooMode::Loog => Some(Self::Loog(Box::new(SmLoog::new(loog_params(cfg), nw)))),
        }
    }

    /// Does the stage take over pipeline step `step`?
    #[inline]
    pub fn takes_over(&self, step: StageStep) -> bool {
        match self {
            Self::Socgpu(_) => matches!(step, StageStep::Issue | StageStep::Fetch),
            Self::Loog(_) => matches!(
                step,
                StageStep::Issue | StageStep::Dispatch | StageStep::RfRead
            ),
        }
    }

    /// The issue step of cycle `t` on SM `h` (`cfg_issue`: instructions per scheduler and per
    /// warp, and whether a warp's second instruction must go to another unit; `id_oc`: issue
    /// ports per pipe class).
    #[inline]
    pub fn issue<H: IssueHost>(
        &mut self,
        h: &mut H,
        t: u64,
        cfg_issue: (u32, u32, bool),
        id_oc: &PerPipe<u32>,
    ) {
        match self {
            Self::Socgpu(o) => socgpu::path::issue(o, h, t, cfg_issue, id_oc),
            Self::Loog(o) => loog::path::issue(o, h, t),
        }
    }

    /// Fetch and decode of cycle `t` on SM `h`, for a stage that takes it over.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn fetch<H: IssueHost>(
        &mut self,
        h: &mut H,
        t: u64,
        t_fs: u64,
        width: u32,
        throughput: u32,
        stream: &mut dyn KernelStream,
        mem: &mut MemSys,
    ) -> Result<(), SimError> {
        match self {
            Self::Socgpu(o) => socgpu::path::fetch(o, h, t, t_fs, width, throughput, stream, mem),
            Self::Loog(_) => Ok(()),
        }
    }

    /// Dispatch of cycle `t` on SM `h`, for a stage that takes it over.
    #[inline]
    pub fn dispatch<H: IssueHost>(&mut self, h: &mut H, t: u64) {
        if let Self::Loog(o) = self {
            loog::path::dispatch(o, h, t);
        }
    }

    /// Register-file reads of cycle `t` on SM `h`, for a stage that takes them over.
    #[inline]
    pub fn rf_read<H: IssueHost>(&mut self, h: &mut H, t: u64) {
        if let Self::Loog(o) = self {
            loog::path::rf_read(o, h, t);
        }
    }

    /// Start of the writeback stage of cycle `t`: LOOG's frees, RAT visits and broadcasts
    /// (issue-stage §3.2 steps 2, 7). True when the stage changed something or holds work.
    #[inline]
    pub fn begin_writeback(&mut self, t: u64) -> bool {
        match self {
            Self::Loog(o) => o.begin_cycle(t) || o.busy(),
            Self::Socgpu(_) => false,
        }
    }

    /// Is the register-file write of register `r` by the result tagged `tag` of warp `w` made?
    /// Not when LOOG renamed the register to a younger writer (WAW elimination).
    #[inline]
    pub fn rf_write_kept(&self, w: usize, r: u16, tag: u16) -> bool {
        match self {
            Self::Loog(o) => o.rf_write_kept(w, r, tag),
            Self::Socgpu(_) => true,
        }
    }

    /// The result tagged `tag` of warp `w` has been written at cycle `now`: SOCGPU's entry
    /// leaves its buffer (§2.4), LOOG's producer broadcasts (§3.2). Always true (the stage
    /// tracks its dependences itself).
    #[inline]
    pub fn result_written(&mut self, w: usize, tag: u16, now: u64) -> bool {
        match self {
            Self::Socgpu(o) => {
                o.ibs[w].writeback(tag as usize, &mut o.stats);
            }
            Self::Loog(o) => o.result_done(tag, now),
        }
        true
    }

    /// The stage's own next event on SM `h` after cycle `t`, if earlier than `ev`: SOCGPU's
    /// entries that become ready by time alone and warps whose fetch delay ends while they
    /// may fetch.
    pub fn next_event<H: IssueHost>(&self, h: &H, t: u64, ev: u64) -> u64 {
        match self {
            Self::Socgpu(o) => socgpu::path::next_event(o, h, t, ev),
            Self::Loog(_) => ev,
        }
    }
}

crate::timing::policy::forward_issue_stage!(OooStage, ooo_call);

/// Bytes of one instruction for the not-taken next PC: 8 for PTX, 16 for SASS traces.
pub fn inst_bytes(cfg: &GpuConfig) -> u32 {
    match cfg.sim.frontend {
        crate::config::Frontend::Ptx => 8,
        _ => 16,
    }
}
