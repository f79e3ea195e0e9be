//! Warp and CTA lifecycle of one SM (simulator §2.9): CTA launch into warp slots, warp
//! exit, CTA completion, and the earliest future event used for cycle skipping.

use super::Sm;
use crate::stream::KernelStream;
use crate::timing::policy::{IssueStage, RegisterFileOrg};
use crate::timing::warps::CtaSlot;
use crate::SimError;

impl Sm {
    /// Places CTA `cta_id` with `n_warps` warps; returns the warp slot of its warp 0. CTA slot c
    /// owns warp slots `c·n_warps .. (c+1)·n_warps`.
    #[allow(clippy::too_many_arguments)]
    pub fn launch_cta(
        &mut self,
        cta_id: u32,
        n_warps: u32,
        regs: u64,
        ready_at: u64,
        age: &mut u64,
        threads: u32,
        max_ctas: u32,
    ) -> u32 {
        if self.warps.ctas.len() < max_ctas as usize {
            self.warps.ctas.resize_with(max_ctas as usize, || CtaSlot {
                valid: false,
                cta_id: 0,
                first_slot: 0,
                n_warps: 0,
                warps_done: 0,
                exited: 0,
                bar_arrived: 0,
                regs: 0,
            });
        }
        let c = self
            .warps
            .ctas
            .iter()
            .position(|x| !x.valid)
            .expect("free CTA slot");
        let first = c as u32 * n_warps;
        self.warps.ctas[c] = CtaSlot {
            valid: true,
            cta_id,
            first_slot: first,
            n_warps,
            warps_done: 0,
            exited: 0,
            bar_arrived: 0,
            regs,
        };
        for i in 0..n_warps {
            let w = (first + i) as usize;
            self.warps.w_valid[w] = true;
            self.warps.w_cta[w] = c as u32;
            self.warps.w_idx[w] = i;
            self.warps.w_age[w] = *age;
            *age += 1;
            self.warps.w_stream_done[w] = false;
            self.warps.w_exited[w] = false;
            self.issue.sb_blocked.remove(w);
            self.issue.sb_ok.remove(w);
            self.front.candidate(w);
            self.warps.w_fetch_bar[w] = false;
            self.warps.at_bar.remove(w);
            self.warps.membar.remove(w);
            self.warps.w_fetch_ready[w] = ready_at;
            self.warps.w_ifetch_line[w] = u64::MAX;
            self.warps.w_inflight[w] = 0;
            self.warps.w_mem_out[w] = 0;
            self.warps.mem_out_nz.remove(w);
            self.warps.w_launch[w] = ready_at;
            self.front.reset_warp(w);
            self.regs.reset_warp(w);
            self.oc.rf.on_warp_launch(w as u32, ready_at);
            self.issue.stage.on_warp_launch(w);
        }
        let _ = threads;
        if let (Some(c), Some(rs)) = (self.regs.chars.as_mut(), self.regs.stats.as_mut()) {
            c.cta_launch(first as usize, n_warps as usize, rs);
        }
        let now = self.now;
        self.oc
            .rf
            .on_cta_launch(first as usize, n_warps as usize, now);
        self.flush_integrals();
        self.warps.n_resident_ctas += 1;
        self.warps.n_resident_warps += n_warps;
        self.warps.allocated_regs += regs;
        self.act.ctas += 1;
        self.issue.dirty = true;
        self.front.mark_fetch_dirty();
        self.issue.live_dirty = true;
        first
    }

    /// Retires warps that have issued everything and have nothing in flight, and CTAs whose
    /// warps all retired. Returns the number of CTAs completed.
    pub fn retire(&mut self, stream: &mut dyn KernelStream, t: u64) -> Result<u32, SimError> {
        let mut done = 0;
        if !self.warps.retire_pending {
            return Ok(0);
        }
        self.warps.retire_pending = false;
        for c in 0..self.warps.ctas.len() {
            if !self.warps.ctas[c].valid {
                continue;
            }
            let first = self.warps.ctas[c].first_slot as usize;
            let n = self.warps.ctas[c].n_warps as usize;
            for w in first..first + n {
                if self.warps.w_valid[w]
                    && self.warps.w_exited[w]
                    && self.warps.w_inflight[w] == 0
                    && self.warps.w_mem_out[w] == 0
                    && self.front.is_empty(w)
                {
                    self.warps.w_valid[w] = false;
                    self.oc.rf.on_warp_exit(w as u32, t);
                    if let Some(a) = self.rf_active.as_mut() {
                        // the organisation dropped the warp: a new warp in the slot enters
                        a[w] = false;
                    }
                    self.issue.dirty = true;
                    self.issue.live_dirty = true;
                    self.flush_integrals();
                    self.warps.n_resident_warps -= 1;
                    self.warps.ctas[c].warps_done += 1;
                }
            }
            if self.warps.ctas[c].warps_done == self.warps.ctas[c].n_warps {
                self.warps.ctas[c].valid = false;
                self.flush_integrals();
                self.warps.n_resident_ctas -= 1;
                self.warps.allocated_regs -= self.warps.ctas[c].regs;
                self.oc.rf.on_cta_exit(first, n, t);
                stream.end_cta(self.warps.ctas[c].cta_id)?;
                done += 1;
            }
        }
        Ok(done)
    }

    /// Earliest cycle after `t` at which this SM may change state on its own (without a memory
    /// reply): pending writebacks, operand-ready collectors, unit initiation intervals, LD/ST
    /// work, fetch readiness and decoded I-buffer entries. `None` when nothing is pending.
    pub fn next_event(&self, t: u64) -> Option<u64> {
        let mut ev = u64::MAX;
        if !self.exec.wb_waiting.is_empty()
            || self.oc.reads_pending()
            || !self.oc.wb_completing.is_empty()
        {
            return Some(t + 1);
        }
        if let crate::timing::slots::RegisterFileSlot::Partitioned(o) = &self.oc.rf {
            if o.migrating() {
                return Some(t + 1);
            }
        }
        if let Some(w) = self.exec.wb_queue.front() {
            ev = ev.min(w.ready.max(t + 1));
        }
        let mut cu_waiting = false;
        for c in &self.oc.cus {
            if c.busy && c.ready_at != u64::MAX {
                if c.ready_at > t {
                    ev = ev.min(c.ready_at);
                } else {
                    cu_waiting = true;
                }
            }
        }
        if cu_waiting {
            for u in &self.exec.units {
                if u.next_accept > t {
                    ev = ev.min(u.next_accept);
                }
            }
        }
        if let Some(e) = self.ldst.next_event(t) {
            ev = ev.min(e);
        }
        // The fetch stage's own wake-up: the earliest fetch delay to end among the warps that
        // may fetch (a delay of a warp that may not fetch changes nothing when it ends).
        if self.front.fetch_wake() > t {
            ev = ev.min(self.front.fetch_wake());
        }
        if self.front.ready_last() > t {
            ev = ev.min(self.front.ready_last());
        }
        ev = self.stage_next_event(t, ev);
        (ev != u64::MAX).then_some(ev)
    }
}
