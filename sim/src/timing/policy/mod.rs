//! Extension points of the SM pipeline: warp schedulers, the issue stage's hazard check, the
//! register-file organisation and unit gating. The pipeline core calls only these traits (the
//! built-in implementations through slot enums, so that their calls inline; any other through
//! the trait object a slot's `Other` variant holds). The built-in implementations are in
//! `schedulers` and `builtin`; [`super::registry::PolicyRegistry`] resolves policies by name.

mod builtin;
mod schedulers;

pub use crate::timing::gating::gates::{Gates, GatesCore};
pub use builtin::{InOrderScoreboard, MonolithicRf, NoGating};
pub use schedulers::{make_scheduler, ByAge, FetchGroup, Gto, Lrr, TwoLevel};

use super::tinst::TInst;

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

/// Register-number space of the scoreboard: 256 general + 8 predicate registers.
pub const N_REGS: usize = 264;
pub(crate) const WORDS: usize = N_REGS.div_ceil(64);

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
}

/// The SM's issue stage: the built-in scoreboard called directly (its checks run several
/// times per instruction, and a direct call lets them inline), any other through its trait.
pub enum IssueStageSlot {
    /// The built-in in-order scoreboard ([`InOrderScoreboard`]).
    InOrder(InOrderScoreboard),
    /// A plugin issue stage.
    Other(Box<dyn IssueStage>),
}

/// Calls the same method on whichever variant a two-variant slot enum holds.
macro_rules! slot_call {
    ($self:expr, $a:ident | $b:ident, $s:ident => $e:expr) => {
        match $self {
            Self::$a($s) => $e,
            Self::$b($s) => $e,
        }
    };
}

impl IssueStage for IssueStageSlot {
    fn reset(&mut self, n_warps: usize) {
        slot_call!(self, InOrder | Other, s => s.reset(n_warps))
    }
    #[inline]
    fn check(&self, w: usize, inst: &TInst) -> Result<(), Hazard> {
        slot_call!(self, InOrder | Other, s => s.check(w, inst))
    }
    #[inline]
    fn reserve(&mut self, w: usize, inst: &TInst, longop: bool) {
        slot_call!(self, InOrder | Other, s => s.reserve(w, inst, longop))
    }
    #[inline]
    fn release(&mut self, w: usize, reg: u16) {
        slot_call!(self, InOrder | Other, s => s.release(w, reg))
    }
    #[inline]
    fn sources_read(&mut self, w: usize, inst: &TInst) {
        slot_call!(self, InOrder | Other, s => s.sources_read(w, inst))
    }
    #[inline]
    fn reads_longop(&self, w: usize, inst: &TInst) -> bool {
        slot_call!(self, InOrder | Other, s => s.reads_longop(w, inst))
    }
    fn any_pending(&self, w: usize) -> bool {
        slot_call!(self, InOrder | Other, s => s.any_pending(w))
    }
    fn failure_sticky(&self) -> bool {
        slot_call!(self, InOrder | Other, s => s.failure_sticky())
    }
}

/// The SM's register-file organisation: the built-in monolithic file called directly (its bank
/// mapping runs for every operand), any other through its trait.
pub enum RegisterFileSlot {
    /// The built-in monolithic banked register file ([`MonolithicRf`]).
    Monolithic(MonolithicRf),
    /// A plugin register-file organisation.
    Other(Box<dyn RegisterFileOrg>),
}

impl RegisterFileOrg for RegisterFileSlot {
    #[inline]
    fn bank(&self, w: u32, sched: u32, reg: u16) -> u32 {
        slot_call!(self, Monolithic | Other, r => r.bank(w, sched, reg))
    }
    fn extra_read_latency(&self, w: u32, reg: u16) -> u32 {
        slot_call!(self, Monolithic | Other, r => r.extra_read_latency(w, reg))
    }
    fn extra_write_latency(&self, w: u32, reg: u16) -> u32 {
        slot_call!(self, Monolithic | Other, r => r.extra_write_latency(w, reg))
    }
}

/// Register-file organisation: bank mapping and extra access latency (spec §2.4 `RegFileModel`).
pub trait RegisterFileOrg: Send {
    /// Bank of register `reg` of warp slot `w` on scheduler `sched`.
    fn bank(&self, w: u32, sched: u32, reg: u16) -> u32;
    /// Extra cycles a read of (w, reg) takes beyond the grant cycle.
    fn extra_read_latency(&self, _w: u32, _reg: u16) -> u32 {
        0
    }
    /// Extra cycles of a write.
    fn extra_write_latency(&self, _w: u32, _reg: u16) -> u32 {
        0
    }
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

/// The SM's gating policy: the built-in "no gating" called directly (its answers are constants
/// the SM reads once), the built-in power-gating controllers (`pg.policy` other than "None";
/// the SM drives them through their own interface, power-gating §1.2), or a plugin through its
/// trait.
pub enum GatingSlot {
    /// The built-in policy that never gates ([`NoGating`]).
    None(NoGating),
    /// The power-gating controller bank.
    Pg(Box<crate::timing::gating::PgGating>),
    /// A plugin gating policy.
    Other(Box<dyn GatingPolicy>),
}

macro_rules! gate_call {
    ($self:expr, $g:ident => $e:expr) => {
        match $self {
            Self::None($g) => $e,
            Self::Pg($g) => $e,
            Self::Other($g) => $e,
        }
    };
}

impl GatingPolicy for GatingSlot {
    #[inline]
    fn available(&self, pipe: usize, cycle: u64) -> UnitState {
        gate_call!(self, g => g.available(pipe, cycle))
    }
    fn request_wake(&mut self, pipe: usize, cycle: u64) {
        gate_call!(self, g => g.request_wake(pipe, cycle))
    }
    fn needs_cycle_hook(&self) -> bool {
        gate_call!(self, g => g.needs_cycle_hook())
    }
    fn on_cycle(&mut self, pipe: usize, cycle: u64, busy: bool, accepted: bool) {
        gate_call!(self, g => g.on_cycle(pipe, cycle, busy, accepted))
    }
    fn time_invariant(&self) -> bool {
        gate_call!(self, g => g.time_invariant())
    }
    fn always_ready(&self) -> bool {
        gate_call!(self, g => g.always_ready())
    }
}
