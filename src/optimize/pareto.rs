//! The energy–area Pareto front of the designs the optimiser simulated: among the designs
//! within the slowdown cap, those that no other design beats on both added area and objective
//! (sorted by area, each kept only if its objective is below every smaller design's), and an
//! SVG plot of every evaluated design and the front (plotters' SVG backend).

use super::evaluate::Objective;
use super::Evaluated;
use anyhow::Context;
use plotters::prelude::*;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One point of the front.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    /// The design's name.
    pub name: String,
    /// Added area, mm².
    pub added_area_mm2: f64,
    /// Energy, J.
    pub energy_j: f64,
    /// The objective's value (J, J·s or J·s²).
    pub objective: f64,
    /// Slowdown.
    pub slowdown: f64,
}

/// The front of `designs` whose slowdown is within `slowdown_cap`, by `objective`.
pub fn front(designs: &[Evaluated], objective: Objective, slowdown_cap: f64) -> Vec<Point> {
    let mut pts: Vec<Point> = designs
        .iter()
        .filter(|e| e.metrics.slowdown <= slowdown_cap + 1e-9)
        .map(|e| Point {
            name: e.name.clone(),
            added_area_mm2: e.metrics.added_area_mm2,
            energy_j: e.metrics.energy_j,
            objective: objective.of(&e.metrics),
            slowdown: e.metrics.slowdown,
        })
        .collect();
    pts.sort_by(|a, b| {
        a.added_area_mm2
            .total_cmp(&b.added_area_mm2)
            .then(a.objective.total_cmp(&b.objective))
            .then(a.name.cmp(&b.name))
    });
    let mut out: Vec<Point> = Vec::new();
    for p in pts {
        if out.last().is_none_or(|l| p.objective < l.objective) {
            out.push(p);
        }
    }
    out
}

/// What `pareto.svg` marks besides the designs: the chosen design, the area budget and the
/// subtitle naming what produced the run.
#[derive(Clone, Debug)]
pub struct PlotMarks<'a> {
    /// The chosen design's name.
    pub chosen_name: &'a str,
    /// Its added area, mm².
    pub chosen_area_mm2: f64,
    /// Its objective, as simulated (J, J·s or J·s²).
    pub chosen_objective: f64,
    /// The area budget, mm² of added area.
    pub budget_mm2: f64,
    /// The subtitle ([`crate::provenance::RunInfo::plot_subtitle`]).
    pub subtitle: &'a str,
}

/// Writes `pareto.svg` into `dir`: every design (grey), the front (blue line), the area
/// budget (a dashed vertical red line) and the chosen design (a red ring with its name),
/// objective over the baseline's against added area, with a legend beside the plot.
pub fn write_svg(
    dir: &Path,
    designs: &[Evaluated],
    front: &[Point],
    objective: Objective,
    base_objective: f64,
    marks: &PlotMarks<'_>,
) -> anyhow::Result<PathBuf> {
    use crate::report::plot::{draw_legend, legend_width, Marker, Swatch, DESC_FONT, TICK_FONT};
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join("pareto.svg");
    let rel = |v: f64| v / base_objective.max(f64::MIN_POSITIVE);
    let xs: Vec<f64> = designs.iter().map(|e| e.metrics.added_area_mm2).collect();
    let ys: Vec<f64> = designs
        .iter()
        .map(|e| rel(objective.of(&e.metrics)))
        .collect();
    let chosen = (marks.chosen_area_mm2, rel(marks.chosen_objective));
    let budget_finite = marks.budget_mm2.is_finite();
    let (x0, x1) = (
        xs.iter().cloned().fold(0.0_f64, f64::min).min(chosen.0),
        xs.iter().cloned().fold(0.0_f64, f64::max).max(chosen.0),
    );
    let (x0, x1) = if budget_finite {
        (x0.min(marks.budget_mm2), x1.max(marks.budget_mm2))
    } else {
        (x0, x1)
    };
    let (y0, y1) = (
        ys.iter()
            .cloned()
            .fold(f64::INFINITY, f64::min)
            .min(chosen.1),
        ys.iter()
            .cloned()
            .fold(f64::NEG_INFINITY, f64::max)
            .max(chosen.1),
    );
    let pad = |a: f64, b: f64| {
        let d = (b - a).abs().max(1e-6) * 0.08;
        (a - d, b + d)
    };
    let (x0, x1) = pad(x0, x1);
    let (y0, y1) = pad(y0.min(1.0), y1.max(1.0));
    let grey = RGBColor(150, 150, 150);
    let red = RGBColor(214, 39, 40);
    let entries = vec![
        (
            "designs evaluated".to_string(),
            Swatch::Marker(grey, Marker::Circle),
        ),
        ("Pareto front".to_string(), Swatch::Line(BLUE, false)),
        (
            format!(
                "chosen: {}",
                crate::report::plot::abbreviate(marks.chosen_name, 20)
            ),
            Swatch::Marker(red, Marker::Ring),
        ),
        (
            format!("area budget ({:.3} mm²)", marks.budget_mm2),
            Swatch::Line(red, true),
        ),
    ];
    let legend_w = legend_width(&entries.iter().map(|e| e.0.clone()).collect::<Vec<_>>());
    let width = 820 + legend_w;
    {
        let root = SVGBackend::new(&path, (width, 680)).into_drawing_area();
        root.fill(&WHITE)?;
        let body = crate::report::titled(
            &root,
            &format!(
                "{} vs added area: designs evaluated and Pareto front",
                objective.name()
            ),
            marks.subtitle,
        )?;
        let (left, right) = body.split_horizontally(width - legend_w);
        let mut chart = ChartBuilder::on(&left)
            .margin(15)
            .margin_right(30)
            .x_label_area_size(60)
            .y_label_area_size(90)
            .build_cartesian_2d(x0..x1, y0..y1)?;
        chart
            .configure_mesh()
            .max_light_lines(1)
            .x_label_style(("sans-serif", TICK_FONT))
            .y_label_style(("sans-serif", TICK_FONT))
            .axis_desc_style(("sans-serif", DESC_FONT))
            .x_desc("added area (mm²)")
            .y_desc(format!("{} / baseline (ratio)", objective.name()))
            .draw()?;
        chart.draw_series(
            xs.iter()
                .zip(&ys)
                .map(|(&x, &y)| Circle::new((x, y), 3, grey.filled())),
        )?;
        let line: Vec<(f64, f64)> = front
            .iter()
            .map(|p| (p.added_area_mm2, rel(p.objective)))
            .collect();
        chart.draw_series(LineSeries::new(line.clone(), BLUE.stroke_width(2)))?;
        chart.draw_series(
            line.iter()
                .map(|&(x, y)| Circle::new((x, y), 5, BLUE.filled())),
        )?;
        if budget_finite {
            // a vertical line: its dashes keep one x, so pixel rounding cannot bend it
            chart.draw_series(DashedLineSeries::new(
                vec![(marks.budget_mm2, y0), (marks.budget_mm2, y1)],
                8,
                5,
                red.stroke_width(2),
            ))?;
        }
        chart.draw_series(std::iter::once(Circle::new(
            chosen,
            10,
            red.stroke_width(3),
        )))?;
        // the chosen design's name beside its ring, on the side with room
        let (px, _) = chart.backend_coord(&chosen);
        let plot = chart.plotting_area().get_pixel_range();
        let left_side = px > (plot.0.start + plot.0.end) / 2;
        let style = ("sans-serif", TICK_FONT)
            .into_font()
            .color(&red)
            .pos(Pos::new(
                if left_side { HPos::Right } else { HPos::Left },
                VPos::Bottom,
            ));
        let dx = if left_side { -12 } else { 12 };
        chart.draw_series(std::iter::once(
            EmptyElement::at(chosen)
                + Text::new(
                    format!(
                        "chosen: {}",
                        crate::report::plot::abbreviate(marks.chosen_name, 24)
                    ),
                    (dx, -12),
                    style,
                ),
        ))?;
        draw_legend(&right, 10, &entries)?;
        root.present()?;
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::super::evaluate::Metrics;
    use super::super::space::Design;
    use super::*;

    fn e(name: &str, area: f64, energy: f64, slow: f64) -> Evaluated {
        Evaluated {
            name: name.into(),
            design: Design::baseline(1),
            metrics: Metrics {
                energy_j: energy,
                added_area_mm2: area,
                slowdown: slow,
                ..Default::default()
            },
            feasible: true,
        }
    }

    #[test]
    fn the_front_keeps_only_undominated_designs_within_the_cap() {
        let d = [
            e("base", 0.0, 10.0, 0.0),
            e("a", 1.0, 8.0, 0.0),
            e("b", 2.0, 9.0, 0.0),
            e("c", 3.0, 7.0, 0.0),
            e("slow", 0.5, 1.0, 0.5),
        ];
        let f = front(&d, Objective::Energy, 0.1);
        let names: Vec<&str> = f.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["base", "a", "c"]);
    }
}
