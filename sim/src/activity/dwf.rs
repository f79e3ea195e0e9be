//! The counters of the dynamic-warp-formation scheduler's structures (control-flow spec §6):
//! warp formation (warp pool, allocator, PC-warp LUT, §5.3) and the Majority hardware
//! (Majority entry, max-heap, MHeap LUT, §5.5), as the reference-mode model
//! (`timing::dwf::refmodel`) counts them and a kernel's record carries them
//! ([`super::KernelActivity::dwf`]).

use serde::{Deserialize, Serialize};

/// The DWF structure counters of a run (control-flow spec §6): warp formation, and the
/// Majority hardware under the policies that use it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DwfCounts {
    /// Warp pool, allocator and PC-warp LUT.
    pub formation: FormationStats,
    /// Majority entry, max-heap and MHeap LUT (DMaj, DMin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub majority: Option<MajorityStats>,
}

impl DwfCounts {
    /// Adds `o` into `self`.
    pub fn merge(&mut self, o: &DwfCounts) {
        let banks = &mut self.formation.tid_bank_writes;
        if banks.len() < o.formation.tid_bank_writes.len() {
            banks.resize(o.formation.tid_bank_writes.len(), 0);
        }
        merge_formation(&mut self.formation, &o.formation);
        match (&mut self.majority, &o.majority) {
            (Some(a), Some(b)) => merge_majority(a, b),
            (None, Some(b)) => self.majority = Some(b.clone()),
            _ => {}
        }
    }
}

/// Counters of the formation structures (control-flow spec §6).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormationStats {
    /// PC-warp LUT lookups.
    pub lut_lookups: u64,
    /// PC-warp LUT hits.
    pub lut_hits: u64,
    /// PC-warp LUT misses.
    pub lut_misses: u64,
    /// Warp-pool TID-bank writes per bank (home slot).
    pub tid_bank_writes: Vec<u64>,
    /// Warp-pool PC/scheduler-data bank writes.
    pub pc_bank_writes: u64,
    /// Allocator pops (warps created).
    pub alloc_pops: u64,
    /// Allocator pushes (warps issued).
    pub alloc_pushes: u64,
    /// Formation conflicts (`CNF != 0`) that opened a new warp.
    pub new_warp_events: u64,
    /// Scheduler cycles write-back stalled on an empty allocator.
    pub pool_full_stall: u64,
    /// Largest number of live pool warps.
    pub max_pool_occupancy: u32,
}

/// Counters of the Majority hardware (control-flow spec §6).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MajorityStats {
    /// MHeap LUT lookups.
    pub mheap_lut_lookups: u64,
    /// MHeap LUT writes (entry creation, invalidation, back-pointer rewrites on swaps).
    pub mheap_lut_writes: u64,
    /// Heap entry reads.
    pub heap_reads: u64,
    /// Heap entry writes.
    pub heap_writes: u64,
    /// Heap swaps.
    pub heap_swaps: u64,
    /// Sum of sift-up lengths (swaps).
    pub sift_up_swaps: u64,
    /// Sum of sift-down lengths (swaps).
    pub sift_down_swaps: u64,
    /// Longest sift (swaps).
    pub max_sift: u32,
    /// Scheduler cycles without issue because the heap was rebalancing beyond its port budget.
    pub heap_rebalance_stall: u64,
    /// Scheduler cycles an insert waited for a free heap (or MHeap-LUT) entry.
    pub heap_overflow: u64,
    /// Most live heap entries.
    pub max_heap_live: u32,
}

/// Adds `b` into `a` (`tid_bank_writes` element-wise over the shorter of the two; the largest
/// pool occupancy is the larger one).
pub(crate) fn merge_formation(a: &mut FormationStats, b: &FormationStats) {
    a.lut_lookups += b.lut_lookups;
    a.lut_hits += b.lut_hits;
    a.lut_misses += b.lut_misses;
    for (x, y) in a.tid_bank_writes.iter_mut().zip(&b.tid_bank_writes) {
        *x += y;
    }
    a.pc_bank_writes += b.pc_bank_writes;
    a.alloc_pops += b.alloc_pops;
    a.alloc_pushes += b.alloc_pushes;
    a.new_warp_events += b.new_warp_events;
    a.pool_full_stall += b.pool_full_stall;
    a.max_pool_occupancy = a.max_pool_occupancy.max(b.max_pool_occupancy);
}

/// Adds `b` into `a` (the longest sift and most live heap entries are the larger ones).
pub(crate) fn merge_majority(a: &mut MajorityStats, b: &MajorityStats) {
    a.mheap_lut_lookups += b.mheap_lut_lookups;
    a.mheap_lut_writes += b.mheap_lut_writes;
    a.heap_reads += b.heap_reads;
    a.heap_writes += b.heap_writes;
    a.heap_swaps += b.heap_swaps;
    a.sift_up_swaps += b.sift_up_swaps;
    a.sift_down_swaps += b.sift_down_swaps;
    a.max_sift = a.max_sift.max(b.max_sift);
    a.heap_rebalance_stall += b.heap_rebalance_stall;
    a.heap_overflow += b.heap_overflow;
    a.max_heap_live = a.max_heap_live.max(b.max_heap_live);
}
