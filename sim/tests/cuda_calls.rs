//! Calls nvcc cannot inline (`sim/tests/cuda/calls.cu`, compiled by nvcc for sm_75 at -O3):
//! virtual functions through vtables with the lanes of one warp reaching different targets,
//! a function-pointer table indexed by data, function addresses as values (`mov.u64 %rd, f`,
//! a `.global` table of function symbols), a call of an address that is no function (a
//! runtime error, no panic) and a virtual call that recurses, checked against CPU models on the
//! functional emulator. Also: `.calltargets` lists and malformed indirect calls in handwritten
//! PTX, and (only where the local probe set of public samples is present) the CUDA samples'
//! `newdelete` module.
//!
//! `calls.ptx` is committed beside its source, so the tests run where nvcc is absent;
//! `nvcc_recompiles_calls` compiles the source afresh and runs the checks on that PTX too
//! (reported as ignored without nvcc, failing under `CI`).

mod common;
use common::data;
use common::{down_u32, down_u64, up};
use sim::emu::Emulator;
use sim::ptx::inline::{FUNC_ADDR_BASE, FUNC_ADDR_END, FUNC_ADDR_STRIDE};
use sim::ptx::Module;
use sim::{Gpu, Launch, ParamValue, SimError};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda")
}

fn committed() -> Module {
    let p = dir().join("calls.ptx");
    let text = std::fs::read_to_string(&p).unwrap();
    Module::parse(&text, &p.display().to_string()).unwrap()
}

fn try_go(
    gpu: &mut Emulator,
    m: &Module,
    k: &str,
    grid: u32,
    block: u32,
    p: Vec<ParamValue>,
) -> Result<(), SimError> {
    gpu.launch(&Launch {
        kernel: m.load(k).unwrap(),
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        params: p,
        shared_bytes: 0,
        cooperative: false,
    })
}

fn go(gpu: &mut Emulator, m: &Module, k: &str, grid: u32, block: u32, p: Vec<ParamValue>) {
    try_go(gpu, m, k, grid, block, p).unwrap_or_else(|e| panic!("{k}: {e}"));
}

fn u(x: u64) -> ParamValue {
    ParamValue::U64(x)
}

/// CPU model of `op_table[k](a, b)`.
fn binop(k: u32, a: i32, b: i32) -> i32 {
    match k & 3 {
        0 => a.wrapping_add(b),
        1 => a.wrapping_sub(b),
        2 => a.wrapping_mul(b),
        _ => a.max(b),
    }
}

/// Virtual calls: every warp holds all three shapes, so each virtual call diverges.
fn check_shapes(m: &Module) {
    let mut gpu = Emulator::new();
    let n = 100usize;
    let kind: Vec<i32> = data(n, 3).iter().map(|&v| (v % 1000) as i32).collect();
    let first_warp: std::collections::BTreeSet<i32> = kind[..32].iter().map(|k| k % 3).collect();
    assert_eq!(
        first_warp.len(),
        3,
        "the first warp should hold every shape"
    );
    let size: Vec<f32> = data(n, 4)
        .iter()
        .map(|&v| (v % 64) as f32 * 0.125)
        .collect();
    let slots = up(&mut gpu, &vec![0u8; 16 * n]);
    let (pk, ps) = (up(&mut gpu, &kind), up(&mut gpu, &size));
    let nn = ParamValue::U32(n as u32);
    go(
        &mut gpu,
        m,
        "build_shapes",
        4,
        32,
        vec![u(slots), u(pk), u(ps), nn.clone()],
    );
    let (pa, pn) = (up(&mut gpu, &vec![0f32; n]), up(&mut gpu, &vec![0i32; n]));
    let f = 0.5f32;
    go(
        &mut gpu,
        m,
        "shape_areas",
        4,
        32,
        vec![u(slots), ParamValue::F32(f), u(pa), u(pn), nn],
    );
    let area = down_u32(&mut gpu, pa, n);
    let sides = down_u32(&mut gpu, pn, n);
    for i in 0..n {
        let s = size[i];
        let (want_area, want_sides) = match kind[i] % 3 {
            0 => ((s * f) * (s * f), 4),
            1 => (0.433_012_7f32 * (s + f) * (s + f), 3),
            _ => (2.598_076_f32 * (s * f) * (s * f), 6),
        };
        assert_eq!(f32::from_bits(area[i]), want_area, "area {i}");
        assert_eq!(sides[i], want_sides, "sides {i}");
    }
}

/// A table of function pointers in a `.global` variable, indexed by data; the table's values
/// read back; calls through those values; an invalid address.
fn check_pointers(m: &Module) {
    let mut gpu = Emulator::new();
    let n = 96usize;
    let sel = data(n, 5);
    let a: Vec<i32> = data(n, 6).iter().map(|&v| v as i32 >> 8).collect();
    let b: Vec<i32> = data(n, 7).iter().map(|&v| v as i32 >> 9).collect();
    let (psel, pa, pb) = (up(&mut gpu, &sel), up(&mut gpu, &a), up(&mut gpu, &b));
    let nn = ParamValue::U32(n as u32);
    let po = up(&mut gpu, &vec![0i32; n]);
    go(
        &mut gpu,
        m,
        "apply_table",
        3,
        32,
        vec![u(psel), u(pa), u(pb), u(po), nn.clone()],
    );
    let got = down_u32(&mut gpu, po, n);
    for i in 0..n {
        assert_eq!(got[i] as i32, binop(sel[i], a[i], b[i]), "apply_table {i}");
    }
    // the table holds four distinct addresses of the code range
    let pf = up(&mut gpu, &[0u64; 4]);
    go(&mut gpu, m, "table_addresses", 1, 32, vec![u(pf)]);
    let fns = down_u64(&mut gpu, pf, 4);
    for (k, &f) in fns.iter().enumerate() {
        assert!(
            (FUNC_ADDR_BASE..FUNC_ADDR_END).contains(&f),
            "fn[{k}] = {f:#x}"
        );
        assert_eq!(
            (f - FUNC_ADDR_BASE) % FUNC_ADDR_STRIDE,
            0,
            "fn[{k}] = {f:#x}"
        );
        assert!(!fns[..k].contains(&f), "fn[{k}] = {f:#x} repeats");
    }
    // a call through each lane's own address gives the same results
    let addr: Vec<u64> = sel.iter().map(|&s| fns[(s & 3) as usize]).collect();
    let pad = up(&mut gpu, &addr);
    let po2 = up(&mut gpu, &vec![0i32; n]);
    go(
        &mut gpu,
        m,
        "call_address",
        3,
        32,
        vec![u(pad), u(pa), u(pb), u(po2), nn.clone()],
    );
    assert_eq!(down_u32(&mut gpu, po2, n), got);
    // the address of a function taken in code
    let po3 = up(&mut gpu, &vec![0i32; n]);
    go(
        &mut gpu,
        m,
        "pick_by_parity",
        3,
        32,
        vec![u(pa), u(pb), u(po3), nn.clone()],
    );
    let par = down_u32(&mut gpu, po3, n);
    for i in 0..n {
        let want = if a[i] & 1 == 1 {
            binop(1, a[i], b[i])
        } else {
            binop(0, a[i], b[i])
        };
        assert_eq!(par[i] as i32, want, "pick_by_parity {i}");
    }
    // one lane calls an address that is no function: a runtime error naming it
    let mut bad = addr.clone();
    bad[37] = 0x1234;
    let pbad = up(&mut gpu, &bad);
    let e = try_go(
        &mut gpu,
        m,
        "call_address",
        3,
        32,
        vec![u(pbad), u(pa), u(pb), u(po2), nn],
    )
    .expect_err("a call of 0x1234 must fail");
    let msg = e.to_string();
    assert!(matches!(e, SimError::Runtime { .. }), "{msg}");
    assert!(msg.contains("call_address"), "{msg}");
    assert!(
        msg.contains("indirect call to an address that is no function: 0x1234"),
        "{msg}"
    );
}

/// A virtual call inside a virtual function: one level, and chains that recurse through the
/// same function (a subroutine with real calls, `ptx/subcall.rs`).
fn check_nodes(m: &Module) {
    let mut gpu = Emulator::new();
    let pairs = 40usize;
    // Wrap k wraps the leaf of pair (7k mod 40)
    let mut wrap_of: Vec<i32> = (0..pairs).map(|k| (2 * (7 * k % pairs)) as i32).collect();
    let slots = up(&mut gpu, &vec![0u8; 32 * 2 * pairs]);
    let pw = up(&mut gpu, &wrap_of);
    let np = ParamValue::U32(pairs as u32);
    go(
        &mut gpu,
        m,
        "build_nodes",
        2,
        32,
        vec![u(slots), u(pw), np.clone()],
    );
    let n = 2 * pairs;
    let po = up(&mut gpu, &vec![0i32; n]);
    let nn = ParamValue::U32(n as u32);
    go(
        &mut gpu,
        m,
        "eval_nodes",
        3,
        32,
        vec![u(slots), u(po), nn.clone()],
    );
    let got = down_u32(&mut gpu, po, n);
    for k in 0..pairs {
        assert_eq!(got[2 * k] as usize, k, "leaf {k}");
        assert_eq!(got[2 * k + 1] as usize, 2 * (7 * k % pairs) + 1, "wrap {k}");
    }
    // Wrap 5 around Wrap 3, Wrap 9 around Wrap 5: evaluating nodes 11 and 19 recurses
    // through Wrap::eval (a recursive virtual call, run as a real call with a stack), two and
    // three levels deep, while the other lanes of the warp evaluate one level
    wrap_of[5] = 7;
    wrap_of[9] = 11;
    let pw = up(&mut gpu, &wrap_of);
    go(&mut gpu, m, "build_nodes", 2, 32, vec![u(slots), u(pw), np]);
    go(&mut gpu, m, "eval_nodes", 3, 32, vec![u(slots), u(po), nn]);
    let got = down_u32(&mut gpu, po, n);
    let value = |slot: usize| -> u32 {
        // a CPU model of Node::eval
        let mut s = slot;
        let mut wraps = 0;
        while s % 2 == 1 {
            s = wrap_of[s / 2] as usize;
            wraps += 1;
        }
        (0..wraps).fold((s / 2) as u32, |v, _| 2 * v + 1)
    };
    for (i, &g) in got.iter().enumerate() {
        assert_eq!(g, value(i), "node {i}");
    }
    assert_eq!((got[11], got[19]), (87, 175));
}

fn check_all(m: &Module) {
    check_shapes(m);
    check_pointers(m);
    check_nodes(m);
}

#[test]
fn virtual_calls_diverge_within_a_warp() {
    check_shapes(&committed());
}

#[test]
fn function_pointer_tables_and_addresses() {
    check_pointers(&committed());
}

#[test]
fn nested_virtual_calls_and_recursion_through_a_pointer() {
    check_nodes(&committed());
}

#[test]
fn every_calls_kernel_is_accepted() {
    let m = committed();
    assert!(m.refused().is_empty(), "{:?}", m.refused());
    assert_eq!(m.kernel_names().len(), 8);
}

/// A handwritten module: `.calltargets` restricts the chain to its list; an address taken in
/// code but left out of the list is no target.
const TARGETS: &str = r#"
.version 8.0
.target sm_75
.address_size 64
.func (.param .b32 r) twice (.param .b32 x)
{
    .reg .b32 %a;
    ld.param.b32 %a, [x];
    add.s32 %a, %a, %a;
    st.param.b32 [r], %a;
    ret;
}
.func (.param .b32 r) negate (.param .b32 x)
{
    .reg .b32 %a;
    ld.param.b32 %a, [x];
    neg.s32 %a, %a;
    st.param.b32 [r], %a;
    ret;
}
.entry pick (.param .u64 out, .param .u32 which)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<5>;
    .reg .pred %p;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [which];
    mov.u32 %r2, %tid.x;
    mov.u64 %rd2, twice;
    mov.u64 %rd3, negate;
    setp.lt.u32 %p, %r2, %r1;
    selp.b64 %rd4, %rd3, %rd2, %p;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r2;
    .param .b32 r0;
    tl: .calltargets twice;
    call (r0), %rd4, (a0), tl;
    ld.param.b32 %r3, [r0];
    }
    mul.wide.u32 %rd2, %r2, 4;
    add.s64 %rd2, %rd1, %rd2;
    st.global.u32 [%rd2], %r3;
    ret;
}
"#;

#[test]
fn call_targets_list_bounds_the_candidates() {
    let m = Module::parse(TARGETS, "targets.ptx").unwrap();
    let mut gpu = Emulator::new();
    let po = up(&mut gpu, &[0u32; 32]);
    go(&mut gpu, &m, "pick", 1, 32, vec![u(po), ParamValue::U32(0)]);
    let got = down_u32(&mut gpu, po, 32);
    assert_eq!(got, (0..32).map(|t| 2 * t).collect::<Vec<u32>>());
    // lanes 0..3 call negate, which the list leaves out
    let e = try_go(&mut gpu, &m, "pick", 1, 32, vec![u(po), ParamValue::U32(3)]).unwrap_err();
    assert!(e.to_string().contains("no function"), "{e}");
}

#[test]
fn malformed_indirect_calls_are_refused_with_their_line() {
    // no prototype label
    let text = TARGETS.replace("call (r0), %rd4, (a0), tl;", "call (r0), %rd4, (a0);");
    let m = Module::parse_lenient(&text, "t.ptx").unwrap();
    let e = m.load("pick").unwrap_err().to_string();
    let line = text.lines().position(|l| l.contains("call (r0)")).unwrap() + 1;
    let at = format!("t.ptx:{line}:");
    assert!(
        e.contains(&at) && e.contains("without a .callprototype"),
        "{e}"
    );
    // a label that is not a prototype
    let text = TARGETS.replace("(a0), tl;", "(a0), nope;");
    let e = Module::parse_lenient(&text, "t.ptx")
        .unwrap()
        .load("pick")
        .unwrap_err();
    assert!(
        e.to_string().contains("'nope' is not a .callprototype"),
        "{e}"
    );
    // a target list naming something that is no function
    let text = TARGETS.replace(".calltargets twice;", ".calltargets twice, out;");
    let e = Module::parse_lenient(&text, "t.ptx")
        .unwrap()
        .load("pick")
        .unwrap_err();
    assert!(e.to_string().contains("'out' is not a function"), "{e}");
    // a call through a predicate
    let text = TARGETS.replace("call (r0), %rd4,", "call (r0), %p,");
    let e = Module::parse_lenient(&text, "t.ptx")
        .unwrap()
        .load("pick")
        .unwrap_err();
    assert!(
        e.to_string().contains("not a 32- or 64-bit register"),
        "{e}"
    );
}

/// The CUDA samples' `newdelete` (virtual destructors, `push`/`pop` through vtables, device
/// `new`/`delete`): every kernel loads. Reads the local probe set only where it is present.
#[test]
fn newdelete_sample_loads_where_present() {
    let p = Path::new(
        "/work/probe/ptx/NVIDIA+cuda-samples_Samples_3_CUDA_Features_newdelete_newdelete.ptx",
    );
    let Ok(text) = std::fs::read_to_string(p) else {
        eprintln!("ignored: {} is not present", p.display());
        return;
    };
    let m = Module::parse_lenient(&text, &p.display().to_string()).unwrap();
    assert!(m.refused().is_empty(), "{:?}", m.refused());
    for k in m.kernel_names() {
        m.load(&k).unwrap_or_else(|e| panic!("{k}: {e}"));
    }
}

#[test]
fn nvcc_recompiles_calls() {
    let Some(text) = common::nvcc_ptx(&dir().join("calls.cu")) else {
        return;
    };
    check_all(&Module::parse(&text, "calls.ptx").unwrap());
}
