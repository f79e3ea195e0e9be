//! Pipeline checks of the timing model against hand-worked and analytical expectations
//! (simulator §2; analytical-model §2.3).

use sim::config::{GpuConfig, SchedPolicy};
use sim::inst::{Family, OpClass};
use sim::timing::synth::{alu, SynthStream};
use sim::timing::{Simulation, Stream, Traced};

fn one_sm(preset: &str) -> GpuConfig {
    let mut c = GpuConfig::preset(preset).unwrap();
    c.gpu.n_sm = 1;
    c.frontend.perfect_icache = true;
    c
}

/// `n` dependent instructions r1 = op(r1) of one class in one warp.
fn chain(cfg: &GpuConfig, family: Family, op: OpClass, n: u32) -> u64 {
    let mut s = SynthStream::new(
        "chain",
        [1, 1, 1],
        [32, 1, 1],
        8,
        0,
        Box::new(move |_, _| (0..n).map(|i| alu(8 * i, family, op, &[1], &[1])).collect()),
    );
    Simulation::new(cfg).run(Stream(&mut s)).unwrap().cycles
}

#[test]
fn dependent_chain_takes_count_times_latency() {
    for preset in ["gtx480", "gtx780", "gtx1080ti"] {
        let cfg = one_sm(preset);
        let classes = [
            (Family::Fp, OpClass::Add, cfg.latency.fp.add[0]),
            (Family::Fp, OpClass::Mad, cfg.latency.fp.mad[0]),
            (Family::Int, OpClass::Max, cfg.latency.int.max[0]),
            (Family::Int, OpClass::Div, cfg.latency.int.div[0]),
            (Family::Sfu, OpClass::Rsqrt, cfg.latency.sfu[0]),
            (Family::Dp, OpClass::Mul, cfg.latency.dp.mul[0]),
        ];
        let mut overheads = Vec::new();
        for (f, op, lat) in classes {
            // the per-instruction period is the difference between chains of 40 and 20
            let per = (chain(&cfg, f, op, 40) - chain(&cfg, f, op, 20)) as f64 / 20.0;
            assert_eq!(per.fract(), 0.0, "{preset} {op:?}: period {per}");
            let overhead = per as i64 - lat as i64;
            overheads.push(overhead);
        }
        // period = latency + a fixed issue overhead (operand read + dispatch), the same for
        // every class
        assert!(
            overheads.iter().all(|&o| o == overheads[0]),
            "{preset}: {overheads:?}"
        );
        assert_eq!(overheads[0], 2, "{preset}");
    }
}

/// Independent instructions (each warp writes its own registers) from many warps.
fn throughput(cfg: &GpuConfig, family: Family, op: OpClass) -> f64 {
    let n = 128u32;
    let mut s = SynthStream::new(
        "indep",
        [24, 1, 1],
        [32 * 8, 1, 1],
        16,
        0,
        Box::new(move |_, _| {
            (0..n)
                .map(|i| alu(8 * i, family, op, &[(i % 8) as u16], &[8 + (i % 4) as u16]))
                .collect()
        }),
    );
    let k = Simulation::new(cfg).run(Stream(&mut s)).unwrap();
    // the exits are not part of the measured class
    (k.warp_insts - k.by_family.ctrl.warp_insts) as f64 / k.cycles as f64
}

fn throughput_nosrc(cfg: &GpuConfig, family: Family, op: OpClass) -> f64 {
    let n = 128u32;
    let mut s = SynthStream::new(
        "indep0",
        [24, 1, 1],
        [32 * 8, 1, 1],
        16,
        0,
        Box::new(move |_, _| {
            (0..n)
                .map(|i| alu(8 * i, family, op, &[(i % 8) as u16], &[]))
                .collect()
        }),
    );
    let k = Simulation::new(cfg).run(Stream(&mut s)).unwrap();
    (k.warp_insts - k.by_family.ctrl.warp_insts) as f64 / k.cycles as f64
}

#[test]
fn independent_instructions_reach_configured_throughput() {
    let cfg = one_sm("gtx480");
    // FP add: II 1 on 2 SP units, 2 schedulers × 1 issue → 2 warp insts / cycle
    let fp = throughput(&cfg, Family::Fp, OpClass::Add);
    assert!(fp > 1.8 && fp <= 2.0, "fp add IPC {fp}");
    // INT mul: II 2 on 2 SP units → 1 / cycle
    let im = throughput(&cfg, Family::Int, OpClass::Mul);
    assert!(im > 0.9 && im <= 1.0, "int mul IPC {im}");
    // SFU: II 8 on 1 unit → 1/8 per cycle
    let sfu = throughput(&cfg, Family::Sfu, OpClass::Sin);
    assert!(sfu > 0.118 && sfu <= 0.125, "sfu IPC {sfu}");
    // Kepler: 6 SP units, 4 schedulers × 2 → FP add bounded by 6 OC_EX slots; 12 SP collector
    // units each held 2 cycles (allocate, read) also allow 6, bank conflicts cost some of it
    let k = one_sm("gtx780");
    let fpk = throughput(&k, Family::Fp, OpClass::Add);
    assert!(fpk > 4.5 && fpk <= 6.0, "gtx780 fp add IPC {fpk}");
    // without operand reads (no sources) the collectors never wait on banks: 6 per cycle
    let fpk0 = throughput_nosrc(&k, Family::Fp, OpClass::Add);
    assert!(
        fpk0 > 5.7 && fpk0 <= 6.0,
        "gtx780 fp add (no sources) IPC {fpk0}"
    );
}

/// 4 warps on one scheduler, each: 3 independent adds (no sources) then exit. Fetch width and
/// throughput large enough that every warp's program is buffered in cycle 1.
fn order_of(policy: SchedPolicy) -> Vec<(u64, u32, u32)> {
    let mut cfg = one_sm("gtx480");
    cfg.sched.n_per_sm = 1;
    cfg.sched.policy = policy;
    cfg.frontend.ibuffer_entries = 8;
    cfg.frontend.fetch_width = 8;
    cfg.frontend.fetch_throughput = 4;
    let mut s = SynthStream::new(
        "order",
        [1, 1, 1],
        [128, 1, 1],
        8,
        0,
        Box::new(|_, _| {
            (0..3)
                .map(|i| alu(8 * i, Family::Int, OpClass::Add, &[i as u16], &[]))
                .collect()
        }),
    );
    let (_, log) = Simulation::new(&cfg).run(Traced(&mut s)).unwrap();
    log.iter().map(|e| (e.cycle, e.warp_slot, e.pc)).collect()
}

#[test]
fn gto_and_lrr_issue_orders_match_hand_worked_orders() {
    // CTA placed at the end of cycle 0, fetched in cycle 1, decoded entries issue from cycle 2,
    // one instruction per cycle (one scheduler, issue width 1, no hazards, free units).
    let lrr = order_of(SchedPolicy::Lrr);
    let mut expect = Vec::new();
    for round in 0..4u32 {
        for w in 0..4u32 {
            expect.push((2 + (round * 4 + w) as u64, w, 8 * round));
        }
    }
    assert_eq!(lrr, expect, "LRR: round-robin over warps");
    let gto = order_of(SchedPolicy::Gto);
    let mut expect = Vec::new();
    for w in 0..4u32 {
        for i in 0..4u32 {
            expect.push((2 + (w * 4 + i) as u64, w, 8 * i));
        }
    }
    assert_eq!(gto, expect, "GTO: greedy on the oldest warp until it exits");
}
