//! Break-even time, wakeup delay and the rest of the sleep-transistor model (power-gating §1.7)
//! for one gating domain at one technology point: techlib device physics for the switch and the
//! logic, the engine's lane models for the block, [`super::sleep::evaluate`] for the result.
//!
//! **Devices.** The logic runs at the node's costing flavour
//! ([`techlib::default_flavour`]: hp planar, lvt at `finfet7` and `asap7`). The
//! switch is the node's highest-threshold logic flavour at the operating temperature (DRAM
//! processes excluded): ITRS `lstp` at the planar nodes (the low-standby-power device, highest
//! Vth of the tables), `rvt` at `finfet7` and `asap7` (neither node file has an HVT device, so
//! the switch is one threshold step above the logic, not a dedicated high-Vt device). The
//! switch's gate swings the logic supply; its per-width figures are evaluated at that supply
//! ([`SwitchDevice::from_device`]).
//!
//! **Logic threshold.** The sizing rule's `Vdd − Vt_logic` is the alpha-power law's gate
//! overdrive; to stay valid near threshold it is taken from techlib's smooth drive law of the
//! logic device as `V_ov/(∂V_ov/∂V_gs)` at `V_gs = V_ds = Vdd`, which equals
//! `Vdd − Vth + η·Vdd` in strong inversion (the DIBL-lowered threshold) and tends to `m·v_T`
//! below threshold, where the delay's supply sensitivity is `1/(n·v_T)`. The result is reported
//! as `vt_logic_v = Vdd − V_ov/(∂V_ov/∂V_gs)`.
//!
//! **Clock.** 700 MHz (the GTX480 preset's core clock, power-gating §10) at the node's nominal
//! point (`stv` where the node has one, as the estimate pipeline does), scaled by
//! FO4(nominal)/FO4(point) at other supplies; or a clock the caller fixes, checked against the
//! shortest cycle the gates allow ([`techlib::plausible::check_clock`]).

use super::domain::{
    controller_cost, domain_figures, ControllerCost, DomainFigures, DomainKind, DomainSpec,
    LaneUnit,
};
use super::sleep::{evaluate, PhysicalKnobs, SleepInputs, SleepOutputs, SwitchDevice};
use super::GatingError;
use crate::overlay::Overlay;
use serde::Serialize;
use techlib::law::softplus;
use techlib::{plausible, Conditions, Flavour, Node, ResolvedPoint, TechPoint};

/// A supply at or below the sleep switch's threshold times this factor is refused: the switch's
/// gate is driven with the logic supply, and below its threshold it is a sub-threshold device
/// whose on-resistance the sizing rule would meet only with an absurd width (metres of switch
/// for one lane cluster). 1.0: the threshold itself is the limit.
pub const SWITCH_CONDUCTION_MARGIN: f64 = 1.0;

/// The GTX480 preset's core clock at the nominal point, Hz (power-gating §10).
pub const REFERENCE_CLOCK_HZ: f64 = 700e6;

/// Largest idle-detect threshold the controller's idle counter must hold (adaptive D's
/// `d_max`, power-gating §10).
pub const D_MAX_CYCLES: u64 = 10;

/// Switch width multipliers of the `s` sweep.
pub const SCALE_SWEEP: [f64; 7] = [1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0];

/// The clock of a query.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum ClockChoice {
    /// This clock at the node's nominal point, scaled with FO4 at other supplies, Hz.
    Scaled {
        /// Clock at the nominal point, Hz.
        nominal_clock_hz: f64,
    },
    /// This clock at the asked point, Hz.
    Fixed {
        /// Clock, Hz.
        clock_hz: f64,
    },
}

/// What to evaluate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BreakevenQuery {
    /// The technology point: node, logic flavour, supply or operating point, temperature.
    pub point: ResolvedPoint,
    /// Switch flavour; `None`: the node's highest-threshold flavour.
    pub switch_flavour: Option<String>,
    /// Clock.
    pub clock: ClockChoice,
    /// Gating domain.
    pub domain: DomainSpec,
    /// `[physical]` knobs.
    pub knobs: PhysicalKnobs,
}

impl BreakevenQuery {
    /// `point` with the query's own defaults: the node's highest-threshold switch, 700 MHz
    /// scaled, the INT SP cluster of the GTX480 preset (16 lanes; SFU 4 lanes), the spec's
    /// `[physical]` defaults.
    pub fn new(point: ResolvedPoint) -> BreakevenQuery {
        BreakevenQuery {
            point,
            switch_flavour: None,
            clock: ClockChoice::Scaled {
                nominal_clock_hz: REFERENCE_CLOCK_HZ,
            },
            domain: DomainSpec {
                kind: DomainKind::SpCluster,
                unit: LaneUnit::Int,
                sp_lanes: 16,
                sfu_lanes: 4,
            },
            knobs: PhysicalKnobs::default(),
        }
    }
}

/// Everything derived at one point.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Breakeven {
    /// Node name.
    pub node: String,
    /// Logic flavour.
    pub logic_flavour: Flavour,
    /// Switch flavour.
    pub switch_flavour: Flavour,
    /// Supply, V.
    pub vdd_v: f64,
    /// Temperature, K.
    pub temperature_k: f64,
    /// Clock, Hz.
    pub clock_hz: f64,
    /// Threshold of the logic device (zero drain bias), V.
    pub vth_logic_v: f64,
    /// Threshold of the switch device (zero drain bias), V.
    pub vth_switch_v: f64,
    /// The block.
    pub domain: DomainFigures,
    /// The domain's gating controller.
    pub controller: ControllerCost,
    /// The model's inputs.
    pub inputs: SleepInputs,
    /// The model's outputs.
    pub sleep: SleepOutputs,
}

fn supply_knob(q: &BreakevenQuery) -> String {
    match (&q.point.vdd_v(), &q.point.op()) {
        (Some(_), _) => "--vdd".into(),
        (None, Some(op)) => format!("--op {op}"),
        _ => "nominal supply".into(),
    }
}

/// The node's highest-threshold logic flavour at `temperature_k` (DRAM processes excluded).
pub fn highest_vt_flavour(node: &Node, temperature_k: f64) -> Result<Flavour, GatingError> {
    let mut best: Option<(f64, Flavour)> = None;
    for f in node.flavours() {
        if matches!(f, Flavour::LpDram | Flavour::CommDram) {
            continue;
        }
        let p = node.at(&Conditions::new(f).with_temperature(temperature_k))?;
        let vth = p.device().vth_v;
        if best.is_none_or(|(b, _)| vth > b) {
            best = Some((vth, f));
        }
    }
    best.map(|(_, f)| f).ok_or_else(|| {
        GatingError::Tech(techlib::TechError::BadCondition {
            node: node.name().to_string(),
            what: "the node has no logic flavour for a sleep switch".into(),
        })
    })
}

/// The logic point of `q` (supply checked against the functional minimum when asked for).
fn logic_point(q: &BreakevenQuery) -> Result<TechPoint, GatingError> {
    let pt = &q.point;
    let p = pt.at()?;
    if pt.supply_chosen() {
        plausible::check_supply_v(
            pt.node(),
            pt.flavour(),
            pt.temperature_k(),
            p.vdd_v(),
            &supply_knob(q),
        )?;
    }
    Ok(p)
}

/// `Vdd − V_ov/(∂V_ov/∂V_gs)` of the logic device (module header), V.
pub fn effective_logic_threshold_v(point: &TechPoint) -> f64 {
    let d = point.device();
    let law = &d.law;
    let vdd = d.vdd_v;
    let mvt = law.ekv_m * law.thermal_voltage_v();
    let x = (vdd - law.vth_v + law.dibl_v_per_v * vdd) / mvt;
    let v_ov = mvt * softplus(x);
    let slope = 1.0 / (1.0 + (-x).exp());
    vdd - v_ov / slope
}

/// Evaluates `q` (power-gating §1.7 at one point), with logic costs calibrated by `overlay`.
pub fn breakeven(q: &BreakevenQuery, overlay: Option<&Overlay>) -> Result<Breakeven, GatingError> {
    let node = q.point.node();
    let temperature_k = q.point.temperature_k();
    let lf = q.point.flavour();
    let sf = match &q.switch_flavour {
        Some(n) => node.flavour(n)?,
        None => highest_vt_flavour(node, temperature_k)?,
    };
    let lp = logic_point(q)?;
    let vdd = lp.vdd_v();
    let sp = node.at(&Conditions::new(sf)
        .with_temperature(temperature_k)
        .with_vdd(vdd))?;
    let vth_switch_v = sp.device().vth_v;
    if vdd <= vth_switch_v * SWITCH_CONDUCTION_MARGIN {
        return Err(GatingError::input(
            "supply (--vdd, --op)",
            vdd,
            &format!(
                "a supply above {:.3} V: the sleep switch ({} at {temperature_k} K, threshold \
                 {vth_switch_v:.3} V) is driven with the logic supply and does not turn on at \
                 or below its threshold, so no switch width meets the IR-drop budget; raise \
                 the supply or choose a lower-threshold --switch-flavour",
                vth_switch_v * SWITCH_CONDUCTION_MARGIN,
                sf.key()
            ),
        ));
    }
    let clock_hz = match q.clock {
        ClockChoice::Fixed { clock_hz } => {
            plausible::check_clock(&lp, node.name(), clock_hz, "--clock-mhz")?;
            clock_hz
        }
        ClockChoice::Scaled { nominal_clock_hz } => {
            if !(nominal_clock_hz.is_finite() && nominal_clock_hz > 0.0) {
                return Err(GatingError::input(
                    "--clock-mhz",
                    nominal_clock_hz * 1e-6,
                    "a clock > 0 MHz",
                ));
            }
            let nominal = node.at(&q.point.nominal_conditions_of(lf))?;
            nominal_clock_hz * nominal.fo4_delay_s() / lp.fo4_delay_s()
        }
    };
    let t_clk_s = 1.0 / clock_hz;
    let domain = domain_figures(&q.domain, &lp, overlay, t_clk_s)?;
    let fin = node
        .file()
        .fin
        .as_ref()
        .map(|f| (f.pitch_nm * 1e-9, f.contacted_gate_pitch_nm * 1e-9));
    let device = SwitchDevice::from_device(&sp, q.knobs.switch, fin);
    let mut inputs = SleepInputs {
        vdd_v: vdd,
        vt_logic_v: effective_logic_threshold_v(&lp),
        t_clk_s,
        device,
        p_leak_w: domain.p_leak_w,
        i_act_a: domain.i_act_a,
        c_blk_f: domain.c_blk_f,
        v_drv_v: vdd,
        e_ctrl_j: 0.0,
        control_area_m2: 0.0,
        switch_width_m: None,
        knobs: q.knobs,
    };
    let first = evaluate(&inputs)?;
    let controller = controller_cost(
        &lp,
        overlay,
        q.domain.kind,
        first.bet_cycles,
        first.wakeup_cycles,
        D_MAX_CYCLES,
    )?;
    inputs.control_area_m2 = controller.area_m2;
    let sleep = evaluate(&inputs)?;
    Ok(Breakeven {
        node: node.name().to_string(),
        logic_flavour: lf,
        switch_flavour: sf,
        vdd_v: vdd,
        temperature_k,
        clock_hz,
        vth_logic_v: lp.device().vth_v,
        vth_switch_v: sp.device().vth_v,
        domain,
        controller,
        inputs,
        sleep,
    })
}

/// The supply range of a `--sweep-vdd`: the higher of the logic flavour's functional minimum
/// ([`plausible::min_vdd`]) and the lowest supply at which the sleep switch conducts (just
/// above its threshold, [`SWITCH_CONDUCTION_MARGIN`]), to 110 % of the logic's nominal
/// supply, V.
pub fn vdd_range_v(q: &BreakevenQuery) -> Result<(f64, f64), GatingError> {
    let node = q.point.node();
    let lf = q.point.flavour();
    let temperature_k = q.point.temperature_k();
    let hi = 1.1 * node.nominal_vdd_v(lf)?;
    let sf = match &q.switch_flavour {
        Some(n) => node.flavour(n)?,
        None => highest_vt_flavour(node, temperature_k)?,
    };
    // the switch must conduct at every point of the sweep (see `breakeven`)
    let switch_floor = node
        .at(&Conditions::new(sf)
            .with_temperature(temperature_k)
            .with_vdd(hi))?
        .device()
        .vth_v
        * SWITCH_CONDUCTION_MARGIN
        * 1.001;
    let lo = plausible::min_vdd(node, lf, temperature_k)?
        .vdd_v
        .max(switch_floor);
    Ok((lo, hi.max(lo)))
}

/// `points` supplies evenly spaced over [`vdd_range_v`] (the clock follows FO4 unless fixed).
pub fn sweep_vdd(
    q: &BreakevenQuery,
    overlay: Option<&Overlay>,
    points: usize,
) -> Result<Vec<Breakeven>, GatingError> {
    let (lo, hi) = vdd_range_v(q)?;
    let n = points.max(2);
    (0..n)
        .map(|i| {
            let v = lo + (hi - lo) * i as f64 / (n - 1) as f64;
            let mut p = q.clone();
            p.point = p.point.with_vdd_v(v)?;
            breakeven(&p, overlay)
        })
        .collect()
}

/// The query at every switch multiplier of `scales`.
pub fn sweep_scale(
    q: &BreakevenQuery,
    overlay: Option<&Overlay>,
    scales: &[f64],
) -> Result<Vec<Breakeven>, GatingError> {
    scales
        .iter()
        .map(|&s| {
            let mut p = q.clone();
            p.knobs.size_multiplier = s;
            breakeven(&p, overlay)
        })
        .collect()
}
