//! Cluster fold: one SP warp instruction issued as two half-width sub-warps on the lower half
//! of every C-lane cluster (power-gating §6 "Cluster fold", "Skip empty halves").
//!
//! - Sub-warp 0 is the threads on lanes with `lane mod C < C/2`, sub-warp 1 those with
//!   `lane mod C ≥ C/2`. Each sub-warp's `temp_mask` is its pattern ANDed with the active mask;
//!   it travels with the sub-warp and drives re-shifting after EX.
//! - The issued mask of sub-warp 1 is its `temp_mask` moved down by `C/2` inside its cluster
//!   (`0011 0011` → `1100 1100`), so both passes run on the lower half and the upper half of
//!   every cluster stays idle (and can gate).
//! - With lane shifting on, each sub-warp is also left-compacted inside its cluster
//!   ([`FoldCompaction::LeftCompact`]: the sub-warp's active threads take the cluster's lowest
//!   lanes, §7); [`FoldCompaction::PositionPreserving`] keeps sub-warp 0 on its lanes and moves
//!   sub-warp 1 down by exactly `C/2`.
//! - Skip-empty (`fold.skip_empty_half`): when one sub-warp's mask is empty only the other is
//!   issued, in a single pass; a surviving sub-warp 1 is still moved onto the low lanes.

use super::shift::{reshifted_lane, shift_mask, shifted_lane};
use super::ClusterGeometry;
use crate::config::fold::FoldCompaction;

/// One pass of a (possibly folded) SP instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubWarp {
    /// 0: lanes with `lane mod C < C/2` (or the whole warp when not folded); 1: the upper
    /// halves.
    pub half: u8,
    /// The logical lanes whose threads this pass carries (pattern AND active mask): what
    /// re-shifting restores.
    pub temp_mask: u32,
    /// The physical lanes (before the lane map) this pass occupies.
    pub issued_mask: u32,
    /// How `temp_mask` was placed onto `issued_mask`.
    pub placement: Placement,
}

/// How a pass's threads were placed onto lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Each thread stays on its lane.
    InPlace,
    /// Each thread moves down by `C/2` inside its cluster (sub-warp 1, position preserving).
    DownHalf,
    /// Each cluster's threads take its lowest lanes in order (lane shifting, left compaction).
    LeftCompact,
}

impl SubWarp {
    fn place(g: ClusterGeometry, half: u8, temp_mask: u32, placement: Placement) -> SubWarp {
        let issued_mask = match placement {
            Placement::InPlace => temp_mask,
            // Upper-half lanes move to the lower half of the same cluster, so a plain right
            // shift by C/2 never crosses a cluster.
            Placement::DownHalf => temp_mask >> g.half_lanes(),
            Placement::LeftCompact => shift_mask(g, temp_mask),
        };
        SubWarp {
            half,
            temp_mask,
            issued_mask,
            placement,
        }
    }

    /// The physical lane (before the lane map) that executes the thread of logical lane
    /// `lane`; `None` when this pass does not carry that thread.
    pub fn issued_lane(&self, g: ClusterGeometry, lane: u32) -> Option<u32> {
        if lane >= g.n_lanes() || self.temp_mask >> lane & 1 == 0 {
            return None;
        }
        match self.placement {
            Placement::InPlace => Some(lane),
            Placement::DownHalf => Some(lane - g.half_lanes()),
            Placement::LeftCompact => shifted_lane(g, self.temp_mask, lane),
        }
    }

    /// Re-shift: the logical lane whose thread physical lane `phys` carries in this pass.
    pub fn logical_lane(&self, g: ClusterGeometry, phys: u32) -> Option<u32> {
        if phys >= g.n_lanes() || self.issued_mask >> phys & 1 == 0 {
            return None;
        }
        match self.placement {
            Placement::InPlace => Some(phys),
            Placement::DownHalf => Some(phys + g.half_lanes()),
            Placement::LeftCompact => reshifted_lane(g, self.temp_mask, phys),
        }
    }
}

/// The passes one SP instruction is issued in: one (not folded, or one half skipped as empty)
/// or two (folded; sub-warp 1 follows sub-warp 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FoldPlan {
    passes: [SubWarp; 2],
    n_passes: u8,
}

impl FoldPlan {
    fn one(p: SubWarp) -> FoldPlan {
        FoldPlan {
            passes: [p, p],
            n_passes: 1,
        }
    }

    /// The passes in issue order.
    pub fn passes(&self) -> &[SubWarp] {
        &self.passes[..self.n_passes as usize]
    }

    /// Number of passes (0 for an empty mask, 1 or 2).
    pub fn n_passes(&self) -> u8 {
        self.n_passes
    }

    /// True when the instruction issues as two sub-warps.
    pub fn is_two_pass(&self) -> bool {
        self.n_passes == 2
    }

    /// Union of the issued masks: the physical lanes (before the lane map) the instruction
    /// occupies at some point.
    pub fn issued_union(&self) -> u32 {
        self.passes().iter().fold(0, |m, p| m | p.issued_mask)
    }
}

/// The fold of an SP instruction with active mask `mask` (power-gating §6): sub-warp masks
/// `mask & lower_half_pattern` and `mask & upper_half_pattern`, placed per `compaction`
/// (sub-warp 1 always lands on the lower halves), with `skip_empty_half` issuing a lone
/// non-empty sub-warp in a single pass. An empty mask has no pass.
pub fn fold(
    g: ClusterGeometry,
    mask: u32,
    compaction: FoldCompaction,
    skip_empty_half: bool,
) -> FoldPlan {
    let mask = mask & g.all_mask();
    let t0 = mask & g.lower_half_pattern();
    let t1 = mask & g.upper_half_pattern();
    let (p0, p1) = match compaction {
        FoldCompaction::LeftCompact => (Placement::LeftCompact, Placement::LeftCompact),
        FoldCompaction::PositionPreserving => (Placement::InPlace, Placement::DownHalf),
    };
    let s0 = SubWarp::place(g, 0, t0, p0);
    let s1 = SubWarp::place(g, 1, t1, p1);
    if mask == 0 {
        return FoldPlan {
            passes: [s0, s1],
            n_passes: 0,
        };
    }
    if skip_empty_half {
        if t1 == 0 {
            return FoldPlan::one(s0);
        }
        if t0 == 0 {
            return FoldPlan::one(s1);
        }
    }
    FoldPlan {
        passes: [s0, s1],
        n_passes: 2,
    }
}

/// An instruction issued whole (outside a fold window, or not foldable): one pass with the
/// whole mask, lane-shifted inside its clusters when `lane_shifting` is on (§7).
pub fn unfolded(g: ClusterGeometry, mask: u32, lane_shifting: bool) -> FoldPlan {
    let mask = mask & g.all_mask();
    let placement = if lane_shifting {
        Placement::LeftCompact
    } else {
        Placement::InPlace
    };
    let p = SubWarp::place(g, 0, mask, placement);
    if mask == 0 {
        FoldPlan {
            passes: [p, p],
            n_passes: 0,
        }
    } else {
        FoldPlan::one(p)
    }
}
