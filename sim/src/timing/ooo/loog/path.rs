//! LOOG's issue path (issue-stage §3), taken instead of the in-order issue stage, the operand
//! collectors and the dispatch when the SM's issue-stage slot holds LOOG: one LOOG instance
//! ([`SmLoog`]) per issue slice (warp scheduler). Fetch, decode and the per-warp I-buffers are
//! the in-order ones (the IBuffer of §3). What it reaches in the SM goes through
//! [`IssueHost`]. Per cycle, in the SM's stage order:
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

use super::{AllocStall, Cu, LsqKind, LsqMem, RfRead, SmLoog};
use crate::inst::{Family, OpClass};
use crate::timing::exec::PipeClass;
use crate::timing::ooo::host::IssueHost;
use crate::timing::ports::Stall;
use crate::timing::tinst::TInst;

/// Register-file reads of the granted CUs at cycle `t` (§3.2 step 3).
pub(crate) fn rf_read<H: IssueHost>(o: &mut SmLoog, h: &mut H, t: u64) {
    let nb = h.n_banks();
    let mut used = std::mem::take(&mut o.scratch_bank_rd);
    used.clear();
    used.resize(nb, 0);
    let mut reads = std::mem::take(&mut o.scratch_reads);
    reads.clear();
    let any = {
        let mut port = |q: &RfRead| -> bool {
            let (w, r) = (q.warp, q.reg);
            if !h.bank_read(w, q.slice, r, q.lanes, t, &mut used) {
                return false;
            }
            reads.push((w, r));
            true
        };
        o.rf_read(t, &mut port)
    };
    for &(w, r) in &reads {
        h.reg_read(w, r, t);
    }
    o.scratch_reads = reads;
    o.scratch_bank_rd = used;
    if any {
        h.set_progress();
    }
}

/// Dispatch stage of cycle `t` (§3.2 step 5): per slice one CU.
pub(crate) fn dispatch<H: IssueHost>(o: &mut SmLoog, h: &mut H, t: u64) {
    for s in 0..o.slices.len() {
        let ldst_free = h.ldst_can_accept();
        let host = &*h;
        let mut accepts = |c: &Cu| -> bool {
            let ec = host.exec_class(c.inst.family, c.inst.op);
            host.unit_free(&ec, t, ldst_free)
        };
        let Some(ci) = o.dispatch(s, t, &mut accepts) else {
            continue;
        };
        let c = &o.slices[s].cus[ci];
        let (w, inst) = (c.warp as usize, c.inst);
        h.to_unit(s as u32, w, inst, t);
    }
}

/// Issue (allocation) stage of cycle `t`, all slices (§3.2 step 1).
pub(crate) fn issue<H: IssueHost>(o: &mut SmLoog, h: &mut H, t: u64) {
    h.refresh_live();
    h.settle_waits(t);
    let n_s = h.n_scheds();
    for si in 0..n_s {
        let s = h.sched_at(si, t);
        let ls = s % o.slices.len();
        let Some(mut order) = h.open_sched(s, |h, w| {
            let empty = !h.head_ready(w, t);
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
                let waits =
                    h.head_ready(w, t) && !h.waits_barrier(w) && o.head_waits(ls, w, h.head(w));
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
            if h.waits_barrier(w) {
                first_stall.get_or_insert(Stall::Barrier);
                continue;
            }
            if !h.head_ready(w, t) {
                first_stall.get_or_insert(Stall::IbufferEmpty);
                continue;
            }
            h.clear_membar(w);
            let hd = *h.head(w);
            let is_membar = hd.family == Family::Mem && hd.op == OpClass::Membar;
            if hd.family == Family::Bar || is_membar {
                // ordered after every older instruction of the warp reaching its unit
                if o.warp_undispatched(ls, w) {
                    first_stall.get_or_insert(Stall::Scoreboard);
                    continue;
                }
                pop(h, w, t);
                issued = 1;
                h.sched_issued(s, slot);
                h.set_progress();
                break;
            }
            let mem = if o.p.lsq.is_some() && hd.family == Family::Mem {
                lsq_mem(h, &hd)
            } else {
                LsqMem::NONE
            };
            let ci = match o.can_alloc_mem(ls, w, hd.n_dst > 0, mem.kind) {
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
            let ec = h.exec_class(hd.family, hd.op);
            pop(h, w, t);
            h.add_inflight(w);
            let lsu = ec.pipe == PipeClass::Mem;
            if o.p.lsq.is_some() {
                o.alloc_mem(ls, ci, w, hd, ec.pipe.index() as u8, lsu, mem, t);
            } else {
                o.alloc(ls, ci, w, hd, ec.pipe.index() as u8, lsu, t);
            }
            h.flush_integrals();
            issued = 1;
            h.sched_issued(s, slot);
            h.set_progress();
            break;
        }
        if issued == 0 {
            if let Some(e) = cu_stall {
                o.count_stall(e);
            }
        }
        h.close_sched(s, order, evals, issued, first_stall);
    }
    o.sample();
    if o.busy() {
        h.set_progress();
    }
}

/// The memory access of instruction `hd` for the memory queues: load, store (or atomic) or
/// neither, a barrier, and the byte range its active lanes touch in its space.
fn lsq_mem<H: IssueHost>(h: &H, hd: &TInst) -> LsqMem {
    let kind = match hd.op {
        OpClass::Load => LsqKind::Load,
        OpClass::Store | OpClass::Atomic => LsqKind::Store,
        _ => LsqKind::None,
    };
    let membar = hd.op == OpClass::Membar;
    let Some(m) = hd.mem else {
        return LsqMem {
            kind,
            membar,
            ..LsqMem::NONE
        };
    };
    let info = h.mem_info(m.slot);
    let (mut lo, mut hi) = (u64::MAX, 0u64);
    for l in 0..32 {
        if hd.active_mask >> l & 1 != 0 {
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
fn pop<H: IssueHost>(h: &mut H, w: usize, t: u64) {
    let inst = *h.head(w);
    h.pop_ib_head(w, inst.pc, t);
    h.count_issued(w, &inst, t, true);
    h.complete_at_issue(w, inst.family, inst.op);
}
