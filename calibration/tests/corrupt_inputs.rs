//! Calibration refuses corrupt data: each class of bad record or report (written by the test
//! into a temporary directory) is left out of a record set with its file and reason, is an
//! error for the strict collector, and never reaches a fit; fits whose coefficients are
//! negative or infinite, or that extrapolate to zero, are errors.

use calibration::collect::{collect, collect_all};
use calibration::fit::{check_fit, fit_records};
use calibration::record::SynthRecord;
use models::logic::LogicKind;
use models::overlay::QuantityFit;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpuenergy-corrupt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn record(n: u32) -> SynthRecord {
    SynthRecord {
        component: "arb_rr".into(),
        params: [("N".to_string(), n)].into(),
        flavour: "rvt".into(),
        corner: "tt".into(),
        vdd_v: 0.7,
        source: "test".into(),
        clock_period_s: 1e-9,
        ops_per_cycle: 1.0,
        area_m2: 1e-12 * n as f64 * (n as f64).log2(),
        cell_count: 10,
        leakage_w: 1e-9 * n as f64,
        internal_w: 1e-5,
        switching_w: 1e-5,
        total_w: 2e-5,
        energy_per_op_j: 2e-14 * n as f64,
        critical_path_s: Some(1e-11 * (n as f64).log2() + 2e-11),
        mean_input_activity: None,
        area_by_cell_m2: BTreeMap::new(),
    }
}

fn write(dir: &Path, sub: &str, text: &str) -> PathBuf {
    let d = dir.join(sub);
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("record.json");
    std::fs::write(&f, text).unwrap();
    f
}

/// One good record set plus one corrupt input of each class: each is dropped with its path
/// and reason, the good ones kept; the strict collector fails on the first.
#[test]
fn each_corrupt_record_is_dropped_with_its_file_and_reason() {
    let dir = tmp("records");
    for n in [4u32, 8, 16, 32] {
        write(&dir, &format!("ok{n}"), &record(n).to_json());
    }
    let good = record(8).to_json();
    let field = |name: &str, v: &str| {
        let mut j: serde_json::Value = serde_json::from_str(&good).unwrap();
        j[name] = serde_json::from_str(v).unwrap();
        serde_json::to_string_pretty(&j).unwrap()
    };
    let cases: Vec<(&str, String, &str)> = vec![
        ("empty", String::new(), "empty file"),
        ("truncated", good[..good.len() / 2].to_string(), "truncated"),
        ("vdd_zero", field("vdd_v", "0.0"), "vdd_v"),
        ("vdd_negative", field("vdd_v", "-0.7"), "vdd_v"),
        (
            "period_zero",
            field("clock_period_s", "0.0"),
            "clock_period_s",
        ),
        ("leak_negative", field("leakage_w", "-1e-9"), "leakage_w"),
        ("leak_zero", field("leakage_w", "0.0"), "leakage_w"),
        ("area_zero", field("area_m2", "0.0"), "area_m2"),
        (
            "delay_negative",
            field("critical_path_s", "-1e-11"),
            "critical_path_s",
        ),
        ("vdd_null", field("vdd_v", "null"), "not a synthesis record"),
        (
            "kind",
            field("component", "\"arb_rrr\""),
            "unknown component kind 'arb_rrr'",
        ),
    ];
    // Every numeric field out of its physical range, below and above, and the other classes
    // of the held-out probe: random bytes, string numbers, unknown or absurd size parameters.
    let mut cases: Vec<(String, String, &str)> = cases
        .into_iter()
        .map(|(sub, text, needle)| (sub.to_string(), text, needle))
        .collect();
    let fields = [
        ("vdd_v", "-1.0", "1e3"),
        ("clock_period_s", "-1e-9", "10.0"),
        ("ops_per_cycle", "0.0", "1e9"),
        ("area_m2", "-1e-12", "1e300"),
        ("leakage_w", "-1e300", "1e5"),
        ("energy_per_op_j", "-1e-14", "10.0"),
        ("internal_w", "-1e-5", "1e6"),
        ("switching_w", "-1e-5", "1e6"),
        ("total_w", "-1e-5", "1e6"),
        ("critical_path_s", "0.0", "5.0"),
        ("mean_input_activity", "-0.1", "50.0"),
        ("cell_count", "0", "18446744073709551615"),
    ];
    for (name, low, high) in fields {
        if name != "cell_count" {
            cases.push((format!("{name}_low"), field(name, low), name));
        }
        cases.push((format!("{name}_high"), field(name, high), name));
    }
    cases.push((
        "area_string".into(),
        field("area_m2", "\"big\""),
        "invalid type",
    ));
    cases.push((
        "param_unknown".into(),
        field("params", r#"{"N": 8, "Q": 3}"#),
        "params.Q",
    ));
    cases.push((
        "param_zero".into(),
        field("params", r#"{"N": 0}"#),
        "params.N",
    ));
    cases.push((
        "param_huge".into(),
        field("params", r#"{"N": 4000000000}"#),
        "params.N",
    ));
    cases.push((
        "cell_area_above_total".into(),
        field("area_by_cell_m2", r#"{"INVx1": 1.0}"#),
        "area_by_cell_m2.INVx1",
    ));
    cases.push(("flavour_empty".into(), field("flavour", "\"\""), "flavour"));
    for (sub, text, _) in &cases {
        write(&dir, sub, text);
    }
    let random = dir.join("random_bytes");
    std::fs::create_dir_all(&random).unwrap();
    let bytes: Vec<u8> = (0u32..300)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(random.join("record.json"), bytes).unwrap();
    cases.push(("random_bytes".into(), String::new(), "record.json"));
    let c = collect_all(&dir).unwrap();
    assert_eq!(c.records.len(), 4, "the good records are kept");
    assert_eq!(c.dropped.len(), cases.len());
    for (sub, _, needle) in &cases {
        let d = c
            .dropped
            .iter()
            .find(|d| d.path.parent().unwrap().ends_with(sub.as_str()))
            .unwrap_or_else(|| panic!("{sub} not dropped"));
        let e = d.error.to_string();
        assert!(
            e.contains("record.json") && e.contains(needle),
            "{sub}: {e}"
        );
        // A range error names the line of its key and the allowed range.
        if e.contains("out of range") {
            assert!(
                e.contains("allowed") && !e.contains("record.json:0:"),
                "{sub}: {e}"
            );
        }
    }
    // Strict: the first corrupt file is the error.
    let e = collect(&dir).unwrap_err().to_string();
    assert!(e.contains("record.json"), "{e}");
    // The kept records fit.
    fit_records("asap7", &c.records).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A raw-report directory whose meta.toml carries NaN, zero or negative reference values is
/// dropped naming its meta.toml and the field.
#[test]
fn raw_reports_with_bad_reference_values_are_dropped() {
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens_parsers");
    let dir = tmp("meta");
    for (sub, meta, needle) in [
        ("nan_vdd", "vdd_v = nan\nclock_period_s = 1e-9\n", "vdd_v"),
        (
            "zero_period",
            "vdd_v = 0.7\nclock_period_s = 0.0\n",
            "clock_period_s",
        ),
        (
            "neg_ops",
            "vdd_v = 0.7\nclock_period_s = 1e-9\nops_per_cycle = -1.0\n",
            "ops_per_cycle",
        ),
    ] {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).unwrap();
        for f in ["dc_area.rpt", "dc_power.rpt"] {
            std::fs::copy(goldens.join(f), d.join(f)).unwrap();
        }
        std::fs::write(
            d.join("meta.toml"),
            format!("component = \"fadd32\"\nflavour = \"rvt\"\ncorner = \"tt\"\n{meta}"),
        )
        .unwrap();
        let c = collect_all(&d).unwrap();
        assert!(c.records.is_empty(), "{sub}");
        let e = c.dropped[0].error.to_string();
        assert!(e.contains("meta.toml") && e.contains(needle), "{sub}: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn fit(terms: &[&str], coefficients: Vec<f64>) -> QuantityFit {
    QuantityFit {
        form: "arb_rr".into(),
        terms: terms.iter().map(|t| t.to_string()).collect(),
        coefficients,
        n_points: 4,
        fit_mape_pct: 0.0,
        cv_mape_pct: 0.0,
    }
}

/// Negative (non-constant) or infinite coefficients, and a fit that extrapolates to zero area
/// or delay at the smallest fitted size, are errors.
#[test]
fn bad_fits_are_errors() {
    let recs: Vec<SynthRecord> = [8u32, 16, 32].into_iter().map(record).collect();
    let refs: Vec<&SynthRecord> = recs.iter().collect();
    let k = LogicKind::ArbRr;
    let terms = ["N*clog2(N)", "N", "1"];
    check_fit(k, "area_m2", &fit(&terms, vec![1e-12, 0.0, 1e-13]), &refs).unwrap();
    // A negative constant is allowed while every prediction stays positive.
    check_fit(k, "area_m2", &fit(&terms, vec![1e-12, 0.0, -1e-12]), &refs).unwrap();
    let e = check_fit(k, "area_m2", &fit(&terms, vec![1e-12, -1e-13, 0.0]), &refs)
        .unwrap_err()
        .to_string();
    assert!(e.contains("negative"), "{e}");
    let e = check_fit(
        k,
        "area_m2",
        &fit(&terms, vec![f64::INFINITY, 0.0, 0.0]),
        &refs,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("finite"), "{e}");
    // Positive at N = 8..32 but zero or below at the form's floor N = 4: 4·2 − 8 = 0.
    let e = check_fit(k, "area_m2", &fit(&terms, vec![1e-12, 0.0, -8e-12]), &refs)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("extrapolates") && e.contains("smallest size"),
        "{e}"
    );
    // A delay fit through zero.
    let e = check_fit(
        k,
        "delay_s",
        &fit(&["clog2(N)", "1"], vec![1e-11, -3e-11]),
        &refs,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("delay_s") && e.contains("extrapolates"), "{e}");
}

/// A record set synthesised for one node cannot be fitted as another's: records carry the
/// library's flavour and supply, and a flavour the node lacks or a supply far from the node's
/// supplies is an error naming the node, the record and the allowed values.
#[test]
fn records_of_another_node_are_refused() {
    let recs: Vec<SynthRecord> = [4u32, 8, 16, 32].into_iter().map(record).collect();
    fit_records("asap7", &recs).unwrap();
    let e = fit_records("planar45", &recs).unwrap_err().to_string();
    assert!(
        e.contains("--tech planar45") && e.contains("flavour 'rvt'") && e.contains("hp"),
        "{e}"
    );
    // finfet7 has rvt, but its supplies are 0.30-0.45 V, the records' 0.7 V.
    let e = fit_records("finfet7", &recs).unwrap_err().to_string();
    assert!(
        e.contains("--tech finfet7") && e.contains("vdd_v = 0.7") && e.contains("V around"),
        "{e}"
    );
    let e = fit_records("asap9", &recs).unwrap_err().to_string();
    assert!(e.contains("asap9"), "{e}");
}
