//! The SM's issue unit (simulator §2.3): the warp schedulers with their per-cycle warp
//! views and priority orders, the issue stage (scoreboard) slot, the stall attribution and the
//! issue-stage counters, including the lazily replayed counts of cycles whose evaluation would
//! repeat the last one. The issue cycle itself (`Sm::issue`, in `sm/issue.rs`) reads the front
//! end, the warp state and the collectors.

use super::divisor::Divisor;
use super::policy::{IssueStage, WarpScheduler, WarpView};
pub(crate) use super::ports::Stall;
use super::slots::IssueStageSlot;
use super::warpset::WarpSet;
use crate::activity::{SchedActivity, ScoreboardCounts, StallCounts};

/// Adds `n` cycles of stall reason `r` to `s`.
pub(crate) fn add_stall(s: &mut StallCounts, r: Stall, n: u64) {
    match r {
        Stall::NoWarp => s.no_warp += n,
        Stall::IbufferEmpty => s.ibuffer_empty += n,
        Stall::Barrier => s.barrier += n,
        Stall::Scoreboard => s.scoreboard += n,
        Stall::CuFull => s.cu_full += n,
        Stall::PipeBusy => s.pipe_busy += n,
        Stall::UnitGated => s.unit_gated += n,
    }
}

/// One issued instruction, for tests and debugging (an issue log of a traced simulation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IssueEvent {
    /// Core cycle of the issue.
    pub cycle: u64,
    /// SM id.
    pub sm: u32,
    /// Warp slot on the SM.
    pub warp_slot: u32,
    /// Byte PC of the issued instruction.
    pub pc: u32,
}

/// Constant properties of the SM's policies, read once instead of through a virtual call per
/// cycle, warp or collector.
#[derive(Clone, Debug, Default)]
pub(crate) struct PolicyFlags {
    /// [`super::policy::GatingPolicy::time_invariant`] and every scheduler's
    /// [`WarpScheduler::stable_when_idle`].
    pub stable: bool,
    /// [`super::policy::GatingPolicy::always_ready`].
    pub gate_free: bool,
    /// [`IssueStage::failure_sticky`].
    pub sb_sticky: bool,
    /// Per scheduler: [`WarpScheduler::uses_warp_state`].
    pub uses_state: Vec<bool>,
    /// Per scheduler: [`WarpScheduler::order_reusable`].
    pub reusable: Vec<bool>,
    /// Per scheduler: [`WarpScheduler::uses_head_type`].
    pub head_type: Vec<bool>,
    /// Every scheduler is [`WarpScheduler::stable_when_idle`] or reads the gating view (and
    /// then says how long its order holds, [`WarpScheduler::gating_steady_until`]): the
    /// issue stage's outcome moves with the gating controllers only through a candidate that
    /// reaches their check or through such a scheduler (lets an SM under the power-gating
    /// controllers sleep through cycles in which neither moves).
    pub sched_stable: bool,
}

/// Schedulers, issue stage and their per-cycle bookkeeping and counters.
pub(crate) struct IssueUnit {
    /// The issue stage: the in-order scoreboard, an out-of-order stage or a plug-in. Its
    /// constant properties, and the schedulers', are read once, into `flags`, when they are
    /// installed ([`IssueUnit::new`]).
    pub stage: IssueStageSlot,
    pub scheds: Vec<Box<dyn WarpScheduler>>,
    pub flags: PolicyFlags,
    /// The number of schedulers, as a divisor (warp slot → scheduler, rotation).
    pub n_sched: Divisor,
    pub sched_warps: Vec<Vec<u16>>,
    pub last_stall: Vec<Option<Stall>>,
    /// Per scheduler: this cycle's views of its live warps. For schedulers that read only slot
    /// and age ([`WarpScheduler::uses_warp_state`] false) they are rebuilt only when the live
    /// set changes.
    pub views: Vec<Vec<WarpView>>,
    pub views_stale: Vec<bool>,
    /// Per scheduler: its last priority order, and whether it still holds (the views were not
    /// rebuilt and nothing issued since), for schedulers whose
    /// [`WarpScheduler::order_reusable`] is true.
    pub orders: Vec<Vec<u16>>,
    pub order_valid: Vec<bool>,
    /// Per scheduler: its views were rebuilt since it last saw them.
    pub views_new: Vec<bool>,
    /// The head of the warp failed the scoreboard check and, the issue stage being sticky
    /// ([`IssueStage::failure_sticky`]), fails until a release or source read of that warp.
    pub sb_blocked: WarpSet,
    /// The head of the warp passed the scoreboard check; with a sticky issue stage it keeps
    /// passing until the warp issues (only its own reservations add hazards).
    pub sb_ok: WarpSet,
    /// Something the issue stage reads changed since its last evaluation (see `Sm::issue`).
    pub dirty: bool,
    /// First cycle at which a decoded I-buffer entry becomes ready after the last evaluation
    /// of the issue stage, which found nothing to issue.
    pub wake: u64,
    /// Per scheduler: it had live warps at the last evaluation.
    pub last_active: Vec<bool>,
    /// Per scheduler: its live warps (valid, not exited), ascending slot; rebuilt when
    /// `live_dirty` after a launch, exit or retirement.
    pub sched_live: Vec<Vec<u16>>,
    pub live_dirty: bool,
    /// The scheduler looks at `head_longop` (two-level).
    pub need_longop: bool,
    /// Cycles whose issue-stage counters repeat the last evaluation, not yet counted
    /// ([`IssueUnit::replay`]); counted before the next evaluation changes what is repeated.
    pub replay_pending: u64,
    /// The last evaluation brought a candidate to the power-gating controllers' check.
    pub gate_reached: bool,
    /// Cycle of the last evaluation.
    pub last_eval: u64,
    /// warp_evals and scoreboard reads of the last evaluated cycle (replayed for skipped ones).
    pub last_evals: Vec<u64>,
    pub last_sb_reads: u64,
    /// Issue log (cycle, warp slot, pc) when tracing is on.
    pub trace: Option<Vec<IssueEvent>>,
    /// Per scheduler, in scheduler order.
    pub sched_act: Vec<SchedActivity>,
    pub sb_act: ScoreboardCounts,
    /// SIMD-efficiency counters (`reconv.counters`; control-flow spec §6).
    pub simd: Option<Box<SimdCounts>>,
}

/// Class of an issue slot that issued nothing (see `crate::activity::ReconvStats`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum W0 {
    /// Every live warp of the scheduler waits on memory.
    Mem,
    /// The back end refused a ready warp.
    Stall,
    /// Anything else.
    Idle,
}

/// The SIMD-efficiency counters of one SM's issue slots.
#[derive(Clone, Debug, Default)]
pub(crate) struct SimdCounts {
    /// Issued instructions by [`crate::activity::simd_bucket`] of their lanes.
    pub issued_lanes: [u64; crate::activity::SIMD_BUCKETS],
    /// Issue-less scheduler cycles while every live warp waited on memory.
    pub w0_mem: u64,
    /// Issue-less scheduler cycles for back-end contention.
    pub w0_stall: u64,
    /// Per scheduler: the class of its last evaluated issue-less cycle (replayed).
    pub last_w0: Vec<Option<W0>>,
}

impl SimdCounts {
    /// Adds `k` issue-less cycles of class `c` (idle cycles are derived from the scheduler
    /// counters when the record is gathered).
    #[inline]
    pub fn add(&mut self, c: W0, k: u64) {
        match c {
            W0::Mem => self.w0_mem += k,
            W0::Stall => self.w0_stall += k,
            W0::Idle => {}
        }
    }
}

impl IssueUnit {
    /// An issue unit for `nw` warp slots with the given schedulers (one per scheduler) and
    /// issue stage; `gate_time_invariant`/`gate_always_ready` are the installed gating
    /// policy's constant properties.
    pub fn new(
        nw: usize,
        scheds: Vec<Box<dyn WarpScheduler>>,
        mut stage: IssueStageSlot,
        gate_time_invariant: bool,
        gate_always_ready: bool,
    ) -> Self {
        let ns = scheds.len();
        stage.reset(nw);
        let flags = PolicyFlags {
            stable: gate_time_invariant && scheds.iter().all(|s| s.stable_when_idle()),
            gate_free: gate_always_ready,
            sb_sticky: stage.failure_sticky(),
            uses_state: scheds.iter().map(|s| s.uses_warp_state()).collect(),
            reusable: scheds.iter().map(|s| s.order_reusable()).collect(),
            head_type: scheds.iter().map(|s| s.uses_head_type()).collect(),
            sched_stable: scheds
                .iter()
                .all(|s| s.stable_when_idle() || s.uses_head_type()),
        };
        // head_longop is worked out only for schedulers that read the per-cycle flags
        let need_longop = flags.uses_state.iter().any(|&u| u);
        IssueUnit {
            stage,
            scheds,
            flags,
            n_sched: Divisor::new(ns as u64),
            sched_warps: (0..ns)
                .map(|s| (s..nw).step_by(ns).map(|w| w as u16).collect())
                .collect(),
            last_stall: vec![Some(Stall::NoWarp); ns],
            views: vec![Vec::new(); ns],
            views_stale: vec![true; ns],
            orders: vec![Vec::with_capacity(nw); ns],
            order_valid: vec![false; ns],
            views_new: vec![true; ns],
            sb_blocked: WarpSet::default(),
            sb_ok: WarpSet::default(),
            dirty: true,
            wake: 0,
            last_active: vec![false; ns],
            sched_live: vec![Vec::new(); ns],
            live_dirty: true,
            need_longop,
            replay_pending: 0,
            gate_reached: false,
            last_eval: 0,
            last_evals: vec![0; ns],
            last_sb_reads: 0,
            trace: None,
            sched_act: vec![SchedActivity::default(); ns],
            sb_act: ScoreboardCounts::default(),
            simd: None,
        }
    }

    /// The scheduler that owns warp slot `w`.
    #[inline]
    pub fn sched_of(&self, w: usize) -> usize {
        self.n_sched.rem(w as u64) as usize
    }

    /// Counts scheduler `s`'s cycle without a live warp, and keeps it as the last evaluated
    /// cycle's outcome.
    #[inline]
    pub fn count_no_warp(&mut self, s: usize) {
        self.last_active[s] = false;
        self.last_evals[s] = 0;
        let sa = &mut self.sched_act[s];
        sa.issued[0] += 1;
        sa.stall.no_warp += 1;
        self.last_stall[s] = Some(Stall::NoWarp);
    }

    /// Counts scheduler `s`'s evaluated cycle with live warps: `evals` warps looked at,
    /// `issued` instructions and, when none issued, the first stall reason met (no warp when
    /// none was), which comes back; the outcome is kept as the last evaluated cycle's.
    #[inline]
    pub fn count_sched_cycle(
        &mut self,
        s: usize,
        evals: u64,
        issued: u32,
        first_stall: Option<Stall>,
    ) -> Option<Stall> {
        let sa = &mut self.sched_act[s];
        sa.warp_evals += evals;
        sa.issued[(issued as usize).min(2)] += 1;
        self.last_evals[s] = evals;
        let r = (issued == 0).then(|| first_stall.unwrap_or(Stall::NoWarp));
        if let Some(r) = r {
            add_stall(&mut sa.stall, r, 1);
        }
        self.last_stall[s] = r;
        r
    }

    /// Counts the pending repeated issue-stage cycles (see `replay_pending`).
    #[inline]
    pub fn flush_replay(&mut self) {
        if self.replay_pending > 0 {
            self.replay(self.replay_pending);
            self.replay_pending = 0;
        }
    }

    /// Scheduler counters of `k` cycles in which the issue stage would have re-evaluated an
    /// unchanged state: the last evaluated cycle's outcome, `k` times.
    pub fn replay(&mut self, k: u64) {
        self.sb_act.reads += self.last_sb_reads * k;
        for s in 0..self.scheds.len() {
            let sa = &mut self.sched_act[s];
            sa.issued[0] += k;
            if self.last_active[s] {
                sa.active_cycles += k;
            }
            sa.warp_evals += self.last_evals[s] * k;
            if let Some(r) = self.last_stall[s] {
                add_stall(&mut sa.stall, r, k);
            }
            if let Some(c) = self.simd.as_mut() {
                if let Some(w0) = c.last_w0[s] {
                    c.add(w0, k);
                }
            }
        }
    }
}
