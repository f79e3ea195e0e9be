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

/// Writes `pareto.svg` into `dir`: every design (grey) and the front (blue line), objective
/// over the baseline's against added area.
pub fn write_svg(
    dir: &Path,
    designs: &[Evaluated],
    front: &[Point],
    objective: Objective,
    base_objective: f64,
) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join("pareto.svg");
    let rel = |v: f64| v / base_objective.max(f64::MIN_POSITIVE);
    let xs: Vec<f64> = designs.iter().map(|e| e.metrics.added_area_mm2).collect();
    let ys: Vec<f64> = designs
        .iter()
        .map(|e| rel(objective.of(&e.metrics)))
        .collect();
    let (x0, x1) = (
        xs.iter().cloned().fold(0.0_f64, f64::min),
        xs.iter().cloned().fold(0.0_f64, f64::max),
    );
    let (y0, y1) = (
        ys.iter().cloned().fold(f64::INFINITY, f64::min),
        ys.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
    );
    let pad = |a: f64, b: f64| {
        let d = (b - a).abs().max(1e-6) * 0.08;
        (a - d, b + d)
    };
    let (x0, x1) = pad(x0, x1);
    let (y0, y1) = pad(y0.min(1.0), y1.max(1.0));
    {
        let root = SVGBackend::new(&path, (900, 640)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "{} vs added area: designs evaluated and Pareto front",
                    objective.name()
                ),
                ("sans-serif", 20),
            )
            .margin(15)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y0..y1)?;
        chart
            .configure_mesh()
            .x_desc("added area (mm²)")
            .y_desc(format!("{} / baseline", objective.name()))
            .draw()?;
        chart.draw_series(
            xs.iter()
                .zip(&ys)
                .map(|(&x, &y)| Circle::new((x, y), 3, RGBColor(150, 150, 150).filled())),
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
