//! One streaming multiprocessor (simulator §2.2–2.5, §2.9) as a composition of its
//! stages, each owning its configuration, state and counters: the warp state
//! ([`super::warps`]), the front end ([`super::frontend`]), the issue unit
//! ([`super::issueunit`]), the operand collectors and register file ([`super::opcoll`]), the
//! execution units and writeback ([`super::execunits`]) and the LD/ST unit
//! ([`super::ldstunit`]). The per-cycle work that moves instructions from one stage to the
//! next lives in the submodules: `issue` (schedulers, scoreboard, collector allocation),
//! `backend` (writeback, dispatch, register-file arbitration), `memory` (fetch, the LD/ST
//! unit's events, memory replies) and `life` (CTA launch, retirement, next event); `stage`
//! enters the steps an issue stage in the slot takes over, and `host` is the view of the SM
//! such a stage drives them through. Stage files import nothing of this module; it composes
//! them.
//!
//! Each core cycle evaluates the stages in reverse order: writeback, execute and LD/ST, dispatch,
//! RF arbitration, issue, fetch/decode.

mod backend;
mod debug;
mod fold;
mod host;
mod issue;
mod issued;
mod life;
mod lookahead;
mod memory;
mod stage;

use super::exec::{PipeClass, SpPipe};
use super::execunits::ExecUnits;
use super::frontend::FrontEnd;
use super::gating::DomType;
use super::issueunit::IssueUnit;
use super::ldstunit::LdstUnit;
use super::opcoll::{OperandCollectors, RegAccessLog};
use super::perclass::CuClass;
use super::policy::{
    GatingPolicy, GatingView, HeadType, IssueStage, RegisterFileOrg, WarpScheduler,
};
use super::slots::{GatingSlot, IssueStageSlot, RegisterFileSlot};
use super::warps::WarpState;
use crate::activity::{FamilyCounts, SmActivity};
use crate::config::pg::PgPolicy;
use crate::config::GpuConfig;
use crate::inst::Family;

/// The policies one SM is built with (one scheduler per warp scheduler of the SM); see
/// [`super::registry::ResolvedPolicies::sm_policies`].
pub(crate) struct SmPolicies {
    pub scheds: Vec<Box<dyn WarpScheduler>>,
    pub issue_stage: IssueStageSlot,
    pub rf: RegisterFileSlot,
    pub gating: GatingSlot,
}

/// One SM: the stages and the SM-wide counters (instructions, CTAs, time integrals, barriers,
/// SIMT events, per-family counts).
pub(crate) struct Sm {
    pub id: u32,
    pub warps: WarpState,
    pub front: FrontEnd,
    pub issue: IssueUnit,
    pub oc: OperandCollectors,
    pub exec: ExecUnits,
    pub ldst: LdstUnit,
    pub regs: RegAccessLog,
    /// SM-wide counters; the stages' own counters join them in [`Sm::activity`].
    pub act: SmActivity,
    pub fam: FamilyCounts,
    /// Tensor-core multiply-accumulates issued.
    pub tensor: crate::activity::TensorStats,
    /// Something changed this cycle (the engine clears it before the SM's stages run).
    pub progress: bool,
    /// The cycle being simulated: the engine sets it before the SM's stages run and before a
    /// CTA launch.
    pub now: u64,
    /// First cycle whose time integrals ([`Sm::account_integrals`]) are not yet counted: the
    /// integrands are counted lazily, up to `now`, just before one of them changes
    /// ([`Sm::flush_integrals`]).
    integ_from: u64,
    /// Sequence number of the last instruction entering a collector or the writeback queue.
    pub seq: u64,
    /// How instructions' active threads map onto the execution lanes: directly, or warp
    /// folding and lane shifting (`fold.enabled`; power-gating §6, §7).
    pub lanes: fold::LaneSlot,
    /// Per warp slot: in the schedulers' active set as last told to a register-file
    /// organisation that wants it (the RF cache); `None` when none does.
    pub rf_active: Option<Vec<bool>>,
    /// Active-set size per scheduler-cycle (power-gating §9), kept when the gating
    /// controllers or folding are on.
    pub active_set: Option<crate::activity::ActiveSetStats>,
    /// The register-file organisation's look-ahead depth k
    /// ([`RegisterFileOrg::lookahead`]; 0: the issue stage makes no predictions).
    pub lookahead: u32,
}

impl Sm {
    /// SM `id` of `cfg` with the given policies, its timelines starting at cycle `start`.
    pub fn with_policies(id: u32, cfg: &GpuConfig, start: u64, mut p: SmPolicies) -> Sm {
        let nw = cfg.sm.max_warps as usize;
        let nsub = cfg.sm.n_subcores.max(1);
        let ns = p.scheds.len();
        // the power-gating controllers replace the built-in "no gating" when `pg.policy` asks
        let pg_on = cfg.pg.policy != PgPolicy::None && matches!(p.gating, GatingSlot::None(_));
        let mut issue = IssueUnit::new(
            nw,
            p.scheds,
            p.issue_stage,
            p.gating.time_invariant() && !pg_on,
            p.gating.always_ready() && !pg_on,
        );
        if cfg.reconv.counters {
            issue.simd = Some(Box::new(crate::timing::issueunit::SimdCounts {
                last_w0: vec![None; issue.scheds.len()],
                ..Default::default()
            }));
        }
        let mut exec = ExecUnits::new(cfg, start, nsub, p.gating);
        if let RegisterFileSlot::Partitioned(o) = &mut p.rf {
            o.set_sm(cfg, id);
        }
        let rf_active = p.rf.wants_active_set().then(|| vec![false; nw]);
        let lookahead = p.rf.lookahead();
        if pg_on {
            exec.install_pg(cfg, id, nw);
        }
        let mut regs = RegAccessLog::new(nw, cfg.stats.per_register);
        if let Some(rs) = regs.stats.as_mut() {
            regs.chars = Some(Box::new(super::regchar::RegCharacter::new(cfg, id, nw, rs)));
        }
        Sm {
            id,
            warps: WarpState::new(nw),
            front: FrontEnd::new(cfg, nw),
            issue,
            oc: OperandCollectors::new(cfg, ns, nsub, p.rf),
            exec,
            ldst: LdstUnit::new(cfg, id as usize),
            regs,
            act: SmActivity::default(),
            fam: Default::default(),
            tensor: Default::default(),
            progress: false,
            now: start,
            integ_from: start,
            seq: 0,
            lanes: fold::LaneSlot::new(cfg),
            rf_active,
            active_set: (pg_on || cfg.fold.enabled).then(Default::default),
            lookahead,
        }
    }

    /// Samples every scheduler's active-set size for the cycle just issued (power-gating §9
    /// "Workload"): the two-level / GATES / Origami active set, or all live warps of a
    /// scheduler without one. Nothing when the size is not kept.
    #[inline]
    pub fn sample_active_set(&mut self) {
        let Some(a) = self.active_set.as_mut() else {
            return;
        };
        for (s, sched) in self.issue.scheds.iter().enumerate() {
            let n = sched
                .active_slots()
                .map_or(self.issue.sched_live[s].len(), <[u16]>::len);
            a.sample(n as u32);
        }
    }

    /// The SM's SIMD-efficiency counters (`reconv.counters`), with the idle slots derived from
    /// the scheduler counters; `None` when off. Call before [`Sm::activity`].
    pub fn reconv_stats(&self) -> Option<crate::activity::ReconvStats> {
        let c = self.issue.simd.as_ref()?;
        let empty: u64 = self.issue.sched_act.iter().map(|a| a.issued[0]).sum();
        Some(crate::activity::ReconvStats {
            issued_lanes: c.issued_lanes,
            w0_mem: c.w0_mem,
            w0_stall: c.w0_stall,
            w0_idle: empty.saturating_sub(c.w0_mem + c.w0_stall),
            ..Default::default()
        })
    }

    /// The folding record of the SM for a kernel that ended at `end` (`None` without folding).
    pub fn fold_stats(&self, end: u64) -> Option<crate::activity::FoldStats> {
        self.lanes.stats(end)
    }

    /// The SM's Activity record: the SM-wide counters and every stage's, the pipe timelines
    /// closed at cycle `end`. Takes the counters out of the SM.
    pub fn activity(&mut self, end: u64) -> SmActivity {
        let mut a = std::mem::take(&mut self.act);
        (a.icache, a.decoder_insts, a.ibuffer) = self.front.counters();
        a.sched = std::mem::take(&mut self.issue.sched_act);
        a.scoreboard = self.issue.sb_act;
        a.rf = std::mem::take(&mut self.oc.rf_act);
        a.opcoll = std::mem::take(&mut self.oc.opcoll_act);
        a.exec = self.exec.activity(end);
        (a.l1d, a.smem, a.const_cache, a.ldst) = self.ldst.counters();
        a.tex_cache = self.ldst.tex_counters();
        a
    }

    /// A kernel launches on this SM with `regs` allocated registers per thread and at most
    /// `max_ctas` CTAs of `wpc` warps resident: the register-file organisation sets up its
    /// allocation. An error is a launch-time check of the organisation, naming its knob.
    pub fn kernel_launch(&mut self, regs: u32, max_ctas: u32, wpc: u32) -> Result<(), String> {
        self.oc.rf.on_kernel_start(regs, wpc, self.now)?;
        if let Some(c) = self.regs.chars.as_mut() {
            c.kernel_launch();
        }
        self.oc
            .rf
            .on_kernel_residency(regs, max_ctas, wpc, self.now);
        Ok(())
    }

    /// Tells a register-file organisation that wants it (the RF cache) which warps entered or
    /// left the schedulers' active set since the last call (start of cycle `t`): the two-level
    /// active sets, or every live warp of a scheduler that keeps none.
    pub fn sync_rf_active(&mut self, t: u64) {
        let Some(mut prev) = self.rf_active.take() else {
            return;
        };
        let mut now = vec![false; prev.len()];
        for (s, sched) in self.issue.scheds.iter().enumerate() {
            let slots = sched
                .active_slots()
                .unwrap_or(&self.issue.sched_live[s][..]);
            for &w in slots {
                let w = w as usize;
                if w < now.len() && self.warps.w_valid[w] {
                    now[w] = true;
                }
            }
        }
        // A warp that has issued its exit leaves the schedulers' lists while its last
        // results are still in flight: it stays in the RF cache's active set until it
        // retires, when its registers are dead and its entries are dropped without
        // write-backs (`on_warp_exit`), rather than being flushed.
        for (w, n) in now.iter_mut().enumerate() {
            if !*n && prev[w] && self.warps.w_valid[w] && self.warps.w_exited[w] {
                *n = true;
            }
        }
        for (w, (p, &n)) in prev.iter_mut().zip(&now).enumerate() {
            if *p != n {
                self.oc.rf.on_active_set(w as u32, n, t);
                *p = n;
            }
        }
        self.rf_active = Some(prev);
    }

    /// The register-file record of this SM at the kernel's end `end` (register-file spec §8),
    /// when it is recorded; call before [`Sm::activity`], which takes the counters.
    pub fn rf_stats(&mut self, end: u64) -> Option<crate::activity::RfStats> {
        let mut monitored = self.oc.mon.as_mut().map(|m| m.finish(end));
        if let Some(r) = monitored.as_mut() {
            self.oc.rf.finish_record(end, r);
        }
        let org = match &mut self.oc.rf {
            RegisterFileSlot::Partitioned(o) => {
                o.finish(end);
                Some(&**o)
            }
            _ => None,
        };
        let mut r = match (monitored, org) {
            (Some(mut r), org) => {
                if let Some(o) = org {
                    // the monitor counted the routed accesses (with COMA's lanes); the
                    // organisation adds what it accessed by itself (RF-cache write-backs and
                    // fills), 32 lanes each
                    for (p, c) in r.parts.iter_mut().zip(o.part_counts()) {
                        let (dr, dw) = (
                            c.reads - p.reads.min(c.reads),
                            c.writes - p.writes.min(c.writes),
                        );
                        p.reads += dr;
                        p.writes += dw;
                        p.read_driven_lanes += 32 * dr;
                        p.write_driven_lanes += 32 * dw;
                        p.read_latency_cycles = c.read_latency_cycles;
                        p.write_latency_cycles = c.write_latency_cycles;
                    }
                    r.prf = Some(o.record(end));
                }
                r
            }
            (None, Some(o)) => crate::activity::RfStats {
                segment_lanes: 32,
                parts: o.part_counts(),
                residency: o.residency(end),
                prf: Some(o.record(end)),
                ..Default::default()
            },
            (None, None) => return None,
        };
        r.cu_allocs = self.oc.opcoll_act.iter().map(|o| o.allocs).sum();
        r.cu_occupied_cycles = self.oc.opcoll_act.iter().map(|o| o.occupied_cycles).sum();
        r.cu_alloc_stalls = self.issue.sched_act.iter().map(|s| s.stall.cu_full).sum();
        r.conflicts_read_read = self.oc.rf_act.conflict_rr.iter().sum();
        r.conflicts_write_read = self.oc.rf_act.conflict_wr.iter().sum();
        Some(r)
    }

    /// Type of warp `w`'s head instruction (its I-buffer must not be empty).
    #[inline]
    pub fn head_type(&self, w: usize) -> HeadType {
        let h = self.front.head(w);
        let ec = self.front.exec_class(h.family, h.op);
        match ec.pipe {
            PipeClass::Sp if ec.sp_pipe == SpPipe::Fp => HeadType::Fp,
            PipeClass::Sp => HeadType::Int,
            PipeClass::Sfu => HeadType::Sfu,
            PipeClass::Mem => HeadType::Ldst,
            _ => HeadType::Other,
        }
    }

    /// The gating controllers' start-of-cycle state for a gating-aware scheduler.
    pub fn gating_view(&self, t: u64) -> GatingView {
        match &self.exec.gating {
            GatingSlot::Pg(g) => GatingView {
                cycle: t,
                blackout: g.bank.is_blackout(),
                all_in_blackout: [
                    g.bank.all_in_blackout(DomType::Int),
                    g.bank.all_in_blackout(DomType::Fp),
                ],
            },
            _ => GatingView {
                cycle: t,
                ..Default::default()
            },
        }
    }

    /// `[ACTV[INT], ACTV[FP]]` for the gating controllers: warps in the schedulers' active
    /// sets (all live warps for a scheduler without one) whose head instruction is of that
    /// type, ready or not, plus the instructions of the type already issued into an operand
    /// collector and not yet dispatched. The collectors sit between issue and the execution
    /// units in this pipeline: an instruction there is demand the type's domains will see
    /// within a few cycles, so a coordinated cluster must not black out under it.
    pub fn actv(&self) -> [u32; 2] {
        let mut a = [0u32; 2];
        for c in &self.oc.cus {
            if c.busy && c.ec.pipe == PipeClass::Sp {
                a[usize::from(c.ec.sp_pipe == SpPipe::Fp)] += 1;
            }
        }
        for (s, sched) in self.issue.scheds.iter().enumerate() {
            let slots = sched
                .active_slots()
                .unwrap_or(&self.issue.sched_live[s][..]);
            for &w in slots {
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

    /// Under the built-in power-gating controllers, the ACTV counts their bank is given: the
    /// SM's [`Sm::actv`] when a rule reads them (Coordinated Blackout), zeros otherwise, so
    /// that the others do not pay for counting; `None` under any other gating slot.
    fn pg_actv(&self) -> Option<[u32; 2]> {
        match &self.exec.gating {
            GatingSlot::Pg(g) if g.bank.reads_actv() => Some(self.actv()),
            GatingSlot::Pg(_) => Some([0; 2]),
            _ => None,
        }
    }

    /// End of cycle `t` for a gating policy with a cycle hook (power-gating §1.2 steps 4–5
    /// for the built-in controllers).
    pub fn gating_cycle(&mut self, t: u64) {
        if let Some(actv) = self.pg_actv() {
            if let GatingSlot::Pg(g) = &mut self.exec.gating {
                g.bank.end_cycle(t, actv);
            }
        } else {
            self.exec.gating_cycle(t);
        }
    }

    /// May the SM sleep through quiet cycles although its gating policy wants every cycle
    /// ([`GatingPolicy::needs_cycle_hook`])? Yes under the power-gating controllers when its
    /// schedulers neither move by themselves nor read the gating state (the issue unit's
    /// `sched_stable` flag): the controllers then affect
    /// the SM only through a candidate that reaches them, and a cycle in which none did
    /// ([`Sm::gating_quiet`]) repeats until the SM's own next event, the controllers being
    /// run through the slept cycles by [`Sm::gating_skip`]. A constant of the SM.
    pub fn gating_may_sleep(&self) -> bool {
        matches!(self.exec.gating, GatingSlot::Pg(_)) && self.issue.flags.sched_stable
    }

    /// The first cycle after `t` (the cycle just ended) at which a scheduler that reads the
    /// gating view may reorder while the SM sleeps: each such scheduler's
    /// [`WarpScheduler::gating_steady_until`] for the view at the start of `t + 1` (from the
    /// issue stage's last evaluation; the cycles since repeated it), bounded
    /// by the controllers' next possible change of that view
    /// ([`crate::timing::gating::PgBank::view_steady_until`]). `u64::MAX` without such a
    /// scheduler.
    pub fn gating_wake(&self, t: u64) -> u64 {
        let GatingSlot::Pg(g) = &self.exec.gating else {
            return u64::MAX;
        };
        if !self.issue.flags.head_type.iter().any(|&h| h) {
            return u64::MAX;
        }
        let v = self.gating_view(t + 1);
        let mut ev = u64::MAX;
        for (s, sched) in self.issue.scheds.iter().enumerate() {
            if self.issue.flags.head_type[s] {
                // the stage last evaluated at `last_eval`; the cycles since repeated it
                ev = ev.min(sched.gating_steady_until(&v, self.issue.last_eval));
            }
        }
        if ev > t + 1 {
            ev = ev.min(g.bank.view_steady_until(t));
        }
        ev
    }

    /// Under the power-gating controllers: the cycle just ended gave them no input (see
    /// [`Sm::gating_may_sleep`]). True without them.
    #[inline]
    pub fn gating_quiet(&self) -> bool {
        match &self.exec.gating {
            GatingSlot::Pg(g) => g.bank.last_cycle_untouched(),
            _ => true,
        }
    }

    /// The per-cycle work of cycles `from…to−1` that the SM slept through with a cycle-hooked
    /// gating policy: the controllers end each cycle without input
    /// ([`crate::timing::gating::PgBank::quiet_cycles`]), and the active-set size, frozen,
    /// is sampled once per cycle. Call before anything changes the SM's state.
    pub fn gating_skip(&mut self, from: u64, to: u64) {
        if to <= from {
            return;
        }
        if let Some(actv) = self.pg_actv() {
            if let GatingSlot::Pg(g) = &mut self.exec.gating {
                g.bank.quiet_cycles(from, to, actv);
            }
        }
        if let Some(a) = self.active_set.as_mut() {
            for (s, sched) in self.issue.scheds.iter().enumerate() {
                let n = sched
                    .active_slots()
                    .map_or(self.issue.sched_live[s].len(), <[u16]>::len);
                a.sample_n(n as u32, to - from);
            }
        }
    }

    /// Records a register access for the per-register statistics (§5.4).
    #[inline]
    pub fn reg_access(&mut self, w: usize, reg: u16, t: u64, write: bool) {
        self.regs.access(w, reg, t, write, &self.warps.w_launch);
    }

    /// May the engine let this SM sleep through cycles in which nothing changes (cycle
    /// skipping, with the issue counters replayed)? As its issue stage says
    /// ([`IssueStage::may_sleep`]): not under a stage whose state moves every cycle by
    /// itself.
    pub fn may_sleep(&self) -> bool {
        self.issue.stage.may_sleep()
    }

    /// Counts the pending repeated issue-stage cycles (the stage's own counters too).
    #[inline]
    pub fn flush_replay(&mut self) {
        self.issue.stage.replay_idle(self.issue.replay_pending);
        self.issue.flush_replay();
    }

    fn fam_count(&mut self, f: Family, lanes: u64) {
        let c = self.fam.of_mut(f);
        c.warp_insts += 1;
        c.thread_insts += lanes;
    }

    /// Counts the multiply-accumulates of a tensor product of class `op` with lanes `mask`.
    #[inline]
    fn tensor_count(&mut self, op: crate::inst::OpClass, mask: u32) {
        self.tensor.count(op, mask);
    }

    /// The warp has no more instructions to issue.
    pub fn mark_exited(&mut self, w: usize) {
        if self.warps.w_exited[w] {
            return;
        }
        self.warps.w_exited[w] = true;
        self.issue.dirty = true;
        self.issue.live_dirty = true;
        self.warps.retire_pending = true;
        let c = self.warps.w_cta[w] as usize;
        self.warps.ctas[c].exited += 1;
        self.check_barrier(c);
    }

    /// Releases the CTA's barrier when every non-exited warp has arrived.
    pub fn check_barrier(&mut self, c: usize) {
        let cta = &self.warps.ctas[c];
        if cta.bar_arrived == 0 {
            return;
        }
        let waiting_needed = cta.n_warps - cta.exited;
        // warps that arrived and then exited do not exist: arrivals are only by live warps
        if cta.bar_arrived >= waiting_needed {
            let first = cta.first_slot as usize;
            let n = cta.n_warps as usize;
            for w in first..first + n {
                if self.warps.at_bar.has(w) {
                    self.flush_integrals();
                    self.warps.n_at_bar -= 1;
                }
                self.warps.at_bar.remove(w);
                self.warps.w_fetch_bar[w] = false;
                self.front.mark_fetch_dirty();
                self.front.candidate(w);
            }
            self.warps.ctas[c].bar_arrived = 0;
            self.act.bar.releases += 1;
            self.issue.dirty = true;
            self.progress = true;
        }
    }

    /// Counts the time integrals of cycles `integ_from .. now` (the integrands have held their
    /// values since `integ_from`): called before an integrand changes in cycle `now`, whose
    /// own count is then taken with the value it has at the end of the cycle.
    #[inline]
    pub fn flush_integrals(&mut self) {
        let k = self.now - self.integ_from;
        if k > 0 {
            self.account_integrals(k);
            self.integ_from = self.now;
        }
    }

    /// Time integrals of the SM's state (resident warps, registers, barrier waits, collector
    /// occupancy) for `k` cycles.
    fn account_integrals(&mut self, k: u64) {
        if self.warps.n_resident_ctas > 0 {
            self.act.active_cycles += k;
        }
        self.act.resident_warp_cycles += self.warps.n_resident_warps as u64 * k;
        self.act.allocated_reg_cycles += self.warps.allocated_regs * k;
        self.act.bar.wait_cycles += self.warps.n_at_bar * k;
        for c in CuClass::ALL {
            if self.oc.oc_idx[c] != usize::MAX {
                self.oc.opcoll_act[self.oc.oc_idx[c]].occupied_cycles += self.oc.cu_busy[c] * k;
            }
        }
    }
}
