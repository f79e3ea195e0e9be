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
//!
//! Here also LOOG's per-cycle steps on the state of one SM (issue-stage §3.2 steps 2–7): the frees, RAT
//! visits and write-back broadcasts at the start of a cycle, the write-back's RAT re-read (WAW
//! elimination), the register-file read arbitration of the granted CUs, the dispatch rule
//! (LSU order or the memory-queue rule, the WAR guard, the registered ready vector) and the
//! occupancy samples.
use super::{
    log2_bin, older, uuid_distance, AllocStall, Cu, LsqKind, LsqMem, Operand, Producer, RfArbiter,
    RfRead, SmLoog, NO_ID,
};
use crate::inst::{Family, OpClass, Reg, PRED_BASE};
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

// ---------------------------------------------------------------------------------------------
// The per-cycle steps of the LOOG state (§3.2 steps 2–7), which the path above drives.

/// Why the memory queues hold a ready memory instruction behind an older one of its warp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LsqHold {
    /// The older one is a store whose address is not resolved.
    Unresolved = 0,
    /// The accesses may overlap (an older store, or an older load before a store).
    Address = 1,
    /// The older one, or the instruction itself, is a memory barrier.
    Barrier = 2,
}

/// The memory-queue rule (issue-stage §3.2, "Original LOOG memory queues") for a ready memory
/// instruction `c` and an older, undispatched one `o` of the same warp at cycle `t`: nothing
/// passes a memory barrier; an older store holds `c` while its address is unresolved (the
/// model resolves a store's address with its operands: a CU computes nothing before dispatch)
/// and when its address range overlaps `c`'s; a store also waits for an older load it
/// overlaps (a memory write-after-read, which a machine without a commit stage must keep in
/// order). Loads pass loads.
fn lsq_hold(c: &Cu, o: &Cu, t: u64) -> Option<LsqHold> {
    if c.mem.membar || o.mem.membar {
        return Some(LsqHold::Barrier);
    }
    match (o.mem.kind, c.mem.kind) {
        (LsqKind::Store, LsqKind::Load | LsqKind::Store) => {
            if !o.operands_ready(t) {
                Some(LsqHold::Unresolved)
            } else if o.mem.overlaps(&c.mem) {
                Some(LsqHold::Address)
            } else {
                None
            }
        }
        (LsqKind::Load, LsqKind::Store) => o.mem.overlaps(&c.mem).then_some(LsqHold::Address),
        (LsqKind::Load, LsqKind::Load) => None,
        // an LD/ST-unit instruction without a data access (or one before it): in order
        _ => Some(LsqHold::Address),
    }
}

impl SmLoog {
    /// Start of cycle `t`: frees what was scheduled for `t`, makes the RAT visits of the CUs
    /// allocated at t − 1, then the slices' broadcasts (one each; a CU visiting the RAT in the
    /// cycle its producer broadcasts captures the value from the buffer). Returns whether
    /// anything happened.
    pub fn begin_cycle(&mut self, t: u64) -> bool {
        let mut any = false;
        let bins = self.stats.cu_alloc_period_hist.len();
        for s in 0..self.slices.len() {
            let sl = &mut self.slices[s];
            if sl.n_cus == 0 && sl.n_prods == 0 || sl.next_free_at > t {
                continue;
            }
            let mut next = u64::MAX;
            for (ci, c) in sl.cus.iter_mut().enumerate() {
                if c.alloc && c.free_at <= t {
                    self.stats.cu_alloc_period_hist[log2_bin(t - c.alloc_at, bins)] += 1;
                    if self.p.lsq.is_some() {
                        match c.mem.kind {
                            LsqKind::Load => sl.lq_used -= 1,
                            LsqKind::Store => sl.sq_used -= 1,
                            LsqKind::None => {}
                        }
                    }
                    *c = Cu::FREE;
                    sl.rat_pending &= !(1u64 << ci);
                    sl.rf_want &= !(1u64 << ci);
                    sl.n_cus -= 1;
                    any = true;
                } else if c.alloc {
                    next = next.min(c.free_at);
                }
            }
            for p in sl.prods.iter_mut() {
                if p.alloc && p.free_at <= t {
                    if self.p.n_rrs > 0 {
                        let rb = self.stats.rrs_alloc_period_hist.len();
                        self.stats.rrs_alloc_period_hist[log2_bin(t - p.alloc_at, rb)] += 1;
                    }
                    *p = Producer::FREE;
                    sl.n_prods -= 1;
                    any = true;
                } else if p.alloc {
                    next = next.min(p.free_at);
                }
            }
            sl.next_free_at = next;
        }
        for s in 0..self.slices.len() {
            let mut bits = self.slices[s].rat_pending;
            while bits != 0 {
                let ci = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.slices[s].cus[ci].rat_at <= t {
                    self.rat_visit(s, ci, t);
                    any = true;
                }
            }
        }
        for s in 0..self.slices.len() {
            if let Some(id) = self.slices[s].bcast.pop_front() {
                self.broadcast(s, id, t);
                any = true;
            }
        }
        any
    }

    /// §3.2 step 2 for CU `ci` of slice `s` at cycle `t`.
    fn rat_visit(&mut self, s: usize, ci: usize, t: u64) {
        let c = self.slices[s].cus[ci];
        let w = c.warp as usize;
        let mut ops = c.ops;
        for o in ops[..c.n_ops as usize].iter_mut() {
            self.stats.rat_reads += 1;
            match self.rat_lookup(w, o.reg) {
                None => {
                    o.from_rf = true;
                    o.src_id = NO_ID;
                    if o.reg >= PRED_BASE {
                        // predicates come from the predicate file, without an RF port
                        o.ready_at = t + 1;
                    }
                }
                Some(id) => {
                    o.from_rf = false;
                    o.src_id = id;
                }
            }
        }
        if c.prod != NO_ID {
            for &r in c.inst.dsts() {
                if let Some(e) = self.rat[w].get_mut(r as usize) {
                    *e = c.prod;
                    self.stats.rat_writes += 1;
                }
            }
        }
        let sl = &mut self.slices[s];
        sl.rat_pending &= !(1u64 << ci);
        if ops[..c.n_ops as usize].iter().any(Operand::needs_rf) {
            sl.rf_want |= 1u64 << ci;
        }
        let cu = &mut sl.cus[ci];
        cu.ops = ops;
        cu.rat_at = u64::MAX;
    }

    /// Does the register-file write of register `r` by producer `tag` go ahead? At the
    /// result's end of packet the producer re-reads RAT[warp][r]: a younger writer that renamed
    /// `r` owns it, and the write is eliminated (WAW elimination, §3.2 step 7).
    pub fn rf_write_kept(&self, w: usize, r: Reg, tag: u16) -> bool {
        let n_id = self.p.n_id() as u16;
        if tag == NO_ID {
            return true;
        }
        match self.rat[w].get(r as usize) {
            // NO_ID: a younger writer already wrote back and marked the register `from_rf`
            Some(&id) => id == tag % n_id,
            None => true,
        }
    }

    /// The result of producer `tag` reached write-back at cycle `t` (end of packet): it sets
    /// `rd_valid` and queues for its slice's broadcast. Counts the RF writes made and
    /// eliminated. A tag of [`NO_ID`] (no write-back) is ignored.
    pub fn result_done(&mut self, tag: u16, _t: u64) {
        if tag == NO_ID {
            return;
        }
        let n_id = self.p.n_id() as u16;
        let (s, id) = ((tag / n_id) as usize, tag % n_id);
        let p = self.slices[s].prods[id as usize];
        for &r in &p.dst[..p.n_dst as usize] {
            self.stats.rat_reads += 1;
            if self.rf_write_kept(p.warp as usize, r, tag) {
                self.stats.rf_writes += 1;
            } else {
                self.stats.rf_writes_skipped += 1;
            }
        }
        let p = &mut self.slices[s].prods[id as usize];
        p.rd_valid = true;
        p.queued = true;
        self.slices[s].bcast.push_back(id);
    }

    /// §3.2 step 7, the cycle after the end of packet: broadcast through the write-back
    /// buffer(s), captures by the waiting CUs, the RAT's `from_rf` when the producer still owns
    /// the register; the producer (and without an RRS its CU) is freed the next cycle.
    fn broadcast(&mut self, s: usize, id: u16, t: u64) {
        let nb = self.p.wb_buffers;
        let sl = &mut self.slices[s];
        let p = sl.prods[id as usize];
        self.stats.broadcasts += 1;
        self.stats.wb_buffer_writes += nb as u64;
        for c in sl.cus.iter_mut() {
            if !c.alloc || c.dispatched || c.warp != p.warp {
                continue;
            }
            for o in c.ops[..c.n_ops as usize].iter_mut() {
                if !o.from_rf && o.src_id == id && o.ready_at == u64::MAX {
                    o.ready_at = t + 1;
                    self.stats.captures += 1;
                }
            }
        }
        for &r in &p.dst[..p.n_dst as usize] {
            if let Some(e) = self.rat[p.warp as usize].get_mut(r as usize) {
                if *e == id {
                    *e = NO_ID;
                    self.stats.rat_writes += 1;
                }
            }
        }
        let sl = &mut self.slices[s];
        sl.prods[id as usize].free_at = t + 1;
        sl.prods[id as usize].queued = false;
        if self.p.n_rrs == 0 {
            sl.cus[id as usize].free_at = t + 1;
        }
        sl.next_free_at = sl.next_free_at.min(t + 1);
    }

    /// §3.2 step 3 at cycle `t`: each slice fills its free grants from the requesting CUs (RAT
    /// visited before `t`, an operand still to read from the RF) by its arbiter, and each
    /// granted CU reads its next RF operand (in operand order) if `port(&RfRead)` grants the
    /// bank this cycle; a CU with nothing left to read releases its grant. Returns whether a
    /// read was made.
    pub fn rf_read(&mut self, t: u64, port: &mut dyn FnMut(&RfRead) -> bool) -> bool {
        let mut any = false;
        for s in 0..self.slices.len() {
            let sl = &mut self.slices[s];
            if sl.n_cus == 0 {
                continue;
            }
            let n = sl.cus.len();
            while sl.grants.len() < self.p.rf_read_ports as usize {
                let start = if self.p.arbiter == RfArbiter::Id {
                    n - 1
                } else {
                    sl.rr_grant as usize
                };
                // the first requester after `start`, wrapping around
                let mut req = sl.rf_want;
                for &g in &sl.grants {
                    req &= !(1u64 << g);
                }
                if req == 0 {
                    break;
                }
                let above = if start + 1 >= 64 {
                    0
                } else {
                    req & !((1u64 << (start + 1)) - 1)
                };
                let i = if above != 0 { above } else { req }.trailing_zeros() as usize;
                sl.grants.push(i as u16);
                sl.rr_grant = i as u16;
            }
            let mut k = 0;
            while k < sl.grants.len() {
                let ci = sl.grants[k] as usize;
                let c = &mut sl.cus[ci];
                let w = c.warp as usize;
                let lanes = c.inst.active_mask.count_ones();
                if let Some(o) = c.ops[..c.n_ops as usize].iter_mut().find(|o| o.needs_rf()) {
                    let rq = RfRead {
                        slice: s,
                        cu: ci,
                        warp: w,
                        reg: o.reg,
                        lanes,
                    };
                    if port(&rq) {
                        o.ready_at = t + 1;
                        self.stats.rf_reads += 1;
                        any = true;
                    } else {
                        self.stats.rf_read_conflicts += 1;
                    }
                }
                if c.ops[..c.n_ops as usize].iter().any(Operand::needs_rf) {
                    k += 1;
                } else {
                    sl.rf_want &= !(1u64 << ci);
                    sl.grants.swap_remove(k);
                }
            }
        }
        any
    }

    /// §3.2 step 5 for slice `s` at cycle `t`: the lowest-index ready CU whose unit accepts
    /// (`accepts(cu)`) is dispatched. Ready: allocated, not dispatched, every operand valid
    /// before `t`, no older undispatched LD/ST instruction of the warp when it is one (every
    /// pair checked), no older CU of the warp still to read its destination from the RF (WAR
    /// guard), and with an RRS (`rrs_dispatch_needs_free_slot`) a free RRS entry when it
    /// writes back. A CU freed without write-back (or with an RRS) is freed at t + 1. Returns
    /// the CU index.
    pub fn dispatch(
        &mut self,
        s: usize,
        t: u64,
        accepts: &mut dyn FnMut(&Cu) -> bool,
    ) -> Option<usize> {
        let bits = self.p.uuid_bits;
        let sl = &self.slices[s];
        if sl.n_cus == 0 {
            return None;
        }
        let rrs_free = self.p.n_rrs == 0
            || !self.p.rrs_dispatch_needs_free_slot
            || sl.prods.iter().any(|p| !p.alloc);
        let mut picked = None;
        let mut cmps = 0u64;
        let mut lsq_searches = 0u64;
        let mut lsq_holds = [0u64; 3];
        let mut bypass = false;
        for (j, c) in sl.cus.iter().enumerate() {
            if !c.alloc || c.dispatched || !c.operands_ready(t) {
                continue;
            }
            let mut ok = true;
            let mut hold: Option<LsqHold> = None;
            let mut passes = false;
            for (k, o) in sl.cus.iter().enumerate() {
                if k == j || !o.alloc || o.warp != c.warp {
                    continue;
                }
                cmps += 1;
                if !older(o.uuid, c.uuid, bits) {
                    continue;
                }
                if c.lsu && o.lsu && !o.dispatched {
                    match self.p.lsq {
                        None => {
                            ok = false;
                            break;
                        }
                        Some(_) => {
                            if let Some(why) = lsq_hold(c, o, t) {
                                hold = Some(why);
                                ok = false;
                                break;
                            }
                            passes = true;
                        }
                    }
                }
                if c.inst.n_dst > 0
                    && !o.dispatched
                    && o.ops[..o.n_ops as usize]
                        .iter()
                        .any(|x| x.needs_rf() && c.inst.dsts().contains(&x.reg))
                {
                    ok = false;
                    break;
                }
            }
            if c.lsu && self.p.lsq.is_some() {
                lsq_searches += sl
                    .cus
                    .iter()
                    .enumerate()
                    .filter(|&(k, o)| {
                        k != j
                            && o.alloc
                            && o.lsu
                            && !o.dispatched
                            && o.warp == c.warp
                            && older(o.uuid, c.uuid, bits)
                    })
                    .count() as u64;
            }
            if let Some(h) = hold {
                lsq_holds[h as usize] += 1;
            }
            if !ok {
                continue;
            }
            if c.prod != NO_ID && !rrs_free {
                self.stats.no_rrs_dispatch_stall += 1;
                continue;
            }
            if !accepts(c) {
                // the record's classes are those before tensor cores (`LOOG_UNIT_NAMES`): a
                // stall on a busy tensor core is not among them
                if let Some(n) = self.stats.unit_busy_stalls.get_mut(c.unit as usize) {
                    *n += 1;
                }
                continue;
            }
            picked = Some(j);
            bypass = passes;
            break;
        }
        self.stats.uuid_comparisons += cmps;
        if let Some(l) = self.stats.lsq.as_mut() {
            l.searches += lsq_searches;
            l.unresolved_holds += lsq_holds[LsqHold::Unresolved as usize];
            l.address_holds += lsq_holds[LsqHold::Address as usize];
            l.barrier_holds += lsq_holds[LsqHold::Barrier as usize];
            l.bypasses += u64::from(bypass);
        }
        let j = picked?;
        let c = self.slices[s].cus[j];
        // reorder: an older CU of the warp is still waiting
        let mut oldest: Option<u32> = None;
        for (k, o) in self.slices[s].cus.iter().enumerate() {
            if k != j
                && o.alloc
                && !o.dispatched
                && o.warp == c.warp
                && older(o.uuid, c.uuid, bits)
                && oldest.is_none_or(|x| older(o.uuid, x, bits))
            {
                oldest = Some(o.uuid);
            }
        }
        if let Some(k) = oldest {
            self.stats.reorders += 1;
            let d = uuid_distance(k, c.uuid, bits).clamp(1, 15) as usize;
            self.stats.reorder_distance_hist[d] += 1;
        }
        self.stats.dispatches += 1;
        let sl = &mut self.slices[s];
        let cu = &mut sl.cus[j];
        cu.dispatched = true;
        if cu.prod != NO_ID {
            sl.prods[cu.prod as usize].dispatched = true;
        }
        if cu.prod == NO_ID || self.p.n_rrs > 0 {
            cu.free_at = t + 1;
            sl.next_free_at = sl.next_free_at.min(t + 1);
        }
        Some(j)
    }

    /// End of cycle `t`: samples each slice's CU (and RRS) occupancy.
    pub fn sample(&mut self) {
        for sl in &self.slices {
            self.stats.cu_occupancy_hist[sl.n_cus as usize] += 1;
            if self.p.n_rrs > 0 {
                self.stats.rrs_occupancy_hist[sl.n_prods as usize] += 1;
            }
        }
    }

    /// Anything allocated in any slice (the SM keeps stepping while so).
    pub fn busy(&self) -> bool {
        self.slices.iter().any(|s| s.n_cus > 0 || s.n_prods > 0)
    }
}
