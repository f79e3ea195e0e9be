//! The SM's policy slots: the enums through which the pipeline calls a policy, with the built-in
//! implementations as variants (called directly, so that their calls inline) and any other
//! through the trait object an `Other` variant holds, and the constructor of the configured
//! warp scheduler. They name the implementations that live outside `policy/` (the out-of-order
//! issue stages of `ooo/`, the partitioned register file of `rf/`, TRIC's power-state
//! layer of `warpedrf.rs`, the power-gating
//! controllers and GATES of `gating/`, the Origami scheduler of `fold/`), so they sit here
//! rather than beside the traits, which name none.

use super::fold::OrigamiScheduler;
use super::gating::{Gates, PgGating};
use super::memsys::MemSys;
use super::ooo::host::{IssueHost, StageStep};
use super::ooo::OooStage;
use super::perclass::PerPipe;
use super::policy::{
    ByAge, FetchGroup, GatingPolicy, Gto, InOrderScoreboard, IssueStage, Lrr, MonolithicRf,
    NoGating, RegisterFileOrg, RfRoute, TwoLevel, UnitState, WarpScheduler,
};
use super::rf::PrfOrg;
use super::tinst::TInst;
use super::warpedrf::TricRf;
use crate::config::{GpuConfig, SchedPolicy};
use crate::stream::KernelStream;
use crate::SimError;

/// The SM's issue stage: the built-in stages called directly (the scoreboard's checks run
/// several times per instruction, and a direct call lets them inline), any other through its
/// trait. The SM enters the pipeline steps a built-in stage takes over ([`StageStep`]) through
/// this slot too (`sm/stage.rs`): one match per step, no trait object.
pub(crate) enum IssueStageSlot {
    /// The built-in in-order scoreboard ([`InOrderScoreboard`]; `sched.ooo.mode = "none"`).
    InOrder(InOrderScoreboard),
    /// A built-in out-of-order stage ([`OooStage`], `sched.ooo.mode` other than "none"), which
    /// takes over pipeline steps of its own ([`StageStep`]).
    Ooo(OooStage),
    /// A plugin issue stage (a scoreboard in the in-order pipeline).
    Other(Box<dyn IssueStage>),
}

impl IssueStageSlot {
    /// The built-in issue stage `sched.ooo.mode` selects for SM `sm` of `cfg`.
    pub fn builtin(cfg: &GpuConfig, sm: u32) -> Self {
        match OooStage::builtin(cfg, sm) {
            Some(o) => Self::Ooo(o),
            None => Self::InOrder(InOrderScoreboard::new(cfg.sched.war_scoreboard)),
        }
    }

    /// Does the stage in the slot take over pipeline step `step`? The in-order stages (and a
    /// plug-in, a scoreboard in the in-order pipeline) take over none.
    #[inline]
    pub fn takes_over(&self, step: StageStep) -> bool {
        match self {
            Self::Ooo(o) => o.takes_over(step),
            Self::InOrder(_) | Self::Other(_) => false,
        }
    }

    /// The stage's issue step of cycle `t` on SM `h` (`cfg_issue`: instructions per scheduler
    /// and per warp, and whether a warp's second instruction must go to another unit;
    /// `id_oc`: issue ports per pipe class); nothing for a stage that does not take it over.
    #[inline]
    pub fn issue<H: IssueHost>(
        &mut self,
        h: &mut H,
        t: u64,
        cfg_issue: (u32, u32, bool),
        id_oc: &PerPipe<u32>,
    ) {
        if let Self::Ooo(o) = self {
            o.issue(h, t, cfg_issue, id_oc);
        }
    }

    /// The stage's fetch and decode of cycle `t` on SM `h` (memory-side time `t_fs`): up to
    /// `throughput` warps, `width` instructions each; nothing for a stage that does not take
    /// it over.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn fetch<H: IssueHost>(
        &mut self,
        h: &mut H,
        t: u64,
        t_fs: u64,
        width: u32,
        throughput: u32,
        stream: &mut dyn KernelStream,
        mem: &mut MemSys,
    ) -> Result<(), SimError> {
        match self {
            Self::Ooo(o) => o.fetch(h, t, t_fs, width, throughput, stream, mem),
            _ => Ok(()),
        }
    }

    /// The stage's dispatch of cycle `t` on SM `h`; nothing for a stage that does not take it
    /// over.
    #[inline]
    pub fn dispatch<H: IssueHost>(&mut self, h: &mut H, t: u64) {
        if let Self::Ooo(o) = self {
            o.dispatch(h, t);
        }
    }

    /// The stage's register-file reads of cycle `t` on SM `h`; nothing for a stage that does
    /// not take them over.
    #[inline]
    pub fn rf_read<H: IssueHost>(&mut self, h: &mut H, t: u64) {
        if let Self::Ooo(o) = self {
            o.rf_read(h, t);
        }
    }

    /// Start of the writeback stage of cycle `t`: the stage's own frees and broadcasts. True
    /// when the stage changed something or holds work.
    #[inline]
    pub fn begin_writeback(&mut self, t: u64) -> bool {
        match self {
            Self::Ooo(o) => o.begin_writeback(t),
            _ => false,
        }
    }

    /// Is the register-file write of register `r` by the result tagged `tag` of warp `w` made?
    /// Always, except where the stage renamed the register to a younger writer.
    #[inline]
    pub fn rf_write_kept(&self, w: usize, r: u16, tag: u16) -> bool {
        match self {
            Self::Ooo(o) => o.rf_write_kept(w, r, tag),
            _ => true,
        }
    }

    /// The result tagged `tag` of warp `w` has been written at cycle `now`: a stage with its
    /// own dependence tracking lets its consumers go and answers true; false for a
    /// scoreboard, whose destinations the SM releases.
    #[inline]
    pub fn result_written(&mut self, w: usize, tag: u16, now: u64) -> bool {
        match self {
            Self::Ooo(o) => o.result_written(w, tag, now),
            Self::InOrder(_) | Self::Other(_) => false,
        }
    }

    /// The stage's own next event on SM `h` after cycle `t`, if earlier than `ev`.
    pub fn next_event<H: IssueHost>(&self, h: &H, t: u64, ev: u64) -> u64 {
        match self {
            Self::Ooo(o) => o.next_event(h, t, ev),
            _ => ev,
        }
    }
}

/// Calls the same method on whichever variant the issue-stage slot holds.
macro_rules! slot_call {
    ($self:expr, $s:ident => $e:expr) => {
        match $self {
            Self::InOrder($s) => $e,
            Self::Ooo($s) => $e,
            Self::Other($s) => $e,
        }
    };
}

crate::timing::policy::forward_issue_stage!(IssueStageSlot, slot_call);

/// The SM's register-file organisation: the built-in monolithic file called directly (its bank
/// mapping runs for every operand), the built-in partitioned RF / MRF baselines / RF cache
/// ([`crate::timing::rf::PrfOrg`], chosen by `[prf]`, `[afrf]`, `[mrf]`, `[rfc]`), or any other
/// through its trait.
pub enum RegisterFileSlot {
    /// The built-in monolithic banked register file ([`MonolithicRf`]).
    Monolithic(MonolithicRf),
    /// The partitioned RF (FRF + SRF, adaptive FRF), an MRF baseline with its own latency, or
    /// the RF cache in front of the MRF.
    Partitioned(Box<PrfOrg>),
    /// A plugin register-file organisation.
    Other(Box<dyn RegisterFileOrg>),
    /// TRIC (`tric.enabled`, register-file spec §3): the tri-modal power state of every entry
    /// over the organisation it holds.
    Tric(Box<TricRf<RegisterFileSlot>>),
}

impl RegisterFileSlot {
    /// This organisation with the power-state layer `cfg` asks for over it (TRIC), or as it is.
    pub fn layered(self, cfg: &GpuConfig) -> RegisterFileSlot {
        if TricRf::<RegisterFileSlot>::wanted(cfg) {
            RegisterFileSlot::Tric(Box::new(TricRf::new(cfg, self)))
        } else {
            self
        }
    }
}

/// Calls the same method on whichever variant the register-file slot holds.
macro_rules! rf_call {
    ($self:expr, $r:ident => $e:expr) => {
        match $self {
            Self::Monolithic($r) => $e,
            Self::Partitioned($r) => $e,
            Self::Other($r) => $e,
            Self::Tric($r) => $e,
        }
    };
}

impl RegisterFileOrg for RegisterFileSlot {
    #[inline]
    fn bank(&self, w: u32, sched: u32, reg: u16) -> u32 {
        rf_call!(self, r => r.bank(w, sched, reg))
    }
    #[inline]
    fn route(&mut self, w: u32, reg: u16, write: bool, t: u64) -> RfRoute {
        rf_call!(self, r => r.route(w, reg, write, t))
    }
    fn on_kernel_launch(&mut self, regs_per_thread: u32, t: u64) {
        rf_call!(self, r => r.on_kernel_launch(regs_per_thread, t))
    }
    fn on_kernel_start(
        &mut self,
        regs_per_thread: u32,
        warps_per_cta: u32,
        t: u64,
    ) -> Result<(), String> {
        rf_call!(self, r => r.on_kernel_start(regs_per_thread, warps_per_cta, t))
    }
    fn on_warp_launch(&mut self, w: u32, t: u64) {
        rf_call!(self, r => r.on_warp_launch(w, t))
    }
    fn on_warp_exit(&mut self, w: u32, t: u64) {
        rf_call!(self, r => r.on_warp_exit(w, t))
    }
    #[inline]
    fn on_issue(&mut self, w: u32, inst: &TInst, t: u64) {
        rf_call!(self, r => r.on_issue(w, inst, t))
    }
    #[inline]
    fn on_dispatch(&mut self, w: u32, t: u64) {
        rf_call!(self, r => r.on_dispatch(w, t))
    }
    fn wants_active_set(&self) -> bool {
        rf_call!(self, r => r.wants_active_set())
    }
    fn on_active_set(&mut self, w: u32, active: bool, t: u64) {
        rf_call!(self, r => r.on_active_set(w, active, t))
    }
    fn gates_entries(&self) -> bool {
        rf_call!(self, r => r.gates_entries())
    }
    fn lookahead(&self) -> u32 {
        rf_call!(self, r => r.lookahead())
    }
    fn on_kernel_residency(&mut self, regs_per_thread: u32, max_ctas: u32, wpc: u32, t: u64) {
        rf_call!(self, r => r.on_kernel_residency(regs_per_thread, max_ctas, wpc, t))
    }
    fn on_cta_launch(&mut self, first: usize, n: usize, t: u64) {
        rf_call!(self, r => r.on_cta_launch(first, n, t))
    }
    fn on_cta_exit(&mut self, first: usize, n: usize, t: u64) {
        rf_call!(self, r => r.on_cta_exit(first, n, t))
    }
    #[inline]
    fn on_collect(
        &mut self,
        w: usize,
        mask: u32,
        srcs: &[u16],
        dsts: &[u16],
        t: u64,
        not_before: &mut [u64; 5],
    ) {
        rf_call!(self, r => r.on_collect(w, mask, srcs, dsts, t, not_before))
    }
    #[inline]
    fn on_read(&mut self, w: usize, reg: u16, mask: u32, t: u64) {
        rf_call!(self, r => r.on_read(w, reg, mask, t))
    }
    #[inline]
    fn write_ready(&mut self, w: usize, reg: u16, mask: u32, t: u64) -> u64 {
        rf_call!(self, r => r.write_ready(w, reg, mask, t))
    }
    fn on_write_stalled(&mut self) {
        rf_call!(self, r => r.on_write_stalled())
    }
    #[inline]
    fn on_write(&mut self, w: usize, reg: u16, mask: u32, t: u64) {
        rf_call!(self, r => r.on_write(w, reg, mask, t))
    }
    #[inline]
    fn on_result_scheduled(&mut self, w: usize, reg: u16, at: u64) {
        rf_call!(self, r => r.on_result_scheduled(w, reg, at))
    }
    fn on_predictions(&mut self, t: u64) {
        rf_call!(self, r => r.on_predictions(t))
    }
    #[inline]
    fn on_predicted(&mut self, w: usize, reg: u16, mask: u32, t: u64) {
        rf_call!(self, r => r.on_predicted(w, reg, mask, t))
    }
    fn finish_record(&mut self, end: u64, rec: &mut crate::activity::RfStats) {
        rf_call!(self, r => r.finish_record(end, rec))
    }
}

/// The SM's gating policy: the built-in "no gating" called directly (its answers are constants
/// the SM reads once), the built-in power-gating controllers (`pg.policy` other than "None";
/// the SM drives them through their own interface, power-gating §1.2), or a plugin through its
/// trait.
pub enum GatingSlot {
    /// The built-in policy that never gates ([`NoGating`]).
    None(NoGating),
    /// The power-gating controller bank.
    Pg(Box<PgGating>),
    /// A plugin gating policy.
    Other(Box<dyn GatingPolicy>),
}

macro_rules! gate_call {
    ($self:expr, $g:ident => $e:expr) => {
        match $self {
            Self::None($g) => $e,
            Self::Pg($g) => $e,
            Self::Other($g) => $e,
        }
    };
}

impl GatingPolicy for GatingSlot {
    #[inline]
    fn available(&self, pipe: usize, cycle: u64) -> UnitState {
        gate_call!(self, g => g.available(pipe, cycle))
    }
    fn request_wake(&mut self, pipe: usize, cycle: u64) {
        gate_call!(self, g => g.request_wake(pipe, cycle))
    }
    fn needs_cycle_hook(&self) -> bool {
        gate_call!(self, g => g.needs_cycle_hook())
    }
    fn on_cycle(&mut self, pipe: usize, cycle: u64, busy: bool, accepted: bool) {
        gate_call!(self, g => g.on_cycle(pipe, cycle, busy, accepted))
    }
    fn time_invariant(&self) -> bool {
        gate_call!(self, g => g.time_invariant())
    }
    fn always_ready(&self) -> bool {
        gate_call!(self, g => g.always_ready())
    }
}

/// Builds the configured scheduler.
pub fn make_scheduler(cfg: &GpuConfig) -> Box<dyn WarpScheduler> {
    match &cfg.sched.policy {
        SchedPolicy::Lrr => Box::new(Lrr::default()),
        SchedPolicy::Gto => Box::new(Gto::default()),
        SchedPolicy::Oldest => Box::new(ByAge::new(false)),
        SchedPolicy::Youngest => Box::new(ByAge::new(true)),
        SchedPolicy::FetchGroup => Box::new(FetchGroup::new(cfg.sched.fetch_group_size as usize)),
        SchedPolicy::TwoLevel => Box::new(TwoLevel::new(
            cfg.sched.two_level.active_per_sched as usize,
            cfg.sched.two_level.inner,
        )),
        SchedPolicy::Gates => Box::new(Gates::new(
            cfg.sched.two_level.active_per_sched as usize,
            cfg.sched.two_level.inner,
            &cfg.sched.gates,
        )),
        SchedPolicy::Origami => Box::new(OrigamiScheduler::from_views(
            Box::new(Gates::new(
                cfg.sched.two_level.active_per_sched as usize,
                cfg.sched.two_level.inner,
                &cfg.sched.gates,
            )),
            &cfg.origami,
            cfg.fold.n_phase,
            cfg.gpu.warp_size,
        )),
        // Rejected by GpuConfig::validate; kept total for safety.
        SchedPolicy::Plugin(_) => Box::new(Gto::default()),
    }
}
