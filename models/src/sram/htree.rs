//! Routing: the H-tree inside a bank (bank edge to its mats) and the tree between banks, both
//! built from repeated wires ([`super::circuit::repeated_wire`]), after CACTI's `Htree2`.
//!
//! The leaves of the bank tree are mats (2 × 2 subarrays around a shared spine), so a tree over
//! `nx × ny` mats has `h = log2 nx` horizontal and `v = log2 ny` vertical branchings. Entering at
//! the middle of the region, the horizontal links are `W/2, W/4, …` and the vertical ones
//! `H/4, H/8, …`, so the path to a leaf is `W·(1 − 2^-h) + (H/2)·(1 − 2^-v)`. Per access every
//! wire of the bundle that the access uses switches along that path (inside a bank the
//! accessing port's address and data; between banks its address and the data of every reading,
//! or writing, port: see `array`). The bundles occupy channels between the leaves:
//! address bits cross every leaf boundary, data bits one channel per branching level inside a
//! bank and one per direction between banks (the root branching; the deeper inter-bank branches
//! run on the global layers over the banks).

use super::circuit::RepeatedWire;

/// Delay, energy, leakage and footprint of one routing tree.
#[derive(Debug, Clone, Copy, Default)]
pub struct Route {
    /// One-way delay to the farthest leaf (s).
    pub delay_s: f64,
    /// Energy of moving one bit one way (J).
    pub energy_per_bit_j: f64,
    /// Leakage of all repeaters of the bundle (W) and its gate-leakage part.
    pub leak_w: f64,
    /// Gate-leakage part of `leak_w` (W).
    pub gate_leak_w: f64,
    /// Extra width and height taken by the routing channels (m).
    pub extra_w_m: f64,
    /// Extra height taken by the routing channels (m).
    pub extra_h_m: f64,
    /// Length of the root-to-leaf path, the one every access travels (m).
    pub path_m: f64,
}

/// Tree over an `nx × ny` grid of leaves of `leaf_w × leaf_h`, carrying `addr_wires` address
/// and `data_wires` data wires, on wires of pitch `pitch_m`. Repeater leakage counts the
/// repeaters of the whole tree.
///
/// With `edge_exit` the tree ends at the middle of the region's lower edge (a bank's I/O
/// strip): even a single column of leaves then needs one horizontal level, half the region
/// wide, and one data channel along that edge (CACTI's bank H-tree always routes the block to
/// the bank edge, so a wide block costs a bus channel even in a one-mat bank).
#[allow(clippy::too_many_arguments)]
pub fn htree(
    rep: &RepeatedWire,
    leaf_w_m: f64,
    leaf_h_m: f64,
    nx: u32,
    ny: u32,
    addr_wires: f64,
    data_wires: f64,
    pitch_m: f64,
    edge_exit: bool,
) -> Route {
    if edge_exit {
        return tree(
            rep, leaf_w_m, leaf_h_m, nx, ny, addr_wires, data_wires, pitch_m, 1.0,
        );
    }
    tree(
        rep, leaf_w_m, leaf_h_m, nx, ny, addr_wires, data_wires, pitch_m, 0.0,
    )
}

#[allow(clippy::too_many_arguments)]
fn tree(
    rep: &RepeatedWire,
    leaf_w_m: f64,
    leaf_h_m: f64,
    nx: u32,
    ny: u32,
    addr_wires: f64,
    data_wires: f64,
    pitch_m: f64,
    min_h: f64,
) -> Route {
    let h = (nx.max(1) as f64).log2().round().max(min_h);
    let v = (ny.max(1) as f64).log2().round();
    if h == 0.0 && v == 0.0 {
        return Route::default();
    }
    // Channels for the data bundle: inside a bank one per branching level (the mats leave no
    // room over them); between banks only the root branching in each direction takes a channel
    // through the bank grid, the shorter branches below it run on the global layers over the
    // banks.
    let (cv, ch) = if min_h == 0.0 {
        (v.min(1.0), h.min(1.0))
    } else {
        (v, h)
    };
    let extra_w = (addr_wires * (nx.max(1) - 1) as f64 + data_wires * cv) * pitch_m;
    let extra_h = (addr_wires * (ny.max(1) - 1) as f64 + data_wires * ch) * pitch_m;
    let w = leaf_w_m * nx as f64 + extra_w;
    let ht = leaf_h_m * ny as f64 + extra_h;
    let path = w * (1.0 - 0.5f64.powf(h)) + 0.5 * ht * (1.0 - 0.5f64.powf(v));
    let total_len = if min_h > 0.0 {
        // a bank's tree to its mats: the bundle narrows towards the leaves, so the repeaters
        // of about twice one root-to-leaf path carry the whole bundle
        (addr_wires + data_wires) * path * 2.0
    } else {
        // the tree between banks: every branch is a full bundle (one bus shared by all the
        // banks). Horizontal levels first, each W/2 of links in total, then vertical levels
        // replicated under each of the nx columns, each nx·H/2 in total.
        let full = h * w / 2.0 + v * ht * nx.max(1) as f64 / 2.0;
        (addr_wires + data_wires) * full.max(path)
    };
    Route {
        delay_s: path * rep.delay_s_per_m,
        energy_per_bit_j: path * rep.energy_j_per_m,
        leak_w: total_len * rep.leak_w_per_m,
        gate_leak_w: total_len * rep.gate_leak_w_per_m,
        extra_w_m: extra_w,
        extra_h_m: extra_h,
        path_m: path,
    }
}
