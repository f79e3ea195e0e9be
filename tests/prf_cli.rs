//! The partitioned-RF techniques on the command line: `gpuenergy techniques` lists them,
//! combinations that do not compose are refused naming both techniques and the knob, a
//! simulation with each runs, and `prf.lat_srf = "derived"` is filled from the register-file
//! model by the estimate pipeline (and refused, naming the key, by a bare simulation).

mod common;
use common::{gpuenergy, ok, refused};

#[test]
fn techniques_list_the_partitioned_rf_family() {
    let t = ok(&["techniques"]);
    for name in [
        "partitioned-rf",
        "adaptive-frf",
        "rf-cache",
        "mrf-stv",
        "mrf-ntv",
    ] {
        assert!(t.contains(name), "{name} missing:\n{t}");
    }
    assert!(t.contains("kepler_ch6"), "{t}");
}

#[test]
fn incompatible_combinations_name_both() {
    for (combo, a, b) in [
        ("partitioned-rf+rf-cache", "partitioned-rf", "rf-cache"),
        ("adaptive-frf+mrf-ntv", "adaptive-frf", "mrf-ntv"),
        ("mrf-stv+mrf-ntv", "mrf-stv", "mrf-ntv"),
        ("partitioned-rf+tric", "partitioned-rf", "tric"),
    ] {
        let e = refused(&[
            "simulate",
            "--preset",
            "gtx780",
            "--workload",
            "hotspot",
            "--technique",
            combo,
        ]);
        assert!(e.contains(a) && e.contains(b), "{combo}: {e}");
    }
}

#[test]
fn each_technique_simulates_with_the_check() {
    for t in [
        "partitioned-rf",
        "adaptive-frf+partitioned-rf",
        "rf-cache",
        "mrf-ntv",
        "mrf-stv",
    ] {
        let out = ok(&[
            "simulate",
            "--preset",
            "gtx780",
            "--workload",
            "bfs",
            "--technique",
            t,
            "--check",
            "--quiet",
        ]);
        assert!(out.contains("bfs"), "{t}: {out}");
    }
}

#[test]
fn derived_srf_latency_is_filled_by_the_estimate() {
    let out = ok(&[
        "estimate",
        "--tech",
        "finfet7",
        "--preset",
        "gtx780",
        "--workload",
        "hotspot",
        "--technique",
        "partitioned-rf",
        "--set",
        "prf.lat_srf=derived",
    ]);
    assert!(out.contains("hotspot"), "{out}");
    // a bare simulation has no model to derive it from
    let run = gpuenergy(&[
        "simulate",
        "--preset",
        "gtx780",
        "--workload",
        "hotspot",
        "--technique",
        "partitioned-rf",
        "--set",
        "prf.lat_srf=derived",
    ]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "{err}");
    assert!(err.contains("prf.lat_srf"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn compare_costs_the_adaptive_frf_against_mrf_at_stv() {
    // the partition's record sums FRF_low time over the SMs; the accounting takes it as a
    // share of the run, so a multi-SM run with low epochs is costed rather than refused
    let out = ok(&[
        "compare",
        "--preset",
        "gtx780",
        "--tech",
        "finfet7",
        "--workload",
        "hotspot",
        "--baseline",
        "mrf-stv",
        "--technique",
        "adaptive-frf",
        "--format",
        "json",
        "--quiet",
    ]);
    let j: serde_json::Value = serde_json::from_str(&out).expect("json");
    let rf = &j["variants"][0]["per_workload"]["hotspot"]["rf"];
    let split = &rf["access_split"];
    let shares: Vec<f64> = ["frf_high", "frf_low", "srf"]
        .iter()
        .map(|k| split[k].as_f64().unwrap())
        .collect();
    assert!(shares[1] > 0.0, "no FRF_low accesses: {split}");
    assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{split}");
    let leak = rf["savings"]["leakage"].as_f64().unwrap();
    assert!(leak > 0.0 && leak < 1.0, "leakage saving {leak}");
}
