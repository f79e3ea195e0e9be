//! Renderers of `gpuenergy techs`: the table and JSON of the technology nodes, one row per node
//! and device flavour at nominal conditions.

use techlib::OperatingPoint;

/// One node and one of its device flavours at the nominal supply and 300 K, in SI units.
#[derive(Debug, Clone)]
pub struct Row {
    /// Node name (`planar45`, `finfet7`, ...).
    pub node: String,
    /// Feature size, nm (the node's name for it; kept in nm as the table prints it).
    pub feature_size_nm: f64,
    /// Node kind (`planar`, `finfet`).
    pub kind: String,
    /// Device flavour key (`hp`, `lvt`, ...).
    pub flavour: String,
    /// The node's named operating points.
    pub operating_points: Vec<OperatingPoint>,
    /// Nominal supply of the flavour, V.
    pub nominal_vdd_v: f64,
    /// NMOS on-current per width, A/m.
    pub i_on_a_per_m: f64,
    /// NMOS off-current per width, A/m.
    pub i_off_a_per_m: f64,
    /// Fan-out-of-4 inverter delay, s.
    pub fo4_delay_s: f64,
    /// One-line description of the node.
    pub description: String,
}

/// The JSON of the rows: a list of objects in friendly units (uA/um, nA/um, ps).
pub fn json(rows: &[Row]) -> serde_json::Value {
    serde_json::Value::Array(
        rows.iter()
            .map(|r| {
                let ops: Vec<serde_json::Value> = r
                    .operating_points
                    .iter()
                    .map(|o| serde_json::json!({"name": o.name, "vdd_v": o.vdd_v, "description": o.description}))
                    .collect();
                serde_json::json!({
                    "node": r.node,
                    "feature_size_nm": r.feature_size_nm,
                    "kind": r.kind,
                    "flavour": r.flavour,
                    "operating_points": ops,
                    "nominal_vdd_v": r.nominal_vdd_v,
                    "i_on_ua_per_um": r.i_on_a_per_m,
                    "i_off_na_per_um": r.i_off_a_per_m * 1e3,
                    "fo4_ps": r.fo4_delay_s * 1e12,
                    "description": r.description,
                })
            })
            .collect(),
    )
}

/// The operating points as one cell: `name V.VV V, ...`, or `-` when the node has none.
fn operating_points_text(ops: &[OperatingPoint]) -> String {
    if ops.is_empty() {
        "-".to_string()
    } else {
        ops.iter()
            .map(|o| format!("{} {:.2} V", o.name, o.vdd_v))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The fixed-width table of the rows, columns sized to their widest cell, numbers
/// right-aligned, with a closing note on the conditions.
pub fn table(rows: &[Row]) -> String {
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
                format!("{:.0}", r.feature_size_nm),
                r.kind.clone(),
                r.flavour.clone(),
                format!("{:.2}", r.nominal_vdd_v),
                format!("{:.0}", r.i_on_a_per_m),
                format!("{:.3}", r.i_off_a_per_m * 1e3),
                format!("{:.2}", r.fo4_delay_s * 1e12),
                operating_points_text(&r.operating_points),
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
