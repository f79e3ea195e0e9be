//! `gpuenergy component`: modelled area, leakage, energy per operation and delay of one logic
//! component at any size, analytical or calibrated by an overlay.

use crate::report::{format_parser, Format, TABLE_JSON};
use anyhow::{anyhow, Context, Result};
use models::logic::{model, overlay_scaling, resolve_params, LogicKind, NodeScaling};
use models::overlay::Overlay;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Arguments of `gpuenergy component`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Component kind: alu32, imul32, fadd32, fmul32, ffma32, sfu_lane, flop_array, latch_array,
    /// cam, crossbar, arb_rr, arb_fixed, dep_matrix, scoreboard, pg_controller, adder, mux.
    #[arg(long)]
    pub kind: String,
    /// Size parameter, NAME=VALUE (repeatable), e.g. --param N=12 --param W=32.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Technology node (techlib name, e.g. asap7, finfet7, planar45).
    #[arg(long, default_value = "asap7")]
    pub tech: String,
    /// Device flavour (rvt, lvt, slvt at FinFET nodes; hp, lstp, lop planar). Default: rvt at
    /// FinFET nodes, hp planar.
    #[arg(long)]
    pub flavour: Option<String>,
    /// Supply voltage in volts (default: the node's nominal).
    #[arg(long)]
    pub vdd: Option<f64>,
    /// Junction temperature in kelvin. The default, 350 K, is the one `estimate` uses and lies
    /// inside every built-in node's tables (planar 300–400 K, FinFET 250–400 K).
    #[arg(long, default_value_t = 350.0)]
    pub temperature: f64,
    /// Calibration overlay (TOML from `gpuenergy calibrate`).
    #[arg(long)]
    pub calibration: Option<PathBuf>,
    /// Output format: table or json.
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
}

/// Parse `NAME=VALUE` size parameters.
pub fn parse_params(items: &[String]) -> Result<BTreeMap<String, u32>> {
    let mut out = BTreeMap::new();
    for it in items {
        let (k, v) = it
            .split_once('=')
            .ok_or_else(|| anyhow!("--param '{it}': expected NAME=VALUE, e.g. N=16"))?;
        let v: u32 = v
            .trim()
            .parse()
            .map_err(|_| anyhow!("--param '{it}': value '{v}' is not a non-negative integer"))?;
        out.insert(k.trim().to_string(), v);
    }
    Ok(out)
}

/// Runs `gpuenergy component` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    let kind = LogicKind::parse(&args.kind).ok_or_else(|| {
        anyhow!(
            "unknown component kind '{}'; known: {}",
            args.kind,
            LogicKind::ALL
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    let params = resolve_params(kind, &parse_params(&args.params)?)?;
    let node = techlib::node(&args.tech)?;
    let flavour = match &args.flavour {
        Some(f) => node.flavour(f)?,
        None => {
            let fl = node.flavours();
            if fl.contains(&techlib::Flavour::Rvt) {
                techlib::Flavour::Rvt
            } else {
                *fl.first()
                    .ok_or_else(|| anyhow!("node {} has no device flavours", args.tech))?
            }
        }
    };
    let mut cond = techlib::Conditions::new(flavour).with_temperature(args.temperature);
    if let Some(v) = args.vdd {
        cond = cond.with_vdd(v);
    }
    let tech = node.at(&cond)?;
    let overlay = match &args.calibration {
        Some(p) => Some(Overlay::load(p)?),
        None => None,
    };
    let c = model(kind, &params, &tech, overlay.as_ref())
        .with_context(|| format!("modelling {} at {}", kind, args.tech))?;
    // The factors that carried the overlay's coefficients to this point, when it has any for
    // the kind.
    let scaling = match &overlay {
        Some(ov) if ov.kinds.contains_key(kind.name()) => Some(
            overlay_scaling(ov, &tech)
                .with_context(|| format!("mapping the overlay of {} to {}", ov.node, args.tech))?,
        ),
        _ => None,
    };
    let src = |b: bool| if b { "calibrated" } else { "analytical" };
    match args.format {
        Format::Json => {
            let v = serde_json::json!({
                "kind": kind.name(),
                "params": params,
                "tech": args.tech,
                "flavour": flavour.key(),
                "vdd_v": tech.vdd_v(),
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
                "scaling": scaling.as_ref().map(scaling_json),
            });
            println!("{}", serde_json::to_string_pretty(&v)?);
        }
        Format::Table => {
            let p: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
            println!(
                "{} [{}] at {} {} {:.3} V",
                kind,
                p.join(", "),
                args.tech,
                flavour.key(),
                tech.vdd_v()
            );
            println!(
                "  {:<18} {:>14}  {}",
                "area",
                format!("{:.4} um2", c.area_m2 * 1e12),
                src(c.calibrated[0])
            );
            println!(
                "  {:<18} {:>14}  {}",
                "leakage",
                format!("{:.5} uW", c.leakage_w * 1e6),
                src(c.calibrated[1])
            );
            println!(
                "  {:<18} {:>14}  {}",
                "energy per op",
                format!("{:.5} pJ", c.energy_per_op_j * 1e12),
                src(c.calibrated[2])
            );
            println!(
                "  {:<18} {:>14}  {}",
                "delay",
                format!("{:.2} ps", c.delay_s * 1e12),
                src(c.calibrated[3])
            );
            if let Some(s) = &scaling {
                print!("{}", scaling_table(s));
            }
        }
        Format::Csv => return Err(crate::report::no_csv("component")),
    }
    Ok(())
}

/// One point's figures for the scaling report, friendly units.
fn point_json(p: &models::logic::ScalingPoint) -> serde_json::Value {
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
