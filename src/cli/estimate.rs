//! `gpuenergy estimate`: the main job — simulate workloads on a GPU configuration and cost the
//! activity at a technology point, per component and per workload. The pipeline is
//! [`crate::study::Study`]; the renderers are [`crate::report`]; this module parses arguments
//! and prints.

use super::progress::{note, Progress};
use crate::provenance::ConfigOrigin;
use crate::report::{self, Format};
use crate::study::{NamedOverlay, Study};
use crate::study_config::StudyConfig;
use sim::workloads::Size;
use std::path::PathBuf;
use std::time::Instant;

/// The `--activity-source` help: the three sources, and the mechanisms `model` refuses as
/// [`super::simulator_only_mechanisms`] lists them.
fn activity_source_help() -> String {
    format!(
        "Where each workload's activity comes from: `sim`, the cycle-level simulator, or \
         `model`, the analytical activity source (a functional run for the counts and the \
         analytical scheduling model for the timing; a quick what-if run, not a simulation, and \
         the output says so). `model` refuses mechanisms only the simulator counts ({}). \
         `reference`: the reference-mode model of the control-flow spec (scheduler-level \
         timing, one warp per scheduler cycle); runs with reconv.mode = dwf, mimd or nrec use \
         it whatever the choice",
        super::simulator_only_mechanisms()
    )
}

/// Arguments of `gpuenergy estimate`.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "Energy and area of a GPU running kernels at a technology node.

With no options: the GTX480 preset at finfet7 (STV, 0.45 V, LVT devices, 350 K), simulating every \
built-in workload at the `test` size. Each workload runs on the cycle-level simulator; its \
Activity is costed by the chip model (SRAM arrays from the CACTI-class model, logic blocks from \
the parametric component models, DRAM per bit and per activate, clock and interconnect wires \
from the node's wire RC). Prints per component: area, dynamic and leakage power, share of \
energy and where the numbers come from (analytical model, SRAM model, calibration overlay with \
its cross-validated error, published DRAM figures, wire RC); per workload: runtime, energy, \
average power and EDP.",
    after_help = super::program::HELP
)]
pub struct Args {
    /// Technology point: node, supply, device flavour, temperature.
    #[command(flatten)]
    pub point: super::TechArgs,
    /// Supply in volts at which the storage arrays are designed (organisation search, repeater
    /// sizing). Default: the device's nominal supply. Area never depends on --vdd/--op.
    #[arg(long, allow_negative_numbers = true)]
    pub design_vdd: Option<f64>,
    /// GPU preset (see `gpuenergy presets`).
    #[arg(long, default_value = "gtx480", conflicts_with = "config")]
    pub preset: String,
    /// GPU configuration TOML (a preset plus overrides; see `gpuenergy presets --help`).
    /// Every key: docs/config-keys.md or `gpuenergy presets --keys`.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Workload to simulate, a comma-separated list of them, or `all` for the whole suite
    /// (default: all, or none when a program is given).
    #[arg(long)]
    pub workload: Option<String>,
    /// User programs: --program FILE, or one launch with --ptx/--cuda (see below).
    #[command(flatten)]
    pub program: super::program::ProgramArgs,
    /// Input size tier of the built-in workloads (a program has fixed sizes and ignores it).
    #[arg(long, default_value = "test", value_parser = ["test", "bench"])]
    pub size: String,
    /// Where each workload's activity comes from (the help text is [`activity_source_help`]).
    #[arg(long, help = activity_source_help(), value_enum, default_value = "sim", conflicts_with_all = ["activity", "static_only"])]
    pub activity_source: crate::study::ActivitySource,
    /// Cost a saved Activity (from `gpuenergy simulate --out`) instead of simulating.
    #[arg(long, conflicts_with = "workload")]
    pub activity: Option<PathBuf>,
    /// Cost an Activity recorded on another configuration on purpose: without it, an Activity
    /// whose `config_hash` differs from the configuration being costed is refused.
    #[arg(long, requires = "activity")]
    pub recost: bool,
    /// Only area and leakage (no simulation).
    #[arg(long = "static", conflicts_with_all = ["activity"])]
    pub static_only: bool,
    /// Calibration overlay for logic components (from `gpuenergy calibrate`).
    #[arg(long)]
    pub calibration: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Write SVG plots (energy breakdown per workload, area breakdown, leakage vs dynamic share).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// SMs without work: `gated` (power-gated, as real GPUs do: an SM leaks only while it holds
    /// a CTA; the leakage avoided is reported) or `leaking` (every SM leaks for the whole run).
    #[arg(long, value_enum, default_value = "gated")]
    pub idle_sms: IdleSmsArg,
    /// After the report, print the shares of SM area and SM power per component group next to
    /// the published GPU breakdowns the project records (e.g. `--tech 40nm --preset gtx480
    /// --size bench --breakdown-check`).
    #[arg(long)]
    pub breakdown_check: bool,
    /// Add the power a meter at the board's input sees (`board_power_w` in JSON): the chip's
    /// dynamic and leakage power (every block powered), the memory's access and background
    /// power, the voltage regulators' loss and the board's constant power, the last two scaled
    /// by the global scalars fitted to measured board power (built in for `v100`; see
    /// docs/accuracy.md, "Board power against a real V100").
    #[arg(long)]
    pub board_power: bool,
    /// Scalars of the board model from a file (`gpuenergy calibrate --board-measured ...`
    /// writes one) instead of the preset's built-in fit.
    #[arg(long, requires = "board_power")]
    pub board_scalars: Option<PathBuf>,
    /// Technique and single-key overrides of the configuration.
    #[command(flatten)]
    pub mods: super::ConfigMods,
    /// `--quiet`: no progress display.
    #[command(flatten)]
    pub quiet: super::progress::QuietArg,
    /// `--sample`, `--sample-error`: kernel sampling.
    #[command(flatten)]
    pub sampling: super::SampleArgs,
}

/// `--idle-sms` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdleSmsArg {
    /// SMs without a resident CTA are power-gated.
    Gated,
    /// Every SM leaks for the whole run.
    Leaking,
}

impl From<IdleSmsArg> for models::gpu::IdleSms {
    fn from(a: IdleSmsArg) -> Self {
        match a {
            IdleSmsArg::Gated => models::gpu::IdleSms::Gated,
            IdleSmsArg::Leaking => models::gpu::IdleSms::Leaking,
        }
    }
}

/// The configuration as run (technique and `--set` applied) and where it came from.
fn load_config(args: &Args) -> anyhow::Result<(StudyConfig, ConfigOrigin)> {
    let (cfg, origin) = ConfigOrigin::load(&args.preset, args.config.as_deref())?;
    Ok((args.mods.apply(cfg)?, origin))
}

pub use crate::study::tech_choice;

/// The board model's scalars: from `file`, else the built-in fit of configuration `gpu`.
fn board_scalars(
    file: Option<&std::path::Path>,
    gpu: &str,
) -> anyhow::Result<models::gpu::board::BoardScalars> {
    use models::gpu::board::BoardScalars;
    match file {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| anyhow::anyhow!("--board-scalars {}: {e}", p.display()))?;
            BoardScalars::from_toml(&text, &p.display().to_string()).map_err(anyhow::Error::msg)
        }
        None => BoardScalars::builtin(gpu).ok_or_else(|| {
            anyhow::anyhow!(
                "--board-power: no board fit for configuration '{gpu}' (built in: v100); give \
                 --board-scalars FILE, written by `gpuenergy calibrate --board-measured`"
            )
        }),
    }
}

/// Runs `gpuenergy estimate` with parsed arguments: builds the [`crate::study::Study`], runs it and prints the report.
pub fn run(args: Args) -> anyhow::Result<()> {
    let t0 = Instant::now();
    let (cfg, origin) = load_config(&args)?;
    let mut choice = args.point.choice()?;
    if let Some(v) = args.design_vdd {
        if !(v.is_finite() && v > 0.0) {
            anyhow::bail!("--design-vdd must be a positive voltage, got {v}");
        }
        choice = choice.with_design_vdd_v(Some(v))?;
    }
    let overlay = match &args.calibration {
        Some(p) => Some(NamedOverlay::load(p)?),
        None => None,
    };
    let simulating = args.activity.is_none() && !args.static_only;
    let quiet = args.quiet.quiet;
    if !simulating && args.program.given() {
        anyhow::bail!("--program, --ptx and --cuda run programs; --activity and --static run none");
    }
    let list = if simulating {
        args.program.workloads(args.workload.as_deref(), quiet)?
    } else {
        Vec::new()
    };
    let size: Size = args.size.parse()?;
    if args.board_power && matches!(args.format, Format::Csv) {
        anyhow::bail!(
            "--board-power prints in the table and JSON formats (JSON: `board.runs[].board_power_w`); \
             the CSV's rows are the chip's components"
        );
    }
    let board = if args.board_power {
        Some(board_scalars(args.board_scalars.as_deref(), &cfg.gpu.name)?)
    } else {
        None
    };
    let bar = Progress::bar(list.len(), "workloads", quiet);
    let mut study = Study::new(cfg, choice, overlay)
        .size(size)
        .static_only(args.static_only)
        .idle_sms(args.idle_sms.into())
        .activity_source(args.activity_source)
        .recost(args.recost)
        .board_power(board)
        .sampling(args.sampling.sampling()?);
    if simulating {
        study.check_sampling()?;
    } else if args.sampling.sample != crate::sample::SampleMode::Off {
        anyhow::bail!(
            "--sample samples the launches of simulated programs; --activity and --static \
             simulate none (allowed with them: --sample off)"
        );
    }
    if let Some(path) = &args.activity {
        study = study.activity(path);
    }
    // the study derives these knobs itself; the command notes their values
    if crate::technique::derived_timings().any(|d| d.wanted(study.config())) {
        let src = study.cost_source()?;
        let chip = study.chip(&src)?;
        let mut cfg = study.config().machine.clone();
        for line in study.derive_timings(&chip, &mut cfg, &src.label)? {
            note(quiet, line);
        }
    }
    let b = bar.clone();
    let report = study
        .on_progress(move |name, _, _| {
            b.inc();
            b.message(format!("{name} done"));
        })
        .run(&list);
    bar.finish();
    let mut report = report?;
    report.run = std::mem::take(&mut report.run).with_command(
        origin.source.clone(),
        args.mods.technique.as_deref(),
        &args.mods.overrides()?,
    );
    report.run.config_name = origin.name;
    match args.format {
        Format::Json => print!("{}", report::json::render(&report)?),
        Format::Csv => print!("{}", report::csv::render(&report)),
        Format::Table => print!("{}", report::table::render(&report)),
    }
    if args.breakdown_check {
        print!("\n{}", report::breakdown::render(&report));
    }
    if let Some(dir) = &args.plot {
        report::plot::write_report_plots(dir, &report)?;
        note(quiet, format!("plots written to {}", dir.display()));
    }
    note(
        quiet,
        format!("estimate done in {:.2} s", t0.elapsed().as_secs_f64()),
    );
    Ok(())
}
