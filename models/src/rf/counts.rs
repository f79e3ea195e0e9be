//! From a simulated run to the §8 counts: [`counts_from_activity`] maps a `KernelActivity`
//! (its `RfStats` record when the run kept one, the per-bank register-file counters otherwise)
//! onto [`RfCounts`], and [`apply_prf_events`] adds the partitioned-RF, adaptive-FRF and
//! RF-cache event counts of `sim::activity::RfEvents` (register-file spec §5.8, §8.3).
//!
//! The simulator sums its record over the SMs of a launch (and over launches), so the counts
//! and the residency cover the whole GPU; [`RfEnergyModel::replicated`] scales a per-SM model
//! to the same extent.
//!
//! Lane fractions: an access drives `a` of the entry's 32 lanes (`read_driven_lanes`,
//! `write_driven_lanes`; 32 per access without a lane-gated access), so
//! `Σ a_e/lanes = driven/32` (§4.3).

use super::accounting::{AccessCounts, KindCounts, Residency, RfCounts, RfEnergyModel};
use sim::activity::rfevents::{Part, RfEvents};
use sim::activity::{KernelActivity, PartResidency, RfPartCounts};

/// Lanes of one register-file entry in the simulator's record (`RfStats` counts driven lanes
/// out of 32).
pub const RECORD_LANES: f64 = 32.0;

fn kind(n: u64, driven_lanes: u64) -> KindCounts {
    KindCounts {
        accesses: n,
        lane_fraction_sum: (driven_lanes as f64 / RECORD_LANES).min(n as f64),
    }
}

fn access(p: &RfPartCounts) -> AccessCounts {
    AccessCounts {
        rd: kind(p.reads, p.read_driven_lanes),
        wr: kind(p.writes, p.write_driven_lanes),
    }
}

fn residency(r: &PartResidency) -> Residency {
    Residency {
        on: r.on,
        waking: r.waking,
        drowsy: r.drowsy,
        off: r.off,
    }
}

/// The §8 counts of one run (`k`, one kernel or the aggregate) at the core clock `clock_hz`.
///
/// - With an `RfStats` record: reads, writes and `Σa/32` per structure from `parts`
///   (`mrf`, `frf_high`, `frf_low`, `srf`, `rfc`), the per-state residency per structure
///   (`frf_high`/`frf_low` residencies both count for the FRF), and the event counts of every
///   registered technique's terms, each read by the technique from its own record
///   ([`super::technique::RfTechniqueTerms::events`]).
/// - Without one (no register-file technique, single-cycle access): the MRF's entry reads and
///   writes summed over the SMs' banks, every lane driven, every entry ON.
///
/// Residency is in the record's units (entries, or entry lanes when a technique keeps states
/// per entry lane, summed over SMs); the model it is accounted against must have as many
/// entries ([`RfEnergyModel::replicated`]).
pub fn counts_from_activity(k: &KernelActivity, clock_hz: f64) -> RfCounts {
    let mut c = RfCounts {
        cycles: k.cycles,
        clock_hz,
        ..RfCounts::default()
    };
    let Some(rf) = &k.rf else {
        let sum =
            |f: &dyn Fn(&sim::activity::SmActivity) -> u64| -> u64 { k.sms.iter().map(f).sum() };
        c.mrf = AccessCounts {
            rd: KindCounts::full(sum(&|s| s.rf.reads.iter().sum())),
            wr: KindCounts::full(sum(&|s| s.rf.writes.iter().sum())),
        };
        return c;
    };
    for p in &rf.parts {
        let a = access(p);
        match p.part.as_str() {
            "mrf" => c.mrf = a,
            "frf_high" => c.frf_high = a,
            "frf_low" => c.frf_low = a,
            "srf" => c.srf = a,
            "rfc" => c.rfc = a,
            _ => {}
        }
    }
    for r in &rf.residency {
        let res = residency(r);
        let add = |slot: &mut Option<Residency>| {
            let s = slot.get_or_insert_with(Residency::default);
            s.on += res.on;
            s.waking += res.waking;
            s.drowsy += res.drowsy;
            s.off += res.off;
        };
        match r.part.as_str() {
            "mrf" => c.mrf_states.bank_off_cycles += r.bank_off_cycles,
            "frf" | "frf_high" | "frf_low" => c.frf_states.bank_off_cycles += r.bank_off_cycles,
            "srf" => c.srf_states.bank_off_cycles += r.bank_off_cycles,
            _ => {}
        }
        match r.part.as_str() {
            "mrf" => add(&mut c.mrf_states.residency),
            "frf" | "frf_high" | "frf_low" => add(&mut c.frf_states.residency),
            "srf" => add(&mut c.srf_states.residency),
            _ => {}
        }
    }
    if let Some(p) = &rf.prf {
        // the record sums SM-cycles over the SMs; the accounting wants the run's share of
        // FRF_low time in run cycles
        let low = if p.sm_cycles > 0 {
            ((p.frf_low_cycles as f64 / p.sm_cycles as f64 * c.cycles as f64).round() as u64)
                .min(c.cycles)
        } else {
            0
        };
        apply_prf_events(&mut c, &p.events, low);
    }
    for t in super::TECHNIQUES {
        c.technique_events.extend(t.events(k));
    }
    c
}

/// Collector-unit allocations of a run (all of them, whatever a technique records for each):
/// `RfStats.cu_allocs`, 0 without a record.
pub fn cu_allocations(k: &KernelActivity) -> u64 {
    k.rf.as_ref().map_or(0, |r| r.cu_allocs)
}

/// Adds the partitioned-RF / adaptive-FRF / RF-cache events `ev` of a run to `c`: the
/// accesses per structure (they replace the counts of any structure `ev` saw, all lanes
/// driven; a structure `ev` did not touch keeps its counts), swap-table lookups and writes,
/// pilot-counter increments, counter sorts, epochs, mode switches, migration reads and writes
/// of the FRF and SRF, RF-cache tag checks (reads and writes), and the cycles the FRF spent
/// in FRF_low.
///
/// Counts that `c` already holds from the `RfStats` parts with driven-lane sums (a lane-gated
/// access) are kept when `ev` agrees on their access count, so that the lane fractions survive.
pub fn apply_prf_events(c: &mut RfCounts, ev: &RfEvents, frf_low_cycles: u64) {
    for part in Part::ALL {
        let (rd, wr) = (ev.reads(part), ev.writes(part));
        if rd == 0 && wr == 0 {
            continue;
        }
        let slot = match part {
            Part::Mrf => &mut c.mrf,
            Part::FrfHigh => &mut c.frf_high,
            Part::FrfLow => &mut c.frf_low,
            Part::Srf => &mut c.srf,
            Part::Rfc => &mut c.rfc,
        };
        if slot.rd.accesses != rd {
            slot.rd = KindCounts::full(rd);
        }
        if slot.wr.accesses != wr {
            slot.wr = KindCounts::full(wr);
        }
    }
    c.cam_lookups = ev.swap_lookups;
    c.pilot_increments = ev.pilot_counter_increments;
    c.sorts = ev.sorts;
    c.table_writes = ev.table_writes;
    c.epochs = ev.epochs;
    c.mode_switches = ev.mode_switches;
    c.migration_frf = AccessCounts {
        rd: KindCounts::full(ev.migration_frf_reads),
        wr: KindCounts::full(ev.migration_frf_writes),
    };
    c.migration_srf = AccessCounts {
        rd: KindCounts::full(ev.migration_srf_reads),
        wr: KindCounts::full(ev.migration_srf_writes),
    };
    c.rfc_tag_checks = ev.rfc_read_tag_checks + ev.rfc_write_tag_checks;
    c.frf_low_cycles = frf_low_cycles;
}

impl RfEnergyModel {
    /// The model of `copies` identical register files (one per SM) whose residency is counted
    /// in `units_per_entry` units per entry (1 for states per entry, the lane count for states
    /// per entry lane): every leakage (structures and added structures) times `copies`,
    /// entries times `copies × units_per_entry` (so that the per-unit leakage is the per-SM
    /// entry's share divided among its units), banks times `copies`, and every per-copy term
    /// energy ([`super::technique::EventEnergy::per_copy`]) times `copies`. Access and event
    /// energies are per event and do not change.
    pub fn replicated(&self, copies: u64, units_per_entry: u64) -> RfEnergyModel {
        let k = copies as f64;
        let s = |m: &super::accounting::StructureModel| super::accounting::StructureModel {
            array_leakage_w: m.array_leakage_w * k,
            periph_leakage_w: m.periph_leakage_w * k,
            entries: m.entries * copies * units_per_entry.max(1),
            banks: (m.banks as u64 * copies).min(u32::MAX as u64) as u32,
            ..*m
        };
        let mut o = self.overhead.clone();
        for (_, w) in o.added_leakage_w.iter_mut() {
            *w *= k;
        }
        for e in o.technique_energy.iter_mut().filter(|e| e.per_copy) {
            e.energy_j *= k;
        }
        RfEnergyModel {
            mrf: s(&self.mrf),
            frf_high: s(&self.frf_high),
            frf_low: s(&self.frf_low),
            srf: s(&self.srf),
            rfc: s(&self.rfc),
            overhead: o,
            knobs: self.knobs,
        }
    }
}
