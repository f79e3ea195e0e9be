//! The SM's LOOG issue path (issue-stage §3), taken instead of the in-order issue stage, the
//! operand collectors and the dispatch when `sched.ooo.mode = "loog"`: one LOOG instance
//! ([`crate::timing::ooo::SmLoog`]) per issue slice (warp scheduler). Fetch, decode and the
//! per-warp I-buffers are the in-order ones (the IBuffer of §3). Per cycle, in the SM's stage
//! order:
//!
//! - writeback: frees, RAT visits and one broadcast per slice (`SmLoog::begin_cycle`), then
//!   the results reaching write-back set `rd_valid` (a register a younger writer renamed is not
//!   written to the register file: WAW elimination);
//! - dispatch: per slice the lowest-index ready CU whose unit accepts goes to its unit, one
//!   cycle later than the in-order dispatch (the picked→dispatch stage of §3.2);
//! - register-file arbitration: the granted CUs read one operand each through the banked RF
//!   (the slice's read port mapped onto the sub-core's banks, §3 [G]: a read waits while its
//!   bank's ports are taken);
//! - issue: per slice the scheduler orders its warps and the first whose I-buffer head can take
//!   a CU allocates it (no scoreboard); with `sched.ooo.loog_ready_first` (default) the warps
//!   whose head reads a register renamed to a producer still waiting in a CU go after the
//!   others, each group in the policy's order, so that a greedy or age-ordered policy does not
//!   let one warp's dependent chain take every CU while other warps have work that can go
//!   (the in-order stage's scoreboard makes such a warp yield); a barrier or membar waits until the
//!   warp has no CU waiting to dispatch, then completes at issue as in the in-order stage.
//!
//! The run steps every cycle (no cycle skipping).

use super::Sm;
use crate::inst::{Family, OpClass};
use crate::timing::exec::{PipeClass, SpPipe};
use crate::timing::execunits::Wb;
use crate::timing::issueunit::Stall;
use crate::timing::ooo::{AllocStall, LsqKind, LsqMem};
use crate::timing::policy::RegisterFileOrg;
use crate::timing::slots::IssueStageSlot;
use crate::timing::tinst::TInst;

impl Sm {
    /// Register-file reads of the granted CUs at cycle `t` (§3.2 step 3).
    pub(super) fn loog_rf_read(&mut self, t: u64) {
        let Some(mut o) = self.take_loog() else {
            return;
        };
        let ports = self.oc.ports_per_bank;
        let nb = self.oc.bank_wr_used.len();
        let mut used = std::mem::take(&mut o.scratch_bank_rd);
        used.clear();
        used.resize(nb, 0);
        let mut reads = std::mem::take(&mut o.scratch_reads);
        reads.clear();
        let any = {
            let oc = &mut self.oc;
            let mut port = |q: &crate::timing::ooo::loog::RfRead| -> bool {
                let (w, r, lanes) = (q.warp, q.reg, q.lanes);
                let b = oc.rf.bank(w as u32, q.slice as u32, r) as usize;
                let taken = oc.ports_taken(b, t) + used[b];
                if taken >= ports {
                    oc.rf_act.conflict_rr[b] += 1;
                    return false;
                }
                used[b] += 1;
                oc.rf_act.reads[b] += 1;
                oc.rf_act.read_lanes[b] += lanes as u64;
                reads.push((w, r));
                true
            };
            o.rf_read(t, &mut port)
        };
        for &(w, r) in &reads {
            self.reg_access(w, r, t, false);
        }
        o.scratch_reads = reads;
        o.scratch_bank_rd = used;
        self.put_stage(IssueStageSlot::Loog(o));
        if any {
            self.progress = true;
        }
    }

    /// Dispatch stage of cycle `t` for LOOG (§3.2 step 5): per slice one CU.
    pub(super) fn dispatch_loog(&mut self, t: u64) {
        let Some(mut o) = self.take_loog() else {
            return;
        };
        for s in 0..o.slices.len() {
            let ldst_free = self.ldst.can_accept();
            let exec = &self.exec;
            let front = &self.front;
            let mut accepts = |c: &crate::timing::ooo::Cu| -> bool {
                let ec = front.exec_class(c.inst.family, c.inst.op);
                exec.unit_free(ec.pipe, ec.sp_pipe, t, true, ldst_free)
            };
            let Some(ci) = o.dispatch(s, t, &mut accepts) else {
                continue;
            };
            let c = &o.slices[s].cus[ci];
            let (w, inst) = (c.warp as usize, c.inst);
            self.loog_to_unit(s as u32, w, inst, t);
        }
        self.put_stage(IssueStageSlot::Loog(o));
    }

    /// Sends warp instruction `inst` (slice `s`) to the lowest-index free unit of its class
    /// (its sub-core's first) for warp `w`, with the result queued for write-back after the unit's latency
    /// plus the picked→dispatch stage.
    fn loog_to_unit(&mut self, s: u32, w: usize, inst: crate::timing::tinst::TInst, t: u64) {
        let ec = self.front.exec_class(inst.family, inst.op);
        let pipe = ec.pipe;
        let nsub = self.exec.subcore_has_unit.len().max(1) as u32;
        let sub = s % nsub;
        let own = self
            .exec
            .subcore_has_unit
            .get(sub as usize)
            .is_some_and(|h| h[pipe]);
        let ui = self
            .exec
            .units
            .iter()
            .position(|u| u.class == pipe && (!own || u.subcore == sub) && u.next_accept <= t)
            .or_else(|| {
                self.exec
                    .units
                    .iter()
                    .position(|u| u.class == pipe && u.next_accept <= t)
            })
            .expect("the dispatch rule checked a free unit");
        self.progress = true;
        self.issue.dirty = true;
        self.oc.rf.on_dispatch(w as u32, t);
        let mask = inst.active_mask;
        let lanes = mask.count_ones() as u64;
        let unit = &mut self.exec.units[ui];
        unit.next_accept = t + ec.ii as u64;
        unit.last_accept = t;
        let p = if ec.sp_pipe == SpPipe::Fp {
            unit.pipe_fp
        } else {
            unit.pipe_int
        };
        self.exec.pipes[p].ops[inst.op].ops += 1;
        self.exec.pipes[p].ops[inst.op].lanes += lanes;
        self.seq += 1;
        if pipe == PipeClass::Mem {
            let addrs = inst.mem.map(|m| self.front.addr_pool.get(m.slot));
            let busy = self.ldst.accept(t, w as u16, &inst, addrs, self.seq);
            if let Some(m) = inst.mem {
                self.front.addr_pool.release(m.slot);
            }
            self.exec.pipes[p].busy.busy(t, busy);
            return;
        }
        let lat = ec.latency as u64 + 1;
        let busy_len = if self.exec.busy_accept { 1 } else { lat - 1 };
        let pp = &mut self.exec.pipes[p];
        pp.busy.busy(t, busy_len);
        pp.lanes_busy(t, busy_len, mask);
        let mut dst = [0u16; 4];
        let n = inst.n_dst as usize;
        dst[..n].copy_from_slice(&inst.dst[..n]);
        self.exec.wb_push(Wb {
            ready: t + lat,
            seq: self.seq,
            warp: w as u16,
            tag: inst.tag,
            n_dst: n as u8,
            dst,
            lanes: lanes as u8,
        });
    }

    /// Issue (allocation) stage of cycle `t` for LOOG, all slices (§3.2 step 1).
    pub(super) fn issue_loog(&mut self, t: u64) {
        let mut o = self.take_loog().expect("loog state");
        self.refresh_live();
        self.front.settle_waits(t);
        let n_s = self.issue.scheds.len();
        for si in 0..n_s {
            let s = self.sched_at(si, t);
            let ls = s % o.slices.len();
            let Some(mut order) = self.ooo_open_sched(s, |sm, w| {
                let empty = !sm.front.head_ready(w, t);
                (empty, !empty)
            }) else {
                continue;
            };
            if o.p.ready_first {
                // stable partition: heads with every source in the register file first
                let mut late = std::mem::take(&mut o.scratch_late);
                late.clear();
                let mut n = 0;
                for k in 0..order.len() {
                    let slot = order[k];
                    let w = slot as usize;
                    let waits = self.front.head_ready(w, t)
                        && !self.warps.waits_barrier(w)
                        && o.head_waits(ls, w, self.front.head(w));
                    if waits {
                        late.push(slot);
                    } else {
                        order[n] = slot;
                        n += 1;
                    }
                }
                order.truncate(n);
                order.extend_from_slice(&late);
                o.scratch_late = late;
            }
            let mut issued = 0u32;
            let mut first_stall: Option<Stall> = None;
            let mut evals = 0u64;
            let mut cu_stall: Option<AllocStall> = None;
            for &slot in order.iter() {
                let w = slot as usize;
                evals += 1;
                if self.warps.waits_barrier(w) {
                    first_stall.get_or_insert(Stall::Barrier);
                    continue;
                }
                if !self.front.head_ready(w, t) {
                    first_stall.get_or_insert(Stall::IbufferEmpty);
                    continue;
                }
                self.warps.membar.remove(w);
                let h = *self.front.head(w);
                let is_membar = h.family == Family::Mem && h.op == OpClass::Membar;
                if h.family == Family::Bar || is_membar {
                    // ordered after every older instruction of the warp reaching its unit
                    if o.warp_undispatched(ls, w) {
                        first_stall.get_or_insert(Stall::Scoreboard);
                        continue;
                    }
                    self.loog_pop(w, t);
                    issued = 1;
                    self.issue.scheds[s].issued(slot);
                    self.progress = true;
                    break;
                }
                let mem = if o.p.lsq.is_some() && h.family == Family::Mem {
                    self.lsq_mem(&h)
                } else {
                    LsqMem::NONE
                };
                let ci = match o.can_alloc_mem(ls, w, h.n_dst > 0, mem.kind) {
                    Ok(ci) => ci,
                    Err(e) => {
                        cu_stall.get_or_insert(e);
                        first_stall.get_or_insert(Stall::CuFull);
                        if e == AllocStall::NoCu {
                            break;
                        }
                        continue;
                    }
                };
                let ec = self.front.exec_class(h.family, h.op);
                self.loog_pop(w, t);
                self.warps.w_inflight[w] += 1;
                let lsu = ec.pipe == PipeClass::Mem;
                if o.p.lsq.is_some() {
                    o.alloc_mem(ls, ci, w, h, ec.pipe.index() as u8, lsu, mem, t);
                } else {
                    o.alloc(ls, ci, w, h, ec.pipe.index() as u8, lsu, t);
                }
                self.flush_integrals();
                issued = 1;
                self.issue.scheds[s].issued(slot);
                self.progress = true;
                break;
            }
            if issued == 0 {
                if let Some(e) = cu_stall {
                    o.count_stall(e);
                }
            }
            self.ooo_close_sched(s, order, evals, issued, first_stall);
        }
        o.sample();
        if o.busy() {
            self.progress = true;
        }
        self.put_stage(IssueStageSlot::Loog(o));
    }

    /// The memory access of instruction `h` for LOOG's memory queues: load, store (or
    /// atomic) or neither, a barrier, and the byte range its active lanes touch in its space.
    fn lsq_mem(&self, h: &TInst) -> LsqMem {
        let kind = match h.op {
            OpClass::Load => LsqKind::Load,
            OpClass::Store | OpClass::Atomic => LsqKind::Store,
            _ => LsqKind::None,
        };
        let membar = h.op == OpClass::Membar;
        let Some(m) = h.mem else {
            return LsqMem {
                kind,
                membar,
                ..LsqMem::NONE
            };
        };
        let info = self.front.addr_pool.get(m.slot);
        let (mut lo, mut hi) = (u64::MAX, 0u64);
        for l in 0..32 {
            if h.active_mask >> l & 1 != 0 {
                let a = info.addrs[l];
                lo = lo.min(a);
                hi = hi.max(a + m.width_bytes as u64);
            }
        }
        if lo > hi {
            // no active lane: an empty range that overlaps nothing
            (lo, hi) = (0, 0);
        }
        LsqMem {
            kind,
            membar,
            space: 1 + m.space as u8,
            lo,
            hi,
        }
    }

    /// Takes warp `w`'s I-buffer head at cycle `t`: the front end's bookkeeping, the issue
    /// counters, and for a barrier or membar its completion.
    fn loog_pop(&mut self, w: usize, t: u64) {
        let inst = *self.front.head(w);
        self.pop_ib_head(w, inst.pc, t);
        self.count_issued(w, &inst, t, true);
        self.complete_at_issue(w, inst.family, inst.op);
    }
}
