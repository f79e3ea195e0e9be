//! `gpuenergy simulate`: cycle-level simulation of a built-in workload (or, later, an Accel-Sim
//! trace) on a preset or user-configured GPU; prints cycles, IPC, occupancy and the stall
//! breakdown, and optionally saves the full `gpuenergy.activity.v1` record.

use super::progress::Progress;
use crate::correlate::LaunchRecorder;
use crate::provenance::{ConfigOrigin, RunInfo};
use crate::report::{self, format_parser, Format, TABLE_JSON};
use crate::study_config::StudyConfig;
use anyhow::{bail, Context, Result};
use sim::config::reconv::ReconvMode;
use sim::timing::dwf::refmodel::{RefGpu, RefStats};
use sim::timing::{Program, Simulation, TimingGpu};
use sim::trace::TraceFolder;
use sim::workloads::{self, Size};
use std::path::PathBuf;
use std::time::Instant;

const AFTER_HELP: &str = concat!(
    "\
Examples:
  gpuenergy simulate --preset gtx480 --workload hotspot --size test
  gpuenergy simulate --config my.toml --workload sgemm --scheduler two-level --out act.json
  gpuenergy simulate --preset gtx1080ti --workload bfs --format json
  gpuenergy simulate --workload hotspot --technique tric --set tric.wake_latency_mode=derived \\
      --tech 40nm
  gpuenergy simulate --program my.toml --check
  gpuenergy simulate --cuda saxpy.cu --kernel saxpy --grid 64 --block 256 \\
      --param buf:65536 --param buf:65536 --param f32:2 --param u32:16384

A --config file is either a full configuration (see `gpuenergy presets --dump gtx480`) or starts
with `base = \"gtx480\"` and overrides keys of that preset one by one.

",
    super::program::program_help!()
);

/// The `--activity-source` help: the three sources, and the mechanisms `model` refuses as
/// [`super::simulator_only_mechanisms`] lists them.
fn activity_source_help() -> String {
    format!(
        "Where the activity comes from: `sim`, the cycle-level simulator, or `model`, the \
         analytical activity source (functional counts, analytical-model timing; not a \
         simulation, and the output says so). `model` refuses traces and the mechanisms only the \
         simulator counts ({}). `reference`: the reference-mode model of the control-flow spec, \
         which runs reconv.mode = dwf, mimd and nrec whatever the choice (PTX workloads only)",
        super::simulator_only_mechanisms()
    )
}

/// Arguments of `gpuenergy simulate`.
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Built-in GPU preset: one of `gpuenergy presets` (default gtx480).
    #[arg(long, conflicts_with = "config")]
    pub preset: Option<String>,
    /// Configuration file (TOML), full or `base = "<preset>"` plus overrides.
    /// Every key: docs/config-keys.md or `gpuenergy presets --keys`.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Built-in workload to simulate (see `gpuenergy workloads`).
    #[arg(long, conflicts_with = "trace")]
    pub workload: Option<String>,
    /// A user program instead: --program FILE, or one launch with --ptx/--cuda (see below).
    #[command(flatten)]
    pub program: super::program::ProgramArgs,
    /// Input size tier of a built-in workload: test (default) or bench (a program has fixed
    /// sizes and ignores it).
    #[arg(long, default_value = "test")]
    pub size: String,
    /// Directory with an Accel-Sim trace (`kernelslist.g`).
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Also check the workload's results against its CPU reference.
    #[arg(long)]
    pub check: bool,
    /// Where the activity comes from (the help text is [`activity_source_help`]).
    #[arg(long, help = activity_source_help(), value_enum, default_value = "sim")]
    pub activity_source: crate::study::ActivitySource,
    /// Write the Activity record (JSON) to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Summary format on stdout.
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
    /// Technique and single-key overrides of the configuration.
    #[command(flatten)]
    pub mods: super::ConfigMods,
    /// Technology point: read only to derive a technique's timing that the configuration asks
    /// to derive from the device (a wake latency with its mode "derived").
    #[command(flatten)]
    pub point: super::TechArgs,
    /// `--quiet`: no progress display.
    #[command(flatten)]
    pub quiet: super::progress::QuietArg,
    /// `--sample`, `--sample-error`: kernel sampling.
    #[command(flatten)]
    pub sampling: super::SampleArgs,
}

/// Resolves `--preset`/`--config`, then `--technique`, `--scheduler` and `--set` (in that
/// order, so that an explicit scheduler or key wins over a technique's) into a configuration.
pub fn resolve_config(
    preset: Option<&str>,
    config: Option<&PathBuf>,
    mods: &super::ConfigMods,
) -> Result<(StudyConfig, ConfigOrigin)> {
    let (mut cfg, origin) =
        ConfigOrigin::load(preset.unwrap_or("gtx480"), config.map(|p| p.as_path()))?;
    if let Some(t) = &mods.technique {
        cfg = crate::technique::resolve(t)?.apply(&cfg, &[])?;
    }
    let set = crate::technique::parse_sets(&mods.overrides()?).map_err(anyhow::Error::msg)?;
    cfg = cfg.with_overrides(&set, "--set")?;
    // Sizes that would exhaust memory are refused before the simulator allocates anything.
    models::gpu::limits::check_sizes(&cfg)?;
    Ok((cfg, origin))
}

/// `cfg` with the knobs the registered techniques derive from the technology point `point`
/// (`Study::derive_timings`; the chip model supplies the supply and core clock) filled in, as
/// `estimate` does; each derived value goes to stderr. Else `cfg`.
pub fn derive_timings(
    cfg: StudyConfig,
    point: &super::TechArgs,
    quiet: bool,
) -> Result<StudyConfig> {
    if !crate::technique::derived_timings().any(|d| d.wanted(&cfg)) {
        return Ok(cfg);
    }
    let study = crate::study::Study::new(cfg, point.choice()?, None);
    let src = study.cost_source()?;
    let chip = study.chip(&src)?;
    let mut cfg = study.config().clone();
    for line in study.derive_timings(&chip, &mut cfg, &src.label)? {
        super::progress::note(quiet, line);
    }
    Ok(cfg)
}

/// Runs `gpuenergy simulate` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    let (cfg, origin) = resolve_config(args.preset.as_deref(), args.config.as_ref(), &args.mods)?;
    let derived = crate::technique::derived_timings().any(|d| d.wanted(&cfg));
    let cfg = derive_timings(cfg, &args.point, args.quiet.quiet)?;
    let mut run = RunInfo::for_config(
        &origin,
        &cfg,
        args.mods.technique.as_deref(),
        &args.mods.overrides()?,
    );
    if derived {
        // the technology point set the derived latencies: it is part of what was run
        run = run.with_point(&args.point.choice()?);
    }
    run.size = args.size.clone();
    let sampling = args.sampling.sampling()?;
    if sampling.is_on() {
        if args.trace.is_some() {
            bail!(
                "--sample {}: a trace is replayed, not executed, so its launches have no \
                 functional signature; allowed with --trace: --sample off",
                sampling.mode.as_str()
            );
        }
        crate::study::Study::new(cfg.clone(), args.point.choice()?, None)
            .activity_source(args.activity_source)
            .sampling(sampling.clone())
            .check_sampling()?;
    }
    if args.activity_source == crate::study::ActivitySource::Model {
        if args.trace.is_some() {
            bail!(
                "--activity-source model: a trace carries no functional state for the analytical \
                 source; allowed with --trace: --activity-source sim"
            );
        }
        crate::amodel::check_representable(&cfg).map_err(anyhow::Error::msg)?;
        return run_model(&cfg, &args, run);
    }
    if args.activity_source == crate::study::ActivitySource::Reference && args.trace.is_some() {
        bail!(
            "--activity-source reference: the reference-mode model runs PTX workloads (it needs \
             per-thread control flow); allowed with --trace: --activity-source sim"
        );
    }
    if let Some(dir) = &args.trace {
        if args.program.given() {
            bail!("--trace simulates a trace folder; a program (--program, --ptx, --cuda) is another input");
        }
        let start = Instant::now();
        let bar = Progress::spinner(args.quiet.quiet);
        let traced = Simulation::new(&cfg).run(TraceFolder::new(dir).on_kernel(|i, n, p| {
            bar.message(format!("kernel {}/{n}: {}", i + 1, p.display()));
        }));
        bar.finish();
        let traced = traced?;
        for w in &traced.warnings {
            eprintln!("warning: {w}");
        }
        let wall = start.elapsed().as_secs_f64();
        let mut act = traced.activity;
        act.config_hash = cfg.hash_hex();
        if let Some(out) = &args.out {
            std::fs::write(out, act.to_json())
                .with_context(|| format!("writing {}", out.display()))?;
        }
        let label = dir.display().to_string();
        run.size = "trace".into();
        run.workloads = vec![label.clone()];
        run.activity_source = source_of(&act);
        return emit(
            args.format,
            &run,
            || report::simulate::summary_json(&cfg, &label, "trace", &act, wall, &None),
            || {
                report::simulate::summary_table(
                    &cfg,
                    &run.config_name,
                    &label,
                    "trace",
                    &act,
                    wall,
                    &None,
                )
            },
        );
    }
    let Some(w) = args
        .program
        .one(args.workload.as_deref(), args.quiet.quiet)?
    else {
        bail!(
            "give --workload NAME (see `gpuenergy workloads`), --program FILE, --ptx/--cuda FILE \
             --kernel NAME, or --trace DIR"
        );
    };
    let name = w.info().name;
    let size: Size = args.size.parse()?;
    if cfg.reconv.mode != ReconvMode::Pdom
        || args.activity_source == crate::study::ActivitySource::Reference
    {
        return run_reference(&cfg, name, w, size, &args, run);
    }
    let start = Instant::now();
    let settings = sampling.is_on().then(|| sampling.settings.clone());
    let (report, mut act, mut launch_cycles, kernels) =
        run_program(&cfg, w, size, args.check, args.quiet.quiet, settings)?;
    let mut sample = None;
    if act.sample.is_some() {
        let study = crate::study::Study::new(cfg.clone(), args.point.choice()?, None);
        let src = study.cost_source()?;
        let chip = study.chip(&src)?;
        let energy = study.sample_energy_error(&chip, &src.label, &act, None)?;
        let cycles = act
            .sample
            .as_ref()
            .map_or(0.0, |s| s.estimated_error_cycles);
        let worst = cycles.max(energy.unwrap_or(0.0));
        if sampling.mode == crate::sample::SampleMode::Auto && worst > sampling.target_error {
            let full = run_program(&cfg, w, size, args.check, args.quiet.quiet, None)?;
            (act, launch_cycles) = (full.1, full.2);
            act.sample = Some(crate::sample::fallback_summary(&act, worst));
            sample = crate::sample::SampleReport::of(&act, None);
        } else {
            sample = crate::sample::SampleReport::of(&act, energy);
        }
    }
    act.config_hash = cfg.hash_hex();
    let report = report?;
    let wall = start.elapsed().as_secs_f64();
    if let Some(out) = &args.out {
        std::fs::write(out, act.to_json()).with_context(|| format!("writing {}", out.display()))?;
    }
    let check = report.check.as_ref().map(|c| (c.passed, c.detail.clone()));
    let size_label = super::program::size_label(w, size);
    run.size = size_label.to_string();
    run.workloads = vec![name.to_string()];
    run.activity_source = source_of(&act);
    emit(
        args.format,
        &run,
        || {
            let mut v = report::simulate::summary_json(&cfg, name, size_label, &act, wall, &check);
            report::simulate::add_launch_cycles(&mut v, &launch_cycles);
            report::simulate::add_kernel_code(&mut v, &kernels);
            if let Some(s) = &sample {
                v["sample"] = serde_json::to_value(s).expect("sample report serialises");
            }
            v
        },
        || {
            let mut t = report::simulate::summary_table(
                &cfg,
                &run.config_name,
                name,
                size_label,
                &act,
                wall,
                &check,
            );
            t.push_str(&report::simulate::spill_lines(&kernels));
            if let Some(s) = &sample {
                t.push_str(&s.line(name));
                t.push('\n');
            }
            t
        },
    )?;
    if let Some((false, d)) = check {
        bail!("{name}: results differ from the CPU reference: {d}");
    }
    Ok(())
}

/// What one cycle-level run of a program returns: the workload's report, the record and each
/// launch's cycles.
type ProgramRun = (
    std::result::Result<workloads::RunReport, sim::SimError>,
    sim::activity::Activity,
    Vec<u64>,
    Vec<std::sync::Arc<sim::ptx::Kernel>>,
);

/// Runs `w` on the cycle-level model with a progress spinner, its launches sampled with
/// `sample` when given.
fn run_program(
    cfg: &StudyConfig,
    w: &dyn workloads::Workload,
    size: Size,
    check: bool,
    quiet: bool,
    sample: Option<sim::sample::SampleSettings>,
) -> Result<ProgramRun> {
    let bar = Progress::spinner(quiet);
    let b2 = bar.clone();
    let label = w.info().name.to_string();
    let mut launch_cycles = Vec::new();
    let mut kernels = Vec::new();
    let result = Simulation::new(cfg)
        .progress(move |cycles, insts| {
            b2.message(format!(
                "{label}: cycle {cycles}, {insts} warp insts in this launch"
            ));
        })
        .run(Program(|gpu: &mut TimingGpu| {
            if let Some(s) = sample {
                gpu.set_sampling(s);
            }
            let mut rec = LaunchRecorder::new(gpu);
            let r = w.run(size, &mut rec, check);
            (launch_cycles, kernels) = rec.into_launches_and_kernels();
            r
        }));
    bar.finish();
    let (report, act) = result?;
    Ok((report, act, launch_cycles, kernels))
}

/// `simulate --activity-source model`: the workload on the analytical activity source.
fn run_model(cfg: &StudyConfig, args: &Args, mut run: RunInfo) -> Result<()> {
    let Some(w) = args
        .program
        .one(args.workload.as_deref(), args.quiet.quiet)?
    else {
        bail!("give --workload NAME (see `gpuenergy workloads`), --program FILE or --ptx/--cuda");
    };
    let name = w.info().name;
    let size: Size = args.size.parse()?;
    let start = Instant::now();
    let mut gpu = crate::amodel::ModelGpu::new(cfg)?;
    let rep = w.run(size, &mut gpu, args.check)?;
    let mut act = gpu.into_activity();
    act.config_hash = cfg.hash_hex();
    let wall = start.elapsed().as_secs_f64();
    if let Some(out) = &args.out {
        std::fs::write(out, act.to_json()).with_context(|| format!("writing {}", out.display()))?;
    }
    let check = rep.check.as_ref().map(|c| (c.passed, c.detail.clone()));
    let size_label = super::program::size_label(w, size);
    run.size = size_label.to_string();
    run.workloads = vec![name.to_string()];
    run.activity_source = source_of(&act);
    emit(
        args.format,
        &run,
        || report::simulate::summary_json(cfg, name, size_label, &act, wall, &check),
        || {
            report::simulate::summary_table(
                cfg,
                &run.config_name,
                name,
                size_label,
                &act,
                wall,
                &check,
            )
        },
    )?;
    if let Some((false, d)) = check {
        bail!("{name}: results differ from the CPU reference: {d}");
    }
    Ok(())
}

/// One reference-mode run: counters, activity record, check outcome and wall time.
struct RefRun {
    stats: RefStats,
    activity: sim::activity::Activity,
    check: Option<(bool, String)>,
    wall_s: f64,
}

fn ref_run(
    cfg: &sim::config::GpuConfig,
    w: &dyn workloads::Workload,
    size: Size,
    check: bool,
) -> Result<RefRun> {
    let start = Instant::now();
    let mut gpu = RefGpu::new(cfg)?;
    let rep = w.run(size, &mut gpu, check)?;
    Ok(RefRun {
        stats: gpu.stats.clone(),
        activity: gpu.into_activity(),
        check: rep.check.map(|c| (c.passed, c.detail)),
        wall_s: start.elapsed().as_secs_f64(),
    })
}

/// `simulate` under `reconv.mode` = dwf, mimd or nrec: the reference-mode model
/// (`sim::timing::dwf::refmodel`, control-flow spec §3.4, §4, §5), run for the mode and for
/// the PDOM baseline under the same scheduler-level timing; prints both. `--out` writes the
/// mode's activity record (`sim::timing::dwf::refactivity`).
fn run_reference(
    cfg: &StudyConfig,
    name: &str,
    w: &dyn workloads::Workload,
    size: Size,
    args: &Args,
    mut info: RunInfo,
) -> Result<()> {
    let bar = Progress::spinner(args.quiet.quiet);
    bar.message(format!(
        "{}: {} (reference-mode model)",
        name,
        cfg.reconv.mode.as_str()
    ));
    let mut run = ref_run(cfg, w, size, args.check)?;
    run.activity.config_hash = cfg.hash_hex();
    if let Some(out) = &args.out {
        std::fs::write(out, run.activity.to_json())
            .with_context(|| format!("writing {}", out.display()))?;
    }
    let mut base_cfg = cfg.machine.clone();
    base_cfg.reconv.mode = ReconvMode::Pdom;
    bar.message(format!("{}: pdom (reference-mode model)", name));
    let base = ref_run(&base_cfg, w, size, false)?;
    bar.finish();
    let v = report::simulate::reference_json(
        cfg,
        name,
        super::program::size_label(w, size),
        &run.stats,
        &base.stats,
        run.wall_s,
    );
    let size_label = super::program::size_label(w, size);
    info.size = size_label.to_string();
    info.workloads = vec![name.to_string()];
    info.activity_source = "reference".into();
    match args.format {
        Format::Json => {
            let mut v = v;
            v["run"] = info.json();
            if let Some((p, d)) = &run.check {
                v["check"] = serde_json::json!({ "passed": p, "detail": d });
            }
            println!("{}", serde_json::to_string_pretty(&v)?)
        }
        Format::Table => {
            println!("{}", info.header_line());
            print!(
                "{}",
                report::simulate::reference_table(
                    cfg,
                    name,
                    super::program::size_label(w, size),
                    &run.stats,
                    &base.stats,
                    run.wall_s
                )
            );
            if let Some((p, d)) = &run.check {
                println!("check: {} ({d})", if *p { "passed" } else { "FAILED" });
            }
        }
        Format::Csv => return Err(crate::report::no_csv("simulate")),
    }
    if let Some((false, d)) = run.check {
        bail!("{}: results differ from the CPU reference: {d}", name);
    }
    Ok(())
}

/// Where a simulated Activity's counts came from: its provenance's source, else `sim`.
fn source_of(act: &sim::activity::Activity) -> String {
    act.provenance
        .as_ref()
        .map_or_else(|| "sim".to_string(), |p| p.source.clone())
}

/// Prints a summary with what produced it: the [`RunInfo`] header line over the table, the
/// `run` object in the JSON. `simulate` has no CSV.
fn emit(
    format: Format,
    run: &RunInfo,
    json: impl FnOnce() -> serde_json::Value,
    table: impl FnOnce() -> String,
) -> Result<()> {
    match format {
        Format::Json => {
            let mut v = json();
            if let Some(o) = v.as_object_mut() {
                o.insert("run".into(), run.json());
            }
            println!("{}", serde_json::to_string_pretty(&v)?)
        }
        Format::Table => print!("{}\n{}", run.header_line(), table()),
        Format::Csv => return Err(crate::report::no_csv("simulate")),
    }
    Ok(())
}
