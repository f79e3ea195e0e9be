//! Per-lane idle runs and the active-threads histogram (power-gating §8 conventions, §9
//! "Workload").
//!
//! An idle run of a lane is a maximal run of cycles in which the lane executes nothing; a run
//! cut off by the end of the observed window still counts (§8). The histogram of active threads
//! per issued SP warp instruction has the bins 1–4, 5–8, 9–12, 13–16, 17–24 and 25–32.

/// Inclusive `(low, high)` bounds of the active-threads bins.
pub const ACTIVE_THREAD_BINS: [(u32, u32); 6] =
    [(1, 4), (5, 8), (9, 12), (13, 16), (17, 24), (25, 32)];

/// The idle-run lengths of each of `n_lanes` lanes, in order, given the lanes busy in each
/// consecutive cycle (`busy_masks[t]`, bit i = lane i).
pub fn lane_idle_runs(busy_masks: &[u32], n_lanes: u32) -> Vec<Vec<u32>> {
    (0..n_lanes.min(32))
        .map(|lane| {
            let mut runs = Vec::new();
            let mut run = 0u32;
            for m in busy_masks {
                if m >> lane & 1 == 1 {
                    if run > 0 {
                        runs.push(run);
                    }
                    run = 0;
                } else {
                    run += 1;
                }
            }
            if run > 0 {
                runs.push(run);
            }
            runs
        })
        .collect()
}

/// Histogram of active threads per issued SP warp instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActiveThreadsHistogram {
    /// Instructions per bin of [`ACTIVE_THREAD_BINS`].
    pub counts: [u64; 6],
}

impl ActiveThreadsHistogram {
    /// The bin of an instruction with `active` threads; `None` for 0 or more than 32.
    pub fn bin_of(active: u32) -> Option<usize> {
        ACTIVE_THREAD_BINS
            .iter()
            .position(|&(lo, hi)| (lo..=hi).contains(&active))
    }

    /// Counts one issued instruction with active mask `mask`.
    pub fn record(&mut self, mask: u32) {
        if let Some(b) = Self::bin_of(mask.count_ones()) {
            self.counts[b] += 1;
        }
    }

    /// Adds the counts of `other`.
    pub fn merge(&mut self, other: &ActiveThreadsHistogram) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_cover_1_to_32() {
        assert_eq!(ActiveThreadsHistogram::bin_of(0), None);
        assert_eq!(ActiveThreadsHistogram::bin_of(1), Some(0));
        assert_eq!(ActiveThreadsHistogram::bin_of(4), Some(0));
        assert_eq!(ActiveThreadsHistogram::bin_of(5), Some(1));
        assert_eq!(ActiveThreadsHistogram::bin_of(16), Some(3));
        assert_eq!(ActiveThreadsHistogram::bin_of(17), Some(4));
        assert_eq!(ActiveThreadsHistogram::bin_of(24), Some(4));
        assert_eq!(ActiveThreadsHistogram::bin_of(25), Some(5));
        assert_eq!(ActiveThreadsHistogram::bin_of(32), Some(5));
        let mut h = ActiveThreadsHistogram::default();
        h.record(u32::MAX);
        h.record(0b111);
        h.record(0);
        assert_eq!(h.counts, [1, 0, 0, 0, 0, 1]);
    }

    #[test]
    fn runs_cut_by_the_window_end_count() {
        let runs = lane_idle_runs(&[0b01, 0b00, 0b01, 0b00, 0b00], 2);
        assert_eq!(runs, vec![vec![1, 2], vec![5]]);
    }
}
