//! Directed tests of the PTX features added for the last refused kernels of real code, each
//! against a CPU model of its PTX ISA definition: 16 live predicates, `bar.red`, extended-
//! precision arithmetic with a carry flag, f16/f16x2 arithmetic, a kernel parameter's address,
//! device `printf`/`malloc`/`free`, indirect calls, and the refusals that remain.

use sim::emu::Emulator;
use sim::ptx::Module;
use sim::{Gpu, Launch, ParamValue};

const HEAD: &str = ".version 8.0\n.target sm_75\n.address_size 64\n";

/// Runs `body` (which may use `%r0` = lane, `%rd1` = &out[lane] as u32 slots of `words` per
/// lane) in one CTA of `threads` threads and returns `out` as u32 words.
fn run_n(decls: &str, body: &str, words: usize, threads: u32) -> Vec<u32> {
    let text = format!(
        "{HEAD}.visible .entry k(.param .u64 out)\n{{\n\
         .reg .b32 %r<40>;\n.reg .b64 %rd<20>;\n.reg .pred %p<8>;\n.reg .f32 %f<8>;\n.reg .f64 %fd<8>;\n{decls}\n\
         mov.u32 %r0, %tid.x;\nld.param.u64 %rd0, [out];\ncvta.to.global.u64 %rd0, %rd0;\n\
         mul.wide.u32 %rd2, %r0, {};\nadd.s64 %rd1, %rd0, %rd2;\n{body}\nret;\n}}\n",
        4 * words
    );
    let m = Module::parse(&text, "ext2.ptx").unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut gpu = Emulator::new();
    let n = threads as usize;
    let out = gpu.alloc((n * words * 4) as u64).unwrap();
    gpu.launch(&Launch {
        kernel: m.load("k").unwrap(),
        grid: [1, 1, 1],
        block: [threads, 1, 1],
        params: vec![ParamValue::U64(out)],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let mut b = vec![0u8; n * words * 4];
    gpu.copy_from_device(out, &mut b).unwrap();
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn run(decls: &str, body: &str, words: usize) -> Vec<u32> {
    run_n(decls, body, words, 32)
}

fn lane_value(l: u32) -> u32 {
    l.wrapping_mul(0x9E37_79B9) ^ (l << 7)
}

/// The per-lane pattern `lane_value` computed in PTX into `%r1`.
const PATTERN: &str =
    "mul.lo.u32 %r1, %r0, -1640531527;\nshl.b32 %r2, %r0, 7;\nxor.b32 %r1, %r1, %r2;\n";

#[test]
fn sixteen_predicates_live_at_once() {
    // q0..q15 = bit k of the pattern, all defined before any is read, so all 16 are live.
    let mut body = String::from(PATTERN);
    for k in 0..16 {
        body += &format!(
            "and.b32 %r2, %r1, {};\nsetp.ne.u32 %q{k}, %r2, 0;\n",
            1u32 << k
        );
    }
    body += "mov.u32 %r4, 0;\n";
    for k in 0..16 {
        body += &format!(
            "selp.u32 %r3, {}, 0, %q{k};\nor.b32 %r4, %r4, %r3;\n",
            1u32 << (15 - k)
        );
    }
    body += "st.global.u32 [%rd1], %r4;";
    let o = run(".reg .pred %q<16>;", &body, 1);
    for l in 0..32u32 {
        let a = lane_value(l) & 0xffff;
        assert_eq!(o[l as usize], a.reverse_bits() >> 16, "lane {l}");
    }
    // A 17th live predicate is refused by name.
    let mut body = String::from(PATTERN);
    for k in 0..17 {
        body += &format!(
            "and.b32 %r2, %r1, {};\nsetp.ne.u32 %q{k}, %r2, 0;\n",
            1u32 << k
        );
    }
    for k in 0..17 {
        body += &format!("selp.u32 %r3, 1, 0, %q{k};\nadd.u32 %r4, %r4, %r3;\n");
    }
    let text = format!(
        "{HEAD}.visible .entry k(.param .u64 out)\n{{\n.reg .b32 %r<8>;\n.reg .pred %q<17>;\n\
         mov.u32 %r0, %tid.x;\n{body}\nret;\n}}\n"
    );
    let e = Module::parse(&text, "p17.ptx").unwrap_err().to_string();
    assert!(
        e.contains("more than 16 predicates are live at once"),
        "{e}"
    );
}

#[test]
fn bar_red_reduces_a_predicate_over_the_cta() {
    // 96 threads (3 warps); predicate: bit 0 of pattern; results popc, and(tid < 96), or(tid == 77)
    // and and(bit 0), written per thread
    let body = format!(
        "{PATTERN}and.b32 %r2, %r1, 1;\nsetp.ne.u32 %p1, %r2, 0;\n\
         bar.red.popc.u32 %r3, 0, %p1;\nst.global.u32 [%rd1], %r3;\n\
         setp.lt.u32 %p2, %r0, 96;\nbar.red.and.pred %p3, 0, %p2;\nselp.u32 %r4, 1, 0, %p3;\n\
         st.global.u32 [%rd1+4], %r4;\n\
         setp.eq.u32 %p2, %r0, 77;\nbar.red.or.pred %p3, 0, %p2;\nselp.u32 %r4, 1, 0, %p3;\n\
         st.global.u32 [%rd1+8], %r4;\n\
         bar.red.and.pred %p3, 0, %p1;\nselp.u32 %r4, 1, 0, %p3;\nst.global.u32 [%rd1+12], %r4;\n\
         bar.red.or.pred %p3, 0, !%p2;\nselp.u32 %r4, 1, 0, %p3;\nst.global.u32 [%rd1+16], %r4;"
    );
    let o = run_n("", &body, 5, 96);
    let popc = (0..96u32).filter(|&t| lane_value(t) & 1 == 1).count() as u32;
    let all = (0..96u32).all(|t| lane_value(t) & 1 == 1) as u32;
    for t in 0..96usize {
        assert_eq!(&o[5 * t..5 * t + 5], &[popc, 1, 1, all, 1], "thread {t}");
    }
    assert!(popc > 0 && popc < 96);
}

#[test]
fn carry_chains_give_exact_wide_arithmetic() {
    // 64-bit a + b and a - b from 32-bit halves; the 128-bit product of two 64-bit values from
    // 32-bit mad.lo.cc/madc.hi chains (schoolbook), compared with u128; a 64-bit carry chain.
    let body = format!(
        "{PATTERN}mul.lo.u32 %r2, %r1, 7919;\nxor.b32 %r3, %r1, -1;\nmul.lo.u32 %r4, %r1, 104729;\n\
         add.cc.u32 %r10, %r1, %r3;\naddc.u32 %r11, %r2, %r4;\n\
         st.global.u32 [%rd1], %r10;\nst.global.u32 [%rd1+4], %r11;\n\
         sub.cc.u32 %r10, %r1, %r3;\nsubc.cc.u32 %r11, %r2, %r4;\nsubc.u32 %r12, 0, 0;\n\
         st.global.u32 [%rd1+8], %r10;\nst.global.u32 [%rd1+12], %r11;\nst.global.u32 [%rd1+16], %r12;\n\
         mul.lo.u32 %r20, %r1, %r3;\nmul.hi.u32 %r21, %r1, %r3;\n\
         mad.lo.cc.u32 %r21, %r1, %r4, %r21;\nmadc.hi.u32 %r22, %r1, %r4, 0;\n\
         mad.lo.cc.u32 %r21, %r2, %r3, %r21;\nmadc.hi.cc.u32 %r22, %r2, %r3, %r22;\naddc.u32 %r23, 0, 0;\n\
         mad.lo.cc.u32 %r22, %r2, %r4, %r22;\nmadc.hi.u32 %r23, %r2, %r4, %r23;\n\
         st.global.u32 [%rd1+20], %r20;\nst.global.u32 [%rd1+24], %r21;\n\
         st.global.u32 [%rd1+28], %r22;\nst.global.u32 [%rd1+32], %r23;\n\
         mov.b64 %rd5, {{%r1, %r2}};\nmov.b64 %rd6, {{%r3, %r4}};\n\
         add.cc.u64 %rd7, %rd5, %rd6;\naddc.cc.u64 %rd8, %rd5, %rd5;\naddc.u32 %r24, 0, 0;\n\
         mov.b64 {{%r25, %r26}}, %rd7;\nmov.b64 {{%r27, %r28}}, %rd8;\n\
         st.global.u32 [%rd1+36], %r25;\nst.global.u32 [%rd1+40], %r26;\n\
         st.global.u32 [%rd1+44], %r27;\nst.global.u32 [%rd1+48], %r28;\nst.global.u32 [%rd1+52], %r24;\n\
         mad.hi.cc.s32 %r29, %r1, %r2, %r3;\naddc.u32 %r30, 0, 0;\n\
         st.global.u32 [%rd1+56], %r29;\nst.global.u32 [%rd1+60], %r30;"
    );
    let o = run("", &body, 16);
    for l in 0..32u32 {
        let r1 = lane_value(l);
        let (r2, r3, r4) = (r1.wrapping_mul(7919), !r1, r1.wrapping_mul(104729));
        let a = (r2 as u64) << 32 | r1 as u64;
        let b = (r4 as u64) << 32 | r3 as u64;
        let w = &o[16 * l as usize..16 * l as usize + 16];
        let word = |lo: usize| w[lo] as u64 | (w[lo + 1] as u64) << 32;
        assert_eq!(word(0), a.wrapping_add(b), "add lane {l}");
        assert_eq!(word(2), a.wrapping_sub(b), "sub lane {l}");
        assert_eq!(w[4], if a < b { u32::MAX } else { 0 }, "borrow lane {l}");
        let p = a as u128 * b as u128;
        let got = word(5) as u128 | (word(7) as u128) << 64;
        assert_eq!(got, p, "128-bit product lane {l}");
        let (s1, c1) = a.overflowing_add(b);
        let s2 = a as u128 + a as u128 + c1 as u128;
        assert_eq!(word(9), s1, "u64 add.cc lane {l}");
        assert_eq!(word(11), s2 as u64, "u64 addc lane {l}");
        assert_eq!(w[13], (s2 >> 64) as u32, "u64 carry out lane {l}");
        let hi = ((r1 as i32 as i64 * r2 as i32 as i64) >> 32) as u32;
        let s = hi as u64 + r3 as u64;
        assert_eq!(
            (w[14], w[15]),
            (s as u32, (s >> 32) as u32),
            "mad.hi.cc.s32 lane {l}"
        );
    }
}

/// IEEE binary16 of an f32 by round-to-nearest-even on the bits (the test's own model).
fn f32_to_f16(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    if x.is_nan() {
        return 0x7fff;
    }
    let a = x.abs();
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    // scale to an integer count of the result's ulp and round to nearest even
    let e = if a < 2f32.powi(-14) {
        -24
    } else {
        (a.log2().floor() as i32) - 10
    };
    let q = a as f64 / 2f64.powi(e);
    let r = q.round_ties_even();
    let v = r * 2f64.powi(e);
    let h = if v < 2f64.powi(-14) {
        (v / 2f64.powi(-24)) as u16
    } else {
        let ex = v.log2().floor() as i32;
        let m = (v / 2f64.powi(ex) - 1.0) * 1024.0;
        (((ex + 15) as u16) << 10) | m as u16
    };
    sign | h
}

fn f16_to_f32(h: u16) -> f32 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 31) as i32;
    let m = (h & 0x3ff) as f32;
    s * match e {
        0 => m * 2f32.powi(-24),
        31 if m == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + m / 1024.0) * 2f32.powi(e - 15),
    }
}

#[test]
fn half_precision_arithmetic_rounds_once() {
    // per lane two halves a, b (and c) from the pattern; f16 and f16x2 add, sub, mul, fma, min,
    // max, neg, abs, setp
    let body = format!(
        "{PATTERN}mul.lo.u32 %r2, %r1, 1103515245;\nand.b32 %r1, %r1, 0x7bff7bff;\n\
         and.b32 %r2, %r2, 0xbbffbbff;\nxor.b32 %r3, %r1, 0x12345678;\nand.b32 %r3, %r3, 0x7bff7bff;\n\
         add.rn.f16x2 %r4, %r1, %r2;\nst.global.u32 [%rd1], %r4;\n\
         sub.f16x2 %r4, %r1, %r2;\nst.global.u32 [%rd1+4], %r4;\n\
         mul.rn.f16x2 %r4, %r1, %r2;\nst.global.u32 [%rd1+8], %r4;\n\
         fma.rn.f16x2 %r4, %r1, %r2, %r3;\nst.global.u32 [%rd1+12], %r4;\n\
         min.f16x2 %r4, %r1, %r2;\nst.global.u32 [%rd1+16], %r4;\n\
         max.f16x2 %r4, %r1, %r2;\nst.global.u32 [%rd1+20], %r4;\n\
         neg.f16x2 %r4, %r1;\nst.global.u32 [%rd1+24], %r4;\n\
         abs.f16x2 %r4, %r2;\nst.global.u32 [%rd1+28], %r4;\n\
         mov.b32 {{%hs1, %hs2}}, %r1;\nmov.b32 {{%hs3, %hs4}}, %r2;\n\
         mul.f16 %hs5, %hs2, %hs4;\nfma.rn.sat.f16 %hs6, %hs1, %hs3, %hs2;\n\
         mov.b32 %r5, {{%hs5, %hs6}};\nst.global.u32 [%rd1+32], %r5;\n\
         setp.lt.f16x2 %p1|%p2, %r1, %r2;\nselp.u32 %r6, 1, 0, %p1;\nselp.u32 %r7, 2, 0, %p2;\n\
         or.b32 %r6, %r6, %r7;\nsetp.ge.f16 %p3, %hs1, %hs3;\nselp.u32 %r7, 4, 0, %p3;\n\
         or.b32 %r6, %r6, %r7;\nst.global.u32 [%rd1+36], %r6;"
    );
    let o = run(".reg .b16 %hs<8>;", &body, 10);
    let h = |v: u32, k: u32| (v >> (16 * k)) as u16;
    for l in 0..32u32 {
        let p = lane_value(l);
        let r1 = p & 0x7bff_7bff;
        let r2 = p.wrapping_mul(1103515245) & 0xbbff_bbff;
        let r3 = (r1 ^ 0x1234_5678) & 0x7bff_7bff;
        let w = &o[10 * l as usize..10 * l as usize + 10];
        for k in 0..2 {
            let (a, b, c) = (
                f16_to_f32(h(r1, k)),
                f16_to_f32(h(r2, k)),
                f16_to_f32(h(r3, k)),
            );
            let at = |i: usize| h(w[i], k);
            assert_eq!(at(0), f32_to_f16(a + b), "add lane {l} half {k}");
            assert_eq!(at(1), f32_to_f16(a - b), "sub lane {l} half {k}");
            assert_eq!(at(2), f32_to_f16(a * b), "mul lane {l} half {k}");
            // a*b is exact in f32 (22 bits); a*b + c exact in f64
            let f = (a as f64 * b as f64 + c as f64) as f32;
            let exact = a as f64 * b as f64 + c as f64;
            if f as f64 == exact {
                assert_eq!(at(3), f32_to_f16(f), "fma lane {l} half {k}");
            }
            assert_eq!(at(4), f32_to_f16(a.min(b)), "min lane {l} half {k}");
            assert_eq!(at(5), f32_to_f16(a.max(b)), "max lane {l} half {k}");
            assert_eq!(at(6), h(r1, k) ^ 0x8000, "neg lane {l} half {k}");
            assert_eq!(at(7), h(r2, k) & 0x7fff, "abs lane {l} half {k}");
        }
        let (a0, a1) = (f16_to_f32(h(r1, 0)), f16_to_f32(h(r1, 1)));
        let (b0, b1) = (f16_to_f32(h(r2, 0)), f16_to_f32(h(r2, 1)));
        assert_eq!(h(w[8], 0), f32_to_f16(a1 * b1), "mul.f16 lane {l}");
        let fs = (a0 as f64 * b0 as f64 + a1 as f64).clamp(0.0, 1.0) as f32;
        assert_eq!(h(w[8], 1), f32_to_f16(fs), "fma.sat.f16 lane {l}");
        let bits = (a0 < b0) as u32 | ((a1 < b1) as u32) << 1 | ((a0 >= b0) as u32) << 2;
        assert_eq!(w[9], bits, "setp lane {l}");
    }
}

#[test]
fn a_parameter_address_reads_the_parameter_buffer() {
    // a structure parameter read through its address, as nvcc emits for a by-value struct
    // indexed with a runtime index
    let text = format!(
        "{HEAD}.visible .entry k(.param .align 4 .b8 s[64], .param .u64 out)\n{{\n\
         .reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n\
         mov.b64 %rd1, s;\nld.param.u64 %rd2, [out];\nmov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 15;\n\
         mul.wide.u32 %rd3, %r2, 4;\nadd.s64 %rd4, %rd1, %rd3;\nld.param.u32 %r3, [%rd4];\n\
         ld.param.u32 %r4, [%rd1+4];\nadd.u32 %r3, %r3, %r4;\n\
         mul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd2, %rd5;\nst.global.u32 [%rd6], %r3;\nret;\n}}\n"
    );
    let m = Module::parse(&text, "pa.ptx").unwrap_or_else(|e| panic!("{e}"));
    let mut gpu = Emulator::new();
    let out = gpu.alloc(32 * 4).unwrap();
    let s: Vec<u8> = (0..16u32).flat_map(|i| (i * i + 3).to_le_bytes()).collect();
    gpu.launch(&Launch {
        kernel: m.load("k").unwrap(),
        grid: [1, 1, 1],
        block: [32, 1, 1],
        params: vec![ParamValue::Bytes(s), ParamValue::U64(out)],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let mut b = vec![0u8; 128];
    gpu.copy_from_device(out, &mut b).unwrap();
    for t in 0..32u32 {
        let got = u32::from_le_bytes(b[4 * t as usize..4 * t as usize + 4].try_into().unwrap());
        let i = t % 16;
        assert_eq!(got, i * i + 3 + 4, "thread {t}");
    }
}

/// `fmt` as a module-scope byte array initialiser (NUL-terminated).
fn cstr_init(fmt: &str) -> String {
    let b: Vec<String> = fmt.bytes().chain([0]).map(|c| c.to_string()).collect();
    format!(
        ".global .align 1 .b8 $str[{}] = {{{}}};\n",
        b.len(),
        b.join(", ")
    )
}

#[test]
fn printf_is_formatted_and_ordered_by_thread() {
    // printf("t=%d x=%5.2f id=%u %s\n", tid, tid * 0.5, ctaid, "ok") in nvcc's calling sequence
    let text = format!(
        "{HEAD}.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n\
         {}.global .align 1 .b8 $ok[3] = {{111, 107, 0}};\n\
         .visible .entry k(.param .u64 out)\n{{\n.local .align 8 .b8 __local_depot0[32];\n\
         .reg .b64 %SP;\n.reg .b64 %SPL;\n.reg .b32 %r<8>;\n.reg .b64 %rd<10>;\n.reg .f64 %fd<2>;\n\
         mov.u64 %SPL, __local_depot0;\ncvta.local.u64 %SP, %SPL;\n\
         mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\ncvt.rn.f64.u32 %fd1, %r1;\nmul.f64 %fd1, %fd1, 0d3FE0000000000000;\n\
         add.u64 %rd1, %SP, 0;\nadd.u64 %rd2, %SPL, 0;\nst.local.u32 [%rd2], %r1;\nst.local.f64 [%rd2+8], %fd1;\n\
         st.local.u32 [%rd2+16], %r2;\nmov.u64 %rd5, $ok;\ncvta.global.u64 %rd6, %rd5;\nst.local.u64 [%rd2+24], %rd6;\n\
         mov.u64 %rd3, $str;\ncvta.global.u64 %rd4, %rd3;\n\
         {{\n.param .b64 param0;\nst.param.b64 [param0+0], %rd4;\n.param .b64 param1;\n\
         st.param.b64 [param1+0], %rd1;\n.param .b32 retval0;\ncall.uni (retval0), vprintf, (param0, param1);\n\
         ld.param.b32 %r3, [retval0+0];\n}}\n\
         ld.param.u64 %rd7, [out];\nmul.wide.u32 %rd8, %r1, 4;\nadd.s64 %rd9, %rd7, %rd8;\nst.global.u32 [%rd9], %r3;\n\
         ret;\n}}\n",
        cstr_init("t=%d x=%5.2f id=%u %s\n")
    );
    let m = Module::parse_lenient(&text, "pf.ptx").unwrap_or_else(|e| panic!("{e}"));
    let mut gpu = Emulator::new();
    let out = gpu.alloc(64 * 4).unwrap();
    gpu.launch(&Launch {
        kernel: m.load("k").unwrap_or_else(|e| panic!("{e}")),
        grid: [2, 1, 1],
        block: [64, 1, 1],
        params: vec![ParamValue::U64(out)],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let lines = gpu.take_printf_output();
    let want: Vec<String> = (0..2u32)
        .flat_map(|c| {
            (0..64u32).map(move |t| format!("t={t} x={:5.2} id={c} ok\n", t as f64 * 0.5))
        })
        .collect();
    assert_eq!(lines, want);
    assert!(gpu.take_printf_output().is_empty());
    let mut b = vec![0u8; 256];
    gpu.copy_from_device(out, &mut b).unwrap();
    assert!(
        b.chunks(4).all(|c| c == 4u32.to_le_bytes()),
        "printf returns its argument count"
    );
}

#[test]
fn device_malloc_and_free_use_a_deterministic_heap() {
    // each thread mallocs tid*8+8 bytes, writes tid there, reads it back, frees; thread 0 also
    // asks for more than the heap and stores whether it got null
    let call = |f: &str, ret: bool, arg: &str| {
        format!(
            "{{\n.param .b64 param0;\nst.param.b64 [param0+0], {arg};\n{}call.uni {}{f}, (param0);\n{}}}\n",
            if ret { ".param .b64 retval0;\n" } else { "" },
            if ret { "(retval0), " } else { "" },
            if ret { "ld.param.b64 %rd5, [retval0+0];\n" } else { "" },
        )
    };
    let text = format!(
        "{HEAD}.extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n\
         .extern .func free(.param .b64 free_param_0);\n\
         .visible .entry k(.param .u64 out)\n{{\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<12>;\n\
         mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 8;\nadd.s64 %rd1, %rd1, 8;\n{}\
         st.u32 [%rd5], %r1;\nld.u32 %r2, [%rd5];\nmov.u64 %rd6, %rd5;\n{}\
         ld.param.u64 %rd7, [out];\nmul.wide.u32 %rd8, %r1, 16;\nadd.s64 %rd9, %rd7, %rd8;\n\
         st.global.u32 [%rd9], %r2;\nst.global.u64 [%rd9+8], %rd6;\n\
         setp.ne.u32 %p1, %r1, 0;\n@%p1 bra DONE;\nmov.u64 %rd1, 9000000;\n{}\
         st.global.u64 [%rd9+8], %rd5;\nDONE:\nret;\n}}\n",
        call("malloc", true, "%rd1"),
        call("free", false, "%rd5"),
        call("malloc", true, "%rd1"),
    );
    let m = Module::parse_lenient(&text, "heap.ptx").unwrap_or_else(|e| panic!("{e}"));
    let mut gpu = Emulator::new();
    let out = gpu.alloc(64 * 16).unwrap();
    gpu.launch(&Launch {
        kernel: m.load("k").unwrap_or_else(|e| panic!("{e}")),
        grid: [1, 1, 1],
        block: [64, 1, 1],
        params: vec![ParamValue::U64(out)],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let mut b = vec![0u8; 64 * 16];
    gpu.copy_from_device(out, &mut b).unwrap();
    let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
    // a warp's lanes allocate in lane order, first fit in 16-byte granules
    let sz = |k: u64| (k * 8 + 8).div_ceil(16) * 16;
    let first = u64_at(16 + 8) - sz(0);
    for t in 0..64usize {
        assert_eq!(
            u32::from_le_bytes(b[16 * t..16 * t + 4].try_into().unwrap()),
            t as u32
        );
        if (1..32).contains(&t) {
            let want = first + (0..t as u64).map(sz).sum::<u64>();
            assert_eq!(u64_at(16 * t + 8), want, "thread {t}");
        }
    }
    assert_eq!(u64_at(8), 0, "a request larger than the heap gives null");
}
