//! Fits the committed synthesis goldens (`calibration/goldens/asap7-rvt-tt`, produced by
//! `gpuenergy synth --liberty-dir ../shared/asap7 --component all --sweep --golden --lean`),
//! prints the per-kind cross-validation table and asserts the calibration targets:
//! leave-one-out MAPE ≤ 10 % for area and ≤ 15 % for leakage and energy per operation, for every
//! kind with a size sweep, except the documented misses in `KNOWN_MISSES` (asserted at their
//! stated looser bound, so they cannot silently get worse). Also re-parses the raw reports and checks they reproduce the records,
//! and that the overlay round-trips through TOML and drives `models::logic`.

use calibration::fit::{fit_records, QUANTITIES};
use calibration::parsers::parse_report;
use calibration::SynthRecord;
use std::path::{Path, PathBuf};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/asap7-rvt-tt")
}

fn records() -> Vec<SynthRecord> {
    let r = calibration::collect::collect(&golden_dir()).unwrap();
    assert!(
        r.len() >= 60,
        "expected the full golden sweep, found {} records",
        r.len()
    );
    r
}

/// Documented misses: (kind, quantity, bound asserted instead, why). None at present: every kind
/// meets the targets.
const KNOWN_MISSES: &[(&str, &str, f64, &str)] = &[];

fn target_pct(kind: &str, q: &str) -> f64 {
    if let Some(m) = KNOWN_MISSES.iter().find(|m| m.0 == kind && m.1 == q) {
        return m.2;
    }
    match q {
        "area_m2" => 10.0,
        "leakage_w" | "energy_per_op_j" => 15.0,
        _ => f64::INFINITY,
    }
}

#[test]
fn goldens_meet_cv_targets() {
    let recs = records();
    let out = fit_records("asap7", &recs).unwrap();
    println!(
        "{:<14} {:>4} {:>10} {:>10} {:>10} {:>10}",
        "kind", "n", "area cv%", "leak cv%", "energy cv%", "delay cv%"
    );
    let mut failures = Vec::new();
    for (kind, kf) in &out.overlay.kinds {
        let get = |q: &str| {
            kf.quantities()
                .into_iter()
                .find(|(n, _)| *n == q)
                .map(|(_, f)| f.clone())
        };
        let n = get("area_m2").map(|f| f.n_points).unwrap_or(0);
        let cell = |q: &str| {
            get(q)
                .map(|f| {
                    if f.cv_mape_pct.is_finite() {
                        format!("{:.2}", f.cv_mape_pct)
                    } else {
                        "n/a".into()
                    }
                })
                .unwrap_or("-".into())
        };
        println!(
            "{:<14} {:>4} {:>10} {:>10} {:>10} {:>10}",
            kind,
            n,
            cell("area_m2"),
            cell("leakage_w"),
            cell("energy_per_op_j"),
            cell("delay_s")
        );
        for q in QUANTITIES {
            if let Some(f) = get(q) {
                if f.n_points >= 3 && f.cv_mape_pct > target_pct(kind, q) {
                    failures.push(format!(
                        "{kind}.{q}: cv {:.2}% > {}%",
                        f.cv_mape_pct,
                        target_pct(kind, q)
                    ));
                }
            }
        }
    }
    for (k, q, b, why) in KNOWN_MISSES {
        println!("known miss: {k}.{q} asserted at <= {b}% instead of the target: {why}");
    }
    assert!(
        failures.is_empty(),
        "targets missed:\n{}",
        failures.join("\n")
    );
}

#[test]
fn raw_reports_reproduce_records() {
    for r in records() {
        let leaf: Vec<String> = r.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let leaf = if leaf.is_empty() {
            "default".to_string()
        } else {
            leaf.join("_")
        };
        let dir = golden_dir().join(&r.component).join(leaf);
        let parse = |name: &str| {
            let p = dir.join(name);
            let text =
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            parse_report(&text, &p).unwrap().unwrap()
        };
        let stat = parse("stat.txt");
        let power = parse("power.rpt");
        // JSON floats round-trip to within an ulp or so.
        let same = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() <= 1e-12 * b.abs());
        assert!(same(stat.area_m2, r.area_m2), "{}", dir.display());
        assert!(same(power.leakage_w, r.leakage_w), "{}", dir.display());
        let e = power.dynamic_w().unwrap() * r.clock_period_s / r.ops_per_cycle;
        assert!(
            (e - r.energy_per_op_j).abs() <= 1e-12 * e,
            "{}",
            dir.display()
        );
        for v in [r.area_m2, r.leakage_w, r.energy_per_op_j] {
            assert!(v.is_finite() && v > 0.0, "{}: {v}", dir.display());
        }
    }
}

#[test]
fn overlay_round_trips_and_drives_the_models() {
    let recs = records();
    let out = fit_records("asap7", &recs).unwrap();
    let text = out.overlay.to_toml_string();
    let back = models::overlay::Overlay::from_toml_str(&text, Path::new("overlay.toml")).unwrap();
    assert_eq!(back.kinds.len(), out.overlay.kinds.len());
    let node = techlib::node("asap7").unwrap();
    let rvt = techlib::Flavour::Rvt;
    let tech = node
        .at(&techlib::Conditions::new(rvt)
            .with_vdd(back.reference.vdd_v)
            .with_temperature(back.reference.temperature_c + 273.15))
        .unwrap();
    for r in &recs {
        let Some(kind) = models::logic::LogicKind::parse(&r.component) else {
            continue;
        };
        let c = models::logic::model(kind, &r.params, &tech, Some(&back)).unwrap();
        let fit = back.kinds[&r.component].area_m2.as_ref().unwrap();
        let direct = fit.eval(&r.params).unwrap();
        assert!((c.area_m2 - direct).abs() <= 1e-9 * direct, "{}", r.label());
        assert!(c.calibrated[0] && c.calibrated[1] && c.calibrated[2]);
    }
}

/// The TRIC control as the register-file model costs it (`models::rf::tric::control_blocks`):
/// calibrated to the `tric_ctrl` goldens when the overlay is given, analytical otherwise;
/// prints synthesised vs modelled for every golden size.
#[test]
fn tric_control_uses_the_calibrated_component() {
    let recs = records();
    let overlay = fit_records("asap7", &recs).unwrap().overlay;
    let node = techlib::node("asap7").unwrap();
    let tech = node
        .at(&techlib::Conditions::new(techlib::Flavour::Rvt)
            .with_vdd(overlay.reference.vdd_v)
            .with_temperature(overlay.reference.temperature_c + 273.15))
        .unwrap();
    println!(
        "{:<18} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}",
        "tric_ctrl", "synth um2", "cal um2", "anal um2", "synth uW", "cal uW", "anal uW"
    );
    for r in recs.iter().filter(|r| r.component == "tric_ctrl") {
        let cal = models::logic::model(
            models::logic::LogicKind::PowerStateCtrl,
            &r.params,
            &tech,
            Some(&overlay),
        )
        .unwrap();
        let ana = models::logic::model(
            models::logic::LogicKind::PowerStateCtrl,
            &r.params,
            &tech,
            None,
        )
        .unwrap();
        println!(
            "{:<18} {:>12.3} {:>12.3} {:>12.3} {:>12.4} {:>12.4} {:>12.4}",
            r.label(),
            r.area_m2 * 1e12,
            cal.area_m2 * 1e12,
            ana.area_m2 * 1e12,
            r.leakage_w * 1e6,
            cal.leakage_w * 1e6,
            ana.leakage_w * 1e6
        );
        assert!(
            (cal.area_m2 / r.area_m2 - 1.0).abs() < 0.10,
            "{}",
            r.label()
        );
    }
    // a 1024-entry register file: 16 blocks of 64 entries, calibrated
    let (blocks, c) = models::rf::tric::control_blocks(1024, &tech, Some(&overlay)).unwrap();
    assert_eq!(blocks, 16);
    assert!(c.calibrated[0] && c.calibrated[1] && c.calibrated[2]);
    let (_, a) = models::rf::tric::control_blocks(1024, &tech, None).unwrap();
    assert!(!a.calibrated[0]);
    println!(
        "1024 entries: control area {:.1} um2 calibrated, {:.1} um2 analytical",
        16.0 * c.area_m2 * 1e12,
        16.0 * a.area_m2 * 1e12
    );
}
