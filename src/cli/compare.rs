//! `gpuenergy compare`: a baseline and one or more techniques on the same workloads at one
//! technology point ([`crate::compare`]); this module parses arguments and prints.

use crate::compare::{self, Variant};
use crate::report::{self, Format};
use crate::study::{NamedOverlay, Study};
use crate::study_config::StudyConfig;
use anyhow::Result;
use sim::workloads::Size;
use std::path::PathBuf;

/// Arguments of `gpuenergy compare`.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "Techniques side by side: the baseline and each --technique run on the same \
workloads at the same technology point, in parallel across cores.

Each --technique is one variant: a named technique or several joined with '+' (see `gpuenergy \
techniques`). --baseline takes a technique name too; by default it is the preset's scheduler with \
no gating (`none`). --set KEY=VALUE changes one configuration key of every run, the baseline's too; \
--sweep KEY=V1,V2,... runs each variant once per value.

Reports per workload and aggregated: run time and perf_overhead (T/T_baseline - 1), total energy \
and EDP and their change against the baseline.

Examples:
  gpuenergy compare --tech 40nm --technique warped-gates
  gpuenergy compare --tech 40nm --size bench --technique conv-pg --technique gates \\
      --technique gates+coord-blackout --technique warped-gates --format json
  gpuenergy compare --tech 40nm --workload hotspot --technique coord-blackout --sweep pg.bet=9,14,19,24
  gpuenergy compare --program my.toml --technique warped-gates
  gpuenergy compare --cuda k.cu --kernel k --grid 64 --block 256 --param buf:65536 \\
      --param u32:16384 --technique gates",
    after_help = super::program::HELP
)]
pub struct Args {
    /// Technology point: node, supply, device flavour, temperature.
    #[command(flatten)]
    pub point: super::TechArgs,
    /// GPU preset (see `gpuenergy presets`).
    #[arg(long, default_value = "gtx480", conflicts_with = "config")]
    pub preset: String,
    /// GPU configuration TOML (a preset plus overrides).
    /// Every key: docs/config-keys.md or `gpuenergy presets --keys`.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Workload to run, a comma-separated list of them, or `all` for the whole suite
    /// (default: all, or none when a program is given).
    #[arg(long)]
    pub workload: Option<String>,
    /// User programs: --program FILE, or one launch with --ptx/--cuda (see below). Without
    /// --workload only the programs run.
    #[command(flatten)]
    pub program: super::program::ProgramArgs,
    /// Input size tier of the built-in workloads (a program has fixed sizes and ignores it).
    #[arg(long, default_value = "test", value_parser = ["test", "bench"])]
    pub size: String,
    /// A variant: a technique or a '+'-joined combination (repeatable; at least one).
    #[arg(long = "technique", value_name = "NAME[+NAME...]", required = true)]
    pub techniques: Vec<String>,
    /// The run every variant is measured against: a technique name.
    #[arg(long, default_value = "none")]
    pub baseline: String,
    /// Warp scheduler of every run: lrr, gto, oldest, youngest, fetch_group, two-level (or
    /// another `sched.policy` value). Short for `--set sched.policy=NAME`, applied before the
    /// `--set` pairs.
    #[arg(long, value_name = "NAME")]
    pub scheduler: Option<String>,
    /// Override one configuration key of every run (repeatable), e.g. --set pg.wakeup=6.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Run every variant once per value of one key, e.g. --sweep pg.bet=9,14,19,24.
    #[arg(long, value_name = "KEY=V1,V2,...")]
    pub sweep: Option<String>,
    /// Calibration overlay for logic components (from `gpuenergy calibrate`).
    #[arg(long)]
    pub calibration: Option<PathBuf>,
    /// A published die area, mm², that the area each variant adds is also reported against
    /// (`area.added_area_ref_die_share`), e.g. 471 for the GTX 1080 Ti.
    #[arg(long, value_name = "MM2")]
    pub die_mm2: Option<f64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Write SVG plots into this folder.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// `--quiet`: no progress display.
    #[command(flatten)]
    pub quiet: super::progress::QuietArg,
    /// `--sample`, `--sample-error`: kernel sampling (every variant times the baseline's
    /// launches).
    #[command(flatten)]
    pub sampling: super::SampleArgs,
}

/// Smallest `--die-mm2`: 1 mm² (no GPU die is smaller; below it the "% of die" column is a
/// meaningless magnification of the technique's area).
pub const MIN_DIE_MM2: f64 = 1.0;
/// Largest `--die-mm2`: 70,000 mm², a whole 300 mm wafer (wafer-scale parts included).
pub const MAX_DIE_MM2: f64 = 70_000.0;

/// Runs `gpuenergy compare` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    // `--scheduler` becomes the first `--set` pair, so provenance records it as one
    let mut args = args;
    args.set = super::with_scheduler(args.scheduler.take().as_deref(), &args.set)?;
    let t0 = std::time::Instant::now();
    if let Some(d) = args.die_mm2 {
        if !(MIN_DIE_MM2..=MAX_DIE_MM2).contains(&d) {
            anyhow::bail!(
                "--die-mm2 {d:?}: out of range; allowed a die area from {MIN_DIE_MM2} to \
                 {MAX_DIE_MM2} mm² (a chip, up to a whole 300 mm wafer)"
            );
        }
    }
    let (base, origin) =
        crate::provenance::ConfigOrigin::load(&args.preset, args.config.as_deref())?;
    let set = crate::technique::parse_sets(&args.set).map_err(anyhow::Error::msg)?;
    let sweep = match &args.sweep {
        Some(s) => Some(compare::parse_sweep(s)?),
        None => None,
    };
    if let Some((key, _)) = &sweep {
        if set.iter().any(|(k, _)| k == key) {
            anyhow::bail!(
                "--set {key} and --sweep {key} name the same key: the sweep's values would \
                 replace the --set value in every run; give the key's values to --sweep only"
            );
        }
    }
    let (baseline, variants): (Variant, Vec<Variant>) = compare::plan(
        &base,
        &args.baseline,
        &args.techniques,
        &set,
        sweep.as_ref(),
    )?;
    for v in std::iter::once(&baseline).chain(&variants) {
        models::gpu::limits::check_sizes(&v.config)?;
    }
    let sampling = args.sampling.sampling()?;
    if crate::refcompare::needed(&baseline, &variants) {
        if sampling.is_on() {
            anyhow::bail!(
                "--sample {}: a run with reconv.mode = dwf, mimd or nrec runs on the \
                 reference-mode model, which kernel sampling does not time; allowed with it: \
                 --sample off",
                sampling.mode.as_str()
            );
        }
        let point = args.point.choice()?;
        let context = ReferenceContext {
            origin: &origin,
            base: &base,
            point: &point,
        };
        return run_reference(&args, &baseline, &variants, t0, &context);
    }
    let choice = args.point.choice()?;
    let run_point = choice.clone();
    let overlay = match &args.calibration {
        Some(p) => Some(NamedOverlay::load(p)?),
        None => None,
    };
    let list = args
        .program
        .workloads(args.workload.as_deref(), args.quiet.quiet)?;
    let size: Size = args.size.parse()?;
    let study = Study::new(baseline.config.clone(), choice, overlay)
        .size(size)
        .sampling(sampling);
    study.check_sampling()?;
    let quiet = args.quiet.quiet;
    let total = (variants.len() + 1) * list.len();
    let bar = super::progress::Progress::bar(total, "runs", quiet);
    let b = bar.clone();
    let result = compare::run(
        &study,
        &args.size,
        &baseline,
        &variants,
        &list,
        &move |n, _, what| {
            b.set_position(n);
            b.message(what);
        },
    );
    bar.finish();
    let mut c = result?;
    if let Some(d) = args.die_mm2 {
        compare::set_reference_die(&mut c, d);
    }
    let run = run_info(&args, &origin, &base, &run_point, &c);
    match args.format {
        Format::Json => println!("{}", report::compare::json(&c, &run)?),
        Format::Csv => print!("{}", report::csv_with_run(&run, &report::compare::csv(&c))),
        Format::Table => print!("{}", report::with_header(&run, &report::compare::table(&c))),
    }
    if let Some(dir) = &args.plot {
        report::compare::write_plots(dir, &c, &run)?;
        super::progress::note(quiet, format!("plots written to {}", dir.display()));
    }
    super::progress::note(
        quiet,
        format!("compare done in {:.2} s", t0.elapsed().as_secs_f64()),
    );
    Ok(())
}

/// What produced a comparison: the base configuration (its hash before `--set` and the
/// techniques), `--set` as overrides, the baseline and the variants (with their swept values)
/// as techniques, baseline first, the technology point, the core clock at it (the
/// baseline's cycles over its run time), the size and the workloads.
fn run_info(
    args: &Args,
    origin: &crate::provenance::ConfigOrigin,
    base: &StudyConfig,
    point: &techlib::ResolvedPoint,
    c: &compare::Comparison,
) -> crate::provenance::RunInfo {
    // a swept key's values are in the variants' names (`coord-blackout [pg.bet=9]`)
    let mut run =
        crate::provenance::RunInfo::for_config(origin, base, None, &args.set).with_point(point);
    run.techniques = std::iter::once(c.baseline.clone())
        .chain(c.variants.iter().map(|v| v.name.clone()))
        .collect();
    run.size = c.size.clone();
    run.workloads = c.baseline_runs.keys().cloned().collect();
    run.activity_source = "sim".into();
    if let Some(r) = c.baseline_runs.values().find(|r| r.runtime_s > 0.0) {
        run.core_clock_hz = r.cycles as f64 / r.runtime_s;
    }
    run
}

/// What a reference-mode comparison's provenance is made of besides its runs: where the base
/// configuration came from, the base configuration (before `--set` and the techniques) and the
/// technology point.
pub struct ReferenceContext<'a> {
    /// Where the base configuration came from.
    pub origin: &'a crate::provenance::ConfigOrigin,
    /// The base configuration.
    pub base: &'a StudyConfig,
    /// The technology point the runs are costed at.
    pub point: &'a techlib::ResolvedPoint,
}

/// What produced a comparison on the reference-mode model (the `run` of its JSON and the
/// header of its table): the base configuration (its hash before `overrides` and the
/// techniques), `overrides` (`--set`, the scheduler's first), the baseline and the variants as
/// techniques, baseline first, the technology point, the size and the workloads; the activity
/// comes from the reference-mode model. The command line is this process's (a library caller
/// clears it).
pub fn reference_run_info(
    context: &ReferenceContext<'_>,
    overrides: &[String],
    baseline: &Variant,
    variants: &[Variant],
    size: &str,
    workloads: &[&dyn sim::workloads::Workload],
) -> crate::provenance::RunInfo {
    let mut run =
        crate::provenance::RunInfo::for_config(context.origin, context.base, None, overrides)
            .with_point(context.point);
    run.techniques = std::iter::once(baseline.name.clone())
        .chain(variants.iter().map(|v| v.name.clone()))
        .collect();
    run.size = size.to_string();
    run.activity_source = "reference".into();
    run.workloads = workloads
        .iter()
        .map(|w| w.info().name.to_string())
        .collect();
    run
}

/// `compare` with a reference mode (`reconv.mode` = dwf, mimd or nrec) in some run: every run
/// on the reference-mode model ([`crate::refcompare`]): cycles and speedups, and each run's
/// activity record costed at the technology point.
fn run_reference(
    args: &Args,
    baseline: &compare::Variant,
    variants: &[compare::Variant],
    t0: std::time::Instant,
    context: &ReferenceContext<'_>,
) -> Result<()> {
    if args.plot.is_some() || args.die_mm2.is_some() {
        anyhow::bail!(
            "--plot and --die-mm2 are not available for a comparison with 'reconv.mode' = dwf, \
             mimd or nrec (the reference-mode table; the DWF die area is 'dwf.die_area_mm2')"
        );
    }
    if matches!(args.format, Format::Csv) {
        return Err(crate::report::no_csv("compare (reference modes)"));
    }
    let list = args
        .program
        .workloads(args.workload.as_deref(), args.quiet.quiet)?;
    let size: Size = args.size.parse()?;
    let quiet = args.quiet.quiet;
    let bar = super::progress::Progress::bar((variants.len() + 1) * list.len(), "runs", quiet);
    let b = bar.clone();
    let overlay = match &args.calibration {
        Some(p) => Some(NamedOverlay::load(p)?),
        None => None,
    };
    let hw = crate::refcompare::HwContext {
        study: Study::new(baseline.config.clone(), context.point.clone(), overlay).size(size),
    };
    let c = crate::refcompare::run(
        baseline,
        variants,
        &list,
        size,
        Some(&hw),
        &move |n, what| {
            b.set_position(n);
            b.message(what);
        },
    );
    bar.finish();
    let c = c?;
    let run = reference_run_info(context, &args.set, baseline, variants, &args.size, &list);
    match args.format {
        Format::Json => println!("{}", report::json_struct_with_run(&run, &c)?),
        _ => print!(
            "{}",
            report::with_header(&run, &crate::refcompare::table(&c))
        ),
    }
    super::progress::note(
        quiet,
        format!("compare done in {:.2} s", t0.elapsed().as_secs_f64()),
    );
    Ok(())
}
