//! Unit tests of the issue-stage bit counts (hand-computed from the spec formulas at the
//! spec's defaults) and of their costing (positive, scaling with size and node).

use super::cost::*;
use super::loog::*;
use super::socgpu::*;
use crate::gpu::TechCostSource;
use crate::issue_bits::*;

fn src(node: &str) -> TechCostSource {
    TechCostSource::new(&techlib::ResolvedPoint::named(node).unwrap(), None).unwrap()
}

#[test]
fn baseline_bits_at_the_defaults() {
    let f = InstFields::default();
    // operands: 3·(8+1) + 1·(8+1) + 1·(3+1) + 1·(3+1) = 27 + 9 + 4 + 4 = 44
    assert_eq!(f.operand_bits(), 44);
    // E_b = 1 + 32 + 44 + 64 = 141
    assert_eq!(f.baseline_entry_bits(), 141);
    // GPR comparators nd(ns+nd) + ns·nd = 1·4 + 3·1 = 7; predicate 1·2 + 1·1 = 3
    assert_eq!(f.gpr_comparators(), 7);
    assert_eq!(f.pred_comparators(), 3);
    let b = BaselineIssue::default();
    assert_eq!(b.arch_regs, 264);
    assert_eq!(b.ib_bits(), 282);
    assert_eq!(b.pending_write_bits(), 264);
    assert_eq!(b.pending_read_bits(), 528);
    assert_eq!(b.delta_bits(), 282 + 264 + 528);
    // SIMT stack: 32 · (64 + 32 + 1) = 3104
    assert_eq!(b.simt_bits(), 3104);
}

#[test]
fn socgpu_bits_at_the_defaults() {
    let s = SocgpuIssue::default();
    assert_eq!(s.seniority_bits(), 3);
    // E_s = 141 + 1 + 1 + 3 + 32 = 178
    assert_eq!(s.entry_bits(), 178);
    assert_eq!(s.ib_bits(), 8 * 178);
    assert_eq!(s.dm_bits(), 56);
    assert_eq!(
        SocgpuIssue {
            diag_hardwired: false,
            ..s
        }
        .dm_bits(),
        64
    );
    assert_eq!(s.ready_ctr_total_bits(), 0);
    assert_eq!(
        SocgpuIssue {
            policy: SelectPolicy::MostReady,
            ..s
        }
        .ready_ctr_total_bits(),
        8 * 5
    );
    assert_eq!(s.pc_register_bits(), 64);
    assert_eq!(s.gpr_insert_comparators(), 56);
    assert_eq!(s.pred_insert_comparators(), 24);
    assert_eq!(s.a3_comparators(), 8);
    assert_eq!(s.selection_comparators(), (0, 0));
    assert_eq!(
        SocgpuIssue {
            policy: SelectPolicy::Older,
            ..s
        }
        .selection_comparators(),
        (7, 3)
    );
    assert_eq!(
        SocgpuIssue {
            policy: SelectPolicy::LeastReady,
            ..s
        }
        .selection_comparators(),
        (7, 5)
    );
    // added state: 1424 + 56 + 64 = 1544 bits per warp
    assert_eq!(s.state_bits(), 1544);
    // N = 64: seniority 6, E_s = 141 + 2 + 6 + 32 = 181, DM 64·63
    let s64 = SocgpuIssue { ib_depth: 64, ..s };
    assert_eq!(s64.entry_bits(), 181);
    assert_eq!(s64.dm_bits(), 4032);
}

#[test]
fn loog_bits_at_the_gtx_subcore_defaults() {
    let l = LoogSlice::gtx1080ti_subcore();
    // Iw = 8 + 4 + 32 + 32 + 8 + 32 + 1 + 4·6 = 141
    assert_eq!(l.default_payload_bits(), 141);
    // CU = 9 + 3·4 + 141 + 4·32·32 = 4258
    assert_eq!(l.cu_bits(), 4258);
    assert_eq!(l.rat_shape(), (1024, 5));
    assert_eq!(l.rat_bits(), 5120);
    assert!(l.rat_is_sram());
    assert_eq!(l.uuid_bits_total(), 128);
    assert_eq!(l.age_comparators(), 240);
    assert_eq!(l.war_comparators(), 720);
    assert_eq!(l.wb_buffer_bits(), 2048);
    assert_eq!(l.broadcast_wires(), 4 * 16 * 1024);
    assert_eq!(l.removed_scoreboard_bits(), 1024);
    // with an RRS of R = 32: CU = 8 + 3·5 + 141 + 3·1024 = 3236; entry 2 + 32 + 1024
    let r = LoogSlice { rrs: Some(32), ..l };
    assert_eq!(r.cu_bits(), 3236);
    assert_eq!(r.rrs_entry_bits(), 1058);
    assert_eq!(r.rat_shape(), (1024, 6));
    // no write-back buffer: 3·N·(N−1)·T·D wires
    let nb = LoogSlice { n_wb: 0, ..l };
    assert_eq!(nb.broadcast_wires(), 3 * 16 * 15 * 1024);
}

#[test]
fn dwf_bits_at_the_defaults() {
    let d = DwfScheduler::default();
    assert_eq!((d.ib(), d.cnt(), d.sd()), (7, 10, 8));
    // 2·(32·10 + 24 + 32) = 752
    assert_eq!(d.warp_update_bits(), 752);
    // 64·(24 + 32 + 7) = 4032
    assert_eq!(d.pc_lut_bits(), 4032);
    // 128·(320 + 24 + 8) = 45056
    assert_eq!(d.pool_bits(), 45056);
    assert_eq!(d.allocator_bits(), 896);
    // 128·(24 + 6 + 1) = 3968
    assert_eq!(d.mheap_lut_bits(), 3968);
    // 64·(24 + 10 + 16 + 7 + 1) = 3712
    assert_eq!(d.heap_bits(), 3712);
    assert_eq!(d.majority_bits(), 50);
    // 64·(48 + 32 + 1) + ⌈log2 65⌉ = 5184 + 7
    assert_eq!(d.pdom_stack_bits(), 5191);
    assert_eq!(d.warps_per_core(), 24);
    assert_eq!(
        d.scheduler_bits(),
        752 + 4032 + 45056 + 896 + 3968 + 3712 + 50
    );
}

#[test]
fn costs_are_positive_and_grow_with_depth() {
    let s16 = src("16nm");
    let base = BaselineIssue::default();
    let b = baseline_cost(&base, &s16).unwrap();
    assert!(b.added_area_m2() > 0.0 && b.added_leakage_w() > 0.0);
    let mut last = 0.0;
    for n in [2, 4, 8, 16, 32, 64] {
        let s = SocgpuIssue {
            ib_depth: n,
            ..Default::default()
        };
        let c = socgpu_cost(&s, &base, &s16).unwrap();
        for st in &c.added {
            assert!(st.area_m2 > 0.0, "{} at N={n}: {st:?}", st.name);
            for e in &st.events {
                assert!(e.energy_j > 0.0 && e.energy_j.is_finite(), "{}", st.name);
            }
        }
        assert!(c.added_area_m2() > last, "area must grow with N");
        last = c.added_area_m2();
        assert_eq!(c.removed.len(), 2);
    }
    // N = 2 replaces the 2-entry buffer with a larger entry plus a DM: still an addition
    let c2 = socgpu_cost(
        &SocgpuIssue {
            ib_depth: 64,
            ..Default::default()
        },
        &base,
        &s16,
    )
    .unwrap();
    assert!(c2.delta_area_m2() > 0.0);
}

#[test]
fn costs_follow_the_node() {
    let base = BaselineIssue::default();
    let s = SocgpuIssue::default();
    let a16 = socgpu_cost(&s, &base, &src("16nm")).unwrap();
    let a45 = socgpu_cost(&s, &base, &src("45nm")).unwrap();
    let f7 = socgpu_cost(&s, &base, &src("finfet7")).unwrap();
    assert!(a45.added_area_m2() > a16.added_area_m2());
    assert!(a16.added_area_m2() > f7.added_area_m2());
    let e = |c: &DesignCost| c.added[0].events[0].energy_j;
    assert!(e(&a45) > e(&a16));
}

#[test]
fn loog_and_dwf_cost() {
    let s = src("16nm");
    let l = loog_cost(&LoogSlice::gtx1080ti_subcore(), &s).unwrap();
    assert!(l.delta_area_m2() > 0.0);
    assert!(l
        .added
        .iter()
        .any(|x| x.name == "RAT" && x.model.starts_with("sram")));
    let rrs = loog_cost(
        &LoogSlice {
            rrs: Some(32),
            ..LoogSlice::gtx1080ti_subcore()
        },
        &s,
    )
    .unwrap();
    assert!(rrs.added.iter().any(|x| x.name == "RRS"));
    let d = dwf_cost(&DwfScheduler::default(), &src("90nm")).unwrap();
    assert!(d.added_area_m2() > 0.0);
    assert!(d.line_items[0].area_m2 > 0.0);
    let bits: u64 = d.added.iter().map(|x| x.bits).sum();
    assert_eq!(bits, DwfScheduler::default().scheduler_bits());
}

#[test]
fn zero_sizes_are_errors() {
    let s = src("16nm");
    let e = socgpu_cost(
        &SocgpuIssue {
            ib_depth: 0,
            ..Default::default()
        },
        &BaselineIssue::default(),
        &s,
    )
    .unwrap_err();
    assert!(e.to_string().contains("sched.ooo.ib_depth"), "{e}");
}

/// Deferring load consumers adds one pending flag per producer and a second status bit to
/// every producer probe: more area than plain ready-first, and the flags count writes.
#[test]
fn loog_deferred_load_consumers_add_flags_and_wider_probes() {
    let s = src("40nm");
    let l = LoogSlice::gtx1080ti_subcore();
    let d = LoogSlice {
        defer_load_consumers: true,
        ..l
    };
    assert_eq!((l.producer_probe_bits(), d.producer_probe_bits()), (1, 2));
    let (a, b) = (loog_cost(&l, &s).unwrap(), loog_cost(&d, &s).unwrap());
    assert!(b.delta_area_m2() > a.delta_area_m2());
    let flags = b
        .added
        .iter()
        .find(|x| x.name == "long-load pending flags")
        .expect("flags");
    assert!(flags.area_m2 > 0.0 && !flags.events.is_empty());
    assert!(a.added.iter().all(|x| x.name != "long-load pending flags"));
}

/// The ready-first allocation order's head probes (3 per warp and cycle) are read paths on
/// the RAT and on the producers' dispatched bits: present only with `ready_first`, their
/// area grows with the warps probed and with the RAT rows each probe selects from.
#[test]
fn loog_head_probe_ports_cost_area_only_with_ready_first() {
    let s = src("40nm");
    let l = LoogSlice::gtx1080ti_subcore();
    assert_eq!(l.head_probe_ports(), 48);
    let on = loog_cost(&l, &s).unwrap();
    let off = loog_cost(
        &LoogSlice {
            ready_first: false,
            ..l
        },
        &s,
    )
    .unwrap();
    let probe = |c: &DesignCost| -> f64 {
        c.added
            .iter()
            .filter(|x| x.name.contains("probe"))
            .map(|x| x.area_m2)
            .sum()
    };
    assert_eq!(probe(&off), 0.0);
    assert!(probe(&on) > 0.0);
    assert!((on.delta_area_m2() - off.delta_area_m2() - probe(&on)).abs() < 1e-18);
    // probes carry no events of their own: their reads are RAT reads
    for x in on.added.iter().filter(|x| x.name.contains("probe")) {
        assert!(x.events.is_empty() && x.leakage_w > 0.0, "{}", x.name);
    }
    let half = loog_cost(&LoogSlice { warps: 8, ..l }, &s).unwrap();
    assert!(probe(&half) < probe(&on));
    let wide = loog_cost(
        &LoogSlice {
            arch_regs: 128,
            ..l
        },
        &s,
    )
    .unwrap();
    assert!(probe(&wide) > probe(&on));
}

/// The memory queues (`sched.ooo.loog_lsq`) add their entries and range comparators to the
/// LOOG slice, growing with the entries; without them nothing is added.
#[test]
fn loog_memory_queues_cost_with_their_entries() {
    let s = src("40nm");
    let l = LoogSlice::gtx1080ti_subcore();
    // 2·48 + 8 + 4 + 2
    assert_eq!(l.lsq_entry_bits(), 110);
    let q = |c: &DesignCost| -> f64 {
        c.added
            .iter()
            .filter(|x| x.name.contains("queue") || x.name.contains("LSQ"))
            .map(|x| x.area_m2)
            .sum()
    };
    let none = loog_cost(&l, &s).unwrap();
    let small = loog_cost(
        &LoogSlice {
            lsq: Some((8, 8)),
            ..l
        },
        &s,
    )
    .unwrap();
    let big = loog_cost(
        &LoogSlice {
            lsq: Some((16, 16)),
            ..l
        },
        &s,
    )
    .unwrap();
    assert_eq!(q(&none), 0.0);
    assert!(q(&small) > 0.0 && q(&big) > q(&small));
    let qs = small
        .added
        .iter()
        .find(|x| x.name == "load/store queues")
        .unwrap();
    assert_eq!(qs.bits, 16 * 110);
    assert!(qs.events.iter().any(|e| e.counter == "lsq_writes"));
}
