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
//!   an MRF write; under `rfc.liveness = "oracle"` only once its warp's next access proves it
//!   live, see [`RfCache`]). A warp leaving the active set (the two-level scheduler's; every
//!   live warp is active under a scheduler without one) flushes its entries.
//! - **RF-cache ports.** Each structure has its own ports and counts its own conflicts:
//!   * an operand read that hits is served by the RFC ([`PrfOrg::rfc_read`], asked by the
//!     operand collectors before the MRF bank arbitration): it takes an RFC read port of its
//!     warp's RFC bank (`rfc.read_ports` over `rfc.banks`) and no MRF bank port; with no RFC
//!     read port left in the cycle it is a counted RFC port conflict and stays queued in its
//!     collector for the next cycle. A miss takes its MRF bank's port like any MRF read;
//!   * a result of an active warp takes an RFC write port per destination instead of its MRF
//!     bank's port (asked by the writeback stage, [`PrfOrg::rfc_write_ports`]); with too few
//!     RFC write ports left the whole result waits for the next cycle (a counted conflict),
//!     as a writeback that finds its bank busy does (§2.3). A result with more destinations
//!     than its RFC bank has write ports (a register pair with `rfc.write_ports = 1`) takes
//!     every port of the bank and writes the rest in the following cycles: its write
//!     latency grows by ⌈destinations / ports⌉ − 1 cycles (those later cycles' ports are not
//!     reserved against other results: a simplification). A bypassing result (warp outside
//!     the active set) takes its MRF bank's port;
//!   * every write-back to the MRF (eviction or flush) enters a write-back queue and takes a
//!     write port of its MRF bank (`bank(w, r)`, held for `mrf.lat` under
//!     `rf.port_occupancy = "full_latency"`): an eviction by a result in the same writeback
//!     stage when a port of the bank is left after the cycle's results, otherwise at the
//!     start of a later writeback stage, ahead of that cycle's results (writebacks are
//!     granted first, §2.3). One whose bank has no port left stays queued and retries the
//!     next cycle (each refusal a counted `rfc_writeback_bank_conflicts`). Flushes (at the
//!     start of a cycle) and oracle write-backs (decided by a read miss in the read
//!     arbitration) take their ports at the next writeback stage.
//!     A read of a register whose write-back is still queued is served by the MRF read as if
//!     the queue forwarded the value (it does not wait for the write-back).
//! - **Migration** (`prf.remap_policy = "migrate"`, §5.6): each migrating warp's next request
//!   (FRF read, SRF read, FRF write, SRF write per swap pair) is issued by the operand
//!   collectors as a lowest-priority bank access: after the cycle's writebacks and operand
//!   reads, on a port of `bank(w, slot)` that is still free, holding it for its latency like
//!   any access ([`crate::timing::opcoll`]). The warp keeps the identity mapping until its last
//!   request is granted; it does not stall.
//! - **Counts.** Every access is counted by structure and kind in [`RfEvents::accesses`], and
//!   the latency sums by structure here; [`PrfOrg::record`] gives the §5.8 / §8.3 events, the
//!   FRF_low time, the epochs and the pilot's running time.

use crate::activity::{PartResidency, PrfRecord, RfPartCounts};
use crate::config::GpuConfig;
use crate::inst::PRED_BASE;
use crate::timing::policy::{MonolithicRf, RegisterFileOrg, RfPart, RfRoute as SmRoute};
use crate::timing::tinst::TInst;

use super::partitioned::PartitionedRf;
use super::rf_cache::{RfCache, RfcRead, RfcWrite};
use crate::activity::rfevents::Part;
use std::collections::VecDeque;

/// What the RF cache does with an operand read offered to it in a cycle
/// ([`PrfOrg::rfc_read`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RfcOperand {
    /// Not cached (or no RFC): the read goes to its MRF bank.
    NotCached,
    /// A hit served by an RFC read port, with its route.
    Served(SmRoute),
    /// A hit that found no RFC read port left this cycle (a counted conflict): retry.
    NoPort,
}

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
    /// RF-cache write-backs `(warp slot, register)` waiting for a write port of their MRF
    /// bank, oldest first.
    wb_queue: VecDeque<(u32, u16)>,
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
            wb_queue: VecDeque::new(),
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

    /// An RF-cache write-back of register `reg` of warp `w` to the MRF: counted as an MRF
    /// write now, queued for a port of its MRF bank.
    fn mrf_writeback(&mut self, w: u32, reg: u16) {
        self.rf.events_mut().access(Part::Mrf, true);
        self.add_latency(Part::Mrf, true, self.mrf_lat);
        self.wb_queue.push_back((w, reg));
    }

    /// True when RF-cache write-backs wait for MRF bank ports.
    #[inline]
    pub fn writebacks_queued(&self) -> bool {
        !self.wb_queue.is_empty()
    }

    /// Takes the queued write-backs (oldest first) for the writeback stage, which returns the
    /// ones it could not place with [`PrfOrg::requeue_writebacks`].
    pub fn take_writebacks(&mut self) -> VecDeque<(u32, u16)> {
        std::mem::take(&mut self.wb_queue)
    }

    /// Puts back the write-backs that found no MRF bank port this cycle (`refused` of them
    /// were refused a port; counted as conflicts); `first`: the cycle's first pass, which
    /// counts a waiting cycle when any is left.
    pub fn requeue_writebacks(&mut self, left: VecDeque<(u32, u16)>, refused: u64, first: bool) {
        let ev = self.rf.events_mut();
        ev.rfc_writeback_bank_conflicts += refused;
        if first && !left.is_empty() {
            ev.rfc_writeback_wait_cycles += 1;
        }
        self.wb_queue = left;
    }

    /// `mrf.lat`: the port-holding latency of an MRF write-back.
    pub fn mrf_latency(&self) -> u32 {
        self.mrf_lat
    }

    /// True when a result of warp `w` goes into the RF cache (an RFC is present and the warp
    /// is in the active set), so it needs RFC write ports, not MRF bank ports.
    #[inline]
    pub fn rfc_caches_writes(&self, w: u32) -> bool {
        self.rfc.as_ref().is_some_and(|c| c.is_active(w))
    }

    /// RFC write ports a warp's RFC bank offers per cycle: ⌈`rfc.write_ports` / `rfc.banks`⌉.
    pub fn rfc_write_capacity(&self) -> u32 {
        self.rfc.as_ref().map_or(0, |c| c.write_capacity())
    }

    /// RFC write ports still free for warp `w` in cycle `t`.
    pub fn rfc_write_ports(&self, w: u32, t: u64) -> u32 {
        self.rfc.as_ref().map_or(0, |c| c.free_ports(w, true, t))
    }

    /// Takes `n` RFC write ports for warp `w` in cycle `t` (after [`PrfOrg::rfc_write_ports`]
    /// said they are free).
    pub fn take_rfc_write_ports(&mut self, w: u32, n: u32, t: u64) {
        let Some(c) = self.rfc.as_mut() else {
            return;
        };
        for _ in 0..n {
            let ok = c.try_port(w, true, t, self.rf.events_mut());
            debug_assert!(ok, "an RFC write port said free was taken");
        }
    }

    /// A result was refused for lack of RFC write ports this cycle: one counted conflict.
    pub fn rfc_write_refused(&mut self) {
        let ev = self.rf.events_mut();
        ev.rfc_port_conflicts += 1;
        ev.rfc_write_port_conflicts += 1;
    }

    /// An operand read of `reg` by warp `w` offered to the RF cache in cycle `t` (module doc):
    /// a hit takes an RFC read port and is routed to the RFC here (its tag check and access
    /// counted); a miss is left to the MRF bank arbitration, which routes it with
    /// [`RegisterFileOrg::route`].
    pub fn rfc_read(&mut self, w: u32, reg: u16, t: u64) -> RfcOperand {
        let Some(c) = self.rfc.as_mut() else {
            return RfcOperand::NotCached;
        };
        if !c.probe(w, reg) {
            return RfcOperand::NotCached;
        }
        if !c.try_port(w, false, t, self.rf.events_mut()) {
            return RfcOperand::NoPort;
        }
        let r = c.read(w, reg, self.rf.events_mut());
        debug_assert_eq!(r, RfcRead::Hit);
        let lat = self.rfc_lat;
        self.rf.events_mut().access(Part::Rfc, false);
        self.add_latency(Part::Rfc, false, lat);
        RfcOperand::Served(SmRoute {
            part: RfPart::Rfc,
            latency_cycles: lat,
        })
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

    /// Residency of the structures over a kernel of `end` cycles (every entry ON throughout):
    /// the MRF, or the FRF (both modes; [`PrfRecord::frf_low_cycles`] splits them) and the SRF.
    pub fn residency(&self, end: u64) -> Vec<PartResidency> {
        let row = |part: RfPart, units: u64| PartResidency {
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
            c.drop_warp(w, self.rf.events_mut());
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
            for r in wb {
                self.mrf_writeback(w, r);
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
        if let Some(r) = writeback {
            self.mrf_writeback(w, r);
        }
        if hit {
            // the ports were taken by the caller ([`PrfOrg::rfc_read`], the writeback stage)
            let lat = self.rfc_lat;
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
