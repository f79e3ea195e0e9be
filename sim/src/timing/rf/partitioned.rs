//! [`PartitionedRf`]: the per-SM register-file organisation of the partitioned RF with the
//! adaptive FRF, or of the monolithic baselines MRF@STV / MRF@NTV, behind one routing call
//! (register-file spec §5, §6, §7.1, §7.2).
//!
//! For every register access the SM asks [`PartitionedRf::route`] where it goes and how long it
//! takes: the kernel's profiling state and the warp's mapping give the physical slot and the
//! partition (FRF iff slot < n); the FRF's mode in the grant cycle (adaptive FRF) picks
//! FRF_high or FRF_low; latencies are `prf.lat_frf_high`, `prf.lat_frf_low`, `prf.lat_srf`
//! (writes per `prf.write_lat`), plus `prf.lookup_latency` when a swap-table lookup is made.
//! With `prf.enabled = false` every access goes to the MRF with `mrf.lat`. The bank of an
//! access is `bank(w, slot)` ([`PartitionedRf::bank`]); FRF and SRF halves share it.
//!
//! The SM tells it about kernel launches and ends, warp launches and exits, instruction issue
//! (the pilot's counters; the phase detector with `afrf.count_point = "scheduler_issue"`) and
//! dispatch to the execution units (the phase detector's default count point). Every overhead
//! event is counted in [`PartitionedRf::events`].
//!
//! With `prf.reprofile_every_cycles` = N > 0 the kernel is re-profiled within its run every N
//! cycles from its launch ([`super::kernel_profile`] gives the rounds, [`super::remap`] the
//! mapping switch at each re-fill, which follows `prf.remap_policy`). Boundaries are handled
//! when the organisation is next called (an access, a warp launch or exit), at or after the
//! boundary cycle; a round's sort is dated at its boundary.

use crate::config::prf::{
    sm_issue_width, AfrfSection, CountPoint, MrfSection, PrfSection, WriteLat,
};
use crate::config::{BankMap, GpuConfig};

use super::afrf_phase::{AfrfPhaseDetector, FrfMode};
use super::kernel_profile::KernelProfiles;
use super::partition_map::bank_of;
use super::pilot_profiler::select_pilot;
use super::pilot_profiler::N_COUNTERS;
use super::remap::{move_requests, MigrationRequest, WarpMaps};
use super::swap_table::{identity_placement, Placement};
use crate::activity::rfevents::{Part, RfEvents};

/// Where one access goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RfRoute {
    /// The structure (and FRF mode) that serves it.
    pub part: Part,
    /// Cycles from the grant until the access completes.
    pub latency_cycles: u32,
    /// Physical slot (the bank is `bank(w, slot)`).
    pub slot: u8,
}

/// The partitioned / monolithic RF of one SM.
#[derive(Clone, Debug)]
pub struct PartitionedRf {
    prf: PrfSection,
    mrf: MrfSection,
    srf_latency_cycles: u32,
    n_banks: u32,
    bank_map: BankMap,
    sm: u32,
    kernels: KernelProfiles,
    warps: WarpMaps,
    afrf: Option<AfrfPhaseDetector>,
    events: RfEvents,
    /// Per running kernel: its next re-profiling boundary (`prf.reprofile_every_cycles`).
    reprofile_at: Vec<(u32, u64)>,
}

impl PartitionedRf {
    /// The organisation of SM `sm` from `cfg`'s `[prf]`, `[afrf]`, `[mrf]` and `[rf]` tables.
    /// `srf_latency_derived_cycles` stands for `prf.lat_srf = "derived"` (the caller computes
    /// ⌈t_access(V_SRF) / t_clk⌉ from the models); it is ignored for a fixed latency.
    pub fn new(cfg: &GpuConfig, sm: u32, srf_latency_derived_cycles: u32) -> Self {
        Self::from_sections(
            &cfg.prf,
            &cfg.afrf,
            &cfg.mrf,
            sm_issue_width(cfg),
            cfg.rf.n_banks,
            cfg.rf.bank_map,
            cfg.sm.max_warps,
            sm,
            srf_latency_derived_cycles,
        )
    }

    /// The organisation from the sections themselves (SM issue width, RF banks and bank map,
    /// warp slots and the SM id given directly).
    #[allow(clippy::too_many_arguments)]
    pub fn from_sections(
        prf: &PrfSection,
        afrf: &AfrfSection,
        mrf: &MrfSection,
        issue_width: u32,
        n_banks: u32,
        bank_map: BankMap,
        max_warps: u32,
        sm: u32,
        srf_latency_derived_cycles: u32,
    ) -> Self {
        PartitionedRf {
            prf: prf.clone(),
            mrf: mrf.clone(),
            srf_latency_cycles: prf.srf_latency_cycles(srf_latency_derived_cycles).max(1),
            n_banks: n_banks.max(1),
            bank_map,
            sm,
            kernels: KernelProfiles::new(prf.max_profiled_kernels),
            warps: WarpMaps::new(max_warps),
            afrf: (prf.enabled && afrf.enabled)
                .then(|| AfrfPhaseDetector::new(afrf, issue_width.max(1))),
            events: RfEvents::default(),
            reprofile_at: Vec::new(),
        }
    }

    /// Every event counted so far.
    pub fn events(&self) -> &RfEvents {
        &self.events
    }

    /// The event counts, for the structures an SM puts around this one (the RF cache).
    pub fn events_mut(&mut self) -> &mut RfEvents {
        &mut self.events
    }

    /// The SRF latency in force, cycles.
    pub fn srf_latency_cycles(&self) -> u32 {
        self.srf_latency_cycles
    }

    /// Cycles the FRF spent in FRF_low (0 without the adaptive FRF); see
    /// [`AfrfPhaseDetector::low_cycles`].
    pub fn frf_low_cycles(&self) -> u64 {
        self.afrf.as_ref().map_or(0, |d| d.low_cycles())
    }

    /// The physical slot of register `reg` of warp slot `w` under the current mapping (`reg`
    /// itself with the partition off), without counting anything.
    pub fn slot(&self, w: u32, reg: u16) -> u8 {
        if self.prf.enabled {
            self.peek_placement(w, reg).slot
        } else {
            reg.min(u8::MAX as u16) as u8
        }
    }

    /// The mapping state of the warps (mapping generation, migration progress).
    pub fn warps(&self) -> &WarpMaps {
        &self.warps
    }

    /// The profiling states of the running kernels.
    pub fn kernels(&self) -> &KernelProfiles {
        &self.kernels
    }

    /// Kernel `kernel` starts on this SM at cycle `t`, with `regs_per_thread` registers per
    /// thread and `first_cta_warps` the warp slots of its first CTA here (in warp order). Picks
    /// the pilot (unless the kernel fits in the FRF and `prf.skip_if_fits`), clears its counters
    /// and table, and restarts the adaptive-FRF epochs in FRF_high. Errors name the knob
    /// (`prf.pilot_select`, `prf.n_fast`) or the register count.
    pub fn on_kernel_launch(
        &mut self,
        kernel: u32,
        regs_per_thread: u32,
        first_cta_warps: &[u32],
        t: u64,
    ) -> Result<(), String> {
        if !self.prf.enabled {
            return Ok(());
        }
        let profiled = self
            .prf
            .launch_check(regs_per_thread, first_cta_warps.len() as u32)?;
        let pilot = if profiled {
            Some(select_pilot(
                self.prf.pilot_select,
                first_cta_warps,
                self.prf.pilot_seed,
                self.sm,
                kernel,
            )?)
        } else {
            None
        };
        self.kernels
            .on_kernel_launch(kernel, pilot, &self.prf, &mut self.events);
        self.reprofile_at.retain(|x| x.0 != kernel);
        if self.prf.reprofile_every_cycles > 0 {
            self.reprofile_at
                .push((kernel, t.saturating_add(self.prf.reprofile_every_cycles)));
        }
        if let Some(d) = &mut self.afrf {
            d.start_kernel(t);
        }
        Ok(())
    }

    /// Kernel `kernel` has finished on this SM at cycle `t`: its profiling state is freed and,
    /// when no other kernel still runs here, the adaptive-FRF epoch in progress is counted.
    pub fn on_kernel_exit(&mut self, kernel: u32, t: u64) {
        self.kernels.on_kernel_exit(kernel);
        self.reprofile_at.retain(|x| x.0 != kernel);
        if self.kernels.is_empty() {
            if let Some(d) = &mut self.afrf {
                d.finish(t, &mut self.events);
            }
        }
    }

    /// Warp slot `w` of kernel `kernel` starts at cycle `t` (on the table if it is filled).
    pub fn on_warp_launch(&mut self, w: u32, kernel: u32, t: u64) {
        self.advance(t);
        let gen = self.kernels.get(kernel).map_or(0, |k| k.generation());
        self.warps.on_warp_launch_gen(w, kernel, gen);
    }

    /// Warp slot `w` exits at cycle `t`. The pilot's exit clears profile_mask and sorts the
    /// counters; the table is filled `prf.sort_latency` cycles later.
    pub fn on_warp_exit(&mut self, w: u32, t: u64) {
        if let Some(k) = self.warps.kernel_of(w) {
            if let Some(p) = self.kernels.get_mut(k) {
                p.on_warp_exit(w, t, &mut self.events);
            }
        }
        self.warps.on_warp_exit(w);
        self.advance(t);
    }

    /// Warp `w` issues an instruction at cycle `t` with register sources `srcs` (operand order,
    /// duplicates as written) and destinations `dsts`: the pilot's counters count its
    /// accesses, and the phase detector counts it under `afrf.count_point =
    /// "scheduler_issue"`.
    pub fn on_issue(&mut self, w: u32, srcs: &[u16], dsts: &[u16], t: u64) {
        if let Some(k) = self.warps.kernel_of(w) {
            if let Some(p) = self.kernels.get_mut(k) {
                p.on_instruction(w, srcs, dsts, &mut self.events);
            }
        }
        if let Some(d) = &mut self.afrf {
            if d.count_point() == CountPoint::SchedulerIssue {
                d.count(t, 1, &mut self.events);
            }
        }
    }

    /// `n` warp instructions were dispatched to execution units at cycle `t` (the phase
    /// detector's count under `afrf.count_point = "dispatch_to_ex"`).
    pub fn on_dispatch(&mut self, t: u64, n: u64) {
        if let Some(d) = &mut self.afrf {
            if d.count_point() == CountPoint::DispatchToEx {
                d.count(t, n, &mut self.events);
            }
        }
    }

    /// Fills every table whose sort has finished by cycle `t` and switches the warps per
    /// `prf.remap_policy`; then handles the re-profiling boundaries reached by `t`.
    fn advance(&mut self, t: u64) {
        self.fill_due(t);
        if self.reprofile_at.is_empty() {
            return;
        }
        let every = self.prf.reprofile_every_cycles.max(1);
        for i in 0..self.reprofile_at.len() {
            let (kernel, at) = self.reprofile_at[i];
            if t < at {
                continue;
            }
            // the latest boundary reached; the next one after t
            let last = at + (t - at) / every * every;
            self.reprofile_at[i].1 = last + every;
            if let Some(k) = self.kernels.get_mut(kernel) {
                k.end_reprofile(last, &mut self.events);
            }
            self.fill_due(t);
            let pilot = self.warps.first_of(kernel);
            if let (Some(k), Some(p)) = (self.kernels.get_mut(kernel), pilot) {
                k.start_reprofile(p, &mut self.events);
            }
        }
    }

    /// Fills every table whose sort has finished by `t` and switches the kernel's warps per
    /// `prf.remap_policy` (a first fill from the identity, a re-fill from the generation it
    /// replaces).
    fn fill_due(&mut self, t: u64) {
        let mut filled = Vec::new();
        for k in self.kernels.iter_mut() {
            if k.advance(t, &mut self.events) {
                filled.push((k.kernel(), k.pairs().to_vec(), k.generation()));
            }
        }
        for (kernel, pairs, gen) in filled {
            if gen <= 1 {
                self.warps
                    .on_table_fill(kernel, &pairs, self.prf.remap_policy);
                continue;
            }
            let Some(k) = self.kernels.get(kernel) else {
                continue;
            };
            let n_fast = self.prf.n_fast;
            let moves = |from: u32| {
                move_requests(N_COUNTERS as u16, n_fast, &|r| k.slot_in(from, r), &|r| {
                    k.slot_in(gen, r)
                })
            };
            self.warps
                .on_table_refill(kernel, gen, self.prf.remap_policy, &moves);
        }
    }

    /// The placement of (w, reg) now, without counting anything (for the bank choice).
    fn peek_placement(&self, w: u32, reg: u16) -> Placement {
        let gen = self.warps.generation(w);
        match self.warps.kernel_of(w).and_then(|k| self.kernels.get(k)) {
            Some(p) if self.prf.enabled => p.place_gen(reg, gen, &mut RfEvents::default()),
            _ => identity_placement(reg, self.prf.n_fast),
        }
    }

    /// The bank of register `reg` of warp slot `w` under the current mapping: `bank(w, slot)`.
    pub fn bank(&self, w: u32, reg: u16) -> u32 {
        let slot = if self.prf.enabled {
            self.peek_placement(w, reg).slot
        } else {
            reg.min(u8::MAX as u16) as u8
        };
        bank_of(self.bank_map, self.n_banks, w, slot as u32)
    }

    fn latency(&self, part: Part, write: bool) -> u32 {
        let read = match part {
            Part::Mrf => self.mrf.lat,
            Part::FrfHigh => self.prf.lat_frf_high,
            Part::FrfLow => self.prf.lat_frf_low,
            Part::Srf => self.srf_latency_cycles,
            // The RF cache is routed by `RfCache`, not here.
            Part::Rfc => 1,
        };
        match (write, self.prf.write_lat) {
            (true, WriteLat::Cycles(c)) if part != Part::Mrf => c,
            _ => read,
        }
    }

    fn frf_part(&mut self, t: u64) -> Part {
        match &mut self.afrf {
            Some(d) => match d.mode_at(t, &mut self.events) {
                FrfMode::High => Part::FrfHigh,
                FrfMode::Low => Part::FrfLow,
            },
            None => Part::FrfHigh,
        }
    }

    /// Where an access of register `reg` by warp slot `w` granted at cycle `t` goes (a write
    /// when `write`), and its latency. Counts the access, the swap-table lookup if one is made,
    /// and the epochs the phase detector closes. Cycles must not decrease between calls.
    pub fn route(&mut self, w: u32, reg: u16, write: bool, t: u64) -> RfRoute {
        if !self.prf.enabled {
            self.events.access(Part::Mrf, write);
            return RfRoute {
                part: Part::Mrf,
                latency_cycles: self.latency(Part::Mrf, write),
                slot: reg.min(u8::MAX as u16) as u8,
            };
        }
        self.advance(t);
        let gen = self.warps.generation(w);
        let (placement, looked_up) = match self.warps.kernel_of(w).and_then(|k| self.kernels.get(k))
        {
            Some(p) => (p.place_gen(reg, gen, &mut self.events), p.looks_up_gen(gen)),
            None => (identity_placement(reg, self.prf.n_fast), false),
        };
        let part = if placement.fast {
            self.frf_part(t)
        } else {
            Part::Srf
        };
        self.events.access(part, write);
        let lookup = if looked_up {
            self.prf.lookup_latency
        } else {
            0
        };
        RfRoute {
            part,
            latency_cycles: self.latency(part, write) + lookup,
            slot: placement.slot,
        }
    }

    /// The next outstanding migration request of warp `w` (`prf.remap_policy = "migrate"`), to
    /// be issued as a lowest-priority bank request at `bank(w, slot)`.
    pub fn next_migration(&self, w: u32) -> Option<MigrationRequest> {
        self.warps.next_migration(w)
    }

    /// Warps with an outstanding migration request, lowest slot first.
    pub fn migrating_warps(&self) -> Vec<u32> {
        self.warps.migrating_warps()
    }

    /// The next migration request of warp `w` was granted at cycle `t`: counts it (and the
    /// access of its partition) and returns its route; the warp switches to the table after
    /// its last request.
    pub fn complete_migration(&mut self, w: u32, t: u64) -> Option<RfRoute> {
        let req = self.warps.complete_migration(w, &mut self.events)?;
        let part = if req.fast {
            self.frf_part(t)
        } else {
            Part::Srf
        };
        Some(RfRoute {
            part,
            latency_cycles: self.latency(part, req.write),
            slot: req.slot,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::prf::{LatSrf, RemapPolicy};

    const WARPS: u32 = 8;

    fn org(prf: PrfSection, afrf: AfrfSection, mrf: MrfSection) -> PartitionedRf {
        PartitionedRf::from_sections(&prf, &afrf, &mrf, 8, 24, BankMap::RegPlusWarp, WARPS, 0, 3)
    }

    fn on(n_fast: u32) -> PrfSection {
        PrfSection {
            enabled: true,
            n_fast,
            ..PrfSection::default()
        }
    }

    /// A small two-warp-CTA kernel: warps 0..4 of kernel 7, 12 registers per thread, pilot 0.
    fn launch(rf: &mut PartitionedRf) {
        rf.on_kernel_launch(7, 12, &[0, 1], 0).unwrap();
        for w in 0..4 {
            rf.on_warp_launch(w, 7, 0);
        }
    }

    /// Deterministic accesses: (cycle, warp, reg, write).
    fn accesses() -> Vec<(u64, u32, u16, bool)> {
        (0..400u64)
            .map(|i| (i, (i % 4) as u32, ((i * 7) % 12) as u16, i % 3 == 0))
            .collect()
    }

    #[test]
    fn pilot_exit_fills_the_table_and_routes_hot_registers_to_the_frf() {
        let mut rf = org(on(4), AfrfSection::default(), MrfSection::default());
        launch(&mut rf);
        // Profiling: identity, R9 in the SRF (3 cycles), R1 in the FRF (1 cycle).
        assert_eq!(rf.route(1, 9, false, 1).part, Part::Srf);
        assert_eq!(rf.route(1, 9, false, 1).latency_cycles, 3);
        assert_eq!(rf.route(1, 1, false, 1).part, Part::FrfHigh);
        for _ in 0..10 {
            rf.on_issue(0, &[9, 10], &[11], 2);
        }
        rf.on_issue(0, &[5], &[], 3);
        rf.on_warp_exit(0, 20);
        assert_eq!(rf.events().sorts, 1);
        // Instant remap: R9 now in fast slot 0, bank (0 + 1) mod 24.
        let r = rf.route(1, 9, false, 21);
        assert_eq!((r.part, r.slot, r.latency_cycles), (Part::FrfHigh, 0, 1));
        assert_eq!(rf.bank(1, 9), 1);
        assert_eq!(rf.route(1, 0, true, 21).part, Part::Srf);
        assert!(rf.events().swap_lookups >= 2);
    }

    /// §11: n = 0 routes like MRF@NTV with the same latency (every access to the slow array,
    /// same count and latency), and n = 63 with the adaptive FRF off like MRF@STV.
    #[test]
    fn limits_of_n_reproduce_the_monolithic_baselines() {
        for (n, mrf, part) in [
            (0, MrfSection::ntv(), Part::Srf),
            (63, MrfSection::stv(), Part::FrfHigh),
        ] {
            let mut p = org(on(n), AfrfSection::default(), MrfSection::default());
            let mut m = org(PrfSection::default(), AfrfSection::default(), mrf);
            launch(&mut p);
            launch(&mut m);
            for (t, w, r, wr) in accesses() {
                let a = p.route(w, r, wr, t);
                let b = m.route(w, r, wr, t);
                assert_eq!(a.latency_cycles, b.latency_cycles, "n {n} R{r}");
                assert_eq!(a.part, part);
                assert_eq!(b.part, Part::Mrf);
                assert_eq!(p.bank(w, r), m.bank(w, r));
            }
            let (ep, em) = (p.events(), m.events());
            assert_eq!(ep.reads(part), em.reads(Part::Mrf));
            assert_eq!(ep.writes(part), em.writes(Part::Mrf));
        }
        // SRF latency = FRF latency = 1 with the adaptive FRF off: MRF@STV timing for any n.
        let same = PrfSection {
            lat_srf: LatSrf::Cycles(1),
            ..on(4)
        };
        let mut p = org(same, AfrfSection::default(), MrfSection::default());
        launch(&mut p);
        assert!(accesses()
            .into_iter()
            .all(|(t, w, r, wr)| p.route(w, r, wr, t).latency_cycles == 1));
    }

    #[test]
    fn adaptive_frf_lengthens_fast_accesses_in_idle_epochs() {
        let afrf = AfrfSection {
            enabled: true,
            ..AfrfSection::default()
        };
        let mut rf = org(on(4), afrf, MrfSection::default());
        launch(&mut rf);
        assert_eq!(rf.route(1, 1, false, 10).part, Part::FrfHigh);
        // Nothing dispatched in [0, 50): the next epoch runs FRF_low (2 cycles).
        let r = rf.route(1, 1, false, 60);
        assert_eq!((r.part, r.latency_cycles), (Part::FrfLow, 2));
        for t in 60..100 {
            rf.on_dispatch(t, 8);
        }
        assert_eq!(rf.route(1, 1, false, 100).part, Part::FrfHigh);
        assert_eq!(rf.events().mode_switches, 2);
    }

    #[test]
    fn migrate_keeps_identity_until_the_moves_are_done() {
        let prf = PrfSection {
            remap_policy: RemapPolicy::Migrate,
            ..on(4)
        };
        let mut rf = org(prf, AfrfSection::default(), MrfSection::default());
        launch(&mut rf);
        rf.on_issue(0, &[9], &[], 1);
        rf.on_warp_exit(0, 5);
        assert_eq!(rf.migrating_warps(), vec![1, 2, 3]);
        assert_eq!(rf.route(1, 9, false, 6).part, Part::Srf);
        let mut parts = Vec::new();
        while let Some(r) = rf.complete_migration(1, 7) {
            parts.push((r.part, r.slot));
        }
        assert_eq!(
            parts,
            vec![
                (Part::FrfHigh, 0),
                (Part::Srf, 9),
                (Part::FrfHigh, 0),
                (Part::Srf, 9)
            ]
        );
        assert_eq!(rf.route(1, 9, false, 8).part, Part::FrfHigh);
        assert_eq!(rf.route(2, 9, false, 8).part, Part::Srf);
        // A warp launched after the fill starts on the table.
        rf.on_warp_launch(5, 7, 9);
        assert_eq!(rf.route(5, 9, false, 9).part, Part::FrfHigh);
        assert_eq!(rf.events().migration_accesses(), 4);
    }

    #[test]
    fn concurrent_kernels_use_their_own_tables() {
        let prf = PrfSection {
            max_profiled_kernels: 2,
            ..on(4)
        };
        let afrf = AfrfSection {
            enabled: true,
            ..AfrfSection::default()
        };
        let mut rf = org(prf, afrf, MrfSection::default());
        rf.on_kernel_launch(1, 12, &[0, 1], 0).unwrap();
        rf.on_kernel_launch(2, 12, &[4, 5], 0).unwrap();
        for w in 0..4 {
            rf.on_warp_launch(w, 1, 0);
            rf.on_warp_launch(w + 4, 2, 0);
        }
        rf.on_issue(0, &[9], &[], 1);
        rf.on_issue(4, &[10], &[], 1);
        rf.on_warp_exit(0, 2);
        rf.on_warp_exit(4, 2);
        // Kernel 1 promoted R9, kernel 2 R10.
        assert_eq!(rf.route(1, 9, false, 3).part, Part::FrfHigh);
        assert_eq!(rf.route(1, 10, false, 3).part, Part::Srf);
        assert_eq!(rf.route(5, 10, false, 3).part, Part::FrfHigh);
        assert_eq!(rf.route(5, 9, false, 3).part, Part::Srf);
        // One kernel ends: the epoch in progress goes on for the other.
        rf.on_kernel_exit(1, 10);
        assert_eq!(rf.events().epochs, 0);
        rf.on_kernel_exit(2, 20);
        assert_eq!(rf.events().epochs, 1);
    }

    #[test]
    fn launch_errors_name_the_knob() {
        let prf = PrfSection {
            pilot_select: crate::config::prf::PilotSelect::Index(2),
            ..on(4)
        };
        let mut rf = org(prf, AfrfSection::default(), MrfSection::default());
        let e = rf.on_kernel_launch(1, 12, &[0, 1], 0).unwrap_err();
        assert!(e.contains("'prf.pilot_select'"), "{e}");
        // A kernel that fits is not profiled: no pilot, identity, no lookups.
        let mut rf = org(on(4), AfrfSection::default(), MrfSection::default());
        rf.on_kernel_launch(1, 4, &[0, 1], 0).unwrap();
        rf.on_warp_launch(0, 1, 0);
        assert_eq!(rf.route(0, 3, false, 1).part, Part::FrfHigh);
        assert_eq!(rf.events().swap_lookups, 0);
        assert_eq!(rf.events().profiles_skipped, 1);
    }
}
