//! Texture fetches through texture objects: the kernels of `sim/tests/cuda/texture.cu`
//! (`tex1D`, `tex2D`, `tex3D`, `tex1Dfetch`, compiled by nvcc for sm_75 at -O3; the PTX is
//! committed beside the source) run on the functional emulator against values worked out by
//! hand from the CUDA programming guide's texture-fetching rules: point sampling on and
//! between texel centres, clamp and border addressing outside the texture, bilinear and
//! trilinear filtering with 8-bit weights, normalised coordinates with wrap and mirror, the
//! channels a one-channel texel lacks, integer texels through `tex1Dfetch`. Then the fetches'
//! errors (a handle that names no object, a geometry or a result type the object does not
//! have, sampler state CUDA refuses), and the timing model's texture path: the texture cache
//! on gtx1080ti, the unified L1 on v100.
//!
//! `nvcc_recompiles_texture` compiles the source afresh when nvcc is found and runs every check
//! on that PTX too.

mod common;
use sim::activity::Activity;
use sim::config::GpuConfig;
use sim::emu::Emulator;
use sim::ptx::Module;
use sim::texture::{TexAddress, TexFilter, TexFormat, TextureDesc};
use sim::timing::Simulation;
use sim::{Gpu, Launch, ParamValue, SimError};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda")
}

fn committed() -> Module {
    let p = dir().join("texture.ptx");
    Module::parse(
        &std::fs::read_to_string(&p).unwrap(),
        &p.display().to_string(),
    )
    .unwrap()
}

fn up(gpu: &mut dyn Gpu, v: &[u32]) -> u64 {
    let b: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    let p = gpu.alloc(b.len() as u64).unwrap();
    gpu.copy_to_device(p, &b).unwrap();
    p
}

fn upf(gpu: &mut dyn Gpu, v: &[f32]) -> u64 {
    up(gpu, &v.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
}

fn down(gpu: &mut dyn Gpu, p: u64, n: usize) -> Vec<u32> {
    let mut b = vec![0u8; n * 4];
    gpu.copy_from_device(p, &mut b).unwrap();
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// A texture over `texels` (uploaded), with `dims`, `channels`, `format` and sampler state.
#[allow(clippy::too_many_arguments)]
fn texture(
    gpu: &mut dyn Gpu,
    texels: &[u32],
    dims: &[u32],
    channels: u8,
    format: TexFormat,
    filter: TexFilter,
    address: TexAddress,
    normalized: bool,
) -> Result<u64, SimError> {
    let base = up(gpu, texels);
    gpu.create_texture(&TextureDesc {
        base,
        dims: dims.to_vec(),
        channels,
        format,
        filter,
        address: vec![address; dims.len()],
        normalized,
    })
}

fn f32_texture(
    gpu: &mut dyn Gpu,
    v: &[f32],
    dims: &[u32],
    filter: TexFilter,
    address: TexAddress,
    normalized: bool,
) -> u64 {
    let bits: Vec<u32> = v.iter().map(|x| x.to_bits()).collect();
    texture(
        gpu,
        &bits,
        dims,
        1,
        TexFormat::F32,
        filter,
        address,
        normalized,
    )
    .unwrap()
}

fn launch(
    gpu: &mut dyn Gpu,
    m: &Module,
    k: &str,
    n: usize,
    params: Vec<ParamValue>,
) -> Result<(), SimError> {
    gpu.launch(&Launch {
        kernel: m.load(k).unwrap(),
        grid: [n.div_ceil(64) as u32, 1, 1],
        block: [64, 1, 1],
        params,
        shared_bytes: 0,
        cooperative: false,
    })
}

/// `fetch2d` at the points `xy` of texture `t`: the values read.
fn fetch2d(gpu: &mut dyn Gpu, m: &Module, t: u64, xy: &[(f32, f32)]) -> Vec<f32> {
    let n = xy.len();
    let x = upf(gpu, &xy.iter().map(|p| p.0).collect::<Vec<_>>());
    let y = upf(gpu, &xy.iter().map(|p| p.1).collect::<Vec<_>>());
    let out = up(gpu, &vec![0; n]);
    let u = ParamValue::U64;
    let args = vec![u(t), u(x), u(y), u(out), ParamValue::S32(n as i32)];
    launch(gpu, m, "fetch2d", n, args).unwrap();
    down(gpu, out, n).into_iter().map(f32::from_bits).collect()
}

fn fetch1d(gpu: &mut dyn Gpu, m: &Module, t: u64, xs: &[f32]) -> Vec<f32> {
    let n = xs.len();
    let x = upf(gpu, xs);
    let out = up(gpu, &vec![0; n]);
    let u = ParamValue::U64;
    let args = vec![u(t), u(x), u(out), ParamValue::S32(n as i32)];
    launch(gpu, m, "fetch1d", n, args).unwrap();
    down(gpu, out, n).into_iter().map(f32::from_bits).collect()
}

/// The 4 × 3 texture T[y][x] = 10y + x.
fn grid43() -> Vec<f32> {
    (0..3)
        .flat_map(|y| (0..4).map(move |x| (10 * y + x) as f32))
        .collect()
}

fn check_2d(m: &Module) {
    let mut gpu = Emulator::new();
    let g = &mut gpu;
    let (pt, ln) = (TexFilter::Point, TexFilter::Linear);
    let (clamp, border) = (TexAddress::Clamp, TexAddress::Border);
    // point sampling, clamp: texel centres, inside a texel, outside on each side
    let t = f32_texture(g, &grid43(), &[4, 3], pt, clamp, false);
    let got = fetch2d(
        g,
        m,
        t,
        &[
            (0.5, 0.5),
            (3.5, 2.5),
            (2.99, 1.0),
            (0.0, 0.0),
            (-5.0, 1.5),
            (100.0, 100.0),
            (1.5, -0.01),
        ],
    );
    assert_eq!(got, [0.0, 23.0, 12.0, 0.0, 10.0, 23.0, 1.0]);
    // border: outside reads zero, the last texel is still inside
    let t = f32_texture(g, &grid43(), &[4, 3], pt, border, false);
    let got = fetch2d(g, m, t, &[(-0.5, 1.5), (4.0, 0.5), (3.5, 2.5), (1.5, 3.0)]);
    assert_eq!(got, [0.0, 0.0, 23.0, 0.0]);
    // bilinear: T is bilinear in (x_B, y_B), so a fetch gives 10·y_B + x_B (weights on
    // 1/256 steps); at the edges the clamped neighbour repeats the edge texel
    let t = f32_texture(g, &grid43(), &[4, 3], ln, clamp, false);
    let got = fetch2d(
        g,
        m,
        t,
        &[
            (1.5, 1.5),
            (1.0, 0.5),
            (1.25, 1.75),
            (1.0 + 1.0 / 1024.0, 0.5),
            (0.25, 0.5),
            (4.0, 0.5),
            (3.5, 3.0),
        ],
    );
    // (1.0 + 1/1024): α = 0.5 + 1/1024 held in 8 fractional bits is 0.5
    assert_eq!(got, [11.0, 0.5, 13.25, 0.5, 0.0, 3.0, 23.0]);
    // bilinear with border: half the footprint outside reads half zero
    let t = f32_texture(g, &grid43(), &[4, 3], ln, border, false);
    let got = fetch2d(g, m, t, &[(4.0, 0.5), (0.0, 0.5)]);
    assert_eq!(got, [1.5, 0.0]);
}

fn check_1d_normalized(m: &Module) {
    let mut gpu = Emulator::new();
    let g = &mut gpu;
    let v: Vec<f32> = (0..8).map(|i| i as f32).collect();
    let pt = TexFilter::Point;
    let xs = [
        0.5 / 8.0,
        1.0 + 0.5 / 8.0,
        -0.5 / 8.0,
        2.0 - 0.5 / 8.0,
        0.75,
    ];
    let t = f32_texture(g, &v, &[8], pt, TexAddress::Wrap, true);
    assert_eq!(fetch1d(g, m, t, &xs), [0.0, 0.0, 7.0, 7.0, 6.0]);
    let t = f32_texture(g, &v, &[8], pt, TexAddress::Mirror, true);
    assert_eq!(fetch1d(g, m, t, &xs), [0.0, 7.0, 0.0, 0.0, 6.0]);
    let t = f32_texture(g, &v, &[8], pt, TexAddress::Clamp, true);
    assert_eq!(fetch1d(g, m, t, &xs), [0.0, 7.0, 0.0, 7.0, 6.0]);
    // linear, unnormalised: between texels 2 and 3 at a quarter
    let t = f32_texture(g, &v, &[8], TexFilter::Linear, TexAddress::Clamp, false);
    assert_eq!(
        fetch1d(g, m, t, &[2.75, 3.5, 0.0, 9.0]),
        [2.25, 3.0, 0.0, 7.0]
    );
}

fn check_channels_3d_int(m: &Module) {
    let mut gpu = Emulator::new();
    let g = &mut gpu;
    let u = ParamValue::U64;
    // four channels: texel (x, y) = (x, y, 100 + x, 200 + y)
    let mut v = Vec::new();
    for y in 0..2 {
        for x in 0..2 {
            v.extend([x as f32, y as f32, (100 + x) as f32, (200 + y) as f32]);
        }
    }
    let bits: Vec<u32> = v.iter().map(|x| x.to_bits()).collect();
    let f4 = |g: &mut Emulator, t: u64, x: f32, y: f32| {
        let (px, py, out) = (upf(g, &[x]), upf(g, &[y]), up(g, &[0; 4]));
        let args = vec![u(t), u(px), u(py), u(out), ParamValue::S32(1)];
        launch(g, m, "fetch2d4", 1, args).unwrap();
        down(g, out, 4)
            .into_iter()
            .map(f32::from_bits)
            .collect::<Vec<_>>()
    };
    let (pt, clamp) = (TexFilter::Point, TexAddress::Clamp);
    let t4 = texture(g, &bits, &[2, 2], 4, TexFormat::F32, pt, clamp, false).unwrap();
    assert_eq!(f4(g, t4, 1.5, 0.5), [1.0, 0.0, 101.0, 200.0]);
    assert_eq!(f4(g, t4, 0.5, 1.5), [0.0, 1.0, 100.0, 201.0]);
    // one channel: the missing ones read (0, 0, 1)
    let t1 = f32_texture(g, &[7.0, 8.0, 9.0, 10.0], &[2, 2], pt, clamp, false);
    assert_eq!(f4(g, t1, 1.5, 1.5), [10.0, 0.0, 0.0, 1.0]);
    // 3-D, T[z][y][x] = 100z + 10y + x: point at centres, trilinear at the middle
    let v3: Vec<f32> = (0..8)
        .map(|i| (100 * (i / 4) + 10 * (i / 2 % 2) + i % 2) as f32)
        .collect();
    let f3 = |g: &mut Emulator, t: u64, p: [f32; 3]| {
        let (x, y, z) = (upf(g, &[p[0]]), upf(g, &[p[1]]), upf(g, &[p[2]]));
        let out = up(g, &[0]);
        let args = vec![u(t), u(x), u(y), u(z), u(out), ParamValue::S32(1)];
        launch(g, m, "fetch3d", 1, args).unwrap();
        f32::from_bits(down(g, out, 1)[0])
    };
    let t = f32_texture(g, &v3, &[2, 2, 2], pt, clamp, false);
    assert_eq!(f3(g, t, [1.5, 0.5, 1.5]), 101.0);
    assert_eq!(f3(g, t, [0.5, 1.5, 1.5]), 110.0);
    let t = f32_texture(g, &v3, &[2, 2, 2], TexFilter::Linear, clamp, false);
    assert_eq!(f3(g, t, [1.0, 1.0, 1.0]), 55.5);
    // tex1Dfetch of int texels: i² − 7, indices inside and outside
    let vi: Vec<u32> = (0..10).map(|i: i32| (i * i - 7) as u32).collect();
    let fetch = |g: &mut Emulator, t: u64, idx: &[i32]| {
        let n = idx.len();
        let p = up(g, &idx.iter().map(|&i| i as u32).collect::<Vec<_>>());
        let out = up(g, &vec![0; n]);
        launch(
            g,
            m,
            "fetch1d_int",
            n,
            vec![u(t), u(p), u(out), ParamValue::S32(n as i32)],
        )
        .unwrap();
        down(g, out, n)
            .into_iter()
            .map(|x| x as i32)
            .collect::<Vec<_>>()
    };
    let idx = [3, 0, 9, -1, 10, 1000];
    let tb = texture(
        g,
        &vi,
        &[10],
        1,
        TexFormat::S32,
        pt,
        TexAddress::Border,
        false,
    )
    .unwrap();
    assert_eq!(fetch(g, tb, &idx), [2, -7, 74, 0, 0, 0]);
    let tc = texture(g, &vi, &[10], 1, TexFormat::S32, pt, clamp, false).unwrap();
    assert_eq!(fetch(g, tc, &idx), [2, -7, 74, -7, 74, 74]);
}

fn check_errors(m: &Module) {
    let mut gpu = Emulator::new();
    let g = &mut gpu;
    let u = ParamValue::U64;
    let (pt, clamp) = (TexFilter::Point, TexAddress::Clamp);
    let one_d = f32_texture(g, &[1.0; 8], &[8], pt, clamp, false);
    let ints = texture(g, &[1; 8], &[8], 1, TexFormat::S32, pt, clamp, false).unwrap();
    let (x, out) = (upf(g, &[0.5]), up(g, &[0]));
    let e = launch(
        g,
        m,
        "fetch1d",
        1,
        vec![u(0), u(x), u(out), ParamValue::S32(1)],
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("lane 0: 0x0 is not the handle of a texture object (2 created: handles 1..=2)"),
        "{e}"
    );
    let args = vec![u(one_d), u(x), u(x), u(out), ParamValue::S32(1)];
    let e = launch(g, m, "fetch2d", 1, args).unwrap_err().to_string();
    assert!(
        e.contains("a tex.2d fetch from texture object 1, which has 1 dimensions"),
        "{e}"
    );
    assert!(e.contains("texture.ptx"), "the error names the source: {e}");
    let e = launch(
        g,
        m,
        "fetch1d",
        1,
        vec![u(ints), u(x), u(out), ParamValue::S32(1)],
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("a tex .f32 result from texture object 2 of S32 texels"),
        "{e}"
    );
    // sampler state CUDA refuses, and a texture beyond device memory
    let e = texture(
        g,
        &[1; 8],
        &[8],
        1,
        TexFormat::S32,
        TexFilter::Linear,
        clamp,
        false,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("linear filtering needs float texels"), "{e}");
    let e = texture(
        g,
        &[1; 8],
        &[8],
        1,
        TexFormat::F32,
        pt,
        TexAddress::Wrap,
        false,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("wrap addressing needs normalized coordinates"),
        "{e}"
    );
    let e = texture(g, &[1; 8], &[8, 8], 1, TexFormat::F32, pt, clamp, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("outside allocated global memory"), "{e}");
    let e = texture(g, &[1; 8], &[8], 3, TexFormat::F32, pt, clamp, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("3 channels; a texel has 1, 2 or 4"), "{e}");
}

fn check_all(m: &Module) {
    check_2d(m);
    check_1d_normalized(m);
    check_channels_3d_int(m);
    check_errors(m);
}

#[test]
fn texture_fetches_follow_the_cuda_fetch_rules() {
    check_all(&committed());
}

/// The texture operand may name the kernel parameter that holds the object (the PTX ISA's
/// `[tex_param, {c}]` form) as well as a register loaded from it.
#[test]
fn a_texture_parameter_is_a_texture_operand() {
    let text = ".version 7.0\n.target sm_75\n.address_size 64\n\
        .visible .entry k(.param .u64 t, .param .u64 out)\n{\n\
        .reg .f32 %f<6>;\n.reg .b64 %rd<3>;\n\
        mov.f32 %f1, 0f40200000;\nmov.f32 %f2, 0f3FC00000;\n\
        tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f0}, [t, {%f1, %f2}];\n\
        ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\n\
        st.global.f32 [%rd2], %f3;\nst.global.f32 [%rd2+4], %f0;\nret;\n}\n";
    let m = Module::parse(text, "param.ptx").unwrap();
    let mut gpu = Emulator::new();
    let g = &mut gpu;
    let t = f32_texture(
        g,
        &grid43(),
        &[4, 3],
        TexFilter::Point,
        TexAddress::Clamp,
        false,
    );
    let out = up(g, &[0, 0]);
    g.launch(&Launch {
        kernel: m.load("k").unwrap(),
        grid: [1, 1, 1],
        block: [1, 1, 1],
        params: vec![ParamValue::U64(t), ParamValue::U64(out)],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap();
    // (2.5, 1.5): texel (2, 1) = 12; the fourth channel of a one-channel texel is 1
    let got: Vec<f32> = down(g, out, 2).into_iter().map(f32::from_bits).collect();
    assert_eq!(got, [12.0, 1.0]);
}

#[test]
fn nvcc_recompiles_texture() {
    let Some(text) = common::nvcc_ptx_arch(&dir().join("texture.cu"), "sm_75") else {
        return;
    };
    check_all(&Module::parse(&text, "texture.ptx (nvcc)").unwrap());
}

/// `fetch2d` over a 256 × 256 texture, one fetch per thread on a diagonal-ish walk, on the
/// timing model of `preset`; the activity and the values read.
fn timed(preset: &str, m: &Module) -> (Activity, Vec<f32>) {
    let cfg = GpuConfig::preset(preset).unwrap();
    let mut gpu = Simulation::new(&cfg).gpu().unwrap();
    let w = 256u32;
    let v: Vec<f32> = (0..w * w).map(|i| i as f32).collect();
    let t = f32_texture(
        &mut gpu,
        &v,
        &[w, w],
        TexFilter::Point,
        TexAddress::Clamp,
        false,
    );
    let xy: Vec<(f32, f32)> = (0..4096u32)
        .map(|i| ((i % w) as f32 + 0.5, (i / w * 3 % w) as f32 + 0.5))
        .collect();
    let got = fetch2d(&mut gpu, m, t, &xy);
    (gpu.activity().clone(), got)
}

#[test]
fn the_timing_model_reads_texels_through_the_texture_cache_or_the_unified_l1() {
    let m = committed();
    let want: Vec<f32> = (0..4096u32)
        .map(|i| ((i / 256 * 3 % 256) * 256 + i % 256) as f32)
        .collect();
    let sum = |a: &Activity, f: &dyn Fn(&sim::activity::SmActivity) -> u64| -> u64 {
        a.kernels.iter().flat_map(|k| &k.sms).map(f).sum()
    };
    // gtx1080ti: a texture cache of its own; one lookup per 128-byte line of each warp's texels
    let (a, got) = timed("gtx1080ti", &m);
    assert_eq!(got, want);
    let reads = sum(&a, &|s| s.tex_cache.reads);
    assert_eq!(reads, 4096 / 32, "32 consecutive f32 texels are one line");
    assert_eq!(sum(&a, &|s| s.tex_cache.misses), reads, "every line once");
    // v100: a unified L1 and no texture cache: the texels are L1D reads
    let (a, got) = timed("v100", &m);
    assert_eq!(got, want);
    assert_eq!(sum(&a, &|s| s.tex_cache.reads), 0);
    let l1 = sum(&a, &|s| {
        s.l1d.read.hit + s.l1d.read.miss + s.l1d.read.hit_reserved
    });
    // the other loads of fetch2d (x, y: 4 sectors a warp each) and the texels (4 sectors)
    assert_eq!(l1, 3 * 4 * (4096 / 32), "texel sectors through the L1D");
}
