//! Invariants of the timing model: occupancy equals the analytical N_slot, idle-period
//! histograms sum to idle cycles, runs are deterministic, cycle skipping changes nothing, and a
//! parallel sweep equals serial runs (simulator §2.1, §5.5, §6.1; analytical-model §2.2).

use rayon::prelude::*;
use sim::activity::KernelActivity;
use sim::config::{GpuConfig, SchedPolicy};
use sim::inst::{Family, MemSpace, OpClass, WarpInst};
use sim::timing::synth::{alu, barrier, mem, SynthStream};
use sim::timing::{occupancy, Simulation, Stream, Traced};

/// Analytical N_slot (analytical-model §2.2) written out independently of the simulator:
/// min(N1, ⌊N2/b⌋, ⌊T_max/(32b)⌋, ⌊S/s⌋ (s > 0), ⌊R/(⌈r,4⌉·b)⌋) with b in warps and R in warp
/// registers (n_registers / 32).
fn n_slot(cfg: &GpuConfig, threads: u32, regs: u32, smem: u32) -> u32 {
    let b = threads.div_ceil(32);
    let mut n = cfg
        .sm
        .max_ctas
        .min(cfg.sm.max_warps / b)
        .min(cfg.sm.max_threads / (32 * b));
    if let Some(s) = cfg.sm.shmem_bytes.checked_div(smem) {
        n = n.min(s);
    }
    let r4 = regs.div_ceil(4) * 4;
    if let Some(r) = (cfg.sm.n_registers / 32).checked_div(r4 * b) {
        n = n.min(r);
    }
    n
}

/// A memory-and-compute mix: coalesced global loads, a dependent FP chain, shared stores and
/// loads with a barrier, strided (uncoalesced) loads, SFU ops and a store.
fn mixed(cta: u32, warp: u32) -> Vec<WarpInst> {
    let base = 0x10_0000u64 + (cta as u64 * 8 + warp as u64) * 4096;
    let mut v = Vec::new();
    let mut pc = 0;
    let mut next = || {
        pc += 8;
        pc
    };
    for i in 0..6u64 {
        v.push(mem(
            next(),
            OpClass::Load,
            MemSpace::Global,
            4,
            &[2],
            &[1],
            u32::MAX,
            move |l| base + i * 128 + 4 * l as u64,
        ));
        v.push(alu(next(), Family::Fp, OpClass::Mad, &[3], &[2, 3, 4]));
        v.push(alu(next(), Family::Int, OpClass::Add, &[1], &[1]));
    }
    v.push(mem(
        next(),
        OpClass::Store,
        MemSpace::Shared,
        4,
        &[],
        &[1, 3],
        u32::MAX,
        move |l| 4 * (l as u64 + 32 * warp as u64),
    ));
    v.push(barrier(next()));
    v.push(mem(
        next(),
        OpClass::Load,
        MemSpace::Shared,
        4,
        &[5],
        &[1],
        u32::MAX,
        |l| 8 * l as u64,
    ));
    v.push(mem(
        next(),
        OpClass::Load,
        MemSpace::Global,
        4,
        &[6],
        &[1],
        0x0000_ffff,
        move |l| base + 512 * l as u64,
    ));
    v.push(alu(next(), Family::Sfu, OpClass::Rsqrt, &[7], &[6]));
    v.push(alu(next(), Family::Fp, OpClass::Add, &[8], &[7, 5]));
    v.push(mem(
        next(),
        OpClass::Store,
        MemSpace::Global,
        4,
        &[],
        &[1, 8],
        u32::MAX,
        move |l| base + 2048 + 4 * l as u64,
    ));
    v
}

fn run_mixed(cfg: &GpuConfig, ctas: u32) -> KernelActivity {
    let mut s = SynthStream::new(
        "mixed",
        [ctas, 1, 1],
        [256, 1, 1],
        16,
        4096,
        Box::new(mixed),
    );
    Simulation::new(cfg).run(Stream(&mut s)).unwrap()
}

fn small(preset: &str) -> GpuConfig {
    let mut c = GpuConfig::preset(preset).unwrap();
    c.gpu.n_sm = 2;
    c
}

#[test]
fn occupancy_equals_analytical_n_slot() {
    for preset in ["gtx480", "gtx780", "gtx1080ti"] {
        let mut cfg = GpuConfig::preset(preset).unwrap();
        cfg.gpu.n_sm = 1;
        cfg.frontend.perfect_icache = true;
        for threads in [32u32, 96, 128, 256, 480, 1024] {
            for regs in [4u32, 13, 21, 32, 63] {
                for smem in [0u32, 1000, 6000, 20000] {
                    let want = n_slot(&cfg, threads, regs, smem);
                    let info = sim::KernelInfo {
                        name: "k".into(),
                        grid: [1, 1, 1],
                        block: [threads, 1, 1],
                        shared_bytes: smem,
                        regs_per_thread: regs,
                    };
                    match occupancy(&cfg, &info) {
                        Ok(o) => {
                            assert_eq!(o.max_ctas, want, "{preset} T={threads} R={regs} S={smem}")
                        }
                        Err(_) => {
                            assert_eq!(want, 0, "{preset} T={threads} R={regs} S={smem}");
                            continue;
                        }
                    }
                    // Simulated residency: 2·N_slot CTAs; CTA slot c owns warp slots
                    // c·b .. (c+1)·b, so the highest slot that issues reveals the peak.
                    if regs != 21 || threads == 480 {
                        continue; // keep the simulated subset small
                    }
                    let mut s = SynthStream::new(
                        "occ",
                        [2 * want, 1, 1],
                        [threads, 1, 1],
                        regs,
                        smem,
                        Box::new(|_, _| {
                            (0..24)
                                .map(|i| alu(8 * i, Family::Int, OpClass::Add, &[1], &[1]))
                                .collect()
                        }),
                    );
                    let (_, log) = Simulation::new(&cfg).run(Traced(&mut s)).unwrap();
                    let max_slot = log.iter().map(|e| e.warp_slot).max().unwrap();
                    let b = threads.div_ceil(32);
                    assert_eq!(
                        (max_slot + 1).div_ceil(b),
                        want,
                        "{preset} T={threads} S={smem} simulated"
                    );
                }
            }
        }
    }
}

#[test]
fn idle_histograms_sum_to_idle_cycles() {
    for preset in ["gtx480", "gtx1080ti"] {
        let cfg = small(preset);
        let k = run_mixed(&cfg, 12);
        assert!(k.warp_insts > 0 && k.cycles > 0);
        let mut pipes = 0;
        for sm in &k.sms {
            for p in &sm.exec {
                for st in std::iter::once(&p.busy).chain(p.lane_idle.iter()) {
                    pipes += 1;
                    assert_eq!(
                        st.busy_cycles + st.idle_cycles,
                        k.cycles,
                        "{} {}",
                        p.unit,
                        p.pipe
                    );
                    assert_eq!(
                        st.hist.total_cycles() + st.censored.total_cycles(),
                        st.idle_cycles
                    );
                    assert_eq!(st.hist.total_count(), st.periods);
                    assert!(st.censored.total_count() <= 1);
                    assert_eq!(st.residency["on_busy"] + st.residency["on_idle"], k.cycles);
                }
            }
        }
        assert!(pipes > 10);
    }
}

#[test]
fn memory_counters_are_consistent() {
    let cfg = small("gtx480");
    let k = run_mixed(&cfg, 8);
    let sm: u64 = k.sms.iter().map(|s| s.smem.accesses).sum();
    // 8 CTAs × 8 warps × (1 shared store + 1 shared load)
    assert_eq!(sm, 8 * 8 * 2);
    // the stride-8-byte shared load is a 2-way conflict
    let extra: u64 = k.sms.iter().map(|s| s.smem.conflict_extra_cycles).sum();
    assert_eq!(extra, 8 * 8);
    let l1: u64 = k
        .sms
        .iter()
        .map(|s| s.l1d.read.hit + s.l1d.read.miss + s.l1d.read.hit_reserved)
        .sum();
    // 6 coalesced loads (1 segment each) + 1 strided load (16 lanes × 512 B → 16 segments)
    assert_eq!(l1, 8 * 8 * (6 + 16));
    let l2_reads: u64 = k.l2.iter().map(|s| s.read.hit + s.read.miss).sum();
    let l1_miss: u64 = k.sms.iter().map(|s| s.l1d.read.miss).sum();
    let i_miss: u64 = k.sms.iter().map(|s| s.icache.misses).sum();
    assert!(i_miss > 0);
    // every L1 miss reads L2; I-cache misses of several warps on one line share one request
    assert!(
        l2_reads > l1_miss && l2_reads <= l1_miss + i_miss,
        "{l2_reads} {l1_miss} {i_miss}"
    );
    let dram_reads: u64 = k.dram.iter().map(|d| d.reads).sum();
    assert!(dram_reads > 0);
    let bar: u64 = k.sms.iter().map(|s| s.bar.releases).sum();
    assert_eq!(bar, 8);
    assert_eq!(k.by_family.mem.warp_insts, 8 * 8 * 10);
    assert_eq!(k.by_family.bar.warp_insts, 8 * 8);
}

/// Launches after the first start `gpu.kernel_launch_latency` cycles late (spec §2.9); the gap
/// is idle time of the launch, with or without cycle skipping.
#[test]
fn kernel_launch_latency_separates_launches() {
    let mk = || SynthStream::new("mixed", [6, 1, 1], [256, 1, 1], 16, 4096, Box::new(mixed));
    let mut cfg = small("gtx480");
    cfg.gpu.kernel_launch_latency = 1000;
    let first = Simulation::new(&cfg)
        .launch_index(0)
        .run(Stream(&mut mk()))
        .unwrap();
    let second = Simulation::new(&cfg)
        .launch_index(1)
        .run(Stream(&mut mk()))
        .unwrap();
    assert_eq!(first.warp_insts, second.warp_insts);
    let extra = second.cycles as i64 - first.cycles as i64 - 1000;
    // the clock domains' phases differ after the gap, so the kernel itself may move a little
    assert!(
        extra.unsigned_abs() * 50 <= first.cycles,
        "first launch {} cycles, second {} (gap 1000)",
        first.cycles,
        second.cycles
    );
    // the first launch has no gap
    assert_eq!(first.cycles, run_mixed(&cfg, 6).cycles);
    cfg.sim.cycle_skipping = false;
    let unskipped = Simulation::new(&cfg)
        .launch_index(1)
        .run(Stream(&mut mk()))
        .unwrap();
    assert_eq!(
        serde_json::to_string(&second).unwrap(),
        serde_json::to_string(&unskipped).unwrap()
    );
}

#[test]
fn activity_is_deterministic_and_skipping_changes_nothing() {
    for policy in [SchedPolicy::Gto, SchedPolicy::Lrr, SchedPolicy::TwoLevel] {
        let mut cfg = small("gtx480");
        cfg.sched.policy = policy.clone();
        cfg.stats.per_register = true;
        let a = serde_json::to_string(&run_mixed(&cfg, 10)).unwrap();
        let b = serde_json::to_string(&run_mixed(&cfg, 10)).unwrap();
        assert!(a == b, "{policy:?}: two runs differ");
        cfg.sim.cycle_skipping = false;
        let c = serde_json::to_string(&run_mixed(&cfg, 10)).unwrap();
        if a != c {
            std::fs::write("/tmp/skip_on.json", &a).unwrap();
            std::fs::write("/tmp/skip_off.json", &c).unwrap();
        }
        assert!(a == c, "{policy:?}: cycle skipping changed the result");
    }
}

#[test]
fn parallel_sweep_equals_serial() {
    let mut cfgs = Vec::new();
    for preset in ["gtx480", "gtx780", "gtx1080ti"] {
        for policy in [SchedPolicy::Gto, SchedPolicy::Lrr, SchedPolicy::TwoLevel] {
            let mut c = small(preset);
            c.sched.policy = policy;
            cfgs.push(c);
        }
    }
    let serial: Vec<String> = cfgs
        .iter()
        .map(|c| serde_json::to_string(&run_mixed(c, 6)).unwrap())
        .collect();
    let parallel: Vec<String> = cfgs
        .par_iter()
        .map(|c| serde_json::to_string(&run_mixed(c, 6)).unwrap())
        .collect();
    assert!(
        serial == parallel,
        "parallel sweep differs from serial runs"
    );
    // the policies really differ in timing
    assert_ne!(serial[0], serial[1]);
}

#[test]
fn per_register_statistics() {
    let mut cfg = small("gtx480");
    cfg.stats.per_register = true;
    let k = run_mixed(&cfg, 4);
    let r = k.per_register.as_ref().unwrap();
    // r1 is read by every load, add and store: more reads than r7
    assert!(r.reads[1] > r.reads[7] && r.reads[7] > 0);
    assert_eq!(
        r.inter_access.count + r.first_access_after_alloc.count,
        r.reads.iter().sum::<u64>() + r.writes.iter().sum::<u64>()
    );
    assert!(r.pilot_reads.iter().sum::<u64>() > 0);
}

#[test]
fn activity_json_round_trip() {
    let cfg = small("gtx480");
    let mut act = sim::activity::Activity::new(&cfg.gpu.name, &cfg.hash_hex());
    act.add_launch(run_mixed(&cfg, 4));
    act.add_launch(run_mixed(&cfg, 2));
    assert_eq!(act.kernels.len(), 1);
    assert_eq!(act.kernels[0].launches, 2);
    assert_eq!(act.aggregate.warp_insts, act.kernels[0].warp_insts);
    let mut back = sim::activity::Activity::from_json(&act.to_json(), "act.json").unwrap();
    // f64 text round trips may differ in the last ulp; everything else is exact
    for (a, b) in [
        (&mut back.aggregate, &act.aggregate),
        (&mut back.kernels[0], &act.kernels[0]),
    ] {
        assert!((a.occupancy.mean_occupancy - b.occupancy.mean_occupancy).abs() < 1e-12);
        a.occupancy.mean_occupancy = b.occupancy.mean_occupancy;
    }
    assert!(back == act, "JSON round trip changed the record");
    let e = sim::activity::Activity::from_json("{\"schema\": 3}", "bad.json")
        .unwrap_err()
        .to_string();
    assert!(e.contains("bad.json"), "{e}");
}

/// Under the power-gating controllers an SM sleeps through cycles that gave them no input and
/// the controllers are run through those cycles on its wake-up: the five policies of the
/// power-gating comparison (Conventional under two-level and GATES, the blackout policies
/// under GATES, adaptive idle detect) give the very record of the run that steps every cycle,
/// gating statistics, stall counters and active-set sizes included.
#[test]
fn gated_runs_skip_cycles_exactly() {
    use sim::config::pg::PgPolicy;
    let cases = [
        (PgPolicy::Conventional, SchedPolicy::TwoLevel, false),
        (PgPolicy::Conventional, SchedPolicy::Gates, false),
        (PgPolicy::NaiveBlackout, SchedPolicy::Gates, false),
        (PgPolicy::CoordinatedBlackout, SchedPolicy::Gates, false),
        (PgPolicy::CoordinatedBlackout, SchedPolicy::Gates, true),
    ];
    for (pg, sched, adaptive) in cases {
        let mut cfg = small("gtx480");
        cfg.pg.policy = pg;
        cfg.sched.policy = sched.clone();
        cfg.pg.adaptive.enabled = adaptive;
        // short epochs, so that D moves within the run
        cfg.pg.adaptive.epoch = 64;
        let a = serde_json::to_string(&run_mixed(&cfg, 10)).unwrap();
        assert!(a.contains("\"events\""), "{pg:?}: no gating record");
        cfg.sim.cycle_skipping = false;
        let c = serde_json::to_string(&run_mixed(&cfg, 10)).unwrap();
        assert!(
            a == c,
            "{pg:?} under {sched:?} (adaptive {adaptive}): cycle skipping changed the result"
        );
    }
}
