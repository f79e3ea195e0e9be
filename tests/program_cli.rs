//! User programs end to end: a multi-launch program with host copies checked against `.npy`
//! references computed here on the CPU; every strictness error of a program file (file, line,
//! key, exit 2); `estimate`, `compare`, `simulate`, `trace`, `rfstats` and `sweep` on a
//! program; the one-launch shorthand; content keys; `--cuda` compiling and the PTX cache hit
//! (ignored without nvcc, failing under `CI` without it).
//!
//! The kernels are `tests/data/programs/kernels.cu`; `kernels.ptx` beside it is what
//! `nvcc -ptx -arch=sm_75 -O3` wrote, so everything but the `--cuda` test runs without nvcc.

mod common;

use common::{gpuenergy, ok, refused};
use gpuenergy::program::{host, npy, DType, Init, Num};
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/programs")
}

fn ptx() -> String {
    data().join("kernels.ptx").display().to_string()
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("program", name)
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

const N: usize = 1000;

/// The CPU model of kernel `smooth`: zero-padded 3-point mean, `((l + m) + r) · 0.33333334`.
fn smooth(x: &[f32]) -> Vec<f32> {
    (0..x.len())
        .map(|i| {
            let l = if i > 0 { x[i - 1] } else { 0.0 };
            let r = if i + 1 < x.len() { x[i + 1] } else { 0.0 };
            ((l + x[i]) + r) * 0.333_333_34f32
        })
        .collect()
}

/// The multi-launch program: three rounds of two ping-pong `smooth` launches, a snapshot, a
/// host-to-device overwrite, an atomic count, a repeated integer kernel and a `saxpy`.
fn multi_program(ptx: &str) -> String {
    format!(
        r#"name = "pingpong"
ptx = ["{ptx}"]

[buffers.a]
dtype = "f32"
count = {N}
init = {{ random = {{ seed = 3, min = -1.0, max = 1.0 }} }}

[buffers.b]
dtype = "f32"
count = {N}

[buffers.c]
dtype = "u32"
count = 1

[buffers.v]
dtype = "i32"
count = {N}
init = {{ range = {{ start = -500, step = 1 }} }}

[[steps]]
repeat = 3
[[steps.body]]
launch = "smooth"
grid = 4
block = 256
args = ["b", "a", {N}]
[[steps.body]]
launch = "smooth"
grid = [4, 1, 1]
block = [256]
args = ["a", "b", {N}]

[[steps]]
copy = "to_host"
buffer = "a"
snapshot = "a_mid"
file = "a_mid.npy"

[[steps]]
launch = "count_above"
grid = 4
block = 256
args = ["c", "a", 0.0, {N}]

[[steps]]
launch = "scale_index"
grid = 4
block = 256
args = ["v", {{ i32 = 3 }}, {N}]
repeat = 2

[[steps]]
copy = "to_device"
buffer = "b"
from = {{ constant = 0.5 }}

[[steps]]
launch = "saxpy"
grid = 4
block = 256
args = ["b", "a", {{ f32 = 2.0 }}, {{ u32 = {N} }}]

[[checks]]
snapshot = "a_mid"
reference = "a_mid_ref.npy"

[[checks]]
buffer = "b"
reference = "b_ref.npy"
rtol = 1e-6

[[checks]]
buffer = "c"
reference = "c_ref.npy"

[[checks]]
buffer = "v"
reference = "v_ref.npy"
"#
    )
}

/// Writes the multi-launch program and its CPU references into `d`; returns the program path.
fn write_multi(d: &Path) -> String {
    let a0 = f32s(
        &host::init_bytes(
            &Init::Random {
                seed: 3,
                min: Num::Float(-1.0),
                max: Num::Float(1.0),
            },
            DType::F32,
            N as u64,
        )
        .unwrap(),
    );
    let mut a = a0;
    for _ in 0..3 {
        let b = smooth(&a);
        a = smooth(&b);
    }
    let count = a.iter().filter(|&&x| x > 0.0).count() as u32;
    let b: Vec<f32> = a.iter().map(|&x| 2.0f32 * x + 0.5).collect();
    let v: Vec<i32> = (0..N as i32).map(|i| ((i - 500) * 3 + i) * 3 + i).collect();
    let w = |name: &str, dt: DType, n: u64, data: &[u8]| {
        std::fs::write(d.join(name), npy::write(dt, &[n], data)).unwrap()
    };
    w("a_mid_ref.npy", DType::F32, N as u64, &bytes_f32(&a));
    w("b_ref.npy", DType::F32, N as u64, &bytes_f32(&b));
    w("c_ref.npy", DType::U32, 1, &count.to_le_bytes());
    let vb: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    w("v_ref.npy", DType::I32, N as u64, &vb);
    let p = d.join("p.toml");
    std::fs::write(&p, multi_program(&ptx())).unwrap();
    p.display().to_string()
}

#[test]
fn multi_launch_program_matches_its_cpu_reference() {
    let d = scratch("multi");
    let p = write_multi(&d);
    let out = ok(&["run", "--program", &p, "--check"]);
    assert!(out.contains("program:           pingpong"), "{out}");
    // 6 smooth + count + 2 scale_index + saxpy
    assert!(out.contains("launches:          10"), "{out}");
    assert!(out.contains("check:             passed"), "{out}");
    assert!(out.contains("a_mid: max abs err"), "{out}");
    assert!(
        out.contains("v: max abs err 0 over 1000 i32 (exact)"),
        "{out}"
    );
    // the to_host copy's file holds the snapshot
    let got = npy::read(&std::fs::read(d.join("a_mid.npy")).unwrap()).unwrap();
    let want = npy::read(&std::fs::read(d.join("a_mid_ref.npy")).unwrap()).unwrap();
    assert_eq!(got.shape, vec![N as u64]);
    let (g, w) = (f32s(&got.data), f32s(&want.data));
    assert!(g
        .iter()
        .zip(&w)
        .all(|(x, y)| (x - y).abs() <= 1e-5 * y.abs() + 1e-8));
    // the same checks pass on the cycle-level simulator
    let sim = ok(&["simulate", "--program", &p, "--check", "--quiet"]);
    assert!(sim.contains("pingpong (program)"), "{sim}");
    assert!(
        sim.contains("smooth") && sim.contains("scale_index"),
        "{sim}"
    );
    // a wrong reference fails the check with exit 2 and names the element
    let mut c = 0u32.to_le_bytes().to_vec();
    c[0] = 7;
    std::fs::write(d.join("c_ref.npy"), npy::write(DType::U32, &[1], &c)).unwrap();
    let err = refused(&["run", "--program", &p, "--check"]);
    assert!(
        err.contains("failed its checks") && err.contains("c: 1 of 1 elements differ"),
        "{err}"
    );
}

/// `(text of the program file, expected line, key, message fragment)`.
fn strict_cases() -> Vec<(String, usize, &'static str, &'static str)> {
    let k = ptx();
    let head = format!("name = \"s\"\nptx = [\"{k}\"]\n");
    let bufs =
        "[buffers.x]\ndtype = \"f32\"\ncount = 64\n[buffers.y]\ndtype = \"f32\"\ncount = 64\n";
    let launch = |args: &str, extra: &str| {
        format!(
            "{head}{bufs}[[steps]]\nlaunch = \"saxpy\"\ngrid = 1\nblock = 64\nargs = {args}\n{extra}"
        )
    };
    let ok_args = "[\"y\", \"x\", 2.0, 64]";
    vec![
        (format!("nme = \"s\"\n{head}"), 1, "nme", "unknown field"),
        (launch(ok_args, "gird = 2\n"), 14, "gird", "unknown field"),
        (
            launch("[\"y\", \"nope\", 2.0, 64]", ""),
            13,
            "steps[0].args[1]",
            "no buffer 'nope'",
        ),
        (
            launch("[\"y\", \"x\", 2.0]", ""),
            13,
            "steps[0].args",
            "3 arguments given; kernel 'saxpy' declares 4 parameters",
        ),
        (
            launch("[\"y\", \"x\", \"x\", 64]", ""),
            13,
            "steps[0].args[2]",
            "is declared .f32",
        ),
        (
            launch("[{ f32 = 1.0 }, \"x\", 2.0, 64]", ""),
            13,
            "steps[0].args[0]",
            "declared .u64; a f32 value does not match",
        ),
        (
            launch("[\"y\", \"x\", 2.0, -1]", ""),
            13,
            "steps[0].args[3]",
            "-1 does not fit parameter",
        ),
        (
            launch(ok_args, "").replace("\"saxpy\"", "\"sxpy\""),
            10,
            "steps[0].launch",
            "no kernel 'sxpy' in the sources; kernels: saxpy, smooth, count_above, scale_index",
        ),
        (
            launch(ok_args, "").replace("grid = 1", "grid = [1, 65536]"),
            11,
            "steps[0].grid",
            "y = 65536 is above the CUDA limit 65535",
        ),
        (
            launch(ok_args, "").replace("block = 64", "block = [64, 32]"),
            12,
            "steps[0].block",
            "2048 threads in a CTA, above the CUDA limit 1024",
        ),
        (
            format!(
                "{head}{bufs}[[steps]]\nlaunch = \"smooth\"\ngrid = 1\nblock = 512\nargs = [\"y\", \"x\", 64]\n"
            ),
            12,
            "steps[0].block",
            ".maxntid [256, 1, 1]",
        ),
        (
            format!("{head}[buffers.x]\ndtype = \"f32\"\ncount = 1000000000000000\n"),
            5,
            "buffers.x.count",
            "a buffer holds 1 element up to",
        ),
        (
            format!("{head}[buffers.x]\ndtype = \"u8\"\ncount = 4\ninit = {{ constant = 300 }}\n"),
            6,
            "buffers.x.init",
            "constant 300 is outside the range of u8",
        ),
        (
            format!("{head}[buffers.x]\ndtype = \"f128\"\ncount = 4\n"),
            4,
            "buffers.x.dtype",
            "unknown dtype 'f128'; allowed: u8",
        ),
        (
            format!("{head}[buffers.x]\ndtype = \"f32\"\nbytes = 6\n"),
            5,
            "buffers.x.bytes",
            "not a whole number of f32 elements",
        ),
        (
            format!(
                "{head}[buffers.x]\ndtype = \"f32\"\ncount = 4\ninit = {{ file = \"{}\" }}\n",
                data().join("kernels.cu").display()
            ),
            6,
            "buffers.x.init",
            "bytes; the buffer has 16 (4 x f32)",
        ),
        (
            "name = \"hotspot\"\nptx = [\"x.ptx\"]\n".to_string(),
            1,
            "name",
            "is a built-in workload's name",
        ),
        (
            format!("{head}[[steps]]\ncopy = \"to_host\"\nbuffer = \"nope\"\n"),
            5,
            "steps[0].buffer",
            "no buffer 'nope'",
        ),
        (
            launch(ok_args, "[[checks]]\nbuffer = \"x\"\nreference = \"missing.npy\"\n"),
            16,
            "checks[0].reference",
            "cannot read",
        ),
        (
            launch(ok_args, "repeat = 0\n"),
            14,
            "steps[0].repeat",
            "0 is not a repeat count",
        ),
        (format!("{head}steps = ["), 3, "", "invalid array"),
        (
            launch(ok_args, "").replacen("ptx = ", "stack_bytes = 0\nptx = ", 1),
            2,
            "stack_bytes",
            "the call-stack bytes per thread must be in 1..=524288",
        ),
    ]
}

#[test]
fn every_strictness_error_names_file_line_and_key() {
    let d = scratch("strict");
    for (i, (text, line, key, msg)) in strict_cases().into_iter().enumerate() {
        let p = d.join(format!("case{i}.toml"));
        std::fs::write(&p, &text).unwrap();
        let ps = p.display().to_string();
        let err = refused(&["estimate", "--program", &ps, "--quiet"]);
        let at = format!("{ps}:{line}:");
        assert!(err.contains(&at), "case {i}: want {at} in {err}\n{text}");
        assert!(
            err.contains(&format!("'{key}'")),
            "case {i}: want '{key}' in {err}"
        );
        assert!(err.contains(msg), "case {i}: want '{msg}' in {err}");
    }
}

/// A `.f64` scalar parameter cannot be passed (the launch packs 32- and 64-bit integer and
/// `.f32` parameters): today the PTX front end refuses the module when it parses it (key
/// `ptx`); a front end that accepts the declaration leaves it to the argument check (key
/// `steps[0].args[1]`). Either way the error names file, line and key, with exit 2.
#[test]
fn an_f64_scalar_parameter_is_passed() {
    let d = scratch("f64");
    let p = d.join("w.toml");
    let text = format!(
        "name = \"w\"\nptx = [\"{}\"]\n[buffers.y]\ndtype = \"f64\"\ncount = 4\n\
         init = {{ range = {{ start = 1, step = 1 }} }}\n[[steps]]\nlaunch = \"scale_f64\"\n\
         grid = 1\nblock = 32\nargs = [\"y\", {{ f64 = 2.5 }}, 4]\n[[steps]]\ncopy = \"to_host\"\n\
         buffer = \"y\"\nfile = \"{}\"\n",
        data().join("wide.ptx").display(),
        d.join("y.npy").display()
    );
    std::fs::write(&p, &text).unwrap();
    let ps = p.display().to_string();
    ok(&["run", "--program", &ps]);
    let y = std::fs::read(d.join("y.npy")).unwrap();
    let vals: Vec<f64> = y[y.len() - 32..]
        .chunks(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(vals, vec![2.5, 5.0, 7.5, 10.0]);
    // an f64 parameter given a value that does not fit a wrongly typed scalar is still refused
    let bad = text.replace("{ f64 = 2.5 }", "{ u8 = 2 }");
    std::fs::write(&p, bad).unwrap();
    let err = refused(&["estimate", "--program", &ps, "--quiet"]);
    assert!(err.contains("'steps[0].args[1]'"), "{err}");
}

#[test]
fn programs_reach_estimate_compare_simulate_trace_and_rfstats() {
    let p = data().join("saxpy.toml").display().to_string();
    let est = ok(&["estimate", "--program", &p, "--quiet"]);
    assert!(est.contains("saxpy-prog"), "{est}");
    // a program with built-in workloads: both are costed, in that order
    let both = ok(&[
        "estimate",
        "--workload",
        "histo",
        "--program",
        &p,
        "--format",
        "csv",
        "--quiet",
    ]);
    let hi = both.find("\nhisto,").expect("histo rows");
    let sp = both.find("\nsaxpy-prog,").expect("program rows");
    assert!(hi < sp, "{both}");
    // the same inputs give the same bytes
    assert_eq!(est, ok(&["estimate", "--program", &p, "--quiet"]));
    let cmp = ok(&[
        "compare",
        "--program",
        &p,
        "--technique",
        "gates",
        "--quiet",
    ]);
    assert!(cmp.contains("saxpy-prog") && cmp.contains("gates"), "{cmp}");
    let sim = ok(&["simulate", "--program", &p, "--format", "json", "--quiet"]);
    let v: serde_json::Value = serde_json::from_str(&sim).unwrap();
    assert_eq!(v["workload"], "saxpy-prog", "{sim}");
    let rf = ok(&["rfstats", "--program", &p, "--quiet"]);
    assert!(rf.contains("saxpy-prog"), "{rf}");
    let d = scratch("trace");
    let t = d.join("t").display().to_string();
    let tr = ok(&["trace", "--program", &p, "--out", &t]);
    assert!(tr.starts_with("saxpy-prog: 1 kernel launch(es)"), "{tr}");
    let back = ok(&["simulate", "--trace", &t, "--quiet"]);
    assert!(back.contains("saxpy"), "{back}");
    // one workload only where a command runs one
    let err = refused(&["simulate", "--workload", "histo", "--program", &p]);
    assert!(err.contains("not both"), "{err}");
    let err = refused(&["estimate", "--grid", "4"]);
    assert!(
        err.contains("--grid belongs to the one-launch shorthand"),
        "{err}"
    );
}

#[test]
fn one_launch_shorthand_on_estimate_and_simulate() {
    let k = ptx();
    let args = [
        "--ptx",
        &k,
        "--kernel",
        "saxpy",
        "--grid",
        "64",
        "--block",
        "256",
        "--param",
        "buf:65536",
        "--param",
        "buf:65536",
        "--param",
        "f32:2",
        "--param",
        "u32:16384",
    ];
    let mut e = vec!["estimate", "--format", "csv", "--quiet"];
    e.extend(args);
    let est = ok(&e);
    assert!(
        est.lines().skip(1).all(|l| l.starts_with("saxpy,")),
        "{est}"
    );
    let mut s = vec!["simulate", "--quiet"];
    s.extend(args);
    let sim = ok(&s);
    assert!(
        sim.contains("saxpy (program)") && sim.contains("10240"),
        "{sim}"
    );
    // a buffer for the .f32 parameter is refused before anything runs
    let err = refused(&[
        "estimate", "--ptx", &k, "--kernel", "saxpy", "--param", "buf:64", "--param", "buf:64",
        "--param", "buf:64", "--param", "u32:16",
    ]);
    assert!(
        err.contains("parameter 'saxpy_param_2' is declared .f32"),
        "{err}"
    );
}

#[test]
fn sweep_runs_a_program_keyed_by_its_content() {
    let d = scratch("sweep");
    let prog = std::fs::read_to_string(data().join("saxpy.toml"))
        .unwrap()
        .replace("kernels.ptx", &ptx());
    std::fs::write(d.join("prog.toml"), &prog).unwrap();
    let sweep = "workloads = [\"histo\"]\nprograms = [\"prog.toml\"]\nsizes = [\"test\", \"bench\"]\ntechniques = [\"none\", \"gates\"]\n\n[[tech]]\nnode = \"40nm\"\n";
    let f = d.join("s.toml");
    std::fs::write(&f, sweep).unwrap();
    let (f, a) = (f.display().to_string(), d.join("a").display().to_string());
    let plan = ok(&["sweep", "plan", &f, "--no-estimate"]);
    // histo at two sizes and the program at its one: 3 points per technique
    assert!(plan.contains("6 points"), "{plan}");
    ok(&["sweep", "run", &f, "--out", &a, "-q"]);
    ok(&["sweep", "merge", &a, "-q"]);
    let csv = std::fs::read_to_string(Path::new(&a).join("sweep.csv")).unwrap();
    assert_eq!(csv.matches(",saxpy-prog,program,").count(), 2, "{csv}");
    // an edited program is a new point: its results are never read back under the old key
    let again = ok(&["sweep", "run", &f, "--out", &a, "-q"]);
    assert!(again.contains("6 found done"), "{again}");
    std::fs::write(d.join("prog.toml"), prog.replace("seed = 7", "seed = 8")).unwrap();
    let edited = ok(&["sweep", "run", &f, "--out", &a, "-q"]);
    assert!(
        edited.contains("4 found done") && edited.contains("2 computed"),
        "{edited}"
    );
}

/// `optimize`'s Activity cache keys a program by its content: a repeated run simulates
/// nothing, an edited program (same name) is simulated again.
#[test]
fn optimize_cache_keys_a_program_by_content() {
    let d = scratch("optimize");
    let prog = std::fs::read_to_string(data().join("saxpy.toml"))
        .unwrap()
        .replace("kernels.ptx", &ptx());
    let p = d.join("prog.toml");
    std::fs::write(&p, &prog).unwrap();
    let (p, cache) = (
        p.display().to_string(),
        d.join("cache").display().to_string(),
    );
    let args = [
        "optimize",
        "--area-budget",
        "2%",
        "--space",
        "gating",
        "--program",
        &p,
        "--cache-dir",
        &cache,
        "--quiet",
    ];
    let simulated = |out: &str| -> usize {
        let i = out.find(" simulated").unwrap_or_else(|| panic!("{out}"));
        out[..i].rsplit('(').next().unwrap().parse().unwrap()
    };
    let first = ok(&args);
    assert!(
        first.contains("1 workloads") && simulated(&first) > 0,
        "{first}"
    );
    assert_eq!(simulated(&ok(&args)), 0);
    std::fs::write(d.join("prog.toml"), prog.replace("seed = 7", "seed = 8")).unwrap();
    assert_eq!(simulated(&ok(&args)), simulated(&first));
}

#[test]
fn identity_follows_content_not_name() {
    let d = scratch("identity");
    let base = std::fs::read_to_string(data().join("saxpy.toml"))
        .unwrap()
        .replace("kernels.ptx", &ptx())
        .replace(
            "init = { random = { seed = 7, min = -1.0, max = 1.0 } }",
            "init = { file = \"x.bin\" }",
        );
    let p = d.join("p.toml");
    std::fs::write(&p, &base).unwrap();
    std::fs::write(d.join("x.bin"), vec![0u8; 16384 * 4]).unwrap();
    let id1 = gpuenergy::program::UserProgram::load(&p).unwrap().identity;
    assert!(id1.starts_with("program:saxpy-prog:"), "{id1}");
    std::fs::write(d.join("x.bin"), vec![1u8; 16384 * 4]).unwrap();
    let id2 = gpuenergy::program::UserProgram::load(&p).unwrap().identity;
    assert_ne!(id1, id2, "a data file's contents are part of the key");
    std::fs::write(&p, base.replace("f32 = 2.0", "f32 = 3.0")).unwrap();
    let id3 = gpuenergy::program::UserProgram::load(&p).unwrap().identity;
    assert_ne!(id2, id3, "the program file's text is part of the key");
}

#[test]
#[cfg_attr(
    not(nvcc),
    ignore = "needs nvcc (`pip install nvidia-cuda-nvcc`, or on PATH / in $CUDA_HOME/bin)"
)]
fn cuda_sources_compile_once_and_hit_the_cache() {
    use std::process::Command;
    assert!(
        gpuenergy::program::nvcc::find().is_some(),
        "nvcc not found (with CI set, or since the build found it: `touch build.rs` after \
         installing or removing it); install it with `pip install nvidia-cuda-nvcc`"
    );
    let d = scratch("cuda");
    let cache = d.join("cache");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
            .args(args)
            .env("CI", "1")
            .env("GPUENERGY_CACHE_DIR", &cache)
            .output()
            .unwrap()
    };
    let cu = data().join("kernels.cu").display().to_string();
    let args = [
        "estimate",
        "--cuda",
        &cu,
        "--kernel",
        "saxpy",
        "--grid",
        "64",
        "--block",
        "256",
        "--param",
        "buf:65536",
        "--param",
        "buf:65536",
        "--param",
        "f32:2",
        "--param",
        "u32:16384",
        "--format",
        "csv",
    ];
    let first = run(&args);
    let e1 = String::from_utf8_lossy(&first.stderr).to_string();
    assert!(first.status.success(), "{e1}");
    assert!(e1.contains("(compiled)"), "{e1}");
    let second = run(&args);
    let e2 = String::from_utf8_lossy(&second.stderr).to_string();
    assert!(
        second.status.success() && e2.contains("(cache hit)"),
        "{e2}"
    );
    assert_eq!(first.stdout, second.stdout);
    // the same estimate as from the committed PTX
    let from_ptx = ok(&[
        "estimate",
        "--ptx",
        &ptx(),
        "--kernel",
        "saxpy",
        "--grid",
        "64",
        "--block",
        "256",
        "--param",
        "buf:65536",
        "--param",
        "buf:65536",
        "--param",
        "f32:2",
        "--param",
        "u32:16384",
        "--format",
        "csv",
        "--quiet",
    ]);
    assert_eq!(String::from_utf8_lossy(&first.stdout), from_ptx);
    // a program file with cuda = [...] and --arch
    let prog = std::fs::read_to_string(data().join("saxpy.toml"))
        .unwrap()
        .replace(
            "ptx = [\"kernels.ptx\"]",
            &format!("cuda = [\"{cu}\"]\narch = \"sm_80\""),
        );
    std::fs::write(d.join("c.toml"), prog).unwrap();
    let out = run(&["run", "--program", &d.join("c.toml").display().to_string()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // a compile error is shown with nvcc's own message
    std::fs::write(
        d.join("bad.cu"),
        "__global__ void k() { undeclared_thing = 1; }\n",
    )
    .unwrap();
    let bad = run(&[
        "estimate",
        "--cuda",
        &d.join("bad.cu").display().to_string(),
        "--kernel",
        "k",
    ]);
    let e = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{e}");
    assert!(
        e.contains("nvcc failed to compile") && e.contains("undeclared_thing"),
        "{e}"
    );
}

#[test]
fn no_nvcc_is_a_clear_error() {
    let cu = data().join("kernels.cu").display().to_string();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args(["estimate", "--cuda", &cu, "--kernel", "saxpy"])
        .env("GPUENERGY_NVCC", "/nonexistent/nvcc")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("pip install nvidia-cuda-nvcc"), "{err}");
    let _ = gpuenergy(&["--version"]);
}
