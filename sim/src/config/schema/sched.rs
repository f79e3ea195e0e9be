//! `[sched]` (the warp schedulers, simulator §2.3) and its sub-tables of the simulator §6.3
//! schema: the two-level policy and `[sched.ooo]`, the out-of-order issue variants
//! (issue-stage spec) with their defaults.

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

/// `[sched.ooo]`: out-of-order issue variant (issue-stage); the baseline is `none`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OooSection {
    /// `sched.ooo.mode`: issue-stage variant.
    pub mode: OooMode,
    /// `sched.ooo.ib_depth`: SOCGPU instruction-buffer entries per warp, N (issue-stage §2.1;
    /// 1..=64, default 8).
    #[serde(
        default = "default_ib_depth",
        skip_serializing_if = "is_default_ib_depth"
    )]
    pub ib_depth: u32,
    /// `sched.ooo.local_policy`: SOCGPU intra-warp selection among the candidates (§2.3).
    #[serde(default, skip_serializing_if = "is_default")]
    pub local_policy: OooLocalPolicy,
    /// `sched.ooo.ready_ctr_bits`: width C of the MostReady/LeastReady counters; 0 selects
    /// the default ⌈log2 N⌉ + 2 [G].
    #[serde(default, skip_serializing_if = "is_default")]
    pub ready_ctr_bits: u32,
    /// `sched.ooo.ib_refill`: when a warp's SOCGPU buffer may fetch again [G].
    #[serde(default, skip_serializing_if = "is_default")]
    pub ib_refill: IbRefill,
    /// `sched.ooo.mem_order`: memory ordering among one warp's SOCGPU entries [G].
    #[serde(default, skip_serializing_if = "is_default")]
    pub mem_order: OooMemOrder,
    /// `sched.ooo.dual`: SOCGPU second issue of a warp in one cycle (§2.7); in effect only with
    /// `sched.max_issue_per_warp` ≥ 2.
    #[serde(default, skip_serializing_if = "is_default")]
    pub dual: OooDual,
    /// `sched.ooo.loog_n_cu`: LOOG collector units (reservation stations) per issue slice,
    /// N_cu (issue-stage §3.3; 1..=64); 0 selects the RTL's default
    /// `min(16, warps per slice × sched.issue_per_sched)`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub loog_n_cu: u32,
    /// `sched.ooo.loog_rrs_factor`: result-reservation-station entries per slice as a multiple
    /// of N_cu, R = ⌈N_cu × factor⌉ (§3.3: 1.5, 2 or 2.5); 0 = no RRS (the default).
    #[serde(default, skip_serializing_if = "is_default")]
    pub loog_rrs_factor: f64,
    /// `sched.ooo.loog_wb_buffers`: write-back broadcast buffers per slice, 1 (the default)
    /// or 2 (only with more than 12 CUs, §3.3).
    #[serde(default = "default_one", skip_serializing_if = "is_default_one")]
    pub loog_wb_buffers: u32,
    /// `sched.ooo.loog_uuid_bits`: width U of the per-warp UUID counter (§3.1; 8 as in the
    /// thesis, the default, or 20 as in the RTL; 4..=32).
    #[serde(
        default = "default_uuid_bits",
        skip_serializing_if = "is_default_uuid_bits"
    )]
    pub loog_uuid_bits: u32,
    /// `sched.ooo.loog_rf_arbiter`: the slice's register-file read arbiter (§3.2 step 3).
    #[serde(default, skip_serializing_if = "is_default")]
    pub loog_rf_arbiter: LoogRfArbiter,
    /// `sched.ooo.loog_rf_read_ports`: CUs of one slice granted the register file at once,
    /// each reading one operand per cycle from its operand's bank (§3 [G]: the Vortex RF has
    /// one read port; 1, the default, up to the slice's bank ports).
    #[serde(default = "default_one", skip_serializing_if = "is_default_one")]
    pub loog_rf_read_ports: u32,
    /// `sched.ooo.loog_rrs_dispatch_needs_free_slot`: with an RRS, a dispatch that writes back
    /// also needs a free RRS entry in that cycle (§3.2 step 5; on by default, as the RTL).
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub loog_rrs_dispatch_needs_free_slot: bool,
    /// `sched.ooo.loog_ready_first`: the allocation stage tries, in the inter-warp policy's
    /// order, first the warps whose I-buffer head reads no register renamed to a producer
    /// still waiting in a CU (undispatched), then the others (§3.2 step 1 [G]: the source's
    /// round-robin arbiter does not say; without it a greedy or age-ordered policy lets one
    /// warp's dependent chain fill every CU). On by default; off: the policy's order alone.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub loog_ready_first: bool,
    /// `sched.ooo.loog_defer_load_consumers`: with `loog_ready_first`, a head that reads the
    /// result of a global or local load still in flight (dispatched, result not yet back) also
    /// goes after the others [G]. Off by default (the ready-first order defers only heads
    /// whose producer has not dispatched). A load's consumers would otherwise hold their CUs
    /// for the whole memory latency while other warps have work that can go.
    #[serde(default, skip_serializing_if = "is_false")]
    pub loog_defer_load_consumers: bool,
    /// `sched.ooo.loog_lsq`: LOOG's memory queues (§3.2 "Original LOOG memory queues"; off by
    /// default, when the LD/ST-unit instructions of a warp dispatch in order). On: loads and
    /// stores reserve load-/store-queue entries at allocation, and a ready memory instruction
    /// may pass older ones of its warp except an older store whose address is unresolved, an
    /// older store whose address range overlaps its own (a store also waits for an older
    /// overlapping load), and an older memory barrier.
    #[serde(default, skip_serializing_if = "is_false")]
    pub loog_lsq: bool,
    /// `sched.ooo.loog_lq_entries`: load-queue entries per issue slice with `loog_lsq`
    /// (1..=64; 8 by default [G]: the source does not size them).
    #[serde(
        default = "default_lsq_entries",
        skip_serializing_if = "is_default_lsq_entries"
    )]
    pub loog_lq_entries: u32,
    /// `sched.ooo.loog_sq_entries`: store-queue entries per issue slice with `loog_lsq`
    /// (1..=64; 8 by default [G]).
    #[serde(
        default = "default_lsq_entries",
        skip_serializing_if = "is_default_lsq_entries"
    )]
    pub loog_sq_entries: u32,
}

fn default_lsq_entries() -> u32 {
    8
}

fn is_default_lsq_entries(v: &u32) -> bool {
    *v == default_lsq_entries()
}

fn is_false(v: &bool) -> bool {
    !*v
}

fn default_one() -> u32 {
    1
}

fn is_default_one(v: &u32) -> bool {
    *v == 1
}

fn default_uuid_bits() -> u32 {
    8
}

fn is_default_uuid_bits(v: &u32) -> bool {
    *v == default_uuid_bits()
}

fn default_true() -> bool {
    true
}

fn is_true(v: &bool) -> bool {
    *v
}

/// LOOG register-file read arbiter (`sched.ooo.loog_rf_arbiter`, issue-stage §3.2 step 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoogRfArbiter {
    /// `"id"`: the lowest-index requesting CU (the default).
    #[default]
    Id,
    /// `"rr"`: round-robin from after the last granted CU.
    Rr,
    /// `"rr_alloc"`: round-robin grants, and CUs allocated round-robin instead of
    /// lowest-index-free.
    RrAlloc,
}

fn default_ib_depth() -> u32 {
    8
}

// The SOCGPU keys are serialised only when they leave their defaults, so that configurations
// without them hash as before.
fn is_default_ib_depth(v: &u32) -> bool {
    *v == default_ib_depth()
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// SOCGPU local selection policy (`sched.ooo.local_policy`, issue-stage §2.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OooLocalPolicy {
    /// `"first"`: the lowest physical index (the default).
    #[default]
    First,
    /// `"older"`: the smallest seniority.
    Older,
    /// `"younger"`: the largest seniority.
    Younger,
    /// `"most_ready"`: the largest ready counter.
    MostReady,
    /// `"least_ready"`: the smallest ready counter.
    LeastReady,
    /// `"random"`: uniform, from a seeded stream per warp.
    Random,
}

impl OooLocalPolicy {
    /// True for the policies that keep per-entry ready counters.
    pub fn uses_ready_ctr(self) -> bool {
        matches!(self, OooLocalPolicy::MostReady | OooLocalPolicy::LeastReady)
    }
}

/// When a warp's SOCGPU buffer is refilled (`sched.ooo.ib_refill`, issue-stage §2.1 [G]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IbRefill {
    /// `"when_empty"`: only an empty buffer fetches.
    WhenEmpty,
    /// `"when_free_ge_fetch_width"`: a buffer with at least `frontend.fetch_width` free
    /// entries (all of them when N is smaller) fetches (the default).
    #[default]
    WhenFreeGeFetchWidth,
}

/// Memory ordering of one warp's SOCGPU entries (`sched.ooo.mem_order`, §2.2 [G]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OooMemOrder {
    /// `"none"`: no load/store ordering beyond register dependences (as the source).
    #[default]
    None,
    /// `"same_warp_in_order"`: a memory instruction also depends on every older memory entry.
    SameWarpInOrder,
}

/// SOCGPU dual issue (`sched.ooo.dual`, issue-stage §2.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OooDual {
    /// `"off"`: single issue per warp.
    Off,
    /// `"plain"`: the local policy's second choice, tried once (the default).
    #[default]
    Plain,
    /// `"smart"`: the local policy re-run over the candidates of another, free unit.
    Smart,
}

/// Issue-stage variant (`sched.ooo.mode`); all three are simulated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OooMode {
    /// `"none"`: the in-order baseline with a scoreboard.
    None,
    /// `"socgpu"`: per-warp out-of-order issue from an instruction buffer with a dependence matrix.
    Socgpu,
    /// `"loog"`: collector units used as reservation stations.
    Loog,
}
