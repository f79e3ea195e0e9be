//! `gpuenergy synth`: synthesise components with yosys + OpenSTA against liberty files and write
//! the raw tool reports and a normalised record (`record.json`, with the run metadata `run`)
//! per run.

use super::progress::Progress;
use crate::report;
use anyhow::{anyhow, bail, Context, Result};
use calibration::flow::{self, registry, FlowOptions};
use calibration::progress::Step;
use std::path::PathBuf;

/// Arguments of `gpuenergy synth`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory with liberty files (*.lib or *.lib.gz), e.g. ../shared/asap7 (needed except
    /// for `--component list`).
    #[arg(long)]
    pub liberty_dir: Option<PathBuf>,
    /// Device flavour of the library files (rvt, lvt, slvt), named as in every other command
    /// (`--flavour` is accepted too).
    #[arg(long = "device", visible_alias = "flavour", default_value = "rvt")]
    pub flavour: String,
    /// Process corner of the library files (tt, ff, ss).
    #[arg(long, default_value = "tt")]
    pub corner: String,
    /// Component to synthesise (see the list with --component list), or `all` (with --sweep).
    #[arg(long)]
    pub component: String,
    /// Size parameter NAME=VALUE (repeatable); unspecified ones take the component's default.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Run the component's default sweep grid instead of one size.
    #[arg(long)]
    pub sweep: bool,
    /// With --sweep: the narrowed grids used for the committed goldens (sfu_lane TBITS 3..7).
    #[arg(long, requires = "sweep")]
    pub golden: bool,
    /// Skip runs whose record.json already exists in the output directory.
    #[arg(long)]
    pub keep_existing: bool,
    /// Output directory (one subdirectory per run, plus the prepared libraries).
    #[arg(long, default_value = "out/synth")]
    pub out: PathBuf,
    /// Clock period in nanoseconds.
    #[arg(long, default_value_t = 1.0)]
    pub clock_ns: f64,
    /// Stimulus cycles simulated for switching activity.
    #[arg(long, default_value_t = 400)]
    pub cycles: u32,
    /// Delete bulky intermediates (netlist, simulator image, logs) after each successful run.
    #[arg(long)]
    pub lean: bool,
    /// Directory for the prepared (decompressed, merged) libraries (default: OUT/.lib).
    #[arg(long)]
    pub lib_cache: Option<PathBuf>,
    /// `--quiet`: no progress display.
    #[command(flatten)]
    pub quiet: super::progress::QuietArg,
}

/// Runs `gpuenergy synth` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    if args.component == "list" {
        print!(
            "{}",
            report::synth::component_list(::calibration::rtl::components())
        );
        return Ok(());
    }
    let Some(liberty_dir) = args.liberty_dir.clone() else {
        bail!("--liberty-dir is required to synthesise (e.g. --liberty-dir ../shared/asap7)");
    };
    if !(args.clock_ns.is_finite() && args.clock_ns > 0.0) {
        bail!("--clock-ns must be a positive number of nanoseconds");
    }
    let names: Vec<String> = if args.component == "all" {
        if !args.sweep && !args.params.is_empty() {
            bail!("--component all takes no --param");
        }
        registry::names()
    } else {
        vec![args.component.clone()]
    };
    flow::check_tools(true)?;
    let mut opts = FlowOptions::new(&liberty_dir);
    opts.flavour = args.flavour.to_lowercase();
    opts.corner = args.corner.to_lowercase();
    opts.clock_period_s = args.clock_ns * 1e-9;
    opts.out_dir = args.out.clone();
    opts.stim_cycles = args.cycles;
    let cache = args
        .lib_cache
        .clone()
        .unwrap_or_else(|| args.out.join(".lib"));
    let quiet = args.quiet.quiet;
    let bar = Progress::spinner(quiet);
    bar.message("preparing libraries");
    bar.note(format!(
        "synth: preparing {} {} libraries from {}",
        opts.flavour,
        opts.corner,
        liberty_dir.display()
    ));
    let lib = flow::library::prepare_with_progress(
        &liberty_dir,
        &opts.flavour,
        &opts.corner,
        &cache,
        &mut |s: Step<'_>| {
            bar.message(format!(
                "preparing libraries: {}/{} {}",
                s.done + 1,
                s.total,
                s.item
            ));
            bar.log(format!("  reading {}", s.item));
        },
    );
    bar.finish();
    let lib = lib?;
    let given = super::component::parse_params(&args.params)?;
    let mut jobs = Vec::new();
    for n in &names {
        if args.sweep {
            let grid = if args.golden {
                registry::golden_sweep(n)?
            } else {
                registry::sweep(n)?
            };
            for p in grid {
                jobs.push(registry::spec(n, &p)?);
            }
        } else {
            jobs.push(registry::spec(n, &given)?);
        }
    }
    let mut run = crate::provenance::RunInfo::for_command();
    run.flavour = opts.flavour.clone();
    print!("{}", report::with_header(&run, &report::synth::header()));
    let total = jobs.len();
    let bar = Progress::bar(total, "runs", quiet);
    let result = run_jobs(&args, &jobs, &lib, &opts, &bar);
    bar.finish();
    let failed = result?;
    if total == 0 {
        return Err(anyhow!("nothing to synthesise"));
    }
    if !failed.is_empty() {
        bail!(
            "{} of {} runs failed:\n  {}",
            failed.len(),
            total,
            failed.join("\n  ")
        );
    }
    Ok(())
}

/// Synthesises every job in turn, printing a row per finished run on stdout and moving `bar`;
/// returns the failed runs of a sweep (a single run's failure is an error).
fn run_jobs(
    args: &Args,
    jobs: &[flow::FlowSpec],
    lib: &flow::library::PreparedLibrary,
    opts: &FlowOptions,
    bar: &Progress,
) -> Result<Vec<String>> {
    let total = jobs.len();
    let mut failed = Vec::new();
    for (i, spec) in jobs.iter().enumerate() {
        let what = format!("{} {:?}", spec.kind, spec.params);
        bar.set_position(i);
        bar.message(what.clone());
        bar.log(format!("synth: [{}/{}] {what}", i + 1, total));
        let t0 = std::time::Instant::now();
        let existing = opts
            .out_dir
            .join(flow::run_dir_name(spec))
            .join("record.json");
        let cached = if args.keep_existing && existing.exists() {
            calibration::SynthRecord::load(&existing).ok()
        } else {
            None
        };
        let cached_run = cached.is_some();
        let result = match cached {
            Some(r) => Ok(r),
            None => flow::run_with_progress(spec, lib, opts, &mut |s: Step<'_>| {
                bar.message(format!("{what}: {}", s.stage));
                bar.log(format!("[{}] {}", s.item, s.stage));
            }),
        };
        let rec = match result {
            Ok(r) => r,
            Err(e) if total > 1 => {
                // In a sweep, report the failure and go on with the other points.
                bar.warn(format!("synth: [{}/{}] FAILED: {e}", i + 1, total));
                failed.push(format!("{what}: {e}"));
                continue;
            }
            Err(e) => return Err(e).with_context(|| format!("synthesising {what}")),
        };
        if !cached_run {
            // the record says what produced it, as every output does
            let mut run = crate::provenance::RunInfo::for_command();
            run.flavour = rec.flavour.clone();
            run.vdd_v = rec.vdd_v;
            std::fs::write(&existing, report::synth::record_json(&run, &rec))
                .with_context(|| format!("writing {}", existing.display()))?;
        }
        if args.lean {
            flow::prune(&opts.out_dir.join(flow::run_dir_name(spec)));
        }
        bar.log(format!(
            "synth: [{}/{}] done in {:.1} s",
            i + 1,
            total,
            t0.elapsed().as_secs_f64()
        ));
        bar.inc();
        print!("{}", report::synth::row(&rec));
    }
    Ok(failed)
}
