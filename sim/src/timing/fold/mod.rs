//! Warp folding, lane shifting and the Origami mask grouping as pure, deterministic mechanisms
//! (power-gating spec §6 "Warp folding", §7 "Origami scheduler and lane shifting").
//!
//! These are the per-instruction and per-phase decisions the SM issue stage and the execution
//! units make when folding is on; they hold no SM state and read no configuration file, so each
//! one is tested against the spec's worked examples (§8.6, §8.7) on its own:
//! - [`shift`]: lane shifting inside C-lane clusters and its inverse (re-shift after EX);
//! - [`cluster_fold`]: the two sub-warps of a folded instruction, skip-empty and compaction;
//! - [`lane_map`]: logical to physical lanes (`Identity`, `DoublePumped16`);
//! - [`issue_timing`]: issue offsets, port occupancy, latency and busy intervals of a folded
//!   instruction;
//! - [`phase`]: the phase grid, the fold windows per type and the adaptive disable;
//! - [`grouping`]: the all-ones detector, the Full/Partial counters, the preferred group per
//!   phase with its forced switch, and the candidate order;
//! - [`lane_stats`]: per-lane idle runs and the active-threads histogram;
//! - [`origami_sched`]: the Origami scheduler, grouping on top of a base warp scheduler.
//!
//! Masks are `u32` with bit i = lane i. The spec writes masks lane 0 first (leftmost);
//! [`parse_mask`] and [`format_mask`] convert that notation.

pub mod cluster_fold;
pub mod grouping;
pub mod issue_timing;
pub mod lane_map;
pub mod lane_stats;
pub mod origami_sched;
pub mod phase;
pub mod shift;

pub use cluster_fold::{fold, unfolded, FoldPlan, SubWarp};
pub use grouping::{order_by_group, GroupCounts, GroupSelector, MaskGroup};
pub use issue_timing::{ExtraStages, IssueTiming, SpPort};
pub use lane_map::{eager_gating_lanes, physical_lane_mask, physical_lanes};
pub use lane_stats::{lane_idle_runs, ActiveThreadsHistogram, ACTIVE_THREAD_BINS};
pub use origami_sched::OrigamiScheduler;
pub use phase::{lane_idle_detect, FoldPhaseStats, FoldPhases, PhaseDecision, PhasePolicy, SpType};
pub use shift::{reshift_values, reshifted_lane, shift_mask, shift_values, shifted_lane};

/// Lane geometry of folding and shifting: a warp of `n_lanes` logical lanes split into
/// clusters of `cluster_lanes` lanes (`units.sub_cluster_lanes`, the spec's `C`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClusterGeometry {
    n_lanes: u32,
    cluster_lanes: u32,
}

impl ClusterGeometry {
    /// A warp of `n_lanes` (1..=32) lanes in clusters of `cluster_lanes` lanes, which must be
    /// even (two halves) and divide the warp. The error names both values.
    pub fn new(n_lanes: u32, cluster_lanes: u32) -> Result<Self, String> {
        if !(1..=32).contains(&n_lanes) {
            return Err(format!("a warp of {n_lanes} lanes: must be 1 to 32"));
        }
        if cluster_lanes < 2
            || !cluster_lanes.is_multiple_of(2)
            || !n_lanes.is_multiple_of(cluster_lanes)
        {
            return Err(format!(
                "clusters of {cluster_lanes} lanes: must be even and divide the warp of \
                 {n_lanes} lanes"
            ));
        }
        Ok(ClusterGeometry {
            n_lanes,
            cluster_lanes,
        })
    }

    /// Logical lanes of the warp.
    pub fn n_lanes(&self) -> u32 {
        self.n_lanes
    }

    /// Lanes of one cluster, `C`.
    pub fn cluster_lanes(&self) -> u32 {
        self.cluster_lanes
    }

    /// Lanes of one cluster half, `C/2`.
    pub fn half_lanes(&self) -> u32 {
        self.cluster_lanes / 2
    }

    /// Clusters in the warp.
    pub fn n_clusters(&self) -> u32 {
        self.n_lanes / self.cluster_lanes
    }

    /// Every lane of the warp.
    pub fn all_mask(&self) -> u32 {
        low_bits(self.n_lanes)
    }

    /// The lanes of cluster `c`.
    pub fn cluster_mask(&self, c: u32) -> u32 {
        low_bits(self.cluster_lanes) << (c * self.cluster_lanes)
    }

    /// Lanes with `lane mod C < C/2`: the sub-warp 0 pattern (`1100 1100…` for C = 4).
    pub fn lower_half_pattern(&self) -> u32 {
        let one = low_bits(self.half_lanes());
        (0..self.n_clusters()).fold(0, |m, c| m | one << (c * self.cluster_lanes))
    }

    /// Lanes with `lane mod C >= C/2`: the sub-warp 1 pattern (`0011 0011…` for C = 4).
    pub fn upper_half_pattern(&self) -> u32 {
        self.all_mask() & !self.lower_half_pattern()
    }
}

/// The `n` lowest bits set (`n` ≤ 32).
pub(crate) fn low_bits(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Parses a mask written lane 0 first, as the spec writes them (`"11010100"`): `'1'` active,
/// `'0'` inactive, spaces and `_` ignored. Returns the mask and its lane count; `None` for any
/// other character or more than 32 lanes.
pub fn parse_mask(s: &str) -> Option<(u32, u32)> {
    let mut mask = 0u32;
    let mut n = 0u32;
    for ch in s.chars() {
        match ch {
            ' ' | '_' => continue,
            '0' | '1' => {
                if n == 32 {
                    return None;
                }
                if ch == '1' {
                    mask |= 1 << n;
                }
                n += 1;
            }
            _ => return None,
        }
    }
    Some((mask, n))
}

/// Writes the `n_lanes` low lanes of `mask` lane 0 first (`"11010100"`).
pub fn format_mask(mask: u32, n_lanes: u32) -> String {
    (0..n_lanes)
        .map(|i| if mask >> i & 1 == 1 { '1' } else { '0' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_and_patterns() {
        let g = ClusterGeometry::new(8, 4).unwrap();
        assert_eq!(format_mask(g.lower_half_pattern(), 8), "11001100");
        assert_eq!(format_mask(g.upper_half_pattern(), 8), "00110011");
        assert_eq!(format_mask(g.cluster_mask(1), 8), "00001111");
        let w = ClusterGeometry::new(32, 4).unwrap();
        assert_eq!(w.all_mask(), u32::MAX);
        assert_eq!(w.lower_half_pattern(), 0x3333_3333);
        assert!(ClusterGeometry::new(32, 3).is_err());
        assert!(ClusterGeometry::new(32, 12).is_err());
        assert!(ClusterGeometry::new(33, 4).is_err());
    }

    #[test]
    fn mask_notation_round_trips() {
        let (m, n) = parse_mask("1101 0100").unwrap();
        assert_eq!(n, 8);
        assert_eq!(m, 0b0010_1011);
        assert_eq!(format_mask(m, n), "11010100");
        assert!(parse_mask("1x").is_none());
        assert!(parse_mask(&"1".repeat(33)).is_none());
    }
}
