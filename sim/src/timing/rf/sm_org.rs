//! [`PrfOrg`]: the partitioned RF, the adaptive FRF, the MRF baselines and the RF cache as the
//! SM's register-file organisation (register-file spec §2.3, §5, §6, §7.1, §7.2, §7.4).
//!
//! The SM selects it ([`PrfOrg::wanted`]) when `prf.enabled`, `afrf.enabled` or `rfc.enabled`
//! is on or `[mrf]` is not the default (MRF@NTV: `mrf.lat = 3` with the partition off). It
//! wraps [`PartitionedRf`] (routing, profiling, epochs) and, with `rfc.enabled`, an [`RfCache`]
//! in front of the MRF:
//!
//! - **Banks.** A register's bank is the baseline bank function (`rf.bank_map`, sub-cores) of
//!   its *physical slot* (§5.2): the slot equals the register without the partition or under
//!   the identity mapping, and the swap-table slot once a warp uses the table. FRF and SRF
//!   halves share the bank's port, so conflicts and `rf.port_occupancy` are the baseline's.
//!   The bank of an operand read is taken when the instruction enters its collector; a mapping
//!   switch between that and the grant routes the access with the new mapping (the read keeps
//!   its queue).
//! - **Latency.** Every access takes its structure's latency from the grant (`prf.lat_*`,
//!   `mrf.lat`, `rfc.lat`; §5.3), plus `prf.lookup_latency` for a swap-table lookup.
//! - **RF cache (§7.4).** A read first checks the RFC's tags: a hit is served by the RFC in
//!   `rfc.lat`, a miss by the MRF (no allocation unless `rfc.alloc_on_read_miss`). A result of a
//!   warp in the active set is written into the RFC (write-allocate); one of a warp outside it
//!   goes to the MRF. An evicted or flushed dirty value is written back to the MRF (counted as
//!   an MRF write). A warp leaving the active set (the two-level scheduler's; every live warp
//!   is active under a scheduler without one) flushes its entries. Operand reads keep the bank
//!   arbitration of the MRF whether they hit or not: an RFC hit takes its register's MRF bank
//!   slot in its grant cycle (the collector's path to the bank), so the RFC changes latencies
//!   and energy, not the bank-conflict count. An RFC access that finds no free RFC port in its
//!   cycle (`rfc.read_ports` / `rfc.write_ports` per cycle over all RFC banks) is counted as a
//!   port conflict and served one cycle later. Write-backs occupy no bank port (they are
//!   counted for energy only).
//! - **Migration** (`prf.remap_policy = "migrate"`, §5.6): each migrating warp's next request
//!   (FRF read, SRF read, FRF write, SRF write per swap pair) is issued by the operand
//!   collectors as a lowest-priority bank access: after the cycle's writebacks and operand
//!   reads, on a port of `bank(w, slot)` that is still free, holding it for its latency like
//!   any access ([`crate::timing::opcoll`]). The warp keeps the identity mapping until its last
//!   request is granted; it does not stall.
//! - **Counts.** Every access is counted by structure and kind in [`RfEvents::accesses`], and
//!   the latency sums by structure here; [`PrfOrg::record`] gives the §5.8 / §8.3 events, the
//!   FRF_low time, the epochs and the pilot's running time.

use crate::activity::{PrfRecord, RfPartCounts, TricResidency};
use crate::config::GpuConfig;
use crate::inst::PRED_BASE;
use crate::timing::policy::{MonolithicRf, RegisterFileOrg, RfPart, RfRoute as SmRoute};
use crate::timing::tinst::TInst;

use super::events::Part;
use super::partitioned::PartitionedRf;
use super::rf_cache::{RfCache, RfcRead, RfcWrite};

/// The register-file organisation of one SM with the partitioned RF, the adaptive FRF, an MRF
/// baseline or the RF cache (module doc).
pub struct PrfOrg {
    rf: PartitionedRf,
    /// The baseline bank function, applied to physical slots.
    mono: MonolithicRf,
    rfc: Option<RfCache>,
    rfc_lat: u32,
    /// `mrf.lat`: the MRF behind the RF cache.
    mrf_lat: u32,
    /// `rfc.alloc_on_read_miss`.
    alloc_on_read_miss: bool,
    partitioned: bool,
    /// `prf.remap_policy = "migrate"` with the partition on.
    migrate: bool,
    n_fast: u32,
    max_warps: u32,
    rf_entries: u64,
    /// Σ latency per structure ([`Part::index`]) and kind (0 read, 1 write), cycles.
    lat_sum: [[u64; 2]; 5],
    /// The pilot warp slot of the running kernel, when profiled.
    pilot: Option<u32>,
    pilot_start: Option<u64>,
    pilot_end: Option<u64>,
    kernel_start: u64,
    /// Per warp slot: in the active set as last told.
    active: Vec<bool>,
    /// `prf.lat_srf = "derived"` reached the simulator unresolved (refused at launch).
    srf_unresolved: bool,
}

/// The SM's structure of a mechanism's part.
fn sm_part(p: Part) -> RfPart {
    match p {
        Part::Mrf => RfPart::Mrf,
        Part::FrfHigh => RfPart::FrfHigh,
        Part::FrfLow => RfPart::FrfLow,
        Part::Srf => RfPart::Srf,
        Part::Rfc => RfPart::Rfc,
    }
}

impl PrfOrg {
    /// Whether `cfg` needs this organisation rather than the plain monolithic file.
    pub fn wanted(cfg: &GpuConfig) -> bool {
        cfg.prf.enabled || cfg.afrf.enabled || cfg.rfc.enabled || !cfg.mrf.is_default()
    }

    /// The organisation of one SM of `cfg` (SM 0 until [`PrfOrg::set_sm`]). A
    /// `prf.lat_srf = "derived"` must have been resolved to cycles by the caller (the kernel
    /// launch refuses it otherwise).
    pub fn new(cfg: &GpuConfig) -> Self {
        PrfOrg {
            rf: PartitionedRf::new(cfg, 0, 1),
            mono: MonolithicRf::new(cfg),
            rfc: cfg
                .rfc
                .enabled
                .then(|| RfCache::new(&cfg.rfc, cfg.sm.max_warps)),
            rfc_lat: cfg.rfc.lat.max(1),
            mrf_lat: cfg.mrf.lat.max(1),
            alloc_on_read_miss: cfg.rfc.alloc_on_read_miss,
            partitioned: cfg.prf.enabled,
            migrate: cfg.prf.enabled
                && cfg.prf.remap_policy == crate::config::prf::RemapPolicy::Migrate,
            n_fast: cfg.prf.n_fast,
            max_warps: cfg.sm.max_warps,
            rf_entries: (cfg.sm.n_registers / cfg.gpu.warp_size.max(1)) as u64,
            lat_sum: [[0; 2]; 5],
            pilot: None,
            pilot_start: None,
            pilot_end: None,
            kernel_start: 0,
            active: vec![false; cfg.sm.max_warps as usize],
            srf_unresolved: cfg.prf.enabled
                && cfg.prf.lat_srf == crate::config::prf::LatSrf::Derived,
        }
    }

    /// Rebuilds the organisation for SM `sm` (the pilot draw of
    /// `prf.pilot_select = "random_in_first_cta"` depends on it).
    pub fn set_sm(&mut self, cfg: &GpuConfig, sm: u32) {
        self.rf = PartitionedRf::new(cfg, sm, 1);
    }

    /// The wrapped partitioned RF (routing state and events).
    pub fn partitioned(&self) -> &PartitionedRf {
        &self.rf
    }

    /// Mutable access for the operand collectors' migration requests.
    pub fn partitioned_mut(&mut self) -> &mut PartitionedRf {
        &mut self.rf
    }

    /// Whether any warp has a migration request outstanding.
    pub fn migrating(&self) -> bool {
        self.migrate && !self.rf.migrating_warps().is_empty()
    }

    /// The bank of physical slot `slot` of warp `w` on scheduler `sched`.
    pub fn slot_bank(&self, w: u32, sched: u32, slot: u8) -> u32 {
        self.mono.bank(w, sched, slot as u16)
    }

    /// Counts an access's latency under its structure.
    fn add_latency(&mut self, part: Part, write: bool, lat: u32) {
        self.lat_sum[part.index()][write as usize] += lat as u64;
    }

    /// An access of the MRF not routed by the SM (an RF-cache write-back).
    fn mrf_writeback(&mut self) {
        self.rf.events_mut().access(Part::Mrf, true);
        self.add_latency(Part::Mrf, true, self.mrf_lat);
    }

    /// An RFC port for warp `w` at `t`: 0 extra cycles when free, 1 (a counted conflict) when
    /// the cycle's ports are taken.
    fn rfc_port_delay(&mut self, w: u32, write: bool, t: u64) -> u32 {
        let Some(c) = self.rfc.as_mut() else {
            return 0;
        };
        if c.try_port(w, write, t, self.rf.events_mut()) {
            0
        } else {
            1
        }
    }

    /// The kernel ended on this SM at cycle `end`: closes the adaptive-FRF epochs.
    pub fn finish(&mut self, end: u64) {
        self.rf.on_kernel_exit(0, end);
    }

    /// Per-structure counts (32 driven lanes per access: the caller replaces them with the
    /// monitor's when COMA records lanes).
    pub fn part_counts(&self) -> Vec<RfPartCounts> {
        let ev = self.rf.events();
        RfPart::ALL
            .iter()
            .map(|&p| {
                let i = p.index();
                RfPartCounts {
                    part: p.name().to_string(),
                    reads: ev.accesses[i][0],
                    writes: ev.accesses[i][1],
                    read_driven_lanes: 32 * ev.accesses[i][0],
                    write_driven_lanes: 32 * ev.accesses[i][1],
                    read_latency_cycles: self.lat_sum[i][0],
                    write_latency_cycles: self.lat_sum[i][1],
                }
            })
            .collect()
    }

    /// Residency of the structures over a kernel of `end` cycles (no TRIC: every entry ON):
    /// the MRF, or the FRF (both modes; [`PrfRecord::frf_low_cycles`] splits them) and the SRF.
    pub fn residency(&self, end: u64) -> Vec<TricResidency> {
        let row = |part: RfPart, units: u64| TricResidency {
            part: part.name().to_string(),
            units,
            on: units * end,
            ..Default::default()
        };
        if self.partitioned {
            let frf = (self.n_fast as u64 * self.max_warps as u64).min(self.rf_entries);
            vec![
                row(RfPart::FrfHigh, frf),
                row(RfPart::Srf, self.rf_entries - frf),
            ]
        } else {
            vec![row(RfPart::Mrf, self.rf_entries)]
        }
    }

    /// The partitioned-RF record of this SM for a kernel that ended at `end` (call
    /// [`PrfOrg::finish`] first).
    pub fn record(&self, end: u64) -> PrfRecord {
        let ev = self.rf.events().clone();
        let pilot_cycles = match (self.pilot_start, self.pilot_end) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            (Some(a), None) => end.saturating_sub(a),
            _ => 0,
        };
        PrfRecord {
            enabled: self.partitioned,
            rfc: self.rfc.is_some(),
            n_fast: if self.partitioned { self.n_fast } else { 0 },
            srf_latency_cycles: self.rf.srf_latency_cycles(),
            frf_low_cycles: self.rf.frf_low_cycles(),
            epochs: ev.epochs,
            epochs_low: ev.epochs_low,
            mode_switches: ev.mode_switches,
            pilot_cycles,
            sm_cycles: end.saturating_sub(self.kernel_start),
            events: ev,
        }
    }
}

impl RegisterFileOrg for PrfOrg {
    #[inline]
    fn bank(&self, w: u32, sched: u32, reg: u16) -> u32 {
        let slot = if self.partitioned {
            self.rf.slot(w, reg) as u16
        } else {
            reg
        };
        self.mono.bank(w, sched, slot)
    }

    fn route(&mut self, w: u32, reg: u16, write: bool, t: u64) -> SmRoute {
        if self.rfc.is_some() {
            return self.route_cached(w, reg, write, t);
        }
        let r = self.rf.route(w, reg, write, t);
        let lat = r.latency_cycles.max(1);
        self.add_latency(r.part, write, lat);
        SmRoute {
            part: sm_part(r.part),
            latency_cycles: lat,
        }
    }

    fn on_kernel_start(
        &mut self,
        regs_per_thread: u32,
        warps_per_cta: u32,
        t: u64,
    ) -> Result<(), String> {
        if self.srf_unresolved {
            return Err(
                "'prf.lat_srf' = \"derived\" reached the simulator unresolved: the \
                        caller fills in the cycles from the SRAM model (the gpuenergy CLI does); \
                        give a number of cycles"
                    .into(),
            );
        }
        let first: Vec<u32> = (0..warps_per_cta).collect();
        self.kernel_start = t;
        self.rf.on_kernel_launch(0, regs_per_thread, &first, t)?;
        self.pilot = self.rf.kernels().get(0).and_then(|k| k.pilot());
        Ok(())
    }

    fn on_warp_launch(&mut self, w: u32, t: u64) {
        self.rf.on_warp_launch(w, 0, t);
        if self.pilot == Some(w) && self.pilot_start.is_none() {
            self.pilot_start = Some(t);
        }
    }

    fn on_warp_exit(&mut self, w: u32, t: u64) {
        if self.pilot == Some(w) && self.pilot_start.is_some() && self.pilot_end.is_none() {
            self.pilot_end = Some(t);
        }
        if let Some(c) = self.rfc.as_mut() {
            // the warp's registers are dead: its entries go without write-backs
            c.drop_warp(w);
            if let Some(a) = self.active.get_mut(w as usize) {
                *a = false;
            }
        }
        self.rf.on_warp_exit(w, t);
    }

    #[inline]
    fn on_issue(&mut self, w: u32, inst: &TInst, t: u64) {
        if !self.partitioned {
            return;
        }
        let mut srcs = [0u16; 8];
        let mut ns = 0;
        for &r in &inst.src[..inst.n_src as usize] {
            if r < PRED_BASE && ns < srcs.len() {
                srcs[ns] = r;
                ns += 1;
            }
        }
        let mut dsts = [0u16; 8];
        let mut nd = 0;
        for &r in &inst.dst[..inst.n_dst as usize] {
            if r < PRED_BASE && nd < dsts.len() {
                dsts[nd] = r;
                nd += 1;
            }
        }
        self.rf.on_issue(w, &srcs[..ns], &dsts[..nd], t);
    }

    #[inline]
    fn on_dispatch(&mut self, _w: u32, t: u64) {
        self.rf.on_dispatch(t, 1);
    }

    fn wants_active_set(&self) -> bool {
        self.rfc.is_some()
    }

    fn on_active_set(&mut self, w: u32, active: bool, _t: u64) {
        let Some(c) = self.rfc.as_mut() else {
            return;
        };
        if self.active.len() <= w as usize {
            self.active.resize(w as usize + 1, false);
        }
        self.active[w as usize] = active;
        if active {
            c.enter_active(w);
        } else {
            let wb = c.leave_active(w, self.rf.events_mut());
            for _ in wb {
                self.mrf_writeback();
            }
        }
    }
}

impl PrfOrg {
    /// An access with the RF cache in front of the MRF (module doc).
    fn route_cached(&mut self, w: u32, reg: u16, write: bool, t: u64) -> SmRoute {
        let c = self.rfc.as_mut().expect("RF cache present");
        let (hit, writeback) = if write {
            match c.write(w, reg, self.rf.events_mut()) {
                RfcWrite::Cached { writeback } => (true, writeback),
                RfcWrite::Bypass => (false, None),
            }
        } else {
            match c.read(w, reg, self.rf.events_mut()) {
                RfcRead::Hit => (true, None),
                RfcRead::Miss { writeback } => {
                    if self.alloc_on_read_miss && c.is_active(w) {
                        // the miss fill wrote the RFC
                        self.rf.events_mut().access(Part::Rfc, true);
                        self.add_latency(Part::Rfc, true, self.rfc_lat);
                    }
                    (false, writeback)
                }
            }
        };
        if writeback.is_some() {
            self.mrf_writeback();
        }
        if hit {
            let lat = self.rfc_lat + self.rfc_port_delay(w, write, t);
            self.rf.events_mut().access(Part::Rfc, write);
            self.add_latency(Part::Rfc, write, lat);
            SmRoute {
                part: RfPart::Rfc,
                latency_cycles: lat,
            }
        } else {
            let r = self.rf.route(w, reg, write, t);
            let lat = r.latency_cycles.max(1);
            self.add_latency(r.part, write, lat);
            SmRoute {
                part: sm_part(r.part),
                latency_cycles: lat,
            }
        }
    }
}
