//! Issue stage of the SM cycle (simulator §2.3): every scheduler orders its live warps,
//! and the head instruction of each candidate is checked against the barriers, the I-buffer,
//! the scoreboard, the free collectors, the issue ports and the gating policy; an issued
//! instruction reserves its destinations and takes a collector with its register reads queued
//! per bank. The first failing check of a scheduler's cycle is its stall reason.

use super::Sm;
use crate::timing::exec::{ExecClass, PipeClass};
use crate::timing::frontend::{is_branch, BRANCH_WB_TAG};
use crate::timing::gating::GateDecision;
use crate::timing::issueunit::{Stall, W0};
use crate::timing::perclass::PerPipe;
use crate::timing::policy::{HeadType, IssueStage, WarpView};
use crate::timing::ports::IssuePorts;
use crate::timing::slots::GatingSlot;
use crate::timing::warpset::WarpSet;

/// Word masks of warps the issue stage rejects without a look at their instruction: waiting
/// at a barrier, no ready I-buffer entry, and (`any`) either of those or a head known to fail
/// the scoreboard. Only an issue changes them for warps not yet looked at in a scheduler's
/// pass, so they are recomputed after each issue.
#[derive(Clone, Copy, Default)]
struct QuickRejects {
    bar: [u64; WarpSet::WORDS],
    empty: [u64; WarpSet::WORDS],
    any: [u64; WarpSet::WORDS],
}

impl Sm {
    /// Rebuilds each scheduler's list of live warps (valid, not exited) when a warp launched or
    /// exited since the last rebuild, and marks the schedulers' views stale.
    #[inline]
    pub(super) fn refresh_live(&mut self) {
        if !self.issue.live_dirty {
            return;
        }
        self.issue.live_dirty = false;
        for s in 0..self.issue.scheds.len() {
            let mut live = std::mem::take(&mut self.issue.sched_live[s]);
            live.clear();
            live.extend(self.issue.sched_warps[s].iter().copied().filter(|&w| {
                let w = w as usize;
                self.warps.w_valid[w] && !self.warps.w_exited[w]
            }));
            self.issue.sched_live[s] = live;
            self.issue.views_stale[s] = true;
        }
    }

    // ------------------------------------------------------------------ issue
    /// In-order issue stage for all schedulers. Returns nothing; counters go to `act`.
    pub(super) fn issue_in_order(
        &mut self,
        t: u64,
        cfg_issue: (u32, u32, bool),
        id_oc: &PerPipe<u32>,
    ) {
        if !self.issue.dirty
            && t < self.issue.wake
            && (self.issue.flags.stable || self.gated_issue_repeats(t))
        {
            // Nothing the stage reads changed since it last found nothing to issue: the
            // outcome, and every counter, would repeat.
            self.issue.replay_pending += 1;
            return;
        }
        self.issue.flush_replay();
        self.issue.gate_reached = false;
        self.issue.last_eval = t;
        self.refresh_live();
        // decoded entries that have become ready
        self.front.settle_waits(t);
        let (per_sched, per_warp, diff_units) = cfg_issue;
        let mut any_issued = false;
        let mut ports = IssuePorts::new(id_oc);
        let sb0 = self.issue.sb_act.reads;
        let n_s = self.issue.scheds.len();
        for si in 0..n_s {
            let s = self.sched_at(si, t);
            self.refresh_views(s, t);
            if self.issue.views[s].is_empty() {
                self.issue.count_no_warp(s);
                if let Some(c) = self.issue.simd.as_mut() {
                    c.last_w0[s] = Some(W0::Idle);
                }
                continue;
            }
            self.issue.last_active[s] = true;
            self.issue.sched_act[s].active_cycles += 1;
            let mut order = std::mem::take(&mut self.issue.orders[s]);
            if self.issue.flags.head_type[s] {
                let v = self.gating_view(t);
                self.issue.scheds[s].gating_view(&v);
            }
            if self.issue.views_new[s] {
                self.issue.views_new[s] = false;
                self.issue.scheds[s].order(&self.issue.views[s], &mut order);
                self.issue.order_valid[s] = true;
            } else if !(self.issue.order_valid[s] && self.issue.flags.reusable[s]) {
                self.issue.scheds[s].order_unchanged(&self.issue.views[s], &mut order);
                self.issue.order_valid[s] = true;
            }
            let mut issued = 0u32;
            // slots taken by wake requests (`pg.wake_consumes_slot`)
            let mut woke = 0u32;
            let mut first_stall: Option<Stall> = None;
            // warps looked at, and scoreboard reads of the quick rejections below
            let mut evals = 0u64;
            let mut sb_reads = 0u64;
            // The usual rejections of a stalled warp, as `try_issue` makes them, without the
            // call: waiting at a barrier, I-buffer empty or not decoded yet, scoreboard known
            // to fail. Recomputed after an issue, which may release a barrier.
            let mut quick = self.quick_rejects();
            for &slot in order.iter() {
                if issued + woke >= per_sched {
                    break;
                }
                let w = slot as usize;
                evals += 1;
                let (wi, bit) = (w >> 6, 1u64 << (w & 63));
                if quick.any[wi] & bit != 0 {
                    let r = if quick.bar[wi] & bit != 0 {
                        Stall::Barrier
                    } else if quick.empty[wi] & bit != 0 {
                        Stall::IbufferEmpty
                    } else {
                        self.warps.membar.remove(w);
                        sb_reads += 1;
                        Stall::Scoreboard
                    };
                    first_stall.get_or_insert(r);
                    continue;
                }
                if self.issue.sb_ok.0[wi] & bit != 0 && {
                    let m = self.front.head_cu(w);
                    m != 0 && self.oc.cu_free & m == 0
                } {
                    // passed the scoreboard before, and every collector it may take is busy
                    self.warps.membar.remove(w);
                    sb_reads += 1;
                    first_stall.get_or_insert(Stall::CuFull);
                    continue;
                }
                let mut n_w = 0u32;
                let mut first_pipe = PipeClass::None;
                while n_w < per_warp && issued + woke < per_sched {
                    let second = (n_w > 0 && diff_units).then_some(first_pipe);
                    match self.try_issue(t, w, s, &mut ports, second) {
                        Ok(p) => {
                            first_pipe = p;
                            n_w += 1;
                            issued += 1;
                        }
                        Err(r) => {
                            if r == Stall::UnitGated {
                                if let GatingSlot::Pg(g) = &mut self.exec.gating {
                                    if std::mem::take(&mut g.wake_raised) && g.wake_consumes_slot {
                                        woke += 1;
                                    }
                                }
                            }
                            if n_w == 0 && first_stall.is_none() {
                                first_stall = Some(r);
                            }
                            break;
                        }
                    }
                }
                if n_w > 0 {
                    self.issue.scheds[s].issued(slot);
                    self.issue.order_valid[s] = false;
                    self.progress = true;
                    quick = self.quick_rejects();
                }
            }
            self.issue.orders[s] = order;
            self.issue.sb_act.reads += sb_reads;
            match self.issue.count_sched_cycle(s, evals, issued, first_stall) {
                Some(r) if self.issue.simd.is_some() => self.count_w0(s, r),
                Some(_) => {}
                None => any_issued = true,
            }
        }
        self.issue.last_sb_reads = self.issue.sb_act.reads - sb0;
        if self.lookahead > 0 {
            self.rf_lookahead(t);
        }
        // An issue changes the state; otherwise the stage is clean until an event marks it
        // dirty or a decoded entry becomes ready.
        self.issue.dirty = any_issued;
        if !any_issued {
            // Entries become ready one cycle after they are decoded or their I-cache line
            // arrives, so only the latest such time can lie ahead.
            self.issue.wake = if self.front.ready_last() > t {
                self.front.ready_last()
            } else {
                u64::MAX
            };
        }
    }

    /// Under the power-gating controllers (whose state moves every cycle, so the stage is not
    /// `stable`): an unchanged stage's evaluation at `t` would repeat the last one when that
    /// brought no candidate to the controllers' check (its outcome then does not read them)
    /// and every scheduler that reads the gating view keeps its order under the view at `t`
    /// ([`WarpScheduler::gating_steady_until`]).
    ///
    /// [`WarpScheduler::gating_steady_until`]: crate::timing::policy::WarpScheduler::gating_steady_until
    #[inline]
    fn gated_issue_repeats(&self, t: u64) -> bool {
        if !self.issue.flags.sched_stable
            || self.issue.gate_reached
            || !matches!(self.exec.gating, GatingSlot::Pg(_))
        {
            return false;
        }
        if !self.issue.flags.head_type.iter().any(|&h| h) {
            return true;
        }
        let v = self.gating_view(t);
        let t0 = self.issue.last_eval;
        self.issue
            .scheds
            .iter()
            .zip(&self.issue.flags.head_type)
            .all(|(s, &h)| !h || s.gating_steady_until(&v, t0) > t)
    }

    /// Rebuilds scheduler `s`'s views of its live warps (ascending slot) at cycle `t` when they
    /// are stale or the scheduler reads their per-cycle flags.
    #[inline]
    fn refresh_views(&mut self, s: usize, t: u64) {
        if !(self.issue.views_stale[s] || self.issue.flags.uses_state[s]) {
            return;
        }
        let mut views = std::mem::take(&mut self.issue.views[s]);
        self.issue.views_stale[s] = false;
        self.issue.order_valid[s] = false;
        self.issue.views_new[s] = true;
        views.clear();
        let want_type = self.issue.flags.head_type[s];
        for k in 0..self.issue.sched_live[s].len() {
            let w = self.issue.sched_live[s][k] as usize;
            let empty = !self.front.head_ready(w, t);
            let head_longop = self.issue.need_longop && !empty && {
                self.issue.stage.reads_longop(w, self.front.head(w))
            };
            let waiting = self.warps.waits_barrier(w);
            let (head_type, head_mask) = if want_type && !empty {
                (self.head_type(w), self.front.head(w).active_mask)
            } else {
                (HeadType::Other, 0)
            };
            views.push(WarpView {
                slot: w as u16,
                age: self.warps.w_age[w],
                ready: !empty && !waiting,
                waiting,
                ibuffer_empty: empty,
                head_longop,
                finished: false,
                head_type,
                head_mask,
            });
        }
        self.issue.views[s] = views;
    }

    /// Tries to issue warp `w`'s head on scheduler `s` at cycle `t` against this cycle's
    /// issue `ports`; `second` is the pipe of the warp's first instruction this cycle when a
    /// second one must go to another unit. The pipe it went to, or the stall.
    fn try_issue(
        &mut self,
        t: u64,
        w: usize,
        s: usize,
        ports: &mut IssuePorts,
        second: Option<PipeClass>,
    ) -> Result<PipeClass, Stall> {
        // A warp waiting at a barrier has stopped fetching, so its empty I-buffer is a
        // consequence of the barrier: the barrier is charged first.
        if self.warps.waits_barrier(w) {
            return Err(Stall::Barrier);
        }
        if !self.front.head_ready(w, t) {
            return Err(Stall::IbufferEmpty);
        }
        self.warps.membar.remove(w);
        self.scoreboard_check(t, w)?;
        let (family, op, mask) = {
            let i = self.front.head(w);
            (i.family, i.op, i.active_mask)
        };
        let ec = self.front.exec_class(family, op);
        if second == Some(ec.pipe) {
            return Err(Stall::PipeBusy);
        }
        let mut cu_idx = None;
        if ec.pipe != PipeClass::None {
            let (i, class) = self
                .oc
                .free_collector(ports, ec.pipe, self.front.head_cu(w))?;
            if !self.issue.flags.gate_free {
                self.gate_check(&ec, mask, t)?;
            }
            ports.take(ec.pipe, class);
            cu_idx = Some(i);
        }
        // ---- issue ----
        if !self.issue.flags.gate_free {
            if let GatingSlot::Pg(g) = &mut self.exec.gating {
                let since = std::mem::replace(&mut g.ready_since[w], u64::MAX);
                if since != u64::MAX {
                    g.max_ready_wait = g.max_ready_wait.max(t - since);
                }
            }
        }
        if self.front.wb_release() && ec.pipe != PipeClass::None && is_branch(family, op) {
            // the stack update at write-back releases the warp's next fetch
            self.front.set_head_tag(w, BRANCH_WB_TAG);
            self.warps.w_fetch_ready[w] = u64::MAX;
        }
        let inst = *self.front.head(w);
        self.issue.sb_ok.remove(w);
        self.pop_ib_head(w, inst.pc, t);
        if ec.pipe == PipeClass::Sp {
            self.lanes.sp_issued();
        }
        self.count_issued(w, &inst, t, true);
        if self.complete_at_issue(w, family, op) {
            return Ok(PipeClass::None);
        }
        let longop = inst.is_long_latency_mem();
        self.issue.stage.reserve(w, &inst, longop);
        self.issue.sb_act.writes += inst.n_dst as u64;
        self.warps.w_inflight[w] += 1;
        self.hand_to_collector(cu_idx.expect("cu"), w, s, inst, ec, t);
        Ok(ec.pipe)
    }

    /// The scoreboard check of warp `w`'s head at cycle `t`, skipped
    /// where a sticky stage's earlier answer holds; a head that passes starts waiting for its
    /// issue in the gating controllers' count.
    #[inline]
    fn scoreboard_check(&mut self, t: u64, w: usize) -> Result<(), Stall> {
        self.issue.sb_act.reads += 1;
        if self.issue.sb_blocked.has(w) {
            return Err(Stall::Scoreboard);
        }
        if !self.issue.sb_ok.has(w) {
            if self.issue.stage.check(w, self.front.head(w)).is_err() {
                self.issue.sb_blocked.put(w, self.issue.flags.sb_sticky);
                return Err(Stall::Scoreboard);
            }
            self.issue.sb_ok.put(w, self.issue.flags.sb_sticky);
        }
        if !self.issue.flags.gate_free {
            if let GatingSlot::Pg(g) = &mut self.exec.gating {
                // the head is hazard-free: it waits from now until it issues
                if g.ready_since[w] == u64::MAX {
                    g.ready_since[w] = t;
                }
            }
        }
        Ok(())
    }

    /// Power-gating §1.2 step 3 for an instruction of class `ec` with active `mask` at cycle
    /// `t`: it issues only with an ON domain of its type; else a wake request is raised (the
    /// slot stays free) or it is blocked ([`Stall::UnitGated`]). A gating policy other than
    /// the controllers answers per pipe.
    #[inline]
    fn gate_check(&mut self, ec: &ExecClass, mask: u32, t: u64) -> Result<(), Stall> {
        self.issue.gate_reached = true;
        if let Some(ty) = self.exec.pg_type(ec) {
            if let GatingSlot::Pg(g) = &mut self.exec.gating {
                g.bank.note_ready(ty);
            }
            let need = self.fold_need_mask(ec, mask, t);
            match self.exec.pg_decide(ty, t, None, need).0 {
                GateDecision::Issue => Ok(()),
                GateDecision::WakeRequested => {
                    if let GatingSlot::Pg(g) = &mut self.exec.gating {
                        g.wake_raised = true;
                    }
                    Err(Stall::UnitGated)
                }
                GateDecision::Blocked => Err(Stall::UnitGated),
            }
        } else if !self.exec.any_ready(ec.pipe, ec.sp_pipe, t, false) {
            self.exec.request_wake(ec.pipe, ec.sp_pipe, t);
            Err(Stall::UnitGated)
        } else {
            Ok(())
        }
    }

    /// Classifies scheduler `s`'s issue-less cycle whose first failing reason was `r` for the
    /// SIMD-efficiency counters (control-flow spec §6, mapped as in
    /// [`crate::activity::ReconvStats`]).
    fn count_w0(&mut self, s: usize, r: Stall) {
        let c = if matches!(r, Stall::CuFull | Stall::PipeBusy | Stall::UnitGated) {
            W0::Stall
        } else if self.issue.sched_live[s]
            .iter()
            .all(|&w| self.warps.mem_out_nz.has(w as usize))
        {
            W0::Mem
        } else {
            W0::Idle
        };
        if let Some(x) = self.issue.simd.as_mut() {
            x.add(c, 1);
            x.last_w0[s] = Some(c);
        }
    }

    #[inline]
    fn quick_rejects(&self) -> QuickRejects {
        let mut q = QuickRejects::default();
        for i in 0..WarpSet::WORDS {
            q.bar[i] =
                self.warps.at_bar.0[i] | (self.warps.membar.0[i] & self.warps.mem_out_nz.0[i]);
            q.empty[i] = self.front.not_ready_word(i);
            q.any[i] = q.bar[i] | q.empty[i] | self.issue.sb_blocked.0[i];
        }
        q
    }
}
