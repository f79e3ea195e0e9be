//! Kernel sampling end to end (`--sample`, `--sample-error`; docs/estimate.md "Kernel
//! sampling"): a program whose launches come in three shapes makes three clusters and its
//! sampled cycles and energy lie within the estimated errors of the full run's; a sampled run
//! is deterministic; `compare` times the same launches in every variant; `--sample auto`
//! falls back to full simulation above its target; `optimize` times the baseline's launches in
//! every design; a sweep file's `sample` samples every point and its merged table carries the
//! estimates; bad flags, sweep keys and paths that cannot sample are refused with exit status 2.

mod common;

use common::{ok, refused};
use serde_json::Value;
use std::path::Path;

fn program(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/programs")
        .join(name)
        .display()
        .to_string()
}

fn estimate(prog: &str, extra: &[&str]) -> Value {
    let p = program(prog);
    let mut args = vec!["estimate", "--program", &p, "--format", "json", "--quiet"];
    args.extend_from_slice(extra);
    serde_json::from_str(&ok(&args)).unwrap()
}

#[test]
fn launches_of_three_shapes_make_three_clusters_within_the_estimate() {
    let full = estimate("phases.toml", &[]);
    let s = estimate("phases.toml", &["--sample", "kernels"]);
    let (f, w) = (&full["workloads"][0], &s["workloads"][0]);
    assert!(f.get("sample").is_none());
    let sample = &w["sample"];
    assert_eq!(sample["method"], "kernels");
    assert_eq!(sample["clusters"], 3, "{sample}");
    assert_eq!(sample["launches"], 90);
    // launches 1, 2, 3, 4, 8 and 16 of each cluster of 30
    assert_eq!(sample["timed_launches"], 18);
    assert!(sample["work_speedup"].as_f64().unwrap() > 4.9);
    assert_eq!(s["activity_source"], "sim-sampled");
    for (q, key) in [("cycles", "cycles"), ("energy_j", "energy")] {
        let (a, b) = (f[q].as_f64().unwrap(), w[q].as_f64().unwrap());
        let bound = sample["estimated_error"][key].as_f64().unwrap();
        assert!(
            (a - b).abs() / a <= bound + 1e-9,
            "{q}: full {a}, sampled {b}, estimate {bound}"
        );
    }
    assert_eq!(f["warp_instructions"], w["warp_instructions"]);
}

#[test]
fn a_sampled_run_is_deterministic() {
    let a = estimate("iterate_short.toml", &["--sample", "kernels"]);
    let b = estimate("iterate_short.toml", &["--sample", "kernels"]);
    assert_eq!(a["workloads"], b["workloads"]);
}

#[test]
fn the_extrapolated_run_stays_within_its_estimate_on_a_host_loop() {
    let full = estimate("iterate_short.toml", &[]);
    let s = estimate("iterate_short.toml", &["--sample", "kernels"]);
    let (f, w) = (&full["workloads"][0], &s["workloads"][0]);
    let sample = &w["sample"];
    assert_eq!(sample["clusters"], 2, "{sample}");
    for (q, key) in [("cycles", "cycles"), ("energy_j", "energy")] {
        let (a, b) = (f[q].as_f64().unwrap(), w[q].as_f64().unwrap());
        let bound = sample["estimated_error"][key].as_f64().unwrap();
        assert!(
            bound > 0.0,
            "{q}: the timed launches differ, so the estimate is not 0"
        );
        assert!(
            (a - b).abs() / a <= bound,
            "{q}: full {a}, sampled {b}, estimate {bound}"
        );
    }
}

#[test]
fn compare_times_the_same_launches_in_every_variant() {
    let p = program("iterate_short.toml");
    let out = ok(&[
        "compare",
        "--program",
        &p,
        "--technique",
        "two-level",
        "--sample",
        "kernels",
        "--format",
        "json",
        "--quiet",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let base = &v["baseline_runs"]["iterate-short"]["sample"];
    let var = &v["variants"][0]["per_workload"]["iterate-short"]["sample"];
    assert_eq!(base["method"], "kernels", "{v}");
    for k in ["clusters", "launches", "timed_launches"] {
        assert_eq!(base[k], var[k], "{k}");
    }
}

#[test]
fn auto_falls_back_to_full_simulation_above_its_target() {
    let s = estimate(
        "iterate_short.toml",
        &["--sample", "auto", "--sample-error", "0.5%"],
    );
    let full = estimate("iterate_short.toml", &[]);
    let w = &s["workloads"][0];
    assert_eq!(w["sample"]["method"], "full", "{}", w["sample"]);
    assert!(w["sample"]["auto_fallback_error"].as_f64().unwrap() > 0.005);
    assert_eq!(w["cycles"], full["workloads"][0]["cycles"]);
    // within the target, auto keeps the sampled run
    let kept = estimate("phases.toml", &["--sample", "auto", "--sample-error", "2%"]);
    assert_eq!(kept["workloads"][0]["sample"]["method"], "kernels");
}

#[test]
fn bad_sampling_flags_and_paths_that_cannot_sample_are_refused() {
    let p = program("phases.toml");
    let sim = |extra: &[&str]| {
        let mut a = vec!["simulate", "--program", p.as_str(), "--quiet"];
        a.extend_from_slice(extra);
        refused(&a)
    };
    let e = sim(&["--sample", "waves"]);
    assert!(e.contains("kernels") && e.contains("auto"), "{e}");
    let e = sim(&["--sample", "kernels", "--sample-error", "2%"]);
    assert!(e.contains("--sample auto"), "{e}");
    let e = sim(&["--sample", "auto", "--sample-error", "150%"]);
    assert!(e.contains("between 0 and 100"), "{e}");
    let e = sim(&["--sample", "kernels", "--activity-source", "model"]);
    assert!(e.contains("--sample off"), "{e}");
    let e = sim(&["--sample", "kernels", "--set", "reconv.mode=dwf"]);
    assert!(e.contains("--sample off"), "{e}");
    let e = refused(&["estimate", "--static", "--sample", "kernels"]);
    assert!(e.contains("--sample off"), "{e}");
}

#[test]
fn optimize_times_the_baselines_launches_in_every_design() {
    let p = program("iterate_short.toml");
    let cache = format!("{}/sample-optimize-cache", env!("CARGO_TARGET_TMPDIR"));
    let out = ok(&[
        "optimize",
        "--program",
        &p,
        "--space",
        "gating",
        "--area-budget",
        "10%",
        "--max-iterations",
        "1",
        "--sample",
        "kernels",
        "--cache-dir",
        &cache,
        "--format",
        "json",
        "-q",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let s = &v["sample"];
    assert_eq!(s["mode"], "kernels", "{v}");
    assert!(s.get("target_error").is_none(), "{s}");
    let (b, c) = (&s["baseline"], &s["chosen"]);
    assert_ne!(v["chosen_name"], "baseline", "{v}");
    // the design replays the baseline's plan: the same launches timed, fewer than all
    for k in ["timed_launches", "launches"] {
        assert_eq!(b[k], c[k], "{k}: {s}");
    }
    assert!(b["timed_launches"].as_u64().unwrap() < b["launches"].as_u64().unwrap());
    for e in ["cycles_error", "energy_error"] {
        assert!(c[e].as_f64().unwrap() > 0.0, "{e}: {s}");
    }
    // a target without auto is refused before anything runs
    let e = refused(&[
        "optimize",
        "--program",
        &p,
        "--sample",
        "kernels",
        "--sample-error",
        "2%",
        "--cache-dir",
        &cache,
        "-q",
    ]);
    assert!(e.contains("--sample auto"), "{e}");
}

#[test]
fn a_sweep_files_sample_samples_every_point_and_the_table_carries_the_estimates() {
    let d = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sample-sweep");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let text = |sample: &str| {
        format!(
            "preset = \"gtx480\"\nprograms = [\"{}\"]\ntechniques = [\"none\", \
             \"two-level\"]\n{sample}\n[[tech]]\nnode = \"40nm\"\n",
            program("iterate_short.toml")
        )
    };
    let f = d.join("s.toml");
    std::fs::write(&f, text("sample = \"kernels\"\n")).unwrap();
    let (f, out) = (f.display().to_string(), d.join("out").display().to_string());
    ok(&["sweep", "run", &f, "--out", &out, "-q"]);
    ok(&["sweep", "merge", &out, "-q"]);
    let csv = std::fs::read_to_string(Path::new(&out).join("sweep.csv")).unwrap();
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let (c, e) = (col("sample_cycles_error"), col("sample_energy_error"));
    assert_eq!(csv.lines().count(), 3, "{csv}");
    for row in csv.lines().skip(1) {
        let cells: Vec<&str> = row.split(',').collect();
        assert!(cells[c].parse::<f64>().unwrap() > 0.0, "{row}");
        assert!(cells[e].parse::<f64>().unwrap() > 0.0, "{row}");
    }
    // the sampled point's cycles are those of `estimate --sample kernels`
    let est = estimate(
        "iterate_short.toml",
        &[
            "--preset", "gtx480", "--tech", "40nm", "--sample", "kernels",
        ],
    );
    let first: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(
        first[col("cycles")],
        est["workloads"][0]["cycles"].to_string()
    );
    // bad values name the file, the line and the key
    for (bad, line, key, want) in [
        (
            "sample = \"waves\"\n",
            4,
            "sample",
            "allowed: off, kernels, auto",
        ),
        (
            "sample = \"kernels\"\nsample_error = \"2%\"\n",
            5,
            "sample_error",
            "sample = \"auto\"",
        ),
        (
            "sample = \"auto\"\nsample_error = \"150%\"\n",
            5,
            "sample_error",
            "between 0 and 100",
        ),
    ] {
        let g = d.join("bad.toml");
        std::fs::write(&g, text(bad)).unwrap();
        let g = g.display().to_string();
        let err = refused(&["sweep", "plan", &g, "--no-estimate"]);
        assert!(
            err.contains(&format!("{g}:{line}")) && err.contains(key) && err.contains(want),
            "{err}"
        );
    }
}
