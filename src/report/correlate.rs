//! Renderers of a timing correlation (`gpuenergy correlate`): the per-row table with the MAPE
//! and Pearson summary, the same as CSV rows or JSON, and the log-log scatter plot of simulated
//! against reference cycles with the y = x line and the ±15 % band, in the manner of Accel-Sim's
//! correlation plots (Khairy et al., ISCA 2020).

use crate::correlate::{Correlation, KernelSel, RowResult, Stats, BAND_FRACTION};
use anyhow::Context;
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// File name of the scatter plot inside the `--plot` directory.
pub const PLOT_FILE: &str = "correlation.svg";

/// `r` with three decimals, or `n/a` when undefined.
fn r_text(r: Option<f64>) -> String {
    r.map_or_else(|| "n/a".to_string(), |r| format!("{r:.3}"))
}

/// The ±band in percent, as the output names it.
fn band_pct() -> f64 {
    100.0 * BAND_FRACTION
}

/// One line of statistics.
fn stats_line(s: &Stats) -> String {
    format!(
        "{} row{}: MAPE {:.1} %, mean error {:+.1} %, {} of {} within ±{:.0} %; Pearson r on \
         cycles {}, on log10 cycles {}",
        s.rows,
        if s.rows == 1 { "" } else { "s" },
        s.mape_pct,
        s.mean_error_pct,
        s.within_band,
        s.rows,
        band_pct(),
        r_text(s.pearson_r_cycles),
        r_text(s.pearson_r_log_cycles),
    )
}

/// The text report: the file and the first line of its description, one line per row (line, workload, size,
/// kernel, configuration, reference and simulated cycles, signed error), the statistics over
/// all rows and per configuration, and the caveats.
pub fn table(c: &Correlation) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "reference {}", c.file);
    if let Some(d) = c.description.first() {
        let _ = writeln!(s, "  {d}");
    }
    let wl = c
        .rows
        .iter()
        .map(|r| r.workload.len())
        .chain([8])
        .max()
        .unwrap_or(8);
    let cl = c
        .rows
        .iter()
        .map(|r| r.config.len())
        .chain([6])
        .max()
        .unwrap_or(6);
    let _ = writeln!(
        s,
        "{:>5}  {:<wl$}  {:<5}  {:>6}  {:<cl$}  {:>14}  {:>14}  {:>8}",
        "line", "workload", "size", "kernel", "config", "reference cyc", "ours cyc", "error"
    );
    for r in &c.rows {
        let _ = writeln!(
            s,
            "{:>5}  {:<wl$}  {:<5}  {:>6}  {:<cl$}  {:>14.0}  {:>14}  {:>+7.1}%",
            r.line,
            r.workload,
            r.size.as_str(),
            r.kernel.to_string(),
            r.config,
            r.reference_cycles,
            r.our_cycles,
            r.error_pct
        );
    }
    let _ = writeln!(s, "{}", stats_line(&c.overall));
    if !c.per_config.is_empty() {
        for (label, st) in &c.per_config {
            let _ = writeln!(s, "  {label}: {}", stats_line(st));
        }
    }
    if c.rows.iter().any(|r| r.kernel == KernelSel::All) {
        let _ = writeln!(
            s,
            "kernel 'all': every launch with the gpu.kernel_launch_latency cycles before it (before \
             the first only with compat.launch_latency_first), as `gpuenergy simulate` totals them"
        );
    }
    for w in &c.warnings {
        let _ = writeln!(s, "warning: {w}");
    }
    s
}

/// Header of [`csv`].
pub const CSV_HEADER: &str =
    "line,workload,size,kernel,config,source,reference_cycles,our_cycles,error_pct";

/// One CSV row per reference row (the statistics are in the table and the JSON).
pub fn csv(c: &Correlation) -> String {
    use super::csv::field;
    let mut s = String::from(CSV_HEADER);
    s.push('\n');
    for r in &c.rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{:.4}",
            r.line,
            field(&r.workload),
            r.size.as_str(),
            r.kernel,
            field(&r.config),
            field(r.source.as_deref().unwrap_or("")),
            r.reference_cycles,
            r.our_cycles,
            r.error_pct
        );
    }
    s
}

/// The JSON object of a set of statistics (`null` where `r` is undefined).
fn stats_json(s: &Stats) -> serde_json::Value {
    serde_json::json!({
        "rows": s.rows,
        "mape_pct": s.mape_pct,
        "mean_error_pct": s.mean_error_pct,
        "pearson_r_cycles": s.pearson_r_cycles,
        "pearson_r_log_cycles": s.pearson_r_log_cycles,
        "within_band": s.within_band,
        "band_pct": band_pct(),
    })
}

/// The JSON report: `file`, `description`, `rows` (each with `line`, `workload`, `size`,
/// `kernel` — a launch index or `"all"` —, `config`, `source`, `reference_cycles`,
/// `our_cycles`, `error_pct`), `summary` (statistics over all rows; `pearson_r_cycles` is on
/// cycles, `pearson_r_log_cycles` on log10 cycles), `per_config`, `warnings`, and `runs` (each
/// simulation's `config`, `workload`, `size` and `cycles`: `launches`, `total`, `truncated`).
pub fn json(c: &Correlation) -> serde_json::Value {
    let per: Vec<serde_json::Value> = c
        .per_config
        .iter()
        .map(|(label, st)| {
            let mut v = stats_json(st);
            v.as_object_mut()
                .expect("object")
                .insert("config".into(), label.clone().into());
            v
        })
        .collect();
    serde_json::json!({
        "file": c.file,
        "description": c.description,
        "rows": c.rows,
        "summary": stats_json(&c.overall),
        "per_config": per,
        "warnings": c.warnings,
        "runs": c.runs,
    })
}

/// Axis ticks of a log axis over `lo..hi`: 1, 2 and 5 times each power of ten.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let mut v = Vec::new();
    let mut decade = 10f64.powf(lo.log10().floor());
    while decade <= hi {
        for m in [1.0, 2.0, 5.0] {
            let t = m * decade;
            if (lo..=hi).contains(&t) {
                v.push(t);
            }
        }
        decade *= 10.0;
    }
    v
}

/// An axis label of a cycle count: `900`, `20k`, `1.5M`.
fn cycles_label(v: f64) -> String {
    let (scaled, suffix) = if v >= 1e9 {
        (v / 1e9, "G")
    } else if v >= 1e6 {
        (v / 1e6, "M")
    } else if v >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let text = format!("{scaled:.1}");
    format!("{}{suffix}", text.strip_suffix(".0").unwrap_or(&text))
}

/// The label of a row's point: the workload, its launch index when not the whole workload,
/// and its size when not `test`.
fn point_label(r: &RowResult) -> String {
    let mut s = r.workload.clone();
    if let KernelSel::Launch(i) = r.kernel {
        let _ = write!(s, "[{i}]");
    }
    if r.size.as_str() != "test" {
        let _ = write!(s, " ({})", r.size.as_str());
    }
    s
}

/// Writes the scatter plot `correlation.svg` into `dir` (created if missing) and returns its
/// path: reference cycles on x, simulated cycles on y, both logarithmic; the y = x line and the
/// y = (1 ± 0.15)·x band lines; one labelled point per row, one colour per configuration.
pub fn write_plot(dir: &Path, c: &Correlation) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(PLOT_FILE);
    let values: Vec<f64> = c
        .rows
        .iter()
        .flat_map(|r| [r.reference_cycles, (r.our_cycles as f64).max(1.0)])
        .collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min) / 1.6;
    let hi = values.iter().copied().fold(0.0, f64::max) * 1.6;
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else {
        (1.0, 10.0)
    };
    let configs: Vec<&str> = {
        let mut v: Vec<&str> = Vec::new();
        for r in &c.rows {
            if !v.contains(&r.config.as_str()) {
                v.push(&r.config);
            }
        }
        v
    };
    {
        let root = SVGBackend::new(&path, (820, 760)).into_drawing_area();
        root.fill(&WHITE)?;
        let title = format!(
            "Cycles: gpuenergy vs reference — MAPE {:.1} %, r {} (cycles), {} (log)",
            c.overall.mape_pct,
            r_text(c.overall.pearson_r_cycles),
            r_text(c.overall.pearson_r_log_cycles)
        );
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(
                (lo..hi).log_scale().with_key_points(ticks(lo, hi)),
                (lo..hi).log_scale().with_key_points(ticks(lo, hi)),
            )?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_label_formatter(&|v| cycles_label(*v))
            .y_label_formatter(&|v| cycles_label(*v))
            .x_desc("reference cycles")
            .y_desc("gpuenergy cycles")
            .draw()?;
        chart
            .draw_series(LineSeries::new(
                vec![(lo, lo), (hi, hi)],
                BLACK.stroke_width(1),
            ))?
            .label("y = x")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
        let grey = RGBColor(120, 120, 120);
        for (k, f) in [1.0 + BAND_FRACTION, 1.0 - BAND_FRACTION]
            .into_iter()
            .enumerate()
        {
            let s = chart.draw_series(DashedLineSeries::new(
                vec![(lo, lo * f), (hi, hi * f)],
                6,
                4,
                grey.stroke_width(1),
            ))?;
            if k == 0 {
                s.label(format!("±{:.0} %", band_pct()))
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], grey.stroke_width(1))
                    });
            }
        }
        for (i, cfg) in configs.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            let pts: Vec<&RowResult> = c.rows.iter().filter(|r| r.config == *cfg).collect();
            chart
                .draw_series(pts.iter().map(|r| {
                    let xy = (r.reference_cycles, (r.our_cycles as f64).max(1.0));
                    EmptyElement::at(xy)
                        + Circle::new((0, 0), 4, colour.filled())
                        + Text::new(point_label(r), (6, -14), ("sans-serif", 12))
                }))?
                .label(*cfg)
                .legend(move |(x, y)| Circle::new((x + 10, y), 4, colour.filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::correlate::stats;
    use sim::workloads::Size;

    fn sample() -> Correlation {
        let rows: Vec<RowResult> = [("hotspot", 100.0, 110u64), ("sgemm", 200.0, 160)]
            .iter()
            .enumerate()
            .map(|(i, &(w, r, o))| RowResult {
                line: 2 + i as u64,
                workload: w.into(),
                size: Size::Test,
                kernel: if i == 0 {
                    KernelSel::All
                } else {
                    KernelSel::Launch(1)
                },
                config: "gtx480".into(),
                source: Some("hand, made".into()),
                reference_cycles: r,
                our_cycles: o,
                error_pct: 100.0 * (o as f64 - r) / r,
            })
            .collect();
        let pairs: Vec<(f64, f64)> = rows
            .iter()
            .map(|r| (r.reference_cycles, r.our_cycles as f64))
            .collect();
        Correlation {
            file: "r.csv".into(),
            description: vec!["made by hand".into()],
            overall: stats(&pairs),
            rows,
            per_config: Vec::new(),
            warnings: Vec::new(),
            runs: Vec::new(),
        }
    }

    #[test]
    fn table_csv_and_json_carry_every_row_and_the_summary() {
        let c = sample();
        let t = table(&c);
        assert!(t.contains("made by hand"), "{t}");
        assert!(t.contains("hotspot") && t.contains("+10.0%"), "{t}");
        assert!(t.contains("sgemm") && t.contains("-20.0%"), "{t}");
        assert!(
            t.contains("MAPE 15.0 %") && t.contains("Pearson r on cycles 1.000"),
            "{t}"
        );
        let v = csv(&c);
        let lines: Vec<&str> = v.lines().collect();
        assert_eq!(lines[0], CSV_HEADER);
        assert_eq!(lines.len(), 3);
        assert!(lines[2].starts_with("3,sgemm,test,1,gtx480,\"hand, made\",200,160,-20.0000"));
        let j = json(&c);
        assert_eq!(j["rows"][0]["kernel"], "all");
        assert_eq!(j["rows"][1]["kernel"], 1);
        assert!((j["summary"]["mape_pct"].as_f64().unwrap() - 15.0).abs() < 1e-12);
    }

    #[test]
    fn plot_is_an_svg_with_a_label_per_row() {
        let dir = std::env::temp_dir().join(format!("gpuenergy-corr-{}", std::process::id()));
        let p = write_plot(&dir, &sample()).unwrap();
        let svg = std::fs::read_to_string(&p).unwrap();
        assert!(svg.starts_with("<svg") || svg.contains("<svg"));
        assert!(svg.contains("hotspot") && svg.contains("sgemm[1]"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
