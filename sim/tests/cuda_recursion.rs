//! Recursive device functions (`sim/tests/cuda/recursion.cu`, compiled by nvcc for sm_75 at
//! -O3), run with real calls and returns (`ptx/subcall.rs`): Fibonacci by double recursion,
//! a recursive bisection over a sorted array, a function with a local array per activation and
//! a recursive sum, each thread to a data-dependent depth so that the lanes of a warp are at
//! different depths at once. Results are checked against CPU models on the functional emulator
//! and through the cycle-level timing model (which must see the stack's local-memory traffic);
//! a recursion deeper than the stack limit stops with a stack-overflow error naming kernel,
//! function and limit, and runs once the limit is raised.
//!
//! `recursion.ptx` is committed beside its source, so the tests run where nvcc is absent;
//! `nvcc_recompiles_recursion` compiles the source afresh and runs the checks on that PTX too
//! (reported as ignored without nvcc, failing under `CI`).

mod common;
use common::data;

use sim::config::GpuConfig;
use sim::emu::Emulator;
use sim::ptx::Module;
use sim::timing::TimingGpu;
use sim::{Gpu, Launch, ParamValue, SimError};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda")
}

fn committed() -> Module {
    let p = dir().join("recursion.ptx");
    let text = std::fs::read_to_string(&p).unwrap();
    Module::parse(&text, &p.display().to_string()).unwrap()
}

fn up<T: Copy>(gpu: &mut dyn Gpu, v: &[T]) -> u64 {
    let bytes = std::mem::size_of_val(v);
    // a byte view of plain numbers (no padding in the element types used here)
    let raw: Vec<u8> =
        unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, bytes) }.to_vec();
    let p = gpu.alloc(bytes.max(4) as u64).unwrap();
    gpu.copy_to_device(p, &raw).unwrap();
    p
}

fn down(gpu: &mut dyn Gpu, p: u64, n: usize, w: usize) -> Vec<u64> {
    let mut b = vec![0u8; n * w];
    gpu.copy_from_device(p, &mut b).unwrap();
    b.chunks(w)
        .map(|c| {
            let mut x = [0u8; 8];
            x[..w].copy_from_slice(c);
            u64::from_le_bytes(x)
        })
        .collect()
}

fn u(p: u64) -> ParamValue {
    ParamValue::U64(p)
}

fn launch(
    gpu: &mut dyn Gpu,
    m: &Module,
    k: &str,
    threads: usize,
    p: Vec<ParamValue>,
) -> Result<(), SimError> {
    let block = 64u32;
    gpu.launch(&Launch {
        kernel: m.load(k).unwrap(),
        grid: [(threads as u32).div_ceil(block), 1, 1],
        block: [block, 1, 1],
        params: p,
        shared_bytes: 0,
        cooperative: false,
    })
}

fn fib(n: u32) -> u32 {
    let (mut a, mut b) = (0u32, 1u32);
    for _ in 0..n {
        (a, b) = (b, a.wrapping_add(b));
    }
    a
}

/// The CPU model of `mix` in `recursion.cu`.
fn mix(x: u32, depth: i32) -> u32 {
    let buf: Vec<u32> = (0..8u32)
        .map(|j| x.wrapping_mul(2 * j + 1).wrapping_add(depth as u32))
        .collect();
    let r = if depth > 0 {
        mix(buf[(x & 7) as usize] ^ (x >> 3), depth - 1)
    } else {
        0
    };
    buf[(x.wrapping_add(r) & 7) as usize].wrapping_add(r.wrapping_mul(3))
}

/// Runs every recursive kernel on `gpu` (stack limit `stack`) and checks the results.
fn check_all(gpu: &mut dyn Gpu, m: &Module) {
    // Fibonacci: n in 0..=18 per thread (call trees of up to ~8000 calls, depth n)
    let n = 150;
    let ns: Vec<u32> = data(n, 3).iter().map(|x| x % 19).collect();
    let (pn, po) = (up(gpu, &ns), up(gpu, &vec![0u32; n]));
    launch(
        gpu,
        m,
        "fib_kernel",
        n,
        vec![u(pn), u(po), ParamValue::S32(n as i32)],
    )
    .unwrap_or_else(|e| panic!("fib_kernel: {e}"));
    let got = down(gpu, po, n, 4);
    for i in 0..n {
        assert_eq!(got[i] as u32, fib(ns[i]), "fib({}) of thread {i}", ns[i]);
    }
    // bisection over a sorted array of 1000 floats
    let len = 1000usize;
    let a: Vec<f32> = (0..len)
        .map(|j| j as f32 * 0.5 + (j % 7) as f32 * 0.01)
        .collect();
    let keys: Vec<f32> = data(n, 5)
        .iter()
        .map(|x| (x % 60_000) as f32 / 100.0 - 50.0)
        .collect();
    let (pa, pk, po) = (up(gpu, &a), up(gpu, &keys), up(gpu, &vec![0i32; n]));
    launch(
        gpu,
        m,
        "bisect_kernel",
        n,
        vec![
            u(pa),
            ParamValue::S32(len as i32),
            u(pk),
            u(po),
            ParamValue::S32(n as i32),
        ],
    )
    .unwrap_or_else(|e| panic!("bisect_kernel: {e}"));
    let got = down(gpu, po, n, 4);
    for i in 0..n {
        let want = a.iter().filter(|&&v| v < keys[i]).count();
        assert_eq!(
            got[i] as usize, want,
            "count below {} (thread {i})",
            keys[i]
        );
    }
    // a local array per activation, depth 0..=9 per thread
    let xs = data(n, 7);
    let ds: Vec<i32> = data(n, 11).iter().map(|x| (x % 10) as i32).collect();
    let (px, pd, po) = (up(gpu, &xs), up(gpu, &ds), up(gpu, &vec![0u32; n]));
    launch(
        gpu,
        m,
        "mix_kernel",
        n,
        vec![u(px), u(pd), u(po), ParamValue::S32(n as i32)],
    )
    .unwrap_or_else(|e| panic!("mix_kernel: {e}"));
    let got = down(gpu, po, n, 4);
    for i in 0..n {
        assert_eq!(got[i] as u32, mix(xs[i], ds[i]), "mix of thread {i}");
    }
    // a recursive sum, n in 0..=12 per thread (fits the default stack)
    let sn: Vec<i32> = data(n, 13).iter().map(|x| (x % 13) as i32).collect();
    let (pn, p1, po) = (up(gpu, &sn), up(gpu, &[1i32]), up(gpu, &vec![0i64; n]));
    launch(
        gpu,
        m,
        "sum_kernel",
        n,
        vec![u(pn), u(p1), u(po), ParamValue::S32(n as i32)],
    )
    .unwrap_or_else(|e| panic!("sum_kernel: {e}"));
    let got = down(gpu, po, n, 8);
    for i in 0..n {
        let k = i64::from(sn[i]);
        assert_eq!(got[i] as i64, k * (k + 1) / 2, "sum to {k} (thread {i})");
    }
}

#[test]
fn recursive_kernels_match_cpu_models() {
    check_all(&mut Emulator::new(), &committed());
}

#[test]
fn recursive_kernels_through_the_timing_model() {
    let mut t = TimingGpu::new(GpuConfig::preset("gtx480").unwrap());
    check_all(&mut t, &committed());
    // the calls, returns and the stack's loads and stores reach the timing model: the
    // timed instruction counts equal the functional emulator's, and fib (two global accesses
    // per thread) issues far more memory instructions than its warps (3 warps of 64-thread
    // CTAs for 150 threads) would without a stack
    let a = t.activity();
    assert_eq!(a.aggregate.launches, 4);
    assert!(a.kernels.iter().all(|k| k.cycles > 0));
    let mut e = Emulator::new();
    check_all(&mut e, &committed());
    assert_eq!(a.aggregate.warp_insts, e.warp_insts(), "timed = functional");
    let fib = a.kernels.iter().find(|k| k.name == "fib_kernel").unwrap();
    assert!(
        fib.by_family.mem.warp_insts > 1000,
        "{:?}",
        fib.by_family.mem
    );
    assert!(
        fib.by_family.ctrl.warp_insts > 1000,
        "{:?}",
        fib.by_family.ctrl
    );
}

/// The reference modes of the control-flow spec (PDOM, MIMD, NREC and dynamic warp formation,
/// which regroup threads across warps) run the recursive kernels exactly: each thread returns
/// to the address in its own register.
#[test]
fn recursive_kernels_in_the_reference_modes() {
    use sim::config::reconv::{DwfPolicy, ReconvMode};
    use sim::timing::dwf::refmodel::RefGpu;
    let m = committed();
    for (mode, policy) in [
        (ReconvMode::Pdom, DwfPolicy::Dmaj),
        (ReconvMode::Mimd, DwfPolicy::Dmaj),
        (ReconvMode::Nrec, DwfPolicy::Dmaj),
        (ReconvMode::Dwf, DwfPolicy::Dmaj),
        (ReconvMode::Dwf, DwfPolicy::Dpdpri),
    ] {
        let mut c = GpuConfig::preset("gf8800gtx_like").unwrap();
        c.reconv.mode = mode;
        c.dwf.policy = policy;
        let mut gpu = RefGpu::new(&c).unwrap();
        check_all(&mut gpu, &m);
        assert!(gpu.stats.cycles > 0, "{mode:?}");
    }
}

/// Every recursive function is emitted once, called with real calls, not inlined or refused.
#[test]
fn recursive_functions_become_subroutines() {
    let m = committed();
    assert!(m.refused().is_empty(), "{:?}", m.refused());
    for k in m.kernel_names() {
        let k = m.load(&k).unwrap();
        let calls = k.code.calls.as_ref().expect("calls a recursive function");
        assert_eq!(calls.funcs.len(), 1);
        let n_call = k
            .insts()
            .iter()
            .filter(|i| matches!(i.op, sim::ptx::Op::Call { .. }))
            .count();
        let n_ret = k
            .insts()
            .iter()
            .filter(|i| matches!(i.op, sim::ptx::Op::Return { .. }))
            .count();
        assert!(n_call >= 2, "{}: {n_call} calls", k.name);
        assert_eq!(n_ret, 1, "{}: one return", k.name);
    }
}

/// A recursion deeper than the stack limit is a clear runtime error naming kernel, function
/// and limit; with the limit raised (cudaDeviceSetLimit) it runs and is exact.
#[test]
fn stack_overflow_is_a_clear_error() {
    let m = committed();
    let mut gpu = Emulator::new();
    let n = 40;
    let sn: Vec<i32> = (0..n)
        .map(|i| if i == 17 { 3000 } else { i as i32 })
        .collect();
    let (pn, p1, po) = (
        up(&mut gpu, &sn),
        up(&mut gpu, &[1i32]),
        up(&mut gpu, &vec![0i64; n]),
    );
    let args = vec![u(pn), u(p1), u(po), ParamValue::S32(n as i32)];
    let e = launch(&mut gpu, &m, "sum_kernel", n, args.clone()).expect_err("must overflow");
    let msg = e.to_string();
    assert!(matches!(e, SimError::Runtime { .. }), "{msg}");
    assert!(msg.contains("stack overflow"), "{msg}");
    assert!(msg.contains("sum_kernel"), "{msg}");
    assert!(msg.contains("_Z6sum_toiPVKi"), "{msg}");
    assert!(msg.contains("stack limit of 1024 bytes"), "{msg}");
    assert!(msg.contains("thread 17 "), "{msg}");
    gpu.set_stack_limit(256 * 1024).unwrap();
    launch(&mut gpu, &m, "sum_kernel", n, args).unwrap();
    let got = down(&mut gpu, po, n, 8);
    for i in 0..n {
        let k = i64::from(sn[i]);
        assert_eq!(got[i] as i64, k * (k + 1) / 2, "sum to {k}");
    }
    assert!(gpu.set_stack_limit(1 << 30).is_err());
}

#[test]
fn nvcc_recompiles_recursion() {
    let Some(text) = common::nvcc_ptx(&dir().join("recursion.cu")) else {
        return;
    };
    check_all(
        &mut Emulator::new(),
        &Module::parse(&text, "recursion.ptx").unwrap(),
    );
}
