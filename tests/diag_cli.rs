//! End-to-end tests of `gpuenergy diag`: the quick suite on every built-in preset
//! recovers every discrete parameter (launch limits, latencies, SM count, barrier and warp-slot buffers, shared
//! memory and register file sizes and granularities) exactly, prints the cross-check statistics
//! and writes the residual plot; bad input exits with status 2.

mod common;
use common::{gpuenergy, refused};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    common::scratch("diag", name)
}

/// The quick suite on one preset: every discrete parameter PASS, the named keys present, the
/// cross-check statistics and the residual plot written.
fn quick_suite_on(preset: &str) {
    quick_suite_with(preset, None);
}

/// [`quick_suite_on`] with a technique applied (`--technique`).
fn quick_suite_with(preset: &str, technique: Option<&str>) {
    let label = match technique {
        Some(t) => format!("{preset}_{t}"),
        None => preset.to_string(),
    };
    let dir = scratch(&label);
    let plot = dir.to_string_lossy().to_string();
    let mut args = vec![
        "diag", "--preset", preset, "--suite", "quick", "--format", "json", "--quiet", "--plot",
        &plot,
    ];
    if let Some(t) = technique {
        args.extend(["--technique", t]);
    }
    let out = gpuenergy(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let v: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{preset}: JSON ({e}): {stdout}\n{stderr}"));
    let p = &v["presets"][0];
    let params = p["parameters"].as_array().expect("parameters");
    let failed: Vec<String> = params
        .iter()
        .filter(|q| q["kind"] == "discrete" && q["pass"] == false)
        .map(|q| {
            format!(
                "{} configured {} recovered {} ({})",
                q["name"], q["configured"], q["recovered"], q["note"]
            )
        })
        .collect();
    assert!(failed.is_empty(), "{preset}: discrete FAIL: {failed:#?}");
    assert_eq!(out.status.code(), Some(0), "{preset}: {stderr}");
    // the summary counts every verdict and puts each failure on one side
    let s = &p["summary"];
    let with_verdict = params.iter().filter(|q| !q["pass"].is_null()).count()
        + if p["crosscheck"].is_null() { 0 } else { 2 };
    assert_eq!(
        s["checks"].as_u64().unwrap() as usize,
        with_verdict,
        "{preset}: {s}"
    );
    let fails =
        s["simulator_side"].as_array().unwrap().len() + s["model_side"].as_array().unwrap().len();
    assert_eq!(
        s["passed"].as_u64().unwrap() as usize + fails,
        with_verdict,
        "{preset}: {s}"
    );
    assert!(
        s["simulator_side"].as_array().unwrap().is_empty(),
        "{preset}: every discrete parameter passed, so nothing is the simulator's: {s}"
    );
    for key in [
        "n_mp",
        "n1",
        "n2",
        "shared_memory_size",
        "register_file_type0_size",
        "second_read_cycles",
    ] {
        assert!(
            params
                .iter()
                .any(|q| q["name"].as_str().is_some_and(|n| n.ends_with(key))),
            "{preset}: no {key}"
        );
    }
    let cc = &p["crosscheck"];
    for key in [
        "pearson_r",
        "mape_pct",
        "max_abs_err_pct",
        "kendall_tau",
        "slope",
    ] {
        assert!(cc[key].is_number(), "{preset}: crosscheck.{key}");
    }
    assert!(cc["points"].as_array().is_some_and(|a| a.len() >= 8));
    let svg = dir.join(format!("diag_residuals_{label}.svg"));
    let text = std::fs::read_to_string(&svg).expect("residual plot written");
    assert!(text.starts_with("<svg") || text.contains("<svg"));
}

/// Every built-in preset, each in its own process, run side by side (the suite is
/// deterministic, so the order of completion does not matter).
#[test]
fn quick_suite_recovers_every_discrete_parameter_on_every_preset() {
    std::thread::scope(|s| {
        let handles: Vec<_> = sim::config::PRESET_NAMES
            .into_iter()
            .map(|preset| (preset, s.spawn(move || quick_suite_on(preset))))
            .collect();
        let failed: Vec<&str> = handles
            .into_iter()
            .filter_map(|(p, h)| h.join().is_err().then_some(p))
            .collect();
        assert!(failed.is_empty(), "quick suite failed on {failed:?}");
    });
}

/// Under LOOG the operand reads leave the chain link (the chained operand comes from the
/// broadcast, the others are read while the CU waits), so the microbenchmarks recover the
/// same per-link overhead for every class and the configured latencies exactly.
#[test]
fn quick_suite_recovers_the_latencies_under_loog() {
    quick_suite_with("vortex_like", Some("loog"));
}

#[test]
fn bad_input_exits_2() {
    let e = refused(&["diag", "--preset", "gtx9999"]);
    assert!(e.contains("gtx480"), "{e}");
    refused(&["diag", "--suite", "medium"]);
    refused(&["diag", "--format", "csv"]);
    let dir = scratch("bad-thresholds");
    let f = dir.join("t.toml");
    std::fs::write(&f, "[diag]\ntol_fu = 0.05\n").unwrap();
    let e = refused(&[
        "diag",
        "--preset",
        "gtx480",
        "--thresholds",
        f.to_str().unwrap(),
    ]);
    assert!(e.contains("t.toml"), "{e}");
    // A variant the cycle-level simulator does not run is refused, not run as PDOM.
    for t in ["dwf", "mimd", "nrec"] {
        let e = refused(&["diag", "--preset", "gtx480", "--technique", t, "--quiet"]);
        assert!(e.contains("reference-mode model"), "{t}: {e}");
    }
}
