//! The reference modes of the control-flow spec (§3.4 MIMD and NREC, §4–§5 dynamic warp
//! formation with its five issue policies) on the reference-mode model
//! (`sim::timing::dwf::refmodel`) with the `gf8800gtx_like` preset: every workload's results
//! equal its CPU reference in every mode (the functional semantics stay the emulator's), a
//! kernel without divergence takes the same cycles under PDOM and DWF (and under MIMD and NREC,
//! which then issue PDOM's warps in PDOM's order), and MIMD is no slower than PDOM or DWF on
//! the listed workloads. Directed checks: a load that hits a line whose fill is in flight waits
//! for the fill; MIMD keeps its warps' coalescing (srad); DWF's loss on cutcp is the lane-aware
//! formation's, not a resource limit.

use sim::config::reconv::{DwfPolicy, ReconvMode};
use sim::config::GpuConfig;
use sim::emu::Emulator;
use sim::ptx::Module;
use sim::timing::dwf::refmodel::{RefGpu, RefStats};
use sim::workloads::{self, Size};
use sim::{Gpu, Launch, ParamValue};

fn cfg(mode: ReconvMode, policy: DwfPolicy) -> GpuConfig {
    let mut c = GpuConfig::preset("gf8800gtx_like").unwrap();
    c.reconv.mode = mode;
    c.dwf.policy = policy;
    c
}

/// Runs `name` at the test tier in `mode`, checking the results; returns the counters.
fn run(name: &str, c: &GpuConfig) -> RefStats {
    let w = workloads::find(name).unwrap();
    let mut gpu = RefGpu::new(c).unwrap();
    let rep = w
        .run(Size::Test, &mut gpu, true)
        .unwrap_or_else(|e| panic!("{name} {:?}: {e}", c.reconv.mode));
    let check = rep.check.expect("check requested");
    assert!(
        check.passed,
        "{name} {:?}/{:?}: {}",
        c.reconv.mode, c.dwf.policy, check.detail
    );
    gpu.stats
}

const MODES: [(ReconvMode, DwfPolicy, &str); 8] = [
    (ReconvMode::Pdom, DwfPolicy::Dmaj, "pdom"),
    (ReconvMode::Mimd, DwfPolicy::Dmaj, "mimd"),
    (ReconvMode::Nrec, DwfPolicy::Dmaj, "nrec"),
    (ReconvMode::Dwf, DwfPolicy::Dmaj, "dwf-dmaj"),
    (ReconvMode::Dwf, DwfPolicy::Dtime, "dwf-dtime"),
    (ReconvMode::Dwf, DwfPolicy::Dpc, "dwf-dpc"),
    (ReconvMode::Dwf, DwfPolicy::Dmin, "dwf-dmin"),
    (ReconvMode::Dwf, DwfPolicy::Dpdpri, "dwf-dpdpri"),
];

fn all_modes(name: &str) {
    let mut cyc = std::collections::BTreeMap::new();
    let mut threads = std::collections::BTreeMap::new();
    for (m, p, label) in MODES {
        let t0 = std::time::Instant::now();
        let s = run(name, &cfg(m, p));
        let secs = t0.elapsed().as_secs_f64();
        println!(
            "{name} {label}: cycles {} warp issues {} simd eff {:.3} thread insts {} ({:.0} thread insts/s)",
            s.cycles,
            s.warp_issues,
            s.simd_efficiency(32),
            s.thread_insts,
            s.thread_insts as f64 / secs.max(1e-9)
        );
        cyc.insert(label, s.cycles);
        // the W0 split accounts for every empty issue slot, and only DWF has a stall cause
        // in lane-aware mode: none
        let w0 = &s.w0;
        assert_eq!(
            w0.mem + w0.idle + w0.stall + w0.empty,
            s.simd_buckets[0],
            "{name} {label}"
        );
        assert_eq!(w0.stall, 0, "{name} {label}");
        // every thread retires once and every thread instruction is one thread's
        let f = &s.fairness;
        assert_eq!(f.insts_sum, s.thread_insts, "{name} {label}");
        assert!(
            f.threads > 0 && f.insts_min <= f.insts_max,
            "{name} {label}"
        );
        assert!(
            f.max_wait_cycles as f64 >= f.mean_max_wait_cycles(),
            "{name} {label}"
        );
        assert_eq!(
            f.max_wait_log2_hist.iter().sum::<u64>(),
            f.threads,
            "{name} {label}"
        );
        threads.insert(label, f.threads);
        // one occupancy sample per core and scheduler cycle, for DWF only; the heap only
        // under the majority policies; the end-of-cycle samples never exceed the peak
        match (&s.occupancy, &s.formation) {
            (Some(o), Some(f)) => {
                assert_eq!(o.pool.iter().sum::<u64>(), s.sched_cycles, "{name} {label}");
                assert_eq!(o.lut.iter().sum::<u64>(), s.sched_cycles, "{name} {label}");
                let majority = matches!(p, DwfPolicy::Dmaj | DwfPolicy::Dmin);
                assert_eq!(!o.heap.is_empty(), majority, "{name} {label}");
                assert!(
                    o.pool.len() as u32 <= f.max_pool_occupancy + 1,
                    "{name} {label}"
                );
            }
            (None, None) => assert_ne!(m, ReconvMode::Dwf),
            _ => panic!("{name} {label}: occupancy without formation counters or back"),
        }
    }
    // every mode runs the same threads
    assert!(
        threads.values().all(|&n| n == threads["pdom"]),
        "{name}: {threads:?}"
    );
    // every mode executes the same thread instructions; MIMD never needs more cycles
    assert!(cyc["mimd"] <= cyc["pdom"], "{name}: {cyc:?}");
    assert!(cyc["mimd"] <= cyc["dwf-dmaj"], "{name}: {cyc:?}");
}

macro_rules! mode_tests {
    ($($name:ident),*) => {
        $(
            #[test]
            fn $name() {
                all_modes(stringify!($name));
            }
        )*
    };
}

mode_tests!(bfs, nw, hotspot, pathfinder, backprop, srad);

/// `out[i] = a[i] + i` for every thread: a branch on `i < n` that no warp splits.
const UNIFORM: &str = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 out, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra DONE;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd1, %rd3;
    add.s64 %rd5, %rd2, %rd3;
    ld.global.u32 %r6, [%rd4];
    add.u32 %r7, %r6, %r5;
    st.global.u32 [%rd5], %r7;
DONE:
    ret;
}
"#;

/// Divergent, nested control flow with a loop whose trip count differs per thread and a
/// barrier: `out[i] = sum_{k < i mod 7} (k * (i odd ? 3 : 1))`, then every thread adds its
/// neighbour's value read through shared memory after `bar.sync`.
const DIVERGENT: &str = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<8>;
    .shared .align 4 .b8 sh[1024];
    mov.u32 %r1, %tid.x;
    rem.u32 %r2, %r1, 7;
    mov.u32 %r3, 0;
    mov.u32 %r4, 0;
    and.b32 %r5, %r1, 1;
    setp.eq.u32 %p2, %r5, 1;
LOOP:
    setp.ge.u32 %p1, %r4, %r2;
    @%p1 bra AFTER;
    @%p2 bra ODD;
    add.u32 %r3, %r3, %r4;
    bra NEXT;
ODD:
    mad.lo.u32 %r3, %r4, 3, %r3;
NEXT:
    add.u32 %r4, %r4, 1;
    bra LOOP;
AFTER:
    mov.u32 %r6, sh;
    shl.b32 %r7, %r1, 2;
    add.u32 %r8, %r6, %r7;
    st.shared.u32 [%r8], %r3;
    bar.sync 0;
    add.u32 %r9, %r1, 1;
    and.b32 %r9, %r9, 255;
    shl.b32 %r10, %r9, 2;
    add.u32 %r11, %r6, %r10;
    ld.shared.u32 %r12, [%r11];
    add.u32 %r13, %r3, %r12;
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r13;
    ret;
}
"#;

fn upload(gpu: &mut dyn Gpu, v: &[u32]) -> u64 {
    let p = gpu.alloc(v.len() as u64 * 4).unwrap();
    let b: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    gpu.copy_to_device(p, &b).unwrap();
    p
}

fn download(gpu: &mut dyn Gpu, p: u64, n: usize) -> Vec<u32> {
    let mut b = vec![0u8; n * 4];
    gpu.copy_from_device(p, &mut b).unwrap();
    b.chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn uniform_run(gpu: &mut dyn Gpu) -> Vec<u32> {
    let m = Module::parse(UNIFORM, "uniform.ptx").unwrap();
    let n = 8 * 256;
    let a: Vec<u32> = (0..n).map(|i| i * 7 + 1).collect();
    let pa = upload(gpu, &a);
    let po = gpu.alloc(n as u64 * 4).unwrap();
    gpu.launch(&Launch {
        kernel: m.kernel("k").unwrap(),
        grid: [8, 1, 1],
        block: [256, 1, 1],
        params: vec![ParamValue::U64(pa), ParamValue::U64(po), ParamValue::U32(n)],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap();
    download(gpu, po, n as usize)
}

fn divergent_run(gpu: &mut dyn Gpu) -> Vec<u32> {
    let m = Module::parse(DIVERGENT, "divergent.ptx").unwrap();
    let po = gpu.alloc(256 * 4).unwrap();
    gpu.launch(&Launch {
        kernel: m.kernel("k").unwrap(),
        grid: [1, 1, 1],
        block: [256, 1, 1],
        params: vec![ParamValue::U64(po)],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap();
    download(gpu, po, 256)
}

#[test]
fn without_divergence_dwf_takes_the_pdom_cycles() {
    let want = uniform_run(&mut Emulator::new());
    let mut cycles = Vec::new();
    let runs = MODES.iter().map(|&(m, p, l)| (l, cfg(m, p), false)).chain(
        [
            (DwfPolicy::Dmaj, "dwf-dmaj-inf"),
            (DwfPolicy::Dmin, "dwf-dmin-inf"),
        ]
        .into_iter()
        .map(|(p, l)| {
            let mut c = cfg(ReconvMode::Dwf, p);
            c.dwf.infinite_resources = true;
            (l, c, true)
        }),
    );
    for (label, c, inf) in runs {
        let mut gpu = RefGpu::new(&c).unwrap();
        assert_eq!(uniform_run(&mut gpu), want, "{label}");
        let s = &gpu.stats;
        let stall = s.majority.as_ref().map_or(0, |m| m.heap_rebalance_stall);
        println!(
            "uniform {label}: {} cycles, heap_rebalance_stall {stall}",
            s.cycles
        );
        cycles.push((label, s.cycles, s.simd_efficiency(32), stall, inf));
    }
    let pdom = cycles[0].1;
    for (label, c, eff, stall, _) in &cycles {
        if *label == "mimd" || *label == "nrec" {
            // the same warps in PDOM's round-robin order
            assert_eq!(*c, pdom, "{label}: {cycles:?}");
        }
        if label.starts_with("dwf") || *label == "nrec" {
            // the same warps issue in the same order; the finite Majority hardware may only
            // add its rebalancing stalls (one scheduler cycle of 4 pipeline cycles each)
            assert!(*c >= pdom && *c <= pdom + 4 * stall, "{label}: {cycles:?}");
        }
        assert_eq!(*eff, 1.0, "{label}");
    }
    for (label, c, _, _, inf) in &cycles {
        if *inf {
            assert_eq!(*c, pdom, "{label}: {cycles:?}");
        }
    }
}

#[test]
fn divergent_kernel_results_equal_the_emulator_in_every_mode() {
    let want = divergent_run(&mut Emulator::new());
    for i in 0..256u32 {
        let own = |i: u32| -> u32 { (0..i % 7).map(|k| if i % 2 == 1 { 3 * k } else { k }).sum() };
        assert_eq!(want[i as usize], own(i) + own((i + 1) % 256), "thread {i}");
    }
    let mut lane_unaware = cfg(ReconvMode::Dwf, DwfPolicy::Dmaj);
    lane_unaware.dwf.lane_aware = false;
    let mut infinite = cfg(ReconvMode::Dwf, DwfPolicy::Dmaj);
    infinite.dwf.infinite_resources = true;
    let mut tiny = cfg(ReconvMode::Dwf, DwfPolicy::Dmaj);
    tiny.dwf.pool_entries = 4;
    tiny.dwf.heap_entries = 2;
    tiny.dwf.pc_lut_entries = 2;
    tiny.dwf.pc_lut_ways = 1;
    let extra = [
        ("dwf-lane-unaware", lane_unaware),
        ("dwf-infinite", infinite),
        ("dwf-tiny", tiny),
    ];
    let mut pdom = 0;
    for (label, c) in MODES.iter().map(|&(m, p, l)| (l, cfg(m, p))).chain(extra) {
        let mut gpu = RefGpu::new(&c).unwrap();
        assert_eq!(divergent_run(&mut gpu), want, "{label}");
        let s = &gpu.stats;
        println!(
            "divergent {label}: {} cycles, SIMD efficiency {:.3}, formation {:?}, majority {:?}, \
             bank-conflict stall {}",
            s.cycles,
            s.simd_efficiency(32),
            s.formation,
            s.majority,
            s.bank_conflict_stall_cycles
        );
        if label == "pdom" {
            pdom = s.cycles;
        }
        if label == "mimd" {
            assert!(s.cycles <= pdom, "mimd {} > pdom {pdom}", s.cycles);
        }
        if label == "dwf-lane-unaware" {
            assert!(s.bank_conflict_stall_cycles > 0);
        }
        if label == "dwf-tiny" {
            let f = s.formation.as_ref().unwrap();
            assert!(f.pool_full_stall > 0 || s.majority.as_ref().unwrap().heap_overflow > 0);
        }
        if label.starts_with("dwf") {
            let f = s.formation.as_ref().unwrap();
            assert!(f.new_warp_events > 0 && f.lut_lookups == f.lut_hits + f.lut_misses);
        }
    }
}

/// Warp 0 loads the line `a[0..16]`; warp 1 runs three adds, loads the same line, then a
/// dependent chain and a store. With `flag` = 0 warp 0's load is predicated off.
const PENDING: &str = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 out, .param .u32 flag)
{
    .reg .pred %p<3>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [out];
    ld.param.u32 %r1, [flag];
    mov.u32 %r2, %tid.x;
    shr.u32 %r3, %r2, 5;
    and.b32 %r4, %r2, 15;
    mul.wide.u32 %rd3, %r4, 4;
    add.s64 %rd4, %rd1, %rd3;
    setp.ne.u32 %p2, %r1, 0;
    setp.eq.u32 %p1, %r3, 0;
    @%p1 bra FIRST;
    add.u32 %r5, %r2, 1;
    add.u32 %r5, %r5, 1;
    add.u32 %r5, %r5, 1;
    ld.global.u32 %r6, [%rd4];
    add.u32 %r6, %r6, %r5;
    add.u32 %r6, %r6, %r5;
    add.u32 %r6, %r6, %r5;
    add.u32 %r6, %r6, %r5;
    mul.wide.u32 %rd5, %r2, 4;
    add.s64 %rd6, %rd2, %rd5;
    st.global.u32 [%rd6], %r6;
    ret;
FIRST:
    @%p2 ld.global.u32 %r7, [%rd4];
    ret;
}
"#;

fn pending_cycles(c: &GpuConfig, flag: u32) -> u64 {
    let mut gpu = RefGpu::new(c).unwrap();
    let m = Module::parse(PENDING, "pending.ptx").unwrap();
    let a: Vec<u32> = (0..16).collect();
    let pa = upload(&mut gpu, &a);
    let po = gpu.alloc(64 * 4).unwrap();
    gpu.launch(&Launch {
        kernel: m.kernel("k").unwrap(),
        grid: [1, 1, 1],
        block: [64, 1, 1],
        params: vec![
            ParamValue::U64(pa),
            ParamValue::U64(po),
            ParamValue::U32(flag),
        ],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap();
    let out = download(&mut gpu, po, 64);
    for t in 32..64u32 {
        assert_eq!(out[t as usize], (t % 16) + 4 * (t + 3), "thread {t}");
    }
    let s = &gpu.stats;
    if flag != 0 {
        assert!(s.mem.load_line_hits_pending > 0, "{:?}", s.mem);
    }
    s.cycles
}

#[test]
fn a_load_hitting_a_line_in_flight_waits_for_the_fill() {
    for mode in [ReconvMode::Pdom, ReconvMode::Mimd, ReconvMode::Dwf] {
        let c = cfg(mode, DwfPolicy::Dmaj);
        let own_miss = pending_cycles(&c, 0);
        let shared = pending_cycles(&c, 1);
        println!("{mode:?}: warp 1 misses itself {own_miss} cycles, hits warp 0's fill {shared}");
        // warp 1 issues its load a few instructions after warp 0: sharing warp 0's fill saves
        // at most that head start, never the DRAM latency
        let head_start = 3 * (4 + 16);
        assert!(
            shared + head_start >= own_miss && shared + (c.dram.latency as u64) / 2 > own_miss,
            "{mode:?}: {shared} vs {own_miss}"
        );
    }
}

/// MIMD keeps the coalescing of its warps: srad's stores and loads cost about the DRAM
/// transfers PDOM's do (splitting every warp into small FIFO groups once multiplied them by 4),
/// so MIMD is no slower than PDOM there.
#[test]
fn mimd_keeps_the_coalescing_of_its_warps_on_srad() {
    let pdom = run("srad", &cfg(ReconvMode::Pdom, DwfPolicy::Dmaj));
    let mimd = run("srad", &cfg(ReconvMode::Mimd, DwfPolicy::Dmaj));
    println!("srad pdom {:?}\nsrad mimd {:?}", pdom.mem, mimd.mem);
    assert!(
        mimd.mem.dram_busy_cycles * 4 <= pdom.mem.dram_busy_cycles * 5,
        "{:?} vs {:?}",
        mimd.mem,
        pdom.mem
    );
    assert!(mimd.mem.mem_insts * 2 <= pdom.mem.mem_insts * 3);
    assert!(
        mimd.cycles <= pdom.cycles,
        "{} > {}",
        mimd.cycles,
        pdom.cycles
    );
}

/// Stencil has no divergence: MIMD and NREC issue PDOM's warps in PDOM's order, so they take
/// its cycles exactly (FIFO issue by write-back order once cost them 0.07 %).
#[test]
fn without_divergence_mimd_and_nrec_take_the_pdom_cycles_on_stencil() {
    let pdom = run("stencil", &cfg(ReconvMode::Pdom, DwfPolicy::Dmaj));
    for m in [ReconvMode::Mimd, ReconvMode::Nrec] {
        let s = run("stencil", &cfg(m, DwfPolicy::Dmaj));
        assert_eq!(s.cycles, pdom.cycles, "{m:?}");
        assert_eq!(s.mem, pdom.mem, "{m:?}");
    }
}

/// cutcp's atom loop has four data-dependent `if` blocks. Lane-aware DWF (§5.3) keeps one open
/// pool warp per PC and closes it at the first home-slot conflict, so the threads that skip a
/// block and those that run it arrive at the join in different warps and stay apart: even the
/// loop's non-divergent instructions issue in part-filled warps, and DWF's SIMD efficiency falls
/// below PDOM's. That is the mechanism, not a resource limit: infinite structures change
/// nothing, while lane-unaware formation (any thread in any slot) fills the warps again (and
/// pays register-bank conflict stalls instead).
#[test]
fn dwf_on_cutcp_loses_to_lane_aware_formation_not_to_resources() {
    let pdom = run("cutcp", &cfg(ReconvMode::Pdom, DwfPolicy::Dmaj));
    let dwf = run("cutcp", &cfg(ReconvMode::Dwf, DwfPolicy::Dmaj));
    let mut c = cfg(ReconvMode::Dwf, DwfPolicy::Dmaj);
    c.dwf.infinite_resources = true;
    let inf = run("cutcp", &c);
    let mut c = cfg(ReconvMode::Dwf, DwfPolicy::Dmaj);
    c.dwf.lane_aware = false;
    let unaware = run("cutcp", &c);
    let e = |s: &RefStats| s.simd_efficiency(32);
    println!(
        "cutcp SIMD efficiency: pdom {:.3} dwf {:.3} dwf-infinite {:.3} dwf-lane-unaware {:.3} \
         (bank-conflict stall {})",
        e(&pdom),
        e(&dwf),
        e(&inf),
        e(&unaware),
        unaware.bank_conflict_stall_cycles
    );
    assert!(e(&dwf) < 0.6 * e(&pdom));
    assert!((e(&inf) - e(&dwf)).abs() < 0.02);
    assert!(e(&unaware) > e(&pdom));
    assert!(unaware.bank_conflict_stall_cycles > 0);
    // the bank-conflict stalls hold the issue port: the W0 "stall" slots of the split
    assert!(unaware.w0.stall > 0 && dwf.w0.stall == 0);
    let f = dwf.formation.as_ref().unwrap();
    // most pool warps were opened by a home-slot conflict that closed the previous one
    assert!(f.new_warp_events * 10 > f.alloc_pops * 8, "{f:?}");
}

/// The bound MIMD can guarantee in this model. It fills every lane it can (§3.4), so a static
/// warp's group that does not fit a slot is split, and the two parts access memory in
/// different slots: a store or atomic line they share is transferred twice. Where MIMD takes
/// more cycles than PDOM (histo: `red.global` after the final `@p bra`), it is with more
/// memory instructions and more DRAM transfer cycles than PDOM, never with the same traffic.
#[test]
fn mimd_is_slower_than_pdom_only_through_the_memory_cost_of_split_warps() {
    let pdom = run("histo", &cfg(ReconvMode::Pdom, DwfPolicy::Dmaj));
    let mimd = run("histo", &cfg(ReconvMode::Mimd, DwfPolicy::Dmaj));
    println!(
        "histo pdom {} cycles {:?}\nhisto mimd {} cycles {:?}",
        pdom.cycles, pdom.mem, mimd.cycles, mimd.mem
    );
    if mimd.cycles > pdom.cycles {
        assert!(mimd.mem.mem_insts > pdom.mem.mem_insts);
        assert!(mimd.mem.dram_busy_cycles > pdom.mem.dram_busy_cycles);
    }
    assert_eq!(mimd.thread_insts, pdom.thread_insts);
}

/// The activity record of a reference-mode run (`timing::dwf::refactivity`): consistent, one
/// warp instruction per issue slot where a slot holds one PC (PDOM, NREC, DWF), the lanes the
/// guard-true threads, the family counts summing to the totals, the cycles the model's, and a
/// DWF record carrying the formation and Majority counters the model kept.
#[test]
fn the_reference_model_writes_a_consistent_activity_record() {
    for (m, p, label) in MODES {
        let c = cfg(m, p);
        let w = workloads::find("bfs").unwrap();
        let mut gpu = RefGpu::new(&c).unwrap();
        w.run(Size::Test, &mut gpu, false).unwrap();
        let s = gpu.stats.clone();
        let a = gpu.into_activity();
        a.check_consistent(label).unwrap();
        let k = &a.aggregate;
        assert_eq!(
            a.provenance.as_ref().unwrap().source,
            "reference",
            "{label}"
        );
        assert_eq!(k.cycles, s.cycles, "{label}");
        if m != ReconvMode::Mimd {
            assert_eq!(k.warp_insts, s.warp_issues, "{label}");
        } else {
            // a MIMD slot with several PCs counts one instruction per PC
            assert!(k.warp_insts >= s.warp_issues, "{label}");
        }
        // the record's lanes are guard-true threads; the model's issued threads include
        // predicated-off ones
        assert!(
            k.thread_insts > 0 && k.thread_insts <= s.thread_insts,
            "{label}"
        );
        let f = &k.by_family;
        let fam = [f.int, f.fp, f.dp, f.sfu, f.mem, f.ctrl, f.bar];
        assert_eq!(fam.iter().map(|x| x.warp_insts).sum::<u64>(), k.warp_insts);
        assert_eq!(
            fam.iter().map(|x| x.thread_insts).sum::<u64>(),
            k.thread_insts
        );
        let sm_insts: u64 = k.sms.iter().map(|x| x.warp_insts).sum();
        assert_eq!(sm_insts, k.warp_insts, "{label}");
        let rf_reads: u64 = k.sms.iter().flat_map(|x| x.rf.reads.iter()).sum();
        assert!(rf_reads > 0, "{label}");
        let l1d: u64 = k.sms.iter().map(|x| x.l1d.read.hit + x.l1d.read.miss).sum();
        assert!(l1d > 0, "{label}: bfs loads reach the L1D");
        assert!(k.sms.iter().all(|x| x.active_cycles <= k.cycles), "{label}");
        match m {
            ReconvMode::Dwf => {
                let d = k.dwf.as_ref().expect("DWF counters");
                assert_eq!(Some(&d.formation), s.formation.as_ref(), "{label}");
                assert_eq!(d.majority, s.majority, "{label}");
            }
            _ => assert!(k.dwf.is_none(), "{label}"),
        }
        // PDOM pushes its stack at divergent branches, the other modes have none
        let pushes: u64 = k.sms.iter().map(|x| x.simt.pushes).sum();
        assert_eq!(pushes > 0, m == ReconvMode::Pdom, "{label}");
    }
}
