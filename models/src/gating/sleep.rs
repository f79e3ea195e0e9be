//! The sleep-transistor model of power-gating §1.7: sizing of the header or footer switch,
//! virtual-rail capacitance, collapse depth (`FullCollapse` or `Decay`), energy of one
//! sleep+wake event, residual leakage, break-even time, wakeup time and area.
//!
//! Every input is in SI units ([`SleepInputs`]); [`evaluate`] returns [`SleepOutputs`]. The
//! per-width figures of the switch device ([`SwitchDevice`]) come from techlib's device physics
//! ([`SwitchDevice::from_device`]) or are given directly (the spec's worked example, §8.8).
//!
//! Equations (power-gating §1.7):
//! - sizing: `R_on = ρ_on/W_sw`, `ΔV_IR = I_act·R_on`, delay penalty `p = α·ΔV_IR/(Vdd − Vt)`
//!   (alpha-power law), so `W_min = α·I_act·ρ_on/(p_max·(Vdd − Vt))`, `W_sw = s·W_min`; FinFET
//!   switches round up to whole fins;
//! - rail: `C_vr = C_blk + c_d'·W_sw`;
//! - collapse: `ΔV = Vdd·(1 − v_floor)` (`FullCollapse`), or `ΔV(G) = ΔV_max·(1 − e^(−G·t_clk/τ))`
//!   with `τ = C_vr·Vdd²/P_leak` (`Decay`: the block's own leakage drains the floating rail);
//! - event: `E_event = C_vr·Vdd·ΔV + (1 + β_buf)·c_g'·W_sw·V_drv² + E_ctrl` (the charge `C_vr·ΔV`
//!   is drawn from the supply at `Vdd`; half of it burns in the switch, the stored half is lost
//!   at the next sleep, hence no ½);
//! - residual leakage: `r = I_off'·W_sw·Vdd/P_leak`;
//! - BET: `⌈E_event/((1 − r)·P_leak·t_clk)⌉` (or rounded), or under `Decay` the smallest `G` with
//!   `(1 − r)·P_leak·G·t_clk ≥ E_event(G)`;
//! - wakeup: `t_wake = k·C_vr·ΔV·κ/(I_sat'·W_sw)` (mean recharge current `I_sat'·W_sw/κ`, κ ≈ 2
//!   averaging the linear and saturation regions; `k` rush-limited stages),
//!   `W = ⌈t_wake/t_clk⌉ + w_sync`; under `Decay` the full depth `ΔV_max` is recharged in the
//!   worst case, and `W` (a fixed delay in the controller) covers it;
//! - area: `A = a'·W_sw` (whole fins × fin footprint at FinFET nodes) + control-logic area.

use super::GatingError;
use serde::Serialize;
use techlib::{Device, TechPoint};

/// Where the sleep switch sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SwitchKind {
    /// High-Vt PMOS between Vdd and the virtual Vdd (PMOS device data).
    Header,
    /// High-Vt NMOS between the virtual ground and ground (NMOS device data).
    Footer,
}

impl SwitchKind {
    /// Parses `header` or `footer`.
    pub fn parse(s: &str) -> Option<SwitchKind> {
        match s.trim().to_ascii_lowercase().as_str() {
            "header" => Some(SwitchKind::Header),
            "footer" => Some(SwitchKind::Footer),
            _ => None,
        }
    }
    /// Name as written on the command line and in configuration.
    pub fn name(self) -> &'static str {
        match self {
            SwitchKind::Header => "header",
            SwitchKind::Footer => "footer",
        }
    }
}

/// How deep the virtual rail collapses while gated (power-gating §1.7 item 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RailModel {
    /// The rail collapses to `v_floor·Vdd` at once: `ΔV = Vdd·(1 − v_floor)`.
    FullCollapse,
    /// The rail decays through the block's leakage: `ΔV(G) = ΔV_max·(1 − e^(−G·t_clk/τ))`.
    Decay,
}

impl RailModel {
    /// Parses `full-collapse` or `decay` (`_` accepted for `-`, case-insensitive).
    pub fn parse(s: &str) -> Option<RailModel> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "full-collapse" | "fullcollapse" => Some(RailModel::FullCollapse),
            "decay" => Some(RailModel::Decay),
            _ => None,
        }
    }
    /// Name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RailModel::FullCollapse => "full-collapse",
            RailModel::Decay => "decay",
        }
    }
}

/// How the real-valued break-even ratio becomes whole cycles (`physical.bet_rounding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum BetRounding {
    /// Round up (default): the event is repaid at the latest at the BET-th gated cycle.
    Ceil,
    /// Round to nearest (at least 1).
    Round,
}

/// Per-width figures of the switch device at the operating point (SI; "per metre" of gate
/// width; at FinFET nodes the width is whole fins of `fin_width_m` each).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SwitchDevice {
    /// Linear-region on-resistance times width `ρ_on`, Ω·m.
    pub rho_on_ohm_m: f64,
    /// Saturation (on) current per width at `Vgs = Vds = Vdd`, A/m.
    pub i_sat_a_per_m: f64,
    /// Off current per width at `Vds = Vdd`, A/m.
    pub i_off_a_per_m: f64,
    /// Drain capacitance per width (loads the virtual rail), F/m.
    pub c_drain_f_per_m: f64,
    /// Gate capacitance per width (driven by the sleep signal), F/m.
    pub c_gate_f_per_m: f64,
    /// Layout area per width, m²/m.
    pub area_m2_per_m: f64,
    /// Effective width of one fin (FinFET; switch widths round up to whole fins), m.
    pub fin_width_m: Option<f64>,
}

impl SwitchDevice {
    /// The per-width figures of `point`'s device (the switch flavour at the logic supply and
    /// temperature) for a `kind` switch.
    ///
    /// - `I_sat'`: the device's on-current `I_on` (`Vgs = Vds = Vdd`), PMOS for a header.
    /// - `ρ_on`: small-signal resistance at `Vds → 0` with the gate at Vdd. In the alpha-power
    ///   law's linear region (Sakurai & Newton, IEEE JSSC 25(2), 1990:
    ///   `I_D = I_D0·(2 − V_DS/V_D0)·V_DS/V_D0` below the saturation voltage `V_D0`) the
    ///   conductance at the origin is `2·I_D0/V_D0`, so `ρ_on = V_dsat/(2·I_on)` per width. In
    ///   weak inversion the drain factor `1 − e^(−V_DS/v_T)` of techlib's drive law sets the
    ///   conductance `I_on/v_T`, i.e. the same formula with `V_dsat` replaced by `2·v_T`; the
    ///   larger of the two resistances is taken, so the figure holds from strong inversion down
    ///   to near threshold.
    /// - `I_off'`: the device's off-current at `Vds = Vdd` and the temperature.
    /// - `c_d'`: drain capacitance with a contacted diffusion of 3 F (techlib's self-loading
    ///   convention, [`TechPoint::drain_diffusion_m`]); `c_g'`: the gate capacitance.
    /// - `a'`: FinFET: one fin under one gate finger occupies fin pitch × contacted gate
    ///   pitch, i.e. `a' = pitch_fin·pitch_gate/w_fin`. Planar: a multi-finger switch with
    ///   shared diffusions repeats every gate length F plus one contacted diffusion 3 F, so
    ///   `a' = 4 F` per metre of width.
    pub fn from_device(point: &TechPoint, kind: SwitchKind, fin_pitch: Option<(f64, f64)>) -> Self {
        let d: &Device = point.device();
        let (i_sat, i_off) = match kind {
            SwitchKind::Header => (d.i_on_p_a_per_m, d.i_off_p_a_per_m),
            SwitchKind::Footer => (d.i_on_n_a_per_m, d.i_off_n_a_per_m),
        };
        let v_t = d.law.thermal_voltage_v();
        let rho = d.vdsat_v.max(2.0 * v_t) / (2.0 * i_sat);
        let f = point.feature_size_m;
        let area = match (d.fin_width_m, fin_pitch) {
            (Some(w_fin), Some((fin_pitch_m, gate_pitch_m))) => fin_pitch_m * gate_pitch_m / w_fin,
            _ => 4.0 * f,
        };
        SwitchDevice {
            rho_on_ohm_m: rho,
            i_sat_a_per_m: i_sat,
            i_off_a_per_m: i_off,
            c_drain_f_per_m: d.c_drain_f_per_m(point.drain_diffusion_m()),
            c_gate_f_per_m: d.c_gate_f_per_m(),
            area_m2_per_m: area,
            fin_width_m: d.fin_width_m,
        }
    }
}

/// The configuration knobs of the physical model (`[physical]`, power-gating §10), with the
/// spec's defaults in [`PhysicalKnobs::default`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PhysicalKnobs {
    /// Header or footer.
    pub switch: SwitchKind,
    /// Alpha-power exponent of the logic's delay law, α.
    pub alpha: f64,
    /// Largest delay penalty the IR drop may cause, `p_max` (fraction).
    pub p_max_frac: f64,
    /// Switch width multiplier `s ≥ 1`.
    pub size_multiplier: f64,
    /// Recharge-current averaging factor κ.
    pub kappa: f64,
    /// Sleep-signal buffer tree as a fraction of the switch's gate load, β_buf.
    pub beta_buf: f64,
    /// Cycles to distribute and synchronise the sleep signal.
    pub w_sync_cycles: u32,
    /// Rail collapse model.
    pub rail: RailModel,
    /// Floor of the collapsed rail as a fraction of Vdd.
    pub v_floor_frac: f64,
    /// Rounding of the break-even ratio (`FullCollapse`).
    pub bet_rounding: BetRounding,
    /// Largest inrush current allowed at wake, A (`f64::INFINITY`: no cap).
    pub i_rush_max_a: f64,
}

impl Default for PhysicalKnobs {
    fn default() -> Self {
        PhysicalKnobs {
            switch: SwitchKind::Header,
            alpha: 1.3,
            p_max_frac: 0.05,
            size_multiplier: 1.0,
            kappa: 2.0,
            beta_buf: 0.25,
            w_sync_cycles: 1,
            rail: RailModel::FullCollapse,
            v_floor_frac: 0.0,
            bet_rounding: BetRounding::Ceil,
            i_rush_max_a: f64::INFINITY,
        }
    }
}

/// Everything the model needs, SI units.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SleepInputs {
    /// Supply of the gated block, V.
    pub vdd_v: f64,
    /// Threshold of the logic devices (alpha-power sizing law), V.
    pub vt_logic_v: f64,
    /// Clock period, s.
    pub t_clk_s: f64,
    /// Switch device per width.
    pub device: SwitchDevice,
    /// Leakage power of the powered block, W.
    pub p_leak_w: f64,
    /// Peak active current of the block, A.
    pub i_act_a: f64,
    /// Virtual-rail capacitance of the block itself, F.
    pub c_blk_f: f64,
    /// Swing of the sleep signal driving the switch gate, V.
    pub v_drv_v: f64,
    /// Controller energy charged per event, J (§1.7: default 0; the controller is accounted
    /// separately by §1.6).
    pub e_ctrl_j: f64,
    /// Control-logic area added to the switch area, m².
    pub control_area_m2: f64,
    /// A given switch width instead of the sizing rule, m (rounded up to whole fins at FinFET).
    pub switch_width_m: Option<f64>,
    /// The knobs.
    pub knobs: PhysicalKnobs,
}

/// E_event as a function of the gated length G (constant under `FullCollapse`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EventEnergy {
    /// Virtual-rail capacitance `C_vr`, F.
    pub rail_capacitance_f: f64,
    /// Supply, V.
    pub vdd_v: f64,
    /// Full collapse depth `ΔV_max = Vdd·(1 − v_floor)`, V.
    pub dv_max_v: f64,
    /// Decay time constant τ (`Decay` only), s.
    pub tau_s: Option<f64>,
    /// Clock period, s.
    pub t_clk_s: f64,
    /// The part independent of G: gate drive + buffer tree + controller, J.
    pub fixed_j: f64,
}

impl EventEnergy {
    /// Collapse depth after `gated_cycles` gated cycles, V.
    pub fn rail_swing_v(&self, gated_cycles: u64) -> f64 {
        match self.tau_s {
            None => self.dv_max_v,
            Some(tau) => {
                self.dv_max_v * (1.0 - (-(gated_cycles as f64) * self.t_clk_s / tau).exp())
            }
        }
    }
    /// `E_event(G)` of one sleep+wake pair whose gated period lasted `gated_cycles`, J.
    pub fn energy_j(&self, gated_cycles: u64) -> f64 {
        self.rail_capacitance_f * self.vdd_v * self.rail_swing_v(gated_cycles) + self.fixed_j
    }
    /// The worst case (full collapse depth), J.
    pub fn max_energy_j(&self) -> f64 {
        self.rail_capacitance_f * self.vdd_v * self.dv_max_v + self.fixed_j
    }
}

/// Results of the model, SI units.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SleepOutputs {
    /// Break-even time, cycles.
    pub bet_cycles: u64,
    /// Break-even ratio before rounding (`FullCollapse`; `Decay`: equals `bet_cycles`).
    pub bet_exact_cycles: f64,
    /// Wakeup delay W, cycles (recharge + sleep-signal synchronisation).
    pub wakeup_cycles: u64,
    /// Residual gated leakage as a fraction of the block's leakage, r.
    pub residual_leak_frac: f64,
    /// Energy of one sleep+wake event (full collapse depth under `Decay`), J.
    pub event_energy_j: f64,
    /// Rail recharge part of it, `C_vr·Vdd·ΔV`, J.
    pub rail_recharge_j: f64,
    /// Gate drive + buffer part, `(1 + β)·c_g'·W_sw·V_drv²`, J.
    pub gate_drive_j: f64,
    /// E_event(G) for any G (used by the energy accounting under `Decay`).
    pub event: EventEnergy,
    /// Smallest switch width meeting `p_max`, W_min, m.
    pub switch_width_min_m: f64,
    /// Switch width W_sw, m (whole fins at FinFET nodes).
    pub switch_width_m: f64,
    /// Number of fins (FinFET), else `None`.
    pub n_fins: Option<u64>,
    /// Switch on-resistance, Ω.
    pub r_on_ohm: f64,
    /// IR drop across the switch at the block's peak current, V.
    pub ir_drop_v: f64,
    /// Delay penalty of that drop, fraction.
    pub delay_penalty_frac: f64,
    /// Switch area + control-logic area, m².
    pub area_m2: f64,
    /// Switch area alone, m².
    pub switch_area_m2: f64,
    /// Virtual-rail capacitance `C_vr`, F.
    pub rail_capacitance_f: f64,
    /// Rail swing restored at wake (full depth), V.
    pub rail_swing_v: f64,
    /// Decay time constant (`Decay`), s.
    pub decay_tau_s: Option<f64>,
    /// Recharge time, s.
    pub t_wake_s: f64,
    /// Rush-limited wake stages k (1 without a cap).
    pub wake_steps: u64,
}

/// Largest break-even time the `Decay` search tries before reporting that gating never pays.
pub const BET_SEARCH_LIMIT_CYCLES: u64 = 1 << 32;

fn positive(knob: &str, v: f64) -> Result<f64, GatingError> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(GatingError::input(knob, v, "a finite number > 0"))
    }
}

fn non_negative(knob: &str, v: f64) -> Result<f64, GatingError> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(GatingError::input(knob, v, "a finite number >= 0"))
    }
}

/// `W_min = α·I_act·ρ_on/(p_max·(Vdd − Vt_logic))`, m (power-gating §1.7 item 1).
pub fn min_switch_width_m(
    alpha: f64,
    i_act_a: f64,
    rho_on_ohm_m: f64,
    p_max_frac: f64,
    vdd_v: f64,
    vt_logic_v: f64,
) -> f64 {
    alpha * i_act_a * rho_on_ohm_m / (p_max_frac * (vdd_v - vt_logic_v))
}

fn validate(i: &SleepInputs) -> Result<(), GatingError> {
    let k = &i.knobs;
    positive("vdd_v", i.vdd_v)?;
    if !(i.vt_logic_v.is_finite() && i.vt_logic_v < i.vdd_v) {
        return Err(GatingError::input(
            "vt_logic_v",
            i.vt_logic_v,
            "a threshold below the supply (vdd_v)",
        ));
    }
    positive("t_clk_s", i.t_clk_s)?;
    positive("device.rho_on_ohm_m", i.device.rho_on_ohm_m)?;
    positive("device.i_sat_a_per_m", i.device.i_sat_a_per_m)?;
    non_negative("device.i_off_a_per_m", i.device.i_off_a_per_m)?;
    non_negative("device.c_drain_f_per_m", i.device.c_drain_f_per_m)?;
    non_negative("device.c_gate_f_per_m", i.device.c_gate_f_per_m)?;
    non_negative("device.area_m2_per_m", i.device.area_m2_per_m)?;
    if let Some(w) = i.device.fin_width_m {
        positive("device.fin_width_m", w)?;
    }
    positive("p_leak_w", i.p_leak_w)?;
    non_negative("i_act_a", i.i_act_a)?;
    non_negative("c_blk_f", i.c_blk_f)?;
    non_negative("v_drv_v", i.v_drv_v)?;
    non_negative("e_ctrl_j", i.e_ctrl_j)?;
    non_negative("control_area_m2", i.control_area_m2)?;
    if let Some(w) = i.switch_width_m {
        positive("switch_width_m", w)?;
    }
    positive("physical.alpha", k.alpha)?;
    positive("physical.p_max", k.p_max_frac)?;
    if !(k.size_multiplier.is_finite() && k.size_multiplier >= 1.0) {
        return Err(GatingError::input(
            "physical.size_multiplier (--switch-scale)",
            k.size_multiplier,
            "a finite number >= 1",
        ));
    }
    positive("physical.kappa", k.kappa)?;
    non_negative("physical.beta_buf", k.beta_buf)?;
    if !(k.v_floor_frac.is_finite() && (0.0..1.0).contains(&k.v_floor_frac)) {
        return Err(GatingError::input(
            "physical.v_floor",
            k.v_floor_frac,
            "a fraction in [0, 1)",
        ));
    }
    if k.i_rush_max_a.is_nan() || k.i_rush_max_a <= 0.0 {
        return Err(GatingError::input(
            "physical.i_rush_max",
            k.i_rush_max_a,
            "a current > 0 A, or inf",
        ));
    }
    Ok(())
}

/// Evaluates the sleep-transistor model (power-gating §1.7) for `i`.
pub fn evaluate(i: &SleepInputs) -> Result<SleepOutputs, GatingError> {
    validate(i)?;
    let k = &i.knobs;
    let d = &i.device;
    let vdd = i.vdd_v;
    // 1. Sizing.
    let w_min = min_switch_width_m(
        k.alpha,
        i.i_act_a,
        d.rho_on_ohm_m,
        k.p_max_frac,
        vdd,
        i.vt_logic_v,
    );
    let w_asked = i.switch_width_m.unwrap_or(k.size_multiplier * w_min);
    let (w_sw, n_fins) = match d.fin_width_m {
        Some(w_fin) => {
            // Whole fins, at least one; a width within 1e-9 of a whole number of fins is not
            // bumped up by rounding noise.
            let n = ((w_asked / w_fin) - 1e-9).ceil().max(1.0);
            (n * w_fin, Some(n as u64))
        }
        None => (w_asked, None),
    };
    if !(w_sw.is_finite() && w_sw > 0.0) {
        return Err(GatingError::input(
            "switch_width_m",
            w_sw,
            "a finite width > 0 (check i_act_a and rho_on)",
        ));
    }
    let r_on = d.rho_on_ohm_m / w_sw;
    let ir_drop = i.i_act_a * r_on;
    let delay_penalty = k.alpha * ir_drop / (vdd - i.vt_logic_v);
    // 2. Rail capacitance.
    let c_vr = i.c_blk_f + d.c_drain_f_per_m * w_sw;
    // 3. Collapse depth.
    let dv_max = vdd * (1.0 - k.v_floor_frac);
    let tau = match k.rail {
        RailModel::FullCollapse => None,
        RailModel::Decay => Some(c_vr * vdd * vdd / i.p_leak_w),
    };
    // 4. Event energy.
    let rail_recharge = c_vr * vdd * dv_max;
    let gate_drive = (1.0 + k.beta_buf) * d.c_gate_f_per_m * w_sw * i.v_drv_v * i.v_drv_v;
    let event = EventEnergy {
        rail_capacitance_f: c_vr,
        vdd_v: vdd,
        dv_max_v: dv_max,
        tau_s: tau,
        t_clk_s: i.t_clk_s,
        fixed_j: gate_drive + i.e_ctrl_j,
    };
    let e_event = event.max_energy_j();
    // 5. Residual leakage.
    let r = d.i_off_a_per_m * w_sw * vdd / i.p_leak_w;
    if r >= 1.0 {
        return Err(GatingError::NeverBreaksEven {
            why: format!(
                "the switch's off-current leaks {:.3}× the block's own leakage (r >= 1)",
                r
            ),
        });
    }
    // 6. BET.
    let saved_per_cycle_j = (1.0 - r) * i.p_leak_w * i.t_clk_s;
    let ratio = e_event / saved_per_cycle_j;
    let (bet, bet_exact) = match k.rail {
        RailModel::FullCollapse => {
            let b = match k.bet_rounding {
                // Tolerance: a ratio within 1e-9 of an integer is that integer.
                BetRounding::Ceil => (ratio - 1e-9).ceil(),
                BetRounding::Round => ratio.round(),
            };
            (b.max(1.0) as u64, ratio)
        }
        RailModel::Decay => {
            let pays = |g: u64| saved_per_cycle_j * g as f64 >= event.energy_j(g);
            // The saving grows linearly and E_event(G) saturates, so the first G that pays is
            // found by doubling then bisection (the condition is monotone past the first
            // crossing because E_event(G) is concave and starts above 0).
            let mut hi = 1u64;
            while !pays(hi) {
                if hi >= BET_SEARCH_LIMIT_CYCLES {
                    return Err(GatingError::NeverBreaksEven {
                        why: format!("no gated length up to {BET_SEARCH_LIMIT_CYCLES} cycles repays one event"),
                    });
                }
                hi *= 2;
            }
            let mut lo = hi / 2; // does not pay (or 0)
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if pays(mid) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            (hi, hi as f64)
        }
    };
    // 7. Wakeup.
    let i_full = d.i_sat_a_per_m * w_sw;
    let steps = if k.i_rush_max_a.is_finite() {
        ((i_full / k.i_rush_max_a) - 1e-9).ceil().max(1.0) as u64
    } else {
        1
    };
    let t_wake = steps as f64 * c_vr * dv_max * k.kappa / i_full;
    let wake = ((t_wake / i.t_clk_s) - 1e-9).ceil().max(0.0) as u64 + k.w_sync_cycles as u64;
    // 8. Area.
    let switch_area = d.area_m2_per_m * w_sw;
    Ok(SleepOutputs {
        bet_cycles: bet,
        bet_exact_cycles: bet_exact,
        wakeup_cycles: wake.max(1),
        residual_leak_frac: r,
        event_energy_j: e_event,
        rail_recharge_j: rail_recharge,
        gate_drive_j: gate_drive,
        event,
        switch_width_min_m: w_min,
        switch_width_m: w_sw,
        n_fins,
        r_on_ohm: r_on,
        ir_drop_v: ir_drop,
        delay_penalty_frac: delay_penalty,
        area_m2: switch_area + i.control_area_m2,
        switch_area_m2: switch_area,
        rail_capacitance_f: c_vr,
        rail_swing_v: dv_max,
        decay_tau_s: tau,
        t_wake_s: t_wake,
        wake_steps: steps,
    })
}
