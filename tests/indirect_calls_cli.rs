//! Indirect calls from the command line: a program file runs the function-pointer kernels of
//! `sim/tests/cuda/calls.cu` (its committed PTX) and checks them against a CPU model with a
//! `.npy` reference, on the functional emulator and on the cycle-level simulator; a call of
//! an address that is no function stops the run with exit status 2 and an error naming the
//! kernel and the address, without a panic.

mod common;

use common::{ok, refused};
use gpuenergy::program::{npy, DType};
use std::path::{Path, PathBuf};

fn calls_ptx() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sim/tests/cuda/calls.ptx")
        .display()
        .to_string()
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("icall", name)
}

const N: usize = 256;

/// The program: `apply_table` on selectors 0, 1, 2, ... (every warp reaches all four
/// functions), a = 3i − 100, b = 7 − i, checked against `ref.npy`.
fn table_program(d: &Path) -> String {
    let refs: Vec<u8> = (0..N as i32)
        .flat_map(|i| {
            let (a, b) = (3 * i - 100, 7 - i);
            let v = match i & 3 {
                0 => a + b,
                1 => a - b,
                2 => a * b,
                _ => a.max(b),
            };
            v.to_le_bytes()
        })
        .collect();
    std::fs::write(
        d.join("ref.npy"),
        npy::write(DType::I32, &[N as u64], &refs),
    )
    .unwrap();
    format!(
        r#"name = "fptr-table"
ptx = ["{ptx}"]

[buffers.sel]
dtype = "i32"
count = {N}
init = {{ range = {{ start = 0, step = 1 }} }}

[buffers.a]
dtype = "i32"
count = {N}
init = {{ range = {{ start = -100, step = 3 }} }}

[buffers.b]
dtype = "i32"
count = {N}
init = {{ range = {{ start = 7, step = -1 }} }}

[buffers.out]
dtype = "i32"
count = {N}

[[steps]]
launch = "apply_table"
grid = 2
block = 128
args = ["sel", "a", "b", "out", {N}]

[[checks]]
buffer = "out"
reference = "ref.npy"
"#,
        ptx = calls_ptx()
    )
}

#[test]
fn a_function_pointer_table_runs_from_a_program_file() {
    let d = scratch("table");
    let p = d.join("table.toml");
    std::fs::write(&p, table_program(&d)).unwrap();
    let ps = p.display().to_string();
    let out = ok(&["run", "--program", &ps, "--check"]);
    assert!(out.contains("check:             passed"), "{out}");
    let sim = ok(&["simulate", "--program", &ps, "--check", "--quiet"]);
    assert!(sim.contains("apply_table"), "{sim}");
}

#[test]
fn a_call_of_an_address_that_is_no_function_exits_2() {
    let d = scratch("bad");
    let p = d.join("bad.toml");
    let text = format!(
        r#"name = "bad-pointer"
ptx = ["{ptx}"]

[buffers.fn]
dtype = "u64"
count = 64
init = {{ constant = 4660 }}

[buffers.a]
dtype = "i32"
count = 64

[buffers.out]
dtype = "i32"
count = 64

[[steps]]
launch = "call_address"
grid = 2
block = 32
args = ["fn", "a", "a", "out", 64]
"#,
        ptx = calls_ptx()
    );
    std::fs::write(&p, text).unwrap();
    let ps = p.display().to_string();
    for args in [vec!["run"], vec!["simulate", "--quiet"]] {
        let cmd = args[0];
        let err = refused(&[&args[..], &["--program", &ps]].concat());
        assert!(
            err.contains("call_address")
                && err.contains("indirect call to an address that is no function: 0x1234"),
            "{cmd}: {err}"
        );
    }
}
