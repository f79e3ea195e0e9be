//! The project's own CUDA kernels (`sim/tests/cuda/*.cu`), compiled by nvcc for sm_75 at -O3,
//! run on the functional emulator and checked against CPU references: warp shuffles, votes,
//! match and cooperative-groups aggregation, double precision, half-precision conversions, bit
//! manipulation, a structure passed by value, atomics beyond add, a shared-memory stencil, a
//! device function with a local array, a multi-kernel iterative solver, and (`services.cu`)
//! barriers with a reduction, `half2` arithmetic, 128-bit integer sums, device `printf` and
//! device `malloc`/`free`.
//!
//! The PTX nvcc produced is committed beside each source, so these tests run where nvcc is
//! absent. `nvcc_recompiles_sources` compiles the sources afresh with the nvcc the project's
//! search finds (`src/program/nvcc_find.rs`) and runs every check
//! on that PTX too; without nvcc it is reported as ignored, and with `CI` set it fails.

mod common;
use common::data;
use common::{down_u32, up};
use sim::emu::Emulator;
use sim::ptx::Module;
use sim::{Gpu, Launch, ParamValue};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda")
}

/// The modules' PTX, by file stem.
struct Ptx {
    warp: Module,
    numeric: Module,
    solver: Module,
    services: Module,
}

fn committed() -> Ptx {
    let load = |n: &str| {
        let p = dir().join(format!("{n}.ptx"));
        let text = std::fs::read_to_string(&p).unwrap();
        Module::parse(&text, &p.display().to_string()).unwrap()
    };
    Ptx {
        warp: load("warp"),
        numeric: load("numeric"),
        solver: load("solver"),
        services: load("services"),
    }
}

fn down_f32(gpu: &mut Emulator, p: u64, n: usize) -> Vec<f32> {
    down_u32(gpu, p, n)
        .into_iter()
        .map(f32::from_bits)
        .collect()
}

fn down_f64(gpu: &mut Emulator, p: u64, n: usize) -> Vec<f64> {
    let mut b = vec![0u8; n * 8];
    gpu.copy_from_device(p, &mut b).unwrap();
    b.chunks(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn go(gpu: &mut Emulator, m: &Module, k: &str, grid: u32, block: u32, p: Vec<ParamValue>) {
    gpu.launch(&Launch {
        kernel: m.load(k).unwrap(),
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        params: p,
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap_or_else(|e| panic!("{k}: {e}"));
}

fn check_warp(m: &Module) {
    let mut gpu = Emulator::new();
    let u = |x: u64| ParamValue::U64(x);
    // reduce_shfl: 1000 values, 4 CTAs of 256
    let n = 1000usize;
    let xs: Vec<f32> = data(n, 1)
        .iter()
        .map(|&v| (v % 100) as f32 * 0.25)
        .collect();
    let (pi, po) = (up(&mut gpu, &xs), up(&mut gpu, &[0.0f32]));
    go(
        &mut gpu,
        m,
        "reduce_shfl",
        4,
        256,
        vec![u(pi), u(po), ParamValue::U32(n as u32)],
    );
    let want: f32 = xs.iter().sum();
    let got = down_f32(&mut gpu, po, 1)[0];
    assert!(
        (got - want).abs() <= 1e-3 * want,
        "reduce_shfl {got} vs {want}"
    );
    // scan_shfl
    let xi: Vec<i32> = data(n, 2).iter().map(|&v| (v % 19) as i32 - 9).collect();
    let (pi, po) = (up(&mut gpu, &xi), up(&mut gpu, &vec![0i32; n]));
    go(
        &mut gpu,
        m,
        "scan_shfl",
        4,
        256,
        vec![u(pi), u(po), ParamValue::U32(n as u32)],
    );
    let got = down_u32(&mut gpu, po, n);
    for w in 0..n.div_ceil(32) {
        let mut acc = 0i32;
        for i in w * 32..(w * 32 + 32).min(n) {
            acc += xi[i];
            assert_eq!(got[i] as i32, acc, "scan_shfl at {i}");
        }
    }
    // xor_bcast: 16-lane groups
    let (pi, pm, pb) = (
        up(&mut gpu, &xi),
        up(&mut gpu, &vec![0i32; n]),
        up(&mut gpu, &vec![0i32; n]),
    );
    go(
        &mut gpu,
        m,
        "xor_bcast",
        4,
        256,
        vec![u(pi), u(pm), u(pb), ParamValue::U32(n as u32)],
    );
    let (gm, gb) = (down_u32(&mut gpu, pm, n), down_u32(&mut gpu, pb, n));
    for i in 0..n {
        let g = i / 16 * 16;
        let want_max = (g..g + 16)
            .map(|j| if j < n { xi[j] } else { -2147483647 })
            .max()
            .unwrap();
        let want_b = if g + 3 < n { xi[g + 3] } else { -2147483647 };
        assert_eq!(
            (gm[i] as i32, gb[i] as i32),
            (want_max, want_b),
            "xor_bcast at {i}"
        );
    }
    // votes over 8 warps
    let vi: Vec<i32> = data(256, 3).iter().map(|&v| (v % 50) as i32).collect();
    let pi = up(&mut gpu, &vi);
    let (pb, pa, pl) = (
        up(&mut gpu, &[0u32; 8]),
        up(&mut gpu, &[0i32; 8]),
        up(&mut gpu, &[0i32; 8]),
    );
    go(
        &mut gpu,
        m,
        "votes",
        1,
        256,
        vec![u(pi), u(pb), u(pa), u(pl), ParamValue::U32(3)],
    );
    let (b, a, l) = (
        down_u32(&mut gpu, pb, 8),
        down_u32(&mut gpu, pa, 8),
        down_u32(&mut gpu, pl, 8),
    );
    for w in 0..8 {
        let lanes = &vi[w * 32..w * 32 + 32];
        let ballot = lanes
            .iter()
            .enumerate()
            .fold(0u32, |m, (k, v)| m | (((v & 1) as u32) << k));
        assert_eq!(b[w], ballot, "ballot of warp {w}");
        assert_eq!(a[w] != 0, lanes.iter().any(|&v| v > 3));
        assert_eq!(l[w] != 0, lanes.iter().all(|&v| v > 3));
    }
    // filter_positive (cooperative groups): the multiset of positives, and their count
    let pi = up(&mut gpu, &xi);
    let (po, pc) = (up(&mut gpu, &vec![0i32; n]), up(&mut gpu, &[0i32]));
    go(
        &mut gpu,
        m,
        "filter_positive",
        4,
        256,
        vec![u(pi), u(po), u(pc), ParamValue::U32(n as u32)],
    );
    let cnt = down_u32(&mut gpu, pc, 1)[0] as usize;
    let mut got: Vec<i32> = down_u32(&mut gpu, po, cnt)
        .into_iter()
        .map(|v| v as i32)
        .collect();
    let mut want: Vec<i32> = xi.iter().copied().filter(|&v| v > 0).collect();
    got.sort();
    want.sort();
    assert_eq!(got, want, "filter_positive");
    // match_keys and the active mask of a divergent branch
    let keys: Vec<i32> = data(64, 4).iter().map(|&v| (v % 6) as i32).collect();
    let pk = up(&mut gpu, &keys);
    let (pp, pa) = (up(&mut gpu, &[0i32; 64]), up(&mut gpu, &[0u32; 64]));
    go(&mut gpu, m, "match_keys", 1, 64, vec![u(pk), u(pp), u(pa)]);
    let (peers, act) = (down_u32(&mut gpu, pp, 64), down_u32(&mut gpu, pa, 64));
    for i in 0..64 {
        let w = i / 32 * 32;
        let same = (w..w + 32).filter(|&j| keys[j] == keys[i]).count() as u32;
        assert_eq!(peers[i], same, "match_keys peers at {i}");
        let mask = (w..w + 32)
            .filter(|&j| keys[j] % 3 == 0)
            .fold(0u32, |m, j| m | 1 << (j - w));
        assert_eq!(
            act[i],
            if keys[i] % 3 == 0 { mask } else { 0 },
            "activemask at {i}"
        );
    }
}

fn check_numeric(m: &Module) {
    let mut gpu = Emulator::new();
    let u = |x: u64| ParamValue::U64(x);
    let n = 300usize;
    // f64_math
    let x: Vec<f64> = data(n, 5)
        .iter()
        .map(|&v| (v % 10_000) as f64 * 0.37)
        .collect();
    let (px, py) = (up(&mut gpu, &x), up(&mut gpu, &vec![0f64; n]));
    go(
        &mut gpu,
        m,
        "f64_math",
        3,
        128,
        vec![u(px), u(py), ParamValue::U32(n as u32)],
    );
    let y = down_f64(&mut gpu, py, n);
    for i in 0..n {
        let want = x[i].sqrt() / (x[i] + 1.0) + x[i].mul_add(0.5, -0.25);
        assert_eq!(
            y[i].to_bits(),
            want.to_bits(),
            "f64_math at {i}: {} vs {want}",
            y[i]
        );
    }
    // f16_convert: round to nearest even, then doubled in f32
    let xf: Vec<f32> = data(n, 6)
        .iter()
        .map(|&v| ((v % 200_001) as f32 - 100_000.0) * 1e-3)
        .collect();
    let (px, py, ph) = (
        up(&mut gpu, &xf),
        up(&mut gpu, &vec![0f32; n]),
        up(&mut gpu, &vec![0u16; n]),
    );
    go(
        &mut gpu,
        m,
        "f16_convert",
        3,
        128,
        vec![u(px), u(py), u(ph), ParamValue::U32(n as u32)],
    );
    let yf = down_f32(&mut gpu, py, n);
    let mut hb = vec![0u8; n * 2];
    gpu.copy_from_device(ph, &mut hb).unwrap();
    for i in 0..n {
        let h = u16::from_le_bytes([hb[2 * i], hb[2 * i + 1]]);
        let want_h = sim::emu::cvt::f64_to_f16(xf[i] as f64, sim::ptx::isa::Rnd::Rn);
        assert_eq!(h, want_h, "f16 bits at {i} ({})", xf[i]);
        let back = sim::emu::cvt::f16_to_f64(h) as f32;
        assert_eq!(yf[i], back * 2.0, "f16_convert at {i}");
        assert!(
            (back - xf[i]).abs() <= xf[i].abs() * 1e-3 + 1e-7,
            "{back} vs {}",
            xf[i]
        );
    }
    // bitops
    let v = data(n, 7);
    let (px, po) = (up(&mut gpu, &v), up(&mut gpu, &vec![0u32; 6 * n]));
    go(
        &mut gpu,
        m,
        "bitops",
        3,
        128,
        vec![u(px), u(po), ParamValue::U32(n as u32)],
    );
    let o = down_u32(&mut gpu, po, 6 * n);
    for i in 0..n {
        let x = v[i];
        let perm = {
            // __byte_perm(x, y, s): bytes of {y:x}, selector nibbles
            let b = (x as u64) | (0x0123_4567u64 << 32);
            [0x0u32, 4, 1, 5]
                .iter()
                .enumerate()
                .fold(0u32, |r, (k, &s)| {
                    r | ((((b >> (8 * s)) & 0xff) as u32) << (8 * k))
                })
        };
        let fsl = (((0xdead_beefu64 << 32) | x as u64) << (i & 31) >> 32) as u32;
        let want = [
            x.reverse_bits(),
            x.leading_zeros(),
            if x == 0 { 0 } else { x.trailing_zeros() + 1 },
            perm,
            fsl,
            (x >> (i % 20)) & 0x3ff,
        ];
        assert_eq!(&o[6 * i..6 * i + 6], &want, "bitops at {i} (x = {x:#x})");
    }
    // affine: struct { float scale; int offset; double bias; } by value (16 bytes)
    let mut s = Vec::new();
    s.extend_from_slice(&1.5f32.to_le_bytes());
    s.extend_from_slice(&(-7i32).to_le_bytes());
    s.extend_from_slice(&0.125f64.to_le_bytes());
    let (px, py) = (up(&mut gpu, &xf), up(&mut gpu, &vec![0f64; n]));
    go(
        &mut gpu,
        m,
        "affine",
        3,
        128,
        vec![
            ParamValue::Bytes(s),
            u(px),
            u(py),
            ParamValue::U32(n as u32),
        ],
    );
    let y = down_f64(&mut gpu, py, n);
    for i in 0..n {
        // nvcc contracts x * scale + offset into one fma.rn.f32 (-fmad=true, its default)
        let want = xf[i].mul_add(1.5, -7.0) as f64 + 0.125;
        assert_eq!(y[i], want, "affine at {i}");
    }
    // atomics_mix
    let v = data(n, 8);
    let g0 = [0u32, 0, u32::MAX, 5, 0, u32::MAX, 0];
    let (px, pg) = (up(&mut gpu, &v), up(&mut gpu, &g0));
    go(
        &mut gpu,
        m,
        "atomics_mix",
        3,
        128,
        vec![u(px), u(pg), ParamValue::U32(n as u32)],
    );
    let g = down_u32(&mut gpu, pg, 7);
    let or = v.iter().fold(0, |a, x| a | x);
    let and = v.iter().fold(u32::MAX, |a, x| a & (x | 0x0f0f_0f0f));
    let xor = v
        .chunks(128)
        .fold(0, |a, c| a ^ c.iter().fold(0, |b, x| b ^ x));
    assert_eq!(g[0], n as u32, "atomicInc count");
    assert_eq!(g[1], *v.iter().max().unwrap());
    assert_eq!(g[2], *v.iter().min().unwrap());
    assert_eq!(g[3], 5 + v.iter().map(|x| x & 7).sum::<u32>(), "CAS loop");
    assert_eq!((g[4], g[5], g[6]), (or, and, xor));
}

fn check_solver(m: &Module) {
    let mut gpu = Emulator::new();
    let u = |x: u64| ParamValue::U64(x);
    let n = 500usize;
    // stencil with dynamic shared memory (block + 2 halo floats)
    let x: Vec<f32> = data(n, 9)
        .iter()
        .map(|&v| (v % 1000) as f32 * 0.01)
        .collect();
    let (pi, po) = (up(&mut gpu, &x), up(&mut gpu, &vec![0f32; n]));
    gpu.launch(&Launch {
        kernel: m.load("stencil_shared").unwrap(),
        grid: [4, 1, 1],
        block: [128, 1, 1],
        params: vec![u(pi), u(po), ParamValue::U32(n as u32)],
        shared_bytes: 130 * 4,
        cooperative: false,
    })
    .unwrap();
    let y = down_f32(&mut gpu, po, n);
    for i in 0..n {
        let l = if i > 0 { x[i - 1] } else { 0.0 };
        let r = if i + 1 < n { x[i + 1] } else { 0.0 };
        assert_eq!(y[i], 0.25 * l + 0.5 * x[i] + 0.25 * r, "stencil at {i}");
    }
    // local_digits: a device function with a run-time indexed local array
    let v = data(n, 10);
    let (pi, po) = (up(&mut gpu, &v), up(&mut gpu, &vec![0i32; n]));
    go(
        &mut gpu,
        m,
        "local_digits",
        4,
        128,
        vec![u(pi), u(po), ParamValue::U32(n as u32)],
    );
    let y = down_u32(&mut gpu, po, n);
    for i in 0..n {
        let base = 3 + (i % 5) as u32;
        let (mut d, mut t) = (Vec::new(), v[i]);
        loop {
            d.push(t % base);
            t /= base;
            if t == 0 || d.len() == 32 {
                break;
            }
        }
        let want: u32 = d.iter().enumerate().map(|(j, &x)| x * (j as u32 + 1)).sum();
        assert_eq!(y[i], want, "local_digits at {i}");
    }
    // Jacobi: 200 sweeps of -u'' = 1 on 256 points, the residual change each 50
    let n = 256usize;
    let h = 1.0f32 / (n as f32 + 1.0);
    let f = vec![1.0f32; n];
    let (mut pu, mut pv, pf) = (
        up(&mut gpu, &vec![0f32; n]),
        up(&mut gpu, &vec![0f32; n]),
        up(&mut gpu, &f),
    );
    let (mut cu, mut cv) = (vec![0f32; n], vec![0f32; n]);
    for it in 0..200 {
        go(
            &mut gpu,
            m,
            "jacobi_sweep",
            2,
            128,
            vec![
                u(pu),
                u(pv),
                u(pf),
                ParamValue::F32(h * h),
                ParamValue::U32(n as u32),
            ],
        );
        for i in 0..n {
            let l = if i > 0 { cu[i - 1] } else { 0.0 };
            let r = if i + 1 < n { cu[i + 1] } else { 0.0 };
            cv[i] = 0.5 * (l + r + h * h * f[i]);
        }
        if it % 50 == 49 {
            let acc = up(&mut gpu, &[0f32]);
            go(
                &mut gpu,
                m,
                "jacobi_delta",
                2,
                256,
                vec![u(pv), u(pu), u(acc), ParamValue::U32(n as u32)],
            );
            let got = down_f32(&mut gpu, acc, 1)[0];
            let want: f32 = cv.iter().zip(&cu).map(|(a, b)| (a - b) * (a - b)).sum();
            assert!(
                (got - want).abs() <= 1e-4 * want.abs() + 1e-12,
                "delta {got} vs {want}"
            );
        }
        std::mem::swap(&mut pu, &mut pv);
        std::mem::swap(&mut cu, &mut cv);
    }
    assert_eq!(
        down_f32(&mut gpu, pu, n),
        cu,
        "Jacobi iterate after 200 sweeps"
    );
}

#[test]
fn warp_level_kernels_match_cpu_reference() {
    check_warp(&committed().warp);
}

#[test]
fn numeric_kernels_match_cpu_reference() {
    check_numeric(&committed().numeric);
}

#[test]
fn solver_kernels_match_cpu_reference() {
    check_solver(&committed().solver);
}

/// IEEE binary16 bits of `x` by round-to-nearest-even (f32 → f16; the test's own model).
fn to_half(x: f32) -> u16 {
    if x.is_nan() {
        return 0x7fff;
    }
    let sign = ((x.to_bits() >> 16) & 0x8000) as u16;
    let a = x.abs() as f64;
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    let e = if a < 2f64.powi(-14) {
        -24
    } else {
        a.log2().floor() as i32 - 10
    };
    let v = (a / 2f64.powi(e)).round_ties_even() * 2f64.powi(e);
    let h = if v < 2f64.powi(-14) {
        (v / 2f64.powi(-24)) as u16
    } else {
        let ex = v.log2().floor() as i32;
        (((ex + 15) as u16) << 10) | ((v / 2f64.powi(ex) - 1.0) * 1024.0) as u16
    };
    sign | h
}

fn from_half(h: u16) -> f32 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let (e, m) = (((h >> 10) & 31) as i32, (h & 0x3ff) as f32);
    s * match e {
        0 => m * 2f32.powi(-24),
        31 if m == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + m / 1024.0) * 2f32.powi(e - 15),
    }
}

fn check_services(m: &Module) {
    let mut gpu = Emulator::new();
    let u = |x: u64| ParamValue::U64(x);
    // barrier_reduce: 3 CTAs of 128 over 300 values (the last CTA partly past n)
    let n = 300usize;
    let xs: Vec<i32> = data(n, 7).iter().map(|&v| (v % 1000) as i32 - 20).collect();
    let (px, po) = (up(&mut gpu, &xs), up(&mut gpu, &[0i32; 9]));
    go(
        &mut gpu,
        m,
        "barrier_reduce",
        3,
        128,
        vec![u(px), u(po), ParamValue::U32(n as u32)],
    );
    let got = down_u32(&mut gpu, po, 9);
    for c in 0..3usize {
        let v: Vec<i32> = (c * 128..c * 128 + 128)
            .map(|i| if i < n { xs[i] } else { 0 })
            .collect();
        let want = [
            v.iter().filter(|x| *x & 1 == 1).count() as u32,
            v.iter().all(|x| *x >= 0) as u32,
            v.iter().any(|x| *x < 0) as u32,
        ];
        assert_eq!(&got[3 * c..3 * c + 3], &want, "barrier_reduce CTA {c}");
    }
    // half2_axpy: y = (a*x + y) * x + a per half, each operation rounded to f16
    let n = 200usize;
    let hx: Vec<u16> = data(2 * n, 8)
        .iter()
        .map(|&v| to_half((v % 2001) as f32 / 500.0 - 2.0))
        .collect();
    let hy: Vec<u16> = data(2 * n, 9)
        .iter()
        .map(|&v| to_half((v % 1001) as f32 / 100.0 - 5.0))
        .collect();
    let a = [to_half(1.75), to_half(-0.3125)];
    let (px, py) = (up(&mut gpu, &hx), up(&mut gpu, &hy));
    let pa = a[0] as u32 | (a[1] as u32) << 16;
    go(
        &mut gpu,
        m,
        "half2_axpy",
        2,
        128,
        vec![
            u(px),
            u(py),
            ParamValue::Bytes(pa.to_le_bytes().to_vec()),
            ParamValue::U32(n as u32),
        ],
    );
    let got = down_u32(&mut gpu, py, n);
    for i in 0..n {
        for k in 0..2 {
            let (x, y, al) = (
                from_half(hx[2 * i + k]),
                from_half(hy[2 * i + k]),
                from_half(a[k]),
            );
            // a*x + y: the product is exact in f64 and the sum has at most 53 bits here
            let t = from_half(to_half((al as f64 * x as f64 + y as f64) as f32));
            let p = from_half(to_half(t * x));
            let want = to_half(p + al);
            assert_eq!((got[i] >> (16 * k)) as u16, want, "half2_axpy {i}.{k}");
        }
    }
    // add128
    let n = 100usize;
    let wa: Vec<u64> = data(4 * n, 10)
        .chunks(2)
        .map(|c| (c[0] as u64) << 32 | c[1] as u64)
        .collect();
    let wb: Vec<u64> = data(4 * n, 11)
        .chunks(2)
        .map(|c| (c[0] as u64) << 32 | c[1] as u64)
        .collect();
    let (pa, pb, po) = (
        up(&mut gpu, &wa),
        up(&mut gpu, &wb),
        up(&mut gpu, &vec![0u64; 2 * n]),
    );
    go(
        &mut gpu,
        m,
        "add128",
        1,
        128,
        vec![u(pa), u(pb), u(po), ParamValue::U32(n as u32)],
    );
    let mut b = vec![0u8; 16 * n];
    gpu.copy_from_device(po, &mut b).unwrap();
    for i in 0..n {
        let x = (wa[2 * i + 1] as u128) << 64 | wa[2 * i] as u128;
        let y = (wb[2 * i + 1] as u128) << 64 | wb[2 * i] as u128;
        let got = u128::from_le_bytes(b[16 * i..16 * i + 16].try_into().unwrap());
        assert_eq!(got, x.wrapping_add(y), "add128 {i}");
    }
    // table_lookup
    let n = 64usize;
    let t: Vec<u8> = (0..16i32).flat_map(|k| (k * k - 7).to_le_bytes()).collect();
    let idx: Vec<i32> = data(n, 12).iter().map(|&v| (v & 0xff) as i32).collect();
    let (pi, po) = (up(&mut gpu, &idx), up(&mut gpu, &vec![0i32; n]));
    go(
        &mut gpu,
        m,
        "table_lookup",
        1,
        64,
        vec![
            ParamValue::Bytes(t),
            u(pi),
            u(po),
            ParamValue::U32(n as u32),
        ],
    );
    let got = down_u32(&mut gpu, po, n);
    let tv = |k: i32| k * k - 7;
    for i in 0..n {
        assert_eq!(
            got[i] as i32,
            tv(idx[i] & 15) + tv((idx[i] >> 4) & 15),
            "table_lookup {i}"
        );
    }
    // hello: one line per thread, ordered by CTA then thread
    go(
        &mut gpu,
        m,
        "hello",
        2,
        40,
        vec![ParamValue::U32(7), ParamValue::F32(0.5)],
    );
    let lines = gpu.take_printf_output();
    let want: Vec<String> = (0..2)
        .flat_map(|c| {
            (0..40).map(move |t| format!("cta {c} thread {t} tag 7 x {:.3}\n", 0.5 * t as f64))
        })
        .collect();
    assert_eq!(lines, want);
    // heap_sum
    let n = 500usize;
    let po = up(&mut gpu, &vec![0i32; n]);
    go(
        &mut gpu,
        m,
        "heap_sum",
        4,
        128,
        vec![u(po), ParamValue::U32(n as u32)],
    );
    let got = down_u32(&mut gpu, po, n);
    for (i, g) in got.iter().enumerate() {
        let len = 1 + i % 7;
        let want: usize = (0..len).map(|k| i * k).sum();
        assert_eq!(*g as usize, want, "heap_sum {i}");
    }
}

#[test]
fn service_kernels_match_cpu_reference() {
    check_services(&committed().services);
}

#[test]
fn every_committed_kernel_is_accepted() {
    let p = committed();
    let mut n = 0;
    for m in [&p.warp, &p.numeric, &p.solver, &p.services] {
        assert!(m.refused().is_empty(), "{:?}", m.refused());
        n += m.kernel_names().len();
    }
    assert!(n >= 12, "{n} kernels");
}

#[test]
fn nvcc_recompiles_sources() {
    let Some(nvcc) = common::nvcc_find::find() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "nvcc not found under CI (pip install nvidia-cuda-nvcc nvidia-cuda-cccl)"
        );
        eprintln!("ignored: nvcc not found (pip install nvidia-cuda-nvcc nvidia-cuda-cccl)");
        return;
    };
    let tmp = std::env::temp_dir().join(format!("gpuenergy-cuda-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let compile = |n: &str| {
        let out = tmp.join(format!("{n}.ptx"));
        let st = std::process::Command::new(&nvcc)
            .args(["-ptx", "-O3", "-arch=sm_75", "-o"])
            .arg(&out)
            .arg(dir().join(format!("{n}.cu")))
            .status()
            .unwrap();
        assert!(st.success(), "nvcc failed on {n}.cu");
        let text = std::fs::read_to_string(&out).unwrap();
        Module::parse(&text, &out.display().to_string()).unwrap()
    };
    check_warp(&compile("warp"));
    check_numeric(&compile("numeric"));
    check_solver(&compile("solver"));
    check_services(&compile("services"));
    // grid-wide synchronisation, %globaltimer, cudaGraphSetConditional (checked in coop.rs)
    let coop = compile("coop");
    assert!(coop.refused().is_empty() && coop.kernel_names().len() == 3);
    let _ = std::fs::remove_dir_all(&tmp);
}
