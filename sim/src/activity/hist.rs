//! Histograms of the Activity record: idle-period histograms (simulator §5.5) and log2
//! histograms of inter-access times (§5.4).

use serde::{Deserialize, Serialize};

/// Idle-period length histogram.
///
/// Bins, for `exact_max` = E and `log2_max` = M (knobs `stats.idle_hist_exact_max`,
/// `stats.idle_hist_log2_max`; defaults 64 and 24):
/// - bins `0 .. E`: exact lengths 1 ..= E (bin i holds length i + 1);
/// - then one bin per power of two, (max(E, 2^(k−1)), 2^k] for k = ⌊log2 E⌋ + 1 ..= M;
/// - a last overflow bin for lengths > max(E, 2^M).
///
/// `counts[i]` is the number of periods in bin i and `cycles[i]` the sum of their lengths, so
/// `Σ cycles` is exactly the idle cycles the histogram covers. Finished records drop trailing
/// empty bins (`counts`/`cycles` may be shorter than [`IdleHist::full_len`]; missing bins are 0).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdleHist {
    /// `stats.idle_hist_exact_max` (E): lengths 1 ..= E get one exact bin each.
    pub exact_max: u32,
    /// `stats.idle_hist_log2_max` (M): the last power-of-two bin ends at 2^M cycles.
    pub log2_max: u32,
    /// Idle periods per bin.
    pub counts: Vec<u64>,
    /// Σ idle cycles (period lengths) per bin.
    pub cycles: Vec<u64>,
}

impl IdleHist {
    /// An empty histogram with all bins for `exact_max` = E and `log2_max` = M.
    pub fn new(exact_max: u32, log2_max: u32) -> Self {
        let n = Self::n_bins(exact_max, log2_max);
        IdleHist {
            exact_max,
            log2_max,
            counts: vec![0; n],
            cycles: vec![0; n],
        }
    }

    /// Smallest k with 2^k > E.
    fn first_log2(exact_max: u32) -> u32 {
        64 - (exact_max as u64).leading_zeros()
    }

    fn n_bins(exact_max: u32, log2_max: u32) -> usize {
        let k0 = Self::first_log2(exact_max);
        let n_log = (log2_max + 1).saturating_sub(k0) as usize;
        exact_max as usize + n_log + 1
    }

    /// Bin index of a period of `len` ≥ 1 cycles.
    #[inline]
    pub fn bin_of(&self, len: u64) -> usize {
        let e = self.exact_max as u64;
        if len <= e {
            return (len.max(1) - 1) as usize;
        }
        // ceil(log2(len)) for len > 1
        let k = 64 - (len - 1).leading_zeros();
        let k0 = Self::first_log2(self.exact_max);
        if k > self.log2_max {
            self.full_len() - 1
        } else {
            self.exact_max as usize + (k - k0) as usize
        }
    }

    /// Inclusive length range `(lo, hi)` of bin `i` (`hi` = u64::MAX for the overflow bin).
    pub fn bin_range(&self, i: usize) -> (u64, u64) {
        let e = self.exact_max as usize;
        if i < e {
            return (i as u64 + 1, i as u64 + 1);
        }
        let k0 = Self::first_log2(self.exact_max);
        if i == self.full_len() - 1 {
            let lo = (1u64 << self.log2_max).max(self.exact_max as u64) + 1;
            return (lo, u64::MAX);
        }
        let k = k0 + (i - e) as u32;
        let lo = (1u64 << (k - 1)).max(self.exact_max as u64) + 1;
        (lo, 1u64 << k)
    }

    /// Records one period of `len` cycles (0 is ignored).
    #[inline]
    pub fn add(&mut self, len: u64) {
        if len == 0 {
            return;
        }
        let b = self.bin_of(len);
        self.counts[b] += 1;
        self.cycles[b] += len;
    }

    /// Number of periods recorded (Σ `counts`).
    pub fn total_count(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Idle cycles recorded (Σ `cycles`).
    pub fn total_cycles(&self) -> u64 {
        self.cycles.iter().sum()
    }

    /// Number of bins of the full histogram.
    pub fn full_len(&self) -> usize {
        Self::n_bins(self.exact_max, self.log2_max)
    }

    /// Drops trailing empty bins (smaller records; missing bins read as 0).
    pub fn trim(&mut self) {
        let n = self
            .counts
            .iter()
            .rposition(|&c| c != 0)
            .map_or(0, |i| i + 1);
        self.counts.truncate(n);
        self.cycles.truncate(n);
    }

    /// Adds another histogram with the same bin definition (lengths may differ after trimming).
    pub fn merge(&mut self, o: &IdleHist) {
        if self.exact_max == 0 && self.log2_max == 0 && self.counts.is_empty() {
            *self = o.clone();
            return;
        }
        let n = self.counts.len().max(o.counts.len());
        self.counts.resize(n, 0);
        self.cycles.resize(n, 0);
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            *a += b;
        }
        for (a, b) in self.cycles.iter_mut().zip(&o.cycles) {
            *a += b;
        }
    }
}

/// Log2 histogram of non-negative integers: bin 0 holds value 0, bin k ≥ 1 holds
/// [2^(k−1), 2^k). 65 bins cover every u64. `sum` and `count` are exact (mean = sum / count).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Log2Hist {
    /// Values per bin (65 bins: 0, then [2^(k−1), 2^k) for k = 1 ..= 64).
    pub counts: Vec<u64>,
    /// Exact Σ of the values recorded.
    pub sum: u64,
    /// Number of values recorded.
    pub count: u64,
}

impl Default for Log2Hist {
    fn default() -> Self {
        Log2Hist {
            counts: vec![0; 65],
            sum: 0,
            count: 0,
        }
    }
}

impl Log2Hist {
    /// Records value `v` in bin ⌈log2(v + 1)⌉ (0 for v = 0).
    #[inline]
    pub fn add(&mut self, v: u64) {
        let b = (64 - v.leading_zeros()) as usize;
        self.counts[b] += 1;
        self.sum += v;
        self.count += 1;
    }

    /// Adds another histogram bin by bin, with its sum and count.
    pub fn merge(&mut self, o: &Log2Hist) {
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            *a += b;
        }
        self.sum += o.sum;
        self.count += o.count;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_cover_every_length_once() {
        for (e, m) in [(64, 24), (1024, 24), (1, 10), (63, 8)] {
            let h = IdleHist::new(e, m);
            let mut prev_hi = 0;
            for i in 0..h.counts.len() {
                let (lo, hi) = h.bin_range(i);
                assert_eq!(lo, prev_hi + 1, "E={e} bin {i}");
                assert!(hi >= lo);
                assert_eq!(h.bin_of(lo), i);
                if hi != u64::MAX {
                    assert_eq!(h.bin_of(hi), i);
                }
                prev_hi = hi;
            }
            assert_eq!(prev_hi, u64::MAX);
        }
        let h = IdleHist::new(64, 24);
        assert_eq!(h.counts.len(), 64 + 18 + 1);
        assert_eq!(h.bin_of(65), 64);
        assert_eq!(h.bin_of(128), 64);
        assert_eq!(h.bin_of(129), 65);
        assert_eq!(h.bin_of(1 << 24), 64 + 17);
        assert_eq!(h.bin_of((1 << 24) + 1), 64 + 18);
    }

    #[test]
    fn log2_bins() {
        let mut h = Log2Hist::default();
        for v in [0, 1, 2, 3, 4, 1000] {
            h.add(v);
        }
        assert_eq!(h.counts[0], 1);
        assert_eq!(h.counts[1], 1);
        assert_eq!(h.counts[2], 2);
        assert_eq!(h.counts[3], 1);
        assert_eq!(h.counts[10], 1);
        assert_eq!((h.sum, h.count), (1010, 6));
    }
}
