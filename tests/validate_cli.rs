//! End-to-end checks of the estimate's invariants and of physical plausibility on the command
//! line: group nodes of the JSON tree carry their children's sums; a supply below the node's
//! functional minimum, a clock faster than the node's gates allow and a configuration size over
//! its bound are errors (exit status 2) that name the knob and the limit.

use std::path::PathBuf;
use std::process::Command;

mod common;
use common::gpuenergy;

fn json(args: &[&str]) -> serde_json::Value {
    let out = gpuenergy(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn fails_with(args: &[&str], needles: &[&str]) {
    let out = gpuenergy(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: expected '{n}' in: {err}");
    }
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: printed despite the error");
}

const QUANTITIES: [&str; 5] = [
    "area_m2",
    "dynamic_j",
    "leakage_j",
    "gating_overhead_j",
    "leakage_w",
];

/// Every group node's value equals the sum of its children's (relative 1e-9); returns the
/// number of groups checked.
fn check_sums(n: &serde_json::Value, path: &str) -> usize {
    let name = n["name"].as_str().unwrap_or("?");
    let path = format!("{path}/{name}");
    let children = n["children"].as_array().cloned().unwrap_or_default();
    if children.is_empty() {
        return 0;
    }
    for q in QUANTITIES {
        let own = n[q].as_f64().unwrap();
        let sum: f64 = children.iter().map(|c| c[q].as_f64().unwrap()).sum();
        assert!(
            (own - sum).abs() <= 1e-9 * own.abs().max(sum.abs()),
            "{path}: {q} = {own} but children sum to {sum}"
        );
    }
    1 + children.iter().map(|c| check_sums(c, &path)).sum::<usize>()
}

#[test]
fn json_group_nodes_carry_their_totals() {
    let v = json(&[
        "estimate", "--tech", "finfet7", "--static", "--format", "json",
    ]);
    let root = &v["area"];
    assert!(
        root["area_m2"].as_f64().unwrap() > 0.0,
        "chip root area is carried"
    );
    assert!(root["leakage_w"].as_f64().unwrap() > 0.0);
    let area_mm2 = root["area_m2"].as_f64().unwrap() * 1e6;
    assert!((area_mm2 - v["area_m2"].as_f64().unwrap() * 1e6).abs() <= 1e-9 * area_mm2);
    assert!(
        check_sums(root, "") >= 8,
        "the chip, SM and memory-system groups"
    );

    let v = json(&[
        "estimate",
        "--tech",
        "finfet7",
        "--workload",
        "hotspot",
        "--format",
        "json",
    ]);
    let w = &v["workloads"][0];
    let root = &w["estimate"]["root"];
    let dynamic = root["dynamic_j"].as_f64().unwrap();
    assert!(dynamic > 0.0, "chip root energy is carried");
    let d = w["dynamic_j"].as_f64().unwrap();
    assert!((dynamic - d).abs() <= 1e-9 * d);
    check_sums(root, "");
}

#[test]
fn supply_below_the_functional_minimum_is_an_error() {
    // finfet7: retention voltage 34.7 mV + 3 x 80 mV threshold spread.
    fails_with(
        &["estimate", "--tech", "finfet7", "--vdd", "0.2", "--static"],
        &["--vdd", "0.2747"],
    );
    fails_with(
        &[
            "estimate",
            "--tech",
            "40nm",
            "--design-vdd",
            "0.05",
            "--static",
        ],
        &["--design-vdd", "functional minimum"],
    );
    fails_with(
        &[
            "sram", "--tech", "finfet7", "--size", "8KiB", "--block", "64", "--vdd", "0.2",
        ],
        &["--vdd 0.2 V", "0.2747"],
    );
    fails_with(
        &[
            "sram",
            "--tech",
            "planar45",
            "--size",
            "8KiB",
            "--block",
            "64",
            "--design-vdd",
            "0.1",
        ],
        &["--design-vdd 0.1 V", "functional minimum"],
    );
    fails_with(
        &[
            "component",
            "--kind",
            "alu32",
            "--tech",
            "asap7",
            "--vdd",
            "0.1",
        ],
        &["--vdd 0.1 V", "threshold"],
    );
    // The node's own near-threshold point is functional.
    json(&[
        "estimate", "--tech", "finfet7", "--op", "ntv", "--static", "--format", "json",
    ]);
}

fn config_with(name: &str, find: &str, replace: &str) -> PathBuf {
    let preset = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sim/presets/gtx480.toml");
    let text = std::fs::read_to_string(preset).unwrap();
    assert!(text.contains(find), "{find}");
    let dir = std::env::temp_dir().join(format!("gpuenergy-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{name}.toml"));
    std::fs::write(&p, text.replacen(find, replace, 1)).unwrap();
    p
}

#[test]
fn clock_faster_than_the_gates_and_oversized_configs_are_errors() {
    let fast = config_with("fast", "core_mhz = 700.0", "core_mhz = 70000.0");
    fails_with(
        &[
            "estimate",
            "--tech",
            "planar45",
            "--static",
            "--config",
            fast.to_str().unwrap(),
        ],
        &["gpu.core_mhz", "8 FO4"],
    );
    let big = config_with("big", "n_sm = 15 ", "n_sm = 100000 ");
    fails_with(
        &[
            "estimate",
            "--tech",
            "planar45",
            "--static",
            "--config",
            big.to_str().unwrap(),
        ],
        &["'gpu.n_sm' = 100000", "1..=4096"],
    );
    fails_with(
        &[
            "simulate",
            "--config",
            big.to_str().unwrap(),
            "--workload",
            "srad",
        ],
        &["'gpu.n_sm' = 100000", "1..=4096"],
    );
    let _ = std::fs::remove_file(fast);
    let _ = std::fs::remove_file(big);
}

/// `calibrate --reports` over a record set with one empty record: lenient, a warning names the
/// dropped file and the rest is fitted; strict (the default under CI), exit 2 and no overlay.
#[test]
fn calibrate_drops_or_refuses_corrupt_records() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("gpuenergy-calstrict-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for n in [4, 8, 16, 32] {
        let from = root.join(format!(
            "calibration/goldens/asap7-rvt-tt/arb_rr/N={n}/record.json"
        ));
        let to = dir.join(format!("arb_rr/N={n}"));
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(from, to.join("record.json")).unwrap();
    }
    let bad = dir.join("arb_rr/N=64");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("record.json"), "").unwrap();
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let overlay = out_dir.join("overlay.toml");
    let reports = dir.join("arb_rr");
    let args = [
        "calibrate",
        "--reports",
        reports.to_str().unwrap(),
        "--tech",
        "asap7",
        "--out",
        overlay.to_str().unwrap(),
    ];
    // Lenient (no CI in the environment): a warning, the rest fitted.
    let out = Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args(args)
        .env_remove("CI")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: left out")
            && err.contains("N=64/record.json")
            && err.contains("empty"),
        "{err}"
    );
    assert!(overlay.exists());
    std::fs::remove_file(&overlay).unwrap();
    // Strict: under CI by default, and with --strict.
    fails_with(&args, &["N=64/record.json", "nothing written"]);
    assert!(!overlay.exists(), "nothing written under --strict");
    let mut strict = args.to_vec();
    strict.push("--strict");
    let out = Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args(&strict)
        .env_remove("CI")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!overlay.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
