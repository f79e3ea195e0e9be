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

use crate::config::prf::RemapPolicy;

use super::events::RfEvents;

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
        if self.slots.len() <= w as usize {
            self.slots.resize(w as usize + 1, None);
        }
        self.slots[w as usize] = Some(WarpSlot {
            kernel,
            mapping: if table_filled {
                WarpMapping::Table
            } else {
                WarpMapping::Identity
            },
        });
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
        }
        Some(req)
    }
}
