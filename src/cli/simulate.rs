//! `gpuenergy simulate`: cycle-level simulation of a built-in workload (or, later, an Accel-Sim
//! trace) on a preset or user-configured GPU; prints cycles, IPC, occupancy and the stall
//! breakdown, and optionally saves the full `gpuenergy.activity.v1` record.

use crate::report::{format_parser, Format, TABLE_JSON};
use anyhow::{bail, Context, Result};
use sim::activity::{Activity, KernelActivity, StallCounts};
use sim::config::{GpuConfig, SchedPolicy};
use sim::timing::{Program, Simulation, TimingGpu};
use sim::trace::TraceFolder;
use sim::workloads::{self, Size};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const AFTER_HELP: &str = "\
Examples:
  gpuenergy simulate --preset gtx480 --workload hotspot --size test
  gpuenergy simulate --config my.toml --workload sgemm --scheduler two-level --out act.json
  gpuenergy simulate --preset gtx1080ti --workload bfs --format json

A --config file is either a full configuration (see `gpuenergy presets --dump gtx480`) or starts
with `base = \"gtx480\"` and overrides keys of that preset one by one.";

/// Arguments of `gpuenergy simulate`.
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Built-in GPU preset: gtx480, gtx780 or gtx1080ti (default gtx480).
    #[arg(long, conflicts_with = "config")]
    pub preset: Option<String>,
    /// Configuration file (TOML), full or `base = "<preset>"` plus overrides.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Built-in workload to simulate (see `gpuenergy workloads`).
    #[arg(long, conflicts_with = "trace")]
    pub workload: Option<String>,
    /// Input size tier: test (default) or bench.
    #[arg(long, default_value = "test")]
    pub size: String,
    /// Directory with an Accel-Sim trace (`kernelslist.g`).
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Warp scheduler: lrr, gto or two-level (overrides the configuration).
    #[arg(long)]
    pub scheduler: Option<String>,
    /// Also check the workload's results against its CPU reference.
    #[arg(long)]
    pub check: bool,
    /// Write the Activity record (JSON) to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Summary format on stdout.
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
}

/// Resolves `--preset`/`--config`/`--scheduler` into a configuration.
pub fn resolve_config(
    preset: Option<&str>,
    config: Option<&PathBuf>,
    scheduler: Option<&str>,
) -> Result<GpuConfig> {
    let mut cfg = match (preset, config) {
        (_, Some(path)) => GpuConfig::from_toml_file(path)?,
        (Some(p), None) => GpuConfig::preset(p)?,
        (None, None) => GpuConfig::preset("gtx480")?,
    };
    if let Some(s) = scheduler {
        cfg.sched.policy = match s {
            "lrr" => SchedPolicy::Lrr,
            "gto" => SchedPolicy::Gto,
            "two-level" | "two_level" => SchedPolicy::TwoLevel,
            _ => bail!("unknown scheduler '{s}' (expected lrr, gto or two-level)"),
        };
    }
    Ok(cfg)
}

/// Runs `gpuenergy simulate` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    let cfg = resolve_config(
        args.preset.as_deref(),
        args.config.as_ref(),
        args.scheduler.as_deref(),
    )?;
    if let Some(dir) = &args.trace {
        let start = Instant::now();
        let bar = progress_bar();
        let run = Simulation::new(&cfg).run(TraceFolder::new(dir).on_kernel(|i, n, p| {
            bar.set_message(format!("kernel {}/{n}: {}", i + 1, p.display()));
            bar.tick();
        }))?;
        bar.finish_and_clear();
        for w in &run.warnings {
            eprintln!("warning: {w}");
        }
        let wall = start.elapsed().as_secs_f64();
        let act = run.activity;
        if let Some(out) = &args.out {
            std::fs::write(out, act.to_json())
                .with_context(|| format!("writing {}", out.display()))?;
        }
        let label = dir.display().to_string();
        match args.format {
            Format::Json => println!(
                "{}",
                serde_json::to_string_pretty(&summary_json(
                    &cfg, &label, "trace", &act, wall, &None
                ))?
            ),
            Format::Table => print!(
                "{}",
                summary_table(&cfg, &label, "trace", &act, wall, &None)
            ),
            Format::Csv => return Err(crate::report::no_csv("simulate")),
        }
        return Ok(());
    }
    let Some(name) = args.workload.as_deref() else {
        bail!("give --workload NAME (see `gpuenergy workloads`) or --trace DIR");
    };
    let w = workloads::find(name)
        .with_context(|| format!("unknown workload '{name}' (see `gpuenergy workloads`)"))?;
    let size: Size = args.size.parse()?;
    let start = Instant::now();
    let bar = progress_bar();
    let b2 = bar.clone();
    let t0 = start;
    let label = name.to_string();
    let (report, act) = Simulation::new(&cfg)
        .progress(move |cycles, insts| {
            if t0.elapsed() > Duration::from_secs(2) {
                b2.set_message(format!(
                    "{label}: cycle {cycles}, {insts} warp insts in this launch"
                ));
                b2.tick();
            }
        })
        .run(Program(|gpu: &mut TimingGpu| w.run(size, gpu, args.check)))?;
    let report = report?;
    bar.finish_and_clear();
    let wall = start.elapsed().as_secs_f64();
    if let Some(out) = &args.out {
        std::fs::write(out, act.to_json()).with_context(|| format!("writing {}", out.display()))?;
    }
    let check = report.check.as_ref().map(|c| (c.passed, c.detail.clone()));
    match args.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&summary_json(
                &cfg,
                name,
                size.as_str(),
                &act,
                wall,
                &check
            ))?
        ),
        Format::Table => print!(
            "{}",
            summary_table(&cfg, name, size.as_str(), &act, wall, &check)
        ),
        Format::Csv => return Err(crate::report::no_csv("simulate")),
    }
    if let Some((false, d)) = check {
        bail!("{name}: results differ from the CPU reference: {d}");
    }
    Ok(())
}

fn progress_bar() -> indicatif::ProgressBar {
    let bar =
        indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("template"),
    );
    bar
}

fn stalls_map(s: &StallCounts) -> Vec<(&'static str, u64)> {
    vec![
        ("no_warp", s.no_warp),
        ("ibuffer_empty", s.ibuffer_empty),
        ("barrier", s.barrier),
        ("scoreboard", s.scoreboard),
        ("cu_full", s.cu_full),
        ("pipe_busy", s.pipe_busy),
        ("unit_gated", s.unit_gated),
    ]
}

fn kernel_json(k: &KernelActivity) -> serde_json::Value {
    let stalls: serde_json::Map<String, serde_json::Value> = stalls_map(&k.stalls)
        .into_iter()
        .map(|(n, v)| (n.to_string(), v.into()))
        .collect();
    serde_json::json!({
        "name": k.name,
        "launches": k.launches,
        "cycles": k.cycles,
        "warp_instructions": k.warp_insts,
        "thread_instructions": k.thread_insts,
        "ipc": k.ipc_warp(),
        "occupancy": k.occupancy.mean_occupancy,
        "max_ctas_per_sm": k.occupancy.max_ctas_per_sm,
        "occupancy_limiter": k.occupancy.limiter,
        "stalls": stalls,
        "truncated": k.truncated,
    })
}

fn summary_json(
    cfg: &GpuConfig,
    name: &str,
    size: &str,
    act: &Activity,
    wall: f64,
    check: &Option<(bool, String)>,
) -> serde_json::Value {
    let a = &act.aggregate;
    let mut v = kernel_json(a);
    let o = v.as_object_mut().expect("object");
    o.insert("workload".into(), name.into());
    o.insert("size".into(), size.into());
    o.insert("gpu".into(), cfg.gpu.name.clone().into());
    o.insert(
        "scheduler".into(),
        String::from(cfg.sched.policy.clone()).into(),
    );
    o.insert("config_hash".into(), cfg.hash_hex().into());
    o.insert("wall_s".into(), wall.into());
    o.insert(
        "sim_rate_warp_insts_per_s".into(),
        (a.warp_insts as f64 / wall.max(1e-9)).into(),
    );
    o.insert(
        "kernels".into(),
        act.kernels
            .iter()
            .map(kernel_json)
            .collect::<Vec<_>>()
            .into(),
    );
    if let Some((p, d)) = check {
        o.insert(
            "check".into(),
            serde_json::json!({"passed": p, "detail": d}),
        );
    }
    v
}

fn summary_table(
    cfg: &GpuConfig,
    name: &str,
    size: &str,
    act: &Activity,
    wall: f64,
    check: &Option<(bool, String)>,
) -> String {
    use std::fmt::Write;
    let a = &act.aggregate;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{name} ({size}) on {} [{}], scheduler {}",
        cfg.gpu.name,
        cfg.hash_hex(),
        String::from(cfg.sched.policy.clone())
    );
    let _ = writeln!(
        s,
        "{:<12} {:>8} {:>12} {:>14} {:>8} {:>9} {:>5}",
        "kernel", "launches", "cycles", "warp insts", "IPC", "occupancy", "CTAs"
    );
    for k in act.kernels.iter().chain(std::iter::once(a)) {
        let _ = writeln!(
            s,
            "{:<12} {:>8} {:>12} {:>14} {:>8.3} {:>8.1}% {:>5}",
            k.name,
            k.launches,
            k.cycles,
            k.warp_insts,
            k.ipc_warp(),
            100.0 * k.occupancy.mean_occupancy,
            k.occupancy.max_ctas_per_sm
        );
    }
    let total: u64 = stalls_map(&a.stalls).iter().map(|x| x.1).sum();
    let _ = writeln!(s, "stalls (scheduler-cycles without issue):");
    for (n, v) in stalls_map(&a.stalls) {
        let pct = if total > 0 {
            100.0 * v as f64 / total as f64
        } else {
            0.0
        };
        let _ = writeln!(s, "  {n:<14} {v:>14} {pct:>6.1}%");
    }
    let _ = writeln!(
        s,
        "simulated {} warp insts in {:.2} s ({:.2} M warp insts/s)",
        a.warp_insts,
        wall,
        a.warp_insts as f64 / wall.max(1e-9) / 1e6
    );
    if let Some((p, d)) = check {
        let _ = writeln!(s, "check: {} ({d})", if *p { "passed" } else { "FAILED" });
    }
    s
}
