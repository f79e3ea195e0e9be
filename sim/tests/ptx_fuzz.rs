//! Robustness: mutated PTX never panics the parser, and whatever still parses never panics the
//! emulator (it either runs or returns an error).

use proptest::prelude::*;
use sim::emu::Emulator;
use sim::ptx::{Module, Ty};
use sim::{Gpu, Launch, ParamValue};

const BASE: &str = r#".version 7.0
.target sm_70
.address_size 64
.const .align 4 .f32 c[4] = {1.0, 0f40000000, -3, 4.5};
.visible .entry k(.param .u64 p, .param .u32 n, .param .f32 s)
.maxntid 256, 1, 1
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .f32 %f<8>;
    .reg .b64 %rd<8>;
    .shared .align 4 .f32 sh[64];
    .local .align 4 .b8 lb[16];
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [n];
    ld.param.f32 %f1, [s];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ctaid.x;
    mad.lo.s32 %r4, %r3, 64, %r2;
    setp.ge.u32 %p1, %r4, %r1;
    @%p1 bra END;
    and.b32 %r5, %r2, 63;
    shl.b32 %r6, %r5, 2;
    mov.u32 %r7, sh;
    add.u32 %r7, %r7, %r6;
    mul.wide.u32 %rd2, %r4, 4;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.f32 %f2, [%rd3];
    ld.const.f32 %f3, [c+4];
    fma.rn.f32 %f4, %f2, %f1, %f3;
    st.shared.f32 [%r7], %f4;
    bar.sync 0;
    mov.u32 %r8, 0;
LOOP:
    add.u32 %r8, %r8, 1;
    cvt.rn.f32.u32 %f5, %r8;
    div.rn.f32 %f6, %f4, %f5;
    setp.lt.u32 %p2, %r8, 3;
    @%p2 bra LOOP;
    st.local.f32 [lb+4], %f6;
    ld.local.f32 %f7, [lb+4];
    atom.global.add.f32 %f6, [%rd3], %f7;
    sqrt.approx.f32 %f7, %f7;
    st.global.f32 [%rd3], %f7;
END:
    ret;
}
"#;

const VOCAB: &[&str] = &[
    "%r1",
    "%r9",
    "%rd1",
    "%f2",
    "%p1",
    "%p3",
    "0",
    "1",
    "-1",
    "4096",
    "0f7F800000",
    "LOOP",
    "END",
    "sh",
    "c",
    "lb",
    "p",
    "[%rd3]",
    "[%r7+4]",
    "[sh+1000]",
    "bra",
    "bar.sync",
    "ret",
    "exit",
    "add.u32",
    "ld.global.f32",
    "st.global.u32",
    "setp.eq.s32",
    "@%p2",
    "@!%p1",
    ".u64",
    ",",
    ";",
    "{",
    "}",
    "[",
    "]",
    "div.u32",
    "rem.s32",
    "cvt.rzi.s32.f32",
    "selp.b32",
    "atom.shared.cas.b32",
    "ld.param.u32",
    "%tid.y",
    "%clock",
    "mov.u32",
    "/*",
    "//",
];

fn mutate(ops: &[(u8, usize, usize)]) -> String {
    let mut lines: Vec<String> = BASE.lines().map(String::from).collect();
    for &(kind, a, b) in ops {
        let n = lines.len();
        let i = a % n;
        match kind % 4 {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[b % n].clone();
                lines.insert(i, l);
            }
            2 => {
                let mut toks: Vec<String> = lines[i].split_whitespace().map(String::from).collect();
                if !toks.is_empty() {
                    let t = b % toks.len();
                    toks[t] = VOCAB[(a / 7 + b) % VOCAB.len()].to_string();
                    lines[i] = toks.join(" ");
                }
            }
            _ => {
                let line = &mut lines[i];
                if !line.is_empty() {
                    let cut = b % line.len();
                    if line.is_char_boundary(cut) {
                        line.truncate(cut);
                    }
                }
            }
        }
    }
    lines.join("\n")
}

fn try_run(m: &Module) {
    for name in m.kernel_names() {
        let k = m.kernel(&name).unwrap();
        let mut gpu = Emulator::new();
        gpu.max_warp_insts_per_launch = Some(50_000);
        let buf = gpu.alloc(4096).unwrap();
        let params = k
            .params()
            .iter()
            .map(|p| match p.ty {
                Ty::U64 | Ty::S64 | Ty::B64 => ParamValue::U64(buf),
                Ty::F32 => ParamValue::F32(1.5),
                Ty::S32 => ParamValue::S32(100),
                _ => ParamValue::U32(100),
            })
            .collect();
        let l = Launch {
            kernel: k,
            grid: [2, 1, 1],
            block: [64, 1, 1],
            params,
            shared_bytes: 0,
            cooperative: false,
        };
        let _ = gpu.launch(&l);
    }
}

#[test]
fn base_kernel_runs() {
    let m = Module::parse(BASE, "base.ptx").unwrap();
    let k = m.kernel("k").unwrap();
    let mut gpu = Emulator::new();
    let buf = gpu.alloc(4096).unwrap();
    let l = Launch {
        kernel: k,
        grid: [2, 1, 1],
        block: [64, 1, 1],
        params: vec![
            ParamValue::U64(buf),
            ParamValue::U32(100),
            ParamValue::F32(1.5),
        ],
        shared_bytes: 0,
        cooperative: false,
    };
    gpu.launch(&l).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    #[test]
    fn mutated_ptx_never_panics(ops in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<usize>()), 1..4)) {
        let text = mutate(&ops);
        match Module::parse(&text, "m.ptx") {
            Ok(m) => try_run(&m),
            Err(e) => {
                let s = e.to_string();
                prop_assert!(s.starts_with("m.ptx:"), "error without position: {}", s);
            }
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Module::parse(&text, "r.ptx");
    }
}
