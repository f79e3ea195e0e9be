//! Warp folding, lane shifting and eager gating in the SM (power-gating §6, §7), built from the
//! pure mechanisms of [`crate::timing::fold`].
//!
//! - **Phase policy** (§6, §1.2 step 1): at the start of every cycle the SM rolls the fold
//!   phase grid over ([`FoldPhases`]): at a phase start it reads INT-Count and FP-Count
//!   (`fold.type_count_source`) and the previous phase's issued count (adaptive disable), and
//!   opens each type's fold window (minority aggressive, majority conservative, `N_Fold`).
//! - **Eager gating** (§6): while type T's window is open, T's lane domains at cluster positions
//!   `C/2…C−1` run with `D_eager` (`fold.eager_idle_detect`) through
//!   [`crate::timing::gating::PgBank::set_idle_detect_override`]; when it closes they return
//!   to the static/adaptive D.
//! - **Per instruction** ([`SmFold::plan`]): an SP instruction of type T dispatched while T's
//!   window is open is folded ([`fold`]: sub-warp 0 = lanes `mod C < C/2`, sub-warp 1 the
//!   others moved onto the lower half, skip-empty, compaction per `origami.fold_compaction`
//!   when lane shifting is on); any other SP instruction is issued whole, left-compacted in
//!   each cluster when lane shifting is on ([`unfolded`]). The issue stage's gating check and
//!   the lane domains see the lanes of the transformed mask.
//! - **Timing** ([`IssueTiming`]): sub-warp 1 issues `II` after sub-warp 0, the port is held
//!   `2·II`, the result is written `L + II` after dispatch, plus `fold.extra_stages` for every
//!   SP instruction while the fold hardware is present (`fold.extra_stages_always`).
//!
//! Folding changes only when and on which lanes an instruction runs: per-type instruction
//! counts and per-lane active-thread counts are those of the unfolded run (§8.9).
//!
//! The SM holds it in its lane-mapping slot ([`LaneSlot`]): each active thread on its own
//! lane (the baseline), or folding; the SM's stages ask the slot, never a folding field.

use super::Sm;
use crate::activity::FoldStats;
use crate::config::fold::{FoldCompaction, FoldSection, TypeCountSource, UtilCount};
use crate::config::GpuConfig;
use crate::timing::exec::{ExecClass, PipeClass, SpPipe};
use crate::timing::fold::{
    fold, unfolded, ClusterGeometry, ExtraStages, FoldPhases, FoldPlan, IssueTiming, MaskGroup,
    PhasePolicy, SpType, ACTIVE_THREAD_BINS,
};
use crate::timing::gating::DomType;
use crate::timing::policy::HeadType;
use crate::timing::slots::GatingSlot;

/// How an SM maps an instruction's active threads onto its execution lanes.
pub(crate) enum LaneSlot {
    /// Each active thread on its own lane, every instruction whole.
    Direct,
    /// Warp folding and lane shifting (`fold.enabled`; power-gating §6, §7).
    Fold(Box<SmFold>),
}

impl LaneSlot {
    /// The slot `cfg` asks for.
    pub fn new(cfg: &GpuConfig) -> Self {
        if cfg.fold.enabled {
            Self::Fold(Box::new(SmFold::new(cfg)))
        } else {
            Self::Direct
        }
    }

    /// How an instruction of class `ec` with active lanes `mask` dispatched at `t` runs when
    /// the lane mapping transforms it ([`SmFold::plan`]); `None`: whole, on its own lanes.
    #[inline]
    pub fn plan(&self, ec: &ExecClass, mask: u32, t: u64) -> Option<FoldIssue> {
        match self {
            Self::Direct => None,
            Self::Fold(f) => f.plan(ec, mask, t),
        }
    }

    /// Counts a dispatch that `plan` transformed into `fi`.
    pub fn count(&mut self, ec: &ExecClass, mask: u32, fi: &FoldIssue) {
        if let Self::Fold(f) = self {
            f.count(ec, mask, fi);
        }
    }

    /// Counts an SP warp instruction issued (the adaptive-disable count of
    /// `fold.util_count = "SpIssued"`).
    pub fn sp_issued(&mut self) {
        if let Self::Fold(f) = self {
            f.sp_issued += 1;
        }
    }

    /// The folding record for a kernel that ended at `end` (`None` without folding).
    pub fn stats(&self, end: u64) -> Option<FoldStats> {
        match self {
            Self::Direct => None,
            Self::Fold(f) => Some(f.finish(end)),
        }
    }

    /// One line of the mapping's state at `t` for the SM's debug dump (`None`: nothing to say).
    pub fn debug_state(&self, t: u64) -> Option<String> {
        match self {
            Self::Direct => None,
            Self::Fold(f) => Some(f.debug_state(t)),
        }
    }

    fn fold_mut(&mut self) -> Option<&mut SmFold> {
        match self {
            Self::Direct => None,
            Self::Fold(f) => Some(f),
        }
    }
}

/// Folding state and counters of one SM.
pub(crate) struct SmFold {
    geom: ClusterGeometry,
    /// Placement of folded sub-warps.
    compaction: FoldCompaction,
    /// Lane shifting of every SP instruction (`origami.lane_shifting` under Origami).
    shifting: bool,
    skip_empty: bool,
    fold_sfu: bool,
    cfg: FoldSection,
    phases: FoldPhases,
    util_sp_only: bool,
    type_source: TypeCountSource,
    /// `D_eager` when `fold.eager_gating`.
    eager_d: Option<u32>,
    /// Per type (INT, FP): whether the eager threshold is applied to the upper lanes now.
    eager_on: [bool; 2],
    /// Warp instructions issued so far (all, or SP only), for the adaptive-disable count.
    issued_seen: u64,
    /// SP warp instructions issued so far.
    sp_issued: u64,
    stats: FoldStats,
}

/// How one instruction runs: its passes, whether it was folded, and its timing.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FoldIssue {
    pub plan: FoldPlan,
    pub folded: bool,
    pub timing: IssueTiming,
}

impl FoldIssue {
    /// Logical lanes the passes occupy (after folding/shifting).
    pub fn lanes(&self) -> u32 {
        self.plan.issued_union()
    }
}

fn sp_type(ec: &ExecClass) -> SpType {
    if ec.sp_pipe == SpPipe::Fp {
        SpType::Fp
    } else {
        SpType::Int
    }
}

impl SmFold {
    /// The folding state of `cfg` (`fold.enabled` must be true).
    pub fn new(cfg: &GpuConfig) -> Self {
        let geom =
            ClusterGeometry::new(cfg.gpu.warp_size.clamp(1, 32), cfg.units.sub_cluster_lanes)
                .or_else(|_| ClusterGeometry::new(32, 4))
                .expect("a 32-lane warp in clusters of 4 is valid");
        let shifting = cfg.lane_shifting_on();
        let issue_width = cfg.sched.n_per_sm.max(1) * cfg.sched.issue_per_sched.max(1);
        let policy = PhasePolicy::new(&cfg.fold, issue_width, cfg.pg.idle_detect, cfg.pg.bet);
        SmFold {
            geom,
            compaction: cfg.origami.compaction_in_effect(shifting),
            shifting,
            skip_empty: cfg.fold.skip_empty_half,
            fold_sfu: cfg.fold.fold_sfu,
            cfg: cfg.fold.clone(),
            phases: FoldPhases::new(policy),
            util_sp_only: cfg.fold.util_count == UtilCount::SpIssued,
            type_source: cfg.fold.type_count_source,
            eager_d: cfg.fold.eager_gating.then_some(cfg.fold.eager_idle_detect),
            eager_on: [false; 2],
            issued_seen: 0,
            sp_issued: 0,
            stats: FoldStats::default(),
        }
    }

    /// The type's fold window is open at cycle `t`.
    pub fn folds(&self, ty: SpType, t: u64) -> bool {
        self.phases.folds(ty, t)
    }

    /// How an instruction of class `ec` with active `mask` runs if dispatched at `t`: `None`
    /// for one the fold hardware does not touch (not an SP instruction, and not an SFU one
    /// under `fold.fold_sfu`).
    pub fn plan(&self, ec: &ExecClass, mask: u32, t: u64) -> Option<FoldIssue> {
        let (folding, sp) = match ec.pipe {
            PipeClass::Sp => (self.phases.folds(sp_type(ec), t), true),
            // (interp) SFU folding follows the FP window: the SFUs serve FP transcendentals
            PipeClass::Sfu if self.fold_sfu => (self.phases.folds(SpType::Fp, t), false),
            _ => return None,
        };
        let mask = mask & self.geom.all_mask();
        let (plan, folded) = if folding && mask != 0 {
            (
                fold(self.geom, mask, self.compaction, self.skip_empty),
                true,
            )
        } else {
            (unfolded(self.geom, mask, self.shifting && sp), false)
        };
        let transformed = folded || plan.issued_union() != mask;
        let extra = ExtraStages::for_instruction(&self.cfg, true, transformed);
        let timing = IssueTiming::new(plan.n_passes().max(1), ec.latency, ec.ii, extra);
        Some(FoldIssue {
            plan,
            folded,
            timing,
        })
    }

    /// Counts a dispatched instruction of class `ec` with active `mask` run as `f`.
    pub fn count(&mut self, ec: &ExecClass, mask: u32, f: &FoldIssue) {
        let s = &mut self.stats;
        if f.folded {
            s.sub_warps += f.plan.n_passes() as u64;
        }
        if ec.pipe != PipeClass::Sp {
            return;
        }
        let i = sp_type(ec) as usize;
        s.sp_insts[i] += 1;
        if f.folded {
            s.folded[i] += 1;
            if f.plan.is_two_pass() {
                s.two_pass[i] += 1;
            } else {
                s.skip_empty[i] += 1;
            }
        } else if f.plan.issued_union() != mask & self.geom.all_mask() {
            s.shifted += 1;
        }
        match MaskGroup::of(mask, self.geom.n_lanes()) {
            MaskGroup::Full => s.full += 1,
            MaskGroup::Partial => s.partial += 1,
        }
        let n = (mask & self.geom.all_mask()).count_ones();
        if let Some(b) = ACTIVE_THREAD_BINS
            .iter()
            .position(|&(lo, hi)| (lo..=hi).contains(&n))
        {
            s.active_threads_hist[b] += 1;
        } else {
            s.no_thread += 1;
        }
    }

    /// The phase decision, the windows open at `t` and the eager state (for diagnostics).
    pub fn debug_state(&self, t: u64) -> String {
        format!(
            "decision {:?} folds int {} fp {} eager_on {:?}",
            self.phases.decision(),
            self.folds(SpType::Int, t),
            self.folds(SpType::Fp, t),
            self.eager_on
        )
    }

    /// The record of the SM for a kernel that ended at cycle `end`.
    pub fn finish(&self, end: u64) -> FoldStats {
        let mut s = self.stats.clone();
        let p = self.phases.stats_through(end.saturating_sub(1));
        s.sm_cycles = end;
        s.phases = p.phases;
        s.phases_disabled = p.phases_disabled;
        s.fold_cycles = p.fold_cycles;
        s
    }
}

impl Sm {
    /// Power-gating §1.2 step 1 for folding, at the start of cycle `t`: the issued count of
    /// the cycles since the last call goes to the phase that held them, the phase grid rolls
    /// over, and the eager idle-detect threshold follows each type's fold window.
    pub fn fold_begin_cycle(&mut self, t: u64) {
        let Some(f) = self.lanes.fold_mut() else {
            return;
        };
        let now = if f.util_sp_only {
            f.sp_issued
        } else {
            self.act.warp_insts
        };
        let delta = now - f.issued_seen;
        f.issued_seen = now;
        f.phases.record_issued(delta);
        let source = f.type_source;
        // INT-Count and FP-Count are read only when a phase starts
        let counts = if f.phases.starts_phase(t) {
            match source {
                TypeCountSource::ActiveSet => self.actv(),
                TypeCountSource::AllWarps => self.all_warp_type_counts(),
            }
        } else {
            [0, 0]
        };
        let Some(f) = self.lanes.fold_mut() else {
            return;
        };
        f.phases.begin_cycle(t, || (counts[0], counts[1]));
        let Some(d) = f.eager_d else { return };
        let on = [f.folds(SpType::Int, t), f.folds(SpType::Fp, t)];
        if on == f.eager_on {
            return;
        }
        let was = f.eager_on;
        f.eager_on = on;
        if let GatingSlot::Pg(g) = &mut self.exec.gating {
            for ty in [DomType::Int, DomType::Fp] {
                let i = ty as usize;
                if on[i] == was[i] {
                    continue;
                }
                for k in 0..g.eager_doms[i].len() {
                    let u = g.eager_doms[i][k];
                    g.bank.set_idle_detect_override(u, on[i].then_some(d));
                }
            }
        }
    }

    /// `[INT, FP]` heads over every live warp (`fold.type_count_source = "AllWarps"`).
    fn all_warp_type_counts(&self) -> [u32; 2] {
        let mut a = [0u32; 2];
        for live in &self.issue.sched_live {
            for &w in live {
                let w = w as usize;
                if !self.front.is_empty(w) && !self.warps.w_exited[w] {
                    match self.head_type(w) {
                        HeadType::Int => a[0] += 1,
                        HeadType::Fp => a[1] += 1,
                        _ => {}
                    }
                }
            }
        }
        a
    }

    /// The active mask the gating check of an instruction of class `ec` sees at `t`: its lanes
    /// after folding/shifting when the fold hardware transforms it, else `mask`.
    #[inline]
    pub fn fold_need_mask(&self, ec: &ExecClass, mask: u32, t: u64) -> u32 {
        match self.lanes.plan(ec, mask, t) {
            Some(p) => p.lanes(),
            None => mask,
        }
    }
}
