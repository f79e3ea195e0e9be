//! Look-ahead wakeup of a register-file organisation that gates its entries (register-file
//! spec §3.5): at the end of each issue stage that evaluated its schedulers, every scheduler
//! predicts the warp instructions it will give a collector unit in the next k cycles (the
//! organisation's [`RegisterFileOrg::lookahead`], at most `config::MAX_LOOKAHEAD`) and sends their source
//! register ids to the organisation, which wakes the sleeping ones early so that up to k
//! cycles of wakeup are hidden.
//!
//! The prediction is the head of each scheduler's priority order among its ready warps: the
//! first k warps of the order computed this cycle whose I-buffer holds an instruction, that do
//! not wait at a barrier and whose head is not known to fail the scoreboard. Each such warp's
//! head instruction (the one it will issue next) is one predicted instruction; with one issue
//! per scheduler and cycle, position i of the order stands for cycle t + 1 + i. A stage
//! replayed because nothing changed makes no new predictions (the earlier ones stand until
//! their timeout), so runs with and without cycle skipping agree.

use super::Sm;
use crate::config::MAX_LOOKAHEAD;
use crate::inst::PRED_BASE;
use crate::timing::policy::RegisterFileOrg;
use crate::timing::warpset::WarpSet;

impl Sm {
    /// The warps scheduler `s` predicts to issue in the next `k` cycles, best first, into
    /// `out`; returns how many (at most `k` and `out.len()`).
    pub fn predicted_warps(&self, s: usize, k: usize, out: &mut [u16]) -> usize {
        let mut skip = [0u64; WarpSet::WORDS];
        for (i, m) in skip.iter_mut().enumerate() {
            *m = self.warps.at_bar.0[i]
                | (self.warps.membar.0[i] & self.warps.mem_out_nz.0[i])
                | self.front.empty_word(i)
                | self.issue.sb_blocked.0[i];
        }
        let want = k.min(out.len());
        let mut n = 0;
        for &slot in &self.issue.orders[s] {
            if n == want {
                break;
            }
            let w = slot as usize;
            if skip[w >> 6] >> (w & 63) & 1 == 0 {
                out[n] = slot;
                n += 1;
            }
        }
        n
    }

    /// Sends every scheduler's predicted instructions' source registers to the register-file
    /// organisation at `t`.
    pub(super) fn rf_lookahead(&mut self, t: u64) {
        let k = self.lookahead as usize;
        let mut ws = [0u16; MAX_LOOKAHEAD as usize];
        self.oc.rf.on_predictions(t);
        for s in 0..self.issue.scheds.len() {
            let n = self.predicted_warps(s, k, &mut ws);
            for &w in &ws[..n] {
                let w = w as usize;
                let h = self.front.head(w);
                for &r in &h.src[..h.n_src as usize] {
                    if r < PRED_BASE {
                        self.oc.rf.on_predicted(w, r, h.active_mask, t);
                    }
                }
            }
        }
    }
}
