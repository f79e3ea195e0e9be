//! Renderers of `gpuenergy sweep`: the plan listing, the run summary, the status report, the
//! merged table as CSV and JSON, and the energy–runtime scatter plot of the merged points.

use super::csv::field;
use super::plot::{
    abbreviate, colour, draw_legend, draw_marker, legend_width, log_ticks, tick_label, Marker,
    Swatch,
};
use super::plot::{DESC_FONT, TICK_FONT};
use crate::provenance::{csv_field, RunInfo};
use crate::sweep::merge::Table;
use crate::sweep::plan::{Plan, PointLabel};
use crate::sweep::run::Summary;
use crate::sweep::status::Status;
use anyhow::Context;
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// File name of the merged CSV inside the sweep folder.
pub const CSV_FILE: &str = "sweep.csv";
/// File name of the merged JSON inside the sweep folder.
pub const JSON_FILE: &str = "sweep.json";
/// File name of the scatter plot inside the sweep folder's `plots/`.
pub const PLOT_FILE: &str = "energy_runtime.svg";

/// A float as the shortest text that reads back to the same number: plain decimals between
/// 1e-4 and 1e15, scientific notation outside.
fn num(x: f64) -> String {
    let a = x.abs();
    if x == 0.0 || (1e-4..1e15).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// `node op device` of a point, the parts given.
fn tech_of(p: &PointLabel) -> String {
    let mut s = p.node.clone();
    for x in [&p.op, &p.device] {
        if !x.is_empty() {
            s = format!("{s} {x}");
        }
    }
    s
}

/// The plan: a summary line, then one line per point (number, key, technology point,
/// technique, axis values, workload, size).
pub fn plan(p: &Plan) -> String {
    let f = &p.file;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "sweep {}: {} points = {} variants ({} technology points x {} techniques x {} axis \
         combinations{}) x {} workloads x {} sizes{}",
        f.path.display(),
        p.points.len(),
        p.variants.len(),
        f.techs.len(),
        f.techniques.len(),
        p.combinations(),
        if f.exclude.is_empty() {
            ""
        } else {
            ", less exclusions"
        },
        f.workloads.len(),
        f.sizes.len(),
        if f.exclude.is_empty() {
            ""
        } else {
            ", less exclusions"
        },
    );
    let axes: Vec<&str> = f.axes.iter().map(|a| a.key.as_str()).collect();
    let mut rows: Vec<Vec<String>> = vec![["point", "key", "tech", "technique"]
        .iter()
        .map(|x| x.to_string())
        .chain(axes.iter().map(|a| a.to_string()))
        .chain(["workload".to_string(), "size".to_string()])
        .collect()];
    for x in &p.points {
        let l = &x.label;
        rows.push(
            [
                l.index.to_string(),
                l.key.clone(),
                tech_of(l),
                l.technique.clone(),
            ]
            .into_iter()
            .chain(l.knobs.iter().map(|(_, v)| v.clone()))
            .chain([l.workload.clone(), l.size.clone()])
            .collect(),
        );
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(v, w)| format!("{v:<w$}"))
            .collect();
        let _ = writeln!(s, "{}", line.join("  ").trim_end());
    }
    s
}

/// The cost estimate of a plan: `probes` is the wall time, s, of one computed point per
/// `(workload, size)`, `threads` the parallel workers.
pub fn cost(p: &Plan, probes: &[(String, String, f64)], threads: usize) -> String {
    let per = |w: &str, z: &str| {
        probes
            .iter()
            .find(|(pw, pz, _)| pw == w && pz == z)
            .map_or(0.0, |x| x.2)
    };
    let cpu_s: f64 = p
        .points
        .iter()
        .map(|x| per(&x.label.workload, &x.label.size))
        .sum();
    let probe_s: f64 = probes.iter().map(|x| x.2).sum();
    let mut s = format!(
        "cost estimate: {} simulations; about {:.1} CPU-s, {:.1} s of wall time on {} threads\n",
        p.points.len(),
        cpu_s,
        cpu_s / threads.max(1) as f64,
        threads
    );
    let _ = writeln!(
        s,
        "  based on timing the first point of each workload x size once here ({} runs, {:.2} s); \
         techniques and knobs change a point's time, so this is a guide, not a bound",
        probes.len(),
        probe_s
    );
    for (w, z, t) in probes {
        let _ = writeln!(s, "  {w} ({z}): {t:.3} s per point");
    }
    s
}

/// The one-line summary of a run.
pub fn summary(shard: &str, s: &Summary) -> String {
    format!(
        "sweep run shard {shard}: {} points: {} found done, {} computed ({} corrupt result \
         files recomputed), {} failed; {:.2} s, {:.1} points/min\n",
        s.points,
        s.found,
        s.computed,
        s.corrupt.len(),
        s.failed.len(),
        s.elapsed_s,
        s.points_per_min()
    )
}

fn point_line(p: &PointLabel) -> String {
    let knobs: String = p.knobs.iter().map(|(k, v)| format!(" {k}={v}")).collect();
    format!(
        "point {} ({}): {} {}{} {} {}",
        p.index,
        p.key,
        tech_of(p),
        p.technique,
        knobs,
        p.workload,
        p.size
    )
}

/// The status report.
pub fn status(dir: &Path, st: &Status) -> String {
    let mut s = String::new();
    let failed = st.missing.iter().filter(|(_, e)| e.is_some()).count();
    let _ = writeln!(
        s,
        "sweep {} (file {}): {} points: {} done, {} missing ({} of them failed), {} corrupt",
        dir.display(),
        st.file,
        st.points,
        st.done,
        st.missing.len(),
        failed,
        st.corrupt.len()
    );
    let _ = writeln!(
        s,
        "{}",
        if st.complete() {
            "complete: `gpuenergy sweep merge` can write the table".to_string()
        } else {
            format!(
                "incomplete: run `gpuenergy sweep run {} --out {}` again, or resubmit with \
                 `gpuenergy sweep slurm ... --submit`; only the points not done run",
                st.file,
                dir.display()
            )
        }
    );
    if !st.shards.is_empty() {
        let _ = writeln!(s, "shards:");
        for sh in &st.shards {
            let r = &sh.recorded;
            let note = match r.state.as_str() {
                "running" if sh.done < sh.points => {
                    format!(
                        " (pid {}: stopped before it finished, or still running)",
                        r.pid
                    )
                }
                "failed" => format!(" ({} points failed)", r.failed),
                _ => String::new(),
            };
            let _ = writeln!(
                s,
                "  {}: {}, {}/{} points done{note}",
                sh.shard, r.state, sh.done, sh.points
            );
        }
    }
    for (p, e) in &st.missing {
        let why = match e {
            Some(e) => format!(": failed: {}", e.lines().next().unwrap_or("")),
            None => String::new(),
        };
        let _ = writeln!(s, "missing {}{why}", point_line(p));
    }
    for (p, why) in &st.corrupt {
        let _ = writeln!(s, "corrupt {}: {why}", point_line(p));
    }
    s
}

/// Names of the outcome columns, after the point's dimensions.
const OUTCOME_COLUMNS: &str = "tech,vdd_v,cycles,warp_instructions,truncated,runtime_s,energy_j,\
dynamic_j,leakage_j,average_power_w,edp_js,area_mm2,chip_leakage_w";

/// The columns of a sampled sweep (`sample` in the sweep file), after the outcome's: kernel
/// sampling's estimated errors of cycles and of total energy, as fractions.
const SAMPLE_COLUMNS: &str = "sample_cycles_error,sample_energy_error";

/// The provenance columns of the merged CSV, after the outcome's: the tool's version, the
/// sweep file, the FNV-1a hash of its text and its base configuration (each row's technology
/// point, technique, workload and size are columns of its own).
pub const RUN_COLUMNS: &str = "version,sweep_file,sweep_hash,base_config";

/// The merged table as CSV: the point's number, key and dimensions (one column per axis),
/// then its numbers (with [`SAMPLE_COLUMNS`] when the points were sampled), then
/// [`RUN_COLUMNS`] from `run`.
pub fn csv(t: &Table, run: &RunInfo) -> String {
    let sampled = t.rows.iter().any(|r| r.outcome.sample_error.is_some());
    let prov = [
        csv_field(&run.version),
        csv_field(&run.config_source),
        csv_field(&run.config_hash),
        csv_field(&run.config_name),
    ]
    .join(",");
    let mut s = String::from("point,key,node,op,device,temperature_k,technique,");
    for a in &t.axes {
        s += &field(a);
        s.push(',');
    }
    s += "workload,size,";
    s += OUTCOME_COLUMNS;
    s.push(',');
    if sampled {
        s += SAMPLE_COLUMNS;
        s.push(',');
    }
    s += RUN_COLUMNS;
    s.push('\n');
    for r in &t.rows {
        let p = &r.point;
        let o = &r.outcome;
        let mut cells = vec![
            p.index.to_string(),
            p.key.clone(),
            field(&p.node),
            field(&p.op),
            field(&p.device),
            num(p.temperature_k),
            field(&p.technique),
        ];
        cells.extend(p.knobs.iter().map(|(_, v)| field(v)));
        cells.extend([
            field(&p.workload),
            field(&p.size),
            field(&o.tech),
            num(o.vdd_v),
        ]);
        cells.extend([
            o.cycles.to_string(),
            o.warp_instructions.to_string(),
            o.truncated.to_string(),
        ]);
        cells.extend(
            [
                o.runtime_s,
                o.energy_j,
                o.dynamic_j,
                o.leakage_j,
                o.average_power_w,
                o.edp_js,
                o.area_mm2,
                o.chip_leakage_w,
            ]
            .map(num),
        );
        if sampled {
            // every point of a sampled sweep has its estimate; a cell without one is empty
            let e = r.outcome.sample_error;
            cells.push(e.map_or_else(String::new, |e| num(e.cycles)));
            cells.push(e.map_or_else(String::new, |e| num(e.energy)));
        }
        s += &cells.join(",");
        s.push(',');
        s += &prov;
        s.push('\n');
    }
    s
}

/// The merged table as JSON: `{"axes": [...], "rows": [...]}`, one object per row with the
/// same fields as the CSV, the axis values under `knobs`; `run` is what produced it.
pub fn json(t: &Table, run: &RunInfo) -> anyhow::Result<String> {
    let rows: Vec<serde_json::Value> = t
        .rows
        .iter()
        .map(|r| {
            let p = &r.point;
            let o = &r.outcome;
            let knobs: serde_json::Map<String, serde_json::Value> = p
                .knobs
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                .collect();
            let mut row = serde_json::json!({
                "point": p.index,
                "key": p.key,
                "node": p.node,
                "op": p.op,
                "device": p.device,
                "temperature_k": p.temperature_k,
                "technique": p.technique,
                "knobs": knobs,
                "workload": p.workload,
                "size": p.size,
                "tech": o.tech,
                "vdd_v": o.vdd_v,
                "cycles": o.cycles,
                "warp_instructions": o.warp_instructions,
                "truncated": o.truncated,
                "runtime_s": o.runtime_s,
                "energy_j": o.energy_j,
                "dynamic_j": o.dynamic_j,
                "leakage_j": o.leakage_j,
                "average_power_w": o.average_power_w,
                "edp_js": o.edp_js,
                "area_mm2": o.area_mm2,
                "chip_leakage_w": o.chip_leakage_w,
            });
            if let Some(e) = o.sample_error {
                row["sample_cycles_error"] = e.cycles.into();
                row["sample_energy_error"] = e.energy.into();
            }
            row
        })
        .collect();
    let doc = serde_json::json!({ "run": run.json(), "axes": t.axes, "rows": rows });
    Ok(serde_json::to_string_pretty(&doc)? + "\n")
}

/// The label of a row's variant: its technique, technology point and axis values, leaving out
/// the parts every row shares (`-` when all rows are one variant).
fn variant_labels(t: &Table) -> Vec<String> {
    let parts: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|r| {
            let p = &r.point;
            let mut v = vec![
                p.technique.clone(),
                tech_of(p),
                format!("{} K", p.temperature_k),
            ];
            v.extend(p.knobs.iter().map(|(k, x)| format!("{k}={x}")));
            v
        })
        .collect();
    let n = parts.iter().map(Vec::len).max().unwrap_or(0);
    let varies: Vec<bool> = (0..n)
        .map(|i| parts.iter().any(|p| p.get(i) != parts[0].get(i)))
        .collect();
    parts
        .iter()
        .map(|p| {
            let l: Vec<&str> = p
                .iter()
                .zip(&varies)
                .filter(|(_, v)| **v)
                .map(|(x, _)| x.as_str())
                .collect();
            if l.is_empty() {
                "-".to_string()
            } else {
                l.join(" ")
            }
        })
        .collect()
}

/// Writes the scatter plot of energy against run time (log–log) into `dir`; returns its path.
/// Every point is told apart by its workload and its variant (technique, technology point and
/// axis values): colour by one and marker shape by the other — shape by variant when there are
/// at most three variants, else shape by workload — with a legend of both. The ticks are 1, 2
/// and 5 per decade, or only the decades when those would crowd; the subtitle is `run`'s.
pub fn write_plot(dir: &Path, t: &Table, run: &RunInfo) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(PLOT_FILE);
    let pts: Vec<(f64, f64)> = t
        .rows
        .iter()
        .map(|r| (r.outcome.runtime_s, r.outcome.energy_j))
        .filter(|(x, y)| *x > 0.0 && *y > 0.0)
        .collect();
    let range = |v: &mut dyn Iterator<Item = f64>| {
        let (lo, hi) = v.fold((f64::INFINITY, 0.0f64), |(l, h), x| (l.min(x), h.max(x)));
        if lo.is_finite() && hi > 0.0 {
            (lo / 1.5, hi * 1.5)
        } else {
            (1e-9, 1.0)
        }
    };
    let (x0, x1) = range(&mut pts.iter().map(|p| p.0));
    let (y0, y1) = range(&mut pts.iter().map(|p| p.1));
    let first = |v: &[String]| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for x in v {
            if !out.contains(x) {
                out.push(x.clone());
            }
        }
        out
    };
    let row_workloads: Vec<String> = t.rows.iter().map(|r| r.point.workload.clone()).collect();
    let row_variants = variant_labels(t);
    let workloads = first(&row_workloads);
    let variants = first(&row_variants);
    const SHAPES: [Marker; 3] = [Marker::Circle, Marker::Triangle, Marker::Square];
    let shape_by_variant = variants.len() <= SHAPES.len();
    let grey = RGBColor(90, 90, 90);
    let mut entries: Vec<(String, Swatch)> = Vec::new();
    let (colour_names, shape_names, colour_title, shape_title) = if shape_by_variant {
        (
            &workloads,
            &variants,
            "workload (colour)",
            "variant (shape)",
        )
    } else {
        (
            &variants,
            &workloads,
            "variant (colour)",
            "workload (shape)",
        )
    };
    entries.push((colour_title.to_string(), Swatch::Heading));
    for (i, n) in colour_names.iter().enumerate() {
        entries.push((abbreviate(n, 28), Swatch::Marker(colour(i), Marker::Circle)));
    }
    entries.push((shape_title.to_string(), Swatch::Heading));
    for (i, n) in shape_names.iter().enumerate() {
        entries.push((
            abbreviate(n, 28),
            Swatch::Marker(grey, SHAPES[i % SHAPES.len()]),
        ));
    }
    let legend_w = legend_width(&entries.iter().map(|e| e.0.clone()).collect::<Vec<_>>());
    let row_px = (0.81 * TICK_FONT * 1.5).ceil() as u32;
    let (width, height) = (
        760 + legend_w,
        (680u32).max(140 + row_px * entries.len() as u32),
    );
    {
        let root = SVGBackend::new(&path, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let title = format!("Sweep: energy vs run time, {} points", t.rows.len());
        let body = super::titled(&root, &title, &run.plot_subtitle())?;
        let (left, right) = body.split_horizontally(width - legend_w);
        let x_ticks = log_ticks(x0, x1, 6);
        let y_ticks = log_ticks(y0, y1, 8);
        let mut chart = ChartBuilder::on(&left)
            .margin(12)
            .margin_right(30)
            .x_label_area_size(60)
            .y_label_area_size(90)
            .build_cartesian_2d(
                (x0..x1).log_scale().with_key_points(x_ticks),
                (y0..y1).log_scale().with_key_points(y_ticks),
            )?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_label_style(("sans-serif", TICK_FONT))
            .y_label_style(("sans-serif", TICK_FONT))
            .axis_desc_style(("sans-serif", DESC_FONT))
            .x_label_formatter(&|v| tick_label(*v))
            .y_label_formatter(&|v| tick_label(*v))
            .x_desc("run time (s)")
            .y_desc("energy (J)")
            .draw()?;
        for (r, (w, v)) in t.rows.iter().zip(row_workloads.iter().zip(&row_variants)) {
            let wi = workloads.iter().position(|x| x == w).unwrap_or(0);
            let vi = variants.iter().position(|x| x == v).unwrap_or(0);
            let (ci, si) = if shape_by_variant { (wi, vi) } else { (vi, wi) };
            let xy = (r.outcome.runtime_s, r.outcome.energy_j);
            if xy.0 > 0.0 && xy.1 > 0.0 {
                draw_marker(
                    &root,
                    SHAPES[si % SHAPES.len()],
                    colour(ci),
                    chart.backend_coord(&xy),
                )?;
            }
        }
        draw_legend(&right, 10, &entries)?;
        root.present()?;
    }
    Ok(path)
}
