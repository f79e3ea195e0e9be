//! `gpuenergy rfstats`: the register-file characterisation of workloads (register-file spec §9
//! "Characterisation", no technique needed). Each workload is simulated with
//! `stats.per_register` on (in parallel, progress on stderr) and its per-register record is
//! summarised by [`crate::report::rfstats`].

use super::progress::{note, Progress};
use crate::report::{self, Format};
use anyhow::Result;
use rayon::prelude::*;
use sim::timing::{Program, Simulation, TimingGpu};
use sim::workloads::Size;
use std::path::PathBuf;

const AFTER_HELP: &str = concat!(
    "\
Examples:
  gpuenergy rfstats --workload hotspot
  gpuenergy rfstats --workload all --preset gtx780 --format csv
  gpuenergy rfstats --workload bfs --set metrics.interaccess_cutoff=1000 --set prf.n_fast=6 \\
      --format json --plot plots/
  gpuenergy rfstats --program my.toml

",
    super::program::program_help!()
);

/// Arguments of `gpuenergy rfstats`.
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Built-in workload, a comma-separated list, or `all` (see `gpuenergy workloads`;
    /// default: all, or none when a program is given).
    #[arg(long)]
    pub workload: Option<String>,
    /// User programs: --program FILE, or one launch with --ptx/--cuda (see below).
    #[command(flatten)]
    pub program: super::program::ProgramArgs,
    /// Built-in GPU preset: one of `gpuenergy presets`.
    #[arg(long, default_value = "gtx480")]
    pub preset: String,
    /// Configuration file (TOML), full or `base = "<preset>"` plus overrides (instead of
    /// --preset).
    /// Every key: docs/config-keys.md or `gpuenergy presets --keys`.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Input size tier of the built-in workloads: test or bench (a program has fixed sizes
    /// and ignores it).
    #[arg(long, default_value = "test")]
    pub size: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Write SVG plots (active-lane and inter-access histograms per workload) into this folder.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Technique and single-key overrides of the configuration (`metrics.interaccess_cutoff`,
    /// `prf.n_fast`, `prf.pilot_select` shape the metrics).
    #[command(flatten)]
    pub mods: super::ConfigMods,
    /// `--quiet`: no progress display.
    #[command(flatten)]
    pub quiet: super::progress::QuietArg,
}

/// Runs `gpuenergy rfstats` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    let list = args
        .program
        .workloads(args.workload.as_deref(), args.quiet.quiet)?;
    let size: Size = args.size.parse()?;
    let (cfg, origin) =
        crate::provenance::ConfigOrigin::load(&args.preset, args.config.as_deref())?;
    let cfg = args.mods.apply(cfg)?;
    let mut run = crate::provenance::RunInfo::for_config(
        &origin,
        &cfg,
        args.mods.technique.as_deref(),
        &args.mods.overrides()?,
    );
    run.size = args.size.clone();
    run.workloads = list.iter().map(|w| w.info().name.to_string()).collect();
    run.activity_source = "sim".into();
    let mut cfg = cfg.machine;
    cfg.stats.per_register = true;
    let quiet = args.quiet.quiet;
    let bar = Progress::bar(list.len(), "workloads", quiet);
    let rows: Vec<report::rfstats::RfCharacter> = list
        .par_iter()
        .map(|w| {
            let name = w.info().name;
            let (ran, act) = Simulation::new(&cfg)
                .run(Program(|gpu: &mut TimingGpu| w.run(size, gpu, false)))
                .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
            ran.map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
            let c = report::rfstats::characterise(name, &cfg, &act)?;
            bar.inc();
            bar.message(format!("{name} done"));
            Ok(c)
        })
        .collect::<Result<_>>()?;
    bar.finish();
    match args.format {
        Format::Table => print!(
            "{}",
            report::with_header(&run, &report::rfstats::table(&rows))
        ),
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&report::json_with_run(
                &run,
                serde_json::to_value(&rows)?,
                "workloads"
            ))?
        ),
        Format::Csv => print!(
            "{}",
            report::csv_with_run(&run, &report::rfstats::csv(&rows))
        ),
    }
    if let Some(dir) = &args.plot {
        let files = report::rfstats::plots(dir, &rows, &run.plot_subtitle())?;
        note(
            quiet,
            format!("{} plots written to {}", files.len(), dir.display()),
        );
    }
    Ok(())
}
