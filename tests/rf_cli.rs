//! `gpuenergy techniques` lists the Warped Register File techniques, `simulate` prints the
//! register-file section when TRIC or COMA is on (and not otherwise), the partitioned-RF section
//! when the organisation is not the plain MRF, and bad `[tric]`/`[coma]`
//! values are refused naming the key.

mod common;
use common::{ok, refused};

#[test]
fn techniques_list_tric_coma_and_warped_rf() {
    let t = ok(&["techniques"]);
    for name in ["tric", "coma", "warped-rf"] {
        assert!(t.contains(name), "{name} missing:\n{t}");
    }
    assert!(t.contains("tric.enabled=true coma.enabled=true"), "{t}");
}

#[test]
fn simulate_prints_the_register_file_section() {
    let out = ok(&[
        "simulate",
        "--workload",
        "hotspot",
        "--technique",
        "warped-rf+two-level",
        "--set",
        "tric.wake_latency=2",
        "--quiet",
    ]);
    assert!(out.contains("register file (all SMs):"), "{out}");
    assert!(
        out.contains("DROWSY") && out.contains("wake events"),
        "{out}"
    );
    assert!(out.contains("driven-lane fraction"), "{out}");
    let plain = ok(&["simulate", "--workload", "hotspot", "--quiet"]);
    assert!(!plain.contains("register file (all SMs):"), "{plain}");
}

#[test]
fn simulate_prints_the_partitioned_register_file_section() {
    let out = ok(&[
        "simulate",
        "--preset",
        "gtx780",
        "--workload",
        "hotspot",
        "--technique",
        "adaptive-frf",
        "--quiet",
    ]);
    assert!(
        out.contains("Register file organisation: partitioned (FRF 4 regs/thread"),
        "{out}"
    );
    assert!(out.contains("Srf ") && out.contains("FrfHigh "), "{out}");
    assert!(out.contains("swap lookups"), "{out}");
    let rfc = ok(&[
        "simulate",
        "--preset",
        "gtx780",
        "--workload",
        "hotspot",
        "--technique",
        "rf-cache",
        "--quiet",
    ]);
    assert!(rfc.contains("MRF behind an RF cache"), "{rfc}");
    assert!(rfc.contains("RFC read hits"), "{rfc}");
    let plain = ok(&["simulate", "--workload", "hotspot", "--quiet"]);
    assert!(!plain.contains("Register file organisation"), "{plain}");
}

#[test]
fn bad_register_file_knobs_are_refused_naming_the_key() {
    let e = refused(&[
        "simulate",
        "--workload",
        "hotspot",
        "--set",
        "tric.wake_latency=0",
        "--quiet",
    ]);
    assert!(e.contains("tric.wake_latency"), "{e}");
    let e = refused(&[
        "simulate",
        "--workload",
        "hotspot",
        "--set",
        "coma.lane_org=wide",
        "--quiet",
    ]);
    assert!(e.contains("coma.lane_org"), "{e}");
    let e = refused(&[
        "simulate",
        "--workload",
        "hotspot",
        "--set",
        "tric.lookahead=99",
        "--quiet",
    ]);
    assert!(e.contains("tric.lookahead"), "{e}");
}

#[test]
fn compare_reports_register_file_savings_only_for_register_file_techniques() {
    let out = ok(&[
        "compare",
        "--tech",
        "40nm",
        "--workload",
        "hotspot",
        "--size",
        "test",
        "--technique",
        "tric",
        "--technique",
        "conv-pg",
        "--set",
        "energy.fixed_ratio_sweep=[2, 5]",
        "--format",
        "json",
        "--quiet",
    ]);
    let j: serde_json::Value = serde_json::from_str(&out).expect("json");
    let tric = &j["variants"][0];
    let w = &tric["per_workload"]["hotspot"]["rf"];
    let s = w["savings"]["leakage"].as_f64().unwrap();
    assert!(s > 0.0 && s < 1.0, "TRIC leakage saving {s}");
    // TRIC does not touch the access energy
    assert!(
        w["savings"]["dynamic"].as_f64().unwrap().abs() < 1e-12,
        "{w}"
    );
    assert!(w["savings_power"]["total"].is_number(), "{w}");
    assert!(w["rf_area_mm2"].as_f64().unwrap() > 0.0);
    assert_eq!(w["fixed_ratio"].as_array().unwrap().len(), 2, "{w}");
    assert!(w.get("access_split").is_none(), "{w}");
    let agg = &tric["aggregate"]["rf"]["savings"]["leakage"];
    for k in ["mean", "geomean_ratio", "total_weighted"] {
        assert!((agg[k].as_f64().unwrap() - s).abs() < 1e-12, "{k}: {agg}");
    }
    // no register-file technique: no register-file numbers
    let pg = &j["variants"][1];
    assert!(pg["per_workload"]["hotspot"].get("rf").is_none());
    assert!(pg["aggregate"].get("rf").is_none());
    assert!(j["baseline_runs"]["hotspot"].get("rf").is_none());
}

#[test]
fn estimate_splits_the_register_file_into_its_structures() {
    let out = ok(&[
        "estimate",
        "--tech",
        "40nm",
        "--workload",
        "hotspot",
        "--size",
        "test",
        "--technique",
        "warped-rf",
        "--quiet",
    ]);
    for leaf in ["MRF", "COMA mask table", "DWL AND gates", "TRIC control"] {
        assert!(out.contains(leaf), "{leaf} missing:\n{out}");
    }
    let plain = ok(&[
        "estimate",
        "--tech",
        "40nm",
        "--workload",
        "hotspot",
        "--size",
        "test",
        "--quiet",
    ]);
    assert!(!plain.contains("MRF") && !plain.contains("COMA mask table"));
    // `energy.calibration = "paper_rows"` is the finfet7 256 KB row: refused for GTX480's RF
    let e = refused(&[
        "estimate",
        "--tech",
        "40nm",
        "--workload",
        "hotspot",
        "--size",
        "test",
        "--technique",
        "tric",
        "--set",
        "energy.calibration=paper_rows",
        "--quiet",
    ]);
    assert!(e.contains("energy.calibration"), "{e}");
}

#[test]
fn coma_with_no_lane_gated_energy_saves_no_dynamic_energy() {
    // `coma.fixed_fraction = 1`: every access costs a full access, as in the plain RF, and
    // COMA does not change the timing: the register file's dynamic energy is the baseline's
    let out = ok(&[
        "compare",
        "--tech",
        "40nm",
        "--workload",
        "hotspot",
        "--size",
        "test",
        "--technique",
        "coma",
        "--sweep",
        "coma.fixed_fraction=1,0",
        "--format",
        "json",
        "--quiet",
    ]);
    let j: serde_json::Value = serde_json::from_str(&out).expect("json");
    let rf = |i: usize| j["variants"][i]["per_workload"]["hotspot"]["rf"].clone();
    let full = rf(0)["savings"]["dynamic"].as_f64().unwrap();
    assert!(full.abs() < 1e-12, "fixed_fraction 1: {full}");
    let gated = rf(1)["savings"]["dynamic"].as_f64().unwrap();
    assert!(gated > 0.0, "fixed_fraction 0: {gated}");
    // the mask table and AND gates only add: leakage saving 0, total below dynamic
    assert!(rf(1)["savings"]["leakage"].as_f64().unwrap().abs() < 1e-12);
    assert!(rf(1)["savings"]["total"].as_f64().unwrap() < gated);
}

#[test]
fn derived_wake_latency_is_filled_and_printed() {
    let out = common::gpuenergy(&[
        "simulate",
        "--workload",
        "hotspot",
        "--technique",
        "tric",
        "--set",
        "tric.wake_latency_mode=derived",
        "--tech",
        "40nm",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("tric.wake_latency derived: L = "), "{err}");
    assert!(stdout.contains(" derived): "), "{stdout}");
    // a drowsy supply at or above the supply is refused naming the knob
    let e = refused(&[
        "simulate",
        "--workload",
        "hotspot",
        "--technique",
        "tric",
        "--set",
        "tric.wake_latency_mode=derived",
        "--set",
        "tric.drowsy_margin_mv=2000",
        "--tech",
        "40nm",
        "--quiet",
    ]);
    assert!(e.contains("tric.drowsy_margin_mv"), "{e}");
    // the look-ahead line of the register-file section
    let out = ok(&[
        "simulate",
        "--workload",
        "hotspot",
        "--technique",
        "tric",
        "--set",
        "tric.lookahead=2",
        "--quiet",
    ]);
    assert!(out.contains("look-ahead k = 2:"), "{out}");
}
