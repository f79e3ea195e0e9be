//! The synthesis flow: one component at one size → a [`SynthRecord`].
//!
//! 1. Library: find the flavour/corner's liberty files, decompress them, merge them for Yosys
//!    ([`library::prepare`]).
//! 2. Yosys: `read_verilog -defer`, `chparam` the size parameters, `synth -flatten`, optional
//!    component-specific techmaps, `dfflibmap -liberty`, `abc -liberty`, tie cells, `stat
//!    -liberty` (text and JSON), `write_verilog` ([`yosys`]).
//! 3. Stimulus: the component's testbench in iverilog with `+stim +vcd=FILE`, run on the mapped
//!    netlist with zero-delay cell models generated from the liberty files ([`cellmodel`]); the
//!    VCD gives every net's toggle density (per clock cycle) and duty ([`stim`]).
//! 4. OpenSTA: the liberty files, the netlist, a clock of the chosen period, `report_checks`, and
//!    `report_power` with every net's simulated activity: OpenSTA 2.0.17 takes activities only
//!    at input ports, so power is analysed on copies of the library and netlist in which each
//!    cell output follows an added activity port ([`annotate`], [`sta`]).
//! 5. The reports are parsed by [`crate::parsers`] and combined into a record; energy per
//!    operation = (internal + switching power) × clock period / operations per cycle.

pub mod annotate;
pub mod cellmodel;
pub mod library;
pub mod registry;
pub mod sta;
pub mod stim;
pub mod tools;
pub mod yosys;

use crate::error::{read_text, CalError};
use crate::parsers::{ParsedReport, ReportParser};
use crate::record::SynthRecord;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use library::PreparedLibrary;

/// The component's stimulus testbench.
#[derive(Debug, Clone)]
pub struct Testbench {
    /// Top module of the testbench.
    pub top: String,
    /// Testbench source files (the RTL files are added by the flow).
    pub files: Vec<PathBuf>,
    /// Plusargs that select stimulus mode (e.g. `+stim`); `+vcd=FILE` and `+cycles=N` are added.
    pub plusargs: Vec<String>,
    /// Scope of the DUT instance in the dump (e.g. `["fadd32_tb", "dut"]`); empty: found by
    /// matching port names.
    pub dut_scope: Vec<String>,
    /// Whether the testbench takes the size parameters (as `-P TOP.NAME=VALUE`).
    pub takes_params: bool,
}

/// Everything the flow needs to know about one component at one size.
#[derive(Debug, Clone)]
pub struct FlowSpec {
    /// Component kind (`alu32`, ...).
    pub kind: String,
    /// Verilog top module.
    pub top: String,
    /// RTL source files.
    pub files: Vec<PathBuf>,
    /// Size parameters (recorded; passed with `chparam -set`).
    pub params: BTreeMap<String, u32>,
    /// Every parameter passed with `chparam -set` (the sizes plus fixed configuration).
    pub chparams: BTreeMap<String, u32>,
    /// Operations completed per clock cycle (for energy per operation).
    pub ops_per_cycle: f64,
    /// Clock port (None: combinational block, a virtual clock is used).
    pub clock_port: Option<String>,
    /// Stimulus testbench (None: a default input activity is used).
    pub testbench: Option<Testbench>,
    /// Extra Yosys commands run after `synth` and before `dfflibmap` (e.g. latch techmaps).
    pub yosys_extra: Vec<String>,
}

/// Options common to every run.
#[derive(Debug, Clone)]
pub struct FlowOptions {
    /// Directory with liberty files.
    pub liberty_dir: PathBuf,
    /// Device flavour (`rvt`, `lvt`, `slvt`).
    pub flavour: String,
    /// Corner (`tt`, `ff`, `ss`).
    pub corner: String,
    /// Clock period, s.
    pub clock_period_s: f64,
    /// Output directory (one subdirectory per run, plus the library cache).
    pub out_dir: PathBuf,
    /// Stimulus cycles.
    pub stim_cycles: u32,
    /// Toggle density used when a component has no testbench.
    pub default_activity: f64,
}

impl FlowOptions {
    /// Defaults for a liberty directory: RVT, TT, 1 ns, `out/synth`, 400 stimulus cycles.
    pub fn new(liberty_dir: &Path) -> FlowOptions {
        FlowOptions {
            liberty_dir: liberty_dir.to_path_buf(),
            flavour: "rvt".into(),
            corner: "tt".into(),
            clock_period_s: 1e-9,
            out_dir: PathBuf::from("out/synth"),
            stim_cycles: 400,
            default_activity: 0.2,
        }
    }
}

/// Check the tools the flow needs are installed.
pub fn check_tools(need_sim: bool) -> Result<(), CalError> {
    tools::require("yosys")?;
    tools::require("sta")?;
    if need_sim {
        tools::require("iverilog")?;
        tools::require("vvp")?;
    }
    Ok(())
}

/// Directory name of a run: `KIND/P1=V1_P2=V2`.
pub fn run_dir_name(spec: &FlowSpec) -> PathBuf {
    let p: Vec<String> = spec
        .params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let leaf = if p.is_empty() {
        "default".to_string()
    } else {
        p.join("_")
    };
    PathBuf::from(&spec.kind).join(leaf)
}

fn parse_file(parser: &dyn ReportParser, path: &Path) -> Result<ParsedReport, CalError> {
    let text = read_text(path)?;
    Ok(parser.parse(&text, path)?)
}

/// Run the whole flow for one component and size; writes the raw reports and `record.json`
/// under `opts.out_dir/KIND/PARAMS/` and returns the record.
pub fn run(
    spec: &FlowSpec,
    lib: &PreparedLibrary,
    opts: &FlowOptions,
) -> Result<SynthRecord, CalError> {
    run_with_progress(spec, lib, opts, &mut crate::progress::ignore)
}

/// [`run`], reporting a [`crate::progress::Step`] as each tool starts: `yosys` (synthesis),
/// `iverilog` (the stimulus simulation, for components with a testbench) and `opensta`
/// (timing and power); the item is the run directory.
pub fn run_with_progress(
    spec: &FlowSpec,
    lib: &PreparedLibrary,
    opts: &FlowOptions,
    on_step: crate::progress::OnStep<'_>,
) -> Result<SynthRecord, CalError> {
    let dir = tools::absolute(&opts.out_dir.join(run_dir_name(spec)));
    std::fs::create_dir_all(&dir).map_err(|source| CalError::Io {
        path: dir.clone(),
        error: source,
    })?;
    let item = dir.to_string_lossy().into_owned();
    let stages = if spec.testbench.is_some() { 3 } else { 2 };
    let mut stage = |stage: &str, done: usize| {
        on_step(crate::progress::Step {
            stage,
            item: &item,
            done,
            total: stages,
        })
    };
    stage("yosys", 0);
    yosys::synthesise(spec, lib, &dir)?;
    let netlist = read_text(&dir.join("netlist.v"))?;
    let ports = sta::netlist_ports(&netlist, &spec.top);
    // A combinational block has no clock port: STA then uses a virtual clock.
    let mut spec = spec.clone();
    if let Some(c) = &spec.clock_port {
        if !ports.iter().any(|p| p.input && &p.name == c) {
            spec.clock_port = None;
        }
    }
    let spec = &spec;
    let (activities, mean_act) = match &spec.testbench {
        Some(tb) => {
            stage("iverilog", 1);
            let a = stim::simulate(spec, tb, &dir, opts.stim_cycles, &ports, lib)?;
            let data: Vec<f64> = a
                .inputs
                .iter()
                .filter(|(k, _)| {
                    Some(k.split('[').next().unwrap_or("")) != spec.clock_port.as_deref()
                })
                .map(|(_, v)| v.0)
                .collect();
            let mean = if data.is_empty() {
                None
            } else {
                Some(data.iter().sum::<f64>() / data.len() as f64)
            };
            (Some(a), mean)
        }
        None => (None, Some(opts.default_activity)),
    };
    stage("opensta", stages - 1);
    sta::analyse(spec, lib, &dir, opts, activities.as_ref())?;
    let stat = parse_file(&crate::parsers::yosys::YosysStat, &dir.join("stat.txt"))?;
    let stat_json = parse_file(
        &crate::parsers::yosys::YosysStatJson,
        &dir.join("stat.json"),
    )?;
    let power = parse_file(
        &crate::parsers::opensta::OpenStaPower,
        &dir.join("power.rpt"),
    )?;
    let checks = parse_file(
        &crate::parsers::opensta::OpenStaChecks,
        &dir.join("checks.rpt"),
    )
    .ok();
    let mut area_by_cell = BTreeMap::new();
    for (c, n) in &stat_json.cells {
        let a = lib.info.cells.get(c).map(|ci| ci.area).ok_or_else(|| {
            CalError::Liberty(format!(
                "netlist uses cell '{c}' that the merged library lacks"
            ))
        })?;
        area_by_cell.insert(c.clone(), a * *n as f64 * crate::parsers::AREA_UNIT_M2);
    }
    let area = stat.area_m2.expect("parser guarantees an area");
    let sum: f64 = area_by_cell.values().sum();
    if (sum - area).abs() > 1e-3 * area.max(1e-18) {
        return Err(CalError::Invalid(format!(
            "area by cell ({:.3} µm²) disagrees with yosys stat ({:.3} µm²) in {}",
            sum * 1e12,
            area * 1e12,
            dir.display()
        )));
    }
    let internal = power.internal_w.unwrap_or(0.0);
    let switching = power.switching_w.unwrap_or(0.0);
    let rec = SynthRecord {
        component: spec.kind.clone(),
        params: spec.params.clone(),
        flavour: lib.flavour.clone(),
        corner: lib.corner.clone(),
        vdd_v: lib.info.nom_voltage_v,
        source: format!(
            "{} + OpenSTA {}",
            tools::version("yosys"),
            tools::version("sta")
        ),
        clock_period_s: opts.clock_period_s,
        ops_per_cycle: spec.ops_per_cycle,
        area_m2: area,
        cell_count: stat.cell_count.unwrap_or(0),
        leakage_w: power.leakage_w.unwrap_or(0.0),
        internal_w: internal,
        switching_w: switching,
        total_w: power.total_w.unwrap_or(0.0),
        energy_per_op_j: (internal + switching) * opts.clock_period_s
            / spec.ops_per_cycle.max(1e-12),
        critical_path_s: checks.and_then(|c| c.critical_path_s),
        mean_input_activity: mean_act,
        area_by_cell_m2: area_by_cell,
    };
    crate::error::write_text(&dir.join("record.json"), &rec.to_json())?;
    Ok(rec)
}

/// Remove bulky intermediates of a finished run (netlist, simulator image, logs); the reports,
/// scripts, activities and record stay.
pub fn prune(dir: &Path) {
    for f in [
        "netlist.v",
        "sim.vvp",
        "yosys.log",
        "sta.log",
        "iverilog.log",
        "sim.log",
        "stim.vcd",
        "netlist_sim.v",
        "cells.v",
        "power.v",
    ] {
        let _ = std::fs::remove_file(dir.join(f));
    }
}
