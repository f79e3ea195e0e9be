//! Emulator features: atomics, loops, local/const/global variables, vector accesses, special
//! registers, launch checks, runtime errors and the KernelStream contract.

use sim::emu::Emulator;
use sim::inst::{Family, MemSpace, OpClass, WarpInst, PRED_BASE};
use sim::ptx::Module;
use sim::{Gpu, Launch, ParamValue, SimError, Step};

const HEAD: &str = ".version 7.0\n.target sm_70\n.address_size 64\n";

fn module(body: &str) -> Module {
    Module::parse(&format!("{HEAD}{body}"), "t.ptx").unwrap()
}

fn launch1(m: &Module, name: &str, grid: u32, block: u32, params: Vec<ParamValue>) -> Launch {
    Launch {
        kernel: m.kernel(name).unwrap(),
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        params,
        shared_bytes: 0,
        cooperative: false,
    }
}

fn read_u32(gpu: &mut Emulator, p: u64, n: usize) -> Vec<u32> {
    let mut b = vec![0u8; n * 4];
    gpu.copy_from_device(p, &mut b).unwrap();
    b.chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn blank() -> WarpInst {
    WarpInst::new(0, Family::Int, OpClass::Nop, 0)
}

const ATOMICS: &str = r#"
.visible .entry atoms(.param .u64 g)
{
    .reg .b32 %r<8>;
    .reg .f32 %f<3>;
    .reg .b64 %rd<4>;
    .shared .u32 sh[4];
    ld.param.u64 %rd1, [g];
    mov.u32 %r1, %tid.x;
    // global: counter, min, max, f32 sum
    atom.global.add.u32 %r2, [%rd1], 1;
    atom.global.min.s32 %r3, [%rd1+4], %r1;
    atom.global.max.u32 %r3, [%rd1+8], %r1;
    cvt.rn.f32.u32 %f1, %r1;
    atom.global.add.f32 %f2, [%rd1+12], %f1;
    red.global.add.u32 [%rd1+16], 2;
    // CAS: only the first lane to arrive (lane order) swaps 0 -> tid+100.
    add.u32 %r4, %r1, 100;
    atom.global.cas.b32 %r5, [%rd1+20], 0, %r4;
    atom.global.exch.b32 %r6, [%rd1+24], %r1;
    // shared: per-CTA counter, then thread 0 publishes it
    atom.shared.add.u32 %r7, [sh], 3;
    bar.sync 0;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra END;
    ld.shared.u32 %r7, [sh];
    st.global.u32 [%rd1+28], %r7;
    // the old value seen by thread 0's global add is unique per thread: store it
END:
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3+32], %r2;
    ret;
}
"#;

#[test]
fn atomics() {
    let m = module(&ATOMICS.replace(
        ".reg .b32 %r<8>;",
        ".reg .b32 %r<8>;\n    .reg .pred %p<2>;",
    ));
    let mut gpu = Emulator::new();
    let g = gpu.alloc(32 + 64 * 4).unwrap();
    let init: Vec<u8> = [0u32, 1000, 0, 0, 0, 0, 0, 0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    gpu.copy_to_device(g, &init).unwrap();
    gpu.launch(&launch1(&m, "atoms", 1, 64, vec![ParamValue::U64(g)]))
        .unwrap();
    let v = read_u32(&mut gpu, g, 8 + 64);
    assert_eq!(v[0], 64);
    assert_eq!(v[1], 0);
    assert_eq!(v[2], 63);
    assert_eq!(f32::from_bits(v[3]), (0..64).sum::<u32>() as f32);
    assert_eq!(v[4], 128);
    assert_eq!(v[5], 100, "lane 0 of warp 0 wins the CAS");
    assert_eq!(v[6], 63, "the last exchange (lane order, warp order) stays");
    assert_eq!(v[7], 192);
    let mut olds: Vec<u32> = v[8..].to_vec();
    olds.sort();
    assert_eq!(
        olds,
        (0..64).collect::<Vec<u32>>(),
        "every thread saw a distinct old counter"
    );
}

const LOOP_LOCAL_CONST: &str = r#"
.const .align 4 .u32 weights[4] = {1, 2, 3, 4};
.global .align 4 .u32 calls = 7;
.global .align 4 .u32 table[3] = {10, 20, 30};

// out[i] = sum_{k<=i%8} weights[k%4] * k, via a loop that fills a local array first.
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<6>;
    .local .align 4 .b8 buf[32];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 7;
    mov.u32 %r3, 0;
FILL:
    and.b32 %r4, %r3, 3;
    shl.b32 %r5, %r4, 2;
    ld.const.u32 %r6, [weights+%r5];
    mul.lo.u32 %r6, %r6, %r3;
    shl.b32 %r7, %r3, 2;
    mov.u32 %r8, buf;
    add.u32 %r8, %r8, %r7;
    st.local.u32 [%r8], %r6;
    add.u32 %r3, %r3, 1;
    setp.le.u32 %p1, %r3, %r2;
    @%p1 bra FILL;
    mov.u32 %r9, 0;
    mov.u32 %r3, 0;
SUM:
    shl.b32 %r7, %r3, 2;
    ld.local.u32 %r6, [%r7];
    add.u32 %r9, %r9, %r6;
    add.u32 %r3, %r3, 1;
    setp.le.u32 %p1, %r3, %r2;
    @%p1 bra SUM;
    ld.global.u32 %r10, [table+8];
    add.u32 %r9, %r9, %r10;
    mov.u64 %rd4, calls;
    atom.global.add.u32 %r11, [%rd4], 1;
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r9;
    ret;
}

.visible .entry readcalls(.param .u64 out)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    ld.global.u32 %r1, [calls];
    st.global.u32 [%rd1], %r1;
    ret;
}
"#;

#[test]
fn loop_local_const_and_global_variables() {
    // `[weights+%r5]` is not valid address syntax; the kernel computes the address instead.
    let src = LOOP_LOCAL_CONST.replace(
        "    ld.const.u32 %r6, [weights+%r5];",
        "    mov.u32 %r11, weights;\n    add.u32 %r11, %r11, %r5;\n    ld.const.u32 %r6, [%r11];",
    );
    let mut m = module(&src);
    let k = m.kernel("k").unwrap();
    assert_eq!(k.local_bytes(), 32);
    let expect = |w: [u32; 4], i: u32| -> u32 {
        (0..=i % 8).map(|j| w[(j % 4) as usize] * j).sum::<u32>() + 30
    };
    let mut gpu = Emulator::new();
    let out = gpu.alloc(40 * 4).unwrap();
    gpu.launch(&launch1(&m, "k", 1, 40, vec![ParamValue::U64(out)]))
        .unwrap();
    let v = read_u32(&mut gpu, out, 40);
    for i in 0..40 {
        assert_eq!(v[i as usize], expect([1, 2, 3, 4], i), "thread {i}");
    }
    // Host update of the constant bank (like cudaMemcpyToSymbol), then relaunch.
    let w2: Vec<u8> = [5u32, 6, 7, 8]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    m.set_const("weights", &w2).unwrap();
    assert!(m.set_const("nope", &w2).is_err());
    assert!(m.set_const("weights", &[0u8; 20]).is_err());
    gpu.launch(&launch1(&m, "k", 1, 40, vec![ParamValue::U64(out)]))
        .unwrap();
    let v = read_u32(&mut gpu, out, 40);
    assert_eq!(v[9], expect([5, 6, 7, 8], 9));
    // The module's .global counter starts at its initialiser and persists across launches on
    // one emulator: 7 + 2 * 40.
    gpu.launch(&launch1(&m, "readcalls", 1, 1, vec![ParamValue::U64(out)]))
        .unwrap();
    assert_eq!(read_u32(&mut gpu, out, 1)[0], 87);
    // A fresh emulator places and initialises the variables again.
    let mut gpu2 = Emulator::new();
    let out2 = gpu2.alloc(4).unwrap();
    gpu2.launch(&launch1(&m, "readcalls", 1, 1, vec![ParamValue::U64(out2)]))
        .unwrap();
    assert_eq!(read_u32(&mut gpu2, out2, 1)[0], 7);
}

const VEC_SPECIAL: &str = r#"
.visible .entry v(.param .u64 in, .param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .f32 %f<6>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 16;
    add.s64 %rd4, %rd1, %rd3;
    add.s64 %rd5, %rd2, %rd3;
    ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];
    setp.gt.and.f32 %p1, %f1, %f2, 1;
    selp.f32 %f5, %f1, %f2, %p1;
    mov.u32 %r2, %laneid;
    mov.u32 %r3, %warpid;
    mov.u32 %r4, %clock;
    cvt.rn.f32.u32 %f3, %r2;
    cvt.rn.f32.u32 %f4, %r3;
    st.global.v4.f32 [%rd5], {%f5, %f3, %f4, %f4};
    ret;
}
"#;

#[test]
fn vector_access_selp_and_special_registers_through_the_stream() {
    let m = module(VEC_SPECIAL);
    let mut gpu = Emulator::new();
    let n = 64usize;
    let inp = gpu.alloc(n as u64 * 16).unwrap();
    let out = gpu.alloc(n as u64 * 16).unwrap();
    let data: Vec<u8> = (0..n * 4)
        .flat_map(|i| ((i % 7) as f32).to_le_bytes())
        .collect();
    gpu.copy_to_device(inp, &data).unwrap();
    let l = launch1(
        &m,
        "v",
        1,
        n as u32,
        vec![ParamValue::U64(inp), ParamValue::U64(out)],
    );
    {
        let mut s = gpu.stream(&l).unwrap();
        assert_eq!(s.info().regs_per_thread, l.kernel.regs_per_thread());
        s.begin_cta(0, 3, 10).unwrap();
        let mut rec = blank();
        let mut n_insts = 0;
        for w in 0..2 {
            while s.next_inst(0, w, 1000 + w as u64, &mut rec).unwrap() == Step::Inst {
                n_insts += 1;
                if rec.op == OpClass::Load && rec.mem.unwrap().space == MemSpace::Global {
                    let mi = rec.mem.unwrap();
                    assert_eq!(mi.width_bytes, 16);
                    assert_eq!(mi.addrs[1] - mi.addrs[0], 16);
                    assert_eq!(rec.n_dst, 4);
                }
                if rec.op == OpClass::Setp {
                    assert!(rec.dsts()[0] >= PRED_BASE);
                }
            }
            assert_eq!(s.next_inst(0, w, 0, &mut rec).unwrap(), Step::Done);
        }
        s.end_cta(0).unwrap();
        assert_eq!(n_insts, 2 * 16);
    }
    let mut b = vec![0u8; n * 16];
    gpu.copy_from_device(out, &mut b).unwrap();
    let f: Vec<f32> = b
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    for t in 0..n {
        let (a, bb) = (((4 * t) % 7) as f32, ((4 * t + 1) % 7) as f32);
        assert_eq!(f[4 * t], if a > bb { a } else { bb }, "selp, thread {t}");
        assert_eq!(f[4 * t + 1], (t % 32) as f32, "%laneid");
        assert_eq!(
            f[4 * t + 2],
            (10 + t / 32) as f32,
            "%warpid = first slot + warp"
        );
    }
}

#[test]
fn launch_checks() {
    let m = module(".visible .entry k(.param .u32 a, .param .f32 b)\n.maxntid 64\n{\n    .shared .b8 s[1024];\n    ret;\n}\n");
    let mut gpu = Emulator::new();
    let ok = vec![ParamValue::U32(1), ParamValue::F32(1.0)];
    gpu.launch(&launch1(&m, "k", 2, 64, ok.clone())).unwrap();
    let e = gpu
        .launch(&launch1(&m, "k", 2, 65, ok.clone()))
        .unwrap_err();
    assert!(matches!(e, SimError::Launch { .. }), "{e}");
    assert!(e.to_string().contains(".maxntid"), "{e}");
    let e = gpu
        .launch(&launch1(&m, "k", 1, 32, vec![ParamValue::U32(1)]))
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("1 parameters given, the kernel declares 2"),
        "{e}"
    );
    let e = gpu
        .launch(&launch1(
            &m,
            "k",
            1,
            32,
            vec![ParamValue::U32(1), ParamValue::U32(1)],
        ))
        .unwrap_err();
    assert!(
        e.to_string().contains("parameter 1 ('b') is declared .f32"),
        "{e}"
    );
    let mut l = launch1(&m, "k", 1, 32, ok.clone());
    l.shared_bytes = 48 * 1024;
    let e = gpu.launch(&l).unwrap_err();
    assert!(e.to_string().contains("shared memory"), "{e}");
    let e = gpu.launch(&launch1(&m, "k", 0, 32, ok)).unwrap_err();
    assert!(e.to_string().contains("positive"), "{e}");
    let m2 = module(".visible .entry k()\n.minnctapersm 2\n{\n    ret;\n}\n");
    gpu.launch(&launch1(&m2, "k", 1, 768, vec![])).unwrap();
    let e = gpu.launch(&launch1(&m2, "k", 1, 800, vec![])).unwrap_err();
    assert!(e.to_string().contains(".minnctapersm 2"), "{e}");
}

#[test]
fn runtime_errors() {
    let m = module(
        ".visible .entry oob(.param .u64 p)\n{\n    .reg .b64 %rd<2>;\n    .reg .b32 %r<2>;\n    ld.param.u64 %rd1, [p];\n    ld.global.u32 %r1, [%rd1+4096];\n    ret;\n}\n\
         .visible .entry uni()\n{\n    .reg .b32 %r<2>;\n    .reg .pred %p<2>;\n    mov.u32 %r1, %tid.x;\n    setp.lt.u32 %p1, %r1, 3;\n    @%p1 bra.uni L;\nL:\n    ret;\n}\n\
         .visible .entry fall()\n{\n    .reg .b32 %r<2>;\n    mov.u32 %r1, 1;\n}\n",
    );
    let mut gpu = Emulator::new();
    let p = gpu.alloc(4096).unwrap();
    let e = gpu
        .launch(&launch1(&m, "oob", 1, 32, vec![ParamValue::U64(p)]))
        .unwrap_err();
    assert!(matches!(e, SimError::Runtime { pc: 8, .. }), "{e}");
    assert!(
        e.to_string().contains("out of bounds") && e.to_string().contains("t.ptx:"),
        "{e}"
    );
    let e = gpu.launch(&launch1(&m, "uni", 1, 32, vec![])).unwrap_err();
    assert!(e.to_string().contains("bra.uni diverged"), "{e}");
    let e = gpu.launch(&launch1(&m, "fall", 1, 32, vec![])).unwrap_err();
    assert!(e.to_string().contains("missing ret or exit"), "{e}");
}

const BARRIER: &str = r#"
.visible .entry b(.param .u64 out)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    .shared .u32 s[64];
    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 2;
    mov.u32 %r3, s;
    add.u32 %r3, %r3, %r2;
    st.shared.u32 [%r3], %r1;
    bar.sync 0;
    xor.b32 %r4, %r1, 63;
    shl.b32 %r4, %r4, 2;
    mov.u32 %r5, s;
    add.u32 %r5, %r5, %r4;
    ld.shared.u32 %r5, [%r5];
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    exit;
}
"#;

#[test]
fn stream_enforces_barrier_rule_and_cta_lifecycle() {
    let m = module(BARRIER);
    let mut gpu = Emulator::new();
    let out = gpu.alloc(256).unwrap();
    let l = launch1(&m, "b", 2, 64, vec![ParamValue::U64(out)]);
    let mut s = gpu.stream(&l).unwrap();
    let mut rec = blank();
    assert!(s.next_inst(0, 0, 0, &mut rec).is_err(), "CTA not open");
    s.begin_cta(1, 0, 0).unwrap();
    assert!(s.begin_cta(1, 0, 0).is_err(), "already open");
    assert!(s.begin_cta(2, 0, 0).is_err(), "outside the grid");
    // Warp 0 runs to its barrier.
    loop {
        s.next_inst(1, 0, 0, &mut rec).unwrap();
        if rec.op == OpClass::Barrier {
            break;
        }
    }
    assert_eq!(rec.family, Family::Bar);
    let e = s.next_inst(1, 0, 0, &mut rec).unwrap_err();
    assert!(e.to_string().contains("waiting at a barrier"), "{e}");
    assert!(s.end_cta(1).is_err(), "warps still running");
    // Warp 1 arrives: the barrier releases and both warps finish.
    loop {
        s.next_inst(1, 1, 0, &mut rec).unwrap();
        if rec.op == OpClass::Barrier {
            break;
        }
    }
    for w in 0..2 {
        while s.next_inst(1, w, 0, &mut rec).unwrap() == Step::Inst {}
    }
    s.end_cta(1).unwrap();
    drop(s);
    let v = read_u32(&mut gpu, out, 64);
    for t in 0..64u32 {
        assert_eq!(v[t as usize], t ^ 63);
    }
}

#[test]
fn register_allocation_reuses_dead_registers_and_pairs_are_aligned() {
    let m = module(
        ".visible .entry r(.param .u64 p)\n{\n    .reg .b32 %r<6>;\n    .reg .b64 %rd<4>;\n\
         ld.param.u64 %rd1, [p];\n    mov.u32 %r1, 1;\n    mov.u32 %r2, 2;\n    add.u32 %r3, %r1, %r2;\n\
         mul.wide.u32 %rd2, %r3, 4;\n    add.s64 %rd3, %rd1, %rd2;\n    mov.u32 %r4, 9;\n    st.global.u32 [%rd3], %r4;\n    ret;\n}\n",
    );
    let k = m.kernel("r").unwrap();
    // Live at once at most: rd1 (pair), r1, r2 → 4 registers; the 64-bit values start on even
    // registers.
    assert_eq!(k.regs_per_thread(), 4);
    for t in &k.code.templates {
        if t.op == OpClass::Mul {
            assert_eq!(t.dst[0] % 2, 0);
            assert_eq!(t.n_dst, 2);
        }
    }
    // A manifest may raise the count reported to the timing model, never lower it.
    let raised = k.with_regs_per_thread(27).unwrap();
    assert_eq!(raised.regs_per_thread(), 27);
    assert!(k.with_regs_per_thread(3).is_err());
    let mut gpu = Emulator::new();
    let p = gpu.alloc(64).unwrap();
    let l = Launch {
        kernel: raised,
        grid: [1, 1, 1],
        block: [32, 1, 1],
        params: vec![ParamValue::U64(p)],
        shared_bytes: 0,
        cooperative: false,
    };
    assert_eq!(gpu.stream(&l).unwrap().info().regs_per_thread, 27);
    // A kernel without registers still reports one register per thread.
    let empty = module(".visible .entry e()\n{\n    ret;\n}\n");
    assert_eq!(empty.kernel("e").unwrap().regs_per_thread(), 1);
}

#[test]
fn address_size_32_pointers() {
    let m = Module::parse(
        ".version 7.0\n.target sm_70\n.address_size 32\n.visible .entry k(.param .u32 p)\n{\n    .reg .b32 %r<4>;\n\
         ld.param.u32 %r1, [p];\n    mov.u32 %r2, %tid.x;\n    shl.b32 %r3, %r2, 2;\n    add.u32 %r1, %r1, %r3;\n\
         st.global.u32 [%r1], %r2;\n    ret;\n}\n",
        "a32.ptx",
    )
    .unwrap();
    let mut gpu = Emulator::new();
    let buf = gpu.alloc(128).unwrap();
    let p = u32::try_from(buf).expect("device pointers fit in 32 bits");
    gpu.launch(&launch1(&m, "k", 1, 32, vec![ParamValue::U32(p)]))
        .unwrap();
    assert_eq!(read_u32(&mut gpu, buf, 32), (0..32).collect::<Vec<u32>>());
}
