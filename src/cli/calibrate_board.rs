//! `gpuenergy calibrate --board-measured`: fit the board model's two global scalars
//! ([`models::gpu::board`]) to measured board power, with the fit's error.
//!
//! Inputs: the measurements (a Markdown table with `kernel` and `mean power W` columns, as
//! `../shared/reference/v100-measured-power.md`, or a CSV with `kernel,measured_w`), and the
//! modelled terms of each kernel's run — either `--board-run KERNEL=FILE`, the JSON of
//! `gpuenergy estimate --board-power --format json` for that kernel, or `--board-rows FILE`,
//! a CSV of terms that `--board-rows-out` wrote earlier.

use anyhow::{bail, Context, Result};
use calibration::board::{fit_board, BoardFit, BoardRow};
use models::gpu::board::{BoardTerms, VR_EFFICIENCY};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The columns of a rows file, in order.
pub const ROW_COLUMNS: [&str; 5] = [
    "kernel",
    "chip_dynamic_w",
    "chip_leakage_w",
    "dram_dynamic_w",
    "dram_background_w",
];

/// Measured board power per kernel from a Markdown table (the first table whose header has a
/// `kernel` column and a column starting `mean power`) or a CSV `kernel,measured_w`.
pub fn read_measured(path: &Path) -> Result<BTreeMap<String, f64>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--board-measured {}", path.display()))?;
    let file = path.display();
    let mut out = BTreeMap::new();
    // the header's columns and whether it was a Markdown row: the table's rows are lines of
    // the same kind, and any other line ends it
    let mut cols: Option<(usize, usize, bool)> = None;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let md = line.trim_start().starts_with('|');
        let cells: Vec<&str> = if md {
            line.trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect()
        } else if line.contains(',') {
            line.split(',').map(str::trim).collect()
        } else {
            cols = None;
            continue;
        };
        if cols.is_some_and(|(_, _, was_md)| was_md != md) {
            cols = None;
        }
        match cols {
            None => {
                let k = cells.iter().position(|c| c.eq_ignore_ascii_case("kernel"));
                let p = cells.iter().position(|c| {
                    let c = c.to_ascii_lowercase();
                    c.starts_with("mean power") || c == "measured_w"
                });
                if let (Some(k), Some(p)) = (k, p) {
                    cols = Some((k, p, md));
                }
            }
            Some((k, p, _)) => {
                if cells.iter().all(|c| c.chars().all(|ch| "-: ".contains(ch))) {
                    continue;
                }
                let (Some(name), Some(v)) = (cells.get(k), cells.get(p)) else {
                    bail!("{file}:{line_no}: a row with fewer cells than the header");
                };
                let w: f64 = v.parse().map_err(|_| {
                    anyhow::anyhow!("{file}:{line_no}: '{v}' is not a power in watts")
                })?;
                if !(w.is_finite() && w > 0.0 && w < 1e5) {
                    bail!("{file}:{line_no}: power {w} W is outside (0, 100000) W");
                }
                if out.insert(name.to_string(), w).is_some() {
                    bail!("{file}:{line_no}: kernel '{name}' measured twice");
                }
            }
        }
    }
    if out.is_empty() {
        bail!(
            "{file}: no measurements found (expected a Markdown table with 'kernel' and \
             'mean power W' columns, or a CSV with the header 'kernel,measured_w')"
        );
    }
    Ok(out)
}

/// The modelled terms of one kernel from the JSON of `estimate --board-power --format json`:
/// the run must be a single workload.
pub fn terms_from_estimate_json(path: &Path) -> Result<BoardTerms> {
    let text = std::fs::read_to_string(path).with_context(|| path.display().to_string())?;
    let v: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
    let runs = v
        .pointer("/board/runs")
        .and_then(|r| r.as_array())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "{}: no 'board.runs' (write it with `gpuenergy estimate --board-power --format json`)",
                path.display()
            )
        })?;
    if runs.len() != 1 {
        bail!(
            "{}: {} runs in 'board.runs'; one kernel's estimate has one",
            path.display(),
            runs.len()
        );
    }
    serde_json::from_value(runs[0]["terms"].clone())
        .with_context(|| format!("{}: board.runs[0].terms", path.display()))
}

/// Reads a rows file ([`ROW_COLUMNS`]).
pub fn read_rows(path: &Path) -> Result<Vec<(String, BoardTerms)>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--board-rows {}", path.display()))?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'));
    let header = lines.next().map(|(_, l)| l).unwrap_or_default();
    if header.split(',').map(str::trim).ne(ROW_COLUMNS) {
        bail!(
            "{}: header '{header}', expected '{}'",
            path.display(),
            ROW_COLUMNS.join(",")
        );
    }
    let mut out = Vec::new();
    for (i, l) in lines {
        let c: Vec<&str> = l.split(',').map(str::trim).collect();
        let num = |j: usize| -> Result<f64> {
            let s = c.get(j).copied().unwrap_or_default();
            let x: f64 = s.parse().map_err(|_| {
                anyhow::anyhow!(
                    "{}:{}: '{}' = '{s}' is not a number",
                    path.display(),
                    i + 1,
                    ROW_COLUMNS[j]
                )
            })?;
            if !(x.is_finite() && x >= 0.0) {
                bail!(
                    "{}:{}: '{}' = {x} must be a finite, non-negative power in W",
                    path.display(),
                    i + 1,
                    ROW_COLUMNS[j]
                );
            }
            Ok(x)
        };
        out.push((
            c[0].to_string(),
            BoardTerms {
                chip_dynamic_w: num(1)?,
                chip_leakage_w: num(2)?,
                dram_dynamic_w: num(3)?,
                dram_background_w: num(4)?,
            },
        ));
    }
    Ok(out)
}

/// Writes rows as [`read_rows`] reads them.
pub fn rows_csv(rows: &[(String, BoardTerms)]) -> String {
    let mut s = format!("{}\n", ROW_COLUMNS.join(","));
    for (k, t) in rows {
        let _ = writeln!(
            s,
            "{k},{},{},{},{}",
            t.chip_dynamic_w, t.chip_leakage_w, t.dram_dynamic_w, t.dram_background_w
        );
    }
    s
}

/// Pairs modelled rows with their measurements and fits. Every modelled kernel must be
/// measured; measured kernels without a run are listed in the error only when none match.
pub fn fit(
    measured: &BTreeMap<String, f64>,
    modelled: &[(String, BoardTerms)],
    data: &str,
) -> Result<BoardFit> {
    let mut rows = Vec::new();
    for (k, t) in modelled {
        let Some(w) = measured.get(k) else {
            bail!(
                "kernel '{k}' has a run but no measurement (measured: {})",
                measured.keys().cloned().collect::<Vec<_>>().join(", ")
            );
        };
        rows.push(BoardRow {
            kernel: k.clone(),
            terms: *t,
            measured_w: *w,
        });
    }
    Ok(fit_board(&rows, VR_EFFICIENCY, data)?)
}

/// The fit as a table: scalars, errors, and every kernel's measured and predicted power.
pub fn fit_table(f: &BoardFit) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "board model fitted to {} kernels: k = {:.4}, constant = {:.2} W, regulators {:.0} % (fixed)",
        f.rows.len(),
        f.scalars.dynamic_scale,
        f.scalars.constant_w,
        f.scalars.vr_efficiency * 100.0
    );
    let _ = writeln!(
        s,
        "MAPE {:.1} %, leave-one-out MAPE {:.1} %, Pearson r {:.3}, worst {} {:+.1} %\n",
        f.mape_pct, f.loo_mape_pct, f.pearson_r, f.worst.0, f.worst.1
    );
    let _ = writeln!(
        s,
        "{:<26} {:>11} {:>11} {:>8} {:>11} {:>8}",
        "kernel", "measured W", "fitted W", "err %", "LOO W", "err %"
    );
    for p in &f.rows {
        let e = |x: f64| (x - p.measured_w) / p.measured_w * 100.0;
        let _ = writeln!(
            s,
            "{:<26} {:>11.1} {:>11.1} {:>+8.1} {:>11.1} {:>+8.1}",
            p.kernel,
            p.measured_w,
            p.predicted_w,
            e(p.predicted_w),
            p.loo_predicted_w,
            e(p.loo_predicted_w)
        );
    }
    s
}

/// The scalars file `estimate --board-scalars` reads, with `header` comment lines on top.
pub fn scalars_toml(f: &BoardFit, header: &str) -> Result<String> {
    Ok(format!("{header}{}", toml::to_string(&f.scalars)?))
}
