//! Warp formation structures of dynamic warp formation (control-flow spec §5.1–§5.3, after
//! W. Fung, *Dynamic Warp Formation*, MASc thesis, UBC 2008): the warp pool with its
//! allocator (a free list of pool indices), the set-associative PC-warp LUT, and the formation
//! step run for each warp that reaches write-back.
//!
//! Formation, per group of threads sharing a next PC `p` with slot vector `REQ`:
//! 1. look `p` up in the PC-warp LUT; on a miss allocate an entry (LRU victim when the set is
//!    full), take `IDX` from the allocator, `OCC = 0`;
//! 2. `CNF = REQ & OCC`; a conflict (`CNF != 0`) takes a second index `IDX'`;
//! 3. threads of non-conflicting slots join warp `IDX`, the others warp `IDX'`;
//! 4. with a conflict the LUT entry points at `IDX'` with `OCC = CNF`; else `OCC |= REQ`.
//!
//! Slots: with `lane_aware` a thread occupies its home slot `home(tid) = (tid mod w) XOR
//! swz(tid)`, `swz = (tid div w) mod 2` with swizzling, so a warp never holds two threads of
//! one home slot. Without it any thread takes the lowest free slot (a register crossbar is
//! assumed) and the register read stalls on home-slot conflicts (§5.1).

pub use crate::activity::FormationStats;

/// Home slot of core-local thread `tid` in warps of `w` lanes (§5.1).
pub fn home_slot(tid: u32, w: u32, swizzle: bool) -> u32 {
    let s = tid % w;
    if swizzle {
        s ^ ((tid / w) % 2)
    } else {
        s
    }
}

/// A thread held in a pool warp: the CTA slot on the core and the thread within the CTA, plus
/// its core-local id (for the home slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tid {
    /// CTA index (caller-defined, e.g. the CTA's id in the grid).
    pub cta: u32,
    /// Thread index within the CTA.
    pub thread: u32,
    /// Core-local thread id (home slot and bank derive from it).
    pub core_tid: u32,
}

/// One warp of the pool.
#[derive(Clone, Debug)]
pub struct PoolWarp {
    /// PC shared by its threads.
    pub pc: u32,
    /// Thread per slot.
    pub slots: Vec<Option<Tid>>,
    /// Threads held (`nthd`).
    pub nthd: u32,
    /// Majority-list successor (scheduler data).
    pub next: Option<u32>,
    /// Creation order (DTime key, DPC tie-break).
    pub created: u64,
    /// In use (not on the free list).
    pub live: bool,
}

#[derive(Clone, Copy, Debug)]
struct LutEntry {
    pc: u32,
    occ: u32,
    idx: u32,
    stamp: u64,
}

/// The warp pool, its allocator and the PC-warp LUT of one core.
#[derive(Clone, Debug)]
pub struct Former {
    /// Warp width `w`.
    pub w: u32,
    /// Pool warps by index.
    pub pool: Vec<PoolWarp>,
    free: Vec<u32>,
    /// LUT sets × ways (`None` ways empty); one set and unbounded ways when infinite.
    lut: Vec<Vec<LutEntry>>,
    lut_ways: usize,
    lane_aware: bool,
    swizzle: bool,
    infinite: bool,
    stamp: u64,
    created: u64,
    /// Counters.
    pub stats: FormationStats,
}

/// A pool warp that received threads in a formation step: the policy is told
/// `insert(pc, nthd_added, wid)` (§5.3 step 2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inserted {
    /// PC of the warp.
    pub pc: u32,
    /// Threads added.
    pub nthd: u32,
    /// Pool index.
    pub wid: u32,
}

impl Former {
    /// A pool of `pool_entries` warps of `w` lanes and a PC-warp LUT of `lut_entries` entries in
    /// `lut_ways`-way sets; `infinite` lifts both size limits.
    pub fn new(
        w: u32,
        pool_entries: u32,
        lut_entries: u32,
        lut_ways: u32,
        lane_aware: bool,
        swizzle: bool,
        infinite: bool,
    ) -> Self {
        let nsets = if infinite {
            1
        } else {
            (lut_entries / lut_ways.max(1)).max(1)
        };
        let mut f = Former {
            w,
            pool: Vec::new(),
            free: Vec::new(),
            lut: vec![Vec::new(); nsets as usize],
            lut_ways: if infinite {
                usize::MAX
            } else {
                lut_ways.max(1) as usize
            },
            lane_aware,
            swizzle,
            infinite,
            stamp: 0,
            created: 0,
            stats: FormationStats {
                tid_bank_writes: vec![0; w as usize],
                ..Default::default()
            },
        };
        if !infinite {
            for _ in 0..pool_entries {
                f.grow();
            }
            f.free.reverse();
        }
        f
    }

    fn grow(&mut self) -> u32 {
        let i = self.pool.len() as u32;
        self.pool.push(PoolWarp {
            pc: 0,
            slots: vec![None; self.w as usize],
            nthd: 0,
            next: None,
            created: 0,
            live: false,
        });
        self.free.push(i);
        i
    }

    /// Free pool entries (unbounded when infinite).
    pub fn free_entries(&self) -> usize {
        if self.infinite {
            usize::MAX
        } else {
            self.free.len()
        }
    }

    /// Live pool warps.
    pub fn live_warps(&self) -> u32 {
        self.pool.iter().filter(|p| p.live).count() as u32
    }

    /// Live pool warps, from the allocator (every index is live or on the free list): the
    /// per-cycle occupancy sample, O(1).
    pub fn occupied_entries(&self) -> usize {
        self.pool.len() - self.free.len()
    }

    /// Valid PC-warp LUT entries.
    pub fn lut_entries(&self) -> usize {
        self.lut.iter().map(Vec::len).sum()
    }

    fn alloc(&mut self, pc: u32) -> u32 {
        if self.free.is_empty() {
            self.grow();
        }
        let i = self.free.pop().expect("free entry");
        self.stats.alloc_pops += 1;
        self.stats.pc_bank_writes += 1;
        self.created += 1;
        let p = &mut self.pool[i as usize];
        p.pc = pc;
        p.slots.iter_mut().for_each(|s| *s = None);
        p.nthd = 0;
        p.next = None;
        p.created = self.created;
        p.live = true;
        let n = self.live_warps();
        self.stats.max_pool_occupancy = self.stats.max_pool_occupancy.max(n);
        i
    }

    fn set_of(&self, pc: u32) -> usize {
        // hash of the PC: the low bits of the instruction index mixed with the higher ones
        let h = pc ^ (pc >> 7) ^ (pc >> 13);
        (h as usize) % self.lut.len()
    }

    /// Pool entries one formation of `groups` groups may need (two per group, §5.3).
    pub fn entries_needed(groups: usize) -> usize {
        2 * groups
    }

    /// Slot of `t` and the slot vector of a group, per the lane-awareness mode.
    fn home(&self, t: &Tid) -> u32 {
        home_slot(t.core_tid, self.w, self.swizzle)
    }

    /// Forms warps from one group of threads that share next PC `pc` (at most `w` threads, and
    /// with lane awareness at most one per home slot: an incoming warp never holds two). The
    /// caller checks [`Former::free_entries`] ≥ 2 first (write-back otherwise stalls, §5.3
    /// step 3). Returns the pool warps that received threads.
    pub fn insert_group(&mut self, pc: u32, tids: &[Tid], out: &mut Vec<Inserted>) {
        if tids.is_empty() {
            return;
        }
        self.stamp += 1;
        self.stats.lut_lookups += 1;
        let set = self.set_of(pc);
        let stamp = self.stamp;
        let hit = self.lut[set].iter().position(|e| e.pc == pc);
        let way = match hit {
            Some(k) => {
                self.stats.lut_hits += 1;
                self.lut[set][k].stamp = stamp;
                k
            }
            None => {
                self.stats.lut_misses += 1;
                let idx = self.alloc(pc);
                let e = LutEntry {
                    pc,
                    occ: 0,
                    idx,
                    stamp,
                };
                if self.lut[set].len() < self.lut_ways {
                    self.lut[set].push(e);
                    self.lut[set].len() - 1
                } else {
                    // LRU victim: its pool warp stays issuable but receives no more threads
                    let k = (0..self.lut[set].len())
                        .min_by_key(|&k| self.lut[set][k].stamp)
                        .expect("non-empty set");
                    self.lut[set][k] = e;
                    k
                }
            }
        };
        let LutEntry { occ, idx, .. } = self.lut[set][way];
        if self.lane_aware {
            let mut req = 0u32;
            for t in tids {
                req |= 1 << self.home(t);
            }
            let cnf = req & occ;
            let idx2 = (cnf != 0).then(|| {
                self.stats.new_warp_events += 1;
                self.alloc(pc)
            });
            let (mut n1, mut n2) = (0u32, 0u32);
            for t in tids {
                let s = self.home(t);
                self.stats.tid_bank_writes[s as usize] += 1;
                let target = if cnf >> s & 1 != 0 {
                    n2 += 1;
                    idx2.expect("second index")
                } else {
                    n1 += 1;
                    idx
                };
                self.pool[target as usize].slots[s as usize] = Some(*t);
            }
            let e = &mut self.lut[set][way];
            match idx2 {
                Some(i2) => {
                    e.idx = i2;
                    e.occ = cnf;
                }
                None => e.occ |= req,
            }
            if n1 > 0 {
                self.pool[idx as usize].nthd += n1;
                out.push(Inserted {
                    pc,
                    nthd: n1,
                    wid: idx,
                });
            }
            if let Some(i2) = idx2 {
                self.pool[i2 as usize].nthd = n2;
                out.push(Inserted {
                    pc,
                    nthd: n2,
                    wid: i2,
                });
            }
        } else {
            // any thread takes the lowest free slot; the overflow opens a new warp
            let free = !occ & self.full_mask();
            let fits = (free.count_ones() as usize).min(tids.len());
            let idx2 = (fits < tids.len()).then(|| {
                self.stats.new_warp_events += 1;
                self.alloc(pc)
            });
            let mut f = free;
            let mut occ1 = occ;
            let mut occ2 = 0u32;
            for (k, t) in tids.iter().enumerate() {
                let (target, s) = if k < fits {
                    let s = f.trailing_zeros();
                    f &= f - 1;
                    occ1 |= 1 << s;
                    (idx, s)
                } else {
                    let s = (k - fits) as u32;
                    occ2 |= 1 << s;
                    (idx2.expect("second index"), s)
                };
                self.stats.tid_bank_writes[s as usize] += 1;
                self.pool[target as usize].slots[s as usize] = Some(*t);
            }
            let e = &mut self.lut[set][way];
            match idx2 {
                Some(i2) => {
                    e.idx = i2;
                    e.occ = occ2;
                }
                None => e.occ = occ1,
            }
            if fits > 0 {
                self.pool[idx as usize].nthd += fits as u32;
                out.push(Inserted {
                    pc,
                    nthd: fits as u32,
                    wid: idx,
                });
            }
            if let Some(i2) = idx2 {
                let n2 = (tids.len() - fits) as u32;
                self.pool[i2 as usize].nthd = n2;
                out.push(Inserted {
                    pc,
                    nthd: n2,
                    wid: i2,
                });
            }
        }
    }

    fn full_mask(&self) -> u32 {
        if self.w >= 32 {
            u32::MAX
        } else {
            (1u32 << self.w) - 1
        }
    }

    /// Issues pool warp `wid`: returns its threads, frees the entry and invalidates a LUT entry
    /// that still points at it (§5.3 "Issue").
    pub fn issue(&mut self, wid: u32) -> (u32, Vec<Tid>) {
        let p = &mut self.pool[wid as usize];
        let pc = p.pc;
        let tids: Vec<Tid> = p.slots.iter_mut().filter_map(|s| s.take()).collect();
        p.live = false;
        p.nthd = 0;
        p.next = None;
        self.free.push(wid);
        self.stats.alloc_pushes += 1;
        for set in &mut self.lut {
            set.retain(|e| e.idx != wid);
        }
        (pc, tids)
    }

    /// Register-bank conflict degree of pool warp `wid` without lane awareness: the largest
    /// number of its threads that share one home slot (§5.1).
    pub fn bank_conflict(&self, wid: u32) -> u32 {
        let mut cnt = vec![0u32; self.w as usize];
        for t in self.pool[wid as usize].slots.iter().flatten() {
            cnt[self.home(t) as usize] += 1;
        }
        cnt.into_iter().max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tids(ids: &[u32]) -> Vec<Tid> {
        ids.iter()
            .map(|&i| Tid {
                cta: 0,
                thread: i,
                core_tid: i,
            })
            .collect()
    }

    #[test]
    fn home_slot_swizzles_odd_warps() {
        assert_eq!(home_slot(0, 32, true), 0);
        assert_eq!(home_slot(1, 32, true), 1);
        assert_eq!(home_slot(32, 32, true), 1);
        assert_eq!(home_slot(33, 32, true), 0);
        assert_eq!(home_slot(64, 32, true), 0);
        assert_eq!(home_slot(33, 32, false), 1);
    }

    /// §5.3 on 4-lane warps without swizzling: warp A (threads 0..3) splits into {0,2} → P
    /// and {1,3} → Q; warp B (threads 4..7) sends {4,5} → P and {6,7} → Q. At P: B's slot 0
    /// conflicts with A's thread 0 (CNF = 0001), so thread 4 opens a new warp IDX' while thread
    /// 5 joins A's warp in slot 1. At Q: B's slot 2 conflicts (A's thread 2 is not at Q, but
    /// thread 3 holds slot 3 and thread 1 slot 1): REQ = 1100, OCC = 1010, CNF = 1000.
    #[test]
    fn formation_regroups_by_home_slot_exactly() {
        let mut f = Former::new(4, 8, 4, 4, true, false, false);
        let mut ins = Vec::new();
        f.insert_group(10, &tids(&[0, 2]), &mut ins);
        f.insert_group(20, &tids(&[1, 3]), &mut ins);
        assert_eq!(ins.len(), 2);
        let (wp, wq) = (ins[0].wid, ins[1].wid);
        ins.clear();
        f.insert_group(10, &tids(&[4, 5]), &mut ins);
        // thread 5 (slot 1) joins P's warp; thread 4 (slot 0) conflicts with thread 0
        assert_eq!(ins.len(), 2);
        assert_eq!(
            ins[0],
            Inserted {
                pc: 10,
                nthd: 1,
                wid: wp
            }
        );
        let wp2 = ins[1].wid;
        assert_eq!(
            ins[1],
            Inserted {
                pc: 10,
                nthd: 1,
                wid: wp2
            }
        );
        assert_eq!(f.pool[wp as usize].nthd, 3);
        assert_eq!(f.pool[wp2 as usize].slots[0].map(|t| t.thread), Some(4));
        ins.clear();
        f.insert_group(20, &tids(&[6, 7]), &mut ins);
        // REQ = {2,3}, OCC = {1,3}: thread 6 joins slot 2, thread 7 opens a new warp
        assert_eq!(
            ins[0],
            Inserted {
                pc: 20,
                nthd: 1,
                wid: wq
            }
        );
        assert_eq!(ins[1].nthd, 1);
        let wq2 = ins[1].wid;
        assert_eq!(f.stats.new_warp_events, 2);
        assert_eq!(f.stats.lut_misses, 2);
        assert_eq!(f.stats.lut_hits, 2);
        // the LUT now points at the new warp with OCC = CNF: a thread of slot 2 joins it
        ins.clear();
        f.insert_group(20, &tids(&[10]), &mut ins);
        assert_eq!(ins[0].wid, wq2);
        // issuing warp P returns its threads and frees the entry
        let (pc, ts) = f.issue(wp);
        assert_eq!(pc, 10);
        let mut ids: Vec<u32> = ts.iter().map(|t| t.thread).collect();
        ids.sort();
        assert_eq!(ids, vec![0, 2, 5]);
    }

    #[test]
    fn non_lane_aware_packs_and_counts_conflicts() {
        let mut f = Former::new(4, 8, 4, 4, false, false, false);
        let mut ins = Vec::new();
        f.insert_group(10, &tids(&[0, 1]), &mut ins);
        f.insert_group(10, &tids(&[4, 8]), &mut ins);
        // all four in one warp; home slots 0,1,0,0 → conflict degree 3
        assert_eq!(ins.len(), 2);
        assert_eq!(ins[0].wid, ins[1].wid);
        assert_eq!(f.pool[ins[0].wid as usize].nthd, 4);
        assert_eq!(f.bank_conflict(ins[0].wid), 3);
    }

    #[test]
    fn lut_victim_keeps_its_warp_and_allocator_bounds_the_pool() {
        let mut f = Former::new(4, 3, 1, 1, true, false, false);
        let mut ins = Vec::new();
        f.insert_group(1, &tids(&[0]), &mut ins);
        f.insert_group(2, &tids(&[1]), &mut ins);
        // PC 1's entry was evicted: a new PC-1 thread opens a new warp
        f.insert_group(1, &tids(&[2]), &mut ins);
        assert_eq!(f.free_entries(), 0);
        assert_eq!(ins.iter().map(|i| i.wid).collect::<Vec<_>>().len(), 3);
        assert_ne!(ins[0].wid, ins[2].wid);
    }
}
