//! TRIC in the timing model (register-file spec §3, §4, §8): the tri-modal power state of
//! every register-file entry with hold counts, wake latency and allocation, as a register-file
//! organisation ([`TricRf`], `RegisterFileSlot::Tric`) over the one that maps banks and routes
//! accesses, reached through the `RegisterFileOrg` hooks of an organisation that gates its
//! entries. The per-structure access counts and COMA's mask table are `rfmonitor.rs`.
//!
//! TRIC (§3.2–§3.4, §3.6, §3.7): at launch the allocated entries are DROWSY and the rest OFF
//! (with `alloc_scope = "per_cta"` a CTA slot's entries are DROWSY only while a CTA occupies
//! it). When an instruction takes a collector at t0 its sources and (conservative policy) its
//! destination are woken: a DROWSY unit is WAKING from t0 and ON from t0 + L; a unit already
//! awake only gains a hold. A source's hold is released by its own read, the destination's by
//! the writeback (`"just_in_time"`: the destination is woken L cycles before a fixed-latency
//! writeback, or when a variable-latency result arrives, which then waits L − 1 cycles). A
//! unit goes back to DROWSY at hold count zero, after the cycle of its last access. Residency
//! is accounted lazily: each unit keeps the cycle its state began, and every transition adds
//! the elapsed unit-cycles to the state's total, so the totals sum to units × cycles exactly.
//!
//! Look-ahead (§3.5, `tric.lookahead = k > 0`): every cycle the schedulers send the source
//! registers of the instructions they predict for the next k cycles ([`Tric::predict`]). A
//! DROWSY unit so named is woken at once (a wake event) with no hold; an instruction that then
//! wakes it finds it awake and takes the first hold (a hit). A unit no instruction claims within
//! `tric.lookahead_timeout` cycles (default k + L) goes back to DROWSY (a misprediction); until
//! then it is WAKING/ON and so charged full-Vdd leakage. Timeouts are kept in a FIFO (the
//! timeout is fixed, so deadlines arrive in order) and applied lazily before any wake.

use crate::activity::{PartResidency, RfStats, TricStats};
use crate::config::tric::{DestPolicy, TricAllocScope, TricGranularity};
use crate::config::GpuConfig;
use crate::inst::PRED_BASE;
use crate::timing::policy::{RegisterFileOrg, RfPart, RfRoute};
use crate::timing::tinst::TInst;
use std::collections::VecDeque;

const OFF: u8 = 0;
const DROWSY: u8 = 1;
/// Woken: WAKING before `on_at`, ON from it.
const AWAKE: u8 = 2;

/// Residency totals by state, unit-cycles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Residency {
    pub off: u64,
    pub drowsy: u64,
    pub waking: u64,
    pub on: u64,
}

/// TRIC's per-unit state machine for one SM's register file.
pub(crate) struct Tric {
    /// Units per entry: 1 (`entry`) or 32 (`entry_lane`).
    lanes: usize,
    /// Wake latency L (DROWSY → ON), cycles.
    wake: u64,
    /// Wake latency from OFF, cycles.
    off_wake: u64,
    jit: bool,
    per_cta: bool,
    /// Entries of the physical register file.
    n_entries: u64,
    /// Registers per thread of the running kernel (allocation granularity included).
    regs: usize,
    /// Warps of one CTA slot.
    wpc: usize,
    /// Warp slots covered by the allocation.
    alloc_warps: usize,
    state: Vec<u8>,
    hold: Vec<u16>,
    since: Vec<u64>,
    on_at: Vec<u64>,
    /// Per entry: the destination of an in-flight write holds it (`just_in_time`).
    dest_held: Vec<bool>,
    /// Per entry: the cycle a fixed-latency result will be written (`just_in_time`), or
    /// u64::MAX for a variable-latency one.
    dest_ready: Vec<u64>,
    /// `tric.lookahead` k (0: no predictions, and the two fields below stay empty).
    pub lookahead: u32,
    /// Cycles a predicted, unclaimed unit stays awake.
    timeout: u64,
    /// Per unit: the cycle its predicted wake times out, or u64::MAX (not predicted, or
    /// claimed by an instruction).
    deadline: Vec<u64>,
    /// Predicted wakes (deadline, unit) in deadline order.
    expiry: VecDeque<(u64, u32)>,
    pub res: Residency,
    pub stats: TricStats,
    /// Per-bank all-OFF accounting (`tric.gate_periphery_if_bank_off`), absent without it.
    banks: Option<BankOff>,
}

/// The cycles each register-file bank spends with every unit OFF (register-file spec §8.2,
/// `tric.gate_periphery_if_bank_off`). A unit's bank is the SM's bank function of its entry
/// (w, r) (`rf.bank_map`, sub-cores; scheduler `w mod sched.n_per_sm`); the entries outside
/// the allocation are OFF throughout and belong to no live count, so a bank is all-OFF exactly
/// when none of its allocated units is out of OFF. Only transitions into and out of OFF
/// change a count: launch, CTA launch and exit (`alloc_scope = "per_cta"`), and the (counted,
/// never expected) wake of an OFF unit.
struct BankOff {
    map: crate::timing::policy::MonolithicRf,
    n_sched: u32,
    /// Bank of each allocated unit.
    unit_bank: Vec<u16>,
    /// Per bank: units not OFF.
    live: Vec<u32>,
    /// Per bank: the cycle its all-OFF interval began (u64::MAX while it has a live unit).
    since: Vec<u64>,
    /// Σ over banks of the all-OFF cycles closed so far.
    total: u64,
}

impl BankOff {
    fn enter_live(&mut self, u: usize, t: u64) {
        let b = self.unit_bank[u] as usize;
        if self.live[b] == 0 {
            self.total += t.saturating_sub(self.since[b]);
            self.since[b] = u64::MAX;
        }
        self.live[b] += 1;
    }

    fn leave_live(&mut self, u: usize, t: u64) {
        let b = self.unit_bank[u] as usize;
        self.live[b] -= 1;
        if self.live[b] == 0 {
            self.since[b] = t;
        }
    }
}

impl Tric {
    /// TRIC for one SM of `cfg` (no kernel yet).
    pub fn new(cfg: &GpuConfig) -> Tric {
        let tc = &cfg.tric;
        Tric {
            lanes: match tc.granularity {
                TricGranularity::Entry => 1,
                TricGranularity::EntryLane => 32,
            },
            wake: tc.wake_latency.max(1) as u64,
            off_wake: tc.off_wake_cycles().max(1) as u64,
            jit: tc.dest_policy == DestPolicy::JustInTime,
            per_cta: tc.alloc_scope == TricAllocScope::PerCta,
            n_entries: (cfg.sm.n_registers / cfg.gpu.warp_size.max(1)) as u64,
            regs: 0,
            wpc: 0,
            alloc_warps: 0,
            state: Vec::new(),
            hold: Vec::new(),
            since: Vec::new(),
            on_at: Vec::new(),
            dest_held: Vec::new(),
            dest_ready: Vec::new(),
            lookahead: tc.lookahead,
            timeout: tc.lookahead_timeout_cycles().max(1) as u64,
            deadline: Vec::new(),
            expiry: VecDeque::new(),
            res: Residency::default(),
            stats: TricStats {
                granularity: match tc.granularity {
                    TricGranularity::Entry => "entry",
                    TricGranularity::EntryLane => "entry_lane",
                }
                .to_string(),
                wake_latency: tc.wake_latency,
                lookahead: tc.lookahead,
                ..Default::default()
            },
            banks: tc.gate_periphery_if_bank_off.then(|| {
                let map = crate::timing::policy::MonolithicRf::new(cfg);
                let nb = map.n_banks().max(1) as usize;
                BankOff {
                    map,
                    n_sched: cfg.sched.n_per_sm.max(1),
                    unit_bank: Vec::new(),
                    live: vec![0; nb],
                    since: vec![0; nb],
                    total: 0,
                }
            }),
        }
    }

    /// A kernel with `regs` registers per thread launches at cycle `t` with at most
    /// `max_ctas` CTAs of `wpc` warps resident: the allocated entries become DROWSY
    /// (`kernel_static`) or stay OFF until their CTA slot fills (`per_cta`).
    pub fn kernel_launch(&mut self, regs: u32, max_ctas: u32, wpc: u32, t: u64) {
        self.regs = regs as usize;
        self.wpc = wpc as usize;
        self.alloc_warps = (max_ctas * wpc) as usize;
        let n_alloc = self.alloc_warps * self.regs;
        let n = n_alloc * self.lanes;
        let init = if self.per_cta { OFF } else { DROWSY };
        self.state = vec![init; n];
        self.hold = vec![0; n];
        self.since = vec![t; n];
        self.on_at = vec![0; n];
        self.dest_held = vec![false; n_alloc];
        self.dest_ready = vec![u64::MAX; n_alloc];
        if self.lookahead > 0 {
            self.deadline = vec![u64::MAX; n];
            self.expiry.clear();
        }
        self.n_entries = self.n_entries.max(n_alloc as u64);
        if let Some(bo) = self.banks.as_mut() {
            use crate::timing::policy::RegisterFileOrg;
            let lanes = self.lanes;
            let regs = self.regs.max(1);
            bo.unit_bank = (0..n)
                .map(|u| {
                    let e = u / lanes;
                    let (w, r) = ((e / regs) as u32, (e % regs) as u16);
                    bo.map.bank(w, w % bo.n_sched, r) as u16
                })
                .collect();
            bo.live.fill(0);
            bo.total = 0;
            if init != OFF {
                for &b in &bo.unit_bank {
                    bo.live[b as usize] += 1;
                }
            }
            for (l, s) in bo.live.iter().zip(bo.since.iter_mut()) {
                *s = if *l == 0 { t } else { u64::MAX };
            }
        }
    }

    /// Entry index of register `reg` of warp slot `w`, if it is inside the allocation.
    #[inline]
    fn entry(&self, w: usize, reg: u16) -> Option<usize> {
        let r = reg as usize;
        (r < self.regs && w < self.alloc_warps).then(|| w * self.regs + r)
    }

    /// Adds the unit's time in its current state from its start to `t`, and restarts it at `t`.
    #[inline]
    fn close(&mut self, u: usize, t: u64) {
        let s = self.since[u];
        if t <= s {
            return;
        }
        match self.state[u] {
            OFF => self.res.off += t - s,
            DROWSY => self.res.drowsy += t - s,
            _ => {
                let on = self.on_at[u];
                if on > s {
                    self.res.waking += on.min(t) - s;
                }
                if t > on {
                    self.res.on += t - on.max(s);
                }
            }
        }
        self.since[u] = t;
    }

    /// One wake request for unit `u` at `t`; returns the cycle it is ON.
    #[inline]
    fn wake_unit(&mut self, u: usize, t: u64) -> u64 {
        match self.state[u] {
            AWAKE => {
                if self.hold[u] == 0 {
                    // only a look-ahead prediction leaves a unit awake without a hold
                    if let Some(d) = self.deadline.get_mut(u) {
                        *d = u64::MAX;
                        self.stats.lookahead_hits += 1;
                    }
                }
                self.hold[u] += 1;
                self.on_at[u]
            }
            DROWSY if self.since[u] > t => {
                // released at the end of this very cycle: it never left ON
                self.state[u] = AWAKE;
                self.on_at[u] = self.since[u];
                self.hold[u] = 1;
                self.since[u]
            }
            st => {
                self.close(u, t);
                let l = if st == OFF {
                    self.stats.off_accesses += 1;
                    if let Some(bo) = self.banks.as_mut() {
                        bo.enter_live(u, t);
                    }
                    self.off_wake
                } else {
                    self.wake
                };
                self.state[u] = AWAKE;
                self.on_at[u] = t + l;
                self.hold[u] = 1;
                self.stats.wake_events += 1;
                t + l
            }
        }
    }

    /// A look-ahead prediction names register `reg` of warp `w` (lanes `mask`) at `t`: its
    /// DROWSY units are woken now without a hold, and go back to DROWSY at `t + timeout` unless
    /// an instruction claims them first. OFF units are never woken by a prediction; awake ones
    /// are already on their way.
    pub fn predict(&mut self, w: usize, reg: u16, mask: u32, t: u64) {
        let Some(e) = self.entry(w, reg) else {
            return;
        };
        let us = Self::units(self.lanes, e, mask);
        for u in us {
            if self.state[u] != DROWSY {
                continue;
            }
            let on = if self.since[u] > t {
                // released at the end of this very cycle: it never left ON
                self.since[u]
            } else {
                self.close(u, t);
                self.stats.wake_events += 1;
                self.stats.lookahead_wakes += 1;
                t + self.wake
            };
            self.state[u] = AWAKE;
            self.on_at[u] = on;
            self.hold[u] = 0;
            let d = t + self.timeout;
            self.deadline[u] = d;
            self.expiry.push_back((d, u as u32));
        }
    }

    /// Applies every look-ahead timeout due by `t`: a predicted unit still unclaimed at its
    /// deadline goes back to DROWSY from that cycle.
    #[inline]
    pub fn expire(&mut self, t: u64) {
        while let Some(&(d, u)) = self.expiry.front() {
            if d > t {
                break;
            }
            self.expiry.pop_front();
            let u = u as usize;
            if self.deadline[u] != d {
                continue; // claimed, or predicted again after an earlier timeout
            }
            self.deadline[u] = u64::MAX;
            if self.state[u] == AWAKE && self.hold[u] == 0 {
                self.close(u, d.max(self.since[u]));
                self.state[u] = DROWSY;
                self.stats.lookahead_mispredicted += 1;
            }
        }
    }

    /// Releases one hold of unit `u` after an access at `t`; DROWSY from `t + 1` at zero.
    #[inline]
    fn release_unit(&mut self, u: usize, t: u64) {
        if self.state[u] != AWAKE || self.hold[u] == 0 {
            return;
        }
        self.hold[u] -= 1;
        if self.hold[u] == 0 {
            self.close(u, t + 1);
            self.state[u] = DROWSY;
        }
    }

    /// Checks that every unit of an access at `t` is ON (counters for violations).
    #[inline]
    fn check_on(&mut self, u: usize, t: u64) {
        match self.state[u] {
            OFF => {
                debug_assert!(false, "TRIC: an OFF register-file unit was accessed");
                self.stats.off_accesses += 1;
            }
            AWAKE if self.on_at[u] <= t => {}
            _ => self.stats.not_on_accesses += 1,
        }
    }

    /// The units of entry `e` selected by `mask` (with `entry` granularity the entry itself),
    /// for `lanes` units per entry.
    #[inline]
    fn units(lanes: usize, e: usize, mask: u32) -> impl Iterator<Item = usize> {
        let (base, mut bits) = if lanes == 1 {
            (e, 1u64)
        } else {
            (e * 32, mask as u64)
        };
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(base + i)
        })
    }

    /// Wakes register `reg` of warp `w` for the lanes `mask` at `t`; returns the cycle all of
    /// them are ON (`t` for a register outside the allocation, counted as an OFF access).
    pub fn wake(&mut self, w: usize, reg: u16, mask: u32, t: u64) -> u64 {
        let Some(e) = self.entry(w, reg) else {
            self.stats.off_accesses += 1;
            return t;
        };
        let mut on = t;
        let us = Self::units(self.lanes, e, mask);
        for u in us {
            on = on.max(self.wake_unit(u, t));
        }
        on
    }

    /// A read of (w, reg) for lanes `mask` granted at `t`: checks ON, releases the source hold.
    pub fn read(&mut self, w: usize, reg: u16, mask: u32, t: u64) {
        let Some(e) = self.entry(w, reg) else {
            return;
        };
        let us = Self::units(self.lanes, e, mask);
        for u in us {
            self.check_on(u, t);
            self.release_unit(u, t);
        }
    }

    /// The destination (w, reg) of an instruction taking a collector at `t`: woken now under
    /// the conservative policy; under `just_in_time` only noted.
    pub fn dest_alloc(&mut self, w: usize, reg: u16, mask: u32, t: u64) {
        if self.jit {
            if let Some(e) = self.entry(w, reg) {
                self.dest_ready[e] = u64::MAX;
                self.dest_held[e] = false;
            }
            return;
        }
        self.wake(w, reg, mask, t);
        if let Some(e) = self.entry(w, reg) {
            self.dest_held[e] = true;
        }
    }

    /// A fixed-latency result for (w, reg) will be written at `ready` (`just_in_time`).
    pub fn dest_fixed(&mut self, w: usize, reg: u16, ready: u64) {
        if let Some(e) = self.entry(w, reg) {
            self.dest_ready[e] = ready;
        }
    }

    /// A writeback of (w, reg) for lanes `mask` wants the port at `t`: returns the first cycle
    /// the destination is ON (≤ `t`: write now). Under `just_in_time` the first call wakes the
    /// destination, L cycles before a fixed-latency result's writeback (retroactively, the
    /// entry having been DROWSY until then) or now for a variable-latency one, whose write then
    /// waits L − 1 cycles.
    pub fn write_ready(&mut self, w: usize, reg: u16, mask: u32, t: u64) -> u64 {
        let Some(e) = self.entry(w, reg) else {
            return t;
        };
        if !self.dest_held[e] {
            self.dest_held[e] = true;
            let ready = self.dest_ready[e];
            let us = Self::units(self.lanes, e, mask);
            let mut on = t;
            for u in us {
                let at = if ready != u64::MAX {
                    ready.saturating_sub(self.wake).max(self.since[u])
                } else {
                    // the result arrived the cycle before its first writeback attempt
                    t.saturating_sub(1).max(self.since[u])
                };
                let at = at.min(t);
                on = on.max(self.wake_unit(u, at));
            }
            return on;
        }
        let mut on = t;
        let us = Self::units(self.lanes, e, mask);
        for u in us {
            if self.state[u] == AWAKE {
                on = on.max(self.on_at[u]);
            }
        }
        on
    }

    /// The write of (w, reg) for lanes `mask` happens at `t`: releases the destination hold.
    pub fn write(&mut self, w: usize, reg: u16, mask: u32, t: u64) {
        let Some(e) = self.entry(w, reg) else {
            return;
        };
        let held = std::mem::replace(&mut self.dest_held[e], false);
        self.dest_ready[e] = u64::MAX;
        let us = Self::units(self.lanes, e, mask);
        for u in us {
            self.check_on(u, t);
            if held {
                self.release_unit(u, t);
            }
        }
    }

    /// A CTA occupies warp slots `first..first + n` from `t` (`per_cta`: their entries go
    /// OFF → DROWSY).
    pub fn cta_launch(&mut self, first: usize, n: usize, t: u64) {
        if !self.per_cta {
            return;
        }
        let (a, b) = self.unit_range(first, n);
        for u in a..b {
            if self.state[u] == OFF {
                self.close(u, t);
                self.state[u] = DROWSY;
                self.stats.off_to_drowsy += 1;
                if let Some(bo) = self.banks.as_mut() {
                    bo.enter_live(u, t);
                }
            }
        }
    }

    /// The CTA in warp slots `first..first + n` completed at `t` (`per_cta`: their entries go
    /// OFF).
    pub fn cta_exit(&mut self, first: usize, n: usize, t: u64) {
        if !self.per_cta {
            return;
        }
        let (a, b) = self.unit_range(first, n);
        for u in a..b {
            if self.state[u] != OFF {
                let at = t.max(self.since[u]);
                self.close(u, at);
                self.state[u] = OFF;
                if let Some(bo) = self.banks.as_mut() {
                    bo.leave_live(u, at);
                }
                self.hold[u] = 0;
                if let Some(d) = self.deadline.get_mut(u) {
                    *d = u64::MAX;
                }
                self.stats.to_off += 1;
            }
        }
    }

    fn unit_range(&self, first: usize, n: usize) -> (usize, usize) {
        let a = (first.min(self.alloc_warps) * self.regs) * self.lanes;
        let b = ((first + n).min(self.alloc_warps) * self.regs) * self.lanes;
        (a, b)
    }

    /// Closes every unit at the kernel's end `end` and returns the residency of the whole
    /// file (unallocated entries OFF throughout).
    pub fn finish(&mut self, end: u64) -> PartResidency {
        self.expire(end);
        for u in 0..self.state.len() {
            self.close(u, end.max(self.since[u]));
        }
        let n_alloc_units = self.state.len() as u64;
        let units = self.n_entries * self.lanes as u64;
        let unalloc = units - n_alloc_units;
        let bank_off_cycles = match self.banks.as_mut() {
            Some(bo) => {
                for (l, s) in bo.live.iter().zip(bo.since.iter_mut()) {
                    if *l == 0 {
                        bo.total += end.saturating_sub(*s);
                        *s = end;
                    }
                }
                bo.total
            }
            None => 0,
        };
        PartResidency {
            part: RfPart::Mrf.name().to_string(),
            units,
            off: self.res.off + unalloc * end,
            drowsy: self.res.drowsy,
            waking: self.res.waking,
            on: self.res.on,
            bank_off_cycles,
        }
    }
}

/// TRIC as a register-file organisation: the power-state machine of every entry over the
/// organisation `B` that maps banks and routes accesses (the monolithic file, or a plug-in;
/// `[tric]` refuses the partitioned RF, the MRF baselines and the RF cache).
pub struct TricRf<B> {
    base: B,
    tric: Tric,
}

impl<B: RegisterFileOrg> TricRf<B> {
    /// Whether `cfg` asks for TRIC (`tric.enabled`).
    pub fn wanted(cfg: &GpuConfig) -> bool {
        cfg.tric.enabled
    }

    /// TRIC of one SM of `cfg` over `base`.
    pub fn new(cfg: &GpuConfig, base: B) -> TricRf<B> {
        TricRf {
            base,
            tric: Tric::new(cfg),
        }
    }

    /// Applies the look-ahead timeouts due by `t`, when predictions are made.
    #[inline]
    fn expire_due(&mut self, t: u64) {
        if self.tric.lookahead > 0 {
            self.tric.expire(t);
        }
    }
}

impl<B: RegisterFileOrg> RegisterFileOrg for TricRf<B> {
    #[inline]
    fn bank(&self, w: u32, sched: u32, reg: u16) -> u32 {
        self.base.bank(w, sched, reg)
    }
    #[inline]
    fn route(&mut self, w: u32, reg: u16, write: bool, t: u64) -> RfRoute {
        self.base.route(w, reg, write, t)
    }
    fn on_kernel_launch(&mut self, regs_per_thread: u32, t: u64) {
        self.base.on_kernel_launch(regs_per_thread, t)
    }
    fn on_kernel_start(
        &mut self,
        regs_per_thread: u32,
        warps_per_cta: u32,
        t: u64,
    ) -> Result<(), String> {
        self.base.on_kernel_start(regs_per_thread, warps_per_cta, t)
    }
    fn on_warp_launch(&mut self, w: u32, t: u64) {
        self.base.on_warp_launch(w, t)
    }
    fn on_warp_exit(&mut self, w: u32, t: u64) {
        self.base.on_warp_exit(w, t)
    }
    #[inline]
    fn on_issue(&mut self, w: u32, inst: &TInst, t: u64) {
        self.base.on_issue(w, inst, t)
    }
    #[inline]
    fn on_dispatch(&mut self, w: u32, t: u64) {
        self.base.on_dispatch(w, t)
    }
    fn wants_active_set(&self) -> bool {
        self.base.wants_active_set()
    }
    fn on_active_set(&mut self, w: u32, active: bool, t: u64) {
        self.base.on_active_set(w, active, t)
    }

    fn gates_entries(&self) -> bool {
        true
    }
    fn lookahead(&self) -> u32 {
        self.tric.lookahead
    }
    /// The allocated entries become DROWSY (`kernel_static`) or stay OFF until their CTA slot
    /// fills (`per_cta`).
    fn on_kernel_residency(&mut self, regs_per_thread: u32, max_ctas: u32, wpc: u32, t: u64) {
        self.tric.kernel_launch(regs_per_thread, max_ctas, wpc, t);
    }
    fn on_cta_launch(&mut self, first: usize, n: usize, t: u64) {
        self.tric.cta_launch(first, n, t);
    }
    fn on_cta_exit(&mut self, first: usize, n: usize, t: u64) {
        self.tric.cta_exit(first, n, t);
    }
    /// Wakes the sources and (conservative policy) the destinations; a source may be read
    /// from t + 1 at the earliest, t + L for a woken DROWSY entry.
    fn on_collect(
        &mut self,
        w: usize,
        mask: u32,
        srcs: &[u16],
        dsts: &[u16],
        t: u64,
        not_before: &mut [u64; 5],
    ) {
        self.expire_due(t);
        let tr = &mut self.tric;
        let mut stall = 0u64;
        for (i, &r) in srcs.iter().enumerate() {
            let on = tr.wake(w, r, mask, t);
            not_before[i] = on.max(t + 1);
            stall = stall.max(on.saturating_sub(t + 1));
        }
        for &r in dsts {
            if r < PRED_BASE {
                tr.dest_alloc(w, r, mask, t);
            }
        }
        if stall > 0 {
            tr.stats.wake_stall_cycles += stall;
            tr.stats.wake_stalled_insts += 1;
        }
    }
    #[inline]
    fn on_read(&mut self, w: usize, reg: u16, mask: u32, t: u64) {
        self.tric.read(w, reg, mask, t);
    }
    #[inline]
    fn write_ready(&mut self, w: usize, reg: u16, mask: u32, t: u64) -> u64 {
        self.expire_due(t);
        self.tric.write_ready(w, reg, mask, t)
    }
    fn on_write_stalled(&mut self) {
        self.tric.stats.write_wake_stall_cycles += 1;
    }
    #[inline]
    fn on_write(&mut self, w: usize, reg: u16, mask: u32, t: u64) {
        self.tric.write(w, reg, mask, t);
    }
    #[inline]
    fn on_result_scheduled(&mut self, w: usize, reg: u16, at: u64) {
        self.tric.dest_fixed(w, reg, at);
    }
    fn on_predictions(&mut self, t: u64) {
        self.tric.expire(t);
    }
    #[inline]
    fn on_predicted(&mut self, w: usize, reg: u16, mask: u32, t: u64) {
        self.tric.predict(w, reg, mask, t);
    }
    /// TRIC's residency of the whole file and its record.
    fn finish_record(&mut self, end: u64, r: &mut RfStats) {
        r.residency = vec![self.tric.finish(end)];
        r.tric = Some(self.tric.stats.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tric(l: u32, gran: TricGranularity) -> Tric {
        let mut cfg = GpuConfig::preset("gtx480").unwrap();
        cfg.tric.enabled = true;
        cfg.tric.wake_latency = l;
        cfg.tric.granularity = gran;
        let mut t = Tric::new(&cfg);
        t.kernel_launch(8, 2, 2, 0);
        t
    }

    fn total(r: &PartResidency) -> u64 {
        r.off + r.drowsy + r.waking + r.on
    }

    #[test]
    fn wake_latency_and_residency() {
        let mut t = tric(3, TricGranularity::Entry);
        assert_eq!(t.wake(0, 1, u32::MAX, 10), 13);
        t.read(0, 1, u32::MAX, 13);
        let r = t.finish(100);
        assert_eq!(t.stats.wake_events, 1);
        assert_eq!(r.waking, 3);
        assert_eq!(r.on, 1);
        assert_eq!(total(&r), r.units * 100);
        assert_eq!(t.stats.not_on_accesses + t.stats.off_accesses, 0);
    }

    #[test]
    fn hold_counts_keep_an_entry_on_until_the_last_release() {
        let mut t = tric(2, TricGranularity::Entry);
        // two in-flight instructions wake R3 of warp 1
        assert_eq!(t.wake(1, 3, u32::MAX, 5), 7);
        // the second request adds no latency beyond what remains
        assert_eq!(t.wake(1, 3, u32::MAX, 6), 7);
        assert_eq!(t.stats.wake_events, 1);
        t.read(1, 3, u32::MAX, 7);
        let e = 8 + 3;
        assert_eq!(t.state[e], AWAKE, "one hold left");
        t.read(1, 3, u32::MAX, 9);
        assert_eq!(t.state[e], DROWSY);
        let r = t.finish(20);
        assert_eq!((r.waking, r.on), (2, 3));
        assert_eq!(total(&r), r.units * 20);
    }

    #[test]
    fn entry_lane_granularity_wakes_only_active_lanes() {
        let mut t = tric(3, TricGranularity::EntryLane);
        t.wake(0, 0, 0b1011, 0);
        assert_eq!(t.stats.wake_events, 3);
        t.read(0, 0, 0b1011, 3);
        let r = t.finish(10);
        assert_eq!(r.units, t.n_entries * 32);
        assert_eq!(r.waking, 9);
        assert_eq!(r.on, 3);
        assert_eq!(total(&r), r.units * 10);
    }

    fn tric_lookahead(l: u32, k: u32, timeout: u32) -> Tric {
        let mut cfg = GpuConfig::preset("gtx480").unwrap();
        cfg.tric.enabled = true;
        cfg.tric.wake_latency = l;
        cfg.tric.lookahead = k;
        cfg.tric.lookahead_timeout = timeout;
        let mut t = Tric::new(&cfg);
        t.kernel_launch(8, 2, 2, 0);
        t
    }

    #[test]
    fn a_wrong_prediction_returns_to_drowsy_after_the_timeout() {
        // L = 3, k = 2: the default timeout is k + L = 5 cycles
        let mut t = tric_lookahead(3, 2, 0);
        t.predict(0, 1, u32::MAX, 10);
        let e = 1;
        assert_eq!(t.state[e], AWAKE);
        assert_eq!(t.stats.wake_events, 1);
        assert_eq!(t.stats.lookahead_wakes, 1);
        // a second prediction of an awake unit changes nothing
        t.predict(0, 1, u32::MAX, 11);
        assert_eq!(t.stats.wake_events, 1);
        t.expire(14);
        assert_eq!(t.state[e], AWAKE, "still within the timeout");
        t.expire(15);
        assert_eq!(t.state[e], DROWSY, "timed out at 10 + 5");
        assert_eq!(t.stats.lookahead_mispredicted, 1);
        // an instruction now pays the full wake latency again
        assert_eq!(t.wake(0, 1, u32::MAX, 20), 23);
        t.read(0, 1, u32::MAX, 23);
        let r = t.finish(40);
        // full-Vdd while mispredicted: 3 WAKING + 2 ON, then 3 WAKING + 1 ON for the read
        assert_eq!((r.waking, r.on), (6, 3));
        assert_eq!(total(&r), r.units * 40);
        assert_eq!(t.stats.lookahead_hits, 0);
        assert_eq!(t.stats.wake_events, 2);
    }

    #[test]
    fn a_right_prediction_hides_the_wake_latency() {
        let mut t = tric_lookahead(3, 2, 0);
        t.predict(0, 2, u32::MAX, 10);
        // the instruction takes a collector two cycles later: ON at 13, no new wake event
        assert_eq!(t.wake(0, 2, u32::MAX, 12), 13);
        assert_eq!(t.stats.lookahead_hits, 1);
        assert_eq!(t.stats.wake_events, 1);
        // claimed: the timeout no longer applies, the read releases it
        t.expire(30);
        assert_eq!(t.state[2], AWAKE);
        t.read(0, 2, u32::MAX, 31);
        assert_eq!(t.state[2], DROWSY);
        let r = t.finish(50);
        assert_eq!(t.stats.lookahead_mispredicted, 0);
        assert_eq!((r.waking, r.on), (3, 19));
        assert_eq!(total(&r), r.units * 50);
        // an explicit timeout overrides k + L; OFF entries outside the allocation stay OFF
        let mut t = tric_lookahead(3, 1, 2);
        t.predict(0, 3, u32::MAX, 0);
        t.predict(7, 3, u32::MAX, 0);
        t.expire(2);
        assert_eq!(t.state[3], DROWSY);
        assert_eq!(t.stats.lookahead_wakes, 1);
    }
}
