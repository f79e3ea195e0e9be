//! The analytical activity source (`--activity-source model`): an [`Activity`] built from a
//! functional run of the workload and the closed-form scheduling model of analytical-model
//! §2.2–§2.5 with its §6 hooks, instead of the cycle-level simulator — a quick what-if run that
//! `models` costs unchanged. Every record it builds carries a [`Provenance`] naming which
//! counters are functional (exact), which analytical and which absent.
//!
//! **Functional part (timing-independent, exact).** [`ModelGpu`] is a [`Gpu`]: memory lives in
//! the PTX emulator, and each launch's instruction stream is the emulator's [`KernelStream`]
//! (the one the timing model consumes), stepped in a fixed order: CTAs in linear-id order, CTA
//! i on SM `i mod n_sm` (the even spread §2.4 assumes), each CTA to completion with its warps
//! round-robin one instruction at a time (a warp waits at `bar.sync` until every live warp of
//! its CTA arrived). From the stream it counts warp and thread instructions per family, per-pipe
//! operations and lanes by op class, register-file reads and writes per bank (the simulator's
//! bank map), collector allocations and operands, predicate accesses, divergent branches,
//! barrier arrivals and releases. Memory instructions go through
//! [`sim::timing::funcmem::FuncMem`]: coalescing, shared-memory conflicts, the L1D, constant
//! cache, I-cache, L2 slices and DRAM channels of the configuration, each request finding an
//! idle memory system, in the order above.
//!
//! **Analytical part (timing-dependent).** Per launch, with b warps per block:
//! - `N_slot` and its limiter from §2.2 ([`SchedModel::n_slot`] of the configured machine,
//!   [`crate::schedcfg::machine`]), so an SM runs its CTAs in waves of `N_slot` (§2.4);
//! - per CTA, the latency bound `P1`: the critical path of its warps through their register
//!   dependences (§2.3 "Predicted P1" generalised to the dynamic stream): a warp issues at most
//!   one instruction per cycle, an instruction issues when its sources are ready, and its
//!   result is ready `lat + issue_overhead` cycles after issue, `lat` being the configured unit
//!   latency (`sim::timing::classify`) or, for a memory instruction, the LD/ST unit's address
//!   generation and requests plus the **unloaded** latency of the level the functional pass
//!   found (L1D/constant-cache hit latency, or the memory system's own round trip with every
//!   resource free). Queueing is not in the latency; it enters through the bandwidth units
//!   below. `issue_overhead = 1 + rf.latency` (dispatch from the collector after the operand
//!   read; `gpuenergy diag` measures 2.25 cycles on gtx480, where this gives 2). A barrier
//!   releases the CTA's warps at the latest arrival;
//! - per wave of c warps, the unit demands of its CTAs (per unit u, cycles of `t_u` work:
//!   pipe intervals, LD/ST busy cycles, issue slots, register-file port cycles, collector
//!   cycles) give `n_u`, and `fu(c)` of §2.3 ([`SchedModel::fu_counts`]) with the wave's `P1`
//!   (the slowest of its CTAs) gives the wave's time `P1·fu(c)`. Two chip-level bandwidth
//!   pseudo-units [G] join the per-SM ones, each SM taking a `1/n_mp` share: `dram` (a burst
//!   holds a channel's data bus `burst_length/data_cmd_ratio` DRAM cycles) and `l2` (a slice
//!   takes one request per L2 cycle);
//! - an SM's time is the sum of its waves (§2.4 evaluated wave by wave; with identical blocks
//!   this is `P1·T(g, b)`), the launch's cycles the slowest SM's plus the configured launch
//!   gap (`gpu.kernel_launch_latency`, as the simulator counts it);
//! - per-pipe busy cycles are the functional operations times their initiation interval (the
//!   §6 busy fraction `util_u` times the run time), and each pipe's idle time is split into one
//!   idle period per use, of the §6 idle-interval length.
//!
//! **Absent.** Stall reasons, scheduler candidate evaluations beyond one per issue, scoreboard
//! checks beyond one per issue, MSHR merges and reservation failures, per-lane idle timelines,
//! wrong-path fetches. They are 0 (or the stated lower bound) and named in the provenance.

mod launch;

use crate::schedcfg;
use models::sched::{SchedModel, Unit};
use sim::activity::{Activity, Provenance, SmActivity};
use sim::config::GpuConfig;
use sim::emu::Emulator;
use sim::stream::{DevPtr, Gpu};
use sim::timing::funcmem;
use sim::timing::MonolithicRf;
use sim::workloads::{Size, Workload};
use sim::{Launch, SimError};

/// The line the table output prints near its top for a record of this source.
pub const TABLE_NOTE: &str =
    "activity: analytical model (analytical-model §2.2-§2.5, §6), not simulated";

/// The value of `activity_source` in JSON output for a record of this source.
pub const SOURCE_NAME: &str = "model";

/// Index of the `dram` bandwidth pseudo-unit in [`model_of`]'s units.
pub const DRAM: usize = schedcfg::UNIT_NAMES.len();
/// Index of the `l2` bandwidth pseudo-unit in [`model_of`]'s units.
pub const L2: usize = DRAM + 1;

/// Refuses configurations the analytical source cannot represent, naming the knob and the
/// value allowed: mechanisms whose counts only a cycle-level run produces.
pub fn check_representable(cfg: &GpuConfig) -> Result<(), String> {
    use sim::config::pg::PgPolicy;
    let refuse = |knob: &str, value: String, allowed: &str, why: &str| {
        Err(format!(
            "'{knob}' = {value}: --activity-source model cannot represent it ({why}); allowed \
             with the analytical source: {allowed}, or use --activity-source sim"
        ))
    };
    if cfg.pg.policy != PgPolicy::None {
        return refuse(
            "pg.policy",
            format!("\"{:?}\"", cfg.pg.policy),
            "\"None\"",
            "power gating needs the controllers' cycle-by-cycle state",
        );
    }
    if cfg.fold.enabled {
        return refuse(
            "fold.enabled",
            "true".into(),
            "false",
            "warp folding is a per-cycle mechanism",
        );
    }
    // the register-file techniques of the accounting (in registration order), then the
    // organisations that map banks
    let techniques = models::rf::TECHNIQUES
        .iter()
        .map(|t| (t.enable_key(), t.enabled(cfg)));
    for (knob, on) in techniques.chain([
        ("prf.enabled", cfg.prf.enabled),
        ("afrf.enabled", cfg.afrf.enabled),
        ("rfc.enabled", cfg.rfc.enabled),
    ]) {
        if on {
            return refuse(
                knob,
                "true".into(),
                "false",
                "register-file techniques need per-access timing",
            );
        }
    }
    if cfg.sched.ooo.mode != sim::config::OooMode::None {
        return refuse(
            "sched.ooo.mode",
            format!("\"{:?}\"", cfg.sched.ooo.mode).to_lowercase(),
            "\"none\"",
            "out-of-order issue stages are mechanisms of the cycle-level SM",
        );
    }
    if cfg.reconv.mode != sim::config::reconv::ReconvMode::Pdom {
        return refuse(
            "reconv.mode",
            format!("\"{}\"", cfg.reconv.mode.as_str()),
            "\"pdom\"",
            "DWF, MIMD and NREC regroup threads in the reference-mode model",
        );
    }
    if cfg.reconv.counters {
        return refuse(
            "reconv.counters",
            "true".into(),
            "false",
            "the SIMD-efficiency buckets count issue slots cycle by cycle",
        );
    }
    if cfg.stats.per_register {
        return refuse(
            "stats.per_register",
            "true".into(),
            "false",
            "inter-access distances are cycle counts",
        );
    }
    Ok(())
}

/// The configured machine of `cfg` ([`schedcfg::machine`]) with the two chip-level bandwidth
/// pseudo-units [G] appended, each SM's `1/n_mp` share: `dram` (`t` = core cycles a burst
/// holds a channel's data bus × `n_mp / n_channels`) and `l2` (`t` = core cycles of one L2
/// cycle × `n_mp / n_slices`), both `m = 1`, `s = 1`.
pub fn model_of(cfg: &GpuConfig) -> SchedModel {
    let mut m = schedcfg::machine(cfg);
    let n_mp = cfg.gpu.n_sm.max(1) as f64;
    let core = cfg.gpu.core_mhz.max(1e-9);
    let burst_dram_cycles = (cfg.dram.burst_length / cfg.dram.data_cmd_ratio.max(1)).max(1) as f64;
    let burst_core = burst_dram_cycles * core / cfg.gpu.dram_mhz.max(1e-9);
    let n_ch = cfg.mem.n_channels.max(1) as f64;
    m.units
        .push(Unit::new("dram", burst_core * n_mp / n_ch, 0, Some(1), 1));
    let l2_core = core / cfg.gpu.l2_mhz.max(1e-9);
    let n_sl = cfg.n_l2_slices().max(1) as f64;
    m.units
        .push(Unit::new("l2", l2_core * n_mp / n_sl, 0, Some(1), 1));
    m
}

/// Cycles from an instruction's issue to the earliest issue of a dependent one, beyond the
/// unit's latency: the operand read (`rf.latency`) and the dispatch from the collector (1).
pub fn issue_overhead_cycles(cfg: &GpuConfig) -> u64 {
    1 + cfg.rf.latency.max(1) as u64
}

/// The provenance every record of this source carries.
pub fn provenance(cfg: &GpuConfig) -> Provenance {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    Provenance {
        source: SOURCE_NAME.to_string(),
        method: "functional run of the emulator's instruction stream (CTA i on SM i mod n_sm, \
                 CTAs in order, warps round-robin) for the counts; analytical-model §2.2 \
                 N_slot, §2.3 fu(c) with per-CTA dependence-critical-path P1, §2.4 waves, §6 \
                 busy fractions and idle intervals for the timing"
            .to_string(),
        analytical: s(&[
            "cycles",
            "sms.active_cycles",
            "sms.resident_warp_cycles",
            "sms.allocated_reg_cycles",
            "occupancy",
            "sms.sched.active_cycles",
            "sms.sched.issued (every issue counted as single)",
            "sms.exec.busy (busy = ops x interval; idle split per §6 idle interval)",
            "sms.bar.wait_cycles",
            "sms.opcoll.occupied_cycles",
            "dram.cycles",
        ]),
        functional: s(&[
            "warp_insts",
            "thread_insts",
            "by_family",
            "sms.warp_insts",
            "sms.thread_insts",
            "sms.ctas",
            "sms.exec.ops",
            "sms.rf (reads, writes, lanes, predicate accesses)",
            "sms.opcoll (allocs, operands, dispatches)",
            "sms.decoder_insts, sms.ibuffer (oracle front end: one per issued instruction)",
            "sms.icache (one lookup per fetch group of min(fetch_width, ibuffer_entries))",
            "sms.scoreboard.writes",
            "sms.simt",
            "sms.bar.arrivals, sms.bar.releases",
            "sms.l1d, sms.smem, sms.const_cache, sms.ldst (no request in flight)",
            "l2, dram bursts/activates/row hits, icnt (requests in the order above, idle memory system)",
        ]),
        absent: s(&[
            "stalls and sms.sched.stall (0)",
            "sms.sched.warp_evals (lower bound: one per issue)",
            "sms.scoreboard.reads (lower bound: one per issue)",
            "sms.l1d hit_reserved and res_fail, sms.ldst.stall_cycles (0: no request in flight)",
            "sms.rf.conflict_rr, sms.rf.conflict_wr (0)",
            "sms.exec.lane_idle (0)",
            "sms.ibuffer.flushes, wrong-path fetches (0)",
        ]),
        assumptions: vec![
            format!(
                "issue overhead {} cycles per dependent link (1 + rf.latency)",
                issue_overhead_cycles(cfg)
            ),
            "memory latency: the unloaded latency of the level that served the access; \
             queueing only through the dram and l2 bandwidth shares"
                .to_string(),
            "waves do not overlap; a wave lasts its slowest CTA's P1 times fu(c)".to_string(),
            "register-file and collector demand use the SP class's operand path".to_string(),
        ],
    }
}

/// A [`Gpu`] that runs every launch functionally and builds its activity with the analytical
/// model (see the module documentation). Launches not selected by `sim.kernels` run
/// functionally only, as on [`sim::timing::TimingGpu`].
pub struct ModelGpu {
    cfg: GpuConfig,
    emu: Emulator,
    activity: Activity,
    l2: Option<funcmem::L2State>,
    model: SchedModel,
    template: SmActivity,
    rf: MonolithicRf,
}

impl ModelGpu {
    /// A GPU of configuration `cfg`; refuses a configuration the model cannot represent
    /// ([`check_representable`]).
    pub fn new(cfg: &GpuConfig) -> Result<ModelGpu, SimError> {
        check_representable(cfg).map_err(SimError::Other)?;
        let mut emu = Emulator::new();
        emu.configure(cfg);
        let mut activity = Activity::new(&cfg.gpu.name, &cfg.hash_hex());
        activity.provenance = Some(provenance(cfg));
        Ok(ModelGpu {
            template: funcmem::sm_activity_template(cfg)?,
            rf: MonolithicRf::new(cfg),
            model: model_of(cfg),
            cfg: cfg.clone(),
            emu,
            activity,
            l2: None,
        })
    }

    /// Everything modelled so far.
    pub fn activity(&self) -> &Activity {
        &self.activity
    }

    /// Consumes the GPU and returns the record.
    pub fn into_activity(self) -> Activity {
        self.activity
    }
}

impl Gpu for ModelGpu {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.emu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        funcmem::copy_between_launches(&self.cfg, &mut self.l2, dst, data.len() as u64);
        self.emu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.emu.copy_from_device(src, out)
    }
    fn set_stack_limit(&mut self, bytes: u32) -> Result<(), SimError> {
        self.emu.set_stack_limit(bytes)
    }
    fn create_texture(&mut self, desc: &sim::texture::TextureDesc) -> Result<u64, SimError> {
        self.emu.create_texture(desc)
    }
    fn launch(&mut self, l: &Launch) -> Result<(), SimError> {
        let kernels = &self.cfg.sim.kernels;
        if !kernels.is_empty() && !kernels.iter().any(|k| *k == l.kernel.name) {
            return self.emu.launch(l);
        }
        let index = self.activity.aggregate.launches;
        let k = launch::model_launch(self, l, index)?;
        self.activity.add_launch(k);
        Ok(())
    }
}

/// Runs workload `w` at `size` on the analytical source of `cfg` and returns its record.
pub fn run_workload(cfg: &GpuConfig, w: &dyn Workload, size: Size) -> Result<Activity, SimError> {
    let mut gpu = ModelGpu::new(cfg)?;
    w.run(size, &mut gpu, false)?;
    Ok(gpu.into_activity())
}
