//! Helpers shared by the command-line tests: run the built `gpuenergy` binary (with `CI` set,
//! so tool-dependent paths fail rather than skip).

use std::process::{Command, Output};

/// Runs `gpuenergy` with `args` and returns its output.
pub fn gpuenergy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args(args)
        .env("CI", "1")
        .output()
        .expect("run gpuenergy")
}
