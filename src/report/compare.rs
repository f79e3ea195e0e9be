//! Renderers of a [`Comparison`]: the text table (aggregate per variant, then per workload),
//! CSV (one row per variant and workload, plus `aggregate` rows), JSON (the `Comparison`
//! itself: `variants`, each with `name`, `per_workload` and `aggregate`) and SVG plots.

use crate::compare::Comparison;
use std::fmt::Write as _;

fn pct(x: f64) -> String {
    format!("{:+.2} %", 100.0 * x)
}

/// The comparison as text.
pub fn table(c: &Comparison) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} at {}, {} workloads at size {}; baseline: {}\n",
        c.gpu,
        c.tech,
        c.baseline_runs.len(),
        c.size,
        c.baseline
    );
    let _ = writeln!(
        s,
        "{:<34} {:>12} {:>12} {:>12} {:>12}",
        "variant", "perf ovh", "energy J", "energy chg", "EDP chg"
    );
    let base_e: f64 = c.baseline_runs.values().map(|r| r.energy_j).sum();
    let _ = writeln!(
        s,
        "{:<34} {:>12} {:>12.4e} {:>12} {:>12}",
        format!("{} (baseline)", c.baseline),
        pct(0.0),
        base_e,
        pct(0.0),
        pct(0.0)
    );
    for v in &c.variants {
        let a = &v.aggregate;
        let _ = writeln!(
            s,
            "{:<34} {:>12} {:>12.4e} {:>12} {:>12}",
            v.name,
            pct(a.perf_overhead),
            a.energy_j,
            pct(a.energy_change),
            pct(a.edp_change)
        );
    }
    let _ = writeln!(
        s,
        "\nperf ovh: mean over workloads of T/T_baseline - 1; energy and EDP: sums over workloads."
    );
    for v in &c.variants {
        let _ = writeln!(s, "\n{}", v.name);
        let _ = writeln!(
            s,
            "  {:<18} {:>12} {:>12} {:>12} {:>12}",
            "workload", "cycles", "perf ovh", "energy chg", "EDP chg"
        );
        for (w, r) in &v.per_workload {
            let _ = writeln!(
                s,
                "  {:<18} {:>12} {:>12} {:>12} {:>12}{}",
                w,
                r.cycles,
                pct(r.perf_overhead),
                pct(r.energy_change),
                pct(r.edp_change),
                if r.truncated { "  (truncated)" } else { "" }
            );
        }
    }
    s
}

/// The comparison as CSV: one row per (variant, workload) and one `aggregate` row per variant.
pub fn csv(c: &Comparison) -> String {
    let mut s = String::from(
        "variant,workload,cycles,runtime_s,perf_overhead,energy_j,energy_change,edp_js,edp_change,truncated\n",
    );
    for (name, runs) in std::iter::once((&c.baseline, &c.baseline_runs))
        .chain(c.variants.iter().map(|v| (&v.name, &v.per_workload)))
    {
        for (w, r) in runs {
            let _ = writeln!(
                s,
                "{},{},{},{:e},{:e},{:e},{:e},{:e},{:e},{}",
                csv_field(name),
                csv_field(w),
                r.cycles,
                r.runtime_s,
                r.perf_overhead,
                r.energy_j,
                r.energy_change,
                r.edp_js,
                r.edp_change,
                r.truncated
            );
        }
    }
    for v in &c.variants {
        let a = &v.aggregate;
        let _ = writeln!(
            s,
            "{},aggregate,,,{:e},{:e},{:e},{:e},{:e},",
            csv_field(&v.name),
            a.perf_overhead,
            a.energy_j,
            a.energy_change,
            a.edp_js,
            a.edp_change
        );
    }
    s
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

const COLORS: [plotters::style::RGBColor; 6] = [
    plotters::style::RGBColor(31, 119, 180),
    plotters::style::RGBColor(255, 127, 14),
    plotters::style::RGBColor(44, 160, 44),
    plotters::style::RGBColor(214, 39, 40),
    plotters::style::RGBColor(148, 103, 189),
    plotters::style::RGBColor(140, 86, 75),
];

/// A grouped bar chart: one group per label (variant), one bar per series, values in percent.
/// The legend sits in its own band below the plot, never over the bars.
pub(crate) fn grouped_bars_pct(
    path: &std::path::Path,
    title: &str,
    y_label: &str,
    labels: &[String],
    series: &[(String, Vec<f64>)],
) -> anyhow::Result<()> {
    use plotters::prelude::*;
    let n = labels.len().max(1);
    let k = series.len().max(1);
    let width = (200 + 40 * (n * k) as u32).max(720);
    let legend_h = 24 * series.len() as u32 + 16;
    let root = SVGBackend::new(path, (width, 560 + legend_h)).into_drawing_area();
    root.fill(&WHITE)?;
    let (plot_area, legend_area) = root.split_vertically(560);
    let vals = series.iter().flat_map(|s| s.1.iter().copied());
    let (lo, hi) = vals.fold((0.0f64, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
    let pad = ((hi - lo) * 0.08).max(0.5);
    let (lo, hi) = (lo - if lo < 0.0 { pad } else { 0.0 }, hi + pad);
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(title, ("sans-serif", 20))
        .margin(14)
        .x_label_area_size(110)
        .y_label_area_size(80)
        .build_cartesian_2d(0f64..n as f64, lo..hi)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n + 1)
        .x_label_formatter(&|x| {
            let i = x.floor() as usize;
            if (x - i as f64 - 0.5).abs() < 0.26 {
                labels.get(i).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_label_style(("sans-serif", 13).into_font())
        .y_desc(y_label)
        .x_desc("variant")
        .axis_desc_style(("sans-serif", 15))
        .draw()?;
    let bw = 0.8 / k as f64;
    for (si, (_, v)) in series.iter().enumerate() {
        let c = COLORS[si % COLORS.len()];
        chart.draw_series((0..n).map(|i| {
            let x0 = i as f64 + 0.1 + si as f64 * bw;
            let y = v.get(i).copied().unwrap_or(0.0);
            Rectangle::new([(x0, 0.0), (x0 + bw * 0.9, y)], c.filled())
        }))?;
    }
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(0.0, 0.0), (n as f64, 0.0)],
        BLACK.stroke_width(1),
    )))?;
    for (si, (name, _)) in series.iter().enumerate() {
        let c = COLORS[si % COLORS.len()];
        let y = 8 + 24 * si as i32;
        legend_area.draw(&Rectangle::new([(94, y), (110, y + 14)], c.filled()))?;
        legend_area.draw(&Text::new(
            name.clone(),
            (118, y),
            ("sans-serif", 14).into_font(),
        ))?;
    }
    root.present()?;
    Ok(())
}

/// Writes `compare_summary.svg` (per variant: perf overhead, energy and EDP change against the
/// baseline, in percent) into `dir`; returns the files written.
pub fn write_plots(
    dir: &std::path::Path,
    c: &Comparison,
) -> anyhow::Result<Vec<std::path::PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let labels: Vec<String> = c.variants.iter().map(|v| v.name.clone()).collect();
    let get = |f: fn(&crate::compare::Aggregate) -> f64| -> Vec<f64> {
        c.variants.iter().map(|v| 100.0 * f(&v.aggregate)).collect()
    };
    let p = dir.join("compare_summary.svg");
    grouped_bars_pct(
        &p,
        &format!("{} at {} against {}", c.gpu, c.tech, c.baseline),
        "change against the baseline (%)",
        &labels,
        &[
            (
                "performance overhead (T / T_baseline - 1)".into(),
                get(|a| a.perf_overhead),
            ),
            ("total energy change".into(), get(|a| a.energy_change)),
            ("EDP change".into(), get(|a| a.edp_change)),
        ],
    )?;
    Ok(vec![p])
}
