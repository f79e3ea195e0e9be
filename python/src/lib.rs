//! `gpuenergy._native`: the Rust half of the `gpuenergy` Python package. It exposes the
//! library crates to Python without a subprocess: a simulated device ([`device::Device`]) that
//! a Python host program drives launch by launch on the cycle-level timing model, the
//! Activity it records ([`activity::Activity`]), and the studies of the command line —
//! estimate, compare, optimize, sram (one array or a batch), breakeven — on that Activity, on
//! a Python host program run once per variant ([`program::PyProgram`]) or on a built-in
//! workload by name ([`studies`]). The thin Python layer (`python/gpuenergy/`) converts numpy
//! arrays and builds DataFrames; everything else is here or in the root crate.
//!
//! Errors are Python exceptions carrying the command line's message (file, line, key and the
//! values allowed): `gpuenergy::cli::error_text` joins an error's causes as `main` does.

mod activity;
mod device;
mod program;
mod progress;
mod studies;

use pyo3::prelude::*;

pyo3::create_exception!(
    _native,
    GpuEnergyError,
    pyo3::exceptions::PyValueError,
    "An input the simulator or a model refused; the message names the file, line, key or \
     argument at fault and the values allowed (the command line's message)."
);

/// `e` as a [`GpuEnergyError`] with the command line's message.
pub(crate) fn py_err(e: impl Into<anyhow::Error>) -> PyErr {
    GpuEnergyError::new_err(gpuenergy::cli::error_text(&e.into()))
}

/// A [`GpuEnergyError`] with message `msg`.
pub(crate) fn py_msg(msg: impl Into<String>) -> PyErr {
    GpuEnergyError::new_err(msg.into())
}

#[pymodule]
mod _native {
    #[pymodule_export]
    use super::activity::{Activity, Estimate};
    #[pymodule_export]
    use super::device::{Device, Kernel, Module};
    #[pymodule_export]
    use super::studies::{
        breakeven, compare, estimate, optimize, presets, sram, sram_batch_file, sram_batch_rows,
        techniques, workloads, Comparison,
    };
    #[pymodule_export]
    use super::GpuEnergyError;
}
