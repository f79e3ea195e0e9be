//! Tensor-core kernels compiled by nvcc (`sim/tests/cuda/tensor.cu`, sm_80, -O3) run on the
//! functional emulator and checked bit for bit against CPU references written here that
//! compute in the emulator's stated order (`emu/tensor.rs`: each product exact, accumulated in
//! f32 by fused multiply-adds in k order, rounded to nearest even): a WMMA GEMM over several
//! k tiles with B row- and column-major and an element-wise epilogue on the fragments, an f16
//! accumulator through shared memory stored column-major, the m32n8k16 and m8n32k16 shapes, a
//! bf16 product, and `mma.sync` m16n8k16/m16n8k8 fed by `ldmatrix` and by fragments the
//! threads build by the PTX ISA's layout.
//!
//! The PTX is committed beside the source; `nvcc_recompiles_tensor` compiles the source afresh
//! when nvcc is found and runs every check on that PTX too.

mod common;
use common::{data, up};
use sim::emu::cvt::{f16_to_f64, f64_to_f16};
use sim::emu::Emulator;
use sim::ptx::isa::Rnd;
use sim::ptx::Module;
use sim::{Gpu, Launch, ParamValue};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda")
}

fn committed() -> Module {
    let p = dir().join("tensor.ptx");
    Module::parse(
        &std::fs::read_to_string(&p).unwrap(),
        &p.display().to_string(),
    )
    .unwrap()
}

/// `n` f16 values (bits) of magnitude 1/4 … 4 with random signs and mantissas.
fn halves(n: usize, seed: u32) -> Vec<u16> {
    data(n, seed)
        .into_iter()
        .map(|x| {
            let sign = ((x >> 31) as u16) << 15;
            let exp = 13 + (x >> 10) % 4; // 2^-2 .. 2^1
            sign | ((exp as u16) << 10) | (x & 0x3FF) as u16
        })
        .collect()
}

/// `n` bf16 values (bits) of magnitude 1/4 … 4.
fn bf16s(n: usize, seed: u32) -> Vec<u16> {
    data(n, seed)
        .into_iter()
        .map(|x| {
            let sign = ((x >> 31) as u16) << 15;
            let exp = 125 + (x >> 10) % 4;
            sign | ((exp as u16) << 7) | (x & 0x7F) as u16
        })
        .collect()
}

fn h(b: u16) -> f32 {
    f16_to_f64(b) as f32
}

fn bf(b: u16) -> f32 {
    f32::from_bits((b as u32) << 16)
}

/// The reference product: `acc = c`, then `acc = fma(a(i, k), b(k, j), acc)` for k in order.
fn dot(c: f32, k: usize, a: impl Fn(usize) -> f32, b: impl Fn(usize) -> f32) -> f32 {
    let mut acc = c;
    for kk in 0..k {
        acc = a(kk).mul_add(b(kk), acc);
    }
    acc
}

fn down_f32(gpu: &mut Emulator, p: u64, n: usize) -> Vec<f32> {
    common::down_u32(gpu, p, n)
        .into_iter()
        .map(f32::from_bits)
        .collect()
}

fn down_u16(gpu: &mut Emulator, p: u64, n: usize) -> Vec<u16> {
    let mut b = vec![0u8; n * 2];
    gpu.copy_from_device(p, &mut b).unwrap();
    b.chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect()
}

fn go(gpu: &mut Emulator, m: &Module, k: &str, grid: [u32; 3], block: u32, p: Vec<ParamValue>) {
    gpu.launch(&Launch {
        kernel: m.load(k).unwrap(),
        grid,
        block: [block, 1, 1],
        params: p,
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap_or_else(|e| panic!("{k}: {e}"));
}

fn bits_eq(got: &[f32], want: &[f32], what: &str) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "{what}[{i}]: {g} != {w}");
    }
    assert_eq!(got.len(), want.len());
}

fn check_gemm(m: &Module) {
    let (mm, nn, kk) = (32usize, 48usize, 64usize);
    let (alpha, beta) = (1.5f32, -0.75f32);
    for bcol in [1i32, 0] {
        let mut gpu = Emulator::new();
        let a = halves(mm * kk, 11);
        let b = halves(kk * nn, 12);
        let c0: Vec<f32> = halves(mm * nn, 13).into_iter().map(h).collect();
        let pa = up(&mut gpu, &a);
        let pb = up(&mut gpu, &b);
        let pc = up(&mut gpu, &c0);
        let u = ParamValue::U64;
        let i = ParamValue::S32;
        go(
            &mut gpu,
            m,
            "wmma_gemm",
            [1, (nn / 16) as u32, 1],
            64,
            vec![
                u(pa),
                u(pb),
                u(pc),
                i(mm as i32),
                i(nn as i32),
                i(kk as i32),
                ParamValue::F32(alpha),
                ParamValue::F32(beta),
                i(bcol),
            ],
        );
        let got = down_f32(&mut gpu, pc, mm * nn);
        let bat = |k: usize, j: usize| {
            if bcol == 1 {
                h(b[j * kk + k])
            } else {
                h(b[k * nn + j])
            }
        };
        let want: Vec<f32> = (0..mm * nn)
            .map(|x| {
                let (r, j) = (x / nn, x % nn);
                let acc = dot(0.0, kk, |k| h(a[r * kk + k]), |k| bat(k, j));
                // the epilogue as nvcc compiled it: fma(acc, alpha, beta * c)
                acc.mul_add(alpha, beta * c0[x])
            })
            .collect();
        bits_eq(&got, &want, &format!("wmma_gemm bcol={bcol}"));
    }
}

fn check_f16acc(m: &Module) {
    let mut gpu = Emulator::new();
    let a = halves(256, 21); // column-major: (r, k) at k * 16 + r
    let b = halves(256, 22); // row-major: (k, n) at k * 16 + n
    let pa = up(&mut gpu, &a);
    let pb = up(&mut gpu, &b);
    let pc = up(&mut gpu, &[0u16; 256]);
    let u = ParamValue::U64;
    go(
        &mut gpu,
        m,
        "wmma_f16acc",
        [1, 1, 1],
        32,
        vec![u(pa), u(pb), u(pc)],
    );
    let got = down_u16(&mut gpu, pc, 256);
    for r in 0..16 {
        for n in 0..16 {
            let acc = dot(1.0, 16, |k| h(a[k * 16 + r]), |k| h(b[k * 16 + n]));
            let want = f64_to_f16(acc as f64, Rnd::Rn);
            // stored column-major
            assert_eq!(got[n * 16 + r], want, "wmma_f16acc ({r}, {n})");
        }
    }
}

fn check_shapes(m: &Module) {
    let mut gpu = Emulator::new();
    let a = halves(512, 31);
    let b = halves(512, 32);
    let pa = up(&mut gpu, &a);
    let pb = up(&mut gpu, &b);
    let p1 = up(&mut gpu, &[0f32; 256]);
    let p2 = up(&mut gpu, &[0f32; 256]);
    let u = ParamValue::U64;
    go(
        &mut gpu,
        m,
        "wmma_shapes",
        [1, 1, 1],
        32,
        vec![u(pa), u(pb), u(p1), u(p2)],
    );
    let got1 = down_f32(&mut gpu, p1, 256);
    let want1: Vec<f32> = (0..256)
        .map(|x| {
            let (r, n) = (x / 8, x % 8);
            dot(0.0, 16, |k| h(a[r * 16 + k]), |k| h(b[k * 8 + n]))
        })
        .collect();
    bits_eq(&got1, &want1, "m32n8k16");
    let got2 = down_f32(&mut gpu, p2, 256);
    let want2: Vec<f32> = (0..256)
        .map(|x| {
            let (r, n) = (x / 32, x % 32);
            dot(0.0, 16, |k| h(a[r * 16 + k]), |k| h(b[k * 32 + n]))
        })
        .collect();
    bits_eq(&got2, &want2, "m8n32k16");
}

fn check_bf16(m: &Module) {
    let mut gpu = Emulator::new();
    let a = bf16s(256, 41); // row-major
    let b = bf16s(256, 42); // column-major: (k, n) at n * 16 + k
    let pa = up(&mut gpu, &a);
    let pb = up(&mut gpu, &b);
    let pc = up(&mut gpu, &[0f32; 256]);
    let u = ParamValue::U64;
    go(
        &mut gpu,
        m,
        "wmma_bf16",
        [1, 1, 1],
        32,
        vec![u(pa), u(pb), u(pc)],
    );
    let got = down_f32(&mut gpu, pc, 256);
    let want: Vec<f32> = (0..256)
        .map(|x| {
            let (r, n) = (x / 16, x % 16);
            dot(0.0, 16, |k| bf(a[r * 16 + k]), |k| bf(b[n * 16 + k]))
        })
        .collect();
    bits_eq(&got, &want, "wmma_bf16");
}

fn check_mma_sync(m: &Module) {
    let mut gpu = Emulator::new();
    let a = halves(256, 51); // 16x16 row-major
    let bt = halves(128, 52); // B^T: (k, n) at n * 16 + k
    let pa = up(&mut gpu, &a);
    let pb = up(&mut gpu, &bt);
    let p16 = up(&mut gpu, &[0f32; 128]);
    let p8 = up(&mut gpu, &[0f32; 128]);
    let u = ParamValue::U64;
    go(
        &mut gpu,
        m,
        "mma_sync_tile",
        [1, 1, 1],
        32,
        vec![u(pa), u(pb), u(p16), u(p8)],
    );
    let got16 = down_f32(&mut gpu, p16, 128);
    let got8 = down_f32(&mut gpu, p8, 128);
    let w16: Vec<f32> = (0..128)
        .map(|x| {
            let (r, n) = (x / 8, x % 8);
            dot(0.0, 16, |k| h(a[r * 16 + k]), |k| h(bt[n * 16 + k]))
        })
        .collect();
    let w8: Vec<f32> = (0..128)
        .map(|x| {
            let (r, n) = (x / 8, x % 8);
            dot(1.0, 8, |k| h(a[r * 16 + k]), |k| h(bt[n * 16 + k]))
        })
        .collect();
    bits_eq(&got16, &w16, "mma.m16n8k16 after ldmatrix");
    bits_eq(&got8, &w8, "mma.m16n8k8 after ldmatrix");

    let a = bf16s(256, 61);
    let b = bf16s(128, 62); // column-major 16x8: (k, n) at n * 16 + k
    let pa = up(&mut gpu, &a);
    let pb = up(&mut gpu, &b);
    let pd = up(&mut gpu, &[0f32; 128]);
    go(
        &mut gpu,
        m,
        "mma_bf16",
        [1, 1, 1],
        32,
        vec![u(pa), u(pb), u(pd)],
    );
    let got = down_f32(&mut gpu, pd, 128);
    let want: Vec<f32> = (0..128)
        .map(|x| {
            let (r, n) = (x / 8, x % 8);
            dot(0.5, 16, |k| bf(a[r * 16 + k]), |k| bf(b[n * 16 + k]))
        })
        .collect();
    bits_eq(&got, &want, "mma.m16n8k16.bf16");
}

fn check_all(m: &Module) {
    assert!(m.refused().is_empty(), "{:?}", m.refused());
    check_gemm(m);
    check_f16acc(m);
    check_shapes(m);
    check_bf16(m);
    check_mma_sync(m);
}

#[test]
fn committed_ptx_computes_the_reference_products() {
    check_all(&committed());
}

#[test]
fn nvcc_recompiles_tensor() {
    let Some(text) = common::nvcc_ptx_arch(&dir().join("tensor.cu"), "sm_80") else {
        return;
    };
    check_all(&Module::parse(&text, "tensor.ptx (nvcc)").unwrap());
}

const HEAD: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

/// A kernel of `body` with registers `%r<40>`, `%f<20>`, `%rd<4>`, `%p<2>` and one pointer
/// parameter loaded into `%rd1`.
fn kernel(body: &str) -> String {
    format!(
        "{HEAD}.visible .entry k(.param .u64 p)\n{{\n.reg .b32 %r<40>;\n.reg .f32 %f<20>;\n\
         .reg .b64 %rd<4>;\n.reg .pred %p<2>;\nld.param.u64 %rd1, [p];\n{body}\nret;\n}}\n"
    )
}

#[test]
fn malformed_tensor_instructions_are_refused_naming_what_is_wrong() {
    let cases = [
        (
            "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7}, \
             {%r0,%r1}, {%r8,%r9,%r10,%r11,%r12,%r13,%r14,%r15}, \
             {%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15};",
            "operand 2 must be a vector of 8 registers, found 2",
        ),
        (
            "wmma.load.a.sync.aligned.row.m16n16k16.global.s8 {%r0,%r1}, [%rd1], 16;",
            "unsupported modifier '.s8' for wmma.load",
        ),
        (
            "mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, \
             {%r0,%r1,%r2,%r3}, {%r4,%r5}, {%f0,%f1,%f2,%f3};",
            "needs .row.col",
        ),
        (
            "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r0,%r1,%r2}, [%r4];",
            "operand 1 must be a vector of 2 registers, found 3",
        ),
        (
            "wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%r0,%r1,%r2,%r3,%r4,%r5,%r6,\
             %r7}, [%rd1], 16, 3;",
            "expects 2 or 3 operands, found 4",
        ),
    ];
    for (body, want) in cases {
        let e = Module::parse(&kernel(body), "t.ptx")
            .unwrap_err()
            .to_string();
        assert!(e.contains(want), "{body}\n{e}");
    }
}

#[test]
fn a_tensor_instruction_needs_the_whole_warp() {
    let body = "wmma.load.c.sync.aligned.row.m16n16k16.global.f32 \
                {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7}, [%rd1], 16;";
    let m = Module::parse(&kernel(body), "t.ptx").unwrap();
    let mut gpu = Emulator::new();
    let p = up(&mut gpu, &[0f32; 256]);
    let launch = |block: u32| Launch {
        kernel: m.load("k").unwrap(),
        grid: [1, 1, 1],
        block: [block, 1, 1],
        params: vec![ParamValue::U64(p)],
        shared_bytes: 0,
        cooperative: false,
    };
    gpu.launch(&launch(32)).unwrap();
    let e = gpu.launch(&launch(16)).unwrap_err().to_string();
    assert!(e.contains("needs all 32 lanes active"), "{e}");
    // predicated off in every lane: no access at all (the address would be out of bounds)
    let body = "setp.eq.u32 %p1, 1, 0;\n@%p1 wmma.load.c.sync.aligned.row.m16n16k16.global.f32 \
                {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7}, [0], 16;";
    let m = Module::parse(&kernel(body), "t.ptx").unwrap();
    gpu.launch(&Launch {
        kernel: m.load("k").unwrap(),
        grid: [1, 1, 1],
        block: [32, 1, 1],
        params: vec![ParamValue::U64(p)],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap();
}

/// The fragment layout of `mma.sync` is the PTX ISA's: each lane's registers hold the
/// elements the ISA's figures give it (checked on a C/D fragment read back by a store of every
/// lane's registers).
#[test]
fn mma_sync_places_d_by_the_isa_layout() {
    // D = A·B + C with A = 0: D = C, where lane l's c_i = 100·l + i
    let body = "mov.u32 %r10, %laneid;\nmul.lo.u32 %r11, %r10, 100;\n\
        cvt.rn.f32.u32 %f0, %r11;\nadd.f32 %f1, %f0, 1.0;\nadd.f32 %f2, %f0, 2.0;\n\
        add.f32 %f3, %f0, 3.0;\nmov.b32 %r0, 0;\nmov.b32 %r1, 0;\nmov.b32 %r2, 0;\n\
        mov.b32 %r3, 0;\nmov.b32 %r4, 0;\nmov.b32 %r5, 0;\n\
        mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f4,%f5,%f6,%f7}, \
        {%r0,%r1,%r2,%r3}, {%r4,%r5}, {%f0,%f1,%f2,%f3};\n\
        mul.wide.u32 %rd2, %r10, 16;\nadd.s64 %rd3, %rd1, %rd2;\n\
        st.global.v4.f32 [%rd3], {%f4,%f5,%f6,%f7};";
    let m = Module::parse(&kernel(body), "t.ptx").unwrap();
    let mut gpu = Emulator::new();
    let p = up(&mut gpu, &[0f32; 128]);
    go(&mut gpu, &m, "k", [1, 1, 1], 32, vec![ParamValue::U64(p)]);
    let got = down_f32(&mut gpu, p, 128);
    for l in 0..32 {
        for i in 0..4 {
            assert_eq!(got[4 * l + i], (100 * l + i) as f32, "lane {l} d{i}");
        }
    }
    // the layout table itself, for m16n8k8's accumulator
    let lay = sim::emu::tensor::FragLayout {
        wmma: false,
        frag: sim::ptx::tensor::Frag::C,
        shape: sim::ptx::tensor::Shape::M16n8k8,
        ty: sim::ptx::tensor::MmaTy::F32,
        col: false,
    };
    // the ISA's C layout: c0, c1 at (g, 2t), (g, 2t+1); c2, c3 at (g+8, 2t), (g+8, 2t+1)
    for l in 0..32 {
        let (g, t) = (l / 4, l % 4);
        assert_eq!(lay.elem(l, 0), (g, 2 * t));
        assert_eq!(lay.elem(l, 1), (g, 2 * t + 1));
        assert_eq!(lay.elem(l, 2), (g + 8, 2 * t));
        assert_eq!(lay.elem(l, 3), (g + 8, 2 * t + 1));
    }
}
