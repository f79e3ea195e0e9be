//! `gpuenergy techs`: the technology nodes, their device flavours and operating points.

use crate::report::{format_parser, Format, TABLE_JSON};
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

/// One row: a node and one of its flavours at nominal conditions.
struct Row {
    node: String,
    feature_nm: f64,
    kind: String,
    flavour: String,
    operating_points: String,
    operating_points_json: serde_json::Value,
    nominal_vdd_v: f64,
    i_on_ua_per_um: f64,
    i_off_na_per_um: f64,
    fo4_ps: f64,
    description: String,
}

fn rows(n: &Node) -> Result<Vec<Row>> {
    let ops = n.operating_points();
    let ops_text = if ops.is_empty() {
        "-".to_string()
    } else {
        ops.iter()
            .map(|o| format!("{} {:.2} V", o.name, o.vdd_v))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = Vec::new();
    for f in n.flavours() {
        let p = n.at(&Conditions::new(f))?;
        let d = p.device();
        out.push(Row {
            node: n.name().to_string(),
            feature_nm: n.feature_size_nm(),
            kind: n.kind().to_string(),
            flavour: f.to_string(),
            operating_points: ops_text.clone(),
            operating_points_json: serde_json::Value::Array(
                ops.iter()
                    .map(|o| serde_json::json!({"name": o.name, "vdd_v": o.vdd_v, "description": o.description}))
                    .collect(),
            ),
            nominal_vdd_v: d.vdd_v,
            i_on_ua_per_um: d.i_on_n_a_per_m,
            i_off_na_per_um: d.i_off_n_a_per_m * 1e3,
            fo4_ps: p.fo4_delay_s() * 1e12,
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
    match args.format {
        Format::Json => {
            let list: Vec<serde_json::Value> = all
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "node": r.node,
                        "feature_size_nm": r.feature_nm,
                        "kind": r.kind,
                        "flavour": r.flavour,
                        "operating_points": r.operating_points_json,
                        "nominal_vdd_v": r.nominal_vdd_v,
                        "i_on_ua_per_um": r.i_on_ua_per_um,
                        "i_off_na_per_um": r.i_off_na_per_um,
                        "fo4_ps": r.fo4_ps,
                        "description": r.description,
                    })
                })
                .collect();
            emit(&(serde_json::to_string_pretty(&list)? + "\n"))
        }
        Format::Table => emit(&table(&all)),
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

fn table(rows: &[Row]) -> String {
    let head = [
        "node",
        "F (nm)",
        "kind",
        "flavour",
        "Vdd (V)",
        "Ion (uA/um)",
        "Ioff (nA/um)",
        "FO4 (ps)",
        "operating points",
    ];
    let body: Vec<[String; 9]> = rows
        .iter()
        .map(|r| {
            [
                r.node.clone(),
                format!("{:.0}", r.feature_nm),
                r.kind.clone(),
                r.flavour.clone(),
                format!("{:.2}", r.nominal_vdd_v),
                format!("{:.0}", r.i_on_ua_per_um),
                format!("{:.3}", r.i_off_na_per_um),
                format!("{:.2}", r.fo4_ps),
                r.operating_points.clone(),
            ]
        })
        .collect();
    let mut w = head.map(str::len);
    for row in &body {
        for (i, c) in row.iter().enumerate() {
            w[i] = w[i].max(c.len());
        }
    }
    let mut s = String::new();
    let line = |cells: Vec<&str>| -> String {
        let mut l = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i > 0 {
                l.push_str("  ");
            }
            if i == cells.len() - 1 {
                l.push_str(c);
            } else if (1..8).contains(&i) && i != 2 && i != 3 {
                l.push_str(&format!("{c:>width$}", width = w[i]));
            } else {
                l.push_str(&format!("{c:<width$}", width = w[i]));
            }
        }
        l.push('\n');
        l
    };
    s.push_str(&line(head.to_vec()));
    for row in &body {
        s.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    s.push_str("Ion, Ioff, FO4 at the nominal supply and 300 K. planar16 is extrapolated from 22/32 nm; asap7 is fitted to its liberty files (leakage and FO4 at 25 C).\n");
    s
}
