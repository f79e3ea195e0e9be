//! What every issue path does (the in-order stage of `issue.rs` and the stages that take the
//! issue step over, through `host.rs`): the scheduler rotation, the I-buffer head pop with its
//! clock read and exit, the counters of an issued instruction, the completion at issue of a
//! barrier or membar, and the hand-over of an instruction to a collector with its register
//! reads queued per bank (the collector and issue-port check is
//! `OperandCollectors::free_collector` against `timing/ports.rs`). The paths differ in how they
//! pick the instruction; from here on they are one.

use super::Sm;
use crate::inst::{Family, OpClass, PRED_BASE};
use crate::timing::exec::ExecClass;
use crate::timing::issueunit::IssueEvent;
use crate::timing::policy::RegisterFileOrg;
use crate::timing::tinst::TInst;

impl Sm {
    /// The scheduler in position `si` of cycle `t`'s order: the schedulers share the
    /// collectors and issue ports, and the first claim rotates every cycle so that none is
    /// starved [G].
    #[inline]
    pub(super) fn sched_at(&self, si: usize, t: u64) -> usize {
        let n = &self.issue.n_sched;
        n.rem(si as u64 + n.rem(t)) as usize
    }

    /// Takes warp `w`'s I-buffer head, the instruction at `pc`, at cycle `t`: the front end's
    /// bookkeeping, a clock read's value, and the warp's exit when it has nothing left.
    #[inline]
    pub(super) fn pop_ib_head(&mut self, w: usize, pc: u32, t: u64) {
        let empty = self.front.pop_head(w);
        self.clock_read_issued(w, pc, t);
        if empty && self.warps.w_stream_done[w] {
            self.mark_exited(w);
        }
    }

    /// Counts instruction `inst` of warp `w` issued at cycle `t`: the issue log, the
    /// register-file organisation's issue event, the SM-wide, per-family, SIMD-efficiency and
    /// SIMT counters and the predicate reads; with `reg_lanes` also the per-register
    /// statistics' lane histogram (the out-of-order buffer path does not count it).
    #[inline]
    pub(super) fn count_issued(&mut self, w: usize, inst: &TInst, t: u64, reg_lanes: bool) {
        let lanes = inst.active_mask.count_ones() as u64;
        if let Some(tr) = self.issue.trace.as_mut() {
            tr.push(IssueEvent {
                cycle: t,
                sm: self.id,
                warp_slot: w as u32,
                pc: inst.pc,
            });
        }
        self.oc.rf.on_issue(w as u32, inst, t);
        self.act.warp_insts += 1;
        self.act.thread_insts += lanes;
        if reg_lanes {
            if let Some(rs) = self.regs.stats.as_mut() {
                crate::timing::regchar::RegCharacter::issued(lanes as u32, rs);
            }
        }
        self.fam_count(inst.family, lanes);
        if inst.family == Family::Tensor {
            self.tensor_count(inst.op, inst.active_mask);
        }
        if let Some(c) = self.issue.simd.as_mut() {
            c.issued_lanes[crate::activity::simd_bucket(lanes as u32)] += 1;
        }
        if inst.reconv_pc.is_some() {
            self.act.simt.divergent_branches += 1;
            self.act.simt.pushes += 1;
            self.act.simt.pops += 1;
        }
        for &r in inst.srcs() {
            if r >= PRED_BASE {
                self.oc.rf_act.pred_reads += 1;
            }
        }
    }

    /// Completes a barrier (the warp arrives; the CTA's barrier may release) or a membar (the
    /// warp waits for its outstanding stores) at its issue; false for any other instruction.
    #[inline]
    pub(super) fn complete_at_issue(&mut self, w: usize, family: Family, op: OpClass) -> bool {
        if family == Family::Bar {
            self.act.bar.arrivals += 1;
            self.warps.at_bar.insert(w);
            self.flush_integrals();
            self.warps.n_at_bar += 1;
            let c = self.warps.w_cta[w] as usize;
            self.warps.ctas[c].bar_arrived += 1;
            self.check_barrier(c);
            true
        } else if family == Family::Mem && op == OpClass::Membar {
            self.warps.membar.insert(w);
            true
        } else {
            false
        }
    }

    /// Hands instruction `inst` (execution class `ec`) of warp `w`, scheduler `s`, to
    /// collector `ci` at cycle `t`, its distinct general source registers queued for their
    /// banks.
    #[inline]
    pub(super) fn hand_to_collector(
        &mut self,
        ci: usize,
        w: usize,
        s: usize,
        inst: TInst,
        ec: ExecClass,
        t: u64,
    ) {
        let sched = s as u32;
        let mut reads = [(0u16, 0u16); 5];
        let mut n = 0usize;
        for &r in inst.srcs() {
            if r >= PRED_BASE || reads[..n].iter().any(|x| x.1 == r) {
                continue;
            }
            let b = self.oc.rf.bank(w as u32, sched, r);
            reads[n] = (b as u16, r);
            n += 1;
        }
        self.seq += 1;
        let cls = self
            .oc
            .allocate(ci, w as u16, self.seq, inst, ec, reads, n, t);
        self.flush_integrals();
        self.oc.cu_busy[cls] += 1;
    }
}
