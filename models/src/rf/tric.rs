//! TRIC (register-file spec §3) per-entry costs: the drowsy leakage ratio at `DRV + margin`,
//! the tri-modal switch of every entry (event energy, derived wake latency, area) from the
//! sleep-transistor model ([`crate::gating::sleep`]; [`tric_switch`], below), and the TRIC
//! control state.
//!
//! Control: per entry a 2-bit OFF/DROWSY/WAKING/ON state, a 2-bit hold count (§3.3 rule 5)
//! and a 2-bit wake counter (L ≤ 3), with their next-state logic and the index compares of
//! the wake, release and allocation requests: the `tric_ctrl` logic kind
//! (`calibration/rtl/tric_ctrl.v`), in blocks of [`CONTROL_BLOCK_ENTRIES`] entries (the largest
//! synthesised size), costed by [`crate::logic::model`] at the register file's technology point:
//! calibrated to synthesis when an overlay with the `tric_ctrl` kind is given (ASAP7 goldens in
//! `calibration/goldens`), from the analytical gate counts otherwise.
//!
//! In the §8 accounting ([`Tric`], a [`RfTechniqueTerms`]): entries in power states with
//! ρ_DROWSY, `tric.off_residual` and `tric.gate_periphery_if_bank_off`, one switch event per
//! wake (`TricStats::wake_events`, costed under `tric.switch_energy_model = "model"`), the
//! control's energy every cycle, and two added structures, the switches and the control.

use super::structures::{logic_tech, stv_supply_v, RfDesign, RfStructures};
use super::technique::{
    AddedPart, Counted, EventEnergy, RfTechniqueKind, RfTechniqueModel, RfTechniqueTerms,
    StateKnobs, TermSpec,
};
use super::{default_flavour, drowsy_ratio, retention_voltage, RfError};
use crate::gating::breakeven::{effective_logic_threshold_v, highest_vt_flavour};
use crate::gating::sleep::{evaluate, PhysicalKnobs, SleepInputs, SleepOutputs, SwitchDevice};
use crate::gating::GatingError;
use crate::gpu::ChipModel;
use crate::logic::{self, LogicKind};
use crate::overlay::Overlay;
use crate::technique::DerivedTiming;
use serde::Serialize;
use sim::config::tric::{TricGranularity, WakeLatencyMode};
use sim::config::GpuConfig;
use techlib::{CellKind, Conditions, Flavour, NodeKind};

/// TRIC at one design point.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TricCost {
    /// Drowsy supply `DRV + margin`, V.
    pub v_drowsy_v: f64,
    /// Where the DRV came from.
    pub drv_source: String,
    /// ρ_DROWSY = P_cell(V_drowsy)/P_cell(Vdd).
    pub rho_drowsy: f64,
    /// Energy of one wake event (§8.3 `E_switch` under `switch_energy_model = "model"`), J.
    pub wake_event_energy_j: f64,
    /// Energy of one OFF → DROWSY transition, J.
    pub off_to_drowsy_energy_j: f64,
    /// DROWSY → ON recharge time, s.
    pub t_wake_s: f64,
    /// Derived wake latency, cycles.
    pub wake_cycles: u64,
    /// Area of all entries' switches, m².
    pub switch_area_m2: f64,
    /// Area of the TRIC control state and logic, m².
    pub control_area_m2: f64,
    /// Leakage of the TRIC control, W.
    pub control_leakage_w: f64,
    /// Energy of one control cycle (every block clocked, one wake and one release), J.
    pub control_energy_per_cycle_j: f64,
    /// Whether the control's area came from a calibration overlay.
    pub control_calibrated: bool,
}

/// Entries of one TRIC control block (the largest `tric_ctrl` size synthesised).
pub const CONTROL_BLOCK_ENTRIES: u32 = 64;

/// The TRIC control of `switches` entries: `(blocks, cost of one block)` of the `tric_ctrl`
/// kind with 2-bit hold counts and 2-bit wake counters at `lt`, calibrated by `overlay` where
/// it has the kind.
pub fn control_blocks(
    switches: u64,
    lt: &techlib::TechPoint,
    overlay: Option<&Overlay>,
) -> Result<(u64, logic::LogicCost), RfError> {
    let n = switches.clamp(2, CONTROL_BLOCK_ENTRIES as u64) as u32;
    let blocks = switches.div_ceil(n as u64).max(1);
    let c = logic::model(
        LogicKind::PowerStateCtrl,
        &logic::params(&[("N", n), ("HW", 2), ("LW", 2)]),
        lt,
        overlay,
    )
    .map_err(|error| RfError::Logic {
        structure: "TRIC control",
        error,
    })?;
    Ok((blocks, c))
}

/// TRIC of `design`'s MRF at its super-threshold supply with a drowsy margin `margin_v` over
/// the node's DRV; `bits_per_switch` is 1024 for `tric.granularity = "entry"` (128-B entries),
/// 32 for `"entry_lane"`.
pub fn tric_cost(
    design: &RfDesign,
    margin_v: f64,
    bits_per_switch: u64,
) -> Result<TricCost, RfError> {
    tric_cost_with(design, margin_v, bits_per_switch, None)
}

/// [`tric_cost`] with the control costed from a calibration `overlay` where it has the
/// `tric_ctrl` kind.
pub fn tric_cost_with(
    design: &RfDesign,
    margin_v: f64,
    bits_per_switch: u64,
    overlay: Option<&Overlay>,
) -> Result<TricCost, RfError> {
    let vdd = stv_supply_v(design)?;
    let ret = retention_voltage(&design.node)?;
    if !(margin_v.is_finite() && margin_v >= 0.0) {
        return Err(RfError::input(
            "tric.drowsy_margin_mv",
            margin_v * 1e3,
            "a margin >= 0 mV",
        ));
    }
    let v = ret.drv_v + margin_v;
    if v >= vdd {
        return Err(RfError::input(
            "tric.drowsy_margin_mv",
            margin_v * 1e3,
            "a margin with DRV + margin below the RF supply",
        ));
    }
    let flavour = match design.flavour {
        Some(f) => f,
        None => default_flavour(&design.node)?,
    };
    let rho = drowsy_ratio(&design.node, flavour, vdd, v)?;
    let mut q = TricQuery::new(&design.node, vdd, v, design.clock_hz);
    q.flavour = Some(flavour);
    q.bits = bits_per_switch;
    q.temperature_k = design.temperature_k;
    let sw: TricSwitch = tric_switch(&q)?;
    let n_switches =
        (design.entries as u64 * design.entry_bytes as u64 * 8).div_ceil(bits_per_switch.max(1));
    let switches = n_switches as f64;
    let lt = logic_tech(design, vdd)?;
    let (blocks, ctrl) = control_blocks(n_switches, &lt, overlay)?;
    let blocks = blocks as f64;
    Ok(TricCost {
        v_drowsy_v: v,
        drv_source: ret.source,
        rho_drowsy: rho,
        wake_event_energy_j: sw.wake_event_energy_j,
        off_to_drowsy_energy_j: sw.off_to_drowsy_energy_j,
        t_wake_s: sw.t_wake_s,
        wake_cycles: sw.wake_cycles,
        switch_area_m2: switches * sw.area_m2,
        control_area_m2: blocks * ctrl.area_m2,
        control_leakage_w: blocks * ctrl.leakage_w,
        control_energy_per_cycle_j: blocks * ctrl.energy_per_op_j,
        control_calibrated: ctrl.calibrated[0],
    })
}

/// The derived TRIC wake latency (spec §3.4, `tric.wake_latency_mode = "derived"`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DerivedWake {
    /// Drowsy supply `DRV + margin`, V.
    pub v_drowsy_v: f64,
    /// Full supply the entry wakes to, V.
    pub vdd_v: f64,
    /// Core clock, Hz.
    pub clock_hz: f64,
    /// Recharge time of the entry's virtual rail from `V_drowsy` to `Vdd` through its switch, s.
    pub t_wake_s: f64,
    /// `L = max(1, ⌈t_wake/t_clk⌉)`, cycles.
    pub wake_cycles: u64,
}

/// Derived TRIC wake latency of a 1024-bit entry of `node` at `vdd_v` woken from
/// `DRV + margin_v` ([`super::retention_voltage`]) at `clock_hz`, cycles (§3.4
/// `tric.wake_latency_mode = "derived"`).
pub fn tric_wake_latency_cycles(
    node: &techlib::Node,
    vdd_v: f64,
    margin_v: f64,
    clock_hz: f64,
) -> Result<u64, GatingError> {
    let drv = retention_voltage(node)
        .map_err(|e| GatingError::input("tric.drv_mv", f64::NAN, &e.to_string()))?;
    let v = drv.drv_v + margin_v;
    if !(margin_v.is_finite() && margin_v >= 0.0) || v >= vdd_v {
        return Err(GatingError::input(
            "tric.drowsy_margin_mv",
            margin_v * 1e3,
            "a margin >= 0 mV with DRV + margin below Vdd",
        ));
    }
    Ok(tric_switch(&TricQuery::new(node, vdd_v, v, clock_hz))?.wake_cycles)
}

/// L = ⌈t_wake(V_drowsy → Vdd)/t_clk⌉ (at least 1) of one TRIC switch of `bits_per_switch`
/// cells of `node` (flavour `flavour`, `None` = the node's default) at supply `vdd_v`, woken
/// from `DRV + margin_v` ([`super::retention_voltage`]) at `clock_hz` and `temperature_k`: the
/// rail recharge of the tri-modal switch model ([`tric_switch`], after Pakbaznia & Pedram,
/// ISQED 2009). A larger margin leaves a smaller swing to restore (shorter wake); a faster
/// clock makes the same wake time more cycles.
pub fn derived_wake_latency(
    node: &techlib::Node,
    flavour: Option<techlib::Flavour>,
    vdd_v: f64,
    margin_v: f64,
    clock_hz: f64,
    bits_per_switch: u64,
    temperature_k: f64,
) -> Result<DerivedWake, RfError> {
    if !(margin_v.is_finite() && margin_v >= 0.0) {
        return Err(RfError::input(
            "tric.drowsy_margin_mv",
            margin_v * 1e3,
            "a margin >= 0 mV",
        ));
    }
    let ret = retention_voltage(node)?;
    let v = ret.drv_v + margin_v;
    if !vdd_v.is_finite() || v >= vdd_v {
        return Err(RfError::input(
            "tric.drowsy_margin_mv",
            margin_v * 1e3,
            &format!(
                "a margin with DRV ({:.0} mV, {}) + margin below the supply {:.3} V",
                ret.drv_v * 1e3,
                ret.source,
                vdd_v
            ),
        ));
    }
    let mut q = TricQuery::new(node, vdd_v, v, clock_hz);
    q.flavour = flavour;
    q.bits = bits_per_switch;
    q.temperature_k = temperature_k;
    let sw = tric_switch(&q)?;
    Ok(DerivedWake {
        v_drowsy_v: v,
        vdd_v,
        clock_hz,
        t_wake_s: sw.t_wake_s,
        wake_cycles: sw.wake_cycles,
    })
}

/// §9 "area of the added logic" of the Warped RF: DWL AND gates + COMA mask table + TRIC
/// switches + TRIC control, `(absolute m², share of the MRF's area)`.
pub fn warped_added_area(
    s: &super::structures::RfStructures,
    coma: &super::coma::ComaCircuit,
    tric: &TricCost,
) -> (f64, f64) {
    let a = coma.and_area_m2 + s.mask_table.area_m2 + tric.switch_area_m2 + tric.control_area_m2;
    let share = if s.mrf_stv.area_m2 > 0.0 {
        a / s.mrf_stv.area_m2
    } else {
        0.0
    };
    (a, share)
}

// ---------------------------------------------------------------------------------------
// The tri-modal register switch of TRIC (register-file spec §3.1, §3.4): one header switch per
// register-file entry that holds the entry's cells at full supply (ON), at the drowsy supply
// `V_drowsy = DRV + margin` (DROWSY, contents kept) or gated (OFF, contents lost), after
// Pakbaznia & Pedram, "Design of a tri-modal multi-threshold CMOS switch with application to
// data retentive power gating", ISQED 2009.
//
// The switch is sized and its events costed by the sleep-transistor model
// (`crate::gating::sleep`) with the entry's cells as the gated block:
// - leakage of the block: `bits × P_cell(Vdd)` (techlib's cell standby power);
// - rail capacitance: per cell the storage node at the rail (one of the two nodes holds a 1):
//   the gate of the opposite inverter `(w_n + w_p)·C_g` and the drains on the node
//   `(w_n + w_p + w_access)·c_d`;
// - peak current: on a write half of the entry's cells flip, each pull-up sourcing its
//   saturation current `I_on,p·w_p`;
// - DROWSY → ON restores `ΔV = Vdd − V_drowsy` (the rail floor of the sleep model is
//   `V_drowsy/Vdd`); the wake request travels with the register ids at the cycle the collector
//   unit is assigned (§3.3), so no synchronisation cycle is added (`w_sync = 0`).
//
// `t_wake` is the recharge time of that swing through the switch; the derived wake latency is
// `L = max(1, ⌈t_wake/t_clk⌉)` (§3.4 `tric.wake_latency_mode = "derived"`).

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

/// The switch term: one switch event per wake.
const SWITCH_EVENTS: &str = "TRIC switch events";
/// The control term (per cycle), its leaf and its leakage label.
const CONTROL: &str = "TRIC control";

/// TRIC's side of the §8 accounting (module doc).
pub struct Tric;

/// TRIC's terms in the accounting for its costs `t`: the switch energy counted when
/// `model_switch` (`tric.switch_energy_model = "model"`), the leakage ratios `t.rho_drowsy` and
/// `off_residual`, and the bank-periphery gating `gate_periphery_if_bank_off`.
pub fn tric_model(
    t: &TricCost,
    model_switch: bool,
    off_residual: f64,
    gate_periphery_if_bank_off: bool,
) -> RfTechniqueModel {
    RfTechniqueModel {
        kind: RfTechniqueKind::PowerState,
        event_energy: vec![
            EventEnergy {
                label: SWITCH_EVENTS,
                energy_j: if model_switch {
                    t.wake_event_energy_j
                } else {
                    0.0
                },
                per_copy: false,
            },
            EventEnergy {
                label: CONTROL,
                energy_j: t.control_energy_per_cycle_j,
                per_copy: true,
            },
        ],
        added_leakage_w: vec![(CONTROL.into(), t.control_leakage_w)],
        added: vec![
            AddedPart {
                name: "TRIC switches",
                area_m2: t.switch_area_m2,
                dyn_terms: &[SWITCH_EVENTS],
                leakage: None,
            },
            AddedPart {
                name: CONTROL,
                area_m2: t.control_area_m2,
                dyn_terms: &[CONTROL],
                leakage: Some(CONTROL),
            },
        ],
        lane_gating: None,
        states: Some(StateKnobs {
            rho_drowsy: t.rho_drowsy,
            off_residual,
            gate_periphery_if_bank_off,
        }),
    }
}

impl RfTechniqueTerms for Tric {
    fn name(&self) -> &'static str {
        "tric"
    }

    fn kind(&self) -> RfTechniqueKind {
        RfTechniqueKind::PowerState
    }

    fn enabled(&self, cfg: &sim::config::GpuConfig) -> bool {
        cfg.tric.enabled
    }

    fn enable_key(&self) -> &'static str {
        "tric.enabled"
    }

    fn check(&self, cfg: &sim::config::GpuConfig) -> Result<(), RfError> {
        if cfg.tric.gate_periphery_if_bank_off && !cfg.tric.enabled {
            return Err(RfError::input(
                "tric.gate_periphery_if_bank_off",
                "true",
                "false unless tric.enabled = true (only TRIC turns entries OFF)",
            ));
        }
        Ok(())
    }

    fn terms(&self) -> &'static [TermSpec] {
        &[
            TermSpec {
                label: SWITCH_EVENTS,
                counted: Counted::Events,
            },
            TermSpec {
                label: CONTROL,
                counted: Counted::Cycles,
            },
        ]
    }

    fn events(&self, k: &sim::activity::KernelActivity) -> Vec<(&'static str, u64)> {
        let wakes =
            k.rf.as_ref()
                .and_then(|r| r.tric.as_ref())
                .map_or(0, |t| t.wake_events);
        vec![(SWITCH_EVENTS, wakes)]
    }

    /// The lanes of an entry with `tric.granularity = "entry_lane"` (read whether or not TRIC
    /// is on, as the record's residency units are).
    fn units_per_entry(&self, cfg: &sim::config::GpuConfig, design: &RfDesign) -> u64 {
        match cfg.tric.granularity {
            TricGranularity::Entry => 1,
            TricGranularity::EntryLane => design.lanes as u64,
        }
    }

    fn model(
        &self,
        cfg: &sim::config::GpuConfig,
        design: &RfDesign,
        _s: &RfStructures,
        overlay: Option<&Overlay>,
    ) -> Result<RfTechniqueModel, RfError> {
        use sim::config::tric::{SwitchEnergyModel, TricGranularity};
        let bits = match cfg.tric.granularity {
            TricGranularity::Entry => design.entry_bytes as u64 * 8,
            TricGranularity::EntryLane => {
                design.entry_bytes as u64 * 8 / design.lanes.max(1) as u64
            }
        };
        let t = tric_cost_with(design, cfg.tric.drowsy_margin_mv * 1e-3, bits, overlay)?;
        Ok(tric_model(
            &t,
            cfg.tric.switch_energy_model == SwitchEnergyModel::Model,
            cfg.tric.off_residual,
            cfg.tric.gate_periphery_if_bank_off,
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// The derived wake latency (register-file spec §3.4): with `tric.wake_latency_mode = "derived"`
// the wake latency the simulator takes, `tric.wake_latency`, is derived from the tri-modal
// switch model at the study's technology point ([`TricWake`], a
// [`crate::technique::DerivedTiming`] registered in [`super::DERIVED_TIMINGS`]), and the
// commands note the value.

/// TRIC's derived wake latency (`tric.wake_latency_mode = "derived"`).
pub struct TricWake;

impl TricWake {
    /// The TRIC wake latency L = ⌈t_wake(V_drowsy → Vdd)/t_clk⌉ of one switch (an entry of
    /// `rf.entry_bytes` with `tric.granularity = "entry"`, one 32-bit lane with `"entry_lane"`)
    /// of `cfg` at `tech`'s node, flavour and temperature, the chip's supply and core clock,
    /// and `V_drowsy` = DRV + `tric.drowsy_margin_mv`
    /// ([`derived_wake_latency`]). `None` in the `"fixed"` mode. An L outside
    /// 1..=64 cycles is an error naming the knob.
    pub fn latency(
        cfg: &GpuConfig,
        tech: &techlib::ResolvedPoint,
        chip: &ChipModel,
    ) -> Result<Option<DerivedWake>, String> {
        let t = &cfg.tric;
        if t.wake_latency_mode != WakeLatencyMode::Derived {
            return Ok(None);
        }
        let bits = match t.granularity {
            TricGranularity::Entry => cfg.rf.entry_bytes as u64 * 8,
            TricGranularity::EntryLane => 32,
        };
        let d = derived_wake_latency(
            tech.node(),
            Some(tech.flavour()),
            chip.vdd_v,
            t.drowsy_margin_mv * 1e-3,
            chip.core_clock_hz,
            bits,
            tech.temperature_k(),
        )
        .map_err(|e| format!("tric.wake_latency_mode = \"derived\": {e}"))?;
        if !(1..=64).contains(&d.wake_cycles) {
            return Err(format!(
                "tric.wake_latency_mode = \"derived\": t_wake = {:.3e} s gives L = {} cycles, \
                 outside 1..=64; use tric.wake_latency_mode = \"fixed\" or another \
                 tric.drowsy_margin_mv / clock",
                d.t_wake_s, d.wake_cycles
            ));
        }
        Ok(Some(d))
    }
}

/// One line describing a derived TRIC wake latency at technology `tech`.
fn note(d: &DerivedWake, tech: &str) -> String {
    format!(
        "tric.wake_latency derived: L = {} cycles (t_wake = {:.1} ps from V_drowsy = {:.3} V to \
         Vdd = {:.3} V at {:.0} MHz, {tech})",
        d.wake_cycles,
        d.t_wake_s * 1e12,
        d.v_drowsy_v,
        d.vdd_v,
        d.clock_hz * 1e-6
    )
}

impl DerivedTiming for TricWake {
    fn wanted(&self, cfg: &GpuConfig) -> bool {
        cfg.tric.wake_latency_mode == WakeLatencyMode::Derived
    }

    fn derive(
        &self,
        point: &techlib::ResolvedPoint,
        chip: &ChipModel,
        cfg: &mut GpuConfig,
        tech: &str,
    ) -> Result<Option<String>, String> {
        Ok(Self::latency(cfg, point, chip)?.map(|d| {
            cfg.tric.wake_latency = d.wake_cycles as u32;
            note(&d, tech)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_wake_latency_scales_with_swing_and_clock() {
        let l = |margin_v: f64, clock_hz: f64| {
            derived_wake_latency(
                &techlib::node("planar45").unwrap(),
                None,
                1.0,
                margin_v,
                clock_hz,
                1024,
                350.0,
            )
            .unwrap()
        };
        let base = l(0.25, 1.0e9);
        assert!(base.wake_cycles >= 1);
        assert!(base.t_wake_s > 0.0);
        // a larger margin leaves less swing to restore: never a longer wake
        let hi = l(0.45, 1.0e9);
        assert!(hi.t_wake_s < base.t_wake_s, "{hi:?} vs {base:?}");
        assert!(hi.wake_cycles <= base.wake_cycles);
        // a faster clock: the same wake time in at least as many cycles
        let fast = l(0.25, 4.0e9);
        assert!((fast.t_wake_s - base.t_wake_s).abs() <= 1e-3 * base.t_wake_s);
        assert!(fast.wake_cycles >= base.wake_cycles);
        // a margin reaching the supply is refused naming the knob
        let e = derived_wake_latency(
            &techlib::node("planar45").unwrap(),
            None,
            1.0,
            0.95,
            1.0e9,
            1024,
            350.0,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("tric.drowsy_margin_mv"), "{e}");
    }
}
