//! `GatingStats`: what the power-gating controllers did, per gating domain (power-gating §9,
//! simulator side). `models` costs it with the §1.6 accounting: per domain the cycles `T`, the
//! gated-length histogram (every event's `G`), the wakeup cycles (truncated at kernel end), the
//! event count, and the `bet`/`wakeup` used.
//!
//! Present in a `KernelActivity` only when `pg.policy` is not `"None"`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Idle-run histogram bins: lengths 1..=63 exactly, and one bin for ≥ 64.
pub const IDLE_RUN_BINS: usize = 64;

/// The gating record of one kernel (all launches) or of the aggregate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GatingStats {
    /// `pg.policy`.
    pub policy: String,
    /// `fold.lane_pg_policy` when the lane domains run it and it differs from `policy`
    /// (lane-group gating with folding; absent otherwise, when every domain runs `policy`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lane_policy: Option<String>,
    /// `pg.bet`: break-even time in cycles used by the controllers.
    pub bet: u32,
    /// `pg.wakeup`: wakeup delay W in cycles.
    pub wakeup: u32,
    /// `pg.idle_detect`: static D, also `D_ref` of the A/B/C classification.
    pub idle_detect: u32,
    /// `pg.wakeup_cycles_leak` (for the accounting in `models`).
    pub wakeup_cycles_leak: bool,
    /// `pg.residual_leak_r` (Fixed mode residual leakage fraction, for `models`).
    pub residual_leak_r: f64,
    /// `pg.short_bubble_cycles`: idle runs shorter than this count as short bubbles.
    pub short_bubble_limit: u32,
    /// Maximum number of cycles any ready instruction waited between the first cycle the issue
    /// stage found it hazard-free and its issue (over all SMs).
    pub max_ready_wait: u64,
    /// Per domain, SM-major, in the SM's pipe order.
    pub domains: Vec<DomainStats>,
    /// Warp folding, lane shifting and the Origami mask groups (power-gating §9 "Folding" and
    /// "Workload"), summed over the SMs; present when `fold.enabled` (then also without gating
    /// controllers, with no domains).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fold: Option<FoldStats>,
    /// Size of the schedulers' active sets (power-gating §9 "Workload"), over all SMs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_set: Option<ActiveSetStats>,
    /// The same per SM, in SM-id order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active_set_per_sm: Vec<ActiveSetStats>,
}

/// Size of the warp schedulers' active sets, sampled once per scheduler-cycle after issue: the
/// two-level / GATES / Origami active set, or every live warp of the scheduler for a policy
/// without one (the set the `ACTV[T]` counters of power-gating §3 run over).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ActiveSetStats {
    /// Scheduler-cycles sampled (cycles × schedulers).
    pub sched_cycles: u64,
    /// Σ over the sampled scheduler-cycles of the active-set size, warp-cycles.
    pub warp_cycles: u64,
    /// Largest active set seen on one scheduler, warps.
    pub max_warps: u32,
}

impl ActiveSetStats {
    /// Counts one scheduler-cycle whose active set holds `warps` warps.
    #[inline]
    pub fn sample(&mut self, warps: u32) {
        self.sched_cycles += 1;
        self.warp_cycles += warps as u64;
        self.max_warps = self.max_warps.max(warps);
    }

    /// `cycles` scheduler-cycles of the same size `warps` (as many [`ActiveSetStats::sample`]
    /// calls).
    pub fn sample_n(&mut self, warps: u32, cycles: u64) {
        if cycles == 0 {
            return;
        }
        self.sched_cycles += cycles;
        self.warp_cycles += warps as u64 * cycles;
        self.max_warps = self.max_warps.max(warps);
    }

    /// Time-weighted mean size over the scheduler-cycles, warps (0 when nothing was sampled).
    pub fn mean_warps(&self) -> f64 {
        if self.sched_cycles == 0 {
            0.0
        } else {
            self.warp_cycles as f64 / self.sched_cycles as f64
        }
    }

    /// Adds `o` (another SM, launch or kernel): the sums add, the maximum is the larger.
    pub fn merge(&mut self, o: &ActiveSetStats) {
        self.sched_cycles += o.sched_cycles;
        self.warp_cycles += o.warp_cycles;
        self.max_warps = self.max_warps.max(o.max_warps);
    }
}

/// Types of the folding counters, in index order: `[INT, FP]`.
pub const FOLD_TYPES: [&str; 2] = ["int", "fp"];

/// Labels of [`FoldStats::active_threads_hist`]: the §9 bins of active threads per issued SP
/// warp instruction.
pub const ACTIVE_THREAD_BIN_LABELS: [&str; 6] = ["1-4", "5-8", "9-12", "13-16", "17-24", "25-32"];

/// What warp folding did, summed over the SMs (power-gating §6, §7, §9). Index `[0]` is INT,
/// `[1]` FP (the SP pipes); an SFU instruction folded under `fold.fold_sfu` counts in the pass
/// counters only.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FoldStats {
    /// Σ over SMs of the kernel's cycles (the denominator of the time ratios).
    pub sm_cycles: u64,
    /// Fold phases begun, Σ over SMs.
    pub phases: u64,
    /// Phases in which folding was off by the utilisation rule (adaptive disable).
    pub phases_disabled: u64,
    /// Per type: cycles with the type's fold window open (folding enabled), Σ over SMs.
    pub fold_cycles: [u64; 2],
    /// Per type: SP warp instructions dispatched (the eligible ones).
    pub sp_insts: [u64; 2],
    /// Per type: instructions dispatched while the type's fold window was open (folded, in
    /// two passes or, by skip-empty, in one).
    pub folded: [u64; 2],
    /// Per type: folded instructions issued as two sub-warps.
    pub two_pass: [u64; 2],
    /// Per type: folded instructions issued in one pass because one sub-warp was empty.
    pub skip_empty: [u64; 2],
    /// Sub-warp passes issued by folded instructions (two per two-pass fold, one per skip).
    pub sub_warps: u64,
    /// Unfolded SP instructions whose threads lane shifting moved to other lanes.
    pub shifted: u64,
    /// SP warp instructions whose active mask is all ones (Full) and the others (Partial).
    pub full: u64,
    /// See `full`.
    pub partial: u64,
    /// Histogram of active threads per dispatched SP warp instruction over
    /// [`ACTIVE_THREAD_BIN_LABELS`].
    pub active_threads_hist: [u64; 6],
    /// SP warp instructions dispatched with no active thread (counted as Partial, in no bin).
    pub no_thread: u64,
}

impl FoldStats {
    /// `fold_time_ratio` of type `i` (0 INT, 1 FP): cycles with folding enabled ÷ T.
    pub fn fold_time_ratio(&self, i: usize) -> f64 {
        self.fold_cycles[i] as f64 / self.sm_cycles.max(1) as f64
    }

    /// `fold_instr_ratio` of type `i`: folded ÷ dispatched SP instructions of the type (0 when
    /// none were dispatched).
    pub fn fold_instr_ratio(&self, i: usize) -> f64 {
        if self.sp_insts[i] == 0 {
            0.0
        } else {
            self.folded[i] as f64 / self.sp_insts[i] as f64
        }
    }

    /// Adds `o` (another SM, launch or kernel).
    pub fn merge(&mut self, o: &FoldStats) {
        self.sm_cycles += o.sm_cycles;
        self.phases += o.phases;
        self.phases_disabled += o.phases_disabled;
        self.sub_warps += o.sub_warps;
        self.shifted += o.shifted;
        self.full += o.full;
        self.partial += o.partial;
        self.no_thread += o.no_thread;
        for i in 0..2 {
            self.fold_cycles[i] += o.fold_cycles[i];
            self.sp_insts[i] += o.sp_insts[i];
            self.folded[i] += o.folded[i];
            self.two_pass[i] += o.two_pass[i];
            self.skip_empty[i] += o.skip_empty[i];
        }
        for (a, b) in self
            .active_threads_hist
            .iter_mut()
            .zip(o.active_threads_hist)
        {
            *a += b;
        }
    }
}

/// Counters of one gating domain.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DomainStats {
    /// SM id.
    pub sm: u32,
    /// Unit name (`sp0`, `sfu1`, …).
    pub unit: String,
    /// Pipe/type: `int`, `fp` or `sfu`.
    pub pipe: String,
    /// First lane of the domain.
    pub first_lane: u32,
    /// Lanes in the domain.
    pub lanes: u32,
    /// Cycles T (the kernel's cycles).
    pub cycles: u64,
    /// Cycles with an instruction in flight in the domain.
    pub busy: u64,
    /// `cycles − busy`.
    pub idle: u64,
    /// Idle_detect cycles that were busy.
    pub idle_detect_busy: u64,
    /// Idle_detect cycles that were idle.
    pub idle_detect_idle: u64,
    /// Uncompensated (gated, gated-cycle number ≤ BET) cycles.
    pub uncompensated: u64,
    /// Compensated (gated, gated-cycle number > BET) cycles.
    pub compensated: u64,
    /// Wakeup cycles (truncated at kernel end): `C_wake`.
    pub wakeup: u64,
    /// Gating events (an event open at kernel end counts when `pg.charge_open_event`).
    pub events: u64,
    /// Wakeups started.
    pub wakeups: u64,
    /// Events with `G ≤ BET` (non-positive net saving).
    pub events_g_le_bet: u64,
    /// Events with `G > BET`.
    pub events_g_gt_bet: u64,
    /// Σ G over events: `C_gated`.
    pub gated_cycles: u64,
    /// Histogram of G: G → events.
    pub g_hist: BTreeMap<u64, u64>,
    /// Wakes requested in the first cycle the blackout counter read zero (g == BET).
    pub critical_wakeups: u64,
    /// Wakes whose instruction had been blocked for at least one cycle.
    pub blocked_wakeups: u64,
    /// Cycles in which a candidate needing this domain was blocked by its blackout.
    pub blocked_demand_cycles: u64,
    /// Idle runs by length: index i = length i+1 for i < 63, index 63 = length ≥ 64.
    pub idle_run_count: Vec<u64>,
    /// Cycles in the idle runs of each bin.
    pub idle_run_cycles: Vec<u64>,
    /// Idle runs in regions A (L ≤ D_ref), B (D_ref < L ≤ D_ref+BET), C (L > D_ref+BET).
    pub region_count: [u64; 3],
    /// Cycles in the idle runs of regions A, B, C.
    pub region_cycles: [u64; 3],
    /// Cycles in idle runs shorter than `short_bubble_limit`.
    pub short_bubble_cycles: u64,
    /// Per adaptive-D epoch: critical wakeups of this domain (empty unless adaptive D is on).
    pub epoch_critical: Vec<u64>,
    /// Per adaptive-D epoch: the D in effect for this domain after the epoch's end.
    pub epoch_d: Vec<u32>,
}

impl DomainStats {
    /// A zeroed record with its histograms sized.
    pub fn new(sm: u32, unit: &str, pipe: &str, first_lane: u32, lanes: u32) -> Self {
        DomainStats {
            sm,
            unit: unit.to_string(),
            pipe: pipe.to_string(),
            first_lane,
            lanes,
            idle_run_count: vec![0; IDLE_RUN_BINS],
            idle_run_cycles: vec![0; IDLE_RUN_BINS],
            ..Default::default()
        }
    }

    /// Sum of the state cycles; equals `cycles` by construction.
    pub fn state_cycles(&self) -> u64 {
        self.idle_detect_busy
            + self.idle_detect_idle
            + self.uncompensated
            + self.compensated
            + self.wakeup
    }

    /// `(C_comp − C_uncomp)/T` (may be negative).
    pub fn compensated_pct_signed(&self) -> f64 {
        (self.compensated as f64 - self.uncompensated as f64) / self.cycles.max(1) as f64
    }

    /// `(C_gated − BET·N_events)/T`.
    pub fn net_gain_pct(&self, bet: u32) -> f64 {
        (self.gated_cycles as f64 - bet as f64 * self.events as f64) / self.cycles.max(1) as f64
    }

    /// Adds `o` (same domain, a later launch or another kernel).
    pub fn merge(&mut self, o: &DomainStats) {
        for (a, b) in [
            (&mut self.cycles, o.cycles),
            (&mut self.busy, o.busy),
            (&mut self.idle, o.idle),
            (&mut self.idle_detect_busy, o.idle_detect_busy),
            (&mut self.idle_detect_idle, o.idle_detect_idle),
            (&mut self.uncompensated, o.uncompensated),
            (&mut self.compensated, o.compensated),
            (&mut self.wakeup, o.wakeup),
            (&mut self.events, o.events),
            (&mut self.wakeups, o.wakeups),
            (&mut self.events_g_le_bet, o.events_g_le_bet),
            (&mut self.events_g_gt_bet, o.events_g_gt_bet),
            (&mut self.gated_cycles, o.gated_cycles),
            (&mut self.critical_wakeups, o.critical_wakeups),
            (&mut self.blocked_wakeups, o.blocked_wakeups),
            (&mut self.blocked_demand_cycles, o.blocked_demand_cycles),
            (&mut self.short_bubble_cycles, o.short_bubble_cycles),
        ] {
            *a += b;
        }
        for (k, v) in &o.g_hist {
            *self.g_hist.entry(*k).or_default() += v;
        }
        sum_vec(&mut self.idle_run_count, &o.idle_run_count);
        sum_vec(&mut self.idle_run_cycles, &o.idle_run_cycles);
        for i in 0..3 {
            self.region_count[i] += o.region_count[i];
            self.region_cycles[i] += o.region_cycles[i];
        }
        self.epoch_critical.extend_from_slice(&o.epoch_critical);
        self.epoch_d.extend_from_slice(&o.epoch_d);
    }
}

fn sum_vec(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// Domain class for aggregation (§9: INT/FP cluster, SFU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DomainClass {
    /// SP-cluster INT pipes.
    IntCluster,
    /// SP-cluster FP pipes.
    FpCluster,
    /// SFU units.
    Sfu,
}

impl GatingStats {
    /// Adds `o` (the same machine and configuration): domains element-wise, the wait maximum.
    pub fn merge(&mut self, o: &GatingStats) {
        if self.domains.is_empty() && self.policy.is_empty() {
            *self = o.clone();
            return;
        }
        self.max_ready_wait = self.max_ready_wait.max(o.max_ready_wait);
        match (&mut self.fold, &o.fold) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.fold = Some(b.clone()),
            _ => {}
        }
        match (&mut self.active_set, &o.active_set) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.active_set = Some(*b),
            _ => {}
        }
        if self.active_set_per_sm.len() < o.active_set_per_sm.len() {
            self.active_set_per_sm
                .resize(o.active_set_per_sm.len(), ActiveSetStats::default());
        }
        for (a, b) in self.active_set_per_sm.iter_mut().zip(&o.active_set_per_sm) {
            a.merge(b);
        }
        for (i, d) in o.domains.iter().enumerate() {
            match self.domains.get_mut(i) {
                Some(s) => s.merge(d),
                None => self.domains.push(d.clone()),
            }
        }
    }

    /// Sum over the domains of one class, on SM `sm` (`None`: every SM). The identity fields
    /// of the result are those of the first domain summed; the per-epoch critical wakeups add
    /// epoch by epoch, and the D trace is the first domain's.
    pub fn aggregate(&self, class: DomainClass, sm: Option<u32>) -> Option<DomainStats> {
        let mut out: Option<DomainStats> = None;
        for d in &self.domains {
            let c = match d.pipe.as_str() {
                "int" => DomainClass::IntCluster,
                "fp" => DomainClass::FpCluster,
                _ => DomainClass::Sfu,
            };
            if c != class || sm.is_some_and(|s| s != d.sm) {
                continue;
            }
            match out.as_mut() {
                None => out = Some(d.clone()),
                Some(o) => {
                    // the per-epoch traces of parallel domains add epoch by epoch (`merge`
                    // appends, for a later launch); the D trace stays the first domain's
                    let (cw, dt) = (
                        std::mem::take(&mut o.epoch_critical),
                        std::mem::take(&mut o.epoch_d),
                    );
                    o.merge(d);
                    o.epoch_critical = cw;
                    o.epoch_d = dt;
                    sum_vec(&mut o.epoch_critical, &d.epoch_critical);
                }
            }
        }
        out
    }
}
