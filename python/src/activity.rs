//! What a run leaves: the [`Activity`] record of a device (`gpuenergy.activity.v1`, the same
//! bytes `gpuenergy simulate --out` writes for the same launches) and the [`Estimate`] of a
//! costed run (the command line's `estimate` report, rendered by its own renderers).

use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

/// How a device was set up: the study configuration (what estimates cost), the machine it
/// simulated (with knobs derived at `point`), and the technology point.
pub(crate) struct RunSetup {
    /// The configuration as resolved from preset/config, technique, scheduler and overrides.
    pub cfg: gpuenergy::study_config::StudyConfig,
    /// The machine simulated: `cfg` with the knobs derived from `point`
    /// (`Study::timed_config`).
    pub timed: sim::config::GpuConfig,
    /// The technology point the device was made for.
    pub point: techlib::ResolvedPoint,
    /// Its node as given (`--tech`).
    pub tech: String,
    /// Its label (`finfet7 lvt @0.45V`).
    pub tech_label: String,
    /// The run's name (labels estimates).
    pub name: String,
}

/// The Activity record of a run (`gpuenergy.Activity` wraps it).
#[pyclass(module = "gpuenergy._native", frozen)]
pub struct Activity {
    pub(crate) act: sim::activity::Activity,
    pub(crate) setup: Option<Arc<RunSetup>>,
}

impl Activity {
    pub(crate) fn new(act: sim::activity::Activity, setup: Option<Arc<RunSetup>>) -> Activity {
        Activity { act, setup }
    }
}

fn kernel_dict<'py>(
    py: Python<'py>,
    k: &sim::activity::KernelActivity,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", &k.name)?;
    d.set_item("launches", k.launches)?;
    d.set_item("cycles", k.cycles)?;
    d.set_item("warp_insts", k.warp_insts)?;
    d.set_item("thread_insts", k.thread_insts)?;
    d.set_item("truncated", k.truncated)?;
    Ok(d)
}

#[pymethods]
impl Activity {
    /// Parses an Activity record (`gpuenergy simulate --out`); `label` names it in messages.
    #[staticmethod]
    #[pyo3(signature = (text, label="<activity>"))]
    fn from_json(text: &str, label: &str) -> PyResult<Activity> {
        let act = sim::activity::Activity::from_json(text, label).map_err(crate::py_err)?;
        act.check_consistent(label).map_err(crate::py_err)?;
        Ok(Activity { act, setup: None })
    }

    /// The record as JSON (`gpuenergy.activity.v1`).
    fn to_json(&self) -> String {
        self.act.to_json()
    }

    /// Simulated core cycles of the whole run (the kernels run one after another).
    #[getter]
    fn cycles(&self) -> u64 {
        self.act.aggregate.cycles
    }

    /// Warp instructions issued over the run.
    #[getter]
    fn warp_insts(&self) -> u64 {
        self.act.aggregate.warp_insts
    }

    /// Kernel launches over the run.
    #[getter]
    fn launches(&self) -> u64 {
        self.act.aggregate.launches
    }

    /// Whether a launch stopped at a simulation limit.
    #[getter]
    fn truncated(&self) -> bool {
        self.act.is_truncated()
    }

    /// `gpu.name` of the configuration simulated.
    #[getter]
    fn config_name(&self) -> &str {
        &self.act.config_name
    }

    /// The configuration's hash.
    #[getter]
    fn config_hash(&self) -> &str {
        &self.act.config_hash
    }

    /// One record per kernel name, in order of first launch: name, launches, cycles,
    /// warp_insts, thread_insts, truncated.
    #[getter]
    fn kernels<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.act
            .kernels
            .iter()
            .map(|k| kernel_dict(py, k))
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "Activity({} on {}: {} launches, {} cycles, {} warp insts)",
            self.setup.as_ref().map_or("run", |s| s.name.as_str()),
            self.act.config_name,
            self.act.aggregate.launches,
            self.act.aggregate.cycles,
            self.act.aggregate.warp_insts
        )
    }
}

/// A costed run: the command line's `estimate` report (`gpuenergy.Estimate` wraps it).
#[pyclass(module = "gpuenergy._native", frozen)]
pub struct Estimate {
    pub(crate) report: gpuenergy::study::Report,
}

#[pymethods]
impl Estimate {
    /// The report as `gpuenergy estimate --format json` writes it.
    fn to_json(&self) -> PyResult<String> {
        gpuenergy::report::json::render(&self.report).map_err(crate::py_err)
    }

    /// The report as `gpuenergy estimate --format csv` writes it: one row per component.
    fn to_csv(&self) -> String {
        gpuenergy::report::csv::render(&self.report)
    }

    /// The report as `gpuenergy estimate` prints it.
    fn table(&self) -> String {
        gpuenergy::report::table::render(&self.report)
    }

    /// The run's totals in SI units: energy_j, dynamic_j, leakage_j, runtime_s, cycles,
    /// warp_instructions, average_power_w, edp_js, area_m2, truncated.
    #[getter]
    fn total<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let Some(w) = self.report.workloads.first() else {
            d.set_item("area_m2", self.report.area_m2)?;
            d.set_item("leakage_w", self.report.leakage_w)?;
            return Ok(d);
        };
        d.set_item("energy_j", w.energy_j)?;
        d.set_item("dynamic_j", w.dynamic_j)?;
        d.set_item("leakage_j", w.leakage_j)?;
        d.set_item("runtime_s", w.runtime_s)?;
        d.set_item("cycles", w.cycles)?;
        d.set_item("warp_instructions", w.warp_instructions)?;
        d.set_item("average_power_w", w.average_power_w)?;
        d.set_item("edp_js", w.edp_js)?;
        d.set_item("area_m2", self.report.area_m2)?;
        d.set_item("leakage_w", self.report.leakage_w)?;
        d.set_item("truncated", w.truncated)?;
        Ok(d)
    }

    /// The technology label (`finfet7 lvt @0.45V`).
    #[getter]
    fn tech(&self) -> &str {
        &self.report.tech
    }

    /// The labels of the costed runs.
    #[getter]
    fn workloads(&self) -> Vec<String> {
        self.report
            .workloads
            .iter()
            .map(|w| w.workload.clone())
            .collect()
    }
}
