//! `gpuenergy estimate`: the main job — simulate workloads on a GPU configuration and cost the
//! activity at a technology point, per component and per workload.

use anyhow::{bail, Context};
use models::gpu::{ChipModel, Estimate, TechChoice, TechCostSource};
use models::overlay::Overlay;
use rayon::prelude::*;
use serde::Serialize;
use sim::activity::Activity;
use sim::config::GpuConfig;
use sim::timing::TimingGpu;
use sim::workloads::{self, Size};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `gpuenergy estimate`.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "Energy and area of a GPU running kernels at a technology node.

With no options: the GTX480 preset at finfet7 (STV, 0.45 V, LVT devices, 350 K), simulating every \
built-in workload at the `test` size. Each workload runs on the cycle-level simulator; its \
Activity is costed by the chip model (SRAM arrays from the CACTI-class model, logic blocks from \
the parametric component models, DRAM per bit and per activate, clock and interconnect wires \
from the node's wire RC). Prints per component: area, dynamic and leakage power, share of \
energy; per workload: runtime, energy, average power and EDP."
)]
pub struct Args {
    /// Technology node: finfet7, asap7, planar90…planar16, or a feature size such as 40nm.
    #[arg(long, default_value = "finfet7")]
    pub tech: String,
    /// Supply voltage in volts (overrides --op).
    #[arg(long)]
    pub vdd: Option<f64>,
    /// Named operating point (finfet7: stv = 0.45 V, ntv = 0.30 V). Default: stv on finfet7,
    /// the device's nominal supply elsewhere.
    #[arg(long)]
    pub op: Option<String>,
    /// Device flavour (hp, lstp, lop on planar nodes; lvt, rvt on finfet7; rvt, lvt, slvt on
    /// asap7). Default: hp, lvt, rvt respectively.
    #[arg(long)]
    pub device: Option<String>,
    /// Junction temperature in kelvin.
    #[arg(long, default_value_t = 350.0)]
    pub temperature: f64,
    /// GPU preset (see `gpuenergy presets`).
    #[arg(long, default_value = "gtx480", conflicts_with = "config")]
    pub preset: String,
    /// GPU configuration TOML (a preset plus overrides; see `gpuenergy presets --help`).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Workload to simulate, or `all` for the whole suite.
    #[arg(long, default_value = "all")]
    pub workload: String,
    /// Input size tier of the workloads.
    #[arg(long, default_value = "test", value_parser = ["test", "bench"])]
    pub size: String,
    /// Cost a saved Activity (from `gpuenergy simulate --out`) instead of simulating.
    #[arg(long, conflicts_with = "workload")]
    pub activity: Option<PathBuf>,
    /// Only area and leakage (no simulation).
    #[arg(long = "static", conflicts_with_all = ["activity"])]
    pub static_only: bool,
    /// Calibration overlay for logic components (from `gpuenergy calibrate`).
    #[arg(long)]
    pub calibration: Option<PathBuf>,
    /// Output format.
    #[arg(long, default_value = "table", value_parser = ["table", "json", "csv"])]
    pub format: String,
    /// Write SVG plots (energy breakdown per workload, area breakdown, leakage vs dynamic share).
    #[arg(long)]
    pub plot: Option<PathBuf>,
}

/// One workload's result.
#[derive(Serialize)]
struct WorkloadResult {
    workload: String,
    cycles: u64,
    warp_instructions: u64,
    runtime_s: f64,
    energy_j: f64,
    dynamic_j: f64,
    leakage_j: f64,
    average_power_w: f64,
    edp_js: f64,
    estimate: Estimate,
}

#[derive(Serialize)]
struct Report {
    tech: String,
    vdd_v: f64,
    temperature_k: f64,
    gpu: String,
    area_mm2: f64,
    leakage_w: f64,
    area: models::gpu::Node,
    workloads: Vec<WorkloadResult>,
}

fn load_config(args: &Args) -> anyhow::Result<GpuConfig> {
    Ok(match &args.config {
        Some(p) => GpuConfig::from_toml_file(p)?,
        None => GpuConfig::preset(&args.preset)?,
    })
}

/// The technology point the arguments ask for.
pub fn tech_choice(
    tech: &str,
    vdd: Option<f64>,
    op: Option<&str>,
    device: Option<&str>,
    temperature_k: f64,
) -> anyhow::Result<TechChoice> {
    if !(temperature_k.is_finite() && temperature_k > 0.0) {
        bail!("--temperature must be a positive number of kelvin, got {temperature_k}");
    }
    if let Some(v) = vdd {
        if !(v.is_finite() && v > 0.0) {
            bail!("--vdd must be a positive voltage, got {v}");
        }
    }
    let mut c = TechChoice::new(tech);
    c.flavour = device.map(str::to_string);
    c.vdd_v = vdd;
    c.temperature_k = temperature_k;
    c.op = match (op, vdd) {
        (Some(o), _) => Some(o.to_string()),
        (None, None) if tech.eq_ignore_ascii_case("finfet7") => Some("stv".into()),
        _ => None,
    };
    Ok(c)
}

fn result_of(
    chip: &ChipModel,
    label: &str,
    tech: &str,
    t_k: f64,
    act: &Activity,
) -> WorkloadResult {
    let k = &act.aggregate;
    let e = chip.estimate(label, tech, t_k, k);
    let tot = e.totals();
    WorkloadResult {
        workload: label.to_string(),
        cycles: k.cycles,
        warp_instructions: k.warp_insts,
        runtime_s: e.runtime_s,
        energy_j: e.energy_j(),
        dynamic_j: tot.dynamic_j,
        leakage_j: tot.leakage_j,
        average_power_w: e.average_power_w(),
        edp_js: e.edp_js(),
        estimate: e,
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let t0 = Instant::now();
    let cfg = load_config(&args)?;
    let choice = tech_choice(
        &args.tech,
        args.vdd,
        args.op.as_deref(),
        args.device.as_deref(),
        args.temperature,
    )?;
    let overlay = match &args.calibration {
        Some(p) => Some(Overlay::load(p).map_err(|e| anyhow::anyhow!("{e}"))?),
        None => None,
    };
    let src = TechCostSource::new(&choice, overlay).map_err(|e| anyhow::anyhow!("{e}"))?;
    let chip = ChipModel::build(&cfg, &src).map_err(|e| anyhow::anyhow!("{e}"))?;
    let tech_label = src.label.clone();
    let static_tree = chip.static_estimate(&format!("{} (area and leakage)", cfg.gpu.name));
    let mut results = Vec::new();
    if let Some(path) = &args.activity {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read activity file {}", path.display()))?;
        let act = Activity::from_json(&text, &path.display().to_string())?;
        results.push(result_of(
            &chip,
            &path.display().to_string(),
            &tech_label,
            args.temperature,
            &act,
        ));
    } else if !args.static_only {
        let list: Vec<&'static dyn workloads::Workload> = if args.workload == "all" {
            workloads::all()
        } else {
            vec![workloads::find(&args.workload).with_context(|| {
                let names: Vec<&str> = workloads::all().iter().map(|w| w.info().name).collect();
                format!(
                    "unknown workload '{}'; known: {}",
                    args.workload,
                    names.join(", ")
                )
            })?]
        };
        let size = if args.size == "bench" {
            Size::Bench
        } else {
            Size::Test
        };
        let bar = indicatif::ProgressBar::new(list.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} simulating [{bar:30}] {pos}/{len} {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        if list.len() == 1 || std::env::var_os("CI").is_some() {
            bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        }
        let sims: Vec<anyhow::Result<(String, Activity)>> = list
            .par_iter()
            .map(|w| {
                let name = w.info().name;
                let mut gpu = TimingGpu::new(cfg.clone());
                w.run(size, &mut gpu, false)
                    .with_context(|| format!("simulating workload '{name}'"))?;
                bar.inc(1);
                bar.set_message(name.to_string());
                Ok((name.to_string(), gpu.into_activity()))
            })
            .collect();
        bar.finish_and_clear();
        for s in sims {
            let (name, act) = s?;
            results.push(result_of(&chip, &name, &tech_label, args.temperature, &act));
        }
    }
    for r in &results {
        r.estimate.root.check_finite_nonnegative().map_err(|e| {
            anyhow::anyhow!(
                "internal error: non-finite or negative number in the estimate of {}: {e}",
                r.workload
            )
        })?;
    }
    let st = static_tree.totals();
    let report = Report {
        tech: tech_label.clone(),
        vdd_v: src.vdd_v_value(),
        temperature_k: args.temperature,
        gpu: cfg.gpu.name.clone(),
        area_mm2: st.area_m2 * 1e6,
        leakage_w: st.leakage_w,
        area: static_tree.clone(),
        workloads: results,
    };
    match args.format.as_str() {
        "json" => println!("{}", serde_json::to_string_pretty(&report)?),
        "csv" => {
            let mut out = String::new();
            let mut first = true;
            if report.workloads.is_empty() {
                let e = Estimate {
                    label: "static".into(),
                    tech: tech_label.clone(),
                    vdd_v: report.vdd_v,
                    temperature_k: args.temperature,
                    core_clock_hz: cfg.gpu.core_mhz * 1e6,
                    runtime_s: 0.0,
                    root: static_tree.clone(),
                };
                e.to_csv_rows(&mut out, true);
            }
            for w in &report.workloads {
                w.estimate.to_csv_rows(&mut out, first);
                first = false;
            }
            print!("{out}");
        }
        _ => print_table(&report, &cfg, &static_tree, &tech_label, args.temperature),
    }
    if let Some(dir) = &args.plot {
        crate::plots::write_estimate_plots(
            dir,
            &static_tree,
            &report
                .workloads
                .iter()
                .map(|w| &w.estimate)
                .collect::<Vec<_>>(),
        )?;
        eprintln!("plots written to {}", dir.display());
    }
    eprintln!("estimate done in {:.2} s", t0.elapsed().as_secs_f64());
    Ok(())
}

fn print_table(r: &Report, cfg: &GpuConfig, static_tree: &models::gpu::Node, tech: &str, t_k: f64) {
    if r.workloads.is_empty() {
        let e = Estimate {
            label: format!("{} — area and leakage only (no simulation)", cfg.gpu.name),
            tech: tech.to_string(),
            vdd_v: r.vdd_v,
            temperature_k: t_k,
            core_clock_hz: cfg.gpu.core_mhz * 1e6,
            runtime_s: 0.0,
            root: static_tree.clone(),
        };
        print!("{}", e.to_table());
        println!("chip: {:.2} mm2, leakage {:.3} W", r.area_mm2, r.leakage_w);
        return;
    }
    // Component breakdown summed over the workloads run (energy-weighted over total run time).
    let mut total = r.workloads[0].estimate.clone();
    total.label = if r.workloads.len() == 1 {
        r.workloads[0].workload.clone()
    } else {
        format!("{} workloads, summed", r.workloads.len())
    };
    for w in &r.workloads[1..] {
        add_tree(&mut total.root, &w.estimate.root);
        total.runtime_s += w.estimate.runtime_s;
    }
    print!("{}", total.to_table());
    println!();
    println!(
        "{:<16} {:>12} {:>14} {:>12} {:>12} {:>10} {:>12}",
        "workload", "cycles", "runtime us", "energy uJ", "avg power W", "leak %", "EDP J*s"
    );
    for w in &r.workloads {
        println!(
            "{:<16} {:>12} {:>14.3} {:>12.3} {:>12.3} {:>9.1}% {:>12.4e}",
            w.workload,
            w.cycles,
            w.runtime_s * 1e6,
            w.energy_j * 1e6,
            w.average_power_w,
            if w.energy_j > 0.0 {
                100.0 * w.leakage_j / w.energy_j
            } else {
                0.0
            },
            w.edp_js
        );
    }
    println!(
        "chip area {:.2} mm2 ({}, {})",
        r.area_mm2, cfg.gpu.name, tech
    );
}

/// Adds `b`'s energies into `a` (same tree shape; area is not summed).
fn add_tree(a: &mut models::gpu::Node, b: &models::gpu::Node) {
    a.dynamic_j += b.dynamic_j;
    a.leakage_j += b.leakage_j;
    a.gating_overhead_j += b.gating_overhead_j;
    for (x, y) in a.children.iter_mut().zip(&b.children) {
        add_tree(x, y);
    }
}
