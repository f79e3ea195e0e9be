//! The SM's LD/ST unit (spec simulator.md §2.6, §2.7): its state and counters, the acceptance
//! of a memory instruction (coalescing into segments, shared-memory bank-conflict degree,
//! distinct constant addresses), the constant cache, the L1 data cache and its MSHR table. The
//! per-cycle request issue and the reply handling (`Sm::ldst_cycle`, `Sm::replies`, in
//! `sm/memory.rs`) drive this state together with the writeback queue and the warp state.

use super::cache::TagArray;
use super::ldst::{coalesce, distinct_addrs, segment_bytes, smem_degree, Segments};
use super::tinst::TInst;
use crate::activity::{CacheReads, L1dActivity, LdstCounts, SmemCounts};
use crate::config::{AllocPolicy, GpuConfig, WritePolicy};
use crate::inst::{MemInfo, MemSpace, OpClass, WARP_SIZE};

#[derive(Clone, Copy, Debug)]
pub(crate) enum Tok {
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
pub(crate) struct LoadInst {
    pub(crate) warp: u16,
    pub(crate) n_dst: u8,
    pub(crate) dst: [u16; 4],
    pub(crate) lanes: u8,
    pub(crate) remaining: u32,
    pub(crate) done_at: u64,
    pub(crate) all_sent: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum JobKind {
    Shared,
    Const,
    GlobalLoad,
    GlobalStore,
    Atomic,
}

pub(crate) struct Job {
    pub(crate) warp: u16,
    pub(crate) kind: JobKind,
    pub(crate) local: bool,
    /// First cycle a request may go out (after address generation).
    pub(crate) next_at: u64,
    pub(crate) next: usize,
    pub(crate) n: usize,
    pub(crate) load: Option<u32>,
}

pub(crate) struct LdstUnit {
    pub(crate) job: Option<Job>,
    /// The job's last request failed to reserve an L1D MSHR or line. Until a memory reply
    /// frees one, every retry fails the same way (counting `ldst.global_requests`,
    /// `l1d.read.res_fail` and `ldst.stall_cycles` once per cycle), so the SM may sleep and
    /// replay those counts ([`Sm::replay_ldst`]).
    pub(crate) retry_blocked: bool,
    pub(crate) segs: Segments,
    pub(crate) consts: [u64; WARP_SIZE],
    pub(crate) l1: TagArray,
    pub(crate) l1_lat: u64,
    pub(crate) l1_alloc: AllocPolicy,
    pub(crate) l1_write: WritePolicy,
    pub(crate) l1_line: u64,
    pub(crate) l1_sector: bool,
    pub(crate) skip_global: bool,
    pub(crate) mshr: MshrTable,
    pub(crate) mshr_cap: usize,
    pub(crate) mshr_merge: usize,
    pub(crate) cc: TagArray,
    pub(crate) cc_lat: u64,
    pub(crate) smem_banks: u32,
    pub(crate) smem_bank_bytes: u32,
    pub(crate) smem_lat: u64,
    pub(crate) smem_bcast: bool,
    pub(crate) job_lanes: u32,
    pub(crate) toks: Vec<Tok>,
    pub(crate) free_toks: Vec<u32>,
    pub(crate) loads: Vec<LoadInst>,
    pub(crate) free_loads: Vec<u32>,
    pub(crate) l1d_act: L1dActivity,
    pub(crate) smem_act: SmemCounts,
    pub(crate) const_act: CacheReads,
    pub(crate) ldst_act: LdstCounts,
}

/// The L1D miss-status holding registers: one entry per line with an outstanding fill and the
/// loads waiting for it. Entries live in a dense list (no order is observable) and are found by
/// line through an open-addressing index: linear probing, backward-shift deletion, at most a
/// quarter full.
#[derive(Default)]
pub(crate) struct MshrTable {
    lines: Vec<u64>,
    waiters: Vec<Vec<u32>>,
    spare: Vec<Vec<u32>>,
    /// Position in `lines` + 1 per slot, 0 when empty; the length is a power of two.
    index: Vec<u32>,
}

impl MshrTable {
    pub(crate) fn len(&self) -> usize {
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
    pub(crate) fn get_mut(&mut self, line: u64) -> Option<&mut Vec<u32>> {
        if self.lines.is_empty() {
            return None;
        }
        let (i, found) = self.slot(line);
        found.then(|| &mut self.waiters[self.index[i] as usize - 1])
    }
    pub(crate) fn insert(&mut self, line: u64, first: u32) {
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
    pub(crate) fn remove(&mut self, line: u64) -> Option<Vec<u32>> {
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
    pub(crate) fn recycle(&mut self, v: Vec<u32>) {
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
        }
    }

    pub fn can_accept(&self) -> bool {
        self.job.is_none()
    }

    pub(crate) fn tok(&mut self, t: Tok) -> u32 {
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

    pub(crate) fn new_load(&mut self, l: LoadInst) -> u32 {
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
