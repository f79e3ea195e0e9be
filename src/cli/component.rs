//! `gpuenergy component`: modelled area, leakage, energy per operation and delay of one logic
//! component at any size, analytical or calibrated by an overlay.

use crate::report::component::Modelled;
use crate::report::{self, format_parser, Format, TABLE_JSON};
use anyhow::{anyhow, Context, Result};
use models::logic::{model, overlay_scaling, resolve_params, LogicKind};
use models::overlay::Overlay;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Arguments of `gpuenergy component`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Component kind: alu32, imul32, fadd32, fmul32, ffma32, sfu_lane, flop_array, latch_array,
    /// cam, crossbar, arb_rr, arb_fixed, dep_matrix, scoreboard, pg_controller, adder, mux,
    /// hdot4_f32acc (a tensor core's dot-product slice, energy per binary16 MAC); `list`
    /// prints each with its size parameters and their defaults.
    #[arg(long)]
    pub kind: String,
    /// Size parameter, NAME=VALUE (repeatable), e.g. --param N=12 --param W=32.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Technology node (techlib name, e.g. asap7, finfet7, planar45).
    #[arg(long, default_value = "asap7")]
    pub tech: String,
    /// Device flavour (rvt, lvt, slvt at FinFET nodes; hp, lstp, lop planar), named as in
    /// every other command (`--flavour` is accepted too). Default: rvt at FinFET nodes (the
    /// flavour the synthesis calibration uses; `estimate` defaults to lvt there), hp planar.
    #[arg(long, visible_alias = "flavour")]
    pub device: Option<String>,
    /// Supply voltage in volts (overrides --op; default: the node's nominal).
    #[arg(long, allow_negative_numbers = true)]
    pub vdd: Option<f64>,
    /// Named operating point (finfet7: stv = 0.45 V, ntv = 0.30 V), as in `estimate`.
    #[arg(long)]
    pub op: Option<String>,
    /// Junction temperature in kelvin. The default, 350 K, is the one `estimate` uses and lies
    /// inside every built-in node's tables (planar 300–400 K, FinFET 250–400 K).
    #[arg(long, default_value_t = crate::study::DEFAULT_TEMPERATURE_K, allow_negative_numbers = true)]
    pub temperature: f64,
    /// Calibration overlay (TOML from `gpuenergy calibrate`).
    #[arg(long)]
    pub calibration: Option<PathBuf>,
    /// Show how the analytical leakage follows from the node's device data: threshold lowered
    /// by DIBL, subthreshold swing, decades below the threshold current, off-current, leakage
    /// per gate equivalent and the block's gate count (JSON: `leakage_derivation`).
    #[arg(long)]
    pub explain: bool,
    /// Output format: table or json.
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
}

/// Parse `NAME=VALUE` size parameters.
pub fn parse_params(items: &[String]) -> Result<BTreeMap<String, u32>> {
    let mut out = BTreeMap::new();
    for it in items {
        let (k, v) = it
            .split_once('=')
            .ok_or_else(|| anyhow!("--param '{it}': expected NAME=VALUE, e.g. N=16"))?;
        let v: u32 = v
            .trim()
            .parse()
            .map_err(|_| anyhow!("--param '{it}': value '{v}' is not a non-negative integer"))?;
        out.insert(k.trim().to_string(), v);
    }
    Ok(out)
}

/// Runs `gpuenergy component` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    if args.kind == "list" {
        for k in LogicKind::ALL {
            let p: Vec<String> = k
                .default_params()
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect();
            let p = if p.is_empty() {
                "(no size parameters)".to_string()
            } else {
                p.join(" ")
            };
            println!("{:<14} {p}", k.name());
        }
        return Ok(());
    }
    let kind = LogicKind::parse(&args.kind).ok_or_else(|| {
        anyhow!(
            "unknown component kind '{}'; known: {}",
            args.kind,
            LogicKind::ALL
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    let params = resolve_params(kind, &parse_params(&args.params)?)?;
    // the synthesis calibration's flavour (RVT) when none is asked: the one stated exception
    // to the costing default
    let point = techlib::ResolvedPoint::resolve_with(
        &args.tech,
        args.device.as_deref(),
        args.vdd,
        args.op.as_deref(),
        Some(args.temperature),
        techlib::FlavourDefault::Synthesis,
    )?;
    let flavour = point.flavour();
    if args.vdd.is_some() {
        techlib::plausible::check_supply(point.node(), &point.conditions(), "--vdd")?;
    }
    let tech = point.at()?;
    let overlay = match &args.calibration {
        Some(p) => Some(Overlay::load(p)?),
        None => None,
    };
    let c = model(kind, &params, &tech, overlay.as_ref())
        .with_context(|| format!("modelling {} at {}", kind, args.tech))?;
    // The factors that carried the overlay's coefficients to this point, when it has any for
    // the kind.
    let scaling = match &overlay {
        Some(ov) if ov.kinds.contains_key(kind.name()) => Some(
            overlay_scaling(ov, &tech)
                .with_context(|| format!("mapping the overlay of {} to {}", ov.node, args.tech))?,
        ),
        _ => None,
    };
    let explain = args.explain.then(|| {
        let n = models::logic::analytical::counts(kind, &params);
        (models::logic::leakage::derive(&tech), n.ge + 4.0 * n.ff)
    });
    let modelled = Modelled {
        kind,
        params: &params,
        tech: &args.tech,
        flavour,
        vdd_v: tech.vdd_v(),
        cost: &c,
        scaling: scaling.as_ref(),
        explain: explain.as_ref().map(|(g, n)| (g, *n)),
    };
    let mut run = crate::provenance::RunInfo::for_command().with_point(&point);
    run.vdd_v = tech.vdd_v();
    match args.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&report::json_with_run(
                &run,
                report::component::json(&modelled),
                "component"
            ))?
        ),
        Format::Table => print!(
            "{}",
            report::with_header(&run, &report::component::table(&modelled))
        ),
        Format::Csv => return Err(crate::report::no_csv("component")),
    }
    Ok(())
}
