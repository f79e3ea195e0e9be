//! The cycle-level timing model (spec simulator.md §2).
//!
//! [`simulate_stream`] runs one kernel launch given as any [`KernelStream`] (the PTX emulator's
//! execution-driven stream or a trace reader) and returns its [`KernelActivity`]. [`TimingGpu`]
//! is a [`Gpu`] that keeps memory in an inner functional emulator and simulates every launch
//! with timing, so host programs (workloads) run unchanged.
//!
//! Structure: `sm` (warp state, issue, operand collectors, execution, writeback), `smmem`
//! (fetch and the LD/ST unit with L1D/constant/shared memory), `memsys` (crossbars, L2, DRAM),
//! `cache` (tag arrays), `ldst` (coalescing, bank conflicts), `exec` (latency classes), `cta`
//! (occupancy), `policy` (extension-point traits with their baseline implementations).

mod cache;
mod cta;
mod divisor;
mod engine;
mod exec;
mod execunits;
mod frontend;
mod issueunit;
mod ldst;
mod ldstunit;
mod memsys;
mod opcoll;
pub mod policy;
mod sm;
pub mod synth;
pub mod tinst;
mod warps;
mod warpset;

pub use cta::{occupancy, OccupancyLimit};
pub use engine::{
    simulate_launch, simulate_stream, simulate_stream_traced, simulate_stream_with, Progress,
};
pub use exec::{classify, classify_op, op_name, ExecClass, PipeClass};
pub use issueunit::IssueEvent;
pub use ldst::{coalesce, smem_degree, Segments};
pub use policy::{
    GatingPolicy, Hazard, InOrderScoreboard, IssueStage, MonolithicRf, NoGating, RegisterFileOrg,
    UnitState, WarpScheduler, WarpView,
};

use crate::activity::Activity;
use crate::config::GpuConfig;
use crate::emu::Emulator;
use crate::stream::{DevPtr, Gpu};
use crate::{Launch, SimError};

/// A GPU that runs every launch through the timing model. Memory lives in an inner functional
/// [`Emulator`]; each launch's instruction stream comes from it, so results are functionally
/// identical to the emulator's, and the timing model decides only the order and the cycles.
pub struct TimingGpu {
    cfg: GpuConfig,
    emu: Emulator,
    activity: Activity,
    progress: Option<Box<dyn FnMut(u64, u64) + Send>>,
    /// The last launch hit a simulation limit.
    last_truncated: bool,
}

impl TimingGpu {
    pub fn new(cfg: GpuConfig) -> Self {
        let activity = Activity::new(&cfg.gpu.name, &cfg.hash_hex());
        TimingGpu {
            cfg,
            emu: Emulator::new(),
            activity,
            progress: None,
            last_truncated: false,
        }
    }

    /// Calls `f(cycles_so_far_in_launch, warp_insts_so_far_in_launch)` every few thousand
    /// simulated cycles (for progress indicators).
    pub fn set_progress(&mut self, f: Box<dyn FnMut(u64, u64) + Send>) {
        self.progress = Some(f);
    }

    pub fn config(&self) -> &GpuConfig {
        &self.cfg
    }

    /// Everything simulated so far.
    pub fn activity(&self) -> &Activity {
        &self.activity
    }

    /// Consumes the GPU and returns the record.
    pub fn into_activity(self) -> Activity {
        self.activity
    }

    /// The inner functional emulator.
    pub fn emulator(&self) -> &Emulator {
        &self.emu
    }
}

impl Gpu for TimingGpu {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.emu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.emu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.emu.copy_from_device(src, out)
    }
    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        let kernels = &self.cfg.sim.kernels;
        self.last_truncated = false;
        if !kernels.is_empty() && !kernels.iter().any(|k| *k == launch.kernel.name) {
            // not selected for timing: run functionally only
            return self.emu.launch(launch);
        }
        let mut stream = self.emu.stream(launch)?;
        let index = self.activity.aggregate.launches;
        let k = match self.progress.as_mut() {
            Some(f) => simulate_launch(
                &self.cfg,
                stream.as_mut(),
                index,
                Some(&mut Progress(f.as_mut())),
            )?,
            None => simulate_launch(&self.cfg, stream.as_mut(), index, None)?,
        };
        drop(stream);
        self.last_truncated = k.truncated;
        self.activity.add_launch(k);
        Ok(())
    }
    fn last_launch_truncated(&self) -> bool {
        self.last_truncated
    }
}
