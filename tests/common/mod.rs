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

/// Runs `gpuenergy` with `args`, expects success and returns stdout.
#[allow(dead_code)] // not every test file that includes this module uses it
pub fn ok(args: &[&str]) -> String {
    let out = gpuenergy(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Runs `gpuenergy` with `args`, expects exit status 2 without a panic and returns stderr.
#[allow(dead_code)]
pub fn refused(args: &[&str]) -> String {
    let out = gpuenergy(args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}

/// A fresh, empty scratch folder for one test: `gpuenergy-<suite>-<pid>-<name>` under the
/// system's temporary folder.
#[allow(dead_code)] // not every test file that includes this module uses it
pub fn scratch(suite: &str, name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("gpuenergy-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
