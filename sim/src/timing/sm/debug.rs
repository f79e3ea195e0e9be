//! A diagnostic dump of an SM's state for a timing deadlock (engine, `GPUENERGY_DEADLOCK_DUMP`):
//! per live warp its barrier, I-buffer head, scoreboard and the gating decision its head would
//! get now; the operand collectors holding instructions; the units' ports; the gating domains
//! that are not plainly ON; the fold windows; and each scheduler's active set.
//! It reads the state only (the gating decisions are taken on a copy of the bank), so a run is
//! the same with or without it.

use super::Sm;
use crate::timing::exec::PipeClass;
use crate::timing::policy::IssueStage;
use crate::timing::slots::GatingSlot;
use std::fmt::Write;

impl Sm {
    /// The state dump of the SM at cycle `t` (empty when no warp is resident).
    pub fn deadlock_dump(&self, t: u64) -> String {
        let mut s = String::new();
        if self.warps.n_resident_warps == 0 {
            return s;
        }
        let _ = writeln!(
            s,
            "SM {} at cycle {t}: {} resident warps, {} CTAs, {} at barrier",
            self.id, self.warps.n_resident_warps, self.warps.n_resident_ctas, self.warps.n_at_bar
        );
        if let Some(d) = self.lanes.debug_state(t) {
            let _ = writeln!(s, "  fold: {d}");
        }
        for (i, sched) in self.issue.scheds.iter().enumerate() {
            let _ = writeln!(
                s,
                "  sched {i}: live {:?} active {:?} last_stall {:?}",
                self.issue.sched_live[i],
                sched.active_slots(),
                self.issue.last_stall[i]
            );
        }
        for (ui, u) in self.exec.units.iter().enumerate() {
            if u.class == PipeClass::Sp || u.class == PipeClass::Sfu {
                let _ = writeln!(
                    s,
                    "  unit {ui} {:?} sub {} next_accept {} last_accept {}",
                    u.class, u.subcore, u.next_accept, u.last_accept as i64
                );
            }
        }
        for (ci, c) in self.oc.cus.iter().enumerate() {
            if c.busy {
                let _ = writeln!(
                    s,
                    "  cu {ci} warp {} pc {:#x} {:?}/{:?} mask {:08x} ready_at {} need {:08x}",
                    c.warp,
                    c.inst.pc,
                    c.ec.pipe,
                    c.ec.sp_pipe,
                    c.inst.active_mask,
                    c.ready_at as i64,
                    self.fold_need_mask(&c.ec, c.inst.active_mask, t)
                );
            }
        }
        if let GatingSlot::Pg(g) = &self.exec.gating {
            for u in 0..g.bank.len() {
                let d = g.bank.debug_domain(u);
                let _ = writeln!(s, "  dom {u} unit {}: {d}", g.dom_unit[u]);
            }
        }
        for w in 0..self.warps.w_valid.len() {
            if !self.warps.w_valid[w] {
                continue;
            }
            let _ = write!(
                s,
                "  warp {w} cta {} exited {} stream_done {} at_bar {} membar {} inflight {} \
                 mem_out {} ib_len {} ib_ready {} fetch_ready {} sb_blocked {} sb_ok {}",
                self.warps.w_cta[w],
                self.warps.w_exited[w],
                self.warps.w_stream_done[w],
                self.warps.at_bar.has(w),
                self.warps.membar.has(w),
                self.warps.w_inflight[w],
                self.warps.w_mem_out[w],
                self.front.len(w),
                self.front.ready_at(w) as i64,
                self.warps.w_fetch_ready[w] as i64,
                self.issue.sb_blocked.has(w),
                self.issue.sb_ok.has(w),
            );
            if !self.front.is_empty(w) {
                let h = self.front.head(w);
                let ec = self.front.exec_class(h.family, h.op);
                let sb = self.issue.stage.check(w, h).is_ok();
                let _ = write!(
                    s,
                    " head pc {:#x} {:?}/{:?} {:?}/{:?} mask {:08x} sb_ok_now {sb} need {:08x}",
                    h.pc,
                    h.family,
                    h.op,
                    ec.pipe,
                    ec.sp_pipe,
                    h.active_mask,
                    self.fold_need_mask(&ec, h.active_mask, t)
                );
                if let Some(ty) = self.exec.pg_type(&ec) {
                    let need = self.fold_need_mask(&ec, h.active_mask, t);
                    let _ = write!(s, " decide {:?}", self.exec.pg_decide_peek(ty, need));
                }
            }
            let _ = writeln!(s);
        }
        s
    }
}
