//! Directed tests of the PTX instructions compilers emit beyond the original subset, each
//! against a CPU model of its PTX ISA definition: bit-field and byte operations, funnel shifts,
//! lop3, bmsk, copysign, testp, mul24, packing moves, generic addressing through `cvta`,
//! atomics, wide source registers and registers redeclared in sibling blocks; and per-kernel
//! refusal of what the model cannot represent.

use sim::emu::Emulator;
use sim::ptx::Module;
use sim::{Gpu, Launch, ParamValue};

const HEAD: &str = ".version 8.0\n.target sm_75\n.address_size 64\n";

/// Runs `body` (which may use `%r0` = lane, `%rd1` = &out[lane] as u32 slots of `words` per
/// lane) in one warp and returns `out` as u32 words.
fn run(decls: &str, body: &str, words: usize) -> Vec<u32> {
    let text = format!(
        "{HEAD}.visible .entry k(.param .u64 out)\n{{\n\
         .reg .b32 %r<40>;\n.reg .b64 %rd<20>;\n.reg .pred %p<8>;\n.reg .f32 %f<8>;\n.reg .f64 %fd<8>;\n{decls}\n\
         mov.u32 %r0, %tid.x;\nld.param.u64 %rd0, [out];\ncvta.to.global.u64 %rd0, %rd0;\n\
         mul.wide.u32 %rd2, %r0, {};\nadd.s64 %rd1, %rd0, %rd2;\n{body}\nret;\n}}\n",
        4 * words
    );
    let m = Module::parse(&text, "ext.ptx").unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut gpu = Emulator::new();
    let out = gpu.alloc((32 * words * 4) as u64).unwrap();
    gpu.launch(&Launch {
        kernel: m.load("k").unwrap(),
        grid: [1, 1, 1],
        block: [32, 1, 1],
        params: vec![ParamValue::U64(out)],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let mut b = vec![0u8; 32 * words * 4];
    gpu.copy_from_device(out, &mut b).unwrap();
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn lane_value(l: u32) -> u32 {
    l.wrapping_mul(0x9E37_79B9) ^ (l << 7)
}

#[test]
fn bit_field_and_byte_operations() {
    // %r1 = a per-lane pattern; results: bfe.u32, bfe.s32, bfi, bfind.u32, bfind.shiftamt.s32,
    // prmt, shf.l.wrap, shf.r.clamp, lop3 (a & b | ~c), bmsk.clamp
    let body = "mul.lo.u32 %r1, %r0, -1640531527;\nshl.b32 %r2, %r0, 7;\nxor.b32 %r1, %r1, %r2;\n\
        bfe.u32 %r3, %r1, %r0, 9;\nst.global.u32 [%rd1], %r3;\n\
        bfe.s32 %r3, %r1, 5, %r0;\nst.global.u32 [%rd1+4], %r3;\n\
        bfi.b32 %r3, %r0, %r1, 3, 6;\nst.global.u32 [%rd1+8], %r3;\n\
        bfind.u32 %r3, %r1;\nst.global.u32 [%rd1+12], %r3;\n\
        bfind.shiftamt.s32 %r3, %r1;\nst.global.u32 [%rd1+16], %r3;\n\
        prmt.b32 %r3, %r1, 0x01234567, 0x8F51;\nst.global.u32 [%rd1+20], %r3;\n\
        shf.l.wrap.b32 %r3, %r1, %r0, %r0;\nst.global.u32 [%rd1+24], %r3;\n\
        add.s32 %r4, %r0, 20;\nshf.r.clamp.b32 %r3, %r1, %r0, %r4;\nst.global.u32 [%rd1+28], %r3;\n\
        lop3.b32 %r3, %r1, %r0, 0xF0F0F0F0, 0xEA;\nst.global.u32 [%rd1+32], %r3;\n\
        bmsk.clamp.b32 %r3, %r0, 5;\nst.global.u32 [%rd1+36], %r3;";
    let o = run("", body, 10);
    for l in 0..32u32 {
        let a = lane_value(l);
        let r = &o[10 * l as usize..10 * l as usize + 10];
        let bfe_u = (a >> l) & 0x1ff;
        let bfe_s = if l == 0 {
            0
        } else {
            let pos = 5;
            let len = l.min(32);
            let field = ((a as u64) >> pos) & ((1u64 << len) - 1);
            let top = pos + len - 1;
            let sign = (a >> top.min(31)) & 1;
            let mut v = field as u32;
            if sign == 1 && len < 32 {
                v |= !0u32 << len.min(32 - pos).min(len);
            }
            if pos + len > 32 {
                // bits past the top replicate the sign bit
                v = (((a as i32) >> pos) as u32) | if sign == 1 { !0u32 << (32 - pos) } else { 0 };
            }
            v
        };
        let bfi = (a & !(0x3f << 3)) | ((l & 0x3f) << 3);
        let bfind_u = if a == 0 {
            u32::MAX
        } else {
            31 - a.leading_zeros()
        };
        let s = a as i32;
        let nonsign = if s < 0 { !a } else { a };
        let bfind_s = if nonsign == 0 {
            u32::MAX
        } else {
            nonsign.leading_zeros()
        };
        let bytes = (a as u64) | (0x0123_4567u64 << 32);
        let sel = |k: u32| {
            let n = (0x8F51u32 >> (4 * k)) & 0xf;
            let b = ((bytes >> (8 * (n & 7))) & 0xff) as u32;
            if n & 8 != 0 {
                if b & 0x80 != 0 {
                    0xff
                } else {
                    0
                }
            } else {
                b
            }
        };
        let prmt = sel(0) | sel(1) << 8 | sel(2) << 16 | sel(3) << 24;
        let shf_l = ((((l as u64) << 32 | a as u64) << (l & 31)) >> 32) as u32;
        let shf_r = (((l as u64) << 32 | a as u64) >> (l + 20).min(32)) as u32;
        // 0xEA is the truth table of (a & b) | c (a = 0xF0, b = 0xCC, c = 0xAA)
        let lop = (a & l) | 0xF0F0_F0F0u32;
        let bmsk = if l + 5 >= 32 {
            !0u32 << l
        } else {
            ((1u32 << 5) - 1) << l
        };
        assert_eq!(r[0], bfe_u, "bfe.u32 lane {l}");
        assert_eq!(r[1], bfe_s, "bfe.s32 lane {l}");
        assert_eq!(r[2], bfi, "bfi lane {l}");
        assert_eq!(r[3], bfind_u, "bfind lane {l}");
        assert_eq!(r[4], bfind_s, "bfind.shiftamt.s32 lane {l}");
        assert_eq!(r[5], prmt, "prmt lane {l}");
        assert_eq!(r[6], shf_l, "shf.l.wrap lane {l}");
        assert_eq!(r[7], shf_r, "shf.r.clamp lane {l}");
        assert_eq!(r[8], lop, "lop3 0xEA lane {l}");
        assert_eq!(r[9], bmsk, "bmsk.clamp lane {l}");
    }
}

#[test]
fn floats_mul24_and_packing_moves() {
    // copysign, testp, mul24.hi, mad24.lo, mov pack/unpack, a 64-bit register read as 32 bits
    let body = "cvt.rn.f32.u32 %f1, %r0;\nneg.f32 %f2, %f1;\nsub.f32 %f2, %f2, 0f3F000000;\n\
        copysign.f32 %f3, %f2, %f1;\nst.global.f32 [%rd1], %f3;\n\
        div.rn.f32 %f4, %f1, 0f00000000;\ntestp.infinite.f32 %p1, %f4;\nselp.u32 %r3, 1, 0, %p1;\nst.global.u32 [%rd1+4], %r3;\n\
        mul.lo.u32 %r5, %r0, 1000003;\nmul24.hi.u32 %r3, %r5, %r5;\nst.global.u32 [%rd1+8], %r3;\n\
        mad24.lo.s32 %r3, %r5, -7, %r0;\nst.global.u32 [%rd1+12], %r3;\n\
        mov.b64 %rd3, {%r5, %r0};\nmov.b64 {%r6, %r7}, %rd3;\nst.global.u32 [%rd1+16], %r7;\n\
        shl.b64 %rd4, %rd3, 3;\nst.global.u32 [%rd1+20], %rd4;\ncvt.u32.u64 %r8, %rd4;\n\
        cvt.s64.s32 %rd5, %rd3;\nst.global.u64 [%rd1+24], %rd5;";
    let o = run("", body, 8);
    for l in 0..32u32 {
        let r = &o[8 * l as usize..8 * l as usize + 8];
        let f = l as f32;
        // copysign(a = -f - 0.5, b = f): b's magnitude with a's sign
        assert_eq!(r[0], (-f).to_bits(), "copysign lane {l}");
        // f / 0: +inf, but 0 / 0 is NaN in lane 0
        assert_eq!(r[1], (l != 0) as u32, "testp.infinite lane {l}");
        let a = l.wrapping_mul(1_000_003);
        let a24 = (a & 0xFF_FFFF) as u64;
        assert_eq!(r[2], ((a24 * a24) >> 16) as u32, "mul24.hi lane {l}");
        let s24 = ((a << 8) as i32 >> 8) as i64;
        assert_eq!(
            r[3],
            ((s24 * -7) as u32).wrapping_add(l),
            "mad24.lo lane {l}"
        );
        assert_eq!(r[4], l, "unpack lane {l}");
        let w = (((l as u64) << 32) | a as u64) << 3;
        assert_eq!(r[5], w as u32, "st.u32 of a 64-bit register lane {l}");
        let sx = a as i32 as i64 as u64;
        assert_eq!(
            (r[6], r[7]),
            (sx as u32, (sx >> 32) as u32),
            "cvt.s64.s32 lane {l}"
        );
    }
}

#[test]
fn generic_addresses_reach_shared_local_and_global() {
    // shared through cvta.shared + generic st/ld; local through cvta.local + generic atom;
    // global through a generic atom.or
    let decls = ".shared .align 4 .b32 sh[32];\n.local .align 4 .b32 lo[4];";
    let body = "mov.u64 %rd6, sh;\ncvta.shared.u64 %rd7, %rd6;\nmul.wide.u32 %rd8, %r0, 4;\n\
        add.s64 %rd9, %rd7, %rd8;\nmul.lo.u32 %r3, %r0, 3;\nst.u32 [%rd9], %r3;\nbar.sync 0;\n\
        xor.b32 %r4, %r0, 1;\nmul.wide.u32 %rd10, %r4, 4;\nadd.s64 %rd11, %rd7, %rd10;\n\
        ld.u32 %r5, [%rd11];\nst.global.u32 [%rd1], %r5;\n\
        mov.u64 %rd12, lo;\ncvta.local.u64 %rd13, %rd12;\nst.u32 [%rd13], %r0;\n\
        atom.add.u32 %r6, [%rd13], 100;\nld.local.u32 %r7, [lo];\nst.global.u32 [%rd1+4], %r7;\n\
        cvta.to.shared.u64 %rd14, %rd9;\ncvt.u32.u64 %r8, %rd14;\nst.global.u32 [%rd1+8], %r8;\n\
        atom.or.b32 %r9, [%rd0], %r0;\nst.global.u32 [%rd1+12], %r6;";
    let o = run(decls, body, 4);
    let or_all = (0..32u32).fold(0, |a, l| a | l);
    for l in 0..32u32 {
        let r = &o[4 * l as usize..4 * l as usize + 4];
        // lane 0's first word is also the target of every lane's generic atom.or
        let want = if l == 0 { 3 | or_all } else { (l ^ 1) * 3 };
        assert_eq!(r[0], want, "generic shared load lane {l}");
        assert_eq!(r[1], l + 100, "generic local atom lane {l}");
        assert_eq!(r[2], 4 * l, "cvta.to.shared lane {l}");
        assert_eq!(r[3], l, "atom returns the old local value lane {l}");
    }
}

#[test]
fn sibling_blocks_reuse_register_names() {
    let body = "{\n.reg .b32 t;\nadd.s32 t, %r0, 1;\nst.global.u32 [%rd1], t;\n}\n\
        {\n.reg .b32 t;\n.reg .pred q;\nsetp.gt.u32 q, %r0, 10;\nselp.u32 t, 7, 9, q;\nst.global.u32 [%rd1+4], t;\n}";
    let o = run("", body, 2);
    for l in 0..32u32 {
        assert_eq!(o[2 * l as usize], l + 1);
        assert_eq!(o[2 * l as usize + 1], if l > 10 { 7 } else { 9 });
    }
}

#[test]
fn unsupported_kernels_are_refused_alone() {
    let text = format!(
        "{HEAD}.global .texref tx;\n\
         .visible .entry uses_tex(.param .u64 p)\n{{\n.reg .f32 %f<6>;\n.reg .b32 %r<3>;\n\
         tex.1d.v4.f32.s32 {{%f0, %f1, %f2, %f3}}, [tx, {{%r0}}];\nret;\n}}\n\
         .visible .entry uses_mma()\n{{\nstmatrix.sync.aligned.m8n8.x1.shared.b16 [0], {{}};\nret;\n}}\n\
         .visible .entry fine(.param .u64 p)\n{{\nret;\n}}\n"
    );
    let m = Module::parse_lenient(&text, "mix.ptx").unwrap();
    assert_eq!(m.kernel_names(), vec!["fine".to_string()]);
    let e = m.load("uses_tex").unwrap_err().to_string();
    assert!(
        e.starts_with(
            "mix.ptx:9:41: kernel 'uses_tex' is refused: 'tex.1d.v4.f32.s32': 'tx' is neither \
             a register nor a kernel parameter holding a texture object (texture references"
        ),
        "{e}"
    );
    let e = m.load("uses_mma").unwrap_err().to_string();
    assert!(
        e.contains("kernel 'uses_mma' is refused: 'stmatrix': these tensor-core"),
        "{e}"
    );
    assert!(
        Module::parse(&text, "mix.ptx").is_err(),
        "strict parsing refuses the module"
    );
}

#[test]
fn device_functions_are_inlined_with_the_call_abi() {
    // a .func with a local array and a loop, called twice with call frames in local memory,
    // its result returned through func_retval0; the callee calls a second function
    let text = format!(
        "{HEAD}.func (.param .b32 func_retval0) sq(.param .b32 sq_param_0)\n{{\n\
         .reg .b32 %r<3>;\nld.param.b32 %r1, [sq_param_0];\nmul.lo.s32 %r2, %r1, %r1;\n\
         st.param.b32 [func_retval0+0], %r2;\nret;\n}}\n\
         .func (.param .b32 func_retval0) sumsq(.param .b32 sumsq_param_0, .param .b32 sumsq_param_1)\n{{\n\
         .local .align 4 .b8 buf[64];\n.reg .b32 %r<8>;\n.reg .pred %p<2>;\n.reg .b64 %rd<4>;\n\
         ld.param.b32 %r1, [sumsq_param_0];\nld.param.b32 %r2, [sumsq_param_1];\nmov.u32 %r3, 0;\n\
         mov.u64 %rd1, buf;\n$L_loop:\nmul.wide.u32 %rd2, %r3, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
         add.s32 %r4, %r1, %r3;\nst.local.u32 [%rd3], %r4;\nadd.s32 %r3, %r3, 1;\n\
         setp.lt.u32 %p1, %r3, %r2;\n@%p1 bra $L_loop;\nmov.u32 %r5, 0;\nmov.u32 %r3, 0;\n\
         $L_sum:\nmul.wide.u32 %rd2, %r3, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.local.u32 %r4, [%rd3];\n\
         {{\n.param .b32 param0;\nst.param.b32 [param0+0], %r4;\n.param .b32 retval0;\n\
         call.uni (retval0), sq, (param0);\nld.param.b32 %r6, [retval0+0];\n}}\n\
         add.s32 %r5, %r5, %r6;\nadd.s32 %r3, %r3, 1;\nsetp.lt.u32 %p1, %r3, %r2;\n@%p1 bra $L_sum;\n\
         st.param.b32 [func_retval0+0], %r5;\nret;\n}}\n\
         .visible .entry k(.param .u64 out)\n{{\n.reg .b32 %r<9>;\n.reg .b64 %rd<4>;\n\
         mov.u32 %r1, %tid.x;\nld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
         {{\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n.param .b32 param1;\n\
         st.param.b32 [param1+0], 5;\n.param .b32 retval0;\ncall.uni (retval0), sumsq, (param0, param1);\n\
         ld.param.b32 %r2, [retval0+0];\n}}\n\
         {{\n.param .b32 param0;\nst.param.b32 [param0+0], 2;\n.param .b32 param1;\n\
         st.param.b32 [param1+0], 3;\n.param .b32 retval0;\ncall.uni (retval0), sumsq, (param0, param1);\n\
         ld.param.b32 %r3, [retval0+0];\n}}\n\
         add.s32 %r4, %r2, %r3;\nst.global.u32 [%rd3], %r4;\nret;\n}}\n\
         .extern .func (.param .b32 func_retval0) cudaLaunchDevice(.param .b64 p0, .param .b64 p1);\n\
         .visible .entry prints()\n{{\n{{\n.param .b64 param0;\n.param .b64 param1;\n.param .b32 retval0;\n\
         call.uni (retval0), cudaLaunchDevice, (param0, param1);\n}}\nret;\n}}\n"
    );
    let m = Module::parse_lenient(&text, "calls.ptx").unwrap_or_else(|e| panic!("{e}"));
    let mut gpu = Emulator::new();
    let out = gpu.alloc(32 * 4).unwrap();
    gpu.launch(&Launch {
        kernel: m.load("k").unwrap_or_else(|e| panic!("{e}")),
        grid: [1, 1, 1],
        block: [32, 1, 1],
        params: vec![ParamValue::U64(out)],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let mut b = vec![0u8; 128];
    gpu.copy_from_device(out, &mut b).unwrap();
    let sumsq = |a: u32, n: u32| (0..n).map(|i| (a + i) * (a + i)).sum::<u32>();
    for l in 0..32u32 {
        let got = u32::from_le_bytes(b[4 * l as usize..4 * l as usize + 4].try_into().unwrap());
        assert_eq!(got, sumsq(l, 5) + sumsq(2, 3), "lane {l}");
    }
    let e = m.load("prints").unwrap_err().to_string();
    assert!(
        e.contains("'cudaLaunchDevice' is an external function without a body"),
        "{e}"
    );
}

/// `div.{rm,rp,rz}.f64` (interval arithmetic's division): each result brackets the exact
/// quotient as its mode says, checked by the sign of the exact remainder (an FMA's sign is
/// exact) with divisors of both signs; a division by zero is an exact infinity in every mode.
#[test]
fn directed_rounding_of_f64_division() {
    let body = "cvt.rn.f64.u32 %fd1, %r0;\nadd.f64 %fd1, %fd1, 0d3FB999999999999A;\n\
        mul.f64 %fd2, %fd1, 0dBFE6666666666666;\nadd.f64 %fd2, %fd2, 0d4008000000000000;\n\
        div.rm.f64 %fd3, %fd1, %fd2;\ndiv.rp.f64 %fd4, %fd1, %fd2;\ndiv.rz.f64 %fd5, %fd1, %fd2;\n\
        div.rm.f64 %fd6, %fd1, 0d0000000000000000;\n\
        st.global.f64 [%rd1], %fd3;\nst.global.f64 [%rd1+8], %fd4;\n\
        st.global.f64 [%rd1+16], %fd5;\nst.global.f64 [%rd1+24], %fd6;";
    let o = run("", body, 8);
    let f64_at = |w: &[u32], k: usize| f64::from_bits(w[k] as u64 | (w[k + 1] as u64) << 32);
    for l in 0..32u32 {
        let w = &o[8 * l as usize..8 * l as usize + 8];
        let a = l as f64 + 0.1;
        let b = a * f64::from_bits(0xBFE6_6666_6666_6666) + 3.0;
        // sign of r·b − a, exact; with b < 0 the order of quotients flips
        let above = |r: f64| (r.mul_add(b, -a) * b.signum()).partial_cmp(&0.0).unwrap();
        use std::cmp::Ordering::*;
        let (rm, rp, rz) = (f64_at(w, 0), f64_at(w, 2), f64_at(w, 4));
        assert!(
            above(rm) != Greater && above(rm.next_up()) == Greater,
            "rm lane {l}"
        );
        assert!(
            above(rp) != Less && above(rp.next_down()) == Less,
            "rp lane {l}"
        );
        assert_eq!(rz, if a / b > 0.0 { rm } else { rp }, "rz lane {l}");
        assert!(rp == rm || rp == rm.next_up(), "one step apart, lane {l}");
        assert_eq!(f64_at(w, 6), f64::INFINITY, "x/0 lane {l}");
    }
}

#[test]
fn directed_rounding_of_float_arithmetic() {
    // f32: add.rz, fma.rm, fma.rz on inexact per-lane values; f64: add.rm/rp, mul.rm/rp
    let body = "cvt.rn.f32.u32 %f1, %r0;\nadd.f32 %f1, %f1, 0f3DCCCCCD;\n\
        mov.f32 %f2, 0f3F9E0652;\nadd.rz.f32 %f3, %f1, %f2;\nst.global.f32 [%rd1], %f3;\n\
        fma.rm.f32 %f4, %f1, %f2, 0f3F8CCCCD;\nst.global.f32 [%rd1+4], %f4;\n\
        fma.rz.f32 %f5, %f1, %f2, 0fBF8CCCCD;\nst.global.f32 [%rd1+8], %f5;\n\
        cvt.rn.f64.u32 %fd1, %r0;\nadd.f64 %fd1, %fd1, 0d3FB999999999999A;\n\
        mov.f64 %fd2, 0d3FF3C0CA428C59FB;\nadd.rm.f64 %fd3, %fd1, %fd2;\nadd.rp.f64 %fd4, %fd1, %fd2;\n\
        mul.rm.f64 %fd5, %fd1, %fd2;\nmul.rp.f64 %fd6, %fd1, %fd2;\n\
        st.global.f64 [%rd1+16], %fd3;\nst.global.f64 [%rd1+24], %fd4;\n\
        st.global.f64 [%rd1+32], %fd5;\nst.global.f64 [%rd1+40], %fd6;";
    let o = run("", body, 12);
    let f64_at = |w: &[u32], k: usize| f64::from_bits(w[k] as u64 | (w[k + 1] as u64) << 32);
    // the f32 neighbour below / towards zero of a value known exactly as an f64
    let down = |x: f64| {
        let r = x as f32;
        if r as f64 > x {
            r.next_down()
        } else {
            r
        }
    };
    let tz = |x: f64| {
        let r = x as f32;
        if (r as f64).abs() > x.abs() {
            if x > 0.0 {
                r.next_down()
            } else {
                r.next_up()
            }
        } else {
            r
        }
    };
    for l in 0..32u32 {
        let w = &o[12 * l as usize..12 * l as usize + 12];
        let f1 = l as f32 + f32::from_bits(0x3DCC_CCCD);
        let f2 = f32::from_bits(0x3F9E_0652);
        let (x1, x2) = (f1 as f64, f2 as f64);
        assert_eq!(f32::from_bits(w[0]), tz(x1 + x2), "add.rz.f32 lane {l}");
        let c = f32::from_bits(0x3F8C_CCCD) as f64;
        assert_eq!(
            f32::from_bits(w[1]),
            down(x1 * x2 + c),
            "fma.rm.f32 lane {l}"
        );
        assert_eq!(f32::from_bits(w[2]), tz(x1 * x2 - c), "fma.rz.f32 lane {l}");
        let d1 = l as f64 + 0.1;
        let d2 = f64::from_bits(0x3FF3_C0CA_428C_59FB);
        let (am, ap, mm, mp) = (f64_at(w, 4), f64_at(w, 6), f64_at(w, 8), f64_at(w, 10));
        let (an, mn) = (d1 + d2, d1 * d2);
        assert!(am <= an && an <= ap, "add.rm/rp bracket lane {l}");
        assert!(mm <= mn && mn <= mp, "mul.rm/rp bracket lane {l}");
        // one ulp apart exactly when the result is inexact
        let err_add = (d1 - (an - (an - d1))) + (d2 - (an - d1));
        assert_eq!(ap == am, err_add == 0.0, "add exactness lane {l}");
        if ap != am {
            assert_eq!(am.next_up(), ap, "add one ulp lane {l}");
        }
        let err_mul = d1.mul_add(d2, -mn);
        assert_eq!(mp == mm, err_mul == 0.0, "mul exactness lane {l}");
        if mp != mm {
            assert_eq!(mm.next_up(), mp, "mul one ulp lane {l}");
            assert!(mn == mm || mn == mp);
        }
    }
}

#[test]
fn pointer_tables_refuse_only_their_users_and_assert_traps() {
    let text = format!(
        "{HEAD}.extern .func __assertfail(.param .b64 p0, .param .b64 p1, .param .b32 p2, \
         .param .b64 p3, .param .b64 p4);\n\
         .func f()\n{{\nret;\n}}\n\
         .global .align 8 .u64 vt[3] = {{0, f, generic(f)+8}};\n\
         .global .align 4 .u32 x;\n\
         .global .align 8 .u64 pt[1] = {{generic(x)}};\n\
         .visible .entry uses_vt(.param .u64 o)\n{{\n.reg .b64 %rd<4>;\nld.param.u64 %rd1, [o];\n\
         ld.global.u64 %rd2, [vt+8];\nld.global.u64 %rd3, [vt+16];\n\
         st.global.v2.u64 [%rd1], {{%rd2, %rd3}};\nret;\n}}\n\
         .visible .entry uses_pt(.param .u64 o)\n{{\n.reg .b64 %rd<3>;\nmov.u64 %rd1, pt;\nret;\n}}\n\
         .visible .entry asserts(.param .u32 x)\n{{\n.reg .b32 %r<2>;\n.reg .pred %p<2>;\n\
         ld.param.u32 %r1, [x];\nsetp.ne.s32 %p1, %r1, 0;\n@%p1 bra DONE;\n\
         {{\n.param .b64 param0;\n.param .b64 param1;\n.param .b32 param2;\n.param .b64 param3;\n\
         .param .b64 param4;\ncall.uni __assertfail, (param0, param1, param2, param3, param4);\n}}\n\
         DONE:\nret;\n}}\n"
    );
    let m = Module::parse_lenient(&text, "vt.ptx").unwrap_or_else(|e| panic!("{e}"));
    // a table of variable addresses is not resolved: its users are refused
    let e = m.load("uses_pt").unwrap_err().to_string();
    assert!(
        e.contains("variable 'pt' is initialised with symbol addresses"),
        "{e}"
    );
    // a table of function addresses holds f's address (the module's second function)
    let mut gpu = Emulator::new();
    let o = gpu.alloc(16).unwrap();
    gpu.launch(&Launch {
        kernel: m.load("uses_vt").unwrap(),
        grid: [1, 1, 1],
        block: [1, 1, 1],
        params: vec![ParamValue::U64(o)],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap();
    let mut b = [0u8; 16];
    gpu.copy_from_device(o, &mut b).unwrap();
    let f = sim::ptx::inline::FUNC_ADDR_BASE + sim::ptx::inline::FUNC_ADDR_STRIDE;
    assert_eq!(u64::from_le_bytes(b[..8].try_into().unwrap()), f);
    assert_eq!(u64::from_le_bytes(b[8..].try_into().unwrap()), f + 8);
    let k = m.load("asserts").unwrap();
    let launch = |x: u32| Launch {
        kernel: k.clone(),
        grid: [1, 1, 1],
        block: [32, 1, 1],
        params: vec![ParamValue::U32(x)],
        shared_bytes: 0,
        cooperative: false,
    };
    gpu.launch(&launch(1)).unwrap();
    let e = gpu.launch(&launch(0)).unwrap_err().to_string();
    assert!(
        e.contains("trap executed (__trap() or a failed device assert)"),
        "{e}"
    );
}

#[test]
fn directed_rounding_keeps_saturation() {
    // add.rz.sat.f32: 0.75 + lane/16 clamped to [0, 1]; mul.rm.sat.f32 of a negative is 0
    let body = "cvt.rn.f32.u32 %f1, %r0;\nmul.f32 %f1, %f1, 0f3D800000;\n\
        add.rz.sat.f32 %f2, %f1, 0f3F400000;\nst.global.f32 [%rd1], %f2;\n\
        mul.rm.sat.f32 %f3, %f1, 0fBF800000;\nst.global.f32 [%rd1+4], %f3;";
    let o = run("", body, 2);
    for l in 0..32u32 {
        let want = (l as f32 / 16.0 + 0.75).min(1.0);
        assert_eq!(
            f32::from_bits(o[2 * l as usize]),
            want,
            "add.rz.sat lane {l}"
        );
        assert_eq!(
            f32::from_bits(o[2 * l as usize + 1]),
            0.0,
            "mul.rm.sat lane {l}"
        );
    }
}
