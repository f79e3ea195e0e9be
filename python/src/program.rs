//! A Python host program as a [`Workload`]: `fn(dev)` runs once per simulation on a device
//! lent the study's GPU ([`Device::lent`]), so that `estimate`, `compare` and `optimize` run a
//! Python program exactly as they run a built-in workload or a program file — the same
//! configuration resolution, derived knobs, parallel variants and costing.
//!
//! The program's Python exception, if it raises one, is kept and re-raised by the study's
//! caller ([`PyProgram::take_error`]), traceback and all.

use crate::device::Device;
use pyo3::prelude::*;
use sim::workloads::{RunReport, Size, Workload, WorkloadInfo};
use sim::{Gpu, SimError};
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
