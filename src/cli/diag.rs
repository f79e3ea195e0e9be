//! `gpuenergy diag`: runs the microbenchmark suite (analytical-model §3–§5) on the simulator
//! for one configuration or every preset, and prints each recovered parameter beside its
//! configured value and the model's prediction with PASS/FAIL, then the simulator-vs-model
//! cross-check. The work is in [`crate::diag`]; the rendering in [`crate::report::diag`].

use crate::diag::{self, Suite, Thresholds};
use crate::provenance::{ConfigOrigin, RunInfo};
use crate::report::{self, Format};
use anyhow::{Context, Result};
use rayon::prelude::*;
use std::path::PathBuf;

/// The text after the options: what diag does, its thresholds, the issue-stage variants (the
/// out-of-order ones as the technique registry lists them) and examples.
fn after_help() -> String {
    let ooo = super::ooo_issue_techniques();
    let example = ooo.last().map_or(String::new(), |t| {
        format!("\n  gpuenergy diag --preset vortex_like --technique {t} --format json")
    });
    format!(
        "{AFTER_HELP_HEAD}--technique {}|pdom (or{AFTER_HELP_TAIL}{example}{AFTER_HELP_END}",
        ooo.join("|")
    )
}

/// [`after_help`]'s text before the list of issue-stage variants.
const AFTER_HELP_HEAD: &str = "\
What it does:
  Synthetic PTX kernels run on the timing simulator, and the scheduling model's parameters are
  recovered from what the kernels observe (in-kernel %clock64 deltas, launch Ok/Err, spin-loop
  TIMEOUT), never from the configuration. Tests, in order: kernel_limits (launch limits),
  functional_units (P1, fu(c), latency per instruction class), num_mp, warpsched_policy,
  warpslot_buffer (N1, N2), shmem_buffer (S, s_min), regfile_buffer (R, r_min); then the
  cross-check of simulated kernel time against the model's T(g,b) (Pearson r, MAPE, max error,
  Kendall tau, fitted slope), with a diagnosis fit a*T + C0 + C1*(waves - 1) that shows a cost
  per wave the model does not count (reported, no verdict). %clock and %clock64 read the cycle
  at which the reading instruction issues.

Results:
  PASS/FAIL for a discrete parameter (a limit, a slot count, a latency) means equal / not equal
  to the configured value; for a continuous one (fu(c), n_bot, knees) within the tolerance of
  the model's prediction ('fail*': outside it, reported but not blocking). The policy label
  passes when it equals the label the model predicts from the front end (a front end that
  supplies no more instructions than the schedulers issue makes GTO issue in rotation, i.e.
  look like LRR); the configured policy is shown beside it. The last lines summarise each
  preset: how many checks pass, and each failed check by the side it points at (simulator: a
  recovered value differs from the configuration; model: the analytical model's prediction
  misses what the simulator measured). The exit status is 0 whatever the verdicts (2 on bad
  input); with --strict it is 1 when any check fails.

Thresholds:
  The embedded diag.toml (tolerances, method constants and cross-check acceptance, each with its
  justification); --thresholds FILE replaces it with a file of the same keys.

Issue-stage variants:
  ";

/// [`after_help`]'s text after the list of issue-stage variants.
const AFTER_HELP_TAIL: &str = " --set KEY=VALUE) runs the suite on the variant and adds the
  issue_stage section: dependent chains' P1 and fu(c) against the in-order baseline (PASS
  within issue_stage.tol_dependent), P1_eff(k) of k independent chains (outside the model,
  reported), and a divergent body whose paths' times must add up (issue_stage.tol_pdom_sum).

Examples:
  gpuenergy diag --preset gtx480 --suite quick";

/// [`after_help`]'s last example, after the issue-stage one.
const AFTER_HELP_END: &str = "
  gpuenergy diag --suite quick --format json --plot plots/";

/// Arguments of `gpuenergy diag`.
#[derive(clap::Args, Debug)]
#[command(after_help = after_help())]
pub struct Args {
    /// Built-in GPU preset (`gpuenergy presets` lists them); default: every built-in preset.
    #[arg(long, conflicts_with = "config")]
    pub preset: Option<String>,
    /// Configuration file (TOML): full, or `base = "<preset>"` plus overrides.
    /// Every key: docs/config-keys.md or `gpuenergy presets --keys`.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// quick: a subset of shapes sized for CI; full: every block size and the whole sweeps.
    #[arg(long, default_value = "quick", value_parser = ["quick", "full"])]
    pub suite: String,
    /// Output format on stdout.
    #[arg(long, default_value = "table", value_parser = report::format_parser(report::TABLE_JSON))]
    pub format: Format,
    /// Write the cross-check residual plot of each configuration (SVG) into this directory.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// A thresholds file replacing the embedded diag.toml.
    #[arg(long)]
    pub thresholds: Option<PathBuf>,
    /// An issue-stage variant: `--technique` with one of the variants [`after_help`] lists (or
    /// any technique, and `--set KEY=VALUE` overrides). The suite then runs on the variant, and
    /// the dependent, independent-chain and divergent bodies are compared with the unmodified
    /// configuration.
    #[command(flatten)]
    pub mods: super::ConfigMods,
    /// Exit with status 1 when any check fails (discrete, continuous, label or cross-check);
    /// without it the verdicts are reported and the exit status is 0.
    #[arg(long)]
    pub strict: bool,
    /// `--quiet`: no progress lines on stderr.
    #[command(flatten)]
    pub quiet: super::progress::QuietArg,
}

/// Runs `gpuenergy diag` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    let suite: Suite = args.suite.parse().map_err(anyhow::Error::msg)?;
    let th = match &args.thresholds {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read {}", p.display()))?;
            Thresholds::from_toml(&text, &p.display().to_string()).map_err(anyhow::Error::msg)?
        }
        None => Thresholds::default_embedded(),
    };
    let targets: Vec<(String, sim::config::GpuConfig, ConfigOrigin)> =
        match (&args.preset, &args.config) {
            (_, Some(path)) => {
                let cfg = crate::study_config::StudyConfig::from_toml_file(path)?;
                let origin = ConfigOrigin::file(path, &cfg);
                vec![(path.display().to_string(), cfg.machine, origin)]
            }
            (Some(p), None) => vec![(
                p.clone(),
                sim::config::GpuConfig::preset(p)?,
                ConfigOrigin::preset(p),
            )],
            (None, None) => sim::config::PRESET_NAMES
                .iter()
                .map(|p| {
                    Ok((
                        p.to_string(),
                        sim::config::GpuConfig::preset(p)?,
                        ConfigOrigin::preset(p),
                    ))
                })
                .collect::<Result<_>>()?,
        };
    let origins: Vec<ConfigOrigin> = targets.iter().map(|t| t.2.clone()).collect();
    let targets: Vec<(String, sim::config::GpuConfig)> =
        targets.into_iter().map(|(n, c, _)| (n, c)).collect();
    let quiet = args.quiet.quiet;
    let progress = move |s: &str| {
        if !quiet {
            eprintln!("{s}");
        }
    };
    let variant = !args.mods.is_empty();
    let overrides = args.mods.overrides()?;
    let sets = &overrides;
    let label = match (&args.mods.technique, sets.is_empty()) {
        (Some(t), true) => t.clone(),
        (Some(t), false) => format!("{t}[{}]", sets.join(",")),
        (None, _) => format!("[{}]", sets.join(",")),
    };
    let targets: Vec<(
        String,
        sim::config::GpuConfig,
        Option<sim::config::GpuConfig>,
    )> = targets
        .into_iter()
        .map(|(n, c)| {
            let v = if variant {
                Some(args.mods.apply(c.clone().into())?.machine)
            } else {
                None
            };
            Ok((n, c, v))
        })
        .collect::<Result<_>>()?;
    if let Some((_, _, Some(v))) = targets.iter().find(|(_, _, v)| {
        v.as_ref()
            .is_some_and(|v| v.reconv.mode != sim::config::reconv::ReconvMode::Pdom)
    }) {
        anyhow::bail!(
            "{label}: reconv.mode = \"{}\" runs on the reference-mode model, and diag checks \
             the cycle-level simulator against the analytical model; diag takes variants with \
             reconv.mode = \"pdom\" (e.g. --technique pdom, pdom-flush, pdom-wb, {})",
            v.reconv.mode.as_str(),
            super::ooo_issue_techniques().join(", ")
        );
    }
    let reports: Vec<diag::PresetReport> = targets
        .par_iter()
        .map(|(name, cfg, v)| match v {
            Some(v) => diag::run_variant(name, cfg, v, &label, suite, &th, &progress),
            None => diag::run(name, cfg, suite, &th, &progress),
        })
        .collect::<std::result::Result<_, String>>()
        .map_err(anyhow::Error::msg)?;
    // what produced each preset's report: its configuration as checked (the variant when one
    // is given), the technique and overrides; `size` names the suite
    let runs: Vec<RunInfo> = targets
        .iter()
        .zip(&origins)
        .map(|((_, cfg, v), origin)| {
            let checked: crate::study_config::StudyConfig =
                v.as_ref().unwrap_or(cfg).clone().into();
            let mut run =
                RunInfo::for_config(origin, &checked, args.mods.technique.as_deref(), &overrides);
            run.size = format!("suite {}", args.suite);
            run.activity_source = "sim".into();
            run
        })
        .collect();
    match args.format {
        Format::Json => {
            let mut v = report::diag::json(&reports);
            if let Some(list) = v["presets"].as_array_mut() {
                for (p, run) in list.iter_mut().zip(&runs) {
                    p["run"] = run.json();
                }
            }
            let mut command = RunInfo::for_command();
            command.techniques = runs
                .first()
                .map(|r| r.techniques.clone())
                .unwrap_or_default();
            command.overrides = overrides.clone();
            command.size = format!("suite {}", args.suite);
            v["run"] = command.json();
            println!("{}", serde_json::to_string_pretty(&v)?)
        }
        _ => {
            for (r, run) in reports.iter().zip(&runs) {
                print!("{}", report::with_header(run, &report::diag::table(r)));
            }
            print!("{}", report::diag::summary(&reports));
        }
    }
    if let Some(dir) = &args.plot {
        for (r, run) in reports.iter().zip(&runs) {
            if let Some(c) = &r.crosscheck {
                let p = report::diag::write_plot(dir, &r.preset, c, run)?;
                progress(&format!("wrote {}", p.display()));
            }
        }
    }
    if args.strict
        && reports
            .iter()
            .any(|r| r.summary().passed < r.summary().checks)
    {
        std::process::exit(1);
    }
    Ok(())
}
