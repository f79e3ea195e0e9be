//! Decides which tool-dependent tests can run, so that a test whose tools are missing shows as
//! ignored rather than passed: `synth_tools` when iverilog, vvp and yosys are on `PATH`,
//! `live_synth` when OpenSTA (`sta`) is too and `GPUENERGY_LIBERTY_DIR` names the liberty files.
//! With `CI` set both are on, so a CI machine without the tools fails instead of skipping.
//! Re-run when `PATH`, `CI` or `GPUENERGY_LIBERTY_DIR` change (after installing a tool on an
//! unchanged `PATH`, `touch calibration/build.rs`).

use std::path::Path;

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| Path::new(&d).join(tool).is_file()))
        .unwrap_or(false)
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-env-changed=GPUENERGY_LIBERTY_DIR");
    println!("cargo::rustc-check-cfg=cfg(synth_tools)");
    println!("cargo::rustc-check-cfg=cfg(live_synth)");
    let ci = std::env::var_os("CI").is_some();
    let tools = ["iverilog", "vvp", "yosys"].iter().all(|t| on_path(t));
    if ci || tools {
        println!("cargo::rustc-cfg=synth_tools");
    }
    let liberty = std::env::var_os("GPUENERGY_LIBERTY_DIR").is_some();
    if ci || (tools && on_path("sta") && liberty) {
        println!("cargo::rustc-cfg=live_synth");
    }
}
