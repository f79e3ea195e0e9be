//! One quantity, one value in every format: for each command that prints a table, CSV and
//! JSON, the same quantity read from each agrees (to the table's printed precision), and the
//! run's provenance (configuration hash, node, flavour) is the same in all three.

use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

fn gpuenergy(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn with_format(args: &[&str], format: &str) -> String {
    let mut a = args.to_vec();
    a.extend(["--format", format]);
    gpuenergy(&a)
}

/// `a` and `b` agree to `digits` decimals as printed (half a unit of the last printed digit,
/// plus a relative 1e-9 for the CSV's own rounding).
fn close(a: f64, b: f64, digits: i32) -> bool {
    (a - b).abs() <= 0.5 * 10f64.powi(-digits) + 1e-9 * a.abs().max(b.abs())
}

/// `a` and `b` agree to the CSV's 7 significant digits (`{:.6e}`).
fn close_sci(a: f64, b: f64) -> bool {
    (a - b).abs() <= 5e-7 * a.abs().max(b.abs()) + 1e-300
}

/// CSV rows as maps from column name to text (no quoted commas in the rows compared here).
fn csv_rows(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), head.len(), "{l}");
            head.iter()
                .zip(f)
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn num(m: &BTreeMap<String, String>, k: &str) -> f64 {
    m[k].parse()
        .unwrap_or_else(|_| panic!("column {k} is not a number: {:?}", m[k]))
}

/// Table rows of an estimate's component breakdown: name → (area mm², dyn mW, leak mW).
fn table_components(table: &str) -> Vec<(String, [f64; 3])> {
    let mut out = Vec::new();
    let mut on = false;
    for l in table.lines() {
        if l.starts_with("component ") {
            on = true;
            continue;
        }
        if on {
            if l.starts_with("source:") {
                break;
            }
            // name (may hold spaces) then area, dyn, leak, share%, source marker
            let toks: Vec<&str> = l.split_whitespace().collect();
            let share = toks.iter().position(|t| t.ends_with('%')).unwrap();
            let v: Vec<f64> = toks[share - 3..share]
                .iter()
                .map(|t| t.parse().unwrap())
                .collect();
            out.push((toks[..share - 3].join(" "), [v[0], v[1], v[2]]));
        }
    }
    assert!(!out.is_empty(), "no component rows in\n{table}");
    out
}

/// JSON tree nodes in depth-first order: name → node.
fn json_nodes(root: &Value, out: &mut Vec<(String, Value)>) {
    out.push((root["name"].as_str().unwrap().to_string(), root.clone()));
    for c in root["children"].as_array().unwrap() {
        json_nodes(c, out);
    }
}

fn check_estimate(args: &[&str]) {
    let table = with_format(args, "table");
    let csv = with_format(args, "csv");
    let json: Value = serde_json::from_str(&with_format(args, "json")).unwrap();
    let rows = csv_rows(&csv);
    let run = &json["run"];
    let is_static = json["workloads"].as_array().unwrap().is_empty();
    let (tree, runtime_s) = if is_static {
        (&json["area"], 0.0)
    } else {
        let w = &json["workloads"][0];
        (&w["estimate"]["root"], w["runtime_s"].as_f64().unwrap())
    };
    let mut nodes = Vec::new();
    json_nodes(tree, &mut nodes);
    let comps = table_components(&table);
    assert_eq!(comps.len(), nodes.len(), "{args:?}: table and JSON trees");
    let first = &rows[0]["workload"];
    let rows: Vec<_> = rows.iter().filter(|r| &r["workload"] == first).collect();
    assert_eq!(rows.len(), nodes.len(), "{args:?}: CSV and JSON trees");
    for (((name, t), (jname, n)), r) in comps.iter().zip(&nodes).zip(&rows) {
        assert_eq!(name, jname, "{args:?}");
        assert!(r["component"].ends_with(name.as_str()), "{args:?}: {name}");
        let area_mm2 = n["area_m2"].as_f64().unwrap() * 1e6;
        assert!(
            close(t[0], area_mm2, 4),
            "{args:?} {name}: table area {} JSON {area_mm2}",
            t[0]
        );
        assert!(
            close_sci(num(r, "area_mm2"), area_mm2),
            "{args:?} {name}: CSV area"
        );
        if is_static {
            // without a run: leakage with every block powered, in all three
            let leak_mw = n["leakage_w"].as_f64().unwrap() * 1e3;
            assert!(
                close(t[2], leak_mw, 3),
                "{args:?} {name}: table leak {} JSON {leak_mw}",
                t[2]
            );
            assert!(
                close_sci(num(r, "leakage_mw"), leak_mw),
                "{args:?} {name}: CSV leak"
            );
            assert_eq!(r["avg_leakage_mw"], "", "{args:?}: no run, no average");
        } else {
            let dyn_mw = n["dynamic_j"].as_f64().unwrap() / runtime_s * 1e3;
            let leak_mw = n["leakage_j"].as_f64().unwrap() / runtime_s * 1e3;
            assert!(
                close(t[1], dyn_mw, 3),
                "{args:?} {name}: table avg dyn {} JSON {dyn_mw}",
                t[1]
            );
            assert!(
                close(t[2], leak_mw, 3),
                "{args:?} {name}: table avg leak {} JSON {leak_mw}",
                t[2]
            );
            assert!(
                close_sci(num(r, "avg_dynamic_mw"), dyn_mw),
                "{args:?} {name}: CSV avg dyn"
            );
            assert!(
                close_sci(num(r, "avg_leakage_mw"), leak_mw),
                "{args:?} {name}: CSV avg leak"
            );
            let all_on_mw = n["leakage_w"].as_f64().unwrap() * 1e3;
            assert!(
                close_sci(num(r, "leakage_mw"), all_on_mw),
                "{args:?} {name}: CSV leakage_mw"
            );
        }
    }
    // provenance: one configuration hash, node and flavour everywhere
    let hash = run["config_hash"].as_str().unwrap();
    let head = table.lines().next().unwrap();
    assert!(head.contains(&hash[..12]), "{head}");
    assert!(
        head.contains(&format!(
            "{} {}",
            run["node"].as_str().unwrap(),
            run["flavour"].as_str().unwrap()
        )),
        "{head}"
    );
    for r in &rows {
        assert_eq!(r["config_hash"], hash);
        assert_eq!(r["node"], run["node"].as_str().unwrap());
        assert_eq!(r["flavour"], run["flavour"].as_str().unwrap());
        assert!(close(num(r, "vdd_v"), run["vdd_v"].as_f64().unwrap(), 9));
    }
    if !is_static {
        let w = &json["workloads"][0];
        assert_eq!(num(rows[0], "cycles") as u64, w["cycles"].as_u64().unwrap());
        let line = table
            .lines()
            .find(|l| l.starts_with(&format!("{} ", first)) && !l.contains('—'))
            .unwrap();
        let toks: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            toks[1].parse::<u64>().unwrap(),
            w["cycles"].as_u64().unwrap()
        );
        assert!(close(toks[3].parse().unwrap(), runtime_s * 1e6, 3));
        assert!(close(
            toks[4].parse().unwrap(),
            w["energy_j"].as_f64().unwrap() * 1e6,
            3
        ));
    }
}

#[test]
fn estimate_table_csv_and_json_agree() {
    check_estimate(&["estimate", "--workload", "sgemm"]);
    check_estimate(&[
        "estimate",
        "--workload",
        "hotspot",
        "--tech",
        "40nm",
        "--technique",
        "warped-gates",
    ]);
    check_estimate(&[
        "estimate", "--static", "--tech", "planar45", "--preset", "gtx780",
    ]);
}

#[test]
fn sram_table_csv_and_json_agree() {
    let args = [
        "sram", "--tech", "planar45", "--size", "128KiB", "--block", "64", "--banks", "8",
    ];
    let table = with_format(&args, "table");
    let csv = &csv_rows(&with_format(&args, "csv"))[0];
    let json: Value = serde_json::from_str(&with_format(&args, "json")).unwrap();
    let tab = |label: &str| -> f64 {
        let l = table
            .lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("{label} missing from\n{table}"));
        l[label.len()..].trim().parse().unwrap()
    };
    for (label, key) in [
        ("area (mm^2)", "area_mm2"),
        ("access time (ns)", "access_ns"),
        ("cycle time (ns)", "cycle_ns"),
        ("read energy (pJ)", "read_pj"),
        ("write energy (pJ)", "write_pj"),
        ("leakage (mW)", "leakage_mw"),
        ("leakage per bank (mW)", "leakage_per_bank_mw"),
        ("shared route (mW)", "leakage_shared_route_mw"),
    ] {
        let j = json[key].as_f64().unwrap();
        let digits = if key == "area_mm2" { 6 } else { 4 };
        assert!(
            close(tab(label), j, digits),
            "{key}: table {} JSON {j}",
            tab(label)
        );
        assert!(
            close(num(csv, key), j, 9),
            "{key}: CSV {} JSON {j}",
            num(csv, key)
        );
    }
    // the total is the banks' own leakage plus the route they share, in every format
    let banks = 8.0;
    let sum = banks * json["leakage_per_bank_mw"].as_f64().unwrap()
        + json["leakage_shared_route_mw"].as_f64().unwrap();
    let total = json["leakage_mw"].as_f64().unwrap();
    assert!((sum - total).abs() <= 1e-9 * total, "{sum} vs {total}");
}
