//! Command-line checks of the inputs a run depends on: a saved Activity costed on another
//! configuration (refused unless `--recost`), a truncated Activity (flagged in every output
//! format), inconsistent counts (refused), the functional watchdog `--max-warp-insts` (exit
//! status 1) and configuration keys no model reads (refused, exit status 2).

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::gpuenergy;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpuenergy-audit-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Simulates `srad` on gtx480 and returns the saved Activity as JSON.
fn saved_activity(dir: &Path) -> serde_json::Value {
    let act = dir.join("act.json");
    let out = gpuenergy(&[
        "simulate",
        "--workload",
        "srad",
        "--out",
        act.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&std::fs::read_to_string(&act).unwrap()).unwrap()
}

fn write_json(dir: &Path, name: &str, v: &serde_json::Value) -> String {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string(v).unwrap()).unwrap();
    p.to_str().unwrap().to_string()
}

/// An edit of a saved Activity's JSON.
type Edit = Box<dyn Fn(&mut serde_json::Value)>;

fn estimate(act: &str, extra: &[&str]) -> Output {
    let mut args = vec!["estimate", "--tech", "planar45", "--activity", act];
    args.extend_from_slice(extra);
    gpuenergy(&args)
}

#[test]
fn activity_checks() {
    let dir = temp_dir("act");
    let act = saved_activity(&dir);
    let hash = act["config_hash"].as_str().unwrap().to_string();
    let same = write_json(&dir, "same.json", &act);

    // Recorded on gtx480, costed on gtx780: refused with both names and hashes, exit 2.
    let o = estimate(&same, &["--preset", "gtx780"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for needle in ["gtx480", "gtx780", hash.as_str(), "--recost"] {
        assert!(err.contains(needle), "expected '{needle}' in: {err}");
    }
    // On purpose: costed.
    let o = estimate(&same, &["--preset", "gtx780", "--recost"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The matching configuration needs no flag and the run is not flagged.
    let o = estimate(&same, &["--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["workloads"][0]["truncated"], false);

    // A truncated kernel is flagged in the table, the CSV and the JSON.
    let mut t = act.clone();
    t["kernels"][0]["truncated"] = true.into();
    let trunc = write_json(&dir, "trunc.json", &t);
    let o = estimate(&trunc, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(table.contains("TRUNCATED"), "{table}");
    let o = estimate(&trunc, &["--format", "csv"]);
    let csv = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = head
        .iter()
        .position(|h| *h == "truncated")
        .expect("a truncated column");
    assert!(
        lines.all(|l| l.split(',').nth(col) == Some("true")),
        "{csv}"
    );
    let o = estimate(&trunc, &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["workloads"][0]["truncated"], true);

    // Instructions in zero cycles: an error, not a lower energy.
    let mut z = act.clone();
    z["aggregate"]["cycles"] = 0.into();
    let zero = write_json(&dir, "zero.json", &z);
    let o = estimate(&zero, &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("0 cycles"), "{err}");

    // An aggregate that is not the sum of its kernels (an overflowed or edited counter).
    let mut w = act.clone();
    let n = w["aggregate"]["warp_insts"].as_u64().unwrap();
    w["aggregate"]["warp_insts"] = (n + 1).into();
    let wrap = write_json(&dir, "wrap.json", &w);
    let o = estimate(&wrap, &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("warp_insts"), "{err}");

    // Records no run can produce: each refused, naming the file and the record's fault.
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "nokernels",
            Box::new(|v| v["kernels"] = serde_json::json!([])),
            "no kernels",
        ),
        (
            "nosms",
            Box::new(|v| {
                v["aggregate"]["sms"] = serde_json::json!([]);
            }),
            "no SMs",
        ),
        (
            "fewsms",
            Box::new(|v| {
                let sms = v["kernels"][0]["sms"].as_array().unwrap()[..3].to_vec();
                v["kernels"][0]["sms"] = sms.into();
            }),
            "3 SMs, but the aggregate has 15",
        ),
        (
            "hugecycles",
            Box::new(|v| {
                v["kernels"][0]["cycles"] = 10_000_000_000_000_000_000u64.into();
            }),
            "more than 1000000000000000",
        ),
        (
            "smoverflow",
            Box::new(|v| {
                v["kernels"][0]["sms"][0]["warp_insts"] = u64::MAX.into();
            }),
            "its SMs sum to more than 2^64",
        ),
        (
            "smactive",
            Box::new(|v| {
                let c = v["kernels"][0]["cycles"].as_u64().unwrap();
                v["kernels"][0]["sms"][0]["active_cycles"] = (c + 1).into();
            }),
            "longer than the kernel's",
        ),
    ];
    for (name, edit, needle) in cases {
        let mut v = act.clone();
        edit(&mut v);
        let f = write_json(&dir, &format!("{name}.json"), &v);
        let o = estimate(&f, &[]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(&f), "{name}: {err}");
        assert!(
            err.contains(needle),
            "{name}: expected '{needle}' in: {err}"
        );
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    // Costed on purpose on a chip with another SM count: the per-SM counts do not fit.
    let o = estimate(&same, &["--preset", "gtx1080ti", "--recost"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("gpu.n_sm = 28"), "{err}");
    // A mismatch with a known preset names the keys that differ.
    let o = estimate(&same, &["--set", "gpu.core_mhz=800"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("gpu.core_mhz (700.0 -> 800.0)"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn watchdog_stops_runaway_launches_with_exit_status_1() {
    let o = gpuenergy(&["run", "--workload", "srad", "--max-warp-insts", "10"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("--max-warp-insts"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let dir = temp_dir("trace");
    let o = gpuenergy(&[
        "trace",
        "--workload",
        "srad",
        "--out",
        dir.to_str().unwrap(),
        "--max-warp-insts",
        "10",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("--max-warp-insts"), "{err}");
    // The default limit lets the workload run; the help documents the exit status.
    let o = gpuenergy(&["run", "--workload", "srad"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = gpuenergy(&["run", "--help"]);
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(
        help.contains("--max-warp-insts") && help.contains("1 when"),
        "{help}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unread_config_key_with_a_non_preset_value_is_refused() {
    let dir = temp_dir("cfg");
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, "base = \"gtx480\"\n[icnt]\nin_buffer_flits = 8\n").unwrap();
    let o = gpuenergy(&[
        "simulate",
        "--workload",
        "srad",
        "--config",
        cfg.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("'icnt.in_buffer_flits' = 8"), "{err}");
    assert!(err.contains("not modelled"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn runs_stopped_by_sim_max_cycles_are_marked_in_every_format() {
    let args = [
        "--workload",
        "hotspot",
        "--size",
        "test",
        "--set",
        "sim.max_cycles=1000",
        "--quiet",
    ];
    let run = |cmd: &str, format: &str| {
        let mut a = vec![cmd];
        a.extend_from_slice(&args);
        a.extend(["--format", format]);
        let o = gpuenergy(&a);
        assert!(o.status.success(), "{cmd} {format}: {}", stderr(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let table = run("simulate", "table");
    assert!(table.contains("TRUNCATED"), "{table}");
    assert!(table.contains("sim.max_cycles = 1000"), "{table}");
    let json: serde_json::Value = serde_json::from_str(&run("simulate", "json")).unwrap();
    assert_eq!(json["truncated"], true, "{json}");
    let table = run("rfstats", "table");
    assert!(table.contains("TRUNCATED"), "{table}");
    let json: serde_json::Value = serde_json::from_str(&run("rfstats", "json")).unwrap();
    assert_eq!(json["workloads"][0]["truncated"], true, "{json}");
    let csv = run("rfstats", "csv");
    assert!(csv.contains("hotspot,all,truncated,true"), "{csv}");
    // A run that completes carries no mark.
    let o = gpuenergy(&["simulate", "--workload", "hotspot", "--size", "test"]);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("TRUNCATED"));
}
