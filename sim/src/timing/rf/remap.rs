//! What each resident warp uses when a kernel's swap table is filled (register-file spec §5.6,
//! `prf.remap_policy`): per warp slot a mapping generation, and for `"migrate"` the list of
//! register moves still to do.
//!
//! - `"instant"`: every warp of the kernel switches to the table in the fill cycle, at no cost.
//! - `"new_warps_only"`: warps resident at the fill keep the identity mapping until they exit
//!   (one generation bit per warp); warps launched later use the table.
//! - `"migrate"`: per resident warp and per swap pair (h, f) four lowest-priority bank requests
//!   move the two values: an FRF read of slot f (R_f under the identity mapping), an SRF read
//!   of slot h (R_h), an FRF write of slot f (now R_h) and an SRF write of slot h (now R_f). The
//!   reads of a pair come before its writes. The warp keeps the identity mapping until every
//!   request of every pair has completed (its migrated flag), then switches to the table.
//!
//! Warps launched after the fill start on the table under every policy: their registers are
//! undefined at launch, so nothing has to move.
//!
//! **Re-profiling** (`prf.reprofile_every_cycles`, an extension of §5.5 item 6): each fill of
//! a kernel's table starts a new *generation* g (1 for the first fill; 0 stands for the
//! identity mapping). A warp remembers the generation it uses. At a re-fill
//! ([`WarpMaps::on_table_refill`]) the policy applies to the kernel's warps that use the
//! generation just replaced (or the identity): `"instant"` moves them to the new generation at
//! once; `"new_warps_only"` leaves them on theirs until they exit; `"migrate"` moves every
//! register whose slot differs between the two generations (one read at the old slot, then,
//! after every read, one write at the new slot, registers in ascending order) and keeps the
//! old generation until the last request completes. A warp still migrating, or kept on an
//! older generation, stays where it is (it finishes its migration to the generation it was
//! moving to).

use crate::config::prf::RemapPolicy;

use crate::activity::rfevents::RfEvents;

/// One register move request of the `"migrate"` policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MigrationRequest {
    /// True for the FRF, false for the SRF.
    pub fast: bool,
    /// Physical slot accessed (the bank is `bank(w, slot)`).
    pub slot: u8,
    /// True for a write.
    pub write: bool,
}

/// The four requests that move one swap pair (h, f), in issue order.
pub fn pair_requests(h: u8, f: u8) -> [MigrationRequest; 4] {
    let r = |fast, slot, write| MigrationRequest { fast, slot, write };
    [
        r(true, f, false),
        r(false, h, false),
        r(true, f, true),
        r(false, h, true),
    ]
}

/// Every request that migrates one warp across `pairs`, pair by pair.
pub fn migration_requests(pairs: &[(u8, u8)]) -> Vec<MigrationRequest> {
    pairs
        .iter()
        .flat_map(|&(h, f)| pair_requests(h, f))
        .collect()
}

/// The requests that move a warp's registers from placement `old` to placement `new` (slot
/// of each architectural register 0..`n_regs`; `n_fast` fast slots): for every register whose
/// slot differs, a read at its old slot, then for each of them a write at its new slot
/// (registers ascending).
pub fn move_requests(
    n_regs: u16,
    n_fast: u32,
    old: &dyn Fn(u16) -> u8,
    new: &dyn Fn(u16) -> u8,
) -> Vec<MigrationRequest> {
    let moved: Vec<u16> = (0..n_regs).filter(|&r| old(r) != new(r)).collect();
    let r = |slot: u8, write| MigrationRequest {
        fast: (slot as u32) < n_fast,
        slot,
        write,
    };
    moved
        .iter()
        .map(|&x| r(old(x), false))
        .chain(moved.iter().map(|&x| r(new(x), true)))
        .collect()
}

/// The mapping a warp slot uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WarpMapping {
    /// Identity: slot = r (profiling phase, a kernel without a table, or a warp kept on the old
    /// generation).
    Identity,
    /// The kernel's swap table.
    Table,
    /// Identity until the listed requests have completed (`next` is the first outstanding).
    Migrating {
        /// Every request of the warp's migration, in order.
        requests: Vec<MigrationRequest>,
        /// Index of the next outstanding request.
        next: usize,
    },
}

/// A resident warp: its kernel and mapping.
#[derive(Clone, Debug, PartialEq, Eq)]
struct WarpSlot {
    kernel: u32,
    mapping: WarpMapping,
    /// Table generation in use: with `Table` the one it looks up, while `Migrating` the one
    /// it still uses (0: the identity).
    gen: u32,
    /// While `Migrating`: the generation it moves to.
    target: u32,
}

/// Per-warp-slot mapping state of one SM.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WarpMaps {
    slots: Vec<Option<WarpSlot>>,
}

impl WarpMaps {
    /// No resident warp, room for `max_warps` slots (grows on demand).
    pub fn new(max_warps: u32) -> Self {
        WarpMaps {
            slots: vec![None; max_warps as usize],
        }
    }

    /// Warp slot `w` starts running kernel `kernel`; `table_filled` says whether the kernel's
    /// swap table is already filled (the warp then starts on it).
    pub fn on_warp_launch(&mut self, w: u32, kernel: u32, table_filled: bool) {
        self.on_warp_launch_gen(w, kernel, table_filled as u32);
    }

    /// Warp slot `w` starts running kernel `kernel` on table generation `gen` (0: the identity
    /// mapping, before the first fill).
    pub fn on_warp_launch_gen(&mut self, w: u32, kernel: u32, gen: u32) {
        if self.slots.len() <= w as usize {
            self.slots.resize(w as usize + 1, None);
        }
        self.slots[w as usize] = Some(WarpSlot {
            kernel,
            mapping: if gen > 0 {
                WarpMapping::Table
            } else {
                WarpMapping::Identity
            },
            gen,
            target: 0,
        });
    }

    /// The table generation warp `w` looks its registers up in (0: the identity mapping; a
    /// migrating warp uses its old generation until its migration completes).
    pub fn generation(&self, w: u32) -> u32 {
        match self.slot(w) {
            Some(s) if s.mapping != WarpMapping::Identity => s.gen,
            _ => 0,
        }
    }

    /// The lowest resident warp slot of `kernel`, if any.
    pub fn first_of(&self, kernel: u32) -> Option<u32> {
        (0..self.slots.len() as u32).find(|&w| self.kernel_of(w) == Some(kernel))
    }

    /// The re-fill of `kernel`'s table as generation `gen` (≥ 2; module doc): the warps that
    /// use generation `gen − 1` or the identity switch per `policy`; `moves(g)` gives the
    /// migration requests from generation g to `gen`.
    pub fn on_table_refill(
        &mut self,
        kernel: u32,
        gen: u32,
        policy: RemapPolicy,
        moves: &dyn Fn(u32) -> Vec<MigrationRequest>,
    ) {
        for s in self.slots.iter_mut().flatten() {
            if s.kernel != kernel {
                continue;
            }
            let from = match s.mapping {
                WarpMapping::Identity => 0,
                WarpMapping::Table if s.gen + 1 == gen => s.gen,
                _ => continue,
            };
            match policy {
                RemapPolicy::Instant => {
                    s.mapping = WarpMapping::Table;
                    s.gen = gen;
                }
                RemapPolicy::NewWarpsOnly => {}
                RemapPolicy::Migrate => {
                    let requests = moves(from);
                    if requests.is_empty() {
                        s.mapping = WarpMapping::Table;
                        s.gen = gen;
                    } else {
                        s.mapping = WarpMapping::Migrating { requests, next: 0 };
                        s.gen = from;
                        s.target = gen;
                    }
                }
            }
        }
    }

    /// Warp slot `w` exits (any outstanding migration is dropped).
    pub fn on_warp_exit(&mut self, w: u32) {
        if let Some(s) = self.slots.get_mut(w as usize) {
            *s = None;
        }
    }

    /// The kernel of resident warp `w`.
    pub fn kernel_of(&self, w: u32) -> Option<u32> {
        self.slot(w).map(|s| s.kernel)
    }

    fn slot(&self, w: u32) -> Option<&WarpSlot> {
        self.slots.get(w as usize).and_then(Option::as_ref)
    }

    /// The mapping of resident warp `w`.
    pub fn mapping(&self, w: u32) -> Option<&WarpMapping> {
        self.slot(w).map(|s| &s.mapping)
    }

    /// True when warp `w` looks its registers up in the table.
    pub fn uses_table(&self, w: u32) -> bool {
        matches!(self.mapping(w), Some(WarpMapping::Table))
    }

    /// The fill of `kernel`'s table with `pairs`: switches its resident warps per `policy`.
    pub fn on_table_fill(&mut self, kernel: u32, pairs: &[(u8, u8)], policy: RemapPolicy) {
        for s in self.slots.iter_mut().flatten() {
            if s.kernel != kernel || s.mapping != WarpMapping::Identity {
                continue;
            }
            s.mapping = match policy {
                RemapPolicy::Instant => WarpMapping::Table,
                RemapPolicy::NewWarpsOnly => WarpMapping::Identity,
                RemapPolicy::Migrate if pairs.is_empty() => WarpMapping::Table,
                RemapPolicy::Migrate => WarpMapping::Migrating {
                    requests: migration_requests(pairs),
                    next: 0,
                },
            };
            s.gen = if matches!(s.mapping, WarpMapping::Table) {
                1
            } else {
                0
            };
            s.target = 1;
        }
    }

    /// The next outstanding migration request of warp `w`, if it is migrating.
    pub fn next_migration(&self, w: u32) -> Option<MigrationRequest> {
        match self.mapping(w) {
            Some(WarpMapping::Migrating { requests, next }) => requests.get(*next).copied(),
            _ => None,
        }
    }

    /// Warps with an outstanding migration request, lowest slot first.
    pub fn migrating_warps(&self) -> Vec<u32> {
        (0..self.slots.len() as u32)
            .filter(|&w| self.next_migration(w).is_some())
            .collect()
    }

    /// The next request of warp `w` was granted and done: counts it; the warp switches to the
    /// table after its last one. Returns the request, or `None` when `w` is not migrating.
    pub fn complete_migration(&mut self, w: u32, ev: &mut RfEvents) -> Option<MigrationRequest> {
        let slot = self.slots.get_mut(w as usize)?.as_mut()?;
        let WarpMapping::Migrating { requests, next } = &mut slot.mapping else {
            return None;
        };
        let req = *requests.get(*next)?;
        *next += 1;
        match (req.fast, req.write) {
            (true, false) => ev.migration_frf_reads += 1,
            (false, false) => ev.migration_srf_reads += 1,
            (true, true) => ev.migration_frf_writes += 1,
            (false, true) => ev.migration_srf_writes += 1,
        }
        if *next == requests.len() {
            slot.mapping = WarpMapping::Table;
            slot.gen = slot.target.max(1);
        }
        Some(req)
    }
}
