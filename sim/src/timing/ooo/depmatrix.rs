//! The dependence matrix of one warp's SOCGPU instruction buffer (issue-stage §2.1, §2.2,
//! §2.4; Huerta, "SOCGPU", UPC 2022): an N×N bit matrix over the buffer's physical entries in
//! which row A has a 1 in column P iff entry A must wait for entry P to write back. It replaces
//! both scoreboards of the in-order baseline: an entry has no pending dependence when its row
//! is all zeros (the NOR of the row), and a write-back clears the producer's whole column.
//!
//! Rows are stored as one 64-bit word each, so N ≤ 64 (the spec's design space is 2…64).

/// Largest buffer depth a [`DepMatrix`] holds.
pub const MAX_ENTRIES: usize = 64;

/// N×N dependence bits, one `u64` row per entry (bit P of row A = A depends on P), with the
/// rows' NOR outputs kept as one mask (bit A set iff row A is all zeros), so that the ready
/// check of every entry is one word operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepMatrix {
    rows: Vec<u64>,
    zero: u64,
}

impl DepMatrix {
    /// An all-zero matrix of `n` entries (1 ≤ n ≤ [`MAX_ENTRIES`]).
    pub fn new(n: usize) -> DepMatrix {
        assert!(
            (1..=MAX_ENTRIES).contains(&n),
            "dependence matrix of {n} entries"
        );
        DepMatrix {
            rows: vec![0; n],
            zero: low_mask(n),
        }
    }

    /// Entries (rows) of the matrix.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Always false: a matrix has at least one entry.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Writes row `a` (the insert-time write port); the diagonal bit is forced to 0.
    #[inline]
    pub fn write_row(&mut self, a: usize, row: u64) {
        let r = row & !(1u64 << a);
        self.rows[a] = r;
        if r == 0 {
            self.zero |= 1u64 << a;
        } else {
            self.zero &= !(1u64 << a);
        }
    }

    /// The NOR outputs of all rows: bit A set iff entry A depends on no entry.
    #[inline]
    pub fn no_dependence_mask(&self) -> u64 {
        self.zero
    }

    /// Row `a`: the entries `a` depends on.
    #[inline]
    pub fn row(&self, a: usize) -> u64 {
        self.rows[a]
    }

    /// Does entry `a` depend on entry `p`?
    #[inline]
    pub fn get(&self, a: usize, p: usize) -> bool {
        self.rows[a] >> p & 1 == 1
    }

    /// The no-dependence signal of entry `a`: the NOR of its row.
    #[inline]
    pub fn no_dependence(&self, a: usize) -> bool {
        self.rows[a] == 0
    }

    /// Clears column `p` (entry `p` wrote back: every dependant is released).
    #[inline]
    pub fn clear_column(&mut self, p: usize) {
        let bit = 1u64 << p;
        // only rows not yet all zeros can hold the column's bit
        let mut bits = !self.zero & low_mask(self.rows.len());
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let r = &mut self.rows[a];
            if *r & bit != 0 {
                *r &= !bit;
                if *r == 0 {
                    self.zero |= 1u64 << a;
                }
            }
        }
    }

    /// Clears row `a` and column `a` (the entry is removed).
    #[inline]
    pub fn clear_entry(&mut self, a: usize) {
        self.rows[a] = 0;
        self.zero |= 1u64 << a;
        self.clear_column(a);
    }
}

/// Mask of the low `n` bits.
#[inline]
fn low_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}
