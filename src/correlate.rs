//! Timing correlation against reference cycle counts (`gpuenergy correlate`): reads a CSV of
//! reference cycles (measured on hardware or taken from another simulator), simulates the same
//! workloads on the cycle-level timing model, and computes the per-row error, the mean absolute
//! percentage error (MAPE) and Pearson's correlation coefficient — the figures of merit of
//! Accel-Sim's correlation studies (Khairy et al., "Accel-Sim: An Extensible Simulation
//! Framework for Validated GPU Modeling", ISCA 2020).
//!
//! # Reference file
//!
//! A CSV file with a header row. Lines whose first character is `#` are comments (the comment
//! lines before the header describe the file; the first one conventionally names the source of
//! the numbers); blank lines are skipped. Columns, in any order:
//!
//! | column | required | meaning |
//! |---|---|---|
//! | `workload` | yes | a built-in workload (`gpuenergy workloads`) |
//! | `size` | yes | its input size tier: `test` or `bench` |
//! | `kernel` | yes | 0-based index of a timed kernel launch of the workload, or `all` |
//! | `reference_cycles` | yes | the reference's core cycles, a positive number |
//! | `preset` | no | GPU preset of this row, or a configuration file ending in `.toml` (relative to the CSV's folder); overrides `--preset`/`--config` when not empty |
//! | `source` | no | free text naming where the row's number comes from |
//!
//! `kernel = all` compares with the workload's total: every launch's cycles, each launch after the
//! first including `gpu.kernel_launch_latency` idle cycles before its first CTA (simulator §2.9),
//! exactly the `cycles` that `gpuenergy simulate` reports for the aggregate. A launch index `i`
//! compares with the cycles of launch `i` alone (including its launch latency when `i > 0`), in
//! the order the workload's host program launches kernels; launches of kernels that
//! `sim.kernels` leaves out of timing are not counted.
//!
//! # Statistics
//!
//! For reference cycles `r_i` and simulated cycles `s_i` of `n` rows: the signed error of a row
//! is `e_i = (s_i − r_i) / r_i`; MAPE is `100 · Σ|e_i| / n`; Pearson's `r` is the covariance of
//! `(r, s)` over the product of their standard deviations, computed on cycles, and again on
//! `log10` cycles (the correlation a log-log scatter plot shows, which a few long workloads do
//! not dominate). `r` is undefined for fewer than two rows or when either side is constant.

use rayon::prelude::*;
use serde::Serialize;
use sim::config::{GpuConfig, PRESET_NAMES};
use sim::stream::{DevPtr, Gpu};
use sim::timing::{Program, Simulation, TimingGpu};
use sim::trace::gpu::TraceGpu;
use sim::trace::line::TraceForm;
use sim::trace::run::TraceFolder;
use sim::workloads::{self, Size, Workload};
use sim::{Launch, SimError};
use std::path::Path;

/// Columns every reference file has.
pub const REQUIRED_COLUMNS: [&str; 4] = ["workload", "size", "kernel", "reference_cycles"];

/// Columns a reference file may have.
pub const OPTIONAL_COLUMNS: [&str; 2] = ["preset", "source"];

/// Half-width of the agreement band the report counts rows in and the plot draws: ±15 %, the
/// band of Accel-Sim's correlation plots. A presentation choice, not a fitted number.
pub const BAND_FRACTION: f64 = 0.15;

/// Which cycles of a workload a reference row gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelSel {
    /// The whole workload (every timed launch and the launch latencies between them).
    All,
    /// One timed launch, 0-based.
    Launch(usize),
}

impl std::fmt::Display for KernelSel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KernelSel::All => f.write_str("all"),
            KernelSel::Launch(i) => write!(f, "{i}"),
        }
    }
}

impl Serialize for KernelSel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            KernelSel::All => s.serialize_str("all"),
            KernelSel::Launch(i) => s.serialize_u64(*i as u64),
        }
    }
}

/// One row of a reference file.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceRow {
    /// 1-based line of the file.
    pub line: u64,
    /// Built-in workload name.
    pub workload: String,
    /// Input size tier.
    pub size: Size,
    /// Whole workload or one launch.
    pub kernel: KernelSel,
    /// Reference core cycles (positive).
    pub reference_cycles: f64,
    /// Preset of this row, overriding the command's configuration.
    pub preset: Option<String>,
    /// Where the number comes from.
    pub source: Option<String>,
}

/// A parsed reference file.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceFile {
    /// The file's name as given.
    pub file: String,
    /// The comment lines before the header, without the `#` and surrounding blanks.
    pub description: Vec<String>,
    /// The rows, in file order.
    pub rows: Vec<ReferenceRow>,
}

/// Why a correlation could not be made. Messages name the file, line and column at fault and,
/// where there is a choice, the values allowed.
#[derive(Debug, thiserror::Error)]
pub enum CorrelateError {
    /// The file could not be read.
    #[error("{file}: cannot read the reference file: {error}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        #[source]
        error: std::io::Error,
    },
    /// The file is not CSV, its header is wrong or it has no rows.
    #[error("{file}:{line}: {message}")]
    File {
        /// The file.
        file: String,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// One field of a row is wrong.
    #[error("{file}:{line}: column '{column}': {message}")]
    Field {
        /// The file.
        file: String,
        /// 1-based line.
        line: u64,
        /// The column.
        column: String,
        /// What is wrong and what is allowed.
        message: String,
    },
    /// The simulation of a row's workload failed.
    #[error("{file}:{line}: simulating {workload} ({size}) on {config}")]
    Simulation {
        /// The file.
        file: String,
        /// 1-based line of the first row that needs the run.
        line: u64,
        /// The workload.
        workload: String,
        /// Its size tier.
        size: String,
        /// The configuration's label.
        config: String,
        /// Why (boxed: a simulation error is large, and rare).
        #[source]
        error: Box<SimError>,
    },
}

/// Reads and checks a reference file (format in the module documentation).
pub fn read_reference(path: &Path) -> Result<ReferenceFile, CorrelateError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| CorrelateError::Read {
        file: file.clone(),
        error,
    })?;
    parse_reference(&text, &file)
}

/// The built-in workload names, comma-separated.
fn known_workloads() -> String {
    workloads::all()
        .iter()
        .map(|w| w.info().name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses the text of a reference file named `file` (for messages).
pub fn parse_reference(text: &str, file: &str) -> Result<ReferenceFile, CorrelateError> {
    // A byte-order mark (spreadsheet exports) is not part of the first column's name.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file_err = |line: u64, message: String| CorrelateError::File {
        file: file.to_string(),
        line,
        message,
    };
    // The description: comment lines before the first other non-blank line.
    let description: Vec<String> = text
        .lines()
        .take_while(|l| skipped_line(l))
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim().to_string())
        .collect();
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .comment(Some(b'#'))
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut records = rdr.records();
    let header = match records.next() {
        None => return Err(file_err(1, "empty file: expected a header row".into())),
        Some(Err(e)) => return Err(file_err(csv_line(&e), format!("malformed CSV: {e}"))),
        Some(Ok(h)) => h,
    };
    let header_line = record_line(text, header.position());
    let allowed = || {
        format!(
            "required {}; optional {}",
            REQUIRED_COLUMNS.join(", "),
            OPTIONAL_COLUMNS.join(", ")
        )
    };
    let mut columns: Vec<&str> = Vec::new();
    for name in header.iter() {
        if !REQUIRED_COLUMNS.contains(&name) && !OPTIONAL_COLUMNS.contains(&name) {
            return Err(file_err(
                header_line,
                format!("header: unknown column '{name}' ({})", allowed()),
            ));
        }
        if columns.contains(&name) {
            return Err(file_err(
                header_line,
                format!("header: column '{name}' appears twice"),
            ));
        }
        columns.push(name);
    }
    for name in REQUIRED_COLUMNS {
        if !columns.contains(&name) {
            return Err(file_err(
                header_line,
                format!("header: missing column '{name}' ({})", allowed()),
            ));
        }
    }
    let col = |name: &str| columns.iter().position(|c| *c == name);
    let (i_workload, i_size, i_kernel, i_cycles) = (
        col("workload").expect("checked"),
        col("size").expect("checked"),
        col("kernel").expect("checked"),
        col("reference_cycles").expect("checked"),
    );
    let (i_preset, i_source) = (col("preset"), col("source"));
    let mut rows = Vec::new();
    for rec in records {
        let rec = rec.map_err(|e| file_err(csv_line(&e), format!("malformed CSV: {e}")))?;
        let line = record_line(text, rec.position());
        if rec.len() != columns.len() {
            return Err(file_err(
                line,
                format!(
                    "{} fields, but the header has {} ({})",
                    rec.len(),
                    columns.len(),
                    columns.join(",")
                ),
            ));
        }
        let field_err = |column: &str, message: String| CorrelateError::Field {
            file: file.to_string(),
            line,
            column: column.to_string(),
            message,
        };
        let workload = &rec[i_workload];
        if workloads::find(workload).is_none() {
            return Err(field_err(
                "workload",
                format!(
                    "unknown workload '{workload}'; known: {}",
                    known_workloads()
                ),
            ));
        }
        let size = match &rec[i_size] {
            "test" => Size::Test,
            "bench" => Size::Bench,
            s => {
                return Err(field_err(
                    "size",
                    format!("unknown size '{s}' (allowed: test, bench)"),
                ))
            }
        };
        let kernel = match &rec[i_kernel] {
            "all" => KernelSel::All,
            s => KernelSel::Launch(s.parse::<usize>().map_err(|_| {
                field_err(
                    "kernel",
                    format!("'{s}' is neither a 0-based launch index nor 'all'"),
                )
            })?),
        };
        let s = &rec[i_cycles];
        let reference_cycles = match s.parse::<f64>() {
            Ok(v) if v.is_finite() && v > 0.0 => v,
            Ok(_) => {
                return Err(field_err(
                    "reference_cycles",
                    format!("'{s}': cycles must be a positive finite number"),
                ))
            }
            Err(_) => {
                return Err(field_err(
                    "reference_cycles",
                    format!("'{s}' is not a number (write cycles without separators)"),
                ))
            }
        };
        let optional = |i: Option<usize>| {
            i.map(|i| rec[i].to_string())
                .filter(|s: &String| !s.is_empty())
        };
        let preset = optional(i_preset);
        if let Some(p) = &preset {
            if let Err(e) = row_config(p, file) {
                return Err(field_err("preset", e));
            }
        }
        rows.push(ReferenceRow {
            line,
            workload: workload.to_string(),
            size,
            kernel,
            reference_cycles,
            preset,
            source: optional(i_source),
        });
    }
    if rows.is_empty() {
        return Err(file_err(
            header_line,
            "no reference rows after the header".into(),
        ));
    }
    Ok(ReferenceFile {
        file: file.to_string(),
        description,
        rows,
    })
}

/// Whether the CSV reader passes over `line`: an empty line or a comment (`#` first).
fn skipped_line(line: &str) -> bool {
    line.trim_end_matches('\r').is_empty() || line.starts_with('#')
}

/// The 1-based line a record starts on. The reader's position is where it began reading, which
/// is before any comment and empty lines it passed over; those are skipped here.
fn record_line(text: &str, pos: Option<&csv::Position>) -> u64 {
    let Some(pos) = pos else { return 0 };
    let mut line = pos.line();
    let start = usize::try_from(pos.byte()).unwrap_or(usize::MAX);
    let Some(rest) = text.get(start..) else {
        return line;
    };
    for l in rest.split('\n') {
        if !skipped_line(l) {
            break;
        }
        line += 1;
    }
    line
}

/// The line a CSV error occurred on (0 when the reader does not say).
fn csv_line(e: &csv::Error) -> u64 {
    e.position().map_or(0, |p| p.line())
}

/// A configuration that rows are simulated on, and the label the report gives it.
#[derive(Clone, Debug)]
pub struct Target {
    /// Preset name or configuration file, as the report shows it.
    pub label: String,
    /// The resolved configuration.
    pub config: GpuConfig,
    /// What the timing model reads.
    pub input: Input,
}

/// What the timing model reads for a workload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Input {
    /// The emulator's instruction stream (execution-driven, as `gpuenergy simulate --workload`).
    #[default]
    Ptx,
    /// The workload's Accel-Sim trace in the stock form, written to a temporary folder and read
    /// back (as `gpuenergy trace` then `gpuenergy simulate --trace`): the `[latency.trace]`
    /// and `[trace]` options apply. Only `kernel = all` rows.
    Trace,
}

/// The cycles of one simulated workload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LaunchCycles {
    /// Core cycles of each timed launch in launch order; launch `i > 0` includes the
    /// `gpu.kernel_launch_latency` idle cycles before its first CTA.
    pub launches: Vec<u64>,
    /// The aggregate cycles (the sum of `launches`), as `gpuenergy simulate` reports them.
    pub total: u64,
    /// Some launch stopped at a simulation limit (`sim.max_cycles`, `sim.max_warp_insts`).
    pub truncated: bool,
}

/// A [`Gpu`] that passes everything to a [`TimingGpu`] and notes the cycles each timed launch
/// adds to its record; the simulation itself is the timing GPU's, unchanged.
pub struct LaunchRecorder<'g> {
    gpu: &'g mut TimingGpu,
    launches: Vec<u64>,
}

impl<'g> LaunchRecorder<'g> {
    /// A recorder in front of `gpu`, with no launch noted yet.
    pub fn new(gpu: &'g mut TimingGpu) -> Self {
        LaunchRecorder {
            gpu,
            launches: Vec::new(),
        }
    }

    /// The cycles of each timed launch so far, in launch order (launch `i > 0` including its
    /// `gpu.kernel_launch_latency`).
    pub fn into_launches(self) -> Vec<u64> {
        self.launches
    }
}

impl Gpu for LaunchRecorder<'_> {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.gpu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.gpu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.gpu.copy_from_device(src, out)
    }
    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        let before = self.gpu.activity().aggregate.clone();
        self.gpu.launch(launch)?;
        let after = &self.gpu.activity().aggregate;
        // A launch that `sim.kernels` leaves out of timing runs functionally and adds nothing.
        if after.launches > before.launches {
            self.launches.push(after.cycles - before.cycles);
        }
        Ok(())
    }
    fn last_launch_truncated(&self) -> bool {
        self.gpu.last_launch_truncated()
    }
}

/// Simulates workload `w` at size `size` on `cfg` and returns the cycles of each timed launch
/// and the total. The run is the one `gpuenergy simulate` makes (no reference check).
pub fn simulate_launches(
    cfg: &GpuConfig,
    w: &dyn Workload,
    size: Size,
) -> Result<LaunchCycles, SimError> {
    let mut launches = Vec::new();
    let (ran, act) = Simulation::new(cfg).run(Program(|gpu: &mut TimingGpu| {
        let mut rec = LaunchRecorder::new(gpu);
        let r = w.run(size, &mut rec, false);
        launches = rec.into_launches();
        r
    }))?;
    ran?;
    let total = act.aggregate.cycles;
    debug_assert_eq!(launches.iter().sum::<u64>(), total);
    Ok(LaunchCycles {
        launches,
        total,
        truncated: act.aggregate.truncated,
    })
}

/// Writes workload `w` at size `size` as a stock-form trace into a temporary folder, simulates
/// the folder on `cfg` and returns the total cycles (no per-launch cycles: `launches` is empty).
pub fn simulate_via_trace(
    cfg: &GpuConfig,
    w: &dyn Workload,
    size: Size,
) -> Result<LaunchCycles, SimError> {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "gpuenergy-correlate-{}-{}-{}-{n}",
        std::process::id(),
        w.info().name,
        size.as_str()
    ));
    let result = (|| {
        let mut gpu = TraceGpu::create(&dir, TraceForm::Stock)?;
        w.run(size, &mut gpu, false)?;
        gpu.finish()?;
        let run = Simulation::new(cfg).run(TraceFolder::new(&dir))?;
        Ok(LaunchCycles {
            launches: Vec::new(),
            total: run.activity.aggregate.cycles,
            truncated: run.activity.aggregate.truncated,
        })
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// One compared row.
#[derive(Clone, Debug, Serialize)]
pub struct RowResult {
    /// 1-based line of the reference file.
    pub line: u64,
    /// Workload.
    pub workload: String,
    /// Size tier.
    pub size: Size,
    /// Whole workload or one launch.
    pub kernel: KernelSel,
    /// Label of the configuration simulated (preset or configuration file).
    pub config: String,
    /// The row's source, if it names one.
    pub source: Option<String>,
    /// Reference cycles.
    pub reference_cycles: f64,
    /// Simulated cycles.
    pub our_cycles: u64,
    /// Signed error `(ours − reference) / reference`, %.
    pub error_pct: f64,
}

/// The figures of merit of a set of rows (see the module documentation).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// Number of rows.
    pub rows: usize,
    /// Mean absolute percentage error, %.
    pub mape_pct: f64,
    /// Mean signed error, % (positive: the model is slower than the reference).
    pub mean_error_pct: f64,
    /// Pearson's r of simulated against reference cycles; `None` when undefined.
    pub pearson_r_cycles: Option<f64>,
    /// Pearson's r of log10 simulated against log10 reference cycles; `None` when undefined.
    pub pearson_r_log_cycles: Option<f64>,
    /// Rows whose error is within ±[`BAND_FRACTION`].
    pub within_band: usize,
}

/// Pearson's product-moment correlation coefficient of `xs` and `ys` (same length):
/// `Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)² · Σ(y−ȳ)²)`. `None` for fewer than two points or when either
/// series is constant.
pub fn pearson_r(xs: &[f64], ys: &[f64]) -> Option<f64> {
    let n = xs.len();
    if n < 2 || ys.len() != n {
        return None;
    }
    let mx = xs.iter().sum::<f64>() / n as f64;
    let my = ys.iter().sum::<f64>() / n as f64;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in xs.iter().zip(ys) {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    if sxx <= 0.0 || syy <= 0.0 {
        return None;
    }
    Some((sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

/// Mean absolute percentage error of `ours` against `reference` (positive values), %:
/// `100 · Σ|o − r| / r / n`; 0 for no points.
pub fn mape_pct(reference: &[f64], ours: &[f64]) -> f64 {
    if reference.is_empty() {
        return 0.0;
    }
    100.0
        * reference
            .iter()
            .zip(ours)
            .map(|(r, o)| ((o - r) / r).abs())
            .sum::<f64>()
        / reference.len() as f64
}

/// The statistics of `(reference, ours)` cycle pairs.
pub fn stats(pairs: &[(f64, f64)]) -> Stats {
    let r: Vec<f64> = pairs.iter().map(|p| p.0).collect();
    let o: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let n = pairs.len();
    let mean_error_pct = if n == 0 {
        0.0
    } else {
        100.0 * pairs.iter().map(|(r, o)| (o - r) / r).sum::<f64>() / n as f64
    };
    let log = |v: &[f64]| v.iter().map(|x| x.log10()).collect::<Vec<_>>();
    Stats {
        rows: n,
        mape_pct: mape_pct(&r, &o),
        mean_error_pct,
        pearson_r_cycles: pearson_r(&r, &o),
        pearson_r_log_cycles: pearson_r(&log(&r), &log(&o)),
        within_band: pairs
            .iter()
            .filter(|(r, o)| ((o - r) / r).abs() <= BAND_FRACTION + 1e-12)
            .count(),
    }
}

/// The result of correlating a reference file.
#[derive(Clone, Debug, Serialize)]
pub struct Correlation {
    /// The reference file.
    pub file: String,
    /// Its description (comment lines before the header).
    pub description: Vec<String>,
    /// Every row, in file order.
    pub rows: Vec<RowResult>,
    /// Statistics over all rows.
    pub overall: Stats,
    /// Statistics per configuration, in order of first appearance (only when rows use more
    /// than one).
    pub per_config: Vec<(String, Stats)>,
    /// Simulations that stopped at a limit, and similar caveats.
    pub warnings: Vec<String>,
    /// Every simulation made, in order of the first row that needs it, with the cycles of each
    /// launch (the indices a `kernel` column can name).
    pub runs: Vec<Run>,
}

/// One simulation a correlation made.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    /// Label of the configuration.
    pub config: String,
    /// Workload.
    pub workload: String,
    /// Size tier.
    pub size: Size,
    /// Its cycles, per launch and in total.
    pub cycles: LaunchCycles,
}

/// The configuration a row's `preset` names: a built-in preset, or (a value ending in `.toml`)
/// a configuration file, relative to the folder of the reference file `file`.
fn row_config(p: &str, file: &str) -> Result<GpuConfig, String> {
    if p.ends_with(".toml") {
        let dir = Path::new(file).parent().unwrap_or(Path::new(""));
        let path = dir.join(p);
        let cfg = GpuConfig::from_toml_file(&path)
            .map_err(|e| format!("configuration file '{}': {e}", path.display()))?;
        models::gpu::limits::check_sizes(&cfg)
            .map_err(|e| format!("configuration file '{}': {e}", path.display()))?;
        Ok(cfg)
    } else {
        GpuConfig::preset(p).map_err(|_| {
            format!(
                "unknown preset '{p}' (allowed: {}, or a configuration file ending in .toml)",
                PRESET_NAMES.join(", ")
            )
        })
    }
}

/// Simulates every row of `reference` — on its own preset when it names one, else on
/// `default` — and compares. Each (configuration, workload, size) is simulated once, in
/// parallel; results are in file order and do not depend on the thread count.
pub fn correlate(
    reference: &ReferenceFile,
    default: &Target,
) -> Result<Correlation, CorrelateError> {
    correlate_with_progress(reference, default, &|_, _, _| {})
}

/// Progress callback of [`correlate_with_progress`]: called as each simulation finishes with
/// its description (`workload (size) on config`), the number finished so far and the total.
/// Called from worker threads.
pub type Progress = dyn Fn(&str, usize, usize) + Sync;

/// [`correlate`], reporting each finished simulation to `progress`.
pub fn correlate_with_progress(
    reference: &ReferenceFile,
    default: &Target,
    progress: &Progress,
) -> Result<Correlation, CorrelateError> {
    let file = &reference.file;
    // The target of every row.
    let mut targets: Vec<Target> = Vec::new();
    let mut row_target = Vec::with_capacity(reference.rows.len());
    for row in &reference.rows {
        let label = row.preset.as_deref().unwrap_or(&default.label);
        let i = match targets.iter().position(|t| t.label == label) {
            Some(i) => i,
            None => {
                let config = match &row.preset {
                    Some(p) => row_config(p, file).map_err(|message| CorrelateError::Field {
                        file: file.clone(),
                        line: row.line,
                        column: "preset".into(),
                        message,
                    })?,
                    None => default.config.clone(),
                };
                targets.push(Target {
                    label: label.to_string(),
                    config,
                    input: default.input,
                });
                targets.len() - 1
            }
        };
        row_target.push(i);
    }
    // The distinct runs, each with the first row that needs it.
    let mut runs: Vec<(usize, &str, Size, &ReferenceRow)> = Vec::new();
    let mut row_run = Vec::with_capacity(reference.rows.len());
    for (row, &t) in reference.rows.iter().zip(&row_target) {
        let key = (t, row.workload.as_str(), row.size);
        let i = match runs.iter().position(|r| (r.0, r.1, r.2) == key) {
            Some(i) => i,
            None => {
                runs.push((t, &row.workload, row.size, row));
                runs.len() - 1
            }
        };
        row_run.push(i);
    }
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<LaunchCycles> = runs
        .par_iter()
        .map(|&(t, name, size, row)| {
            let w = workloads::find(name).expect("checked when parsed");
            let r = match targets[t].input {
                Input::Ptx => simulate_launches(&targets[t].config, w, size),
                Input::Trace => simulate_via_trace(&targets[t].config, w, size),
            };
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(
                &format!("{name} ({size}) on {}", targets[t].label),
                n,
                runs.len(),
            );
            r.map_err(|error| CorrelateError::Simulation {
                file: file.clone(),
                line: row.line,
                workload: name.to_string(),
                size: size.as_str().to_string(),
                config: targets[t].label.clone(),
                error: Box::new(error),
            })
        })
        .collect::<Result<_, _>>()?;
    let mut warnings = Vec::new();
    for (&(t, name, size, _), r) in runs.iter().zip(&results) {
        if r.truncated {
            warnings.push(format!(
                "{name} ({size}) on {}: a launch stopped at a simulation limit (sim.max_cycles \
                 or sim.max_warp_insts); its cycles are a lower bound",
                targets[t].label
            ));
        }
    }
    let mut rows = Vec::with_capacity(reference.rows.len());
    for ((row, &t), &run) in reference.rows.iter().zip(&row_target).zip(&row_run) {
        let sim = &results[run];
        let ours = match row.kernel {
            KernelSel::All => sim.total,
            KernelSel::Launch(_) if targets[t].input == Input::Trace => {
                return Err(CorrelateError::Field {
                    file: file.clone(),
                    line: row.line,
                    column: "kernel".into(),
                    message: "a launch index needs --input ptx; trace input gives whole-workload \
                              totals only (allowed: all)"
                        .into(),
                })
            }
            KernelSel::Launch(i) => *sim.launches.get(i).ok_or_else(|| CorrelateError::Field {
                file: file.clone(),
                line: row.line,
                column: "kernel".into(),
                message: format!(
                    "launch {i} out of range: {} ({}) on {} makes {} timed launch{} (allowed: \
                     0 to {} or all)",
                    row.workload,
                    row.size,
                    targets[t].label,
                    sim.launches.len(),
                    if sim.launches.len() == 1 { "" } else { "es" },
                    sim.launches.len().saturating_sub(1)
                ),
            })?,
        };
        rows.push(RowResult {
            line: row.line,
            workload: row.workload.clone(),
            size: row.size,
            kernel: row.kernel,
            config: targets[t].label.clone(),
            source: row.source.clone(),
            reference_cycles: row.reference_cycles,
            our_cycles: ours,
            error_pct: 100.0 * (ours as f64 - row.reference_cycles) / row.reference_cycles,
        });
    }
    let pairs = |f: &dyn Fn(&RowResult) -> bool| -> Vec<(f64, f64)> {
        rows.iter()
            .filter(|r| f(r))
            .map(|r| (r.reference_cycles, r.our_cycles as f64))
            .collect()
    };
    let overall = stats(&pairs(&|_| true));
    let per_config = if targets.len() > 1 {
        targets
            .iter()
            .map(|t| (t.label.clone(), stats(&pairs(&|r| r.config == t.label))))
            .collect()
    } else {
        Vec::new()
    };
    Ok(Correlation {
        file: file.clone(),
        description: reference.description.clone(),
        rows,
        overall,
        per_config,
        warnings,
        runs: runs
            .iter()
            .zip(results)
            .map(|(&(t, name, size, _), cycles)| Run {
                config: targets[t].label.clone(),
                workload: name.to_string(),
                size,
                cycles,
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "\
# Hand-made reference
# second comment line

workload,size,kernel,reference_cycles,preset,source
hotspot,test,all,13069,gtx1080ti,Accel-Sim
# a comment between rows
sgemm , bench , 0 , 4.5e4 ,,
";

    #[test]
    fn parses_rows_comments_and_line_numbers() {
        let f = parse_reference(GOOD, "ref.csv").unwrap();
        let bom = parse_reference(&format!("\u{feff}{GOOD}"), "ref.csv").unwrap();
        assert_eq!(bom, f, "a byte-order mark is ignored");
        assert_eq!(
            f.description,
            ["Hand-made reference", "second comment line"]
        );
        assert_eq!(f.rows.len(), 2);
        let a = &f.rows[0];
        assert_eq!(a.line, 5);
        assert_eq!(a.workload, "hotspot");
        assert_eq!(a.size, Size::Test);
        assert_eq!(a.kernel, KernelSel::All);
        assert_eq!(a.reference_cycles, 13069.0);
        assert_eq!(a.preset.as_deref(), Some("gtx1080ti"));
        assert_eq!(a.source.as_deref(), Some("Accel-Sim"));
        let b = &f.rows[1];
        assert_eq!(b.line, 7, "comment lines count in line numbers");
        assert_eq!(b.size, Size::Bench);
        assert_eq!(b.kernel, KernelSel::Launch(0));
        assert_eq!(b.reference_cycles, 45000.0);
        assert_eq!(b.preset, None);
        assert_eq!(b.source, None);
    }

    fn err(text: &str) -> String {
        parse_reference(text, "r.csv").unwrap_err().to_string()
    }

    #[test]
    fn bad_files_name_file_line_and_column() {
        let h = "workload,size,kernel,reference_cycles\n";
        let e = err("");
        assert!(e.starts_with("r.csv:1:") && e.contains("header"), "{e}");
        let e = err("# only a comment\n");
        assert!(e.contains("header"), "{e}");
        let e = err("workload,size,kernel\nhotspot,test,all\n");
        assert!(
            e.starts_with("r.csv:1:") && e.contains("missing column 'reference_cycles'"),
            "{e}"
        );
        let e = err("# about\n\nworkload,size\nhotspot,test\n");
        assert!(
            e.starts_with("r.csv:3:") && e.contains("missing column"),
            "{e}"
        );
        let e = err(&format!("# c\n{h}\n# c\n\nhotspot,test,all,x\n"));
        assert!(e.starts_with("r.csv:6: column 'reference_cycles'"), "{e}");
        let e = err("workload,size,kernel,reference_cycles,cycles\n");
        assert!(
            e.contains("unknown column 'cycles'") && e.contains("source"),
            "{e}"
        );
        let e = err("workload,size,size,kernel,reference_cycles\n");
        assert!(e.contains("'size' appears twice"), "{e}");
        let e = err(h);
        assert!(e.contains("no reference rows"), "{e}");
        let e = err(&format!("{h}nosuch,test,all,100\n"));
        assert!(
            e.starts_with("r.csv:2: column 'workload'")
                && e.contains("'nosuch'")
                && e.contains("hotspot"),
            "{e}"
        );
        let e = err(&format!("{h}hotspot,huge,all,100\n"));
        assert!(
            e.starts_with("r.csv:2: column 'size'") && e.contains("test, bench"),
            "{e}"
        );
        let e = err(&format!("{h}hotspot,test,-1,100\n"));
        assert!(e.starts_with("r.csv:2: column 'kernel'"), "{e}");
        for bad in ["0", "-5", "inf", "NaN"] {
            let e = err(&format!("# c\n{h}hotspot,test,all,{bad}\n"));
            assert!(
                e.starts_with("r.csv:3: column 'reference_cycles'") && e.contains("positive"),
                "{bad}: {e}"
            );
        }
        let e = err(&format!("{h}hotspot,test,all,lots\n"));
        assert!(
            e.starts_with("r.csv:2: column 'reference_cycles'") && e.contains("not a number"),
            "{e}"
        );
        let e = err(&format!("{h}hotspot,test,all\n"));
        assert!(e.starts_with("r.csv:2:") && e.contains("3 fields"), "{e}");
        let e = err("workload,size,kernel,reference_cycles,preset\nhotspot,test,all,9,gtx9\n");
        assert!(
            e.starts_with("r.csv:2: column 'preset'") && e.contains("gtx1080ti"),
            "{e}"
        );
    }

    #[test]
    fn mape_and_pearson_match_hand_computed_values() {
        // errors +10 %, −20 %, +50 %: MAPE = (10 + 20 + 50) / 3 = 26.667 %, mean = 13.333 %
        let r = [100.0, 200.0, 400.0];
        let o = [110.0, 160.0, 600.0];
        assert!((mape_pct(&r, &o) - 80.0 / 3.0).abs() < 1e-12);
        // x̄ = 233.33, ȳ = 290; Σdxdy = 80000, Σdx² = 46666.67, Σdy² = 145400
        // r = 80000 / √(46666.67 · 145400) = 0.971190
        let p = pearson_r(&r, &o).unwrap();
        assert!((p - 0.971_190).abs() < 1e-6, "{p}");
        let s = stats(&[(100.0, 110.0), (200.0, 160.0), (400.0, 600.0)]);
        assert_eq!(s.rows, 3);
        assert!((s.mean_error_pct - 40.0 / 3.0).abs() < 1e-12);
        assert_eq!(s.within_band, 1, "only +10 % is within ±15 %");
        assert!((s.pearson_r_cycles.unwrap() - p).abs() < 1e-15);
        // log10: x = (2, 2.30103, 2.60206), y = (2.04139, 2.20412, 2.77815);
        // Σdxdy = 0.221786, Σdx² = 0.181238, Σdy² = 0.299602, r = 0.951783
        let l = s.pearson_r_log_cycles.unwrap();
        assert!((l - 0.951_783).abs() < 1e-6, "{l}");
        // a perfect linear relation, exact and reversed
        assert!((pearson_r(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]).unwrap() - 1.0).abs() < 1e-15);
        assert!((pearson_r(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]).unwrap() + 1.0).abs() < 1e-15);
        // undefined cases
        assert_eq!(pearson_r(&[1.0], &[2.0]), None);
        assert_eq!(pearson_r(&[1.0, 2.0], &[5.0, 5.0]), None);
        assert_eq!(mape_pct(&[], &[]), 0.0);
    }

    #[test]
    fn rows_run_on_their_own_preset_once_per_workload() {
        let text = "workload,size,kernel,reference_cycles,preset\n\
                    backprop,test,all,9000,\n\
                    backprop,test,0,5000,gtx480\n\
                    backprop,test,1,5000,\n\
                    backprop,test,all,9000,gtx480\n";
        let f = parse_reference(text, "mixed.csv").unwrap();
        let default = Target {
            label: "gtx1080ti".into(),
            config: GpuConfig::preset("gtx1080ti").unwrap(),
            input: Input::Ptx,
        };
        let c = correlate(&f, &default).unwrap();
        let configs: Vec<&str> = c.rows.iter().map(|r| r.config.as_str()).collect();
        assert_eq!(configs, ["gtx1080ti", "gtx480", "gtx1080ti", "gtx480"]);
        assert_eq!(c.runs.len(), 2, "one simulation per preset and workload");
        let labels: Vec<&str> = c.per_config.iter().map(|p| p.0.as_str()).collect();
        assert_eq!(labels, ["gtx1080ti", "gtx480"]);
        assert!(c.per_config.iter().all(|p| p.1.rows == 2));
        // rows read their run: the total and the launches of the right configuration
        assert_eq!(c.rows[0].our_cycles, c.runs[0].cycles.total);
        assert_eq!(c.rows[1].our_cycles, c.runs[1].cycles.launches[0]);
        assert_eq!(c.rows[2].our_cycles, c.runs[0].cycles.launches[1]);
        assert_eq!(c.rows[3].our_cycles, c.runs[1].cycles.total);
        assert_ne!(c.runs[0].cycles.total, c.runs[1].cycles.total);
        assert_eq!(c.overall.rows, 4);
    }

    #[test]
    fn launch_cycles_add_up_to_the_simulated_total() {
        let cfg = GpuConfig::preset("gtx480").unwrap();
        let w = workloads::find("backprop").unwrap();
        let c = simulate_launches(&cfg, w, Size::Test).unwrap();
        assert!(c.launches.len() >= 2, "backprop launches two kernels");
        assert_eq!(c.launches.iter().sum::<u64>(), c.total);
        // the same run as `Study::simulate`, i.e. `gpuenergy simulate`
        let (_, act) = Simulation::new(&cfg)
            .run(Program(|gpu: &mut TimingGpu| w.run(Size::Test, gpu, false)))
            .unwrap();
        assert_eq!(act.aggregate.cycles, c.total);
        // the second launch waits the kernel launch latency
        assert!(c.launches[1] > cfg.gpu.kernel_launch_latency);
    }
}
