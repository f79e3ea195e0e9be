//! The studies of the command line as Python functions: `estimate` of a device's Activity, of
//! a Python host program or of a built-in workload (`gpuenergy::study::Study`), `compare` of
//! techniques against a baseline (`gpuenergy::compare`), and `optimize`, `sram` and
//! `breakeven`, whose arguments are the command's flags (parsed by the command's own `clap`
//! arguments, so defaults, checks and messages are the command's) and whose output is the
//! command's JSON.
//!
//! A comparison whose baseline or a variant sets `reconv.mode` to dwf, mimd or nrec runs every
//! run on the reference-mode model, as the command line does (`gpuenergy::refcompare`); a host
//! program runs there as a built-in workload does.
//!
//! Every long study runs with the GIL released; a Python host program re-acquires it for its
//! own calls. Progress goes to a Python callable: `(cycles, warp_insts)` of a host program's
//! run while it is simulated, `(done, total, label)` after each run of a study of several.

use crate::activity::{Activity, Estimate};
use crate::device::{resolve_setup, tech_args};
use crate::program::PyProgram;
use crate::progress::ProgressSlot;
use crate::{py_err, py_msg};
use gpuenergy::compare as cmp;
use gpuenergy::refcompare::{self, RefComparison};
use gpuenergy::study::Study;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use sim::config::reconv::ReconvMode;
use sim::workloads::{Size, Workload};
use std::collections::HashMap;
use std::fmt::Write;

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

/// `progress(done, total, label)`, if given, as a study's progress callback (called with the
/// GIL released; it takes the GIL for the call only).
fn runs_progress(progress: Option<Py<PyAny>>) -> impl Fn(usize, usize, &str) + Send + Sync {
    move |n: usize, total: usize, what: &str| {
        if let Some(f) = &progress {
            Python::attach(|py| {
                // a failing progress display never stops the study
                let _ = f.call1(py, (n, total, what));
            });
        }
    }
}

/// `sample` and `sample_error` as `--sample` and `--sample-error` take them: `"off"`,
/// `"kernels"` or `"auto"`; the target a percentage `"2%"` or a fraction `0.02`, only with
/// `"auto"`.
fn sampling(
    sample: &str,
    sample_error: Option<&Bound<'_, PyAny>>,
) -> PyResult<gpuenergy::sample::Sampling> {
    use clap::ValueEnum;
    let mode = gpuenergy::sample::SampleMode::from_str(sample.trim(), false).map_err(|_| {
        py_msg(format!(
            "sample '{sample}': unknown sampling; allowed: off, kernels, auto"
        ))
    })?;
    let target = match sample_error {
        None => None,
        Some(v) => {
            let text = match v.extract::<f64>() {
                Ok(f) => f.to_string(),
                Err(_) => v.extract::<String>().map_err(|_| {
                    PyTypeError::new_err(
                        "sample_error: expected a percentage such as \"2%\" or a fraction \
                         such as 0.02",
                    )
                })?,
            };
            Some(
                gpuenergy::sample::parse_error(&text)
                    .map_err(|why| py_msg(format!("sample_error: {why}")))?,
            )
        }
    };
    gpuenergy::sample::Sampling::checked(mode, target, "sample_error", |m| {
        format!("sample=\"{m}\"")
    })
    .map_err(py_msg)
}

/// The energy and area estimate of a run (see the package documentation). `progress` is
/// called with `(cycles, warp_insts)` of a host program's run so far while the cycle-level
/// model simulates it, and with `(done, total, workload)` after each built-in workload.
#[pyfunction]
#[pyo3(signature = (target, tech=None, op=None, vdd=None, device=None, temperature_k=None,
                    preset=None, config=None, technique=None, set=Vec::new(), scheduler=None,
                    size="test", name="python", progress=None, sample="off",
                    sample_error=None))]
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
    progress: Option<Py<PyAny>>,
    sample: &str,
    sample_error: Option<&Bound<'_, PyAny>>,
) -> PyResult<Estimate> {
    let t = self::target(target, name)?;
    let sampling = self::sampling(sample, sample_error)?;
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
        Target::Activity(_) if sampling.is_on() => Err(py_msg(
            "sample samples the launches of a run the study simulates; an Activity was \
             simulated already (allowed with it: sample=\"off\"; sample a host program or a \
             built-in workload instead)",
        )),
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
            let report = if sampling.is_on() {
                // sampled by the study, which times a few launches per cluster and costs the
                // estimate of the error (no progress hook on this path)
                let study = Study::new(s.cfg, s.point, None)
                    .size(size)
                    .sampling(sampling);
                py.detach(|| -> anyhow::Result<_> {
                    study.check_sampling()?;
                    Ok(study.run(&[&p as &dyn Workload])?)
                })
            } else if s.timed.reconv.mode == ReconvMode::Pdom {
                // simulated here rather than by the study, so that the timing GPU carries the
                // progress hook; then costed as a device's Activity is, which gives the
                // study's figures (the same GPU, launches and costing) with the size
                // `program`, as every user program has
                let slot = ProgressSlot::default();
                let _on = slot.set(progress);
                py.detach(|| -> anyhow::Result<_> {
                    let mut act = crate::program::simulate(&p, &s.timed, &slot)?;
                    // as `Device.finish()` stamps it: the study configuration's hash
                    act.config_hash = s.cfg.hash_hex();
                    let study = Study::new(s.cfg.clone(), s.point.clone(), None);
                    Ok(study.given_activity(act, name).run(&[])?)
                })
            } else {
                // a reference mode (`reconv.mode` dwf, mimd or nrec): the study runs the
                // program on the reference-mode model, which has no progress hook
                let study = Study::new(s.cfg, s.point, None).size(size);
                py.detach(|| study.run(&[&p as &dyn Workload]).map_err(Into::into))
            };
            Ok(Estimate {
                report: report.map_err(|e| study_err(e, Some(&p)))?,
            })
        }
        Target::Builtin(list) => {
            let s = setup(preset)?;
            let on_progress = runs_progress(progress);
            let study = Study::new(s.cfg, s.point, None)
                .size(size)
                .sampling(sampling)
                .on_progress(move |what, n, total| on_progress(n, total, what));
            study.check_sampling().map_err(py_err)?;
            let report = py.detach(|| study.run(&list)).map_err(py_err)?;
            Ok(Estimate { report })
        }
    }
}

/// What a comparison holds: the cycle-level runs' report, or the reference-mode model's with
/// its provenance (the `run` of the command line's JSON).
enum Compared {
    Cycle(cmp::Comparison),
    Reference {
        c: Box<RefComparison>,
        run: Box<gpuenergy::provenance::RunInfo>,
        tech: String,
    },
}

/// A comparison of techniques against a baseline (`gpuenergy.Comparison` wraps it).
#[pyclass(module = "gpuenergy._native", frozen)]
pub struct Comparison {
    c: Compared,
}

#[pymethods]
impl Comparison {
    /// The comparison as JSON: the `compare` report's fields; on the reference-mode model the
    /// whole document `gpuenergy compare --format json` writes (its `run` first).
    fn to_json(&self) -> PyResult<String> {
        match &self.c {
            Compared::Cycle(c) => serde_json::to_string_pretty(c),
            Compared::Reference { c, run, .. } => {
                gpuenergy::report::json_struct_with_run(run.as_ref(), c.as_ref())
            }
        }
        .map_err(py_err)
    }

    /// One row per variant × workload: as `gpuenergy compare --format csv` writes them, or on
    /// the reference-mode model (which the command line prints as a table and JSON only) the
    /// JSON's figures under its names ([`reference_csv`]).
    fn to_csv(&self) -> String {
        match &self.c {
            Compared::Cycle(c) => gpuenergy::report::compare::csv(c),
            Compared::Reference { c, .. } => reference_csv(c),
        }
    }

    /// The comparison as `gpuenergy compare` prints it (without its provenance line).
    fn table(&self) -> String {
        match &self.c {
            Compared::Cycle(c) => gpuenergy::report::compare::table(c),
            Compared::Reference { c, .. } => refcompare::table(c),
        }
    }

    /// The baseline's name.
    #[getter]
    fn baseline(&self) -> &str {
        match &self.c {
            Compared::Cycle(c) => &c.baseline,
            Compared::Reference { c, .. } => &c.baseline,
        }
    }

    /// The variants' names, in the order given.
    #[getter]
    fn variants(&self) -> Vec<String> {
        match &self.c {
            Compared::Cycle(c) => c.variants.iter().map(|v| v.name.clone()).collect(),
            Compared::Reference { c, .. } => c.variants.clone(),
        }
    }

    /// The technology label.
    #[getter]
    fn tech(&self) -> &str {
        match &self.c {
            Compared::Cycle(c) => &c.tech,
            Compared::Reference { tech, .. } => tech,
        }
    }

    /// What the runs' cycles come from: `cycle-level` (the timing model) or `reference-mode`
    /// (some run sets `reconv.mode` to dwf, mimd or nrec).
    #[getter]
    fn model(&self) -> &'static str {
        match &self.c {
            Compared::Cycle(_) => "cycle-level",
            Compared::Reference { .. } => "reference-mode",
        }
    }
}

/// `s` as a CSV field (quoted when it holds a comma, a quote or a line break).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Columns of [`reference_csv`]: the names of the reference-mode JSON's fields (`energy.*`,
/// `area.*`), the DWF structures' (`dwf_hardware.*`) prefixed `dwf_`.
const REFERENCE_COLUMNS: &str = "variant,workload,mode,cycles,speedup,simd_efficiency,\
warp_issues,thread_insts,runtime_s,energy_j,dynamic_j,leakage_j,edp_js,energy_change,edp_change,\
area_mm2,added_area_mm2,added_area_chip_share,added_area_per_sm_mm2,added_area_sm_share,\
structures_mm2,replaced_mm2,added_leakage_w,dwf_area_per_core_mm2,dwf_area_chip_mm2,\
dwf_die_share,dwf_dynamic_j,dwf_leakage_j";

/// A reference-mode comparison as rows, one per variant (baseline first) × workload, in the
/// order of the cycle-level CSV: the run's mode, cycles, speedup over the baseline, SIMD
/// efficiency and issue counts, its costed energy and change against the baseline, the chip
/// area against the baseline's, and a DWF run's structures. Every figure is the JSON's, written
/// exactly (`{:e}`); a cell the run has not (a run that is not DWF has no structures) is empty.
/// The wall-time rate `thread_insts_per_s` is left to the JSON: the rows are the same for the
/// same inputs.
fn reference_csv(c: &RefComparison) -> String {
    let mut s = String::from(REFERENCE_COLUMNS);
    s.push('\n');
    let e = |x: f64| format!("{x:e}");
    let cells = |xs: Option<Vec<f64>>, n: usize| -> String {
        match xs {
            Some(v) => v.into_iter().map(e).collect::<Vec<_>>().join(","),
            None => vec![""; n].join(","),
        }
    };
    for name in std::iter::once(&c.baseline).chain(&c.variants) {
        for (w, per) in &c.workloads {
            let Some(r) = per.get(name) else { continue };
            let energy = r.energy.as_ref().map(|x| {
                vec![
                    x.runtime_s,
                    x.energy_j,
                    x.dynamic_j,
                    x.leakage_j,
                    x.edp_js,
                    x.energy_change,
                    x.edp_change,
                ]
            });
            let area = r.area.as_ref().map(|a| a.columns().to_vec());
            let dwf = r.dwf_hardware.as_ref().map(|h| {
                vec![
                    h.area_per_core_mm2,
                    h.area_chip_mm2,
                    h.die_share,
                    h.dynamic_j,
                    h.leakage_j,
                ]
            });
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{},{},{},{},{}",
                csv_field(name),
                csv_field(w),
                r.mode,
                r.cycles,
                e(r.speedup),
                e(r.simd_efficiency),
                r.stats.warp_issues,
                r.stats.thread_insts,
                cells(energy, 7),
                cells(area, 8),
                cells(dwf, 5),
            );
        }
    }
    s
}

/// Techniques against a baseline on a Python host program `fn(dev)` (run once per variant)
/// or built-in workloads by name; `progress(done, total, label)` after each run (before each
/// on the reference-mode model).
#[pyfunction]
#[pyo3(signature = (target, techniques, baseline="none", tech="finfet7", op=None, vdd=None,
                    device=None, temperature_k=None, preset=None, config=None, set=Vec::new(),
                    scheduler=None, sweep=None, size="test", name="python", progress=None,
                    sample="off", sample_error=None))]
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
    sample: &str,
    sample_error: Option<&Bound<'_, PyAny>>,
) -> PyResult<Comparison> {
    let t = self::target(target, name)?;
    let sampling = self::sampling(sample, sample_error)?;
    let size_label = size;
    let size: Size = size.parse().map_err(py_err)?;
    let set = gpuenergy::cli::with_scheduler(scheduler.as_deref(), &set).map_err(py_err)?;
    let preset = preset.unwrap_or("gtx1080ti");
    let (base, origin) =
        gpuenergy::provenance::ConfigOrigin::load(preset, config.as_deref()).map_err(py_err)?;
    let pairs = gpuenergy::technique::parse_sets(&set).map_err(py_msg)?;
    let sweep = sweep.map(cmp::parse_sweep).transpose().map_err(py_err)?;
    if let Some((key, _)) = &sweep {
        if pairs.iter().any(|(k, _)| k == key) {
            return Err(py_msg(format!(
                "set {key} and sweep {key} name the same key: the sweep's values would replace \
                 the set value in every run; give the key's values to sweep only"
            )));
        }
    }
    let (b, variants) =
        cmp::plan(&base, baseline, &techniques, &pairs, sweep.as_ref()).map_err(py_err)?;
    for v in std::iter::once(&b).chain(&variants) {
        models::gpu::limits::check_sizes(&v.config).map_err(py_err)?;
    }
    let point = tech_args(tech, op, vdd, device, temperature_k)
        .choice()
        .map_err(py_err)?;
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
    let on_progress = runs_progress(progress);
    let study = Study::new(b.config.clone(), point.clone(), None)
        .size(size)
        .sampling(sampling.clone());
    if refcompare::needed(&b, &variants) {
        if sampling.is_on() {
            return Err(py_msg(format!(
                "sample=\"{}\": a comparison with reconv.mode = dwf, mimd or nrec runs on the \
                 reference-mode model, which kernel sampling does not time; allowed with it: \
                 sample=\"off\"",
                sampling.mode.as_str()
            )));
        }
        // every run on the reference-mode model, as `gpuenergy compare` does
        let context = gpuenergy::cli::compare::ReferenceContext {
            origin: &origin,
            base: &base,
            point: &point,
        };
        let mut run = gpuenergy::cli::compare::reference_run_info(
            &context, &set, &b, &variants, size_label, &runs,
        );
        // a library call: no command line
        run.command_line.clear();
        let total = (variants.len() + 1) * runs.len();
        let hw = refcompare::HwContext { study };
        let (c, tech) = py
            .detach(|| -> anyhow::Result<_> {
                let tech = hw.study.cost_source()?.label;
                let c = refcompare::run(&b, &variants, &runs, size, Some(&hw), &|n, what| {
                    on_progress(n, total, &what)
                })?;
                Ok((c, tech))
            })
            .map_err(|e| study_err(e, program.as_ref()))?;
        return Ok(Comparison {
            c: Compared::Reference {
                c: Box::new(c),
                run: Box::new(run),
                tech,
            },
        });
    }
    let c = py
        .detach(|| cmp::run(&study, size_label, &b, &variants, &runs, &on_progress))
        .map_err(|e| study_err(e, program.as_ref()))?;
    Ok(Comparison {
        c: Compared::Cycle(c),
    })
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
            "sram: --batch is gpuenergy.sram_batch(rows or a CSV file's path), which returns \
             the batch as a DataFrame",
        ));
    }
    args.format = gpuenergy::report::Format::Json;
    py.detach(|| gpuenergy::cli::sram::output(&args))
        .map_err(py_err)
}

/// `gpuenergy sram --batch FILE`: the CSV it writes for the CACTI-style rows of the CSV file
/// at `path` (messages name the file, line and column).
#[pyfunction]
pub fn sram_batch_file(py: Python<'_>, path: std::path::PathBuf) -> PyResult<String> {
    py.detach(|| gpuenergy::cli::sram::batch_file_output(&path))
        .map_err(py_err)
}

/// The CSV `gpuenergy sram --batch` writes for `rows`, each a dict of the batch's columns
/// (`tech_um`, `size_bytes`, `block_bytes`, `rw_ports`, `read_ports`, `write_ports`, `banks`,
/// `cell_type`) to their values as text. A message names the row (`rows[2]`, its index) and
/// the key; a key that is not a column is refused.
#[pyfunction]
pub fn sram_batch_rows(py: Python<'_>, rows: Vec<HashMap<String, String>>) -> PyResult<String> {
    use gpuenergy::cli::sram::{BatchRow, BATCH_COLUMNS};
    let mut batch = Vec::with_capacity(rows.len());
    for (i, mut row) in rows.into_iter().enumerate() {
        let at = format!("rows[{i}]");
        let cells = BATCH_COLUMNS.map(|k| row.remove(k));
        let mut unknown: Vec<&String> = row.keys().collect();
        unknown.sort();
        if let Some(k) = unknown.first() {
            return Err(py_msg(format!(
                "{at}: unknown key '{k}' (keys: {})",
                BATCH_COLUMNS.join(", ")
            )));
        }
        batch.push(Ok(BatchRow {
            at,
            cell: "key",
            cells,
        }));
    }
    py.detach(|| gpuenergy::cli::sram::batch_output(batch))
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
