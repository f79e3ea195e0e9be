//! The swap pairs built from the hot set and the swapping table that maps an architectural
//! register to a physical slot (register-file spec §5.4, §5.5 steps 4–5).
//!
//! **Pairs.** The hot registers are taken in descending count order; one already in a default
//! FRF slot (r < n) is skipped; each other one is paired with the next default-FRF register
//! that is not hot, in ascending id order. A free partner always exists: if k hot registers lie
//! in the FRF, at most n − k lie outside it and exactly n − k FRF registers are not hot.
//!
//! **Table.** Each pair (h, f) writes the two entries h→f and f→h, so the mapping is an
//! involution. `"cam"` holds 2n entries {orig, mapped, valid} searched by register id;
//! `"indexed"` holds one 6-bit slot per register id (63 entries), identity where no pair was
//! written (it keeps which ids were written, so that `miss_rule = "literal_srf"` can tell a
//! written entry from an untouched one). The table has `copies` read-only copies, one per
//! scheduler; a fill writes every copy.
//!
//! **Lookup.** `slot = table.lookup(r).unwrap_or(r)`, FRF iff `slot < n` (`miss_rule =
//! "identity"`); under `"literal_srf"` a miss goes to the SRF whatever r is.

use crate::config::prf::{MissRule, SwapTableKind};

use super::pilot_profiler::N_COUNTERS;
use crate::activity::rfevents::RfEvents;

/// The swap pairs (hot register h, default-FRF register f) for the hot set `hot` (descending
/// count order, as from [`super::pilot_profiler::hot_set`]) and `n` fast slots. Only the first
/// `n` entries of `hot` are used.
pub fn swap_pairs(hot: &[u8], n: u32) -> Vec<(u8, u8)> {
    let mut free = (0..n.min(N_COUNTERS as u32) as u8).filter(|f| !hot.contains(f));
    hot.iter()
        .take(n as usize)
        .filter(|&&h| (h as u32) >= n)
        .map(|&h| {
            (
                h,
                free.next()
                    .expect("a non-hot FRF register for every hot SRF one"),
            )
        })
        .collect()
}

/// One CAM entry: {orig 6 b, mapped 6 b, valid 1 b}.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SwapEntry {
    /// Architectural register id.
    pub orig: u8,
    /// Physical slot it maps to.
    pub mapped: u8,
    /// Entry holds a pair half.
    pub valid: bool,
}

/// Where one access goes: the physical slot (which sets the bank) and the partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Physical slot s; the bank is `bank(w, s)`.
    pub slot: u8,
    /// True for the FRF, false for the SRF.
    pub fast: bool,
}

/// The identity placement of register `reg` with `n` fast slots (the profiling phase, and the
/// mapping of warps that have not switched).
pub fn identity_placement(reg: u16, n: u32) -> Placement {
    Placement {
        slot: reg.min(u8::MAX as u16) as u8,
        fast: (reg as u32) < n,
    }
}

/// The swapping table of one kernel on one SM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwapTable {
    kind: SwapTableKind,
    n_fast: u32,
    copies: u32,
    /// CAM entries (2n), or the indexed table (63 entries, `valid` = written).
    entries: Vec<SwapEntry>,
}

impl SwapTable {
    /// An empty table for `n_fast` slots with `copies` copies (kernel launch).
    pub fn new(kind: SwapTableKind, n_fast: u32, copies: u32) -> Self {
        let entries = match kind {
            SwapTableKind::Cam => vec![SwapEntry::default(); 2 * n_fast as usize],
            SwapTableKind::Indexed => (0..N_COUNTERS as u8)
                .map(|r| SwapEntry {
                    orig: r,
                    mapped: r,
                    valid: false,
                })
                .collect(),
        };
        SwapTable {
            kind,
            n_fast,
            copies: copies.max(1),
            entries,
        }
    }

    /// The organisation.
    pub fn kind(&self) -> SwapTableKind {
        self.kind
    }

    /// Fast slots per warp, n.
    pub fn n_fast(&self) -> u32 {
        self.n_fast
    }

    /// Copies of the table (one per scheduler).
    pub fn copies(&self) -> u32 {
        self.copies
    }

    /// Clears every entry.
    pub fn clear(&mut self) {
        *self = SwapTable::new(self.kind, self.n_fast, self.copies);
    }

    /// Writes the entries h→f and f→h of every pair into every copy; counts 2 × pairs ×
    /// copies table writes.
    pub fn fill(&mut self, pairs: &[(u8, u8)], ev: &mut RfEvents) {
        self.clear();
        let halves = pairs.iter().flat_map(|&(h, f)| [(h, f), (f, h)]);
        match self.kind {
            SwapTableKind::Cam => {
                for (e, (o, m)) in self.entries.iter_mut().zip(halves) {
                    *e = SwapEntry {
                        orig: o,
                        mapped: m,
                        valid: true,
                    };
                }
            }
            SwapTableKind::Indexed => {
                for (o, m) in halves {
                    self.entries[o as usize] = SwapEntry {
                        orig: o,
                        mapped: m,
                        valid: true,
                    };
                }
            }
        }
        ev.table_writes += 2 * pairs.len() as u64 * self.copies as u64;
    }

    /// The valid entries as (orig, mapped), in table order.
    pub fn entries(&self) -> Vec<(u8, u8)> {
        self.entries
            .iter()
            .filter(|e| e.valid)
            .map(|e| (e.orig, e.mapped))
            .collect()
    }

    /// The mapped slot of register `reg`, or `None` on a miss.
    pub fn lookup(&self, reg: u16) -> Option<u8> {
        match self.kind {
            SwapTableKind::Cam => self
                .entries
                .iter()
                .find(|e| e.valid && e.orig as u16 == reg)
                .map(|e| e.mapped),
            SwapTableKind::Indexed => self
                .entries
                .get(reg as usize)
                .filter(|e| e.valid)
                .map(|e| e.mapped),
        }
    }

    /// Where an access to `reg` goes in steady state (one lookup, counted).
    pub fn place(&self, reg: u16, rule: MissRule, ev: &mut RfEvents) -> Placement {
        ev.swap_lookups += 1;
        match (self.lookup(reg), rule) {
            (Some(s), _) => Placement {
                slot: s,
                fast: (s as u32) < self.n_fast,
            },
            (None, MissRule::Identity) => identity_placement(reg, self.n_fast),
            (None, MissRule::LiteralSrf) => Placement {
                slot: identity_placement(reg, self.n_fast).slot,
                fast: false,
            },
        }
    }

    /// The full register → slot mapping of the table (identity on a miss) over R0…R62.
    pub fn mapping(&self) -> Vec<u8> {
        (0..N_COUNTERS as u16)
            .map(|r| self.lookup(r).unwrap_or(r as u8))
            .collect()
    }

    /// True when the mapping is a permutation of R0…R62 that is its own inverse (every entry
    /// h→f has its partner f→h), the §11 invariant.
    pub fn is_involution(&self) -> bool {
        let m = self.mapping();
        let mut seen = [false; N_COUNTERS];
        for &s in &m {
            if s as usize >= N_COUNTERS || std::mem::replace(&mut seen[s as usize], true) {
                return false;
            }
        }
        m.iter()
            .enumerate()
            .all(|(r, &s)| m[s as usize] as usize == r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hot_registers_in_the_frf_are_skipped() {
        // Hot R2 (in the FRF) and R9: R9 pairs with R0, the first non-hot FRF register.
        assert_eq!(swap_pairs(&[2, 9], 4), vec![(9, 0)]);
        assert_eq!(swap_pairs(&[0, 1, 2, 3], 4), vec![]);
        assert_eq!(swap_pairs(&[], 4), vec![]);
        assert_eq!(swap_pairs(&[5], 0), vec![]);
    }

    #[test]
    fn indexed_and_cam_agree() {
        let pairs = swap_pairs(&[7, 12, 1, 10], 4);
        let mut ev = RfEvents::default();
        let mut cam = SwapTable::new(SwapTableKind::Cam, 4, 4);
        let mut idx = SwapTable::new(SwapTableKind::Indexed, 4, 4);
        cam.fill(&pairs, &mut ev);
        idx.fill(&pairs, &mut ev);
        assert_eq!(cam.mapping(), idx.mapping());
        for r in 0..63 {
            assert_eq!(cam.lookup(r), idx.lookup(r), "R{r}");
        }
    }
}
