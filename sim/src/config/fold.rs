//! `[fold]` and `[origami]`: the knobs of warp folding, lane shifting and the Origami mask
//! grouping (power-gating spec §6, §7, §10). The mechanisms they drive are pure functions in
//! `timing::fold`.
//!
//! Two keys of the spec's `[fold]` table already exist in `[units]` and are not duplicated:
//! - `fold.cluster_lanes` is `units.sub_cluster_lanes` (lanes of one SIMT cluster, the
//!   granularity of folding and shifting; must be even and divide the warp);
//! - `fold.lane_map` is `units.lane_map` (`Identity`, or `DoublePumped16`: physical lane p
//!   serves logical lanes p and p + 16), so the lane domains use the same thread-to-lane map as
//!   the execution units.
//!
//! The Origami scheduler is the spec's `sched.kind = "Origami"`, here `sched.policy =
//! "origami"`. The SM folds, shifts and groups through `timing::sm::fold` and the scheduler
//! registry; [`GpuConfig::fold_errors`] refuses the combinations it cannot honour (a key that
//! would be ignored, Origami without folding, eager gating without lane domains), naming both
//! keys. Range checks run first so that a bad value is reported as bad.

use serde::{Deserialize, Serialize};

use super::pg::{Granularity, PgPolicy};
use super::schema::{GpuConfig, SchedPolicy};

/// `[fold]`: warp folding (power-gating §6) and eager gating of the upper cluster lanes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FoldSection {
    /// `fold.enabled`: fold SP instructions inside the phase windows (default false).
    pub enabled: bool,
    /// `fold.n_phase`: phase length in issue cycles, on a global grid (default 300).
    pub n_phase: u32,
    /// `fold.aggressive_frac`: fraction of the phase the minority type folds (default 0.70).
    pub aggressive_frac: f64,
    /// `fold.conservative_frac`: fraction of the phase the majority type folds (default 0.40).
    pub conservative_frac: f64,
    /// `fold.disable_util`: a previous phase that issued at least this fraction of
    /// `issue_width · n_phase` slots disables folding for the next phase (default 0.90).
    pub disable_util: f64,
    /// `fold.util_count`: which issued instructions the utilisation rule counts.
    pub util_count: UtilCount,
    /// `fold.type_count_source`: where INT-Count and FP-Count are read at phase start.
    pub type_count_source: TypeCountSource,
    /// `fold.fold_tie`: which type is the majority when INT-Count equals FP-Count.
    pub fold_tie: FoldTie,
    /// `fold.fold_window`: where in the phase the fold windows lie.
    pub fold_window: FoldWindow,
    /// `fold.n_pipeflush`: cycles to drain the pipeline, the first term of
    /// `N_Fold = n_pipeflush + idle_detect + bet` (default 19, the longest non-divide SP latency).
    pub n_pipeflush: u32,
    /// `fold.enforce_n_fold`: a window shorter than `N_Fold` cycles is not opened.
    pub enforce_n_fold: bool,
    /// `fold.extra_stages`: pipeline stages the fold hardware adds (shift before EX, re-shift
    /// after EX; default 2).
    pub extra_stages: u32,
    /// `fold.extra_stages_always`: the extra stages apply to every SP instruction whenever the
    /// hardware is present, folded or not (default true).
    pub extra_stages_always: bool,
    /// `fold.extra_stages_busy`: the extra stages count as busy cycles for gating (default false).
    pub extra_stages_busy: bool,
    /// `fold.skip_empty_half`: a sub-warp with an empty mask is not issued (default true).
    pub skip_empty_half: bool,
    /// `fold.fold_sfu`: SFU instructions are folded too (default false).
    pub fold_sfu: bool,
    /// `fold.eager_gating`: while a type folds, its upper cluster lanes gate with
    /// `eager_idle_detect` (default true).
    pub eager_gating: bool,
    /// `fold.eager_idle_detect`: idle-detect threshold of the upper lanes while folding, cycles
    /// (default 1; at most 7, the 3-bit lane idle counter).
    pub eager_idle_detect: u32,
    /// `fold.lane_pg_policy`: gating policy of the lane domains outside eager gating.
    pub lane_pg_policy: LanePgPolicy,
}

impl FoldSection {
    /// True when every key holds its default (the section is then not serialised, so that
    /// configurations without folding keep their text and hash).
    pub fn is_default(&self) -> bool {
        *self == FoldSection::default()
    }
}

impl Default for FoldSection {
    fn default() -> Self {
        FoldSection {
            enabled: false,
            n_phase: 300,
            aggressive_frac: 0.70,
            conservative_frac: 0.40,
            disable_util: 0.90,
            util_count: UtilCount::AllIssued,
            type_count_source: TypeCountSource::ActiveSet,
            fold_tie: FoldTie::IntMajority,
            fold_window: FoldWindow::PhaseStart,
            n_pipeflush: 19,
            enforce_n_fold: true,
            extra_stages: 2,
            extra_stages_always: true,
            extra_stages_busy: false,
            skip_empty_half: true,
            fold_sfu: false,
            eager_gating: true,
            eager_idle_detect: 1,
            lane_pg_policy: LanePgPolicy::Conventional,
        }
    }
}

/// `fold.util_count`: the instructions the adaptive-disable rule counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UtilCount {
    /// Every issued warp instruction (default).
    AllIssued,
    /// Issued SP (INT and FP) warp instructions only.
    SpIssued,
}

/// `fold.type_count_source`: where INT-Count and FP-Count come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TypeCountSource {
    /// Active-set warps whose head is of the type (the GATES `ACTV` counters; default).
    ActiveSet,
    /// All resident warps whose head is of the type.
    AllWarps,
}

/// `fold.fold_tie`: the majority type on a tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FoldTie {
    /// INT is the majority (folds conservatively), FP the minority (default).
    IntMajority,
    /// FP is the majority, INT the minority.
    FpMajority,
}

/// `fold.fold_window`: placement of the fold windows inside a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FoldWindow {
    /// The window is the first cycles of the phase (default).
    PhaseStart,
    /// The window is the last cycles of the phase.
    PhaseEnd,
}

/// `fold.lane_pg_policy`: the gating policy of the lane domains (the `pg.policy` names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LanePgPolicy {
    /// Lanes are never gated.
    None,
    /// Idle-detect gating, wake permitted at any time (default).
    Conventional,
    /// Blackout: no wake before BET gated cycles.
    NaiveBlackout,
    /// Blackout coordinated across the domains of a type.
    CoordinatedBlackout,
}

/// `[origami]`: the Origami scheduler's mask grouping and lane shifting (power-gating §7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OrigamiSection {
    /// `origami.grouping`: order SP candidates by mask group (Full / Partial) (default true).
    pub grouping: bool,
    /// `origami.force_switch_phases`: M, the consecutive phases one group may be preferred
    /// before the other is forced (default 2; at least 1).
    pub force_switch_phases: u32,
    /// `origami.group_tie`: the preferred group when `n_full == n_partial`.
    pub group_tie: GroupTie,
    /// `origami.lane_shifting`: move each cluster's active threads to its lowest lanes
    /// (default true).
    pub lane_shifting: bool,
    /// `origami.fold_compaction`: where a folded sub-warp's threads go inside their cluster.
    pub fold_compaction: FoldCompaction,
}

impl OrigamiSection {
    /// True when every key holds its default (the section is then not serialised).
    pub fn is_default(&self) -> bool {
        *self == OrigamiSection::default()
    }
}

impl Default for OrigamiSection {
    fn default() -> Self {
        OrigamiSection {
            grouping: true,
            force_switch_phases: 2,
            group_tie: GroupTie::KeepCurrent,
            lane_shifting: true,
            fold_compaction: FoldCompaction::LeftCompact,
        }
    }
}

/// `origami.group_tie`: the preferred group when both groups count the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GroupTie {
    /// Keep the group preferred in the previous phase (default).
    KeepCurrent,
    /// Prefer Full.
    Full,
    /// Prefer Partial.
    Partial,
}

/// `origami.fold_compaction`: the lanes of a folded sub-warp inside its cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FoldCompaction {
    /// Left-compact: the sub-warp's active threads take the lowest lanes of the cluster, in
    /// order (the lane shift of §7; applies when lane shifting is on).
    LeftCompact,
    /// Sub-warp 0 keeps its lanes and sub-warp 1 moves down by C/2 (folding without shifting).
    PositionPreserving,
}

/// `ceil(frac · n)` for a fraction read from a decimal TOML value: the product is rounded to
/// 1e-9 first, so that `0.7 · 300` (209.99999999999997 or 210.00000000000003 in binary) is 210
/// and not 211 or 209.
pub fn ceil_frac(frac: f64, n: u64) -> u64 {
    let x = frac * n as f64;
    let rounded = (x * 1e9).round() / 1e9;
    rounded.ceil().max(0.0) as u64
}

impl FoldSection {
    /// `N_Fold = n_pipeflush + idle_detect + bet` (power-gating §6 phase policy 3): the shortest
    /// fold window worth opening, in cycles (pipeline drain, then idle detect, then a gated
    /// period that repays the sleep/wake energy). `idle_detect` and `bet` are the `[pg]` values.
    pub fn n_fold_cycles(&self, idle_detect_cycles: u32, bet_cycles: u32) -> u64 {
        self.n_pipeflush as u64 + idle_detect_cycles as u64 + bet_cycles as u64
    }

    /// Window length of the minority type, `ceil(aggressive_frac · n_phase)` cycles.
    pub fn aggressive_window_cycles(&self) -> u64 {
        ceil_frac(self.aggressive_frac, self.n_phase as u64)
    }

    /// Window length of the majority type, `ceil(conservative_frac · n_phase)` cycles.
    pub fn conservative_window_cycles(&self) -> u64 {
        ceil_frac(self.conservative_frac, self.n_phase as u64)
    }

    /// The loader warning of power-gating §6 phase policy 3: a fold window shorter than
    /// `N_Fold` never opens under `enforce_n_fold` (folds nothing) and, without it, folds for
    /// too short a time to repay a gating event. The bound is computed from the knobs (with the
    /// defaults 19 + 5 + 14 = 38 ≤ 120), not hard-coded. `None` when every window is long enough.
    pub fn short_window_warning(&self, idle_detect_cycles: u32, bet_cycles: u32) -> Option<String> {
        let n_fold = self.n_fold_cycles(idle_detect_cycles, bet_cycles);
        let cons = self.conservative_window_cycles();
        let aggr = self.aggressive_window_cycles();
        let (name, len) = if cons <= aggr {
            ("conservative", cons)
        } else {
            ("aggressive", aggr)
        };
        if len >= n_fold {
            return None;
        }
        // Smallest n_phase whose shorter window reaches N_Fold.
        let frac = if cons <= aggr {
            self.conservative_frac
        } else {
            self.aggressive_frac
        };
        // ceil(frac·n) >= N_Fold  <=>  frac·n > N_Fold − 1; check the neighbours with the
        // same rounding as the windows.
        let guess = ((n_fold - 1) as f64 / frac).floor() as u64 + 1;
        let min_phase = (guess.saturating_sub(2).max(1)..guess + 3)
            .find(|&n| ceil_frac(frac, n) >= n_fold)
            .unwrap_or(guess);
        Some(format!(
            "'fold.n_phase' = {}: the {name} fold window is {len} cycles, shorter than \
             N_Fold = n_pipeflush + idle_detect + bet = {} + {idle_detect_cycles} + {bet_cycles} \
             = {n_fold}{}; 'fold.n_phase' >= {min_phase} avoids this",
            self.n_phase,
            self.n_pipeflush,
            if self.enforce_n_fold {
                ", so it never opens (fold.enforce_n_fold)"
            } else {
                ""
            },
        ))
    }

    /// Range errors of the `[fold]` values, each naming its key.
    fn range_errors(&self, bad: &mut Vec<String>) {
        if self.n_phase == 0 {
            bad.push("'fold.n_phase' = 0: a phase must be at least 1 cycle".into());
        }
        for (k, v) in [
            ("aggressive_frac", self.aggressive_frac),
            ("conservative_frac", self.conservative_frac),
            ("disable_util", self.disable_util),
        ] {
            if !(v.is_finite() && v > 0.0 && v <= 1.0) {
                bad.push(format!("'fold.{k}' = {v}: must be a fraction in (0, 1]"));
            }
        }
        if self.eager_idle_detect > 7 {
            bad.push(format!(
                "'fold.eager_idle_detect' = {}: lane idle counters have 3 bits, so at most 7",
                self.eager_idle_detect
            ));
        }
    }
}

impl OrigamiSection {
    /// Range errors of the `[origami]` values, each naming its key.
    fn range_errors(&self, bad: &mut Vec<String>) {
        if self.force_switch_phases == 0 {
            bad.push("'origami.force_switch_phases' = 0: M must be at least 1 phase".into());
        }
    }

    /// The compaction a folded sub-warp gets: `fold_compaction` while lane shifting is on,
    /// `PositionPreserving` otherwise (power-gating §6 "Cluster fold").
    pub fn compaction_in_effect(&self, shifting_on: bool) -> FoldCompaction {
        if shifting_on && self.lane_shifting {
            self.fold_compaction
        } else {
            FoldCompaction::PositionPreserving
        }
    }
}

/// Checks that `units.sub_cluster_lanes` (the spec's `fold.cluster_lanes`) is even and divides
/// the warp, so that a cluster has two equal halves and clusters tile the warp.
pub fn cluster_lanes_error(cluster_lanes: u32, warp_size: u32) -> Option<String> {
    if cluster_lanes < 2
        || !cluster_lanes.is_multiple_of(2)
        || !warp_size.is_multiple_of(cluster_lanes)
    {
        Some(format!(
            "'units.sub_cluster_lanes' = {cluster_lanes}: the folding cluster must be even and \
             divide the warp of {warp_size} lanes (allowed: {})",
            (2..=warp_size)
                .filter(|&c| c.is_multiple_of(2) && warp_size.is_multiple_of(c))
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    } else {
        None
    }
}

/// Dotted keys of `section` whose value differs from the same key in `default`, with the value
/// and the default (both as TOML text).
fn non_default_keys<T: Serialize>(prefix: &str, section: &T, default: &T) -> Vec<String> {
    let t = toml::Table::try_from(section).expect("section serialises");
    let d = toml::Table::try_from(default).expect("section serialises");
    let mut out = Vec::new();
    for (k, v) in &t {
        if let Some(dv) = d.get(k) {
            if dv != v {
                out.push(format!("'{prefix}.{k}' = {v} (the default is {dv})"));
            }
        }
    }
    out
}

impl LanePgPolicy {
    /// The `pg.policy` value of the same name.
    pub fn as_pg_policy(self) -> PgPolicy {
        match self {
            LanePgPolicy::None => PgPolicy::None,
            LanePgPolicy::Conventional => PgPolicy::Conventional,
            LanePgPolicy::NaiveBlackout => PgPolicy::NaiveBlackout,
            LanePgPolicy::CoordinatedBlackout => PgPolicy::CoordinatedBlackout,
        }
    }
}

impl GpuConfig {
    /// Lane shifting is in effect: the Origami scheduler runs (`sched.policy = "origami"`, which
    /// needs `fold.enabled`) with `origami.lane_shifting` (power-gating §7).
    pub fn lane_shifting_on(&self) -> bool {
        self.fold.enabled && self.sched.policy == SchedPolicy::Origami && self.origami.lane_shifting
    }

    /// The policy the lane domains run when it is `fold.lane_pg_policy` (power-gating §6,
    /// §10): with folding, lane-group gating and `pg.policy` not `"None"`; `None` otherwise
    /// (every domain then runs `pg.policy`). The SFU domains (`pg.gate_sfu`) always run
    /// `pg.policy`.
    pub fn lane_policy_in_effect(&self) -> Option<PgPolicy> {
        (self.fold.enabled
            && self.pg.granularity == Granularity::LaneGroup
            && self.pg.policy != PgPolicy::None)
            .then(|| self.fold.lane_pg_policy.as_pg_policy())
    }

    /// Errors of the `[fold]` and `[origami]` tables: range checks, then the combinations the
    /// model cannot honour, each naming both keys. Called by [`GpuConfig::validate`].
    ///
    /// - A `[fold]` value other than its default needs `fold.enabled = true` (otherwise nothing
    ///   reads it); an `[origami]` value other than its default needs `sched.policy =
    ///   "origami"`, and the Origami scheduler needs folding (`fold.enabled`), whose phase grid
    ///   it shares.
    /// - Eager gating acts on lane domains: with gating on (`pg.policy` not `"None"`),
    ///   `fold.eager_gating = true` needs `pg.granularity = "LaneGroup"`.
    /// - With folding and lane-group gating the lane domains run `fold.lane_pg_policy` and the
    ///   SFU domains (`pg.gate_sfu`) `pg.policy` ([`GpuConfig::lane_policy_in_effect`]). A
    ///   lane policy left at its default that differs from `pg.policy` while no SFU domain
    ///   runs `pg.policy` is refused (the lanes were most likely meant to run `pg.policy`).
    ///   At SP-cluster granularity there are no lane domains: a lane policy set to a value
    ///   other than its default and `pg.policy` is refused. With `pg.policy = "None"` nothing
    ///   is gated, so only the default lane policy is accepted.
    pub fn fold_errors(&self) -> Vec<String> {
        let mut bad = Vec::new();
        self.fold.range_errors(&mut bad);
        self.origami.range_errors(&mut bad);
        if let Some(e) = cluster_lanes_error(self.units.sub_cluster_lanes, self.gpu.warp_size) {
            bad.push(e);
        }
        let origami = self.sched.policy == SchedPolicy::Origami;
        if !self.fold.enabled {
            for k in non_default_keys("fold", &self.fold, &FoldSection::default()) {
                bad.push(format!(
                    "{k} with 'fold.enabled' = false: the key configures warp folding, which is \
                     off (set 'fold.enabled' = true or leave the key at its default)"
                ));
            }
            if origami {
                bad.push(
                    "'sched.policy' = \"origami\" with 'fold.enabled' = false: the Origami \
                     scheduler is defined together with warp folding (power-gating §7); set \
                     'fold.enabled' = true"
                        .into(),
                );
            }
        }
        if !origami {
            for k in non_default_keys("origami", &self.origami, &OrigamiSection::default()) {
                bad.push(format!(
                    "{k} with 'sched.policy' = \"{}\": the [origami] keys configure the Origami \
                     scheduler (set 'sched.policy' = \"origami\" or leave the key at its default)",
                    String::from(self.sched.policy.clone())
                ));
            }
        }
        if self.fold.enabled {
            let lane = self.pg.granularity == Granularity::LaneGroup;
            if self.pg.policy != PgPolicy::None && !lane && self.fold.eager_gating {
                bad.push(
                    "'fold.eager_gating' = true with 'pg.granularity' = \"SpCluster\": eager \
                     gating acts on the upper lanes of each cluster, which need lane domains \
                     (set 'pg.granularity' = \"LaneGroup\" or 'fold.eager_gating' = false)"
                        .into(),
                );
            }
            let lane_policy = self.fold.lane_pg_policy.as_pg_policy();
            if self.pg.policy == PgPolicy::None {
                if self.fold.lane_pg_policy != FoldSection::default().lane_pg_policy {
                    bad.push(format!(
                        "'fold.lane_pg_policy' = \"{}\" with 'pg.policy' = \"None\": nothing is \
                         gated, so the lane policy has no effect (set 'pg.policy' too)",
                        String::from(lane_policy)
                    ));
                }
            } else if lane
                && lane_policy == PgPolicy::CoordinatedBlackout
                && self.pg.policy != PgPolicy::CoordinatedBlackout
            {
                bad.push(
                    "'fold.lane_pg_policy' = \"CoordinatedBlackout\" with 'pg.granularity' = \
                     \"LaneGroup\": coordinated blackout is defined over SP clusters, not lanes \
                     (use \"Conventional\" or \"NaiveBlackout\")"
                        .into(),
                );
            } else if lane_policy != self.pg.policy {
                let explicit = self.fold.lane_pg_policy != FoldSection::default().lane_pg_policy;
                if !lane && explicit {
                    bad.push(format!(
                        "'fold.lane_pg_policy' = \"{}\" with 'pg.granularity' = \"SpCluster\": \
                         there are no lane domains, every domain runs 'pg.policy' = \"{}\" (set \
                         'pg.granularity' = \"LaneGroup\" or leave the key at its default)",
                        String::from(lane_policy),
                        String::from(self.pg.policy)
                    ));
                } else if lane && !explicit && !self.pg.gate_sfu {
                    // the lane domains run the lane policy and no domain would run
                    // `pg.policy`: most likely the lanes were meant to run it
                    bad.push(format!(
                        "'fold.lane_pg_policy' = \"{}\" (default) with 'pg.policy' = \"{}\" \
                         and 'pg.granularity' = \"LaneGroup\": the lane domains run \
                         'fold.lane_pg_policy' and, with 'pg.gate_sfu' = false, no domain runs \
                         'pg.policy' (set 'fold.lane_pg_policy' = \"{}\" for lanes under that \
                         policy, or 'pg.gate_sfu' = true to gate the SFUs under it)",
                        String::from(lane_policy),
                        String::from(self.pg.policy),
                        String::from(self.pg.policy)
                    ));
                }
            }
        }
        bad
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ceil_frac_absorbs_decimal_error() {
        assert_eq!(ceil_frac(0.70, 300), 210);
        assert_eq!(ceil_frac(0.40, 300), 120);
        assert_eq!(ceil_frac(0.90, 600), 540);
        assert_eq!(ceil_frac(0.40, 301), 121);
        assert_eq!(ceil_frac(0.7, 10), 7);
        assert_eq!(ceil_frac(0.15, 100), 15);
    }

    #[test]
    fn short_window_warning_uses_the_computed_bound() {
        let f = FoldSection::default();
        // 19 + 5 + 14 = 38 <= 120: no warning.
        assert_eq!(f.n_fold_cycles(5, 14), 38);
        assert!(f.short_window_warning(5, 14).is_none());
        // N_phase 94: conservative window ceil(37.6) = 38 = N_Fold, still fine; 93 → 38 too
        // (ceil 37.2); 92 → 37 < 38.
        let at = |n| FoldSection {
            n_phase: n,
            ..FoldSection::default()
        };
        assert!(at(93).short_window_warning(5, 14).is_none());
        let w = at(92).short_window_warning(5, 14).unwrap();
        assert!(w.contains("37 cycles"), "{w}");
        assert!(w.contains("= 38"), "{w}");
        assert!(w.contains(">= 93"), "{w}");
        // The source's "at least 50" needs ceil(0.4·N) >= 50, i.e. N >= 123 (not 120; 125 would
        // be 0.4·N >= 50 without the ceiling).
        let f50 = FoldSection {
            n_pipeflush: 50 - 5 - 14,
            n_phase: 120,
            ..FoldSection::default()
        };
        let w = f50.short_window_warning(5, 14).unwrap();
        assert!(w.contains(">= 123"), "{w}");
        assert!(FoldSection {
            n_phase: 122,
            ..f50.clone()
        }
        .short_window_warning(5, 14)
        .is_some());
        assert!(FoldSection {
            n_phase: 123,
            ..f50
        }
        .short_window_warning(5, 14)
        .is_none());
    }

    #[test]
    fn cluster_lanes_must_be_even_and_divide_the_warp() {
        for c in [2, 4, 8, 16, 32] {
            assert!(cluster_lanes_error(c, 32).is_none());
        }
        for c in [0, 1, 3, 6, 12, 64] {
            let e = cluster_lanes_error(c, 32).unwrap();
            assert!(e.contains("2, 4, 8, 16, 32"), "{e}");
        }
    }

    #[test]
    fn compaction_needs_lane_shifting() {
        let o = OrigamiSection::default();
        assert_eq!(o.compaction_in_effect(true), FoldCompaction::LeftCompact);
        assert_eq!(
            o.compaction_in_effect(false),
            FoldCompaction::PositionPreserving
        );
        let off = OrigamiSection {
            lane_shifting: false,
            ..OrigamiSection::default()
        };
        assert_eq!(
            off.compaction_in_effect(true),
            FoldCompaction::PositionPreserving
        );
    }
}
