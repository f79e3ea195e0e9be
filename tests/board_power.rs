//! The board model (`estimate --board-power`) and its fit to the V100 measurements
//! (`calibrate --board-measured`): the built-in scalars are what the fit to the committed terms
//! gives, the JSON carries every term and `board_power_w`, and bad input is refused.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn measured() -> PathBuf {
    root().join("../shared/reference/v100-measured-power.md")
}

fn gpuenergy(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpuenergy-board-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// The built-in v100 scalars are the fit of `calibrate --board-measured` to the committed
/// terms of the measured kernels (`models/data/board_v100_rows.csv`), to the printed digits.
#[test]
fn the_builtin_v100_scalars_are_the_fit_to_the_committed_terms() {
    if !measured().exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "../shared/reference/v100-measured-power.md is missing"
        );
        eprintln!("skipped: ../shared is not beside the repository");
        return;
    }
    let out = tmp("fit.toml");
    let o = gpuenergy(&[
        "calibrate",
        "--board-measured",
        measured().to_str().unwrap(),
        "--board-rows",
        "models/data/board_v100_rows.csv",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let fitted = models::gpu::board::BoardScalars::from_toml(
        &std::fs::read_to_string(&out).unwrap(),
        "fit.toml",
    )
    .unwrap();
    let builtin = models::gpu::board::BoardScalars::builtin("v100").unwrap();
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0);
    assert!(
        close(fitted.dynamic_scale, builtin.dynamic_scale)
            && close(fitted.constant_w, builtin.constant_w)
            && fitted.vr_efficiency == builtin.vr_efficiency,
        "models/data/board_v100.toml differs from the fit: {fitted:?}"
    );
    assert_eq!(fitted.source, builtin.source);
    let _ = std::fs::remove_dir_all(out.parent().unwrap());
}

/// `--board-power` adds every term and `board_power_w` per run to the JSON, and the terms add
/// up to it.
#[test]
fn the_json_carries_the_board_terms_and_they_add_up() {
    let o = gpuenergy(&[
        "estimate",
        "--preset",
        "v100",
        "--tech",
        "finfet12",
        "--workload",
        "hotspot",
        "--board-power",
        "--format",
        "json",
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let run = &v["board"]["runs"][0];
    assert_eq!(run["workload"], "hotspot");
    let w = |k: &str| run[k].as_f64().unwrap();
    let sum = w("scaled_chip_dynamic_w")
        + w("chip_leakage_w")
        + w("dram_dynamic_w")
        + w("dram_background_w")
        + w("vr_loss_w")
        + w("constant_w");
    assert!((sum - w("board_power_w")).abs() < 1e-9 * sum, "{run}");
    assert!(w("dram_background_w") > 0.0, "HBM2 background power: {run}");
    let k = v["board"]["scalars"]["dynamic_scale"].as_f64().unwrap();
    let modelled = run["terms"]["chip_dynamic_w"].as_f64().unwrap();
    assert!((w("scaled_chip_dynamic_w") - k * modelled).abs() < 1e-9 * modelled.max(1.0));
    assert!(v["board"]["scalars"]["source"]
        .as_str()
        .unwrap()
        .contains("measured kernels"));
}

/// A configuration without a built-in fit, a bad scalars file and the CSV format are refused
/// with exit status 2 and a message naming what to do.
#[test]
fn board_power_refusals() {
    let o = gpuenergy(&[
        "estimate",
        "--preset",
        "gtx480",
        "--static",
        "--board-power",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("no board fit") && e.contains("--board-scalars"),
        "{e}"
    );

    let bad = tmp("bad.toml");
    std::fs::write(
        &bad,
        "dynamic_scale = -1.0\nconstant_w = 1.0\nvr_efficiency = 0.9\nsource = \"x\"\n",
    )
    .unwrap();
    let o = gpuenergy(&[
        "estimate",
        "--preset",
        "gtx480",
        "--static",
        "--board-power",
        "--board-scalars",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("dynamic_scale") && e.contains("bad.toml"), "{e}");

    let o = gpuenergy(&[
        "estimate",
        "--preset",
        "v100",
        "--static",
        "--board-power",
        "--format",
        "csv",
    ]);
    assert_eq!(o.status.code(), Some(2));

    let rows = tmp("rows.csv");
    std::fs::write(
        &rows,
        "kernel,chip_dynamic_w,chip_leakage_w,dram_dynamic_w,dram_background_w\nk,1,x,1,1\n",
    )
    .unwrap();
    let meas = tmp("measured.csv");
    std::fs::write(&meas, "kernel,measured_w\nk,100\n").unwrap();
    let o = gpuenergy(&[
        "calibrate",
        "--board-measured",
        meas.to_str().unwrap(),
        "--board-rows",
        rows.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("rows.csv:2") && e.contains("chip_leakage_w"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(bad.parent().unwrap());
}
