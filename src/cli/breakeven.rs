//! `gpuenergy breakeven`: the sleep-transistor model of one gating domain at a technology point
//! (power-gating §1.7) — switch sizing, IR drop, event energy, residual leakage, break-even time,
//! wakeup delay and area — optionally swept over the supply or the switch width multiplier.

use crate::report::breakeven::{self as render, Swept};
use crate::report::{format_parser, Format, TABLE_JSON};
use anyhow::{anyhow, Result};
use clap::builder::PossibleValuesParser;
use models::gating::breakeven::{
    breakeven, sweep_scale, sweep_vdd, BreakevenQuery, ClockChoice, REFERENCE_CLOCK_HZ, SCALE_SWEEP,
};
use models::gating::domain::{DomainKind, LaneUnit};
use models::gating::sleep::{RailModel, SwitchKind};
use models::overlay::Overlay;
use std::path::PathBuf;

/// Points of `--sweep-vdd`.
pub const VDD_SWEEP_POINTS: usize = 10;

/// Arguments of `gpuenergy breakeven`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  gpuenergy breakeven --tech 40nm
  gpuenergy breakeven --tech finfet7 --op ntv --domain lane-group:1 --format json
  gpuenergy breakeven --tech 40nm --sweep-scale --sweep-vdd --plot plots/")]
pub struct Args {
    /// Technology node (techlib name: planar90 … planar16, 40nm, finfet7, finfet12, asap7).
    #[arg(long, default_value = "40nm")]
    pub tech: String,
    /// Supply voltage in volts (default: the node's nominal). Must be at least the node's
    /// functional minimum.
    #[arg(long, conflicts_with = "op", allow_negative_numbers = true)]
    pub vdd: Option<f64>,
    /// Named operating point of the node (finfet7: stv, ntv; asap7: low, nominal, high).
    #[arg(long)]
    pub op: Option<String>,
    /// Junction temperature in kelvin (inside every built-in node's tables: planar 300–400 K,
    /// FinFET 250–400 K).
    #[arg(long, visible_alias = "temp-k", default_value_t = crate::study::DEFAULT_TEMPERATURE_K, allow_negative_numbers = true)]
    pub temperature: f64,
    /// Core clock in MHz at this point. Default: 700 MHz (GTX480) at the node's nominal point,
    /// scaled with the FO4 delay at other supplies. With --sweep-vdd it is the nominal-point
    /// clock, scaled the same way.
    #[arg(long = "clock-mhz")]
    pub clock_mhz: Option<f64>,
    /// Gating domain: sp-cluster (one SP's 16 lanes of one type), lane-group:N (N = 1, 2, 4) or
    /// sfu (one SFU's 4 lanes).
    #[arg(long, default_value = "sp-cluster")]
    pub domain: String,
    /// Datapath of an sp-cluster or lane-group domain: int (ALU + multiplier) or fp (FMA).
    #[arg(long, default_value = "int", value_parser = PossibleValuesParser::new(["int", "fp"]))]
    pub unit: String,
    /// Switch width multiplier s (>= 1): W_sw = s·W_min.
    #[arg(long = "switch-scale", default_value_t = 1.0)]
    pub switch_scale: f64,
    /// Header (PMOS) or footer (NMOS) switch.
    #[arg(long, default_value = "header", value_parser = PossibleValuesParser::new(["header", "footer"]))]
    pub switch: String,
    /// Rail collapse model: full-collapse or decay.
    #[arg(long, default_value = "full-collapse", value_parser = PossibleValuesParser::new(["full-collapse", "decay"]))]
    pub rail: String,
    /// Logic device flavour (default: the node's costing flavour, hp planar, lvt FinFET).
    #[arg(long = "logic-flavour")]
    pub logic_flavour: Option<String>,
    /// Switch device flavour (default: the node's highest-threshold flavour).
    #[arg(long = "switch-flavour")]
    pub switch_flavour: Option<String>,
    /// Calibration overlay (TOML from `gpuenergy calibrate`) for the lane and controller models.
    #[arg(long)]
    pub calibration: Option<PathBuf>,
    /// Also sweep the supply from the functional minimum to 110 % of nominal (10 points).
    #[arg(long = "sweep-vdd")]
    pub sweep_vdd: bool,
    /// Also sweep the switch width multiplier s = 1, 1.5, 2, 3, 4, 6, 8.
    #[arg(long = "sweep-scale")]
    pub sweep_scale: bool,
    /// Write SVG plots of BET and W against the supply and against s into this directory
    /// (breakeven_vs_vdd.svg, breakeven_vs_scale.svg).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Output format: table or json.
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
}

/// Slowest `--clock-mhz`: 1 MHz (below it a cycle outlasts the switch's whole wakeup many
/// times over and the cycle counts are meaningless).
pub const MIN_CLOCK_MHZ: f64 = 1.0;

fn query(args: &Args) -> Result<BreakevenQuery> {
    let mut point = techlib::ResolvedPoint::resolve(
        &args.tech,
        args.logic_flavour.as_deref(),
        args.vdd,
        None,
        Some(args.temperature),
    )?;
    if let Some(op) = &args.op {
        // Name the flag in the error (the node's points are listed by techlib).
        point = point.with_op(op).map_err(|e| anyhow!("--op {op}: {e}"))?;
    }
    let mut q = BreakevenQuery::new(point);
    q.domain.kind = DomainKind::parse(&args.domain)?;
    q.domain.unit = LaneUnit::parse(&args.unit)
        .ok_or_else(|| anyhow!("--unit '{}': allowed int, fp", args.unit))?;
    q.switch_flavour = args.switch_flavour.clone();
    if let Some(f) = args.clock_mhz {
        if !(f.is_finite() && f >= MIN_CLOCK_MHZ) {
            return Err(anyhow!(
                "--clock-mhz {f:?}: out of range; allowed a clock from {MIN_CLOCK_MHZ} MHz up to \
                 what the node's gates allow"
            ));
        }
        q.clock = ClockChoice::Fixed { clock_hz: f * 1e6 };
    }
    if !(args.switch_scale.is_finite() && args.switch_scale >= 1.0) {
        return Err(anyhow!(
            "--switch-scale {}: allowed a multiplier s >= 1 (W_sw = s·W_min)",
            args.switch_scale
        ));
    }
    q.knobs.size_multiplier = args.switch_scale;
    q.knobs.switch = SwitchKind::parse(&args.switch)
        .ok_or_else(|| anyhow!("--switch '{}': allowed header, footer", args.switch))?;
    q.knobs.rail = RailModel::parse(&args.rail)
        .ok_or_else(|| anyhow!("--rail '{}': allowed full-collapse, decay", args.rail))?;
    Ok(q)
}

/// Runs `gpuenergy breakeven` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    let (text, written) = output(&args)?;
    print!("{text}");
    for p in written {
        eprintln!("wrote {}", p.display());
    }
    Ok(())
}

/// The output of `args` in `args.format`, and the plots written (`--plot`).
pub fn output(args: &Args) -> Result<(String, Vec<PathBuf>)> {
    let q = query(args)?;
    let overlay = match &args.calibration {
        Some(p) => Some(Overlay::load(p)?),
        None => None,
    };
    let ov = overlay.as_ref();
    let point = breakeven(&q, ov)?;
    let mut run = crate::provenance::RunInfo::for_command().with_point(&q.point);
    run.vdd_v = point.vdd_v;
    run.core_clock_hz = point.clock_hz;
    // Sweeps of the supply take the clock as the nominal-point clock, scaled with FO4.
    let mut vq = q.clone();
    if let ClockChoice::Fixed { clock_hz } = q.clock {
        vq.clock = ClockChoice::Scaled {
            nominal_clock_hz: clock_hz,
        };
    } else {
        vq.clock = ClockChoice::Scaled {
            nominal_clock_hz: REFERENCE_CLOCK_HZ,
        };
    }
    let want_plot = args.plot.is_some();
    let vdd_points = if args.sweep_vdd || want_plot {
        Some(sweep_vdd(&vq, ov, VDD_SWEEP_POINTS)?)
    } else {
        None
    };
    let scale_points = if args.sweep_scale || want_plot {
        Some(sweep_scale(&q, ov, &SCALE_SWEEP)?)
    } else {
        None
    };
    let mut written = Vec::new();
    if let Some(dir) = &args.plot {
        if let Some(v) = &vdd_points {
            written.push(render::write_sweep_plot(dir, Swept::Vdd, v, &run)?);
        }
        if let Some(v) = &scale_points {
            written.push(render::write_sweep_plot(dir, Swept::Scale, v, &run)?);
        }
    }
    let show_vdd = vdd_points.as_ref().filter(|_| args.sweep_vdd);
    let show_scale = scale_points.as_ref().filter(|_| args.sweep_scale);
    let mut text = String::new();
    match args.format {
        Format::Json => {
            let mut v = serde_json::json!({ "point": render::json(&point), "run": run.json() });
            if let Some(p) = show_vdd {
                v["sweep_vdd"] = p.iter().map(render::json).collect();
            }
            if let Some(p) = show_scale {
                v["sweep_scale"] = p.iter().map(render::json).collect();
            }
            text = serde_json::to_string_pretty(&v)? + "\n";
        }
        Format::Table => {
            text.push_str(&crate::report::with_header(&run, &render::table(&point)));
            if let Some(p) = show_vdd {
                text.push_str("\nsupply sweep (clock follows FO4):\n");
                text.push_str(&render::sweep_table(Swept::Vdd, p));
            }
            if let Some(p) = show_scale {
                text.push_str("\nswitch-scale sweep:\n");
                text.push_str(&render::sweep_table(Swept::Scale, p));
            }
        }
        Format::Csv => return Err(crate::report::no_csv("breakeven")),
    }
    Ok((text, written))
}
