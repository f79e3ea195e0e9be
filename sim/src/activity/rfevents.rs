//! Where a register access goes ([`Part`]) and the overhead event counts of the partitioned RF,
//! the adaptive FRF and the RF cache ([`RfEvents`], register-file spec §5.8 and the `N_*` terms
//! of §8.3), which the energy model multiplies by per-event energies.

use serde::{Deserialize, Serialize};

/// The structure that serves one register access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Part {
    /// The monolithic register file (the baseline, or the backing store of the RF cache).
    Mrf,
    /// The fast RF in FRF_high mode (back gate at Vdd).
    FrfHigh,
    /// The fast RF in FRF_low mode (back gate at GND).
    FrfLow,
    /// The slow RF (near-threshold).
    Srf,
    /// The register-file cache.
    Rfc,
}

impl Part {
    /// Every part, in the order of [`RfEvents::accesses`].
    pub const ALL: [Part; 5] = [Part::Mrf, Part::FrfHigh, Part::FrfLow, Part::Srf, Part::Rfc];

    /// Index into [`RfEvents::accesses`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// True for the two FRF modes.
    pub fn is_frf(self) -> bool {
        matches!(self, Part::FrfHigh | Part::FrfLow)
    }
}

/// Event counts of the register-file mechanisms (all plain counts; energies come from models).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RfEvents {
    /// Accesses per part (index [`Part::index`]) and kind (0 = read, 1 = write).
    pub accesses: [[u64; 2]; 5],
    /// Swap-table lookups (one per access while profile_mask = 0), `N_lookup`.
    pub swap_lookups: u64,
    /// Pilot access-counter increments (saturated increments included), `N_pilot_acc`.
    pub pilot_counter_increments: u64,
    /// Times every counter was halved (`prf.counter_overflow = "halve_all"`).
    pub counter_halvings: u64,
    /// Counter sorts (one per profiled kernel whose pilot exited), `N_sort`.
    pub sorts: u64,
    /// Swap-table entry writes, every copy counted (2n × copies per fill), `N_tablefill`.
    pub table_writes: u64,
    /// Kernels not profiled because they fit in the FRF (`prf.skip_if_fits`).
    pub profiles_skipped: u64,
    /// Kernels beyond `prf.max_profiled_kernels`, run with the identity mapping.
    pub kernels_unprofiled: u64,
    /// Completed adaptive-FRF epochs, `N_epoch`.
    pub epochs: u64,
    /// Epochs that ran in FRF_low.
    pub epochs_low: u64,
    /// FRF mode switches, `N_mode_switch`.
    pub mode_switches: u64,
    /// Migration reads of the FRF (`prf.remap_policy = "migrate"`).
    pub migration_frf_reads: u64,
    /// Migration reads of the SRF.
    pub migration_srf_reads: u64,
    /// Migration writes of the FRF.
    pub migration_frf_writes: u64,
    /// Migration writes of the SRF.
    pub migration_srf_writes: u64,
    /// RF-cache tag checks on operand reads.
    pub rfc_read_tag_checks: u64,
    /// RF-cache tag checks on writes (finding a resident copy to update).
    pub rfc_write_tag_checks: u64,
    /// RF-cache read hits.
    pub rfc_read_hits: u64,
    /// RF-cache read misses (served by the MRF).
    pub rfc_read_misses: u64,
    /// RF-cache entry writes (results, and read-miss fills when allocating on read misses).
    pub rfc_writes: u64,
    /// Write-backs to the MRF of evicted dirty entries.
    pub rfc_eviction_writebacks: u64,
    /// Write-backs to the MRF of dirty entries flushed when their warp left the active set.
    pub rfc_flush_writebacks: u64,
    /// Dirty entries dropped without a write-back because they were dead (`rfc.liveness =
    /// "oracle"`).
    pub rfc_dead_drops: u64,
    /// RF-cache accesses refused in their cycle for lack of an RFC port (reads and writes;
    /// the refused access retries the next cycle).
    pub rfc_port_conflicts: u64,
    /// The write part of `rfc_port_conflicts`: results refused an RFC write port.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rfc_write_port_conflicts: u64,
    /// RF-cache write-backs refused in their cycle because their MRF bank had no write port
    /// left (they stay queued and retry the next cycle).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rfc_writeback_bank_conflicts: u64,
    /// Cycles in which at least one RF-cache write-back waited in the write-back queue.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rfc_writeback_wait_cycles: u64,
    /// Re-profiling rounds started within kernels (`prf.reprofile_every_cycles`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reprofiles: u64,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

impl RfEvents {
    /// Counts one access of `part` (`write` = false for a read).
    pub fn access(&mut self, part: Part, write: bool) {
        self.accesses[part.index()][write as usize] += 1;
    }

    /// Reads of `part`.
    pub fn reads(&self, part: Part) -> u64 {
        self.accesses[part.index()][0]
    }

    /// Writes of `part`.
    pub fn writes(&self, part: Part) -> u64 {
        self.accesses[part.index()][1]
    }

    /// Every migration access (reads and writes of both partitions).
    pub fn migration_accesses(&self) -> u64 {
        self.migration_frf_reads
            + self.migration_srf_reads
            + self.migration_frf_writes
            + self.migration_srf_writes
    }

    /// Every RF-cache write-back to the MRF.
    pub fn rfc_writebacks(&self) -> u64 {
        self.rfc_eviction_writebacks + self.rfc_flush_writebacks
    }

    /// Adds `o` into `self` (per-SM records into a GPU total).
    pub fn add(&mut self, o: &RfEvents) {
        for (a, b) in self.accesses.iter_mut().zip(o.accesses.iter()) {
            a[0] += b[0];
            a[1] += b[1];
        }
        self.swap_lookups += o.swap_lookups;
        self.pilot_counter_increments += o.pilot_counter_increments;
        self.counter_halvings += o.counter_halvings;
        self.sorts += o.sorts;
        self.table_writes += o.table_writes;
        self.profiles_skipped += o.profiles_skipped;
        self.kernels_unprofiled += o.kernels_unprofiled;
        self.epochs += o.epochs;
        self.epochs_low += o.epochs_low;
        self.mode_switches += o.mode_switches;
        self.migration_frf_reads += o.migration_frf_reads;
        self.migration_srf_reads += o.migration_srf_reads;
        self.migration_frf_writes += o.migration_frf_writes;
        self.migration_srf_writes += o.migration_srf_writes;
        self.rfc_read_tag_checks += o.rfc_read_tag_checks;
        self.rfc_write_tag_checks += o.rfc_write_tag_checks;
        self.rfc_read_hits += o.rfc_read_hits;
        self.rfc_read_misses += o.rfc_read_misses;
        self.rfc_writes += o.rfc_writes;
        self.rfc_eviction_writebacks += o.rfc_eviction_writebacks;
        self.rfc_flush_writebacks += o.rfc_flush_writebacks;
        self.rfc_dead_drops += o.rfc_dead_drops;
        self.rfc_port_conflicts += o.rfc_port_conflicts;
        self.rfc_write_port_conflicts += o.rfc_write_port_conflicts;
        self.rfc_writeback_bank_conflicts += o.rfc_writeback_bank_conflicts;
        self.rfc_writeback_wait_cycles += o.rfc_writeback_wait_cycles;
        self.reprofiles += o.reprofiles;
    }
}
