//! A Python host program as a [`Workload`]: `fn(dev)` runs once per simulation on a device
//! lent the study's GPU ([`Device::lent`]), so that `estimate`, `compare` and `optimize` run a
//! Python program exactly as they run a built-in workload or a program file — the same
//! configuration resolution, derived knobs, parallel variants and costing.
//!
//! The program's Python exception, if it raises one, is kept and re-raised by the study's
//! caller ([`PyProgram::take_error`]), traceback and all.
//!
//! [`simulate`] runs a program on the cycle-level timing model as a study simulates a
//! workload, with a progress hook on the timing GPU (a study's GPU has none), so that
//! `estimate` of a host program shows its progress.

use crate::device::Device;
use crate::progress::{ProgressSlot, RunSoFar};
use gpuenergy::study::StudyError;
use pyo3::prelude::*;
use sim::activity::Activity;
use sim::config::GpuConfig;
use sim::timing::{Simulation, TimingGpu};
use sim::workloads::{RunReport, Size, Workload, WorkloadInfo};
use sim::{DevPtr, Gpu, Launch, SimError};
use std::sync::Mutex;

/// A Python callable `fn(dev)` run as a workload.
pub(crate) struct PyProgram {
    func: Py<PyAny>,
    info: WorkloadInfo,
    error: Mutex<Option<PyErr>>,
}

impl PyProgram {
    /// `func` under `name` (labels its results).
    pub(crate) fn new(func: Py<PyAny>, name: &str) -> anyhow::Result<PyProgram> {
        gpuenergy::program::check_name(name).map_err(anyhow::Error::msg)?;
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        Ok(PyProgram {
            func,
            info: WorkloadInfo {
                name: leak(name.to_string()),
                suite: "python",
                character: "",
                description: leak(format!("Python host program {name}")),
            },
            error: Mutex::new(None),
        })
    }

    /// The first exception the program raised, if any.
    pub(crate) fn take_error(&self) -> Option<PyErr> {
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

impl Workload for PyProgram {
    fn info(&self) -> WorkloadInfo {
        self.info
    }

    fn run(&self, _size: Size, gpu: &mut dyn Gpu, _check: bool) -> Result<RunReport, SimError> {
        Python::attach(|py| {
            let dev = Py::new(py, Device::lent(gpu))
                .map_err(|e| SimError::Other(format!("cannot make the device: {e}")))?;
            let r = self.func.call1(py, (dev.clone_ref(py),));
            let d = dev.get();
            d.close(py);
            match r {
                Ok(_) => Ok(RunReport {
                    launches: u32::try_from(d.launch_count()).unwrap_or(u32::MAX),
                    check: None,
                }),
                Err(e) => {
                    let msg = format!("host program '{}' raised {e}", self.info.name);
                    let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
                    slot.get_or_insert(e);
                    Err(SimError::Other(msg))
                }
            }
        })
    }

    fn identity(&self) -> String {
        format!("python:{}", self.info.name)
    }
}

/// A timing GPU lent to a host program that records, before each launch, the run's totals so
/// far (the launches before it), which the progress hook adds to the running launch's.
struct Counted<'a> {
    gpu: &'a mut TimingGpu,
    before: RunSoFar,
}

impl Gpu for Counted<'_> {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.gpu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.gpu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.gpu.copy_from_device(src, out)
    }
    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        let a = &self.gpu.activity().aggregate;
        self.before.set(a.cycles, a.warp_insts);
        self.gpu.launch(launch)
    }
    fn last_launch_truncated(&self) -> bool {
        self.gpu.last_launch_truncated()
    }
    fn set_stack_limit(&mut self, bytes: u32) -> Result<(), SimError> {
        self.gpu.set_stack_limit(bytes)
    }
    fn create_texture(&mut self, desc: &sim::texture::TextureDesc) -> Result<u64, SimError> {
        self.gpu.create_texture(desc)
    }
}

/// The Activity of `program` run once on the cycle-level timing model of `machine` (a
/// configuration with `reconv.mode = "pdom"`, knobs derived from the technology point filled
/// in), as a study simulates a workload (`gpuenergy::study::Study::simulate`: the same GPU, the
/// same launches), with the record stamped by the simulator (`config_hash` is the machine's).
/// `progress` gets `(cycles, warp_insts)` of the run so far while it runs. Call it with the
/// GIL released.
pub(crate) fn simulate(
    program: &PyProgram,
    machine: &GpuConfig,
    progress: &ProgressSlot,
) -> Result<Activity, StudyError> {
    let failed = |error| StudyError::Simulation {
        name: program.info.name.to_string(),
        error,
    };
    let before = RunSoFar::default();
    let mut gpu = Simulation::new(machine).gpu().map_err(failed)?;
    gpu.set_progress(progress.hook_after(Some(before.clone())));
    let mut lent = Counted {
        gpu: &mut gpu,
        before,
    };
    program.run(Size::Test, &mut lent, false).map_err(failed)?;
    Ok(gpu.into_activity())
}
