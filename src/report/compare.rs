//! Renderers of a [`Comparison`]: the text table (aggregate per variant, the register-file
//! savings where a variant has a register-file technique, the area table — every variant's
//! added area, with the issue-stage energy under a variant that changes the issue stage
//! ([`area_table`], also the reference-mode comparison's) — then per workload), CSV (one row per
//! variant and workload, plus `aggregate` rows; the `rf_*` columns are empty without a
//! register-file technique, the aggregate row gives their means), JSON (the `Comparison`
//! itself: `variants`, each with `name`, `per_workload` and `aggregate`) and SVG plots.

use crate::compare::{Comparison, IdleRegions};
use std::fmt::Write as _;

fn pct(x: f64) -> String {
    format!("{:+.2} %", 100.0 * x)
}

fn opt_pct(x: Option<f64>) -> String {
    x.map(pct).unwrap_or_else(|| "-".into())
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
    let head = format!(
        "{:<34} {:>10} {:>11} {:>11} {:>9} {:>11} {:>11} {:>11}",
        "variant", "perf ovh", "INT sav", "FP sav", "events", "energy J", "energy chg", "EDP chg"
    );
    let _ = writeln!(s, "{head}");
    let base_e: f64 = c.baseline_runs.values().map(|r| r.energy_j).sum();
    let _ = writeln!(
        s,
        "{:<34} {:>10} {:>11} {:>11} {:>9} {:>11.4e} {:>11} {:>11}",
        format!("{} (baseline)", c.baseline),
        pct(0.0),
        "-",
        "-",
        0,
        base_e,
        pct(0.0),
        pct(0.0)
    );
    for v in &c.variants {
        let a = &v.aggregate;
        let _ = writeln!(
            s,
            "{:<34} {:>10} {:>11} {:>11} {:>9} {:>11.4e} {:>11} {:>11}",
            v.name,
            pct(a.perf_overhead),
            opt_pct(a.static_savings.int),
            opt_pct(a.static_savings.fp),
            a.events,
            a.energy_j,
            pct(a.energy_change),
            pct(a.edp_change)
        );
    }
    let _ = writeln!(
        s,
        "\nperf ovh: mean over workloads of T/T_baseline - 1. INT/FP sav: static_savings of the INT and \
         FP execution units, 1 - (E_leak,PG + E_ovh)/E_leak,base, mean over workloads (FP: over \
         workloads with FP work). Energy and EDP: sums over workloads."
    );
    idle_regions_section(&mut s, c);
    scheduling_section(&mut s, c);
    rf_section(&mut s, c);
    area_section(&mut s, c);
    workloads_section(&mut s, c);

    s
}

/// The A/B/C split of the idle runs per variant, when any variant gates.
fn idle_regions_section(s: &mut String, c: &Comparison) {
    let any_regions = c
        .variants
        .iter()
        .any(|v| v.aggregate.idle_regions.int.is_some() || v.aggregate.idle_regions.fp.is_some());
    if any_regions {
        let _ = writeln!(
            s,
            "\nidle runs by region (share of idle cycles; A: L <= D, B: D < L <= D+BET, C: L > D+BET)"
        );
        let _ = writeln!(
            s,
            "{:<34} {:>8} {:>8} {:>8}   {:>8} {:>8} {:>8}",
            "variant", "INT A", "INT B", "INT C", "FP A", "FP B", "FP C"
        );
        let cells = |r: &Option<IdleRegions>| -> [String; 3] {
            match r {
                Some(r) => r.by_cycles.map(|x| format!("{:.1} %", 100.0 * x)),
                None => ["-".to_string(), "-".to_string(), "-".to_string()],
            }
        };
        for v in &c.variants {
            let i = cells(&v.aggregate.idle_regions.int);
            let f = cells(&v.aggregate.idle_regions.fp);
            let _ = writeln!(
                s,
                "{:<34} {:>8} {:>8} {:>8}   {:>8} {:>8} {:>8}",
                v.name, i[0], i[1], i[2], f[0], f[1], f[2]
            );
        }
    }
}

/// The schedulers' active-set size and the INT and FP pipes' idle time per variant, when any
/// variant records them.
fn scheduling_section(s: &mut String, c: &Comparison) {
    if c.variants.iter().any(|v| v.aggregate.active_set.is_some()) {
        let _ = writeln!(
            s,
            "\nscheduling and idle time (means over workloads; norm = this run's / the baseline's)"
        );
        let _ = writeln!(
            s,
            "{:<34} {:>10} {:>10} {:>12} {:>12} {:>12} {:>12}",
            "variant", "AS max", "AS mean", "INT idle", "INT idle nrm", "FP idle", "FP idle nrm"
        );
        for v in &c.variants {
            let mean_of = |f: &dyn Fn(&crate::compare::WorkloadCompare) -> Option<f64>| {
                let xs: Vec<f64> = v.per_workload.values().filter_map(f).collect();
                (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
            };
            let frac = |x: Option<f64>| {
                x.map(|y| format!("{:.1} %", 100.0 * y))
                    .unwrap_or_else(|| "-".into())
            };
            let num = |x: Option<f64>| x.map(|y| format!("{y:.3}")).unwrap_or_else(|| "-".into());
            let (mx, mn) = match v.aggregate.active_set {
                Some(a) => (a.max_warps.to_string(), format!("{:.2}", a.mean_warps)),
                None => ("-".into(), "-".into()),
            };
            let _ = writeln!(
                s,
                "{:<34} {:>10} {:>10} {:>12} {:>12} {:>12} {:>12}",
                v.name,
                mx,
                mn,
                frac(mean_of(&|r| r.unit_idle.int.map(|u| u.idle_fraction))),
                num(mean_of(&|r| r
                    .unit_idle
                    .int
                    .and_then(|u| u.idle_fraction_norm))),
                frac(mean_of(&|r| r.unit_idle.fp.map(|u| u.idle_fraction))),
                num(mean_of(&|r| r
                    .unit_idle
                    .fp
                    .and_then(|u| u.idle_fraction_norm))),
            );
        }
    }
}

/// The register-file savings per variant with a register-file technique.
fn rf_section(s: &mut String, c: &Comparison) {
    if c.variants.iter().any(|v| v.aggregate.rf.is_some()) {
        let _ = writeln!(
            s,
            "\nregister file vs the baseline's (energy basis; mean / geomean of ratios / total-weighted)"
        );
        let _ = writeln!(
            s,
            "{:<34} {:>26} {:>26} {:>26} {:>10} {:>9}",
            "variant", "dynamic sav", "leakage sav", "total sav", "RF mm2", "model r"
        );
        let three = |a: &crate::compare::Aggregated| {
            format!(
                "{:.1}/{:.1}/{:.1} %",
                100.0 * a.mean,
                100.0 * a.geomean_ratio,
                100.0 * a.total_weighted
            )
        };
        for v in &c.variants {
            if let Some(r) = &v.aggregate.rf {
                let _ = writeln!(
                    s,
                    "{:<34} {:>26} {:>26} {:>26} {:>10.4} {:>9.3}",
                    v.name,
                    three(&r.savings.dynamic),
                    three(&r.savings.leakage),
                    three(&r.savings.total),
                    r.rf_area_mm2,
                    r.model_ratio
                );
                let mut fr = format!(
                    "  power-basis total {}; fixed ratio (mean): model r {:.1} %",
                    three(&r.savings_power.total),
                    100.0 * r.total_at_model_ratio
                );
                for f in &r.fixed_ratio {
                    let _ = write!(fr, ", r={} {:.1} %", f.r, 100.0 * f.total.mean);
                }
                let _ = writeln!(s, "{fr}");
                if let Some(a) = &r.access_split {
                    let _ = writeln!(
                        s,
                        "  accesses: FRF_high {:.1} %, FRF_low {:.1} %, SRF {:.1} %",
                        100.0 * a.frf_high,
                        100.0 * a.frf_low,
                        100.0 * a.srf
                    );
                }
            }
        }
    }
}

/// The chip area each variant's techniques add (every technique: the estimate trees' area),
/// with an issue stage's energy as a line of detail under its variant.
fn area_section(s: &mut String, c: &Comparison) {
    let rows: Vec<AreaRow<'_>> = c
        .variants
        .iter()
        .map(|v| AreaRow {
            name: &v.name,
            area: &v.aggregate.area,
            detail: v
                .aggregate
                .issue_cost
                .iter()
                .map(|i| {
                    format!(
                        "issue stage {}{}: its structures' energy {:.4e} J, {} against the \
                         baseline's issue structures (issue-stage §4 model), {} of the \
                         baseline's total energy",
                        i.design,
                        i.ib_depth
                            .map(|n| format!(" (N = {n})"))
                            .unwrap_or_default(),
                        i.energy_j,
                        pct(i.energy_change),
                        pct(i.energy_change_of_total)
                    )
                })
                .collect(),
        })
        .collect();
    s.push('\n');
    s.push_str(&area_table(&rows));
}

/// One variant's row of the area table: its name, its area against the baseline's and lines of
/// detail only its technique has (an issue stage's energy, the DWF scheduler's line items).
pub struct AreaRow<'a> {
    /// The variant's name.
    pub name: &'a str,
    /// Its area against the baseline's.
    pub area: &'a crate::compare::AreaCompare,
    /// Lines printed under its row, indented.
    pub detail: Vec<String>,
}

/// The area table of a comparison, the one format of every `compare` (the reference-mode one
/// too): per variant the baseline's and its chip area, the added area over the chip and its
/// share, per SM and its share of the baseline's SM, the area of its structures and of the
/// baseline's leaves they replace, and the change of the chip's leakage every block powered.
pub fn area_table(rows: &[AreaRow<'_>]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "area: the estimate's chip with each variant's structures against the baseline's"
    );
    let _ = writeln!(
        s,
        "{:<34} {:>11} {:>11} {:>11} {:>9} {:>11} {:>9} {:>11} {:>11} {:>11}",
        "variant",
        "base mm2",
        "mm2",
        "added mm2",
        "% chip",
        "added/SM",
        "% SM",
        "struct mm2",
        "replac mm2",
        "leak W"
    );
    for r in rows {
        let a = r.area;
        let _ = writeln!(
            s,
            "{:<34} {:>11.4} {:>11.4} {:>11.5} {:>9.4} {:>11.6} {:>9.4} {:>11.5} {:>11.5} {:>+11.4e}",
            r.name,
            a.baseline_area_mm2,
            a.area_mm2,
            a.added_area_mm2,
            100.0 * a.added_area_chip_share,
            a.added_area_per_sm_mm2,
            100.0 * a.added_area_sm_share,
            a.structures_mm2,
            a.replaced_mm2,
            a.added_leakage_w
        );
        if let Some(x) = a.added_area_ref_die_share {
            let _ = writeln!(s, "  {:.4} % of the --die-mm2 die", 100.0 * x);
        }
        for d in &r.detail {
            let _ = writeln!(s, "  {d}");
        }
    }
    let _ = writeln!(
        s,
        "added = struct - replac: power-gating switches and controllers, register-file, \
         issue-stage and DWF structures less the baseline's leaves they replace (chip mm2); \
         added/SM in mm2, % SM of the baseline's SM area; leak W: chip leakage every block \
         powered, against the baseline's."
    );
    s
}

/// Per variant, one line per workload.
fn workloads_section(s: &mut String, c: &Comparison) {
    for v in &c.variants {
        let _ = writeln!(s, "\n{}", v.name);
        let _ = writeln!(
            s,
            "  {:<18} {:>10} {:>10} {:>11} {:>11} {:>9} {:>11} {:>11}",
            "workload",
            "cycles",
            "perf ovh",
            "INT sav",
            "FP sav",
            "events",
            "energy chg",
            "EDP chg"
        );
        for (w, r) in &v.per_workload {
            let rf =
                r.rf.as_ref()
                    .map(|x| {
                        format!(
                            "  RF sav dyn {} leak {} tot {}",
                            pct(x.savings.dynamic),
                            pct(x.savings.leakage),
                            pct(x.savings.total)
                        )
                    })
                    .unwrap_or_default();
            let _ = writeln!(
                s,
                "  {:<18} {:>10} {:>10} {:>11} {:>11} {:>9} {:>11} {:>11}{}{rf}",
                w,
                r.cycles,
                pct(r.perf_overhead),
                opt_pct(r.static_savings.int),
                opt_pct(r.static_savings.fp),
                r.events,
                pct(r.energy_change),
                pct(r.edp_change),
                if r.truncated { "  (truncated)" } else { "" }
            );
        }
        if !v.aggregate.fp_excluded.is_empty() {
            let _ = writeln!(
                s,
                "  no FP work (left out of the FP mean): {}",
                v.aggregate.fp_excluded.join(", ")
            );
        }
    }
}

/// The comparison as CSV: one row per (variant, workload) and one `aggregate` row per variant.
pub fn csv(c: &Comparison) -> String {
    let mut s = String::from(
        "variant,workload,cycles,runtime_s,perf_overhead,energy_j,energy_change,edp_js,edp_change,\
         static_savings_int,static_savings_fp,events,wakeups,critical_wakeups,\
         int_idle_a,int_idle_b,int_idle_c,fp_idle_a,fp_idle_b,fp_idle_c,truncated,\
         rf_savings_dynamic,rf_savings_leakage,rf_savings_total,rf_savings_power_total,rf_area_mm2,\
         active_set_max,active_set_mean,events_norm,wakeups_norm,int_idle_fraction,\
         int_idle_fraction_norm,fp_idle_fraction,fp_idle_fraction_norm,area_mm2,added_area_mm2,\
         added_area_chip_share,added_area_per_sm_mm2,added_area_sm_share,structures_mm2,\
         replaced_mm2,added_leakage_w\n",
    );
    let opt = |x: Option<f64>| x.map(|v| format!("{v:e}")).unwrap_or_default();
    let reg = |r: &Option<IdleRegions>| -> String {
        match r {
            Some(r) => r.by_cycles.map(|x| format!("{x:e}")).join(","),
            None => ",,".into(),
        }
    };
    for (name, runs) in std::iter::once((&c.baseline, &c.baseline_runs))
        .chain(c.variants.iter().map(|v| (&v.name, &v.per_workload)))
    {
        for (w, r) in runs {
            let _ = writeln!(
                s,
                "{},{},{},{:e},{:e},{:e},{:e},{:e},{:e},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                csv_field(name),
                csv_field(w),
                r.cycles,
                r.runtime_s,
                r.perf_overhead,
                r.energy_j,
                r.energy_change,
                r.edp_js,
                r.edp_change,
                opt(r.static_savings.int),
                opt(r.static_savings.fp),
                r.events,
                r.wakeups,
                r.critical_wakeups,
                reg(&r.idle_regions.int),
                reg(&r.idle_regions.fp),
                r.truncated,
                rf_cells(r.rf.as_ref().map(|x| {
                    [
                        x.savings.dynamic,
                        x.savings.leakage,
                        x.savings.total,
                        x.savings_power.total,
                        x.rf_area_mm2,
                    ]
                })),
                active_set_cells(r.active_set),
                opt(r.events_norm),
                opt(r.wakeups_norm),
                idle_cells(r.unit_idle.int),
                idle_cells(r.unit_idle.fp),
                area_cells(&r.area),
            );
        }
    }
    for v in &c.variants {
        let a = &v.aggregate;
        let _ = writeln!(
            s,
            "{},aggregate,,,{:e},{:e},{:e},{:e},{:e},{},{},{},{},{},{},{},,{},{},,,,,,,{}",
            csv_field(&v.name),
            a.perf_overhead,
            a.energy_j,
            a.energy_change,
            a.edp_js,
            a.edp_change,
            opt(a.static_savings.int),
            opt(a.static_savings.fp),
            a.events,
            a.wakeups,
            a.critical_wakeups,
            reg(&a.idle_regions.int),
            reg(&a.idle_regions.fp),
            rf_cells(a.rf.as_ref().map(|x| {
                [
                    x.savings.dynamic.mean,
                    x.savings.leakage.mean,
                    x.savings.total.mean,
                    x.savings_power.total.mean,
                    x.rf_area_mm2,
                ]
            })),
            active_set_cells(a.active_set),
            area_cells(&a.area),
        );
    }
    s
}

/// The area CSV cells ([`crate::compare::AreaCompare::columns`]).
fn area_cells(a: &crate::compare::AreaCompare) -> String {
    a.columns()
        .iter()
        .map(|x| format!("{x:e}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The active-set CSV cells, max and mean (empty for a run without a scheduler active set).
fn active_set_cells(a: Option<crate::compare::ActiveSetSize>) -> String {
    match a {
        Some(a) => format!("{},{:e}", a.max_warps, a.mean_warps),
        None => ",".into(),
    }
}

/// A class's idle-time CSV cells: idle fraction and its ratio to the baseline's.
fn idle_cells(u: Option<crate::compare::UnitIdle>) -> String {
    match u {
        Some(u) => format!(
            "{:e},{}",
            u.idle_fraction,
            u.idle_fraction_norm
                .map(|x| format!("{x:e}"))
                .unwrap_or_default()
        ),
        None => ",".into(),
    }
}

/// The register-file CSV cells (empty without a register-file technique).
fn rf_cells(v: Option<[f64; 5]>) -> String {
    match v {
        Some(v) => v.map(|x| format!("{x:e}")).join(","),
        None => ",,,,".into(),
    }
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
    subtitle: &str,
    y_label: &str,
    labels: &[String],
    series: &[(String, Vec<f64>)],
) -> anyhow::Result<()> {
    grouped_bars(path, title, subtitle, "variant", y_label, labels, series)
}

/// A grouped bar chart with its own x-axis description: one group per label, one bar per
/// series; `y_label` states the values' unit (e.g. "saving (%)"). The legend sits in its own
/// band below the plot, never over the bars. `subtitle` (what produced the plot) goes under the
/// title.
pub fn grouped_bars(
    path: &std::path::Path,
    title: &str,
    subtitle: &str,
    x_label: &str,
    y_label: &str,
    labels: &[String],
    series: &[(String, Vec<f64>)],
) -> anyhow::Result<()> {
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let n = labels.len().max(1);
    let k = series.len().max(1);
    let width = (200 + 40 * (n * k) as u32)
        .max(720)
        .max(crate::report::plot::text_width_px(title, crate::report::plot::TITLE_FONT) + 60)
        .max(crate::report::plot::text_width_px(subtitle, crate::report::plot::SUBTITLE_FONT) + 60);
    let legend_h = 24 * series.len() as u32 + 16;
    let root = SVGBackend::new(path, (width, 560 + legend_h)).into_drawing_area();
    root.fill(&WHITE)?;
    let (plot_area, legend_area) = root.split_vertically(560);
    let vals = series.iter().flat_map(|s| s.1.iter().copied());
    let (lo, hi) = vals.fold((0.0f64, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
    let pad = ((hi - lo) * 0.08).max(0.5);
    let (lo, hi) = (lo - if lo < 0.0 { pad } else { 0.0 }, hi + pad);
    let body = crate::report::titled(&plot_area, title, subtitle)?;
    let mut chart = ChartBuilder::on(&body)
        .margin(14)
        .x_label_area_size(110)
        .y_label_area_size(80)
        .build_cartesian_2d(0f64..n as f64, lo..hi)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .max_light_lines(1)
        .x_labels(0)
        .y_desc(y_label)
        .x_desc(x_label)
        .axis_desc_style(("sans-serif", 15))
        .draw()?;
    // one category label under the middle of each group (the mesh's numeric x ticks would fall
    // between groups); vertical when the names are wider than a group
    let group_px = {
        let (a, _) = chart.backend_coord(&(0.0, lo));
        let (b, _) = chart.backend_coord(&(1.0, lo));
        (b - a).max(1)
    };
    let widest_px = labels
        .iter()
        .map(|l| l.chars().count() as i32 * 7)
        .max()
        .unwrap_or(0);
    let vertical = widest_px > group_px - 8;
    for (i, l) in labels.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(i as f64 + 0.5, lo));
        let font = ("sans-serif", 13).into_font();
        let style = if vertical {
            font.transform(FontTransform::Rotate90)
                .into_text_style(&plot_area)
                .pos(Pos::new(HPos::Left, VPos::Center))
        } else {
            font.into_text_style(&plot_area)
                .pos(Pos::new(HPos::Center, VPos::Top))
        };
        plot_area.draw(&Text::new(l.clone(), (px, py + 8), style))?;
    }
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

/// Writes into `dir`: `compare_summary.svg` (per variant: perf overhead, energy and EDP change
/// against the baseline), `static_savings.svg` (INT and FP static savings per variant) and
/// `idle_regions.svg` (the A/B/C split of idle cycles per variant and class); returns the files.
/// Each title names the configuration, the technology point and the baseline; the subtitle is
/// `run`'s ([`crate::provenance::RunInfo::plot_subtitle`]).
pub fn write_plots(
    dir: &std::path::Path,
    c: &Comparison,
    run: &crate::provenance::RunInfo,
) -> anyhow::Result<Vec<std::path::PathBuf>> {
    let sub = run.plot_subtitle();
    std::fs::create_dir_all(dir)?;
    let labels: Vec<String> = c.variants.iter().map(|v| v.name.clone()).collect();
    let get = |f: &dyn Fn(&crate::compare::Aggregate) -> f64| -> Vec<f64> {
        c.variants.iter().map(|v| 100.0 * f(&v.aggregate)).collect()
    };
    let title = format!("{} at {} against {}", run.config_name, c.tech, c.baseline);
    let mut out = Vec::new();
    let p = dir.join("compare_summary.svg");
    grouped_bars_pct(
        &p,
        &title,
        &sub,
        "change against the baseline (%)",
        &labels,
        &[
            (
                "performance overhead (T / T_baseline - 1)".into(),
                get(&|a| a.perf_overhead),
            ),
            ("total energy change".into(), get(&|a| a.energy_change)),
            ("EDP change".into(), get(&|a| a.edp_change)),
        ],
    )?;
    out.push(p);
    let p = dir.join("static_savings.svg");
    grouped_bars_pct(
        &p,
        &format!("Static energy saved in the execution units — {title}"),
        &sub,
        "static savings (%)",
        &labels,
        &[
            (
                "INT units".into(),
                get(&|a| a.static_savings.int.unwrap_or(0.0)),
            ),
            (
                "FP units".into(),
                get(&|a| a.static_savings.fp.unwrap_or(0.0)),
            ),
        ],
    )?;
    out.push(p);
    let p = dir.join("idle_regions.svg");
    let region = |class: usize, i: usize| -> Vec<f64> {
        c.variants
            .iter()
            .map(|v| {
                let r = if class == 0 {
                    &v.aggregate.idle_regions.int
                } else {
                    &v.aggregate.idle_regions.fp
                };
                r.map(|r| 100.0 * r.by_cycles[i]).unwrap_or(0.0)
            })
            .collect()
    };
    grouped_bars_pct(
        &p,
        &format!(
            "Idle cycles by run length (A too short to gate, B at a loss, C saving) — {title}"
        ),
        &sub,
        "share of idle cycles (%)",
        &labels,
        &[
            ("INT A (L <= D)".into(), region(0, 0)),
            ("INT B (D < L <= D+BET)".into(), region(0, 1)),
            ("INT C (L > D+BET)".into(), region(0, 2)),
            ("FP A (L <= D)".into(), region(1, 0)),
            ("FP B (D < L <= D+BET)".into(), region(1, 1)),
            ("FP C (L > D+BET)".into(), region(1, 2)),
        ],
    )?;
    out.push(p);
    Ok(out)
}

/// The comparison as JSON for a reader such as pandas: the nested document (`baseline_runs`,
/// `variants[].per_workload` keyed by workload), the run's provenance as `run`, and `records`,
/// a flat list with one record per variant and workload (the baseline first): `variant`,
/// `workload` and every scalar of the run (nested objects flattened to `parent_child` keys;
/// lists such as `classes` are left to the nested form).
///
/// Written straight from the structures so that the nested part keeps the field order of
/// [`Comparison`]; `run` comes first and `records` last.
pub fn json(c: &Comparison, run: &crate::provenance::RunInfo) -> serde_json::Result<String> {
    /// The document: the provenance, the comparison's own fields, the flat records.
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        run: &'a crate::provenance::RunInfo,
        #[serde(flatten)]
        comparison: &'a Comparison,
        records: Vec<serde_json::Value>,
    }
    let mut records = Vec::new();
    for (name, runs) in std::iter::once((&c.baseline, &c.baseline_runs))
        .chain(c.variants.iter().map(|v| (&v.name, &v.per_workload)))
    {
        for (w, r) in runs {
            let mut rec = serde_json::Map::new();
            rec.insert("variant".into(), name.clone().into());
            rec.insert("workload".into(), w.clone().into());
            flatten_into(&mut rec, "", &serde_json::to_value(r)?);
            records.push(serde_json::Value::Object(rec));
        }
    }
    serde_json::to_string_pretty(&Doc {
        run,
        comparison: c,
        records,
    })
}

/// Copies the scalars of `v` into `out`, nested objects' under `prefix_key` names.
fn flatten_into(
    out: &mut serde_json::Map<String, serde_json::Value>,
    prefix: &str,
    v: &serde_json::Value,
) {
    let serde_json::Value::Object(o) = v else {
        return;
    };
    for (k, x) in o {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}_{k}")
        };
        match x {
            serde_json::Value::Object(_) => flatten_into(out, &key, x),
            serde_json::Value::Array(_) => {}
            _ => {
                out.insert(key, x.clone());
            }
        }
    }
}
