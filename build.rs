//! Decides whether the CUDA-compiler test of `tests/program_cli.rs` runs: `cfg(nvcc)` when
//! nvcc is found (the search of `src/program/nvcc_find.rs`) or `CI` is set, so that a machine
//! without nvcc reports the test as ignored and a CI machine without it fails. Re-run when
//! `PATH`, `CUDA_HOME`, `GPUENERGY_NVCC` or `CI` change (after installing nvcc on an unchanged
//! `PATH`, `touch build.rs`).

#[path = "src/program/nvcc_find.rs"]
#[allow(dead_code)]
mod nvcc_find;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/program/nvcc_find.rs");
    for v in ["PATH", "CUDA_HOME", "GPUENERGY_NVCC", "CI"] {
        println!("cargo::rerun-if-env-changed={v}");
    }
    println!("cargo::rustc-check-cfg=cfg(nvcc)");
    if std::env::var_os("CI").is_some() || nvcc_find::find().is_some() {
        println!("cargo::rustc-cfg=nvcc");
    }
}
