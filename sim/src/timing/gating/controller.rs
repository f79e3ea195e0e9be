//! The bank of per-domain power-gating controllers of one SM (power-gating §1.2–§1.5, §4, §5).
//!
//! Each domain runs the §1.3 state machine `Idle_detect → Uncompensated → Compensated →
//! Wakeup → Idle_detect`. The bank is driven in the §1.2 order: the scheduler reads the
//! start-of-cycle states ([`PgBank::is_on`], [`PgBank::permits_wake`]) and raises wake
//! requests ([`PgBank::request`]), the pipeline reports dispatches ([`PgBank::dispatched`]),
//! and [`PgBank::end_cycle`] then rolls the adaptive-D epoch over, computes every domain's
//! busy bit (an instruction in flight: cycles `s…s+L−1` of a dispatch at `s` with latency
//! `L`) and updates every controller.
//!
//! Policies (§4): Conventional (a wake is permitted from any gated state), Naive Blackout (only
//! after BET gated cycles, `bk == 0`), Coordinated Blackout (Naive, plus: while some cluster of
//! a type is gated, every ON cluster of the type gates at once when `ACTV[T] == 0` and it is
//! drained, and does not gate while `ACTV[T] > 0`). Adaptive idle detect (§5) moves `D[T]` (or
//! a per-domain `D`) by the critical wakeups of each epoch.
//!
//! Gated-cycle counting: `g` is the number of gated cycles of the open event including the
//! current one (the event's first cycle is gated cycle 1, Uncompensated; cycle `1+BET` is the
//! first Compensated one); a wake is permitted under blackout when `g ≥ BET` at the start of
//! the request cycle, and is critical when `g == BET`. The event closes with `G = g`.
//!
//! The adaptive epochs are `controller/adaptive.rs`; what lets an SM sleep through cycles that
//! give the bank no input (and catch them up exactly) is `controller/quiet.rs`.

use crate::activity::{DomainStats, GatingStats, IDLE_RUN_BINS};
use crate::config::pg::{
    AdaptiveScope, ClusterSelect, CoordGeneralization, CoordTrigger, GateCompare, IdleClear,
    PgPolicy, PgSection, SuppressedCounter, WakeRequestCycle, WakeRule,
};

mod adaptive;
mod quiet;

/// Controller state of a domain (power-gating §1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PgState {
    /// Powered and usable.
    IdleDetect,
    /// Gated, gated-cycle number ≤ BET.
    Uncompensated,
    /// Gated, gated-cycle number > BET.
    Compensated,
    /// Powering up, not usable.
    Wakeup,
}

/// Type of a domain: the pipe it gates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DomType {
    /// The INT pipe of an SP cluster.
    Int = 0,
    /// The FP pipe of an SP cluster.
    Fp = 1,
    /// An SFU.
    Sfu = 2,
}

/// Outcome of a candidate's look at the domains of its type (§1.2 step 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GateDecision {
    /// (a) an ON domain can take it.
    Issue,
    /// (b) a wake request was raised on a gated domain that permits wake.
    WakeRequested,
    /// (c) blocked: its target is in blackout.
    Blocked,
}

/// Description of one domain for [`PgBank::new`].
#[derive(Clone, Debug)]
pub struct DomainSpec {
    /// Type of the domain.
    pub ty: DomType,
    /// Unit name for the statistics.
    pub unit: String,
    /// First lane and lane count for the statistics.
    pub first_lane: u32,
    /// Lanes of the domain.
    pub lanes: u32,
    /// Index, among the units with domains of this type, of the unit (SP cluster) the domain
    /// belongs to (lane-group domains of one unit share it).
    pub cluster: usize,
}

/// One domain's registers and counters.
#[derive(Clone, Debug)]
struct Domain {
    ty: DomType,
    /// Physical lanes of the pipe the domain covers.
    lane_mask: u32,
    state: PgState,
    idle_cnt: u64,
    /// Gated cycles of the open event, the current one included.
    g: u64,
    /// Wakeup cycles done.
    wk: u32,
    /// Last cycle (exclusive) of the current run of busy cycles.
    busy_until: u64,
    /// Work accepted but not yet started, `[pend_start, pend_end)` (`pend_start == u64::MAX`:
    /// none): the second pass of a folded instruction on lanes the first pass does not use
    /// starts `II` cycles after the dispatch. The domain is idle until then but cannot gate.
    pend_start: u64,
    /// See `pend_start`.
    pend_end: u64,
    /// An instruction was dispatched to the domain this cycle.
    issued: bool,
    /// A permitted wake request was raised this cycle.
    wake_req: bool,
    /// A candidate was blocked by this domain's blackout this cycle.
    blocked_now: bool,
    /// A candidate waiting for other lanes of this domain's cluster to wake needs this ON
    /// domain this cycle, so it does not gate (`PgBank::set_hold_waited_lanes`).
    held: bool,
    /// Some candidate was blocked during the open event.
    blocked_in_event: bool,
    /// The request cycle is kept gated (`CountsAsGated`): Wakeup starts next cycle.
    wake_pending: bool,
    /// Length of the current idle run.
    run: u64,
    /// Adaptive D of this domain (`PerDomain`), critical wakeups this epoch, quiet epochs.
    d: u32,
    cw: u64,
    quiet: u32,
    violated_window: bool,
    /// D used instead of the static/adaptive one (eager gating of folded lanes, §6).
    d_override: Option<u32>,
    stats: DomainStats,
}

/// Adaptive-D state of one type (`PerType`).
#[derive(Clone, Copy, Debug, Default)]
struct TypeD {
    d: u32,
    cw: u64,
    quiet: u32,
    violated_window: bool,
}

/// The controllers of one SM.
#[derive(Clone, Debug)]
pub struct PgBank {
    cfg: PgSection,
    /// Policy of each type's domains `[INT, FP, SFU]`: `pg.policy`, except the lane domains
    /// of lane-group gating with folding, which run `fold.lane_pg_policy` (power-gating §6).
    policy: [PgPolicy; 3],
    domains: Vec<Domain>,
    per_type: [TypeD; 3],
    /// Domain indices of each type, in index order.
    of_type: [Vec<usize>; 3],
    /// Per type, per cluster (unit): its domains (one at SP-cluster granularity).
    clusters: [Vec<Vec<usize>>; 3],
    /// Round-robin pointer per type (`pg.cluster_select = "RoundRobin"`).
    rr: [usize; 3],
    /// A ready instruction of the type exists this cycle (`pg.idle_clear = "OnBusyOrReady"`).
    ready_of_type: [bool; 3],
    /// Lane-group wakes hold the candidate's ON lanes (see [`PgBank::set_hold_waited_lanes`]).
    hold_waited: bool,
    epoch_index: u64,
    cycles: u64,
    /// The SM reached the bank this cycle (a decision, a ready note or a dispatch).
    touched: bool,
    /// The last cycle ended by [`PgBank::end_cycle`] had no input from the SM.
    last_untouched: bool,
}

impl PgBank {
    /// Controllers for `domains` under `cfg` (`cfg.policy` must not be `None`).
    pub fn new(cfg: &PgSection, sm: u32, domains: &[DomainSpec]) -> Self {
        let mut of_type: [Vec<usize>; 3] = Default::default();
        let mut clusters: [Vec<Vec<usize>>; 3] = Default::default();
        for (i, s) in domains.iter().enumerate() {
            let c = &mut clusters[s.ty as usize];
            if c.len() <= s.cluster {
                c.resize(s.cluster + 1, Vec::new());
            }
            c[s.cluster].push(i);
        }
        let ds = domains
            .iter()
            .enumerate()
            .map(|(i, s)| {
                of_type[s.ty as usize].push(i);
                let pipe = match s.ty {
                    DomType::Int => "int",
                    DomType::Fp => "fp",
                    DomType::Sfu => "sfu",
                };
                let lane_mask = if s.lanes >= 32 || s.ty == DomType::Sfu {
                    u32::MAX
                } else {
                    ((1u32 << s.lanes) - 1) << s.first_lane.min(31)
                };
                Domain {
                    ty: s.ty,
                    lane_mask,
                    state: PgState::IdleDetect,
                    idle_cnt: cfg.initial_idle_cnt as u64,
                    g: 0,
                    wk: 0,
                    busy_until: 0,
                    pend_start: u64::MAX,
                    pend_end: 0,
                    issued: false,
                    wake_req: false,
                    blocked_now: false,
                    held: false,
                    blocked_in_event: false,
                    wake_pending: false,
                    run: 0,
                    d: cfg.idle_detect,
                    cw: 0,
                    quiet: 0,
                    violated_window: false,
                    d_override: None,
                    stats: DomainStats::new(sm, &s.unit, pipe, s.first_lane, s.lanes),
                }
            })
            .collect();
        let td = TypeD {
            d: cfg.idle_detect,
            ..Default::default()
        };
        PgBank {
            cfg: cfg.clone(),
            policy: [cfg.policy; 3],
            domains: ds,
            per_type: [td; 3],
            of_type,
            clusters,
            rr: [0; 3],
            ready_of_type: [false; 3],
            hold_waited: false,
            epoch_index: 0,
            cycles: 0,
            touched: false,
            last_untouched: false,
        }
    }

    /// With `on`, a lane-granularity candidate that raises wake requests on a cluster, or finds
    /// some of the lanes it needs there already waking, holds that cluster's ON lanes it needs:
    /// they do not gate in this cycle, so the candidate issues once the others are up
    /// (power-gating §1.2 lane granularity and §6: the instruction "requests wake for exactly
    /// those lanes, and waits until all of them are ON"). The decision itself is unchanged (a
    /// waking cluster does not stop a wake request on the next one). Without the hold an ON
    /// needed lane keeps counting idle cycles while the others wake; lanes whose idle runs
    /// started at different cycles then take turns being gated (each is ON for `D+1` cycles out
    /// of every `D+1+W`), and with three or more phases no cycle has all of them ON: the
    /// candidate waits for ever. A needed lane in blackout holds nothing (the ON ones may gate
    /// meanwhile; every gated lane leaves blackout and stays gated until woken, so the needed
    /// lanes line up). Off by default (one domain per cluster needs no hold); the SM turns it
    /// on for lane-group granularity.
    pub fn set_hold_waited_lanes(&mut self, on: bool) {
        self.hold_waited = on;
    }

    /// Idle counter of domain `u`.
    pub fn idle_cnt(&self, u: usize) -> u64 {
        self.domains[u].idle_cnt
    }

    /// Domain `u`'s registers in one line (for diagnostics).
    pub fn debug_domain(&self, u: usize) -> String {
        let d = &self.domains[u];
        format!(
            "{:?} lanes {:08x} {:?} idle_cnt {} g {} wk {} busy_until {} pend {} d {} \
             wake_pending {}",
            d.ty,
            d.lane_mask,
            d.state,
            d.idle_cnt,
            d.g,
            d.wk,
            d.busy_until,
            d.pend_start as i64,
            self.d_of(u),
            d.wake_pending
        )
    }

    /// The `[pg]` configuration the bank runs.
    pub fn config(&self) -> &PgSection {
        &self.cfg
    }

    /// Runs the domains of type `ty` under `policy` instead of `pg.policy` (the lane domains
    /// under `fold.lane_pg_policy`, power-gating §6, §10). With `PgPolicy::None` they never
    /// gate. Every other `[pg]` knob stays shared.
    pub fn set_type_policy(&mut self, ty: DomType, policy: PgPolicy) {
        self.policy[ty as usize] = policy;
    }

    /// Policy of the domains of type `ty`.
    pub fn type_policy(&self, ty: DomType) -> PgPolicy {
        self.policy[ty as usize]
    }

    /// Some type's domains run Coordinated Blackout, the one rule that reads `ACTV[T]`
    /// ([`PgBank::end_cycle`]'s `actv` is not read otherwise).
    #[inline]
    pub fn reads_actv(&self) -> bool {
        self.policy.contains(&PgPolicy::CoordinatedBlackout)
    }

    /// The domains of type `ty` run a blackout policy.
    #[inline]
    fn blackout_of(&self, ty: DomType) -> bool {
        matches!(
            self.policy[ty as usize],
            PgPolicy::NaiveBlackout | PgPolicy::CoordinatedBlackout
        )
    }

    /// `pg.wakeup`.
    pub fn wakeup_cycles(&self) -> u32 {
        self.cfg.wakeup
    }

    /// Number of domains.
    pub fn len(&self) -> usize {
        self.domains.len()
    }

    /// True when the bank has no domain.
    pub fn is_empty(&self) -> bool {
        self.domains.is_empty()
    }

    /// State of domain `u` (at the start of the cycle until [`PgBank::end_cycle`]).
    #[inline]
    pub fn state(&self, u: usize) -> PgState {
        self.domains[u].state
    }

    /// Domain `u` is ON (`Idle_detect`) and usable.
    #[inline]
    pub fn is_on(&self, u: usize) -> bool {
        self.domains[u].state == PgState::IdleDetect
    }

    /// Domain `u` is gated (Uncompensated or Compensated).
    #[inline]
    pub fn is_gated(&self, u: usize) -> bool {
        matches!(
            self.domains[u].state,
            PgState::Uncompensated | PgState::Compensated
        )
    }

    /// Blackout counter `bk = max(BET − g, 0)` of a gated domain (0 otherwise).
    pub fn bk(&self, u: usize) -> u64 {
        if self.is_gated(u) {
            (self.cfg.bet as u64).saturating_sub(self.domains[u].g)
        } else {
            0
        }
    }

    /// Domain `u` is gated and a wake request would be honoured now (Conventional: always;
    /// blackout: when `bk == 0`).
    #[inline]
    pub fn permits_wake(&self, u: usize) -> bool {
        self.is_gated(u)
            && !self.domains[u].wake_pending
            && (!self.blackout_of(self.domains[u].ty) || self.domains[u].g >= self.cfg.bet as u64)
    }

    /// The domains of type `ty` run a blackout policy, and every one of them is gated with
    /// `bk > 0` (GATES swap rule 2), and there is one.
    pub fn all_in_blackout(&self, ty: DomType) -> bool {
        let v = &self.of_type[ty as usize];
        self.blackout_of(ty)
            && !v.is_empty()
            && v.iter().all(|&u| self.is_gated(u) && self.bk(u) > 0)
    }

    /// Some type's domains run a blackout policy.
    pub fn is_blackout(&self) -> bool {
        [DomType::Int, DomType::Fp, DomType::Sfu]
            .iter()
            .any(|&t| self.blackout_of(t))
    }

    /// Domains of type `ty`, in index order.
    pub fn domains_of(&self, ty: DomType) -> &[usize] {
        &self.of_type[ty as usize]
    }

    /// Type of domain `u`.
    pub fn ty(&self, u: usize) -> DomType {
        self.domains[u].ty
    }

    /// §1.2 step 3 for a candidate of type `ty` among the domains `cands` of that type (in
    /// index order; `accepts(u)` tells whether an ON domain's port is free). Returns the
    /// decision and, for [`GateDecision::Issue`], the chosen domain per `pg.cluster_select`.
    /// A wake request is raised on the lowest-index gated domain that permits wake; a blocked
    /// candidate counts one blocked-demand cycle on every gated domain of the type.
    pub fn decide(
        &mut self,
        ty: DomType,
        accepts: impl Fn(usize) -> bool,
    ) -> (GateDecision, Option<usize>) {
        self.touched = true;
        let t = ty as usize;
        let n = self.of_type[t].len();
        let start = match self.cfg.cluster_select {
            ClusterSelect::LowestIndexFirst => 0,
            ClusterSelect::RoundRobin => self.rr[t] % n.max(1),
        };
        let mut any_on = false;
        for k in 0..n {
            let u = self.of_type[t][(start + k) % n];
            if self.is_on(u) {
                any_on = true;
                if accepts(u) {
                    return (GateDecision::Issue, Some(u));
                }
            }
        }
        if any_on && self.cfg.wake_rule == WakeRule::NoOnDomainExists {
            // an ON domain exists but cannot take it this cycle: wait for it
            return (GateDecision::Blocked, None);
        }
        for k in 0..n {
            let u = self.of_type[t][k];
            if self.permits_wake(u) {
                self.domains[u].wake_req = true;
                return (GateDecision::WakeRequested, None);
            }
        }
        // blocked: every gated domain of the type is in blackout (the others are waking up)
        for k in 0..n {
            let u = self.of_type[t][k];
            if self.is_gated(u) {
                self.domains[u].blocked_now = true;
            }
        }
        (GateDecision::Blocked, None)
    }

    /// §1.2 step 3 at lane granularity for a candidate of type `ty` whose physical lane mask
    /// is `need`: it issues on a cluster (chosen per `pg.cluster_select`) where every domain
    /// covering a needed lane is ON and `accepts(cluster)`; otherwise, on the lowest-index
    /// cluster where no needed domain is in blackout and some needed domain is gated, each
    /// needed gated domain gets a wake request; otherwise it is blocked (a blocked-demand cycle
    /// on every needed domain in blackout). Returns the decision and, for `Issue`, the cluster.
    pub fn decide_lanes(
        &mut self,
        ty: DomType,
        need: u32,
        accepts: impl Fn(usize) -> bool,
    ) -> (GateDecision, Option<usize>) {
        self.touched = true;
        let t = ty as usize;
        let n = self.clusters[t].len();
        let start = match self.cfg.cluster_select {
            ClusterSelect::LowestIndexFirst => 0,
            ClusterSelect::RoundRobin => self.rr[t] % n.max(1),
        };
        let needed = |b: &PgBank, c: usize| -> Vec<usize> {
            b.clusters[t][c]
                .iter()
                .copied()
                .filter(|&u| b.domains[u].lane_mask & need != 0)
                .collect()
        };
        let mut any_all_on = false;
        for k in 0..n {
            let c = (start + k) % n;
            if needed(self, c).iter().all(|&u| self.is_on(u)) {
                any_all_on = true;
                if accepts(c) {
                    return (GateDecision::Issue, Some(c));
                }
            }
        }
        if any_all_on && self.cfg.wake_rule == WakeRule::NoOnDomainExists {
            return (GateDecision::Blocked, None);
        }
        for c in 0..n {
            let nd = needed(self, c);
            let blackout = nd
                .iter()
                .any(|&u| self.is_gated(u) && !self.permits_wake(u));
            let gated: Vec<usize> = nd
                .iter()
                .copied()
                .filter(|&u| self.permits_wake(u))
                .collect();
            if self.hold_waited && !blackout {
                // a cluster that is waking (or about to wake) the lanes the candidate lacks
                // keeps its ON needed lanes ON while the candidate waits for the others
                let waking = !gated.is_empty()
                    || nd.iter().any(|&u| self.domains[u].state == PgState::Wakeup);
                if waking {
                    for &u in &nd {
                        if self.is_on(u) {
                            self.domains[u].held = true;
                        }
                    }
                }
            }
            if !blackout && !gated.is_empty() {
                for u in gated {
                    self.domains[u].wake_req = true;
                }
                return (GateDecision::WakeRequested, None);
            }
        }
        for c in 0..n {
            for u in needed(self, c) {
                if self.is_gated(u) && !self.permits_wake(u) {
                    self.domains[u].blocked_now = true;
                }
            }
        }
        (GateDecision::Blocked, None)
    }

    /// An instruction with physical lane mask `need` was dispatched to cluster `c` of type
    /// `ty` at cycle `t` with latency `lat`: the cluster's domains covering a needed lane are
    /// busy in cycles `t…t+lat−1`.
    pub fn dispatched_lanes(&mut self, ty: DomType, c: usize, need: u32, t: u64, lat: u64) {
        self.dispatched_lanes_from(ty, c, need, t, t, lat);
    }

    /// As [`PgBank::dispatched_lanes`] for work dispatched at `t` that starts on its lanes at
    /// `start ≥ t` (the second pass of a folded instruction): the domains covering a needed
    /// lane are busy in `start…start+lat−1` only; from `t` until `start` they are idle but
    /// hold the accepted work, so they do not gate.
    pub fn dispatched_lanes_from(
        &mut self,
        ty: DomType,
        c: usize,
        need: u32,
        t: u64,
        start: u64,
        lat: u64,
    ) {
        self.touched = true;
        let tix = ty as usize;
        for k in 0..self.clusters[tix][c].len() {
            let u = self.clusters[tix][c][k];
            let d = &mut self.domains[u];
            if d.lane_mask & need != 0 {
                Self::occupy(d, t, start, start + lat.max(1));
            }
        }
        self.rr[tix] = c + 1;
    }

    /// Domain `d` receives work at `t` that keeps it busy in `[start, end)`, `start ≥ t`.
    #[inline]
    fn occupy(d: &mut Domain, t: u64, start: u64, end: u64) {
        d.issued = true;
        if start <= t || start <= d.busy_until {
            d.busy_until = d.busy_until.max(end);
        } else if d.pend_start == u64::MAX {
            (d.pend_start, d.pend_end) = (start, end);
        } else {
            d.pend_start = d.pend_start.min(start);
            d.pend_end = d.pend_end.max(end);
        }
    }

    /// Sets (or with `None` clears) an idle-detect threshold for domain `u` that replaces the
    /// static or adaptive D: the hook through which warp folding applies `D_eager` to the
    /// lanes a fold window leaves idle (power-gating §6).
    pub fn set_idle_detect_override(&mut self, u: usize, d: Option<u32>) {
        self.touched = true;
        self.domains[u].d_override = d;
    }

    /// Makes every domain cover all lanes (cluster granularity: busy and needed whenever an
    /// instruction is in flight, whatever its active mask).
    pub fn cover_all_lanes(&mut self) {
        for d in &mut self.domains {
            d.lane_mask = u32::MAX;
        }
    }

    /// The unit-level cluster index of domain `u`'s type that holds `u`.
    pub fn cluster_of(&self, u: usize) -> usize {
        let t = self.domains[u].ty as usize;
        self.clusters[t]
            .iter()
            .position(|c| c.contains(&u))
            .unwrap_or(0)
    }

    /// An instruction was dispatched to domain `u` at cycle `t` with latency `lat`: the domain
    /// is busy in cycles `t…t+lat−1`.
    #[inline]
    pub fn dispatched(&mut self, u: usize, t: u64, lat: u64) {
        self.dispatched_from(u, t, t, lat);
    }

    /// As [`PgBank::dispatched`] for work dispatched at `t` that starts at `start ≥ t`: busy in
    /// `start…start+lat−1`, held ON (idle, not gating) from `t` until `start`.
    #[inline]
    pub fn dispatched_from(&mut self, u: usize, t: u64, start: u64, lat: u64) {
        self.touched = true;
        let d = &mut self.domains[u];
        Self::occupy(d, t, start, start + lat.max(1));
        let ty = d.ty as usize;
        if let Some(p) = self.of_type[ty].iter().position(|&x| x == u) {
            self.rr[ty] = p + 1;
        }
    }

    /// A ready instruction of type `ty` exists this cycle (`pg.idle_clear = "OnBusyOrReady"`).
    #[inline]
    pub fn note_ready(&mut self, ty: DomType) {
        self.touched = true;
        self.ready_of_type[ty as usize] = true;
    }

    /// The static or adaptive D of domain `u`.
    fn d_of(&self, u: usize) -> u64 {
        if let Some(o) = self.domains[u].d_override {
            return o as u64;
        }
        let a = &self.cfg.adaptive;
        if !a.enabled {
            return self.cfg.idle_detect as u64;
        }
        match a.scope {
            AdaptiveScope::PerType => self.per_type[self.domains[u].ty as usize].d as u64,
            AdaptiveScope::PerDomain => self.domains[u].d as u64,
        }
    }

    /// D for each domain of type `ty` (for traces and tests).
    pub fn d(&self, u: usize) -> u64 {
        self.d_of(u)
    }

    /// The record of domain `u` so far (open runs and events not yet closed).
    pub fn stats(&self, u: usize) -> &DomainStats {
        &self.domains[u].stats
    }

    /// Closes an idle run of length `run` into the histograms.
    fn close_run(cfg: &PgSection, s: &mut DomainStats, run: u64) {
        if run == 0 {
            return;
        }
        let bin = (run.min(IDLE_RUN_BINS as u64) - 1) as usize;
        s.idle_run_count[bin] += 1;
        s.idle_run_cycles[bin] += run;
        let dref = cfg.idle_detect as u64;
        let r = if run <= dref {
            0
        } else if run <= dref + cfg.bet as u64 {
            1
        } else {
            2
        };
        s.region_count[r] += 1;
        s.region_cycles[r] += run;
        if run < cfg.short_bubble_cycles as u64 {
            s.short_bubble_cycles += run;
        }
    }

    fn close_event(cfg: &PgSection, d: &mut Domain) {
        let g = d.g;
        let s = &mut d.stats;
        s.events += 1;
        s.gated_cycles += g;
        *s.g_hist.entry(g).or_default() += 1;
        if g <= cfg.bet as u64 {
            s.events_g_le_bet += 1;
        } else {
            s.events_g_gt_bet += 1;
        }
    }

    /// Per domain type, whether its ON domains follow the gated ones this cycle under the
    /// coordinated-blackout rule (`pg.coordinated`), from the start-of-cycle states.
    #[inline]
    fn coordinated_follow(&self) -> [bool; 3] {
        let cfg = &self.cfg;
        let bet = cfg.bet as u64;
        let pol = self.policy;
        let mut follow = [false; 3];
        for ty in [DomType::Int, DomType::Fp] {
            if pol[ty as usize] != PgPolicy::CoordinatedBlackout {
                continue;
            }
            let v = &self.of_type[ty as usize];
            let gated = v.iter().filter(|&&u| self.is_gated(u)).count();
            let trig = match cfg.coordinated.trigger {
                CoordTrigger::AnyGated => gated > 0,
                CoordTrigger::InBlackoutOnly => v
                    .iter()
                    .any(|&u| self.is_gated(u) && bet.saturating_sub(self.domains[u].g) > 0),
            };
            let on = v.iter().filter(|&&u| self.is_on(u)).count();
            follow[ty as usize] = trig
                && match cfg.coordinated.generalization {
                    CoordGeneralization::AllFollow => true,
                    CoordGeneralization::KeepOneOn => on <= 1,
                };
        }
        follow
    }

    /// §1.2 steps 1, 4 and 5 for cycle `t`: roll the adaptive epoch over (when `t` starts a
    /// new one), compute busy, update every controller. `actv` is `ACTV[INT], ACTV[FP]` after
    /// this cycle's issues.
    pub fn end_cycle(&mut self, t: u64, actv: [u32; 2]) {
        let cfg = &self.cfg;
        if cfg.adaptive.enabled && t > 0 && t.is_multiple_of(cfg.adaptive.epoch) {
            self.roll_epoch();
        }
        self.cycles += 1;
        let cfg = &self.cfg;
        let bet = cfg.bet as u64;
        let pol = self.policy;
        // start-of-cycle view of the types for the coordinated rule
        let follow = self.coordinated_follow();
        let adaptive = self.cfg.adaptive.enabled;
        let per_domain_d = self.cfg.adaptive.scope == AdaptiveScope::PerDomain;
        let type_d = [
            self.per_type[0].d as u64,
            self.per_type[1].d as u64,
            self.per_type[2].d as u64,
        ];
        let ready = self.ready_of_type;
        let cfg = &self.cfg;
        for d in self.domains.iter_mut() {
            if d.pend_start <= t {
                // accepted work starts: it continues the current busy run or opens a new one
                d.busy_until = d.busy_until.max(d.pend_end);
                d.pend_start = u64::MAX;
            }
            let busy = d.busy_until > t;
            // accepted work that has not started yet keeps the domain from gating
            let holds_work = d.pend_start != u64::MAX;
            let s = &mut d.stats;
            s.cycles += 1;
            if busy {
                s.busy += 1;
            } else {
                s.idle += 1;
            }
            if d.blocked_now {
                s.blocked_demand_cycles += 1;
                d.blocked_in_event = true;
            }
            // idle-run bookkeeping (the state of cycle t is decided below; Wakeup cycles are
            // known from the start state or a request this cycle)
            let ty = d.ty as usize;
            match d.state {
                PgState::IdleDetect => {
                    if busy {
                        s.idle_detect_busy += 1;
                        d.idle_cnt = 0;
                    } else {
                        s.idle_detect_idle += 1;
                        let cleared = cfg.idle_clear == IdleClear::OnBusyOrReady && ready[ty];
                        let suppressed = follow[ty];
                        let d_eff = if let Some(o) = d.d_override {
                            o as u64
                        } else if !adaptive {
                            cfg.idle_detect as u64
                        } else if per_domain_d {
                            d.d as u64
                        } else {
                            type_d[ty]
                        };
                        let reached = match cfg.gate_compare {
                            GateCompare::Ge => d.idle_cnt >= d_eff,
                            GateCompare::Gt => d.idle_cnt > d_eff,
                        };
                        let gate = if suppressed {
                            let drained = !d.issued || !cfg.coordinated.immediate_requires_drained;
                            if actv[ty] == 0 && drained {
                                true
                            } else {
                                match cfg.coordinated.suppressed_counter {
                                    SuppressedCounter::Keep => d.idle_cnt += 1,
                                    SuppressedCounter::Hold => {}
                                    SuppressedCounter::Reset => d.idle_cnt = 0,
                                }
                                false
                            }
                        } else if cleared {
                            d.idle_cnt = 0;
                            false
                        } else if !d.issued && reached {
                            true
                        } else {
                            d.idle_cnt += 1;
                            false
                        };
                        if gate && (holds_work || d.held || pol[ty] == PgPolicy::None) {
                            // the domain would gate but holds accepted work (or its policy
                            // never gates): it stays ON
                            d.idle_cnt += 1;
                        } else if gate {
                            // this cycle becomes gated cycle 1
                            s.idle_detect_idle -= 1;
                            s.uncompensated += 1;
                            d.state = PgState::Uncompensated;
                            d.g = 1;
                            d.blocked_in_event = false;
                            d.wake_pending = false;
                        }
                    }
                }
                PgState::Uncompensated | PgState::Compensated => {
                    if d.wake_pending {
                        // CountsAsGated: the request cycle was the event's last gated cycle
                        d.wake_pending = false;
                        Self::close_event(cfg, d);
                        d.state = PgState::Wakeup;
                        d.wk = 0;
                        d.stats.wakeups += 1;
                    } else if d.wake_req {
                        let blackout = matches!(
                            pol[ty],
                            PgPolicy::NaiveBlackout | PgPolicy::CoordinatedBlackout
                        );
                        if blackout && d.g == bet {
                            d.stats.critical_wakeups += 1;
                            d.cw += 1;
                            self.per_type[ty].cw += 1;
                        }
                        if d.blocked_in_event {
                            d.stats.blocked_wakeups += 1;
                        }
                        match cfg.wake_request_cycle {
                            WakeRequestCycle::CountsAsWakeup => {
                                Self::close_event(cfg, d);
                                d.state = PgState::Wakeup;
                                d.wk = 0;
                                d.stats.wakeups += 1;
                            }
                            WakeRequestCycle::CountsAsGated => {
                                d.g += 1;
                                d.wake_pending = true;
                                if d.g <= bet {
                                    d.stats.uncompensated += 1;
                                    d.state = PgState::Uncompensated;
                                } else {
                                    d.stats.compensated += 1;
                                    d.state = PgState::Compensated;
                                }
                            }
                        }
                    } else {
                        d.g += 1;
                        if d.g <= bet {
                            d.stats.uncompensated += 1;
                            d.state = PgState::Uncompensated;
                        } else {
                            d.stats.compensated += 1;
                            d.state = PgState::Compensated;
                        }
                    }
                }
                PgState::Wakeup => {}
            }
            if d.state == PgState::Wakeup {
                d.wk += 1;
                d.stats.wakeup += 1;
                if d.wk >= cfg.wakeup {
                    d.state = PgState::IdleDetect;
                    d.idle_cnt = 0;
                }
                if !cfg.idle_run_includes_wakeup {
                    Self::close_run(cfg, &mut d.stats, d.run);
                    d.run = 0;
                    d.issued = false;
                    d.wake_req = false;
                    d.blocked_now = false;
                    d.held = false;
                    continue;
                }
            }
            if busy {
                Self::close_run(cfg, &mut d.stats, d.run);
                d.run = 0;
            } else {
                d.run += 1;
            }
            d.issued = false;
            d.wake_req = false;
            d.blocked_now = false;
            d.held = false;
        }
        self.ready_of_type = [false; 3];
        self.last_untouched = !std::mem::take(&mut self.touched);
    }

    /// Closes open idle runs (and, with `pg.charge_open_event`, open events) at the end of the
    /// kernel and returns the domains' records.
    pub fn finish(&mut self) -> Vec<DomainStats> {
        let cfg = self.cfg.clone();
        let mut out = Vec::with_capacity(self.domains.len());
        for d in &mut self.domains {
            Self::close_run(&cfg, &mut d.stats, d.run);
            d.run = 0;
            if matches!(d.state, PgState::Uncompensated | PgState::Compensated)
                && cfg.charge_open_event
            {
                Self::close_event(&cfg, d);
            }
            out.push(std::mem::take(&mut d.stats));
        }
        out
    }

    /// An empty [`GatingStats`] header for `cfg`.
    pub fn header(cfg: &PgSection) -> GatingStats {
        GatingStats {
            policy: String::from(cfg.policy),
            lane_policy: None,
            bet: cfg.bet,
            wakeup: cfg.wakeup,
            idle_detect: cfg.idle_detect,
            wakeup_cycles_leak: cfg.wakeup_cycles_leak,
            residual_leak_r: cfg.residual_leak_r,
            short_bubble_limit: cfg.short_bubble_cycles,
            max_ready_wait: 0,
            domains: Vec::new(),
            fold: None,
            active_set: None,
            active_set_per_sm: Vec::new(),
        }
    }
}
