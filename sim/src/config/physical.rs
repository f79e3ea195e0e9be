//! `[physical]`: the knobs of the sleep-transistor model (power-gating §1.7, §10) that
//! `models` uses when `pg.timing = "Physical"` to derive each gating domain's break-even time,
//! wakeup delay, residual leakage and event energy. The simulator itself never reads them: it
//! sees only the integers `pg.bet` and `pg.wakeup`, which the caller fills from the model
//! before simulating. Absent, every key holds the spec's default.

use serde::{Deserialize, Serialize};

/// Header (PMOS from Vdd to the virtual Vdd) or footer (NMOS from the virtual ground).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SwitchPlacement {
    /// High-Vt PMOS between Vdd and the virtual supply.
    Header,
    /// High-Vt NMOS between the virtual ground and ground.
    Footer,
}

/// How far the gated rail collapses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RailCollapse {
    /// To `v_floor·Vdd` at once.
    FullCollapse,
    /// Exponentially with the block's own leakage, `τ = C_vr·Vdd²/P_leak`.
    Decay,
}

/// Rounding of the break-even ratio.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BetRoundingKnob {
    /// Up.
    Ceil,
    /// To nearest.
    Round,
}

/// `[physical]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PhysicalSection {
    /// `physical.switch`.
    pub switch: SwitchPlacement,
    /// `physical.alpha`: alpha-power exponent of the logic's delay law.
    pub alpha: f64,
    /// `physical.p_max`: largest delay penalty of the IR drop (fraction).
    pub p_max: f64,
    /// `physical.size_multiplier`: switch width over the minimum, `s ≥ 1`.
    pub size_multiplier: f64,
    /// `physical.kappa`: recharge-current averaging factor κ.
    pub kappa: f64,
    /// `physical.beta_buf`: sleep-signal buffer tree over the switch's gate load.
    pub beta_buf: f64,
    /// `physical.w_sync`: cycles to distribute and synchronise the sleep signal.
    pub w_sync: u32,
    /// `physical.rail_model`.
    pub rail_model: RailCollapse,
    /// `physical.v_floor`: floor of the collapsed rail as a fraction of Vdd.
    pub v_floor: f64,
    /// `physical.bet_rounding`.
    pub bet_rounding: BetRoundingKnob,
    /// `physical.i_rush_max`: largest inrush current at wake, A (`"inf"`: no cap).
    pub i_rush_max: RushCap,
}

/// `physical.i_rush_max`: a current in amperes or `"inf"`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RushCap {
    /// A cap, A.
    Amperes(f64),
    /// `"inf"`: no cap.
    Text(Unlimited),
}

/// The word `inf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Unlimited {
    /// No cap.
    #[serde(rename = "inf")]
    Inf,
}

impl RushCap {
    /// The cap in amperes (`f64::INFINITY` for none).
    pub fn amperes(self) -> f64 {
        match self {
            RushCap::Amperes(a) => a,
            RushCap::Text(Unlimited::Inf) => f64::INFINITY,
        }
    }
}

impl Default for PhysicalSection {
    fn default() -> Self {
        PhysicalSection {
            switch: SwitchPlacement::Header,
            alpha: 1.3,
            p_max: 0.05,
            size_multiplier: 1.0,
            kappa: 2.0,
            beta_buf: 0.25,
            w_sync: 1,
            rail_model: RailCollapse::FullCollapse,
            v_floor: 0.0,
            bet_rounding: BetRoundingKnob::Ceil,
            i_rush_max: RushCap::Text(Unlimited::Inf),
        }
    }
}

impl PhysicalSection {
    /// True when every key holds its default (the section is then not serialised).
    pub fn is_default(&self) -> bool {
        *self == PhysicalSection::default()
    }

    /// Range checks; each message names the key and the allowed range.
    pub fn check(&self, bad: &mut Vec<String>) {
        let mut range = |k: &str, v: f64, ok: bool, allowed: &str| {
            if !(v.is_finite() && ok) {
                bad.push(format!("'physical.{k}' = {v}: must be {allowed}"));
            }
        };
        range(
            "alpha",
            self.alpha,
            (1.0..=2.0).contains(&self.alpha),
            "in [1, 2]",
        );
        range(
            "p_max",
            self.p_max,
            self.p_max > 0.0 && self.p_max < 1.0,
            "in (0, 1)",
        );
        range(
            "size_multiplier",
            self.size_multiplier,
            (1.0..=1000.0).contains(&self.size_multiplier),
            "in [1, 1000]",
        );
        range(
            "kappa",
            self.kappa,
            (1.0..=10.0).contains(&self.kappa),
            "in [1, 10]",
        );
        range(
            "beta_buf",
            self.beta_buf,
            (0.0..=10.0).contains(&self.beta_buf),
            "in [0, 10]",
        );
        range(
            "v_floor",
            self.v_floor,
            (0.0..1.0).contains(&self.v_floor),
            "in [0, 1)",
        );
        if let RushCap::Amperes(a) = self.i_rush_max {
            if a.is_nan() || a <= 0.0 {
                bad.push(format!(
                    "'physical.i_rush_max' = {a}: must be a current > 0 A or \"inf\""
                ));
            }
        }
        if self.w_sync > 1000 {
            bad.push(format!(
                "'physical.w_sync' = {}: must be in 0..=1000 cycles",
                self.w_sync
            ));
        }
    }
}
