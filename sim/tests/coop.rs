//! Cooperative launches, `%globaltimer` and `cudaGraphSetConditional` on the project's own CUDA
//! kernels (`sim/tests/cuda/coop.cu`, its PTX committed beside it): a grid-synchronised
//! three-phase reduction against a CPU reference on the functional emulator and on the
//! cycle-level model; the co-residency error of a grid too large to be cooperative; the same
//! kernel launched without cooperation stops at its own `trap`; a spin on another CTA's store
//! is a deadlock error in an ordinary functional launch and completes in a cooperative one;
//! `%globaltimer` readings never decrease, and in a timing run they are the cycles at the core
//! clock; `cudaGraphSetConditional` stores the value at the handle.

use sim::config::GpuConfig;
use sim::emu::Emulator;
use sim::ptx::Module;
use sim::timing::TimingGpu;
use sim::{Gpu, Launch, ParamValue, SimError};
use std::path::Path;

fn module() -> Module {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cuda/coop.ptx");
    let text = std::fs::read_to_string(&p).unwrap();
    Module::parse(&text, &p.display().to_string()).unwrap()
}

fn gtx480() -> GpuConfig {
    GpuConfig::preset("gtx480").unwrap()
}

/// A functional emulator that checks co-residency against the GTX480 preset.
fn emulator() -> Emulator {
    let mut e = Emulator::new();
    e.coop_check = Some(sim::timing::cooperative_check(&gtx480()));
    e.max_warp_insts_per_launch = Some(50_000_000);
    e
}

fn up(gpu: &mut dyn Gpu, v: &[u32]) -> u64 {
    let b: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    let p = gpu.alloc(b.len().max(4) as u64).unwrap();
    gpu.copy_to_device(p, &b).unwrap();
    p
}

fn down(gpu: &mut dyn Gpu, p: u64, n: usize) -> Vec<u32> {
    let mut b = vec![0u8; n * 4];
    gpu.copy_from_device(p, &mut b).unwrap();
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn data(n: usize) -> Vec<u32> {
    let mut x = 12345u32;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x % 1000
        })
        .collect()
}

fn grid_sum_launch(m: &Module, grid: u32, ptrs: [u64; 4], n: u32, coop: bool) -> Launch {
    Launch {
        kernel: m.load("grid_sum").unwrap(),
        grid: [grid, 1, 1],
        block: [256, 1, 1],
        params: vec![
            ParamValue::U64(ptrs[0]),
            ParamValue::U64(ptrs[1]),
            ParamValue::U64(ptrs[2]),
            ParamValue::U64(ptrs[3]),
            ParamValue::U32(n),
        ],
        shared_bytes: 0,
        cooperative: coop,
    }
}

/// Runs `grid_sum` on `gpu` with `grid` CTAs; returns (total, y).
fn grid_sum(
    gpu: &mut dyn Gpu,
    grid: u32,
    x: &[u32],
    coop: bool,
) -> Result<(u32, Vec<u32>), SimError> {
    let m = module();
    let n = x.len();
    let px = up(gpu, x);
    let pp = up(gpu, &vec![0; grid as usize]);
    let pt = up(gpu, &[0]);
    let py = up(gpu, &vec![0; n]);
    gpu.launch(&grid_sum_launch(&m, grid, [px, pp, pt, py], n as u32, coop))?;
    Ok((down(gpu, pt, 1)[0], down(gpu, py, n)))
}

fn reference(x: &[u32]) -> (u32, Vec<u32>) {
    let t = x.iter().fold(0u32, |a, &v| a.wrapping_add(v));
    (
        t,
        x.iter()
            .map(|&v| 2u32.wrapping_mul(v).wrapping_add(t))
            .collect(),
    )
}

#[test]
fn grid_synchronised_reduction_matches_cpu_functionally_and_with_timing() {
    let x = data(20_000);
    let want = reference(&x);
    // 30 CTAs of 256 threads: co-resident on the GTX480's 15 SMs
    let mut emu = emulator();
    assert_eq!(grid_sum(&mut emu, 30, &x, true).unwrap(), want);
    // the workspace is zeroed at every cooperative launch: a second launch works too
    assert_eq!(grid_sum(&mut emu, 30, &x, true).unwrap(), want);
    let mut t = TimingGpu::new(gtx480());
    assert_eq!(grid_sum(&mut t, 30, &x, true).unwrap(), want);
    let cycles = t.activity().kernels[0].cycles;
    assert!(cycles > 1000, "{cycles}");
    // deterministic
    let mut t2 = TimingGpu::new(gtx480());
    grid_sum(&mut t2, 30, &x, true).unwrap();
    assert_eq!(t2.activity().kernels[0].cycles, cycles);
}

#[test]
fn a_cooperative_grid_that_does_not_fit_is_an_error_naming_the_launch() {
    let x = data(1000);
    // GTX480: 15 SMs, 5 CTAs of grid_sum (256 threads) per SM, limited by registers
    let m = module();
    let info = sim::KernelInfo {
        name: "grid_sum".into(),
        grid: [1, 1, 1],
        block: [256, 1, 1],
        shared_bytes: m.load("grid_sum").unwrap().static_shared_bytes(),
        regs_per_thread: m.load("grid_sum").unwrap().regs_per_thread(),
    };
    let occ = sim::timing::occupancy(&gtx480(), &info).unwrap();
    assert_eq!((occ.max_ctas, occ.limiter), (5, "registers"));
    let fit = 5 * 15;
    let mut t = TimingGpu::new(gtx480());
    assert!(grid_sum(&mut t, fit, &x, true).is_ok());
    for gpu in [
        &mut TimingGpu::new(gtx480()) as &mut dyn Gpu,
        &mut emulator() as &mut dyn Gpu,
    ] {
        let e = grid_sum(gpu, fit + 1, &x, true).unwrap_err().to_string();
        assert!(
            e.contains("grid_sum")
                && e.contains("cudaErrorCooperativeLaunchTooLarge")
                && e.contains("76 CTAs")
                && e.contains("at most 75"),
            "{e}"
        );
    }
}

#[test]
fn a_grid_sync_kernel_launched_without_cooperation_stops_at_its_trap() {
    let x = data(1000);
    for gpu in [
        &mut TimingGpu::new(gtx480()) as &mut dyn Gpu,
        &mut emulator() as &mut dyn Gpu,
    ] {
        let e = grid_sum(gpu, 4, &x, false).unwrap_err().to_string();
        assert!(e.contains("grid_sum") && e.contains("trap"), "{e}");
    }
}

/// CTA 1 sets a flag that CTA 0 spins on.
const WAIT_FLAG: &str = r#"
.version 7.0
.target sm_75
.address_size 64
.visible .entry wait_flag(.param .u64 flag)
{
    .reg .pred %p<3>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [flag];
    mov.u32 %r1, %ctaid.x;
    setp.eq.u32 %p1, %r1, 1;
    @%p1 bra SET;
WAIT:
    ld.volatile.global.u32 %r2, [%rd1];
    setp.eq.u32 %p2, %r2, 0;
    @%p2 bra WAIT;
    ret;
SET:
    st.global.u32 [%rd1], 1;
    ret;
}
"#;

#[test]
fn a_spin_on_another_ctas_store_is_a_deadlock_error_unless_cooperative() {
    let m = Module::parse(WAIT_FLAG, "wait_flag.ptx").unwrap();
    let launch = |flag: u64, coop: bool| Launch {
        kernel: m.load("wait_flag").unwrap(),
        grid: [2, 1, 1],
        block: [32, 1, 1],
        params: vec![ParamValue::U64(flag)],
        shared_bytes: 0,
        cooperative: coop,
    };
    let mut emu = emulator();
    // no instruction limit: the detector, not the watchdog, ends it
    emu.max_warp_insts_per_launch = None;
    let f = up(&mut emu, &[0]);
    let e = emu.launch(&launch(f, false)).unwrap_err().to_string();
    assert!(
        e.contains("wait_flag") && e.contains("deadlock") && e.contains("CTA 0 warp 0"),
        "{e}"
    );
    let f = up(&mut emu, &[0]);
    emu.launch(&launch(f, true)).unwrap();
    assert_eq!(down(&mut emu, f, 1), [1]);
    // the timing model runs both CTAs at once
    let mut t = TimingGpu::new(gtx480());
    let f = up(&mut t, &[0]);
    t.launch(&launch(f, true)).unwrap();
    assert_eq!(down(&mut t, f, 1), [1]);
}

fn timer_reads(gpu: &mut dyn Gpu, reads: usize) -> (Vec<u64>, Vec<u32>) {
    let m = module();
    let threads = 64;
    let pt = gpu.alloc((threads * reads * 8) as u64).unwrap();
    let pl = gpu.alloc((threads * reads * 4) as u64).unwrap();
    let pw = gpu.alloc((threads * 4) as u64).unwrap();
    gpu.launch(&Launch {
        kernel: m.load("timer_reads").unwrap(),
        grid: [2, 1, 1],
        block: [32, 1, 1],
        params: vec![
            ParamValue::U64(pt),
            ParamValue::U64(pl),
            ParamValue::U64(pw),
            ParamValue::U32(reads as u32),
        ],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap();
    let mut b = vec![0u8; threads * reads * 8];
    gpu.copy_from_device(pt, &mut b).unwrap();
    let t = b
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (t, down(gpu, pl, threads * reads))
}

#[test]
fn globaltimer_readings_never_decrease() {
    let reads = 8;
    let mut emu = emulator();
    let mut t = TimingGpu::new(gtx480());
    for (what, (ts, lo)) in [
        ("functional", timer_reads(&mut emu, reads)),
        ("timing", timer_reads(&mut t, reads)),
    ] {
        for (th, row) in ts.chunks(reads).enumerate() {
            assert!(
                row.windows(2).all(|w| w[0] < w[1]),
                "{what}: thread {th}: {row:?}"
            );
        }
        // the low half is the same reading's low word (read one instruction later, so at most
        // a few nanoseconds on)
        for (a, b) in ts.iter().zip(&lo) {
            assert!(
                (*b as u64).wrapping_sub(a & 0xFFFF_FFFF) < 1000,
                "{what}: {a} {b}"
            );
        }
    }
    // in a timing run the readings are cycles at the 700 MHz core clock: below the launch's
    let (ts, _) = timer_reads(&mut TimingGpu::new(gtx480()), reads);
    let cycles = t.activity().kernels[0].cycles;
    let last_ns = *ts.iter().max().unwrap();
    assert!(
        last_ns > 0 && (last_ns as f64) < cycles as f64 * 1e3 / 700.0 + 1.0,
        "{last_ns} ns, {cycles} cycles"
    );
}

#[test]
fn set_conditional_stores_the_value_at_the_handle() {
    let m = module();
    let mut emu = emulator();
    let x = up(&mut emu, &[5, 1, 0, 3]);
    let steps = up(&mut emu, &[0]);
    let handle = up(&mut emu, &[7]);
    let launch = Launch {
        kernel: m.load("halve_step").unwrap(),
        grid: [1, 1, 1],
        block: [32, 1, 1],
        params: vec![
            ParamValue::U64(x),
            ParamValue::U64(steps),
            ParamValue::U32(4),
            ParamValue::U64(handle),
        ],
        shared_bytes: 0,
        cooperative: false,
    };
    emu.launch(&launch).unwrap();
    assert_eq!(down(&mut emu, x, 4), [2, 0, 0, 1]);
    assert_eq!(down(&mut emu, handle, 1), [1]);
    emu.launch(&launch).unwrap();
    emu.launch(&launch).unwrap();
    assert_eq!(down(&mut emu, x, 4), [0, 0, 0, 0]);
    assert_eq!(down(&mut emu, handle, 1), [0]);
    assert_eq!(down(&mut emu, steps, 1), [3]);
    // a handle that addresses no device memory is a runtime error, not a silent store
    let mut bad = launch.clone();
    bad.params[3] = ParamValue::U64(8);
    let e = emu.launch(&bad).unwrap_err().to_string();
    assert!(
        e.contains("cudaGraphSetConditional") && e.contains("handle 0x8"),
        "{e}"
    );
}

#[test]
fn envregs_other_than_the_workspace_read_zero() {
    let ptx = r#"
.version 7.0
.target sm_75
.address_size 64
.visible .entry env(.param .u64 out)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %envreg0;
    mov.u32 %r2, %envreg1;
    mov.u32 %r3, %envreg2;
    mov.u32 %r4, %envreg31;
    st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
    ret;
}
"#;
    let m = Module::parse(ptx, "env.ptx").unwrap();
    let mut emu = emulator();
    for coop in [false, true] {
        let out = up(&mut emu, &[9, 9, 9, 9]);
        emu.launch(&Launch {
            kernel: m.load("env").unwrap(),
            grid: [1, 1, 1],
            block: [1, 1, 1],
            params: vec![ParamValue::U64(out)],
            shared_bytes: 0,
            cooperative: coop,
        })
        .unwrap();
        let v = down(&mut emu, out, 4);
        assert_eq!((v[0], v[3]), (0, 0), "{v:?}");
        let ws = (v[1] as u64) << 32 | v[2] as u64;
        assert_eq!(ws != 0, coop, "{v:?}");
    }
}
