//! A set of warp slots as a fixed bit set (at most 256 slots, the largest `sm.max_warps` a
//! configuration may give). The issue stage keeps its per-warp conditions
//! (barrier wait, scoreboard state, I-buffer state) in such sets so that it can reject the
//! stalled warps of a scheduler with word operations instead of one load per condition and warp.

/// Bit `w` set = warp slot `w` is in the set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WarpSet(pub [u64; WarpSet::WORDS]);

impl WarpSet {
    /// Words of the set: 256 slots, the most `sm.max_warps` may give.
    pub const WORDS: usize = 4;

    /// Whether slot `w` is in the set.
    #[inline(always)]
    pub fn has(&self, w: usize) -> bool {
        self.0[w >> 6] >> (w & 63) & 1 == 1
    }

    /// Adds or removes slot `w`.
    #[inline(always)]
    pub fn put(&mut self, w: usize, v: bool) {
        let bit = 1u64 << (w & 63);
        if v {
            self.0[w >> 6] |= bit;
        } else {
            self.0[w >> 6] &= !bit;
        }
    }

    /// Adds slot `w`.
    #[inline(always)]
    pub fn insert(&mut self, w: usize) {
        self.0[w >> 6] |= 1u64 << (w & 63);
    }

    /// Removes slot `w`.
    #[inline(always)]
    pub fn remove(&mut self, w: usize) {
        self.0[w >> 6] &= !(1u64 << (w & 63));
    }

    /// Appends the slots, in ascending order, to `out` (a word loop: faster than extending a
    /// vector from [`WarpSet::iter`], whose length the vector cannot know in advance).
    #[inline]
    pub fn push_slots(&self, out: &mut Vec<u16>) {
        for (i, &word) in self.0.iter().enumerate() {
            let mut b = word;
            while b != 0 {
                out.push((i * 64) as u16 + b.trailing_zeros() as u16);
                b &= b - 1;
            }
        }
    }

    /// The slots in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut b = word;
            std::iter::from_fn(move || {
                (b != 0).then(|| {
                    let w = i * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    w
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iterate() {
        let mut s = WarpSet::default();
        assert_eq!(s.iter().count(), 0);
        for w in [0, 5, 63, 64, 130, 255] {
            s.insert(w);
        }
        assert!(s.has(63) && s.has(64) && s.has(255) && !s.has(1));
        s.remove(63);
        s.put(7, true);
        s.put(5, false);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 7, 64, 130, 255]);
        let mut v = vec![9u16];
        s.push_slots(&mut v);
        assert_eq!(v, vec![9, 0, 7, 64, 130, 255]);
    }
}
