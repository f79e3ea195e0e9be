//! One launch on the reference-mode model: CTA placement and retirement on the cores, the
//! scheduler-cycle loop, and the launch's counters and activity record.

use super::state::{Core, CtaSlot, Model, Policy};
use super::stats::{merge_mem, RefMemStats, RefStats};
use crate::activity::{merge_formation, merge_majority, KernelActivity};
use crate::config::reconv::ReconvMode;
use crate::config::GpuConfig;
use crate::emu::pool::{ExecOut, ThreadPool};
use crate::emu::Emulator;
use crate::inst::{Family, OpClass, WarpInst, WARP_SIZE};
use crate::stream::KernelInfo;
use crate::timing::dwf::formation::FormationStats;
use crate::timing::dwf::refactivity::Recorder;
use crate::{Launch, SimError};
use std::collections::VecDeque;

/// Runs one launch; returns its cycles (and with a recorder, its activity record) and adds its
/// counters to `stats`.
pub fn run_launch(
    cfg: &GpuConfig,
    emu: &mut Emulator,
    launch: &Launch,
    stats: &mut RefStats,
    mut act: Option<&mut Recorder>,
) -> Result<(u64, Option<KernelActivity>), SimError> {
    let mode = cfg.reconv.mode;
    let d = &cfg.dwf;
    let w = WARP_SIZE as u32;
    let sc = (w / d.simd_width.max(1)).max(1) as u64;
    let mut pool = ThreadPool::new(emu, launch)?;
    let info = pool.info().clone();
    let l1g = cfg.l1d.geometry();
    let line_bytes = l1g.line_bytes as u64;
    let miss_port_cycles = miss_port_cycles(cfg, line_bytes);
    if let Some(r) = act.as_deref_mut() {
        r.begin(cfg, &info.name);
    }
    let mut m = Model {
        cfg,
        act,
        last_group: (usize::MAX, 0, 0),
        mode,
        w,
        sc,
        line_bytes,
        miss_port_cycles,
        out: ExecOut::default(),
        rec: WarpInst::new(0, Family::Int, OpClass::Nop, 0),
        mem: RefMemStats::default(),
    };
    let n_sm = cfg.gpu.n_sm.max(1) as usize;
    let mut cores: Vec<Core> = (0..n_sm)
        .enumerate()
        .map(|(idx, _)| Core::new(idx, cfg, &l1g, sc))
        .collect();
    let ncta = info.num_ctas();
    let mut next_cta = 0u32;
    let mut t = 0u64;
    let mut idle_rounds = 0u64;
    loop {
        // CTA placement: as many as the core's threads, warps, CTA slots and shared memory allow
        for (ci, core) in cores.iter_mut().enumerate() {
            m.place_ctas(core, ci, &mut next_cta, &info, t, &mut pool, stats)?;
        }
        let mut any_live = next_cta < ncta;
        let mut progressed = false;
        for core in cores.iter_mut() {
            if !core.ctas.is_empty() {
                core.active_cycles += sc;
                core.resident_warp_cycles += core.warps_used as u64 * sc;
            }
            progressed |= m.core_cycle(core, t, &mut pool, stats)?;
            progressed |= retire_ctas(core, w, &info, &mut pool, stats)?;
            any_live |= !core.ctas.is_empty();
        }
        stats.sched_cycles += n_sm as u64;
        if !any_live {
            break;
        }
        t += sc;
        idle_rounds = if progressed { 0 } else { idle_rounds + 1 };
        if idle_rounds > 1_000_000 {
            return Err(SimError::Other(format!(
                "reference-mode model ({}): no progress for 10^6 scheduler cycles at cycle {t} \
                 in kernel '{}'",
                mode.as_str(),
                info.name
            )));
        }
        if cfg.sim.max_cycles > 0 && t > cfg.sim.max_cycles {
            return Err(SimError::Other(format!(
                "reference-mode model: kernel '{}' passed sim.max_cycles = {}",
                info.name, cfg.sim.max_cycles
            )));
        }
    }
    let launch_dwf = launch_dwf_counts(&cores, w);
    add_core_counters(&cores, w, stats);
    merge_mem(&mut stats.mem, &m.mem);
    let cycles = t + sc;
    let k = match m.act {
        Some(r) => {
            let active: Vec<u64> = cores.iter().map(|c| c.active_cycles).collect();
            let resident: Vec<u64> = cores.iter().map(|c| c.resident_warp_cycles).collect();
            let occ = crate::timing::occupancy(cfg, &info).ok();
            r.end(
                cfg,
                cycles,
                &active,
                &resident,
                info.regs_per_thread,
                occ.as_ref().map(|o| (o.max_ctas, o.limiter)),
            )
            .map(|mut k| {
                k.dwf = launch_dwf;
                k
            })
        }
        None => None,
    };
    Ok((cycles, k))
}

/// The core's share of DRAM bandwidth, bytes per core cycle, as the cycles one line of
/// `line_bytes` occupies it (at least 1).
fn miss_port_cycles(cfg: &GpuConfig, line_bytes: u64) -> u64 {
    let dr = &cfg.dram;
    let bw = (cfg.mem.n_channels * dr.chips_per_channel * dr.bus_bytes_per_chip) as f64
        * dr.data_cmd_ratio as f64
        * (cfg.gpu.dram_mhz / cfg.gpu.core_mhz)
        / cfg.gpu.n_sm.max(1) as f64;
    ((line_bytes as f64 / bw.max(1e-9)).ceil() as u64).max(1)
}

impl Model<'_, '_> {
    /// Places CTAs from `next_cta` on core `ci` at cycle `t` while its threads, warps, CTA
    /// slots and shared memory allow; outside PDOM their threads become ready at once.
    #[allow(clippy::too_many_arguments)]
    fn place_ctas(
        &mut self,
        core: &mut Core,
        ci: usize,
        next_cta: &mut u32,
        info: &KernelInfo,
        t: u64,
        pool: &mut ThreadPool,
        stats: &mut RefStats,
    ) -> Result<(), SimError> {
        let cfg = self.cfg;
        let (w, mode) = (self.w, self.mode);
        let tpc = info.threads_per_cta();
        let wpc = info.warps_per_cta();
        let ncta = info.num_ctas();
        while *next_cta < ncta
            && (core.ctas.len() as u32) < cfg.sm.max_ctas.max(1)
            && core.threads_used + wpc * w <= cfg.sm.max_threads.max(wpc * w)
            && core.warps_used + wpc <= cfg.sm.max_warps.max(wpc)
            && core.shmem_used + info.shared_bytes <= cfg.sm.shmem_bytes.max(info.shared_bytes)
        {
            pool.begin_cta(*next_cta, ci as u32, core.warps_used)?;
            // thread ids of a CTA start at a warp boundary so static warps keep their slots
            let base = core.ctas.iter().map(|c| c.base_tid + c.nwarps * w).max();
            core.ctas.push(CtaSlot {
                id: *next_cta,
                base_tid: base.unwrap_or(0),
                nwarps: wpc,
                locked: vec![false; wpc as usize],
                inflight: 0,
                ready: vec![VecDeque::new(); wpc as usize],
                parked: vec![false; tpc as usize],
                last_issue: vec![t; tpc as usize],
                max_wait: vec![0; tpc as usize],
                insts: vec![0; tpc as usize],
            });
            core.threads_used += wpc * w;
            core.warps_used += wpc;
            core.shmem_used += info.shared_bytes;
            if mode != ReconvMode::Pdom {
                let c = core.ctas.last().expect("just pushed");
                let (id, base) = (c.id, c.base_tid);
                for wi in 0..wpc {
                    let ts: Vec<u32> = (wi * w..((wi + 1) * w).min(tpc)).collect();
                    self.make_ready(core, id, base, 0, ts, pool, stats)?;
                }
            }
            *next_cta += 1;
        }
        Ok(())
    }
}

/// Retires the core's finished CTAs (nothing in flight, no live thread), adding their threads'
/// fairness to `stats`; whether any retired.
fn retire_ctas(
    core: &mut Core,
    w: u32,
    info: &KernelInfo,
    pool: &mut ThreadPool,
    stats: &mut RefStats,
) -> Result<bool, SimError> {
    let mut progressed = false;
    let mut k = 0;
    while k < core.ctas.len() {
        let c = &core.ctas[k];
        if c.inflight == 0 && pool.live_threads(c.id) == 0 {
            pool.end_cta(c.id)?;
            for (&mw, &n) in c.max_wait.iter().zip(&c.insts) {
                stats.fairness.retire(mw, n);
            }
            core.threads_used -= c.nwarps * w;
            core.warps_used -= c.nwarps;
            core.shmem_used -= info.shared_bytes;
            core.ctas.remove(k);
            progressed = true;
        } else {
            k += 1;
        }
    }
    Ok(progressed)
}

/// This launch's DWF counters (for its activity record), summed over the cores.
fn launch_dwf_counts(cores: &[Core], w: u32) -> Option<crate::activity::DwfCounts> {
    let mut launch_dwf: Option<crate::activity::DwfCounts> = None;
    for core in cores {
        if let Some(f) = &core.former {
            let d = launch_dwf.get_or_insert_with(|| crate::activity::DwfCounts {
                formation: FormationStats {
                    tid_bank_writes: vec![0; w as usize],
                    ..Default::default()
                },
                majority: None,
            });
            merge_formation(&mut d.formation, &f.stats);
            if let Some(Policy::Majority(mj)) = &core.policy {
                let s = d.majority.get_or_insert_with(Default::default);
                merge_majority(s, &mj.stats);
            }
        }
    }
    launch_dwf
}

/// Adds the cores' DWF occupancy, formation and majority counters to the run's `stats`.
fn add_core_counters(cores: &[Core], w: u32, stats: &mut RefStats) {
    for core in cores {
        if core.former.is_some() {
            stats
                .occupancy
                .get_or_insert_with(Default::default)
                .merge(&core.occupancy);
        }
        if let Some(f) = &core.former {
            let s = stats.formation.get_or_insert_with(|| FormationStats {
                tid_bank_writes: vec![0; w as usize],
                ..Default::default()
            });
            merge_formation(s, &f.stats);
        }
        if let Some(Policy::Majority(mj)) = &core.policy {
            let s = stats.majority.get_or_insert_with(Default::default);
            merge_majority(s, &mj.stats);
        }
    }
}
