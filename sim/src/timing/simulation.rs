//! The way callers run the timing model: a [`Simulation`] builder that takes a configuration,
//! the named policies to install and a progress callback, and runs a [`Source`]: one kernel
//! stream ([`Stream`], or [`Traced`] with the issue log), a host program on a [`TimingGpu`]
//! ([`Program`]), or an Accel-Sim trace folder ([`crate::trace::TraceFolder`]).
//!
//! ```no_run
//! # use sim::timing::{Simulation, PolicyRegistry, Program};
//! # fn f(cfg: &sim::config::GpuConfig, reg: &PolicyRegistry) -> Result<(), sim::SimError> {
//! let w = sim::workloads::find("srad").unwrap();
//! let (report, activity) = Simulation::new(cfg)
//!     .registry(reg)
//!     .scheduler("gto")
//!     .run(Program(|gpu: &mut sim::timing::TimingGpu| w.run(sim::workloads::Size::Test, gpu, false)))?;
//! # Ok(()) }
//! ```

use super::engine::{launch_gap, run_launch};
use super::issueunit::IssueEvent;
use super::memsys::{L2State, MemSys};
use super::registry::{PolicyRegistry, ResolvedPolicies, Selection};
use crate::activity::{Activity, KernelActivity};
use crate::config::GpuConfig;
use crate::emu::Emulator;
use crate::sample::{Decision, SampleSettings, Sampler, SignatureCounter};
use crate::stream::{DevPtr, Gpu, KernelStream};
use crate::{Launch, SimError};

/// A configured run of the timing model (see the module documentation).
pub struct Simulation<'a> {
    cfg: GpuConfig,
    registry: PolicyRegistry,
    scheduler: Option<String>,
    selection: Selection,
    progress: Option<Box<dyn FnMut(u64, u64) + Send + 'a>>,
    launch_index: u64,
    /// L2 contents carried from one launch of this simulation to the next.
    l2: Option<L2State>,
}

impl<'a> Simulation<'a> {
    /// A simulation of `cfg` with the built-in policies the configuration names.
    pub fn new(cfg: &GpuConfig) -> Self {
        Simulation {
            cfg: cfg.clone(),
            registry: PolicyRegistry::new(),
            scheduler: None,
            selection: Selection::default(),
            progress: None,
            launch_index: 0,
            l2: None,
        }
    }

    /// Resolves policy names through `registry` (built-in names always resolve).
    pub fn registry(mut self, registry: &PolicyRegistry) -> Self {
        self.registry = registry.clone();
        self
    }

    /// The warp scheduler, overriding the configuration's `sched.policy`: a built-in name
    /// (lrr, gto, oldest, youngest, fetch_group, two_level), `plugin:NAME` or the bare name of a
    /// registered scheduler.
    pub fn scheduler(mut self, name: &str) -> Self {
        self.scheduler = Some(name.to_string());
        self
    }

    /// The issue stage (hazard check): "in_order" (built-in) or a registered name.
    pub fn issue_stage(mut self, name: &str) -> Self {
        self.selection.issue_stage = Some(name.to_string());
        self
    }

    /// The register-file organisation: "monolithic" (built-in) or a registered name.
    pub fn register_file(mut self, name: &str) -> Self {
        self.selection.register_file = Some(name.to_string());
        self
    }

    /// The unit gating policy: "none" (built-in) or a registered name.
    pub fn gating(mut self, name: &str) -> Self {
        self.selection.gating = Some(name.to_string());
        self
    }

    /// The reconvergence mechanism of emulated warps: "pdom" (built-in) or a registered name.
    /// It applies to [`Program`] sources, whose instruction streams the emulator produces; a
    /// kernel stream or a trace carries its control flow already, and running one with
    /// another mechanism is an error.
    pub fn reconvergence(mut self, name: &str) -> Self {
        self.selection.reconvergence = Some(name.to_string());
        self
    }

    /// Calls `f(cycles_so_far_in_launch, warp_insts_so_far_in_launch)` every few thousand
    /// simulated cycles (for progress indicators).
    pub fn progress(mut self, f: impl FnMut(u64, u64) + Send + 'a) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    /// Simulates the stream as launch number `index` (0-based) of a program: launches after the
    /// first start with `gpu.kernel_launch_latency` idle cycles (spec §2.9).
    pub fn launch_index(mut self, index: u64) -> Self {
        self.launch_index = index;
        self
    }

    /// Runs `source`.
    pub fn run<S: Source<'a>>(self, source: S) -> Result<S::Output, SimError> {
        source.simulate(self)
    }

    /// The configuration with the scheduler override applied, and the resolved policies.
    pub(crate) fn resolve(&mut self) -> Result<ResolvedPolicies, SimError> {
        pdom_only(&self.cfg)?;
        if let Some(n) = &self.scheduler {
            self.cfg.sched.policy = self.registry.scheduler_policy(n)?;
        }
        self.registry.resolve(&self.cfg, &self.selection)
    }

    /// The configuration the simulation runs (after [`Simulation::resolve`], with the
    /// scheduler override).
    pub(crate) fn config(&self) -> &GpuConfig {
        &self.cfg
    }

    /// Resolves the policies of a source whose control flow is fixed (a stream or a trace):
    /// a reconvergence mechanism other than the built-in one is an error.
    pub(crate) fn resolve_fixed_flow(&mut self, what: &str) -> Result<ResolvedPolicies, SimError> {
        let mode = self.cfg.reconv.mode;
        if mode != crate::config::reconv::ReconvMode::Pdom {
            return Err(SimError::Other(format!(
                "'reconv.mode' = \"{}\": {what} carries warp-level control flow (per-instruction \
                 active masks), and DWF, MIMD and NREC regroup threads, which needs per-thread \
                 control flow (control-flow spec §1); only \"pdom\" is allowed",
                mode.as_str()
            )));
        }
        let p = self.resolve()?;
        if p.reconvergence.is_some() {
            return Err(SimError::Other(format!(
                "reconvergence '{}': {what} carries its control flow already; a reconvergence \
                 mechanism applies to programs run on the emulator",
                self.selection.reconvergence.as_deref().unwrap_or_default()
            )));
        }
        Ok(p)
    }

    /// A host-to-device copy of `bytes` bytes to `addr` between launches: with
    /// `mem.memcpy_fills_l2` it leaves the copied sectors in the L2 for the next launch.
    pub(crate) fn memcpy_h2d(&mut self, addr: u64, bytes: u64) {
        MemSys::copy_between_launches(&self.cfg, &mut self.l2, addr, bytes);
    }

    /// Simulates one launch of `stream` as launch number `index`.
    pub(crate) fn launch(
        &mut self,
        policies: &ResolvedPolicies,
        stream: &mut dyn KernelStream,
        index: u64,
        trace: Option<&mut Vec<IssueEvent>>,
    ) -> Result<KernelActivity, SimError> {
        let progress = self
            .progress
            .as_mut()
            .map(|f| f.as_mut() as &mut (dyn FnMut(u64, u64) + Send));
        let gap = launch_gap(&self.cfg, index);
        run_launch(
            &self.cfg,
            policies,
            stream,
            progress,
            trace,
            gap,
            &mut self.l2,
        )
    }
}

impl Simulation<'static> {
    /// A [`TimingGpu`] with this simulation's configuration, policies and progress callback,
    /// for host programs that launch kernels themselves.
    pub fn gpu(mut self) -> Result<TimingGpu, SimError> {
        let policies = self.resolve()?;
        let mut gpu = TimingGpu::new(self.cfg);
        gpu.emu.reconvergence = policies.reconvergence.clone();
        gpu.registry = self.registry;
        gpu.selection = self.selection;
        gpu.progress = self.progress;
        Ok(gpu)
    }
}

/// What a [`Simulation`] can run.
pub trait Source<'a> {
    /// What the run returns.
    type Output;
    /// Runs the source under `sim`.
    fn simulate(self, sim: Simulation<'a>) -> Result<Self::Output, SimError>;
}

/// One kernel launch given as a stream (the emulator's or a trace reader's); returns its
/// activity.
pub struct Stream<'s>(pub &'s mut dyn KernelStream);

impl<'a> Source<'a> for Stream<'_> {
    type Output = KernelActivity;
    fn simulate(self, mut sim: Simulation<'a>) -> Result<KernelActivity, SimError> {
        let p = sim.resolve_fixed_flow("a kernel stream")?;
        let index = sim.launch_index;
        sim.launch(&p, self.0, index, None)
    }
}

/// As [`Stream`], also returning every issue as (cycle, sm, warp slot, pc), ordered by cycle,
/// then SM, then issue order.
pub struct Traced<'s>(pub &'s mut dyn KernelStream);

impl<'a> Source<'a> for Traced<'_> {
    type Output = (KernelActivity, Vec<IssueEvent>);
    fn simulate(self, mut sim: Simulation<'a>) -> Result<Self::Output, SimError> {
        let p = sim.resolve_fixed_flow("a kernel stream")?;
        let index = sim.launch_index;
        let mut log = Vec::new();
        let k = sim.launch(&p, self.0, index, Some(&mut log))?;
        log.sort_by_key(|e| (e.cycle, e.sm));
        Ok((k, log))
    }
}

/// A host program: `f` runs on a [`TimingGpu`] built from the simulation, which simulates every
/// launch it makes. Returns `f`'s result and everything simulated.
pub struct Program<F>(pub F);

impl<F, R> Source<'static> for Program<F>
where
    F: FnOnce(&mut TimingGpu) -> R,
{
    type Output = (R, Activity);
    fn simulate(self, sim: Simulation<'static>) -> Result<Self::Output, SimError> {
        let mut gpu = sim.gpu()?;
        let r = (self.0)(&mut gpu);
        Ok((r, gpu.into_activity()))
    }
}

/// A GPU that runs every launch through the timing model. Memory lives in an inner functional
/// [`Emulator`]; each launch's instruction stream comes from it, so results are functionally
/// identical to the emulator's, and the timing model decides only the order and the cycles.
/// [`Simulation::gpu`] builds one with chosen policies; [`TimingGpu::new`] uses the built-in
/// policies the configuration names.
pub struct TimingGpu {
    cfg: GpuConfig,
    emu: Emulator,
    activity: Activity,
    progress: Option<Box<dyn FnMut(u64, u64) + Send>>,
    registry: PolicyRegistry,
    selection: Selection,
    /// The last launch hit a simulation limit.
    last_truncated: bool,
    /// L2 contents carried from one launch to the next.
    l2: Option<L2State>,
    /// Kernel sampling, when on ([`TimingGpu::set_sampling`]).
    sampler: Option<Sampler>,
}

/// The cycle-level pipeline runs the PDOM stack only: a configuration with another
/// `reconv.mode` is refused (it runs on the reference-mode model), never run as PDOM under
/// the other mode's name.
fn pdom_only(cfg: &GpuConfig) -> Result<(), SimError> {
    let mode = cfg.reconv.mode;
    if mode != crate::config::reconv::ReconvMode::Pdom {
        return Err(SimError::Other(format!(
            "'reconv.mode' = \"{}\" runs on the reference-mode model \
             (sim::timing::dwf::refmodel; `gpuenergy simulate --workload NAME`), not on the \
             cycle-level pipeline; allowed here: \"pdom\"",
            mode.as_str()
        )));
    }
    Ok(())
}

impl TimingGpu {
    /// A GPU of configuration `cfg` with an empty record, a fresh emulator and the built-in
    /// policies only.
    pub fn new(cfg: GpuConfig) -> Self {
        let activity = Activity::new(&cfg.gpu.name, &cfg.hash_hex());
        let mut emu = Emulator::new();
        emu.configure(&cfg);
        emu.coop_check = Some(super::cooperative_check(&cfg));
        TimingGpu {
            cfg,
            emu,
            activity,
            progress: None,
            registry: PolicyRegistry::new(),
            selection: Selection::default(),
            last_truncated: false,
            l2: None,
            sampler: None,
        }
    }

    /// Samples the launches from now on ([`crate::sample`]): each launch is executed
    /// functionally, clustered by its signature, and timed or extrapolated. The record then
    /// carries [`Activity::sample`] and a provenance naming the extrapolated counters.
    pub fn set_sampling(&mut self, settings: SampleSettings) {
        self.sampler = Some(Sampler::new(settings));
    }

    /// Calls `f(cycles_so_far_in_launch, warp_insts_so_far_in_launch)` every few thousand
    /// simulated cycles (for progress indicators).
    pub fn set_progress(&mut self, f: Box<dyn FnMut(u64, u64) + Send>) {
        self.progress = Some(f);
    }

    /// The resolved configuration it simulates.
    pub fn config(&self) -> &GpuConfig {
        &self.cfg
    }

    /// Everything simulated so far. Under sampling, the extrapolated launches have their
    /// cycles and exact counts here, their other counters only in [`TimingGpu::into_activity`].
    pub fn activity(&self) -> &Activity {
        &self.activity
    }

    /// Consumes the GPU and returns the record (with the sampling summary of a sampled run).
    pub fn into_activity(mut self) -> Activity {
        if let Some(s) = self.sampler.as_ref() {
            s.finish(&mut self.activity);
            self.activity.provenance = Some(crate::sample::provenance());
        }
        self.activity
    }

    /// One launch under sampling: the functional pass under a checkpoint measures its
    /// signature; a timed launch is rolled back and run through the timing model, an
    /// extrapolated one keeps the functional results (module `sample`).
    fn launch_sampled(&mut self, launch: &Launch) -> Result<(), SimError> {
        let cp = self.emu.checkpoint();
        let mut counter = SignatureCounter::new(launch);
        if self.emu.launch_observed(launch, &mut counter).is_err() {
            // the timed run reports the failure as a full simulation does
            self.emu.rollback(cp);
            return self
                .launch_timed(launch)
                .map(|k| self.activity.add_launch(k));
        }
        let sig = counter.finish();
        let gap = launch_gap(&self.cfg, self.activity.aggregate.launches);
        let sampler = self.sampler.as_mut().expect("sampling is on");
        match sampler.decide(&sig) {
            Decision::Time(c) => {
                self.emu.rollback(cp);
                let k = self.launch_timed(launch)?;
                if let Some(s) = self.sampler.as_mut() {
                    s.timed(c, &k, gap);
                }
                self.activity.add_launch(k);
            }
            Decision::Extrapolate(c) => {
                self.emu.commit();
                let k = sampler.extrapolate(c, &sig, gap);
                self.last_truncated = k.truncated;
                self.activity.add_launch(k);
            }
        }
        Ok(())
    }

    /// Runs `launch` through the timing model and returns its record.
    fn launch_timed(&mut self, launch: &Launch) -> Result<KernelActivity, SimError> {
        pdom_only(&self.cfg)?;
        let policies = self.registry.resolve(&self.cfg, &self.selection)?;
        // this launch's stack counters, kept apart from the emulator's running total
        let stack_before = std::mem::take(&mut self.emu.stack_stats);
        let mut stream = self.emu.stream(launch)?;
        let index = self.activity.aggregate.launches;
        let gap = launch_gap(&self.cfg, index);
        let progress = self
            .progress
            .as_mut()
            .map(|f| f.as_mut() as &mut (dyn FnMut(u64, u64) + Send));
        let k = run_launch(
            &self.cfg,
            &policies,
            stream.as_mut(),
            progress,
            None,
            gap,
            &mut self.l2,
        )?;
        drop(stream);
        let mut k = k;
        let st = std::mem::replace(&mut self.emu.stack_stats, stack_before);
        self.emu.stack_stats.merge(&st);
        if let Some(r) = k.reconv.as_mut() {
            r.stack_from_front_end = true;
            r.stack = crate::activity::StackCounters {
                pushes: st.pushes,
                pops: st.pops,
                divergent_branches: st.divergent_branches,
                reconvergence_pops: st.reconvergence_pops,
                cascade_pops: st.cascade_pops,
                max_depth: st.max_depth,
            };
        }
        self.last_truncated = k.truncated;
        Ok(k)
    }

    /// The inner functional emulator.
    pub fn emulator(&self) -> &Emulator {
        &self.emu
    }

    /// The launch-time checks of [`Gpu::launch`] without running the kernel: the emulator's
    /// launch preparation (CTA and grid size, `.maxntid`/`.reqntid`, parameters, shared memory
    /// per CTA) and the occupancy check (a CTA must fit on an SM). `Ok` holds the occupancy
    /// limit the launch would run with. The check runs on a scratch emulator with this GPU's
    /// launch settings, so device memory and counters are untouched.
    pub fn check_launch(&self, launch: &Launch) -> Result<super::OccupancyLimit, SimError> {
        let mut scratch = Emulator::new();
        scratch.coop_check = Some(super::cooperative_check(&self.cfg));
        scratch.warp_slots = self.emu.warp_slots;
        scratch.max_shared_per_cta = self.emu.max_shared_per_cta;
        scratch.stack_limit_bytes = self.emu.stack_limit_bytes;
        let p = crate::emu::launch::prepare(&mut scratch, launch)?;
        super::occupancy(&self.cfg, &p.info)
    }
}

impl Gpu for TimingGpu {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.emu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        MemSys::copy_between_launches(&self.cfg, &mut self.l2, dst, data.len() as u64);
        self.emu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.emu.copy_from_device(src, out)
    }
    fn set_stack_limit(&mut self, bytes: u32) -> Result<(), SimError> {
        self.emu.set_stack_limit(bytes)
    }
    fn create_texture(&mut self, desc: &crate::texture::TextureDesc) -> Result<u64, SimError> {
        self.emu.create_texture(desc)
    }
    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        let kernels = &self.cfg.sim.kernels;
        self.last_truncated = false;
        if !kernels.is_empty() && !kernels.iter().any(|k| *k == launch.kernel.name) {
            // not selected for timing: run functionally only
            return self.emu.launch(launch);
        }
        if self.sampler.is_some() {
            return self.launch_sampled(launch);
        }
        let k = self.launch_timed(launch)?;
        self.activity.add_launch(k);
        Ok(())
    }
    fn last_launch_truncated(&self) -> bool {
        self.last_truncated
    }
}
