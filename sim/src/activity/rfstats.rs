//! `RfStats`: the register-file record the energy accounting needs (register-file spec §8, §9),
//! summed over the SMs of a launch.
//!
//! - Access counts N[p][m][k] per structure p (the FRF's two back-gate modes m are the parts
//!   `frf_high` and `frf_low`) and kind k (read, write), kept apart from the driven-lane sums
//!   Σa, so that `E_dyn = Σ_p,k E_acc(p, k)·[f_fixed·N + (1 − f_fixed)·Σa/32]` can be
//!   recomputed offline for any `f_fixed` and technology point (§4.3, §8.1). Without COMA
//!   every access drives all 32 lanes (Σa = 32·N).
//! - COMA's mask-table traffic and the collector-unit allocations, allocation stalls and
//!   occupancy integral (§4.2, §8.3, §9).
//! - TRIC's per-state residency (entry-cycles, or entry-lane-cycles with
//!   `tric.granularity = "entry_lane"`) per structure, its wake events and the cycles by which
//!   wakeups delayed operand reads (§3, §8.2).
//!
//! - The partitioned RF, the adaptive FRF, the MRF baselines and the RF cache (§5–§7, §9):
//!   [`PrfRecord`], every overhead event of §5.8 / §8.3, the FRF_low time, the epochs and the
//!   pilot's running time; the accesses of FRF_high, FRF_low, SRF, RFC and MRF are in `parts`.
//!
//! Present in a `KernelActivity` only when TRIC or COMA is on, the access latency is not 1, or
//! one of the organisations of [`PrfRecord`] runs, so that every other run's record is
//! byte-identical to one without it.

use serde::{Deserialize, Serialize};

/// Accesses to one register-file structure.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RfPartCounts {
    /// `"mrf"`, `"frf_high"`, `"frf_low"`, `"srf"` or `"rfc"`.
    pub part: String,
    /// Entry reads N[p][rd].
    pub reads: u64,
    /// Entry writes N[p][wr].
    pub writes: u64,
    /// Σ over reads of the lanes driven (32 per read without COMA).
    pub read_driven_lanes: u64,
    /// Σ over writes of the lanes driven (32 per write without COMA).
    pub write_driven_lanes: u64,
    /// Σ over reads of the access latency in cycles.
    pub read_latency_cycles: u64,
    /// Σ over writes of the access latency in cycles.
    pub write_latency_cycles: u64,
}

/// Power-state residency of one structure, in unit-cycles (a unit is an entry, or an entry
/// lane with `tric.granularity = "entry_lane"`; with an organisation that keeps no entry in a
/// power state every entry is ON). `off + drowsy + waking + on = units × cycles`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartResidency {
    /// Structure name (as [`RfPartCounts::part`]).
    pub part: String,
    /// Units of the structure, summed over SMs.
    pub units: u64,
    /// Unit-cycles OFF (power-gated, contents lost).
    pub off: u64,
    /// Unit-cycles DROWSY (retention voltage, not accessible).
    pub drowsy: u64,
    /// Unit-cycles WAKING (ramping to full Vdd; charged full leakage).
    pub waking: u64,
    /// Unit-cycles ON (full Vdd, accessible).
    pub on: u64,
    /// Σ over the structure's banks of the cycles in which every unit of the bank was OFF
    /// (register-file spec §8.2, `tric.gate_periphery_if_bank_off`: the bank's periphery is
    /// gated then). Recorded only with that knob on (0, and absent from the record, otherwise).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bank_off_cycles: u64,
}

/// What TRIC did during one kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TricStats {
    /// `tric.granularity`: `"entry"` or `"entry_lane"`.
    pub granularity: String,
    /// `tric.wake_latency` L in cycles.
    pub wake_latency: u32,
    /// DROWSY → WAKING transitions (units woken).
    pub wake_events: u64,
    /// OFF → DROWSY transitions (allocation at CTA launch with `alloc_scope = "per_cta"`).
    pub off_to_drowsy: u64,
    /// DROWSY/ON → OFF transitions (deallocation at CTA exit with `alloc_scope = "per_cta"`).
    pub to_off: u64,
    /// Σ over instructions of the cycles by which waking sources pushed the earliest read
    /// beyond the baseline's one-cycle lead (L − 1 for an instruction whose sources were all
    /// DROWSY; less when one was already waking).
    pub wake_stall_cycles: u64,
    /// Instructions with a wake stall.
    pub wake_stalled_insts: u64,
    /// Σ over writebacks of the cycles a write waited for its destination to wake
    /// (`dest_policy = "just_in_time"` with variable-latency results).
    pub write_wake_stall_cycles: u64,
    /// Accesses that found their unit OFF (a correctness violation; always 0).
    pub off_accesses: u64,
    /// Accesses that found their unit not ON (0 unless the latency rule is broken).
    pub not_on_accesses: u64,
    /// `tric.lookahead` k (0 = no look-ahead; the look-ahead fields are then absent).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub lookahead: u32,
    /// DROWSY → WAKING transitions caused by a look-ahead prediction (also in `wake_events`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lookahead_wakes: u64,
    /// Predicted units an instruction then claimed while they were awake (a hit).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lookahead_hits: u64,
    /// Predicted units that no instruction claimed before `tric.lookahead_timeout`: they went
    /// back to DROWSY after full-Vdd leakage (a wrong prediction).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lookahead_mispredicted: u64,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

/// The register-file record of one kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RfStats {
    /// `coma.enabled`.
    pub coma: bool,
    /// Lanes of one gated segment (1 for a divided wordline per lane or per-lane banks, 4 for
    /// lane quads, 32 without COMA).
    pub segment_lanes: u32,
    /// Per structure, in the order mrf, frf_high, frf_low, srf, rfc.
    pub parts: Vec<RfPartCounts>,
    /// Mask-table reads (one per register read under COMA).
    pub mask_table_reads: u64,
    /// Mask-table writes (one per collector-unit allocation under COMA).
    pub mask_table_writes: u64,
    /// Collector units allocated.
    pub cu_allocs: u64,
    /// Scheduler-cycles in which issue stalled for want of a free collector unit.
    pub cu_alloc_stalls: u64,
    /// Σ over cycles of busy collector units.
    pub cu_occupied_cycles: u64,
    /// Reads not granted because another read took the bank port (bank-cycles).
    pub conflicts_read_read: u64,
    /// Reads not granted because a write took the bank port (bank-cycles).
    pub conflicts_write_read: u64,
    /// Per-state residency per structure (every entry ON throughout without TRIC).
    pub residency: Vec<PartResidency>,
    /// TRIC's record, when `tric.enabled`.
    pub tric: Option<TricStats>,
    /// The partitioned RF / adaptive FRF / MRF baseline / RF cache record, when one of them
    /// runs (`prf.enabled`, `afrf.enabled`, `rfc.enabled` or a non-default `[mrf]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prf: Option<PrfRecord>,
}

/// What the partitioned RF, the adaptive FRF, an MRF baseline or the RF cache did during one
/// kernel, summed over SMs (register-file spec §5.8, §6, §7, §8.3, §9).
///
/// The operand accesses by structure are also in [`RfStats::parts`] (`events.accesses` holds
/// the same counts; RF-cache write-backs are MRF writes there). Migration accesses
/// (`prf.remap_policy = "migrate"`) are only in the `migration_*` events, not in `parts`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrfRecord {
    /// `prf.enabled`: the FRF/SRF partition ran (false for the MRF baselines and the RF cache).
    pub enabled: bool,
    /// `rfc.enabled`: the RF cache ran in front of the MRF.
    pub rfc: bool,
    /// Every overhead event and the accesses by structure.
    pub events: super::RfEvents,
    /// SM-cycles the FRF spent in FRF_low (Σ over SMs; by epoch mode).
    pub frf_low_cycles: u64,
    /// Completed adaptive-FRF epochs (the partial last one included), Σ over SMs.
    pub epochs: u64,
    /// Epochs that ran FRF_low.
    pub epochs_low: u64,
    /// FRF mode switches.
    pub mode_switches: u64,
    /// `prf.n_fast` (0 without the partition).
    pub n_fast: u32,
    /// SRF latency in force, cycles.
    pub srf_latency_cycles: u32,
    /// Σ over SMs of the pilot warp's running time (launch to exit; to the kernel's end if it
    /// did not exit), cycles: over `sm_cycles` it is the pilot's share of kernel time.
    pub pilot_cycles: u64,
    /// Σ over SMs of the kernel's cycles on the SM (the denominator of the FRF_low and pilot
    /// shares).
    pub sm_cycles: u64,
}

impl PrfRecord {
    /// Element-wise sum (SMs of a launch, launches of a kernel).
    pub fn merge(&mut self, o: &PrfRecord) {
        // the same configuration on every SM and launch: the settings agree
        self.enabled |= o.enabled;
        self.rfc |= o.rfc;
        self.n_fast = self.n_fast.max(o.n_fast);
        self.srf_latency_cycles = self.srf_latency_cycles.max(o.srf_latency_cycles);
        self.events.add(&o.events);
        self.frf_low_cycles += o.frf_low_cycles;
        self.epochs += o.epochs;
        self.epochs_low += o.epochs_low;
        self.mode_switches += o.mode_switches;
        self.pilot_cycles += o.pilot_cycles;
        self.sm_cycles += o.sm_cycles;
    }
}

impl RfStats {
    /// Element-wise sum (launches of one kernel, the aggregate, the SMs of a launch).
    pub fn merge(&mut self, o: &RfStats) {
        if self.parts.is_empty() {
            self.coma = o.coma;
            self.segment_lanes = o.segment_lanes;
        }
        for p in &o.parts {
            match self.parts.iter_mut().find(|x| x.part == p.part) {
                Some(x) => {
                    x.reads += p.reads;
                    x.writes += p.writes;
                    x.read_driven_lanes += p.read_driven_lanes;
                    x.write_driven_lanes += p.write_driven_lanes;
                    x.read_latency_cycles += p.read_latency_cycles;
                    x.write_latency_cycles += p.write_latency_cycles;
                }
                None => self.parts.push(p.clone()),
            }
        }
        self.mask_table_reads += o.mask_table_reads;
        self.mask_table_writes += o.mask_table_writes;
        self.cu_allocs += o.cu_allocs;
        self.cu_alloc_stalls += o.cu_alloc_stalls;
        self.cu_occupied_cycles += o.cu_occupied_cycles;
        self.conflicts_read_read += o.conflicts_read_read;
        self.conflicts_write_read += o.conflicts_write_read;
        for r in &o.residency {
            match self.residency.iter_mut().find(|x| x.part == r.part) {
                Some(x) => {
                    x.units = x.units.max(r.units);
                    x.off += r.off;
                    x.drowsy += r.drowsy;
                    x.waking += r.waking;
                    x.on += r.on;
                    x.bank_off_cycles += r.bank_off_cycles;
                }
                None => self.residency.push(r.clone()),
            }
        }
        match (&mut self.tric, &o.tric) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.tric = Some(b.clone()),
            _ => {}
        }
        match (&mut self.prf, &o.prf) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.prf = Some(b.clone()),
            _ => {}
        }
    }

    /// Mean driven fraction of an access, Σa / (32·N) over every structure and kind (1 without
    /// COMA); `None` with no accesses.
    pub fn driven_fraction(&self) -> Option<f64> {
        let n: u64 = self.parts.iter().map(|p| p.reads + p.writes).sum();
        let a: u64 = self
            .parts
            .iter()
            .map(|p| p.read_driven_lanes + p.write_driven_lanes)
            .sum();
        (n > 0).then(|| a as f64 / (32.0 * n as f64))
    }

    /// Unit-cycles in all states of every structure.
    pub fn total_unit_cycles(&self) -> u64 {
        self.residency
            .iter()
            .map(|r| r.off + r.drowsy + r.waking + r.on)
            .sum()
    }
}

impl RfStats {
    /// The register-file techniques' lines of the text summary: TRIC's wake events and stalls
    /// (with its look-ahead's early wakes) and COMA's driven-lane fraction and mask-table
    /// accesses (register-file spec §9). `warp_insts` scales the per-kilo-instruction rate;
    /// `wake_latency_derived` marks a wake latency derived from the technology point.
    pub fn technique_text(&self, warp_insts: u64, wake_latency_derived: bool) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        if let Some(tr) = &self.tric {
            let _ = writeln!(
                s,
                "  TRIC ({}, L = {}{}): {} wake events ({:.1} per kilo-instruction), {} wake-stall \
                 cycles over {} instructions, {} write wake-stall cycles",
                tr.granularity,
                tr.wake_latency,
                if wake_latency_derived { " derived" } else { "" },
                tr.wake_events,
                1000.0 * tr.wake_events as f64 / warp_insts.max(1) as f64,
                tr.wake_stall_cycles,
                tr.wake_stalled_insts,
                tr.write_wake_stall_cycles
            );
            if tr.lookahead > 0 {
                let _ = writeln!(
                    s,
                    "  look-ahead k = {}: {} early wakes, {} claimed by an instruction, {} timed \
                     out (mispredicted)",
                    tr.lookahead, tr.lookahead_wakes, tr.lookahead_hits, tr.lookahead_mispredicted
                );
            }
        }
        let _ = writeln!(
            s,
            "  COMA {}: driven-lane fraction {:.4} (segments of {} lanes); mask table {} reads, \
             {} writes",
            if self.coma { "on" } else { "off" },
            self.driven_fraction().unwrap_or(0.0),
            self.segment_lanes,
            self.mask_table_reads,
            self.mask_table_writes
        );
        s
    }
}

impl TricStats {
    /// Element-wise sum.
    pub fn merge(&mut self, o: &TricStats) {
        if self.granularity.is_empty() {
            self.granularity = o.granularity.clone();
            self.wake_latency = o.wake_latency;
        }
        self.wake_events += o.wake_events;
        self.off_to_drowsy += o.off_to_drowsy;
        self.to_off += o.to_off;
        self.wake_stall_cycles += o.wake_stall_cycles;
        self.wake_stalled_insts += o.wake_stalled_insts;
        self.write_wake_stall_cycles += o.write_wake_stall_cycles;
        self.off_accesses += o.off_accesses;
        self.not_on_accesses += o.not_on_accesses;
        self.lookahead = self.lookahead.max(o.lookahead);
        self.lookahead_wakes += o.lookahead_wakes;
        self.lookahead_hits += o.lookahead_hits;
        self.lookahead_mispredicted += o.lookahead_mispredicted;
    }
}
