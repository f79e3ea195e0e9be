//! Cooperative launches and CUDA-graph conditionals in program files, end to end: a
//! grid-synchronised reduction launched with `cooperative = true` checked against a CPU
//! reference on `run` (functional) and `simulate` (cycle-level); a `while` group driven by
//! the kernel's `cudaGraphSetConditional` that iterates until the data has converged, checked
//! against the CPU's iteration count; the strictness errors of the new keys (file, line, key,
//! exit 2); `max_iterations` exceeded at run time; the `--cooperative` shorthand and its
//! co-residency error.
//!
//! The kernels are `sim/tests/cuda/coop.cu`; `coop.ptx` beside it is what
//! `nvcc -ptx -arch=sm_75 -O3` wrote.

mod common;

use common::{ok, refused};
use gpuenergy::program::{host, npy, DType, Init, Num};
use std::path::{Path, PathBuf};

fn ptx() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sim/tests/cuda/coop.ptx")
        .display()
        .to_string()
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("coop", name)
}

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

const N: usize = 5000;

/// The buffer `x` of both programs: seeded random integers in 0..=1000.
fn x0() -> Vec<u32> {
    u32s(
        &host::init_bytes(
            &Init::Random {
                seed: 7,
                min: Num::Int(0),
                max: Num::Int(1000),
            },
            DType::U32,
            N as u64,
        )
        .unwrap(),
    )
}

fn write_npy(d: &Path, name: &str, v: &[u32]) {
    std::fs::write(
        d.join(name),
        npy::write(DType::U32, &[v.len() as u64], &bytes(v)),
    )
    .unwrap();
}

fn grid_sum_program(d: &Path, grid: u32) -> String {
    let x = x0();
    let t = x.iter().fold(0u32, |a, &v| a.wrapping_add(v));
    let y: Vec<u32> = x.iter().map(|&v| 2 * v + t).collect();
    write_npy(d, "total_ref.npy", &[t]);
    write_npy(d, "y_ref.npy", &y);
    let text = format!(
        r#"name = "gridsum"
ptx = ["{ptx}"]

[buffers.x]
dtype = "u32"
count = {N}
init = {{ random = {{ seed = 7, min = 0, max = 1000 }} }}

[buffers.partial]
dtype = "u32"
count = {grid}

[buffers.total]
dtype = "u32"
count = 1

[buffers.y]
dtype = "u32"
count = {N}

[[steps]]
launch = "grid_sum"
cooperative = true
grid = {grid}
block = 256
args = ["x", "partial", "total", "y", {N}]

[[checks]]
buffer = "total"
reference = "total_ref.npy"

[[checks]]
buffer = "y"
reference = "y_ref.npy"
"#,
        ptx = ptx()
    );
    let p = d.join("gridsum.toml");
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn a_cooperative_grid_reduction_matches_its_cpu_reference() {
    let d = scratch("gridsum");
    let p = grid_sum_program(&d, 30);
    let out = ok(&["run", "--program", &p, "--check"]);
    assert!(out.contains("check:             passed"), "{out}");
    let sim = ok(&["simulate", "--program", &p, "--check", "--quiet"]);
    assert!(
        sim.contains("gridsum (program)") && sim.contains("grid_sum"),
        "{sim}"
    );
    let est = ok(&["estimate", "--program", &p, "--quiet"]);
    assert!(est.contains("gridsum"), "{est}");
    // the analytical source steps CTAs one after another: a clear refusal
    let err = refused(&[
        "estimate",
        "--program",
        &p,
        "--activity-source",
        "model",
        "--quiet",
    ]);
    assert!(err.contains("cooperative launches"), "{err}");
    // 76 CTAs of grid_sum do not fit co-resident on the GTX480 (15 SMs x 5, registers)
    let big = grid_sum_program(&d, 76);
    let err = refused(&["simulate", "--program", &big, "--quiet"]);
    assert!(
        err.contains("grid_sum") && err.contains("cudaErrorCooperativeLaunchTooLarge"),
        "{err}"
    );
}

#[test]
fn the_cooperative_shorthand_checks_co_residency_and_a_plain_launch_traps() {
    let k = ptx();
    let args = |grid: &'static str, coop: bool| {
        let mut v = vec![
            "run", "--ptx", &k, "--kernel", "grid_sum", "--grid", grid, "--block", "256",
            "--param", "buf:4096", "--param", "buf:4096", "--param", "buf:4", "--param",
            "buf:4096", "--param", "u32:1024",
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
        if coop {
            v.push("--cooperative".into());
        }
        v
    };
    let run = |v: Vec<String>| v;
    let a = run(args("8", true));
    let out = ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.contains("grid_sum"), "{out}");
    let a = run(args("76", true));
    let err = refused(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(err.contains("cudaErrorCooperativeLaunchTooLarge"), "{err}");
    let a = run(args("8", false));
    let err = refused(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(err.contains("trap"), "{err}");
    let est = ok(&[
        "simulate",
        "--ptx",
        &k,
        "--kernel",
        "grid_sum",
        "--grid",
        "8",
        "--block",
        "256",
        "--param",
        "buf:4096",
        "--param",
        "buf:4096",
        "--param",
        "buf:4",
        "--param",
        "buf:4096",
        "--param",
        "u32:1024",
        "--cooperative",
        "--quiet",
    ]);
    assert!(est.contains("grid_sum"), "{est}");
}

fn halve_program(d: &Path, max_iterations: Option<u32>) -> String {
    let guard = max_iterations.map_or(String::new(), |m| format!("max_iterations = {m}\n"));
    let text = format!(
        r#"name = "halve"
ptx = ["{ptx}"]

[conditionals]
more = {{ default = 1 }}

[buffers.x]
dtype = "u32"
count = {N}
init = {{ random = {{ seed = 7, min = 0, max = 1000 }} }}

[buffers.steps]
dtype = "u32"
count = 1

[[steps]]
while = "more"
{guard}[[steps.body]]
launch = "halve_step"
grid = 1
block = 256
args = ["x", "steps", {N}, {{ handle = "more" }}]

[[checks]]
buffer = "x"
reference = "x_ref.npy"

[[checks]]
buffer = "steps"
reference = "steps_ref.npy"
"#,
        ptx = ptx()
    );
    let p = d.join("halve.toml");
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn a_while_conditional_iterates_until_the_kernel_reports_convergence() {
    let d = scratch("halve");
    // CPU reference: halve until every element is 0; the condition is checked before each
    // iteration, and the default 1 runs the first
    let mut x = x0();
    let mut steps = 0u32;
    loop {
        x.iter_mut().for_each(|v| *v >>= 1);
        steps += 1;
        if x.iter().all(|&v| v == 0) {
            break;
        }
    }
    assert_eq!(steps, 10); // the largest element is below 1024 and at least 512
    write_npy(&d, "x_ref.npy", &x);
    write_npy(&d, "steps_ref.npy", &[steps]);
    let p = halve_program(&d, None);
    let out = ok(&["run", "--program", &p, "--check"]);
    assert!(out.contains("check:             passed"), "{out}");
    assert!(out.contains("launches:          10"), "{out}");
    let sim = ok(&["simulate", "--program", &p, "--check", "--quiet"]);
    assert!(sim.contains("halve (program)"), "{sim}");
    // nine iterations allowed: the tenth is an error naming file, line and key
    let p = halve_program(&d, Some(9));
    let err = refused(&["run", "--program", &p]);
    assert!(
        err.contains(&format!("{p}:18:"))
            && err.contains("'steps[0].max_iterations'")
            && err.contains("still true after 9 iterations"),
        "{err}"
    );
}

#[test]
fn every_strictness_error_of_the_new_keys_names_file_line_and_key() {
    let k = ptx();
    let head = format!(
        "name = \"s\"\nptx = [\"{k}\"]\n[buffers.x]\ndtype = \"u32\"\ncount = 64\n[buffers.s]\n\
         dtype = \"u32\"\ncount = 1\n"
    );
    // line 9 onwards
    let launch = |args: &str| {
        format!(
            "[[steps]]\nwhile = \"c\"\n[[steps.body]]\nlaunch = \"halve_step\"\ngrid = 1\n\
             block = 32\nargs = {args}\n"
        )
    };
    let good = "[\"x\", \"s\", 64, { handle = \"c\" }]";
    let conds = "[conditionals]\nc = { default = 1 }\n";
    let cases: Vec<(String, usize, &str, &str)> = vec![
        (
            format!(
                "{head}[conditionals]\nc = {{ defualt = 1 }}\n{}",
                launch(good)
            ),
            10,
            "defualt",
            "unknown field",
        ),
        (
            format!(
                "{head}[conditionals]\nc = {{ default = -1 }}\n{}",
                launch(good)
            ),
            10,
            "conditionals.c.default",
            "not a conditional value",
        ),
        (
            format!("{head}{}", launch(good)),
            10,
            "steps[0].while",
            "no conditional 'c'",
        ),
        (
            format!(
                "{head}{conds}{}",
                launch("[\"x\", \"s\", 64, { handle = \"d\" }]")
            ),
            17,
            "steps[0].body[0].args[3]",
            "no conditional 'd'",
        ),
        (
            format!(
                "{head}{conds}{}",
                launch("[\"x\", \"s\", { handle = \"c\" }, 64]")
            ),
            17,
            "steps[0].body[0].args[2]",
            "64-bit cudaGraphConditionalHandle",
        ),
        (
            format!("{head}{conds}{}", launch(good))
                .replace("while = \"c\"\n", "while = \"c\"\nrepeat = 2\n"),
            13,
            "steps[0].repeat",
            "'repeat' does not belong",
        ),
        (
            format!("{head}{conds}{}", launch(good))
                .replace("while", "if")
                .replace("if = \"c\"\n", "if = \"c\"\nmax_iterations = 3\n"),
            13,
            "steps[0].max_iterations",
            "an if group runs once",
        ),
        (
            format!("{head}{conds}{}", launch(good))
                .replace("while = \"c\"\n", "while = \"c\"\nmax_iterations = 0\n"),
            13,
            "steps[0].max_iterations",
            "not an iteration bound",
        ),
        (
            format!("{head}{conds}{}", launch(good))
                .replace("block = 32\n", "block = 32\ncooperative = 1\n"),
            17,
            "1",
            "invalid type",
        ),
        (
            format!(
                "{head}{conds}[[steps]]\ncopy = \"to_host\"\nbuffer = \"x\"\ncooperative = true\n"
            ),
            11,
            "steps[0].cooperative",
            "does not belong to a copy step",
        ),
    ];
    let d = scratch("strict");
    for (i, (text, line, key, msg)) in cases.into_iter().enumerate() {
        let p = d.join(format!("case{i}.toml"));
        std::fs::write(&p, &text).unwrap();
        let ps = p.display().to_string();
        let err = refused(&["run", "--program", &ps]);
        let at = format!("{ps}:{line}:");
        assert!(err.contains(&at), "case {i}: want {at} in {err}\n{text}");
        assert!(
            err.contains(&format!("'{key}'")),
            "case {i}: want '{key}' in {err}"
        );
        assert!(err.contains(msg), "case {i}: want '{msg}' in {err}");
    }
}
