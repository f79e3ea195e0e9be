//! One candidate organisation evaluated end to end: subarray (cells, decoders per port,
//! bitline periphery per port), bank (subarray grid + internal H-tree), and all banks (bank
//! grid + inter-bank tree). Returns the outputs with their per-component breakdown.

use super::bitline::{bitline, BitlineCost};
use super::calib::Calib;
use super::cell::{CellFigures, Ports};
use super::circuit::{transistor_area, RepeatedWire};
use super::decoder::{decoder, DecoderCost};
use super::htree::{htree, Route};
use super::organisation::{bank_grid, bank_grid_count, Organisation};
use super::tech::SramTech;
use super::{Breakdown, ComponentCost, SramResult};

/// Bank aspect ratio above which banks are tiled to square the outline.
pub const ELONGATED_BANK: f64 = 16.0;

/// Per-configuration quantities computed once before the organisation search.
pub struct Prep<'a> {
    pub tech: &'a SramTech,
    pub cell: CellFigures,
    pub ports: Ports,
    pub word_bits: u64,
    pub bank_bits: u64,
    pub banks: u32,
    pub rep_semi: RepeatedWire,
    pub rep_global: RepeatedWire,
    pub calib: &'a Calib,
}

fn log2_ceil(x: u64) -> u32 {
    if x <= 1 {
        0
    } else {
        64 - (x - 1).leading_zeros()
    }
}

/// The geometry of one organisation: its subarray, bank and all-banks layout with the routes
/// inside and between the banks ([`layout`]).
struct Layout {
    /// The bitline periphery of one subarray.
    bl: BitlineCost,
    /// Width of a subarray's cells, m.
    sub_w_cells: f64,
    /// Height of a subarray's cells, m.
    sub_h_cells: f64,
    /// Width of a subarray's row decoders (all ports, shared share), m.
    dec_w: f64,
    /// Height of a subarray's bitline-periphery strips (one per port), m.
    periph_h: f64,
    /// Subarray width with its decoders, m.
    sub_w: f64,
    /// Subarrays per bank.
    nsub: f64,
    /// Address bits inside a bank.
    addr_bits: f64,
    /// Data bits of a word with its check bits.
    data_bits: f64,
    /// Address and data wires of every port at the bank edge.
    bank_wires: f64,
    /// Mats across a bank.
    mat_nx: u32,
    /// Mats down a bank.
    mat_ny: u32,
    /// Mat width, m.
    mat_w: f64,
    /// Mat height, m.
    mat_h: f64,
    /// The H-tree inside a bank.
    bank_route: Route,
    /// Width of one bank-edge latch and driver, m.
    io_width: f64,
    /// Bank-select address bits.
    bank_sel: f64,
    /// The H-tree between banks.
    top_route: Route,
    /// Width of all banks, m.
    total_w: f64,
    /// Height of all banks, m.
    total_h: f64,
}

/// Lays out organisation `o` of `p` with row decoder `dec`: the subarray (cells, decoders
/// per port, bitline periphery per port), the bank (mats of subarrays and its H-tree, the edge
/// latches) and all banks (bank grid and the tree between banks).
fn layout(p: &Prep, o: &Organisation, dec: &DecoderCost) -> Layout {
    let t = p.tech;
    let k = p.calib;
    let ports = p.ports;
    let n_ports = ports.total() as f64;
    let rows = o.rows;
    // physical columns: the organisation's data columns plus the check bits stored with them
    let ecc = 1.0 + k.ecc_bits_per_data_bit;
    let cols = ecc_cols(o.cols, k);
    let rows_f = rows as f64;
    let cols_f = cols as f64;
    let cell = &p.cell;
    let mux_sa = (o.nspd / o.mux_bl).max(1);
    let bits_per_sub = ((p.word_bits / o.ndwl as u64).max(1) as f64 * ecc).round() as u32;

    // ---- subarray ----
    let wl_rise = 2.2 * dec.wl_delay_s.max(1e-13);
    let bl = bitline(t, cell, rows, cols, o.mux_bl, mux_sa, wl_rise, bits_per_sub);

    let sub_w_cells = cols_f * cell.width_m;
    let sub_h_cells = rows_f * cell.height_m;
    // decoders are shared by the two subarrays either side of them when Ndwl ≥ 2
    let dec_share = if o.ndwl >= 2 { 0.5 } else { 1.0 };
    let dec_w = k.periph_area * n_ports * dec.width_m * dec_share;
    // one bitline-periphery strip per port: a read port's precharge, column mux and sense
    // amplifiers, a write port's precharge, column mux and write drivers (of about the same
    // footprint), a read-write port's shared set
    let periph_h = k.periph_area * bl.periph_height_m * n_ports;
    let sub_w = sub_w_cells + dec_w;
    let sub_h = sub_h_cells + periph_h;

    // ---- bank ----
    let nsub = (o.ndwl * o.ndbl) as f64;
    let addr_bits =
        (log2_ceil(rows as u64) + log2_ceil(o.ndbl as u64) + log2_ceil(o.nspd as u64)) as f64;
    let data_bits = p.word_bits as f64 * ecc;
    // bundle of all ports: address per port, read data per reading port, write data per writing port
    let addr_wires = n_ports * addr_bits;
    // one data bus per port: a read-write port reads or writes in a cycle, so its bus is
    // bidirectional; a read-only (write-only) port has its own read (write) bus
    let data_wires = n_ports * data_bits;
    let bank_wires = addr_wires + data_wires;
    let pitch_semi = t.wire_semi.pitch_m * k.route_pitch;
    // mats of up to 2 × 2 subarrays
    let mat_nx = (o.ndwl / 2).max(1);
    let mat_ny = (o.ndbl / 2).max(1);
    let mat_w = sub_w * (o.ndwl.min(2)) as f64;
    let mat_h = sub_h * (o.ndbl.min(2)) as f64;
    let bank_route = htree(
        &p.rep_semi,
        mat_w,
        mat_h,
        mat_nx,
        mat_ny,
        addr_wires,
        data_wires,
        pitch_semi,
        true,
    );
    // Bank I/O: every address and data wire of every port is latched and driven at the bank
    // edge (a latch plus a 4× driver, ~14 minimum-width device pairs), in a strip as wide as the bank.
    let io_width = 14.0 * t.w_min_m() * (1.0 + t.periph.n_to_p_ratio);
    let io_area = k.io * bank_wires * transistor_area(t, io_width);
    let bank_w = mat_nx as f64 * mat_w + bank_route.extra_w_m;
    let bank_h = mat_ny as f64 * mat_h + bank_route.extra_h_m + io_area / bank_w.max(1e-12);

    // ---- all banks ----
    // Banks tile in CACTI's grid (square in bank count) unless they are so elongated that the
    // outline would be too: then in the grid that squares the outline.
    let bank_aspect = (bank_w / bank_h.max(1e-12)).max(bank_h / bank_w.max(1e-12));
    let (gc, gr) = if bank_aspect > ELONGATED_BANK {
        bank_grid(p.banks, bank_w, bank_h)
    } else {
        bank_grid_count(p.banks)
    };
    let bank_sel = log2_ceil(p.banks as u64) as f64;
    let top_addr_wires = n_ports * (addr_bits + bank_sel);
    // Between banks the data buses are unidirectional: one data-out bus per port that can read
    // and one data-in bus per port that can write (a read-write port has both), as CACTI sizes
    // a bank's data output and input as the block times the read and the write ports.
    let top_data_wires = (ports.readers() + ports.writers()) as f64 * data_bits;
    let pitch_g = t.wire_semi.pitch_m * k.route_pitch * k.route_pitch_top;
    let top_route = htree(
        &p.rep_global,
        bank_w,
        bank_h,
        gc,
        gr,
        top_addr_wires,
        top_data_wires,
        pitch_g,
        false,
    );
    let total_w = gc as f64 * bank_w + top_route.extra_w_m;
    let total_h = gr as f64 * bank_h + top_route.extra_h_m;
    Layout {
        bl,
        sub_w_cells,
        sub_h_cells,
        dec_w,
        periph_h,
        sub_w,
        nsub,
        addr_bits,
        data_bits,
        bank_wires,
        mat_nx,
        mat_ny,
        mat_w,
        mat_h,
        bank_route,
        io_width,
        bank_sel,
        top_route,
        total_w,
        total_h,
    }
}

/// Evaluates organisation `o` of `p` with row decoder `dec` end to end (module doc): delay,
/// energy per access, leakage and area, with the per-component breakdown.
pub fn evaluate(p: &Prep, o: &Organisation, dec: &DecoderCost) -> SramResult {
    let t = p.tech;
    let k = p.calib;
    let vdd = t.periph.vdd_v;
    let ports = p.ports;
    let n_ports = ports.total() as f64;
    let n_read = ports.readers().max(1) as f64;
    let n_write = ports.writers() as f64;
    let rows_f = o.rows as f64;
    let cols_f = ecc_cols(o.cols, k) as f64;
    let cell = &p.cell;
    let Layout {
        bl,
        sub_w_cells,
        sub_h_cells,
        dec_w,
        periph_h,
        sub_w,
        nsub,
        addr_bits,
        data_bits,
        bank_wires,
        mat_nx,
        mat_ny,
        mat_w,
        mat_h,
        bank_route,
        io_width,
        bank_sel,
        top_route,
        total_w,
        total_h,
    } = layout(p, o, dec);

    // ---- delay ----
    let t_route_in = bank_route.delay_s + top_route.delay_s;
    let t_route_out = t_route_in;
    let t_dec = dec.delay_s;
    let t_array = t_dec + bl.bl_delay_s + bl.sa_delay_s + bl.mux_delay_s;
    let access = k.delay_array * t_array + k.delay_route * (t_route_in + t_route_out);
    let cycle = (k.delay_array
        * (dec.delay_s).max(dec.wl_delay_s + bl.bl_delay_s + bl.sa_delay_s + bl.precharge_delay_s))
    .max(k.delay_route * bank_route.delay_s.max(top_route.delay_s) * 0.5);

    // ---- energy per access (one port, one bank) ----
    // Subarrays are grouped in mats of up to 2×2 sharing predecode and sense control; an access
    // activates the Ndwl subarrays of one row, i.e. Ndwl/2 mats, and every subarray of an active
    // mat precharges and senses (the mat's bitline and sense control are common).
    let active = o.ndwl as f64;
    let per_mat = (if o.ndwl > 1 { 2.0 } else { 1.0 }) * (if o.ndbl > 1 { 2.0 } else { 1.0 });
    let swinging = (o.ndwl as f64 / 2.0).max(1.0) * per_mat;
    let addr_in_bits = addr_bits + bank_sel;
    let e_dec = active * dec.energy_j;
    let e_wl = active * dec.wl_energy_j;
    let kb = k.energy_bitline / k.energy_array;
    let e_bl_read = kb * swinging * bl.bl_read_energy_j;
    let e_bl_write = kb * active * bl.bl_write_energy_j;
    let e_sa = kb * swinging * bl.sa_energy_j;
    let e_mux = active * bl.mux_energy_j;
    // bank-edge latches: the accessing port's address and data latches toggle
    let c_io = t.gate_c(&t.periph, io_width) * 0.5;
    let e_io = k.io * (addr_in_bits + data_bits) * c_io * vdd * vdd;
    let e_predec_in = active * dec.c_addr_in_f * addr_bits * vdd * vdd + e_io;
    // Address distribution inside the bank: every mat decodes its own rows, so the row
    // address runs along every row and every column of mats (a comb over the mat grid,
    // nx·ny·(mat width + mat height) of wire) and toggles on every access.
    let addr_dist_m = (mat_nx * mat_ny) as f64 * (mat_w + mat_h);
    let e_addr_dist =
        k.energy_addr_dist / k.energy_route * addr_bits * addr_dist_m * p.rep_semi.energy_j_per_m;
    let e_predec_in = e_predec_in + e_addr_dist;
    let et = k.energy_top / k.energy_route;
    // Inside a bank every port has its own address and data H-tree and an access switches only
    // the accessing port's: its address and its data bus. Between banks the data buses of all
    // ports that can read (or, for a write, write) run as one bundle of `ports × block` bits
    // that a transfer drives as a whole (CACTI sizes the bank's data output as the block times
    // the read ports); the address is that of the accessing port.
    let n_read_top = n_read;
    let n_write_top = n_write.max(1.0);
    let e_route_read = (addr_bits + data_bits) * bank_route.energy_per_bit_j
        + et * (addr_bits + bank_sel + n_read_top * data_bits) * top_route.energy_per_bit_j
        + e_predec_in;
    let e_route_write = (addr_bits + data_bits) * bank_route.energy_per_bit_j
        + et * (addr_bits + bank_sel + n_write_top * data_bits) * top_route.energy_per_bit_j
        + e_predec_in;
    let kf = k.flavour_energy(t.flavour);
    let ka = k.energy_array * kf;
    let kr = k.energy_route * kf;
    let read_e = ka * (e_dec + e_wl + e_bl_read + e_sa + e_mux) + kr * e_route_read;
    let write_e = ka * (e_dec + e_wl + e_bl_write + e_mux) + kr * e_route_write;
    // leakage computed below; static energy over the access added after it

    // ---- leakage per bank ----
    let cells = nsub * rows_f * cols_f;
    let l_cells = k.leakage_cell * cells * cell.leak_w;
    let g_cells = k.leakage_cell * cells * cell.gate_leak_w;
    let l_dec = nsub * n_ports * dec.leak_w;
    let g_dec = nsub * n_ports * dec.gate_leak_w;
    // every port's strip has a precharge driver; a port that writes has write drivers too
    let l_bl = nsub * (n_ports * bl.bl_leak_w + n_write * bl.wd_leak_w);
    let l_sa = nsub * n_read * bl.sa_leak_w;
    let l_mux = nsub * n_read * bl.mux_leak_w;
    let g_bl = nsub * n_ports * bl.gate_leak_w;
    // The tree between banks is charged in full to the per-bank figure (CACTI's convention:
    // a bank's leakage includes the routing to it); the all-banks total counts it once.
    // the same latches whose area and energy `io` scales
    let io_leak = k.io * bank_wires * 0.5 * io_width * t.periph.i_off_n_a_per_m * vdd;
    let l_route = bank_route.leak_w + top_route.leak_w + io_leak;
    let g_route = bank_route.gate_leak_w + top_route.gate_leak_w;
    let kl = k.leakage_periph;
    let klr = k.leakage_periph * k.leakage_route;
    let l_top = klr * (top_route.leak_w + top_route.gate_leak_w);
    let l_top_extra = (p.banks as f64 - 1.0) * l_top;
    // (cells use k.leakage_cell above)
    let sub_leak_bank = l_cells + kl * (l_dec + l_bl + l_sa + l_mux) + klr * l_route;
    let gate_leak_bank = g_cells + kl * (g_dec + g_bl) + klr * g_route;
    let leak_bank = sub_leak_bank + gate_leak_bank;
    // near-threshold arrays lift their read data to the nominal-supply datapath
    let e_level_shift = k.level_shift_j_per_bit * p.word_bits as f64 * level_shift_gap(t);
    let read_e = read_e + e_level_shift;

    // ---- area ----
    let area = total_w * total_h;
    let banks_f = p.banks as f64;
    let a_cells = banks_f * nsub * sub_w_cells * sub_h_cells;
    let a_dec = banks_f * nsub * dec_w * sub_h_cells;
    let a_periph = banks_f * nsub * periph_h * sub_w;
    let periph_total = (bl.sa_area_m2 + bl.mux_area_m2 + bl.pre_area_m2).max(1e-30);
    let a_route = (area - a_cells - a_dec - a_periph).max(0.0);

    let ke = ka;
    let kd = k.delay_array;
    let breakdown = Breakdown {
        decoder: comp(
            a_dec,
            ke * e_dec,
            ke * e_dec,
            kl * (l_dec + g_dec) * banks_f,
            kl * g_dec * banks_f,
            kd * (t_dec - dec.wl_delay_s),
        ),
        wordline: comp(0.0, ke * e_wl, ke * e_wl, 0.0, 0.0, kd * dec.wl_delay_s),
        bitline: comp(
            a_periph * bl.pre_area_m2 / periph_total,
            ke * e_bl_read,
            ke * e_bl_write,
            kl * (l_bl + g_bl) * banks_f,
            kl * g_bl * banks_f,
            kd * bl.bl_delay_s,
        ),
        sense_amp: comp(
            a_periph * bl.sa_area_m2 / periph_total,
            ke * e_sa,
            0.0,
            kl * l_sa * banks_f,
            0.0,
            kd * bl.sa_delay_s,
        ),
        mux: comp(
            a_periph * bl.mux_area_m2 / periph_total,
            ke * e_mux,
            ke * e_mux,
            kl * l_mux * banks_f,
            0.0,
            kd * bl.mux_delay_s,
        ),
        routing: comp(
            a_route,
            kr * e_route_read + e_level_shift,
            kr * e_route_write,
            klr * ((bank_route.leak_w + io_leak + bank_route.gate_leak_w) * banks_f
                + top_route.leak_w
                + top_route.gate_leak_w),
            klr * (bank_route.gate_leak_w * banks_f + top_route.gate_leak_w),
            k.delay_route * (t_route_in + t_route_out),
        ),
        cells: comp(
            a_cells,
            0.0,
            0.0,
            (l_cells + g_cells) * banks_f,
            g_cells * banks_f,
            0.0,
        ),
    };
    SramResult {
        area_m2: area,
        height_m: total_h,
        width_m: total_w,
        access_time_s: access,
        cycle_time_s: cycle,
        read_energy_j: read_e,
        write_energy_j: write_e,
        leakage_w: leak_bank * banks_f - l_top_extra,
        leakage_bank_w: leak_bank,
        leakage_top_route_w: l_top,
        gate_leakage_bank_w: gate_leak_bank,
        organisation: *o,
        breakdown,
    }
}

/// One component's figures: area (m²), read and write energy (J), leakage and its gate part
/// (W), delay (s).
fn comp(area_m2: f64, r: f64, w: f64, l: f64, g: f64, d: f64) -> ComponentCost {
    ComponentCost {
        area_m2,
        read_energy_j: r,
        write_energy_j: w,
        leakage_w: l,
        gate_leakage_w: g,
        delay_s: d,
    }
}

/// Physical columns of a subarray of `cols` data columns: plus the check bits.
fn ecc_cols(cols: u32, k: &Calib) -> u32 {
    ((cols as f64) * (1.0 + k.ecc_bits_per_data_bit))
        .round()
        .max(1.0) as u32
}

/// The row decoder of a subarray of `rows × cols` data columns (depends only on those two
/// numbers).
pub fn subarray_decoder(p: &Prep, rows: u32, cols: u32) -> DecoderCost {
    let cols = ecc_cols(cols, p.calib);
    let c_wl = cols as f64 * p.cell.c_wl_per_cell_f;
    let r_wl = cols as f64 * p.cell.r_wl_per_cell_ohm;
    decoder(p.tech, rows, c_wl, r_wl, p.cell.height_m)
}

/// Relative supply gap a level shifter bridges, `(V_nominal − V)/V_nominal` (0 at or above the
/// nominal supply). The shifter's contention current, and so its energy, grows with the gap.
pub fn level_shift_gap(t: &SramTech) -> f64 {
    ((t.nominal_vdd_v - t.periph.vdd_v) / t.nominal_vdd_v.max(1e-12)).max(0.0)
}
