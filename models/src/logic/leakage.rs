//! Leakage of one logic gate equivalent, derived step by step from the node's device data.
//!
//! The analytical logic model charges every NAND2 gate equivalent (GE) `2·w_min·I_off·Vdd`: on
//! average two of its four devices are off, each one minimum device wide (one fin at FinFET
//! nodes, 4 F planar), with the full supply across it ([`super::analytical`]). The off-current
//! is the node's: at FinFET nodes it is the device's drive law at `Vgs = 0, Vds = Vdd`
//! (`techlib::law`), and in the subthreshold limit of that law
//!
//! ```text
//! I_off ≈ I_0 · 10^(−Vth_eff / S) · (1 − e^(−Vdd/v_T))
//! Vth_eff = Vth − η·Vdd                 (threshold lowered by DIBL)
//! S       = n·v_T·ln 10                 (subthreshold swing, V per decade)
//! I_0     = K·(m·v_T)^α                 (the law's current scale at Vgs = Vth_eff)
//! ```
//!
//! so the gate's leakage is set by how many decades below its threshold current the off state
//! lies (`Vth_eff / S`) and by that threshold current. [`derive`] evaluates each step, and the
//! law's exact value next to the approximation, so that the ratio between two nodes can be read
//! off as a swing term, a threshold-current term and a width × supply term
//! (`models/tests/logic_leakage_7nm.rs` checks that decomposition for `finfet7` against `asap7`;
//! `gpuenergy component --explain` prints it). Planar nodes take their off-current from the
//! ITRS tables, not from the law: their row shows the law's terms for reference only.

use serde::Serialize;
use techlib::TechPoint;

/// Off devices per gate equivalent (two of a NAND2's four devices, on average).
pub const OFF_DEVICES_PER_GE: f64 = 2.0;

/// Each step of the per-GE leakage at one technology point.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GeLeakage {
    /// Supply, V.
    pub vdd_v: f64,
    /// Junction temperature, K.
    pub temperature_k: f64,
    /// Thermal voltage kT/q, V.
    pub thermal_voltage_v: f64,
    /// Threshold at zero drain bias and this temperature, V.
    pub vth_v: f64,
    /// Drain-induced barrier lowering η, V of threshold per V of drain bias.
    pub dibl_v_per_v: f64,
    /// Threshold with the supply across the off device, `Vth − η·Vdd`, V.
    pub vth_eff_v: f64,
    /// Subthreshold swing, V per decade of current.
    pub swing_v_per_decade: f64,
    /// Decades the off state lies below the threshold current, `Vth_eff / S`.
    pub decades_below_threshold: f64,
    /// Current scale of the law at `Vgs = Vth_eff` (`K·(m·v_T)^α`), A per m of effective width.
    pub threshold_current_a_per_m: f64,
    /// The subthreshold approximation `I_0·10^(−Vth_eff/S)·(1 − e^(−Vdd/v_T))`, A/m.
    pub i_off_subthreshold_a_per_m: f64,
    /// The node's off-current the model uses (the full law at FinFET nodes, the ITRS table at
    /// planar ones), A/m.
    pub i_off_a_per_m: f64,
    /// Whether `i_off_a_per_m` comes from the drive law (FinFET) rather than a table (planar).
    pub from_law: bool,
    /// Minimum device width (one fin's effective width, or 4 F planar), m.
    pub w_min_m: f64,
    /// Leakage of one gate equivalent, `2·w_min·I_off·Vdd`, W.
    pub leakage_per_ge_w: f64,
}

/// Minimum device width: one fin at FinFET nodes, 4 F at planar nodes, m.
pub fn w_min_m(tech: &TechPoint) -> f64 {
    tech.device()
        .fin_width_m
        .unwrap_or(4.0 * tech.feature_size_m)
}

/// The per-GE leakage of `tech`, step by step.
pub fn derive(tech: &TechPoint) -> GeLeakage {
    let d = tech.device();
    let law = &d.law;
    let vdd = tech.vdd_v();
    let vt = law.thermal_voltage_v();
    let vth_eff = law.vth_v - law.dibl_v_per_v * vdd;
    let swing = law.subthreshold_swing_v_per_decade();
    let decades = vth_eff / swing;
    let i0 = d.k_n_a_per_m * (law.ekv_m * vt).powf(law.alpha);
    let drain = 1.0 - (-vdd / vt).exp();
    let w = w_min_m(tech);
    let i_off = tech.i_off_a_per_m();
    GeLeakage {
        vdd_v: vdd,
        temperature_k: law.temperature_k,
        thermal_voltage_v: vt,
        vth_v: law.vth_v,
        dibl_v_per_v: law.dibl_v_per_v,
        vth_eff_v: vth_eff,
        swing_v_per_decade: swing,
        decades_below_threshold: decades,
        threshold_current_a_per_m: i0,
        i_off_subthreshold_a_per_m: i0 * 10f64.powf(-decades) * drain,
        i_off_a_per_m: i_off,
        from_law: d.fin_width_m.is_some(),
        w_min_m: w,
        leakage_per_ge_w: OFF_DEVICES_PER_GE * w * i_off * vdd,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(node: &str, flavour: techlib::Flavour) -> TechPoint {
        techlib::node(node)
            .unwrap()
            .at(&techlib::Conditions::new(flavour).with_temperature(350.0))
            .unwrap()
    }

    #[test]
    fn the_subthreshold_approximation_is_close_to_the_law_at_finfet_nodes() {
        for node in ["finfet7", "asap7"] {
            for fl in [techlib::Flavour::Lvt, techlib::Flavour::Rvt] {
                let g = derive(&point(node, fl));
                assert!(g.from_law);
                let r = g.i_off_subthreshold_a_per_m / g.i_off_a_per_m;
                // ln(1 + e^x) ≈ e^x, to first order in e^x: within 15 % two decades down
                assert!((r - 1.0).abs() < 0.15, "{node} {fl:?}: {r}");
                assert!(g.decades_below_threshold > 1.0);
            }
        }
    }

    #[test]
    fn the_per_ge_leakage_is_the_one_the_analytical_cost_charges() {
        let t = point("finfet7", techlib::Flavour::Lvt);
        let g = derive(&t);
        let p = crate::logic::LogicKind::Adder.default_params();
        let c = crate::logic::analytical_cost(crate::logic::LogicKind::Adder, &p, &t);
        let counts = crate::logic::analytical::counts(crate::logic::LogicKind::Adder, &p);
        let expect = (counts.ge + 4.0 * counts.ff) * g.leakage_per_ge_w;
        assert!((c.leakage_w / expect - 1.0).abs() < 1e-12);
    }
}
