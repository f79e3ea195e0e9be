//! A functional (timing-free) pass of one launch's memory and instruction-fetch traffic through
//! the configured caches and memory system, for the analytical activity source
//! (`--activity-source model`; analytical-model §6 "Hooks for energy and gating models").
//!
//! The analytical scheduling model has no memory hierarchy. This pass gives it one without a
//! cycle loop: the caller feeds every dynamic warp instruction in a deterministic order
//! (its own, stated where it is used), and each access goes through the same mechanisms the
//! timing model uses — coalescing into segments (`ldst::coalesce_warp`; a local access laid
//! out in device memory as `localmem` says), the shared-memory bank-conflict degree
//! (`ldst::smem_degree`), distinct constant addresses, the L1D, constant
//! cache and I-cache tag arrays (`cache::TagArray`, with the configured geometry, replacement,
//! allocation and write policies) and the memory side (`memsys::MemSys`: crossbars, L2 slices,
//! DRAM channels with open rows). What differs from the timing model, by construction:
//!
//! - **No request is ever in flight.** Each request is sent at a notional time far after the
//!   previous one (`SPACING_FS`), so it finds an idle memory system: a miss's fill is complete
//!   before the next access, MSHR merges (`hit_reserved`) and reservation failures
//!   (`res_fail`, `ldst.stall_cycles`) never occur, and the L2 and DRAM see the requests in
//!   the caller's order. Counts of hits, misses, fills, evictions, write-backs, DRAM bursts,
//!   activates and row hits follow from that order alone.
//! - **Latency is the unloaded latency** of the level that served the access (L1D or constant
//!   cache hit latency, or the memory system's round trip with every resource free, measured
//!   by `MemSys` itself); queueing is left to the bandwidth terms of the caller's model.
//! - **I-cache lookups** are one per fetch group the caller reports ([`FuncMem::fetch`]).
//!
//! Nothing here changes the timing model; it only reuses its parts.

use super::cache::{LineState, Probe, TagArray};
use super::exec::{warp_passes, PipeClass};
use super::ldst::{coalesce, coalesce_warp, distinct_addrs, segment_bytes, smem_degree, Segments};
use super::localmem::LocalLayout;
pub use super::memsys::L2State;
use super::memsys::{period_fs, MemSys, ReqKind};
use crate::activity::{
    CacheReads, DramChannelActivity, IcntActivity, L1dActivity, L2SliceActivity, LdstCounts,
    SmActivity, SmemCounts,
};
use crate::config::{AllocPolicy, GpuConfig, WritePolicy};
use crate::inst::{MemSpace, OpClass, WarpInst, WARP_SIZE};
use crate::SimError;

/// Notional time between two requests sent to the memory system, fs (100 µs: longer than any
/// request's unloaded round trip, so each one finds every resource free).
pub const SPACING_FS: u64 = 100_000_000_000;

/// Base address of the instruction space (as the timing model's fetch stage uses).
const CODE_BASE: u64 = 0xFFFF_0000_0000;

/// The memory-side counters of one SM after a pass.
#[derive(Clone, Debug, Default)]
pub struct SmMemCounts {
    /// L1 data cache.
    pub l1d: L1dActivity,
    /// Shared memory.
    pub smem: SmemCounts,
    /// Constant cache.
    pub const_cache: CacheReads,
    /// Texture cache.
    pub tex_cache: CacheReads,
    /// LD/ST unit.
    pub ldst: LdstCounts,
    /// Instruction cache.
    pub icache: CacheReads,
}

/// What one memory instruction cost, for the caller's timing model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemCost {
    /// Cycles from the instruction's acceptance by the LD/ST unit to its data (address
    /// generation, one cycle per request or shared-memory pass, then the slowest request's
    /// unloaded latency), core cycles; 0 without a data access.
    pub latency_cycles: u64,
    /// Cycles the LD/ST unit is busy with it (address generation + one per request or pass),
    /// as the timing model's `LdstUnit::accept` returns.
    pub ldst_cycles: u64,
}

struct SmState {
    l1: TagArray,
    cc: TagArray,
    tc: TagArray,
    ic: TagArray,
    c: SmMemCounts,
}

/// The functional memory pass of one launch (see the module documentation).
pub struct FuncMem {
    sms: Vec<SmState>,
    mem: MemSys,
    t_fs: u64,
    p_core_fs: u64,
    segs: Segments,
    consts: [u64; WARP_SIZE],
    l1_lat: u64,
    l1_alloc: AllocPolicy,
    l1_write: WritePolicy,
    l1_line: u64,
    l1_sector: bool,
    skip_global: bool,
    cc_lat: u64,
    tc_lat: u64,
    /// Texture fetches go through the L1D (a unified L1, `l1d.unified_kb`).
    tex_l1: bool,
    cc_perfect: bool,
    ic_perfect: bool,
    smem_banks: u32,
    smem_bank_bytes: u32,
    smem_lat: u64,
    smem_bcast: bool,
    addr_gen: u64,
    local_layout: LocalLayout,
}

impl FuncMem {
    /// A pass over `cfg`'s memory hierarchy starting from the L2 contents `l2` (cold when
    /// `None` or with `mem.flush_l2_between_launches`), every L1, constant cache and I-cache
    /// empty, as each timing-model launch starts.
    pub fn new(cfg: &GpuConfig, l2: Option<L2State>) -> Self {
        let mut mem = MemSys::new(cfg);
        if let Some(s) = l2 {
            if !cfg.mem.flush_l2_between_launches {
                mem.restore_l2(s);
            }
        }
        let sms = (0..cfg.gpu.n_sm)
            .map(|_| SmState {
                l1: TagArray::new(&cfg.l1d.geometry()),
                cc: TagArray::new(&cfg.const_cache),
                tc: TagArray::new(&cfg.tex_cache),
                ic: TagArray::new(&cfg.icache),
                c: SmMemCounts::default(),
            })
            .collect();
        FuncMem {
            sms,
            mem,
            t_fs: SPACING_FS,
            p_core_fs: period_fs(cfg.gpu.core_mhz),
            segs: Segments::default(),
            consts: [0; WARP_SIZE],
            l1_lat: cfg.l1d.latency as u64,
            l1_alloc: cfg.l1d.alloc,
            l1_write: cfg.l1d.write_policy,
            l1_line: cfg.l1d.line_bytes as u64,
            l1_sector: cfg.l1d.sector_bytes < cfg.l1d.line_bytes,
            skip_global: cfg.l1d.skip_global,
            cc_lat: cfg.const_cache.latency as u64,
            tc_lat: cfg.tex_cache.latency as u64,
            tex_l1: cfg.l1d.unified_kb > 0,
            cc_perfect: cfg.compat.perfect_const_cache,
            ic_perfect: cfg.frontend.perfect_icache,
            smem_banks: cfg.shmem.banks,
            smem_bank_bytes: cfg.shmem.bank_bytes,
            smem_lat: cfg.shmem.latency as u64,
            smem_bcast: cfg.shmem.broadcast,
            addr_gen: warp_passes(cfg, PipeClass::Mem) as u64,
            local_layout: LocalLayout::new(cfg),
        }
    }

    /// Sends one request from `sm` with every resource free; returns its unloaded round trip
    /// in core cycles.
    fn send(&mut self, sm: usize, kind: ReqKind, addr: u64, bytes: u64) -> u64 {
        let t = self.t_fs;
        self.mem.send(sm, t, kind, addr, bytes, 0);
        let back = self.mem.next_reply_fs(sm).unwrap_or(t);
        while self.mem.pop_reply(sm, u64::MAX).is_some() {}
        self.t_fs += SPACING_FS;
        back.saturating_sub(t).div_ceil(self.p_core_fs)
    }

    /// One fetch group of SM `sm` starting at instruction byte offset `pc`: one I-cache
    /// lookup (a miss fetches the line through the memory system and fills it at once).
    pub fn fetch(&mut self, sm: usize, pc: u32) {
        let s = &mut self.sms[sm];
        s.c.icache.reads += 1;
        if self.ic_perfect {
            s.c.icache.hits += 1;
            return;
        }
        let addr = CODE_BASE + pc as u64;
        let line = s.ic.line_of(addr);
        let full = s.ic.full_mask();
        if let Probe::Hit { .. } = s.ic.probe(line, full) {
            s.c.icache.hits += 1;
            return;
        }
        s.c.icache.misses += 1;
        let lb = s.ic.line_bytes();
        if let Some((w, _)) = s.ic.allocate(line, LineState::Valid, 0) {
            s.ic.fill(w, full, 0);
        }
        self.send(sm, ReqKind::Read, line_addr(addr, lb), lb);
    }

    /// One memory instruction of warp slot `warp_slot` of SM `sm` (a `Family::Mem`
    /// instruction with a data access; a membar or an instruction without `mem` costs nothing
    /// here). The warp slot places a local access in device memory ([`LocalLayout`]).
    pub fn access(
        &mut self,
        sm: usize,
        warp_slot: usize,
        inst: &WarpInst,
    ) -> Result<MemCost, SimError> {
        let Some(m) = inst.mem.as_ref() else {
            return Ok(MemCost::default());
        };
        if sm >= self.sms.len() {
            return Err(SimError::Other(format!(
                "functional memory pass: SM {sm} of {}",
                self.sms.len()
            )));
        }
        let mask = inst.active_mask;
        let lanes = mask.count_ones() as u64;
        let is_load = inst.op == OpClass::Load;
        let is_atomic = matches!(inst.op, OpClass::Atomic | OpClass::Reduction);
        let ag = self.addr_gen;
        self.sms[sm].c.ldst.insts += 1;
        match m.space {
            MemSpace::Shared => {
                let d = smem_degree(
                    m,
                    mask,
                    self.smem_banks,
                    self.smem_bank_bytes,
                    self.smem_bcast,
                ) as u64;
                let c = &mut self.sms[sm].c.smem;
                c.accesses += 1;
                c.lanes += lanes;
                c.conflict_extra_cycles += d.saturating_sub(1);
                Ok(MemCost {
                    latency_cycles: ag + d + self.smem_lat,
                    ldst_cycles: ag + d,
                })
            }
            MemSpace::Const | MemSpace::Param => {
                let n = distinct_addrs(m, mask, &mut self.consts);
                let mut worst = 0u64;
                for i in 0..n {
                    let a = self.consts[i];
                    let s = &mut self.sms[sm];
                    s.c.const_cache.reads += 1;
                    if self.cc_perfect {
                        s.c.const_cache.hits += 1;
                        worst = worst.max(1);
                        continue;
                    }
                    let line = s.cc.line_of(a);
                    if let Probe::Hit { .. } = s.cc.probe(line, 1) {
                        s.c.const_cache.hits += 1;
                        worst = worst.max(self.cc_lat);
                        continue;
                    }
                    s.c.const_cache.misses += 1;
                    let lb = s.cc.line_bytes();
                    let full = s.cc.full_mask();
                    if let Some((w, _)) = s.cc.allocate(line, LineState::Valid, 0) {
                        s.cc.fill(w, full, 0);
                    }
                    let lat = self.send(sm, ReqKind::Read, line_addr(a, lb), lb);
                    worst = worst.max(lat + 1);
                }
                Ok(MemCost {
                    latency_cycles: ag + n as u64 + worst,
                    ldst_cycles: ag + n as u64,
                })
            }
            MemSpace::Texture => Ok(self.texture(sm, m, mask)),
            MemSpace::Global | MemSpace::Local => {
                let local = m.space == MemSpace::Local;
                let bypass = (m.space == MemSpace::Global && self.skip_global) || is_atomic;
                let base = if bypass || self.l1_sector {
                    32
                } else {
                    self.l1_line
                };
                let mut segs = std::mem::take(&mut self.segs);
                let seg = segment_bytes(base, m.width_bytes);
                coalesce_warp(m, mask, seg, &self.local_layout, (sm, warp_slot), &mut segs);
                let n = segs.n;
                let mut worst = 0u64;
                for i in 0..n {
                    let a = segs.addr[i];
                    let bytes = segs.bytes[i] as u64;
                    self.sms[sm].c.ldst.global_requests += 1;
                    let lat = if is_atomic {
                        self.sms[sm].c.l1d.bypass += 1;
                        self.send(sm, ReqKind::Atomic, a, bytes.max(4))
                    } else if is_load {
                        self.load(sm, a, bytes, local)
                    } else {
                        self.store(sm, a, bytes, local);
                        0
                    };
                    worst = worst.max(lat);
                }
                self.segs = segs;
                Ok(MemCost {
                    latency_cycles: if is_load || (is_atomic && inst.n_dst > 0) {
                        ag + n as u64 + worst
                    } else {
                        0
                    },
                    ldst_cycles: ag + n as u64,
                })
            }
        }
    }

    /// A texture fetch of SM `sm`: its texels through the L1D in L1 lines (a unified L1,
    /// `l1d.unified_kb`) or through the texture cache, one lookup per line (a miss filled at
    /// once), as the LD/ST unit times it.
    fn texture(&mut self, sm: usize, m: &crate::inst::MemInfo, mask: u32) -> MemCost {
        let ag = self.addr_gen;
        let base = if !self.tex_l1 {
            self.sms[sm].tc.line_bytes()
        } else if self.l1_sector {
            32
        } else {
            self.l1_line
        };
        let mut segs = std::mem::take(&mut self.segs);
        coalesce(m, mask, segment_bytes(base, m.width_bytes), &mut segs);
        let n = segs.n;
        let mut worst = 0u64;
        for i in 0..n {
            let (a, bytes) = (segs.addr[i], segs.bytes[i] as u64);
            let lat = if self.tex_l1 {
                self.sms[sm].c.ldst.global_requests += 1;
                self.load(sm, a, bytes, true)
            } else {
                let s = &mut self.sms[sm];
                s.c.tex_cache.reads += 1;
                let line = s.tc.line_of(a);
                if let Probe::Hit { .. } = s.tc.probe(line, 1) {
                    s.c.tex_cache.hits += 1;
                    self.tc_lat
                } else {
                    s.c.tex_cache.misses += 1;
                    let (lb, full) = (s.tc.line_bytes(), s.tc.full_mask());
                    if let Some((w, _)) = s.tc.allocate(line, LineState::Valid, 0) {
                        s.tc.fill(w, full, 0);
                    }
                    self.send(sm, ReqKind::Read, line_addr(a, lb), lb) + 1
                }
            };
            worst = worst.max(lat);
        }
        self.segs = segs;
        MemCost {
            latency_cycles: ag + n as u64 + worst,
            ldst_cycles: ag + n as u64,
        }
    }

    /// One load segment: bypass, L1D hit, or a miss filled at once (allocation on miss or on
    /// fill as configured, evictions and dirty write-backs counted as the timing model does).
    fn load(&mut self, sm: usize, a: u64, bytes: u64, l1_only: bool) -> u64 {
        if !l1_only && self.skip_global {
            self.sms[sm].c.l1d.bypass += 1;
            return self.send(sm, ReqKind::Read, a, bytes.max(32));
        }
        let s = &mut self.sms[sm];
        let line = s.l1.line_of(a);
        let smask = s.l1.sector_mask(a, bytes.max(1));
        let p = s.l1.probe(line, smask);
        if let Probe::Hit { .. } = p {
            s.c.l1d.read.hit += 1;
            return self.l1_lat;
        }
        s.c.l1d.read.miss += 1;
        let mut writeback = None;
        if self.l1_alloc == AllocPolicy::OnMiss && !matches!(p, Probe::Partial { .. }) {
            if let Some((_, ev)) = s.l1.allocate(line, LineState::Reserved, 0) {
                if ev.line_addr.is_some() {
                    s.c.l1d.evictions += 1;
                }
                if let (Some(ea), true) = (ev.line_addr, ev.dirty != 0) {
                    s.c.l1d.writebacks += 1;
                    writeback = Some(ea);
                }
            }
        }
        let lb = s.l1.line_bytes();
        let (addr, b) = if self.l1_sector {
            (a, bytes.max(32))
        } else {
            (line_addr(a, lb), lb)
        };
        if let Some(ea) = writeback {
            let l1_line = self.l1_line;
            self.send(sm, ReqKind::Write, ea, l1_line);
        }
        let lat = self.send(sm, ReqKind::Read, addr, b);
        // the fill, at once
        let s = &mut self.sms[sm];
        let full = s.l1.full_mask();
        let way = match s.l1.find(line) {
            Some(w) => Some(w),
            None => s.l1.allocate(line, LineState::Valid, 0).map(|(w, ev)| {
                if ev.line_addr.is_some() {
                    s.c.l1d.evictions += 1;
                }
                w
            }),
        };
        if let Some(w) = way {
            s.l1.fill(w, full, 0);
            s.c.l1d.fills += 1;
        }
        lat + 1
    }

    /// One store segment, with the L1D write policy of the timing model.
    fn store(&mut self, sm: usize, a: u64, bytes: u64, local: bool) {
        let s = &mut self.sms[sm];
        let write_back_local = local
            && matches!(
                self.l1_write,
                WritePolicy::LocalWbGlobalWt | WritePolicy::Wb
            );
        let hit = s.l1.store(a, bytes, write_back_local);
        if hit {
            s.c.l1d.write.hit += 1;
        } else {
            s.c.l1d.write.miss += 1;
        }
        if !(hit && write_back_local) {
            self.send(sm, ReqKind::Write, a, bytes.max(1));
        }
    }

    /// Ends the pass: the per-SM counters, the L2 slices', DRAM channels' and interconnect's
    /// counters, and the L2 contents for the next launch.
    pub fn finish(
        mut self,
    ) -> (
        Vec<SmMemCounts>,
        Vec<L2SliceActivity>,
        Vec<DramChannelActivity>,
        IcntActivity,
        L2State,
    ) {
        let l2 = self.mem.take_l2();
        (
            self.sms.into_iter().map(|s| s.c).collect(),
            std::mem::take(&mut self.mem.l2_act),
            std::mem::take(&mut self.mem.dram_act),
            std::mem::take(&mut self.mem.icnt_act),
            l2,
        )
    }
}

fn line_addr(a: u64, lb: u64) -> u64 {
    a / lb.max(1) * lb.max(1)
}

/// A host-to-device copy between launches, as [`super::TimingGpu`] applies it to the L2
/// contents it carries (`mem.memcpy_fills_l2`).
pub fn copy_between_launches(cfg: &GpuConfig, l2: &mut Option<L2State>, addr: u64, bytes: u64) {
    MemSys::copy_between_launches(cfg, l2, addr, bytes);
}

/// The zeroed per-SM record of `cfg` as the timing model lays it out (schedulers, register
/// banks, collector classes, pipe instances with their lanes and timelines), taken from an SM
/// built with the configuration's built-in policies.
pub fn sm_activity_template(cfg: &GpuConfig) -> Result<SmActivity, SimError> {
    let p = super::registry::PolicyRegistry::new()
        .resolve(cfg, &super::registry::Selection::default())?;
    let mut sm = super::sm::Sm::with_policies(0, cfg, 0, p.sm_policies(cfg, 0));
    Ok(sm.activity(0))
}
