//! The tri-modal register switch of TRIC (register-file spec §3.1, §3.4): one header switch per
//! register-file entry that holds the entry's cells at full supply (ON), at the drowsy supply
//! `V_drowsy = DRV + margin` (DROWSY, contents kept) or gated (OFF, contents lost), after
//! Pakbaznia & Pedram, "Design of a tri-modal multi-threshold CMOS switch with application to
//! data retentive power gating", ISQED 2009.
//!
//! The switch is sized and its events costed by the sleep-transistor model ([`super::sleep`])
//! with the entry's cells as the gated block:
//! - leakage of the block: `bits × P_cell(Vdd)` (techlib's cell standby power);
//! - rail capacitance: per cell the storage node at the rail (one of the two nodes holds a 1):
//!   the gate of the opposite inverter `(w_n + w_p)·C_g` and the drains on the node
//!   `(w_n + w_p + w_access)·c_d`;
//! - peak current: on a write half of the entry's cells flip, each pull-up sourcing its
//!   saturation current `I_on,p·w_p`;
//! - DROWSY → ON restores `ΔV = Vdd − V_drowsy` (the rail floor of the sleep model is
//!   `V_drowsy/Vdd`); the wake request travels with the register ids at the cycle the collector
//!   unit is assigned (§3.3), so no synchronisation cycle is added (`w_sync = 0`).
//!
//! `t_wake` is the recharge time of that swing through the switch; the derived wake latency is
//! `L = max(1, ⌈t_wake/t_clk⌉)` (§3.4 `tric.wake_latency_mode = "derived"`).

use super::breakeven::{effective_logic_threshold_v, highest_vt_flavour};
use super::sleep::{evaluate, PhysicalKnobs, SleepInputs, SleepOutputs, SwitchDevice};
use super::GatingError;
use techlib::{CellKind, Conditions, Flavour, NodeKind};

/// One TRIC switch query.
#[derive(Debug, Clone, PartialEq)]
pub struct TricQuery {
    /// Technology node (resolved).
    pub node: techlib::Node,
    /// Flavour of the cells (default: LVT at FinFET nodes, HP at planar nodes).
    pub flavour: Option<Flavour>,
    /// Full supply of the register file, V.
    pub vdd_v: f64,
    /// Drowsy supply, V (`DRV + margin`, below `vdd_v`).
    pub v_drowsy_v: f64,
    /// Core clock, Hz.
    pub clock_hz: f64,
    /// Bits behind one switch (an entry: 128 B = 1024 bits; an entry-lane: 32 bits).
    pub bits: u64,
    /// Temperature, K.
    pub temperature_k: f64,
    /// Sleep-switch knobs (the synchronisation cycles are set to 0, see the module header).
    pub knobs: PhysicalKnobs,
}

impl TricQuery {
    /// A query with the defaults: 1024-bit entries, 300 K, default switch knobs.
    pub fn new(node: &techlib::Node, vdd_v: f64, v_drowsy_v: f64, clock_hz: f64) -> TricQuery {
        TricQuery {
            node: node.clone(),
            flavour: None,
            vdd_v,
            v_drowsy_v,
            clock_hz,
            bits: 1024,
            temperature_k: 300.0,
            knobs: PhysicalKnobs::default(),
        }
    }
}

/// The TRIC switch of one entry.
#[derive(Debug, Clone, PartialEq)]
pub struct TricSwitch {
    /// The sleep-model result for the DROWSY → ON → DROWSY cycle.
    pub drowsy: SleepOutputs,
    /// Energy of one wake (DROWSY → ON, and the later return to DROWSY), J: the §8.3 `E_switch`.
    pub wake_event_energy_j: f64,
    /// Energy of bringing an OFF entry to DROWSY (rail charged from 0 to V_drowsy), J.
    pub off_to_drowsy_energy_j: f64,
    /// Recharge time DROWSY → ON, s.
    pub t_wake_s: f64,
    /// Derived wake latency `max(1, ⌈t_wake/t_clk⌉)`, cycles.
    pub wake_cycles: u64,
    /// Switch area of one entry, m².
    pub area_m2: f64,
    /// Leakage of one entry's cells at full supply, W.
    pub entry_leakage_w: f64,
    /// Rail capacitance of one entry, F.
    pub rail_capacitance_f: f64,
}

/// Sizes and costs the switch of one entry (module header).
pub fn tric_switch(q: &TricQuery) -> Result<TricSwitch, GatingError> {
    if !(q.vdd_v.is_finite() && q.vdd_v > 0.0) {
        return Err(GatingError::input("vdd_v", q.vdd_v, "a supply > 0 V"));
    }
    if !(q.v_drowsy_v.is_finite() && q.v_drowsy_v > 0.0 && q.v_drowsy_v < q.vdd_v) {
        return Err(GatingError::input(
            "tric.drowsy_margin_mv (V_drowsy)",
            q.v_drowsy_v,
            "a drowsy supply in (0, Vdd)",
        ));
    }
    if !(q.clock_hz.is_finite() && q.clock_hz > 0.0) {
        return Err(GatingError::input(
            "sm.clock_mhz",
            q.clock_hz * 1e-6,
            "a clock > 0 MHz",
        ));
    }
    if q.bits == 0 {
        return Err(GatingError::input("bits", 0.0, "at least 1 bit per switch"));
    }
    let node = &q.node;
    let finfet = node.kind() == NodeKind::Finfet;
    let flavour = q
        .flavour
        .unwrap_or(if finfet { Flavour::Lvt } else { Flavour::Hp });
    let kind = if finfet {
        CellKind::Eight
    } else {
        CellKind::Six
    };
    let cond = Conditions::new(flavour)
        .with_temperature(q.temperature_k)
        .with_vdd(q.vdd_v);
    let p = node.at(&cond)?;
    let cell = p.sram_cell(kind)?.clone();
    let d = p.device();
    let pu = p.cell_pullup_device(kind);
    let bits = q.bits as f64;
    let p_cell = p.cell_standby_power_w(kind)?;
    let diff = p.drain_diffusion_m();
    let c_node = (cell.w_nmos_m + cell.w_pmos_m) * d.c_gate_f_per_m()
        + d.c_drain_f_per_m(diff) * (cell.w_nmos_m + cell.w_access_m)
        + pu.c_drain_f_per_m(diff) * cell.w_pmos_m;
    let c_blk = bits * c_node;
    let i_act = 0.5 * bits * pu.i_on_p_a_per_m * cell.w_pmos_m;
    let sf = highest_vt_flavour(node, q.temperature_k)?;
    let sp = node.at(&Conditions::new(sf)
        .with_temperature(q.temperature_k)
        .with_vdd(q.vdd_v))?;
    let fin = node
        .file()
        .fin
        .as_ref()
        .map(|f| (f.pitch_nm * 1e-9, f.contacted_gate_pitch_nm * 1e-9));
    let device = SwitchDevice::from_device(&sp, q.knobs.switch, fin);
    let mut knobs = q.knobs;
    knobs.w_sync_cycles = 0;
    knobs.v_floor_frac = q.v_drowsy_v / q.vdd_v;
    let inputs = SleepInputs {
        vdd_v: q.vdd_v,
        vt_logic_v: effective_logic_threshold_v(&p),
        t_clk_s: 1.0 / q.clock_hz,
        device,
        p_leak_w: bits * p_cell,
        i_act_a: i_act,
        c_blk_f: c_blk,
        v_drv_v: q.vdd_v,
        e_ctrl_j: 0.0,
        control_area_m2: 0.0,
        switch_width_m: None,
        knobs,
    };
    let out = evaluate(&inputs)?;
    let c_vr = out.rail_capacitance_f;
    let wake_cycles = ((out.t_wake_s * q.clock_hz) - 1e-9).ceil().max(1.0) as u64;
    Ok(TricSwitch {
        wake_event_energy_j: out.event_energy_j,
        off_to_drowsy_energy_j: c_vr * q.vdd_v * q.v_drowsy_v + out.gate_drive_j,
        t_wake_s: out.t_wake_s,
        wake_cycles,
        area_m2: out.switch_area_m2,
        entry_leakage_w: bits * p_cell,
        rail_capacitance_f: c_vr,
        drowsy: out,
    })
}
