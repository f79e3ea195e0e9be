//! End-to-end tests of `gpuenergy correlate`: the shipped Accel-Sim reference files parse, a
//! cheap run prints one line per reference row with the statistics and writes the scatter plot,
//! and bad reference files exit with status 2 naming file, line and column.

use gpuenergy::correlate::{read_reference, KernelSel};
use std::path::{Path, PathBuf};

mod common;
use common::gpuenergy;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/correlate")
        .join(name)
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    common::scratch("correlate", name)
}

#[test]
fn shipped_reference_files_parse() {
    for (file, preset) in [
        ("accelsim-titanx.csv", "accelsim-titanx.toml"),
        ("accelsim-gtx480.csv", "accelsim-gtx480.toml"),
    ] {
        let f = read_reference(&data(file)).unwrap();
        assert_eq!(f.rows.len(), 6, "{file}");
        assert!(
            f.description[0].starts_with("Accel-Sim (dev, Oct 2024, GPGPU-Sim 4.2)"),
            "{file}: {:?}",
            f.description
        );
        let mut names: Vec<&str> = f.rows.iter().map(|r| r.workload.as_str()).collect();
        names.sort();
        assert_eq!(
            names,
            ["backprop", "bfs", "hotspot", "nw", "pathfinder", "sgemm"],
            "{file}"
        );
        for r in &f.rows {
            assert_eq!(r.preset.as_deref(), Some(preset), "{file}:{}", r.line);
            assert_eq!(r.kernel, KernelSel::All, "{file}:{}", r.line);
            assert_eq!(r.size.as_str(), "test", "{file}:{}", r.line);
            assert!(r.reference_cycles > 1000.0, "{file}:{}", r.line);
        }
    }
}

/// The Volta-class reference: the six and the three at test size, on `accelsim-qv100.toml`,
/// which is the v100 preset with changes.
#[test]
fn shipped_qv100_reference_parses() {
    let file = "accelsim-qv100.csv";
    let f = read_reference(&data(file)).unwrap();
    assert!(f.description[0].starts_with("Accel-Sim (dev, Oct 2024, GPGPU-Sim 4.2)"));
    let names: Vec<&str> = f.rows.iter().map(|r| r.workload.as_str()).collect();
    assert_eq!(
        names,
        [
            "hotspot",
            "sgemm",
            "nw",
            "bfs",
            "pathfinder",
            "backprop",
            "histo",
            "btree",
            "cutcp"
        ]
    );
    for r in &f.rows {
        assert_eq!(
            r.preset.as_deref(),
            Some("accelsim-qv100.toml"),
            "{file}:{}",
            r.line
        );
        assert_eq!(
            (r.kernel, r.size.as_str()),
            (KernelSel::All, "test"),
            "{file}:{}",
            r.line
        );
        assert!(r.reference_cycles > 1000.0, "{file}:{}", r.line);
    }
    let cfg =
        gpuenergy::study_config::StudyConfig::from_toml_file(&data("accelsim-qv100.toml")).unwrap();
    assert_eq!(cfg.machine.gpu.core_mhz, 1132.0);
    assert_eq!(cfg.machine.latency.sfu, [20, 8]);
}

/// The three workloads that stress atomics, irregular loads and constant memory, at both sizes.
#[test]
fn shipped_irregular_reference_parses() {
    let file = "accelsim-titanx-irregular.csv";
    let f = read_reference(&data(file)).unwrap();
    assert!(f.description[0].starts_with("Accel-Sim (dev, Oct 2024, GPGPU-Sim 4.2)"));
    let rows: Vec<(&str, &str)> = f
        .rows
        .iter()
        .map(|r| (r.workload.as_str(), r.size.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            ("histo", "test"),
            ("btree", "test"),
            ("cutcp", "test"),
            ("histo", "bench"),
            ("btree", "bench"),
            ("cutcp", "bench")
        ]
    );
    for r in &f.rows {
        assert_eq!(
            r.preset.as_deref(),
            Some("accelsim-titanx.toml"),
            "{file}:{}",
            r.line
        );
        assert_eq!(r.kernel, KernelSel::All, "{file}:{}", r.line);
        assert!(r.reference_cycles > 5000.0, "{file}:{}", r.line);
    }
}

#[test]
fn cheap_rows_print_a_table_and_write_the_plot() {
    let dir = scratch("run");
    let csv = dir.join("ref.csv");
    std::fs::write(
        &csv,
        "# two cheap rows\n\
         workload,size,kernel,reference_cycles,source\n\
         backprop,test,all,9000,made up\n\
         backprop,test,1,4000,made up\n",
    )
    .unwrap();
    let plot = dir.join("plots");
    let out = gpuenergy(&[
        "correlate",
        "--reference",
        csv.to_str().unwrap(),
        "--preset",
        "gtx480",
        "--plot",
        plot.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.split_whitespace().nth(1) == Some("backprop"))
        .collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(
        rows[0].contains("backprop") && rows[0].contains(" all "),
        "{stdout}"
    );
    assert!(
        rows[1].contains("backprop") && rows[1].contains(" 1 "),
        "{stdout}"
    );
    assert!(rows.iter().all(|r| r.contains("gtx480")), "{stdout}");
    assert!(stdout.contains("2 rows: MAPE"), "{stdout}");
    assert!(stdout.contains("Pearson r on cycles"), "{stdout}");
    let svg = std::fs::read_to_string(plot.join("correlation.svg")).unwrap();
    assert!(
        svg.contains("<svg") && svg.contains("backprop[1]"),
        "plot lacks the points"
    );

    // JSON: the whole workload is the sum of its launches, as `simulate` reports it.
    let out = gpuenergy(&[
        "correlate",
        "--reference",
        csv.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rows"][0]["kernel"], "all");
    assert_eq!(v["rows"][1]["kernel"], 1);
    assert_eq!(v["rows"][0]["config"], "gtx480", "the default preset");
    let all = v["rows"][0]["our_cycles"].as_u64().unwrap();
    let second = v["rows"][1]["our_cycles"].as_u64().unwrap();
    assert!(second > 0 && second < all);
    let sim = gpuenergy(&[
        "simulate",
        "--preset",
        "gtx480",
        "--workload",
        "backprop",
        "--format",
        "json",
    ]);
    let s: serde_json::Value = serde_json::from_slice(&sim.stdout).unwrap();
    assert_eq!(s["cycles"].as_u64().unwrap(), all);
    let launches: Vec<u64> = s["launch_cycles"]
        .as_array()
        .expect("simulate lists the cycles of each launch")
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(launches.iter().sum::<u64>(), all);
    assert_eq!(
        launches[1], second,
        "launch index 1 is simulate's second launch"
    );
    assert_eq!(v["summary"]["rows"], 2);
    let mape = v["summary"]["mape_pct"].as_f64().unwrap();
    let by_hand =
        50.0 * ((all as f64 - 9000.0).abs() / 9000.0 + (second as f64 - 4000.0).abs() / 4000.0);
    assert!((mape - by_hand).abs() < 1e-9, "{mape} vs {by_hand}");

    // CSV: a header and one line per row.
    let out = gpuenergy(&[
        "correlate",
        "--reference",
        csv.to_str().unwrap(),
        "--format",
        "csv",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.starts_with("line,workload,size,kernel,"), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Runs `correlate` on a reference file holding `text`; expects exit status 2 and `needles` in
/// the message.
fn bad_reference(name: &str, text: &str, needles: &[&str]) {
    let dir = scratch(name);
    let csv = dir.join("ref.csv");
    std::fs::write(&csv, text).unwrap();
    let out = gpuenergy(&["correlate", "--reference", csv.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{name}: {err}");
    assert!(!err.contains("panicked"), "{name}: {err}");
    for n in needles {
        assert!(err.contains(n), "{name}: expected '{n}' in: {err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_reference_files_exit_2_naming_line_and_column() {
    let h = "workload,size,kernel,reference_cycles\n";
    let out = gpuenergy(&["correlate", "--reference", "/nonexistent/ref.csv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/ref.csv"));
    bad_reference(
        "header",
        "workload,size,cycles\nhotspot,test,1\n",
        &["ref.csv:1:", "unknown column 'cycles'"],
    );
    bad_reference(
        "workload",
        &format!("{h}hotspt,test,all,100\n"),
        &["ref.csv:2: column 'workload'", "hotspot", "sgemm"],
    );
    bad_reference(
        "size",
        &format!("{h}hotspot,small,all,100\n"),
        &["ref.csv:2: column 'size'", "test, bench"],
    );
    bad_reference(
        "cycles",
        &format!("# c\n{h}hotspot,test,all,-3\n"),
        &["ref.csv:3: column 'reference_cycles'", "from 1 to 1e15"],
    );
    bad_reference(
        "nonnumeric",
        &format!("{h}hotspot,test,all,13k\n"),
        &["ref.csv:2: column 'reference_cycles'", "not a number"],
    );
    bad_reference(
        "kernel",
        &format!("{h}backprop,test,all,100\nbackprop,test,99,100\n"),
        &["ref.csv:3: column 'kernel'", "launch 99 out of range"],
    );
}
