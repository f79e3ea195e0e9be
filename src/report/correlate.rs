//! Renderers of a timing correlation (`gpuenergy correlate`): the per-row table with the MAPE
//! and Pearson summary, the same as CSV rows or JSON, and the log-log scatter plot of simulated
//! against reference cycles with the y = x line and the ±15 % band, in the manner of Accel-Sim's
//! correlation plots (Khairy et al., ISCA 2020).

use super::plot::{
    abbreviate, draw_legend, draw_marker, legend_width, point_style, text_width_px, Swatch,
    DESC_FONT, TICK_FONT,
};
use crate::correlate::{Correlation, KernelSel, RowResult, Stats, BAND_FRACTION};
use anyhow::Context;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
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

/// Pixel boxes `(x0, y0, x1, y1)` overlap.
fn overlaps(a: (i32, i32, i32, i32), b: (i32, i32, i32, i32)) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Places each point's label (left-anchored, vertically centred at the returned pixel) at the
/// first of eight spots around its point (right, left, above, below and the diagonals, then
/// the same twice as far) whose box stays inside `bounds`, covers no point and no label placed
/// before it; a label with no free spot goes to its first spot inside `bounds`.
fn place_labels(
    points: &[((i32, i32), String)],
    bounds: (i32, i32, i32, i32),
) -> Vec<((i32, i32), String)> {
    let h = (0.81 * TICK_FONT).ceil() as i32 + 2;
    let r = 6;
    let point_boxes: Vec<_> = points
        .iter()
        .map(|((x, y), _)| (x - r, y - r, x + r, y + r))
        .collect();
    let mut placed: Vec<(i32, i32, i32, i32)> = Vec::new();
    let mut out = Vec::new();
    for ((x, y), text) in points {
        let w = text_width_px(text, TICK_FONT) as i32;
        let spot = |k: i32, i: usize| -> (i32, i32) {
            let d = 8 * k;
            match i {
                0 => (x + d, *y),
                1 => (x - d - w, *y),
                2 => (x - w / 2, y - d - h / 2),
                3 => (x - w / 2, y + d + h / 2),
                4 => (x + d, y - d - h / 2),
                5 => (x + d, y + d + h / 2),
                6 => (x - d - w, y - d - h / 2),
                _ => (x - d - w, y + d + h / 2),
            }
        };
        let bbox = |(lx, ly): (i32, i32)| (lx, ly - h / 2, lx + w, ly + h / 2);
        let inside = |b: (i32, i32, i32, i32)| {
            b.0 >= bounds.0 && b.1 >= bounds.1 && b.2 <= bounds.2 && b.3 <= bounds.3
        };
        let candidates: Vec<(i32, i32)> = [1, 2]
            .into_iter()
            .flat_map(|k| (0..8).map(move |i| (k, i)))
            .map(|(k, i)| spot(k, i))
            .collect();
        let free = candidates.iter().copied().find(|&c| {
            let b = bbox(c);
            inside(b)
                && !placed.iter().any(|p| overlaps(*p, b))
                && !point_boxes.iter().any(|p| overlaps(*p, b))
        });
        let at = free
            .or_else(|| candidates.iter().copied().find(|&c| inside(bbox(c))))
            .unwrap_or(candidates[0]);
        placed.push(bbox(at));
        out.push((at, text.clone()));
    }
    out
}

/// Writes the scatter plot `correlation.svg` into `dir` (created if missing) and returns its
/// path: reference cycles on x, simulated cycles on y, both logarithmic; the y = x line and the
/// y = (1 ± 0.15)·x band lines; one labelled point per row, one colour per configuration.
///
/// The band lines are drawn solid from edge to edge of the plot (two end points each): a dashed
/// line is cut into dashes whose ends plotters rounds to whole pixels one by one, which bends
/// each dash by up to a pixel and makes a straight line on a log–log plot wobble.
pub fn write_plot(
    dir: &Path,
    c: &Correlation,
    run: &crate::provenance::RunInfo,
) -> anyhow::Result<PathBuf> {
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
    let grey = RGBColor(120, 120, 120);
    let mut entries: Vec<(String, Swatch)> = vec![
        ("y = x".to_string(), Swatch::Line(BLACK, false)),
        (format!("±{:.0} %", band_pct()), Swatch::Line(grey, false)),
    ];
    for (i, cfg) in configs.iter().enumerate() {
        let (c, m) = point_style(i);
        entries.push((abbreviate(cfg, 28), Swatch::Marker(c, m)));
    }
    let legend_w = legend_width(&entries.iter().map(|e| e.0.clone()).collect::<Vec<_>>());
    let (width, height) = (760 + legend_w, 780);
    {
        let root = SVGBackend::new(&path, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let title = format!(
            "Cycles: gpuenergy vs reference — MAPE {:.1} %, r {} (cycles), {} (log)",
            c.overall.mape_pct,
            r_text(c.overall.pearson_r_cycles),
            r_text(c.overall.pearson_r_log_cycles)
        );
        let body = super::titled(&root, &title, &run.plot_subtitle())?;
        let (left, right) = body.split_horizontally(width - legend_w);
        let mut chart = ChartBuilder::on(&left)
            .margin_top(10)
            .margin_left(10)
            .margin_right(30)
            .margin_bottom(12)
            .x_label_area_size(70)
            .y_label_area_size(90)
            .build_cartesian_2d(
                (lo..hi).log_scale().with_key_points(ticks(lo, hi)),
                (lo..hi).log_scale().with_key_points(ticks(lo, hi)),
            )?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_label_style(("sans-serif", TICK_FONT))
            .y_label_style(("sans-serif", TICK_FONT))
            .axis_desc_style(("sans-serif", DESC_FONT))
            .x_label_formatter(&|v| cycles_label(*v))
            .y_label_formatter(&|v| cycles_label(*v))
            .x_desc("reference (cycles)")
            .y_desc("gpuenergy (cycles)")
            .draw()?;
        chart.draw_series(LineSeries::new(
            vec![(lo, lo), (hi, hi)],
            BLACK.stroke_width(1),
        ))?;
        // y = f·x inside the square [lo, hi]²: from where it enters to where it leaves
        for f in [1.0 + BAND_FRACTION, 1.0 - BAND_FRACTION] {
            let (a, b) = if f > 1.0 {
                ((lo, lo * f), (hi / f, hi))
            } else {
                ((lo / f, lo), (hi, hi * f))
            };
            chart.draw_series(LineSeries::new(vec![a, b], grey.stroke_width(1)))?;
        }
        // Points first, then their labels placed where they cover no other label or point.
        let mut points = Vec::new();
        for (i, cfg) in configs.iter().enumerate() {
            for r in c.rows.iter().filter(|r| r.config == *cfg) {
                let xy = (r.reference_cycles, (r.our_cycles as f64).max(1.0));
                let px = chart.backend_coord(&xy);
                let (c, m) = point_style(i);
                draw_marker(&root, m, c, px)?;
                points.push((px, point_label(r)));
            }
        }
        let plot = chart.plotting_area().get_pixel_range();
        let bounds = (plot.0.start, plot.1.start, plot.0.end, plot.1.end);
        for (px, text) in place_labels(&points, bounds) {
            root.draw(&Text::new(
                text,
                px,
                ("sans-serif", TICK_FONT)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
        }
        draw_legend(&right, 10, &entries)?;
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
        let p = write_plot(&dir, &sample(), &crate::provenance::RunInfo::new()).unwrap();
        let svg = std::fs::read_to_string(&p).unwrap();
        assert!(svg.starts_with("<svg") || svg.contains("<svg"));
        assert!(svg.contains("hotspot") && svg.contains("sgemm[1]"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
