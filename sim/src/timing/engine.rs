//! The GPU-level cycle loop (simulator §2.1): SMs in ascending id, each evaluating its
//! stages in reverse order; then the CTA scheduler; cycle skipping when nothing can progress.

use super::cta::occupancy;
use super::divisor::ring_add;
use super::issueunit::IssueEvent;
use super::memsys::{period_fs, L2State, MemSys};
use super::perclass::PerPipe;
use super::policy::GatingPolicy;
use super::registry::ResolvedPolicies;
use super::sm::Sm;
use crate::activity::{KernelActivity, Occupancy};
use crate::config::GpuConfig;
use crate::stream::KernelStream;
use crate::SimError;

/// Quiet cycles after which a simulation with a cycle-hooked gating policy counts as
/// deadlocked (no wake-up of a gated pipe takes this long).
const GATED_QUIET_LIMIT: u64 = 1 << 20;

/// Idle cycles before the first CTA of launch number `index` (0-based) of a program: launches
/// after the first start `gpu.kernel_launch_latency` after the previous one ends (simulator
/// §2.9); with `compat.launch_latency_first` the first launch waits as long.
pub(crate) fn launch_gap(cfg: &GpuConfig, index: u64) -> u64 {
    if index > 0 || cfg.compat.launch_latency_first {
        cfg.gpu.kernel_launch_latency
    } else {
        0
    }
}

/// The split of a unified L1/shared array for a launch of `info` (`None` without one): the
/// shared memory of the CTAs resident on an SM — the occupancy limit, or fewer when the grid
/// has fewer CTAs than SMs × that limit.
fn carveout(
    cfg: &GpuConfig,
    info: &crate::stream::KernelInfo,
    occ: &super::cta::OccupancyLimit,
) -> Option<crate::config::L1dCarveout> {
    let resident = occ
        .max_ctas
        .min(info.num_ctas().div_ceil(cfg.gpu.n_sm.max(1)));
    cfg.l1d_carveout(info.shared_bytes, resident.max(1))
}

/// Simulates one launch of `stream` on `cfg` with the SMs' policies built from `policies`;
/// `launch_gap` idle cycles precede the first CTA; `trace` collects the issue log. The launch
/// starts from the L2 contents in `l2` (cold when `None`, or with `mem.flush_l2_between_launches`)
/// and leaves its own there for the next launch.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_launch(
    cfg: &GpuConfig,
    policies: &ResolvedPolicies,
    stream: &mut dyn KernelStream,
    mut progress: Option<&mut (dyn FnMut(u64, u64) + Send + '_)>,
    trace: Option<&mut Vec<IssueEvent>>,
    launch_gap: u64,
    l2: &mut Option<L2State>,
) -> Result<KernelActivity, SimError> {
    let info = stream.info().clone();
    let occ = occupancy(cfg, &info)?;
    // a unified L1/shared array runs the launch with its carved L1 (`config::L1dCarveout`)
    let carved = carveout(cfg, &info, &occ).map(|k| cfg.with_l1d_assoc(k.l1d_assoc));
    let cfg = carved.as_ref().unwrap_or(cfg);
    // clock reads take their issue cycle (`Sm::clock_read_issued`)
    stream.track_clock_reads();
    let n_sm = cfg.gpu.n_sm as usize;
    let mut sms = launch_sms(cfg, policies, &info, &occ, trace.is_some())?;
    let mut mem = MemSys::new(cfg);
    if let Some(state) = l2.take() {
        if !cfg.mem.flush_l2_between_launches {
            mem.restore_l2(state);
        }
    }
    let p_core = period_fs(cfg.gpu.core_mhz);
    let n_ctas = info.num_ctas();
    let mut done_ctas = 0u32;
    let mut ctas = CtaDispatch {
        next_cta: 0,
        last_sm: n_sm - 1,
        // CTA slots free over all SMs (the CTA scheduler has nothing to do while none is)
        free_slots: n_sm as u64 * occ.max_ctas as u64,
        age: 0,
    };
    // Per SM: first cycle of its current sleep, if asleep (it is quiet until `sleep_until`).
    // Kept here, apart from the SMs, so that the cycle loop passes over sleeping SMs without
    // touching their state.
    let mut sleep = Sleep {
        from: vec![None; n_sm],
        until: vec![0; n_sm],
    };
    // A gating policy that wants every cycle keeps every SM awake, except the power-gating
    // controllers under schedulers that do not read them (`Sm::gating_may_sleep`): an SM
    // sleeps through cycles that gave the controllers no input, which are then run through
    // those cycles on its wake-up (`Sm::gating_skip`). A registered scheduler whose order may
    // move on while nothing changes keeps every SM awake.
    let gate_hook = sms.iter().any(|s| s.exec.gating.needs_cycle_hook());
    let gate_sleep = gate_hook && sms.iter().all(Sm::gating_may_sleep);
    let plugin_unstable = matches!(cfg.sched.policy, crate::config::SchedPolicy::Plugin(_))
        && !sms.iter().all(|s| s.issue.flags.stable);
    // Folding rolls its phase grid over and moves eager thresholds every cycle.
    let fold_on = cfg.fold.enabled;
    // the active-set size is sampled every cycle where the SMs step every cycle anyway
    let track_active = gate_hook || fold_on;
    let skipping = cfg.sim.cycle_skipping
        && !matches!(cfg.sched.policy, crate::config::SchedPolicy::FetchGroup)
        && (!gate_hook || gate_sleep)
        && !fold_on
        && !plugin_unstable
        && sms.iter().all(Sm::may_sleep);
    let ex_wb = cfg.units.width.ex_wb;
    let (id_oc, oc_ex) = stage_widths(cfg);
    let issue_cfg = (
        cfg.sched.issue_per_sched,
        cfg.sched.max_issue_per_warp,
        cfg.sched.dual_issue_diff_units,
    );
    let mut t: u64 = 0;
    // The last cycle in which some SM progressed or a CTA launched.
    let mut last_busy: u64 = 0;
    let mut truncated = false;
    let mut next_report = 1u64 << 14;
    let end;
    loop {
        let t_fs = t * p_core;
        let mut any = false;
        for (i, sm) in sms.iter_mut().enumerate() {
            if sleep.until[i] > t {
                continue; // quiet until its next event; accounted lazily
            }
            if let Some(from) = sleep.from[i].take() {
                let k = t - from;
                sm.issue.replay_pending += k;
                sm.replay_ldst(k);
                if gate_hook {
                    sm.gating_skip(from, t);
                }
            }
            sm.now = t;
            sm.progress = false;
            if fold_on {
                sm.fold_begin_cycle(t);
            }
            sm.replies(t, t_fs, &mut mem);
            sm.writeback(t, ex_wb);
            sm.ldst_cycle(t, t_fs, &mut mem);
            sm.dispatch(t, &oc_ex);
            sm.rf_arbitrate(t);
            sm.issue(t, issue_cfg, &id_oc);
            if track_active {
                sm.sample_active_set();
            }
            sm.fetch(
                t,
                t_fs,
                cfg.frontend.fetch_width,
                cfg.frontend.fetch_throughput,
                stream,
                &mut mem,
            )?;
            if gate_hook {
                sm.gating_cycle(t);
            }
            if sm.progress {
                let done = sm.retire(stream, t)?;
                done_ctas += done;
                ctas.free_slots += done as u64;
                any = true;
            } else if skipping && sm.gating_quiet() {
                // Nothing changed: the SM's state is frozen until its own next event or the
                // next memory reply for it (or a CTA launch, which wakes it).
                let mut wake = sm.next_event(t).unwrap_or(u64::MAX);
                if let Some(f) = mem.next_reply_fs(i) {
                    wake = wake.min(f.div_ceil(p_core).max(t + 1));
                }
                if gate_sleep {
                    wake = wake.min(sm.gating_wake(t));
                }
                if wake > t + 1 {
                    sleep.from[i] = Some(t + 1);
                    sleep.until[i] = wake;
                }
            }
        }
        // CTA scheduler: visit SMs round-robin from after the last one served, at most one CTA
        // per SM per cycle, in linear block order.
        if ctas.next_cta < n_ctas && t >= launch_gap && ctas.free_slots > 0 {
            any |= ctas.launch(cfg, &mut sms, &mut sleep, stream, &info, &occ, t, gate_hook)?;
        }
        if done_ctas == n_ctas && ctas.next_cta == n_ctas {
            end = t + 1;
            break;
        }
        let insts = || sms.iter().map(|s| s.act.warp_insts).sum::<u64>();
        if (cfg.sim.max_cycles > 0 && t + 1 >= cfg.sim.max_cycles)
            || (cfg.sim.max_warp_insts > 0 && insts() >= cfg.sim.max_warp_insts)
        {
            truncated = true;
            end = t + 1;
            break;
        }
        if let Some(p) = progress.as_mut() {
            if t >= next_report {
                p(t, insts());
                next_report = t + (1 << 14);
            }
        }
        // cycle skipping: jump to the earliest wake-up when every SM sleeps
        let mut next = t + 1;
        let launch_waiting = ctas.next_cta < n_ctas && t < launch_gap;
        if !any && skipping {
            let ev = sleep.earliest_wake(t);
            // the first CTAs wait for the launch gap to end
            let ev = if launch_waiting {
                ev.min(launch_gap)
            } else {
                ev
            };
            if ev == u64::MAX {
                return Err(deadlock(&info, t, done_ctas, n_ctas));
            }
            next = ev.max(t + 1);
        } else if !any {
            // A gating policy with a cycle hook may release pipes as time passes (a wake-up in
            // progress is no event of the SM's): the deadlock is declared only after
            // `GATED_QUIET_LIMIT` quiet cycles.
            let gated_wait = gate_hook && t - last_busy < GATED_QUIET_LIMIT;
            if !launch_waiting && !gated_wait && next_event(&sms, &mem, t, p_core) == u64::MAX {
                if std::env::var_os("GPUENERGY_DEADLOCK_DUMP").is_some() {
                    for sm in &sms {
                        eprint!("{}", sm.deadlock_dump(t));
                    }
                }
                return Err(deadlock(&info, t, done_ctas, n_ctas));
            }
        } else {
            last_busy = t;
        }
        t = next;
    }
    end_launch(&mut sms, &mut sleep, end, trace, gate_hook);
    *l2 = Some(mem.take_l2());
    Ok(finish(cfg, &info, occ, sms, mem, end, truncated))
}

/// The SMs of a launch of `info` on `cfg`, each with its policies from `policies`, the kernel's
/// registers per thread and occupancy `occ` set, and an issue log when `tracing`.
fn launch_sms(
    cfg: &GpuConfig,
    policies: &ResolvedPolicies,
    info: &crate::stream::KernelInfo,
    occ: &super::cta::OccupancyLimit,
    tracing: bool,
) -> Result<Vec<Sm>, SimError> {
    let n_sm = cfg.gpu.n_sm as usize;
    let mut sms: Vec<Sm> = (0..n_sm)
        .map(|i| Sm::with_policies(i as u32, cfg, 0, policies.sm_policies(cfg, i as u32)))
        .collect();
    if tracing {
        for sm in &mut sms {
            sm.issue.trace = Some(Vec::new());
        }
    }
    // registers per thread as allocated (granularity included)
    let regs_alloc = occ.regs_per_cta / (occ.warps_per_cta * cfg.gpu.warp_size).max(1);
    for sm in &mut sms {
        sm.kernel_launch(regs_alloc, occ.max_ctas, occ.warps_per_cta)
            .map_err(|msg| SimError::Launch {
                kernel: info.name.clone(),
                msg,
            })?;
    }
    Ok(sms)
}

/// The per-pipe widths of the ID→OC and OC→EX stages (`units.width`; the `None` slot, which no
/// instruction uses, unbounded). Tensor products have a slot of their own as wide as the SP
/// class's (they are issued through the SP collectors, `perclass.rs`).
fn stage_widths(cfg: &GpuConfig) -> (PerPipe<u32>, PerPipe<u32>) {
    let w = &cfg.units.width;
    let id_oc = PerPipe([
        w.id_oc.sp,
        w.id_oc.dp,
        w.id_oc.int,
        w.id_oc.sfu,
        w.id_oc.mem,
        u32::MAX,
        w.id_oc.sp,
    ]);
    let oc_ex = PerPipe([
        w.oc_ex.sp,
        w.oc_ex.dp,
        w.oc_ex.int,
        w.oc_ex.sfu,
        w.oc_ex.mem,
        u32::MAX,
        w.oc_ex.sp,
    ]);
    (id_oc, oc_ex)
}

/// The sleeping SMs of the cycle loop: per SM the first cycle of its current sleep, if asleep,
/// and the cycle it is quiet until.
struct Sleep {
    from: Vec<Option<u64>>,
    until: Vec<u64>,
}

impl Sleep {
    /// The earliest cycle a sleeping SM wakes at; `t + 1` when some SM is awake.
    #[inline]
    fn earliest_wake(&self, t: u64) -> u64 {
        (0..self.from.len())
            .map(|i| {
                if self.from[i].is_some() {
                    self.until[i]
                } else {
                    t + 1
                }
            })
            .min()
            .unwrap_or(t + 1)
    }
}

/// The earliest next event of any SM or memory reply after cycle `t` (`p_core`: the core clock
/// period, fs); `u64::MAX` when nothing is in flight.
fn next_event(sms: &[Sm], mem: &MemSys, t: u64, p_core: u64) -> u64 {
    let mut ev = u64::MAX;
    for (i, sm) in sms.iter().enumerate() {
        if let Some(e) = sm.next_event(t) {
            ev = ev.min(e);
        }
        if let Some(f) = mem.next_reply_fs(i) {
            ev = ev.min(f.div_ceil(p_core).max(t + 1));
        }
    }
    ev
}

/// The CTA scheduler's state: the next CTA to launch, the SM served last, the CTA slots free
/// over all SMs and the warps' age counter.
struct CtaDispatch {
    next_cta: u32,
    last_sm: usize,
    free_slots: u64,
    age: u64,
}

impl CtaDispatch {
    /// One cycle `t` of the CTA scheduler: visits the SMs round-robin from after the one served
    /// last, launching at most one CTA on each that has a free slot, in linear block order;
    /// whether any launched.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn launch(
        &mut self,
        cfg: &GpuConfig,
        sms: &mut [Sm],
        sleep: &mut Sleep,
        stream: &mut dyn KernelStream,
        info: &crate::stream::KernelInfo,
        occ: &super::cta::OccupancyLimit,
        t: u64,
        gate_hook: bool,
    ) -> Result<bool, SimError> {
        let n_sm = sms.len();
        let n_ctas = info.num_ctas();
        let pilot = cfg.stats.pilot_warp;
        let mut any = false;
        // the ring starts after the SM served last in an earlier cycle; `last_sm` moves on
        // as this cycle serves SMs, but each SM is visited once
        let ring_start = self.last_sm;
        for k in 1..=n_sm {
            if self.next_cta >= n_ctas {
                break;
            }
            let s = ring_add(ring_start, k, n_sm);
            if sms[s].warps.n_resident_ctas >= occ.max_ctas {
                continue;
            }
            if let Some(from) = sleep.from[s].take() {
                if from <= t {
                    // asleep through this cycle: its issue stage saw the pre-launch state
                    sms[s].issue.replay_pending += t + 1 - from;
                    sms[s].replay_ldst(t + 1 - from);
                    if gate_hook {
                        sms[s].gating_skip(from, t + 1);
                    }
                }
            }
            sleep.until[s] = 0;
            sms[s].now = t;
            self.free_slots -= 1;
            let launch_at = t + cfg.gpu.cta_launch_latency;
            let first = sms[s].launch_cta(
                self.next_cta,
                occ.warps_per_cta,
                occ.regs_per_cta as u64,
                launch_at,
                &mut self.age,
                info.threads_per_cta(),
                occ.max_ctas,
            );
            let is_pilot =
                cfg.stats.per_register && pilot[0] as usize == s && pilot[1] == self.next_cta;
            if is_pilot {
                sms[s].regs.pilot_slot = Some((first + pilot[2]) as u16);
            }
            stream.begin_cta(self.next_cta, s as u32, first)?;
            self.next_cta += 1;
            self.last_sm = s;
            any = true;
        }
        Ok(any)
    }
}

/// Ends a launch at cycle `end`: accounts the SMs' last sleeps, flushes their replays and
/// integrals, and moves their issue logs into `trace`.
fn end_launch(
    sms: &mut [Sm],
    sleep: &mut Sleep,
    end: u64,
    trace: Option<&mut Vec<IssueEvent>>,
    gate_hook: bool,
) {
    for (i, sm) in sms.iter_mut().enumerate() {
        if let Some(from) = sleep.from[i].take() {
            sm.issue.replay_pending += end - from;
            sm.replay_ldst(end - from);
            if gate_hook {
                sm.gating_skip(from, end);
            }
        }
        sm.flush_replay();
        // every cycle up to the end counts
        sm.now = end;
        sm.flush_integrals();
    }
    if let Some(log) = trace {
        for sm in sms.iter_mut() {
            log.extend(sm.issue.trace.take().unwrap_or_default());
        }
    }
}

fn deadlock(info: &crate::stream::KernelInfo, t: u64, done: u32, n: u32) -> SimError {
    SimError::Runtime {
        kernel: info.name.clone(),
        pc: 0,
        msg: format!(
            "timing deadlock at cycle {t}: no warp can progress and nothing is in flight \
             ({done} of {n} CTAs done; GPUENERGY_DEADLOCK_DUMP=1 prints each SM's state)"
        ),
    }
}

fn finish(
    cfg: &GpuConfig,
    info: &crate::stream::KernelInfo,
    occ: super::cta::OccupancyLimit,
    sms: Vec<Sm>,
    mem: MemSys,
    end: u64,
    truncated: bool,
) -> KernelActivity {
    // the carve-out depends on the unified array's sets and line, not on the carved ways
    let carve = carveout(cfg, info, &occ);
    let mut k = KernelActivity::empty(&info.name);
    k.launches = 1;
    k.truncated = truncated;
    k.cycles = end;
    let mut per_reg: Option<crate::activity::RegisterStats> = None;
    let mut gating: Option<crate::activity::GatingStats> = None;
    let mut rf: Option<crate::activity::RfStats> = None;
    for mut sm in sms {
        if let Some(r) = sm.rf_stats(end) {
            match rf.as_mut() {
                Some(x) => {
                    // the SMs' register files add up
                    for (ra, rb) in x.residency.iter_mut().zip(&r.residency) {
                        ra.units += rb.units;
                    }
                    x.merge(&r)
                }
                None => rf = Some(r),
            }
        }
        if let super::slots::GatingSlot::Pg(g) = &mut sm.exec.gating {
            let gs = gating.get_or_insert_with(|| super::gating::PgBank::header(&cfg.pg));
            gs.max_ready_wait = gs.max_ready_wait.max(g.max_ready_wait);
            gs.domains.extend(g.bank.finish());
        }
        if let Some(r) = sm.reconv_stats() {
            match k.reconv.as_mut() {
                Some(x) => x.merge(&r),
                None => k.reconv = Some(r),
            }
        }
        super::policy::IssueStage::record(&sm.issue.stage, &mut k);
        if let Some(f) = sm.fold_stats(end) {
            let gs = gating.get_or_insert_with(|| super::gating::PgBank::header(&cfg.pg));
            match gs.fold.as_mut() {
                Some(a) => a.merge(&f),
                None => gs.fold = Some(f),
            }
        }
        if let (Some(a), Some(gs)) = (sm.active_set.take(), gating.as_mut()) {
            match gs.active_set.as_mut() {
                Some(x) => x.merge(&a),
                None => gs.active_set = Some(a),
            }
            gs.active_set_per_sm.push(a);
        }
        let a = sm.activity(end);
        k.warp_insts += a.warp_insts;
        k.thread_insts += a.thread_insts;
        use crate::activity::Merge as _;
        k.by_family.merge(&sm.fam);
        if sm.tensor.macs() > 0 {
            k.tensor
                .get_or_insert_with(Default::default)
                .merge(&sm.tensor);
        }
        for s in &a.sched {
            k.stalls.merge(&s.stall);
        }
        k.occupancy.resident_warp_cycles += a.resident_warp_cycles;
        k.occupancy.allocated_reg_cycles += a.allocated_reg_cycles;
        if let Some(r) = sm.regs.stats.take() {
            match per_reg.as_mut() {
                Some(p) => p.merge(&r),
                None => per_reg = Some(r),
            }
        }
        k.sms.push(a);
    }
    if let (Some(gs), Some(p)) = (gating.as_mut(), cfg.lane_policy_in_effect()) {
        if p != cfg.pg.policy {
            gs.lane_policy = Some(String::from(p));
        }
    }
    k.occupancy = Occupancy {
        max_ctas_per_sm: occ.max_ctas,
        limiter: occ.limiter.to_string(),
        shmem_carveout_bytes: carve.map(|c| c.shared_bytes),
        l1d_bytes: carve.map(|c| c.l1d_bytes(cfg)),
        resident_warp_cycles: k.occupancy.resident_warp_cycles,
        allocated_reg_cycles: k.occupancy.allocated_reg_cycles,
        mean_occupancy: if end == 0 {
            0.0
        } else {
            k.occupancy.resident_warp_cycles as f64
                / (end as f64 * cfg.sm.max_warps as f64 * cfg.gpu.n_sm as f64)
        },
    };
    k.l2 = mem.l2_act.clone();
    let dram_cycles = (end * period_fs(cfg.gpu.core_mhz)) / mem.dram_period_fs();
    k.dram = mem.dram_act.clone();
    for d in &mut k.dram {
        d.cycles = dram_cycles;
    }
    k.icnt = mem.icnt_act.clone();
    k.per_register = per_reg;
    k.gating = gating;
    k.rf = rf;
    k
}
