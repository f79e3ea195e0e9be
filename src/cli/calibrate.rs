//! `gpuenergy calibrate`: parse every synthesis record or report under a directory, fit the
//! logic-component forms (non-negative least squares, leave-one-out cross-validation), print the
//! coefficients and errors, write the calibration overlay, and optionally draw parity plots.

use super::progress::Progress;
use crate::report::{self, format_parser, Format, TABLE_JSON};
use anyhow::{bail, Context, Result};
use calibration::fit::fit_records_with_progress;
use calibration::progress::Step;
use std::path::{Path, PathBuf};

/// Arguments of `gpuenergy calibrate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory with synthesis records (record.json from `gpuenergy synth`) and/or raw report
    /// directories (reports + meta.toml), searched recursively.
    #[arg(long, required_unless_present_any = ["liberty_dir", "board_measured"])]
    pub reports: Option<PathBuf>,
    /// Also fit the node's device numbers (threshold per flavour from leakage, drive law from
    /// FO4 delay over corners) to the inverter cells of the liberty files in this directory.
    #[arg(long)]
    pub liberty_dir: Option<PathBuf>,
    /// With --liberty-dir: write the fitted numbers into this node TOML (e.g.
    /// techlib/data/asap7.toml); only vth_v, alpha and i_on_ref_a_per_fin lines change.
    #[arg(long, requires = "liberty_dir")]
    pub write_node: Option<PathBuf>,
    /// Technology node the reports belong to (techlib name).
    #[arg(long, default_value = "asap7")]
    pub tech: String,
    /// Where to write the overlay.
    #[arg(long, default_value = "overlay.toml")]
    pub out: PathBuf,
    /// Output format: table or json.
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
    /// Directory for predicted-vs-synthesised parity plots (SVG, one per quantity).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Fail (exit status 2, nothing written) when any record or report under --reports is
    /// corrupt. Without it each corrupt input is left out with a warning naming the file and
    /// why, and the rest is fitted. Strict is the default when the environment variable CI is
    /// set (continuous integration must not pass on a silently smaller record set).
    #[arg(long)]
    pub strict: bool,
    /// Fit the board model's two global scalars instead (the factor on the chip's dynamic
    /// power and the board's constant power; docs/accuracy.md, "Board power against a real
    /// V100") to the measured board power in this file: a Markdown table with `kernel` and
    /// `mean power W` columns, or a CSV `kernel,measured_w`. The scalars go to --out.
    #[arg(long, conflicts_with_all = ["reports", "liberty_dir"])]
    pub board_measured: Option<PathBuf>,
    /// With --board-measured: one kernel's modelled terms, `KERNEL=FILE` with FILE the JSON of
    /// `gpuenergy estimate --board-power --format json` of that kernel alone (repeatable).
    #[arg(long, requires = "board_measured")]
    pub board_run: Vec<String>,
    /// With --board-measured: the modelled terms of every kernel from a CSV that
    /// --board-rows-out wrote.
    #[arg(long, requires = "board_measured", conflicts_with = "board_run")]
    pub board_rows: Option<PathBuf>,
    /// With --board-measured: write the modelled terms of the fitted kernels to this CSV.
    #[arg(long, requires = "board_measured")]
    pub board_rows_out: Option<PathBuf>,
    /// `--quiet`: no progress display.
    #[command(flatten)]
    pub quiet: super::progress::QuietArg,
}

/// `calibrate --board-measured`: the board model's fit ([`super::calibrate_board`]).
fn board_fit(args: &Args, measured_path: &Path, run: &crate::provenance::RunInfo) -> Result<()> {
    use super::calibrate_board as b;
    let measured = b::read_measured(measured_path)?;
    let modelled: Vec<(String, models::gpu::board::BoardTerms)> = match &args.board_rows {
        Some(p) => b::read_rows(p)?,
        None => {
            if args.board_run.is_empty() {
                bail!("--board-measured needs the modelled runs: --board-run KERNEL=FILE (repeatable) or --board-rows FILE");
            }
            let mut v = Vec::new();
            for r in &args.board_run {
                let Some((k, f)) = r.split_once('=') else {
                    bail!("--board-run '{r}': expected KERNEL=FILE");
                };
                v.push((k.to_string(), b::terms_from_estimate_json(Path::new(f))?));
            }
            v
        }
    };
    // the file's name, not its path: the fit's record is the same wherever the data lie
    let name = measured_path.file_name().map_or_else(
        || measured_path.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    let data = format!("measured: {name}");
    let f = b::fit(&measured, &modelled, &data)?;
    match args.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&report::json_with_run(
                run,
                serde_json::to_value(&f)?,
                "board_fit"
            ))?
        ),
        Format::Table => print!("{}", report::with_header(run, &b::fit_table(&f))),
        Format::Csv => return Err(report::no_csv("calibrate --board-measured")),
    }
    let what = format!(
        "the board model's scalars fitted to {}",
        measured_path.display()
    );
    std::fs::write(
        &args.out,
        b::scalars_toml(&f, &run.toml_header("calibrate", &what))?,
    )
    .with_context(|| format!("--out {}", args.out.display()))?;
    eprintln!("calibrate: board scalars written to {}", args.out.display());
    if let Some(p) = &args.board_rows_out {
        std::fs::write(p, b::rows_csv(&modelled))
            .with_context(|| format!("--board-rows-out {}", p.display()))?;
        eprintln!("calibrate: modelled terms written to {}", p.display());
    }
    Ok(())
}

/// Whether corrupt inputs fail the run: `--strict`, or under CI.
fn strict(args: &Args) -> bool {
    args.strict || std::env::var_os("CI").is_some()
}

/// A progress callback for the calibration library that moves `bar` through its steps.
fn on_step(bar: &Progress) -> impl FnMut(Step<'_>) + '_ {
    move |s: Step<'_>| {
        let what = match s.stage {
            "read" => "files read",
            "fit" => "kinds fitted",
            "probe" => "corners probed",
            other => other,
        };
        bar.stage(what);
        bar.set_total(s.total);
        bar.set_position(s.done);
        bar.message(s.item.to_string());
    }
}

fn tech_fit(
    args: &Args,
    node: &techlib::Node,
    dir: &Path,
    run: &crate::provenance::RunInfo,
    bar: &Progress,
) -> Result<()> {
    let node_path = args.write_node.clone();
    let text = match &node_path {
        Some(p) => {
            std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?
        }
        None => toml::to_string(node.file()).context("serialising the node")?,
    };
    bar.note(format!(
        "calibrate: fitting device numbers of {} to {}",
        args.tech,
        dir.display()
    ));
    let fit = calibration::techfit::fit_dir_with_progress(dir, &text, &mut on_step(bar))?;
    bar.set_position(5);
    print!("{}", fit.report());
    if let Some(p) = node_path {
        // the file says what wrote it (a header an earlier run wrote is replaced)
        let what = format!(
            "the node file with device numbers fitted to the liberty files under {}",
            dir.display()
        );
        let fitted = fit.apply_to_toml(&text);
        let body = fitted
            .strip_prefix(&written_header(&fitted))
            .unwrap_or(&fitted);
        std::fs::write(&p, format!("{}{body}", run.toml_header("calibrate", &what)))
            .with_context(|| format!("writing {}", p.display()))?;
        bar.note(format!(
            "calibrate: fitted device numbers written to {}",
            p.display()
        ));
    }
    Ok(())
}

/// The leading comment lines of `text` that a gpuenergy command wrote
/// ([`crate::provenance::RunInfo::toml_header`]: `# Written by gpuenergy`, `# Command:`,
/// `# Run:`), empty when it has none.
fn written_header(text: &str) -> String {
    let mut head = String::new();
    if !text.starts_with("# Written by gpuenergy") {
        return head;
    }
    for line in text.split_inclusive('\n') {
        if ["# Written by gpuenergy", "# Command: ", "# Run: "]
            .iter()
            .any(|p| line.starts_with(p))
        {
            head.push_str(line);
        } else {
            break;
        }
    }
    head
}

/// Runs `gpuenergy calibrate` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    if let Some(m) = &args.board_measured {
        return board_fit(&args, m, &crate::provenance::RunInfo::for_command());
    }
    let point = techlib::ResolvedPoint::named(&args.tech)
        .with_context(|| format!("--tech {}", args.tech))?;
    let bar = Progress::bar(0, "steps", args.quiet.quiet);
    bar.message("starting");
    let run = crate::provenance::RunInfo::for_command().with_point(&point);
    let result = fit_and_write(&args, point.node(), &run, &bar);
    bar.finish();
    result
}

fn fit_and_write(
    args: &Args,
    node: &techlib::Node,
    run: &crate::provenance::RunInfo,
    bar: &Progress,
) -> Result<()> {
    if let Some(d) = &args.liberty_dir {
        tech_fit(args, node, d, run, bar)?;
    }
    let Some(reports) = &args.reports else {
        return Ok(());
    };
    let collected = calibration::collect::collect_all_with_progress(reports, &mut on_step(bar))?;
    for d in &collected.dropped {
        bar.warn(format!(
            "calibrate: warning: left out {}: {}",
            d.path.display(),
            d.error
        ));
    }
    if !collected.dropped.is_empty() && strict(args) {
        bail!(
            "{} corrupt record(s) or report(s) under {} (listed above; first: {}: {}); \
             nothing written (--strict{})",
            collected.dropped.len(),
            reports.display(),
            collected.dropped[0].path.display(),
            collected.dropped[0].error,
            if args.strict {
                ""
            } else {
                ", the default under CI"
            }
        );
    }
    let recs = collected.records;
    if recs.is_empty() && !collected.dropped.is_empty() {
        bail!(
            "no usable synthesis records under {}: all {} record(s) or report(s) found are \
             corrupt (listed above); nothing fitted, nothing written",
            reports.display(),
            collected.dropped.len()
        );
    }
    if recs.is_empty() {
        bail!(
            "no synthesis records or reports found under {} (expected record.json files from 'gpuenergy synth', or report directories with a meta.toml)",
            reports.display()
        );
    }
    bar.note(format!(
        "calibrate: {} records from {}",
        recs.len(),
        reports.display()
    ));
    let out = fit_records_with_progress(&args.tech, &recs, &mut on_step(bar))?;
    bar.finish();
    // the fit describes the records' characterisation point, not the node's defaults
    let r = &out.overlay.reference;
    let mut run = run.clone();
    run.flavour = r.flavour.clone();
    run.vdd_v = r.vdd_v;
    run.temperature_k = r.temperature_c + 273.15;
    let run = &run;
    match args.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&report::json_with_run(
                run,
                report::calibration::to_json(&out),
                "calibration"
            ))?
        ),
        Format::Table => print!(
            "{}",
            report::with_header(run, &report::calibration::to_table(&out))
        ),
        Format::Csv => return Err(report::no_csv("calibrate")),
    }
    let what = format!(
        "the calibration overlay fitted to {} records under {}",
        recs.len(),
        reports.display()
    );
    out.overlay
        .save_with_header(&args.out, &run.toml_header("calibrate", &what))?;
    bar.note(format!(
        "calibrate: overlay written to {}",
        args.out.display()
    ));
    if let Some(d) = &args.plot {
        for p in report::plot::write_parity_plots(&out, d)? {
            bar.note(format!("calibrate: plot {}", p.display()));
        }
    }
    Ok(())
}
