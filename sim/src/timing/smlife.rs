//! Warp and CTA lifecycle of one SM (spec simulator.md §2.9): CTA launch into warp slots, warp
//! exit, CTA completion, and the earliest future event used for cycle skipping.

use super::sm::Sm;
use crate::stream::KernelStream;
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
        if self.ctas.len() < max_ctas as usize {
            self.ctas
                .resize_with(max_ctas as usize, || super::sm::CtaSlot {
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
            .ctas
            .iter()
            .position(|x| !x.valid)
            .expect("free CTA slot");
        let first = c as u32 * n_warps;
        self.ctas[c] = super::sm::CtaSlot {
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
            self.w_valid[w] = true;
            self.w_cta[w] = c as u32;
            self.w_idx[w] = i;
            self.w_age[w] = *age;
            *age += 1;
            self.w_stream_done[w] = false;
            self.w_exited[w] = false;
            self.sb_blocked.remove(w);
            self.sb_ok.remove(w);
            self.fetch_candidate(w);
            self.w_fetch_bar[w] = false;
            self.at_bar.remove(w);
            self.membar.remove(w);
            self.w_fetch_ready[w] = ready_at;
            self.w_ifetch_line[w] = u64::MAX;
            self.w_inflight[w] = 0;
            self.w_mem_out[w] = 0;
            self.mem_out_nz.remove(w);
            self.w_launch[w] = ready_at;
            self.ib_head[w] = 0;
            self.ib_len[w] = 0;
            self.ib_nonempty.remove(w);
            self.w_ib_ready[w] = u64::MAX;
            self.ib_wait.insert(w);
            if !self.reg_last.is_empty() {
                let n = super::policy::N_REGS;
                self.reg_last[w * n..(w + 1) * n].fill(u64::MAX);
            }
        }
        let _ = threads;
        self.flush_integrals();
        self.n_resident_ctas += 1;
        self.n_resident_warps += n_warps;
        self.allocated_regs += regs;
        self.act.ctas += 1;
        self.issue_dirty = true;
        self.fetch_dirty = true;
        self.live_dirty = true;
        first
    }

    /// Retires warps that have issued everything and have nothing in flight, and CTAs whose
    /// warps all retired. Returns the number of CTAs completed.
    pub fn retire(&mut self, stream: &mut dyn KernelStream, _t: u64) -> Result<u32, SimError> {
        let mut done = 0;
        if !self.retire_pending {
            return Ok(0);
        }
        self.retire_pending = false;
        for c in 0..self.ctas.len() {
            if !self.ctas[c].valid {
                continue;
            }
            let first = self.ctas[c].first_slot as usize;
            let n = self.ctas[c].n_warps as usize;
            for w in first..first + n {
                if self.w_valid[w]
                    && self.w_exited[w]
                    && self.w_inflight[w] == 0
                    && self.w_mem_out[w] == 0
                    && self.ib_len[w] == 0
                {
                    self.w_valid[w] = false;
                    self.issue_dirty = true;
                    self.live_dirty = true;
                    self.flush_integrals();
                    self.n_resident_warps -= 1;
                    self.ctas[c].warps_done += 1;
                }
            }
            if self.ctas[c].warps_done == self.ctas[c].n_warps {
                self.ctas[c].valid = false;
                self.flush_integrals();
                self.n_resident_ctas -= 1;
                self.allocated_regs -= self.ctas[c].regs;
                stream.end_cta(self.ctas[c].cta_id)?;
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
        if !self.wb_waiting.is_empty() || self.banks_pending.iter().any(|&m| m != 0) {
            return Some(t + 1);
        }
        if let Some(w) = self.wb_queue.front() {
            ev = ev.min(w.ready.max(t + 1));
        }
        let mut cu_waiting = false;
        for c in &self.cus {
            if c.busy && c.ready_at != u64::MAX {
                if c.ready_at > t {
                    ev = ev.min(c.ready_at);
                } else {
                    cu_waiting = true;
                }
            }
        }
        if cu_waiting {
            for u in &self.units {
                if u.next_accept > t {
                    ev = ev.min(u.next_accept);
                }
            }
        }
        if let Some(e) = self.ldst_next(t) {
            ev = ev.min(e);
        }
        // The fetch stage's own wake-up: the earliest fetch delay to end among the warps that
        // may fetch (a delay of a warp that may not fetch changes nothing when it ends).
        if self.fetch_wake > t {
            ev = ev.min(self.fetch_wake);
        }
        if self.ib_ready_last > t {
            ev = ev.min(self.ib_ready_last);
        }
        (ev != u64::MAX).then_some(ev)
    }
}
