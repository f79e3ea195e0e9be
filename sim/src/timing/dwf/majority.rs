//! The Majority issue hardware of dynamic warp formation (control-flow spec §5.5, after W.
//! Fung, *Dynamic Warp Formation*, MASc thesis, UBC 2008): the Majority entry, a binary heap of
//! per-PC thread counts, and the MHeap LUT that maps a PC to its heap index.
//!
//! - **Insert(PC, NTHD, WID):** a PC equal to the Majority entry's adds NTHD to its count and
//!   appends WID to its warp list. Otherwise the MHeap LUT is looked up; a miss creates a heap
//!   entry at the end (and a LUT entry), a hit adds NTHD and appends WID; the entry then sifts
//!   toward the root (each swap rewrites both entries' LUT back-pointers).
//! - **Issue:** while the Majority count is positive the warp at the head of its list issues;
//!   at zero the root is popped into the Majority entry and the heap sifts down.
//! - **Bandwidth:** heap and LUT each have 2 read and 2 write ports clocked at the pipeline
//!   rate, so a scheduler cycle of `w/n` pipeline cycles has `2·(w/n)` reads and writes per
//!   structure. A swap costs 2 heap reads, 2 heap writes and 2 LUT writes. Work beyond the
//!   budget carries over, and no warp issues while it is outstanding (`heap_rebalance_stall`).
//!   More live PCs than heap entries (or a full MHeap-LUT set) stall the insert
//!   (`heap_overflow`) until an entry frees. `infinite` lifts every limit.
//!
//! With `min` the heap keeps the *least* populated PC at the root (the DMin policy, keyed by
//! −CNT).

use super::formation::{Former, Inserted};
pub use crate::activity::MajorityStats;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug)]
struct Ent {
    pc: u32,
    cnt: u32,
    wph: Option<u32>,
    wpt: Option<u32>,
}

/// Majority entry, heap and MHeap LUT of one core.
#[derive(Clone, Debug)]
pub struct Majority {
    min: bool,
    infinite: bool,
    maj: Option<Ent>,
    heap: Vec<Ent>,
    /// MHeap LUT: per set, the PCs held (the heap index is found by the heap position; the
    /// LUT's content is modelled by its occupancy and access counts).
    lut_sets: Vec<Vec<u32>>,
    lut_ways: usize,
    heap_cap: usize,
    /// Reads and writes per structure per scheduler cycle.
    budget: u64,
    debt_heap_r: u64,
    debt_heap_w: u64,
    debt_lut_r: u64,
    debt_lut_w: u64,
    pending: VecDeque<Inserted>,
    /// Counters.
    pub stats: MajorityStats,
}

impl Majority {
    /// Hardware of `heap_entries` heap entries and an MHeap LUT of `lut_entries` in
    /// `lut_ways`-way sets; `sched_cycle` pipeline cycles per scheduler cycle.
    pub fn new(
        min: bool,
        heap_entries: u32,
        lut_entries: u32,
        lut_ways: u32,
        sched_cycle: u32,
        infinite: bool,
    ) -> Self {
        let nsets = if infinite {
            1
        } else {
            (lut_entries / lut_ways.max(1)).max(1)
        };
        Majority {
            min,
            infinite,
            maj: None,
            heap: Vec::new(),
            lut_sets: vec![Vec::new(); nsets as usize],
            lut_ways: if infinite {
                usize::MAX
            } else {
                lut_ways.max(1) as usize
            },
            heap_cap: if infinite {
                usize::MAX
            } else {
                heap_entries.max(1) as usize
            },
            budget: 2 * sched_cycle.max(1) as u64,
            debt_heap_r: 0,
            debt_heap_w: 0,
            debt_lut_r: 0,
            debt_lut_w: 0,
            pending: VecDeque::new(),
            stats: MajorityStats::default(),
        }
    }

    fn set_of(&self, pc: u32) -> usize {
        ((pc ^ (pc >> 5) ^ (pc >> 11)) as usize) % self.lut_sets.len()
    }

    fn better(&self, a: &Ent, b: &Ent) -> bool {
        if self.min {
            a.cnt < b.cnt
        } else {
            a.cnt > b.cnt
        }
    }

    fn charge(&mut self, hr: u64, hw: u64, lr: u64, lw: u64) {
        self.stats.heap_reads += hr;
        self.stats.heap_writes += hw;
        self.stats.mheap_lut_lookups += lr;
        self.stats.mheap_lut_writes += lw;
        if !self.infinite {
            self.debt_heap_r += hr;
            self.debt_heap_w += hw;
            self.debt_lut_r += lr;
            self.debt_lut_w += lw;
        }
    }

    fn swap_cost(&mut self, n: u32) {
        let n64 = n as u64;
        self.stats.heap_swaps += n64;
        self.stats.max_sift = self.stats.max_sift.max(n);
        self.charge(2 * n64, 2 * n64, 0, 2 * n64);
    }

    fn sift_up(&mut self, mut i: usize) -> u32 {
        let mut n = 0;
        while i > 0 {
            let p = (i - 1) / 2;
            if self.better(&self.heap[i], &self.heap[p]) {
                self.heap.swap(i, p);
                i = p;
                n += 1;
            } else {
                break;
            }
        }
        n
    }

    fn sift_down(&mut self, mut i: usize) -> u32 {
        let mut n = 0;
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut b = i;
            if l < self.heap.len() && self.better(&self.heap[l], &self.heap[b]) {
                b = l;
            }
            if r < self.heap.len() && self.better(&self.heap[r], &self.heap[b]) {
                b = r;
            }
            if b == i {
                return n;
            }
            self.heap.swap(i, b);
            i = b;
            n += 1;
        }
    }

    fn append(e: &mut Ent, wid: u32, f: &mut Former) {
        match e.wpt {
            Some(t) if t == wid => {}
            Some(t) => {
                f.pool[t as usize].next = Some(wid);
                e.wpt = Some(wid);
            }
            None => {
                e.wph = Some(wid);
                e.wpt = Some(wid);
            }
        }
    }

    /// Inserts `ins` (§5.5 Insert); an insert that finds no free heap or LUT entry waits in
    /// order and is retried at the next [`Majority::begin_cycle`].
    pub fn insert(&mut self, ins: Inserted, f: &mut Former) {
        if !self.pending.is_empty() || !self.try_insert(ins, f) {
            self.pending.push_back(ins);
        }
    }

    fn try_insert(&mut self, ins: Inserted, f: &mut Former) -> bool {
        if let Some(m) = self.maj.as_mut() {
            if m.pc == ins.pc {
                m.cnt += ins.nthd;
                Self::append(m, ins.wid, f);
                return true;
            }
        }
        self.charge(0, 0, 1, 0);
        if let Some(i) = self.heap.iter().position(|e| e.pc == ins.pc) {
            let mut e = self.heap[i];
            e.cnt += ins.nthd;
            Self::append(&mut e, ins.wid, f);
            self.heap[i] = e;
            self.charge(1, 1, 0, 0);
            let n = self.sift_up(i);
            let n = if n == 0 { self.sift_down(i) } else { n };
            self.stats.sift_up_swaps += n as u64;
            self.swap_cost(n);
            return true;
        }
        let set = self.set_of(ins.pc);
        if self.heap.len() >= self.heap_cap || self.lut_sets[set].len() >= self.lut_ways {
            return false;
        }
        self.lut_sets[set].push(ins.pc);
        self.heap.push(Ent {
            pc: ins.pc,
            cnt: ins.nthd,
            wph: Some(ins.wid),
            wpt: Some(ins.wid),
        });
        self.charge(0, 1, 0, 1);
        self.stats.max_heap_live = self.stats.max_heap_live.max(self.heap.len() as u32);
        let n = self.sift_up(self.heap.len() - 1);
        self.stats.sift_up_swaps += n as u64;
        self.swap_cost(n);
        true
    }

    /// Start of a scheduler cycle: the waiting inserts are retried.
    pub fn begin_cycle(&mut self, f: &mut Former) {
        while let Some(ins) = self.pending.front().copied() {
            if self.try_insert(ins, f) {
                self.pending.pop_front();
            } else {
                self.stats.heap_overflow += 1;
                break;
            }
        }
    }

    /// End of a scheduler cycle: one cycle's port budget is spent on the outstanding work.
    pub fn end_cycle(&mut self) {
        for d in [
            &mut self.debt_heap_r,
            &mut self.debt_heap_w,
            &mut self.debt_lut_r,
            &mut self.debt_lut_w,
        ] {
            *d = d.saturating_sub(self.budget);
        }
    }

    /// True while the heap's outstanding work exceeds this cycle's budget (§5.5 "while the
    /// heap is rebalancing, nothing is issued").
    fn rebalancing(&self) -> bool {
        [
            self.debt_heap_r,
            self.debt_heap_w,
            self.debt_lut_r,
            self.debt_lut_w,
        ]
        .iter()
        .any(|&d| d > self.budget)
    }

    /// Picks the warp to issue this scheduler cycle (§5.5 Issue), `None` when nothing can
    /// issue. The caller issues it from the pool (`Former::issue`).
    pub fn pick(&mut self, f: &Former) -> Option<u32> {
        if self.rebalancing() {
            self.stats.heap_rebalance_stall += 1;
            return None;
        }
        if self.maj.is_none_or(|m| m.wph.is_none()) {
            self.maj = None;
            if self.heap.is_empty() {
                return None;
            }
            // pop the root into the Majority entry, then sift down
            let root = self.heap.swap_remove(0);
            let set = self.set_of(root.pc);
            self.lut_sets[set].retain(|&p| p != root.pc);
            self.charge(1, 1, 0, 1);
            let n = if self.heap.is_empty() {
                0
            } else {
                self.sift_down(0)
            };
            self.stats.sift_down_swaps += n as u64;
            self.swap_cost(n);
            self.maj = Some(root);
        }
        let m = self.maj.as_mut().expect("majority entry");
        let wid = m.wph.expect("warp list");
        let p = &f.pool[wid as usize];
        m.cnt = m.cnt.saturating_sub(p.nthd);
        m.wph = p.next;
        if m.wph.is_none() {
            m.wpt = None;
            m.cnt = 0;
        }
        Some(wid)
    }

    /// Live heap entries plus the Majority entry.
    pub fn live_pcs(&self) -> usize {
        self.heap.len() + usize::from(self.maj.is_some_and(|m| m.wph.is_some()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timing::dwf::formation::Tid;

    fn group(f: &mut Former, pc: u32, ids: &[u32]) -> Vec<Inserted> {
        let t: Vec<Tid> = ids
            .iter()
            .map(|&i| Tid {
                cta: 0,
                thread: i,
                core_tid: i,
            })
            .collect();
        let mut out = Vec::new();
        f.insert_group(pc, &t, &mut out);
        out
    }

    #[test]
    fn majority_issues_every_warp_of_the_most_common_pc_first() {
        let mut f = Former::new(4, 16, 16, 4, true, false, true);
        let mut m = Majority::new(false, 64, 128, 8, 4, true);
        for ins in group(&mut f, 5, &[0])
            .into_iter()
            .chain(group(&mut f, 7, &[4, 5, 6]))
            .chain(group(&mut f, 7, &[8, 9]))
            .chain(group(&mut f, 9, &[1, 2]))
        {
            m.insert(ins, &mut f);
        }
        let mut order = Vec::new();
        while let Some(w) = m.pick(&f) {
            let (pc, _) = f.issue(w);
            order.push(pc);
        }
        // PC 7 has 5 threads (two warps: 8 and 9 conflict with 4 and 5 in slots 0 and 1),
        // PC 9 has 2, PC 5 has 1
        assert_eq!(order, vec![7, 7, 9, 5]);
    }

    #[test]
    fn dmin_issues_the_least_common_pc_first() {
        let mut f = Former::new(4, 16, 16, 4, true, false, true);
        let mut m = Majority::new(true, 64, 128, 8, 4, true);
        for ins in group(&mut f, 7, &[4, 5, 6])
            .into_iter()
            .chain(group(&mut f, 5, &[0]))
            .chain(group(&mut f, 9, &[1, 2]))
        {
            m.insert(ins, &mut f);
        }
        let mut order = Vec::new();
        while let Some(w) = m.pick(&f) {
            order.push(f.issue(w).0);
        }
        assert_eq!(order, vec![5, 9, 7]);
    }

    #[test]
    fn port_budget_stalls_issue_and_overflow_waits() {
        let mut f = Former::new(4, 64, 64, 4, true, false, false);
        // heap of 2 entries; budget 2·1 per cycle with 1-cycle scheduler cycles
        let mut m = Majority::new(false, 2, 128, 8, 1, false);
        for pc in 1..=3u32 {
            for ins in group(&mut f, pc * 10, &(0..pc).collect::<Vec<_>>()) {
                m.insert(ins, &mut f);
            }
        }
        // the third PC waits for a heap entry
        m.begin_cycle(&mut f);
        assert_eq!(m.stats.heap_overflow, 1);
        // outstanding work beyond the budget blocks issue until it drains
        let mut stalls = 0;
        let mut got = None;
        for _ in 0..10 {
            got = m.pick(&f);
            if got.is_some() {
                break;
            }
            stalls += 1;
            m.end_cycle();
        }
        assert!(got.is_some());
        assert_eq!(stalls as u64, m.stats.heap_rebalance_stall);
        assert!(stalls > 0);
    }
}
