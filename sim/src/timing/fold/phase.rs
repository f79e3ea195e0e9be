//! The fold phase policy (power-gating §6 "Phase policy", §1.2 step 1).
//!
//! Phases are `N_phase` cycles on a global grid: phase `k` covers cycles `[k·N, k·N + N − 1]`.
//! At each phase start:
//! 1. **Fold windows.** INT-Count and FP-Count are read. The minority type folds aggressively,
//!    for `ceil(aggressive_frac · N)` cycles; the majority type conservatively, for
//!    `ceil(conservative_frac · N)` cycles. On a tie `fold.fold_tie` names the majority (INT by
//!    default); when both counts are 0 nothing folds. The window is the first (`PhaseStart`) or
//!    last (`PhaseEnd`) cycles of the phase.
//! 2. **Adaptive disable.** If the previous phase issued at least
//!    `ceil(disable_util · issue_width · N)` warp instructions, folding is off for the whole
//!    phase. The first phase is enabled.
//! 3. **Minimum fold length.** `N_Fold = n_pipeflush + idle_detect + bet`; with
//!    `enforce_n_fold` a window shorter than `N_Fold` is not opened.

use crate::config::fold::{ceil_frac, FoldSection, FoldTie, FoldWindow};

/// The SP instruction types that fold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpType {
    /// Integer instructions (the INT pipes).
    Int,
    /// Single-precision floating-point instructions (the FP pipes).
    Fp,
}

/// The phase policy's constants, computed once from `[fold]` and the `[pg]` timing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhasePolicy {
    /// Phase length `N`, cycles.
    pub n_phase_cycles: u64,
    /// Window length of the minority type, cycles.
    pub aggressive_cycles: u64,
    /// Window length of the majority type, cycles.
    pub conservative_cycles: u64,
    /// Instructions issued in a phase that disable folding in the next one.
    pub disable_threshold_insts: u64,
    /// Majority type on a tie.
    pub tie: FoldTie,
    /// Window placement.
    pub window: FoldWindow,
    /// `N_Fold`, cycles.
    pub n_fold_cycles: u64,
    /// Windows shorter than `N_Fold` stay closed.
    pub enforce_n_fold: bool,
}

impl PhasePolicy {
    /// The policy of `cfg` for an SM issuing `issue_width` (0 is read as 1) instructions per
    /// cycle, with the
    /// `[pg]` idle-detect threshold and BET entering `N_Fold`.
    pub fn new(
        cfg: &FoldSection,
        issue_width: u32,
        idle_detect_cycles: u32,
        bet_cycles: u32,
    ) -> Self {
        let n = cfg.n_phase.max(1) as u64;
        PhasePolicy {
            n_phase_cycles: n,
            aggressive_cycles: cfg.aggressive_window_cycles().min(n),
            conservative_cycles: cfg.conservative_window_cycles().min(n),
            disable_threshold_insts: ceil_frac(cfg.disable_util, issue_width.max(1) as u64 * n),
            tie: cfg.fold_tie,
            window: cfg.fold_window,
            n_fold_cycles: cfg.n_fold_cycles(idle_detect_cycles, bet_cycles),
            enforce_n_fold: cfg.enforce_n_fold,
        }
    }

    /// The phase index of `cycle` and the cycle's offset inside it.
    pub fn phase_of(&self, cycle: u64) -> (u64, u64) {
        (cycle / self.n_phase_cycles, cycle % self.n_phase_cycles)
    }

    /// The decision for a phase given INT-Count, FP-Count and the warp instructions the
    /// previous phase issued (`None` for the first phase).
    pub fn decide(&self, int_count: u32, fp_count: u32, prev_issued: Option<u64>) -> PhaseDecision {
        let mut d = PhaseDecision {
            disabled_by_util: prev_issued.is_some_and(|n| n >= self.disable_threshold_insts),
            int_window: None,
            fp_window: None,
        };
        if d.disabled_by_util || (int_count == 0 && fp_count == 0) {
            return d;
        }
        let int_majority = match int_count.cmp(&fp_count) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => self.tie == FoldTie::IntMajority,
        };
        let (int_len, fp_len) = if int_majority {
            (self.conservative_cycles, self.aggressive_cycles)
        } else {
            (self.aggressive_cycles, self.conservative_cycles)
        };
        d.int_window = self.window_of(int_len);
        d.fp_window = self.window_of(fp_len);
        d
    }

    fn window_of(&self, len: u64) -> Option<(u64, u64)> {
        if len == 0 || (self.enforce_n_fold && len < self.n_fold_cycles) {
            return None;
        }
        Some(match self.window {
            FoldWindow::PhaseStart => (0, len),
            FoldWindow::PhaseEnd => (self.n_phase_cycles - len, self.n_phase_cycles),
        })
    }
}

/// What one phase folds: the window `[start, end)` of phase cycles per type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseDecision {
    /// The previous phase's utilisation disabled folding for this phase.
    pub disabled_by_util: bool,
    /// INT fold window in phase cycles, `[start, end)`.
    pub int_window: Option<(u64, u64)>,
    /// FP fold window in phase cycles, `[start, end)`.
    pub fp_window: Option<(u64, u64)>,
}

impl PhaseDecision {
    /// The fold window of `ty`.
    pub fn window(&self, ty: SpType) -> Option<(u64, u64)> {
        match ty {
            SpType::Int => self.int_window,
            SpType::Fp => self.fp_window,
        }
    }

    /// True when `ty` folds at offset `phase_cycle` of the phase.
    pub fn folds(&self, ty: SpType, phase_cycle: u64) -> bool {
        self.window(ty)
            .is_some_and(|(s, e)| (s..e).contains(&phase_cycle))
    }
}

/// Per-type fold counters of §9 "Folding".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FoldPhaseStats {
    /// Phases begun.
    pub phases: u64,
    /// Phases in which the utilisation rule disabled folding.
    pub phases_disabled: u64,
    /// Cycles with folding enabled, `[INT, FP]` (for `fold_time_ratio`).
    pub fold_cycles: [u64; 2],
}

/// The phase state of one SM: the current decision, the instructions issued in the current
/// phase and the counters. Drive it with [`FoldPhases::begin_cycle`] at the start of every
/// simulated cycle (§1.2 step 1); cycles skipped because nothing could happen are accounted as
/// phases in which nothing issued.
#[derive(Clone, Debug)]
pub struct FoldPhases {
    policy: PhasePolicy,
    decision: PhaseDecision,
    phase: Option<u64>,
    issued: u64,
    stats: FoldPhaseStats,
}

impl FoldPhases {
    /// No phase begun yet.
    pub fn new(policy: PhasePolicy) -> Self {
        FoldPhases {
            policy,
            decision: PhaseDecision::default(),
            phase: None,
            issued: 0,
            stats: FoldPhaseStats::default(),
        }
    }

    /// The policy.
    pub fn policy(&self) -> &PhasePolicy {
        &self.policy
    }

    /// A call of [`FoldPhases::begin_cycle`] at `cycle` would begin a phase (and read the
    /// counts).
    pub fn starts_phase(&self, cycle: u64) -> bool {
        let (k, _) = self.policy.phase_of(cycle);
        self.phase.is_none_or(|p| p < k)
    }

    /// Rolls the phase over when `cycle` lies in a later phase than the last cycle seen;
    /// `counts` gives `(INT-Count, FP-Count)` and is called only at a phase start. Returns the
    /// number of phases begun: 0 inside a phase, 1 at a phase start, more when skipped cycles
    /// jumped over whole phases (per-phase state such as the Origami group selector then
    /// steps once per phase).
    pub fn begin_cycle(&mut self, cycle: u64, counts: impl FnOnce() -> (u32, u32)) -> u64 {
        let (k, _) = self.policy.phase_of(cycle);
        if self.phase.is_some_and(|p| p >= k) {
            return 0;
        }
        let (int_count, fp_count) = counts();
        let mut prev = self.phase.map(|_| self.issued);
        // Phases skipped over entirely issued nothing; their decisions use the same counts.
        let first = self.phase.map_or(k, |p| p + 1);
        for p in first..=k {
            if self.phase.is_some() {
                self.account(self.policy.n_phase_cycles);
            }
            self.decision = self.policy.decide(int_count, fp_count, prev);
            self.stats.phases += 1;
            self.stats.phases_disabled += u64::from(self.decision.disabled_by_util);
            self.phase = Some(p);
            prev = Some(0);
        }
        self.issued = 0;
        k + 1 - first
    }

    /// Adds the fold cycles of the current phase up to phase offset `end` to the counters.
    fn account(&mut self, end: u64) {
        for (i, ty) in [SpType::Int, SpType::Fp].into_iter().enumerate() {
            if let Some((s, e)) = self.decision.window(ty) {
                self.stats.fold_cycles[i] += e.min(end).saturating_sub(s);
            }
        }
    }

    /// Counts `n` warp instructions issued in the current phase (per `fold.util_count`: all,
    /// or SP only).
    pub fn record_issued(&mut self, n: u64) {
        self.issued += n;
    }

    /// The current phase's decision.
    pub fn decision(&self) -> &PhaseDecision {
        &self.decision
    }

    /// True when `ty` folds at `cycle` (a cycle of the current phase).
    pub fn folds(&self, ty: SpType, cycle: u64) -> bool {
        let (k, off) = self.policy.phase_of(cycle);
        self.phase == Some(k) && self.decision.folds(ty, off)
    }

    /// The counters through the end of cycle `last_cycle` (the current phase counted up to
    /// it).
    pub fn stats_through(&self, last_cycle: u64) -> FoldPhaseStats {
        let mut me = self.clone();
        if let Some(p) = self.phase {
            let start = p * self.policy.n_phase_cycles;
            let end = (last_cycle + 1)
                .saturating_sub(start)
                .min(self.policy.n_phase_cycles);
            me.account(end);
        }
        me.stats
    }
}

/// The idle-detect threshold of one type-T lane domain (power-gating §6 "Eager gating"): while
/// folding of T is enabled and `fold.eager_gating` is on, the lanes at cluster positions
/// `C/2 … C−1` (`upper_lane`; see [`super::eager_gating_lanes`]) gate after
/// `fold.eager_idle_detect` idle cycles; every other lane, and every lane outside the windows,
/// uses `default_d` (the `[pg]` threshold under `fold.lane_pg_policy`).
pub fn lane_idle_detect(
    cfg: &FoldSection,
    folding_on: bool,
    upper_lane: bool,
    default_d: u32,
) -> u32 {
    if cfg.eager_gating && folding_on && upper_lane {
        cfg.eager_idle_detect
    } else {
        default_d
    }
}
