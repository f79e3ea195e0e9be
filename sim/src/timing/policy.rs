//! Extension points of the SM pipeline (DESIGN.md "Extension points"): warp schedulers, the
//! issue stage's hazard check, the register-file organisation and unit gating. The pipeline core
//! calls only these traits; the baseline implementations live next to them.

use super::divisor::Divisor;
use super::tinst::TInst;
use crate::config::{BankMap, GpuConfig, InnerPolicy, SchedPolicy};

/// What a scheduler may see of one of its warps this cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct WarpView {
    /// Warp slot in the SM.
    pub slot: u16,
    /// Dynamic warp id: CTA launch order, then warp index (smaller = older).
    pub age: u64,
    /// The head instruction could issue now (scoreboard, barrier, I-buffer); resources aside.
    pub ready: bool,
    /// Waiting at a barrier or membar.
    pub waiting: bool,
    /// Empty I-buffer.
    pub ibuffer_empty: bool,
    /// The head instruction reads a register written by a pending global/local/atomic load.
    pub head_longop: bool,
    /// The warp has no more instructions to issue.
    pub finished: bool,
}

/// Inter-warp scheduling policy of one scheduler (spec simulator.md §2.3).
pub trait WarpScheduler: Send {
    /// Writes this cycle's priority order of the scheduler's warps into `order` (a subset of
    /// `warps`; warps left out are not considered this cycle).
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>);
    /// The warp in `slot` issued at least one instruction this cycle.
    fn issued(&mut self, slot: u16);
    /// True when [`WarpScheduler::order`] leaves the scheduler's state unchanged, so that a
    /// cycle in which nothing issued can be repeated from the same views with the same result.
    /// The SM then skips re-evaluating an issue stage whose inputs did not change (it replays
    /// the counters). Policies that move on by themselves when idle must return false.
    ///
    /// This and the two properties below are constants of the policy: the SM reads them once,
    /// when the scheduler is installed.
    fn stable_when_idle(&self) -> bool {
        false
    }
    /// True when [`WarpScheduler::order`] reads the per-cycle flags of the views (`ready`,
    /// `waiting`, `ibuffer_empty`, `head_longop`). When false the SM may pass views whose
    /// flags are stale (slot and age are always current), rebuilding them only when the set of
    /// live warps changes.
    fn uses_warp_state(&self) -> bool {
        true
    }
    /// True when [`WarpScheduler::order`] is a function of the views and of the
    /// [`WarpScheduler::issued`] calls alone: called again with the same views and no `issued`
    /// in between, it writes the same order and leaves the state as it was. The SM then reuses
    /// the last order instead of asking again.
    fn order_reusable(&self) -> bool {
        false
    }
    /// Called by the SM instead of [`WarpScheduler::order`] when `warps` is the very slice
    /// passed to the previous `order` or `order_unchanged` call of this scheduler (slots, ages
    /// and flags unchanged), with `order` holding what that call wrote; a policy may skip
    /// re-deriving what depends only on the views, or leave `order` as it is.
    fn order_unchanged(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        self.order(warps, order);
    }
}

/// LRR: scan from the warp after the last issuer (by slot), wrapping round.
#[derive(Default)]
pub struct Lrr {
    last: Option<u16>,
}

impl WarpScheduler for Lrr {
    fn uses_warp_state(&self) -> bool {
        false
    }
    fn order_reusable(&self) -> bool {
        true
    }
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        order.clear();
        // warps are in ascending slot order
        let start = match self.last {
            Some(l) => warps.iter().position(|w| w.slot > l).unwrap_or(0),
            None => 0,
        };
        for i in 0..warps.len() {
            order.push(warps[(start + i) % warps.len()].slot);
        }
    }
    fn issued(&mut self, slot: u16) {
        self.last = Some(slot);
    }
    fn stable_when_idle(&self) -> bool {
        true
    }
}

/// GTO: the last issuer first, then the other warps by ascending age.
#[derive(Default)]
pub struct Gto {
    last: Option<u16>,
    /// The last views' (age, slot) pairs and their slots by ascending age (the warp set
    /// changes rarely, so the sort is reused).
    last_input: Vec<(u64, u16)>,
    by_age: Vec<u16>,
    /// Per slot: the last views marked the warp finished.
    finished: Vec<bool>,
    /// The last issuer the order was last written for (`None` before the first order).
    written_for: Option<Option<u16>>,
}

impl Gto {
    /// The order from the sorted slots: the last issuer first when it is among them and not
    /// finished, then the others by age.
    fn write_order(&self, order: &mut Vec<u16>) {
        order.clear();
        if let Some(l) = self.last {
            if let Some(p) = self.by_age.iter().position(|&s| s == l) {
                if !self.finished[l as usize] {
                    order.push(l);
                    order.extend_from_slice(&self.by_age[..p]);
                    order.extend_from_slice(&self.by_age[p + 1..]);
                    return;
                }
            }
        }
        order.extend_from_slice(&self.by_age);
    }
}

impl WarpScheduler for Gto {
    fn uses_warp_state(&self) -> bool {
        false
    }
    fn order_reusable(&self) -> bool {
        true
    }
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        let same = warps.len() == self.last_input.len()
            && warps
                .iter()
                .zip(&self.last_input)
                .all(|(w, &(a, sl))| w.age == a && w.slot == sl);
        if !same {
            self.last_input.clear();
            self.last_input
                .extend(warps.iter().map(|w| (w.age, w.slot)));
            let mut sorted = self.last_input.clone();
            sorted.sort_unstable();
            self.by_age.clear();
            self.by_age.extend(sorted.iter().map(|x| x.1));
        }
        for w in warps {
            let i = w.slot as usize;
            if i >= self.finished.len() {
                self.finished.resize(i + 1, false);
            }
            self.finished[i] = w.finished;
        }
        self.write_order(order);
        self.written_for = Some(self.last);
    }
    fn order_unchanged(&mut self, _warps: &[WarpView], order: &mut Vec<u16>) {
        // the greedy warp issued again: the order it was written for still holds
        if self.written_for != Some(self.last) {
            self.write_order(order);
            self.written_for = Some(self.last);
        }
    }
    fn issued(&mut self, slot: u16) {
        self.last = Some(slot);
    }
    fn stable_when_idle(&self) -> bool {
        true
    }
}

/// Oldest (ascending age) or youngest (descending age) first.
pub struct ByAge {
    pub youngest_first: bool,
    by_age: Vec<(u64, u16)>,
}

impl WarpScheduler for ByAge {
    fn uses_warp_state(&self) -> bool {
        false
    }
    fn order_reusable(&self) -> bool {
        true
    }
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        self.by_age.clear();
        self.by_age.extend(warps.iter().map(|w| (w.age, w.slot)));
        if !self.by_age.is_sorted() {
            self.by_age.sort_unstable();
        }
        if self.youngest_first {
            self.by_age.reverse();
        }
        order.clear();
        order.extend(self.by_age.iter().map(|x| x.1));
    }
    fn issued(&mut self, _slot: u16) {}
    fn stable_when_idle(&self) -> bool {
        true
    }
}

/// Fetch-group(g): warps split into age groups of g; the current group is served LRR and
/// priority rotates to the next group when no warp of the current group issued.
pub struct FetchGroup {
    pub g: usize,
    current: usize,
    last: Option<u16>,
    issued_this_cycle: bool,
    by_age: Vec<(u64, u16)>,
}

impl WarpScheduler for FetchGroup {
    fn uses_warp_state(&self) -> bool {
        false
    }
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        self.by_age.clear();
        self.by_age.extend(warps.iter().map(|w| (w.age, w.slot)));
        if !self.by_age.is_sorted() {
            self.by_age.sort_unstable();
        }
        order.clear();
        let n = self.by_age.len();
        if n == 0 {
            return;
        }
        let groups = n.div_ceil(self.g);
        if !self.issued_this_cycle {
            self.current = (self.current + 1) % groups;
        }
        self.issued_this_cycle = false;
        self.current %= groups;
        for gi in 0..groups {
            let grp = (self.current + gi) % groups;
            let lo = grp * self.g;
            let hi = (lo + self.g).min(n);
            let members = &self.by_age[lo..hi];
            let start = match self.last {
                Some(l) => members
                    .iter()
                    .position(|x| x.1 == l)
                    .map(|p| p + 1)
                    .unwrap_or(0),
                None => 0,
            };
            for i in 0..members.len() {
                order.push(members[(start + i) % members.len()].1);
            }
        }
    }
    fn issued(&mut self, slot: u16) {
        self.last = Some(slot);
        self.issued_this_cycle = true;
    }
}

/// Two-level(A, inner): an active set of at most A warps, refilled from a pending FIFO.
/// Each cycle: (1) demote active warps that wait at a barrier/membar, are finished, have an empty
/// I-buffer or a `longop` head source to the FIFO tail; (2) promote from the FIFO head, skipping
/// such warps, while fewer than A are active; (3) order the active set by the inner policy.
pub struct TwoLevel {
    pub active_max: usize,
    pub inner: Box<dyn WarpScheduler>,
    active: Vec<u16>,
    pending: std::collections::VecDeque<u16>,
    scratch: Vec<WarpView>,
}

impl TwoLevel {
    pub fn new(active_max: usize, inner: InnerPolicy) -> Self {
        TwoLevel {
            active_max,
            inner: match inner {
                InnerPolicy::Lrr => Box::new(Lrr::default()),
                InnerPolicy::Gto => Box::new(Gto::default()),
            },
            active: Vec::new(),
            pending: Default::default(),
            scratch: Vec::new(),
        }
    }
}

fn demote(w: &WarpView) -> bool {
    w.waiting || w.finished || w.ibuffer_empty || w.head_longop
}

impl WarpScheduler for TwoLevel {
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        let find = |s: u16| warps.iter().find(|w| w.slot == s);
        // Warps that left the scheduler are dropped; new warps join the FIFO in age order.
        self.active.retain(|s| find(*s).is_some());
        self.pending.retain(|s| find(*s).is_some());
        let mut new: Vec<(u64, u16)> = warps
            .iter()
            .filter(|w| !self.active.contains(&w.slot) && !self.pending.contains(&w.slot))
            .map(|w| (w.age, w.slot))
            .collect();
        new.sort_unstable();
        self.pending.extend(new.into_iter().map(|x| x.1));
        // 1. demote
        let mut i = 0;
        while i < self.active.len() {
            let s = self.active[i];
            if find(s).map(demote).unwrap_or(true) {
                self.active.remove(i);
                self.pending.push_back(s);
            } else {
                i += 1;
            }
        }
        // 2. promote from the FIFO head, skipping ineligible warps
        let mut k = 0;
        while self.active.len() < self.active_max && k < self.pending.len() {
            let s = self.pending[k];
            if find(s).map(|w| !demote(w)).unwrap_or(false) {
                self.pending.remove(k);
                self.active.push(s);
            } else {
                k += 1;
            }
        }
        // 3. inner order over the active set (views in ascending slot order)
        self.scratch.clear();
        let mut act = self.active.clone();
        act.sort_unstable();
        for s in act {
            if let Some(w) = find(s) {
                self.scratch.push(*w);
            }
        }
        self.inner.order(&self.scratch, order);
    }
    fn issued(&mut self, slot: u16) {
        self.inner.issued(slot);
    }
}

/// Builds the configured scheduler.
pub fn make_scheduler(cfg: &GpuConfig) -> Box<dyn WarpScheduler> {
    match &cfg.sched.policy {
        SchedPolicy::Lrr => Box::new(Lrr::default()),
        SchedPolicy::Gto => Box::new(Gto::default()),
        SchedPolicy::Oldest => Box::new(ByAge {
            youngest_first: false,
            by_age: Vec::new(),
        }),
        SchedPolicy::Youngest => Box::new(ByAge {
            youngest_first: true,
            by_age: Vec::new(),
        }),
        SchedPolicy::FetchGroup => Box::new(FetchGroup {
            g: cfg.sched.fetch_group_size.max(1) as usize,
            current: 0,
            last: None,
            issued_this_cycle: true,
            by_age: Vec::new(),
        }),
        SchedPolicy::TwoLevel => Box::new(TwoLevel::new(
            cfg.sched.two_level.active_per_sched as usize,
            cfg.sched.two_level.inner,
        )),
        // Rejected by GpuConfig::validate; kept total for safety.
        SchedPolicy::Plugin(_) => Box::new(Gto::default()),
    }
}

/// Why a head instruction cannot issue (issue-stage hazard check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hazard {
    /// RAW/WAW on a pending write, or WAR on a pending read.
    Scoreboard,
}

/// Register-number space of the scoreboard: 256 general + 8 predicate registers.
pub const N_REGS: usize = 264;
const WORDS: usize = N_REGS.div_ceil(64);

/// Issue-stage dependence tracking for one SM (spec §2.2; issue-stage.md §1.2).
pub trait IssueStage: Send {
    /// Resizes for `n_warps` slots and clears.
    fn reset(&mut self, n_warps: usize);
    /// Can `inst` of warp `w` issue with respect to register hazards?
    fn check(&self, w: usize, inst: &TInst) -> Result<(), Hazard>;
    /// `inst` issued: reserve its destinations (`longop` marks long-latency producers).
    fn reserve(&mut self, w: usize, inst: &TInst, longop: bool);
    /// Destination `reg` of warp `w` was written back.
    fn release(&mut self, w: usize, reg: u16);
    /// Sources of `inst` have been read (WAR counters).
    fn sources_read(&mut self, w: usize, inst: &TInst);
    /// Does the head read a register reserved by a long-latency producer?
    fn reads_longop(&self, w: usize, inst: &TInst) -> bool;
    /// Any reserved register left for warp `w`?
    fn any_pending(&self, w: usize) -> bool;
    /// True when a failed [`IssueStage::check`] of warp `w`'s head keeps failing until
    /// [`IssueStage::release`] or [`IssueStage::sources_read`] is called for `w`, and a passed
    /// check keeps passing until [`IssueStage::reserve`] for `w` (the SM then skips re-checking
    /// an unchanged head). False, the default, re-checks every time. A constant of the stage,
    /// read once by the SM.
    fn failure_sticky(&self) -> bool {
        false
    }
}

/// In-order scoreboard: pending-write and long-op bit sets per warp, optional WAR counters.
pub struct InOrderScoreboard {
    pending: Vec<[u64; WORDS]>,
    longop: Vec<[u64; WORDS]>,
    war: Option<Vec<[u8; N_REGS]>>,
}

impl InOrderScoreboard {
    pub fn new(war: bool) -> Self {
        InOrderScoreboard {
            pending: Vec::new(),
            longop: Vec::new(),
            war: if war { Some(Vec::new()) } else { None },
        }
    }
}

#[inline]
fn bit(set: &[u64; WORDS], r: u16) -> bool {
    let r = r as usize;
    r < N_REGS && set[r / 64] >> (r % 64) & 1 == 1
}

impl IssueStage for InOrderScoreboard {
    fn reset(&mut self, n: usize) {
        self.pending = vec![[0; WORDS]; n];
        self.longop = vec![[0; WORDS]; n];
        if let Some(w) = &mut self.war {
            *w = vec![[0; N_REGS]; n];
        }
    }
    fn check(&self, w: usize, inst: &TInst) -> Result<(), Hazard> {
        let p = &self.pending[w];
        if inst.srcs().iter().chain(inst.dsts()).any(|&r| bit(p, r)) {
            return Err(Hazard::Scoreboard);
        }
        if let Some(war) = &self.war {
            if inst
                .dsts()
                .iter()
                .any(|&r| (r as usize) < N_REGS && war[w][r as usize] > 0)
            {
                return Err(Hazard::Scoreboard);
            }
        }
        Ok(())
    }
    fn reserve(&mut self, w: usize, inst: &TInst, longop: bool) {
        for &r in inst.dsts() {
            let r = r as usize;
            if r < N_REGS {
                self.pending[w][r / 64] |= 1 << (r % 64);
                if longop {
                    self.longop[w][r / 64] |= 1 << (r % 64);
                }
            }
        }
        if let Some(war) = &mut self.war {
            for &r in inst.srcs() {
                if (r as usize) < N_REGS {
                    war[w][r as usize] = war[w][r as usize].saturating_add(1);
                }
            }
        }
    }
    fn release(&mut self, w: usize, reg: u16) {
        let r = reg as usize;
        if r < N_REGS {
            self.pending[w][r / 64] &= !(1 << (r % 64));
            self.longop[w][r / 64] &= !(1 << (r % 64));
        }
    }
    fn sources_read(&mut self, w: usize, inst: &TInst) {
        if let Some(war) = &mut self.war {
            for &r in inst.srcs() {
                if (r as usize) < N_REGS {
                    war[w][r as usize] = war[w][r as usize].saturating_sub(1);
                }
            }
        }
    }
    fn reads_longop(&self, w: usize, inst: &TInst) -> bool {
        inst.srcs().iter().any(|&r| bit(&self.longop[w], r))
    }
    fn any_pending(&self, w: usize) -> bool {
        self.pending[w].iter().any(|&x| x != 0)
    }
    /// A check fails on pending-write bits or WAR counters of the warp, which only `reserve`
    /// (issue of this warp, impossible while its head is blocked, and only adding hazards),
    /// `release` and `sources_read` change.
    fn failure_sticky(&self) -> bool {
        true
    }
}

/// The SM's issue stage: the built-in scoreboard called directly (its checks run several
/// times per instruction, and a direct call lets them inline), any other through its trait.
pub enum IssueStageSlot {
    InOrder(InOrderScoreboard),
    Other(Box<dyn IssueStage>),
}

/// Calls the same method on whichever variant a two-variant slot enum holds.
macro_rules! slot_call {
    ($self:expr, $a:ident | $b:ident, $s:ident => $e:expr) => {
        match $self {
            Self::$a($s) => $e,
            Self::$b($s) => $e,
        }
    };
}

impl IssueStage for IssueStageSlot {
    fn reset(&mut self, n_warps: usize) {
        slot_call!(self, InOrder | Other, s => s.reset(n_warps))
    }
    #[inline]
    fn check(&self, w: usize, inst: &TInst) -> Result<(), Hazard> {
        slot_call!(self, InOrder | Other, s => s.check(w, inst))
    }
    #[inline]
    fn reserve(&mut self, w: usize, inst: &TInst, longop: bool) {
        slot_call!(self, InOrder | Other, s => s.reserve(w, inst, longop))
    }
    #[inline]
    fn release(&mut self, w: usize, reg: u16) {
        slot_call!(self, InOrder | Other, s => s.release(w, reg))
    }
    #[inline]
    fn sources_read(&mut self, w: usize, inst: &TInst) {
        slot_call!(self, InOrder | Other, s => s.sources_read(w, inst))
    }
    #[inline]
    fn reads_longop(&self, w: usize, inst: &TInst) -> bool {
        slot_call!(self, InOrder | Other, s => s.reads_longop(w, inst))
    }
    fn any_pending(&self, w: usize) -> bool {
        slot_call!(self, InOrder | Other, s => s.any_pending(w))
    }
    fn failure_sticky(&self) -> bool {
        slot_call!(self, InOrder | Other, s => s.failure_sticky())
    }
}

/// The SM's register-file organisation: the built-in monolithic file called directly (its bank
/// mapping runs for every operand), any other through its trait.
pub enum RegisterFileSlot {
    Monolithic(MonolithicRf),
    Other(Box<dyn RegisterFileOrg>),
}

impl RegisterFileOrg for RegisterFileSlot {
    #[inline]
    fn bank(&self, w: u32, sched: u32, reg: u16) -> u32 {
        slot_call!(self, Monolithic | Other, r => r.bank(w, sched, reg))
    }
    fn extra_read_latency(&self, w: u32, reg: u16) -> u32 {
        slot_call!(self, Monolithic | Other, r => r.extra_read_latency(w, reg))
    }
    fn extra_write_latency(&self, w: u32, reg: u16) -> u32 {
        slot_call!(self, Monolithic | Other, r => r.extra_write_latency(w, reg))
    }
}

/// Register-file organisation: bank mapping and extra access latency (spec §2.4 `RegFileModel`).
pub trait RegisterFileOrg: Send {
    /// Bank of register `reg` of warp slot `w` on scheduler `sched`.
    fn bank(&self, w: u32, sched: u32, reg: u16) -> u32;
    /// Extra cycles a read of (w, reg) takes beyond the grant cycle.
    fn extra_read_latency(&self, _w: u32, _reg: u16) -> u32 {
        0
    }
    /// Extra cycles of a write.
    fn extra_write_latency(&self, _w: u32, _reg: u16) -> u32 {
        0
    }
}

/// Monolithic banked RF: `bank = (reg + w) mod B` (`reg_plus_warp`) or `reg mod B`; in sub-core
/// mode `bank = sched·B/n_sched + (reg + w) mod (B/n_sched)` with n_sched = sub-cores.
pub struct MonolithicRf {
    n_banks: u32,
    map: BankMap,
    n_subcores: u32,
    scheds_per_subcore: u32,
    /// Banks per sub-core (all banks with one sub-core), as a divisor for the modulo.
    per: Divisor,
}

impl MonolithicRf {
    pub fn new(cfg: &GpuConfig) -> Self {
        let n_banks = cfg.rf.n_banks;
        let n_subcores = cfg.sm.n_subcores.max(1);
        let per = if n_subcores > 1 {
            n_banks / n_subcores
        } else {
            n_banks
        };
        MonolithicRf {
            n_banks,
            map: cfg.rf.bank_map,
            n_subcores,
            scheds_per_subcore: cfg.scheds_per_subcore().max(1),
            per: Divisor::new(per as u64),
        }
    }

    /// Banks in all.
    pub fn n_banks(&self) -> u32 {
        self.n_banks
    }
}

impl RegisterFileOrg for MonolithicRf {
    #[inline]
    fn bank(&self, w: u32, sched: u32, reg: u16) -> u32 {
        let shift = match self.map {
            BankMap::RegPlusWarp => w,
            BankMap::RegOnly => 0,
        };
        let within = self.per.rem((reg as u32 + shift) as u64) as u32;
        if self.n_subcores > 1 {
            let sc = sched / self.scheds_per_subcore;
            sc * self.per.get() as u32 + within
        } else {
            within
        }
    }
}

/// A unit's availability as a gating policy sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitState {
    Ready,
    /// Gated; usable after `wake_in` cycles once a wake is requested.
    Gated {
        wake_in: u32,
    },
}

/// Power gating of execution pipes (spec §2.9 `UnitGate`, power-gating.md §1.2).
pub trait GatingPolicy: Send {
    /// Availability of pipe `pipe` (index into the SM's pipe list) at `cycle`.
    fn available(&self, pipe: usize, cycle: u64) -> UnitState;
    /// A candidate wants the gated pipe.
    fn request_wake(&mut self, _pipe: usize, _cycle: u64) {}
    /// Whether the policy needs [`GatingPolicy::on_cycle`] every cycle (disables cycle skipping
    /// of idle SMs when true).
    fn needs_cycle_hook(&self) -> bool {
        false
    }
    /// End of a cycle: whether the pipe was busy and whether it accepted an instruction.
    fn on_cycle(&mut self, _pipe: usize, _cycle: u64, _busy: bool, _accepted: bool) {}
    /// True when [`GatingPolicy::available`] does not depend on the cycle (lets the issue stage
    /// skip re-evaluating an unchanged SM). This and [`GatingPolicy::always_ready`] are
    /// constants of the policy, read once by the SM.
    fn time_invariant(&self) -> bool {
        false
    }
    /// True when every pipe is always [`UnitState::Ready`] (nothing is ever gated), so that
    /// callers may skip [`GatingPolicy::available`].
    fn always_ready(&self) -> bool {
        false
    }
}

/// No gating: every pipe is always ready.
pub struct NoGating;

impl GatingPolicy for NoGating {
    fn available(&self, _pipe: usize, _cycle: u64) -> UnitState {
        UnitState::Ready
    }
    fn time_invariant(&self) -> bool {
        true
    }
    fn always_ready(&self) -> bool {
        true
    }
}

/// The SM's gating policy: the built-in "no gating" called directly (its answers are constants
/// the SM reads once), any other through its trait.
pub enum GatingSlot {
    None(NoGating),
    Other(Box<dyn GatingPolicy>),
}

impl GatingPolicy for GatingSlot {
    #[inline]
    fn available(&self, pipe: usize, cycle: u64) -> UnitState {
        slot_call!(self, None | Other, g => g.available(pipe, cycle))
    }
    fn request_wake(&mut self, pipe: usize, cycle: u64) {
        slot_call!(self, None | Other, g => g.request_wake(pipe, cycle))
    }
    fn needs_cycle_hook(&self) -> bool {
        slot_call!(self, None | Other, g => g.needs_cycle_hook())
    }
    fn on_cycle(&mut self, pipe: usize, cycle: u64, busy: bool, accepted: bool) {
        slot_call!(self, None | Other, g => g.on_cycle(pipe, cycle, busy, accepted))
    }
    fn time_invariant(&self) -> bool {
        slot_call!(self, None | Other, g => g.time_invariant())
    }
    fn always_ready(&self) -> bool {
        slot_call!(self, None | Other, g => g.always_ready())
    }
}
