//! Renderers of `gpuenergy diag`: the per-preset table of recovered parameters (configured,
//! recovered, predicted, PASS/FAIL) with the §5 cross-check statistics, the JSON document, and
//! the residual plot of the cross-check (SVG, plotters).

use super::plot::{DESC_FONT, TICK_FONT};
use crate::diag::crosscheck::{CrossCheck, Stats};
use crate::diag::{Kind, Param, PresetReport};
use anyhow::Context;
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn num(v: Option<f64>) -> String {
    match v {
        None => "-".into(),
        Some(x) if x.is_nan() => "nan".into(),
        Some(x) if x == x.round() && x.abs() < 1e15 => format!("{}", x as i64),
        Some(x) => format!("{x:.3}"),
    }
}

fn verdict(p: &Param) -> &'static str {
    match (p.pass, p.kind) {
        (None, _) => "info",
        (Some(true), _) => "PASS",
        (Some(false), Kind::Discrete) => "FAIL",
        (Some(false), _) => "fail*",
    }
}

fn stats_line(label: &str, s: &Stats) -> String {
    format!(
        "  {label:<11} r {:.4}  MAPE {:.2} %  max err {:.2} %  Kendall tau {:.3}  slope {:.1} \
         cycles  C0 {:.0} cycles  {}\n",
        s.pearson_r,
        s.mape_pct,
        s.max_abs_err_pct,
        s.kendall_tau,
        s.slope,
        s.intercept_cycles,
        if s.pass { "PASS" } else { "FAIL" }
    ) + &s.wave_fit.as_ref().map_or(String::new(), |f| {
        format!(
            "  {:<11} diagnosis, a·T + C0 + C1·(waves − 1): C1 {:.0} cycles per extra wave  \
             MAPE {:.2} %  max err {:.2} %\n",
            "", f.per_wave_cycles, f.mape_pct, f.max_abs_err_pct
        )
    })
}

/// The table of one preset.
pub fn table(r: &PresetReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "diag {} (suite {:?})", r.preset, r.suite);
    let w = r
        .parameters
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(10)
        .max(9);
    let _ = writeln!(
        s,
        "{:<w$}  {:>12}  {:>12}  {:>12}  {:<6} note",
        "parameter", "configured", "recovered", "predicted", "result"
    );
    for p in &r.parameters {
        let _ = writeln!(
            s,
            "{:<w$}  {:>12}  {:>12}  {:>12}  {:<6} {}",
            p.name,
            num(p.configured),
            num(p.recovered),
            num(p.predicted),
            verdict(p),
            p.note
        );
    }
    if let Some(c) = &r.crosscheck {
        let _ = writeln!(
            s,
            "crosscheck ({} body, N_period {}, P1 {:.2} cycles, expected slope {:.1} cycles, {} \
             points)",
            c.class,
            c.n_period,
            c.p1_cycles,
            c.slope_expected,
            c.points.len()
        );
        s.push_str(&stats_line("measured", &c.measured));
        s.push_str(&stats_line("configured", &c.configured));
    }
    let fails = r.discrete_failures().len();
    let soft = r
        .parameters
        .iter()
        .filter(|p| p.kind != Kind::Discrete && p.pass == Some(false))
        .count();
    let _ = writeln!(
        s,
        "{fails} discrete FAIL, {soft} non-blocking fail* (continuous or label)\n"
    );
    s
}

/// The closing lines of a run over `reports`: per preset what passed, what failed and on
/// which side (simulator or model) each miss lies.
pub fn summary(reports: &[PresetReport]) -> String {
    let names = |v: &[String]| -> String {
        const SHOWN: usize = 6;
        let mut s = v.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
        if v.len() > SHOWN {
            let _ = write!(s, " and {} more", v.len() - SHOWN);
        }
        s
    };
    let mut s = String::from(
        "summary: simulator side = a recovered value differs from the configuration; model side \
         = the analytical model's prediction misses what the simulator measured\n",
    );
    let w = reports.iter().map(|r| r.preset.len()).max().unwrap_or(0);
    for r in reports {
        let m = r.summary();
        let side = |label: &str, v: &[String]| {
            if v.is_empty() {
                format!("{label} side: none")
            } else {
                format!("{label} side: {} ({})", v.len(), names(v))
            }
        };
        let _ = writeln!(
            s,
            "  {:<w$}  {} of {} checks pass; {}; {}",
            r.preset,
            m.passed,
            m.checks,
            side("simulator", &m.simulator_side),
            side("model", &m.model_side)
        );
    }
    s
}

/// The JSON document of several presets: `{"presets": [{preset, suite, parameters,
/// crosscheck, fu_curves}]}`, with `crosscheck` carrying the measured-model statistics at the
/// top level and the configured-model ones under `configured`.
pub fn json(reports: &[PresetReport]) -> serde_json::Value {
    let presets: Vec<serde_json::Value> = reports
        .iter()
        .map(|r| {
            let cc = r.crosscheck.as_ref().map(|c| {
                serde_json::json!({
                    "pearson_r": c.measured.pearson_r,
                    "mape_pct": c.measured.mape_pct,
                    "max_abs_err_pct": c.measured.max_abs_err_pct,
                    "kendall_tau": c.measured.kendall_tau,
                    "slope": c.measured.slope,
                    "intercept_cycles": c.measured.intercept_cycles,
                    "pass": c.measured.pass,
                    "wave_fit": c.measured.wave_fit,
                    "slope_expected": c.slope_expected,
                    "class": c.class,
                    "n_period": c.n_period,
                    "p1_cycles": c.p1_cycles,
                    "configured": c.configured,
                    "points": c.points,
                })
            });
            serde_json::json!({
                "preset": r.preset,
                "suite": r.suite,
                "parameters": r.parameters,
                "crosscheck": cc,
                "issue_stage": r.issue_stage,
                "fu_curves": r.fu_curves,
                "discrete_failures": r.discrete_failures().len(),
                "summary": r.summary(),
            })
        })
        .collect();
    serde_json::json!({ "presets": presets })
}

/// File name of a preset's residual plot.
pub fn plot_file(preset: &str) -> String {
    let safe: String = preset
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("diag_residuals_{safe}.svg")
}

/// Writes the residual plot of `c` into `dir`: per point, (fit − simulated)/simulated in % on
/// y against the simulated cycles on x, for the measured-parameter and the configured-model
/// predictions. The legend sits in its own band under the plot, never over a point; the
/// subtitle is `run`'s (configuration, version).
pub fn write_plot(
    dir: &Path,
    preset: &str,
    c: &CrossCheck,
    run: &crate::provenance::RunInfo,
) -> anyhow::Result<PathBuf> {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(plot_file(preset));
    let resid =
        |s: &Stats, t: f64, y: f64| 100.0 * (s.slope * t + s.intercept_cycles - y) / y.max(1.0);
    let a: Vec<(f64, f64)> = c
        .points
        .iter()
        .map(|p| (p.cycles, resid(&c.measured, p.t_measured_model, p.cycles)))
        .collect();
    let b: Vec<(f64, f64)> = c
        .points
        .iter()
        .map(|p| {
            (
                p.cycles,
                resid(&c.configured, p.t_configured_model, p.cycles),
            )
        })
        .collect();
    let xmax = a.iter().map(|p| p.0).fold(1.0, f64::max) * 1.05;
    let ymax = a.iter().chain(&b).map(|p| p.1.abs()).fold(5.0, f64::max) * 1.1;
    let legend = [
        format!(
            "measured fu, N_slot (r {:.3}, MAPE {:.1} %)",
            c.measured.pearson_r, c.measured.mape_pct
        ),
        format!(
            "configured model (r {:.3}, MAPE {:.1} %)",
            c.configured.pearson_r, c.configured.mape_pct
        ),
    ];
    {
        let (width, plot_h, legend_h) = (860u32, 600u32, 64u32);
        let root = SVGBackend::new(&path, (width, plot_h + legend_h)).into_drawing_area();
        root.fill(&WHITE)?;
        let (top, band) = root.split_vertically(plot_h);
        let body = super::titled(
            &top,
            &format!(
                "diag {preset}: T(g,b) fit residuals ({} body, {} points)",
                c.class,
                c.points.len()
            ),
            &run.plot_subtitle(),
        )?;
        let mut chart = ChartBuilder::on(&body)
            .margin(12)
            .margin_right(30)
            .x_label_area_size(60)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..xmax, -ymax..ymax)?;
        chart
            .configure_mesh()
            .max_light_lines(1)
            .x_label_style(("sans-serif", TICK_FONT))
            .y_label_style(("sans-serif", TICK_FONT))
            .axis_desc_style(("sans-serif", DESC_FONT))
            .x_desc("simulated kernel time (cycles)")
            .y_desc("(fit − simulated) / simulated (%)")
            .draw()?;
        chart.draw_series(LineSeries::new([(0.0, 0.0), (xmax, 0.0)], BLACK))?;
        chart.draw_series(a.iter().map(|&p| Circle::new(p, 4, BLUE.filled())))?;
        chart.draw_series(b.iter().map(|&p| TriangleMarker::new(p, 5, RED)))?;
        // the legend, in its own band under the plot
        let font = ("sans-serif", TICK_FONT).into_font();
        let style = font
            .into_text_style(&band)
            .pos(Pos::new(HPos::Left, VPos::Center));
        band.draw(&Circle::new((100, 14), 4, BLUE.filled()))?;
        band.draw(&Text::new(legend[0].clone(), (114, 14), style.clone()))?;
        band.draw(&TriangleMarker::new((100, 42), 5, RED))?;
        band.draw(&Text::new(legend[1].clone(), (114, 42), style))?;
        root.present()?;
    }
    Ok(path)
}
