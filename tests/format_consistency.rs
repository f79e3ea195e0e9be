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
    // the chip's area (with a technique's structures): the table's last line and JSON agree,
    // and it is the tree's
    let chip_line = table
        .lines()
        .find(|l| l.starts_with("chip area ") || l.starts_with("chip: "))
        .unwrap();
    let chip_mm2: f64 = chip_line
        .split_whitespace()
        .find_map(|t| t.parse().ok())
        .unwrap();
    let json_mm2 = json["area_m2"].as_f64().unwrap() * 1e6;
    assert!(
        close(chip_mm2, json_mm2, 2),
        "{args:?}: {chip_line} vs {json_mm2}"
    );
    assert!(
        close_sci(json_mm2, tree["area_m2"].as_f64().unwrap() * 1e6),
        "{args:?}: chip area {json_mm2} mm2 is not its tree's"
    );
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
    // a technique's structures are in the static chip of every format
    check_estimate(&[
        "estimate",
        "--static",
        "--tech",
        "40nm",
        "--technique",
        "tric",
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

/// The provenance a command printed in each of its formats: the table's first line (the
/// header line), the JSON's `run` object and, when there is a CSV, the provenance columns of
/// every row. Each names the same version, configuration hash (when the command has a
/// configuration) and technology point (when it has one); returns the JSON's `run`.
fn check_provenance(
    what: &str,
    table: &str,
    json: &Value,
    csv: Option<&[BTreeMap<String, String>]>,
) -> Value {
    let run = json["run"].clone();
    assert!(run.is_object(), "{what}: no run object in the JSON");
    let head = table.lines().next().unwrap();
    let version = run["version"].as_str().unwrap();
    assert!(
        head.starts_with(&format!("gpuenergy {version}")),
        "{what}: table header {head}"
    );
    assert!(run["command_line"][0] == "gpuenergy", "{what}: {run}");
    let hash = run["config_hash"].as_str().unwrap();
    if !hash.is_empty() {
        assert!(head.contains(&hash[..12]), "{what}: {head} lacks {hash}");
        assert!(
            head.contains(run["config_name"].as_str().unwrap()),
            "{what}: {head}"
        );
    }
    let node = run["node"].as_str().unwrap();
    if !node.is_empty() {
        let point = format!("{node} {}", run["flavour"].as_str().unwrap());
        assert!(head.contains(&point), "{what}: {head} lacks {point}");
        let vdd = format!("{:.3} V", run["vdd_v"].as_f64().unwrap());
        assert!(head.contains(&vdd), "{what}: {head} lacks {vdd}");
    }
    if let Some(rows) = csv {
        assert!(!rows.is_empty(), "{what}: no CSV rows");
        for r in rows {
            assert_eq!(r["version"], version, "{what}");
            assert_eq!(r["config_hash"], hash, "{what}");
            assert_eq!(r["node"], node, "{what}");
            assert_eq!(r["config_name"], run["config_name"].as_str().unwrap());
        }
    }
    run
}

#[test]
fn sram_component_and_breakeven_carry_their_technology_point() {
    let args = [
        "sram", "--tech", "planar45", "--size", "128KiB", "--block", "64", "--banks", "8",
    ];
    let csv = csv_rows(&with_format(&args, "csv"));
    let json: Value = serde_json::from_str(&with_format(&args, "json")).unwrap();
    let run = check_provenance(
        "sram",
        &with_format(&args, "table"),
        &json,
        Some(csv.as_slice()),
    );
    assert_eq!(run["node"], "planar45");
    assert_eq!(csv[0]["flavour"], run["flavour"].as_str().unwrap());

    let args = ["component", "--kind", "crossbar", "--tech", "asap7"];
    let json: Value = serde_json::from_str(&with_format(&args, "json")).unwrap();
    let run = check_provenance("component", &with_format(&args, "table"), &json, None);
    assert_eq!(run["node"], "asap7");
    assert_eq!(run["config_hash"], "", "component has no GPU configuration");

    let args = ["breakeven", "--tech", "40nm"];
    let table = with_format(&args, "table");
    let json: Value = serde_json::from_str(&with_format(&args, "json")).unwrap();
    let run = check_provenance("breakeven", &table, &json, None);
    // the point's supply and clock are the run's
    assert!(close(
        run["vdd_v"].as_f64().unwrap(),
        json["point"]["vdd_v"].as_f64().unwrap(),
        9
    ));
    let mhz = format!("{:.0} MHz", json["point"]["clock_mhz"].as_f64().unwrap());
    assert!(table.lines().next().unwrap().contains(&mhz), "{table}");
}

#[test]
fn simulate_table_and_json_agree() {
    let args = ["simulate", "--workload", "hotspot", "--quiet"];
    let table = with_format(&args, "table");
    let json: Value = serde_json::from_str(&with_format(&args, "json")).unwrap();
    let run = check_provenance("simulate", &table, &json, None);
    assert_eq!(run["config_hash"], json["config_hash"]);
    assert_eq!(run["workloads"][0], "hotspot");
    assert_eq!(run["size"], "test");
    // cycles and warp instructions: the kernel rows of the table and the JSON's kernels
    for k in json["kernels"].as_array().unwrap() {
        let name = k["name"].as_str().unwrap();
        let row = table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} missing from\n{table}"));
        let t: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            t[1].parse::<u64>().unwrap(),
            k["launches"].as_u64().unwrap()
        );
        assert_eq!(t[2].parse::<u64>().unwrap(), k["cycles"].as_u64().unwrap());
        assert_eq!(
            t[3].parse::<u64>().unwrap(),
            k["warp_instructions"].as_u64().unwrap()
        );
        assert!(close(t[4].parse().unwrap(), k["ipc"].as_f64().unwrap(), 3));
    }
}

#[test]
fn a_modified_preset_is_not_labelled_as_the_preset() {
    let dir = std::env::temp_dir().join(format!("gpuenergy-fc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sm30.toml");
    std::fs::write(&file, "base = \"gtx480\"\n[gpu]\nn_sm = 30\n").unwrap();
    let f = file.to_str().unwrap();
    let args = [
        "simulate",
        "--config",
        f,
        "--workload",
        "hotspot",
        "--quiet",
    ];
    let json: Value = serde_json::from_str(&with_format(&args, "json")).unwrap();
    let table = with_format(&args, "table");
    check_provenance("simulate --config", &table, &json, None);
    assert_eq!(json["run"]["config_name"], "sm30.toml (from gtx480)");
    assert_eq!(json["run"]["config_source"], f);
    // the table's own heading names it the same way, not as the preset
    assert!(
        table.contains("hotspot (test) on sm30.toml (from gtx480) ["),
        "{table}"
    );
    // a file that only restates the preset keeps the preset's name
    std::fs::write(&file, "base = \"gtx480\"\n").unwrap();
    let json: Value = serde_json::from_str(&with_format(&args, "json")).unwrap();
    assert_eq!(json["run"]["config_name"], "gtx480");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn compare_table_csv_and_json_agree() {
    let args = [
        "compare",
        "--quiet",
        "--tech",
        "40nm",
        "--workload",
        "hotspot,sgemm",
        "--technique",
        "conv-pg",
    ];
    let table = with_format(&args, "table");
    let csv = csv_rows(&with_format(&args, "csv"));
    let json: Value = serde_json::from_str(&with_format(&args, "json")).unwrap();
    let run = check_provenance("compare", &table, &json, Some(csv.as_slice()));
    assert_eq!(run["techniques"][1], "conv-pg");
    // the flat records hold the nested numbers, one per variant and workload, as the CSV does
    // (the CSV adds an `aggregate` row per variant)
    let csv: Vec<_> = csv
        .into_iter()
        .filter(|r| r["workload"] != "aggregate")
        .collect();
    let records = json["records"].as_array().unwrap();
    assert_eq!(records.len(), csv.len());
    for (rec, row) in records.iter().zip(&csv) {
        let variant = rec["variant"].as_str().unwrap();
        let workload = rec["workload"].as_str().unwrap();
        assert_eq!(row["variant"], variant);
        assert_eq!(row["workload"], workload);
        let nested = if variant == json["baseline"] {
            &json["baseline_runs"][workload]
        } else {
            let v = json["variants"]
                .as_array()
                .unwrap()
                .iter()
                .find(|v| v["name"] == variant)
                .unwrap();
            &v["per_workload"][workload]
        };
        for key in ["cycles", "runtime_s", "energy_j", "edp_js", "perf_overhead"] {
            let n = nested[key].as_f64().unwrap();
            assert_eq!(rec[key].as_f64().unwrap(), n, "{variant} {workload} {key}");
            assert!(
                close_sci(num(row, key), n) || close(num(row, key), n, 9),
                "{variant} {workload} {key}: CSV {} JSON {n}",
                row[key]
            );
        }
    }
    // the table's per-workload lines of each variant: cycles and the performance overhead
    for rec in records.iter().filter(|r| r["variant"] != json["baseline"]) {
        let cycles = rec["cycles"].as_u64().unwrap().to_string();
        let workload = rec["workload"].as_str().unwrap();
        let line = table
            .lines()
            .find(|l| {
                let t: Vec<&str> = l.split_whitespace().collect();
                t.first() == Some(&workload) && t.get(1) == Some(&cycles.as_str())
            })
            .unwrap_or_else(|| panic!("{workload} {cycles} not in\n{table}"));
        let ovh: f64 = line.split_whitespace().nth(2).unwrap().parse().unwrap();
        assert!(
            close(ovh, 100.0 * rec["perf_overhead"].as_f64().unwrap(), 2),
            "{line}"
        );
    }
}

#[test]
fn rfstats_table_csv_and_json_agree() {
    let args = ["rfstats", "--workload", "hotspot", "--quiet"];
    let table = with_format(&args, "table");
    let csv = csv_rows(&with_format(&args, "csv"));
    let json: Value = serde_json::from_str(&with_format(&args, "json")).unwrap();
    check_provenance("rfstats", &table, &json, Some(csv.as_slice()));
    let w = &json["workloads"][0];
    let alloc = w["allocated_fraction"].as_f64().unwrap();
    let row = csv
        .iter()
        .find(|r| r["metric"] == "allocated_fraction")
        .unwrap();
    assert!(close(num(row, "value"), alloc, 9));
}

#[test]
fn correlate_table_csv_and_json_agree() {
    let reference = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/correlate/accelsim-titanx.csv"
    );
    let args = ["correlate", "--quiet", "--reference", reference];
    let table = with_format(&args, "table");
    let csv = csv_rows(&with_format(&args, "csv"));
    let json: Value = serde_json::from_str(&with_format(&args, "json")).unwrap();
    check_provenance("correlate", &table, &json, Some(csv.as_slice()));
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), csv.len());
    for (j, c) in rows.iter().zip(&csv) {
        assert_eq!(c["workload"], j["workload"].as_str().unwrap());
        assert_eq!(
            num(c, "our_cycles") as u64,
            j["our_cycles"].as_u64().unwrap()
        );
        assert!(close(
            num(c, "error_pct"),
            j["error_pct"].as_f64().unwrap(),
            4
        ));
    }
    let mape = json["summary"]["mape_pct"].as_f64().unwrap();
    assert!(
        table.contains(&format!("MAPE {mape:.1} %")),
        "MAPE {mape:.1} % not in\n{table}"
    );
}
