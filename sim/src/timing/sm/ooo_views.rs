//! The scheduler pass the out-of-order issue paths share (SOCGPU, `sm/socgpu.rs`; LOOG,
//! `sm/loog.rs`; issue-stage §2.3, §3.2 step 1): per scheduler, the views of its live warps
//! that the inter-warp policy orders, the counters of a scheduler cycle, and the record of
//! the last evaluated cycle that a slept-through cycle repeats. The two paths differ only in
//! what makes a warp's view empty or ready, which the caller supplies.

use super::Sm;
use crate::timing::issueunit::Stall;
use crate::timing::policy::WarpView;

impl Sm {
    /// Opens scheduler `s`'s cycle: builds the views of its live warps, `look(sm, w)` giving
    /// for warp slot `w` whether its buffer holds nothing to issue (`ibuffer_empty`) and
    /// whether it has an instruction the stage may try (ready unless the warp waits at a
    /// barrier). With no live warp the cycle is counted as a no-warp stall and `None` comes
    /// back; otherwise the cycle is counted active and the scheduler's order of the warps
    /// comes back (hand it to [`Sm::ooo_close_sched`]).
    pub(super) fn ooo_open_sched(
        &mut self,
        s: usize,
        mut look: impl FnMut(&Sm, usize) -> (bool, bool),
    ) -> Option<Vec<u16>> {
        let mut views = std::mem::take(&mut self.issue.views[s]);
        views.clear();
        for k in 0..self.issue.sched_live[s].len() {
            let w = self.issue.sched_live[s][k] as usize;
            let waiting = self.warps.waits_barrier(w);
            let (empty, has_work) = look(self, w);
            views.push(WarpView {
                slot: w as u16,
                age: self.warps.w_age[w],
                ready: has_work && !waiting,
                waiting,
                ibuffer_empty: empty,
                head_longop: false,
                finished: false,
                ..Default::default()
            });
        }
        if views.is_empty() {
            self.issue.views[s] = views;
            self.issue.count_no_warp(s);
            return None;
        }
        self.issue.last_active[s] = true;
        self.issue.sched_act[s].active_cycles += 1;
        let mut order = std::mem::take(&mut self.issue.orders[s]);
        self.issue.scheds[s].order(&views, &mut order);
        self.issue.views[s] = views;
        Some(order)
    }

    /// Closes scheduler `s`'s cycle opened by [`Sm::ooo_open_sched`]: puts its order back
    /// and counts the warps looked at (`evals`), the instructions issued and, when none
    /// issued, the first stall reason met; the outcome is also kept as the last evaluated
    /// cycle's.
    pub(super) fn ooo_close_sched(
        &mut self,
        s: usize,
        order: Vec<u16>,
        evals: u64,
        issued: u32,
        first_stall: Option<Stall>,
    ) {
        self.issue.orders[s] = order;
        self.issue.count_sched_cycle(s, evals, issued, first_stall);
    }
}
