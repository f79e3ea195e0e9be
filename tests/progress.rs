//! Progress display of the long-running commands: it never changes stdout or a written file
//! (output with and without `--quiet` is byte-identical), nothing is drawn when stderr is not a
//! terminal (here it is a pipe), and `--quiet` leaves stderr empty on a clean run.

mod common;

use common::gpuenergy;
use std::path::{Path, PathBuf};
use std::process::Output;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `gpuenergy` and fails with its stderr unless it succeeds.
fn ok(args: &[&str]) -> Output {
    let out = gpuenergy(args);
    assert!(
        out.status.success(),
        "gpuenergy {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// No progress bar was drawn: no carriage return, no terminal escape, no bar glyph.
fn nothing_drawn(stderr: &[u8]) {
    let s = String::from_utf8_lossy(stderr);
    for bad in ["\r", "\u{1b}[", "█", "░", "⠁", "elapsed, ~"] {
        assert!(!s.contains(bad), "progress drawn on a pipe ({bad:?}): {s}");
    }
}

/// A fresh scratch directory under target/.
fn scratch(name: &str) -> PathBuf {
    let d = root().join("target/progress-test").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn calibrate_output_is_the_same_with_and_without_quiet() {
    let goldens = root().join("calibration/goldens/asap7-rvt-tt");
    let goldens = goldens.to_string_lossy();
    let d = scratch("calibrate");
    let run = |tag: &str, quiet: bool| {
        let out = d.join(format!("{tag}.toml"));
        let plots = d.join(format!("{tag}-plots"));
        let (o, p) = (out.to_string_lossy(), plots.to_string_lossy());
        let mut args = vec![
            "calibrate",
            "--reports",
            &goldens,
            "--out",
            &o,
            "--plot",
            &p,
            "--format",
            "json",
        ];
        if quiet {
            args.push("--quiet");
        }
        (ok(&args), out, plots)
    };
    let (loud, loud_toml, loud_plots) = run("loud", false);
    let (quiet, quiet_toml, quiet_plots) = run("quiet", true);
    // the provenance names the command line, which differs (`--quiet`, the output paths);
    // everything else must be the same
    let json = |o: &Output| {
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["run"]["command_line"] = serde_json::Value::Null;
        v
    };
    assert_eq!(json(&loud), json(&quiet), "stdout differs with --quiet");
    // and it names the records' characterisation point (RVT, TT at 25 °C), not a default
    let run_v = &json(&loud)["run"];
    assert_eq!(run_v["flavour"], "rvt");
    assert!((run_v["temperature_k"].as_f64().unwrap() - 298.15).abs() < 1e-9);
    assert!(!loud.stdout.is_empty());
    let toml = |p: &Path| {
        String::from_utf8(bytes(p))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("# Command:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(toml(&loud_toml), toml(&quiet_toml), "overlay differs");
    for q in ["area_m2", "leakage_w", "energy_per_op_j", "delay_s"] {
        let f = format!("parity_{q}.svg");
        assert_eq!(
            bytes(&loud_plots.join(&f)),
            bytes(&quiet_plots.join(&f)),
            "{f} differs"
        );
    }
    nothing_drawn(&loud.stderr);
    // Without --quiet the informational lines remain, as plain lines.
    let s = String::from_utf8_lossy(&loud.stderr);
    assert!(
        s.contains("records from") && s.contains("overlay written"),
        "{s}"
    );
    assert!(
        quiet.stderr.is_empty(),
        "--quiet left: {}",
        String::from_utf8_lossy(&quiet.stderr)
    );
}

#[test]
fn estimate_output_is_the_same_with_and_without_quiet() {
    let d = scratch("estimate");
    let run = |tag: &str, quiet: bool| {
        let plots = d.join(tag);
        let p = plots.to_string_lossy();
        let mut args = vec![
            "estimate",
            "--workload",
            "backprop",
            "--format",
            "csv",
            "--plot",
            &p,
        ];
        if quiet {
            args.push("--quiet");
        }
        (ok(&args), plots)
    };
    let (loud, loud_plots) = run("loud", false);
    let (quiet, quiet_plots) = run("quiet", true);
    assert_eq!(loud.stdout, quiet.stdout, "stdout differs with --quiet");
    for f in [
        "area_breakdown.svg",
        "energy_breakdown.svg",
        "leakage_share.svg",
    ] {
        assert_eq!(
            bytes(&loud_plots.join(f)),
            bytes(&quiet_plots.join(f)),
            "{f} differs"
        );
    }
    nothing_drawn(&loud.stderr);
    assert!(
        quiet.stderr.is_empty(),
        "--quiet left: {}",
        String::from_utf8_lossy(&quiet.stderr)
    );
}

#[test]
fn simulate_output_is_the_same_with_and_without_quiet() {
    let d = scratch("simulate");
    let run = |tag: &str, quiet: bool| {
        let act = d.join(format!("{tag}.json"));
        let a = act.to_string_lossy();
        let mut args = vec!["simulate", "--workload", "backprop", "--out", &a];
        if quiet {
            args.push("--quiet");
        }
        (ok(&args), act)
    };
    let (loud, loud_act) = run("loud", false);
    let (quiet, quiet_act) = run("quiet", true);
    // The last line reports the run's wall time and speed; everything else must match.
    let strip = |o: &Output| -> String {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| !l.starts_with("simulated "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&loud), strip(&quiet), "stdout differs with --quiet");
    assert_eq!(bytes(&loud_act), bytes(&quiet_act), "Activity differs");
    nothing_drawn(&loud.stderr);
    assert!(quiet.stderr.is_empty());
}

/// The synthesis flow needs yosys, iverilog, OpenSTA and the ASAP7 liberty files.
#[test]
#[ignore = "set GPUENERGY_LIBERTY_DIR (e.g. ../shared/asap7) and install yosys, OpenSTA and iverilog"]
fn synth_output_is_the_same_with_and_without_quiet() {
    let lib = std::env::var("GPUENERGY_LIBERTY_DIR")
        .expect("GPUENERGY_LIBERTY_DIR must name the ASAP7 liberty directory");
    let d = scratch("synth");
    let cache = d.join("lib").to_string_lossy().into_owned();
    let run = |tag: &str, quiet: bool| {
        let out = d.join(tag);
        let o = out.to_string_lossy();
        let mut args = vec![
            "synth",
            "--liberty-dir",
            &lib,
            "--lib-cache",
            &cache,
            "--component",
            "arb_fixed",
            "--out",
            &o,
        ];
        if quiet {
            args.push("--quiet");
        }
        (ok(&args), out)
    };
    let (loud, out) = run("loud", false);
    let (quiet, _) = run("quiet", true);
    assert_eq!(loud.stdout, quiet.stdout, "stdout differs with --quiet");
    // the record carries the run metadata
    let record = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.path().join("record.json"))
        .find(|p| p.is_file())
        .expect("a record.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(v["run"]["tool"], "gpuenergy", "{v}");
    nothing_drawn(&loud.stderr);
    let s = String::from_utf8_lossy(&loud.stderr);
    assert!(s.contains("yosys") && s.contains("opensta"), "{s}");
    assert!(
        quiet.stderr.is_empty(),
        "--quiet left: {}",
        String::from_utf8_lossy(&quiet.stderr)
    );
}
