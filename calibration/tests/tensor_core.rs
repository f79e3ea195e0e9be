//! The tensor core's dot-product slice (`models::logic::tensor_core`, kind `hdot4_f32acc`)
//! against its synthesis: the analytical model — gate equivalents counted from the slice's
//! structure times the ASAP7 device numbers, nothing fitted to the slice — evaluated at the
//! synthesis point (ASAP7 RVT, TT, the record's supply, 25 °C) and compared with the committed
//! golden (`calibration/goldens/asap7-rvt-tt/hdot4_f32acc/default`, produced by
//! `gpuenergy synth --liberty-dir ../shared/asap7 --component hdot4_f32acc --sweep --golden
//! --lean --out calibration/goldens/asap7-rvt-tt`). Prints each quantity's error and fails
//! when one leaves its stated tolerance ([`TOLERANCE_PCT`]), so the model cannot drift
//! unnoticed. Also prints the model's energy per binary16 multiply-accumulate at `asap7`,
//! `finfet7` and `planar45` (nominal supply; RVT at 25 °C, HP at 300 K at `planar45`), analytical and calibrated, and checks that the overlay fitted
//! from the goldens reproduces the synthesis at its reference point.

use calibration::SynthRecord;
use models::logic::tensor_core::tensor_core;
use models::logic::{model, LogicKind};
use std::collections::BTreeMap;
use std::path::Path;

/// Allowed error of the analytical slice against the synthesis, per quantity: (lowest %,
/// highest %). The gate-equivalent model's textbook constants (7 GE per full adder, a NAND2
/// footprint per GE, one leakage per GE from the device law) overstate the area of synthesised
/// arithmetic at ASAP7 and understate its leakage; the test prints the same model's errors on
/// the other synthesised datapaths (`fadd32`, `fmul32`, `ffma32`, `imul32`) beside the slice's.
/// Energy per multiply-accumulate, what the tensor cores' leaf charges per MAC, is held to
/// ±25 %.
const TOLERANCE_PCT: [(&str, f64, f64); 3] = [
    ("area_m2", -20.0, 120.0),
    ("leakage_w", -70.0, 20.0),
    ("energy_per_op_j", -25.0, 25.0),
];

/// The analytical model's error against a record, % (area, leakage, energy per operation).
fn errors_pct(r: &SynthRecord, tech: &techlib::TechPoint) -> Option<[f64; 3]> {
    let kind = LogicKind::parse(&r.component)?;
    let m = model(kind, &r.params, tech, None).unwrap();
    let e = |a: f64, b: f64| 100.0 * (a / b - 1.0);
    Some([
        e(m.area_m2, r.area_m2),
        e(m.leakage_w, r.leakage_w),
        e(m.energy_per_op_j, r.energy_per_op_j),
    ])
}

fn golden() -> SynthRecord {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("goldens/asap7-rvt-tt/hdot4_f32acc/default/record.json");
    SynthRecord::load(&p).unwrap()
}

/// `node` at `vdd_v` (default: nominal): RVT at 25 °C at FinFET nodes, HP at 300 K (the lowest
/// temperature of their tables) at planar nodes.
fn point(node: &str, vdd_v: Option<f64>) -> techlib::TechPoint {
    let n = techlib::node(node).unwrap();
    let (fl, t_k) = if n.kind() == techlib::NodeKind::Planar {
        (techlib::Flavour::Hp, 300.0)
    } else {
        (techlib::Flavour::Rvt, 298.15)
    };
    let mut c = techlib::Conditions::new(fl).with_temperature(t_k);
    if let Some(v) = vdd_v {
        c = c.with_vdd(v);
    }
    n.at(&c).unwrap()
}

/// Prints a 16-slice tensor core (a Volta core's 64 MAC per cycle) at `asap7`, `finfet7` and
/// `planar45`, analytical (`overlay` None) or calibrated; a calibrated one must use the overlay.
fn print_node_figures(overlay: Option<&models::overlay::Overlay>) {
    let label = if overlay.is_some() {
        "calibrated"
    } else {
        "analytical"
    };
    for node in ["asap7", "finfet7", "planar45"] {
        let c = tensor_core(16, &point(node, None), overlay).unwrap();
        assert_eq!(c.slice.calibrated, [overlay.is_some(); 4]);
        println!(
            "{label} {node:<9} per f16 MAC {:.3} pJ; slice {:.1} um2; 16-slice core \
             (64 MAC/cycle) {:.1} um2, leakage {:.3e} W",
            c.energy_per_mac_j * 1e12,
            c.slice.area_m2 * 1e12,
            c.area_m2 * 1e12,
            c.leakage_w
        );
    }
}

#[test]
fn analytical_slice_agrees_with_synthesis() {
    let r = golden();
    assert_eq!((r.flavour.as_str(), r.corner.as_str()), ("rvt", "tt"));
    assert_eq!(
        r.ops_per_cycle, 4.0,
        "energy per op is per multiply-accumulate"
    );
    let tech = point("asap7", Some(r.vdd_v));
    let m = model(LogicKind::Hdot4F32Acc, &BTreeMap::new(), &tech, None).unwrap();
    assert_eq!(m.calibrated, [false; 4]);
    let mut bad = Vec::new();
    println!(
        "{:<16} {:>14} {:>14} {:>9} {:>16}",
        "hdot4_f32acc", "synthesis", "model", "error %", "tolerance %"
    );
    for (q, synth, modelled) in [
        ("area_m2", r.area_m2, m.area_m2),
        ("leakage_w", r.leakage_w, m.leakage_w),
        ("energy_per_op_j", r.energy_per_op_j, m.energy_per_op_j),
    ] {
        let err = 100.0 * (modelled / synth - 1.0);
        let (_, lo, hi) = *TOLERANCE_PCT.iter().find(|t| t.0 == q).unwrap();
        println!(
            "{q:<16} {synth:>14.4e} {modelled:>14.4e} {err:>+9.1} {:>16}",
            format!("{lo:+.0}..{hi:+.0}")
        );
        if !(lo..=hi).contains(&err) {
            bad.push(format!(
                "{q}: model {err:+.1} % from synthesis, tolerance {lo:+}..{hi:+} %"
            ));
        }
    }
    // the same analytical model on the other synthesised datapaths, for comparison
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/asap7-rvt-tt");
    let recs = calibration::collect::collect(&goldens).unwrap();
    for r in recs.iter().filter(|r| {
        ["fadd32", "fmul32", "ffma32"].contains(&r.component.as_str())
            || (r.component == "imul32" && r.params.get("WIDTH") == Some(&32))
    }) {
        let [a, l, e] = errors_pct(r, &tech).unwrap();
        println!(
            "  for comparison {:<16} area {a:+.1} %, leakage {l:+.1} %, energy per op {e:+.1} %",
            r.label()
        );
    }
    println!(
        "slice: {} cells, {:.1} um2 synthesised",
        r.cell_count,
        r.area_m2 * 1e12
    );
    print_node_figures(None);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn overlay_reproduces_the_synthesis_at_its_reference() {
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/asap7-rvt-tt");
    let recs = calibration::collect::collect(&goldens).unwrap();
    let ov = calibration::fit::fit_records("asap7", &recs)
        .unwrap()
        .overlay;
    let r = golden();
    let tech = point("asap7", Some(ov.reference.vdd_v));
    let m = model(LogicKind::Hdot4F32Acc, &BTreeMap::new(), &tech, Some(&ov)).unwrap();
    assert_eq!(m.calibrated, [true; 4]);
    for (a, b) in [
        (m.area_m2, r.area_m2),
        (m.leakage_w, r.leakage_w),
        (m.energy_per_op_j, r.energy_per_op_j),
    ] {
        assert!((a / b - 1.0).abs() < 1e-9, "{a} vs {b}");
    }
    // carried to other nodes through device physics, as every calibrated kind
    print_node_figures(Some(&ov));
}
