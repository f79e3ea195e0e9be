//! Texture objects in program files, end to end: `[textures.NAME]` over a buffer and a launch
//! argument `{ texture = "NAME" }`, run with `run --program --check` (functional) and
//! `simulate` (cycle-level) against a reference written here, and every strictness error of
//! the new keys (file, line, key, exit 2).
//!
//! The kernel is `fetch2d` of `sim/tests/cuda/texture.cu` (its committed PTX).

mod common;

use common::{ok, refused};
use gpuenergy::program::{npy, DType};
use std::path::Path;

fn ptx() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sim/tests/cuda/texture.ptx")
        .display()
        .to_string()
}

fn f32_npy(d: &Path, name: &str, v: &[f32]) {
    let b: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    std::fs::write(d.join(name), npy::write(DType::F32, &[v.len() as u64], &b)).unwrap();
}

/// A 16 × 8 texture T[y][x] = 16y + x read at 64 points, some outside (clamped).
fn program(d: &Path) -> String {
    let (w, h) = (16usize, 8usize);
    let n = 64usize;
    let xs: Vec<f32> = (0..n).map(|i| i as f32 * 0.37 - 3.0).collect();
    let ys: Vec<f32> = (0..n).map(|i| (i % 11) as f32 - 1.5).collect();
    let want: Vec<f32> = xs
        .iter()
        .zip(&ys)
        .map(|(&x, &y)| {
            let i = (x.floor() as i64).clamp(0, w as i64 - 1);
            let j = (y.floor() as i64).clamp(0, h as i64 - 1);
            (j * w as i64 + i) as f32
        })
        .collect();
    f32_npy(d, "xs.npy", &xs);
    f32_npy(d, "ys.npy", &ys);
    f32_npy(d, "want.npy", &want);
    let text = format!(
        r#"name = "texprog"
ptx = ["{ptx}"]

[buffers.plane]
dtype = "f32"
count = {texels}
init = {{ range = {{ start = 0, step = 1 }} }}

[buffers.x]
dtype = "f32"
count = {n}
init = {{ file = "xs.npy" }}

[buffers.y]
dtype = "f32"
count = {n}
init = {{ file = "ys.npy" }}

[buffers.out]
dtype = "f32"
count = {n}

[textures.img]
buffer = "plane"
dims = [{w}, {h}]
filter = "point"
address = "clamp"

[[steps]]
launch = "fetch2d"
grid = 1
block = {n}
args = [{{ texture = "img" }}, "x", "y", "out", {n}]

[[checks]]
buffer = "out"
reference = "want.npy"
rtol = 0
atol = 0
"#,
        ptx = ptx(),
        texels = w * h,
    );
    let p = d.join("texprog.toml");
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn a_program_reads_a_texture_object_over_a_buffer() {
    let d = common::scratch("texture", "prog");
    let p = program(&d);
    let out = ok(&["run", "--program", &p, "--check"]);
    assert!(out.contains("check:             passed"), "{out}");
    for preset in ["gtx1080ti", "v100"] {
        let sim = ok(&[
            "simulate",
            "--program",
            &p,
            "--preset",
            preset,
            "--check",
            "--quiet",
        ]);
        assert!(sim.contains("check: passed"), "{preset}: {sim}");
    }
}

#[test]
fn every_strictness_error_of_the_texture_keys_names_file_line_and_key() {
    let k = ptx();
    // lines 1-9: sources and buffers; the texture table from line 10
    let head = format!(
        "name = \"s\"\nptx = [\"{k}\"]\n[buffers.p]\ndtype = \"f32\"\ncount = 64\n\
         [buffers.q]\ndtype = \"i32\"\ncount = 64\n[textures.t]\n"
    );
    let step = |args: &str| {
        format!("[[steps]]\nlaunch = \"fetch2d\"\ngrid = 1\nblock = 32\nargs = {args}\n")
    };
    let good_args = "[{ texture = \"t\" }, \"p\", \"p\", \"p\", 32]";
    let with = |table: &str| format!("{head}{table}{}", step(good_args));
    let cases: Vec<(String, usize, &str, &str)> = vec![
        (
            with("buffer = \"nope\"\ndims = [8, 8]\n"),
            10,
            "textures.t.buffer",
            "no buffer 'nope'",
        ),
        (
            with("buffer = \"p\"\ndims = [8, 9]\n"),
            11,
            "textures.t.dims",
            "need 72 elements; buffer 'p' has 64",
        ),
        (
            with("buffer = \"p\"\ndims = [8, 0]\n"),
            11,
            "textures.t.dims",
            "expected width, [width, height] or [width, height, depth]",
        ),
        (
            with("buffer = \"p\"\ndims = [8, 8]\nfilter = \"cubic\"\n"),
            12,
            "textures.t.filter",
            "allowed: point, linear",
        ),
        (
            with("buffer = \"p\"\ndims = [8, 8]\naddress = \"repeat\"\n"),
            12,
            "textures.t.address",
            "allowed: clamp, border, wrap, mirror",
        ),
        (
            with("buffer = \"p\"\ndims = [8, 8]\naddress = [\"clamp\"]\n"),
            12,
            "textures.t.address",
            "1 modes for a texture of 2 dimension(s)",
        ),
        (
            with("buffer = \"p\"\ndims = [8, 8]\naddress = \"wrap\"\n"),
            9,
            "textures.t",
            "wrap addressing needs normalized coordinates",
        ),
        (
            with("buffer = \"q\"\ndims = [8, 8]\nfilter = \"linear\"\n"),
            9,
            "textures.t",
            "linear filtering needs float texels",
        ),
        (
            with("buffer = \"p\"\ndims = [8, 8]\nchannels = 3\n"),
            12,
            "textures.t.channels",
            "allowed: 1, 2, 4",
        ),
        (
            with("buffer = \"p\"\ndims = [8, 8]\nsampler = 1\n"),
            12,
            "sampler",
            "unknown field",
        ),
        (
            format!(
                "{head}buffer = \"p\"\ndims = [8, 8]\n{}",
                step("[{ texture = \"u\" }, \"p\", \"p\", \"p\", 32]")
            ),
            16,
            "steps[0].args[0]",
            "no texture 'u'; declared in [textures]: t",
        ),
        (
            format!(
                "{head}buffer = \"p\"\ndims = [8, 8]\n{}",
                step("[\"p\", \"p\", \"p\", \"p\", { texture = \"t\" }]")
            ),
            16,
            "steps[0].args[4]",
            "64-bit cudaTextureObject_t",
        ),
    ];
    let d = common::scratch("texture", "strict");
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
