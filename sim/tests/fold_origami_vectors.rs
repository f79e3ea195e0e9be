//! The deterministic vectors of power-gating §8.6 (Origami grouping and lane shifting) and §8.7
//! (warp folding), run on the mechanisms of `sim::timing::fold`, and property tests of the lane
//! shift and the cluster fold.
//!
//! The toy issue model of the vectors (8 lanes, C = 4, one SP port, every instruction ready,
//! at most one issue per cycle, II = 1) is driven here by a few lines of test code over the
//! same `SpPort`, `IssueTiming`, `fold` and grouping functions the SM is to call.

use proptest::prelude::*;
use sim::config::fold::{FoldCompaction, FoldSection, FoldTie, FoldWindow, GroupTie};
use sim::config::LaneMap;
use sim::timing::fold::{
    eager_gating_lanes, fold, format_mask, lane_idle_detect, lane_idle_runs, order_by_group,
    parse_mask, reshift_values, reshifted_lane, shift_mask, shift_values, shifted_lane, unfolded,
    ClusterGeometry, ExtraStages, FoldPhases, GroupCounts, GroupSelector, IssueTiming, MaskGroup,
    PhasePolicy, SpPort, SpType,
};

fn g8() -> ClusterGeometry {
    ClusterGeometry::new(8, 4).unwrap()
}

fn m(s: &str) -> u32 {
    parse_mask(s).unwrap().0
}

fn strs(masks: &[u32]) -> Vec<String> {
    masks.iter().map(|&x| format_mask(x, 8)).collect()
}

fn runs(spec: &[&[u32]]) -> Vec<Vec<u32>> {
    spec.iter().map(|r| r.to_vec()).collect()
}

// ---------------------------------------------------------------------------------------------
// §8.6 Grouping and shifting (source Fig. 4.6)
// ---------------------------------------------------------------------------------------------

const ARRIVAL: [&str; 6] = [
    "11010100", "01110100", "11111111", "00110101", "01110110", "11111111",
];

/// The §8.6 issue order: candidates in arrival order, grouped by the preferred group.
fn grouped_issue_order() -> Vec<u32> {
    let masks: Vec<u32> = ARRIVAL.iter().map(|s| m(s)).collect();
    let counts = GroupCounts::of_masks(masks.iter().copied(), 8);
    assert_eq!((counts.n_partial, counts.n_full), (4, 2));
    let mut sel = GroupSelector::new(2, GroupTie::KeepCurrent);
    let preferred = sel.on_phase_start(counts);
    assert_eq!(preferred, MaskGroup::Partial);
    let base: Vec<u16> = (0..masks.len() as u16).collect();
    let mut order = Vec::new();
    order_by_group(
        &base,
        |c| Some(MaskGroup::of(masks[c as usize], 8)),
        preferred,
        &mut order,
    );
    order.iter().map(|&c| masks[c as usize]).collect()
}

#[test]
fn origami_grouping_issue_order_8_6() {
    assert_eq!(
        strs(&grouped_issue_order()),
        ["11010100", "01110100", "00110101", "01110110", "11111111", "11111111"]
    );
}

#[test]
fn lane_shifting_masks_8_6() {
    let shifted: Vec<u32> = grouped_issue_order()
        .iter()
        .map(|&x| shift_mask(g8(), x))
        .collect();
    assert_eq!(
        strs(&shifted),
        ["11101000", "11101000", "11001100", "11101100", "11111111", "11111111"]
    );
    // The same through the issue path: an unfolded instruction with lane shifting on.
    for &x in &grouped_issue_order() {
        assert_eq!(unfolded(g8(), x, true).issued_union(), shift_mask(g8(), x));
        assert_eq!(unfolded(g8(), x, false).issued_union(), x);
    }
}

#[test]
fn per_lane_idle_runs_grouped_and_shifted_8_6() {
    // One issue per cycle; an instruction occupies its lanes in its issue cycle.
    let order = grouped_issue_order();
    assert_eq!(
        lane_idle_runs(&order, 8),
        runs(&[&[3], &[1], &[1], &[], &[4], &[], &[3], &[2, 1]])
    );
    let shifted: Vec<u32> = order.iter().map(|&x| shift_mask(g8(), x)).collect();
    let r = lane_idle_runs(&shifted, 8);
    assert_eq!(r, runs(&[&[], &[], &[1], &[4], &[], &[2], &[4], &[4]]));
    // Lane 3 gains a 4-cycle run; lane 6 grows from 3 to 4.
    assert_eq!((r[3].clone(), r[6].clone()), (vec![4], vec![4]));
}

#[test]
fn preferred_group_per_phase_with_forced_switch_8_6() {
    let mut sel = GroupSelector::new(2, GroupTie::KeepCurrent);
    let favour_partial = GroupCounts {
        n_full: 2,
        n_partial: 4,
    };
    let seq: Vec<MaskGroup> = (0..6).map(|_| sel.on_phase_start(favour_partial)).collect();
    use MaskGroup::{Full as F, Partial as P};
    assert_eq!(seq, [P, P, F, P, P, F]);
    // The run count restarts at 1 after a forced switch.
    let mut sel = GroupSelector::new(2, GroupTie::KeepCurrent);
    sel.on_phase_start(favour_partial);
    sel.on_phase_start(favour_partial);
    sel.on_phase_start(favour_partial);
    assert_eq!((sel.preferred(), sel.run_phases()), (F, 1));
}

#[test]
fn group_tie_keeps_the_current_group_and_the_other_group_is_the_fallback() {
    let tie = GroupCounts {
        n_full: 3,
        n_partial: 3,
    };
    let mut sel = GroupSelector::new(5, GroupTie::KeepCurrent);
    sel.on_phase_start(GroupCounts {
        n_full: 0,
        n_partial: 1,
    });
    assert_eq!(sel.on_phase_start(tie), MaskGroup::Partial);
    let mut sel = GroupSelector::new(5, GroupTie::Full);
    sel.on_phase_start(GroupCounts {
        n_full: 0,
        n_partial: 1,
    });
    assert_eq!(sel.on_phase_start(tie), MaskGroup::Full);
    // Only Full candidates while Partial is preferred: they are still ordered (fallback), and
    // a non-SP candidate (None) keeps its base position among the preferred ones.
    let mut out = Vec::new();
    let groups = [Some(MaskGroup::Full), None, Some(MaskGroup::Full)];
    order_by_group(
        &[0, 1, 2],
        |c| groups[c as usize],
        MaskGroup::Partial,
        &mut out,
    );
    assert_eq!(out, [1, 0, 2]);
}

// ---------------------------------------------------------------------------------------------
// §8.7 Folding (source Figs. 4.4/4.7; 8 lanes, C = 4)
// ---------------------------------------------------------------------------------------------

#[test]
fn full_mask_sub_warps_8_7() {
    for c in [
        FoldCompaction::LeftCompact,
        FoldCompaction::PositionPreserving,
    ] {
        let p = fold(g8(), m("11111111"), c, true);
        assert!(p.is_two_pass());
        let [s0, s1] = [p.passes()[0], p.passes()[1]];
        assert_eq!(format_mask(s0.temp_mask, 8), "11001100");
        assert_eq!(format_mask(s0.issued_mask, 8), "11001100");
        assert_eq!(format_mask(s1.temp_mask, 8), "00110011");
        assert_eq!(format_mask(s1.issued_mask, 8), "11001100");
        // Lanes 2, 3, 6, 7 are idle.
        assert_eq!(format_mask(p.issued_union(), 8), "11001100");
        // Re-shift restores the upper-half threads.
        assert_eq!(s1.logical_lane(g8(), 0), Some(2));
        assert_eq!(s1.logical_lane(g8(), 5), Some(7));
        assert_eq!(s1.logical_lane(g8(), 2), None);
    }
}

/// Issues full warps wanted at `wanted` cycles in order on one SP port (II = 1, L = 4),
/// folded or not; returns the issue cycle of every pass with its lane mask, and the cycle the
/// last result is ready.
fn run_port(wanted: &[u64], folded: bool) -> (Vec<(u64, u32)>, u64) {
    let g = g8();
    let mut port = SpPort::default();
    let mut passes = Vec::new();
    let mut last_ready = 0;
    let mut next = 0;
    let mut cycle = wanted[0];
    while next < wanted.len() {
        let plan = if folded {
            fold(g, g.all_mask(), FoldCompaction::LeftCompact, true)
        } else {
            unfolded(g, g.all_mask(), false)
        };
        let t = IssueTiming::new(plan.n_passes(), 4, 1, ExtraStages::default());
        if wanted[next] <= cycle && port.issue(cycle, &t) {
            for (i, p) in plan.passes().iter().enumerate() {
                passes.push((cycle + t.pass_offset_cycles[i] as u64, p.issued_mask));
            }
            last_ready = cycle + t.result_latency_cycles as u64;
            next += 1;
        }
        cycle += 1;
    }
    (passes, last_ready)
}

/// Lanes busy per cycle over `[from, from + n)` with L = 4 from each pass's issue.
fn busy_masks(passes: &[(u64, u32)], from: u64, n: u64) -> Vec<u32> {
    (from..from + n)
        .map(|c| {
            passes
                .iter()
                .filter(|(s, _)| (*s..*s + 4).contains(&c))
                .fold(0, |a, (_, mk)| a | mk)
        })
        .collect()
}

#[test]
fn folding_under_light_load_costs_nothing_8_7() {
    let x = 100;
    let (passes, _) = run_port(&[x, x + 2], true);
    let cycles: Vec<u64> = passes.iter().map(|p| p.0).collect();
    assert_eq!(cycles, [x, x + 1, x + 2, x + 3]);
    // Nothing delayed: each warp's first sub-warp issues in the cycle it is wanted.
    assert_eq!((cycles[0], cycles[2]), (x, x + 2));
    let busy = busy_masks(&passes, x, 4);
    assert!(busy.iter().all(|&b| format_mask(b, 8) == "11001100"));
    assert_eq!(
        lane_idle_runs(&busy, 8),
        runs(&[&[], &[], &[4], &[4], &[], &[], &[4], &[4]])
    );
}

#[test]
fn folding_under_heavy_load_doubles_port_cycles_8_7() {
    let x = 100;
    let wanted = [x, x + 1, x + 2, x + 3];
    let (plain, plain_ready) = run_port(&wanted, false);
    let (folded, folded_ready) = run_port(&wanted, true);
    let pc: Vec<u64> = plain.iter().map(|p| p.0).collect();
    let fc: Vec<u64> = folded.iter().map(|p| p.0).collect();
    assert_eq!(pc, (x..x + 4).collect::<Vec<_>>());
    assert_eq!(fc, (x..x + 8).collect::<Vec<_>>());
    // The 4 extra cycles are the performance cost: the last pass and the last result are 4
    // cycles later.
    assert_eq!(fc.last().unwrap() - pc.last().unwrap(), 4);
    assert_eq!(folded_ready - plain_ready, 4);
    // Lanes 2, 3, 6, 7 are idle throughout (x … x+7 and the drain after it).
    let busy = busy_masks(&folded, x, 11);
    assert!(busy.iter().all(|&b| b & m("00110011") == 0));
}

#[test]
fn skip_empty_half_8_7() {
    for c in [
        FoldCompaction::LeftCompact,
        FoldCompaction::PositionPreserving,
    ] {
        // Empty sub-warp 0: a single pass of sub-warp 1, shifted onto the low lanes.
        let p = fold(g8(), m("00100011"), c, true);
        assert_eq!(p.n_passes(), 1);
        assert_eq!(p.passes()[0].half, 1);
        assert_eq!(format_mask(p.passes()[0].issued_mask, 8), "10001100");
        // Empty sub-warp 1: a single pass of sub-warp 0.
        let p = fold(g8(), m("11001000"), c, true);
        assert_eq!(p.n_passes(), 1);
        assert_eq!(p.passes()[0].half, 0);
        assert_eq!(format_mask(p.passes()[0].issued_mask, 8), "11001000");
        // Without skip-empty both passes issue, one of them empty.
        let p = fold(g8(), m("11001000"), c, false);
        assert_eq!(p.n_passes(), 2);
        assert_eq!(p.passes()[1].issued_mask, 0);
    }
    assert_eq!(
        fold(g8(), 0, FoldCompaction::LeftCompact, true).n_passes(),
        0
    );
}

#[test]
fn left_compact_vs_position_preserving_8_7() {
    let p = fold(g8(), m("01000100"), FoldCompaction::LeftCompact, true);
    assert_eq!(p.n_passes(), 1);
    assert_eq!(format_mask(p.passes()[0].issued_mask, 8), "10001000");
    let q = fold(
        g8(),
        m("01000100"),
        FoldCompaction::PositionPreserving,
        true,
    );
    assert_eq!(format_mask(q.passes()[0].issued_mask, 8), "01000100");
}

fn policy(cfg: &FoldSection) -> PhasePolicy {
    // issue width 2, idle_detect 5, BET 14
    PhasePolicy::new(cfg, 2, 5, 14)
}

#[test]
fn fold_windows_per_type_8_7() {
    let p = policy(&FoldSection::default());
    // N_phase 300, INT-Count 10, FP-Count 4: FP (minority) folds 0–209, INT 0–119.
    let d = p.decide(10, 4, None);
    assert_eq!(d.fp_window, Some((0, 210)));
    assert_eq!(d.int_window, Some((0, 120)));
    assert!(d.folds(SpType::Fp, 209) && !d.folds(SpType::Fp, 210));
    assert!(d.folds(SpType::Int, 119) && !d.folds(SpType::Int, 120));
    // Tie: INT is the majority by default, FP with fold_tie = FpMajority.
    let d = p.decide(5, 5, None);
    assert_eq!(
        (d.int_window, d.fp_window),
        (Some((0, 120)), Some((0, 210)))
    );
    let fp_major = policy(&FoldSection {
        fold_tie: FoldTie::FpMajority,
        ..FoldSection::default()
    });
    let d = fp_major.decide(5, 5, None);
    assert_eq!(
        (d.int_window, d.fp_window),
        (Some((0, 210)), Some((0, 120)))
    );
    // Both counts 0: nothing folds.
    let d = p.decide(0, 0, None);
    assert_eq!((d.int_window, d.fp_window), (None, None));
    // PhaseEnd puts the windows at the end of the phase.
    let end = policy(&FoldSection {
        fold_window: FoldWindow::PhaseEnd,
        ..FoldSection::default()
    });
    let d = end.decide(10, 4, None);
    assert_eq!(
        (d.int_window, d.fp_window),
        (Some((180, 300)), Some((90, 300)))
    );
}

#[test]
fn adaptive_disable_8_7() {
    let p = policy(&FoldSection::default());
    assert_eq!(p.disable_threshold_insts, 540);
    // 540 of 600 slots issued in the previous phase disables folding; 539 keeps it enabled.
    let d = p.decide(10, 4, Some(540));
    assert!(d.disabled_by_util);
    assert_eq!((d.int_window, d.fp_window), (None, None));
    let d = p.decide(10, 4, Some(539));
    assert!(!d.disabled_by_util);
    assert_eq!(d.int_window, Some((0, 120)));
    // The first phase is enabled.
    assert!(!p.decide(10, 4, None).disabled_by_util);
}

#[test]
fn minimum_fold_length_8_7() {
    // BET 14: N_Fold = 19 + 5 + 14 = 38 <= 120, so both windows open.
    let p = policy(&FoldSection::default());
    assert_eq!(p.n_fold_cycles, 38);
    assert!(p.n_fold_cycles <= p.conservative_cycles);
    assert!(FoldSection::default().short_window_warning(5, 14).is_none());
    // N_phase 90: the conservative window (36) is shorter than 38 and stays closed; the
    // aggressive one (63) opens. Without enforce_n_fold it opens.
    let short = FoldSection {
        n_phase: 90,
        ..FoldSection::default()
    };
    let d = policy(&short).decide(10, 4, None);
    assert_eq!((d.int_window, d.fp_window), (None, Some((0, 63))));
    assert!(short.short_window_warning(5, 14).is_some());
    let lax = FoldSection {
        enforce_n_fold: false,
        ..short
    };
    assert_eq!(policy(&lax).decide(10, 4, None).int_window, Some((0, 36)));
}

#[test]
fn extra_stages_add_latency_not_busy_cycles_8_7() {
    let x = ExtraStages::for_instruction(&FoldSection::default(), true, true);
    let t = IssueTiming::new(2, 4, 1, x);
    assert_eq!(t.port_busy_cycles, 2);
    assert_eq!(t.result_latency_cycles, 4 + 1 + 2);
    assert_eq!(t.pass_busy(10, 0), (10, 14));
    assert_eq!(t.pass_busy(10, 1), (11, 15));
}

#[test]
fn phase_state_rolls_over_on_the_global_grid() {
    let p = policy(&FoldSection::default());
    let mut s = FoldPhases::new(p);
    assert_eq!(s.begin_cycle(0, || (10, 4)), 1);
    assert!(s.folds(SpType::Fp, 209) && !s.folds(SpType::Int, 120));
    for c in 1..300 {
        assert_eq!(
            s.begin_cycle(c, || unreachable!("counts are read at a phase start only")),
            0
        );
        s.record_issued(2);
    }
    // 598 issued ≥ 540: the next phase is disabled.
    assert_eq!(s.begin_cycle(300, || (10, 4)), 1);
    assert!(s.decision().disabled_by_util);
    assert!(!s.folds(SpType::Fp, 300));
    // A skip from phase 1 to phase 4: phases 2 and 3 issued nothing and are enabled.
    assert_eq!(s.begin_cycle(1250, || (4, 10)), 3);
    assert!(!s.decision().disabled_by_util);
    assert!(s.folds(SpType::Int, 1250));
    let st = s.stats_through(1250);
    assert_eq!(st.phases, 5);
    assert_eq!(st.phases_disabled, 1);
    // Skipped phases saw the same (frozen) counts as phase 4: INT is the minority there.
    // INT: 120 (phase 0) + 0 (disabled) + 210 + 210 (phases 2, 3) + 51 (cycles 1200–1250).
    assert_eq!(st.fold_cycles[0], 120 + 210 + 210 + 51);
    // FP: 210 + 0 + 120 + 120 + 51.
    assert_eq!(st.fold_cycles[1], 210 + 120 + 120 + 51);
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

fn geometry() -> impl Strategy<Value = ClusterGeometry> {
    prop_oneof![
        Just((8u32, 4u32)),
        Just((16, 4)),
        Just((32, 4)),
        Just((32, 2)),
        Just((32, 8)),
        Just((32, 16)),
        Just((32, 32)),
    ]
    .prop_map(|(n, c)| ClusterGeometry::new(n, c).unwrap())
}

fn compaction() -> impl Strategy<Value = FoldCompaction> {
    prop_oneof![
        Just(FoldCompaction::LeftCompact),
        Just(FoldCompaction::PositionPreserving)
    ]
}

proptest! {
    #[test]
    fn shifting_keeps_each_cluster_and_reshift_undoes_it(g in geometry(), raw in any::<u32>()) {
        let mask = raw & g.all_mask();
        let s = shift_mask(g, mask);
        let c = g.cluster_lanes();
        for cl in 0..g.n_clusters() {
            let k = (mask & g.cluster_mask(cl)).count_ones();
            prop_assert_eq!((s & g.cluster_mask(cl)).count_ones(), k);
            // 1^k 0^(C−k)
            prop_assert_eq!(s & g.cluster_mask(cl), ((1u64 << k) as u32).wrapping_sub(1) << (cl * c));
        }
        for j in 0..g.n_lanes() {
            match shifted_lane(g, mask, j) {
                Some(p) => {
                    prop_assert_eq!(p / c, j / c, "lane {} crossed its cluster", j);
                    prop_assert!(p <= j);
                    prop_assert_eq!(reshifted_lane(g, mask, p), Some(j));
                }
                None => prop_assert_eq!(mask >> j & 1, 0),
            }
        }
        let values: Vec<u32> = (0..g.n_lanes()).map(|i| i * 7 + 1).collect();
        let back = reshift_values(g, mask, &shift_values(g, mask, &values));
        for j in 0..g.n_lanes() as usize {
            let want = if mask >> j & 1 == 1 { values[j] } else { 0 };
            prop_assert_eq!(back[j], want);
        }
    }

    #[test]
    fn fold_sub_warps_partition_the_active_mask(
        g in geometry(),
        raw in any::<u32>(),
        c in compaction(),
        skip in any::<bool>(),
    ) {
        let mask = raw & g.all_mask();
        let plan = fold(g, mask, c, skip);
        let mut union = 0u32;
        for p in plan.passes() {
            prop_assert_eq!(union & p.temp_mask, 0, "sub-warps overlap");
            union |= p.temp_mask;
            // Every pass runs on the lower cluster halves, with as many lanes as threads.
            prop_assert_eq!(p.issued_mask & !g.lower_half_pattern(), 0);
            prop_assert_eq!(p.issued_mask.count_ones(), p.temp_mask.count_ones());
            let cl = g.cluster_lanes();
            for j in 0..g.n_lanes() {
                if let Some(q) = p.issued_lane(g, j) {
                    prop_assert_eq!(q / cl, j / cl, "lane {} crossed its cluster", j);
                    prop_assert_eq!(p.issued_mask >> q & 1, 1);
                    prop_assert_eq!(p.logical_lane(g, q), Some(j));
                }
            }
        }
        prop_assert_eq!(union, mask);
        if mask != 0 && skip {
            prop_assert!(plan.passes().iter().all(|p| p.temp_mask != 0));
        }
    }
}

#[test]
fn eager_gating_uses_d_eager_on_the_upper_lanes_while_folding() {
    let cfg = FoldSection::default();
    assert_eq!(lane_idle_detect(&cfg, true, true, 5), 1);
    assert_eq!(lane_idle_detect(&cfg, true, false, 5), 5);
    assert_eq!(lane_idle_detect(&cfg, false, true, 5), 5);
    let off = FoldSection {
        eager_gating: false,
        ..FoldSection::default()
    };
    assert_eq!(lane_idle_detect(&off, true, true, 5), 5);
    // The upper lanes are exactly those the full-mask fold leaves idle.
    let upper = eager_gating_lanes(g8(), LaneMap::Identity);
    assert_eq!(format_mask(upper, 8), "00110011");
    let full = fold(g8(), g8().all_mask(), FoldCompaction::LeftCompact, true);
    assert_eq!(full.issued_union() & upper, 0);
}
