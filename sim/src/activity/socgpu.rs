//! The SOCGPU issue stage's activity counters (issue-stage §5), summed over the SMs of a
//! kernel: instruction-buffer inserts, dependence-matrix row writes with their comparisons,
//! NOR evaluations and column clears, candidate-set sizes, ready-counter increments, seniority
//! updates, flushes and squashes, control instructions, smart-dual re-selections and the
//! buffer occupancy. Present in a kernel's record only when `sched.ooo.mode = "socgpu"`. Also
//! [`SocgpuHwInputs`], the inputs of the §4 bit-count formulas the cost models read, derived
//! from the configuration ([`SocgpuHwInputs::of_config`]).

use serde::{Deserialize, Serialize};

/// SOCGPU counters of one kernel (all SMs, all launches).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SocgpuStats {
    /// `sched.ooo.ib_depth`: entries per warp buffer (N).
    pub ib_depth: u32,
    /// Instructions written into a buffer entry.
    pub ib_inserts: u64,
    /// Entries read out to a collector at issue.
    pub ib_reads: u64,
    /// Dependence-matrix rows written (one per insert).
    pub dm_row_writes: u64,
    /// Entry comparisons made at insert (one per valid entry compared with the new one; each
    /// compares every register field pair of the two instructions).
    pub dm_comparisons: u64,
    /// Row-NOR evaluations: valid entries summed over cycles.
    pub dm_nor_evals: u64,
    /// Dependence-matrix columns cleared (write-backs and removals).
    pub dm_column_clears: u64,
    /// Per warp-cycle with a non-empty buffer: how many candidates it had (index = count,
    /// 0..=N).
    pub candidate_hist: Vec<u64>,
    /// Ready-counter increments (MostReady/LeastReady only).
    pub ready_ctr_increments: u64,
    /// Seniority decrements at write-back or removal.
    pub seniority_updates: u64,
    /// Flushes (an issued entry changed the warp's control flow, §2.5).
    pub flushes: u64,
    /// Valid non-issued entries discarded by flushes.
    pub flush_discarded: u64,
    /// Issued entries squashed by a flush (expected 0; non-zero is a diagnostic).
    pub ib_squash: u64,
    /// Control instructions (branch, barrier, return, membar) inserted.
    pub ctl_insts: u64,
    /// Instructions issued from the buffers.
    pub issued: u64,
    /// Cycles in which a warp issued two instructions.
    pub dual_issues: u64,
    /// Second picks re-run by smart dual issue.
    pub smart_dual_reselections: u64,
    /// Issues that bypassed an older non-issued entry of the same warp.
    pub reorders: u64,
    /// Per resident warp-cycle: valid entries in its buffer (index = count, 0..=N).
    pub occupancy_hist: Vec<u64>,
}

impl SocgpuStats {
    /// Empty counters for buffers of `n` entries.
    pub fn new(n: u32) -> SocgpuStats {
        SocgpuStats {
            ib_depth: n,
            candidate_hist: vec![0; n as usize + 1],
            occupancy_hist: vec![0; n as usize + 1],
            ..Default::default()
        }
    }

    /// Element-wise sum (SMs of a launch, launches of a kernel, the aggregate).
    pub fn merge(&mut self, o: &SocgpuStats) {
        self.ib_depth = self.ib_depth.max(o.ib_depth);
        self.ib_inserts += o.ib_inserts;
        self.ib_reads += o.ib_reads;
        self.dm_row_writes += o.dm_row_writes;
        self.dm_comparisons += o.dm_comparisons;
        self.dm_nor_evals += o.dm_nor_evals;
        self.dm_column_clears += o.dm_column_clears;
        add_hist(&mut self.candidate_hist, &o.candidate_hist);
        self.ready_ctr_increments += o.ready_ctr_increments;
        self.seniority_updates += o.seniority_updates;
        self.flushes += o.flushes;
        self.flush_discarded += o.flush_discarded;
        self.ib_squash += o.ib_squash;
        self.ctl_insts += o.ctl_insts;
        self.issued += o.issued;
        self.dual_issues += o.dual_issues;
        self.smart_dual_reselections += o.smart_dual_reselections;
        self.reorders += o.reorders;
        add_hist(&mut self.occupancy_hist, &o.occupancy_hist);
    }

    /// Control instructions per inserted instruction.
    pub fn ctl_fraction(&self) -> f64 {
        ratio(self.ctl_insts as f64, self.ib_inserts as f64)
    }

    /// Flushes per 100 issued warp instructions.
    pub fn flushes_per_100(&self) -> f64 {
        ratio(100.0 * self.flushes as f64, self.issued as f64)
    }

    /// Mean valid entries per resident warp-cycle.
    pub fn mean_occupancy(&self) -> f64 {
        mean_of(&self.occupancy_hist)
    }

    /// Mean candidates per warp-cycle with a non-empty buffer.
    pub fn mean_candidates(&self) -> f64 {
        mean_of(&self.candidate_hist)
    }
}

fn add_hist(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

fn ratio(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        0.0
    } else {
        a / b
    }
}

fn mean_of(h: &[u64]) -> f64 {
    let n: u64 = h.iter().sum();
    let s: u64 = h.iter().enumerate().map(|(i, &c)| i as u64 * c).sum();
    ratio(s as f64, n as f64)
}

impl super::IssueStageCounters for SocgpuStats {
    fn json_key(&self) -> &'static str {
        "socgpu"
    }

    /// The counters with `ctl_fraction`, `flushes_per_100_insts`, `mean_occupancy` and
    /// `mean_candidates` added.
    fn summary_json(&self) -> serde_json::Value {
        let mut j = serde_json::to_value(self).expect("SocgpuStats serialises");
        if let Some(m) = j.as_object_mut() {
            m.insert("ctl_fraction".into(), self.ctl_fraction().into());
            m.insert(
                "flushes_per_100_insts".into(),
                self.flushes_per_100().into(),
            );
            m.insert("mean_occupancy".into(), self.mean_occupancy().into());
            m.insert("mean_candidates".into(), self.mean_candidates().into());
        }
        j
    }

    /// Buffer and dependence-matrix activity, candidates, flushes, control instructions,
    /// reorders and dual issues (issue-stage §5).
    fn summary_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "SOCGPU issue (IB depth {}):", self.ib_depth);
        let _ = writeln!(
            s,
            "  IB inserts {}  reads {}  mean occupancy {:.2} entries/warp",
            self.ib_inserts,
            self.ib_reads,
            self.mean_occupancy()
        );
        let _ = writeln!(
            s,
            "  DM row writes {} ({} entry comparisons)  NOR evaluations {}  column clears {}",
            self.dm_row_writes, self.dm_comparisons, self.dm_nor_evals, self.dm_column_clears
        );
        let _ = writeln!(
            s,
            "  mean candidates {:.2}  ready-counter increments {}  seniority updates {}",
            self.mean_candidates(),
            self.ready_ctr_increments,
            self.seniority_updates
        );
        let _ = writeln!(
            s,
            "  ctl insts {} ({:.1}% of insts)  flushes {} ({:.2} per 100 insts)  discarded {}  \
             ib_squash {}",
            self.ctl_insts,
            100.0 * self.ctl_fraction(),
            self.flushes,
            self.flushes_per_100(),
            self.flush_discarded,
            self.ib_squash
        );
        let _ = writeln!(
            s,
            "  reorders {}  dual issues {}  smart-dual re-selections {}",
            self.reorders, self.dual_issues, self.smart_dual_reselections
        );
        s
    }

    fn precedes_reconvergence(&self) -> bool {
        true
    }
}

/// The inputs of the §4 bit-count formulas for one SOCGPU configuration, for the cost models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SocgpuHwInputs {
    /// N: instruction-buffer entries per warp.
    pub ib_depth: u32,
    /// W: warps per SM.
    pub warps_per_sm: u32,
    /// S: SMs.
    pub n_sm: u32,
    /// ⌈log2 N⌉: seniority bits per entry.
    pub seniority_bits: u32,
    /// C: ready-counter bits per entry (0 when the policy keeps no counters).
    pub ready_ctr_bits: u32,
    /// Dependence-matrix flops per warp, N(N−1) with the diagonal hard-wired.
    pub dm_bits: u32,
    /// Baseline I-buffer entries per warp (the in-order design's IB).
    pub baseline_ib_entries: u32,
    /// The local policy.
    pub policy: crate::config::OooLocalPolicy,
}

/// ⌈log2 n⌉ (0 for n ≤ 1).
fn ceil_log2(n: u32) -> u32 {
    u32::BITS - n.saturating_sub(1).leading_zeros()
}

impl SocgpuHwInputs {
    /// Ready-counter width C of a configuration: `sched.ooo.ready_ctr_bits`, or ⌈log2 N⌉ + 2
    /// when that is 0 (issue-stage §2.1 [G]).
    pub fn ready_ctr_bits_of(cfg: &crate::config::GpuConfig) -> u32 {
        let o = &cfg.sched.ooo;
        if o.ready_ctr_bits == 0 {
            ceil_log2(o.ib_depth) + 2
        } else {
            o.ready_ctr_bits
        }
    }

    /// The §4 inputs of a SOCGPU configuration (`None` when `sched.ooo.mode` is not
    /// "socgpu").
    pub fn of_config(cfg: &crate::config::GpuConfig) -> Option<Self> {
        if cfg.sched.ooo.mode != crate::config::OooMode::Socgpu {
            return None;
        }
        let n = cfg.sched.ooo.ib_depth;
        let policy = cfg.sched.ooo.local_policy;
        Some(Self {
            ib_depth: n,
            warps_per_sm: cfg.sm.max_warps,
            n_sm: cfg.gpu.n_sm,
            seniority_bits: ceil_log2(n),
            ready_ctr_bits: if policy.uses_ready_ctr() {
                Self::ready_ctr_bits_of(cfg)
            } else {
                0
            },
            dm_bits: n * n.saturating_sub(1),
            baseline_ib_entries: cfg.frontend.ibuffer_entries,
            policy,
        })
    }
}
