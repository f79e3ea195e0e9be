//! Set-associative tag array shared by every cache of the model (simulator §2.7): LRU or
//! FIFO replacement, sector valid/dirty bits, RESERVED lines (allocated, fill pending), and the
//! three set-index functions.

use super::divisor::Divisor;
use crate::config::{CacheConfig, Replacement, SetIndex};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineState {
    Invalid,
    /// Allocated on a miss; the fill has not arrived.
    Reserved,
    Valid,
}

#[derive(Clone, Copy, Debug)]
struct Line {
    tag: u64,
    state: LineState,
    /// Valid sectors (bit i = sector i).
    valid: u32,
    /// Dirty sectors.
    dirty: u32,
    /// LRU: last touch; FIFO: allocation time (a monotonically increasing stamp).
    stamp: u64,
    /// Time the pending fill completes (for models that compute fills ahead of time).
    ready_at: u64,
}

/// Result of a probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// Every requested sector valid.
    Hit {
        way: usize,
        ready_at: u64,
    },
    /// Line present but reserved (fill pending) or some requested sectors missing.
    Partial {
        way: usize,
        state: LineState,
    },
    Miss,
}

/// What an allocation displaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Evicted {
    /// Line address (byte address of the line) of a displaced valid line.
    pub line_addr: Option<u64>,
    /// Its dirty sectors.
    pub dirty: u32,
}

pub struct TagArray {
    /// Sets, as a divisor for the set index.
    dsets: Divisor,
    assoc: usize,
    line_shift: u32,
    sector_shift: u32,
    set_bits: u32,
    index: SetIndex,
    repl: Replacement,
    lines: Vec<Line>,
    stamp: u64,
}

impl TagArray {
    pub fn new(c: &CacheConfig) -> Self {
        let sets = c.sets.max(1) as usize;
        let assoc = c.assoc.max(1) as usize;
        TagArray {
            dsets: Divisor::new(sets as u64),
            assoc,
            line_shift: c.line_bytes.max(1).trailing_zeros(),
            sector_shift: c.sector_bytes.max(1).trailing_zeros(),
            set_bits: (sets as u64).trailing_zeros(),
            index: c.set_index,
            repl: c.replacement,
            lines: vec![
                Line {
                    tag: 0,
                    state: LineState::Invalid,
                    valid: 0,
                    dirty: 0,
                    stamp: 0,
                    ready_at: 0,
                };
                sets * assoc
            ],
            stamp: 0,
        }
    }

    pub fn line_bytes(&self) -> u64 {
        1 << self.line_shift
    }

    /// Line number of a byte address.
    #[inline]
    pub fn line_of(&self, addr: u64) -> u64 {
        addr >> self.line_shift
    }

    /// Sector mask covering bytes [addr, addr + bytes) within its line.
    #[inline]
    pub fn sector_mask(&self, addr: u64, bytes: u64) -> u32 {
        let off = addr & ((1 << self.line_shift) - 1);
        let first = off >> self.sector_shift;
        let last = (off + bytes.max(1) - 1).min((1 << self.line_shift) - 1) >> self.sector_shift;
        let n = last - first + 1;
        let m = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
        m << first
    }

    /// Mask of all sectors of a line.
    pub fn full_mask(&self) -> u32 {
        let n = 1u64 << (self.line_shift - self.sector_shift);
        if n >= 32 {
            u32::MAX
        } else {
            (1u32 << n) - 1
        }
    }

    /// Bytes of one sector.
    pub fn sector_bytes(&self) -> u64 {
        1 << self.sector_shift
    }

    #[inline]
    fn set_of(&self, line: u64) -> usize {
        let s = self.dsets;
        let idx = match self.index {
            SetIndex::Linear => s.rem(line),
            SetIndex::Hash => s.rem(line ^ (line >> self.set_bits)),
            SetIndex::Ipoly => {
                // XOR-fold of the line number in set_bits-wide chunks.
                let mut x = line;
                let mut h = 0;
                let b = self.set_bits.max(1);
                while x != 0 {
                    h ^= x & ((1 << b) - 1);
                    x >>= b;
                }
                s.rem(h)
            }
        };
        idx as usize
    }

    /// An L1 store of `bytes` at `addr` (simulator §2.7): a hit on a valid line writes the
    /// sectors dirty when the store is written back (`write_back`), else updates them in place
    /// (write-through); a miss allocates nothing (no write-allocate). Returns whether it hit.
    pub fn store(&mut self, addr: u64, bytes: u64, write_back: bool) -> bool {
        let line = self.line_of(addr);
        let smask = self.sector_mask(addr, bytes.max(1));
        match self.probe(line, smask) {
            Probe::Hit { way, .. }
            | Probe::Partial {
                way,
                state: LineState::Valid,
            } => {
                if write_back {
                    self.write(way, smask);
                } else {
                    self.fill(way, smask, 0);
                }
                true
            }
            _ => false,
        }
    }

    /// Looks up `line` for the sectors in `mask`; touches LRU on a hit or partial.
    pub fn probe(&mut self, line: u64, mask: u32) -> Probe {
        let set = self.set_of(line);
        let base = set * self.assoc;
        for w in 0..self.assoc {
            let l = &mut self.lines[base + w];
            if l.state != LineState::Invalid && l.tag == line {
                if self.repl == Replacement::Lru {
                    self.stamp += 1;
                    l.stamp = self.stamp;
                }
                if l.state == LineState::Valid && l.valid & mask == mask {
                    return Probe::Hit {
                        way: base + w,
                        ready_at: l.ready_at,
                    };
                }
                return Probe::Partial {
                    way: base + w,
                    state: l.state,
                };
            }
        }
        Probe::Miss
    }

    /// Allocates a way for `line` in state `state` (victim: an invalid way, else the oldest
    /// stamp among non-reserved ways). Returns `None` when every way is reserved.
    pub fn allocate(
        &mut self,
        line: u64,
        state: LineState,
        ready_at: u64,
    ) -> Option<(usize, Evicted)> {
        let set = self.set_of(line);
        let base = set * self.assoc;
        let mut victim = None;
        let mut best = u64::MAX;
        for w in 0..self.assoc {
            let l = &self.lines[base + w];
            if l.state == LineState::Invalid {
                victim = Some(w);
                break;
            }
            if l.state == LineState::Valid && l.stamp < best {
                best = l.stamp;
                victim = Some(w);
            }
        }
        let w = victim?;
        let l = &mut self.lines[base + w];
        let ev = if l.state == LineState::Valid {
            Evicted {
                line_addr: Some(l.tag << self.line_shift),
                dirty: l.dirty,
            }
        } else {
            Evicted::default()
        };
        self.stamp += 1;
        *l = Line {
            tag: line,
            state,
            valid: 0,
            dirty: 0,
            stamp: self.stamp,
            ready_at,
        };
        Some((base + w, ev))
    }

    /// Marks sectors valid (a fill) and the line VALID.
    pub fn fill(&mut self, way: usize, mask: u32, ready_at: u64) {
        let l = &mut self.lines[way];
        l.state = LineState::Valid;
        l.valid |= mask;
        l.ready_at = l.ready_at.max(ready_at);
    }

    /// Marks sectors valid and dirty (a write that allocates without fetching).
    pub fn write(&mut self, way: usize, mask: u32) {
        let l = &mut self.lines[way];
        l.state = LineState::Valid;
        l.valid |= mask;
        l.dirty |= mask;
    }

    /// Finds the way holding `line` (any non-invalid state) without touching LRU.
    pub fn find(&self, line: u64) -> Option<usize> {
        let set = self.set_of(line);
        let base = set * self.assoc;
        (0..self.assoc)
            .map(|w| base + w)
            .find(|&i| self.lines[i].state != LineState::Invalid && self.lines[i].tag == line)
    }

    /// Valid-sector mask of a way.
    pub fn valid_mask(&self, way: usize) -> u32 {
        self.lines[way].valid
    }

    /// Pending-fill completion time of a way.
    pub fn ready_at(&self, way: usize) -> u64 {
        self.lines[way].ready_at
    }

    /// The array as the next kernel launch finds it: every fill has arrived (a launch ends
    /// only when its requests are answered), so pending times go to 0 and a reserved line
    /// holds what was filled into it. Contents, dirty bits and replacement order are kept.
    pub fn settle(&mut self) {
        for l in &mut self.lines {
            l.ready_at = 0;
            if l.state == LineState::Reserved {
                l.state = if l.valid != 0 {
                    LineState::Valid
                } else {
                    LineState::Invalid
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::GpuConfig;

    #[test]
    fn lru_evicts_least_recent() {
        let mut c = GpuConfig::preset("gtx480").unwrap().l1d.geometry();
        c.sets = 1;
        c.assoc = 2;
        c.set_index = SetIndex::Linear;
        let mut t = TagArray::new(&c);
        let full = t.full_mask();
        for l in [1, 2] {
            let (w, ev) = t.allocate(l, LineState::Valid, 0).unwrap();
            t.fill(w, full, 0);
            assert_eq!(ev.line_addr, None);
        }
        assert!(matches!(t.probe(1, full), Probe::Hit { .. }));
        let (_, ev) = t.allocate(3, LineState::Valid, 0).unwrap();
        assert_eq!(ev.line_addr, Some(2 * 128));
        assert!(matches!(t.probe(2, full), Probe::Miss));
        assert!(matches!(t.probe(1, full), Probe::Hit { .. }));
    }

    #[test]
    fn sector_masks() {
        let c = GpuConfig::preset("gtx480").unwrap().l2.geometry();
        let t = TagArray::new(&c);
        assert_eq!(t.full_mask(), 0b1111);
        assert_eq!(t.sector_mask(0, 4), 0b0001);
        assert_eq!(t.sector_mask(60, 8), 0b0110);
        assert_eq!(t.sector_mask(0, 128), 0b1111);
    }
}
