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
//!
//! **Re-profiling** (`prf.reprofile_every_cycles` = N > 0, an extension of §5.5 item 6; driven
//! by [`super::PartitionedRf`]): at every cycle kernel start + k·N (k ≥ 1) a kernel whose table
//! is filled (`Mapped`) starts a new round, `Reprofiling`: profile_mask ← 1, the counters are
//! cleared and the pilot is the kernel's lowest resident warp slot; the table in force stays
//! in force (warps keep looking it up, so no value has to move back to the identity). The
//! pilot's accesses count per architectural register as in the first round. The round ends at
//! the pilot's exit or at the next boundary k + 1, whichever comes first: one sort, new pairs
//! from the new hot set (built against the identity, §5.5 item 4), and the fill
//! `prf.sort_latency` cycles later as a new table *generation* (2n writes × copies; the
//! previous table is kept for the warps that still use it, [`super::remap`]). A boundary
//! finds the kernel in its first profiling, or sorting, and starts nothing; with
//! `sort_latency = 0` a round ending at a boundary is filled at once and the next round starts
//! at the same boundary, so each round covers one interval of N cycles.

use crate::config::prf::{MissRule, PrfSection};

use super::pilot_profiler::PilotProfiler;
use super::swap_table::{identity_placement, swap_pairs, Placement, SwapTable};
use crate::activity::rfevents::RfEvents;

/// Where a kernel's profiling stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProfileState {
    /// profile_mask = 1: the pilot runs, the table is bypassed.
    Profiling,
    /// profile_mask = 1 in a re-profiling round: the pilot runs, the table in force stays.
    Reprofiling,
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
    /// Table generations filled so far (the current table is generation `gen`; 0: none yet).
    gen: u32,
    /// The tables of generations 1..gen (index g − 1), kept for warps still using them.
    older: Vec<SwapTable>,
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
            gen: 0,
            older: Vec::new(),
        }
    }

    /// The current table generation (0 before the first fill).
    pub fn generation(&self) -> u32 {
        self.gen
    }

    /// Starts a re-profiling round with pilot `pilot` (module doc) when the table is filled;
    /// true when it started.
    pub fn start_reprofile(&mut self, pilot: u32, ev: &mut RfEvents) -> bool {
        if self.state != ProfileState::Mapped {
            return false;
        }
        self.profiler.clear();
        self.pilot = Some(pilot);
        self.state = ProfileState::Reprofiling;
        ev.reprofiles += 1;
        true
    }

    /// Ends a re-profiling round at `t` (a boundary came before the pilot's exit): one sort,
    /// the pairs, the fill at `t + sort_latency`.
    pub fn end_reprofile(&mut self, t: u64, ev: &mut RfEvents) {
        if self.state == ProfileState::Reprofiling {
            self.sort(t, ev);
        }
    }

    fn sort(&mut self, t: u64, ev: &mut RfEvents) {
        ev.sorts += 1;
        self.pairs = swap_pairs(&self.profiler.hot_set(self.n_fast), self.n_fast);
        self.state = ProfileState::Sorting {
            fill_at: t + self.sort_latency,
        };
    }

    /// The slot of `reg` under table generation `gen` (0: identity), counting nothing.
    pub fn slot_in(&self, gen: u32, reg: u16) -> u8 {
        let mut ev = RfEvents::default();
        self.place_gen(reg, gen, &mut ev).slot
    }

    /// Where an access of `reg` goes for a warp on table generation `gen` (0: the identity);
    /// a lookup is counted when one is made ([`KernelProfile::looks_up_gen`]).
    pub fn place_gen(&self, reg: u16, gen: u32, ev: &mut RfEvents) -> Placement {
        if self.gen == 0 {
            return self.place(reg, gen > 0, ev);
        }
        match gen {
            0 => identity_placement(reg, self.n_fast),
            g if g >= self.gen => self.table.place(reg, self.miss_rule, ev),
            g => self.older[g as usize - 1].place(reg, self.miss_rule, ev),
        }
    }

    /// True when an access of a warp on generation `gen` makes a swap-table lookup.
    pub fn looks_up_gen(&self, gen: u32) -> bool {
        if self.gen == 0 {
            return self.looks_up(gen > 0);
        }
        gen > 0
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
        matches!(
            self.state,
            ProfileState::Profiling | ProfileState::Reprofiling
        )
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
        self.sort(t, ev);
    }

    /// Brings the state to cycle `t`; returns true in the call that fills the table (the caller
    /// then applies the remap policy to the kernel's resident warps).
    pub fn advance(&mut self, t: u64, ev: &mut RfEvents) -> bool {
        match self.state {
            ProfileState::Sorting { fill_at } if t >= fill_at => {
                if self.gen > 0 {
                    self.older.push(self.table.clone());
                }
                self.table.fill(&self.pairs, ev);
                self.gen += 1;
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
            ProfileState::Reprofiling if uses_table => self.table.place(reg, self.miss_rule, ev),
            ProfileState::Reprofiling => identity_placement(reg, self.n_fast),
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
            ProfileState::Mapped | ProfileState::Reprofiling => uses_table,
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
