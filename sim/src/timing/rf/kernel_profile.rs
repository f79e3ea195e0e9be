//! The profiling state of one kernel on one SM and its life cycle (register-file spec §5.4,
//! §5.5, §5.7): profile_mask, pilot id, counters, the sort when the pilot exits and the fill of
//! the swap table `prf.sort_latency` cycles later.
//!
//! States: `Profiling` (profile_mask = 1, the table is bypassed, identity mapping, the pilot's
//! accesses count) → the pilot exits: profile_mask ← 0, one sort, the pairs are built →
//! `Sorting` until `exit + sort_latency` (profile_mask = 0, so accesses look the still empty
//! table up and the miss rule applies) → `Mapped` (the table is filled, 2n writes × copies).
//! A kernel that fits in the FRF (`skip_if_fits`) or exceeds `max_profiled_kernels` is
//! `Bypassed`: identity mapping and no table lookups.

use crate::config::prf::{MissRule, PrfSection};

use super::events::RfEvents;
use super::pilot_profiler::PilotProfiler;
use super::swap_table::{identity_placement, swap_pairs, Placement, SwapTable};

/// Where a kernel's profiling stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProfileState {
    /// profile_mask = 1: the pilot runs, the table is bypassed.
    Profiling,
    /// The pilot exited; the table is filled at `fill_at`.
    Sorting {
        /// Cycle of the table fill.
        fill_at: u64,
    },
    /// The table is filled.
    Mapped,
    /// No profiling for this kernel: identity mapping, no lookups.
    Bypassed,
}

/// Profiling state of one kernel on one SM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelProfile {
    kernel: u32,
    pilot: Option<u32>,
    profiler: PilotProfiler,
    table: SwapTable,
    state: ProfileState,
    pairs: Vec<(u8, u8)>,
    n_fast: u32,
    sort_latency: u64,
    miss_rule: MissRule,
}

impl KernelProfile {
    /// Kernel launch with pilot warp slot `pilot` (`None`: the kernel is not profiled).
    pub fn new(kernel: u32, pilot: Option<u32>, cfg: &PrfSection) -> Self {
        KernelProfile {
            kernel,
            pilot,
            profiler: PilotProfiler::new(cfg.counter_overflow, cfg.count_dup_sources),
            table: SwapTable::new(cfg.swap_table, cfg.n_fast, cfg.table_copies),
            state: if pilot.is_some() {
                ProfileState::Profiling
            } else {
                ProfileState::Bypassed
            },
            pairs: Vec::new(),
            n_fast: cfg.n_fast,
            sort_latency: cfg.sort_latency as u64,
            miss_rule: cfg.miss_rule,
        }
    }

    /// Kernel id.
    pub fn kernel(&self) -> u32 {
        self.kernel
    }

    /// The pilot warp slot while it is profiled.
    pub fn pilot(&self) -> Option<u32> {
        self.pilot
    }

    /// profile_mask: true while the pilot is being profiled.
    pub fn profile_mask(&self) -> bool {
        self.state == ProfileState::Profiling
    }

    /// The state.
    pub fn state(&self) -> ProfileState {
        self.state
    }

    /// The counters.
    pub fn profiler(&self) -> &PilotProfiler {
        &self.profiler
    }

    /// The swap table.
    pub fn table(&self) -> &SwapTable {
        &self.table
    }

    /// The swap pairs (known from the sort on).
    pub fn pairs(&self) -> &[(u8, u8)] {
        &self.pairs
    }

    /// True once the table is filled.
    pub fn table_filled(&self) -> bool {
        self.state == ProfileState::Mapped
    }

    /// An instruction of warp `w` with register sources `srcs` and destinations `dsts`: counted
    /// when `w` is the pilot and profile_mask is set.
    pub fn on_instruction(&mut self, w: u32, srcs: &[u16], dsts: &[u16], ev: &mut RfEvents) {
        if self.profile_mask() && self.pilot == Some(w) {
            self.profiler.record_instruction(srcs, dsts, ev);
        }
    }

    /// Warp `w` exits at cycle `t`: when it is the pilot, profile_mask clears, the counters are
    /// sorted (one sort) and the pairs built; the fill follows at `t + sort_latency`
    /// ([`KernelProfile::advance`]).
    pub fn on_warp_exit(&mut self, w: u32, t: u64, ev: &mut RfEvents) {
        if !(self.profile_mask() && self.pilot == Some(w)) {
            return;
        }
        ev.sorts += 1;
        self.pairs = swap_pairs(&self.profiler.hot_set(self.n_fast), self.n_fast);
        self.state = ProfileState::Sorting {
            fill_at: t + self.sort_latency,
        };
    }

    /// Brings the state to cycle `t`; returns true in the call that fills the table (the caller
    /// then applies the remap policy to the kernel's resident warps).
    pub fn advance(&mut self, t: u64, ev: &mut RfEvents) -> bool {
        match self.state {
            ProfileState::Sorting { fill_at } if t >= fill_at => {
                self.table.fill(&self.pairs, ev);
                self.state = ProfileState::Mapped;
                true
            }
            _ => false,
        }
    }

    /// Where an access of register `reg` goes for a warp that uses the table (`uses_table`) or
    /// not. A lookup is made (and counted) while profile_mask = 0 and the kernel has a table;
    /// warps kept on the identity mapping and bypassed kernels make none.
    pub fn place(&self, reg: u16, uses_table: bool, ev: &mut RfEvents) -> Placement {
        match self.state {
            ProfileState::Profiling | ProfileState::Bypassed => {
                identity_placement(reg, self.n_fast)
            }
            ProfileState::Sorting { .. } => self.table.place(reg, self.miss_rule, ev),
            ProfileState::Mapped if uses_table => self.table.place(reg, self.miss_rule, ev),
            ProfileState::Mapped => identity_placement(reg, self.n_fast),
        }
    }

    /// True when an access with the given mapping makes a swap-table lookup (and so pays
    /// `prf.lookup_latency`).
    pub fn looks_up(&self, uses_table: bool) -> bool {
        match self.state {
            ProfileState::Sorting { .. } => true,
            ProfileState::Mapped => uses_table,
            _ => false,
        }
    }
}

/// The profiling states of the kernels running on one SM, at most `max_profiled` of them with
/// their own counters and table (spec §5.7); a kernel beyond that limit is bypassed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelProfiles {
    max_profiled: u32,
    kernels: Vec<KernelProfile>,
}

impl KernelProfiles {
    /// No kernel running; at most `max_profiled` profiled at once.
    pub fn new(max_profiled: u32) -> Self {
        KernelProfiles {
            max_profiled,
            kernels: Vec::new(),
        }
    }

    /// Kernels running on the SM (profiled or bypassed).
    pub fn len(&self) -> usize {
        self.kernels.len()
    }

    /// True when no kernel runs on the SM.
    pub fn is_empty(&self) -> bool {
        self.kernels.is_empty()
    }

    /// Kernels with their own profiling state now.
    pub fn n_profiled(&self) -> usize {
        self.kernels
            .iter()
            .filter(|k| k.state != ProfileState::Bypassed)
            .count()
    }

    /// Kernel `kernel` launches on the SM; `pilot` is its chosen pilot, or `None` when it is
    /// not to be profiled (it fits in the FRF). A kernel over the limit is bypassed and counted.
    /// A relaunch of a running kernel id replaces its state.
    pub fn on_kernel_launch(
        &mut self,
        kernel: u32,
        pilot: Option<u32>,
        cfg: &PrfSection,
        ev: &mut RfEvents,
    ) -> &KernelProfile {
        self.kernels.retain(|k| k.kernel != kernel);
        let pilot = match pilot {
            None => {
                ev.profiles_skipped += 1;
                None
            }
            Some(_) if self.n_profiled() >= self.max_profiled as usize => {
                ev.kernels_unprofiled += 1;
                None
            }
            p => p,
        };
        self.kernels.push(KernelProfile::new(kernel, pilot, cfg));
        self.kernels.last().expect("just pushed")
    }

    /// Kernel `kernel` has finished on the SM: its state is freed.
    pub fn on_kernel_exit(&mut self, kernel: u32) {
        self.kernels.retain(|k| k.kernel != kernel);
    }

    /// The state of a running kernel.
    pub fn get(&self, kernel: u32) -> Option<&KernelProfile> {
        self.kernels.iter().find(|k| k.kernel == kernel)
    }

    /// The state of a running kernel, mutable.
    pub fn get_mut(&mut self, kernel: u32) -> Option<&mut KernelProfile> {
        self.kernels.iter_mut().find(|k| k.kernel == kernel)
    }

    /// Every running kernel's state.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut KernelProfile> {
        self.kernels.iter_mut()
    }
}
