//! The SM's LD/ST unit (simulator §2.6, §2.7): its state and counters, the acceptance
//! of a memory instruction (coalescing into segments, shared-memory bank-conflict degree,
//! distinct constant addresses), the constant cache, the L1 data cache and its MSHR table
//! (`mshr`), the per-cycle request issue (`request`) and the handling of memory replies. What
//! concerns the rest of the SM (finished instructions, outstanding acknowledgements) is handed
//! over as [`LdstEvents`], which `Sm::ldst_cycle` and `Sm::replies` apply.

mod mshr;
mod request;

use super::cache::{LineState, TagArray};
use super::exec::{warp_passes, PipeClass};
use super::ldst::{coalesce, coalesce_warp, distinct_addrs, segment_bytes, smem_degree, Segments};
use super::localmem::LocalLayout;
use super::tinst::TInst;
use crate::activity::{CacheReads, L1dActivity, LdstCounts, SmemCounts};
use crate::config::{AllocPolicy, GpuConfig, WritePolicy};
use crate::inst::{MemInfo, MemSpace, OpClass, WARP_SIZE};
use mshr::MshrTable;

#[derive(Clone, Copy, Debug)]
enum Tok {
    /// Fill of an L1 MSHR entry for `line`.
    Mshr { line: u64 },
    /// A part of load `load` (bypass or atomic).
    Load { load: u32 },
    /// Fill of a constant-cache MSHR entry for `line`.
    ConstFill { line: u64 },
    /// Fill of a texture-cache MSHR entry for `line`.
    TexFill { line: u64 },
    /// A store's write acknowledgement.
    Store { warp: u16 },
    /// An I-cache fill.
    IFetch { line: u64 },
}

#[derive(Clone, Copy, Debug, Default)]
struct LoadInst {
    warp: u16,
    tag: u16,
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
    /// A texture fetch through the texture cache (without a unified L1).
    Tex,
    GlobalLoad,
    GlobalStore,
    Atomic,
}

struct Job {
    warp: u16,
    tag: u16,
    kind: JobKind,
    local: bool,
    /// A texture fetch: through the L1D it never bypasses it (`l1d.skip_global` is about
    /// global loads).
    tex: bool,
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
    pub tag: u16,
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
    /// The blocked request is a constant- or texture-cache access (its retries count only
    /// stall cycles).
    retry_const: bool,
    segs: Segments,
    consts: [u64; WARP_SIZE],
    l1: TagArray,
    l1_lat: u64,
    l1_alloc: AllocPolicy,
    l1_write: WritePolicy,
    l1_line: u64,
    l1_sector: bool,
    skip_global: bool,
    /// How local memory is laid out in device memory ([`LocalLayout`]).
    local_layout: LocalLayout,
    /// This unit's SM (for the thread slots of its warps' local accesses).
    sm: usize,
    mshr: MshrTable,
    mshr_cap: usize,
    mshr_merge: usize,
    /// The constant cache.
    cc: RoCache,
    /// `compat.perfect_const_cache`: every constant access hits, all in one cycle, no latency.
    cc_perfect: bool,
    /// The texture cache (used without a unified L1).
    tc: RoCache,
    /// Texture fetches go through the L1D: the L1 is the unified L1/texture/shared array of
    /// Volta and later (`l1d.unified_kb` > 0), which has no texture cache of its own.
    tex_l1: bool,
    smem_banks: u32,
    smem_bank_bytes: u32,
    smem_lat: u64,
    smem_bcast: bool,
    /// Address-generation cycles of a memory instruction before its first request or
    /// shared-memory pass: ⌈32 / `units.ldst_lanes`⌉ ([`crate::timing::exec::warp_passes`]).
    addr_gen_cycles: u64,
    job_lanes: u32,
    toks: Vec<Tok>,
    free_toks: Vec<u32>,
    loads: Vec<LoadInst>,
    free_loads: Vec<u32>,
    l1d_act: L1dActivity,
    smem_act: SmemCounts,
    ldst_act: LdstCounts,
    events: LdstEvents,
}

/// A read-only cache of the LD/ST unit (the constant and the texture cache): its tags,
/// hit latency, miss-status holding registers (misses to a line with a fill in flight wait
/// for that fill instead of sending their own request, simulator §2.7) and lookup counters.
struct RoCache {
    tags: TagArray,
    lat: u64,
    mshr: MshrTable,
    cap: usize,
    merge: usize,
    act: CacheReads,
}

impl RoCache {
    fn new(c: &crate::config::CacheConfig) -> Self {
        RoCache {
            tags: TagArray::new(c),
            lat: c.latency as u64,
            mshr: MshrTable::default(),
            cap: c.mshr_entries.max(1) as usize,
            merge: c.mshr_merge.max(1) as usize,
            act: CacheReads::default(),
        }
    }
}

impl LdstUnit {
    /// The LD/ST unit of SM `sm` of `cfg`.
    pub fn new(cfg: &GpuConfig, sm: usize) -> Self {
        let l1 = cfg.l1d.geometry();
        LdstUnit {
            job: None,
            retry_blocked: false,
            retry_const: false,
            segs: Segments::default(),
            consts: [0; WARP_SIZE],
            l1: TagArray::new(&l1),
            l1_lat: cfg.l1d.latency as u64,
            l1_alloc: cfg.l1d.alloc,
            l1_write: cfg.l1d.write_policy,
            l1_line: cfg.l1d.line_bytes as u64,
            l1_sector: cfg.l1d.sector_bytes < cfg.l1d.line_bytes,
            skip_global: cfg.l1d.skip_global,
            local_layout: LocalLayout::new(cfg),
            sm,
            mshr: MshrTable::default(),
            mshr_cap: cfg.l1d.mshr_entries as usize,
            mshr_merge: cfg.l1d.mshr_merge as usize,
            cc: RoCache::new(&cfg.const_cache),
            cc_perfect: cfg.compat.perfect_const_cache,
            tc: RoCache::new(&cfg.tex_cache),
            tex_l1: cfg.l1d.unified_kb > 0,
            smem_banks: cfg.shmem.banks,
            smem_bank_bytes: cfg.shmem.bank_bytes,
            smem_lat: cfg.shmem.latency as u64,
            smem_bcast: cfg.shmem.broadcast,
            addr_gen_cycles: warp_passes(cfg, PipeClass::Mem) as u64,
            job_lanes: 0,
            toks: Vec::new(),
            free_toks: Vec::new(),
            loads: Vec::new(),
            free_loads: Vec::new(),
            l1d_act: L1dActivity::default(),
            smem_act: SmemCounts::default(),
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
    ///
    /// Address generation takes one cycle per pass of the unit's lanes over the warp,
    /// ⌈32 / `units.ldst_lanes`⌉ cycles (1 for 32 lanes, 2 for the 16 lanes of GTX480): the
    /// first request or shared-memory pass goes out that many cycles after accept. An
    /// instruction without a data access generates no addresses and takes one cycle.
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
                tag: inst.tag,
                kind: JobKind::Shared,
                local: false,
                tex: false,
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
            MemSpace::Texture if self.tex_l1 => {
                // texels through the L1D, in its lines (or sectors)
                let base = if self.l1_sector { 32 } else { self.l1_line };
                coalesce(m, mask, segment_bytes(base, m.width_bytes), &mut self.segs);
                (JobKind::GlobalLoad, self.segs.n)
            }
            MemSpace::Texture => {
                // one texture-cache lookup per line the warp's texels touch
                let lb = self.tc.tags.line_bytes();
                coalesce(m, mask, segment_bytes(lb, m.width_bytes), &mut self.segs);
                (JobKind::Tex, self.segs.n)
            }
            MemSpace::Global | MemSpace::Local => {
                let bypass = (m.space == MemSpace::Global && self.skip_global) || is_atomic;
                let base = if bypass || self.l1_sector {
                    32
                } else {
                    self.l1_line
                };
                let seg = segment_bytes(base, m.width_bytes);
                let at = (self.sm, warp as usize);
                coalesce_warp(m, mask, seg, &self.local_layout, at, &mut self.segs);
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
                tag: inst.tag,
                n_dst: nd as u8,
                dst,
                lanes: mask.count_ones() as u8,
                remaining: 0,
                done_at: t + self.addr_gen_cycles,
                all_sent: false,
            }))
        } else {
            None
        };
        self.job = Some(Job {
            warp,
            tag: inst.tag,
            kind,
            local: m.space == MemSpace::Local,
            tex: m.space == MemSpace::Texture,
            next_at: t + self.addr_gen_cycles,
            next: 0,
            n,
            load,
        });
        self.addr_gen_cycles + n as u64
    }
}

impl LdstUnit {
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
            Tok::ConstFill { line } => self.ro_fill(false, line, t),
            Tok::TexFill { line } => self.ro_fill(true, line, t),
            Tok::Load { load } => {
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

    /// The fill of `line` into the texture cache (`tex`) or the constant cache: allocates
    /// and fills the line and completes the loads waiting in its MSHR entry.
    fn ro_fill(&mut self, tex: bool, line: u64, t: u64) {
        let c = if tex { &mut self.tc } else { &mut self.cc };
        let full = c.tags.full_mask();
        if c.tags.find(line).is_none() {
            if let Some((w, _)) = c.tags.allocate(line, LineState::Valid, t) {
                c.tags.fill(w, full, t);
            }
        }
        let waiters = c.mshr.remove(line).unwrap_or_default();
        for &l in &waiters {
            let li = &mut self.loads[l as usize];
            li.remaining -= 1;
            li.done_at = li.done_at.max(t + 1);
            self.try_complete_load(l, t);
        }
        let c = if tex { &mut self.tc } else { &mut self.cc };
        c.mshr.recycle(waiters);
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
            if !self.retry_const {
                self.ldst_act.global_requests += k;
                self.l1d_act.read.res_fail += k;
            }
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
        (self.l1d_act, self.smem_act, self.cc.act, self.ldst_act)
    }

    /// The texture cache's lookups (none when texture fetches go through the L1D).
    pub fn tex_counters(&self) -> CacheReads {
        self.tc.act
    }
}
