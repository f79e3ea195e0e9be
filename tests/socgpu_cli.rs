//! `--technique socgpu` on the command line (issue-stage §2): `simulate` prints the SOCGPU
//! counters and keeps the workload's result, `techniques` lists it, and a bad
//! `sched.ooo.ib_depth` is refused with exit status 2 naming the key.

mod common;
use common::{ok, refused};

#[test]
fn simulate_prints_the_socgpu_counters() {
    let out = ok(&[
        "simulate",
        "--preset",
        "gtx1080ti",
        "--workload",
        "histo",
        "--technique",
        "socgpu",
        "--set",
        "sched.ooo.ib_depth=4",
        "--check",
        "-q",
    ]);
    assert!(out.contains("SOCGPU issue (IB depth 4)"), "{out}");
    assert!(
        out.contains("flushes") && out.contains("DM row writes"),
        "{out}"
    );
    assert!(out.contains("check: passed"), "{out}");
    let t = ok(&["techniques"]);
    assert!(
        t.contains("socgpu") && t.contains("sched.ooo.mode=socgpu"),
        "{t}"
    );
}

#[test]
fn a_zero_ib_depth_is_refused_naming_the_key() {
    let err = refused(&[
        "simulate",
        "--preset",
        "gtx1080ti",
        "--workload",
        "histo",
        "--technique",
        "socgpu",
        "--set",
        "sched.ooo.ib_depth=0",
    ]);
    assert!(
        err.contains("sched.ooo.ib_depth") && err.contains("1..=64"),
        "{err}"
    );
}

#[test]
fn compare_reports_the_issue_stage_cost() {
    let out = ok(&[
        "compare",
        "--preset",
        "gtx1080ti",
        "--tech",
        "16nm",
        "--workload",
        "histo",
        "--technique",
        "socgpu",
        "--die-mm2",
        "471",
        "--format",
        "json",
        "-q",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let agg = &v["variants"][0]["aggregate"]["issue_cost"];
    assert_eq!(agg["design"], "socgpu");
    assert_eq!(agg["ib_depth"], 8);
    // the area is the comparison's one area table
    let area = &v["variants"][0]["aggregate"]["area"];
    let per_sm = area["added_area_per_sm_mm2"].as_f64().unwrap();
    let chip = area["added_area_mm2"].as_f64().unwrap();
    // N = 8 adds area (issue-stage §4: a bigger buffer and a DM replace two entries and the
    // scoreboards), replicated over the 28 SMs
    assert!(per_sm > 0.0, "{area}");
    assert!((chip - 28.0 * per_sm).abs() <= 1e-9 * chip, "{area}");
    let ref_share = area["added_area_ref_die_share"].as_f64().unwrap();
    assert!((ref_share - chip / 471.0).abs() <= 1e-12, "{area}");
    assert!(
        agg.get("area_chip_mm2").is_none(),
        "one area, in `area`: {agg}"
    );
    let run = &v["variants"][0]["per_workload"]["histo"]["issue_cost"];
    assert!(
        run["energy_j"].as_f64().unwrap() > 0.0 && run["baseline_energy_j"].as_f64().unwrap() > 0.0
    );
    assert!(v["baseline_runs"]["histo"].get("issue_cost").is_none());
    let table = ok(&[
        "compare",
        "--preset",
        "gtx1080ti",
        "--tech",
        "16nm",
        "--workload",
        "histo",
        "--technique",
        "socgpu",
        "-q",
    ]);
    assert!(
        table.contains("issue stage socgpu (N = 8): its structures' energy"),
        "{table}"
    );
    assert!(!table.contains("issue stage vs the baseline's"), "{table}");
    let err = refused(&[
        "compare",
        "--preset",
        "gtx1080ti",
        "--workload",
        "histo",
        "--technique",
        "socgpu",
        "--die-mm2=0",
    ]);
    assert!(err.contains("--die-mm2"), "{err}");
}
