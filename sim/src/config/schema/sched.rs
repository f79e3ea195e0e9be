//! `[sched]` (the warp schedulers, simulator §2.3) and its sub-tables of the simulator §6.3
//! schema: the two-level policy and the GATES parameters. `[sched.ooo]`, the out-of-order issue
//! variants, is a module of its own (`config::ooo`).

use crate::config::ooo::OooSection;
use crate::config::pg::GatesSection;
use serde::{Deserialize, Serialize};

/// `[sched]`: warp schedulers (§2.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchedSection {
    /// Schedulers per SM; warp slot w belongs to scheduler w mod n_per_sm.
    pub n_per_sm: u32,
    /// Instructions one scheduler may issue per cycle (over all its warps).
    pub issue_per_sched: u32,
    /// Instructions one warp may issue per cycle.
    pub max_issue_per_warp: u32,
    /// A second instruction of the same warp in one cycle must go to a different unit class.
    pub dual_issue_diff_units: bool,
    /// Keep pending-read counters and stall on WAR hazards (issue-stage §1.2).
    pub war_scoreboard: bool,
    /// `sched.policy`: inter-warp scheduling policy.
    pub policy: SchedPolicy,
    /// Group size g of the fetch-group policy.
    pub fetch_group_size: u32,
    /// `[sched.two_level]`: parameters of the two-level policy.
    pub two_level: TwoLevelSection,
    /// `[sched.ooo]`: out-of-order issue variant.
    pub ooo: OooSection,
    /// `[sched.gates]`: parameters of the GATES policy (power-gating §3).
    #[serde(default, skip_serializing_if = "GatesSection::is_default")]
    pub gates: GatesSection,
}

/// Inter-warp scheduling policy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum SchedPolicy {
    /// `"lrr"`: loose round-robin, starting after the warp that issued last.
    Lrr,
    /// `"gto"`: greedy-then-oldest: the last issuer first, then the other warps by ascending age.
    Gto,
    /// `"oldest"`: warps by ascending age (the oldest first).
    Oldest,
    /// `"youngest"`: warps by descending age (the youngest first).
    Youngest,
    /// `"fetch_group"`: age groups of `sched.fetch_group_size` warps, the current one served LRR.
    FetchGroup,
    /// `"two_level"`: an active set per scheduler, refilled from a pending FIFO.
    TwoLevel,
    /// `"gates"`: GATES, the gating-aware two-level scheduler (power-gating §3): the two-level
    /// order stably sorted by head type `[hp, LDST, SFU, other(hp)]`.
    Gates,
    /// `"origami"`: the Origami scheduler (power-gating §7): GATES picks the type, then the
    /// warps whose head is in the preferred mask group (Full or Partial, re-chosen every
    /// `fold.n_phase` cycles with a forced switch after `origami.force_switch_phases`), then the
    /// two-level order. Needs `fold.enabled = true`.
    Origami,
    /// A policy registered in code under this name (`plugin:<name>`).
    Plugin(String),
}

impl SchedPolicy {
    /// Parses a `sched.policy` value; `None` for an unknown name or an empty plugin name.
    pub fn parse(s: &str) -> Option<SchedPolicy> {
        Some(match s {
            "lrr" => SchedPolicy::Lrr,
            "gto" => SchedPolicy::Gto,
            "oldest" => SchedPolicy::Oldest,
            "youngest" => SchedPolicy::Youngest,
            "fetch_group" => SchedPolicy::FetchGroup,
            "two_level" | "two-level" => SchedPolicy::TwoLevel,
            "gates" => SchedPolicy::Gates,
            "origami" => SchedPolicy::Origami,
            _ => match s.strip_prefix("plugin:") {
                Some(n) if !n.is_empty() => SchedPolicy::Plugin(n.to_string()),
                _ => return None,
            },
        })
    }
}

impl TryFrom<String> for SchedPolicy {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        SchedPolicy::parse(&s).ok_or_else(|| {
            format!(
                "unknown scheduler policy '{s}' (expected lrr, gto, oldest, youngest, \
                 fetch_group, two_level, gates, origami or plugin:<name>)"
            )
        })
    }
}

impl From<SchedPolicy> for String {
    fn from(p: SchedPolicy) -> String {
        match p {
            SchedPolicy::Lrr => "lrr".into(),
            SchedPolicy::Gto => "gto".into(),
            SchedPolicy::Oldest => "oldest".into(),
            SchedPolicy::Youngest => "youngest".into(),
            SchedPolicy::FetchGroup => "fetch_group".into(),
            SchedPolicy::TwoLevel => "two_level".into(),
            SchedPolicy::Gates => "gates".into(),
            SchedPolicy::Origami => "origami".into(),
            SchedPolicy::Plugin(n) => format!("plugin:{n}"),
        }
    }
}

/// `[sched.two_level]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TwoLevelSection {
    /// Active-set size per scheduler (A) [C2 commented line: 6].
    pub active_per_sched: u32,
    /// `sched.two_level.inner`: policy within the active set.
    pub inner: InnerPolicy,
}

/// Policy within the active set of the two-level scheduler (`sched.two_level.inner`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InnerPolicy {
    /// `"lrr"`: loose round-robin.
    Lrr,
    /// `"gto"`: greedy-then-oldest.
    Gto,
}
