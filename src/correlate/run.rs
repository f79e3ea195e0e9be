//! The simulations a correlation makes: the configuration and input a row runs on, and the
//! cycles of each timed launch, recorded around the timing GPU without changing its run.

use serde::Serialize;
use sim::config::GpuConfig;
use sim::stream::{DevPtr, Gpu};
use sim::timing::{Program, Simulation, TimingGpu};
use sim::trace::gpu::TraceGpu;
use sim::trace::line::TraceForm;
use sim::trace::run::TraceFolder;
use sim::workloads::{Size, Workload};
use sim::{Launch, SimError};

/// A configuration that rows are simulated on, and the label the report gives it.
#[derive(Clone, Debug)]
pub struct Target {
    /// Preset name or configuration file, as the report shows it.
    pub label: String,
    /// The resolved configuration.
    pub config: GpuConfig,
    /// What the timing model reads.
    pub input: Input,
}

/// What the timing model reads for a workload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Input {
    /// The emulator's instruction stream (execution-driven, as `gpuenergy simulate --workload`).
    #[default]
    Ptx,
    /// The workload's Accel-Sim trace in the stock form, written to a temporary folder and read
    /// back (as `gpuenergy trace` then `gpuenergy simulate --trace`): the `[latency.trace]`
    /// and `[trace]` options apply. Only `kernel = all` rows.
    Trace,
}

/// The cycles of one simulated workload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LaunchCycles {
    /// Core cycles of each timed launch in launch order; launch `i > 0` includes the
    /// `gpu.kernel_launch_latency` idle cycles before its first CTA.
    pub launches: Vec<u64>,
    /// The aggregate cycles (the sum of `launches`), as `gpuenergy simulate` reports them.
    pub total: u64,
    /// Some launch stopped at a simulation limit (`sim.max_cycles`, `sim.max_warp_insts`).
    pub truncated: bool,
}

/// A [`Gpu`] that passes everything to a [`TimingGpu`] and notes the cycles each timed launch
/// adds to its record; the simulation itself is the timing GPU's, unchanged.
pub struct LaunchRecorder<'g> {
    gpu: &'g mut TimingGpu,
    launches: Vec<u64>,
    kernels: Vec<std::sync::Arc<sim::ptx::Kernel>>,
}

impl<'g> LaunchRecorder<'g> {
    /// A recorder in front of `gpu`, with no launch noted yet.
    pub fn new(gpu: &'g mut TimingGpu) -> Self {
        LaunchRecorder {
            gpu,
            launches: Vec::new(),
            kernels: Vec::new(),
        }
    }

    /// The cycles of each timed launch so far, in launch order (launch `i > 0` including its
    /// `gpu.kernel_launch_latency`).
    pub fn into_launches(self) -> Vec<u64> {
        self.launches
    }

    /// [`LaunchRecorder::into_launches`], and every kernel launched (timed or not) once, by
    /// name, in order of first launch.
    pub fn into_launches_and_kernels(self) -> (Vec<u64>, Vec<std::sync::Arc<sim::ptx::Kernel>>) {
        (self.launches, self.kernels)
    }
}

impl Gpu for LaunchRecorder<'_> {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.gpu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.gpu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.gpu.copy_from_device(src, out)
    }
    fn set_stack_limit(&mut self, bytes: u32) -> Result<(), SimError> {
        self.gpu.set_stack_limit(bytes)
    }
    fn create_texture(&mut self, desc: &sim::texture::TextureDesc) -> Result<u64, SimError> {
        self.gpu.create_texture(desc)
    }
    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        if !self.kernels.iter().any(|k| k.name == launch.kernel.name) {
            self.kernels.push(launch.kernel.clone());
        }
        let before = self.gpu.activity().aggregate.clone();
        self.gpu.launch(launch)?;
        let after = &self.gpu.activity().aggregate;
        // A launch that `sim.kernels` leaves out of timing runs functionally and adds nothing.
        if after.launches > before.launches {
            self.launches.push(after.cycles - before.cycles);
        }
        Ok(())
    }
    fn last_launch_truncated(&self) -> bool {
        self.gpu.last_launch_truncated()
    }
}

/// Simulates workload `w` at size `size` on `cfg` and returns the cycles of each timed launch
/// and the total. The run is the one `gpuenergy simulate` makes (no reference check).
pub fn simulate_launches(
    cfg: &GpuConfig,
    w: &dyn Workload,
    size: Size,
) -> Result<LaunchCycles, SimError> {
    let mut launches = Vec::new();
    let (ran, act) = Simulation::new(cfg).run(Program(|gpu: &mut TimingGpu| {
        let mut rec = LaunchRecorder::new(gpu);
        let r = w.run(size, &mut rec, false);
        launches = rec.into_launches();
        r
    }))?;
    ran?;
    let total = act.aggregate.cycles;
    debug_assert_eq!(launches.iter().sum::<u64>(), total);
    Ok(LaunchCycles {
        launches,
        total,
        truncated: act.aggregate.truncated,
    })
}

/// Writes workload `w` at size `size` as a stock-form trace into a temporary folder, simulates
/// the folder on `cfg` and returns the total cycles (no per-launch cycles: `launches` is empty).
pub fn simulate_via_trace(
    cfg: &GpuConfig,
    w: &dyn Workload,
    size: Size,
) -> Result<LaunchCycles, SimError> {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "gpuenergy-correlate-{}-{}-{}-{n}",
        std::process::id(),
        w.info().name,
        size.as_str()
    ));
    let result = (|| {
        let mut gpu = TraceGpu::create(&dir, TraceForm::Stock)?;
        w.run(size, &mut gpu, false)?;
        gpu.finish()?;
        let run = Simulation::new(cfg).run(TraceFolder::new(&dir))?;
        Ok(LaunchCycles {
            launches: Vec::new(),
            total: run.activity.aggregate.cycles,
            truncated: run.activity.aggregate.truncated,
        })
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}
