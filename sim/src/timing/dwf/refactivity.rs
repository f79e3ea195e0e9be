//! The activity record of a reference-mode run (control-flow spec §3.4–§5), so that `models`
//! costs PDOM, NREC, MIMD and DWF runs of the reference-mode model like any other run.
//!
//! **What is counted, per issue slot and per thread group.** The model issues one warp per
//! scheduler cycle; under MIMD and DWF the warp may hold thread groups of several CTAs (and
//! under MIMD several PCs). Each *instruction* of a slot (one per distinct PC of the slot) is
//! one warp instruction: a fetch (the instruction cache of the configuration), a decode, an
//! I-buffer write and read, one issue of the core's scheduler, one register read per distinct
//! non-predicate source and one write per destination on the banks of the configuration's
//! register file (bank by the slot's index), one collector allocation, one operation on the
//! exec pipe of its class. Lanes (`thread_insts`, register lanes, pipe lanes) are the
//! guard-true threads of every group. Memory instructions go through the functional memory
//! pass ([`crate::timing::funcmem::FuncMem`]) group by group, in issue order: coalescing,
//! shared-memory passes, the L1D, constant cache, L2 slices and DRAM channels of the
//! configuration. Under PDOM the divergent branches push and pop the stack.
//!
//! **Timing.** Cycles are the model's; an SM is active while it holds a CTA, and its resident
//! warp cycles are the warps of its CTAs over those cycles. A pipe is busy `ii` cycles per
//! operation, its idle time split into one period per use (analytical-model §6).
//!
//! **Absent** (0): stall reasons, scoreboard accesses (the model locks a thread from issue to
//! write-back instead), register-bank conflicts, per-lane idle timelines. The cache and DRAM
//! counts are functional (each access finds an idle memory system), while the model's own
//! timing uses its per-core cache and DRAM share.

use crate::activity::{KernelActivity, Occupancy, Provenance, SmActivity};
use crate::config::GpuConfig;
use crate::inst::{Family, WarpInst, PRED_BASE, WARP_SIZE};
use crate::timing::funccount::{collector_of, exec_class, idle_stats, PipeMap};
use crate::timing::funcmem::{self, FuncMem, L2State};
use crate::timing::{op_name, MonolithicRf, PipeClass, RegisterFileOrg};
use crate::SimError;

/// The provenance every reference-mode record carries.
pub fn provenance() -> Provenance {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    Provenance {
        source: "reference".to_string(),
        method: "reference-mode model of control-flow spec 3.4-5 (scheduler-level timing, one \
                 warp per scheduler cycle) for the timing; each issued instruction counted on \
                 the configuration's front end, register file, collectors and pipes; memory \
                 counted by the functional memory pass in issue order"
            .to_string(),
        analytical: s(&[
            "cycles (reference-mode model)",
            "sms.active_cycles, sms.resident_warp_cycles, sms.allocated_reg_cycles",
            "sms.sched.active_cycles, sms.sched.issued",
            "sms.exec.busy (busy = ops x interval; idle split per analytical-model 6)",
            "dram.cycles",
        ]),
        functional: s(&[
            "warp_insts (one per distinct PC of an issue slot)",
            "thread_insts",
            "by_family",
            "sms.decoder_insts, sms.ibuffer, sms.icache",
            "sms.rf (reads, writes, lanes, predicate accesses)",
            "sms.opcoll (allocs, operands, dispatches)",
            "sms.exec.ops",
            "sms.simt (PDOM)",
            "sms.bar.arrivals",
            "sms.l1d, sms.smem, sms.const_cache, sms.ldst, l2, dram, icnt (functional memory \
             pass in issue order, idle memory system)",
        ]),
        absent: s(&[
            "stalls and sms.sched.stall (0)",
            "sms.scoreboard (0: the model locks threads from issue to write-back)",
            "sms.rf.conflict_rr, sms.rf.conflict_wr (0)",
            "sms.exec.lane_idle (0)",
            "sms.bar.releases, sms.bar.wait_cycles (0)",
        ]),
        assumptions: vec![
            "a MIMD slot holding several PCs counts one instruction per PC".to_string(),
            "register banks and pipe instances taken round-robin by issue slot".to_string(),
        ],
    }
}

/// Builds the per-launch records of a reference-mode run.
pub struct Recorder {
    template: SmActivity,
    pipes: PipeMap,
    rf: MonolithicRf,
    pdom: bool,
    l2: Option<L2State>,
    launch: Option<LaunchRec>,
}

struct LaunchRec {
    k: KernelActivity,
    sms: Vec<SmActivity>,
    mem: FuncMem,
    pipe_busy: Vec<Vec<u64>>,
    scratch: WarpInst,
}

impl Recorder {
    /// A recorder for `cfg` (its SM template, register-file bank map and pipes).
    pub fn new(cfg: &GpuConfig) -> Result<Recorder, SimError> {
        let template = funcmem::sm_activity_template(cfg)?;
        Ok(Recorder {
            pipes: PipeMap::of(&template),
            template,
            rf: MonolithicRf::new(cfg),
            pdom: cfg.reconv.mode == crate::config::reconv::ReconvMode::Pdom,
            l2: None,
            launch: None,
        })
    }

    /// A host copy of `bytes` at `addr` between launches (the L2 keeps or drops the lines as
    /// the cycle-level model does).
    pub fn host_copy(&mut self, cfg: &GpuConfig, addr: u64, bytes: u64) {
        funcmem::copy_between_launches(cfg, &mut self.l2, addr, bytes);
    }

    /// Starts the record of a launch of kernel `name`.
    pub fn begin(&mut self, cfg: &GpuConfig, name: &str) {
        let n_sm = cfg.gpu.n_sm.max(1) as usize;
        let mut k = KernelActivity::empty(name);
        k.launches = 1;
        self.launch = Some(LaunchRec {
            k,
            sms: vec![self.template.clone(); n_sm],
            mem: FuncMem::new(cfg, self.l2.take()),
            pipe_busy: vec![vec![0; self.template.exec.len()]; n_sm],
            scratch: WarpInst::new(0, Family::Int, crate::inst::OpClass::Nop, 0),
        });
    }

    /// One thread group of an issue slot on core `sm`: instruction `inst` with `lanes`
    /// guard-true threads; `addrs` the guard-true threads' addresses of a memory instruction
    /// (`None`: `inst` carries them by lane, as a static warp's record does); `slot` the issue
    /// slot's index (register banks and pipes); `new_inst` when the group starts an instruction
    /// (the slot's first group, or a group at another PC).
    #[allow(clippy::too_many_arguments)]
    pub fn group(
        &mut self,
        cfg: &GpuConfig,
        sm: usize,
        inst: &WarpInst,
        lanes: u64,
        addrs: Option<&[u64]>,
        slot: u32,
        new_inst: bool,
    ) -> Result<(), SimError> {
        let Some(r) = self.launch.as_mut() else {
            return Ok(());
        };
        let Some(a) = r.sms.get_mut(sm) else {
            return Ok(());
        };
        let k = &mut r.k;
        let fam = k.by_family.of_mut(inst.family);
        k.thread_insts += lanes;
        fam.thread_insts += lanes;
        a.thread_insts += lanes;
        let ec = exec_class(cfg, inst);
        let n_sched = cfg.sched.n_per_sm.max(1);
        let sched = slot % n_sched;
        let wslot = slot % cfg.sm.max_warps.max(1);
        if new_inst && inst.family == crate::inst::Family::Tensor && inst.active_mask != 0 {
            k.tensor
                .get_or_insert_with(Default::default)
                .count(inst.op, inst.active_mask);
        }
        if new_inst {
            k.warp_insts += 1;
            k.by_family.of_mut(inst.family).warp_insts += 1;
            a.warp_insts += 1;
            a.decoder_insts += 1;
            a.ibuffer.writes += 1;
            a.ibuffer.reads += 1;
            if let Some(s) = a.sched.get_mut(sched as usize) {
                s.issued[1] += 1;
                s.warp_evals += 1;
            }
            r.mem.fetch(sm, inst.pc);
            if self.pdom && inst.reconv_pc.is_some() {
                a.simt.divergent_branches += 1;
                a.simt.pushes += 1;
                a.simt.pops += 1;
            }
            if inst.family == Family::Bar {
                a.bar.arrivals += 1;
            }
        }
        if inst.family == Family::Bar || ec.pipe == PipeClass::None {
            return Ok(());
        }
        // register reads: distinct non-predicate sources; writes: destinations
        let mut seen = [0u16; 5];
        let mut n_reads = 0usize;
        for &reg in inst.srcs() {
            if reg >= PRED_BASE {
                if new_inst {
                    a.rf.pred_reads += 1;
                }
                continue;
            }
            if seen[..n_reads].contains(&reg) {
                continue;
            }
            seen[n_reads] = reg;
            n_reads += 1;
            let bank = self.rf.bank(wslot, sched, reg) as usize;
            if new_inst {
                if let Some(x) = a.rf.reads.get_mut(bank) {
                    *x += 1;
                }
            }
            if let Some(x) = a.rf.read_lanes.get_mut(bank) {
                *x += lanes;
            }
        }
        for &reg in inst.dsts() {
            if reg >= PRED_BASE {
                if new_inst {
                    a.rf.pred_writes += 1;
                }
                continue;
            }
            let bank = self.rf.bank(wslot, sched, reg) as usize;
            if new_inst {
                if let Some(x) = a.rf.writes.get_mut(bank) {
                    *x += 1;
                }
            }
            if let Some(x) = a.rf.write_lanes.get_mut(bank) {
                *x += lanes;
            }
        }
        let pi = self.pipes.instance(&ec, wslot);
        if new_inst {
            if let Some(o) = collector_of(a, ec.pipe) {
                o.allocs += 1;
                o.operands += n_reads as u64;
                o.dispatches += 1;
            }
        }
        let mut unit_cycles = ec.ii as u64;
        if ec.pipe == PipeClass::Mem {
            // a local access is laid out for the lanes of warp slot `wslot` (a formed group's
            // threads packed into its first lanes)
            let ws = wslot as usize;
            let cost = match addrs {
                None => r.mem.access(sm, ws, inst)?,
                Some(ad) => {
                    let s = &mut r.scratch;
                    s.clone_from(inst);
                    let n = ad.len().min(WARP_SIZE);
                    s.active_mask = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
                    if let Some(m) = s.mem.as_mut() {
                        m.addrs[..n].copy_from_slice(&ad[..n]);
                    }
                    r.mem.access(sm, ws, s)?
                }
            };
            unit_cycles = cost.ldst_cycles.max(1);
        }
        if let Some(pi) = pi {
            let p = &mut a.exec[pi];
            let e = p.ops.entry(op_name(inst.op).to_string()).or_default();
            if new_inst {
                e.ops += 1;
            }
            e.lanes += lanes;
            if new_inst || ec.pipe == PipeClass::Mem {
                r.pipe_busy[sm][pi] += unit_cycles;
            }
        }
        Ok(())
    }

    /// Ends the launch: `cycles` of the launch, per core the cycles it held a CTA and its
    /// resident warp cycles, and the kernel's registers per thread and CTA-slot limit.
    pub fn end(
        &mut self,
        cfg: &GpuConfig,
        cycles: u64,
        active_cycles: &[u64],
        resident_warp_cycles: &[u64],
        regs_per_thread: u32,
        occupancy: Option<(u32, &str)>,
    ) -> Option<KernelActivity> {
        let mut r = self.launch.take()?;
        let (mem_sms, l2_act, dram_act, icnt, l2_state) = r.mem.finish();
        self.l2 = Some(l2_state);
        let e = cfg.stats.idle_hist_exact_max;
        let m = cfg.stats.idle_hist_log2_max;
        let w = cfg.gpu.warp_size as u64;
        for (i, a) in r.sms.iter_mut().enumerate() {
            let active = active_cycles.get(i).copied().unwrap_or(0).min(cycles);
            a.active_cycles = active;
            a.resident_warp_cycles = resident_warp_cycles.get(i).copied().unwrap_or(0);
            a.allocated_reg_cycles = a.resident_warp_cycles * w * regs_per_thread as u64;
            for s in &mut a.sched {
                s.active_cycles = active;
                s.issued[0] = cycles.saturating_sub(s.issued[1] + s.issued[2]);
            }
            for (pi, p) in a.exec.iter_mut().enumerate() {
                let busy = r.pipe_busy[i][pi].min(cycles);
                let uses: u64 = p.ops.values().map(|o| o.ops).sum();
                p.busy = idle_stats(busy, cycles, uses, e, m);
            }
            if let Some(mc) = mem_sms.get(i) {
                a.l1d = mc.l1d;
                a.smem = mc.smem;
                a.const_cache = mc.const_cache;
                a.tex_cache = mc.tex_cache;
                a.ldst = mc.ldst;
                a.icache = mc.icache;
            }
        }
        let mut k = r.k;
        k.cycles = cycles;
        let resident: u64 = r.sms.iter().map(|s| s.resident_warp_cycles).sum();
        let regs: u64 = r.sms.iter().map(|s| s.allocated_reg_cycles).sum();
        let (max_ctas, limiter) = occupancy.unwrap_or((cfg.sm.max_ctas, "cta_slots"));
        k.occupancy = Occupancy {
            max_ctas_per_sm: max_ctas,
            limiter: limiter.to_string(),
            resident_warp_cycles: resident,
            allocated_reg_cycles: regs,
            mean_occupancy: if cycles == 0 {
                0.0
            } else {
                resident as f64 / (cycles as f64 * cfg.sm.max_warps as f64 * cfg.gpu.n_sm as f64)
            },
            // the configured L1/shared split: this model carves no unified array
            ..Default::default()
        };
        k.sms = r.sms;
        k.l2 = l2_act;
        let dram_cycles = (cycles as f64 * cfg.gpu.dram_mhz / cfg.gpu.core_mhz.max(1e-9)) as u64;
        k.dram = dram_act;
        for d in &mut k.dram {
            d.cycles = dram_cycles;
        }
        k.icnt = icnt;
        Some(k)
    }
}
