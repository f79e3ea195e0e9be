//! Mapping calibrated logic costs from one technology point to another through device physics.
//!
//! A calibration overlay's coefficients hold at its reference point (for example ASAP7 RVT,
//! 0.70 V, 25 °C). [`NodeScaling::between`] gives the factors that carry a block's cost from that
//! point to any other — another supply, flavour or temperature of the same node, or another node
//! (`finfet7`, `planar45`, `40nm`). The block keeps its gate structure; what changes is the
//! minimum device it is built of and the wires between gates:
//!
//! * **leakage** ∝ `I_off · w_min · Vdd`: the off-current per metre of the device at the asked
//!   supply and temperature (threshold, subthreshold swing, DIBL and temperature all act inside
//!   `techlib`), times the width of a minimum device (one fin at FinFET nodes, 4 F planar), times
//!   the supply. This is the per-device leakage power; a block has the same number of devices at
//!   both points.
//! * **dynamic energy** ∝ `(w_min · C_g + l_wire · C_wire) · Vdd²`: the switched capacitance of a
//!   minimum device's gate (`C_g` per metre from `techlib`: intrinsic + overlap + fringe) plus the
//!   local wire it drives, whose length scales with the gate's linear size
//!   (`l_wire = √A_GE`, Rent-style: local nets span a few cell pitches at every node) and whose
//!   capacitance per metre is the node's local-wire `C` (`techlib` wire model, conservative
//!   projection).
//! * **area** ∝ `A_GE`, the area of one NAND2 equivalent: F² times the cell-architecture factor
//!   of [`super::area_per_ge_m2`] (400 F² planar, 1800 F² FinFET, whose nominal F is far below
//!   the real gate and fin pitches).
//! * **delay** ∝ FO4 delay of the node's device at the point (drive current, gate and drain
//!   capacitance).
//!
//! At the reference point itself every factor is 1.

use super::{area_per_ge_m2, w_min_m};
use serde::Serialize;
use techlib::{Projection, TechPoint, WireType};

/// The device and wire figures of one technology point that the scaling factors use.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScalingPoint {
    /// Node name.
    pub node: String,
    /// Device flavour.
    pub flavour: String,
    /// Supply, V.
    pub vdd_v: f64,
    /// Temperature, K.
    pub temperature_k: f64,
    /// Nominal feature size F, m.
    pub feature_size_m: f64,
    /// Threshold voltage at the point (temperature-corrected), V.
    pub vth_v: f64,
    /// Subthreshold swing, V per decade (FinFET law; 0 where the node has no drive law).
    pub subthreshold_swing_v_per_decade: f64,
    /// DIBL coefficient, V/V (FinFET law; 0 where the node has no drive law).
    pub dibl_v_per_v: f64,
    /// Off-current per metre of device width at Vgs = 0, Vds = Vdd, A/m.
    pub i_off_a_per_m: f64,
    /// Width of a minimum device (one fin, or 4 F planar), m.
    pub w_min_m: f64,
    /// Gate capacitance per metre of width, F/m.
    pub c_gate_f_per_m: f64,
    /// Local wire capacitance per metre, F/m.
    pub c_wire_local_f_per_m: f64,
    /// Local wire length per gate, `√A_GE`, m.
    pub l_wire_m: f64,
    /// Area of one NAND2 equivalent, m².
    pub area_per_ge_m2: f64,
    /// FO4 delay, s.
    pub fo4_delay_s: f64,
}

impl ScalingPoint {
    /// The figures of `t`.
    pub fn of(t: &TechPoint) -> ScalingPoint {
        let d = t.device();
        let a_ge = area_per_ge_m2(t);
        let c_wire = t
            .wire(WireType::Local, Projection::Conservative)
            .map(|w| w.c_f_per_m())
            .unwrap_or(0.0);
        let law = (d.fin_width_m.is_some()).then_some(d.law);
        ScalingPoint {
            node: t.node_name.clone(),
            flavour: t.conditions.flavour.key().to_string(),
            vdd_v: t.vdd_v(),
            temperature_k: t.temperature_k(),
            feature_size_m: t.feature_size_m,
            vth_v: d.vth_v,
            subthreshold_swing_v_per_decade: law
                .map_or(0.0, |l| l.subthreshold_swing_v_per_decade()),
            dibl_v_per_v: law.map_or(0.0, |l| l.dibl_v_per_v),
            i_off_a_per_m: t.i_off_a_per_m(),
            w_min_m: w_min_m(t),
            c_gate_f_per_m: t.c_gate_f_per_m(),
            c_wire_local_f_per_m: c_wire,
            l_wire_m: a_ge.sqrt(),
            area_per_ge_m2: a_ge,
            fo4_delay_s: t.fo4_delay_s(),
        }
    }

    /// Leakage power of one minimum device, `I_off · w_min · Vdd`, W.
    pub fn device_leakage_w(&self) -> f64 {
        self.i_off_a_per_m * self.w_min_m * self.vdd_v
    }

    /// Switched capacitance of one minimum device and its local wire, F.
    pub fn switched_c_f(&self) -> f64 {
        self.w_min_m * self.c_gate_f_per_m + self.l_wire_m * self.c_wire_local_f_per_m
    }

    /// Energy of one switching of [`Self::switched_c_f`] at the supply, `C·Vdd²`, J.
    pub fn switch_energy_j(&self) -> f64 {
        self.switched_c_f() * self.vdd_v * self.vdd_v
    }
}

/// Factors that carry a logic block's cost from a reference point to a target point
/// (target / reference), with the figures of both points.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeScaling {
    /// Area factor: `A_GE` ratio.
    pub area: f64,
    /// Dynamic-energy factor: `(w_min·C_g + l_wire·C_wire)·Vdd²` ratio.
    pub dynamic_energy: f64,
    /// Leakage factor: `I_off·w_min·Vdd` ratio.
    pub leakage: f64,
    /// Delay factor: FO4 ratio.
    pub delay: f64,
    /// Whether the two points are on different nodes.
    pub cross_node: bool,
    /// The reference point (where the coefficients hold).
    pub reference: ScalingPoint,
    /// The asked point.
    pub target: ScalingPoint,
}

impl NodeScaling {
    /// The factors from `reference` to `target`.
    pub fn between(reference: &TechPoint, target: &TechPoint) -> NodeScaling {
        let r = ScalingPoint::of(reference);
        let t = ScalingPoint::of(target);
        let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 1.0 };
        NodeScaling {
            area: ratio(t.area_per_ge_m2, r.area_per_ge_m2),
            dynamic_energy: ratio(t.switch_energy_j(), r.switch_energy_j()),
            leakage: ratio(t.device_leakage_w(), r.device_leakage_w()),
            delay: ratio(t.fo4_delay_s, r.fo4_delay_s),
            cross_node: !r.node.eq_ignore_ascii_case(&t.node),
            reference: r,
            target: t,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use techlib::{Conditions, Flavour};

    fn point(node: &str, fl: Flavour, t_k: f64) -> TechPoint {
        techlib::node(node)
            .unwrap()
            .at(&Conditions::new(fl).with_temperature(t_k))
            .unwrap()
    }

    #[test]
    fn identity_at_the_reference_point() {
        let p = point("asap7", Flavour::Rvt, 298.15);
        let s = NodeScaling::between(&p, &p);
        for f in [s.area, s.dynamic_energy, s.leakage, s.delay] {
            assert!((f - 1.0).abs() < 1e-12, "{s:?}");
        }
        assert!(!s.cross_node);
    }

    #[test]
    fn factors_compose_and_follow_the_physics() {
        let a = point("asap7", Flavour::Rvt, 298.15);
        let b = point("finfet7", Flavour::Lvt, 350.0);
        let c = point("planar45", Flavour::Hp, 350.0);
        let ab = NodeScaling::between(&a, &b);
        let bc = NodeScaling::between(&b, &c);
        let ac = NodeScaling::between(&a, &c);
        for (x, y, z) in [
            (ab.area, bc.area, ac.area),
            (ab.dynamic_energy, bc.dynamic_energy, ac.dynamic_energy),
            (ab.leakage, bc.leakage, ac.leakage),
            (ab.delay, bc.delay, ac.delay),
        ] {
            assert!((x * y / z - 1.0).abs() < 1e-9);
        }
        assert!(ab.cross_node);
        // a 45 nm gate is larger than a 7 nm one and switches more capacitance at a higher supply
        assert!(ac.area > 1.0 && ac.dynamic_energy > 1.0);
        // hotter and lower threshold: more leakage per device
        let hot = point("asap7", Flavour::Rvt, 350.0);
        assert!(NodeScaling::between(&a, &hot).leakage > 1.0);
    }
}
