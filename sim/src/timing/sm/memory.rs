//! Memory-facing work of the SM cycle (spec simulator.md §2.2, §2.6, §2.7): instruction fetch
//! and decode through the I-cache into the I-buffers, the LD/ST unit's one request (or shared
//! memory pass) per cycle into the L1D, constant cache or memory system, and the handling of
//! memory replies (MSHR fills, load completion, store acknowledgements, I-cache fills).

use super::Sm;
use crate::config::{AllocPolicy, WritePolicy};
use crate::inst::Family;
use crate::stream::{KernelStream, Step};
use crate::timing::cache::{LineState, Probe};
use crate::timing::divisor::ring_add;
use crate::timing::execunits::Wb;
use crate::timing::ldstunit::{JobKind, Tok};
use crate::timing::memsys::{MemSys, ReqKind};
use crate::timing::tinst::TInst;
use crate::SimError;

/// Byte address of instruction memory (kernel code) in the unified address space [G].
const CODE_BASE: u64 = 0xFFFF_0000_0000;

impl Sm {
    /// One LD/ST cycle: sends at most one request (or performs one pass) of the current job.
    pub fn ldst_cycle(&mut self, t: u64, t_fs: u64, mem: &mut MemSys) {
        let Some(job) = self.ldst.job.as_ref() else {
            return;
        };
        if job.next_at > t {
            return;
        }
        let (warp, kind, local, i, n, load) =
            (job.warp, job.kind, job.local, job.next, job.n, job.load);
        if i >= n {
            self.finish_job_if_done(t, t + 1);
            return;
        }
        let sm = self.id as usize;
        let u = &mut self.ldst;
        let mut sent = true;
        match kind {
            JobKind::Shared => {
                // one pass per cycle; `n` = conflict degree; data returns `smem_latency` after
                // the last pass
                if i == 0 {
                    u.smem_act.accesses += 1;
                    u.smem_act.conflict_extra_cycles += n as u64 - 1;
                    u.smem_act.lanes += u.job_lanes as u64;
                }
                if i + 1 == n {
                    if let Some(l) = load {
                        let li = &mut u.loads[l as usize];
                        li.done_at = li.done_at.max(t + u.smem_lat);
                    }
                }
            }
            JobKind::Const => {
                let a = u.consts[i];
                let line = u.cc.line_of(a);
                u.const_act.reads += 1;
                let lid = load.expect("const load");
                match u.cc.probe(line, 1) {
                    Probe::Hit { .. } => {
                        u.const_act.hits += 1;
                        let li = &mut u.loads[lid as usize];
                        li.done_at = li.done_at.max(t + u.cc_lat);
                    }
                    _ => {
                        u.const_act.misses += 1;
                        u.loads[lid as usize].remaining += 1;
                        let tk = u.tok(Tok::Load {
                            load: lid,
                            const_line: Some(line),
                        });
                        let lb = u.cc.line_bytes();
                        mem.send(sm, t_fs, ReqKind::Read, a / lb * lb, lb, tk);
                    }
                }
            }
            JobKind::GlobalLoad => {
                let a = u.segs.addr[i];
                let bytes = u.segs.bytes[i] as u64;
                let lid = load.expect("load");
                let bypass = !local && u.skip_global;
                u.ldst_act.global_requests += 1;
                if bypass {
                    u.l1d_act.bypass += 1;
                    u.loads[lid as usize].remaining += 1;
                    let tk = u.tok(Tok::Load {
                        load: lid,
                        const_line: None,
                    });
                    mem.send(sm, t_fs, ReqKind::Read, a, bytes.max(32), tk);
                } else {
                    let line = u.l1.line_of(a);
                    let smask = u.l1.sector_mask(a, bytes.max(1));
                    match u.l1.probe(line, smask) {
                        Probe::Hit { .. } => {
                            u.l1d_act.read.hit += 1;
                            let li = &mut u.loads[lid as usize];
                            li.done_at = li.done_at.max(t + u.l1_lat);
                        }
                        p => {
                            let merged = match (p, u.mshr.get_mut(line)) {
                                (_, Some(waiters)) if waiters.len() < u.mshr_merge => {
                                    waiters.push(lid);
                                    Some(true)
                                }
                                (_, Some(_)) => None,
                                _ => Some(false),
                            };
                            match merged {
                                Some(true) => {
                                    u.l1d_act.read.hit_reserved += 1;
                                    u.loads[lid as usize].remaining += 1;
                                }
                                None => {
                                    u.l1d_act.read.res_fail += 1;
                                    sent = false;
                                }
                                Some(false) if u.mshr.len() >= u.mshr_cap => {
                                    u.l1d_act.read.res_fail += 1;
                                    sent = false;
                                }
                                Some(false) => {
                                    if u.l1_alloc == AllocPolicy::OnMiss
                                        && !matches!(p, Probe::Partial { .. })
                                    {
                                        match u.l1.allocate(line, LineState::Reserved, 0) {
                                            Some((_, ev)) => {
                                                if ev.line_addr.is_some() {
                                                    u.l1d_act.evictions += 1;
                                                }
                                                if let (Some(ea), true) =
                                                    (ev.line_addr, ev.dirty != 0)
                                                {
                                                    u.l1d_act.writebacks += 1;
                                                    let tk = u.tok(Tok::Store { warp });
                                                    self.warps.mem_sent(warp as usize);
                                                    self.issue.dirty = true;
                                                    mem.send(
                                                        sm,
                                                        t_fs,
                                                        ReqKind::Write,
                                                        ea,
                                                        u.l1_line,
                                                        tk,
                                                    );
                                                }
                                            }
                                            None => {
                                                u.l1d_act.read.res_fail += 1;
                                                sent = false;
                                            }
                                        }
                                    }
                                    if sent {
                                        u.l1d_act.read.miss += 1;
                                        u.mshr.insert(line, lid);
                                        u.loads[lid as usize].remaining += 1;
                                        let tk = u.tok(Tok::Mshr { line });
                                        let lb = u.l1.line_bytes();
                                        let (addr, b) = if u.l1_sector {
                                            (a, bytes.max(32))
                                        } else {
                                            (a / lb * lb, lb)
                                        };
                                        mem.send(sm, t_fs, ReqKind::Read, addr, b, tk);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            JobKind::GlobalStore => {
                let a = u.segs.addr[i];
                let bytes = u.segs.bytes[i] as u64;
                u.ldst_act.global_requests += 1;
                let line = u.l1.line_of(a);
                let smask = u.l1.sector_mask(a, bytes.max(1));
                let write_back_local =
                    local && matches!(u.l1_write, WritePolicy::LocalWbGlobalWt | WritePolicy::Wb);
                let hit = match u.l1.probe(line, smask) {
                    Probe::Hit { way, .. }
                    | Probe::Partial {
                        way,
                        state: LineState::Valid,
                    } => {
                        if write_back_local {
                            u.l1.write(way, smask);
                        } else {
                            u.l1.fill(way, smask, 0);
                        }
                        true
                    }
                    _ => false,
                };
                if hit {
                    u.l1d_act.write.hit += 1;
                } else {
                    u.l1d_act.write.miss += 1;
                }
                if !(hit && write_back_local) {
                    let tk = u.tok(Tok::Store { warp });
                    self.warps.mem_sent(warp as usize);
                    self.issue.dirty = true;
                    mem.send(sm, t_fs, ReqKind::Write, a, bytes.max(1), tk);
                }
            }
            JobKind::Atomic => {
                let a = u.segs.addr[i];
                let bytes = u.segs.bytes[i] as u64;
                u.ldst_act.global_requests += 1;
                u.l1d_act.bypass += 1;
                match load {
                    Some(lid) => {
                        u.loads[lid as usize].remaining += 1;
                        let tk = u.tok(Tok::Load {
                            load: lid,
                            const_line: None,
                        });
                        mem.send(sm, t_fs, ReqKind::Atomic, a, bytes.max(4), tk);
                    }
                    None => {
                        let tk = u.tok(Tok::Store { warp });
                        self.warps.mem_sent(warp as usize);
                        self.issue.dirty = true;
                        mem.send(sm, t_fs, ReqKind::Atomic, a, bytes.max(4), tk);
                    }
                }
            }
        }
        if !sent {
            // a reservation failure is retried every cycle and counted each time; it changes
            // nothing else (a repeated probe only re-touches the most recent line of its set)
            self.ldst.ldst_act.stall_cycles += 1;
            self.ldst.retry_blocked = true;
            return;
        }
        self.ldst.retry_blocked = false;
        self.progress = true;
        let j = self.ldst.job.as_mut().expect("job");
        j.next += 1;
        j.next_at = t + 1;
        self.finish_job_if_done(t, t + 1);
    }

    /// When every request of the job is out: release the unit, retire stores, and mark loads
    /// fully sent (they write back when their last part arrives).
    fn finish_job_if_done(&mut self, t: u64, done: u64) {
        let Some(j) = self.ldst.job.as_ref() else {
            return;
        };
        if j.next < j.n {
            return;
        }
        let (warp, load) = (j.warp, j.load);
        self.ldst.job = None;
        self.ldst.ldst_act.insts += 1;
        match load {
            Some(l) => {
                self.ldst.loads[l as usize].all_sent = true;
                self.try_complete_load(l, t);
            }
            None => {
                // stores (and accesses without data) retire from the pipeline now; their
                // acknowledgements are tracked in w_mem_out
                self.seq += 1;
                self.exec.wb_push(Wb {
                    ready: done.max(t + 1),
                    seq: self.seq,
                    warp,
                    n_dst: 0,
                    dst: [0; 4],
                    lanes: 0,
                });
            }
        }
    }

    fn try_complete_load(&mut self, l: u32, t: u64) {
        let li = self.ldst.loads[l as usize];
        if !li.all_sent || li.remaining > 0 {
            return;
        }
        self.seq += 1;
        self.exec.wb_push(Wb {
            ready: li.done_at.max(t + 1),
            seq: self.seq,
            warp: li.warp,
            n_dst: li.n_dst,
            dst: li.dst,
            lanes: li.lanes,
        });
        self.ldst.free_loads.push(l);
    }

    /// Handles memory replies that arrived by `t_fs` (core cycle `t`).
    pub fn replies(&mut self, t: u64, t_fs: u64, mem: &mut MemSys) {
        let sm = self.id as usize;
        while let Some(tk) = mem.pop_reply(sm, t_fs) {
            self.progress = true;
            let tok = self.ldst.toks[tk as usize];
            self.ldst.free_toks.push(tk);
            match tok {
                Tok::Mshr { line } => {
                    let u = &mut self.ldst;
                    let full = u.l1.full_mask();
                    let way = match u.l1.find(line) {
                        Some(w) => Some(w),
                        None => u.l1.allocate(line, LineState::Valid, t).map(|(w, ev)| {
                            if ev.line_addr.is_some() {
                                u.l1d_act.evictions += 1;
                            }
                            w
                        }),
                    };
                    if let Some(w) = way {
                        u.l1.fill(w, full, t);
                        u.l1d_act.fills += 1;
                    }
                    let waiters = self.ldst.mshr.remove(line).unwrap_or_default();
                    for &l in &waiters {
                        let li = &mut self.ldst.loads[l as usize];
                        li.remaining -= 1;
                        li.done_at = li.done_at.max(t + 1);
                        self.try_complete_load(l, t);
                    }
                    self.ldst.mshr.recycle(waiters);
                }
                Tok::Load { load, const_line } => {
                    if let Some(line) = const_line {
                        let u = &mut self.ldst;
                        let full = u.cc.full_mask();
                        if u.cc.find(line).is_none() {
                            if let Some((w, _)) = u.cc.allocate(line, LineState::Valid, t) {
                                u.cc.fill(w, full, t);
                            }
                        }
                    }
                    let li = &mut self.ldst.loads[load as usize];
                    li.remaining -= 1;
                    li.done_at = li.done_at.max(t + 1);
                    self.try_complete_load(load, t);
                }
                Tok::Store { warp } => {
                    self.warps.mem_ack(warp as usize);
                    self.issue.dirty = true;
                }
                Tok::IFetch { line } => {
                    let full = self.front.icache.full_mask();
                    if let Some((w, _)) = self.front.icache.allocate(line, LineState::Valid, t) {
                        self.front.icache.fill(w, full, t);
                    }
                    self.front.icache_pending.retain(|&l| l != line);
                    for w in 0..self.warps.w_valid.len() {
                        if self.warps.w_valid[w] && self.warps.w_ifetch_line[w] == line {
                            self.warps.w_ifetch_line[w] = u64::MAX;
                            self.front.fetch_dirty = true;
                            self.front.candidate(w);
                            self.front.w_ib_ready[w] = t + 1;
                            self.front.ib_wait.insert(w);
                            self.front.ib_ready_last = t + 1;
                            self.issue.dirty = true;
                        }
                    }
                }
            }
        }
    }

    /// Fetch and decode: up to `throughput` warps with an empty I-buffer, round-robin after the
    /// last fetched warp; each fetch reads up to `width` instructions from the stream.
    #[allow(clippy::too_many_arguments)]
    pub fn fetch(
        &mut self,
        t: u64,
        t_fs: u64,
        width: u32,
        throughput: u32,
        stream: &mut dyn KernelStream,
        mem: &mut MemSys,
    ) -> Result<(), SimError> {
        if !self.front.fetch_dirty && t < self.front.fetch_wake {
            // no warp became able to fetch since the last pass found none
            return Ok(());
        }
        let mut fetched = 0;
        // Candidates in round-robin order from after the last warp fetched: the warps after
        // `fetch_last`, then those up to it.
        let mut scan = std::mem::take(&mut self.front.fetch_scan);
        scan.clear();
        self.front.fetch_cand.push_slots(&mut scan);
        let split = scan.partition_point(|&w| w as u32 <= self.front.fetch_last);
        let n_scan = scan.len();
        for k in 0..n_scan {
            if fetched >= throughput {
                break;
            }
            let w = scan[ring_add(split, k, n_scan)] as usize;
            if !self.fetch_eligible(w) {
                self.front.fetch_cand.remove(w);
                continue;
            }
            if self.warps.w_fetch_ready[w] > t {
                continue;
            }
            // I-cache: the line of the next instruction must be present; the stream tells the
            // PC only when stepped, so the lookup uses the warp's next PC after stepping.
            let cta = self.warps.ctas[self.warps.w_cta[w] as usize].cta_id;
            let widx = self.warps.w_idx[w];
            let mut n = 0;
            let mut first_pc = 0;
            while n < width.min(self.front.ib_cap as u32) {
                let slot = ring_add(
                    self.front.ib_head[w] as usize,
                    self.front.ib_len[w] as usize,
                    self.front.ib_cap as usize,
                );
                let step = stream.next_inst(cta, widx, t, &mut self.front.fetch_tmp)?;
                match step {
                    Step::Done => {
                        self.warps.w_stream_done[w] = true;
                        break;
                    }
                    Step::Inst => {
                        let inst =
                            TInst::from_inst(&self.front.fetch_tmp, &mut self.front.addr_pool);
                        self.front.ibuf[w][slot] = inst;
                        let pipe = self.front.exec_class(inst.family, inst.op).pipe;
                        let cu = self.oc.cu_mask(pipe, self.issue.sched_of(w));
                        self.front.ib_cu[w][slot] = cu;
                        if self.front.ib_len[w] == 0 {
                            self.front.w_head_cu[w] = cu;
                        }
                        if n == 0 {
                            first_pc = inst.pc;
                        }
                        self.front.w_ib_ready[w] = t + 1;
                        self.front.ib_wait.insert(w);
                        self.front.ib_ready_last = t + 1;
                        self.front.ib_len[w] += 1;
                        self.front.ib_nonempty.insert(w);
                        n += 1;
                        if inst.family == Family::Bar {
                            self.warps.w_fetch_bar[w] = true;
                            break;
                        }
                    }
                }
            }
            self.front.fetch_last = w as u32;
            fetched += 1;
            self.progress = true;
            self.issue.dirty = true;
            if n == 0 {
                if self.warps.w_stream_done[w] {
                    self.mark_exited(w);
                }
                continue;
            }
            self.front.decoder_insts += n as u64;
            self.front.ibuffer_act.writes += n as u64;
            self.front.icache_act.reads += 1;
            if self.front.perfect_icache {
                self.front.icache_act.hits += 1;
                continue;
            }
            let addr = CODE_BASE + first_pc as u64;
            let line = self.front.icache.line_of(addr);
            let full = self.front.icache.full_mask();
            if let Probe::Hit { .. } = self.front.icache.probe(line, full) {
                self.front.icache_act.hits += 1;
                continue;
            }
            self.front.icache_act.misses += 1;
            self.warps.w_ifetch_line[w] = line;
            self.front.w_ib_ready[w] = u64::MAX;
            self.front.ib_wait.insert(w);
            if !self.front.icache_pending.contains(&line) {
                self.front.icache_pending.push(line);
                let tk = self.ldst_tok_ifetch(line);
                let lb = self.front.icache.line_bytes();
                mem.send(self.id as usize, t_fs, ReqKind::Read, line * lb, lb, tk);
            }
        }
        // With nothing fetched the stage stays idle until an event makes a warp eligible or a
        // fetch delay ends.
        self.front.fetch_dirty = fetched > 0;
        if fetched == 0 {
            let mut wake = u64::MAX;
            for &w in &scan {
                let w = w as usize;
                if self.fetch_eligible(w) && self.warps.w_fetch_ready[w] > t {
                    wake = wake.min(self.warps.w_fetch_ready[w]);
                }
            }
            self.front.fetch_wake = wake;
        }
        self.front.fetch_scan = scan;
        Ok(())
    }

    /// Warp `w` may fetch once its fetch delay has passed: resident, instructions left, empty
    /// I-buffer, not stopped at a barrier, no I-cache miss outstanding.
    #[inline]
    pub(crate) fn fetch_eligible(&self, w: usize) -> bool {
        self.warps.w_valid[w]
            && !self.warps.w_stream_done[w]
            && self.front.ib_len[w] == 0
            && !self.warps.w_fetch_bar[w]
            && self.warps.w_ifetch_line[w] == u64::MAX
    }

    fn ldst_tok_ifetch(&mut self, line: u64) -> u32 {
        self.ldst.tok(Tok::IFetch { line })
    }

    /// Earliest cycle after `t` at which the LD/ST unit has work of its own (none while its
    /// job waits for a memory reply to free a reservation).
    pub fn ldst_next(&self, t: u64) -> Option<u64> {
        if self.ldst.retry_blocked {
            return None;
        }
        self.ldst.job.as_ref().map(|j| j.next_at.max(t + 1))
    }

    /// Counters of `k` cycles in which the LD/ST unit would have retried its blocked request.
    pub fn replay_ldst(&mut self, k: u64) {
        if self.ldst.retry_blocked && self.ldst.job.is_some() {
            self.ldst.ldst_act.global_requests += k;
            self.ldst.l1d_act.read.res_fail += k;
            self.ldst.ldst_act.stall_cycles += k;
        }
    }
}
