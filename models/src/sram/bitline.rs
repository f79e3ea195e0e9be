//! Bitline path of one subarray: precharge and equalisation devices, the bitlines themselves,
//! the bitline column mux, sense amplifiers, the sense-amp output mux and write drivers.
//!
//! Read: the selected wordline turns on a row of cells; every column of the subarray develops
//! a swing (the unselected columns too: the wordline spans the whole subarray). Differential
//! (6T) ports sense a swing of max(5 % Vdd, 80 mV); single-ended 8T read ports sense a half-Vdd
//! swing with an inverter. The swing develops at the cell's read current through the bitline
//! RC; a slow wordline edge is accounted for with the ramp-input step response (the cell
//! current grows with the wordline voltage): for a step time `t_s` and wordline slope `m`,
//! `t = sqrt(2·t_s·(Vdd−Vth)/m)` while `t_s < (Vdd−Vth)/(2m)`, else `t_s + (Vdd−Vth)/(2m)`.
//! The precharge restores the swing from Vdd. Write: the selected columns swing rail to rail.

use super::cell::CellFigures;
use super::circuit::{inverter_chain, transistor_area};
use super::tech::SramTech;

/// Delay, energy, leakage and area of the bitline path of one subarray and one port.
#[derive(Debug, Clone, Copy, Default)]
pub struct BitlineCost {
    /// Time for the bitline to develop the sensed swing after the wordline rises (s).
    pub bl_delay_s: f64,
    /// Sense time: latch regeneration (6T) or inverter trip (8T read port) (s).
    pub sa_delay_s: f64,
    /// Delay through the sense-amp output mux and output driver (s).
    pub mux_delay_s: f64,
    /// Time to restore the bitlines to Vdd after an access (s).
    pub precharge_delay_s: f64,
    /// Read energy: swing of every column plus the precharge driver (J).
    pub bl_read_energy_j: f64,
    /// Write energy: rail-to-rail write of the written columns, swing of the rest (J).
    pub bl_write_energy_j: f64,
    /// Energy of all sense amplifiers of the subarray firing once (J).
    pub sa_energy_j: f64,
    /// Energy of the mux select lines and the mux outputs (J).
    pub mux_energy_j: f64,
    /// Subthreshold leakage of the precharge driver of one port's strip (W).
    pub bl_leak_w: f64,
    /// Subthreshold leakage of the write drivers of one writing port's strip (W).
    pub wd_leak_w: f64,
    /// Subthreshold leakage of the sense amplifiers (W).
    pub sa_leak_w: f64,
    /// Subthreshold leakage of the off mux pass gates and output drivers (W).
    pub mux_leak_w: f64,
    /// Gate leakage of the precharge/equalise devices, sense amps and precharge driver (W).
    pub gate_leak_w: f64,
    /// Height of the bitline periphery strip of one port (m).
    pub periph_height_m: f64,
    /// Area of that strip taken by the sense amplifiers and write drivers (for the breakdown), m².
    pub sa_area_m2: f64,
    /// Area of the bitline and output mux pass gates in that strip (m²).
    pub mux_area_m2: f64,
    /// Area of the precharge and equalisation devices and their driver in that strip (m²).
    pub pre_area_m2: f64,
}

/// Sense-amplifier devices, in units of the feature size (CACTI's 0.8 µm-derived sizes).
const W_SENSE_N_F: f64 = 3.75;
const W_SENSE_P_F: f64 = 7.5;
const W_SENSE_EN_F: f64 = 5.0;
/// Sense-amp isolation PMOS.
const W_ISO_F: f64 = 12.5;
/// Column-mux pass gates: 6 minimum widths.
const W_MUX_MIN: f64 = 6.0;
/// Precharge PMOS: 6 minimum widths (times the P/N ratio); equaliser: 1.
const W_PRE_MIN: f64 = 6.0;

/// `cols` columns of `rows` cells, `mux_bl`:1 bitline mux, `mux_sa`:1 mux after the sense amps,
/// `wl_rise_s` wordline transition time, `bits_out` bits written per write access.
#[allow(clippy::too_many_arguments)]
pub fn bitline(
    tech: &SramTech,
    cell: &CellFigures,
    rows: u32,
    cols: u32,
    mux_bl: u32,
    mux_sa: u32,
    wl_rise_s: f64,
    bits_out: u32,
) -> BitlineCost {
    let dev = &tech.periph;
    let cd = &tech.cell_dev;
    let vdd = dev.vdd_v;
    let wmin = tech.w_min_m();
    let f = tech.feature_m;
    let rows_f = rows as f64;
    let cols_f = cols as f64;
    let beta = dev.n_to_p_ratio;
    let w_pre = W_PRE_MIN * beta * wmin;
    let w_eq = beta * wmin;
    let w_mux = W_MUX_MIN * wmin;
    let n_sa = (cols / mux_bl.max(1)).max(1) as f64;
    let lines_per_col = if cell.single_ended { 1.0 } else { 2.0 };

    // --- bitline load ---
    let c_pre = tech.drain_c(dev, w_pre, 1.0) + tech.drain_c(dev, w_eq, 1.0) * 0.5;
    let c_mux = if mux_bl > 1 {
        tech.drain_c(dev, w_mux, 1.0)
    } else {
        0.0
    };
    let c_bl = rows_f * cell.c_bl_per_cell_f + c_pre + c_mux;
    let r_bl = rows_f * cell.r_bl_per_cell_ohm;
    // sense amp input (through the mux: shared by mux_bl columns)
    let c_sa_in = tech.gate_c(dev, (W_SENSE_N_F + W_SENSE_P_F) * f)
        + tech.drain_c(dev, W_SENSE_N_F * f, 1.0)
        + tech.drain_c(dev, W_SENSE_P_F * f, 1.0)
        + mux_bl as f64 * c_mux;
    let c_sense_node = c_bl + if mux_bl > 1 { c_sa_in } else { 0.0 };

    let dv = if cell.single_ended {
        0.5 * vdd
    } else {
        (0.05 * vdd).max(0.08).min(0.5 * vdd)
    };
    let r_mux = if mux_bl > 1 {
        dev.r_nch_on_ohm_m / w_mux
    } else {
        0.0
    };
    let tau = (cell.r_read_ohm + r_bl / 2.0 + r_mux) * c_sense_node;
    let t_step = tau * (vdd / (vdd - dv).max(1e-3)).ln();
    let v_on = (vdd - cd.vth_v).max(0.05 * vdd);
    let m = vdd / wl_rise_s.max(1e-15);
    let bl_delay = if t_step <= 0.5 * v_on / m {
        (2.0 * t_step * v_on / m).sqrt()
    } else {
        t_step + v_on / (2.0 * m)
    };

    // --- sense amplifier ---
    // latch load: its own gates and drains plus the isolation and output-mux drains
    let c_latch = tech.gate_c(dev, (W_SENSE_N_F + W_SENSE_P_F) * f)
        + tech.drain_c(dev, W_SENSE_N_F * f, 1.0)
        + tech.drain_c(dev, W_SENSE_P_F * f, 1.0)
        + tech.drain_c(dev, W_ISO_F * f, 1.0)
        + tech.drain_c(dev, w_mux, 1.0);
    let sa_delay = if cell.single_ended {
        // an inverter trip on the read bitline: a gate delay
        0.69 * dev.r_nch_on_ohm_m / wmin * c_sa_in
    } else {
        // regenerative latch: τ = C/g_m, amplifying ΔV to Vdd
        let gm = tech.sense_gm_s_per_m * W_SENSE_N_F * f;
        c_latch / gm.max(1e-30) * (vdd / dv).ln()
    };

    // --- precharge driver: one signal across the subarray width driving all precharge gates ---
    let c_pre_gates = cols_f * lines_per_col * tech.gate_c(dev, w_pre + 0.5 * w_eq)
        + cols_f * cell.width_m * tech.wire_local.c_f_per_m;
    let pre_drv = inverter_chain(tech, dev, 2.0 * wmin, 100.0 * f, c_pre_gates, 0.0);
    let r_pre = dev.r_pch_on_ohm_m / w_pre;
    let precharge_delay =
        pre_drv.delay_s + 2.3 * (r_pre + r_bl / 2.0) * c_bl * (dv / vdd).max(0.05);

    // --- energies ---
    // both lines of a differential pair are precharged and equalised after the read: the
    // pair's charge C·ΔV is drawn from Vdd once per line (restore + equalisation loss)
    let read_swing_e = lines_per_col * c_bl * dv * vdd;
    // every column of the active subarray swings; precharge restores it
    let bl_read = cols_f * read_swing_e + pre_drv.energy_j;
    let written = (bits_out as f64).min(cols_f);
    let c_wbl = rows_f * cell.c_wbl_per_cell_f + c_pre + c_mux;
    let wd = inverter_chain(tech, dev, wmin, 100.0 * f, c_wbl, r_bl);
    // write drivers swing the written columns rail to rail (their energy includes the line)
    let bl_write = written * wd.energy_j
        + (cols_f - written).max(0.0) * 2.0 * 0.5 * c_bl * dv * vdd
        + pre_drv.energy_j;
    let sa_e = if cell.single_ended {
        n_sa * c_sa_in * vdd * vdd
    } else {
        n_sa * (c_latch + 2.0 * tech.drain_c(dev, W_ISO_F * f, 1.0) * dv / vdd) * vdd * vdd
    };
    // mux select lines: one of mux_bl lines across the subarray, and the SA-side mux
    let c_mux_sel = if mux_bl > 1 {
        n_sa * lines_per_col * tech.gate_c(dev, w_mux)
            + cols_f * cell.width_m * tech.wire_local.c_f_per_m
    } else {
        0.0
    };
    let out_bits = (n_sa / mux_sa.max(1) as f64).max(1.0);
    let c_out = out_bits
        * (tech.gate_c(dev, 4.0 * wmin * (1.0 + beta))
            + tech.drain_c(dev, w_mux, 1.0) * mux_sa as f64);
    let mux_e = c_mux_sel * vdd * vdd + c_out * vdd * vdd;
    let mux_delay = if mux_sa > 1 {
        0.69 * dev.r_nch_on_ohm_m / w_mux * (mux_sa as f64 * tech.drain_c(dev, w_mux, 1.0))
    } else {
        0.0
    } + 0.69 * dev.r_nch_on_ohm_m / (4.0 * wmin)
        * tech.gate_c(dev, 16.0 * wmin * (1.0 + beta));

    // --- leakage ---
    // precharge devices are on in standby; mux pass gates off: one per bitline leaks;
    // sense amplifiers: enable device off.
    let leak_n = dev.i_off_n_a_per_m * vdd;
    let mux_leak = if mux_bl > 1 {
        cols_f * lines_per_col * w_mux * leak_n
    } else {
        0.0
    } + out_bits * 4.0 * wmin * (1.0 + beta) * 0.5 * leak_n;
    let sa_leak =
        n_sa * (W_SENSE_EN_F * f * leak_n + 0.5 * (W_SENSE_N_F + W_SENSE_P_F) * f * leak_n * 0.5);
    let bl_leak = pre_drv.leak_w;
    let wd_leak = wd.leak_w * written;
    let gate_leak = cols_f * lines_per_col * (w_pre + w_eq) * dev.i_gate_a_per_m * vdd
        + n_sa * (W_SENSE_N_F + W_SENSE_P_F) * f * dev.i_gate_a_per_m * vdd * 0.5
        + pre_drv.gate_leak_w;

    // --- area (one port's strip) ---
    let pre_w = cols_f * lines_per_col * (w_pre + w_eq) + pre_drv.width_m;
    let mux_w = if mux_bl > 1 {
        cols_f * lines_per_col * w_mux
    } else {
        0.0
    } + out_bits * mux_sa as f64 * w_mux;
    let sa_w = n_sa * (2.0 * (W_SENSE_N_F + W_SENSE_P_F) + W_SENSE_EN_F) * f;
    let wd_w = written.max(n_sa / mux_sa.max(1) as f64) * wd.width_m;
    let pre_a = transistor_area(tech, pre_w);
    let mux_a = transistor_area(tech, mux_w);
    let sa_a = transistor_area(tech, sa_w + wd_w);
    let strip_w = cols_f * cell.width_m;
    BitlineCost {
        bl_delay_s: bl_delay,
        sa_delay_s: sa_delay,
        mux_delay_s: mux_delay,
        precharge_delay_s: precharge_delay,
        bl_read_energy_j: bl_read,
        bl_write_energy_j: bl_write,
        sa_energy_j: sa_e,
        mux_energy_j: mux_e,
        bl_leak_w: bl_leak,
        wd_leak_w: wd_leak,
        sa_leak_w: sa_leak,
        mux_leak_w: mux_leak,
        gate_leak_w: gate_leak,
        periph_height_m: (pre_a + mux_a + sa_a) / strip_w.max(1e-12),
        sa_area_m2: sa_a,
        mux_area_m2: mux_a,
        pre_area_m2: pre_a,
    }
}
