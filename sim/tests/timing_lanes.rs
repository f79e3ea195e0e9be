//! Lane count of the execution units (simulator §1.1, §2.5): a unit of L lanes serves a warp
//! in P = ⌈32/L⌉ passes (⌈16/L⌉ for a double-pumped SP cluster), which bounds its initiation
//! interval at P and delays its result by the passes the latency table does not cover; the
//! LD/ST unit generates addresses for P cycles. Checked here: the pass count, cycles that never
//! grow as lanes are added, the exact steady-state throughput of L/32 warp instructions per
//! cycle per unit, the configuration check of the lane keys, and the lane-count study printed
//! with `--nocapture`.

use sim::config::{GpuConfig, LaneMap};
use sim::inst::{Family, MemSpace, OpClass, WarpInst};
use sim::timing::synth::{alu, mem, SynthStream};
use sim::timing::{classify_op, warp_passes, PipeClass, Simulation, Stream};

/// One SM of `preset` with a perfect I-cache, so that only the execution units limit issue.
fn one_sm(preset: &str) -> GpuConfig {
    let mut c = GpuConfig::preset(preset).unwrap();
    c.gpu.n_sm = 1;
    c.frontend.perfect_icache = true;
    c
}

/// `n` independent instructions of (`family`, `op`) per warp: destinations rotate over 16
/// registers and every source is register 0, which nothing writes, so no instruction waits on
/// another.
fn independent(family: Family, op: OpClass, n: u32) -> impl Fn(u32, u32) -> Vec<WarpInst> {
    move |_, _| {
        (0..n)
            .map(|i| alu(8 * (i + 1), family, op, &[1 + (i % 16) as u16], &[0]))
            .collect()
    }
}

/// Cycles of one CTA of `warps` warps each running `n` independent (`family`, `op`)
/// instructions.
fn cycles(cfg: &GpuConfig, family: Family, op: OpClass, warps: u32, n: u32) -> u64 {
    let mut s = SynthStream::new(
        "lanes",
        [1, 1, 1],
        [32 * warps, 1, 1],
        32,
        0,
        Box::new(independent(family, op, n)),
    );
    Simulation::new(cfg).run(Stream(&mut s)).unwrap().cycles
}

#[test]
fn passes_follow_lanes_and_lane_map() {
    let mut c = GpuConfig::preset("gtx1080ti").unwrap();
    for (lanes, p) in [
        (1, 32),
        (2, 16),
        (3, 11),
        (4, 8),
        (8, 4),
        (16, 2),
        (24, 2),
        (32, 1),
    ] {
        c.units.sp_lanes = lanes;
        c.units.sfu_lanes = lanes;
        c.units.dp_lanes = lanes;
        c.units.ldst_lanes = lanes;
        for pc in [
            PipeClass::Sp,
            PipeClass::Int,
            PipeClass::Sfu,
            PipeClass::Dp,
            PipeClass::Mem,
        ] {
            assert_eq!(warp_passes(&c, pc), p, "{pc:?} {lanes} lanes");
        }
        assert_eq!(warp_passes(&c, PipeClass::None), 1);
    }
    // double pumping halves the SP passes only
    c.units.lane_map = LaneMap::DoublePumped16;
    for (lanes, p) in [(1, 16), (4, 4), (8, 2), (16, 1), (32, 1)] {
        c.units.sp_lanes = lanes;
        c.units.sfu_lanes = lanes;
        assert_eq!(warp_passes(&c, PipeClass::Sp), p, "sp {lanes}");
        assert_eq!(
            warp_passes(&c, PipeClass::Sfu),
            32u32.div_ceil(lanes),
            "sfu {lanes}"
        );
    }
}

#[test]
fn classes_take_lane_limited_ii_and_last_pass_latency() {
    // gtx1080ti FP ADD is (4, 1) on 32 lanes; SFU ops (20, 4) on 8 lanes: the table already
    // holds the lane limit, so the presets keep their values
    let mut c = GpuConfig::preset("gtx1080ti").unwrap();
    let add = classify_op(&c, Family::Fp, OpClass::Add);
    assert_eq!((add.latency, add.ii), (4, 1));
    let sfu = classify_op(&c, Family::Sfu, OpClass::Rsqrt);
    assert_eq!((sfu.latency, sfu.ii), (20, 4));
    c.units.sp_lanes = 8;
    let add = classify_op(&c, Family::Fp, OpClass::Add);
    assert_eq!((add.latency, add.ii), (4 + 4 - 1, 4));
    c.units.sfu_lanes = 2;
    let sfu = classify_op(&c, Family::Sfu, OpClass::Rsqrt);
    assert_eq!((sfu.latency, sfu.ii), (20 + 16 - 4, 16));
    // DP runs on the SFU in this preset: its passes are the SFU's
    let dp = classify_op(&c, Family::Dp, OpClass::Add);
    assert_eq!((dp.latency, dp.ii), (8 + 16 - 8, 16));
    // the LD/ST class keeps (1, 1): the LD/ST unit counts its own address-generation passes
    c.units.ldst_lanes = 4;
    let ld = classify_op(&c, Family::Mem, OpClass::Load);
    assert_eq!((ld.latency, ld.ii), (1, 1));
    // GTX480: a double-pumped 16-lane SP cluster serves a warp per cycle; its SFU table
    // (8, 8) is the 4-lane limit
    let g = GpuConfig::preset("gtx480").unwrap();
    let mad = classify_op(&g, Family::Fp, OpClass::Mad);
    assert_eq!((mad.latency, mad.ii), (5, 1));
    let sin = classify_op(&g, Family::Fp, OpClass::Sin);
    assert_eq!((sin.latency, sin.ii), (8, 8));
}

/// The presets' latency tables already hold their units' lane limits, so the lane count changes
/// no class of gtx780 or gtx1080ti against the same machine with 32-lane units; on gtx480 only
/// the f32 DIV, whose table II of 4 is shorter than the 8 passes of its 4-lane SFU, changes.
#[test]
fn preset_tables_already_hold_the_lane_limits() {
    let families = [
        Family::Int,
        Family::Fp,
        Family::Dp,
        Family::Sfu,
        Family::Mem,
        Family::Ctrl,
        Family::Bar,
    ];
    let ops = [
        OpClass::Add,
        OpClass::Max,
        OpClass::Mul,
        OpClass::Mad,
        OpClass::Div,
        OpClass::Shfl,
        OpClass::Cvt,
        OpClass::Mov,
        OpClass::Logic,
        OpClass::Setp,
        OpClass::Sin,
        OpClass::Rsqrt,
        OpClass::Sqrt,
        OpClass::Load,
        OpClass::Store,
        OpClass::Atomic,
        OpClass::Branch,
        OpClass::Exit,
        OpClass::Barrier,
        OpClass::Nop,
    ];
    for preset in ["gtx480", "gtx780", "gtx1080ti"] {
        let c = GpuConfig::preset(preset).unwrap();
        let mut wide = c.clone();
        wide.units.sp_lanes = 32;
        wide.units.sfu_lanes = 32;
        wide.units.dp_lanes = 32;
        wide.units.ldst_lanes = 32;
        wide.units.lane_map = LaneMap::Identity;
        let mut changed = Vec::new();
        for f in families {
            for op in ops {
                let (a, b) = (classify_op(&c, f, op), classify_op(&wide, f, op));
                if a != b {
                    changed.push((f, op, (b.latency, b.ii), (a.latency, a.ii)));
                }
            }
        }
        let want = if preset == "gtx480" {
            vec![(Family::Fp, OpClass::Div, (39, 4), (43, 8))]
        } else {
            vec![]
        };
        assert_eq!(changed, want, "{preset}");
    }
}

#[test]
fn cycles_never_grow_with_lanes() {
    for (family, op, set) in [
        (
            Family::Fp,
            OpClass::Add,
            (|c: &mut GpuConfig, l| c.units.sp_lanes = l) as fn(&mut GpuConfig, u32),
        ),
        (Family::Sfu, OpClass::Rsqrt, |c: &mut GpuConfig, l| {
            c.units.sfu_lanes = l
        }),
    ] {
        let mut last = u64::MAX;
        let mut all = Vec::new();
        for lanes in [1, 2, 4, 8, 16, 32] {
            let mut c = one_sm("gtx1080ti");
            set(&mut c, lanes);
            let k = cycles(&c, family, op, 16, 48);
            all.push((lanes, k));
            assert!(k <= last, "{op:?}: {all:?}");
            last = k;
        }
        // a 1-lane unit is far slower than a full-width one
        assert!(all[0].1 > 4 * all[5].1, "{op:?}: {all:?}");
    }
}

/// In steady state a saturated unit of P passes accepts one warp instruction every P cycles:
/// adding `extra` instructions to each of `warps` warps spread over `units` units adds exactly
/// warps·extra·P/units cycles.
#[test]
fn saturated_unit_throughput_is_lanes_over_32() {
    // SFU: gtx1080ti has 4 SFUs, one per sub-core, 4 schedulers; 16 warps = 4 per sub-core
    for lanes in [1u32, 2, 4] {
        let mut c = one_sm("gtx1080ti");
        c.units.sfu_lanes = lanes;
        let p = 32 / lanes as u64;
        let (warps, n1, n2) = (16, 32, 64);
        let a = cycles(&c, Family::Sfu, OpClass::Rsqrt, warps, n1);
        let b = cycles(&c, Family::Sfu, OpClass::Rsqrt, warps, n2);
        let want = (warps / 4) as u64 * (n2 - n1) as u64 * p;
        assert_eq!(b - a, want, "sfu {lanes} lanes: {a} -> {b}");
    }
    // SP: 4 SP clusters, one per sub-core
    for lanes in [2u32, 4, 8, 16] {
        let mut c = one_sm("gtx1080ti");
        c.units.sp_lanes = lanes;
        let p = 32 / lanes as u64;
        let (warps, n1, n2) = (16, 32, 64);
        let a = cycles(&c, Family::Fp, OpClass::Add, warps, n1);
        let b = cycles(&c, Family::Fp, OpClass::Add, warps, n2);
        let want = (warps / 4) as u64 * (n2 - n1) as u64 * p;
        assert_eq!(b - a, want, "sp {lanes} lanes: {a} -> {b}");
    }
}

/// The LD/ST unit of L lanes spends P = ⌈32/L⌉ cycles generating addresses before its first
/// request. It frees in the cycle its last request goes out and takes the next instruction in
/// that cycle, so a stream of conflict-free shared loads (one pass each) takes P cycles per
/// instruction (1 with 32 lanes, as before lanes were modelled).
#[test]
fn ldst_address_generation_takes_one_cycle_per_pass() {
    let prog = |n: u32| {
        move |_: u32, w: u32| -> Vec<WarpInst> {
            (0..n)
                .map(|i| {
                    mem(
                        8 * (i + 1),
                        OpClass::Load,
                        MemSpace::Shared,
                        4,
                        &[1 + (i % 16) as u16],
                        &[0],
                        u32::MAX,
                        move |l| 4 * (l as u64 + 32 * w as u64),
                    )
                })
                .collect()
        }
    };
    let run = |c: &GpuConfig, n: u32| {
        let mut s = SynthStream::new("ld", [1, 1, 1], [256, 1, 1], 32, 4096, Box::new(prog(n)));
        Simulation::new(c).run(Stream(&mut s)).unwrap().cycles
    };
    for lanes in [8u32, 16, 32] {
        let mut c = one_sm("gtx1080ti");
        c.units.ldst_lanes = lanes;
        let p = 32 / lanes as u64;
        let (a, b) = (run(&c, 16), run(&c, 32));
        // 8 warps × 16 extra loads, one LD/ST unit, P cycles each
        assert_eq!(b - a, 8 * 16 * p, "ldst {lanes} lanes: {a} -> {b}");
    }
}

#[test]
fn lane_keys_outside_1_to_32_are_refused() {
    for key in ["sp_lanes", "sfu_lanes", "dp_lanes", "ldst_lanes"] {
        for v in [0, 33, 64] {
            let text = format!("base = \"gtx1080ti\"\n[units]\n{key} = {v}\n");
            let e = GpuConfig::from_toml_str(&text, "lanes.toml")
                .expect_err(&format!("{key} = {v}"))
                .to_string();
            assert!(
                e.contains(&format!("units.{key}")) && e.contains("1 to 32"),
                "{key} = {v}: {e}"
            );
        }
        let text = format!("base = \"gtx1080ti\"\n[units]\n{key} = 5\n");
        assert!(GpuConfig::from_toml_str(&text, "lanes.toml").is_ok());
    }
}

/// The lane-count study: cycles of a workload (test size) as one unit's lane count varies,
/// on gtx1080ti. Run with `cargo test --release -p sim --test timing_lanes -- --ignored
/// --nocapture lane_study` to print the table.
#[test]
#[ignore = "study: several full workload simulations; run explicitly"]
fn lane_study() {
    use sim::timing::{Program, TimingGpu};
    use sim::workloads::{self, Size};
    let studies: [(&str, &str); 3] = [
        ("sgemm", "sp_lanes"),
        ("hotspot", "sp_lanes"),
        ("mriq", "sfu_lanes"),
    ];
    println!("workload  key        lanes  cycles");
    for (w, key) in studies {
        let wl = workloads::find(w).unwrap();
        for lanes in [1u32, 2, 4, 8, 16, 32] {
            let mut c = GpuConfig::preset("gtx1080ti").unwrap();
            match key {
                "sp_lanes" => c.units.sp_lanes = lanes,
                _ => c.units.sfu_lanes = lanes,
            }
            let (ran, act) = Simulation::new(&c)
                .run(Program(|gpu: &mut TimingGpu| {
                    wl.run(Size::Test, gpu, false)
                }))
                .unwrap();
            ran.unwrap();
            println!("{w:<9} {key:<10} {lanes:>5}  {}", act.aggregate.cycles);
        }
    }
}

/// Per-lane timelines of an SP pipe of L lanes: lane p serves threads p, p + L, …, so a warp
/// whose threads 0..15 are active keeps all 8 lanes of an 8-lane cluster busy but only lanes
/// 0..15 of a 32-lane one; busy plus idle is the kernel's length on every lane.
#[test]
fn lane_timelines_fold_threads_onto_physical_lanes() {
    for (lanes, busy_lanes) in [(8u32, 8usize), (32, 16)] {
        let mut c = one_sm("gtx1080ti");
        c.units.sp_lanes = lanes;
        let mut s = SynthStream::new(
            "half",
            [1, 1, 1],
            [128, 1, 1],
            32,
            0,
            Box::new(|_, _| {
                (0..16)
                    .map(|i| {
                        let mut x = alu(8 * (i + 1), Family::Fp, OpClass::Add, &[1], &[0]);
                        x.active_mask = 0x0000_ffff;
                        x
                    })
                    .collect()
            }),
        );
        let k = Simulation::new(&c).run(Stream(&mut s)).unwrap();
        let fp: Vec<_> = k.sms[0]
            .exec
            .iter()
            .filter(|p| p.pipe == "fp" && p.ops.contains_key("ADD"))
            .collect();
        assert!(!fp.is_empty());
        for p in fp {
            assert_eq!(p.lanes, lanes);
            assert_eq!(p.lane_idle.len(), lanes as usize);
            let busy = p.lane_idle.iter().filter(|l| l.busy_cycles > 0).count();
            assert_eq!(busy, busy_lanes, "{} {lanes} lanes", p.unit);
            for l in &p.lane_idle {
                assert_eq!(l.busy_cycles + l.idle_cycles, k.cycles);
            }
        }
    }
}
