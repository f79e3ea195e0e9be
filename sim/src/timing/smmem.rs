//! The SM's memory-facing stages: instruction fetch through the I-cache, and the LD/ST unit with
//! coalescing, shared-memory bank conflicts, the constant cache and the L1 data cache with MSHRs
//! (spec simulator.md §2.2, §2.6, §2.7).

use super::cache::{LineState, Probe, TagArray};
use super::divisor::ring_add;
use super::ldst::{coalesce, distinct_addrs, segment_bytes, smem_degree, Segments};
use super::memsys::{MemSys, ReqKind};
use super::sm::{Sm, Wb};
use super::tinst::TInst;
use crate::config::{AllocPolicy, GpuConfig, WritePolicy};
use crate::inst::{Family, MemInfo, MemSpace, OpClass, WARP_SIZE};
use crate::stream::{KernelStream, Step};
use crate::SimError;

/// Byte address of instruction memory (kernel code) in the unified address space [G].
const CODE_BASE: u64 = 0xFFFF_0000_0000;

#[derive(Clone, Copy, Debug)]
enum Tok {
    /// Fill of an L1 MSHR entry for `line`.
    Mshr { line: u64 },
    /// A part of load `load` (bypass, atomic, or constant miss).
    Load { load: u32, const_line: Option<u64> },
    /// A store's write acknowledgement.
    Store { warp: u16 },
    /// An I-cache fill.
    IFetch { line: u64 },
}

#[derive(Clone, Copy, Debug, Default)]
struct LoadInst {
    warp: u16,
    n_dst: u8,
    dst: [u16; 4],
    lanes: u8,
    remaining: u32,
    done_at: u64,
    all_sent: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum JobKind {
    Shared,
    Const,
    GlobalLoad,
    GlobalStore,
    Atomic,
}

struct Job {
    warp: u16,
    kind: JobKind,
    local: bool,
    /// First cycle a request may go out (after address generation).
    next_at: u64,
    next: usize,
    n: usize,
    load: Option<u32>,
}

pub(crate) struct LdstUnit {
    job: Option<Job>,
    /// The job's last request failed to reserve an L1D MSHR or line. Until a memory reply
    /// frees one, every retry fails the same way (counting `ldst.global_requests`,
    /// `l1d.read.res_fail` and `ldst.stall_cycles` once per cycle), so the SM may sleep and
    /// replay those counts ([`Sm::replay_ldst`]).
    retry_blocked: bool,
    segs: Segments,
    consts: [u64; WARP_SIZE],
    l1: TagArray,
    l1_lat: u64,
    l1_alloc: AllocPolicy,
    l1_write: WritePolicy,
    l1_line: u64,
    l1_sector: bool,
    skip_global: bool,
    mshr: MshrTable,
    mshr_cap: usize,
    mshr_merge: usize,
    cc: TagArray,
    cc_lat: u64,
    smem_banks: u32,
    smem_bank_bytes: u32,
    smem_lat: u64,
    smem_bcast: bool,
    job_lanes: u32,
    toks: Vec<Tok>,
    free_toks: Vec<u32>,
    loads: Vec<LoadInst>,
    free_loads: Vec<u32>,
}

/// The L1D miss-status holding registers: one entry per line with an outstanding fill and the
/// loads waiting for it. Entries live in a dense list (no order is observable) and are found by
/// line through an open-addressing index: linear probing, backward-shift deletion, at most a
/// quarter full.
#[derive(Default)]
struct MshrTable {
    lines: Vec<u64>,
    waiters: Vec<Vec<u32>>,
    spare: Vec<Vec<u32>>,
    /// Position in `lines` + 1 per slot, 0 when empty; the length is a power of two.
    index: Vec<u32>,
}

impl MshrTable {
    fn len(&self) -> usize {
        self.lines.len()
    }
    /// Home slot of `line` (Fibonacci hashing).
    #[inline]
    fn home(&self, line: u64) -> usize {
        let bits = self.index.len().trailing_zeros();
        (line.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }
    /// The slot holding `line`, or the empty slot where it would go.
    #[inline]
    fn slot(&self, line: u64) -> (usize, bool) {
        let mask = self.index.len() - 1;
        let mut i = self.home(line);
        loop {
            match self.index[i] {
                0 => return (i, false),
                p if self.lines[p as usize - 1] == line => return (i, true),
                _ => i = (i + 1) & mask,
            }
        }
    }
    fn get_mut(&mut self, line: u64) -> Option<&mut Vec<u32>> {
        if self.lines.is_empty() {
            return None;
        }
        let (i, found) = self.slot(line);
        found.then(|| &mut self.waiters[self.index[i] as usize - 1])
    }
    fn insert(&mut self, line: u64, first: u32) {
        debug_assert!(self.lines.is_empty() || !self.slot(line).1);
        if (self.lines.len() + 1) * 4 > self.index.len() {
            let n = ((self.lines.len() + 1) * 4).next_power_of_two().max(64);
            self.index = vec![0; n];
            for k in 0..self.lines.len() {
                let (i, _) = self.slot(self.lines[k]);
                self.index[i] = k as u32 + 1;
            }
        }
        let mut v = self.spare.pop().unwrap_or_default();
        v.clear();
        v.push(first);
        self.lines.push(line);
        self.waiters.push(v);
        let (i, _) = self.slot(line);
        self.index[i] = self.lines.len() as u32;
    }
    fn remove(&mut self, line: u64) -> Option<Vec<u32>> {
        if self.lines.is_empty() {
            return None;
        }
        let (s, found) = self.slot(line);
        if !found {
            return None;
        }
        let pos = self.index[s] as usize - 1;
        // backward-shift deletion: pull later entries of the probe run into the hole unless
        // their home lies cyclically in (hole, their slot]
        let mask = self.index.len() - 1;
        let (mut hole, mut j) = (s, s);
        loop {
            j = (j + 1) & mask;
            let p = self.index[j];
            if p == 0 {
                break;
            }
            let k = self.home(self.lines[p as usize - 1]);
            let stays = if hole <= j {
                hole < k && k <= j
            } else {
                hole < k || k <= j
            };
            if !stays {
                self.index[hole] = p;
                hole = j;
            }
        }
        self.index[hole] = 0;
        // the dense list: the last entry moves into `pos`
        let last = self.lines.len() - 1;
        if pos != last {
            let (i, found) = self.slot(self.lines[last]);
            debug_assert!(found);
            self.index[i] = pos as u32 + 1;
        }
        self.lines.swap_remove(pos);
        Some(self.waiters.swap_remove(pos))
    }
    /// Returns a waiter list for reuse.
    fn recycle(&mut self, v: Vec<u32>) {
        self.spare.push(v);
    }
}

impl LdstUnit {
    pub fn new(cfg: &GpuConfig) -> Self {
        let l1 = cfg.l1d.geometry();
        LdstUnit {
            job: None,
            retry_blocked: false,
            segs: Segments::default(),
            consts: [0; WARP_SIZE],
            l1: TagArray::new(&l1),
            l1_lat: cfg.l1d.latency as u64,
            l1_alloc: cfg.l1d.alloc,
            l1_write: cfg.l1d.write_policy,
            l1_line: cfg.l1d.line_bytes as u64,
            l1_sector: cfg.l1d.sector_bytes < cfg.l1d.line_bytes,
            skip_global: cfg.l1d.skip_global,
            mshr: MshrTable::default(),
            mshr_cap: cfg.l1d.mshr_entries as usize,
            mshr_merge: cfg.l1d.mshr_merge as usize,
            cc: TagArray::new(&cfg.const_cache),
            cc_lat: cfg.const_cache.latency as u64,
            smem_banks: cfg.shmem.banks,
            smem_bank_bytes: cfg.shmem.bank_bytes,
            smem_lat: cfg.shmem.latency as u64,
            smem_bcast: cfg.shmem.broadcast,
            job_lanes: 0,
            toks: Vec::new(),
            free_toks: Vec::new(),
            loads: Vec::new(),
            free_loads: Vec::new(),
        }
    }

    pub fn can_accept(&self) -> bool {
        self.job.is_none()
    }

    fn tok(&mut self, t: Tok) -> u32 {
        match self.free_toks.pop() {
            Some(i) => {
                self.toks[i as usize] = t;
                i
            }
            None => {
                self.toks.push(t);
                self.toks.len() as u32 - 1
            }
        }
    }

    fn new_load(&mut self, l: LoadInst) -> u32 {
        match self.free_loads.pop() {
            Some(i) => {
                self.loads[i as usize] = l;
                i
            }
            None => {
                self.loads.push(l);
                self.loads.len() as u32 - 1
            }
        }
    }

    /// Accepts a memory instruction at `t`; returns the cycles the unit will be busy with it
    /// (address generation + one cycle per request or pass).
    pub fn accept(
        &mut self,
        t: u64,
        warp: u16,
        inst: &TInst,
        addrs: Option<&MemInfo>,
        _seq: u64,
    ) -> u64 {
        let Some(m) = addrs else {
            // a memory instruction without a data access (membar is handled at issue)
            self.job = Some(Job {
                warp,
                kind: JobKind::Shared,
                local: false,
                next_at: t + 1,
                next: 0,
                n: 0,
                load: None,
            });
            return 1;
        };
        let mask = inst.active_mask;
        self.job_lanes = mask.count_ones();
        let is_load = matches!(inst.op, OpClass::Load);
        let is_atomic = matches!(inst.op, OpClass::Atomic | OpClass::Reduction);
        let (kind, n) = match m.space {
            MemSpace::Shared => (
                JobKind::Shared,
                smem_degree(
                    m,
                    mask,
                    self.smem_banks,
                    self.smem_bank_bytes,
                    self.smem_bcast,
                ) as usize,
            ),
            MemSpace::Const | MemSpace::Param => {
                (JobKind::Const, distinct_addrs(m, mask, &mut self.consts))
            }
            MemSpace::Global | MemSpace::Local => {
                let bypass = (m.space == MemSpace::Global && self.skip_global) || is_atomic;
                let base = if bypass || self.l1_sector {
                    32
                } else {
                    self.l1_line
                };
                coalesce(m, mask, segment_bytes(base, m.width_bytes), &mut self.segs);
                let kind = if is_atomic {
                    JobKind::Atomic
                } else if is_load {
                    JobKind::GlobalLoad
                } else {
                    JobKind::GlobalStore
                };
                (kind, self.segs.n)
            }
        };
        let load = if inst.n_dst > 0 || is_load {
            let mut dst = [0u16; 4];
            let nd = inst.n_dst as usize;
            dst[..nd].copy_from_slice(&inst.dst[..nd]);
            Some(self.new_load(LoadInst {
                warp,
                n_dst: nd as u8,
                dst,
                lanes: mask.count_ones() as u8,
                remaining: 0,
                done_at: t + 1,
                all_sent: false,
            }))
        } else {
            None
        };
        self.job = Some(Job {
            warp,
            kind,
            local: m.space == MemSpace::Local,
            next_at: t + 1,
            next: 0,
            n,
            load,
        });
        1 + n as u64
    }
}

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
                    self.act.smem.accesses += 1;
                    self.act.smem.conflict_extra_cycles += n as u64 - 1;
                    self.act.smem.lanes += u.job_lanes as u64;
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
                self.act.const_cache.reads += 1;
                let lid = load.expect("const load");
                match u.cc.probe(line, 1) {
                    Probe::Hit { .. } => {
                        self.act.const_cache.hits += 1;
                        let li = &mut u.loads[lid as usize];
                        li.done_at = li.done_at.max(t + u.cc_lat);
                    }
                    _ => {
                        self.act.const_cache.misses += 1;
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
                self.act.ldst.global_requests += 1;
                if bypass {
                    self.act.l1d.bypass += 1;
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
                            self.act.l1d.read.hit += 1;
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
                                    self.act.l1d.read.hit_reserved += 1;
                                    u.loads[lid as usize].remaining += 1;
                                }
                                None => {
                                    self.act.l1d.read.res_fail += 1;
                                    sent = false;
                                }
                                Some(false) if u.mshr.len() >= u.mshr_cap => {
                                    self.act.l1d.read.res_fail += 1;
                                    sent = false;
                                }
                                Some(false) => {
                                    if u.l1_alloc == AllocPolicy::OnMiss
                                        && !matches!(p, Probe::Partial { .. })
                                    {
                                        match u.l1.allocate(line, LineState::Reserved, 0) {
                                            Some((_, ev)) => {
                                                if ev.line_addr.is_some() {
                                                    self.act.l1d.evictions += 1;
                                                }
                                                if let (Some(ea), true) =
                                                    (ev.line_addr, ev.dirty != 0)
                                                {
                                                    self.act.l1d.writebacks += 1;
                                                    let tk = u.tok(Tok::Store { warp });
                                                    self.w_mem_out[warp as usize] += 1;
                                                    self.mem_out_nz.insert(warp as usize);
                                                    self.issue_dirty = true;
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
                                                self.act.l1d.read.res_fail += 1;
                                                sent = false;
                                            }
                                        }
                                    }
                                    if sent {
                                        self.act.l1d.read.miss += 1;
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
                self.act.ldst.global_requests += 1;
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
                    self.act.l1d.write.hit += 1;
                } else {
                    self.act.l1d.write.miss += 1;
                }
                if !(hit && write_back_local) {
                    let tk = u.tok(Tok::Store { warp });
                    self.w_mem_out[warp as usize] += 1;
                    self.mem_out_nz.insert(warp as usize);
                    self.issue_dirty = true;
                    mem.send(sm, t_fs, ReqKind::Write, a, bytes.max(1), tk);
                }
            }
            JobKind::Atomic => {
                let a = u.segs.addr[i];
                let bytes = u.segs.bytes[i] as u64;
                self.act.ldst.global_requests += 1;
                self.act.l1d.bypass += 1;
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
                        self.w_mem_out[warp as usize] += 1;
                        self.mem_out_nz.insert(warp as usize);
                        self.issue_dirty = true;
                        mem.send(sm, t_fs, ReqKind::Atomic, a, bytes.max(4), tk);
                    }
                }
            }
        }
        if !sent {
            // a reservation failure is retried every cycle and counted each time; it changes
            // nothing else (a repeated probe only re-touches the most recent line of its set)
            self.act.ldst.stall_cycles += 1;
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
        self.act.ldst.insts += 1;
        match load {
            Some(l) => {
                self.ldst.loads[l as usize].all_sent = true;
                self.try_complete_load(l, t);
            }
            None => {
                // stores (and accesses without data) retire from the pipeline now; their
                // acknowledgements are tracked in w_mem_out
                self.seq += 1;
                self.wb_push(Wb {
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
        self.wb_push(Wb {
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
                                self.act.l1d.evictions += 1;
                            }
                            w
                        }),
                    };
                    if let Some(w) = way {
                        u.l1.fill(w, full, t);
                        self.act.l1d.fills += 1;
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
                    self.w_mem_out[warp as usize] -= 1;
                    self.issue_dirty = true;
                    let w = warp as usize;
                    if self.w_mem_out[w] == 0 {
                        self.mem_out_nz.remove(w);
                    }
                    self.retire_pending |= self.w_exited[w] && self.w_mem_out[w] == 0;
                }
                Tok::IFetch { line } => {
                    let full = self.icache.full_mask();
                    if let Some((w, _)) = self.icache.allocate(line, LineState::Valid, t) {
                        self.icache.fill(w, full, t);
                    }
                    self.icache_pending.retain(|&l| l != line);
                    for w in 0..self.w_valid.len() {
                        if self.w_valid[w] && self.w_ifetch_line[w] == line {
                            self.w_ifetch_line[w] = u64::MAX;
                            self.fetch_dirty = true;
                            self.fetch_candidate(w);
                            self.w_ib_ready[w] = t + 1;
                            self.ib_wait.insert(w);
                            self.ib_ready_last = t + 1;
                            self.issue_dirty = true;
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
        if !self.fetch_dirty && t < self.fetch_wake {
            // no warp became able to fetch since the last pass found none
            return Ok(());
        }
        let mut fetched = 0;
        // Candidates in round-robin order from after the last warp fetched: the warps after
        // `fetch_last`, then those up to it.
        let mut scan = std::mem::take(&mut self.fetch_scan);
        scan.clear();
        self.fetch_cand.push_slots(&mut scan);
        let split = scan.partition_point(|&w| w as u32 <= self.fetch_last);
        let n_scan = scan.len();
        for k in 0..n_scan {
            if fetched >= throughput {
                break;
            }
            let w = scan[ring_add(split, k, n_scan)] as usize;
            if !self.fetch_eligible(w) {
                self.fetch_cand.remove(w);
                continue;
            }
            if self.w_fetch_ready[w] > t {
                continue;
            }
            // I-cache: the line of the next instruction must be present; the stream tells the
            // PC only when stepped, so the lookup uses the warp's next PC after stepping.
            let cta = self.ctas[self.w_cta[w] as usize].cta_id;
            let widx = self.w_idx[w];
            let mut n = 0;
            let mut first_pc = 0;
            while n < width.min(self.ib_cap as u32) {
                let slot = ring_add(
                    self.ib_head[w] as usize,
                    self.ib_len[w] as usize,
                    self.ib_cap as usize,
                );
                let step = stream.next_inst(cta, widx, t, &mut self.fetch_tmp)?;
                match step {
                    Step::Done => {
                        self.w_stream_done[w] = true;
                        break;
                    }
                    Step::Inst => {
                        let inst = TInst::from_inst(&self.fetch_tmp, &mut self.addr_pool);
                        self.ibuf[w][slot] = inst;
                        let pipe = self.exec_class(inst.family, inst.op).pipe;
                        let cu = self.cu_mask(pipe, self.sched_of(w));
                        self.ib_cu[w][slot] = cu;
                        if self.ib_len[w] == 0 {
                            self.w_head_cu[w] = cu;
                        }
                        if n == 0 {
                            first_pc = inst.pc;
                        }
                        self.w_ib_ready[w] = t + 1;
                        self.ib_wait.insert(w);
                        self.ib_ready_last = t + 1;
                        self.ib_len[w] += 1;
                        self.ib_nonempty.insert(w);
                        n += 1;
                        if inst.family == Family::Bar {
                            self.w_fetch_bar[w] = true;
                            break;
                        }
                    }
                }
            }
            self.fetch_last = w as u32;
            fetched += 1;
            self.progress = true;
            self.issue_dirty = true;
            if n == 0 {
                if self.w_stream_done[w] {
                    self.mark_exited(w);
                }
                continue;
            }
            self.act.decoder_insts += n as u64;
            self.act.ibuffer.writes += n as u64;
            self.act.icache.reads += 1;
            if self.perfect_icache {
                self.act.icache.hits += 1;
                continue;
            }
            let addr = CODE_BASE + first_pc as u64;
            let line = self.icache.line_of(addr);
            let full = self.icache.full_mask();
            if let Probe::Hit { .. } = self.icache.probe(line, full) {
                self.act.icache.hits += 1;
                continue;
            }
            self.act.icache.misses += 1;
            self.w_ifetch_line[w] = line;
            self.w_ib_ready[w] = u64::MAX;
            self.ib_wait.insert(w);
            if !self.icache_pending.contains(&line) {
                self.icache_pending.push(line);
                let tk = self.ldst_tok_ifetch(line);
                let lb = self.icache.line_bytes();
                mem.send(self.id as usize, t_fs, ReqKind::Read, line * lb, lb, tk);
            }
        }
        // With nothing fetched the stage stays idle until an event makes a warp eligible or a
        // fetch delay ends.
        self.fetch_dirty = fetched > 0;
        if fetched == 0 {
            let mut wake = u64::MAX;
            for &w in &scan {
                let w = w as usize;
                if self.fetch_eligible(w) && self.w_fetch_ready[w] > t {
                    wake = wake.min(self.w_fetch_ready[w]);
                }
            }
            self.fetch_wake = wake;
        }
        self.fetch_scan = scan;
        Ok(())
    }

    /// Warp `w` may fetch once its fetch delay has passed: resident, instructions left, empty
    /// I-buffer, not stopped at a barrier, no I-cache miss outstanding.
    #[inline]
    pub(crate) fn fetch_eligible(&self, w: usize) -> bool {
        self.w_valid[w]
            && !self.w_stream_done[w]
            && self.ib_len[w] == 0
            && !self.w_fetch_bar[w]
            && self.w_ifetch_line[w] == u64::MAX
    }

    /// Marks warp `w` as a fetch candidate (the set is a superset of the eligible warps).
    #[inline]
    pub(crate) fn fetch_candidate(&mut self, w: usize) {
        self.fetch_cand.insert(w);
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
            self.act.ldst.global_requests += k;
            self.act.l1d.read.res_fail += k;
            self.act.ldst.stall_cycles += k;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MshrTable;
    use std::collections::HashMap;

    proptest::proptest! {
        /// The indexed table behaves as a map from line to waiter list.
        #[test]
        fn mshr_table_is_a_map(ops in proptest::collection::vec((0u8..3, 0u64..40, 0u32..100), 1..400)) {
            let mut t = MshrTable::default();
            let mut r: HashMap<u64, Vec<u32>> = HashMap::new();
            for (op, line, v) in ops {
                // lines spread over the address space, some colliding in the index
                let line = line.wrapping_mul(0x1_0000_0001) ^ (line << 40);
                match op {
                    0 => {
                        if let Some(w) = t.get_mut(line) {
                            w.push(v);
                            r.get_mut(&line).unwrap().push(v);
                        } else {
                            proptest::prop_assert!(!r.contains_key(&line));
                            t.insert(line, v);
                            r.insert(line, vec![v]);
                        }
                    }
                    1 => {
                        let got = t.remove(line);
                        proptest::prop_assert_eq!(got.clone(), r.remove(&line));
                        if let Some(w) = got {
                            t.recycle(w);
                        }
                    }
                    _ => {
                        proptest::prop_assert_eq!(t.get_mut(line).cloned(), r.get(&line).cloned());
                    }
                }
                proptest::prop_assert_eq!(t.len(), r.len());
            }
            for (line, w) in &r {
                proptest::prop_assert_eq!(t.get_mut(*line).cloned(), Some(w.clone()));
            }
        }
    }
}
