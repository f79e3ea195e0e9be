//! One launch on the analytical activity source: the functional pass over the emulator's
//! stream (counts, per-CTA critical path and unit demands, the memory pass) and the wave
//! model that turns them into cycles (see the parent module for the method).

use super::{issue_overhead_cycles, ModelGpu, DRAM, L2};
use crate::schedcfg::{self, pipe_index, FETCH, ISSUE, OC, RF};
use models::sched::{Limiter, SchedModel};
use sim::activity::{DramChannelActivity, KernelActivity, L2SliceActivity, Occupancy, SmActivity};
use sim::config::GpuConfig;
use sim::inst::{Family, OpClass, WarpInst, PRED_BASE};
use sim::stream::Step;
use sim::timing::funccount::{collector_of, exec_class, idle_stats, PipeMap};
use sim::timing::funcmem::{FuncMem, SmMemCounts};
use sim::timing::{op_name, MonolithicRf, PipeClass, RegisterFileOrg};
use sim::{Launch, SimError};

/// Units of the per-SM demand vector (the machine's, then `dram` and `l2`).
const N_UNITS: usize = L2 + 1;

/// What the functional pass learnt about one CTA.
struct CtaRun {
    sm: usize,
    /// Critical path of the CTA's warps, cycles.
    p1_cycles: u64,
    /// Work per unit, in cycles of that unit's `t` (per-SM units only).
    demand_cycles: [f64; N_UNITS],
}

/// Per-warp state of the functional pass.
#[derive(Clone, Default)]
struct WarpState {
    done: bool,
    at_bar: bool,
    /// Issue cycle of the warp's last instruction.
    clock: u64,
    /// Latest cycle a result of the warp is ready.
    end: u64,
    /// Position in the current fetch group.
    fetch_pos: u32,
}

/// The model steps one CTA after another: a grid-wide barrier would wait for CTAs not yet
/// started, so a cooperative launch is refused.
fn refuse_cooperative(l: &Launch) -> Result<(), SimError> {
    if l.cooperative {
        return Err(SimError::Launch {
            kernel: l.kernel.name.clone(),
            msg: "the analytical activity source does not model cooperative launches \
                  (grid-wide synchronisation); use the cycle-level model (--activity-source \
                  sim)"
                .into(),
        });
    }
    Ok(())
}

/// CTA slots per SM of a launch of `b` warps per CTA, and what limits them; an error when no
/// CTA fits an SM.
fn cta_slots(
    model: &SchedModel,
    info: &sim::stream::KernelInfo,
    b: u32,
) -> Result<(u32, Limiter), SimError> {
    let (n_slot, limiter) = model.n_slot(b, info.shared_bytes, &[info.regs_per_thread]);
    if n_slot == 0 {
        return Err(SimError::Launch {
            kernel: info.name.clone(),
            msg: format!(
                "analytical model: no CTA of {b} warps, {} shared bytes and {} registers per \
                 thread fits an SM (limiter {limiter})",
                info.shared_bytes, info.regs_per_thread
            ),
        });
    }
    Ok((n_slot, limiter))
}

/// Models one launch of `gpu` (launch number `index` of the program).
pub(super) fn model_launch(
    gpu: &mut ModelGpu,
    l: &Launch,
    index: u64,
) -> Result<KernelActivity, SimError> {
    let ModelGpu {
        cfg,
        emu,
        l2,
        model,
        template,
        rf,
        ..
    } = gpu;
    let cfg: &GpuConfig = cfg;
    refuse_cooperative(l)?;
    let mut stream = emu.stream(l)?;
    let info = stream.info().clone();
    let occ = sim::timing::occupancy(cfg, &info)?;
    let b = info.warps_per_cta().max(1);
    let (n_slot, limiter) = cta_slots(model, &info, b)?;
    let n_sm = cfg.gpu.n_sm.max(1) as usize;
    let n_sched = cfg.sched.n_per_sm.max(1);
    let overhead = issue_overhead_cycles(cfg);
    let group = cfg
        .frontend
        .fetch_width
        .min(cfg.frontend.ibuffer_entries.clamp(1, 8))
        .max(1);
    let op_path = schedcfg::operand_path(cfg, PipeClass::Sp);
    let rf_port = op_path.port_cycles_per_access.max(1) as f64;
    let pipes = PipeMap::of(template);
    let mut sms: Vec<SmActivity> = vec![template.clone(); n_sm];
    let mut k = KernelActivity::empty(&info.name);
    k.launches = 1;
    let mut mem = FuncMem::new(cfg, l2.take());
    let mut runs: Vec<CtaRun> = Vec::with_capacity(info.num_ctas() as usize);
    let mut inst = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
    // per-SM pipe busy cycles (ops × interval), by exec index
    let mut pipe_busy: Vec<Vec<u64>> = vec![vec![0; template.exec.len()]; n_sm];
    let mut ready = vec![0u64; (b as usize) * (PRED_BASE as usize + 8)];
    let stride = PRED_BASE as usize + 8;
    for cta in 0..info.num_ctas() {
        let sm = cta as usize % n_sm;
        let on_sm = cta / n_sm as u32;
        let slot0 = (on_sm % n_slot) * b;
        stream.begin_cta(cta, sm as u32, slot0)?;
        let nw = info.warps_per_cta() as usize;
        let mut ws = vec![WarpState::default(); nw];
        ready.iter_mut().for_each(|r| *r = 0);
        let mut demand = [0f64; N_UNITS];
        let a = &mut sms[sm];
        a.ctas += 1;
        loop {
            let mut stepped = false;
            for (w, st) in ws.iter_mut().enumerate() {
                if st.done || st.at_bar {
                    continue;
                }
                match stream.next_inst(cta, w as u32, 0, &mut inst)? {
                    Step::Done => {
                        st.done = true;
                        continue;
                    }
                    Step::Inst => {}
                }
                if inst.family == Family::Tensor && cfg.units.n_tensor == 0 {
                    return Err(SimError::Other(format!(
                        "a tensor-core instruction (PC {:#x}) on a machine without tensor \
                         cores: set 'units.n_tensor' to the tensor cores per SM (it is 0)",
                        inst.pc
                    )));
                }
                stepped = true;
                let slot = slot0 + w as u32;
                let sched = slot % n_sched;
                let lanes = inst.lanes() as u64;
                count_inst(&mut k, a, &inst, sched);
                if st.fetch_pos == 0 {
                    mem.fetch(sm, inst.pc);
                }
                st.fetch_pos = (st.fetch_pos + 1) % group;
                if inst.reconv_pc.is_some() {
                    a.simt.divergent_branches += 1;
                    a.simt.pushes += 1;
                    a.simt.pops += 1;
                }
                for &r in inst.srcs() {
                    if r >= PRED_BASE {
                        a.rf.pred_reads += 1;
                    }
                }
                demand[ISSUE] += model.units[ISSUE].t;
                demand[FETCH] += model.units[FETCH].t;
                let base = w * stride;
                let src_ready = inst
                    .srcs()
                    .iter()
                    .map(|&r| ready[base + (r as usize).min(stride - 1)])
                    .max()
                    .unwrap_or(0);
                let t_issue = (st.clock + 1).max(src_ready);
                st.clock = t_issue;
                let ec = exec_class(cfg, &inst);
                if inst.family == Family::Bar {
                    a.bar.arrivals += 1;
                    st.at_bar = true;
                    st.fetch_pos = 0;
                    continue;
                }
                if ec.pipe == PipeClass::None {
                    continue;
                }
                a.scoreboard.writes += 2 * inst.n_dst as u64;
                let (n_reads, n_writes, busiest) = rf_accesses(a, rf, &inst, slot, sched);
                let occ_cycles = op_path.collector_cycles(busiest);
                if let Some(o) = collector_of(a, ec.pipe) {
                    o.allocs += 1;
                    o.operands += n_reads as u64;
                    o.dispatches += 1;
                    o.occupied_cycles += occ_cycles.ceil() as u64;
                }
                demand[RF] += (n_reads as u32 + n_writes) as f64 * rf_port;
                demand[OC] += occ_cycles;
                // execution
                let (lat, unit_cycles) = if ec.pipe == PipeClass::Mem {
                    let c = mem.access(sm, slot as usize, &inst)?;
                    (c.latency_cycles.max(1), c.ldst_cycles.max(1))
                } else {
                    (ec.latency as u64, ec.ii as u64)
                };
                if let Some(u) = pipe_index(ec.pipe) {
                    demand[u] += unit_cycles as f64;
                }
                if let Some(pi) = pipes.instance(&ec, slot) {
                    let p = &mut a.exec[pi];
                    let e = p.ops.entry(op_name(inst.op).to_string()).or_default();
                    e.ops += 1;
                    e.lanes += lanes;
                    pipe_busy[sm][pi] += unit_cycles;
                }
                let done_at = t_issue + lat + overhead;
                for &r in inst.dsts() {
                    ready[base + (r as usize).min(stride - 1)] = done_at;
                }
                st.end = st.end.max(done_at);
            }
            let (released, any_live) = release_barrier(&mut ws, a);
            if released {
                continue;
            }
            if !stepped {
                if !any_live {
                    break;
                }
                return Err(SimError::Launch {
                    kernel: info.name.clone(),
                    msg: format!("analytical model: CTA {cta} made no progress"),
                });
            }
        }
        stream.end_cta(cta)?;
        let p1 = ws.iter().map(|s| s.clock.max(s.end)).max().unwrap_or(1);
        runs.push(CtaRun {
            sm,
            p1_cycles: p1.max(1),
            demand_cycles: demand,
        });
    }
    drop(stream);
    let (mem_sms, l2_act, dram_act, icnt, l2_state) = mem.finish();
    *l2 = Some(l2_state);
    // chip-level bandwidth demand, shared by every warp of the launch
    let total_warps = (runs.len() as f64 * b as f64).max(1.0);
    let (per_warp_dram, per_warp_l2) = chip_demand_per_warp(&l2_act, &dram_act, total_warps);
    let (sm_cycles, sm_resident) = waves(model, &runs, n_sm, n_slot, b, per_warp_dram, per_warp_l2);
    let gap = launch_gap(cfg, index);
    let busiest = sm_cycles.iter().copied().fold(0.0, f64::max);
    let cycles = gap + busiest.ceil() as u64;
    k.cycles = cycles;
    let regs_alloc =
        occ.regs_per_cta as u64 / (occ.warps_per_cta as u64 * cfg.gpu.warp_size as u64).max(1);
    for (i, a) in sms.iter_mut().enumerate() {
        let per_sm = (sm_cycles[i], sm_resident[i], &pipe_busy[i][..], &mem_sms[i]);
        finish_sm(cfg, a, per_sm, regs_alloc, cycles);
    }
    k.occupancy = occupancy_of(cfg, &sms, n_slot, limiter, cycles);
    k.sms = sms;
    k.l2 = l2_act;
    let dram_cycles = (cycles as f64 * cfg.gpu.dram_mhz / cfg.gpu.core_mhz.max(1e-9)) as u64;
    k.dram = dram_act;
    for d in &mut k.dram {
        d.cycles = dram_cycles;
    }
    k.icnt = icnt;
    Ok(k)
}

/// The DRAM bursts and L2 requests of a launch per warp of its `total_warps`.
fn chip_demand_per_warp(
    l2_act: &[L2SliceActivity],
    dram_act: &[DramChannelActivity],
    total_warps: f64,
) -> (f64, f64) {
    let bursts: u64 = dram_act.iter().map(|d| d.reads + d.writes).sum();
    let l2_reqs: u64 = l2_act
        .iter()
        .map(|s| {
            s.read.hit + s.read.miss + s.write.hit + s.write.miss + s.atomic.hit + s.atomic.miss
        })
        .sum();
    (bursts as f64 / total_warps, l2_reqs as f64 / total_warps)
}

/// The launch's occupancy record: `n_slot` CTAs per SM (bound by `limiter`) and the SMs'
/// resident warp-cycles and allocated register-cycles over `cycles`.
fn occupancy_of(
    cfg: &GpuConfig,
    sms: &[SmActivity],
    n_slot: u32,
    limiter: Limiter,
    cycles: u64,
) -> Occupancy {
    let resident: u64 = sms.iter().map(|s| s.resident_warp_cycles).sum();
    let reg_cycles: u64 = sms.iter().map(|s| s.allocated_reg_cycles).sum();
    Occupancy {
        max_ctas_per_sm: n_slot,
        limiter: limiter_name(limiter).to_string(),
        resident_warp_cycles: resident,
        allocated_reg_cycles: reg_cycles,
        mean_occupancy: if cycles == 0 {
            0.0
        } else {
            resident as f64 / (cycles as f64 * cfg.sm.max_warps as f64 * cfg.gpu.n_sm as f64)
        },
        // the configured L1/shared split: this model carves no unified array
        ..Default::default()
    }
}

/// Releases the barrier when every live warp of `ws` waits at it (the warps continue at the
/// latest arrival; the waits are counted in `a`). Returns whether it released and whether any
/// warp is live.
fn release_barrier(ws: &mut [WarpState], a: &mut SmActivity) -> (bool, bool) {
    let live: Vec<usize> = (0..ws.len()).filter(|&w| !ws[w].done).collect();
    if !live.is_empty() && live.iter().all(|&w| ws[w].at_bar) {
        let t = live.iter().map(|&w| ws[w].clock).max().unwrap_or(0);
        for &w in &live {
            a.bar.wait_cycles += t - ws[w].clock;
            ws[w].clock = t;
            ws[w].at_bar = false;
        }
        a.bar.releases += 1;
        return (true, true);
    }
    (false, !live.is_empty())
}

/// Completes SM `a`'s record of a launch of `cycles` cycles from the SM's own figures (`per_sm`:
/// its active cycles and resident warp-cycles from the wave model, its pipes' busy cycles and
/// its memory counters) and the registers allocated per thread `regs_alloc`.
fn finish_sm(
    cfg: &GpuConfig,
    a: &mut SmActivity,
    per_sm: (f64, f64, &[u64], &SmMemCounts),
    regs_alloc: u64,
    cycles: u64,
) {
    let (sm_cycles, sm_resident, pipe_busy, mc) = per_sm;
    let e = cfg.stats.idle_hist_exact_max;
    let m = cfg.stats.idle_hist_log2_max;
    let active = sm_cycles.ceil() as u64;
    a.active_cycles = active;
    a.resident_warp_cycles = sm_resident.round() as u64;
    a.allocated_reg_cycles =
        (sm_resident * cfg.gpu.warp_size as f64 * regs_alloc as f64).round() as u64;
    for s in &mut a.sched {
        s.active_cycles = active;
        s.issued[0] = cycles.saturating_sub(s.issued[1] + s.issued[2]);
    }
    for (pi, p) in a.exec.iter_mut().enumerate() {
        let busy = pipe_busy[pi].min(cycles);
        let uses: u64 = p.ops.values().map(|o| o.ops).sum();
        p.busy = idle_stats(busy, cycles, uses, e, m);
    }
    a.l1d = mc.l1d;
    a.smem = mc.smem;
    a.const_cache = mc.const_cache;
    a.ldst = mc.ldst;
    a.icache = mc.icache;
}

/// Counts one issued warp instruction `inst` of scheduler `sched` in the kernel's `k` and the
/// SM's `a` counters (instructions, decode, I-buffer, scoreboard reads, the scheduler's issue).
fn count_inst(k: &mut KernelActivity, a: &mut SmActivity, inst: &WarpInst, sched: u32) {
    let lanes = inst.lanes() as u64;
    k.warp_insts += 1;
    k.thread_insts += lanes;
    let fam = k.by_family.of_mut(inst.family);
    fam.warp_insts += 1;
    fam.thread_insts += lanes;
    if inst.family == Family::Tensor && inst.active_mask != 0 {
        k.tensor
            .get_or_insert_with(Default::default)
            .count(inst.op, inst.active_mask);
    }
    a.warp_insts += 1;
    a.thread_insts += lanes;
    a.decoder_insts += 1;
    a.ibuffer.writes += 1;
    a.ibuffer.reads += 1;
    a.scoreboard.reads += 1;
    if let Some(s) = a.sched.get_mut(sched as usize) {
        s.issued[1] += 1;
        s.warp_evals += 1;
    }
}

/// The register-file accesses of `inst` of warp slot `slot` and scheduler `sched` on the
/// simulator's banks (`rf`), counted in `a`: register reads are the distinct non-predicate
/// sources. Returns the reads, the non-predicate writes and the most reads of one bank.
fn rf_accesses(
    a: &mut SmActivity,
    rf: &MonolithicRf,
    inst: &WarpInst,
    slot: u32,
    sched: u32,
) -> (usize, u32, u32) {
    let lanes = inst.lanes() as u64;
    let mut seen = [0u16; 5];
    let mut n_reads = 0usize;
    let mut per_bank = [0u32; 64];
    let mut busiest = 0u32;
    for &r in inst.srcs() {
        if r >= PRED_BASE || seen[..n_reads].contains(&r) {
            continue;
        }
        seen[n_reads] = r;
        n_reads += 1;
        let bank = rf.bank(slot, sched, r) as usize;
        if let Some(x) = a.rf.reads.get_mut(bank) {
            *x += 1;
        }
        if let Some(x) = a.rf.read_lanes.get_mut(bank) {
            *x += lanes;
        }
        let pb = &mut per_bank[bank % 64];
        *pb += 1;
        busiest = busiest.max(*pb);
    }
    let mut n_writes = 0u32;
    for &r in inst.dsts() {
        if r >= PRED_BASE {
            a.rf.pred_writes += 1;
        } else {
            n_writes += 1;
            let bank = rf.bank(slot, sched, r) as usize;
            if let Some(x) = a.rf.writes.get_mut(bank) {
                *x += 1;
            }
            if let Some(x) = a.rf.write_lanes.get_mut(bank) {
                *x += lanes;
            }
        }
    }
    (n_reads, n_writes, busiest)
}

/// The wave model (parent module): per SM, its CTAs in waves of `n_slot` CTAs of `b` warps,
/// each wave lasting its critical path times the model's factor for the units' demands
/// (`per_warp_dram`, `per_warp_l2`: the chip-level demands per warp). Returns per SM the cycles
/// and the resident warp-cycles.
fn waves(
    model: &SchedModel,
    runs: &[CtaRun],
    n_sm: usize,
    n_slot: u32,
    b: u32,
    per_warp_dram: f64,
    per_warp_l2: f64,
) -> (Vec<f64>, Vec<f64>) {
    let mut sm_cycles = vec![0f64; n_sm];
    let mut sm_resident = vec![0f64; n_sm];
    for (sm, cyc) in sm_cycles.iter_mut().enumerate() {
        let mine: Vec<&CtaRun> = runs.iter().filter(|r| r.sm == sm).collect();
        for wave in mine.chunks(n_slot as usize) {
            let c = b * wave.len() as u32;
            let p1 = wave.iter().map(|r| r.p1_cycles).max().unwrap_or(1) as f64;
            let mut used: Vec<(usize, f64)> = Vec::with_capacity(N_UNITS);
            for u in 0..DRAM {
                let d: f64 = wave.iter().map(|r| r.demand_cycles[u]).sum();
                if d > 0.0 {
                    used.push((u, d / (model.units[u].t * c as f64)));
                }
            }
            used.push((DRAM, per_warp_dram));
            used.push((L2, per_warp_l2));
            let fu = model.fu_counts(c, used, p1);
            let t = p1 * fu;
            *cyc += t;
            sm_resident[sm] += c as f64 * t;
        }
    }
    (sm_cycles, sm_resident)
}

/// The simulator's name of a model limiter (`Occupancy::limiter`).
fn limiter_name(l: Limiter) -> &'static str {
    match l {
        Limiter::Barrier => "cta_slots",
        Limiter::WarpSlot => "warps",
        Limiter::Shmem => "shared_memory",
        Limiter::Regfile(_) => "registers",
    }
}

/// Idle cycles before the first CTA of launch `index`, as the simulator counts them
/// (`gpu.kernel_launch_latency` for every launch after the first, and for the first with
/// `compat.launch_latency_first`).
fn launch_gap(cfg: &GpuConfig, index: u64) -> u64 {
    if index > 0 || cfg.compat.launch_latency_first {
        cfg.gpu.kernel_launch_latency
    } else {
        0
    }
}
