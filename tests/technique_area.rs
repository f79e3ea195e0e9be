//! The area a technique adds (issue #39 item 3): for each technique family (power gating,
//! register-file techniques, an out-of-order issue stage, DWF) `estimate` reports the chip
//! area with the technique's structures, that area is the baseline's plus the technique's own
//! leaves less the leaves they replace (no other component moves), and the baseline
//! (`--technique none`) is the static chip's. `compare` reports the same added area.

mod common;

use common::ok;
use serde_json::Value;
use std::collections::BTreeMap;

/// Every leaf of an estimate tree by its path, with its area in m².
fn leaves(n: &Value, path: &str, out: &mut BTreeMap<String, f64>) {
    let p = format!("{path}/{}", n["name"].as_str().unwrap());
    let kids = n["children"].as_array().unwrap();
    if kids.is_empty() {
        out.insert(p.clone(), n["area_m2"].as_f64().unwrap());
    }
    for c in kids {
        leaves(c, &p, out);
    }
}

fn estimate(technique: &str, tech: &str, workload: &str) -> Value {
    let text = ok(&[
        "estimate",
        "--tech",
        tech,
        "--technique",
        technique,
        "--workload",
        workload,
        "--format",
        "json",
        "-q",
    ]);
    serde_json::from_str(&text).unwrap()
}

/// The area a technique's run adds over the baseline's, m², after checking that it is the
/// technique's own leaves less the ones they replace; returns (added, Σ new leaves).
fn added_area(technique: &str, tech: &str, workload: &str) -> (f64, f64) {
    let base = estimate("none", tech, workload);
    let v = estimate(technique, tech, workload);
    let root = |j: &Value| j["workloads"][0]["estimate"]["root"].clone();
    // the reported chip area is the run's tree, with the technique's structures
    for (j, who) in [(&base, "none"), (&v, technique)] {
        let top = j["area_m2"].as_f64().unwrap();
        let tree = root(j)["area_m2"].as_f64().unwrap();
        assert!(
            (top - tree).abs() <= 1e-12 * tree,
            "{who}: area_m2 {top} vs tree {tree}"
        );
    }
    let (mut lb, mut lv) = (BTreeMap::new(), BTreeMap::new());
    leaves(&root(&base), "", &mut lb);
    leaves(&root(&v), "", &mut lv);
    let new: f64 = lv
        .iter()
        .filter(|(k, _)| !lb.contains_key(*k))
        .map(|(_, a)| a)
        .sum();
    let gone: f64 = lb
        .iter()
        .filter(|(k, _)| !lv.contains_key(*k))
        .map(|(_, a)| a)
        .sum();
    for (k, a) in &lb {
        if let Some(b) = lv.get(k) {
            // a leaf both trees have keeps its area (power gating scales energies only)
            assert!(
                (a - b).abs() <= 1e-12 * a.abs().max(1e-18),
                "{technique}: leaf {k} moved from {a} to {b} m2"
            );
        }
    }
    let added = v["area_m2"].as_f64().unwrap() - base["area_m2"].as_f64().unwrap();
    let total = base["area_m2"].as_f64().unwrap();
    assert!(
        (added - (new - gone)).abs() <= 1e-9 * total,
        "{technique}: added {added} m2, new leaves {new} less replaced {gone}"
    );
    (added, new)
}

#[test]
fn gating_adds_its_switches_and_controllers() {
    for t in ["warped-gates", "conv-pg"] {
        let (added, new) = added_area(t, "40nm", "histo");
        assert!(added > 0.0, "{t}: {added}");
        assert!(
            (added - new).abs() <= 1e-9 * new,
            "{t}: gating replaces nothing"
        );
        // the leaves are named and sit in the execution group
        let j = estimate(t, "40nm", "histo");
        let mut l = BTreeMap::new();
        leaves(&j["workloads"][0]["estimate"]["root"], "", &mut l);
        let gating: Vec<&String> = l.keys().filter(|k| k.contains("sleep switches")).collect();
        assert_eq!(gating.len(), 2, "{t}: INT and FP classes: {gating:?}");
        assert!(
            gating.iter().all(|k| k.contains("/execution/")),
            "{gating:?}"
        );
    }
}

#[test]
fn register_file_techniques_add_their_structures() {
    for (t, tech) in [
        ("tric", "40nm"),
        ("coma", "40nm"),
        ("rf-cache", "40nm"),
        ("partitioned-rf", "finfet7"),
    ] {
        let (added, new) = added_area(t, tech, "histo");
        assert!(new > 0.0, "{t}: no structures added");
        // TRIC, COMA and the RF cache keep the register file and add beside it
        if t != "partitioned-rf" {
            assert!(added > 0.0, "{t}: added {added} m2");
        }
    }
}

#[test]
fn an_issue_stage_and_dwf_add_their_structures() {
    let (added, new) = added_area("socgpu", "40nm", "histo");
    assert!(new > 0.0 && added != 0.0, "socgpu: {added} {new}");
    let (added, new) = added_area("dwf", "40nm", "histo");
    assert!(added > 0.0 && new > 0.0, "dwf: {added} {new}");
}

#[test]
fn the_baseline_is_the_static_chip() {
    let run = estimate("none", "40nm", "histo");
    let st: Value = serde_json::from_str(&ok(&[
        "estimate", "--tech", "40nm", "--static", "--format", "json", "-q",
    ]))
    .unwrap();
    assert_eq!(run["area_m2"], st["area_m2"]);
    assert_eq!(run["area_m2"], st["area"]["area_m2"]);
}

#[test]
fn compare_reports_the_added_area_in_every_format() {
    let (added, _) = added_area("tric", "40nm", "histo");
    let args = [
        "compare",
        "--tech",
        "40nm",
        "--technique",
        "tric",
        "--workload",
        "histo",
        "-q",
    ];
    let json: Value =
        serde_json::from_str(&ok(&[&args[..], &["--format", "json"]].concat())).unwrap();
    let a = &json["variants"][0]["aggregate"]["area"];
    let mm2 = a["added_area_mm2"].as_f64().unwrap();
    assert!(
        (mm2 - added * 1e6).abs() <= 1e-9,
        "{mm2} vs {}",
        added * 1e6
    );
    let share = a["added_area_chip_share"].as_f64().unwrap();
    let base = a["baseline_area_mm2"].as_f64().unwrap();
    assert!((share - mm2 / base).abs() <= 1e-12);
    assert!(a["added_area_sm_share"].as_f64().unwrap() > share);
    // table: the area section's row
    let table = ok(&[&args[..], &["--format", "table"]].concat());
    let row = table
        .lines()
        .skip_while(|l| !l.starts_with("area:"))
        .find(|l| l.starts_with("tric"))
        .unwrap();
    let cells: Vec<f64> = row
        .split_whitespace()
        .skip(1)
        .map(|c| c.parse().unwrap())
        .collect();
    assert!((cells[2] - mm2).abs() <= 1e-5, "{row}");
    assert!((cells[3] - 100.0 * share).abs() <= 1e-4, "{row}");
    // CSV: the aggregate row's columns
    let csv = ok(&[&args[..], &["--format", "csv"]].concat());
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |k: &str| head.iter().position(|h| *h == k).unwrap();
    let agg: Vec<&str> = lines
        .find(|l| l.starts_with("tric,aggregate"))
        .unwrap()
        .split(',')
        .collect();
    let v: f64 = agg[col("added_area_mm2")].parse().unwrap();
    assert!(
        (v - mm2).abs() <= 1e-12 * mm2.abs().max(1.0),
        "{v} vs {mm2}"
    );
}

/// Every leaf of an estimate tree by its path, with its area (m²) and its leakage power with
/// every block powered (W).
fn leaves_with_leakage(n: &Value, path: &str, out: &mut BTreeMap<String, (f64, f64)>) {
    let p = format!("{path}/{}", n["name"].as_str().unwrap());
    let kids = n["children"].as_array().unwrap();
    if kids.is_empty() {
        out.insert(
            p.clone(),
            (
                n["area_m2"].as_f64().unwrap(),
                n["leakage_w"].as_f64().unwrap(),
            ),
        );
    }
    for c in kids {
        leaves_with_leakage(c, &p, out);
    }
}

fn static_estimate(technique: &str, tech: &str) -> Value {
    serde_json::from_str(&ok(&[
        "estimate",
        "--static",
        "--tech",
        tech,
        "--technique",
        technique,
        "--format",
        "json",
        "-q",
    ]))
    .unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-18)
}

/// `estimate --static --technique T` shows the chip with T's structures: the same leaves, with
/// the same area and leakage power every block powered, as the run's tree, so the same chip
/// area and leakage line; and the "every block powered" leakage of a run is its tree's, the
/// structures' leakage included.
#[test]
fn a_static_estimate_and_the_leakage_line_carry_the_techniques_structures() {
    let base = static_estimate("none", "40nm");
    for (t, tech, key) in [
        ("warped-gates", "40nm", "gating"),
        ("tric", "40nm", "rf"),
        ("partitioned-rf", "finfet7", "rf"),
        ("socgpu", "40nm", "issue"),
        ("loog", "40nm", "issue"),
        ("dwf", "40nm", "dwf"),
    ] {
        let st = static_estimate(t, tech);
        let run = estimate(t, tech, "histo");
        let (mut ls, mut lr) = (BTreeMap::new(), BTreeMap::new());
        leaves_with_leakage(&st["area"], "", &mut ls);
        leaves_with_leakage(&run["workloads"][0]["estimate"]["root"], "", &mut lr);
        assert_eq!(
            ls.keys().collect::<Vec<_>>(),
            lr.keys().collect::<Vec<_>>(),
            "{t}: static and run trees"
        );
        for (k, (a, w)) in &ls {
            let (ra, rw) = lr[k];
            assert!(close(*a, ra), "{t} {k}: area {a} static, {ra} run");
            assert!(close(*w, rw), "{t} {k}: leakage {w} W static, {rw} W run");
        }
        let f = |j: &Value, k: &str| j[k].as_f64().unwrap();
        assert!(close(f(&st, "area_m2"), f(&run, "area_m2")), "{t}");
        assert!(close(f(&st, "leakage_w"), f(&run, "leakage_w")), "{t}");
        let tree_w: f64 = lr.values().map(|x| x.1).sum();
        assert!(close(f(&run, "leakage_w"), tree_w), "{t}: line vs tree");
        assert_eq!(st["technique_structures"][0], key, "{t}");
        if tech == "40nm" {
            assert!(
                f(&st, "area_m2") != f(&base, "area_m2"),
                "{t}: the static chip is the baseline's"
            );
        }
    }
    // gating adds its controllers' leakage to the every-block-powered line, and says so
    let run = estimate("warped-gates", "40nm", "histo");
    let none = estimate("none", "40nm", "histo");
    assert!(run["leakage_w"].as_f64().unwrap() > none["leakage_w"].as_f64().unwrap());
    let table = ok(&[
        "estimate",
        "--tech",
        "40nm",
        "--technique",
        "warped-gates",
        "--workload",
        "histo",
        "-q",
    ]);
    let line = table.lines().find(|l| l.starts_with("chip area ")).unwrap();
    assert!(line.contains("the technique's gating structures"), "{line}");
    let w: f64 = line
        .split_whitespace()
        .nth(5)
        .and_then(|x| x.parse().ok())
        .unwrap();
    assert!(
        (w - run["leakage_w"].as_f64().unwrap()).abs() <= 5e-4,
        "{line}"
    );
}

/// The reference-mode `compare` has the one area table: the same heading and columns as every
/// comparison, its numbers the JSON's `area`, and no area line of its own.
#[test]
fn a_reference_mode_compare_has_the_one_area_table() {
    let args = ["compare", "--technique", "dwf", "--workload", "histo", "-q"];
    let json: Value =
        serde_json::from_str(&ok(&[&args[..], &["--format", "json"]].concat())).unwrap();
    let a = &json["area"]["dwf"];
    let added = a["added_area_mm2"].as_f64().unwrap();
    assert!(added > 0.0, "{a}");
    assert!(
        (a["structures_mm2"].as_f64().unwrap() - a["replaced_mm2"].as_f64().unwrap() - added).abs()
            <= 1e-9,
        "{a}"
    );
    assert_eq!(json["workloads"]["histo"]["dwf"]["area"], *a);
    let table = ok(&args);
    assert!(!table.contains("DWF hardware of"), "{table}");
    let plain = ok(&[
        "compare",
        "--technique",
        "tric",
        "--workload",
        "histo",
        "-q",
    ]);
    let heading = |t: &str| -> Vec<String> {
        t.lines()
            .skip_while(|l| !l.starts_with("area:"))
            .take(2)
            .map(String::from)
            .collect()
    };
    assert_eq!(heading(&table), heading(&plain), "{table}");
    let row = table
        .lines()
        .skip_while(|l| !l.starts_with("area:"))
        .find(|l| l.starts_with("dwf "))
        .unwrap();
    let cells: Vec<f64> = row
        .split_whitespace()
        .skip(1)
        .map(|c| c.parse().unwrap())
        .collect();
    assert!((cells[2] - added).abs() <= 1e-5, "{row}");
}

/// The issue stage has no area table of its own: its area is the one table's (its structures
/// and the leaves they replace), its energy a line under its row; `issue_cost` carries no area.
#[test]
fn the_issue_stage_area_is_the_one_area_table() {
    let args = [
        "compare",
        "--tech",
        "40nm",
        "--technique",
        "socgpu",
        "--workload",
        "histo",
        "-q",
    ];
    let json: Value =
        serde_json::from_str(&ok(&[&args[..], &["--format", "json"]].concat())).unwrap();
    let v = &json["variants"][0]["aggregate"];
    for k in ["area_per_sm_mm2", "area_chip_mm2", "leakage_chip_w"] {
        assert!(v["issue_cost"].get(k).is_none(), "{k}: {}", v["issue_cost"]);
    }
    let (added, new) = added_area("socgpu", "40nm", "histo");
    let a = &v["area"];
    assert!((a["added_area_mm2"].as_f64().unwrap() - added * 1e6).abs() <= 1e-9);
    assert!((a["structures_mm2"].as_f64().unwrap() - new * 1e6).abs() <= 1e-9);
    let table = ok(&args);
    assert_eq!(table.matches("area: ").count(), 1, "{table}");
    assert!(!table.contains("issue stage vs the baseline's"), "{table}");
    assert!(table.contains("issue stage socgpu"), "{table}");
}
