//! `gpuenergy techniques`, `gpuenergy compare` and `--technique`/`--set`: the comparison's JSON
//! schema and invariants on a real (small) run, and bad input refused with exit status 2 and a
//! message naming the technique or key and the allowed values.

mod common;
use common::{ok, refused};

#[test]
fn techniques_lists_every_technique_with_knobs() {
    let t = ok(&["techniques"]);
    for name in [
        "conv-pg",
        "gates",
        "naive-blackout",
        "coord-blackout",
        "warped-gates",
        "folding",
        "origami",
    ] {
        assert!(t.contains(name), "{name} missing:\n{t}");
    }
    assert!(t.contains("pg.policy=CoordinatedBlackout") && t.contains("composes with"));
    let j: serde_json::Value =
        serde_json::from_str(&ok(&["techniques", "--format", "json"])).unwrap();
    let wg = j
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "warped-gates")
        .unwrap();
    assert_eq!(wg["sets"]["pg.adaptive.enabled"], "true");
}

#[test]
fn compare_json_has_the_documented_schema_and_consistent_numbers() {
    let out = ok(&[
        "compare",
        "--tech",
        "40nm",
        "--workload",
        "hotspot",
        "--baseline",
        "two-level",
        "--technique",
        "conv-pg",
        "--technique",
        "gates+coord-blackout",
        "--format",
        "json",
        "--quiet",
    ]);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["baseline"], "two-level");
    let base = &j["baseline_runs"]["hotspot"];
    assert!(
        base["static_savings"]["int"].is_null(),
        "baseline is not gated"
    );
    assert_eq!(base["events"], 0);
    let variants = j["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 2);
    assert_eq!(variants[1]["name"], "gates+coord-blackout");
    for v in variants {
        let a = &v["aggregate"];
        for k in [
            "perf_overhead",
            "energy_j",
            "edp_js",
            "events",
            "idle_regions",
        ] {
            assert!(!a[k].is_null(), "aggregate.{k} missing in {a}");
        }
        let w = &v["per_workload"]["hotspot"];
        // a gated run gates: events, and a saving that is a fraction below 1
        assert!(w["events"].as_u64().unwrap() > 0, "{w}");
        for class in ["int", "fp"] {
            let s = a["static_savings"][class].as_f64().unwrap();
            assert!(s < 1.0 && s > -1.0, "{class}: {s}");
            let r = w["idle_regions"][class]["by_cycles"].as_array().unwrap();
            let total: f64 = r.iter().map(|x| x.as_f64().unwrap()).sum();
            assert!((total - 1.0).abs() < 1e-9, "{class} regions sum to {total}");
        }
        // perf overhead is the cycle ratio
        let c = w["cycles"].as_f64().unwrap();
        let b = base["cycles"].as_f64().unwrap();
        let p = w["perf_overhead"].as_f64().unwrap();
        assert!((p - (c / b - 1.0)).abs() < 1e-9, "{p} vs {c}/{b}");
        // gating never changes dynamic energy for the same scheduler: checked below
        let classes = w["classes"].as_array().unwrap();
        for k in classes {
            let base_j = k["leakage_base_j"].as_f64().unwrap();
            let pg_j = k["leakage_pg_j"].as_f64().unwrap();
            assert!(base_j > 0.0 && pg_j >= 0.0 && pg_j.is_finite(), "{k}");
        }
    }
}

#[test]
fn gating_keeps_dynamic_energy_of_the_same_scheduler() {
    let out = ok(&[
        "compare",
        "--tech",
        "40nm",
        "--workload",
        "hotspot",
        "--baseline",
        "gates+none",
        "--technique",
        "gates",
        "--technique",
        "naive-blackout",
        "--format",
        "json",
        "--quiet",
    ]);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    let b = j["baseline_runs"]["hotspot"]["dynamic_j"].as_f64().unwrap();
    for v in j["variants"].as_array().unwrap() {
        let d = v["per_workload"]["hotspot"]["dynamic_j"].as_f64().unwrap();
        // the instruction and access counts are a workload invariant; the cycle-dependent
        // parts (clock tree, idle pipeline registers) may move with the run time
        assert!(
            (d / b - 1.0).abs() < 0.05,
            "{}: dynamic {d} vs {b}",
            v["name"]
        );
    }
}

#[test]
fn compare_csv_and_plots() {
    let dir = std::env::temp_dir().join(format!("gpuenergy-compare-{}", std::process::id()));
    let csv = ok(&[
        "compare",
        "--tech",
        "40nm",
        "--workload",
        "hotspot",
        "--technique",
        "coord-blackout",
        "--sweep",
        "pg.bet=9,24",
        "--format",
        "csv",
        "--quiet",
        "--plot",
        dir.to_str().unwrap(),
    ]);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("variant,workload,cycles"));
    // every row has the header's columns (no field of the names contains a comma here)
    let head: Vec<&str> = lines[0].split(',').collect();
    for l in &lines[1..] {
        assert_eq!(l.split(',').count(), head.len(), "{l}");
    }
    // the gated rows carry the schedulers' active-set size and the idle-time ratio
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let row: Vec<&str> = lines
        .iter()
        .find(|l| l.starts_with("coord-blackout [pg.bet=9],hotspot"))
        .unwrap()
        .split(',')
        .collect();
    let max: u32 = row[col("active_set_max")].parse().unwrap();
    let mean: f64 = row[col("active_set_mean")].parse().unwrap();
    assert!(max >= 1 && mean > 0.0 && mean <= max as f64, "{row:?}");
    let idle: f64 = row[col("int_idle_fraction")].parse().unwrap();
    assert!((0.0..=1.0).contains(&idle), "{row:?}");
    assert!(!row[col("int_idle_fraction_norm")].is_empty(), "{row:?}");
    assert!(csv.contains("coord-blackout [pg.bet=9],hotspot"), "{csv}");
    assert!(
        csv.contains("coord-blackout [pg.bet=24],aggregate"),
        "{csv}"
    );
    for f in [
        "compare_summary.svg",
        "static_savings.svg",
        "idle_regions.svg",
    ] {
        let svg = std::fs::read_to_string(dir.join(f)).unwrap();
        assert!(svg.contains("(%)"), "{f} has no unit on its axis");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_techniques_and_knobs_are_refused_by_name() {
    let base = ["compare", "--tech", "40nm", "--workload", "hotspot"];
    let run = |extra: &[&str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(extra);
        refused(&a)
    };
    let e = run(&["--technique", "warped-gate"]);
    assert!(
        e.contains("warped-gate") && e.contains("warped-gates"),
        "{e}"
    );
    let e = run(&["--technique", "conv-pg+naive-blackout"]);
    assert!(
        e.contains("pg.policy") && e.contains("do not compose"),
        "{e}"
    );
    let e = run(&["--technique", "gates", "--set", "pg.bet=0"]);
    assert!(e.contains("pg.bet") && e.contains("1..=1000"), "{e}");
    let e = run(&["--technique", "gates", "--set", "pg.polcy=x"]);
    assert!(e.contains("pg.polcy") && e.contains("unknown key"), "{e}");
    let e = run(&["--technique", "gates", "--set", "pg.policy=Sometimes"]);
    assert!(
        e.contains("Conventional") && e.contains("CoordinatedBlackout"),
        "{e}"
    );
    let e = run(&["--technique", "gates", "--set", "pg.bet"]);
    assert!(e.contains("KEY=VALUE"), "{e}");
    let e = run(&["--technique", "gates", "--sweep", "pg.bet"]);
    assert!(e.contains("--sweep"), "{e}");
    // A key both --set and swept: the sweep would silently replace the --set value.
    let e = run(&[
        "--technique",
        "conv-pg",
        "--set",
        "pg.bet=5",
        "--sweep",
        "pg.bet=10,20",
    ]);
    assert!(e.contains("--set pg.bet and --sweep pg.bet"), "{e}");
    // folding and Origami combinations the model cannot honour name the keys
    let e = run(&[
        "--technique",
        "folding",
        "--set",
        "pg.granularity=SpCluster",
    ]);
    assert!(e.contains("pg.granularity"), "{e}");
    let e = run(&["--technique", "origami", "--set", "fold.enabled=false"]);
    assert!(e.contains("fold.enabled"), "{e}");
    let e = run(&[
        "--technique",
        "gates",
        "--set",
        "physical.size_multiplier=0.5",
    ]);
    assert!(e.contains("physical.size_multiplier"), "{e}");
    let e = refused(&["simulate", "--workload", "hotspot", "--technique", "nope"]);
    assert!(e.contains("nope") && e.contains("conv-pg"), "{e}");
}

#[test]
fn set_overrides_reach_the_simulation() {
    let j = |extra: &[&str]| -> serde_json::Value {
        let mut a = vec!["simulate", "--workload", "hotspot", "--format", "json"];
        a.extend_from_slice(extra);
        serde_json::from_str(&ok(&a)).unwrap()
    };
    let plain = j(&[]);
    let fewer = j(&["--set", "gpu.n_sm=4"]);
    assert_ne!(
        plain["cycles"], fewer["cycles"],
        "--set gpu.n_sm had no effect"
    );
}

#[test]
fn compare_runs_folding_and_origami() {
    let out = ok(&[
        "compare",
        "--tech",
        "40nm",
        "--workload",
        "hotspot",
        "--baseline",
        "two-level",
        "--technique",
        "folding",
        "--technique",
        "origami",
        "--format",
        "json",
        "--quiet",
    ]);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    let variants = j["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 2, "{j}");
    // power-gating §9 per run: active-set size, folding ratios, idle fraction against the
    // baseline (which records no active set: it neither gates nor folds)
    assert!(j["baseline_runs"]["hotspot"]["active_set"].is_null(), "{j}");
    for v in variants {
        let w = &v["per_workload"]["hotspot"];
        let max = w["active_set"]["max_warps"].as_f64().unwrap();
        let mean = w["active_set"]["mean_warps"].as_f64().unwrap();
        assert!(max >= 1.0 && mean > 0.0 && mean <= max, "{w}");
        assert_eq!(
            v["aggregate"]["active_set"]["max_warps"],
            w["active_set"]["max_warps"]
        );
        for t in ["int", "fp"] {
            let r = w["folding"]["fold_instr_ratio"][t].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&r), "{w}");
            let r = w["folding"]["fold_time_ratio"][t].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&r), "{w}");
        }
        let i = &w["unit_idle"]["int"];
        let f = i["idle_fraction"].as_f64().unwrap();
        let n = i["idle_fraction_norm"].as_f64().unwrap();
        assert!(f > 0.0 && f < 1.0 && n > 0.0, "{w}");
        assert!(
            w["events_norm"].is_null(),
            "the baseline does not gate: {w}"
        );
    }
    // simulate's gating section shows the active set and the instruction mix
    let s: serde_json::Value = serde_json::from_str(&ok(&[
        "simulate",
        "--workload",
        "hotspot",
        "--technique",
        "origami",
        "--format",
        "json",
    ]))
    .unwrap();
    let g = &s["gating"];
    assert!(g["active_set"]["max_warps"].as_u64().unwrap() >= 1, "{g}");
    assert!(
        g["instruction_mix"]["int"]["warp_insts"].as_u64().unwrap() > 0,
        "{g}"
    );
    assert!(g["lane_policy"].is_null(), "{g}");
}
