//! Spilling to local memory (`ptx/spill.rs`): a kernel generated here keeps more values live
//! across a loop than 255 registers hold — 32-bit values, 64-bit pairs, one rewritten under a
//! guard, and the fragments of a `wmma` product — and must compute the same results as a kernel
//! of the same shape with few values, on the functional emulator and on the timing model, with
//! the spill code as local-memory traffic.

use sim::config::GpuConfig;
use sim::emu::Emulator;
use sim::ptx::isa::{Op, Space};
use sim::ptx::Module;
use sim::timing::TimingGpu;
use sim::{Gpu, Launch, ParamValue};

/// A kernel of one warp: `n32` 32-bit values `tid·(i+1)+i` and `n64` 64-bit values
/// `tid·(j+3)+j`, all live across a loop of `iters` iterations that sums them (the first one
/// incremented under a guard, for thread 0, after each iteration), with two `wmma` fragments
/// loaded before the loop and multiplied after it. Writes the 32-bit sum, the 64-bit sum and the
/// 16×16 product D = A·B.
fn kernel_ptx(n32: usize, n64: usize) -> String {
    let mut s = String::from(
        ".version 7.0\n.target sm_70\n.address_size 64\n\n\
         .visible .entry wide(.param .u64 out, .param .u64 ab, .param .u64 outd, .param .u32 iters)\n{\n",
    );
    s += "    .reg .pred %p<3>;\n";
    s += &format!("    .reg .b32 %r<{}>;\n", 10 + n32);
    s += &format!("    .reg .b64 %rd<{}>;\n", 10 + n64);
    s += "    .reg .b32 %h<16>;\n    .reg .f32 %f<16>;\n";
    s += "    ld.param.u64 %rd0, [out];\n    ld.param.u64 %rd1, [ab];\n";
    s += "    ld.param.u64 %rd2, [outd];\n    ld.param.u32 %r0, [iters];\n";
    s += "    cvta.to.global.u64 %rd0, %rd0;\n    cvta.to.global.u64 %rd1, %rd1;\n";
    s += "    cvta.to.global.u64 %rd2, %rd2;\n    add.s64 %rd3, %rd1, 512;\n";
    s += "    mov.u32 %r1, %tid.x;\n    mov.u32 %r2, 16;\n";
    s += "    wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%h0, %h1, %h2, %h3, %h4, %h5, %h6, %h7}, [%rd1], %r2;\n";
    s += "    wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%h8, %h9, %h10, %h11, %h12, %h13, %h14, %h15}, [%rd3], %r2;\n";
    for i in 0..n32 {
        s += &format!("    mad.lo.s32 %r{}, %r1, {}, {};\n", 10 + i, i + 1, i);
    }
    for j in 0..n64 {
        s += &format!("    mul.wide.u32 %rd{}, %r1, {};\n", 10 + j, j + 3);
        s += &format!("    add.s64 %rd{0}, %rd{0}, {1};\n", 10 + j, j);
    }
    s += "    mov.u32 %r3, 0;\n    mov.u64 %rd4, 0;\n    mov.u32 %r4, 0;\n";
    s += "    setp.eq.u32 %p1, %r1, 0;\nLOOP:\n";
    for i in 0..n32 {
        s += &format!("    add.s32 %r3, %r3, %r{};\n", 10 + i);
    }
    for j in 0..n64 {
        s += &format!("    add.s64 %rd4, %rd4, %rd{};\n", 10 + j);
    }
    s += "    @%p1 add.s32 %r10, %r10, 1;\n";
    s += "    add.s32 %r4, %r4, 1;\n    setp.lt.u32 %p0, %r4, %r0;\n    @%p0 bra LOOP;\n";
    for k in 8..16 {
        s += &format!("    mov.f32 %f{k}, 0f00000000;\n");
    }
    s += "    wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, \
          {%h0, %h1, %h2, %h3, %h4, %h5, %h6, %h7}, {%h8, %h9, %h10, %h11, %h12, %h13, %h14, %h15}, \
          {%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15};\n";
    s += "    wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd2], {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, %r2;\n";
    s += "    mul.wide.u32 %rd5, %r1, 16;\n    add.s64 %rd5, %rd0, %rd5;\n";
    s += "    st.global.u32 [%rd5], %r3;\n    st.global.u64 [%rd5+8], %rd4;\n    ret;\n}\n";
    s
}

const ITERS: u32 = 3;

/// A (16×16 row-major) then B (16×16 column-major), f16 small integers 0…3 (exact products).
fn ab() -> Vec<u16> {
    const H: [u16; 4] = [0x0000, 0x3C00, 0x4000, 0x4200];
    (0..512).map(|i| H[(i * 7 + i / 16) % 4]).collect()
}

struct Out {
    sums: Vec<(u32, u64)>,
    d: Vec<u32>,
}

fn run<G: Gpu>(gpu: &mut G, m: &Module) -> Out {
    let a = ab();
    let p_ab = gpu.alloc(1024).unwrap();
    let bytes: Vec<u8> = a.iter().flat_map(|x| x.to_le_bytes()).collect();
    gpu.copy_to_device(p_ab, &bytes).unwrap();
    let p_out = gpu.alloc(32 * 16).unwrap();
    let p_d = gpu.alloc(256 * 4).unwrap();
    gpu.launch(&Launch {
        kernel: m.load("wide").unwrap(),
        grid: [1, 1, 1],
        block: [32, 1, 1],
        params: vec![
            ParamValue::U64(p_out),
            ParamValue::U64(p_ab),
            ParamValue::U64(p_d),
            ParamValue::U32(ITERS),
        ],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap();
    let mut o = vec![0u8; 32 * 16];
    gpu.copy_from_device(p_out, &mut o).unwrap();
    let mut d = vec![0u8; 256 * 4];
    gpu.copy_from_device(p_d, &mut d).unwrap();
    Out {
        sums: o
            .chunks(16)
            .map(|c| {
                (
                    u32::from_le_bytes(c[..4].try_into().unwrap()),
                    u64::from_le_bytes(c[8..].try_into().unwrap()),
                )
            })
            .collect(),
        d: d.chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect(),
    }
}

/// The sums the kernel computes, per thread.
fn expected_sums(n32: usize, n64: usize) -> Vec<(u32, u64)> {
    (0..32u32)
        .map(|t| {
            let mut s32 = 0u32;
            let mut s64 = 0u64;
            let mut first = t.wrapping_mul(1);
            for _ in 0..ITERS {
                for i in 0..n32 as u32 {
                    let v = if i == 0 {
                        first
                    } else {
                        t.wrapping_mul(i + 1).wrapping_add(i)
                    };
                    s32 = s32.wrapping_add(v);
                }
                for j in 0..n64 as u64 {
                    s64 = s64.wrapping_add(u64::from(t) * (j + 3) + j);
                }
                if t == 0 && n32 > 0 {
                    first = first.wrapping_add(1);
                }
            }
            (s32, s64)
        })
        .collect()
}

/// D = A·B in f32 bits, row-major.
fn expected_d() -> Vec<u32> {
    let ab = ab();
    let h = |b: u16| match b {
        0x3C00 => 1.0f32,
        0x4000 => 2.0,
        0x4200 => 3.0,
        _ => 0.0,
    };
    let mut d = vec![0u32; 256];
    for i in 0..16 {
        for j in 0..16 {
            let s: f32 = (0..16)
                .map(|k| h(ab[i * 16 + k]) * h(ab[256 + j * 16 + k]))
                .sum();
            d[i * 16 + j] = s.to_bits();
        }
    }
    d
}

fn module(n32: usize, n64: usize) -> Module {
    Module::parse(&kernel_ptx(n32, n64), "wide.ptx").unwrap()
}

const N32: usize = 300;
const N64: usize = 20;

#[test]
fn a_kernel_over_255_registers_is_spilled_and_computes_the_same_values() {
    let m = module(N32, N64);
    let k = m.load("wide").unwrap();
    let sp = k.code.spills;
    let demand = sp.demand.expect("the hull scan did not fit");
    assert!(demand.peak_regs > 255, "{demand:?}");
    assert!(demand.hull_regs >= demand.peak_regs, "{demand:?}");
    assert!(k.regs_per_thread() <= 255, "{}", k.regs_per_thread());
    assert!(
        sp.values > 0 && sp.store_insts > 0 && sp.load_insts > 0,
        "{sp:?}"
    );
    // the kernel declares no .local: its local memory is the spill slots
    assert_eq!(k.local_bytes(), sp.bytes_per_thread);
    assert!(sp.bytes_per_thread >= 4 * sp.values, "{sp:?}");
    // the spill code is all the local-memory instructions, and none sits inside a tensor
    // instruction's group
    let insts = k.insts();
    let local = |x: &sim::ptx::Inst| {
        matches!(
            x.op,
            Op::Ld {
                space: Space::Local,
                ..
            } | Op::St {
                space: Space::Local,
                ..
            }
        )
    };
    let n_local = insts.iter().filter(|x| local(x)).count();
    assert_eq!(n_local as u32, sp.store_insts + sp.load_insts);
    let mut next_to_group = 0;
    for (i, x) in insts.iter().enumerate() {
        if let Op::Tensor(t) = x.op {
            let c = t.carriers();
            assert!(insts[i + 1..=i + c]
                .iter()
                .all(|y| matches!(y.op, Op::Operands)));
            next_to_group += usize::from(i > 0 && local(&insts[i - 1]))
                + usize::from(insts.get(i + 1 + c).is_some_and(local));
        }
    }
    assert!(next_to_group > 0, "no fragment register was spilled");

    let want_sums = expected_sums(N32, N64);
    let want_d = expected_d();
    let got = run(&mut Emulator::new(), &m);
    assert_eq!(got.sums, want_sums);
    assert_eq!(got.d, want_d);
    // the same kernel with few values needs no spilling and computes its own sums and the same D
    let small = module(4, 2);
    assert_eq!(small.load("wide").unwrap().code.spills.values, 0);
    let got_small = run(&mut Emulator::new(), &small);
    assert_eq!(got_small.sums, expected_sums(4, 2));
    assert_eq!(got_small.d, want_d);
}

#[test]
fn the_timing_model_runs_the_spill_code_as_local_memory_traffic() {
    let mut cfg = GpuConfig::preset("v100").unwrap();
    cfg.gpu.n_sm = 1;
    let requests = |m: &Module| {
        let mut gpu = TimingGpu::new(cfg.clone());
        let o = run(&mut gpu, m);
        let k = &gpu.activity().kernels[0];
        let req: u64 = k.sms.iter().map(|s| s.ldst.global_requests).sum();
        (o, k.warp_insts, req)
    };
    let (o, warp_insts, spilled_req) = requests(&module(N32, N64));
    assert_eq!(o.sums, expected_sums(N32, N64));
    assert_eq!(o.d, expected_d());
    let mut emu = Emulator::new();
    run(&mut emu, &module(N32, N64));
    assert_eq!(warp_insts, emu.warp_insts());
    // both kernels make the same global accesses; the difference is the spill code's
    let (_, _, small_req) = requests(&module(4, 2));
    assert!(spilled_req > small_req, "{spilled_req} vs {small_req}");
}
