//! Row decoder of one subarray port: 2–3-bit predecoders (NAND + buffer driving the predecode
//! line that runs along the subarray), a final NAND per row combining one line of each
//! predecode group, and a wordline driver chain sized by logical effort for the wordline's
//! gate and wire load. Delay adds the wordline's distributed RC (0.38·R·C).

use super::circuit::{inverter_chain, nand, transistor_area};
use super::tech::SramTech;

/// Cost of one decoder (one port of one subarray).
#[derive(Debug, Clone, Copy, Default)]
pub struct DecoderCost {
    /// Address-in to wordline-at-far-end delay (s), of which the wordline RC/driver part is
    /// `wl_delay_s`.
    pub delay_s: f64,
    /// Wordline driver and wordline RC part of `delay_s` (s).
    pub wl_delay_s: f64,
    /// Energy of one decode (predecode + final decode + driver), excluding the wordline itself.
    pub energy_j: f64,
    /// Energy of charging the selected wordline (J).
    pub wl_energy_j: f64,
    /// Subthreshold leakage of predecoders, row NANDs and wordline drivers (W).
    pub leak_w: f64,
    /// Gate-tunnelling leakage of the same devices (W).
    pub gate_leak_w: f64,
    /// Decoder strip width (m) beside the subarray.
    pub width_m: f64,
    /// Input capacitance seen by one address bit (F).
    pub c_addr_in_f: f64,
}

/// Split `bits` address bits into predecode groups of 2 or 3 bits.
fn groups(bits: u32) -> (u32, u32) {
    // returns (number of 3-bit groups, number of 2-bit groups); bits ≤ 1 handled by caller
    match bits {
        0 | 1 => (0, 0),
        b if b % 2 == 0 => (0, b / 2),
        b => (1, (b - 3) / 2),
    }
}

/// Decoder for `rows` rows whose wordline carries `c_wl_f` of load with `r_wl_ohm` of wire
/// resistance, in a row pitch of `row_h_m`.
pub fn decoder(
    tech: &SramTech,
    rows: u32,
    c_wl_f: f64,
    r_wl_ohm: f64,
    row_h_m: f64,
) -> DecoderCost {
    let dev = &tech.periph;
    let vdd = dev.vdd_v;
    let wmin = tech.w_min_m();
    let wmax = 100.0 * tech.feature_m;
    let bits = (rows.max(2) as f64).log2().ceil() as u32;
    let (g3, g2) = groups(bits);
    let ngroups = (g3 + g2).max(1);
    // Final decode gate per row.
    let fan = ngroups.clamp(1, 4);
    let row_nand = nand(tech, dev, fan, wmin);
    // Wordline driver chain from the row NAND.
    let drv = inverter_chain(tech, dev, 2.0 * wmin, wmax, c_wl_f, r_wl_ohm);
    let row_stage_delay = 0.69 * row_nand.r_out_ohm * (row_nand.c_self_f + drv.c_in_f);
    // Predecode: each line drives rows/2^g final-NAND inputs along the subarray height.
    let line_len = rows as f64 * row_h_m;
    let c_line_wire = line_len * tech.wire_semi.c_f_per_m;
    let r_line_wire = line_len * tech.wire_semi.r_ohm_per_m;
    let mut pre_delay: f64 = 0.0;
    let mut pre_energy = 0.0;
    let mut pre_leak = 0.0;
    let mut pre_gleak = 0.0;
    let mut pre_width = 0.0;
    let mut c_addr = 0.0;
    let mut add_group = |g: u32, count: u32| {
        if count == 0 {
            return;
        }
        let outputs = 1u32 << g;
        let fanout_gates = rows as f64 / outputs as f64;
        let c_load = c_line_wire + fanout_gates * row_nand.c_in_f / fan as f64;
        let gate = nand(tech, dev, g, wmin);
        let chain = inverter_chain(tech, dev, 2.0 * wmin, wmax, c_load, r_line_wire);
        let d = 0.69 * gate.r_out_ohm * (gate.c_self_f + chain.c_in_f) + chain.delay_s;
        pre_delay = pre_delay.max(d);
        // one line of each group rises per access (and one falls: counted as one CV² cycle)
        pre_energy += count as f64 * ((gate.c_self_f + chain.c_in_f) * vdd * vdd + chain.energy_j);
        pre_leak += count as f64 * outputs as f64 * (gate.leak_w + chain.leak_w);
        pre_gleak += count as f64 * outputs as f64 * (gate.gate_leak_w + chain.gate_leak_w);
        pre_width += count as f64 * outputs as f64 * (gate.width_m + chain.width_m);
        // each address bit (true and complement) feeds half the group's gates
        c_addr += count as f64 * (outputs as f64 / 2.0) * gate.c_in_f / g as f64;
    };
    add_group(3, g3);
    add_group(2, g2);
    let row_energy = (row_nand.c_self_f + drv.c_in_f) * vdd * vdd + drv.energy_j;
    // Driver energy already includes charging c_wl (its last stage load); split it out.
    let wl_energy = c_wl_f * vdd * vdd;
    let rows_f = rows as f64;
    let row_width = row_nand.width_m + drv.width_m;
    let strip_area = rows_f * transistor_area(tech, row_width) + transistor_area(tech, pre_width);
    let col_h = rows_f * row_h_m;
    DecoderCost {
        delay_s: pre_delay + row_stage_delay + drv.delay_s,
        wl_delay_s: drv.delay_s,
        energy_j: pre_energy + row_energy - wl_energy,
        wl_energy_j: wl_energy,
        leak_w: rows_f * (row_nand.leak_w + drv.leak_w) + pre_leak,
        gate_leak_w: rows_f * (row_nand.gate_leak_w + drv.gate_leak_w) + pre_gleak,
        width_m: strip_area / col_h.max(1e-12),
        c_addr_in_f: c_addr.max(row_nand.c_in_f),
    }
}
