//! The studies of the command line as Python functions: `estimate` of a device's Activity, of
//! a Python host program or of a built-in workload (`gpuenergy::study::Study`), `compare` of
//! techniques against a baseline (`gpuenergy::compare`), and `optimize`, `sram` and
//! `breakeven`, whose arguments are the command's flags (parsed by the command's own `clap`
//! arguments, so defaults, checks and messages are the command's) and whose output is the
//! command's JSON.
//!
//! Every long study runs with the GIL released; a Python host program re-acquires it for its
//! own calls.

use crate::activity::{Activity, Estimate};
use crate::device::{resolve_setup, tech_args};
use crate::program::PyProgram;
use crate::{py_err, py_msg};
use gpuenergy::compare as cmp;
use gpuenergy::study::Study;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use sim::workloads::{Size, Workload};

/// What a study runs: a device's Activity, a Python host program or built-in workloads.
enum Target {
    Activity(Py<Activity>),
    Program(PyProgram),
    Builtin(Vec<&'static dyn Workload>),
}

fn target(target: &Bound<'_, PyAny>, name: &str) -> PyResult<Target> {
    if let Ok(a) = target.cast::<Activity>() {
        return Ok(Target::Activity(a.clone().unbind()));
    }
    if let Ok(s) = target.cast::<PyString>() {
        let list = gpuenergy::study::workloads_named(&s.to_cow()?).map_err(py_err)?;
        return Ok(Target::Builtin(list));
    }
    if target.is_callable() {
        return Ok(Target::Program(
            PyProgram::new(target.clone().unbind(), name).map_err(py_err)?,
        ));
    }
    Err(PyTypeError::new_err(format!(
        "expected an Activity (Device.finish()), a host program fn(dev) or a built-in workload's \
         name, got {}",
        target.get_type().name()?
    )))
}

/// The Python exception a host program raised, if the study failed because of it; else the
/// study's error with the command line's message.
fn study_err(e: impl Into<anyhow::Error>, program: Option<&PyProgram>) -> PyErr {
    if let Some(err) = program.and_then(PyProgram::take_error) {
        return err;
    }
    py_err(e)
}

/// The energy and area estimate of a run (see the package documentation).
#[pyfunction]
#[pyo3(signature = (target, tech=None, op=None, vdd=None, device=None, temperature_k=None,
                    preset=None, config=None, technique=None, set=Vec::new(), scheduler=None,
                    size="test", name="python"))]
#[allow(clippy::too_many_arguments)]
pub fn estimate(
    py: Python<'_>,
    target: &Bound<'_, PyAny>,
    tech: Option<&str>,
    op: Option<&str>,
    vdd: Option<f64>,
    device: Option<&str>,
    temperature_k: Option<f64>,
    preset: Option<&str>,
    config: Option<std::path::PathBuf>,
    technique: Option<String>,
    set: Vec<String>,
    scheduler: Option<String>,
    size: &str,
    name: &str,
) -> PyResult<Estimate> {
    let t = self::target(target, name)?;
    let size: Size = size.parse().map_err(py_err)?;
    let point_given = tech.is_some() || op.is_some() || vdd.is_some() || device.is_some();
    let config_given = preset.is_some()
        || config.is_some()
        || technique.is_some()
        || !set.is_empty()
        || scheduler.is_some();
    let mods = gpuenergy::cli::ConfigMods {
        technique,
        scheduler,
        set,
    };
    let flags = tech_args(tech.unwrap_or("finfet7"), op, vdd, device, temperature_k);
    let setup = |preset: Option<&str>| {
        let preset = preset.or(config.is_none().then_some("gtx1080ti"));
        resolve_setup(preset, config.clone(), &mods, &flags, name).map_err(py_err)
    };
    match t {
        Target::Activity(a) => {
            let a = a.get();
            let (cfg, point, timed_hash, label) = match &a.setup {
                Some(s) if !config_given => {
                    // another point of the device's node unless another node is named
                    let point = if point_given || temperature_k.is_some() {
                        let node = tech.unwrap_or(&s.tech);
                        tech_args(node, op, vdd, device, temperature_k)
                            .choice()
                            .map_err(py_err)?
                    } else {
                        s.point.clone()
                    };
                    (
                        s.cfg.clone(),
                        point,
                        Some(s.timed.hash_hex()),
                        s.name.clone(),
                    )
                }
                Some(_) => {
                    return Err(py_msg(
                        "this Activity was recorded on its device's configuration: give no \
                         preset, config, technique, set or scheduler to estimate it (make \
                         another Device for another configuration)",
                    ))
                }
                None => {
                    let s = setup(preset)?;
                    (s.cfg, s.point, None, name.to_string())
                }
            };
            let act = a.act.clone();
            let report = py
                .detach(|| -> anyhow::Result<_> {
                    let study = Study::new(cfg, point, None);
                    if let Some(h) = timed_hash {
                        let src = study.cost_source()?;
                        let chip = study.chip(&src)?;
                        let timed = study.timed_config(&chip)?;
                        if timed.hash_hex() != h {
                            anyhow::bail!(
                                "the configuration derives knobs from the technology point \
                                 (pg.timing = \"Physical\", a derived latency): the run was \
                                 simulated with those of its device's point, not of {}; make \
                                 the Device with this tech/op/vdd to estimate the run there",
                                src.label
                            );
                        }
                    }
                    Ok(study.given_activity(act, label).run(&[])?)
                })
                .map_err(py_err)?;
            Ok(Estimate { report })
        }
        Target::Program(p) => {
            let s = setup(preset)?;
            let study = Study::new(s.cfg, s.point, None).size(size);
            let report = py
                .detach(|| study.run(&[&p as &dyn Workload]))
                .map_err(|e| study_err(e, Some(&p)))?;
            Ok(Estimate { report })
        }
        Target::Builtin(list) => {
            let s = setup(preset)?;
            let study = Study::new(s.cfg, s.point, None).size(size);
            let report = py.detach(|| study.run(&list)).map_err(py_err)?;
            Ok(Estimate { report })
        }
    }
}

/// A comparison of techniques against a baseline (`gpuenergy.Comparison` wraps it).
#[pyclass(module = "gpuenergy._native", frozen)]
pub struct Comparison {
    c: cmp::Comparison,
}

#[pymethods]
impl Comparison {
    /// The comparison as JSON (the `compare` report's fields).
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string_pretty(&self.c).map_err(py_err)
    }

    /// One row per variant × workload, as `gpuenergy compare --format csv` writes them.
    fn to_csv(&self) -> String {
        gpuenergy::report::compare::csv(&self.c)
    }

    /// The comparison as `gpuenergy compare` prints it.
    fn table(&self) -> String {
        gpuenergy::report::compare::table(&self.c)
    }

    /// The baseline's name.
    #[getter]
    fn baseline(&self) -> &str {
        &self.c.baseline
    }

    /// The variants' names, in the order given.
    #[getter]
    fn variants(&self) -> Vec<String> {
        self.c.variants.iter().map(|v| v.name.clone()).collect()
    }

    /// The technology label.
    #[getter]
    fn tech(&self) -> &str {
        &self.c.tech
    }
}

/// Techniques against a baseline on a Python host program `fn(dev)` (run once per variant)
/// or built-in workloads by name; `progress(done, total, label)` after each run.
#[pyfunction]
#[pyo3(signature = (target, techniques, baseline="none", tech="finfet7", op=None, vdd=None,
                    device=None, temperature_k=None, preset=None, config=None, set=Vec::new(),
                    scheduler=None, sweep=None, size="test", name="python", progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn compare(
    py: Python<'_>,
    target: &Bound<'_, PyAny>,
    techniques: Vec<String>,
    baseline: &str,
    tech: &str,
    op: Option<&str>,
    vdd: Option<f64>,
    device: Option<&str>,
    temperature_k: Option<f64>,
    preset: Option<&str>,
    config: Option<std::path::PathBuf>,
    set: Vec<String>,
    scheduler: Option<String>,
    sweep: Option<&str>,
    size: &str,
    name: &str,
    progress: Option<Py<PyAny>>,
) -> PyResult<Comparison> {
    let t = self::target(target, name)?;
    let size_label = size;
    let size: Size = size.parse().map_err(py_err)?;
    let set = gpuenergy::cli::with_scheduler(scheduler.as_deref(), &set).map_err(py_err)?;
    let preset = preset.unwrap_or("gtx1080ti");
    let (base, _) =
        gpuenergy::provenance::ConfigOrigin::load(preset, config.as_deref()).map_err(py_err)?;
    let pairs = gpuenergy::technique::parse_sets(&set).map_err(py_msg)?;
    let sweep = sweep.map(cmp::parse_sweep).transpose().map_err(py_err)?;
    let (b, variants) =
        cmp::plan(&base, baseline, &techniques, &pairs, sweep.as_ref()).map_err(py_err)?;
    for v in std::iter::once(&b).chain(&variants) {
        models::gpu::limits::check_sizes(&v.config).map_err(py_err)?;
    }
    if gpuenergy::refcompare::needed(&b, &variants) {
        return Err(py_msg(
            "a variant runs reconv.mode = dwf, mimd or nrec, which the reference-mode model \
             compares (`gpuenergy compare` on the command line); the package compares the \
             cycle-level runs only",
        ));
    }
    let point = tech_args(tech, op, vdd, device, temperature_k)
        .choice()
        .map_err(py_err)?;
    let study = Study::new(b.config.clone(), point, None).size(size);
    let on_progress = move |n: usize, total: usize, what: &str| {
        if let Some(f) = &progress {
            Python::attach(|py| {
                let _ = f.call1(py, (n, total, what));
            });
        }
    };
    let (program, list): (Option<PyProgram>, Vec<&'static dyn Workload>) = match t {
        Target::Program(p) => (Some(p), Vec::new()),
        Target::Builtin(l) => (None, l),
        Target::Activity(_) => {
            return Err(PyTypeError::new_err(
                "compare runs every variant: give a host program fn(dev) or a built-in \
                 workload's name, not an Activity",
            ))
        }
    };
    let mut runs: Vec<&dyn Workload> = list.clone();
    if let Some(p) = &program {
        runs.push(p);
    }
    let c = py
        .detach(|| cmp::run(&study, size_label, &b, &variants, &runs, &on_progress))
        .map_err(|e| study_err(e, program.as_ref()))?;
    Ok(Comparison { c })
}

/// Parses `argv` (the command's flags) with the command's own arguments.
fn parse_args<A: clap::Args>(command: &str, argv: Vec<String>) -> PyResult<A> {
    #[derive(clap::Parser)]
    struct Wrap<A: clap::Args> {
        #[command(flatten)]
        args: A,
    }
    use clap::Parser;
    let argv = std::iter::once(command.to_string()).chain(argv);
    Wrap::<A>::try_parse_from(argv)
        .map(|w| w.args)
        .map_err(|e| {
            let text = e.render().to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or_default()
                .trim_start_matches("error: ")
                .to_string();
            py_msg(format!("{command}: {first}"))
        })
}

/// `gpuenergy sram` of one array: `argv` are the command's flags (`--size 64KiB --block 64
/// --tech finfet7 ...`, `--format` excepted); returns its JSON.
#[pyfunction]
pub fn sram(py: Python<'_>, argv: Vec<String>) -> PyResult<String> {
    let mut args: gpuenergy::cli::sram::Args = parse_args("sram", argv)?;
    if args.batch.is_some() {
        return Err(py_msg(
            "sram: --batch writes a file; call sram once per array instead",
        ));
    }
    args.format = gpuenergy::report::Format::Json;
    py.detach(|| gpuenergy::cli::sram::output(&args))
        .map_err(py_err)
}

/// `gpuenergy breakeven`: `argv` are the command's flags (`--tech`, `--op`, `--domain`,
/// `--sweep-vdd`, ...; `--format` excepted); returns its JSON.
#[pyfunction]
pub fn breakeven(py: Python<'_>, argv: Vec<String>) -> PyResult<String> {
    let mut args: gpuenergy::cli::breakeven::Args = parse_args("breakeven", argv)?;
    args.format = gpuenergy::report::Format::Json;
    py.detach(|| gpuenergy::cli::breakeven::output(&args))
        .map(|(text, _)| text)
        .map_err(py_err)
}

/// `gpuenergy optimize` on built-in workloads or program files: `argv` are the command's
/// flags (`--workload`, `--tech`, `--budget`, ...; `--format` excepted); returns its JSON.
#[pyfunction]
pub fn optimize(py: Python<'_>, argv: Vec<String>) -> PyResult<String> {
    let mut args: gpuenergy::cli::optimize::Args = parse_args("optimize", argv)?;
    args.format = gpuenergy::report::Format::Json;
    args.quiet.quiet = true;
    py.detach(|| gpuenergy::cli::optimize::json(args))
        .map_err(py_err)
}

/// The built-in GPU presets' names.
#[pyfunction]
pub fn presets() -> Vec<String> {
    sim::config::PRESET_NAMES
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// The named techniques' names.
#[pyfunction]
pub fn techniques() -> Vec<String> {
    gpuenergy::technique::TECHNIQUES
        .iter()
        .map(|t| t.name.to_string())
        .collect()
}

/// The built-in workloads' names.
#[pyfunction]
pub fn workloads() -> Vec<String> {
    sim::workloads::all()
        .iter()
        .map(|w| w.info().name.to_string())
        .collect()
}
