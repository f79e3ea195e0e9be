//! Reconvergence counters (control-flow spec §6): the PDOM stack's activity as the functional
//! front end applied it, and the SIMD efficiency of every scheduler issue slot. Present in a
//! kernel's record only when `reconv.counters = true`.
//!
//! SIMD-efficiency buckets: an issue slot (one scheduler, one cycle) that issued an
//! instruction counts in `issued_lanes[i]` by the lanes that execute (index 0: every lane
//! predicated off; index i ≥ 1: 4(i−1)+1 ..= 4i lanes, W1–4 … W29–32). A slot that issued
//! nothing is split as the spec's W0 cases, mapped onto this pipeline:
//! - `w0_mem`: every live warp of the scheduler has memory requests outstanding;
//! - `w0_stall`: a warp was ready but the back end refused it (no free collector, the
//!   execution unit's input or the unit gated) — the structural contention that stands here
//!   for [F]'s write-back contention with the memory return path;
//! - `w0_idle`: anything else (no warp, empty I-buffers, barriers, register hazards on
//!   short-latency producers), including cycles skipped because nothing could progress.

use serde::{Deserialize, Serialize};

/// Number of SIMD-efficiency buckets of issued slots: W0 (issued, no lane) and W1–4 … W29–32.
pub const SIMD_BUCKETS: usize = 9;

/// The bucket of an issue of `lanes` active lanes.
#[inline]
pub fn simd_bucket(lanes: u32) -> usize {
    if lanes == 0 {
        0
    } else {
        (((lanes - 1) / 4 + 1) as usize).min(SIMD_BUCKETS - 1)
    }
}

/// PDOM stack counters (control-flow spec §6) of one kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackCounters {
    /// Entries pushed.
    pub pushes: u64,
    /// Entries popped, for any reason.
    pub pops: u64,
    /// Branches whose active lanes split over two or more targets.
    pub divergent_branches: u64,
    /// Pops because the top entry reached its reconvergence PC.
    pub reconvergence_pops: u64,
    /// Pops in the cascade after a pop.
    pub cascade_pops: u64,
    /// Deepest any warp's stack has been.
    pub max_depth: u32,
}

/// Reconvergence counters of one kernel (all SMs, all launches).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReconvStats {
    /// True when the stack counters come from the functional front end's stacks; false for a
    /// trace, whose stack is not replayed (only its divergent branches are known, in
    /// `SmActivity::simt`).
    pub stack_from_front_end: bool,
    /// The stack counters.
    pub stack: StackCounters,
    /// Issue slots that issued, by active lanes ([`simd_bucket`]).
    pub issued_lanes: [u64; SIMD_BUCKETS],
    /// Issue slots with no issue while every live warp waited on memory.
    pub w0_mem: u64,
    /// Issue slots with no issue for back-end contention.
    pub w0_stall: u64,
    /// Other issue slots with no issue.
    pub w0_idle: u64,
}

impl ReconvStats {
    /// Adds `o` (sums; maximum of the depths; `stack_from_front_end` if either has it).
    pub fn merge(&mut self, o: &ReconvStats) {
        self.stack_from_front_end |= o.stack_from_front_end;
        let (a, b) = (&mut self.stack, &o.stack);
        a.pushes += b.pushes;
        a.pops += b.pops;
        a.divergent_branches += b.divergent_branches;
        a.reconvergence_pops += b.reconvergence_pops;
        a.cascade_pops += b.cascade_pops;
        a.max_depth = a.max_depth.max(b.max_depth);
        for (x, y) in self.issued_lanes.iter_mut().zip(&o.issued_lanes) {
            *x += y;
        }
        self.w0_mem += o.w0_mem;
        self.w0_stall += o.w0_stall;
        self.w0_idle += o.w0_idle;
    }

    /// Share of the counted issue slots that issued an instruction.
    pub fn issue_slot_share(&self) -> f64 {
        let issued: u64 = self.issued_lanes.iter().sum();
        let all = issued + self.w0_mem + self.w0_stall + self.w0_idle;
        if all == 0 {
            0.0
        } else {
            issued as f64 / all as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_the_lanes() {
        assert_eq!(simd_bucket(0), 0);
        assert_eq!(simd_bucket(1), 1);
        assert_eq!(simd_bucket(4), 1);
        assert_eq!(simd_bucket(5), 2);
        assert_eq!(simd_bucket(29), 8);
        assert_eq!(simd_bucket(32), 8);
    }
}
