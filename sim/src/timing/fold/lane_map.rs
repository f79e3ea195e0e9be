//! Logical to physical lanes (power-gating §6 `cfg:fold.lane_map`, which is `units.lane_map`).
//!
//! - `Identity`: one lane domain per logical lane.
//! - `DoublePumped16` (GTX480): 16 physical lanes run at twice the core clock; physical lane `p`
//!   serves logical lanes `p` and `p + 16`, and is busy in a cycle if either one is.

use super::ClusterGeometry;
use crate::config::LaneMap;

/// The physical lanes busy when the logical lanes in `logical` are busy.
pub fn physical_lane_mask(map: LaneMap, logical: u32) -> u32 {
    match map {
        LaneMap::Identity => logical,
        LaneMap::DoublePumped16 => (logical & 0xffff) | (logical >> 16),
    }
}

/// Physical lanes (lane domains) behind a warp of `n_logical` lanes.
pub fn physical_lanes(map: LaneMap, n_logical: u32) -> u32 {
    match map {
        LaneMap::Identity => n_logical,
        LaneMap::DoublePumped16 => n_logical.min(16),
    }
}

/// The physical lanes that fold leaves idle and eager gating targets: the upper half of every
/// cluster (`lane mod C >= C/2`), through the lane map.
pub fn eager_gating_lanes(g: ClusterGeometry, map: LaneMap) -> u32 {
    physical_lane_mask(map, g.upper_half_pattern())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_pumped_lane_serves_p_and_p_plus_16() {
        assert_eq!(physical_lane_mask(LaneMap::DoublePumped16, 1 << 17), 1 << 1);
        assert_eq!(physical_lane_mask(LaneMap::DoublePumped16, 1 << 1), 1 << 1);
        assert_eq!(
            physical_lane_mask(LaneMap::DoublePumped16, u32::MAX),
            0xffff
        );
        assert_eq!(physical_lane_mask(LaneMap::Identity, 1 << 17), 1 << 17);
        assert_eq!(physical_lanes(LaneMap::DoublePumped16, 32), 16);
        assert_eq!(physical_lanes(LaneMap::Identity, 32), 32);
        let g = ClusterGeometry::new(32, 4).unwrap();
        assert_eq!(eager_gating_lanes(g, LaneMap::DoublePumped16), 0xcccc);
        assert_eq!(eager_gating_lanes(g, LaneMap::Identity), 0xcccc_cccc);
    }
}
