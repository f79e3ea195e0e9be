//! `gpuenergy calibrate`: parse every synthesis record or report under a directory, fit the
//! logic-component forms (non-negative least squares, leave-one-out cross-validation), print the
//! coefficients and errors, write the calibration overlay, and optionally draw parity plots.

use crate::report::{format_parser, Format, TABLE_JSON};
use anyhow::{bail, Context, Result};
use calibration::fit::{fit_records, FitOutcome};
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// Arguments of `gpuenergy calibrate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory with synthesis records (record.json from `gpuenergy synth`) and/or raw report
    /// directories (reports + meta.toml), searched recursively.
    #[arg(long, required_unless_present = "liberty_dir")]
    pub reports: Option<PathBuf>,
    /// Also fit the node's device numbers (threshold per flavour from leakage, drive law from
    /// FO4 delay over corners) to the inverter cells of the liberty files in this directory.
    #[arg(long)]
    pub liberty_dir: Option<PathBuf>,
    /// With --liberty-dir: write the fitted numbers into this node TOML (e.g.
    /// techlib/data/asap7.toml); only vth_v, alpha and i_on_ref_a_per_fin lines change.
    #[arg(long, requires = "liberty_dir")]
    pub write_node: Option<PathBuf>,
    /// Technology node the reports belong to (techlib name).
    #[arg(long, default_value = "asap7")]
    pub tech: String,
    /// Where to write the overlay.
    #[arg(long, default_value = "overlay.toml")]
    pub out: PathBuf,
    /// Output format: table or json.
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
    /// Directory for predicted-vs-synthesised parity plots (SVG, one per quantity).
    #[arg(long)]
    pub plot: Option<PathBuf>,
}

/// Friendly unit of a quantity: (label, scale from SI).
fn unit(q: &str) -> (&'static str, f64) {
    match q {
        "area_m2" => ("um2", 1e12),
        "leakage_w" => ("uW", 1e6),
        "energy_per_op_j" => ("pJ", 1e12),
        _ => ("ps", 1e12),
    }
}

fn num_or_null(v: f64) -> serde_json::Value {
    if v.is_finite() {
        serde_json::json!(v)
    } else {
        serde_json::Value::Null
    }
}

/// The fit as JSON: per kind and quantity, terms, coefficients (SI), n, MAPEs.
pub fn to_json(o: &FitOutcome) -> serde_json::Value {
    let mut kinds = serde_json::Map::new();
    for (k, kf) in &o.overlay.kinds {
        let mut qs = serde_json::Map::new();
        for (q, f) in kf.quantities() {
            qs.insert(
                q.to_string(),
                serde_json::json!({
                    "form": f.form,
                    "terms": f.terms,
                    "coefficients": f.coefficients,
                    "n_points": f.n_points,
                    "fit_mape_pct": num_or_null(f.fit_mape_pct),
                    "cv_mape_pct": num_or_null(f.cv_mape_pct),
                }),
            );
        }
        kinds.insert(k.clone(), serde_json::Value::Object(qs));
    }
    serde_json::json!({
        "node": o.overlay.node,
        "reference": {
            "flavour": o.overlay.reference.flavour,
            "corner": o.overlay.reference.corner,
            "vdd_v": o.overlay.reference.vdd_v,
            "clock_period_s": o.overlay.reference.clock_period_s,
        },
        "kinds": kinds,
    })
}

/// The fit as a text table.
pub fn to_table(o: &FitOutcome) -> String {
    let mut s = format!(
        "calibration of {} ({} {}, {:.2} V, clock {:.3} ns)\n",
        o.overlay.node,
        o.overlay.reference.flavour,
        o.overlay.reference.corner,
        o.overlay.reference.vdd_v,
        o.overlay.reference.clock_period_s * 1e9
    );
    s.push_str(&format!(
        "{:<14} {:<16} {:>3} {:>8} {:>8}  form (SI-free units as shown, per term)\n",
        "kind", "quantity", "n", "fit%", "cv%"
    ));
    for (k, kf) in &o.overlay.kinds {
        for (q, f) in kf.quantities() {
            let (u, sc) = unit(q);
            let terms: Vec<String> = f
                .terms
                .iter()
                .zip(&f.coefficients)
                .map(|(t, c)| format!("{:.4e}*{}", c * sc, t))
                .collect();
            let cv = if f.cv_mape_pct.is_finite() {
                format!("{:.2}", f.cv_mape_pct)
            } else {
                "n/a".into()
            };
            s.push_str(&format!(
                "{:<14} {:<16} {:>3} {:>8.2} {:>8}  {} = {}\n",
                k,
                q,
                f.n_points,
                f.fit_mape_pct,
                cv,
                u,
                terms.join(" + ")
            ));
        }
    }
    s
}

/// Parity plots (log-log, one SVG per quantity, one colour per kind).
pub fn plot(o: &FitOutcome, dir: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut written = Vec::new();
    for q in calibration::fit::QUANTITIES {
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

fn tech_fit(args: &Args, dir: &Path) -> Result<()> {
    let node_path = args.write_node.clone();
    let text = match &node_path {
        Some(p) => {
            std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?
        }
        None => {
            let n = techlib::node(&args.tech)?;
            toml::to_string(n.file()).context("serialising the node")?
        }
    };
    eprintln!(
        "calibrate: fitting device numbers of {} to {}",
        args.tech,
        dir.display()
    );
    let fit = calibration::techfit::fit_dir(dir, &text)?;
    print!("{}", fit.report());
    if let Some(p) = node_path {
        std::fs::write(&p, fit.apply_to_toml(&text))
            .with_context(|| format!("writing {}", p.display()))?;
        eprintln!(
            "calibrate: fitted device numbers written to {}",
            p.display()
        );
    }
    Ok(())
}

pub fn run(args: Args) -> Result<()> {
    techlib::node(&args.tech).with_context(|| format!("--tech {}", args.tech))?;
    if let Some(d) = &args.liberty_dir {
        tech_fit(&args, d)?;
    }
    let Some(reports) = &args.reports else {
        return Ok(());
    };
    let recs = calibration::collect::collect(reports)?;
    if recs.is_empty() {
        bail!(
            "no synthesis records or reports found under {} (expected record.json files from 'gpuenergy synth', or report directories with a meta.toml)",
            reports.display()
        );
    }
    eprintln!(
        "calibrate: {} records from {}",
        recs.len(),
        reports.display()
    );
    let out = fit_records(&args.tech, &recs)?;
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&to_json(&out))?),
        Format::Table => print!("{}", to_table(&out)),
        Format::Csv => return Err(crate::report::no_csv("calibrate")),
    }
    out.overlay.save(&args.out)?;
    eprintln!("calibrate: overlay written to {}", args.out.display());
    if let Some(d) = &args.plot {
        for p in plot(&out, d)? {
            eprintln!("calibrate: plot {}", p.display());
        }
    }
    Ok(())
}
