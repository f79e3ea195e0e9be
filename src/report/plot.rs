//! SVG plots (plotters' pure-Rust SVG backend): of estimates, stacked bars of area and energy by
//! component group and the leakage vs dynamic share of energy per workload; of calibration fits,
//! leave-one-out parity plots per quantity.

use super::calibration::unit;
use crate::study::Report;
use ::calibration::fit::FitOutcome;
use anyhow::Context;
use models::gpu::{Estimate, Node};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
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

/// Colours of the series: the ten of the "tab10" qualitative palette, then the same hues
/// darker, so that up to twenty series stay distinguishable.
const PALETTE: [RGBColor; 20] = [
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
    RGBColor(16, 60, 90),
    RGBColor(150, 70, 0),
    RGBColor(20, 90, 20),
    RGBColor(120, 20, 20),
    RGBColor(80, 50, 110),
    RGBColor(80, 45, 40),
    RGBColor(150, 50, 120),
    RGBColor(60, 60, 60),
    RGBColor(110, 110, 10),
    RGBColor(10, 110, 120),
];

/// The colour of series `i`.
pub(crate) fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Font sizes (plotters' units; the SVG backend writes 0.81 of them as pixels).
pub(crate) const TITLE_FONT: f64 = 22.0;
/// Axis descriptions.
pub(crate) const DESC_FONT: f64 = 18.0;
/// Tick labels, legend entries and point labels.
pub(crate) const TICK_FONT: f64 = 16.0;
/// A plot's subtitle (what produced it).
pub(crate) const SUBTITLE_FONT: f64 = 15.0;

/// The width in pixels that `text` takes at plotters font size `font`: 0.62 em per character
/// (DejaVu Sans, the widest common sans-serif, averages 0.57 em on lower-case names; capitals,
/// digits and symbols are wider), an em being 0.81 × `font`.
pub(crate) fn text_width_px(text: &str, font: f64) -> u32 {
    (0.62 * 0.81 * font * text.chars().count() as f64).ceil() as u32
}

/// `text` cut to at most `max` characters, the cut marked with an ellipsis.
pub(crate) fn abbreviate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let head: String = text.chars().take(max.saturating_sub(1)).collect();
        format!("{}…", head.trim_end())
    }
}

/// Longest tick label or legend entry, in characters.
const MAX_LABEL_CHARS: usize = 28;

/// Width of a legend column holding `names` (swatch, gap, text, padding), in pixels.
pub(crate) fn legend_width(names: &[String]) -> u32 {
    let longest = names
        .iter()
        .map(|n| text_width_px(n, TICK_FONT))
        .max()
        .unwrap_or(0);
    longest + 60
}

/// How a legend entry is marked.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Swatch {
    /// A filled square (bars).
    Bar(RGBColor),
    /// A marker as drawn on the plot (points).
    Marker(RGBColor, Marker),
    /// A line, solid or dashed.
    Line(RGBColor, bool),
    /// No swatch: the entry is a heading of the entries under it.
    Heading,
}

/// Point markers, cycled after the colours so that more than twenty series stay apart.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Marker {
    /// Filled circle.
    Circle,
    /// Filled triangle.
    Triangle,
    /// Filled square.
    Square,
    /// Open circle with a thick outline (a point marked out, e.g. a chosen design).
    Ring,
}

/// Colour and marker of point series `i`: the ten light palette colours with circles, then
/// with triangles, then with squares (shape tells series apart better than a darker shade).
pub(crate) fn point_style(i: usize) -> (RGBColor, Marker) {
    let marker = match (i / 10) % 3 {
        0 => Marker::Circle,
        1 => Marker::Triangle,
        _ => Marker::Square,
    };
    (PALETTE[i % 10], marker)
}

/// A drawing area of the SVG backend.
pub(crate) type SvgArea<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// Draws marker `m` of colour `c` centred on pixel `(x, y)` of `area`.
pub(crate) fn draw_marker(
    area: &SvgArea<'_>,
    m: Marker,
    c: RGBColor,
    (x, y): (i32, i32),
) -> anyhow::Result<()> {
    let r = 5;
    match m {
        Marker::Circle => area.draw(&Circle::new((x, y), r, c.filled()))?,
        Marker::Triangle => area.draw(&Polygon::new(
            vec![(x, y - r - 1), (x - r - 1, y + r), (x + r + 1, y + r)],
            c.filled(),
        ))?,
        Marker::Square => area.draw(&Rectangle::new(
            [(x - r, y - r), (x + r, y + r)],
            c.filled(),
        ))?,
        Marker::Ring => area.draw(&Circle::new((x, y), r + 1, c.stroke_width(2)))?,
    }
    Ok(())
}

/// Draws a legend in `area` (a column beside the plot, never over data): a white box with a
/// black border, one row per entry, from the top.
pub(crate) fn draw_legend(
    area: &SvgArea<'_>,
    top_px: i32,
    entries: &[(String, Swatch)],
) -> anyhow::Result<()> {
    if entries.is_empty() {
        return Ok(());
    }
    let (w, _) = area.dim_in_pixel();
    let row = (0.81 * TICK_FONT * 1.5).ceil() as i32;
    let (x0, x1) = (8, w as i32 - 8);
    let y1 = top_px + 8 + row * entries.len() as i32;
    area.draw(&Rectangle::new(
        [(x0, top_px), (x1, y1)],
        WHITE.mix(0.85).filled(),
    ))?;
    area.draw(&Rectangle::new([(x0, top_px), (x1, y1)], BLACK))?;
    for (i, (name, swatch)) in entries.iter().enumerate() {
        let y = top_px + 4 + row * i as i32 + row / 2;
        let sx = x0 + 16;
        match *swatch {
            Swatch::Bar(c) => area.draw(&Rectangle::new(
                [(sx - 7, y - 7), (sx + 7, y + 7)],
                c.filled(),
            ))?,
            Swatch::Marker(c, m) => draw_marker(area, m, c, (sx, y))?,
            Swatch::Heading => {}
            Swatch::Line(c, dashed) => {
                if dashed {
                    for k in 0..3 {
                        let a = sx - 10 + 8 * k;
                        area.draw(&PathElement::new(vec![(a, y), (a + 5, y)], c))?;
                    }
                } else {
                    area.draw(&PathElement::new(vec![(sx - 10, y), (sx + 10, y)], c))?;
                }
            }
        }
        area.draw(&Text::new(
            name.clone(),
            (sx + 16, y),
            ("sans-serif", TICK_FONT)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// A stacked bar chart: one bar per label, one stacked segment per series. The labels are
/// written vertically under their bars (reading upwards, ending at the axis), the legend in a
/// column to the right of the plot, listed top to bottom in the order the segments stack.
fn stacked_bars(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    labels: &[String],
    series: &[(String, Vec<f64>)],
) -> anyhow::Result<()> {
    let n = labels.len().max(1);
    let labels: Vec<String> = labels
        .iter()
        .map(|l| abbreviate(l, MAX_LABEL_CHARS))
        .collect();
    let entries: Vec<(String, Swatch)> = series
        .iter()
        .enumerate()
        .rev()
        .map(|(i, (name, _))| (abbreviate(name, MAX_LABEL_CHARS), Swatch::Bar(colour(i))))
        .collect();
    let legend_w = if series.len() > 1 {
        legend_width(&entries.iter().map(|e| e.0.clone()).collect::<Vec<_>>())
    } else {
        0
    };
    let label_px = labels
        .iter()
        .map(|l| text_width_px(l, TICK_FONT))
        .max()
        .unwrap_or(0);
    // Tick labels, a gap, the axis description.
    let x_area = label_px + 16 + (0.81 * DESC_FONT * 2.0) as u32;
    let plot_w = (44 * n as u32).max(420);
    let y_area = 90;
    // wide enough for the title and the x description too
    let width = (y_area + plot_w + 30 + legend_w)
        .max(text_width_px(title, TITLE_FONT) + 48)
        .max(y_area + text_width_px(x_desc, DESC_FONT) + 40);
    let height = 60 + 400 + x_area;
    let root = SVGBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let body = root.titled(title, ("sans-serif", TITLE_FONT))?;
    let (left, right) = body.split_horizontally(width - legend_w);
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
    let mut chart = ChartBuilder::on(&left)
        .margin_top(10)
        .margin_left(10)
        .margin_right(20)
        .margin_bottom(12)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(0f64..n as f64, 0f64..ymax)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .x_labels(0)
        .y_label_style(("sans-serif", TICK_FONT))
        .y_label_formatter(&|v| tick_label(*v))
        .axis_desc_style(("sans-serif", DESC_FONT))
        .x_desc(x_desc)
        .y_desc(y_desc)
        .draw()?;
    let mut base = vec![0.0; n];
    for (si, (_, vals)) in series.iter().enumerate() {
        let color = colour(si);
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
        chart.draw_series(rects)?;
    }
    // Tick labels by hand: plotters centres rotated labels on the tick, over the axis.
    for (i, l) in labels.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(i as f64 + 0.5, 0.0));
        root.draw(&Text::new(
            l.clone(),
            (x, y + 8),
            ("sans-serif", TICK_FONT)
                .into_font()
                .transform(FontTransform::Rotate270)
                .color(&BLACK)
                .pos(Pos::new(HPos::Right, VPos::Center)),
        ))?;
    }
    if legend_w > 0 {
        draw_legend(&right, 10, &entries)?;
    }
    root.present()?;
    Ok(())
}

/// A bar chart of one series: one bar per label (the register-file characterisation's
/// histograms).
pub fn bar_chart(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    labels: &[String],
    values: &[f64],
) -> anyhow::Result<()> {
    stacked_bars(
        path,
        title,
        x_desc,
        y_desc,
        labels,
        &[(y_desc.to_string(), values.to_vec())],
    )
    .with_context(|| format!("writing {}", path.display()))
}

/// Writes `energy_breakdown.svg` (stacked energy per workload), `area_breakdown.svg` and
/// `leakage_share.svg` (leakage vs dynamic energy per workload) into `dir`; every title ends
/// with `context` (the configuration and the technology point).
pub fn write_estimate_plots(
    dir: &Path,
    context: &str,
    static_tree: &Node,
    runs: &[&Estimate],
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // Area: the groups with on-die area (the clock trees and the off-chip DRAM have none; the
    // axis says so rather than drawing empty bars).
    let g = groups(static_tree);
    let (with_area, without): (Vec<&Node>, Vec<&Node>) =
        g.iter().partition(|n| n.totals().area_m2 > 0.0);
    let labels: Vec<String> = with_area.iter().map(|n| n.name.clone()).collect();
    let series = vec![(
        "area".to_string(),
        with_area.iter().map(|n| n.totals().area_m2 * 1e6).collect(),
    )];
    let x_desc = if without.is_empty() {
        "component group".to_string()
    } else {
        format!(
            "component group (no area: {})",
            without
                .iter()
                .map(|n| n.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    stacked_bars(
        &dir.join("area_breakdown.svg"),
        &format!("Area by component group — {context}"),
        &x_desc,
        "area (mm²)",
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
        &format!("Energy per workload by component group — {context}"),
        "workload",
        "energy (µJ)",
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
        &format!("Leakage vs dynamic energy — {context}"),
        "workload",
        "share of energy (%)",
        &labels,
        &series,
    )?;
    Ok(())
}

/// The plots of [`write_estimate_plots`] for a report: its static tree and every workload run.
pub fn write_report_plots(dir: &Path, r: &Report) -> anyhow::Result<()> {
    let runs: Vec<&Estimate> = r.workloads.iter().map(|w| &w.estimate).collect();
    let context = format!(
        "{}, {} {} at {:.2} V",
        r.run.config_name, r.run.node, r.run.flavour, r.run.vdd_v
    );
    write_estimate_plots(dir, &context, &r.area, &runs)
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
        let u = pretty_unit(u);
        let entries: Vec<(String, Swatch)> =
            std::iter::once(("y = x".to_string(), Swatch::Line(BLACK, false)))
                // A kind without a leave-one-out point (a single synthesised size) keeps its
                // colour but gets no legend entry.
                .chain(
                    series
                        .iter()
                        .enumerate()
                        .filter(|(_, (_, pts))| !pts.is_empty())
                        .map(|(i, (k, _))| {
                            let (c, m) = point_style(i);
                            (abbreviate(k, MAX_LABEL_CHARS), Swatch::Marker(c, m))
                        }),
                )
                .collect();
        let legend_w = legend_width(&entries.iter().map(|e| e.0.clone()).collect::<Vec<_>>());
        let (width, height) = (720 + legend_w, 760);
        {
            let root = SVGBackend::new(&path, (width, height)).into_drawing_area();
            root.fill(&WHITE)?;
            let body = root.titled(
                &format!(
                    "{}: leave-one-out prediction vs synthesis",
                    quantity_name(q)
                ),
                ("sans-serif", TITLE_FONT),
            )?;
            let (left, right) = body.split_horizontally(width - legend_w);
            let mut chart = ChartBuilder::on(&left)
                .margin_top(10)
                .margin_left(10)
                .margin_right(30)
                .margin_bottom(12)
                .x_label_area_size(70)
                .y_label_area_size(100)
                .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())?;
            chart
                .configure_mesh()
                .light_line_style(TRANSPARENT)
                .x_label_style(("sans-serif", TICK_FONT))
                .y_label_style(("sans-serif", TICK_FONT))
                .axis_desc_style(("sans-serif", DESC_FONT))
                .x_label_formatter(&|v| tick_label(*v))
                .y_label_formatter(&|v| tick_label(*v))
                .x_desc(format!("synthesised ({u})"))
                .y_desc(format!("predicted, leave-one-out ({u})"))
                .draw()?;
            chart.draw_series(LineSeries::new(
                vec![(lo, lo), (hi, hi)],
                BLACK.stroke_width(1),
            ))?;
            for (i, (_, pts)) in series.iter().enumerate() {
                let (c, m) = point_style(i);
                for &(x, y) in pts {
                    draw_marker(&root, m, c, chart.backend_coord(&(x, y)))?;
                }
            }
            draw_legend(&right, 10, &entries)?;
            root.present()?;
        }
        written.push(path);
    }
    Ok(written)
}

/// A unit as a plot writes it: `um2` as µm², `uW` as µW.
fn pretty_unit(u: &str) -> String {
    u.replace("um2", "µm²").replace('u', "µ")
}

/// The quantity of a parity plot in words.
fn quantity_name(q: &str) -> &str {
    match q {
        "area_m2" => "Area",
        "leakage_w" => "Leakage power",
        "energy_per_op_j" => "Energy per operation",
        "delay_s" => "Delay",
        other => other,
    }
}

/// Tick positions of a logarithmic axis over `lo..=hi`: 1, 2 and 5 times each power of ten,
/// or only the powers of ten when that gives more than `max` ticks (labels then never crowd),
/// or 1, 2, 3 and 5 times them when the range holds fewer than two of 1, 2, 5.
pub(crate) fn log_ticks(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    let of = |ms: &[f64]| -> Vec<f64> {
        let mut v = Vec::new();
        if !(lo > 0.0 && hi > lo && lo.is_finite() && hi.is_finite()) {
            return v;
        }
        let mut decade = 10f64.powf(lo.log10().floor());
        while decade <= hi {
            for m in ms {
                let t = m * decade;
                if (lo..=hi).contains(&t) {
                    v.push(t);
                }
            }
            decade *= 10.0;
        }
        v
    };
    let v = of(&[1.0, 2.0, 5.0]);
    if v.len() > max {
        let d = of(&[1.0]);
        if d.len() >= 2 {
            return d;
        }
    }
    if v.len() < 2 {
        return of(&[1.0, 1.5, 2.0, 3.0, 5.0, 7.0]);
    }
    v
}

/// A tick value without trailing zeros: 1, 20, 0.5, 2.5, 1e6.
pub(crate) fn tick_label(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e6).contains(&a) {
        return format!("{v:.0e}");
    }
    let t = format!("{v:.3}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}
