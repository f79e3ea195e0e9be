//! The partitioned-RF, adaptive-FRF and RF-cache mechanisms of `sim::timing::rf` against the
//! register-file spec: the §5.5 worked example, the §11 invariants that concern the mechanisms
//! on their own (swap table an involution, miss rules, FRF + SRF = MRF, AFRF threshold limits,
//! pilot counters against a trace) and directed sequences for the RF cache and migration.

use proptest::prelude::*;
use sim::config::prf::{
    AfrfSection, CounterOverflow, MissRule, PilotSelect, PrfSection, RemapPolicy, RfcLiveness,
    RfcReplacement, RfcSection, SwapTableKind, ThresholdMode,
};
use sim::config::BankMap;
use sim::timing::rf::{
    hot_set, migration_requests, select_pilot, swap_pairs, AfrfPhaseDetector, FrfMode,
    KernelProfile, KernelProfiles, MigrationRequest, PartitionMap, PilotProfiler, Placement,
    ProfileState, RfCache, RfEvents, RfcRead, RfcWrite, SwapTable, WarpMaps, N_COUNTERS,
};

fn prf(n_fast: u32) -> PrfSection {
    PrfSection {
        n_fast,
        ..PrfSection::default()
    }
}

/// Counters with `counts[r]` for the listed registers and 0 elsewhere.
fn counts_of(pairs: &[(usize, u16)]) -> [u16; N_COUNTERS] {
    let mut c = [0u16; N_COUNTERS];
    for &(r, v) in pairs {
        c[r] = v;
    }
    c
}

// ---- §5.5 worked example ------------------------------------------------------------------

/// n = 4, a 14-register kernel whose pilot's hot registers in descending order are R7, R12, R4,
/// R10: the table holds exactly {R7→R0, R0→R7, R12→R1, R1→R12, R4→R2, R2→R4, R10→R3, R3→R10}
/// (the source's "R10→R2" is the typo the spec names).
#[test]
fn worked_example_of_the_profiling_algorithm() {
    let cfg = prf(4);
    let mut ev = RfEvents::default();
    let mut k = KernelProfile::new(0, Some(5), &cfg);
    assert!(k.profile_mask());
    // A pilot trace over R0…R13: R7 most accessed, then R12, R4, R10; every other register
    // fewer times, R0…R3 included.
    let per_reg: [u32; 14] = [3, 2, 2, 1, 40, 5, 6, 90, 4, 7, 30, 2, 60, 1];
    for (r, &n) in per_reg.iter().enumerate() {
        for _ in 0..n {
            k.on_instruction(5, &[r as u16], &[], &mut ev);
        }
    }
    // Another warp's accesses are not counted.
    k.on_instruction(6, &[0, 0, 0], &[1], &mut ev);
    assert_eq!(k.profiler().hot_set(4), vec![7, 12, 4, 10]);
    k.on_warp_exit(5, 1000, &mut ev);
    assert!(!k.profile_mask());
    assert!(
        k.advance(1000, &mut ev),
        "sort latency 0: filled at the exit cycle"
    );
    let expect = vec![
        (7, 0),
        (0, 7),
        (12, 1),
        (1, 12),
        (4, 2),
        (2, 4),
        (10, 3),
        (3, 10),
    ];
    assert_eq!(k.table().entries(), expect);
    assert!(k.table().is_involution());
    // Overheads: one sort, 2n entries × 4 copies.
    assert_eq!(ev.sorts, 1);
    assert_eq!(ev.table_writes, 8 * 4);
    // Steady state: R7 goes to fast slot 0, R0 to slow slot 7, R5 stays in slow slot 5.
    let place = |r| k.place(r, true, &mut RfEvents::default());
    assert_eq!(
        place(7),
        Placement {
            slot: 0,
            fast: true
        }
    );
    assert_eq!(
        place(0),
        Placement {
            slot: 7,
            fast: false
        }
    );
    assert_eq!(
        place(5),
        Placement {
            slot: 5,
            fast: false
        }
    );
    // The indexed alternative gives the same mapping.
    let mut idx = SwapTable::new(SwapTableKind::Indexed, 4, 4);
    idx.fill(k.pairs(), &mut ev);
    assert_eq!(idx.mapping(), k.table().mapping());
}

// ---- swap table invariants ----------------------------------------------------------------

proptest! {
    /// For any counters and any n the swap table is a permutation of R0…R62 that is its own
    /// inverse, holds 2 × (hot registers outside the FRF) entries, and sends every hot
    /// register to the FRF.
    #[test]
    fn swap_table_is_always_an_involution(
        counts in proptest::collection::vec(0u16..6, N_COUNTERS),
        n in 0u32..=16,
        indexed in any::<bool>(),
    ) {
        let hot = hot_set(&counts, n);
        let pairs = swap_pairs(&hot, n);
        let kind = if indexed { SwapTableKind::Indexed } else { SwapTableKind::Cam };
        let mut t = SwapTable::new(kind, n, 4);
        let mut ev = RfEvents::default();
        t.fill(&pairs, &mut ev);
        prop_assert!(t.is_involution());
        let outside = hot.iter().filter(|&&h| (h as u32) >= n).count();
        prop_assert_eq!(t.entries().len(), 2 * outside);
        prop_assert_eq!(ev.table_writes, 2 * outside as u64 * 4);
        for &h in &hot {
            let p = t.place(h as u16, MissRule::Identity, &mut ev);
            prop_assert!(p.fast, "hot R{} not in the FRF", h);
        }
        // Ties by the lower id and zero counts never promoted.
        prop_assert!(hot.iter().all(|&h| counts[h as usize] > 0));
        for w in hot.windows(2) {
            let (a, b) = (w[0] as usize, w[1] as usize);
            prop_assert!(counts[a] > counts[b] || (counts[a] == counts[b] && a < b));
        }
    }
}

/// `miss_rule = "identity"`: a hot register already in a default FRF slot stays there and gets
/// no table entry.
#[test]
fn identity_miss_rule_keeps_a_hot_fast_register_without_an_entry() {
    let counts = counts_of(&[(2, 50), (9, 40), (20, 5)]);
    let hot = hot_set(&counts, 4);
    assert_eq!(hot, vec![2, 9, 20]);
    let pairs = swap_pairs(&hot, 4);
    // R2 is skipped; R9 pairs with R0 and R20 with R1.
    assert_eq!(pairs, vec![(9, 0), (20, 1)]);
    let mut t = SwapTable::new(SwapTableKind::Cam, 4, 4);
    let mut ev = RfEvents::default();
    t.fill(&pairs, &mut ev);
    assert_eq!(t.lookup(2), None);
    assert_eq!(
        t.place(2, MissRule::Identity, &mut ev),
        Placement {
            slot: 2,
            fast: true
        }
    );
    assert_eq!(ev.swap_lookups, 1);
}

/// `miss_rule = "literal_srf"` reproduces the source text: every register without an entry
/// goes to the SRF, including a hot one in r < n (which leaves its FRF slot unused).
#[test]
fn literal_srf_miss_rule_sends_every_miss_to_the_srf() {
    let pairs = swap_pairs(&[2, 9, 20], 4);
    for kind in [SwapTableKind::Cam, SwapTableKind::Indexed] {
        let mut t = SwapTable::new(kind, 4, 4);
        let mut ev = RfEvents::default();
        t.fill(&pairs, &mut ev);
        let p = |r| t.place(r, MissRule::LiteralSrf, &mut RfEvents::default());
        assert_eq!(
            p(2),
            Placement {
                slot: 2,
                fast: false
            },
            "{kind:?}"
        );
        assert_eq!(
            p(3),
            Placement {
                slot: 3,
                fast: false
            },
            "{kind:?}"
        );
        assert_eq!(
            p(30),
            Placement {
                slot: 30,
                fast: false
            },
            "{kind:?}"
        );
        // Hits are unchanged: R9 → slot 0 (FRF), R0 → slot 9 (SRF).
        assert_eq!(
            p(9),
            Placement {
                slot: 0,
                fast: true
            },
            "{kind:?}"
        );
        assert_eq!(
            p(0),
            Placement {
                slot: 9,
                fast: false
            },
            "{kind:?}"
        );
    }
}

// ---- partition map ------------------------------------------------------------------------

/// FRF + SRF = MRF per bank and in total for every n the RF can hold (Fermi: 1024 entries, 16
/// banks, 48 warps; Kepler: 2048 entries, 24 banks, 64 warps): each of the three has ⌈E_p/B⌉
/// rows in its first E_p mod B banks and ⌊E_p/B⌋ in the others, the FRF holds exactly
/// n × warps entries; n beyond ⌊E / warps⌋ is refused.
#[test]
fn frf_plus_srf_equals_mrf_for_every_n() {
    for (entries, banks, warps) in [(1024u64, 16u32, 48u32), (2048, 24, 64)] {
        let max_n = (entries / warps as u64) as u32;
        for n in 0..=63u32 {
            let m = PartitionMap::new(n, warps, banks, entries, BankMap::RegPlusWarp);
            if n > max_n {
                assert!(m.is_err(), "n = {n} must not fit {entries} entries");
                continue;
            }
            let m = m.unwrap_or_else(|e| panic!("E {entries} B {banks} n {n}: {e}"));
            assert_eq!(m.mrf_entries(), entries);
            assert_eq!(m.frf_entries(), n as u64 * warps as u64);
            assert_eq!(m.frf_entries() + m.srf_entries(), entries);
            for b in 0..banks {
                assert_eq!(m.frf_rows(b) + m.srf_rows(b), m.mrf_rows(b));
                // ⌈E/B⌉ for the first E mod B banks, ⌊E/B⌋ for the others.
                let expect =
                    entries / banks as u64 + u64::from((b as u64) < entries % banks as u64);
                assert_eq!(m.mrf_rows(b), expect);
            }
        }
    }
    // Kepler: 2048 / 24 = 85.33: 8 banks of 86 rows, 16 of 85.
    let k = PartitionMap::new(4, 64, 24, 2048, BankMap::RegPlusWarp).unwrap();
    assert_eq!((0..24).filter(|&b| k.mrf_rows(b) == 86).count(), 8);
    assert_eq!((0..24).filter(|&b| k.mrf_rows(b) == 85).count(), 16);
    assert_eq!(k.frf_entries(), 256);
    assert_eq!(k.srf_entries(), 1792);
    // 256 = 10 × 24 + 16: 16 banks with 11 FRF rows, 8 with 10.
    assert_eq!((0..24).filter(|&b| k.frf_rows(b) == 11).count(), 16);
    // At n = 32 the bank function sends 87 fast slots to bank 6, one more than its 86 rows.
    let full = PartitionMap::new(32, 64, 24, 2048, BankMap::RegPlusWarp).unwrap();
    assert_eq!(full.frf_demand_rows(6), 87);
    assert_eq!(full.srf_entries(), 0);
    // bank(w, s) = (s + w) mod B and the partition is s < n.
    assert_eq!(k.bank(23, 2), 1);
    assert!(k.is_fast(3) && !k.is_fast(4));
}

// ---- adaptive FRF -------------------------------------------------------------------------

fn afrf(epoch: u32, threshold: u32) -> AfrfSection {
    AfrfSection {
        enabled: true,
        epoch,
        threshold,
        ..AfrfSection::default()
    }
}

/// Runs a detector for `cycles` cycles with `per_cycle(t)` dispatches; returns the mode of
/// every cycle.
fn run_afrf(
    d: &mut AfrfPhaseDetector,
    cycles: u64,
    per_cycle: impl Fn(u64) -> u64,
    ev: &mut RfEvents,
) -> Vec<FrfMode> {
    d.start_kernel(0);
    (0..cycles)
        .map(|t| {
            let m = d.mode_at(t, ev);
            d.count(t, per_cycle(t), ev);
            m
        })
        .collect()
}

#[test]
fn afrf_threshold_zero_is_always_high() {
    let mut ev = RfEvents::default();
    let mut d = AfrfPhaseDetector::new(&afrf(50, 0), 8);
    let modes = run_afrf(&mut d, 1000, |t| (t % 7 == 0) as u64, &mut ev);
    assert!(modes.iter().all(|&m| m == FrfMode::High));
    assert_eq!(ev.mode_switches, 0);
    assert_eq!(ev.epochs, 19);
}

#[test]
fn afrf_threshold_above_the_maximum_count_is_low_after_the_first_epoch() {
    let mut ev = RfEvents::default();
    // 50 × 8 = 400 dispatches at most; threshold 401. Even a saturated SM goes low.
    let mut d = AfrfPhaseDetector::new(&afrf(50, 401), 8);
    assert_eq!(d.counter_bits(), 9);
    let modes = run_afrf(&mut d, 1000, |_| 8, &mut ev);
    assert!(modes[..50].iter().all(|&m| m == FrfMode::High));
    assert!(modes[50..].iter().all(|&m| m == FrfMode::Low));
    assert_eq!(ev.mode_switches, 1);
    d.finish(1000, &mut ev);
    assert_eq!(ev.epochs, 20);
    assert_eq!(ev.epochs_low, 19);
}

/// The default point (85 of 400): epochs below 85 dispatches run the next epoch low; idle gaps
/// without calls close as empty epochs; a kernel start realigns epochs and starts high.
#[test]
fn afrf_follows_the_dispatch_count_per_epoch() {
    let mut ev = RfEvents::default();
    let mut d = AfrfPhaseDetector::new(&afrf(50, 85), 8);
    d.start_kernel(100);
    assert_eq!(d.mode_at(100, &mut ev), FrfMode::High);
    d.count(120, 84, &mut ev); // epoch [100, 150): 84 < 85
    assert_eq!(d.mode_at(150, &mut ev), FrfMode::Low);
    d.count(160, 85, &mut ev); // epoch [150, 200): 85, not below
    assert_eq!(d.mode_at(200, &mut ev), FrfMode::High);
    // No call until 400: [200, 250) had 0 → low, and so on.
    assert_eq!(d.mode_at(400, &mut ev), FrfMode::Low);
    assert_eq!(ev.epochs, 6);
    assert_eq!(ev.mode_switches, 3);
    // Low epochs: [150, 200), [250, 300), [300, 350), [350, 400).
    assert_eq!(ev.epochs_low, 4);
    d.start_kernel(1000);
    assert_eq!(d.mode_at(1000, &mut ev), FrfMode::High);
}

/// `afrf.switch_latency` L: accesses in the first L cycles of an epoch still see the old mode;
/// a kernel's last, unfinished epoch is counted by `finish`.
#[test]
fn afrf_switch_latency_and_the_last_epoch() {
    let cfg = AfrfSection {
        switch_latency: 3,
        ..afrf(50, 85)
    };
    let mut d = AfrfPhaseDetector::new(&cfg, 8);
    let mut ev = RfEvents::default();
    d.start_kernel(0);
    assert_eq!(d.mode_at(49, &mut ev), FrfMode::High);
    assert_eq!(d.mode_at(50, &mut ev), FrfMode::High);
    assert_eq!(d.mode_at(52, &mut ev), FrfMode::High);
    assert_eq!(d.mode_at(53, &mut ev), FrfMode::Low);
    d.finish(60, &mut ev);
    assert_eq!((ev.epochs, ev.epochs_low), (2, 1));
}

/// Ratio mode: threshold = round(ratio × epoch × issue width), decimal products rounded as
/// written (0.2 × 400 = 80, 0.2125 × 400 = 85, 0.25 × 10 = 2.5 → 3).
#[test]
fn afrf_ratio_threshold_rounding() {
    let ratio = |r: f64, epoch: u32, iw: u32| {
        let cfg = AfrfSection {
            threshold_mode: ThresholdMode::Ratio,
            threshold_ratio: r,
            epoch,
            ..AfrfSection::default()
        };
        AfrfPhaseDetector::new(&cfg, iw).threshold()
    };
    assert_eq!(ratio(0.20, 50, 8), 80);
    assert_eq!(ratio(0.2125, 50, 8), 85);
    assert_eq!(ratio(0.20, 100, 8), 160);
    assert_eq!(ratio(0.25, 10, 1), 3);
    assert_eq!(ratio(0.0, 50, 8), 0);
    assert_eq!(ratio(1.0, 50, 8), 400);
}

// ---- pilot counters against a trace -------------------------------------------------------

/// A deterministic synthetic trace: (warp, sources, destinations) per instruction.
fn synthetic_trace() -> Vec<(u32, Vec<u16>, Vec<u16>)> {
    let mut x: u64 = 0x1234_5678;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..5000)
        .map(|_| {
            let w = (next() % 4) as u32;
            let n_src = (next() % 4) as usize;
            // Skewed register choice, duplicates possible, ids up to 20.
            let srcs = (0..n_src)
                .map(|_| ((next() % 21) * (next() % 21) / 20) as u16)
                .collect();
            let dsts = if next() % 5 == 0 {
                vec![]
            } else {
                vec![(next() % 21) as u16]
            };
            (w, srcs, dsts)
        })
        .collect()
}

#[test]
fn pilot_counter_equals_the_pilots_operand_accesses() {
    let trace = synthetic_trace();
    for dup in [true, false] {
        let cfg = PrfSection {
            count_dup_sources: dup,
            ..prf(4)
        };
        let mut ev = RfEvents::default();
        let pilot = select_pilot(cfg.pilot_select, &[2, 3], cfg.pilot_seed, 0, 0).unwrap();
        assert_eq!(pilot, 2);
        let mut k = KernelProfile::new(0, Some(pilot), &cfg);
        for (w, s, d) in &trace {
            k.on_instruction(*w, s, d, &mut ev);
        }
        // Cross-check: count the pilot's accesses straight from the trace.
        let mut expect = [0u64; N_COUNTERS];
        for (_, s, d) in trace.iter().filter(|(w, _, _)| *w == pilot) {
            let mut seen: Vec<u16> = Vec::new();
            for &r in s {
                if dup || !seen.contains(&r) {
                    expect[r as usize] += 1;
                }
                seen.push(r);
            }
            for &r in d {
                expect[r as usize] += 1;
            }
        }
        for (r, &e) in expect.iter().enumerate() {
            assert_eq!(k.profiler().count(r as u16) as u64, e, "R{r} dup={dup}");
        }
        assert_eq!(ev.pilot_counter_increments, expect.iter().sum::<u64>());
        assert!(expect.iter().sum::<u64>() > 1000);
    }
}

#[test]
fn pilot_counters_saturate_or_halve() {
    let mut ev = RfEvents::default();
    let mut sat = PilotProfiler::new(CounterOverflow::Saturate, true);
    let mut halve = PilotProfiler::new(CounterOverflow::HalveAll, true);
    for _ in 0..70_000 {
        sat.record_access(1, &mut ev);
        halve.record_access(1, &mut ev);
    }
    sat.record_access(2, &mut ev);
    halve.record_access(2, &mut ev);
    assert_eq!(sat.count(1), 0xFFFF);
    // 65535 → halved to 32767, +1, then 70000 − 65536 more increments.
    assert_eq!(halve.count(1) as u32, 32768 + (70_000 - 65_536));
    assert_eq!(halve.count(2), 1);
    assert_eq!(ev.counter_halvings, 1);
    // Register ids without a counter (the zero register 255) are not counted.
    let before = ev.pilot_counter_increments;
    sat.record_access(255, &mut ev);
    assert_eq!(ev.pilot_counter_increments, before);
}

// ---- profiling life cycle, concurrent kernels, remap policies -----------------------------

#[test]
fn sort_latency_delays_the_fill_and_lookups_miss_meanwhile() {
    let cfg = PrfSection {
        sort_latency: 5,
        miss_rule: MissRule::LiteralSrf,
        ..prf(4)
    };
    let mut ev = RfEvents::default();
    let mut k = KernelProfile::new(1, Some(0), &cfg);
    // Profiling: the table is bypassed (identity, no lookups).
    assert_eq!(
        k.place(1, true, &mut ev),
        Placement {
            slot: 1,
            fast: true
        }
    );
    assert_eq!(ev.swap_lookups, 0);
    k.on_instruction(0, &[9, 9], &[9], &mut ev);
    k.on_warp_exit(0, 100, &mut ev);
    assert_eq!(k.state(), ProfileState::Sorting { fill_at: 105 });
    assert!(!k.advance(104, &mut ev));
    // profile_mask = 0 and the table is still empty: the lookup misses, literal rule → SRF.
    assert_eq!(
        k.place(1, true, &mut ev),
        Placement {
            slot: 1,
            fast: false
        }
    );
    assert_eq!(ev.swap_lookups, 1);
    assert!(k.advance(105, &mut ev));
    assert_eq!(k.table().entries(), vec![(9, 0), (0, 9)]);
    // Table writes: 2 entries × 4 copies.
    assert_eq!(ev.table_writes, 8);
}

#[test]
fn concurrent_kernels_beyond_the_limit_keep_the_identity_mapping() {
    let cfg = PrfSection {
        max_profiled_kernels: 2,
        ..prf(4)
    };
    let mut ev = RfEvents::default();
    let mut ks = KernelProfiles::new(cfg.max_profiled_kernels);
    assert!(ks
        .on_kernel_launch(10, Some(0), &cfg, &mut ev)
        .profile_mask());
    // A kernel that fits in the FRF is not profiled and takes no profiling slot.
    assert_eq!(
        ks.on_kernel_launch(11, None, &cfg, &mut ev).state(),
        ProfileState::Bypassed
    );
    assert!(ks
        .on_kernel_launch(12, Some(8), &cfg, &mut ev)
        .profile_mask());
    assert_eq!(
        ks.on_kernel_launch(13, Some(16), &cfg, &mut ev).state(),
        ProfileState::Bypassed
    );
    assert_eq!(ev.profiles_skipped, 1);
    assert_eq!(ev.kernels_unprofiled, 1);
    // Each kernel counts its own pilot only.
    ks.get_mut(10)
        .unwrap()
        .on_instruction(0, &[20], &[], &mut ev);
    ks.get_mut(12)
        .unwrap()
        .on_instruction(0, &[21], &[], &mut ev);
    assert_eq!(ks.get(10).unwrap().profiler().count(20), 1);
    assert_eq!(ks.get(12).unwrap().profiler().count(21), 0);
    // A finished kernel frees its slot for the next launch.
    ks.on_kernel_exit(10);
    assert!(ks
        .on_kernel_launch(14, Some(0), &cfg, &mut ev)
        .profile_mask());
    // launch_check decides skipping from the kernel's register count.
    assert_eq!(cfg.launch_check(4, 8), Ok(false));
    assert_eq!(cfg.launch_check(5, 8), Ok(true));
}

#[test]
fn remap_policies_switch_resident_warps() {
    let pairs = [(7u8, 0u8), (12, 1)];
    for policy in [
        RemapPolicy::Instant,
        RemapPolicy::NewWarpsOnly,
        RemapPolicy::Migrate,
    ] {
        let mut m = WarpMaps::new(8);
        m.on_warp_launch(0, 1, false);
        m.on_warp_launch(1, 1, false);
        m.on_warp_launch(2, 2, false); // another kernel
        m.on_table_fill(1, &pairs, policy);
        m.on_warp_launch(3, 1, true); // launched after the fill
        assert!(m.uses_table(3), "{policy:?}");
        assert!(!m.uses_table(2), "{policy:?}: other kernel untouched");
        match policy {
            RemapPolicy::Instant => assert!(m.uses_table(0) && m.uses_table(1)),
            RemapPolicy::NewWarpsOnly => assert!(!m.uses_table(0) && !m.uses_table(1)),
            RemapPolicy::Migrate => {
                assert!(!m.uses_table(0) && !m.uses_table(1));
                assert_eq!(m.migrating_warps(), vec![0, 1]);
            }
        }
    }
}

/// `"migrate"`: per pair (h, f) an FRF read of slot f, an SRF read of slot h, an FRF write of
/// slot f and an SRF write of slot h; the warp switches after its last request.
#[test]
fn migration_request_lists() {
    let r = |fast, slot, write| MigrationRequest { fast, slot, write };
    assert_eq!(
        migration_requests(&[(7, 0), (12, 1)]),
        vec![
            r(true, 0, false),
            r(false, 7, false),
            r(true, 0, true),
            r(false, 7, true),
            r(true, 1, false),
            r(false, 12, false),
            r(true, 1, true),
            r(false, 12, true),
        ]
    );
    let mut m = WarpMaps::new(4);
    let mut ev = RfEvents::default();
    m.on_warp_launch(0, 1, false);
    m.on_warp_launch(1, 1, false);
    m.on_table_fill(1, &[(7, 0), (12, 1)], RemapPolicy::Migrate);
    for i in 0..8 {
        assert!(!m.uses_table(0), "switched after {i} requests");
        let next = m.next_migration(0).unwrap();
        assert_eq!(m.complete_migration(0, &mut ev), Some(next));
    }
    assert!(m.uses_table(0));
    assert_eq!(m.next_migration(0), None);
    assert_eq!(m.complete_migration(0, &mut ev), None);
    assert_eq!(ev.migration_frf_reads, 2);
    assert_eq!(ev.migration_srf_reads, 2);
    assert_eq!(ev.migration_frf_writes, 2);
    assert_eq!(ev.migration_srf_writes, 2);
    // Warp 1 exits half way: its outstanding requests are dropped.
    m.complete_migration(1, &mut ev);
    m.on_warp_exit(1);
    assert_eq!(m.migrating_warps(), Vec::<u32>::new());
    assert_eq!(ev.migration_accesses(), 9);
    // No pair: nothing to move, the warp switches at once.
    let mut e = WarpMaps::new(1);
    e.on_warp_launch(0, 3, false);
    e.on_table_fill(3, &[], RemapPolicy::Migrate);
    assert!(e.uses_table(0));
}

// ---- RF cache -----------------------------------------------------------------------------

fn rfc(entries: u32, replacement: RfcReplacement) -> RfcSection {
    RfcSection {
        enabled: true,
        entries_per_warp: entries,
        replacement,
        ..RfcSection::default()
    }
}

/// Three entries; writes R1, R2, R3, a read of R1, then a write of R4. FIFO evicts R1 (the
/// oldest allocation, though just read); LRU evicts R2 (the least recently used).
#[test]
fn rfc_fifo_and_lru_on_a_directed_sequence() {
    for (repl, victim, left) in [
        (RfcReplacement::Fifo, 1u16, vec![2u16, 3, 4]),
        (RfcReplacement::Lru, 2, vec![3, 1, 4]),
    ] {
        let mut c = RfCache::new(&rfc(3, repl), 4);
        let mut ev = RfEvents::default();
        c.enter_active(0);
        for r in 1..=3 {
            assert_eq!(c.write(0, r, &mut ev), RfcWrite::Cached { writeback: None });
        }
        assert_eq!(c.read(0, 1, &mut ev), RfcRead::Hit);
        assert_eq!(
            c.write(0, 4, &mut ev),
            RfcWrite::Cached {
                writeback: Some(victim)
            },
            "{repl:?}"
        );
        assert_eq!(c.cached(0), left, "{repl:?}");
        assert_eq!(
            c.read(0, victim, &mut ev),
            RfcRead::Miss { writeback: None }
        );
        assert_eq!(ev.rfc_eviction_writebacks, 1);
        assert_eq!(ev.rfc_read_hits, 1);
        assert_eq!(ev.rfc_read_misses, 1);
        assert_eq!(ev.rfc_read_tag_checks, 2);
        assert_eq!(ev.rfc_writes, 4);
    }
}

/// No allocation on a read miss by default; with `alloc_on_read_miss` the fill is clean and its
/// eviction writes nothing back. A rewrite updates in place (FIFO position kept).
#[test]
fn rfc_read_miss_allocation_and_clean_evictions() {
    let mut ev = RfEvents::default();
    let mut c = RfCache::new(&rfc(2, RfcReplacement::Fifo), 2);
    c.enter_active(1);
    assert_eq!(c.read(1, 5, &mut ev), RfcRead::Miss { writeback: None });
    assert!(c.cached(1).is_empty());
    let cfg = RfcSection {
        alloc_on_read_miss: true,
        ..rfc(2, RfcReplacement::Fifo)
    };
    let mut a = RfCache::new(&cfg, 2);
    a.enter_active(1);
    a.read(1, 5, &mut ev);
    a.write(1, 6, &mut ev);
    a.write(1, 6, &mut ev); // in place
    assert_eq!(a.cached(1), vec![5, 6]);
    // R5 (clean) is evicted without a write-back.
    assert_eq!(a.write(1, 7, &mut ev), RfcWrite::Cached { writeback: None });
    // R6 (dirty) is evicted with one.
    assert_eq!(
        a.write(1, 8, &mut ev),
        RfcWrite::Cached { writeback: Some(6) }
    );
}

/// Leaving the active set flushes every dirty entry to the MRF; a warp outside the active set
/// bypasses the RFC.
#[test]
fn rfc_flush_and_bypass() {
    let mut ev = RfEvents::default();
    let mut c = RfCache::new(&rfc(6, RfcReplacement::Fifo), 4);
    c.enter_active(2);
    for r in 1..=3 {
        c.write(2, r, &mut ev);
    }
    assert_eq!(c.leave_active(2, &mut ev), vec![1, 2, 3]);
    assert_eq!(ev.rfc_flush_writebacks, 3);
    assert_eq!(ev.rfc_dead_drops, 0);
    assert!(c.cached(2).is_empty());
    assert_eq!(c.write(2, 4, &mut ev), RfcWrite::Bypass);
    assert_eq!(c.read(2, 1, &mut ev), RfcRead::Miss { writeback: None });
}

/// Oracle liveness on a directed sequence (2 entries, FIFO): an evicted dirty value is parked
/// until the warp's next access to it decides: a read proves it live (written back then,
/// returned as the miss's write-back and counted as an eviction write-back); a write, or the
/// warp's exit, proves it dead (dropped, counted). With `"none"` every eviction and flush of a
/// dirty value is written back at once.
#[test]
fn rfc_oracle_liveness_decides_at_the_next_access() {
    // writes R1, R2, R3 (evicts R1), read R1, write R4 (evicts R2), write R2 (evicts R3),
    // leave the active set (flushes R4, R2), exit
    let run = |liveness| {
        let cfg = RfcSection {
            liveness,
            ..rfc(2, RfcReplacement::Fifo)
        };
        let mut ev = RfEvents::default();
        let mut c = RfCache::new(&cfg, 1);
        c.enter_active(0);
        let mut wbs = Vec::new();
        for r in 1..=3 {
            if let RfcWrite::Cached { writeback: Some(v) } = c.write(0, r, &mut ev) {
                wbs.push(v);
            }
        }
        if let RfcRead::Miss { writeback: Some(v) } = c.read(0, 1, &mut ev) {
            wbs.push(v);
        }
        for r in [4, 2] {
            if let RfcWrite::Cached { writeback: Some(v) } = c.write(0, r, &mut ev) {
                wbs.push(v);
            }
        }
        wbs.extend(c.leave_active(0, &mut ev));
        let parked = c.undecided(0).len();
        c.drop_warp(0, &mut ev);
        (wbs, parked, ev)
    };
    let (wbs, parked, ev) = run(RfcLiveness::None);
    assert_eq!(wbs, vec![1, 2, 3, 4, 2]);
    assert_eq!(parked, 0);
    assert_eq!(ev.rfc_eviction_writebacks, 3);
    assert_eq!(ev.rfc_flush_writebacks, 2);
    assert_eq!(ev.rfc_dead_drops, 0);
    let (wbs, parked, ev) = run(RfcLiveness::Oracle);
    // R1 is read after its eviction: live; R2 is rewritten first: dead; R3 (evicted) and the
    // flushed R4 and R2 are never read again before the exit: dead
    assert_eq!(wbs, vec![1]);
    assert_eq!(parked, 3);
    assert_eq!(ev.rfc_eviction_writebacks, 1);
    assert_eq!(ev.rfc_flush_writebacks, 0);
    assert_eq!(ev.rfc_dead_drops, 4);
    assert_eq!(ev.rfc_writes, 5);
}

/// Ports: (2R, 1W) over one bank, and (8R, 4W) over 4 banks (2R, 1W per bank, warp w in bank
/// w mod 4); a new cycle frees every port.
#[test]
fn rfc_ports_and_banks_per_cycle() {
    let mut ev = RfEvents::default();
    let mut c = RfCache::new(&rfc(6, RfcReplacement::Fifo), 8);
    assert_eq!(c.free_ports(0, false, 10), 2);
    assert!(c.try_port(0, false, 10, &mut ev));
    assert!(c.try_port(1, false, 10, &mut ev));
    assert_eq!(c.free_ports(0, false, 10), 0);
    assert_eq!(c.free_ports(0, true, 10), 1);
    assert!(!c.try_port(2, false, 10, &mut ev));
    assert!(c.try_port(2, true, 10, &mut ev));
    assert!(!c.try_port(3, true, 10, &mut ev));
    assert!(c.try_port(2, false, 11, &mut ev));
    assert_eq!(ev.rfc_port_conflicts, 2);
    assert_eq!(ev.rfc_write_port_conflicts, 1);
    let wide = RfcSection {
        read_ports: 8,
        write_ports: 4,
        banks: 4,
        ..rfc(6, RfcReplacement::Fifo)
    };
    let mut c = RfCache::new(&wide, 8);
    let mut ev = RfEvents::default();
    // Warps 0 and 4 share bank 0: two reads, then the bank is full while bank 1 is not.
    assert!(c.try_port(0, false, 5, &mut ev));
    assert!(c.try_port(4, false, 5, &mut ev));
    assert!(!c.try_port(0, false, 5, &mut ev));
    assert!(c.try_port(1, false, 5, &mut ev));
    assert!(c.try_port(0, true, 5, &mut ev));
    assert!(!c.try_port(4, true, 5, &mut ev));
    assert!(c.try_port(5, true, 5, &mut ev));
    assert_eq!(ev.rfc_port_conflicts, 2);
}

#[test]
fn pilot_selection_policies() {
    let warps = [4, 5, 6, 7];
    assert_eq!(
        select_pilot(PilotSelect::FirstWarpFirstCta, &warps, 1, 0, 0),
        Ok(4)
    );
    assert_eq!(select_pilot(PilotSelect::Index(3), &warps, 1, 0, 0), Ok(7));
    let a = select_pilot(PilotSelect::RandomInFirstCta, &warps, 42, 2, 9).unwrap();
    assert_eq!(
        select_pilot(PilotSelect::RandomInFirstCta, &warps, 42, 2, 9),
        Ok(a)
    );
    assert!(warps.contains(&a));
    assert!(select_pilot(PilotSelect::FirstWarpFirstCta, &[], 1, 0, 0).is_err());
}

/// A partitioned RF (n = 4, 24 banks, 8 warp slots) re-profiling every 100 cycles: kernel 7
/// with 12 registers, warps 0..4, pilot 0.
fn reprofiled(policy: RemapPolicy) -> sim::timing::rf::PartitionedRf {
    let cfg = PrfSection {
        enabled: true,
        n_fast: 4,
        remap_policy: policy,
        reprofile_every_cycles: 100,
        ..PrfSection::default()
    };
    let mut rf = sim::timing::rf::PartitionedRf::from_sections(
        &cfg,
        &AfrfSection::default(),
        &sim::config::prf::MrfSection::default(),
        8,
        24,
        BankMap::RegPlusWarp,
        8,
        0,
        3,
    );
    rf.on_kernel_launch(7, 12, &[0, 1], 0).unwrap();
    for w in 0..4 {
        rf.on_warp_launch(w, 7, 0);
    }
    // first round: the pilot (warp 0) reads R9, R10 and writes R11 ten times, reads R5 once
    for _ in 0..10 {
        rf.on_issue(0, &[9, 10], &[11], 2);
    }
    rf.on_issue(0, &[5], &[], 3);
    rf.on_warp_exit(0, 20);
    rf
}

/// `prf.reprofile_every_cycles` (§5.5 item 6 extension, rules in `timing::rf::kernel_profile`):
/// the first table (generation 1: R9↔R0, R10↔R1, R11↔R2, R5↔R3) is filled at the pilot's
/// exit; at cycle 100 a round starts with the lowest resident warp (1) as pilot while the
/// table stays in force; at 200 the round ends (sort), generation 2 (R6↔R0, R7↔R1, R8↔R2) is
/// filled at once (sort latency 0) and the next round starts. `"instant"` moves every warp to
/// generation 2; `"new_warps_only"` keeps the residents on generation 1 and starts a warp
/// launched later on 2; under `"migrate"` a warp still migrating to generation 1 finishes that
/// migration (16 requests) and stays on generation 1.
#[test]
fn reprofiling_rounds_and_the_mapping_switch() {
    use sim::timing::rf::Part;
    for policy in [
        RemapPolicy::Instant,
        RemapPolicy::NewWarpsOnly,
        RemapPolicy::Migrate,
    ] {
        let mut rf = reprofiled(policy);
        let first = rf.route(2, 9, false, 21);
        if policy == RemapPolicy::Instant {
            assert_eq!((first.part, first.slot), (Part::FrfHigh, 0), "{policy:?}");
        } else {
            // kept on the identity, or still migrating to generation 1
            assert_eq!((first.part, first.slot), (Part::Srf, 9), "{policy:?}");
        }
        assert_eq!(rf.events().sorts, 1);
        // cycle 100: a round starts; the table stays in force
        let r = rf.route(1, 9, false, 100);
        assert_eq!(rf.events().reprofiles, 1, "{policy:?}");
        assert_eq!(rf.kernels().get(7).unwrap().pilot(), Some(1));
        assert!(rf.kernels().get(7).unwrap().profile_mask());
        if policy == RemapPolicy::Instant {
            assert_eq!((r.part, r.slot), (Part::FrfHigh, 0), "{policy:?}");
        }
        let incs = rf.events().pilot_counter_increments;
        for _ in 0..10 {
            rf.on_issue(1, &[7, 8], &[6], 150);
        }
        rf.on_issue(2, &[9], &[], 150); // not the pilot: not counted
        assert_eq!(rf.events().pilot_counter_increments, incs + 30);
        // cycle 200: sort, generation 2, the next round
        let _ = rf.route(3, 0, false, 200);
        assert_eq!(rf.events().sorts, 2, "{policy:?}");
        assert_eq!(rf.events().reprofiles, 2, "{policy:?}");
        assert_eq!(rf.kernels().get(7).unwrap().generation(), 2);
        // R6, R7, R8 tie at 10: lower id first
        assert_eq!(
            rf.kernels().get(7).unwrap().pairs(),
            &[(6, 0), (7, 1), (8, 2)]
        );
        let slot = |rf: &sim::timing::rf::PartitionedRf, w, r| rf.slot(w, r);
        match policy {
            RemapPolicy::Instant => {
                assert_eq!(slot(&rf, 2, 7), 1);
                assert_eq!(slot(&rf, 2, 9), 9);
                assert_eq!(rf.route(2, 6, true, 201).part, Part::FrfHigh);
            }
            RemapPolicy::NewWarpsOnly => {
                // residents stayed on the identity (the first fill kept them there)
                assert_eq!(slot(&rf, 2, 9), 9);
                rf.on_warp_launch(5, 7, 201);
                assert_eq!(slot(&rf, 5, 7), 1);
                assert_eq!(slot(&rf, 5, 9), 9);
            }
            RemapPolicy::Migrate => {
                // warp 2 migrated to generation 1 already (its requests were never granted
                // here, so it is still migrating from the identity to generation 1)
                let w = 2;
                let mut n = 0;
                while let Some(q) = rf.next_migration(w) {
                    assert!(rf.complete_migration(w, 201).is_some());
                    n += 1;
                    assert!(n < 100, "{q:?}");
                }
                assert_eq!(n, 16, "identity → generation 1: 4 pairs × 4 requests");
                assert_eq!(slot(&rf, w, 9), 0, "on generation 1 after its migration");
            }
        }
        let _ = slot;
    }
}

/// A re-fill under `"migrate"` moves a warp on generation 1 to generation 2 by the registers
/// whose slot differs: 11 reads at the old slots, then 11 writes at the new ones.
#[test]
fn reprofiling_migration_moves_the_displaced_registers() {
    let mut rf = reprofiled(RemapPolicy::Migrate);
    // let warps 1..4 finish their first migration (identity → generation 1)
    for w in 1..4 {
        while rf.next_migration(w).is_some() {
            rf.complete_migration(w, 30);
        }
        assert_eq!(rf.slot(w, 9), 0);
    }
    let _ = rf.route(1, 9, false, 100);
    for _ in 0..10 {
        rf.on_issue(1, &[7, 8], &[6], 150);
    }
    let _ = rf.route(3, 0, false, 200);
    let mut reqs = Vec::new();
    while let Some(q) = rf.next_migration(3) {
        // on generation 1 until the last request
        assert_eq!(rf.slot(3, 9), 0);
        reqs.push(q);
        rf.complete_migration(3, 201);
    }
    assert_eq!(reqs.len(), 22);
    assert!(reqs[..11].iter().all(|q| !q.write));
    assert!(reqs[11..].iter().all(|q| q.write));
    // R0 was in slot 9 (generation 1) and goes to slot 6 (generation 2)
    assert_eq!(
        reqs[0],
        MigrationRequest {
            fast: false,
            slot: 9,
            write: false
        }
    );
    assert_eq!(
        reqs[11],
        MigrationRequest {
            fast: false,
            slot: 6,
            write: true
        }
    );
    assert_eq!(rf.slot(3, 7), 1);
    assert_eq!(rf.slot(3, 9), 9);
}
