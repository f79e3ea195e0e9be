//! Circuit primitives shared by the SRAM components: RC stage delay, logical-effort buffer
//! chains, gate area and leakage, and optimally repeated wires.
//!
//! Delays are Elmore (0.69·R·C per stage, plus 0.38·R·C for distributed wire RC) with the
//! Horowitz slope correction approximated by adding half the input transition's contribution.
//! Energies are C·V² of every node that switches once per access. Leakage of a gate is the
//! average over its input states: half the time the NMOS network is off, half the PMOS one.

use super::tech::{DeviceParams, SramTech, WireParams};

/// Logical effort step target (fan-out per stage) used when sizing buffer chains.
pub const STAGE_EFFORT: f64 = 4.0;

/// Stack-leakage reduction of a 2-high series stack relative to a single off device.
pub const STACK2_LEAK_FACTOR: f64 = 0.2;

/// Delay, energy, leakage and area of a sized chain of inverters driving a load.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChainCost {
    /// Input-to-load delay through all stages, Elmore with slope correction (s).
    pub delay_s: f64,
    /// Energy of one transition of every stage and the load, C·V² (J).
    pub energy_j: f64,
    /// Subthreshold leakage averaged over input states (W).
    pub leak_w: f64,
    /// Gate-tunnelling leakage averaged over input states (W).
    pub gate_leak_w: f64,
    /// Total transistor width (NMOS + PMOS) in the chain (m), a proxy for layout area.
    pub width_m: f64,
    /// Input capacitance of the chain (F).
    pub c_in_f: f64,
}

/// Size an inverter chain by logical effort: first stage of NMOS width `w_first_m`, driving
/// `c_load_f` with per-stage fan-out close to [`STAGE_EFFORT`], NMOS widths capped at
/// `w_max_m`. Returns delay (with `r_wire_ohm` of distributed load wire), energy, leakage and
/// transistor width.
pub fn inverter_chain(
    tech: &SramTech,
    dev: &DeviceParams,
    w_first_m: f64,
    w_max_m: f64,
    c_load_f: f64,
    r_wire_ohm: f64,
) -> ChainCost {
    let beta = dev.n_to_p_ratio;
    let cg = dev.c_gate_per_m();
    let c_in = cg * w_first_m * (1.0 + beta);
    let effort = (c_load_f / c_in).max(1.0);
    let n = ((effort.ln() / STAGE_EFFORT.ln()).round() as i32).clamp(1, 12) as usize;
    let f = effort.powf(1.0 / n as f64);
    let vdd = dev.vdd_v;
    let mut w = w_first_m;
    let mut cost = ChainCost {
        c_in_f: c_in,
        ..ChainCost::default()
    };
    let mut t_in = 0.0;
    for i in 0..n {
        let wn = w.min(w_max_m);
        let wp = wn * beta;
        let c_self = tech.drain_c(dev, wn, 1.0) + tech.drain_c(dev, wp, 1.0);
        let c_next = if i + 1 == n {
            c_load_f
        } else {
            cg * (w * f).min(w_max_m) * (1.0 + beta)
        };
        let r = dev.r_nch_on_ohm_m / wn;
        let mut d = 0.69 * r * (c_self + c_next) + 0.5 * t_in * 0.25;
        if i + 1 == n {
            d += r_wire_ohm * (0.38 * c_load_f) + 0.69 * r_wire_ohm * 0.0;
        }
        t_in = 2.2 * r * (c_self + c_next);
        cost.delay_s += d;
        cost.energy_j += (c_self + c_next) * vdd * vdd;
        cost.leak_w += 0.5 * (wn * dev.i_off_n_a_per_m + wp * dev.i_off_p_a_per_m) * vdd;
        cost.gate_leak_w += 0.5 * (wn + wp) * dev.i_gate_a_per_m * vdd;
        cost.width_m += wn + wp;
        w *= f;
    }
    cost
}

/// A static CMOS NAND gate of `fanin` inputs whose NMOS devices have width `wn_m`: input
/// capacitance, output resistance, self capacitance, leakage (W) and transistor width.
#[derive(Debug, Clone, Copy)]
pub struct Nand {
    /// Capacitance of one input (one NMOS and one PMOS gate) (F).
    pub c_in_f: f64,
    /// Pull-down resistance of the series NMOS stack (Ω).
    pub r_out_ohm: f64,
    /// Drain capacitance on the output node (F).
    pub c_self_f: f64,
    /// Subthreshold leakage averaged over input states, with stack reduction (W).
    pub leak_w: f64,
    /// Gate-tunnelling leakage averaged over input states (W).
    pub gate_leak_w: f64,
    /// Total transistor width (NMOS + PMOS) (m).
    pub width_m: f64,
}

/// Size a `fanin`-input NAND: series NMOS widened by the stack height for unit-NMOS drive,
/// parallel PMOS at unit size.
pub fn nand(tech: &SramTech, dev: &DeviceParams, fanin: u32, wn_m: f64) -> Nand {
    let k = fanin as f64;
    // Series NMOS sized up by the stack height for equal drive; PMOS in parallel at unit size.
    let wn = wn_m * k;
    let wp = wn_m * dev.n_to_p_ratio;
    let cg = dev.c_gate_per_m();
    let stack_leak = if fanin >= 2 { STACK2_LEAK_FACTOR } else { 1.0 };
    Nand {
        c_in_f: cg * (wn + wp),
        r_out_ohm: dev.r_nch_on_ohm_m / wn * k,
        c_self_f: tech.drain_c(dev, wn, k) + k * tech.drain_c(dev, wp, 1.0),
        leak_w: 0.5
            * (wn * dev.i_off_n_a_per_m * stack_leak + k * wp * dev.i_off_p_a_per_m)
            * dev.vdd_v,
        gate_leak_w: 0.5 * k * (wn + wp) * dev.i_gate_a_per_m * dev.vdd_v,
        width_m: k * (wn + wp),
    }
}

/// An optimally repeated wire (delay-optimal repeater size and spacing, then repeaters shrunk
/// to a fraction of that size, trading a few percent of delay for repeater energy, as
/// interconnect planners do). Per-metre figures.
#[derive(Debug, Clone, Copy)]
pub struct RepeatedWire {
    /// Propagation delay per metre (s/m).
    pub delay_s_per_m: f64,
    /// Energy of one transition per metre, wire plus repeaters (J/m).
    pub energy_j_per_m: f64,
    /// Repeater subthreshold leakage per metre (W/m).
    pub leak_w_per_m: f64,
    /// Repeater gate leakage per metre (W/m).
    pub gate_leak_w_per_m: f64,
    /// Repeater transistor width per metre of wire (m/m).
    pub width_per_m: f64,
    /// Routing pitch of one wire of this layer (m).
    pub pitch_m: f64,
}

/// Fraction of the delay-optimal repeater size actually used.
pub const REPEATER_SIZE_FRACTION: f64 = 0.4;

/// A repeated `wire` sized and run on the same devices (design point = operating point).
pub fn repeated_wire(tech: &SramTech, dev: &DeviceParams, wire: &WireParams) -> RepeatedWire {
    repeated_wire_designed(tech, dev, wire, tech, dev)
}

/// A repeated wire whose repeater size and spacing were chosen on the design point's devices
/// (`design`, `design_dev`) and which runs on the operating point's (`tech`, `dev`): the layout
/// is fixed, only the devices' drive, capacitance and leakage change with the supply and the
/// back-gate mode.
pub fn repeated_wire_designed(
    tech: &SramTech,
    dev: &DeviceParams,
    wire: &WireParams,
    design: &SramTech,
    design_dev: &DeviceParams,
) -> RepeatedWire {
    let (s, l) = {
        let beta = design_dev.n_to_p_ratio;
        let w0 = design.w_min_m();
        let r0 = design_dev.r_nch_on_ohm_m / w0;
        let c0 = design_dev.c_gate_per_m() * w0 * (1.0 + beta);
        let cp = design.drain_c(design_dev, w0, 1.0) + design.drain_c(design_dev, w0 * beta, 1.0);
        let (r, c) = (wire.r_ohm_per_m, wire.c_f_per_m);
        // Delay-optimal segment length and repeater size (Bakoglu).
        let l_opt = (2.0 * r0 * (c0 + cp) / (r * c)).sqrt();
        let s_opt = (r0 * c / (r * c0)).sqrt();
        (
            (s_opt * REPEATER_SIZE_FRACTION).max(1.0),
            l_opt * (1.0 / REPEATER_SIZE_FRACTION).sqrt(),
        )
    };
    let beta = dev.n_to_p_ratio;
    let w0 = tech.w_min_m();
    let r0 = dev.r_nch_on_ohm_m / w0;
    let c0 = dev.c_gate_per_m() * w0 * (1.0 + beta);
    let cp = tech.drain_c(dev, w0, 1.0) + tech.drain_c(dev, w0 * beta, 1.0);
    let (r, c) = (wire.r_ohm_per_m, wire.c_f_per_m);
    let seg_delay =
        0.69 * (r0 / s) * (s * (c0 + cp) + c * l) + r * l * (0.38 * c * l + 0.69 * s * c0);
    let vdd = dev.vdd_v;
    let seg_energy = (s * (c0 + cp) + c * l) * vdd * vdd;
    let wn = s * w0;
    let wp = wn * beta;
    RepeatedWire {
        delay_s_per_m: seg_delay / l,
        energy_j_per_m: seg_energy / l,
        leak_w_per_m: 0.5 * (wn * dev.i_off_n_a_per_m + wp * dev.i_off_p_a_per_m) * vdd / l,
        gate_leak_w_per_m: 0.5 * (wn + wp) * dev.i_gate_a_per_m * vdd / l,
        width_per_m: (wn + wp) / l,
        pitch_m: wire.pitch_m,
    }
}

/// Layout area (m²) of transistors of total width `width_m` placed in a strip whose diffusion
/// height is limited to `strip_height_m`: devices taller than the strip are folded; each
/// finger costs a contacted poly pitch of 3F.
#[inline]
pub fn transistor_area(tech: &SramTech, width_m: f64) -> f64 {
    let f = tech.feature_m;
    // Contacted-pitch layout: every metre of width costs 3F of length, plus wells/spacing
    // overhead of 50%.
    width_m * 3.0 * f * 1.5
}
