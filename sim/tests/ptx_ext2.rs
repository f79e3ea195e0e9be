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
const PATTERN: &str = "mul.lo.u32 %r1, %r0, -1640531527;\nshl.b32 %r2, %r0, 7;\nxor.b32 %r1, %r1, %r2;\n";

#[test]
fn sixteen_predicates_live_at_once() {
    // q0..q15 = bit k of the pattern, all defined before any is read, so all 16 are live.
    let mut body = String::from(PATTERN);
    for k in 0..16 {
        body += &format!("and.b32 %r2, %r1, {};\nsetp.ne.u32 %q{k}, %r2, 0;\n", 1u32 << k);
    }
    body += "mov.u32 %r4, 0;\n";
    for k in 0..16 {
        body += &format!("selp.u32 %r3, {}, 0, %q{k};\nor.b32 %r4, %r4, %r3;\n", 1u32 << (15 - k));
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
        body += &format!("and.b32 %r2, %r1, {};\nsetp.ne.u32 %q{k}, %r2, 0;\n", 1u32 << k);
    }
    for k in 0..17 {
        body += &format!("selp.u32 %r3, 1, 0, %q{k};\nadd.u32 %r4, %r4, %r3;\n");
    }
    let text = format!(
        "{HEAD}.visible .entry k(.param .u64 out)\n{{\n.reg .b32 %r<8>;\n.reg .pred %q<17>;\n\
         mov.u32 %r0, %tid.x;\n{body}\nret;\n}}\n"
    );
    let e = Module::parse(&text, "p17.ptx").unwrap_err().to_string();
    assert!(e.contains("more than 16 predicates are live at once"), "{e}");
}
