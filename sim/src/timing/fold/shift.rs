//! Lane shifting inside C-lane clusters (power-gating §7 "Lane shifting").
//!
//! For every SP instruction the active threads of each cluster move to the lowest lanes of that
//! cluster, keeping their order: a cluster mask `m` with `k = popcount(m)` becomes
//! `1^k 0^(C−k)`, and the thread on lane `j` goes to lane `base + #{active i < j}` (`base` the
//! cluster's first lane). The upper lanes of every cluster are then idle more often, which
//! lengthens their idle runs for gating. Re-shift after EX restores the original lanes; it
//! needs the pre-shift mask (the `temp_mask` that travels with the instruction). A shift never
//! crosses a cluster boundary, so lane `base + r` only ever receives from lanes
//! `base + r … base + C − 1` (one C:1 multiplexer per lane).

use super::{low_bits, ClusterGeometry};

/// The shifted mask: each cluster's `k` active lanes become its `k` lowest lanes.
pub fn shift_mask(g: ClusterGeometry, mask: u32) -> u32 {
    let c = g.cluster_lanes();
    let mut out = 0u32;
    for cl in 0..g.n_clusters() {
        let k = (mask & g.cluster_mask(cl)).count_ones();
        out |= low_bits(k) << (cl * c);
    }
    out
}

/// Where the thread on logical lane `lane` executes after the shift: `base + #{active i < j}`
/// inside its cluster. `None` when `lane` is not active in `mask` (or outside the warp).
pub fn shifted_lane(g: ClusterGeometry, mask: u32, lane: u32) -> Option<u32> {
    if lane >= g.n_lanes() || mask >> lane & 1 == 0 {
        return None;
    }
    let base = lane - lane % g.cluster_lanes();
    let below = mask & low_bits(lane) & !low_bits(base);
    Some(base + below.count_ones())
}

/// Re-shift: the logical lane whose thread physical lane `phys` carries after a shift of
/// `temp_mask` (the pre-shift mask): the `r`-th active lane of the cluster, `r = phys − base`.
/// `None` when `phys` carries no thread.
pub fn reshifted_lane(g: ClusterGeometry, temp_mask: u32, phys: u32) -> Option<u32> {
    if phys >= g.n_lanes() {
        return None;
    }
    let c = g.cluster_lanes();
    let base = phys - phys % c;
    let mut r = phys - base;
    let mut m = temp_mask & g.cluster_mask(base / c);
    while m != 0 {
        let lane = m.trailing_zeros();
        if r == 0 {
            return Some(lane);
        }
        r -= 1;
        m &= m - 1;
    }
    None
}

/// Moves per-lane values as the shift moves their threads: `out[shifted_lane(j)] = values[j]`
/// for every active lane `j`; lanes that receive no thread hold `T::default()`. `values` has one
/// entry per lane of the warp (shorter slices are read as default).
pub fn shift_values<T: Copy + Default>(g: ClusterGeometry, mask: u32, values: &[T]) -> Vec<T> {
    let mut out = vec![T::default(); g.n_lanes() as usize];
    for j in 0..g.n_lanes() {
        if let Some(p) = shifted_lane(g, mask, j) {
            out[p as usize] = values.get(j as usize).copied().unwrap_or_default();
        }
    }
    out
}

/// Re-shift of per-lane values: `out[reshifted_lane(p)] = shifted[p]`; lanes inactive in
/// `temp_mask` hold `T::default()`. `reshift_values(g, m, &shift_values(g, m, v))` equals `v`
/// on the active lanes of `m`.
pub fn reshift_values<T: Copy + Default>(
    g: ClusterGeometry,
    temp_mask: u32,
    shifted: &[T],
) -> Vec<T> {
    let mut out = vec![T::default(); g.n_lanes() as usize];
    for p in 0..g.n_lanes() {
        if let Some(j) = reshifted_lane(g, temp_mask, p) {
            out[j as usize] = shifted.get(p as usize).copied().unwrap_or_default();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{format_mask, parse_mask};
    use super::*;

    fn g8() -> ClusterGeometry {
        ClusterGeometry::new(8, 4).unwrap()
    }

    #[test]
    fn cluster_mask_becomes_leading_ones() {
        let m = parse_mask("11010100").unwrap().0;
        assert_eq!(format_mask(shift_mask(g8(), m), 8), "11101000");
        // Lane 3 (third active in cluster 0) goes to lane 2; lane 5 to lane 4.
        assert_eq!(shifted_lane(g8(), m, 3), Some(2));
        assert_eq!(shifted_lane(g8(), m, 5), Some(4));
        assert_eq!(shifted_lane(g8(), m, 2), None);
        assert_eq!(reshifted_lane(g8(), m, 2), Some(3));
        assert_eq!(reshifted_lane(g8(), m, 3), None);
        let v: Vec<u32> = (10..18).collect();
        let s = shift_values(g8(), m, &v);
        assert_eq!(s, vec![10, 11, 13, 0, 15, 0, 0, 0]);
        let back = reshift_values(g8(), m, &s);
        assert_eq!(back, vec![10, 11, 0, 13, 0, 15, 0, 0]);
    }
}
