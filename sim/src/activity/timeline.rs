//! Busy/idle timelines of pipes and lanes reduced to idle-period statistics (simulator
//! §5.5), at O(1) cost per dispatch: a timeline keeps only `busy_until`.

use super::hist::IdleHist;
use serde::{Deserialize, Serialize};

/// Busy/idle statistics of one pipe or lane over the kernel's window [start, end).
///
/// Definitions (per `stats.busy_definition`):
/// - `in_flight` (default): cycle t is busy iff some instruction dispatched at d has
///   d ≤ t < d + latency (for a lane: and that lane is active in it);
/// - `accept`: t is busy iff an instruction was accepted at t.
///
/// An idle period is a maximal run of idle cycles inside the window. Runs that end before the
/// window ends are *complete* and go to `hist`; the run that touches the end goes to `censored`.
/// Hence `busy_cycles + idle_cycles = window cycles` and
/// `idle_cycles = hist.total_cycles() + censored.total_cycles()`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdleStats {
    /// Busy cycles in the window.
    pub busy_cycles: u64,
    /// Idle cycles in the window (complete and censored periods).
    pub idle_cycles: u64,
    /// Complete idle periods (= `hist.total_count()`).
    pub periods: u64,
    /// Busy→idle transitions (an idle period that follows a busy cycle, censored or not).
    pub busy_to_idle: u64,
    /// Lengths of the complete idle periods, in cycles.
    pub hist: IdleHist,
    /// Idle runs that touch the window end (censored: their full length is unknown).
    pub censored: IdleHist,
    /// Cycles spent in each power state. Without a gating policy the states are `on_busy` and
    /// `on_idle`; gating policies add theirs (e.g. `gated`, `wakeup`).
    pub residency: std::collections::BTreeMap<String, u64>,
}

impl IdleStats {
    /// Empty statistics whose histograms use `exact_max` and `log2_max` (see [`IdleHist`]).
    pub fn new(exact_max: u32, log2_max: u32) -> Self {
        IdleStats {
            hist: IdleHist::new(exact_max, log2_max),
            censored: IdleHist::new(exact_max, log2_max),
            ..Default::default()
        }
    }

    /// Adds another timeline's statistics (for per-kernel → aggregate sums).
    pub fn merge(&mut self, o: &IdleStats) {
        self.busy_cycles += o.busy_cycles;
        self.idle_cycles += o.idle_cycles;
        self.periods += o.periods;
        self.busy_to_idle += o.busy_to_idle;
        self.hist.merge(&o.hist);
        self.censored.merge(&o.censored);
        for (k, v) in &o.residency {
            *self.residency.entry(k.clone()).or_insert(0) += v;
        }
    }
}

/// The running state of one timeline: `busy_until` (first cycle not yet known busy) and whether
/// any busy cycle has been seen. The simulator calls [`Timeline::busy`] at each dispatch and
/// [`Timeline::finish`] at the kernel end.
#[derive(Clone, Debug)]
pub struct Timeline {
    busy_until: u64,
    seen_busy: bool,
    /// Statistics accumulated so far; [`Timeline::finish`] completes them and takes them out.
    pub stats: IdleStats,
}

impl Timeline {
    /// A timeline of a window starting at cycle `start`, idle until its first busy call.
    pub fn new(start: u64, exact_max: u32, log2_max: u32) -> Self {
        Timeline {
            busy_until: start,
            seen_busy: false,
            stats: IdleStats::new(exact_max, log2_max),
        }
    }

    /// Marks cycles [t, t + len) busy. Calls must come with non-decreasing `t`.
    #[inline]
    pub fn busy(&mut self, t: u64, len: u64) {
        if len == 0 {
            return;
        }
        let end = t + len;
        if t > self.busy_until {
            let idle = t - self.busy_until;
            self.stats.hist.add(idle);
            self.stats.idle_cycles += idle;
            self.stats.periods += 1;
            if self.seen_busy {
                self.stats.busy_to_idle += 1;
            }
            self.stats.busy_cycles += len;
            self.busy_until = end;
        } else if end > self.busy_until {
            self.stats.busy_cycles += end - self.busy_until;
            self.busy_until = end;
        }
        self.seen_busy = true;
    }

    /// Closes the window at `end`: the trailing idle run is censored; busy cycles past `end`
    /// (never produced by the simulator, which ends a kernel after its last writeback) are cut.
    pub fn finish(&mut self, end: u64) -> IdleStats {
        if end > self.busy_until {
            let idle = end - self.busy_until;
            self.stats.censored.add(idle);
            self.stats.idle_cycles += idle;
            if self.seen_busy {
                self.stats.busy_to_idle += 1;
            }
        } else if self.busy_until > end {
            self.stats.busy_cycles -= self.busy_until - end;
        }
        self.busy_until = end;
        let mut s = std::mem::take(&mut self.stats);
        s.hist.trim();
        s.censored.trim();
        s.residency.insert("on_busy".into(), s.busy_cycles);
        s.residency.insert("on_idle".into(), s.idle_cycles);
        s
    }
}

/// The timelines of a pipe's lanes as a structure of arrays, with the same results as one
/// [`Timeline`] per lane. A dispatch under a partial mask updates each active lane, and lanes
/// that were busy together close idle periods of the same length together: the running state
/// sits in dense per-lane arrays and the idle histograms are laid out bin-major (all lanes of
/// a bin side by side), so such an update touches a few cache lines instead of a few per lane.
/// Exact-length bins keep only counts (their cycles are count × length).
#[derive(Clone, Debug)]
pub struct LaneTimelines {
    n: usize,
    busy_until: Vec<u64>,
    busy_cycles: Vec<u64>,
    seen_busy: Vec<bool>,
    idle_cycles: Vec<u64>,
    periods: Vec<u64>,
    busy_to_idle: Vec<u64>,
    /// Bin definition (its own bins unused).
    shape: IdleHist,
    /// `counts[bin · n + lane]`: complete idle periods of the lane in the bin.
    counts: Vec<u64>,
    /// `log_cycles[(bin − exact_max) · n + lane]`: their cycles, for the power-of-two bins.
    log_cycles: Vec<u64>,
}

impl LaneTimelines {
    /// `n` lanes whose window starts at `start`.
    pub fn new(n: usize, start: u64, exact_max: u32, log2_max: u32) -> Self {
        let shape = IdleHist::new(exact_max, log2_max);
        let bins = shape.full_len();
        let exact = exact_max as usize;
        LaneTimelines {
            n,
            busy_until: vec![start; n],
            busy_cycles: vec![0; n],
            seen_busy: vec![false; n],
            idle_cycles: vec![0; n],
            periods: vec![0; n],
            busy_to_idle: vec![0; n],
            counts: vec![0; bins * n],
            log_cycles: vec![0; bins.saturating_sub(exact) * n],
            shape: IdleHist {
                counts: Vec::new(),
                cycles: Vec::new(),
                ..shape
            },
        }
    }

    /// Number of lanes.
    pub fn len(&self) -> usize {
        self.n
    }

    /// No lanes (per-lane timelines off).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Marks cycles [t, t + len) of lane `l` busy, as [`Timeline::busy`].
    #[inline(always)]
    pub fn busy(&mut self, l: usize, t: u64, len: u64) {
        if len == 0 {
            return;
        }
        let end = t + len;
        let until = self.busy_until[l];
        if t > until {
            let idle = t - until;
            let b = self.shape.bin_of(idle);
            self.counts[b * self.n + l] += 1;
            let exact = self.shape.exact_max as usize;
            if b >= exact {
                self.log_cycles[(b - exact) * self.n + l] += idle;
            }
            self.idle_cycles[l] += idle;
            self.periods[l] += 1;
            if self.seen_busy[l] {
                self.busy_to_idle[l] += 1;
            }
            self.busy_cycles[l] += len;
            self.busy_until[l] = end;
        } else if end > until {
            self.busy_cycles[l] += end - until;
            self.busy_until[l] = end;
        }
        self.seen_busy[l] = true;
    }

    /// Closes every lane's window at `end`, as [`Timeline::finish`].
    pub fn finish(&mut self, end: u64) -> Vec<IdleStats> {
        let (e, m) = (self.shape.exact_max, self.shape.log2_max);
        let bins = self.shape.full_len();
        let exact = e as usize;
        (0..self.n)
            .map(|l| {
                let mut hist = IdleHist::new(e, m);
                for b in 0..bins {
                    let c = self.counts[b * self.n + l];
                    hist.counts[b] = c;
                    hist.cycles[b] = if b < exact {
                        c * (b as u64 + 1)
                    } else {
                        self.log_cycles[(b - exact) * self.n + l]
                    };
                }
                let mut tl = Timeline {
                    busy_until: self.busy_until[l],
                    seen_busy: self.seen_busy[l],
                    stats: IdleStats {
                        busy_cycles: self.busy_cycles[l],
                        idle_cycles: self.idle_cycles[l],
                        periods: self.periods[l],
                        busy_to_idle: self.busy_to_idle[l],
                        hist,
                        censored: IdleHist::new(e, m),
                        residency: Default::default(),
                    },
                };
                tl.finish(end)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Lane timelines give what one `Timeline` per lane gives.
        #[test]
        fn lanes_match_single_timelines(
            steps in proptest::collection::vec((0u64..40, 0u64..30, proptest::bits::u32::ANY), 0..60),
            start in 0u64..20,
        ) {
            let n = 4;
            let mut lanes = LaneTimelines::new(n, start, 8, 6);
            let mut single: Vec<Timeline> = (0..n).map(|_| Timeline::new(start, 8, 6)).collect();
            let mut t = start;
            for (dt, len, mask) in steps {
                t += dt;
                for (l, one) in single.iter_mut().enumerate() {
                    if mask >> l & 1 == 1 {
                        lanes.busy(l, t, len);
                        one.busy(t, len);
                    }
                }
            }
            let end = t + 50;
            let got = lanes.finish(end);
            let want: Vec<IdleStats> = single.iter_mut().map(|x| x.finish(end)).collect();
            proptest::prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn overlapping_and_gapped_intervals() {
        let mut t = Timeline::new(10, 64, 24);
        t.busy(12, 4); // idle 10..12 (2), busy 12..16
        t.busy(14, 4); // overlap: busy to 18
        t.busy(18, 1); // adjacent: busy to 19
        t.busy(100, 5); // idle 19..100 (81), busy 100..105
        let s = t.finish(110); // censored 105..110 (5)
        assert_eq!(s.busy_cycles, 4 + 2 + 1 + 5);
        assert_eq!(s.idle_cycles, 2 + 81 + 5);
        assert_eq!(s.busy_cycles + s.idle_cycles, 100);
        assert_eq!(s.periods, 2);
        assert_eq!(s.busy_to_idle, 2);
        assert_eq!(
            s.hist.total_cycles() + s.censored.total_cycles(),
            s.idle_cycles
        );
        assert_eq!(s.censored.total_count(), 1);
    }

    #[test]
    fn never_busy_is_one_censored_run() {
        let s = Timeline::new(0, 64, 24).finish(1000);
        assert_eq!(
            (s.busy_cycles, s.idle_cycles, s.periods, s.busy_to_idle),
            (0, 1000, 0, 0)
        );
        assert_eq!(s.censored.total_cycles(), 1000);
    }
}
