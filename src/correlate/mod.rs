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
//!
//! # Code
//!
//! [`reference`] reads the reference file, [`run`] makes the simulations, [`stats`] computes
//! the figures of merit; this file matches rows to runs and assembles the [`Correlation`].

mod reference;
mod run;
mod stats;

pub use reference::{
    parse_reference, read_reference, KernelSel, ReferenceFile, ReferenceRow, OPTIONAL_COLUMNS,
    REQUIRED_COLUMNS,
};
pub use run::{simulate_launches, simulate_via_trace, Input, LaunchCycles, LaunchRecorder, Target};
pub use stats::{mape_pct, pearson_r, stats, Stats, BAND_FRACTION};

use rayon::prelude::*;
use reference::row_config;
use serde::Serialize;
use sim::workloads::{self, Size};
use sim::SimError;

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
    use sim::config::GpuConfig;
    use sim::timing::{Program, Simulation, TimingGpu};

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
