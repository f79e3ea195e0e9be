//! `gpuenergy techs`: the technology nodes, their device flavours and operating points.

use crate::report::techs::Row;
use crate::report::{self, format_parser, Format, TABLE_JSON};
use anyhow::Result;
use techlib::{node, node_names, Conditions, Node};

/// Arguments of `gpuenergy techs`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// table: one line per node and flavour; json: the same as a list of objects, plus the
    /// device figures at nominal conditions (300 K).
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
    /// Show only this node (a built-in name or a planar feature size such as 40nm or 0.065).
    #[arg(long)]
    pub node: Option<String>,
}

/// The rows of a node: one per device flavour at nominal conditions.
fn rows(n: &Node) -> Result<Vec<Row>> {
    let mut out = Vec::new();
    for f in n.flavours() {
        let p = n.at(&Conditions::new(f))?;
        let d = p.device();
        out.push(Row {
            node: n.name().to_string(),
            feature_size_nm: n.feature_size_nm(),
            kind: n.kind().to_string(),
            flavour: f.to_string(),
            operating_points: n.operating_points(),
            nominal_vdd_v: d.vdd_v,
            i_on_a_per_m: d.i_on_n_a_per_m,
            i_off_a_per_m: d.i_off_n_a_per_m,
            fo4_delay_s: p.fo4_delay_s(),
            description: n.description().to_string(),
        });
    }
    Ok(out)
}

/// Runs `gpuenergy techs` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    let nodes: Vec<Node> = match &args.node {
        Some(name) => vec![node(name)?],
        None => node_names()
            .into_iter()
            .map(node)
            .collect::<Result<_, _>>()?,
    };
    let mut all = Vec::new();
    for n in &nodes {
        all.extend(rows(n)?);
    }
    let run = crate::provenance::RunInfo::for_command();
    match args.format {
        Format::Json => emit(
            &(serde_json::to_string_pretty(&report::json_with_run(
                &run,
                report::techs::json(&all),
                "nodes",
            ))? + "\n"),
        ),
        Format::Table => emit(&report::with_header(&run, &report::techs::table(&all))),
        Format::Csv => Err(crate::report::no_csv("techs")),
    }
}

/// Writes to stdout; a closed pipe (`| head`) ends the output quietly.
fn emit(text: &str) -> Result<()> {
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}
