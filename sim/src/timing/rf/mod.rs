//! Register-file power mechanisms of the partitioned RF, the adaptive FRF and the RF-cache
//! baseline (register-file spec §5, §6, §7), as deterministic state machines that hold no SM
//! state beyond their own and read no configuration file, so each one is tested on its own
//! against the spec's worked example and invariants (§11):
//! - [`pilot_profiler`]: the pilot's 63 × 16-bit access counters, pilot choice, hot set;
//! - [`swap_table`]: swap pairs from the hot set, the CAM / indexed swapping table with its
//!   copies, lookup and miss rule;
//! - [`kernel_profile`]: one kernel's profiling life cycle (profile_mask, sort, fill) and the
//!   per-SM set of concurrent kernels;
//! - [`remap`]: per-warp mapping generations and migration requests (`prf.remap_policy`);
//! - [`afrf_phase`]: the adaptive-FRF epoch counter and mode;
//! - [`partition_map`]: FRF/SRF rows per bank and the bank function;
//! - [`rf_cache`]: the register-file cache (write-allocate, FIFO/LRU, write-backs, flush, ports);
//! - [`partitioned`]: [`PartitionedRf`], the per-SM organisation that routes each access
//!   (partition, FRF mode, latency, slot) from the pieces above;
//! - [`sm_org`]: [`PrfOrg`], the SM's register-file organisation built on the above (banks of
//!   physical slots, the RF cache in front of the MRF, the counts of the `Activity` record);
//!
//! Where an access goes ([`Part`]) and every overhead event count ([`RfEvents`]) are counters of
//! the `Activity` record (`crate::activity::rfevents`).
//!
//! Register ids are architectural (`u16`, R0…R62 profiled); warp ids are SM warp slots.

pub mod afrf_phase;
pub mod kernel_profile;
pub mod partition_map;
pub mod partitioned;
pub mod pilot_profiler;
pub mod remap;
pub mod rf_cache;
pub mod sm_org;
pub mod swap_table;

pub use crate::activity::rfevents::{Part, RfEvents};
pub use afrf_phase::{AfrfPhaseDetector, FrfMode};
pub use kernel_profile::{KernelProfile, KernelProfiles, ProfileState};
pub use partition_map::{balanced_rows, bank_of, PartitionMap};
pub use partitioned::{PartitionedRf, RfRoute};
pub use pilot_profiler::{hot_set, select_pilot, PilotProfiler, COUNTER_MAX, N_COUNTERS};
pub use remap::{migration_requests, pair_requests, MigrationRequest, WarpMapping, WarpMaps};
pub use rf_cache::{RfCache, RfcRead, RfcWrite};
pub use sm_org::{PrfOrg, RfcOperand};
pub use swap_table::{identity_placement, swap_pairs, Placement, SwapEntry, SwapTable};
