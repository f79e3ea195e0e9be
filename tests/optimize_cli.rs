//! `gpuenergy optimize` on the real pipeline, on one workload so that it is quick: the
//! search's answer equals exhaustive enumeration's on a small space, a zero budget returns the
//! baseline, `--out` writes a configuration that `estimate --config` and `compare --config`
//! accept and that reproduces the verified energy, and infeasible problems and bad flags exit
//! with status 2 naming the binding constraint or the flag.

mod common;
use common::{ok, refused};

fn cache_dir() -> String {
    format!("{}/optimize-cache", env!("CARGO_TARGET_TMPDIR"))
}

/// `optimize` on hotspot at finfet7, JSON, quiet, with the cache in `cache`.
fn base_args(cache: &str) -> Vec<&str> {
    vec![
        "optimize",
        "--tech",
        "finfet7",
        "--workload",
        "hotspot",
        "--format",
        "json",
        "-q",
        "--cache-dir",
        cache,
    ]
}

fn optimize(extra: &[&str]) -> serde_json::Value {
    let cache = cache_dir();
    let mut args = base_args(&cache);
    args.extend_from_slice(extra);
    serde_json::from_str(&ok(&args)).unwrap()
}

#[test]
fn the_search_equals_exhaustive_enumeration_on_a_small_space() {
    let j = optimize(&[
        "--space",
        "gating",
        "--area-budget",
        "2%",
        "--perf-cap",
        "50%",
        "--exhaustive",
    ]);
    assert!(j["combinations"].as_u64().unwrap() <= 64);
    assert_eq!(j["exhaustive"]["same_as_search"], true, "{j:#}");
    for k in [
        "chosen",
        "baseline",
        "predicted",
        "verified",
        "pareto",
        "iterations",
    ] {
        assert!(!j[k].is_null(), "{k} missing");
    }
    for k in [
        "energy_j",
        "edp_js",
        "area_mm2",
        "added_area_mm2",
        "slowdown",
    ] {
        assert!(j["verified"][k].is_number(), "verified.{k}");
    }
    assert!(j["budget_mm2"].as_f64().unwrap() > 0.0);
    assert!(j["elapsed_s"].as_f64().unwrap() >= 0.0);
    // what produced it (#39 item 2)
    assert_eq!(j["run"]["tool"], "gpuenergy", "{j:#}");
    assert_eq!(j["run"]["config_name"], "gtx480");
    assert_eq!(j["run"]["node"], "finfet7");
    assert!(j["run"]["command_line"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "--exhaustive"));
}

#[test]
fn a_zero_budget_returns_the_baseline() {
    let j = optimize(&[
        "--space",
        "gating,rf",
        "--area-budget",
        "0%",
        "--perf-cap",
        "50%",
    ]);
    assert_eq!(j["chosen_name"], "baseline");
    assert_eq!(j["verified"]["energy_j"], j["baseline"]["energy_j"]);
    assert_eq!(j["verified"]["added_area_mm2"].as_f64(), Some(0.0));
}

#[test]
fn the_chosen_configuration_is_accepted_and_reproduces_the_verified_energy() {
    let out = format!("{}/best.toml", env!("CARGO_TARGET_TMPDIR"));
    let j = optimize(&[
        "--space",
        "gating",
        "--area-budget",
        "2%",
        "--perf-cap",
        "50%",
        "--out",
        &out,
    ]);
    assert_ne!(j["chosen_name"], "baseline", "{j:#}");
    let e: serde_json::Value = serde_json::from_str(&ok(&[
        "estimate",
        "--tech",
        "finfet7",
        "--config",
        &out,
        "--workload",
        "hotspot",
        "--format",
        "json",
        "-q",
    ]))
    .unwrap();
    let energy = e["workloads"][0]["energy_j"].as_f64().unwrap();
    let verified = j["verified"]["energy_j"].as_f64().unwrap();
    assert!(
        (energy / verified - 1.0).abs() < 1e-9,
        "estimate {energy} vs verified {verified}"
    );
    ok(&[
        "compare",
        "--tech",
        "finfet7",
        "--config",
        &out,
        "--workload",
        "hotspot",
        "--technique",
        "tric",
        "-q",
    ]);
}

#[test]
fn infeasible_problems_and_bad_flags_exit_2_naming_the_constraint() {
    let cache = cache_dir();
    let base = [
        "optimize",
        "--tech",
        "finfet7",
        "--workload",
        "hotspot",
        "-q",
        "--cache-dir",
        &cache,
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let run = |extra: &[&str]| {
        let a = with(extra);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        refused(&a)
    };
    let e = run(&[
        "--space",
        "gating",
        "--area-budget",
        "2%",
        "--perf-cap",
        "0",
    ]);
    assert!(e.contains("slowdown cap"), "{e}");
    let e = run(&[
        "--space",
        "gating",
        "--area-budget",
        "0.00001mm2",
        "--perf-cap",
        "50%",
    ]);
    assert!(e.contains("area budget"), "{e}");
    let e = run(&["--area-budget", "2"]);
    assert!(e.contains("--area-budget"), "{e}");
    let e = run(&["--space", "gating,nope", "--area-budget", "2%"]);
    assert!(e.contains("nope"), "{e}");
    let e = run(&["--perf-cap=-1", "--area-budget", "2%"]);
    assert!(e.contains("--perf-cap"), "{e}");
    // A --set of a key the search sets would override every design it reports.
    let e = run(&[
        "--space",
        "gating",
        "--area-budget",
        "2%",
        "--set",
        "pg.policy=Conventional",
    ]);
    assert!(
        e.contains("--set pg.policy") && e.contains("gating option"),
        "{e}"
    );
}

/// Ctrl-C (SIGINT) during a search on a fresh cache: no new simulation starts, the run still
/// prints the best verified design so far (JSON `interrupted: true`, exit 0) and says so on
/// stderr, and the cache holds whole entries only: no temporary file, every entry an Activity
/// that passes the cache's checks.
#[cfg(unix)]
#[test]
fn ctrl_c_prints_the_best_design_and_leaves_the_cache_consistent() {
    use std::process::{Command, Stdio};
    let dir = format!(
        "{}/optimize-cache-sigint-{}",
        env!("CARGO_TARGET_TMPDIR"),
        std::process::id()
    );
    let _ = std::fs::remove_dir_all(&dir);
    let entries = |d: &str| -> Vec<std::path::PathBuf> {
        std::fs::read_dir(d)
            .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default()
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args(base_args(&dir))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn gpuenergy");
    // wait for the first cached simulation (the search has started), then interrupt
    let t0 = std::time::Instant::now();
    while entries(&dir)
        .iter()
        .all(|p| p.extension().is_none_or(|e| e != "act"))
    {
        assert!(
            child.try_wait().unwrap().is_none(),
            "optimize ended before any simulation was cached"
        );
        assert!(t0.elapsed().as_secs() < 600, "no cache entry after 600 s");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: kill(2) on our own child's pid.
    let rc = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(rc, 0);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("interrupted: the cache is consistent"),
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON report");
    assert_eq!(v["interrupted"], true, "{stdout}");
    assert!(v["chosen"].is_object(), "{stdout}");
    let files = entries(&dir);
    assert!(!files.is_empty());
    for p in &files {
        assert_eq!(
            p.extension().and_then(|e| e.to_str()),
            Some("act"),
            "{}: a temporary file left behind",
            p.display()
        );
        gpuenergy::activity_cache::read_entry(p).unwrap_or_else(|e| panic!("{e}"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cache_folder_that_is_a_file_or_a_zero_cap_is_refused() {
    let file = std::env::temp_dir().join(format!("gpuenergy-cache-file-{}", std::process::id()));
    std::fs::write(&file, "not a folder").unwrap();
    let f = file.to_string_lossy().to_string();
    let base = [
        "optimize",
        "--tech",
        "finfet7",
        "--area-budget",
        "2%",
        "--workload",
        "hotspot",
    ];
    let mut a = base.to_vec();
    a.extend(["--cache-dir", &f]);
    let out = common::gpuenergy(&a);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&f) && err.contains("is a file"), "{err}");
    let mut a = base.to_vec();
    a.extend(["--cache-max-mib", "0"]);
    let out = common::gpuenergy(&a);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--cache-max-mib"), "{err}");
    std::fs::remove_file(&file).unwrap();
}
