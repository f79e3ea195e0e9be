//! Bad input is refused with exit status 2 and a message naming the file, line and key (or the
//! option) and the allowed values: calibration records, liberty files and overlays, correlation
//! references, the numeric options of compare/optimize/breakeven/sweep, the breakeven supply
//! below the sleep switch's threshold, diag threshold files and sweep files. Each test covers
//! one class of the malformed-input probe; the inputs are written into a scratch folder.

mod common;
use common::{ok, refused, scratch};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies the committed arb_rr golden records into `dir/arb_rr/N=n/record.json`.
fn golden_records(dir: &Path) {
    for n in [4, 8, 16, 32] {
        let from = root().join(format!(
            "calibration/goldens/asap7-rvt-tt/arb_rr/N={n}/record.json"
        ));
        let to = dir.join(format!("arb_rr/N={n}"));
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(from, to.join("record.json")).unwrap();
    }
}

/// A record set whose every record is corrupt is an error (nothing fitted, nothing written),
/// strict or not; an absurd area in one record names the file, line, key and range.
#[test]
fn calibrate_refuses_a_record_set_with_no_usable_record() {
    let dir = scratch("badcal", "records");
    let good = std::fs::read_to_string(
        root().join("calibration/goldens/asap7-rvt-tt/arb_rr/N=8/record.json"),
    )
    .unwrap();
    let huge = good.replace("\"area_m2\": ", "\"area_m2\": 1e300, \"x_area\": ");
    // serde ignores the renamed duplicate; the record now claims 1e300 m²
    for (sub, text) in [("huge", huge.as_str()), ("empty", ""), ("cut", &good[..40])] {
        let d = dir.join("set").join(sub);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("record.json"), text).unwrap();
    }
    let set = dir.join("set");
    let out = dir.join("o.toml");
    let args = [
        "calibrate",
        "--reports",
        set.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let e = refused(&args);
    assert!(
        e.contains("huge/record.json:")
            && e.contains("area_m2 = 1e300 is out of range: allowed above 0 to 0.001"),
        "{e}"
    );
    // Lenient: each left out with a warning, and then no record is left: an error too.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args(args)
        .env_remove("CI")
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("no usable synthesis records") && e.contains("all 3"),
        "{e}"
    );
    assert!(!out.exists(), "nothing written");
}

/// `calibrate --tech` must be the node the records were synthesised for (their flavour and
/// supply tell): asap7's 0.7 V rvt records are not planar45's (no rvt) nor finfet7's (0.30 to
/// 0.45 V).
#[test]
fn calibrate_refuses_a_tech_that_does_not_match_the_records() {
    let dir = scratch("badcal", "tech");
    golden_records(&dir);
    let reports = dir.join("arb_rr");
    let out = dir.join("o.toml");
    for (tech, needle) in [
        ("planar45", "flavour 'rvt'"),
        ("finfet7", "vdd_v = 0.7 V, outside"),
    ] {
        let e = refused(&[
            "calibrate",
            "--reports",
            reports.to_str().unwrap(),
            "--tech",
            tech,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(
            e.contains(&format!("--tech {tech} does not match the records")) && e.contains(needle),
            "{e}"
        );
        assert!(!out.exists());
    }
    let table = ok(&[
        "calibrate",
        "--reports",
        reports.to_str().unwrap(),
        "--tech",
        "asap7",
        "--out",
        out.to_str().unwrap(),
    ]);
    // The run metadata: the table's first line, the JSON `run` object and the overlay's
    // comment header.
    assert!(
        table.starts_with("gpuenergy ") && table.lines().next().unwrap().contains("asap7"),
        "{table}"
    );
    let overlay = std::fs::read_to_string(&out).unwrap();
    assert!(
        overlay.starts_with("# Written by gpuenergy ") && overlay.contains("\n# Run: gpuenergy "),
        "{overlay}"
    );
    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "calibrate",
        "--reports",
        reports.to_str().unwrap(),
        "--tech",
        "asap7",
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(json["run"]["tool"], "gpuenergy", "{json}");
    assert_eq!(json["run"]["node"], "asap7", "{json}");
}

/// A liberty file with a negative or absurd leakage is refused naming the file, line, cell
/// and the allowed range.
#[test]
fn calibrate_refuses_a_liberty_with_negative_leakage() {
    let dir = scratch("badcal", "liberty");
    let shared = root().join("../shared/asap7");
    if !shared.is_dir() {
        eprintln!("skipped: {} not present", shared.display());
        return;
    }
    for (case, from, to, needle) in [
        (
            "negative",
            "value : 631.24;",
            "value : -631.24;",
            "-631.24 is out of range",
        ),
        (
            "huge",
            "value : 631.24;",
            "value : 1e300;",
            "1e300 is out of range",
        ),
    ] {
        let libs = dir.join(case);
        std::fs::create_dir_all(&libs).unwrap();
        for e in std::fs::read_dir(&shared).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if !name.contains("INVBUF") {
                continue;
            }
            let mut text = String::new();
            use std::io::Read;
            flate2::read::GzDecoder::new(std::fs::File::open(e.path()).unwrap())
                .read_to_string(&mut text)
                .unwrap();
            if name.contains("INVBUF_RVT_TT") {
                assert!(text.contains(from));
                text = text.replacen(from, to, 1);
            }
            std::fs::write(libs.join(name.trim_end_matches(".gz")), text).unwrap();
        }
        let e = refused(&["calibrate", "--liberty-dir", libs.to_str().unwrap()]);
        assert!(
            e.contains("INVBUF_RVT_TT")
                && e.contains("leakage_power value")
                && e.contains(needle)
                && e.contains("allowed 0 to"),
            "{e}"
        );
        let line: usize = e
            .split(".lib:")
            .nth(1)
            .and_then(|r| r.split(':').next())
            .and_then(|l| l.parse().ok())
            .unwrap_or(0);
        assert!(line > 0, "{e}");
    }
}

const OVERLAY: &str = "node = \"asap7\"
[reference]
flavour = \"rvt\"
corner = \"tt\"
vdd_v = 0.7
temperature_c = 25.0
clock_period_s = 1e-9
source = \"test\"
[kinds.crossbar.area_m2]
form = \"crossbar\"
terms = [\"N^2*WIDTH\"]
coefficients = [3.0e-14]
n_points = 8
fit_mape_pct = 2.0
cv_mape_pct = 3.0
";

/// A calibration overlay with an absurd coefficient, reference value or an unknown key is
/// refused on load by every command that takes one, naming the file, the line, the key and
/// the allowed range.
#[test]
fn overlays_with_absurd_values_are_refused_on_load() {
    let dir = scratch("badcal", "overlay");
    let cases = [
        (
            "coefficients = [3.0e-14]",
            "coefficients = [1e300]",
            "coefficients",
            12,
        ),
        (
            "coefficients = [3.0e-14]",
            "coefficients = [-3e-14]",
            "negative",
            12,
        ),
        (
            "coefficients = [3.0e-14]",
            "coefficients = [nan]",
            "finite",
            12,
        ),
        ("vdd_v = 0.7", "vdd_v = 1e6", "vdd_v", 5),
        (
            "clock_period_s = 1e-9",
            "clock_period_s = 1e300",
            "clock_period_s",
            7,
        ),
        (
            "temperature_c = 25.0",
            "temperature_c = -1e9",
            "temperature_c",
            6,
        ),
        ("n_points = 8", "n_points = 0", "n_points", 13),
        (
            "fit_mape_pct = 2.0",
            "fit_mape_pct = -inf",
            "fit_mape_pct",
            14,
        ),
        ("flavour = \"rvt\"", "flavour = \"hp\"", "flavour", 3),
        ("node = \"asap7\"", "node = \"asap9\"", "node", 1),
        (
            "source = \"test\"",
            "source = \"test\"\nscale = 1e300",
            "unknown field",
            9,
        ),
        (
            "n_points = 8",
            "n_points = 8\ngain = 2.0",
            "unknown field",
            14,
        ),
    ];
    for (i, (from, to, needle, line)) in cases.iter().enumerate() {
        let text = OVERLAY.replacen(from, to, 1);
        assert_ne!(text, OVERLAY);
        let p = dir.join(format!("ov{i}.toml"));
        std::fs::write(&p, text).unwrap();
        let ps = p.to_str().unwrap();
        for args in [
            vec!["component", "--kind", "crossbar", "--calibration", ps],
            vec!["breakeven", "--calibration", ps],
        ] {
            let e = refused(&args);
            assert!(
                e.contains(&format!("ov{i}.toml:{line}:")) && e.contains(needle),
                "{to}: {e}"
            );
        }
    }
}

/// Reference cycles outside 1 to 1e15 are refused naming the file, line and column.
#[test]
fn correlate_refuses_absurd_reference_cycles() {
    let dir = scratch("badcorr", "ref");
    for v in ["0", "-5", "0.5", "1e-300", "1e300", "inf", "nan"] {
        let p = dir.join("r.csv");
        std::fs::write(
            &p,
            format!("workload,size,kernel,reference_cycles\nhotspot,test,all,{v}\n"),
        )
        .unwrap();
        let e = refused(&["correlate", "-q", "--reference", p.to_str().unwrap()]);
        assert!(
            e.contains("r.csv:2:")
                && e.contains("'reference_cycles'")
                && e.contains("from 1 to 1e15"),
            "{v}: {e}"
        );
    }
}

/// Every numeric option of compare, optimize and breakeven has a physical range.
#[test]
fn numeric_options_out_of_range_are_refused() {
    let w = ["--workload", "hotspot", "--size", "test", "-q"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["compare", "--technique", "conv-pg", "--die-mm2", "1e-30"],
            "--die-mm2",
        ),
        (
            vec!["compare", "--technique", "conv-pg", "--die-mm2", "1e30"],
            "--die-mm2",
        ),
        (vec!["optimize", "--area-budget", "1e300mm2"], "area budget"),
        (vec!["optimize", "--area-budget", "1e9%"], "area budget"),
        (vec!["optimize", "--perf-cap", "1e300%"], "--perf-cap"),
        (
            vec!["optimize", "--max-iterations", "0"],
            "--max-iterations",
        ),
        (
            vec!["optimize", "--max-iterations", "18446744073709551615"],
            "--max-iterations",
        ),
    ];
    for (mut args, needle) in cases {
        args.extend(w);
        let e = refused(&args);
        assert!(e.contains(needle) && e.contains("allowed"), "{e}");
    }
    for args in [
        ["breakeven", "--clock-mhz", "1e-30"],
        ["breakeven", "--clock-mhz", "1e30"],
        ["breakeven", "--switch-scale", "1e30"],
        ["breakeven", "--temperature", "1e5"],
    ] {
        let e = refused(&args);
        assert!(
            e.contains(args[1]) || e.contains("temperature") || e.contains("never breaks even"),
            "{e}"
        );
    }
}

/// A supply at or below the sleep switch's threshold is refused (the switch cannot turn on);
/// a near-threshold point above it and the supply sweep (which starts above it) still run.
#[test]
fn breakeven_refuses_a_supply_below_the_switch_threshold() {
    let e = refused(&["breakeven", "--tech", "40nm", "--vdd", "0.2"]);
    assert!(
        e.contains("--vdd") && e.contains("sleep switch") && e.contains("above 0.507 V"),
        "{e}"
    );
    ok(&["breakeven", "--tech", "finfet7", "--op", "ntv"]);
    let v: serde_json::Value = serde_json::from_str(&ok(&[
        "breakeven",
        "--tech",
        "40nm",
        "--sweep-vdd",
        "--format",
        "json",
    ]))
    .unwrap();
    for p in v["sweep_vdd"].as_array().unwrap() {
        assert!(p["vdd_v"].as_f64() > p["vth_switch_v"].as_f64(), "{p}");
    }
}

/// Every key of a diag thresholds file has a range; an error names the file, line and key.
#[test]
fn diag_thresholds_out_of_range_are_refused() {
    let dir = scratch("baddiag", "th");
    let default = std::fs::read_to_string(root().join("src/diag/diag.toml")).unwrap();
    for (from, to, key) in [
        (
            "min_pearson_r = 0.95",
            "min_pearson_r = 5.0",
            "crosscheck.min_pearson_r",
        ),
        (
            "deadline_floor_cycles = 4000",
            "deadline_floor_cycles = 0",
            "diag.deadline_floor_cycles",
        ),
    ] {
        let text = default.replacen(from, to, 1);
        let line = default.lines().position(|l| l.starts_with(from)).unwrap() + 1;
        let p = dir.join("t.toml");
        std::fs::write(&p, text).unwrap();
        let e = refused(&["diag", "--thresholds", p.to_str().unwrap()]);
        assert!(
            e.contains(&format!("t.toml:{line}: '{key}'")) && e.contains("allowed"),
            "{e}"
        );
    }
}

const SWEEP: &str = "preset = \"gtx480\"
workloads = [\"hotspot\"]
sizes = [\"test\"]
techniques = [\"conv-pg\"]
[[tech]]
node = \"40nm\"
[axes]
\"pg.bet\" = [9, 14]
";

/// Sweep files and options: duplicate axis values after normalisation, exclusions that leave
/// no point, out-of-range thread, array and CPU counts, and an oversized sweep refused from
/// the axis sizes, each before anything is planned in full.
#[test]
fn sweeps_refuse_bad_files_and_options() {
    let dir = scratch("badsweep", "files");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let dup = write("dup.toml", &SWEEP.replace("[9, 14]", "[9, 9.0]"));
    let e = refused(&["sweep", "plan", &dup, "--no-estimate"]);
    assert!(
        e.contains("dup.toml:8:") && e.contains("'pg.bet'") && e.contains("listed twice"),
        "{e}"
    );
    let none = write(
        "none.toml",
        &format!("{SWEEP}[[exclude]]\n\"pg.bet\" = [9, 14]\n"),
    );
    let e = refused(&["sweep", "plan", &none, "--no-estimate"]);
    assert!(
        e.contains("none.toml:") && e.contains("leave no point"),
        "{e}"
    );
    let big = write(
        "big.toml",
        &SWEEP.replace(
            "\"pg.bet\" = [9, 14]",
            &format!(
                "\"pg.bet\" = [{}]\n\"pg.wakeup\" = [{}]",
                (5..1005)
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                (1..1001)
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    );
    let e = refused(&["sweep", "plan", &big, "--no-estimate"]);
    assert!(
        e.contains("1000000 points") && e.contains("--max-points 100000"),
        "{e}"
    );
    let good = write("good.toml", SWEEP);
    let out = dir.join("out").display().to_string();
    for (args, needle) in [
        (
            vec!["sweep", "run", &good, "--out", &out, "--jobs", "100000"],
            "--jobs",
        ),
        (
            vec!["sweep", "run", &good, "--out", &out, "--jobs", "0"],
            "--jobs",
        ),
        (
            vec!["sweep", "plan", &good, "--max-points", "0"],
            "--max-points",
        ),
        (
            vec![
                "sweep",
                "slurm",
                &good,
                "--out",
                &out,
                "--array-size",
                "18446744073709551615",
            ],
            "--array-size",
        ),
        (
            vec!["sweep", "slurm", &good, "--out", &out, "--array-size", "3"],
            "--array-size 3",
        ),
        (
            vec![
                "sweep",
                "slurm",
                &good,
                "--out",
                &out,
                "--cpus-per-task",
                "0",
            ],
            "--cpus-per-task",
        ),
    ] {
        let e = refused(&args);
        assert!(e.contains(needle) && e.contains("allowed"), "{args:?}: {e}");
    }
}
