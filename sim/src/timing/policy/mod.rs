//! Extension points of the SM pipeline: warp schedulers, the issue stage's hazard check, the
//! register-file organisation, unit gating and reconvergence. The pipeline core calls only these
//! traits (the built-in implementations through the slot enums of `timing/slots.rs`, so that
//! their calls inline; any other through the trait object a slot's `Other` variant holds). The
//! built-in implementations here are in `schedulers` and `builtin`; the slots, which also name
//! the implementations in `rf/`, `gating/` and `fold/`, live beside this folder so that it
//! imports none of them. Reconvergence is defined beside the functional front end that runs it
//! (`emu/reconv.rs`) and re-exported here. [`super::registry::PolicyRegistry`] resolves
//! policies by name.

mod builtin;
mod schedulers;

pub use crate::emu::{Reconvergence, ReconvergenceFactory, ReconvergenceSlot};
pub use builtin::{InOrderScoreboard, MonolithicRf, NoGating};
pub use schedulers::{ByAge, FetchGroup, Gto, Lrr, TwoLevel};

use super::tinst::TInst;
use crate::activity::KernelActivity;

/// What a scheduler may see of one of its warps this cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct WarpView {
    /// Warp slot in the SM.
    pub slot: u16,
    /// Dynamic warp id: CTA launch order, then warp index (smaller = older).
    pub age: u64,
    /// The head instruction could issue now (scoreboard, barrier, I-buffer); resources aside.
    pub ready: bool,
    /// Waiting at a barrier or membar.
    pub waiting: bool,
    /// Empty I-buffer.
    pub ibuffer_empty: bool,
    /// The head instruction reads a register written by a pending global/local/atomic load.
    pub head_longop: bool,
    /// The warp has no more instructions to issue.
    pub finished: bool,
    /// Type of the head instruction (filled only for schedulers whose
    /// [`WarpScheduler::uses_head_type`] is true; [`HeadType::Other`] otherwise).
    pub head_type: HeadType,
    /// Active mask of the head instruction (filled with [`WarpView::head_type`]; 0 otherwise):
    /// the Origami all-ones detector reads it (power-gating §7).
    pub head_mask: u32,
}

/// Type of a warp's head instruction as a gating-aware scheduler sees it (power-gating §3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HeadType {
    /// An SP-cluster INT-pipe instruction.
    Int,
    /// An SP-cluster FP-pipe instruction.
    Fp,
    /// An SFU instruction.
    Sfu,
    /// An LD/ST instruction.
    Ldst,
    /// Anything else (barriers, DP or separate-INT units, empty I-buffer).
    #[default]
    Other,
}

/// What the SM's gating controllers tell a gating-aware scheduler at the start of a cycle
/// (power-gating §3 swap rule 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GatingView {
    /// The cycle.
    pub cycle: u64,
    /// A blackout policy is active.
    pub blackout: bool,
    /// `[INT, FP]`: every domain of the type is gated with a non-zero blackout counter.
    pub all_in_blackout: [bool; 2],
}

/// Inter-warp scheduling policy of one scheduler (simulator §2.3).
pub trait WarpScheduler: Send {
    /// Writes this cycle's priority order of the scheduler's warps into `order` (a subset of
    /// `warps`; warps left out are not considered this cycle).
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>);
    /// The warp in `slot` issued at least one instruction this cycle.
    fn issued(&mut self, slot: u16);
    /// True when [`WarpScheduler::order`] leaves the scheduler's state unchanged, so that a
    /// cycle in which nothing issued can be repeated from the same views with the same result.
    /// The SM then skips re-evaluating an issue stage whose inputs did not change (it replays
    /// the counters). Policies that move on by themselves when idle must return false.
    ///
    /// This and the two properties below are constants of the policy: the SM reads them once,
    /// when the scheduler is installed.
    fn stable_when_idle(&self) -> bool {
        false
    }
    /// True when [`WarpScheduler::order`] reads the per-cycle flags of the views (`ready`,
    /// `waiting`, `ibuffer_empty`, `head_longop`). When false the SM may pass views whose
    /// flags are stale (slot and age are always current), rebuilding them only when the set of
    /// live warps changes.
    fn uses_warp_state(&self) -> bool {
        true
    }
    /// True when [`WarpScheduler::order`] is a function of the views and of the
    /// [`WarpScheduler::issued`] calls alone: called again with the same views and no `issued`
    /// in between, it writes the same order and leaves the state as it was. The SM then reuses
    /// the last order instead of asking again.
    fn order_reusable(&self) -> bool {
        false
    }
    /// Called by the SM instead of [`WarpScheduler::order`] when `warps` is the very slice
    /// passed to the previous `order` or `order_unchanged` call of this scheduler (slots, ages
    /// and flags unchanged), with `order` holding what that call wrote; a policy may skip
    /// re-deriving what depends only on the views, or leave `order` as it is.
    fn order_unchanged(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        self.order(warps, order);
    }
    /// True when [`WarpScheduler::order`] reads [`WarpView::head_type`] and wants
    /// [`WarpScheduler::gating_view`] before each order. A constant of the policy.
    fn uses_head_type(&self) -> bool {
        false
    }
    /// The gating controllers' state at the start of this cycle (called before
    /// [`WarpScheduler::order`] when [`WarpScheduler::uses_head_type`]).
    fn gating_view(&mut self, _v: &GatingView) {}
    /// For a scheduler that reads the gating view: the first cycle after `t` at which, its
    /// views unchanged, nothing issued and the gating view staying `v` (cycle aside), its
    /// order may differ from the one it computed at `t` (`u64::MAX`: never). The SM under the
    /// power-gating controllers sleeps only until then; `t + 1`, the default, keeps it awake.
    fn gating_steady_until(&self, _v: &GatingView, t: u64) -> u64 {
        t + 1
    }
    /// The warps the scheduler considers active (the two-level active set), if it keeps one;
    /// the gating controllers count `ACTV[T]` over them (over all live warps otherwise).
    fn active_slots(&self) -> Option<&[u16]> {
        None
    }
}

/// Why a head instruction cannot issue (issue-stage hazard check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hazard {
    /// RAW/WAW on a pending write, or WAR on a pending read.
    Scoreboard,
}

/// Register-number space of the per-register statistics (`RegisterStats`, the register-file
/// characterisation and Warped-RF tables): 256 general + 8 predicate registers. Predicates
/// P8…P15 (only PTX kernels with more than 8 live predicates use them) are not counted there.
pub const N_REGS: usize = 264;
/// Register-number space of the built-in scoreboard: 256 general registers and every predicate
/// register ([`crate::inst::PRED_REGS`]), so dependences through P8…P15 are tracked too.
pub const SB_REGS: usize = 256 + crate::inst::PRED_REGS;
pub(crate) const WORDS: usize = SB_REGS.div_ceil(64);

/// Issue-stage dependence tracking for one SM (spec §2.2; issue-stage §1.2).
pub trait IssueStage: Send {
    /// Resizes for `n_warps` slots and clears.
    fn reset(&mut self, n_warps: usize);
    /// Can `inst` of warp `w` issue with respect to register hazards?
    fn check(&self, w: usize, inst: &TInst) -> Result<(), Hazard>;
    /// `inst` issued: reserve its destinations (`longop` marks long-latency producers).
    fn reserve(&mut self, w: usize, inst: &TInst, longop: bool);
    /// Destination `reg` of warp `w` was written back.
    fn release(&mut self, w: usize, reg: u16);
    /// Sources of `inst` have been read (WAR counters).
    fn sources_read(&mut self, w: usize, inst: &TInst);
    /// Does the head read a register reserved by a long-latency producer?
    fn reads_longop(&self, w: usize, inst: &TInst) -> bool;
    /// Any reserved register left for warp `w`?
    fn any_pending(&self, w: usize) -> bool;
    /// True when a failed [`IssueStage::check`] of warp `w`'s head keeps failing until
    /// [`IssueStage::release`] or [`IssueStage::sources_read`] is called for `w`, and a passed
    /// check keeps passing until [`IssueStage::reserve`] for `w` (the SM then skips re-checking
    /// an unchanged head). False, the default, re-checks every time. A constant of the stage,
    /// read once by the SM.
    fn failure_sticky(&self) -> bool {
        false
    }
    /// A warp launches into slot `w`: a stage with per-warp state of its own (instruction
    /// buffers, a rename table) clears it. The scoreboard keeps nothing to clear (a slot's
    /// reservations are all released before its warp retires).
    fn on_warp_launch(&mut self, _w: usize) {}
    /// The SM slept through `cycles` cycles whose issue stage would have repeated the last
    /// evaluated one: a stage with counters of its own adds that cycle's `cycles` times.
    fn replay_idle(&mut self, _cycles: u64) {}
    /// May the SM sleep through cycles in which nothing changes? False for a stage whose
    /// state moves every cycle by itself. A constant of the stage.
    fn may_sleep(&self) -> bool {
        true
    }
    /// Adds the stage's own counters to kernel record `k` (one call per SM at the kernel's
    /// end; the out-of-order stages' issue-stage §5 counters). The scoreboard's are in the SM's
    /// record already.
    fn record(&self, _k: &mut KernelActivity) {}
}

/// Implements [`IssueStage`] for an enum of stages by forwarding every method to the variant
/// it holds, through the enum's own dispatch macro `$call!(self, s => expr)` (one `match`,
/// no `dyn` on the per-cycle path). Every enum of issue stages (the SM's slot, the built-in
/// out-of-order stages) forwards the same way, so the list of methods lives here once.
macro_rules! forward_issue_stage {
    ($ty:ty, $call:ident) => {
        impl $crate::timing::policy::IssueStage for $ty {
            fn reset(&mut self, n_warps: usize) {
                $call!(self, s => s.reset(n_warps))
            }
            #[inline]
            fn check(
                &self,
                w: usize,
                inst: &$crate::timing::tinst::TInst,
            ) -> Result<(), $crate::timing::policy::Hazard> {
                $call!(self, s => s.check(w, inst))
            }
            #[inline]
            fn reserve(&mut self, w: usize, inst: &$crate::timing::tinst::TInst, longop: bool) {
                $call!(self, s => s.reserve(w, inst, longop))
            }
            #[inline]
            fn release(&mut self, w: usize, reg: u16) {
                $call!(self, s => s.release(w, reg))
            }
            #[inline]
            fn sources_read(&mut self, w: usize, inst: &$crate::timing::tinst::TInst) {
                $call!(self, s => s.sources_read(w, inst))
            }
            #[inline]
            fn reads_longop(&self, w: usize, inst: &$crate::timing::tinst::TInst) -> bool {
                $call!(self, s => s.reads_longop(w, inst))
            }
            fn any_pending(&self, w: usize) -> bool {
                $call!(self, s => s.any_pending(w))
            }
            fn failure_sticky(&self) -> bool {
                $call!(self, s => s.failure_sticky())
            }
            fn on_warp_launch(&mut self, w: usize) {
                $call!(self, s => s.on_warp_launch(w))
            }
            #[inline]
            fn replay_idle(&mut self, cycles: u64) {
                $call!(self, s => s.replay_idle(cycles))
            }
            #[inline]
            fn may_sleep(&self) -> bool {
                $call!(self, s => s.may_sleep())
            }
            fn record(&self, k: &mut $crate::activity::KernelActivity) {
                $call!(self, s => s.record(k))
            }
        }
    };
}
pub(crate) use forward_issue_stage;

/// The register-file structure one access goes to (register-file spec §5, §7): the monolithic
/// file, the fast partition in its high or low back-gate mode, the slow partition, or a
/// register-file cache in front of the monolithic file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RfPart {
    /// The monolithic register file (MRF).
    Mrf,
    /// The fast partition (FRF) in its high-performance back-gate mode.
    FrfHigh,
    /// The fast partition in its low-power back-gate mode.
    FrfLow,
    /// The slow, near-threshold partition (SRF).
    Srf,
    /// A register-file cache.
    Rfc,
}

impl RfPart {
    /// Every structure, in index order.
    pub const ALL: [RfPart; 5] = [
        RfPart::Mrf,
        RfPart::FrfHigh,
        RfPart::FrfLow,
        RfPart::Srf,
        RfPart::Rfc,
    ];

    /// Position in [`RfPart::ALL`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Name in the `Activity` record: `"mrf"`, `"frf_high"`, `"frf_low"`, `"srf"`, `"rfc"`.
    pub fn name(self) -> &'static str {
        match self {
            RfPart::Mrf => "mrf",
            RfPart::FrfHigh => "frf_high",
            RfPart::FrfLow => "frf_low",
            RfPart::Srf => "srf",
            RfPart::Rfc => "rfc",
        }
    }
}

/// Where one register-file access goes and how long it takes (register-file spec §2.3, §5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RfRoute {
    /// The structure accessed.
    pub part: RfPart,
    /// Cycles from the grant until the data is delivered (at least 1): a read granted at t
    /// puts its operand in the collector at t + latency; a write granted at t completes (and
    /// releases its scoreboard entry) at t + latency − 1.
    pub latency_cycles: u32,
}

/// Register-file organisation (spec §2.4 `RegFileModel`, register-file spec §2, §5): the bank
/// of every register and the route of every access.
///
/// Contract of the timing model with an organisation:
/// - [`RegisterFileOrg::bank`] is pure: the same (w, sched, reg) always maps to the same bank
///   while a warp lives in slot w (bank conflicts and port occupancy are computed on it).
/// - [`RegisterFileOrg::route`] is called exactly once per register-file access, in the cycle
///   the access is granted a bank port, reads in the read arbitration (after that cycle's
///   writes) and writes in the writeback stage; never for predicate registers. The latency it
///   returns is fixed for the access. With `rf.port_occupancy = "full_latency"` the bank port
///   stays taken for `latency_cycles` cycles, with `"pipelined"` for the grant cycle only
///   (several structures behind one bank share its ports either way). An organisation may
///   change state in `route` (profiling counters, mode switches); the access counts by
///   structure in the `Activity` record follow the part it returns.
/// - [`RegisterFileOrg::on_kernel_start`] (by default [`RegisterFileOrg::on_kernel_launch`])
///   comes once per launch before the first access (with the kernel's allocated registers per
///   thread and warps per CTA), [`RegisterFileOrg::on_warp_launch`] when a CTA places a warp
///   in slot w, [`RegisterFileOrg::on_issue`] when warp w issues an instruction (before its
///   accesses), [`RegisterFileOrg::on_warp_exit`] when a warp slot's warp retires (its
///   registers are dead), [`RegisterFileOrg::on_dispatch`] when warp w's instruction leaves
///   its collector for an execution unit, and, for an organisation that
///   [wants it](RegisterFileOrg::wants_active_set), [`RegisterFileOrg::on_active_set`] when a
///   warp enters or leaves the schedulers' active set.
/// - An organisation that keeps its entries in power states ([`RegisterFileOrg::gates_entries`])
///   also hears, after `on_kernel_start`, the kernel's residency limit
///   ([`RegisterFileOrg::on_kernel_residency`]) and each CTA's placement and completion; every
///   instruction taking a collector ([`RegisterFileOrg::on_collect`], which says from which
///   cycle each source may be read: a read is not granted before), every read and write granted
///   (with the lanes the access drives), every writeback asking for its bank port
///   ([`RegisterFileOrg::write_ready`]: the write waits until the cycle it returns) and every
///   fixed-latency result's write cycle; and, when it asks for [look-ahead
///   predictions](RegisterFileOrg::lookahead), the source registers of the instructions the
///   schedulers predict to issue next. Its counters go into the register-file record at the
///   kernel's end ([`RegisterFileOrg::finish_record`]).
pub trait RegisterFileOrg: Send {
    /// Bank of register `reg` of warp slot `w` on scheduler `sched`.
    fn bank(&self, w: u32, sched: u32, reg: u16) -> u32;
    /// The structure and latency of an access to register `reg` of warp slot `w` granted at
    /// cycle `t` (`write`: a writeback). Default: the monolithic file, 1 cycle.
    #[inline]
    fn route(&mut self, _w: u32, _reg: u16, _write: bool, _t: u64) -> RfRoute {
        RfRoute {
            part: RfPart::Mrf,
            latency_cycles: 1,
        }
    }
    /// A kernel launches at cycle `t` with `regs_per_thread` allocated registers per thread.
    fn on_kernel_launch(&mut self, _regs_per_thread: u32, _t: u64) {}
    /// A kernel launches at cycle `t` with `regs_per_thread` allocated registers per thread and
    /// `warps_per_cta` warps per CTA; its first CTA on the SM takes warp slots
    /// `0..warps_per_cta`. An error (a launch-time check naming its knob) stops the simulation.
    /// Default: [`RegisterFileOrg::on_kernel_launch`].
    fn on_kernel_start(
        &mut self,
        regs_per_thread: u32,
        _warps_per_cta: u32,
        t: u64,
    ) -> Result<(), String> {
        self.on_kernel_launch(regs_per_thread, t);
        Ok(())
    }
    /// A warp starts in slot `w` at cycle `t` (its CTA was placed).
    fn on_warp_launch(&mut self, _w: u32, _t: u64) {}
    /// The warp in slot `w` retired at cycle `t`.
    fn on_warp_exit(&mut self, _w: u32, _t: u64) {}
    /// Warp `w` issued `inst` at cycle `t` (every issued instruction, barriers included, before
    /// any of its register accesses).
    #[inline]
    fn on_issue(&mut self, _w: u32, _inst: &TInst, _t: u64) {}
    /// Warp `w`'s instruction was dispatched from its collector at cycle `t`.
    fn on_dispatch(&mut self, _w: u32, _t: u64) {}
    /// True when the organisation wants [`RegisterFileOrg::on_active_set`] (a constant, read
    /// once by the SM).
    fn wants_active_set(&self) -> bool {
        false
    }
    /// Warp `w` entered (`active`) or left the schedulers' active set (the two-level active
    /// set; every live warp with a scheduler that keeps none), seen at the start of cycle `t`.
    fn on_active_set(&mut self, _w: u32, _active: bool, _t: u64) {}
    /// True when the organisation keeps its entries in power states, so that an access may
    /// have to wait for its entry and the access hooks below are called (a constant, read once
    /// by the SM). A run with such an organisation records the register-file statistics.
    fn gates_entries(&self) -> bool {
        false
    }
    /// Look-ahead depth k: every cycle whose issue stage evaluated its schedulers, the source
    /// registers of each scheduler's next k predicted instructions go to
    /// [`RegisterFileOrg::on_predicted`] (a constant, read once by the SM; 0: no predictions).
    fn lookahead(&self) -> u32 {
        0
    }
    /// A kernel of `regs_per_thread` registers per thread launches at `t` with at most
    /// `max_ctas` CTAs of `warps_per_cta` warps resident (after
    /// [`RegisterFileOrg::on_kernel_start`]).
    fn on_kernel_residency(
        &mut self,
        _regs_per_thread: u32,
        _max_ctas: u32,
        _warps_per_cta: u32,
        _t: u64,
    ) {
    }
    /// A CTA occupies warp slots `first..first + n` from cycle `t`.
    fn on_cta_launch(&mut self, _first: usize, _n: usize, _t: u64) {}
    /// The CTA in warp slots `first..first + n` completed at cycle `t`.
    fn on_cta_exit(&mut self, _first: usize, _n: usize, _t: u64) {}
    /// An instruction of warp `w` with active lanes `mask`, general source registers `srcs`
    /// (distinct) and destinations `dsts` takes a collector at `t`; fills `not_before` with,
    /// per source, the first cycle it may be read.
    fn on_collect(
        &mut self,
        _w: usize,
        _mask: u32,
        _srcs: &[u16],
        _dsts: &[u16],
        _t: u64,
        _not_before: &mut [u64; 5],
    ) {
    }
    /// A read of register `reg` of warp `w` driving lanes `mask` is granted at `t`.
    fn on_read(&mut self, _w: usize, _reg: u16, _mask: u32, _t: u64) {}
    /// A writeback of `reg` of warp `w` (lanes `mask`) wants its bank port at `t`: the first
    /// cycle it may write (≤ `t`: now).
    fn write_ready(&mut self, _w: usize, _reg: u16, _mask: u32, t: u64) -> u64 {
        t
    }
    /// A writeback waited this cycle for an entry [`RegisterFileOrg::write_ready`] named.
    fn on_write_stalled(&mut self) {}
    /// A write of `reg` of warp `w` driving lanes `mask` is granted at `t`.
    fn on_write(&mut self, _w: usize, _reg: u16, _mask: u32, _t: u64) {}
    /// A fixed-latency result for `reg` of warp `w` will be written at cycle `at`.
    fn on_result_scheduled(&mut self, _w: usize, _reg: u16, _at: u64) {}
    /// The schedulers' predictions of cycle `t` follow (an organisation applies what its
    /// earlier predictions' timeouts require first).
    fn on_predictions(&mut self, _t: u64) {}
    /// The schedulers predict that warp `w` reads register `reg` (lanes `mask`) soon; cycle `t`.
    fn on_predicted(&mut self, _w: usize, _reg: u16, _mask: u32, _t: u64) {}
    /// The kernel ended at `end`: the organisation's share of the SM's register-file record
    /// (per-state residency, its own counters).
    fn finish_record(&mut self, _end: u64, _r: &mut crate::activity::RfStats) {}
}

/// A unit's availability as a gating policy sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitState {
    /// Usable this cycle.
    Ready,
    /// Gated; usable after `wake_in` cycles once a wake is requested.
    Gated {
        /// Cycles from the wake request until the unit is usable.
        wake_in: u32,
    },
}

/// Power gating of execution pipes (spec §2.9 `UnitGate`, power-gating §1.2).
pub trait GatingPolicy: Send {
    /// Availability of pipe `pipe` (index into the SM's pipe list) at `cycle`.
    fn available(&self, pipe: usize, cycle: u64) -> UnitState;
    /// A candidate wants the gated pipe.
    fn request_wake(&mut self, _pipe: usize, _cycle: u64) {}
    /// Whether the policy needs [`GatingPolicy::on_cycle`] every cycle (disables cycle skipping
    /// of idle SMs when true).
    fn needs_cycle_hook(&self) -> bool {
        false
    }
    /// End of a cycle: whether the pipe was busy and whether it accepted an instruction.
    fn on_cycle(&mut self, _pipe: usize, _cycle: u64, _busy: bool, _accepted: bool) {}
    /// True when [`GatingPolicy::available`] does not depend on the cycle (lets the issue stage
    /// skip re-evaluating an unchanged SM). This and [`GatingPolicy::always_ready`] are
    /// constants of the policy, read once by the SM.
    fn time_invariant(&self) -> bool {
        false
    }
    /// True when every pipe is always [`UnitState::Ready`] (nothing is ever gated), so that
    /// callers may skip [`GatingPolicy::available`].
    fn always_ready(&self) -> bool {
        false
    }
}
