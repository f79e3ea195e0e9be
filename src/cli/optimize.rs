//! `gpuenergy optimize`: the techniques and knobs that minimise energy, EDP or ED²P over the
//! workloads under an area budget and a slowdown cap ([`crate::optimize`]); this module parses
//! arguments, installs the Ctrl-C handler and prints.

use crate::optimize::cache::{self, ActivityCache};
use crate::optimize::evaluate::{Evaluator, Objective, SimEvaluator, INTERRUPTED};
use crate::optimize::report::{self, Effort, OptimizeReport};
use crate::optimize::space::{Design, Space};
use crate::optimize::{self, pareto, Problem};
use crate::report::{format_parser, Format, TABLE_JSON};
use crate::study::Study;
use crate::study_config::opt::AreaBudget;
use crate::study_config::StudyConfig;
use anyhow::{bail, Context, Result};
use sim::workloads::Size;
use std::path::PathBuf;
use std::sync::Arc;

/// Arguments of `gpuenergy optimize`.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "Chooses the techniques and their knobs (gating policy and sleep-switch scale s, \
register-file technique, partitioned-RF n and V_SRF, issue-stage buffer depth or collector \
count) that minimise the objective over the workloads, with the added area within --area-budget \
and the mean slowdown within --perf-cap.

Method: every option is simulated alone against the baseline (continuous knobs by golden-section \
search), the discrete choice is a MILP over the additive single-option changes (good_lp, microlp), \
and the MILP's combination is verified by a full simulation; disagreements widen the margins and \
the search iterates. Activity records are cached on disk (--cache-dir), so re-runs simulate \
nothing. Ctrl-C stops the search and prints the best verified design so far.

Defaults of --area-budget, --perf-cap and --objective come from the configuration's [opt] table.

Examples:
  gpuenergy optimize --tech finfet7 --area-budget 2% --space gating,rf
  gpuenergy optimize --tech finfet7 --area-budget 0.5mm2 --budget-of chip --objective edp \\
      --workload hotspot,bfs --format json --out best.toml
  gpuenergy optimize --tech finfet7 --area-budget 2% --space gating --program my.toml",
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
    /// Workload, a comma-separated list of them, or `all` (default: all, or none when a
    /// program is given).
    #[arg(long)]
    pub workload: Option<String>,
    /// User programs: --program FILE, or one launch with --ptx/--cuda (see below). Without
    /// --workload only the programs run.
    #[command(flatten)]
    pub program: super::program::ProgramArgs,
    /// Input size tier of the built-in workloads (a program has fixed sizes and ignores it).
    #[arg(long, default_value = "test", value_parser = ["test", "bench"])]
    pub size: String,
    /// Area everything added may take: `X%` of the --budget-of base or `Xmm2`
    /// (default: `opt.area_budget`).
    #[arg(long, value_name = "X%|Xmm2", allow_hyphen_values = true)]
    pub area_budget: Option<String>,
    /// What a `%` budget is a share of: the SMs, the whole chip or the register files.
    #[arg(long, default_value = "sm", value_parser = ["sm", "chip", "rf"])]
    pub budget_of: String,
    /// Largest mean slowdown, `5%` or `0.05` (default: `opt.max_slowdown`).
    #[arg(long, value_name = "X%|FRACTION", allow_hyphen_values = true)]
    pub perf_cap: Option<String>,
    /// Minimised quantity (default: `opt.objective`).
    #[arg(long, value_parser = ["energy", "edp", "ed2p"])]
    pub objective: Option<String>,
    /// Groups of decision variables, comma-separated: gating, rf, issue.
    #[arg(long, default_value = "gating,rf")]
    pub space: String,
    /// Warp scheduler of every design: lrr, gto, oldest, youngest, fetch_group, two-level (or
    /// another `sched.policy` value). Short for `--set sched.policy=NAME`, applied before the
    /// `--set` pairs.
    #[arg(long, value_name = "NAME")]
    pub scheduler: Option<String>,
    /// Override one configuration key of every design (repeatable), after the options.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// `--sample`, `--sample-error`: kernel sampling; every design times the launches the
    /// baseline chose for each workload, so designs differ by their own effect.
    #[command(flatten)]
    pub sampling: super::SampleArgs,
    /// Folder of the Activity cache (default: `activity` under $GPUENERGY_CACHE_DIR, else
    /// $XDG_CACHE_HOME/gpuenergy, else ~/.cache/gpuenergy).
    #[arg(long, default_value_os_t = cache::default_dir())]
    pub cache_dir: PathBuf,
    /// Size cap of the Activity cache in MiB: after the run the least recently written entries
    /// beyond it are removed.
    #[arg(long, default_value_t = cache::DEFAULT_MAX_BYTES >> 20, value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub cache_max_mib: u64,
    /// Verification iterations at most (1 to 1000).
    #[arg(long, default_value_t = 8, value_parser = parse_iterations)]
    pub max_iterations: u16,
    /// Also evaluate every combination (at the searched continuous values) and report whether
    /// the search found the same design.
    #[arg(long)]
    pub exhaustive: bool,
    /// Output format.
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
    /// Write the Pareto plot (pareto.svg) into this folder.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Write the chosen design's configuration (accepted by `estimate --config` and `compare
    /// --config`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// `--quiet`: no progress display.
    #[command(flatten)]
    pub quiet: super::progress::QuietArg,
}

/// Most `--max-iterations`.
pub const MAX_ITERATIONS: u16 = 1000;

/// `--max-iterations`: a whole number from 1 to [`MAX_ITERATIONS`].
fn parse_iterations(s: &str) -> Result<u16, String> {
    match s.trim().parse::<u64>() {
        Ok(v) if (1..=u64::from(MAX_ITERATIONS)).contains(&v) => Ok(v as u16),
        _ => Err(format!(
            "'{s}' is out of range; allowed a whole number from 1 to {MAX_ITERATIONS}"
        )),
    }
}

/// Largest share `--perf-cap` takes: 10 (1000 %, a design eleven times slower).
pub const MAX_SHARE: f64 = 10.0;

/// `5%` or `0.05` as a fraction, from 0 to [`MAX_SHARE`].
fn parse_fraction(text: &str, flag: &str) -> Result<f64> {
    let t = text.trim();
    let v = match t.strip_suffix('%') {
        Some(n) => n.trim().parse::<f64>().map(|v| v / 100.0),
        None => t.parse::<f64>(),
    };
    match v {
        Ok(v) if v.is_finite() && (0.0..=MAX_SHARE).contains(&v) => Ok(v),
        _ => bail!(
            "{flag} '{text}': out of range; allowed a share from 0 to {}% such as 5% or 0.05",
            MAX_SHARE * 100.0
        ),
    }
}

#[cfg(unix)]
extern "C" fn on_sigint(_: libc::c_int) {
    INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Ctrl-C sets [`INTERRUPTED`]: no new run starts and the best verified design is printed.
fn install_sigint() {
    #[cfg(unix)]
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
}

/// What one `optimize` run found: the report and what the plot and `--out` need.
pub struct Solved {
    /// The report (table and JSON).
    pub report: OptimizeReport,
    /// With `--exhaustive`: the best design's name, its numbers, the designs evaluated and
    /// whether it is the search's design.
    pub exhaustive: Option<(String, crate::optimize::evaluate::Metrics, usize, bool)>,
    /// Every design simulated.
    pub evaluated: Vec<optimize::Evaluated>,
    /// The chosen design's configuration.
    pub config: StudyConfig,
}

/// Runs the search of `args` without printing anything but the progress bar.
pub fn solve(args: &Args) -> Result<Solved> {
    let t0 = std::time::Instant::now();
    let base = match &args.config {
        Some(p) => StudyConfig::from_toml_file(p)?,
        None => StudyConfig::preset(&args.preset)?,
    };
    let set = crate::technique::parse_sets(&args.set).map_err(anyhow::Error::msg)?;
    // `--set energy.…`/`opt.…` apply to every design's costing (the defaults below are the
    // file's); the optimiser varies the machine with the rest
    let (set, other_set) = crate::study_config::split_overrides(&set);
    let costed = base.with_overrides(&other_set, "--set")?;
    let budget_text = args
        .area_budget
        .clone()
        .unwrap_or_else(|| base.opt.area_budget.clone());
    let budget =
        AreaBudget::parse(&budget_text).map_err(|e| anyhow::anyhow!("--area-budget: {e}"))?;
    let slowdown_cap = match &args.perf_cap {
        Some(t) => parse_fraction(t, "--perf-cap")?,
        None => base.opt.max_slowdown,
    };
    let objective: Objective = match args.objective.as_deref() {
        Some("edp") => Objective::Edp,
        Some("ed2p") => Objective::Ed2p,
        Some(_) => Objective::Energy,
        None => base.opt.objective.into(),
    };
    let mut space = Space::parse(&args.space, &base).map_err(anyhow::Error::msg)?;
    let choice = args.point.choice()?;
    for line in space
        .apply_snm_floor(choice.node(), base.opt.snm_min)
        .map_err(|e| anyhow::anyhow!("opt.snm_min: {e}"))?
    {
        super::progress::note(args.quiet.quiet, line);
    }
    for (k, _) in &set {
        if let Some(who) = space.option_setting(k) {
            anyhow::bail!(
                "--set {k}: the optimiser's {who} sets this key, so the --set would override \
                 the designs it reports (e.g. every design gated while the report says gating \
                 off); leave {k} to the search, or drop its group from --space"
            );
        }
    }
    let conflicts = space.conflicts(&base, &set);
    let list = args
        .program
        .workloads(args.workload.as_deref(), args.quiet.quiet)?;
    let size: Size = args.size.parse()?;
    cache::check_dir(&args.cache_dir).map_err(anyhow::Error::msg)?;
    let cache = Arc::new(ActivityCache::new(&args.cache_dir));
    let sampling = args.sampling.sampling()?;
    let study = Study::new(costed.clone(), choice, None)
        .size(size)
        .cache(cache.clone())
        .sampling(sampling.clone());
    study.check_sampling()?;
    let quiet = args.quiet.quiet;
    let knobbed: usize = space
        .groups
        .iter()
        .flat_map(|g| g.options.iter().skip(1))
        .map(|c| if c.knob.is_some() { 8 } else { 1 })
        .sum();
    let bar = super::progress::Progress::bar(
        (1 + knobbed + usize::from(args.max_iterations)) * list.len(),
        "runs",
        quiet,
    );
    let b = bar.clone();
    let ev = SimEvaluator::new(
        &space,
        base.machine.clone(),
        set.clone(),
        study.clone(),
        list.clone(),
        move || b.inc(),
    );
    let [sm_m2, chip_m2, rf_m2] = ev.budget_bases_m2()?;
    let (budget_mm2, base_name) = match budget {
        AreaBudget::Absolute { area_m2 } => (area_m2 * 1e6, "absolute"),
        AreaBudget::Fraction(f) => match args.budget_of.as_str() {
            "chip" => (f * chip_m2 * 1e6, "chip"),
            "rf" => (f * rf_m2 * 1e6, "register files"),
            _ => (f * sm_m2 * 1e6, "SMs"),
        },
    };
    let mut problem = Problem::new(objective, budget_mm2, slowdown_cap);
    problem.max_iterations = usize::from(args.max_iterations);
    install_sigint();
    bar.message("baseline and single options");
    let outcome = optimize::optimize(&space, &ev, &problem, &conflicts);
    bar.finish();
    let outcome = outcome?;
    if outcome.interrupted {
        super::progress::note(
            false,
            "interrupted: the cache is consistent; printing the best verified design so far",
        );
    }
    let config = costed.with_machine(ev.config(&outcome.chosen)?);
    let exhaustive = if args.exhaustive && !outcome.interrupted {
        let (d, m, all) = optimize::exhaustive(&space, &ev, &problem, &outcome.knob_values)?;
        Some((space.name(&d), m, all.len(), d == outcome.chosen))
    } else {
        None
    };
    let front = pareto::front(&outcome.evaluated, objective, slowdown_cap);
    let elapsed_s = t0.elapsed().as_secs_f64();
    let (hits, misses) = cache.counts();
    let (removed, freed) = cache.trim(args.cache_max_mib << 20);
    let (entries, bytes) = cache.usage();
    if !args.quiet.quiet {
        eprintln!(
            "activity cache {}: {hits} hits, {misses} misses; {entries} entries, {:.1} MiB (cap {} \
             MiB{})",
            cache.dir().display(),
            bytes as f64 / (1 << 20) as f64,
            args.cache_max_mib,
            if removed > 0 {
                format!(
                    ", {removed} oldest entries ({:.1} MiB) removed",
                    freed as f64 / (1 << 20) as f64
                )
            } else {
                String::new()
            }
        );
    }
    let (vs_base, vs_single) = report::savings(objective, &outcome);
    let sample = sampling.is_on().then(|| report::OptimizeSample {
        mode: sampling.mode.as_str().to_string(),
        target_error: (sampling.mode == crate::sample::SampleMode::Auto)
            .then_some(sampling.target_error),
        baseline: ev.sample_errors(&space.name(&Design::baseline(space.groups.len()))),
        chosen: ev.sample_errors(&space.name(&outcome.chosen)),
    });
    let rep = OptimizeReport {
        tech: args.point.tech.clone(),
        gpu: base.gpu.name.clone(),
        size: args.size.clone(),
        workloads: list.iter().map(|w| w.info().name.to_string()).collect(),
        objective,
        space: space.groups.iter().map(|g| g.name.clone()).collect(),
        combinations: space.combinations(),
        chosen: report::chosen(&space, &outcome),
        chosen_name: outcome.chosen_name.clone(),
        baseline: outcome.baseline,
        predicted: outcome.predicted,
        verified: outcome.verified,
        budget_mm2,
        budget_spec: format!("{budget_text} of {base_name}"),
        max_slowdown: slowdown_cap,
        saving_vs_baseline: vs_base,
        saving_vs_single: vs_single,
        singles: outcome.singles.clone(),
        iterations: outcome.iterations.clone(),
        stop: outcome.stop.clone(),
        interrupted: outcome.interrupted,
        elapsed_s,
        pareto: front.clone(),
        effort: Effort {
            designs: ev.evaluations(),
            workload_runs: ev.runs(),
            cache_hits: hits,
            cache_misses: misses,
            designs_per_s: ev.evaluations() as f64 / elapsed_s.max(1e-9),
            runs_per_s: ev.runs() as f64 / elapsed_s.max(1e-9),
        },
        sample,
    };
    Ok(Solved {
        report: rep,
        exhaustive,
        evaluated: outcome.evaluated,
        config,
    })
}

/// What produced an optimisation: the base configuration, `--set` as overrides, the
/// technology point, the size and the workloads.
fn run_info(args: &Args, rep: &OptimizeReport) -> Result<crate::provenance::RunInfo> {
    let (base, origin) =
        crate::provenance::ConfigOrigin::load(&args.preset, args.config.as_deref())?;
    let mut run = crate::provenance::RunInfo::for_config(&origin, &base, None, &args.set)
        .with_point(&args.point.choice()?);
    run.size = rep.size.clone();
    run.workloads = rep.workloads.clone();
    run.activity_source = "sim".into();
    Ok(run)
}

/// The `--format json` document of a solved search.
fn json_text(s: &Solved, run: &crate::provenance::RunInfo) -> Result<String> {
    let mut v = serde_json::to_value(&s.report)?;
    if let Some(o) = v.as_object_mut() {
        o.insert("run".into(), run.json());
        if let Some((name, m, n, same)) = &s.exhaustive {
            o.insert(
                "exhaustive".into(),
                serde_json::json!({"best": name, "metrics": m, "designs": n, "same_as_search": same}),
            );
        }
    }
    Ok(serde_json::to_string_pretty(&v)?)
}

/// The search of `args` and its `--format json` document, without printing anything but
/// the progress bar (none with `--quiet`); `--plot` and `--out` are not written.
pub fn json(args: Args) -> Result<String> {
    let mut args = args;
    args.set = super::with_scheduler(args.scheduler.take().as_deref(), &args.set)?;
    let solved = solve(&args)?;
    let run = run_info(&args, &solved.report)?;
    json_text(&solved, &run)
}

/// Runs `gpuenergy optimize` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    // `--scheduler` becomes the first `--set` pair, so provenance records it as one
    let mut args = args;
    args.set = super::with_scheduler(args.scheduler.take().as_deref(), &args.set)?;
    let quiet = args.quiet.quiet;
    let solved = solve(&args)?;
    let run = run_info(&args, &solved.report)?;
    if args.format == Format::Json {
        println!("{}", json_text(&solved, &run)?);
    }
    let Solved {
        report: rep,
        exhaustive,
        evaluated,
        config,
    } = solved;
    match args.format {
        Format::Json => {}
        _ => {
            print!("{}\n{}", run.header_line(), report::table(&rep));
            if let Some((name, m, n, same)) = &exhaustive {
                println!(
                    "exhaustive over {n} designs: {name} ({:.4e} J) — {}",
                    m.energy_j,
                    if *same {
                        "same as the search"
                    } else {
                        "DIFFERS from the search"
                    }
                );
            }
        }
    }
    if let Some(dir) = &args.plot {
        let subtitle = run.plot_subtitle();
        let p = pareto::write_svg(
            dir,
            &evaluated,
            &rep.pareto,
            rep.objective,
            rep.objective.of(&rep.baseline),
            &pareto::PlotMarks {
                chosen_name: &rep.chosen_name,
                chosen_area_mm2: rep.verified.added_area_mm2,
                chosen_objective: rep.objective.of(&rep.verified),
                budget_mm2: rep.budget_mm2,
                subtitle: &subtitle,
            },
        )?;
        super::progress::note(quiet, format!("Pareto plot written to {}", p.display()));
    }
    if let Some(path) = &args.out {
        // the file says where it came from: a TOML comment header
        let header = format!(
            "# Written by gpuenergy {} optimize: the chosen design '{}'.\n# Command: {}\n# Base: \
             {}, technology {}, size {}, workloads {}; objective {:?}, area budget {}, slowdown \
             cap {}.\n# Run: {}\n",
            env!("CARGO_PKG_VERSION"),
            rep.chosen_name,
            crate::provenance::RunInfo::this_command_line().join(" "),
            rep.gpu,
            rep.tech,
            rep.size,
            rep.workloads.join(","),
            rep.objective,
            rep.budget_spec,
            rep.max_slowdown,
            run.header_line()
        );
        std::fs::write(path, header + &config.to_toml_string())
            .with_context(|| format!("writing {}", path.display()))?;
        super::progress::note(
            quiet,
            format!("chosen configuration written to {}", path.display()),
        );
    }
    Ok(())
}
