//! The counters of a reference-mode run (control-flow spec §6): issue and SIMD efficiency,
//! per-thread fairness, the W0 split, DWF structure occupancy and the memory stage's counters.

use crate::timing::dwf::formation::FormationStats;
use crate::timing::dwf::majority::MajorityStats;

/// Counters of a reference-mode run (control-flow spec §6), summed over launches.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RefStats {
    /// Pipeline (core) cycles, summed over launches.
    pub cycles: u64,
    /// Warps issued.
    pub warp_issues: u64,
    /// Thread instructions issued.
    pub thread_insts: u64,
    /// Scheduler cycles × cores.
    pub sched_cycles: u64,
    /// Issue slots by active lanes: W0, W1–4, …, W29–32.
    pub simd_buckets: [u64; 9],
    /// Register-bank conflict stall cycles (non-lane-aware DWF).
    pub bank_conflict_stall_cycles: u64,
    /// Warp-formation counters (DWF).
    pub formation: Option<FormationStats>,
    /// Majority-hardware counters (DWF with DMaj or DMin).
    pub majority: Option<MajorityStats>,
    /// Memory-side counters (every mode).
    #[serde(default)]
    pub mem: RefMemStats,
    /// The W0 issue slots split by cause (control-flow spec §6); `mem + idle + stall + empty`
    /// equals `simd_buckets[0]`.
    #[serde(default)]
    pub w0: W0Split,
    /// Per-cycle occupancy histograms of the DWF structures (control-flow spec §6).
    #[serde(default)]
    pub occupancy: Option<DwfOccupancy>,
    /// Per-thread fairness (control-flow spec §6).
    #[serde(default)]
    pub fairness: ThreadFairness,
}

/// Fairness across threads (control-flow spec §6): how long a thread can wait between two of
/// its instructions and how evenly instructions spread over threads. The wait of a thread is
/// the interval between two consecutive issues of it (its own latency, barrier and scheduling
/// waits included; from its CTA's launch for the first), and its maximum over the thread's
/// life is its maximum wait.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ThreadFairness {
    /// Threads that retired.
    pub threads: u64,
    /// The longest maximum wait of any thread, cycles.
    pub max_wait_cycles: u64,
    /// Sum over threads of their maximum wait, cycles (the mean is this over `threads`).
    pub sum_max_wait_cycles: u64,
    /// Threads by maximum wait: bin `k` holds waits in `[2^(k−1), 2^k)` cycles (bin 0: 0).
    pub max_wait_log2_hist: Vec<u64>,
    /// Fewest dynamic instructions of a thread.
    pub insts_min: u64,
    /// Most dynamic instructions of a thread.
    pub insts_max: u64,
    /// Sum of the threads' dynamic instructions (the mean is this over `threads`).
    pub insts_sum: u64,
}

impl ThreadFairness {
    pub(super) fn retire(&mut self, max_wait: u64, insts: u64) {
        if self.threads == 0 {
            self.insts_min = insts;
        }
        self.threads += 1;
        self.max_wait_cycles = self.max_wait_cycles.max(max_wait);
        self.sum_max_wait_cycles += max_wait;
        let k = (64 - max_wait.leading_zeros()) as usize;
        if self.max_wait_log2_hist.len() <= k {
            self.max_wait_log2_hist.resize(k + 1, 0);
        }
        self.max_wait_log2_hist[k] += 1;
        self.insts_min = self.insts_min.min(insts);
        self.insts_max = self.insts_max.max(insts);
        self.insts_sum += insts;
    }

    /// Mean over threads of the maximum wait, cycles.
    pub fn mean_max_wait_cycles(&self) -> f64 {
        self.sum_max_wait_cycles as f64 / self.threads.max(1) as f64
    }

    /// Mean dynamic instructions per thread.
    pub fn mean_insts(&self) -> f64 {
        self.insts_sum as f64 / self.threads.max(1) as f64
    }
}

/// Why a scheduler cycle issued no thread (control-flow spec §6, the W0 bucket), sampled per
/// core and scheduler cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct W0Split {
    /// W0.Mem: instructions are in flight and every one of them is a memory instruction, so
    /// every thread that is not ready waits on memory.
    pub mem: u64,
    /// W0.Idle: threads are resident, none is ready and some in-flight instruction is not a
    /// memory one (arithmetic latency), or none is in flight (barrier waits, formation).
    pub idle: u64,
    /// Stall: the issue port is held by the previous issue's register-bank conflict stall
    /// (non-lane-aware DWF). The model has no write-back port, so contention between
    /// write-back and the memory return path cannot leave a slot empty here; this is the only
    /// stall that does.
    pub stall: u64,
    /// The core holds no CTA (launch tails, grids smaller than the GPU): outside the spec's
    /// three causes, kept apart so that they describe only cores with work.
    #[serde(default)]
    pub empty: u64,
}

/// Occupancy histograms of the DWF structures, one sample per core and scheduler cycle:
/// element `k` counts the cycles with exactly `k` live entries (control-flow spec §6; they
/// drive the sizing study and the sub-bank gating analysis).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DwfOccupancy {
    /// Live warp-pool entries.
    pub pool: Vec<u64>,
    /// Live max-heap entries (DMaj and DMin; empty for the list policies).
    pub heap: Vec<u64>,
    /// Valid PC-warp LUT entries.
    pub lut: Vec<u64>,
}

impl DwfOccupancy {
    pub(super) fn add(h: &mut Vec<u64>, k: usize, n: u64) {
        if h.len() <= k {
            h.resize(k + 1, 0);
        }
        h[k] += n;
    }

    pub(super) fn merge(&mut self, o: &DwfOccupancy) {
        for (a, b) in [
            (&mut self.pool, &o.pool),
            (&mut self.heap, &o.heap),
            (&mut self.lut, &o.lut),
        ] {
            for (k, &n) in b.iter().enumerate() {
                Self::add(a, k, n);
            }
        }
    }

    /// The cumulative distribution of histogram `h`: element `k` is the share of samples with
    /// at most `k` live entries.
    pub fn cdf(h: &[u64]) -> Vec<f64> {
        let total: u64 = h.iter().sum();
        let mut acc = 0u64;
        h.iter()
            .map(|&n| {
                acc += n;
                if total == 0 {
                    0.0
                } else {
                    acc as f64 / total as f64
                }
            })
            .collect()
    }

    /// Mean live entries of histogram `h`.
    pub fn mean(h: &[u64]) -> f64 {
        let total: u64 = h.iter().sum();
        if total == 0 {
            return 0.0;
        }
        h.iter()
            .enumerate()
            .map(|(k, &n)| k as f64 * n as f64)
            .sum::<f64>()
            / total as f64
    }
}

/// Memory-side counters of a reference-mode run: how the issued thread groups coalesce and
/// what they cost at the data cache and the core's DRAM share. They explain cycle differences
/// between modes that issue the same thread instructions in different groups.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RefMemStats {
    /// Global/local memory instructions executed (one per coalesced thread group).
    pub mem_insts: u64,
    /// Distinct cache lines those instructions touched (summed per instruction).
    pub mem_lines: u64,
    /// Load lines that hit a line whose data had already arrived.
    pub load_line_hits: u64,
    /// Load lines that hit a line whose fill was still in flight.
    pub load_line_hits_pending: u64,
    /// Load lines that missed (one DRAM line read each).
    pub load_line_misses: u64,
    /// Store and atomic lines (one DRAM line transfer each).
    pub store_lines: u64,
    /// Lines of a thread group that another group of the same issue slot had already
    /// accessed (coalesced with it; MIMD and DWF slots may hold several groups).
    pub slot_shared_lines: u64,
    /// Pipeline cycles the DRAM share was occupied (line transfers × cycles per line).
    pub dram_busy_cycles: u64,
}

impl RefStats {
    /// Mean active lanes per issued warp over `w` lanes.
    pub fn simd_efficiency(&self, w: u32) -> f64 {
        if self.warp_issues == 0 {
            0.0
        } else {
            self.thread_insts as f64 / (self.warp_issues as f64 * w as f64)
        }
    }
}
pub(super) fn merge_mem(a: &mut RefMemStats, b: &RefMemStats) {
    a.mem_insts += b.mem_insts;
    a.mem_lines += b.mem_lines;
    a.load_line_hits += b.load_line_hits;
    a.load_line_hits_pending += b.load_line_hits_pending;
    a.load_line_misses += b.load_line_misses;
    a.store_lines += b.store_lines;
    a.slot_shared_lines += b.slot_shared_lines;
    a.dram_busy_cycles += b.dram_busy_cycles;
}

pub(super) fn bucket(lanes: u32) -> usize {
    if lanes == 0 {
        0
    } else {
        ((lanes - 1) / 4 + 1).min(8) as usize
    }
}
