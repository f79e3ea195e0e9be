//! SOCGPU's issue path (issue-stage §2), taken instead of the in-order issue stage and fetch
//! when the SM's issue-stage slot holds SOCGPU: fetch and decode into the per-warp instruction
//! buffers with their dependence matrices, the per-cycle ready check, local selection by the
//! configured policy and inter-warp selection by the scheduler, the same collector, issue-port
//! and unit checks as the in-order stage, the flush after a control-flow change, and the
//! release of an entry at its write-back. What it reaches in the SM goes through
//! [`IssueHost`].
//!
//! The timing model replays the program order the functional front end produced, so the
//! stream always continues on the correct path. Fetch reads one instruction ahead of the last
//! inserted entry: when that next instruction is not at the entry's not-taken next PC, issuing
//! the entry changes the warp's control flow (a taken branch, a divergent branch, a
//! reconvergence pop). Fetch then stops behind that entry, which may issue only as the oldest
//! valid entry (condition a3), and resumes when its issue triggers the flush of §2.5 and sets
//! the fetch PC to the new path, i.e. the next instruction of the stream. Wrong-path
//! instructions that a sequential fetcher would have placed behind the entry are not
//! materialised: they could not have issued (they depend on a control entry, or a3 holds them
//! back) and the flush would have discarded them, so they change no issue timing; they do not
//! occupy fetch slots or I-cache accesses either, and `flush_discarded` counts only entries
//! the model actually held.
//!
//! An SM whose cycle changed nothing sleeps until its next event, as in-order SMs do, when the
//! local policy keeps no per-cycle state (First, Older, Younger): the entries' decode and
//! I-cache readiness and the warps' fetch delays are among its events, and the issue counters
//! of the slept cycles (scheduler stalls, IB occupancy, NOR evaluations, candidate-set sizes)
//! are those of the last evaluated cycle, added once per slept cycle when the SM wakes.

use super::{IbEntry, SmSocgpu};
use crate::config::OooDual;
use crate::inst::{Family, OpClass};
use crate::stream::{KernelStream, Step};
use crate::timing::exec::PipeClass;
use crate::timing::memsys::MemSys;
use crate::timing::ooo::host::IssueHost;
use crate::timing::perclass::PerPipe;
use crate::timing::ports::{IssuePorts, Stall};
use crate::timing::tinst::TInst;
use crate::SimError;

/// Barrier, branch, return or exit, and (our choice) membar: ordered against every other
/// entry of the warp (issue-stage §2.1 `ctl`).
#[inline]
fn is_ctl(i: &TInst) -> bool {
    matches!(i.family, Family::Ctrl | Family::Bar) || is_membar(i)
}

/// A memory barrier.
#[inline]
fn is_membar(i: &TInst) -> bool {
    i.family == Family::Mem && i.op == OpClass::Membar
}

/// May warp `w` fetch into its buffer: resident, instructions left, not stopped at a barrier
/// or behind a redirecting entry, no I-cache miss outstanding, room per the refill rule.
#[inline]
fn fetch_eligible<H: IssueHost>(o: &SmSocgpu, h: &H, w: usize) -> bool {
    h.fetch_open(w)
        && (!h.stream_done(w) || o.held[w].is_some())
        && !o.redirect_wait[w]
        && o.has_room(w)
}

/// The warp has issued everything: no instruction left in the stream or held, and no buffer
/// entry waiting to issue.
fn maybe_exit<H: IssueHost>(o: &SmSocgpu, h: &mut H, w: usize) {
    if h.stream_done(w) && o.held[w].is_none() && o.ibs[w].unissued_mask() == 0 {
        h.mark_exited(w);
    }
}

/// SOCGPU's own next event after cycle `t`, earlier than `ev`: entries that become ready by
/// time alone and warps whose fetch delay ends while they may fetch.
pub(crate) fn next_event<H: IssueHost>(o: &SmSocgpu, h: &H, t: u64, mut ev: u64) -> u64 {
    if let Some(e) = o.next_ready(t) {
        ev = ev.min(e);
    }
    for w in 0..h.n_warps() {
        let r = h.fetch_ready_at(w);
        if r > t && r < ev && fetch_eligible(o, h, w) {
            ev = r;
        }
    }
    ev
}

/// Fetch and decode (memory-side time `t_fs`): up to `throughput` eligible warps, round-robin
/// after the last fetched one; each fetch inserts up to `width` instructions.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fetch<H: IssueHost>(
    o: &mut SmSocgpu,
    h: &mut H,
    t: u64,
    t_fs: u64,
    width: u32,
    throughput: u32,
    stream: &mut dyn KernelStream,
    mem: &mut MemSys,
) -> Result<(), SimError> {
    let nw = h.n_warps();
    let mut fetched = 0;
    let start = h.fetch_last() as usize;
    for k in 1..=nw {
        if fetched >= throughput {
            break;
        }
        let w = (start + k) % nw;
        if !fetch_eligible(o, h, w) || h.fetch_ready_at(w) > t {
            continue;
        }
        let (cta, widx) = h.stream_ids(w);
        h.write_issued_clocks(w, cta, widx, stream)?;
        let mut n = 0u32;
        let mut first_pc = 0;
        let mut inserted = 0u64;
        while n < width && o.ibs[w].free_entries() > 0 {
            let (inst, clock) = match o.held[w].take() {
                Some(i) => (i, std::mem::take(&mut o.held_clock[w])),
                None => match h.step_stream(w, (cta, widx, t), stream)? {
                    Some(c) => (h.fetched(), c),
                    None => break,
                },
            };
            let pipe = h.exec_class(inst.family, inst.op).pipe;
            let nt = inst.pc.wrapping_add(o.inst_bytes);
            let e = IbEntry {
                inst,
                ctl: is_ctl(&inst),
                mem: inst.family == Family::Mem && inst.op != OpClass::Membar,
                nt_next_pc: nt,
                redirect: false,
                next_pc: u32::MAX,
                ready_at: t + 1,
                cu_mask: h.cu_mask(pipe, w),
            };
            let a = o.ibs[w].insert(e, &mut o.stats).expect("free entry");
            inserted |= 1 << a;
            if n == 0 {
                first_pc = inst.pc;
            }
            n += 1;
            if inst.family == Family::Bar {
                // the stream is not read past a barrier before the barrier releases
                h.set_fetch_bar(w);
                break;
            }
            if clock {
                h.note_clock_unissued(w, inst.pc);
            }
            // the next instruction may have to wait for a clock read to issue; it is not
            // read then, and whether this entry redirects follows from its PC alone
            if let Some(pc) = h.clock_fenced(w, cta, widx, stream) {
                o.ibs[w].set_next_pc(a, pc);
                if pc != nt {
                    o.ibs[w].set_redirect(a);
                    o.redirect_wait[w] = true;
                }
                break;
            }
            // the next instruction in program order tells whether this one redirects
            match h.read_next(stream, cta, widx, t)? {
                Step::Done => {
                    h.set_stream_done(w);
                    break;
                }
                Step::Inst => {
                    let nx = h.fetched();
                    o.held[w] = Some(nx);
                    o.held_clock[w] = stream.reads_clock();
                    o.ibs[w].set_next_pc(a, nx.pc);
                    if nx.pc != nt {
                        o.ibs[w].set_redirect(a);
                        o.redirect_wait[w] = true;
                        break;
                    }
                }
            }
        }
        h.set_fetch_last(w);
        fetched += 1;
        h.set_progress();
        if n == 0 {
            maybe_exit(o, h, w);
            continue;
        }
        h.note_decoded(t);
        if !h.icache_lookup(w, n, first_pc, t_fs, mem) {
            continue;
        }
        o.miss_mask[w] |= inserted;
        let mut bits = inserted;
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            o.ibs[w].set_ready_at(a, u64::MAX);
        }
    }
    Ok(())
}

/// Issue stage of cycle `t`, all schedulers (`cfg_issue`: instructions per scheduler and per
/// warp, and whether a warp's second instruction must go to another unit; `id_oc`: issue
/// ports per pipe class).
pub(crate) fn issue<H: IssueHost>(
    o: &mut SmSocgpu,
    h: &mut H,
    t: u64,
    cfg_issue: (u32, u32, bool),
    id_oc: &PerPipe<u32>,
) {
    // cycles slept through since the last evaluation repeat its counters
    let k = h.take_replay();
    o.replay_idle(k);
    h.refresh_live();
    // per-warp ready check of this cycle (phase 2), with the buffers' counters
    let use_ctr = o.policy.uses_ready_ctr();
    let nw = h.n_warps();
    let mut cands = std::mem::take(&mut o.cands);
    cands.clear();
    cands.resize(nw, 0);
    o.idle.clear();
    for s in 0..h.n_scheds() {
        for &slot in h.sched_live(s) {
            let w = slot as usize;
            if o.miss_mask[w] != 0 && !h.icache_pending(w) {
                let ready = h.decoded_at(w);
                let mut bits = o.miss_mask[w] & o.ibs[w].valid_mask();
                while bits != 0 {
                    let a = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    o.ibs[w].set_ready_at(a, ready);
                }
                o.miss_mask[w] = 0;
            }
            o.ibs[w].settle(t);
            let nv = o.ibs[w].n_valid() as usize;
            o.stats.occupancy_hist[nv] += 1;
            o.stats.dm_nor_evals += nv as u64;
            let c = o.ibs[w].candidates(t);
            cands[w] = c;
            o.idle.push((nv as u8, c.count_ones() as u8));
            if nv > 0 {
                o.stats.candidate_hist[c.count_ones() as usize] += 1;
            }
            if use_ctr {
                o.stats.ready_ctr_increments += o.ibs[w].tick_ready(c);
            }
        }
    }
    let (per_sched, per_warp, diff_units) = cfg_issue;
    let mut ports = IssuePorts::new(id_oc);
    let n_s = h.n_scheds();
    for si in 0..n_s {
        let s = h.sched_at(si, t);
        let Some(order) = h.open_sched(s, |_, w| (o.ibs[w].unissued_mask() == 0, cands[w] != 0))
        else {
            continue;
        };
        let mut issued = 0u32;
        let mut first_stall: Option<Stall> = None;
        let mut evals = 0u64;
        for &slot in order.iter() {
            if issued >= per_sched {
                break;
            }
            let w = slot as usize;
            evals += 1;
            if h.waits_barrier(w) {
                first_stall.get_or_insert(Stall::Barrier);
                continue;
            }
            h.clear_membar(w);
            // candidates may have issued or been flushed by an earlier warp's issue
            let c = cands[w] & o.ibs[w].unissued_mask();
            if c == 0 {
                let r = if o.ibs[w].unissued_mask() == 0 {
                    Stall::IbufferEmpty
                } else {
                    Stall::Scoreboard
                };
                first_stall.get_or_insert(r);
                continue;
            }
            let a = o.ibs[w].select(c, o.policy).expect("candidate");
            let first_pipe = match issue_one(o, h, t, w, s, a, &mut ports) {
                Ok(p) => p,
                Err(r) => {
                    first_stall.get_or_insert(r);
                    continue;
                }
            };
            issued += 1;
            // §2.7: a second instruction of the same warp
            if per_warp >= 2 && o.dual != OooDual::Off && issued < per_sched {
                let c2 = o.ibs[w].candidates(t) & c & !(1u64 << a);
                let pick = match o.dual {
                    OooDual::Smart => {
                        let mut m = 0u64;
                        let mut bits = c2;
                        while bits != 0 {
                            let b = bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            let e = o.ibs[w].entry(b);
                            let p = h.exec_class(e.inst.family, e.inst.op).pipe;
                            if (!diff_units || p != first_pipe)
                                && (p == PipeClass::None
                                    || h.free_collector(&ports, p, e.cu_mask).is_ok())
                            {
                                m |= 1 << b;
                            }
                        }
                        if m != 0 {
                            o.stats.smart_dual_reselections += 1;
                        }
                        o.ibs[w].select(m, o.policy)
                    }
                    _ => o.ibs[w].select(c2, o.policy).filter(|&b| {
                        let e = o.ibs[w].entry(b);
                        let p = h.exec_class(e.inst.family, e.inst.op).pipe;
                        !diff_units || p != first_pipe
                    }),
                };
                if let Some(b) = pick {
                    if issue_one(o, h, t, w, s, b, &mut ports).is_ok() {
                        issued += 1;
                        o.stats.dual_issues += 1;
                    }
                }
            }
            h.sched_issued(s, slot);
            h.set_progress();
        }
        h.close_sched(s, order, evals, issued, first_stall);
    }
    h.clear_sb_reads();
    o.cands = cands;
}

/// Issues entry `a` of warp `w` on scheduler `s` if a collector and an issue port are free:
/// marks it issued, counts it, runs the flush check, and hands it to a collector (barriers and
/// membars complete here and leave the buffer at once).
fn issue_one<H: IssueHost>(
    o: &mut SmSocgpu,
    h: &mut H,
    t: u64,
    w: usize,
    s: usize,
    a: usize,
    ports: &mut IssuePorts,
) -> Result<PipeClass, Stall> {
    let e = *o.ibs[w].entry(a);
    let inst = e.inst;
    let ec = h.exec_class(inst.family, inst.op);
    let mut cu_idx = None;
    if ec.pipe != PipeClass::None {
        let (i, class) = h.free_collector(ports, ec.pipe, e.cu_mask)?;
        ports.take(ec.pipe, class);
        cu_idx = Some(i);
    }
    // ---- issue ----
    let older_waiting = {
        let ib = &o.ibs[w];
        let sen = ib.seniority(a);
        let mut bits = ib.unissued_mask() & !(1u64 << a);
        let mut any = false;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            any |= ib.seniority(b) < sen;
        }
        any
    };
    o.stats.reorders += u64::from(older_waiting);
    o.ibs[w].mark_issued(a);
    h.clock_read_issued(w, inst.pc, t);
    o.stats.issued += 1;
    o.stats.ib_reads += 1;
    h.count_ib_read();
    if e.redirect {
        // §2.5: the warp's control flow changed; fetch resumes on the new path
        o.ibs[w].flush(a, &mut o.stats);
        o.redirect_wait[w] = false;
    }
    maybe_exit(o, h, w);
    h.count_issued(w, &inst, t, false);
    if inst.family == Family::Bar || is_membar(&inst) {
        // completes at issue: the entry leaves the buffer now
        o.ibs[w].writeback(a, &mut o.stats);
        h.complete_at_issue(w, inst.family, inst.op);
        return Ok(PipeClass::None);
    }
    h.add_inflight(w);
    h.hand_to_collector(cu_idx.expect("cu"), w, s, inst, ec, t);
    Ok(ec.pipe)
}
