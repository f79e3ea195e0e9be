//! The SM's LD/ST unit (spec simulator.md §2.6, §2.7): its state and counters, the acceptance
//! of a memory instruction (coalescing into segments, shared-memory bank-conflict degree,
//! distinct constant addresses), the constant cache, the L1 data cache and its MSHR table. The
//! per-cycle request issue and the reply handling (`Sm::ldst_cycle`, `Sm::replies`, in
//! `sm/memory.rs`) drive this state together with the writeback queue and the warp state.

use super::cache::{LineState, Probe, TagArray};
use super::ldst::{coalesce, distinct_addrs, segment_bytes, smem_degree, Segments};
use super::memsys::{MemSys, ReqKind};
use super::tinst::TInst;
use crate::activity::{CacheReads, L1dActivity, LdstCounts, SmemCounts};
use crate::config::{AllocPolicy, GpuConfig, WritePolicy};
use crate::inst::{MemInfo, MemSpace, OpClass, WARP_SIZE};

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

/// A finished LD/ST instruction, for the writeback queue (the SM gives it its sequence
/// number).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Done {
    pub ready: u64,
    pub warp: u16,
    pub n_dst: u8,
    pub dst: [u16; 4],
    pub lanes: u8,
}

/// What an LD/ST cycle or a memory reply did that concerns the rest of the SM, in order.
#[derive(Default)]
pub(crate) struct LdstEvents {
    /// Instructions finished, in the order they finished.
    pub done: Vec<Done>,
    /// One entry per request sent whose acknowledgement the warp must wait for (stores,
    /// atomics without a result, dirty-line write-backs).
    pub acks: Vec<u16>,
    /// The unit's state changed.
    pub progress: bool,
}

impl LdstEvents {
    /// Forgets the events (keeping the buffers).
    #[inline]
    pub fn clear(&mut self) {
        self.done.clear();
        self.acks.clear();
        self.progress = false;
    }
}

/// A memory reply as the LD/ST unit sorts it.
pub(crate) enum Reply {
    /// An L1D or constant fill or a load part: handled, finished loads in the events.
    Loads,
    /// A write acknowledgement for the warp.
    StoreAck(u16),
    /// An I-cache fill of the line (for the front end).
    IFetch(u64),
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
    l1d_act: L1dActivity,
    smem_act: SmemCounts,
    const_act: CacheReads,
    ldst_act: LdstCounts,
    events: LdstEvents,
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
            l1d_act: L1dActivity::default(),
            smem_act: SmemCounts::default(),
            const_act: CacheReads::default(),
            ldst_act: LdstCounts::default(),
            events: LdstEvents::default(),
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

impl LdstUnit {
    /// One LD/ST cycle of SM `sm`: sends at most one request (or performs one pass) of the
    /// current job. Returns whether there was work this cycle (its effects on the rest of the
    /// SM are then in [`LdstUnit::events_mut`]).
    #[inline]
    pub fn cycle(&mut self, sm: usize, t: u64, t_fs: u64, mem: &mut MemSys) -> bool {
        match &self.job {
            Some(j) if j.next_at <= t => {
                self.step(sm, t, t_fs, mem);
                true
            }
            _ => false,
        }
    }

    fn step(&mut self, sm: usize, t: u64, t_fs: u64, mem: &mut MemSys) {
        let job = self.job.as_ref().expect("job");
        let (warp, kind, local, i, n, load) =
            (job.warp, job.kind, job.local, job.next, job.n, job.load);
        if i >= n {
            self.finish_job_if_done(t, t + 1);
            return;
        }
        let u = &mut *self;
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
                                                    u.events.acks.push(warp);
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
                    u.events.acks.push(warp);
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
                        u.events.acks.push(warp);
                        mem.send(sm, t_fs, ReqKind::Atomic, a, bytes.max(4), tk);
                    }
                }
            }
        }
        if !sent {
            // a reservation failure is retried every cycle and counted each time; it changes
            // nothing else (a repeated probe only re-touches the most recent line of its set)
            self.ldst_act.stall_cycles += 1;
            self.retry_blocked = true;
            return;
        }
        self.retry_blocked = false;
        self.events.progress = true;
        let j = self.job.as_mut().expect("job");
        j.next += 1;
        j.next_at = t + 1;
        self.finish_job_if_done(t, t + 1);
    }

    /// When every request of the job is out: release the unit, retire stores, and mark loads
    /// fully sent (they write back when their last part arrives).
    fn finish_job_if_done(&mut self, t: u64, done: u64) {
        let Some(j) = self.job.as_ref() else {
            return;
        };
        if j.next < j.n {
            return;
        }
        let (warp, load) = (j.warp, j.load);
        self.job = None;
        self.ldst_act.insts += 1;
        match load {
            Some(l) => {
                self.loads[l as usize].all_sent = true;
                self.try_complete_load(l, t);
            }
            None => {
                // stores (and accesses without data) retire from the pipeline now; their
                // acknowledgements are tracked in w_mem_out
                self.events.done.push(Done {
                    ready: done.max(t + 1),
                    warp,
                    n_dst: 0,
                    dst: [0; 4],
                    lanes: 0,
                });
            }
        }
    }

    fn try_complete_load(&mut self, l: u32, t: u64) {
        let li = self.loads[l as usize];
        if !li.all_sent || li.remaining > 0 {
            return;
        }
        self.events.done.push(Done {
            ready: li.done_at.max(t + 1),
            warp: li.warp,
            n_dst: li.n_dst,
            dst: li.dst,
            lanes: li.lanes,
        });
        self.free_loads.push(l);
    }

    /// Handles the memory reply carrying token `tk` at cycle `t`: L1D and constant-cache
    /// fills complete the loads waiting for them (results in [`LdstUnit::events_mut`]); a
    /// store acknowledgement or an I-cache fill is for the rest of the SM.
    pub fn reply(&mut self, tk: u32, t: u64) -> Reply {
        let tok = self.toks[tk as usize];
        self.free_toks.push(tk);
        match tok {
            Tok::Mshr { line } => {
                let u = &mut *self;
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
                let waiters = self.mshr.remove(line).unwrap_or_default();
                for &l in &waiters {
                    let li = &mut self.loads[l as usize];
                    li.remaining -= 1;
                    li.done_at = li.done_at.max(t + 1);
                    self.try_complete_load(l, t);
                }
                self.mshr.recycle(waiters);
            }
            Tok::Load { load, const_line } => {
                if let Some(line) = const_line {
                    let u = &mut *self;
                    let full = u.cc.full_mask();
                    if u.cc.find(line).is_none() {
                        if let Some((w, _)) = u.cc.allocate(line, LineState::Valid, t) {
                            u.cc.fill(w, full, t);
                        }
                    }
                }
                let li = &mut self.loads[load as usize];
                li.remaining -= 1;
                li.done_at = li.done_at.max(t + 1);
                self.try_complete_load(load, t);
            }
            Tok::Store { warp } => return Reply::StoreAck(warp),
            Tok::IFetch { line } => return Reply::IFetch(line),
        }
        Reply::Loads
    }

    /// A memory token for an I-cache fill of `line`.
    pub fn tok_ifetch(&mut self, line: u64) -> u32 {
        self.tok(Tok::IFetch { line })
    }

    /// Earliest cycle after `t` at which the unit has work of its own (none while its job
    /// waits for a memory reply to free a reservation).
    pub fn next_event(&self, t: u64) -> Option<u64> {
        if self.retry_blocked {
            return None;
        }
        self.job.as_ref().map(|j| j.next_at.max(t + 1))
    }

    /// Counters of `k` cycles in which the unit would have retried its blocked request.
    pub fn replay(&mut self, k: u64) {
        if self.retry_blocked && self.job.is_some() {
            self.ldst_act.global_requests += k;
            self.l1d_act.read.res_fail += k;
            self.ldst_act.stall_cycles += k;
        }
    }

    /// The effects of the last [`LdstUnit::cycle`] or [`LdstUnit::reply`] on the rest of the
    /// SM, to be applied and then cleared ([`LdstEvents::clear`]).
    #[inline]
    pub fn events_mut(&mut self) -> &mut LdstEvents {
        &mut self.events
    }

    /// The unit's counters: L1D, shared memory, constant cache, LD/ST.
    pub fn counters(&self) -> (L1dActivity, SmemCounts, CacheReads, LdstCounts) {
        (self.l1d_act, self.smem_act, self.const_act, self.ldst_act)
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
