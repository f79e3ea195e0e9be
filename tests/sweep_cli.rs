//! `gpuenergy sweep`: plan, run, merge, status; resume after a repeat and after a kill;
//! corrupted result files detected, recomputed and never merged; sharded runs merge to the
//! same bytes as one run; bad sweep files refused with file, line and key, nothing started.

mod common;

use common::{gpuenergy, ok, refused};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    common::scratch("sweep-cli", name)
}

/// 2 techniques x 2 values of pg.idle_detect x 1 workload = 4 points.
const SMALL: &str = r#"preset = "gtx480"
workloads = ["histo"]
techniques = ["two-level", "conv-pg"]

[[tech]]
node = "40nm"

[axes]
"pg.idle_detect" = [5, 10]
"#;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// `(found, computed, corrupt)` from a run's summary line.
fn counts(summary: &str) -> (usize, usize, usize) {
    let num = |after: &str| -> usize {
        let i = summary
            .find(after)
            .unwrap_or_else(|| panic!("no '{after}' in {summary}"));
        summary[..i]
            .split_whitespace()
            .last()
            .unwrap()
            .trim_start_matches('(')
            .parse()
            .unwrap()
    };
    (
        num(" found done"),
        num(" computed"),
        num(" corrupt result files"),
    )
}

fn result_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join("points"))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn plan_lists_every_point() {
    let d = scratch("plan");
    let f = write(&d, "s.toml", SMALL);
    let out = ok(&["sweep", "plan", &f, "--no-estimate"]);
    assert!(
        out.starts_with(&format!("sweep {f}: 4 points = 4 variants")),
        "{out}"
    );
    // summary, header, 4 points
    assert_eq!(out.lines().count(), 6, "{out}");
    assert!(
        out.contains("conv-pg") && out.contains("pg.idle_detect"),
        "{out}"
    );
    let out = ok(&["sweep", "plan", &f, "--jobs", "2"]);
    assert!(out.contains("cost estimate: 4 simulations"), "{out}");
    assert!(out.contains("histo (test):"), "{out}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn run_resume_corruption_shards_and_merge() {
    let d = scratch("run");
    let f = write(&d, "s.toml", SMALL);
    let a = d.join("a").display().to_string();
    let out = ok(&["sweep", "run", &f, "--out", &a, "-q"]);
    assert_eq!(counts(&out), (0, 4, 0), "{out}");
    assert_eq!(result_files(Path::new(&a)).len(), 4);
    // a repeated sweep computes nothing
    let out = ok(&["sweep", "run", &f, "--out", &a, "-q"]);
    assert_eq!(counts(&out), (4, 0, 0), "{out}");
    ok(&["sweep", "merge", &a, "-q"]);
    let csv = std::fs::read_to_string(Path::new(&a).join("sweep.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5, "{csv}");
    assert!(csv.starts_with("point,key,node,op,device,temperature_k,technique,pg.idle_detect,workload,size,tech,vdd_v,cycles,"));
    let json = std::fs::read_to_string(Path::new(&a).join("sweep.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["rows"].as_array().unwrap().len(), 4);
    assert!(v["rows"][0]["energy_j"].as_f64().unwrap() > 0.0);
    assert!(Path::new(&a).join("plots/energy_runtime.svg").exists());
    let status = ok(&["sweep", "status", &a]);
    assert!(
        status.contains("4 points: 4 done") && status.contains("complete"),
        "{status}"
    );

    // corrupt one result file: one digit of its outcome changed
    let files = result_files(Path::new(&a));
    let victim = &files[1];
    let mut bytes = std::fs::read(victim).unwrap();
    let second = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    let at = second
        + bytes[second..]
            .windows(8)
            .position(|w| w == b"\"cycles\"")
            .unwrap()
        + 9;
    bytes[at] = if bytes[at] == b'1' { b'2' } else { b'1' };
    std::fs::write(victim, &bytes).unwrap();
    let status = ok(&["sweep", "status", &a]);
    assert!(
        status.contains("1 corrupt") && status.contains("hash mismatch"),
        "{status}"
    );
    let err = refused(&["sweep", "merge", &a, "-q"]);
    assert!(
        err.contains("corrupt result file") && err.contains("not merged"),
        "{err}"
    );
    // the merged table of before was not overwritten with the corrupt point
    assert_eq!(
        std::fs::read_to_string(Path::new(&a).join("sweep.csv")).unwrap(),
        csv
    );
    let run = gpuenergy(&["sweep", "run", &f, "--out", &a, "-q"]);
    assert!(run.status.success());
    let out = String::from_utf8_lossy(&run.stdout);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(counts(&out), (3, 1, 1), "{out}");
    assert!(
        err.contains("hash mismatch") && err.contains("recomputed"),
        "{err}"
    );
    ok(&["sweep", "merge", &a, "-q"]);
    assert_eq!(
        std::fs::read_to_string(Path::new(&a).join("sweep.csv")).unwrap(),
        csv
    );

    // two shards, run one after another into another folder, merge to the same bytes
    let b = d.join("b").display().to_string();
    let s0 = ok(&["sweep", "run", &f, "--out", &b, "--shard", "0/2", "-q"]);
    assert_eq!(counts(&s0), (0, 2, 0), "{s0}");
    let status = ok(&["sweep", "status", &b]);
    assert!(
        status.contains("2 missing") && status.contains("incomplete"),
        "{status}"
    );
    refused(&["sweep", "merge", &b, "-q"]);
    let s1 = ok(&[
        "sweep", "run", &f, "--out", &b, "--shard", "1/2", "-q", "--jobs", "1",
    ]);
    assert_eq!(counts(&s1), (0, 2, 0), "{s1}");
    ok(&["sweep", "merge", &b, "-q"]);
    for name in ["sweep.csv", "sweep.json", "plots/energy_runtime.svg"] {
        assert_eq!(
            std::fs::read(Path::new(&a).join(name)).unwrap(),
            std::fs::read(Path::new(&b).join(name)).unwrap(),
            "{name}"
        );
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_killed_run_resumes_without_recomputing_finished_points() {
    let d = scratch("kill");
    let f = write(
        &d,
        "s.toml",
        &SMALL
            .replace("[\"histo\"]", "[\"histo\", \"hotspot\", \"nw\"]")
            .replace("[5, 10]", "[5, 10, 20]"),
    );
    let out = d.join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args(["sweep", "run", &f, "--out"])
        .arg(&out)
        .args(["--jobs", "1", "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while result_files(&out).len() < 3 && t0.elapsed() < Duration::from_secs(300) {
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let finished = result_files(&out).len();
    assert!(finished >= 3, "no point finished in 300 s");
    let status = ok(&["sweep", "status", &out.display().to_string()]);
    if finished < 18 {
        assert!(
            status.contains("0/1: running") && status.contains("incomplete"),
            "{status}"
        );
    }
    let again = ok(&[
        "sweep",
        "run",
        &f,
        "--out",
        &out.display().to_string(),
        "-q",
    ]);
    // every point that was finished is found, none of them recomputed
    assert_eq!(counts(&again), (finished, 18 - finished, 0), "{again}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn bad_sweep_files_name_file_line_and_key_and_start_nothing() {
    let d = scratch("bad");
    let cases: &[(&str, String, &str, &str)] = &[
        (
            "unknown key",
            SMALL.replace("techniques =", "technique ="),
            ":3:1: 'technique'",
            "unknown field",
        ),
        (
            "empty axis",
            SMALL.replace("[5, 10]", "[]"),
            ":9:",
            "empty axis",
        ),
        (
            "no axis value",
            SMALL.replace("\"pg.idle_detect\" = [5, 10]", ""),
            ":8:",
            "[axes] has no axis",
        ),
        (
            "conflicting knobs",
            SMALL.replace("pg.idle_detect", "pg.policy"),
            ":9:1: 'pg.policy'",
            "conflicting knobs",
        ),
        (
            "unknown configuration key",
            SMALL.replace("pg.idle_detect", "pg.idle_detekt"),
            ":9:1: 'pg.idle_detekt'",
            "unknown key",
        ),
        (
            "bad value",
            SMALL.replace("[5, 10]", "[5, \"soon\"]"),
            ":9:1: 'pg.idle_detect'",
            "soon",
        ),
    ];
    for (what, text, place, words) in cases {
        let f = write(&d, "bad.toml", text);
        let out = d.join("out").display().to_string();
        for cmd in ["plan", "run"] {
            let mut args = vec!["sweep", cmd, f.as_str()];
            if cmd == "run" {
                args.extend(["--out", out.as_str()]);
            }
            let err = refused(&args);
            assert!(err.contains(&format!("{f}{place}")), "{what}: {err}");
            assert!(err.contains(words), "{what}: {err}");
        }
        assert!(!Path::new(&out).exists(), "{what}: the run started");
    }
    let f = write(&d, "s.toml", SMALL);
    let out = d.join("out").display().to_string();
    let err = refused(&["sweep", "run", &f, "--out", &out, "--max-points", "3"]);
    assert!(
        err.contains(&format!("{f}:8:1: 'axes'")) && err.contains("4 points"),
        "{err}"
    );
    assert!(err.contains("--max-points 3"), "{err}");
    assert!(!Path::new(&out).exists());
    let err = refused(&["sweep", "run", &f, "--out", &out, "--shard", "2/2"]);
    assert!(err.contains("--shard"), "{err}");
    let err = refused(&["sweep", "status", &d.join("nothing").display().to_string()]);
    assert!(err.contains("plan.json"), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}
