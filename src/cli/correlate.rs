//! `gpuenergy correlate`: compares the timing model's cycles with reference cycles (hardware
//! measurements or another simulator's) read from a CSV file; prints per-row errors, MAPE and
//! Pearson's r, and optionally writes a log-log scatter plot. The file format and the statistics
//! are documented in [`crate::correlate`].

use super::progress::{note, Progress};
use crate::correlate::{correlate_with_progress, read_reference, Input, Target};
use crate::report::{self, Format};
use anyhow::Result;
use std::path::PathBuf;

const AFTER_HELP: &str = "\
Reference file (CSV):
  A header row, then one row per compared number. Lines starting with '#' are comments; the
  comment lines before the header describe the file (the first conventionally names the source).
  Columns, in any order:
    workload          built-in workload (see `gpuenergy workloads`)
    size              input size tier: test or bench
    kernel            0-based index of a timed kernel launch of the workload (the order of
                      `launch_cycles` in `gpuenergy simulate --format json`), or `all` for the
                      whole workload: every launch with the gpu.kernel_launch_latency cycles
                      before it (before the first only with compat.launch_latency_first), as
                      `gpuenergy simulate` totals them
    reference_cycles  the reference's core cycles (a positive number)
    preset            optional: GPU preset of this row (one of `gpuenergy presets`) or a
                      configuration file ending in .toml, relative to the CSV's folder; when
                      given it overrides --preset/--config for the row
    source            optional: free text naming where the number comes from

  For example (the second row's number is illustrative):
  # Accel-Sim (GPGPU-Sim 4.2) on gpuenergy's test-size traces, TITAN X configuration
  workload,size,kernel,reference_cycles,preset,source
  hotspot,test,all,13069,gtx1080ti,Accel-Sim SM6_TITANX
  backprop,test,1,9000,gtx480,hardware (nvprof elapsed_cycles_sm)

Output: per row the reference and simulated cycles and the signed error (ours - reference) /
reference; over all rows (and per configuration when rows use several) the mean absolute
percentage error (MAPE), the mean signed error, the rows within +-15 %, and Pearson's r computed
on cycles and on log10 cycles. --plot DIR writes DIR/correlation.svg: reference cycles on x,
ours on y, log-log, with the y = x line and the +-15 % band.

Examples:
  gpuenergy correlate --reference tests/data/correlate/accelsim-titanx.csv
  gpuenergy correlate --reference hw.csv --preset gtx780 --plot plots/ --format json";

/// Arguments of `gpuenergy correlate`.
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// CSV file of reference cycles (format below).
    #[arg(long)]
    pub reference: PathBuf,
    /// GPU preset for rows without a `preset` column, one of `gpuenergy presets` (default
    /// gtx480).
    #[arg(long, conflicts_with = "config")]
    pub preset: Option<String>,
    /// Configuration file (TOML) for rows without a `preset`: full, or `base = "<preset>"` plus
    /// overrides.
    /// Every key: docs/config-keys.md or `gpuenergy presets --keys`.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// ptx: simulate each workload from the emulator's instruction stream; trace: write it as a
    /// stock-form Accel-Sim trace and simulate that (the `[latency.trace]` and `[trace]` options
    /// apply, as when the reference simulator read the same traces; `kernel = all` rows only).
    #[arg(long, value_enum, default_value = "ptx")]
    pub input: Input,
    /// Write the scatter plot `correlation.svg` into this directory.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Output format on stdout.
    #[arg(long, default_value = "table")]
    pub format: Format,
    /// `--quiet`: no progress display.
    #[command(flatten)]
    pub quiet: super::progress::QuietArg,
}

/// Runs `gpuenergy correlate` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    let reference = read_reference(&args.reference)?;
    let (config, origin) = super::simulate::resolve_config(
        args.preset.as_deref(),
        args.config.as_ref(),
        &super::ConfigMods::default(),
    )?;
    let mut run = crate::provenance::RunInfo::for_config(&origin, &config, None, &[]);
    let label = match (&args.preset, &args.config) {
        (_, Some(path)) => path.display().to_string(),
        (Some(p), None) => p.clone(),
        (None, None) => "gtx480".to_string(),
    };
    let quiet = args.quiet.quiet;
    // The number of distinct simulations is known from the first report.
    let bar = Progress::bar(0, "simulations", quiet);
    bar.message("simulating");
    let b2 = bar.clone();
    let c = correlate_with_progress(
        &reference,
        &Target {
            label,
            config: config.machine,
            input: args.input,
        },
        &move |what, _, total| {
            b2.set_total(total);
            b2.inc();
            b2.message(format!("{what} done"));
        },
    );
    bar.finish();
    let c = c?;
    if args.format != Format::Table {
        // the table lists them itself
        for w in &c.warnings {
            eprintln!("warning: {w}");
        }
    }
    // the rows name their own sizes and may name other configurations (the `config` column)
    let mut sizes: Vec<String> = Vec::new();
    for r in &c.rows {
        let name = r.size.as_str().to_string();
        if !sizes.contains(&name) {
            sizes.push(name);
        }
        if !run.workloads.contains(&r.workload) {
            run.workloads.push(r.workload.clone());
        }
    }
    run.size = sizes.join("+");
    run.activity_source = "sim".into();
    match args.format {
        Format::Table => print!(
            "{}",
            report::with_header(&run, &report::correlate::table(&c))
        ),
        Format::Csv => print!(
            "{}",
            report::csv_with_run(&run, &report::correlate::csv(&c))
        ),
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&report::json_with_run(
                &run,
                report::correlate::json(&c),
                "correlation"
            ))?
        ),
    }
    if let Some(dir) = &args.plot {
        let path = report::correlate::write_plot(dir, &c, &run)?;
        note(quiet, format!("wrote {}", path.display()));
    }
    Ok(())
}
