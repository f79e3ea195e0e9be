//! `[pg]`, `[pg.coordinated]`, `[pg.adaptive]` and `[sched.gates]`: power gating of the SP
//! clusters' INT and FP pipes (and optionally the SFUs) and the gating-aware GATES scheduler
//! (power-gating §1–§5, §10).
//!
//! Every key has a serde default, and the `pg` field of `GpuConfig` (and `gates` of `[sched]`)
//! is skipped when serialising a configuration that leaves it at its default, so presets and
//! user files without these tables load and hash exactly as before.
//!
//! The spec's `[sched]` keys that already exist under other names are not duplicated:
//! - `sched.kind` is `sched.policy` (`"two_level"`, `"gto"`, `"lrr"`, `"fetch_group"`,
//!   `"gates"`);
//! - `sched.issue_model`/`sched.issue_width` are `sched.n_per_sm` (schedulers per SM) and
//!   `sched.issue_per_sched` (slots per scheduler): `OneDualIssue` is `n_per_sm = 1`,
//!   `issue_per_sched = 2`, `TwoSchedulers` is `n_per_sm = 2`, `issue_per_sched = 1`;
//! - `sched.active_set_size` is `sched.two_level.active_per_sched`;
//! - `sched.fetch_group_size` keeps its name.
//!
//! The controllers are the SM's gating policy when `pg.policy` is not `"None"` and no gating
//! policy was selected in code (`Simulation::gating`); a selected policy takes precedence.
//!
//! Timing source (`pg.timing`): the simulator reads only the integers `pg.bet` and `pg.wakeup`.
//! With `"Physical"` the caller (the CLI) derives them from the sleep-transistor model in
//! `models` (power-gating §1.7) and writes them into `pg.bet`/`pg.wakeup` before simulating.

use serde::{Deserialize, Serialize};

macro_rules! knob_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident),+ $(,)? } default $d:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "String")]
        pub enum $name { $($(#[$vm])* $v),+ }
        impl Default for $name {
            fn default() -> Self {
                $name::$d
            }
        }
        impl TryFrom<String> for $name {
            type Error = String;
            fn try_from(s: String) -> Result<Self, String> {
                $(if s == stringify!($v) { return Ok($name::$v); })+
                let allowed: &[&str] = &[$(stringify!($v)),+];
                Err(format!(
                    "unknown value '{s}' (allowed: {})",
                    allowed.join(", ")
                ))
            }
        }
        impl From<$name> for String {
            fn from(v: $name) -> String {
                match v { $($name::$v => stringify!($v).to_string()),+ }
            }
        }
    };
}

knob_enum!(
    /// `pg.granularity`: what one sleep switch gates (power-gating §1.1).
    Granularity {
        /// The 16 INT (or FP) lanes of one SP: two INT and two FP domains per Fermi SM.
        SpCluster,
        /// Groups of `pg.lane_group_size` lanes of one pipe (lane-level gating; domains are
        /// busy when an in-flight instruction has an active thread on one of their lanes after
        /// the pipe's lane map; Conventional or NaiveBlackout only).
        LaneGroup,
    } default SpCluster
);
knob_enum!(
    /// `pg.policy`: the gating controller (power-gating §4).
    PgPolicy {
        /// No gating: the built-in `NoGating`, output identical to a simulator without gating.
        None,
        /// The §1.3 state machine; a wake is permitted from any gated state.
        Conventional,
        /// Blackout: no wake before BET gated cycles.
        NaiveBlackout,
        /// Blackout coordinated per type by the `ACTV[T]` counts (§4).
        CoordinatedBlackout,
    } default None
);
knob_enum!(
    /// `pg.timing`: where BET and W come from.
    PgTiming {
        /// `pg.bet`/`pg.wakeup` as given.
        Fixed,
        /// Filled into `pg.bet`/`pg.wakeup` by the caller from the `models` sleep-transistor
        /// model; the simulator reads the integers either way.
        Physical,
    } default Fixed
);
knob_enum!(
    /// `pg.gate_compare`: gate when `idle_cnt ≥ D` (`Ge`) or `> D` (`Gt`).
    GateCompare {
        /// `idle_cnt ≥ D`.
        Ge,
        /// `idle_cnt > D`.
        Gt,
    } default Ge
);
knob_enum!(
    /// `pg.idle_clear`: what clears the idle counter.
    IdleClear {
        /// Busy cycles only.
        OnBusy,
        /// Busy cycles, and cycles in which a ready instruction of the domain's type exists.
        OnBusyOrReady,
    } default OnBusy
);
knob_enum!(
    /// `pg.wake_request_cycle`: whether the request cycle is the first Wakeup cycle.
    WakeRequestCycle {
        /// The request cycle is Wakeup cycle 1.
        CountsAsWakeup,
        /// The request cycle stays gated; Wakeup starts the next cycle.
        CountsAsGated,
    } default CountsAsWakeup
);
knob_enum!(
    /// `pg.wake_rule`: when a candidate raises a wake request (power-gating §1.2 step 3b).
    WakeRule {
        /// Request a wake whenever no ON domain can take the instruction this cycle.
        NoOnDomainAccepts,
        /// Request a wake only when no domain of the type is ON.
        NoOnDomainExists,
    } default NoOnDomainAccepts
);
knob_enum!(
    /// `pg.cluster_select`: which ON domain takes an instruction.
    ClusterSelect {
        /// The lowest-index ON domain.
        LowestIndexFirst,
        /// Rotate, starting after the domain used last.
        RoundRobin,
    } default LowestIndexFirst
);
knob_enum!(
    /// `pg.coordinated.trigger`: when the ON clusters of a type follow `ACTV[T]`.
    CoordTrigger {
        /// While at least one cluster of the type is gated.
        AnyGated,
        /// While at least one cluster of the type is in blackout (`bk > 0`).
        InBlackoutOnly,
    } default AnyGated
);
knob_enum!(
    /// `pg.coordinated.suppressed_counter`: the idle counter while gating is suppressed.
    SuppressedCounter {
        /// Keeps counting idle cycles.
        Keep,
        /// Holds its value.
        Hold,
        /// Is cleared.
        Reset,
    } default Keep
);
knob_enum!(
    /// `pg.coordinated.generalization`: coordinated rule for more than two clusters.
    CoordGeneralization {
        /// Every ON cluster follows the coordinated rule while one is gated.
        AllFollow,
        /// Clusters use idle detect until one ON cluster remains.
        KeepOneOn,
    } default AllFollow
);
knob_enum!(
    /// `pg.adaptive.scope`: one `D` per type or per domain.
    AdaptiveScope {
        /// One `D[T]` per type.
        PerType,
        /// One `D` per domain.
        PerDomain,
    } default PerType
);
knob_enum!(
    /// `pg.adaptive.decrement_mode` (power-gating §5).
    DecrementMode {
        /// Decrement after `decrement_epochs` consecutive quiet epochs.
        ConsecutiveQuiet,
        /// Every `decrement_epochs`-th epoch of a global grid, decrement if none of the
        /// window's epochs exceeded the threshold.
        AlignedWindow,
        /// Count quiet epochs without resetting on a violation.
        CumulativeQuiet,
    } default ConsecutiveQuiet
);
knob_enum!(
    /// `sched.gates.hp_init`: the initial high-priority type.
    HpType {
        /// Integer first.
        INT,
        /// Floating point first.
        FP,
    } default INT
);

/// `[pg]`: power gating of execution pipes (power-gating §1, §4, §10).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PgSection {
    /// `pg.granularity`.
    pub granularity: Granularity,
    /// `pg.lane_group_size`: lanes per domain with `LaneGroup` (1, 2 or 4).
    pub lane_group_size: u32,
    /// `pg.policy`.
    pub policy: PgPolicy,
    /// `pg.timing`.
    pub timing: PgTiming,
    /// `pg.bet`: break-even time in cycles (1..=1000; the literature range is 9–24).
    pub bet: u32,
    /// `pg.wakeup`: wakeup delay W in cycles (≥ 1).
    pub wakeup: u32,
    /// `pg.idle_detect`: static idle-detect threshold D (and D_init of adaptive D; and D_ref of
    /// the idle-run A/B/C classification).
    pub idle_detect: u32,
    /// `pg.gate_compare`.
    pub gate_compare: GateCompare,
    /// `pg.idle_clear`.
    pub idle_clear: IdleClear,
    /// `pg.initial_idle_cnt`: the idle counter at kernel start.
    pub initial_idle_cnt: u32,
    /// `pg.wake_request_cycle`.
    pub wake_request_cycle: WakeRequestCycle,
    /// `pg.wake_rule`.
    pub wake_rule: WakeRule,
    /// `pg.wake_consumes_slot`: a wake request uses up the issue slot.
    pub wake_consumes_slot: bool,
    /// `pg.wakeup_cycles_leak`: accounting switch for `models` (copied into the GatingStats).
    pub wakeup_cycles_leak: bool,
    /// `pg.residual_leak_r`: residual gated leakage fraction, Fixed mode (for `models`).
    pub residual_leak_r: f64,
    /// `pg.charge_open_event`: an event open at kernel end is closed and counted.
    pub charge_open_event: bool,
    /// `pg.idle_run_includes_wakeup`: Wakeup cycles belong to idle runs.
    pub idle_run_includes_wakeup: bool,
    /// `pg.cluster_select`.
    pub cluster_select: ClusterSelect,
    /// `pg.gate_sfu`: the SFUs are domains too (Conventional only).
    pub gate_sfu: bool,
    /// `pg.short_bubble_cycles`: idle runs shorter than this are short bubbles (§9).
    pub short_bubble_cycles: u32,
    /// `[pg.coordinated]`.
    pub coordinated: CoordinatedSection,
    /// `[pg.adaptive]`.
    pub adaptive: AdaptiveSection,
}

impl Default for PgSection {
    fn default() -> Self {
        PgSection {
            granularity: Granularity::SpCluster,
            lane_group_size: 1,
            policy: PgPolicy::None,
            timing: PgTiming::Fixed,
            bet: 14,
            wakeup: 3,
            idle_detect: 5,
            gate_compare: GateCompare::Ge,
            idle_clear: IdleClear::OnBusy,
            initial_idle_cnt: 0,
            wake_request_cycle: WakeRequestCycle::CountsAsWakeup,
            wake_rule: WakeRule::NoOnDomainAccepts,
            wake_consumes_slot: false,
            wakeup_cycles_leak: true,
            residual_leak_r: 0.0,
            charge_open_event: true,
            idle_run_includes_wakeup: true,
            cluster_select: ClusterSelect::LowestIndexFirst,
            gate_sfu: false,
            short_bubble_cycles: 10,
            coordinated: CoordinatedSection::default(),
            adaptive: AdaptiveSection::default(),
        }
    }
}

impl PgSection {
    /// True when every key holds its default (the section is then not serialised).
    pub fn is_default(&self) -> bool {
        *self == PgSection::default()
    }

    /// True for the two blackout policies.
    pub fn is_blackout(&self) -> bool {
        matches!(
            self.policy,
            PgPolicy::NaiveBlackout | PgPolicy::CoordinatedBlackout
        )
    }

    /// Range and combination checks; each message names the key(s).
    pub fn check(&self, bad: &mut Vec<String>) {
        if !(1..=1000).contains(&self.bet) {
            bad.push(format!(
                "'pg.bet' = {}: must be in 1..=1000 cycles (the literature range is 9–24)",
                self.bet
            ));
        }
        if self.wakeup == 0 || self.wakeup > 1000 {
            bad.push(format!(
                "'pg.wakeup' = {}: must be in 1..=1000 cycles",
                self.wakeup
            ));
        }
        if self.idle_detect > 1_000_000 {
            bad.push(format!(
                "'pg.idle_detect' = {}: must be at most 1000000",
                self.idle_detect
            ));
        }
        if ![1, 2, 4].contains(&self.lane_group_size) {
            bad.push(format!(
                "'pg.lane_group_size' = {}: allowed 1, 2 or 4",
                self.lane_group_size
            ));
        }
        if !(0.0..1.0).contains(&self.residual_leak_r) {
            bad.push(format!(
                "'pg.residual_leak_r' = {}: must be in [0, 1)",
                self.residual_leak_r
            ));
        }
        if self.short_bubble_cycles == 0 {
            bad.push("'pg.short_bubble_cycles' must be positive".into());
        }
        let a = &self.adaptive;
        if a.epoch == 0 {
            bad.push("'pg.adaptive.epoch' must be at least 1".into());
        }
        if a.decrement_epochs == 0 {
            bad.push("'pg.adaptive.decrement_epochs' must be at least 1".into());
        }
        if a.bounded && a.d_min > a.d_max {
            bad.push(format!(
                "'pg.adaptive.d_min' = {} exceeds 'pg.adaptive.d_max' = {}",
                a.d_min, a.d_max
            ));
        }
        if a.d_max > 1_000_000 {
            bad.push(format!(
                "'pg.adaptive.d_max' = {}: must be at most 1000000",
                a.d_max
            ));
        }
        if self.policy == PgPolicy::None {
            return;
        }
        if self.granularity == Granularity::LaneGroup {
            if self.policy == PgPolicy::CoordinatedBlackout {
                bad.push(
                    "'pg.granularity' = \"LaneGroup\" with 'pg.policy' = \
                     \"CoordinatedBlackout\": coordinated blackout is defined over SP clusters \
                     (use \"SpCluster\", or a Conventional or NaiveBlackout lane policy)"
                        .into(),
                );
            }
            if self.idle_detect > 7 {
                bad.push(format!(
                    "'pg.idle_detect' = {} with 'pg.granularity' = \"LaneGroup\": lane idle \
                     counters are 3 bits, D ≤ 7",
                    self.idle_detect
                ));
            }
        }
        if self.gate_sfu && self.is_blackout() {
            bad.push(format!(
                "'pg.gate_sfu' = true with 'pg.policy' = \"{}\": SFU gating is Conventional only",
                String::from(self.policy)
            ));
        }
    }
}

/// `[pg.coordinated]`: coordinated blackout (power-gating §4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CoordinatedSection {
    /// `pg.coordinated.trigger`.
    pub trigger: CoordTrigger,
    /// `pg.coordinated.suppressed_counter`.
    pub suppressed_counter: SuppressedCounter,
    /// `pg.coordinated.immediate_requires_drained`: immediate gating only when nothing is in
    /// flight and nothing issued this cycle.
    pub immediate_requires_drained: bool,
    /// `pg.coordinated.generalization`.
    pub generalization: CoordGeneralization,
}

impl Default for CoordinatedSection {
    fn default() -> Self {
        CoordinatedSection {
            trigger: CoordTrigger::AnyGated,
            suppressed_counter: SuppressedCounter::Keep,
            immediate_requires_drained: true,
            generalization: CoordGeneralization::AllFollow,
        }
    }
}

/// `[pg.adaptive]`: adaptive idle detect (power-gating §5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AdaptiveSection {
    /// `pg.adaptive.enabled`: the idle-detect window D adapts per epoch (it grows by one
    /// cycle after an epoch with more critical wakeups than `critical_threshold` and shrinks
    /// after quiet epochs) instead of staying at `pg.idle_detect`.
    pub enabled: bool,
    /// `pg.adaptive.scope`.
    pub scope: AdaptiveScope,
    /// `pg.adaptive.epoch`: epoch length E in cycles (≥ 1).
    pub epoch: u64,
    /// `pg.adaptive.critical_threshold`: THR; D increments when cw > THR.
    pub critical_threshold: u32,
    /// `pg.adaptive.d_min`: the smallest idle-detect window D, in cycles, when `bounded`.
    pub d_min: u32,
    /// `pg.adaptive.d_max`: the largest idle-detect window D, in cycles, when `bounded`
    /// (at most 1000000).
    pub d_max: u32,
    /// `pg.adaptive.bounded`: clamp D to [d_min, d_max] (else only D ≥ 0).
    pub bounded: bool,
    /// `pg.adaptive.decrement_epochs`: quiet epochs before a decrement.
    pub decrement_epochs: u32,
    /// `pg.adaptive.decrement_mode`.
    pub decrement_mode: DecrementMode,
}

impl Default for AdaptiveSection {
    fn default() -> Self {
        AdaptiveSection {
            enabled: false,
            scope: AdaptiveScope::PerType,
            epoch: 1000,
            critical_threshold: 5,
            d_min: 5,
            d_max: 10,
            bounded: true,
            decrement_epochs: 4,
            decrement_mode: DecrementMode::ConsecutiveQuiet,
        }
    }
}

/// `[sched.gates]`: the GATES scheduler (power-gating §3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GatesSection {
    /// `sched.gates.hp_init`: initial high-priority type.
    pub hp_init: HpType,
    /// `sched.gates.swap_needs_other`: swap rule 2 needs `ACTV[other] > 0`.
    pub swap_needs_other: bool,
    /// `sched.gates.max_hp_hold`: swap after this many cycles with the same `hp` (0 = off).
    pub max_hp_hold: u64,
}

impl Default for GatesSection {
    fn default() -> Self {
        GatesSection {
            hp_init: HpType::INT,
            swap_needs_other: true,
            max_hp_hold: 0,
        }
    }
}

impl GatesSection {
    /// True when every key holds its default.
    pub fn is_default(&self) -> bool {
        *self == GatesSection::default()
    }
}
