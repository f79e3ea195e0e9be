//! The L1D's miss-status holding registers as an indexed table (see [`MshrTable`]).

/// The L1D miss-status holding registers: one entry per line with an outstanding fill and the
/// loads waiting for it. Entries live in a dense list (no order is observable) and are found by
/// line through an open-addressing index: linear probing, backward-shift deletion, at most a
/// quarter full.
#[derive(Default)]
pub(super) struct MshrTable {
    lines: Vec<u64>,
    waiters: Vec<Vec<u32>>,
    spare: Vec<Vec<u32>>,
    /// Position in `lines` + 1 per slot, 0 when empty; the length is a power of two.
    index: Vec<u32>,
}

impl MshrTable {
    pub(super) fn len(&self) -> usize {
        self.lines.len()
    }
    /// Home slot of `line` (Fibonacci hashing).
    #[inline]
    pub(super) fn home(&self, line: u64) -> usize {
        let bits = self.index.len().trailing_zeros();
        (line.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }
    /// The slot holding `line`, or the empty slot where it would go.
    #[inline]
    pub(super) fn slot(&self, line: u64) -> (usize, bool) {
        let mask = self.index.len() - 1;
        let mut i = self.home(line);
        loop {
            match self.index[i] {
                0 => return (i, false),
                p if self.lines[p as usize - 1] == line => return (i, true),
                _ => i = (i + 1) & mask,
            }
        }
    }
    pub(super) fn get_mut(&mut self, line: u64) -> Option<&mut Vec<u32>> {
        if self.lines.is_empty() {
            return None;
        }
        let (i, found) = self.slot(line);
        found.then(|| &mut self.waiters[self.index[i] as usize - 1])
    }
    pub(super) fn insert(&mut self, line: u64, first: u32) {
        debug_assert!(self.lines.is_empty() || !self.slot(line).1);
        if (self.lines.len() + 1) * 4 > self.index.len() {
            let n = ((self.lines.len() + 1) * 4).next_power_of_two().max(64);
            self.index = vec![0; n];
            for k in 0..self.lines.len() {
                let (i, _) = self.slot(self.lines[k]);
                self.index[i] = k as u32 + 1;
            }
        }
        let mut v = self.spare.pop().unwrap_or_default();
        v.clear();
        v.push(first);
        self.lines.push(line);
        self.waiters.push(v);
        let (i, _) = self.slot(line);
        self.index[i] = self.lines.len() as u32;
    }
    pub(super) fn remove(&mut self, line: u64) -> Option<Vec<u32>> {
        if self.lines.is_empty() {
            return None;
        }
        let (s, found) = self.slot(line);
        if !found {
            return None;
        }
        let pos = self.index[s] as usize - 1;
        // backward-shift deletion: pull later entries of the probe run into the hole unless
        // their home lies cyclically in (hole, their slot]
        let mask = self.index.len() - 1;
        let (mut hole, mut j) = (s, s);
        loop {
            j = (j + 1) & mask;
            let p = self.index[j];
            if p == 0 {
                break;
            }
            let k = self.home(self.lines[p as usize - 1]);
            let stays = if hole <= j {
                hole < k && k <= j
            } else {
                hole < k || k <= j
            };
            if !stays {
                self.index[hole] = p;
                hole = j;
            }
        }
        self.index[hole] = 0;
        // the dense list: the last entry moves into `pos`
        let last = self.lines.len() - 1;
        if pos != last {
            let (i, found) = self.slot(self.lines[last]);
            debug_assert!(found);
            self.index[i] = pos as u32 + 1;
        }
        self.lines.swap_remove(pos);
        Some(self.waiters.swap_remove(pos))
    }
    /// Returns a waiter list for reuse.
    pub(super) fn recycle(&mut self, v: Vec<u32>) {
        self.spare.push(v);
    }
}

#[cfg(test)]
mod tests {
    use super::MshrTable;
    use std::collections::HashMap;

    proptest::proptest! {
        /// The indexed table behaves as a map from line to waiter list.
        #[test]
        fn mshr_table_is_a_map(ops in proptest::collection::vec((0u8..3, 0u64..40, 0u32..100), 1..400)) {
            let mut t = MshrTable::default();
            let mut r: HashMap<u64, Vec<u32>> = HashMap::new();
            for (op, line, v) in ops {
                // lines spread over the address space, some colliding in the index
                let line = line.wrapping_mul(0x1_0000_0001) ^ (line << 40);
                match op {
                    0 => {
                        if let Some(w) = t.get_mut(line) {
                            w.push(v);
                            r.get_mut(&line).unwrap().push(v);
                        } else {
                            proptest::prop_assert!(!r.contains_key(&line));
                            t.insert(line, v);
                            r.insert(line, vec![v]);
                        }
                    }
                    1 => {
                        let got = t.remove(line);
                        proptest::prop_assert_eq!(got.clone(), r.remove(&line));
                        if let Some(w) = got {
                            t.recycle(w);
                        }
                    }
                    _ => {
                        proptest::prop_assert_eq!(t.get_mut(line).cloned(), r.get(&line).cloned());
                    }
                }
                proptest::prop_assert_eq!(t.len(), r.len());
            }
            for (line, w) in &r {
                proptest::prop_assert_eq!(t.get_mut(*line).cloned(), Some(w.clone()));
            }
        }
    }
}
