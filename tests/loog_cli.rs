//! `--technique loog` on the command line (issue-stage §3): `simulate` prints the LOOG counters
//! and keeps the workload's result, `estimate` and `compare` take it and cost LOOG's structures
//! from its counters, `techniques` lists it, and bad LOOG knobs are refused with exit status 2
//! naming the key.

mod common;
use common::{ok, refused};

#[test]
fn simulate_prints_the_loog_counters() {
    let out = ok(&[
        "simulate",
        "--preset",
        "gtx1080ti",
        "--workload",
        "histo",
        "--technique",
        "loog",
        "--set",
        "sched.ooo.loog_n_cu=8",
        "--check",
        "-q",
    ]);
    assert!(out.contains("LOOG issue (8 CUs per slice"), "{out}");
    assert!(
        out.contains("RAT reads") && out.contains("skipped by WAW elimination"),
        "{out}"
    );
    assert!(out.contains("check: passed"), "{out}");
    let t = ok(&["techniques"]);
    assert!(
        t.contains("loog") && t.contains("sched.ooo.mode=loog"),
        "{t}"
    );
}

#[test]
fn estimate_and_compare_take_loog() {
    let e = ok(&[
        "estimate",
        "--preset",
        "gtx1080ti",
        "--workload",
        "histo",
        "--technique",
        "loog",
        "-q",
    ]);
    assert!(!e.is_empty());
    let c = ok(&[
        "compare",
        "--preset",
        "gtx1080ti",
        "--workload",
        "histo",
        "--technique",
        "loog",
        "--format",
        "json",
        "-q",
    ]);
    let v: serde_json::Value = serde_json::from_str(&c).unwrap();
    // issue-stage §4, §5: the LOOG structures per slice (4 per SM), their dynamic energy from
    // the run's LOOG counters, against the baseline's I-buffer and scoreboards; their area is
    // the comparison's area table's
    let agg = &v["variants"][0]["aggregate"]["issue_cost"];
    assert_eq!(agg["design"], "loog", "{agg}");
    let area = &v["variants"][0]["aggregate"]["area"];
    let per_sm = area["added_area_per_sm_mm2"].as_f64().unwrap();
    let chip = area["added_area_mm2"].as_f64().unwrap();
    assert!(per_sm > 0.0, "{area}");
    assert!((chip - 28.0 * per_sm).abs() <= 1e-9 * chip, "{area}");
    let run = &v["variants"][0]["per_workload"]["histo"]["issue_cost"];
    let dyn_j = run["dynamic_j"].as_f64().unwrap();
    let base_dyn_j = run["baseline_dynamic_j"].as_f64().unwrap();
    assert!(dyn_j > 0.0 && base_dyn_j > 0.0, "{run}");
    // the collector units, RAT and broadcasts switch on every instruction: more than the
    // in-order buffer and scoreboard reads they replace
    assert!(dyn_j > base_dyn_j, "{run}");
    // LOOG's collector units are the machine's operand collectors: the chip model's collector
    // leaf leaves the tree and its area counts as replaced, with the baseline's scoreboards
    let removed = area["replaced_mm2"].as_f64().unwrap() / 28.0;
    let tree = |extra: &[&str]| {
        let mut a = vec![
            "estimate",
            "--preset",
            "gtx1080ti",
            "--workload",
            "histo",
            "--format",
            "json",
            "-q",
        ];
        a.extend_from_slice(extra);
        let v: serde_json::Value = serde_json::from_str(&ok(&a)).unwrap();
        v["workloads"][0]["estimate"]["root"].clone()
    };
    fn find<'a>(n: &'a serde_json::Value, name: &str) -> Option<&'a serde_json::Value> {
        if n["name"] == name && n["children"].as_array().is_none_or(|c| c.is_empty()) {
            return Some(n);
        }
        n["children"].as_array()?.iter().find_map(|c| find(c, name))
    }
    let base_tree = tree(&[]);
    let oc = find(&base_tree, "operand collectors").expect("baseline collector leaf");
    let oc_per_sm = oc["area_m2"].as_f64().unwrap() * 1e6 / 28.0;
    assert!(
        removed > oc_per_sm && oc_per_sm > 0.0,
        "{removed} vs {oc_per_sm}"
    );
    let loog_tree = tree(&["--technique", "loog"]);
    assert!(find(&loog_tree, "operand collectors").is_none());
    assert!(find(&loog_tree, "LOOG collector units").is_some());
}

#[test]
fn bad_loog_knobs_are_refused_naming_the_key() {
    for (set, key) in [
        ("sched.ooo.loog_n_cu=65", "sched.ooo.loog_n_cu"),
        (
            "sched.ooo.loog_rf_read_ports=9",
            "sched.ooo.loog_rf_read_ports",
        ),
        ("sched.ooo.loog_rrs_factor=0.5", "sched.ooo.loog_rrs_factor"),
        ("sched.ooo.loog_lq_entries=0", "sched.ooo.loog_lq_entries"),
    ] {
        let err = refused(&[
            "simulate",
            "--preset",
            "gtx1080ti",
            "--workload",
            "histo",
            "--technique",
            "loog",
            "--set",
            set,
        ]);
        assert!(err.contains(key), "{set}: {err}");
    }
    // deferring load consumers refines the ready-first order: refused without it
    let err = refused(&[
        "simulate",
        "--preset",
        "gtx1080ti",
        "--workload",
        "histo",
        "--technique",
        "loog",
        "--set",
        "sched.ooo.loog_ready_first=false",
        "--set",
        "sched.ooo.loog_defer_load_consumers=true",
    ]);
    assert!(
        err.contains("sched.ooo.loog_defer_load_consumers") && err.contains("loog_ready_first"),
        "{err}"
    );
}
