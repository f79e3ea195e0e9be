//! Renderers of `gpuenergy component`: the table and JSON of one logic component's modelled
//! area, leakage, energy per operation and delay, each with its source (analytical or
//! calibrated), and of the node scaling that carried a calibration overlay to the target node.

use models::logic::leakage::GeLeakage;
use models::logic::{LogicCost, LogicKind, NodeScaling, ScalingPoint};
use std::collections::BTreeMap;
use std::fmt::Write;

/// What `gpuenergy component` computed for one component, in SI units.
#[derive(Debug, Clone, Copy)]
pub struct Modelled<'a> {
    /// The component kind.
    pub kind: LogicKind,
    /// Its size parameters, defaults resolved.
    pub params: &'a BTreeMap<String, u32>,
    /// The technology node as named on the command line.
    pub tech: &'a str,
    /// The device flavour.
    pub flavour: techlib::Flavour,
    /// The supply the component was modelled at, V.
    pub vdd_v: f64,
    /// The modelled figures and which of them an overlay calibrated.
    pub cost: &'a LogicCost,
    /// The factors that carried the overlay's coefficients to this point, when it has any for
    /// the kind.
    pub scaling: Option<&'a NodeScaling>,
    /// The analytical leakage derived step by step (`--explain`): the per-GE derivation and the
    /// block's gate equivalents (combinational GE plus 4 per state bit).
    pub explain: Option<(&'a GeLeakage, f64)>,
}

/// `calibrated` or `analytical`.
fn src(calibrated: bool) -> &'static str {
    if calibrated {
        "calibrated"
    } else {
        "analytical"
    }
}

/// The JSON object of one component (area um^2, leakage uW, energy pJ per operation, delay
/// ps), with the source of each figure and the `"scaling"` object (null without an overlay).
pub fn json(m: &Modelled) -> serde_json::Value {
    let c = m.cost;
    serde_json::json!({
        "kind": m.kind.name(),
        "params": m.params,
        "tech": m.tech,
        "flavour": m.flavour.key(),
        "vdd_v": m.vdd_v,
        "area_um2": c.area_m2 * 1e12,
        "leakage_uw": c.leakage_w * 1e6,
        "energy_pj_per_op": c.energy_per_op_j * 1e12,
        "delay_ps": c.delay_s * 1e12,
        "source": {
            "area": src(c.calibrated[0]),
            "leakage": src(c.calibrated[1]),
            "energy": src(c.calibrated[2]),
            "delay": src(c.calibrated[3]),
        },
        "scaling": m.scaling.map(scaling_json),
        "leakage_derivation": m.explain.map(|(g, n)| derivation_json(g, n)),
    })
}

/// The `leakage_derivation` object (friendly units, as the rest of the component's JSON).
fn derivation_json(g: &GeLeakage, gate_equivalents: f64) -> serde_json::Value {
    // planar nodes tabulate the off-current: the law's terms do not derive it there
    let law = |v: f64| g.from_law.then_some(v);
    serde_json::json!({
        "vdd_v": g.vdd_v,
        "temperature_k": g.temperature_k,
        "i_off_from_law": g.from_law,
        "thermal_voltage_mv": law(g.thermal_voltage_v * 1e3),
        "vth_v": law(g.vth_v),
        "dibl_mv_per_v": law(g.dibl_v_per_v * 1e3),
        "vth_eff_v": law(g.vth_eff_v),
        "subthreshold_swing_mv_per_decade": law(g.swing_v_per_decade * 1e3),
        "decades_below_threshold": law(g.decades_below_threshold),
        "threshold_current_ua_per_um": law(g.threshold_current_a_per_m),
        "i_off_subthreshold_na_per_um": law(g.i_off_subthreshold_a_per_m * 1e3),
        "i_off_na_per_um": g.i_off_a_per_m * 1e3,
        "w_min_nm": g.w_min_m * 1e9,
        "leakage_per_ge_nw": g.leakage_per_ge_w * 1e9,
        "gate_equivalents": gate_equivalents,
        "leakage_uw": gate_equivalents * g.leakage_per_ge_w * 1e6,
    })
}

/// The `--explain` block: the analytical leakage from the device data, one step per line.
fn derivation_table(g: &GeLeakage, gate_equivalents: f64, calibrated: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "leakage from the device data (analytical model{}):",
        if calibrated {
            "; the table's leakage comes from the calibration overlay"
        } else {
            ""
        }
    );
    let law_rows = [
        (
            "threshold",
            format!(
                "Vth_eff = Vth {:.3} V - DIBL {:.0} mV/V x Vdd {:.3} V = {:.3} V",
                g.vth_v,
                g.dibl_v_per_v * 1e3,
                g.vdd_v,
                g.vth_eff_v
            ),
        ),
        (
            "swing",
            format!(
                "S = n kT/q ln10 = {:.1} mV/decade at {:.0} K",
                g.swing_v_per_decade * 1e3,
                g.temperature_k
            ),
        ),
        (
            "off state",
            format!(
                "Vth_eff / S = {:.2} decades below the threshold current",
                g.decades_below_threshold
            ),
        ),
        (
            "threshold current",
            format!(
                "I_0 = K (m kT/q)^alpha = {:.1} uA/um",
                g.threshold_current_a_per_m
            ),
        ),
        (
            "off current",
            format!(
                "I_0 x 10^-{:.2} x (1 - e^(-Vdd q/kT)) = {:.2} nA/um; the full law gives {:.2} nA/um",
                g.decades_below_threshold,
                g.i_off_subthreshold_a_per_m * 1e3,
                g.i_off_a_per_m * 1e3
            ),
        ),
    ];
    let table_rows = [(
        "off current",
        format!(
            "{:.2} nA/um from the node's ITRS table at {:.3} V, {:.0} K (planar nodes \
             tabulate it; no drive-law derivation)",
            g.i_off_a_per_m * 1e3,
            g.vdd_v,
            g.temperature_k
        ),
    )];
    let common = [
        (
            "per gate",
            format!(
                "2 off devices x w {:.1} nm x I_off x Vdd = {:.4} nW per NAND2 equivalent",
                g.w_min_m * 1e9,
                g.leakage_per_ge_w * 1e9
            ),
        ),
        (
            "block",
            format!(
                "{:.0} gate equivalents (GE + 4 per state bit) x {:.4} nW = {:.5} uW",
                gate_equivalents,
                g.leakage_per_ge_w * 1e9,
                gate_equivalents * g.leakage_per_ge_w * 1e6
            ),
        ),
    ];
    let first: &[(&str, String)] = if g.from_law { &law_rows } else { &table_rows };
    for (name, text) in first.iter().chain(common.iter()) {
        let _ = writeln!(s, "  {name:<18} {text}");
    }
    s
}

/// The text of one component: a heading line, one line per figure with its source, then the
/// scaling block when an overlay was mapped.
pub fn table(m: &Modelled) -> String {
    let c = m.cost;
    let mut s = String::new();
    let p: Vec<String> = m.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = writeln!(
        s,
        "{} [{}] at {} {} {:.3} V",
        m.kind,
        p.join(", "),
        m.tech,
        m.flavour.key(),
        m.vdd_v
    );
    for (name, value, calibrated) in [
        (
            "area",
            format!("{:.4} um2", c.area_m2 * 1e12),
            c.calibrated[0],
        ),
        (
            "leakage",
            format!("{:.5} uW", c.leakage_w * 1e6),
            c.calibrated[1],
        ),
        (
            "energy per op",
            format!("{:.5} pJ", c.energy_per_op_j * 1e12),
            c.calibrated[2],
        ),
        (
            "delay",
            format!("{:.2} ps", c.delay_s * 1e12),
            c.calibrated[3],
        ),
    ] {
        let _ = writeln!(s, "  {:<18} {:>14}  {}", name, value, src(calibrated));
    }
    if let Some(sc) = m.scaling {
        s.push_str(&scaling_table(sc));
    }
    if let Some((g, n)) = m.explain {
        s.push_str(&derivation_table(g, n, c.calibrated[1]));
    }
    s
}

/// One point's figures for the scaling report, friendly units.
fn point_json(p: &ScalingPoint) -> serde_json::Value {
    serde_json::json!({
        "node": p.node,
        "flavour": p.flavour,
        "vdd_v": p.vdd_v,
        "temperature_k": p.temperature_k,
        "feature_size_nm": p.feature_size_m * 1e9,
        "vth_v": p.vth_v,
        "subthreshold_swing_mv_per_decade": p.subthreshold_swing_v_per_decade * 1e3,
        "dibl_mv_per_v": p.dibl_v_per_v * 1e3,
        "i_off_na_per_um": p.i_off_a_per_m * 1e3,
        "w_min_nm": p.w_min_m * 1e9,
        "device_leakage_nw": p.device_leakage_w() * 1e9,
        "c_gate_ff_per_um": p.c_gate_f_per_m * 1e9,
        "c_wire_local_ff_per_um": p.c_wire_local_f_per_m * 1e9,
        "l_wire_nm": p.l_wire_m * 1e9,
        "switched_c_af": p.switched_c_f() * 1e18,
        "area_per_ge_um2": p.area_per_ge_m2 * 1e12,
        "fo4_ps": p.fo4_delay_s * 1e12,
    })
}

/// The `"scaling"` object of the JSON output.
fn scaling_json(s: &NodeScaling) -> serde_json::Value {
    serde_json::json!({
        "cross_node": s.cross_node,
        "area": s.area,
        "dynamic_energy": s.dynamic_energy,
        "leakage": s.leakage,
        "delay": s.delay,
        "formulas": {
            "area": "A_GE ratio (F^2 x cell-architecture factor)",
            "dynamic_energy": "(w_min*C_g + l_wire*C_wire_local)*Vdd^2 ratio, l_wire = sqrt(A_GE)",
            "leakage": "I_off*w_min*Vdd ratio (I_off at Vgs=0, Vds=Vdd, point temperature)",
            "delay": "FO4 ratio",
        },
        "reference": point_json(&s.reference),
        "target": point_json(&s.target),
    })
}

/// The scaling block of the table output.
fn scaling_table(s: &NodeScaling) -> String {
    let (r, t) = (&s.reference, &s.target);
    let mut o = format!(
        "  calibrated at {} {} {:.3} V {:.1} K, mapped to {} {} {:.3} V {:.1} K{}\n",
        r.node,
        r.flavour,
        r.vdd_v,
        r.temperature_k,
        t.node,
        t.flavour,
        t.vdd_v,
        t.temperature_k,
        if s.cross_node { " (cross-node)" } else { "" }
    );
    o.push_str(&format!(
        "  {:<16} {:>10} {:>14} {:>14}  {}\n",
        "scaling", "factor", "reference", "target", "inputs"
    ));
    let row = |name: &str, f: f64, a: String, b: String, what: &str| {
        format!("  {name:<16} {f:>10.4} {a:>14} {b:>14}  {what}\n")
    };
    o.push_str(&row(
        "area",
        s.area,
        format!("{:.4} um2", r.area_per_ge_m2 * 1e12),
        format!("{:.4} um2", t.area_per_ge_m2 * 1e12),
        "area per NAND2 equivalent",
    ));
    o.push_str(&row(
        "dynamic energy",
        s.dynamic_energy,
        format!("{:.3} aJ", r.switch_energy_j() * 1e18),
        format!("{:.3} aJ", t.switch_energy_j() * 1e18),
        "(w_min*C_g + l_wire*C_wire)*Vdd^2",
    ));
    o.push_str(&row(
        "leakage",
        s.leakage,
        format!("{:.4} nW", r.device_leakage_w() * 1e9),
        format!("{:.4} nW", t.device_leakage_w() * 1e9),
        "I_off*w_min*Vdd per minimum device",
    ));
    o.push_str(&row(
        "delay",
        s.delay,
        format!("{:.2} ps", r.fo4_delay_s * 1e12),
        format!("{:.2} ps", t.fo4_delay_s * 1e12),
        "FO4",
    ));
    for (name, a, b) in [
        (
            "  I_off nA/um",
            r.i_off_a_per_m * 1e3,
            t.i_off_a_per_m * 1e3,
        ),
        ("  w_min nm", r.w_min_m * 1e9, t.w_min_m * 1e9),
        ("  Vth V", r.vth_v, t.vth_v),
        (
            "  swing mV/dec",
            r.subthreshold_swing_v_per_decade * 1e3,
            t.subthreshold_swing_v_per_decade * 1e3,
        ),
        ("  DIBL mV/V", r.dibl_v_per_v * 1e3, t.dibl_v_per_v * 1e3),
        (
            "  C_g fF/um",
            r.c_gate_f_per_m * 1e9,
            t.c_gate_f_per_m * 1e9,
        ),
        (
            "  C_wire fF/um",
            r.c_wire_local_f_per_m * 1e9,
            t.c_wire_local_f_per_m * 1e9,
        ),
        ("  l_wire nm", r.l_wire_m * 1e9, t.l_wire_m * 1e9),
    ] {
        o.push_str(&format!("  {name:<16} {:>10} {a:>14.4} {b:>14.4}\n", ""));
    }
    o
}
