//! From a run's activity to the register-file accounting's counts (`models::rf::counts`): the
//! `RfStats` record's parts, residency, wake events and mask-table traffic land in the right
//! fields, a run without the record is a plain MRF with every lane driven, the partitioned-RF
//! events fill the overhead counts, and a replicated model accounts a GPU-wide residency to the
//! same leakage as one SM's model on one SM's residency.

use models::rf::accounting::{
    account, KindCounts, MrfRegion, Residency, RfEnergyModel, StructureModel, Techniques,
};
use models::rf::counts::{apply_prf_events, counts_from_activity};
use models::rf::structures::{evaluate, RfDesign};
use sim::activity::rfevents::{Part, RfEvents};
use sim::activity::{KernelActivity, PartResidency, RfPartCounts, RfStats, SmActivity, TricStats};

fn part(name: &str, reads: u64, writes: u64, rl: u64, wl: u64) -> RfPartCounts {
    RfPartCounts {
        part: name.into(),
        reads,
        writes,
        read_driven_lanes: rl,
        write_driven_lanes: wl,
        ..RfPartCounts::default()
    }
}

#[test]
fn the_record_maps_onto_the_counts() {
    let mut k = KernelActivity::empty("k");
    k.cycles = 1000;
    k.rf = Some(RfStats {
        coma: true,
        segment_lanes: 1,
        parts: vec![part("mrf", 100, 40, 100 * 16, 40 * 32)],
        mask_table_reads: 100,
        mask_table_writes: 7,
        cu_allocs: 9,
        residency: vec![PartResidency {
            part: "mrf".into(),
            units: 10,
            off: 2000,
            drowsy: 5000,
            waking: 1000,
            on: 2000,
            bank_off_cycles: 0,
        }],
        tric: Some(TricStats {
            wake_events: 33,
            ..TricStats::default()
        }),
        ..RfStats::default()
    });
    let c = counts_from_activity(&k, 700e6);
    assert_eq!(c.cycles, 1000);
    assert_eq!(c.clock_hz, 700e6);
    assert_eq!(c.mrf.rd.accesses, 100);
    assert!((c.mrf.rd.lane_fraction_sum - 50.0).abs() < 1e-12);
    assert_eq!(c.mrf.wr, KindCounts::full(40));
    let r = c.mrf_states.residency.unwrap();
    assert_eq!((r.on, r.waking, r.drowsy, r.off), (2000, 1000, 5000, 2000));
    assert_eq!(c.event("TRIC switch events"), 33);
    assert_eq!(c.event("mask reads"), 100);
    assert_eq!(c.event("mask writes"), 7);
    assert_eq!(c.srf.rd.accesses, 0);
}

#[test]
fn a_run_without_the_record_is_a_plain_mrf() {
    let mut k = KernelActivity::empty("k");
    k.cycles = 500;
    for reads in [[3u64, 4], [5, 6]] {
        let mut s = SmActivity::default();
        s.rf.reads = reads.to_vec();
        s.rf.writes = vec![1, 2];
        k.sms.push(s);
    }
    let c = counts_from_activity(&k, 1e9);
    assert_eq!(c.mrf.rd, KindCounts::full(18));
    assert_eq!(c.mrf.wr, KindCounts::full(6));
    assert!(c.mrf_states.residency.is_none());
    assert!(c.technique_events.iter().all(|e| e.1 == 0));
}

#[test]
fn partitioned_events_fill_the_overhead_counts() {
    let mut k = KernelActivity::empty("k");
    k.cycles = 1000;
    let mut c = counts_from_activity(&k, 863e6);
    let mut ev = RfEvents::default();
    for _ in 0..5 {
        ev.access(Part::FrfHigh, false);
    }
    ev.access(Part::FrfLow, true);
    for _ in 0..3 {
        ev.access(Part::Srf, false);
    }
    ev.swap_lookups = 11;
    ev.pilot_counter_increments = 12;
    ev.sorts = 1;
    ev.table_writes = 8;
    ev.epochs = 20;
    ev.mode_switches = 4;
    ev.migration_frf_reads = 2;
    ev.migration_srf_writes = 3;
    ev.rfc_read_tag_checks = 6;
    ev.rfc_write_tag_checks = 1;
    apply_prf_events(&mut c, &ev, 400);
    assert_eq!(c.frf_high.rd, KindCounts::full(5));
    assert_eq!(c.frf_low.wr, KindCounts::full(1));
    assert_eq!(c.srf.rd, KindCounts::full(3));
    assert_eq!(c.mrf.rd.accesses, 0);
    assert_eq!(
        (
            c.cam_lookups,
            c.pilot_increments,
            c.sorts,
            c.table_writes,
            c.epochs,
            c.mode_switches
        ),
        (11, 12, 1, 8, 20, 4)
    );
    assert_eq!(c.migration_frf.rd.accesses, 2);
    assert_eq!(c.migration_srf.wr.accesses, 3);
    assert_eq!(c.rfc_tag_checks, 7);
    assert_eq!(c.frf_low_cycles, 400);
    // COMA's lane fractions survive when the events agree on the count
    let mut c2 = counts_from_activity(&k, 863e6);
    c2.frf_high.rd = KindCounts {
        accesses: 5,
        lane_fraction_sum: 2.5,
    };
    apply_prf_events(&mut c2, &ev, 400);
    assert_eq!(c2.frf_high.rd.lane_fraction_sum, 2.5);
    // and the events account: FRF_low cycles over the run's
    let s = evaluate(&RfDesign::kepler_ch6(), None).unwrap();
    let m = RfEnergyModel::from_structures(
        &s,
        &Techniques {
            partitioned: true,
            adaptive: true,
            ..Techniques::plain(MrfRegion::Stv, 24)
        },
    )
    .unwrap();
    let e = account(&c, &m).unwrap();
    assert!(e.ovh_dyn_j > 0.0 && e.dyn_j > 0.0);
}

#[test]
fn a_replicated_model_accounts_the_gpu_wide_residency() {
    let one = RfEnergyModel {
        mrf: StructureModel {
            read_energy_j: 1e-11,
            write_energy_j: 1e-11,
            array_leakage_w: 1e-3,
            periph_leakage_w: 5e-4,
            entries: 1024,
            banks: 16,
        },
        ..RfEnergyModel::default()
    };
    let mut c = counts_from_activity(&KernelActivity::empty("k"), 700e6);
    c.cycles = 10_000;
    let per_sm = Residency {
        on: 200 * 10_000,
        waking: 24 * 10_000,
        drowsy: 500 * 10_000,
        off: 300 * 10_000,
    };
    c.mrf_states.residency = Some(per_sm);
    let e1 = account(&c, &one).unwrap();
    // 15 SMs each with that residency, counted per entry lane (32 units per entry)
    let mut c15 = c.clone();
    c15.mrf_states.residency = Some(Residency {
        on: per_sm.on * 15 * 32,
        waking: per_sm.waking * 15 * 32,
        drowsy: per_sm.drowsy * 15 * 32,
        off: per_sm.off * 15 * 32,
    });
    let e15 = account(&c15, &one.replicated(15, 32)).unwrap();
    assert!((e15.leak_j / e1.leak_j - 15.0).abs() < 1e-9);
    // the same counts against the one-SM model are refused (residency ≠ entries × cycles)
    assert!(account(&c15, &one).is_err());
}

#[test]
fn every_registered_technique_writes_its_terms_and_per_copy_terms_replicate() {
    use models::rf::technique::{accounting_order, Counted, EventEnergy};
    let mut c = counts_from_activity(&KernelActivity::empty("k"), 700e6);
    c.cycles = 1000;
    let plain = RfEnergyModel {
        mrf: StructureModel {
            entries: 1024,
            banks: 16,
            ..StructureModel::default()
        },
        ..RfEnergyModel::default()
    };
    // a run without any technique still lists every registered technique's terms, at zero,
    // in accounting order, before the partitioned RF's
    let e = account(&c, &plain).unwrap();
    let want: Vec<&str> = accounting_order()
        .flat_map(|t| t.terms().iter().map(|s| s.label))
        .collect();
    assert!(!want.is_empty());
    for (i, label) in want.iter().enumerate() {
        assert_eq!(e.overhead_terms[i].0, *label);
        assert_eq!(e.overhead_terms[i].1, 0.0);
    }
    assert_eq!(e.overhead_terms[want.len()].0, "swap-table lookups");
    // a per-cycle, per-copy term is charged every cycle and scales with the copies; a
    // per-event term does not scale
    let (per_cycle, per_event) = {
        let all: Vec<_> = accounting_order().flat_map(|t| t.terms().iter()).collect();
        let pc = all.iter().find(|s| s.counted == Counted::Cycles).unwrap();
        let pe = all.iter().find(|s| s.counted == Counted::Events).unwrap();
        (pc.label, pe.label)
    };
    let mut m = plain.clone();
    m.overhead.technique_energy = vec![
        EventEnergy {
            label: per_cycle,
            energy_j: 2e-12,
            per_copy: true,
        },
        EventEnergy {
            label: per_event,
            energy_j: 3e-12,
            per_copy: false,
        },
    ];
    c.technique_events = vec![(per_event, 7)];
    let term = |e: &models::rf::accounting::RfEnergy, l: &str| {
        e.overhead_terms.iter().find(|x| x.0 == l).unwrap().1
    };
    let e1 = account(&c, &m).unwrap();
    assert!((term(&e1, per_cycle) - 1000.0 * 2e-12).abs() < 1e-24);
    assert!((term(&e1, per_event) - 7.0 * 3e-12).abs() < 1e-24);
    let mut c4 = c.clone();
    c4.mrf_states.residency = None;
    let e4 = account(&c4, &m.replicated(4, 1)).unwrap();
    assert!((term(&e4, per_cycle) - 4.0 * 1000.0 * 2e-12).abs() < 1e-24);
    assert!((term(&e4, per_event) - 7.0 * 3e-12).abs() < 1e-24);
}
