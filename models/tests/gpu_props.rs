//! Invariants of the activity-driven power engine (issue checks): energy grows with activity,
//! leakage energy grows with run time and temperature, NTV lowers energy per operation and
//! raises run time, the tree sums to its totals, and nothing is NaN or negative.

use models::gpu::{ChipModel, TechCostSource};
use proptest::prelude::*;
use sim::activity::{
    DramChannelActivity, HitMiss, KernelActivity, L2SliceActivity, OpsLanes, PipeActivity,
    SmActivity,
};
use sim::config::GpuConfig;

/// A synthetic activity whose every counter is `k` times a base pattern, over `cycles`.
fn activity(k: u64, cycles: u64) -> KernelActivity {
    let mut a = KernelActivity::empty("synthetic");
    a.cycles = cycles;
    a.warp_insts = 1000 * k;
    for _ in 0..15 {
        let mut s = SmActivity {
            active_cycles: cycles,
            decoder_insts: 100 * k,
            ..SmActivity::default()
        };
        s.icache.reads = 50 * k;
        s.icache.misses = k;
        s.ibuffer.writes = 100 * k;
        s.ibuffer.reads = 100 * k;
        s.scoreboard.reads = 300 * k;
        s.rf.reads = vec![20 * k; 16];
        s.rf.writes = vec![10 * k; 16];
        s.smem.lanes = 64 * k;
        s.l1d.read.hit = 5 * k;
        s.l1d.read.miss = 2 * k;
        for (pipe, class) in [
            ("int", "ADD"),
            ("fp", "MAD"),
            ("sfu", "RSQRT"),
            ("ldst", "LOAD"),
        ] {
            let mut p = PipeActivity {
                unit: format!("{pipe}0"),
                pipe: pipe.into(),
                lanes: 32,
                ..PipeActivity::default()
            };
            p.ops.insert(
                class.into(),
                OpsLanes {
                    ops: 10 * k,
                    lanes: 320 * k,
                },
            );
            s.exec.push(p);
        }
        a.sms.push(s);
    }
    a.l2 = vec![
        L2SliceActivity {
            read: HitMiss {
                hit: 3 * k,
                miss: k
            },
            fills: k,
            ..Default::default()
        };
        12
    ];
    a.dram = vec![
        DramChannelActivity {
            reads: 4 * k,
            activates: k,
            ..Default::default()
        };
        6
    ];
    a.icnt.req_flits = vec![7 * k; 15];
    a
}

fn chip(choice: &techlib::ResolvedPoint) -> (ChipModel, String) {
    let src = TechCostSource::new(choice, None).unwrap();
    let cfg = GpuConfig::preset("gtx480").unwrap();
    (ChipModel::build(&cfg, &src).unwrap(), src.label.clone())
}

fn stv() -> techlib::ResolvedPoint {
    techlib::ResolvedPoint::resolve("finfet7", None, None, Some("stv"), None).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn energy_grows_with_activity(k in 1u64..1000, extra in 1u64..1000, cycles in 1000u64..1_000_000) {
        let (m, label) = chip(&stv());
        let a = m.estimate("a", &label, 350.0, &activity(k, cycles));
        let b = m.estimate("b", &label, 350.0, &activity(k + extra, cycles));
        a.root.check_finite_nonnegative().unwrap();
        b.root.check_finite_nonnegative().unwrap();
        prop_assert!(b.totals().dynamic_j > a.totals().dynamic_j);
        prop_assert_eq!(b.totals().leakage_j, a.totals().leakage_j);
    }

    #[test]
    fn leakage_grows_with_runtime(c1 in 1000u64..1_000_000, dc in 1u64..1_000_000) {
        let (m, label) = chip(&stv());
        let a = m.estimate("a", &label, 350.0, &activity(10, c1));
        let b = m.estimate("b", &label, 350.0, &activity(10, c1 + dc));
        prop_assert!(b.totals().leakage_j > a.totals().leakage_j);
        prop_assert!(b.runtime_s > a.runtime_s);
    }
}

#[test]
fn leakage_grows_with_temperature() {
    let cold = stv().with_temperature_k(300.0).unwrap();
    let hot = stv().with_temperature_k(380.0).unwrap();
    let (mc, l) = chip(&cold);
    let (mh, _) = chip(&hot);
    let a = activity(10, 100_000);
    let ec = mc.estimate("cold", &l, 300.0, &a);
    let eh = mh.estimate("hot", &l, 380.0, &a);
    assert!(
        eh.totals().leakage_j > ec.totals().leakage_j,
        "{} vs {}",
        eh.totals().leakage_j,
        ec.totals().leakage_j
    );
}

#[test]
fn ntv_lowers_energy_per_operation_and_raises_runtime() {
    let ntv = stv().with_op("ntv").unwrap();
    let (ms, l) = chip(&stv());
    let (mn, _) = chip(&ntv);
    let a = activity(100, 100_000);
    let es = ms.estimate("stv", &l, 350.0, &a);
    let en = mn.estimate("ntv", &l, 350.0, &a);
    assert!(en.totals().dynamic_j < es.totals().dynamic_j);
    assert!(en.runtime_s > es.runtime_s);
    println!(
        "STV: {:.3} uJ dynamic, {:.2} us; NTV: {:.3} uJ dynamic, {:.2} us",
        es.totals().dynamic_j * 1e6,
        es.runtime_s * 1e6,
        en.totals().dynamic_j * 1e6,
        en.runtime_s * 1e6
    );
}

#[test]
fn tree_sums_to_totals() {
    let (m, l) = chip(&stv());
    let e = m.estimate("sum", &l, 350.0, &activity(7, 50_000));
    let mut area = 0.0;
    let mut dynamic = 0.0;
    let mut leak = 0.0;
    // Leaves hold the costs; groups carry their children's sums (checked by validate).
    e.root.walk(0, &mut |_, n| {
        if n.children.is_empty() {
            area += n.area_m2;
            dynamic += n.dynamic_j;
            leak += n.leakage_j;
        }
    });
    let t = e.totals();
    assert_eq!(t, e.root.own(), "the root carries the chip's totals");
    e.validate().unwrap();
    assert!((area - t.area_m2).abs() <= 1e-12 * t.area_m2);
    assert!((dynamic - t.dynamic_j).abs() <= 1e-12 * t.dynamic_j);
    assert!((leak - t.leakage_j).abs() <= 1e-12 * t.leakage_j);
    assert!(t.dynamic_j > 0.0 && t.leakage_j > 0.0 && t.area_m2 > 0.0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// One physical design per run: the chip's area is fixed at the design supply and never
    /// moves with the operating supply, at planar and FinFET nodes.
    #[test]
    fn chip_area_does_not_depend_on_operating_vdd(
        planar in any::<bool>(),
        frac in 0.0f64..1.0,
    ) {
        let (node, lo, hi) = if planar { ("40nm", 0.7, 1.1) } else { ("finfet7", 0.3, 0.9) };
        let at = techlib::ResolvedPoint::named(node)
            .unwrap()
            .with_vdd_v(lo + frac * (hi - lo))
            .unwrap();
        let nominal = techlib::ResolvedPoint::named(node).unwrap();
        let (ma, la) = chip(&at);
        let (mn, ln) = chip(&nominal);
        let a = ma.estimate("a", &la, 350.0, &activity(1, 1000)).totals().area_m2;
        let n = mn.estimate("n", &ln, 350.0, &activity(1, 1000)).totals().area_m2;
        prop_assert!((a - n).abs() <= 1e-12 * n, "{} vs {} mm2", a * 1e6, n * 1e6);
    }
}

/// Idle SMs: gated, an SM leaks only over its active cycles and the leakage left out is
/// reported; leaking, every SM leaks for the whole run and the two accounts add up.
#[test]
fn idle_sms_gated_leak_only_while_busy() {
    use models::gpu::IdleSms;
    let (mut m, l) = chip(&stv());
    let mut a = activity(10, 100_000);
    for (i, s) in a.sms.iter_mut().enumerate() {
        s.active_cycles = if i < 5 { 100_000 } else { 0 };
    }
    let gated = m.estimate("gated", &l, 350.0, &a);
    m.idle_sms = IdleSms::Leaking;
    let leaking = m.estimate("leaking", &l, 350.0, &a);
    assert_eq!(gated.sm_use.busy_sms, 5);
    assert_eq!(gated.sm_use.sms, 15);
    let gap = leaking.totals().leakage_j - gated.totals().leakage_j;
    assert!(gap > 0.0);
    assert!(
        (gap - gated.sm_use.idle_sm_leakage_j).abs() <= 1e-9 * gap,
        "leakage difference {gap} J vs reported idle-SM leakage {} J",
        gated.sm_use.idle_sm_leakage_j
    );
    // Dynamic energy does not depend on the idle-SM policy.
    assert_eq!(gated.totals().dynamic_j, leaking.totals().dynamic_j);
    // All SMs busy: both policies agree.
    let full = activity(10, 100_000);
    m.idle_sms = IdleSms::Gated;
    let g = m.estimate("g", &l, 350.0, &full).totals().leakage_j;
    m.idle_sms = IdleSms::Leaking;
    let k = m.estimate("k", &l, 350.0, &full).totals().leakage_j;
    assert!((g - k).abs() <= 1e-12 * k);
}
