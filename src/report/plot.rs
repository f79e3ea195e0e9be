//! SVG plots (plotters' pure-Rust SVG backend): of estimates, stacked bars of area and energy by
//! component group and the leakage vs dynamic share of energy per workload; of calibration fits,
//! leave-one-out parity plots per quantity.

use super::calibration::unit;
use crate::study::Report;
use ::calibration::fit::FitOutcome;
use anyhow::Context;
use models::gpu::{Estimate, Node};
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// The groups a plot stacks: the SM's component groups, then the chip-level groups.
fn groups(root: &Node) -> Vec<&Node> {
    let mut v = Vec::new();
    for c in &root.children {
        if c.name.starts_with("SMs") {
            v.extend(c.children.iter());
        } else {
            v.push(c);
        }
    }
    v
}

const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

fn stacked_bars(
    path: &Path,
    title: &str,
    y_label: &str,
    labels: &[String],
    series: &[(String, Vec<f64>)],
) -> anyhow::Result<()> {
    let n = labels.len().max(1);
    let width = (160 + 48 * n as u32).max(640);
    let root = SVGBackend::new(path, (width, 520)).into_drawing_area();
    root.fill(&WHITE)?;
    let ymax = (0..n)
        .map(|i| {
            series
                .iter()
                .map(|s| s.1.get(i).copied().unwrap_or(0.0))
                .sum::<f64>()
        })
        .fold(0.0, f64::max)
        .max(1e-30)
        * 1.05;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(90)
        .y_label_area_size(70)
        .right_y_label_area_size(0)
        .build_cartesian_2d(0f64..n as f64, 0f64..ymax)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.floor() as usize;
            labels.get(i).cloned().unwrap_or_default()
        })
        .x_label_style(
            ("sans-serif", 11)
                .into_font()
                .transform(FontTransform::Rotate90),
        )
        .y_desc(y_label)
        .draw()?;
    let mut base = vec![0.0; n];
    for (si, (name, vals)) in series.iter().enumerate() {
        let color = PALETTE[si % PALETTE.len()];
        let rects: Vec<_> = (0..n)
            .map(|i| {
                let v = vals.get(i).copied().unwrap_or(0.0);
                let r = Rectangle::new(
                    [(i as f64 + 0.15, base[i]), (i as f64 + 0.85, base[i] + v)],
                    color.filled(),
                );
                base[i] += v;
                r
            })
            .collect();
        chart
            .draw_series(rects)?
            .label(name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

/// Writes `energy_breakdown.svg` (stacked energy per workload), `area_breakdown.svg` and
/// `leakage_share.svg` (leakage vs dynamic energy per workload) into `dir`.
pub fn write_estimate_plots(
    dir: &Path,
    static_tree: &Node,
    runs: &[&Estimate],
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // Area.
    let g = groups(static_tree);
    let labels: Vec<String> = g.iter().map(|n| n.name.clone()).collect();
    let series = vec![(
        "area (mm²)".to_string(),
        g.iter().map(|n| n.totals().area_m2 * 1e6).collect(),
    )];
    stacked_bars(
        &dir.join("area_breakdown.svg"),
        "Area by component group",
        "mm²",
        &labels,
        &series,
    )?;
    if runs.is_empty() {
        return Ok(());
    }
    let labels: Vec<String> = runs.iter().map(|e| e.label.clone()).collect();
    let names: Vec<String> = groups(&runs[0].root)
        .iter()
        .map(|n| n.name.clone())
        .collect();
    let series: Vec<(String, Vec<f64>)> = names
        .iter()
        .enumerate()
        .map(|(gi, name)| {
            (
                name.clone(),
                runs.iter()
                    .map(|e| {
                        groups(&e.root)
                            .get(gi)
                            .map(|n| n.totals().energy_j() * 1e6)
                            .unwrap_or(0.0)
                    })
                    .collect(),
            )
        })
        .collect();
    stacked_bars(
        &dir.join("energy_breakdown.svg"),
        "Energy per workload by component group",
        "µJ",
        &labels,
        &series,
    )?;
    let share = |f: &dyn Fn(&Estimate) -> f64| -> Vec<f64> {
        runs.iter()
            .map(|e| {
                let t = e.energy_j();
                if t > 0.0 {
                    100.0 * f(e) / t
                } else {
                    0.0
                }
            })
            .collect()
    };
    let series = vec![
        ("dynamic".to_string(), share(&|e| e.totals().dynamic_j)),
        ("leakage".to_string(), share(&|e| e.totals().leakage_j)),
        (
            "gating overhead".to_string(),
            share(&|e| e.totals().gating_overhead_j),
        ),
    ];
    stacked_bars(
        &dir.join("leakage_share.svg"),
        "Leakage vs dynamic energy",
        "% of energy",
        &labels,
        &series,
    )?;
    Ok(())
}

/// The plots of [`write_estimate_plots`] for a report: its static tree and every workload run.
pub fn write_report_plots(dir: &Path, r: &Report) -> anyhow::Result<()> {
    let runs: Vec<&Estimate> = r.workloads.iter().map(|w| &w.estimate).collect();
    write_estimate_plots(dir, &r.area, &runs)
}

/// Parity plots of a calibration fit, `parity_<quantity>.svg` in `dir`: leave-one-out
/// prediction against the synthesised value, log-log, one colour per component kind.
pub fn write_parity_plots(o: &FitOutcome, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut written = Vec::new();
    for q in ::calibration::fit::QUANTITIES {
        let (u, sc) = unit(q);
        let series: Vec<(&String, Vec<(f64, f64)>)> = o
            .points
            .iter()
            .filter(|((_, qq), _)| qq == q)
            .map(|((k, _), pts)| {
                (
                    k,
                    pts.iter()
                        .map(|(_, y, _, cv)| (y * sc, if cv.is_finite() { *cv } else { 0.0 } * sc))
                        .filter(|(a, b)| *a > 0.0 && *b > 0.0)
                        .collect(),
                )
            })
            .collect();
        let all: Vec<f64> = series
            .iter()
            .flat_map(|(_, p)| p.iter().flat_map(|(a, b)| [*a, *b]))
            .collect();
        if all.is_empty() {
            continue;
        }
        let lo = all.iter().cloned().fold(f64::INFINITY, f64::min) * 0.7;
        let hi = all.iter().cloned().fold(0.0, f64::max) * 1.4;
        let path = dir.join(format!("parity_{q}.svg"));
        {
            let root = SVGBackend::new(&path, (800, 700)).into_drawing_area();
            root.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&root)
                .caption(
                    format!("{q}: leave-one-out prediction vs synthesis ({u})"),
                    ("sans-serif", 20),
                )
                .margin(15)
                .x_label_area_size(45)
                .y_label_area_size(70)
                .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())?;
            chart
                .configure_mesh()
                .x_desc(format!("synthesised ({u})"))
                .y_desc(format!("predicted, leave-one-out ({u})"))
                .draw()?;
            chart.draw_series(LineSeries::new(
                vec![(lo, lo), (hi, hi)],
                BLACK.stroke_width(1),
            ))?;
            for (i, (k, pts)) in series.iter().enumerate() {
                let colour = Palette99::pick(i).to_rgba();
                chart
                    .draw_series(
                        pts.iter()
                            .map(|&(x, y)| Circle::new((x, y), 4, colour.filled())),
                    )?
                    .label(k.as_str())
                    .legend(move |(x, y)| Circle::new((x, y), 4, colour.filled()));
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()?;
            root.present()?;
        }
        written.push(path);
    }
    Ok(written)
}
