//! Per-net switching activity for OpenSTA 2.0.17.
//!
//! That OpenSTA accepts user activities only on top-level input ports (`set_power_activity
//! -input_ports`); every other pin's activity it propagates itself through the cell functions
//! with the transition-density model (Najm), which assumes the inputs of every gate are
//! independent. Through reconvergent logic (select decoders, multiplier arrays, table muxes) the
//! propagated densities are far off the real ones, and grow without bound along XOR chains.
//!
//! The flow therefore simulates the mapped netlist (see [`super::cellmodel`]) and hands OpenSTA
//! the measured activity of every net, through a copy of the library and the netlist made for
//! power analysis only:
//! - every output pin `P` of a cell whose function is not constant gets its function replaced by
//!   a new zero-capacitance input pin `ACT_P`, which has no timing arcs, so OpenSTA's own
//!   propagation copies that pin's activity to `P` and to the loads of its net;
//! - in the netlist every such `ACT_P` is tied to a new top-level input port `act_N`, whose
//!   activity and duty are the simulated ones of the net `P` drives.
//!
//! Loads, slews and delays are unchanged (no arcs, no capacitance added). One thing changes:
//! OpenSTA weights the internal-power arcs of an output pin `P` by the share of `P`'s transitions
//! each related input causes, computed from the function; with the function replaced, it falls
//! back to a duty of 0.5 per arc. The annotated library rescales the arcs whose related pin the
//! original function reads by `2/k` (k such related pins), i.e. each input is credited with an
//! equal share of the output transitions. Arcs the function does not read (a flip-flop's clock)
//! take 0.5 in both libraries and are left alone.

use super::cellmodel::Expr;
use crate::error::CalError;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// One cell instance of a Yosys netlist: cell, instance name, `(pin, connection)` in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// Library cell.
    pub cell: String,
    /// Instance name.
    pub name: String,
    /// Pin connections (`""` when unconnected).
    pub pins: Vec<(String, String)>,
    /// Line index (0-based) of the instance's closing `);` in the netlist.
    pub close_line: usize,
}

/// Cell instances of module `top` in a netlist written by `write_verilog -noattr` (one
/// `CELL NAME (` line, one `.PIN(NET)` line per pin, then `);`). Cells not in `cells` are
/// skipped.
pub fn instances(netlist: &str, top: &str, cells: &BTreeSet<String>) -> Vec<Instance> {
    let mut out = Vec::new();
    let mut in_top = false;
    let mut cur: Option<Instance> = None;
    for (i, l) in netlist.lines().enumerate() {
        let t = l.trim();
        if let Some(r) = t.strip_prefix("module ") {
            in_top = r.split(|c: char| c == '(' || c.is_whitespace()).next() == Some(top);
            continue;
        }
        if !in_top {
            continue;
        }
        if let Some(inst) = cur.as_mut() {
            if t == ");" {
                inst.close_line = i;
                out.push(cur.take().expect("set"));
            } else if let Some(r) = t.strip_prefix('.') {
                if let Some((pin, rest)) = r.split_once('(') {
                    let net = rest.trim_end_matches(',').trim();
                    let net = net.strip_suffix(')').unwrap_or(net).trim();
                    inst.pins.push((pin.trim().to_string(), net.to_string()));
                }
            }
            continue;
        }
        if let Some(head) = t.strip_suffix('(') {
            let mut w = head.split_whitespace();
            if let (Some(c), Some(n), None) = (w.next(), w.next(), w.next()) {
                if cells.contains(c) {
                    cur = Some(Instance {
                        cell: c.to_string(),
                        name: n.to_string(),
                        pins: Vec::new(),
                        close_line: 0,
                    });
                }
            }
        }
    }
    out
}

/// Output pins of each cell whose function is not constant (these get an `ACT_` pin).
pub fn annotated_outputs(info: &crate::liberty::LibraryInfo) -> BTreeMap<String, BTreeSet<String>> {
    let mut m = BTreeMap::new();
    for (c, ci) in &info.cells {
        let outs: BTreeSet<String> = ci
            .outputs
            .iter()
            .filter(|(_, f)| !matches!(Expr::parse(f), Ok(Expr::Const(_))))
            .map(|(p, _)| p.clone())
            .collect();
        if !outs.is_empty() {
            m.insert(c.clone(), outs);
        }
    }
    m
}

/// The power-analysis netlist: `netlist` with an `act_N` input port per annotated output pin,
/// connected to the instance's `ACT_<pin>`. Returns the text and, per port, the net the pin
/// drives (`""` when the output is unconnected).
pub fn power_netlist(
    netlist: &str,
    top: &str,
    insts: &[Instance],
    annotated: &BTreeMap<String, BTreeSet<String>>,
) -> Result<(String, Vec<(String, String)>), CalError> {
    let mut extra: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let mut ports = Vec::new();
    for inst in insts {
        let Some(outs) = annotated.get(&inst.cell) else {
            continue;
        };
        for p in outs {
            let net = inst
                .pins
                .iter()
                .find(|(q, _)| q == p)
                .map(|(_, n)| n.clone())
                .unwrap_or_default();
            let port = format!("act_{}", ports.len());
            extra
                .entry(inst.close_line)
                .or_default()
                .push(format!("    .ACT_{p}({port})"));
            ports.push((port, net));
        }
    }
    let lines: Vec<&str> = netlist.lines().collect();
    let mut s = String::with_capacity(netlist.len() + ports.len() * 40);
    let mut in_top = false;
    let mut header_done = false;
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim();
        if let Some(r) = t.strip_prefix("module ") {
            in_top = r.split(|c: char| c == '(' || c.is_whitespace()).next() == Some(top);
        }
        if in_top && !header_done && t.ends_with(");") {
            // End of the module header: add the activity ports.
            let body = l.trim_end().strip_suffix(");").unwrap_or(l);
            s.push_str(body);
            for (p, _) in &ports {
                let _ = write!(s, ", {p}");
            }
            s.push_str(");\n");
            for (p, _) in &ports {
                let _ = writeln!(s, "  input {p};");
            }
            header_done = true;
            continue;
        }
        if let Some(add) = extra.get(&i) {
            // The previous line is the last pin connection: it needs a comma.
            if s.ends_with(")\n") {
                s.pop();
                s.push_str(",\n");
            }
            s.push_str(&add.join(",\n"));
            s.push('\n');
        }
        s.push_str(l);
        s.push('\n');
    }
    if !header_done {
        return Err(CalError::Invalid(format!(
            "netlist has no header for module '{top}'"
        )));
    }
    Ok((s, ports))
}

/// Scale every number inside the quoted strings of a `values (...)` line.
fn scale_values(line: &str, k: f64) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_q = false;
    let mut num = String::new();
    let flush = |num: &mut String, out: &mut String| {
        if !num.is_empty() {
            match num.parse::<f64>() {
                Ok(v) => {
                    let _ = write!(out, "{}", v * k);
                }
                Err(_) => out.push_str(num),
            }
            num.clear();
        }
    };
    for c in line.chars() {
        if in_q && (c.is_ascii_digit() || "+-.eE".contains(c)) {
            num.push(c);
            continue;
        }
        flush(&mut num, &mut out);
        if c == '"' {
            in_q = !in_q;
        }
        out.push(c);
    }
    flush(&mut num, &mut out);
    out
}

fn group_head(t: &str) -> Option<(&str, &str)> {
    if !t.ends_with('{') {
        return None;
    }
    let kind = t.split('(').next()?.trim();
    let name = t
        .split_once('(')
        .and_then(|(_, r)| r.split_once(')'))
        .map(|(a, _)| a.trim().trim_matches('"'))
        .unwrap_or("");
    Some((kind, name))
}

/// Rewrite one pin group (lines including its head and closing brace): the function becomes
/// `ACT_<pin>` and the internal-power arcs related to pins the function reads are scaled by
/// `2/k`. Returns None when the pin is not an annotated output.
fn rewrite_pin(lines: &[String], pin: &str) -> Option<Vec<String>> {
    let mut func = None;
    let mut output = false;
    for l in lines {
        let t = l.trim();
        if t.starts_with("direction") && t.contains("output") {
            output = true;
        }
        if let Some(r) = t.strip_prefix("function") {
            let v = r.trim_start().trim_start_matches(':').trim();
            func = Some(v.trim_end_matches(';').trim().trim_matches('"').to_string());
        }
    }
    let f = Expr::parse(func.as_deref()?).ok()?;
    if !output || matches!(f, Expr::Const(_)) {
        return None;
    }
    let mut vars = BTreeSet::new();
    f.vars(&mut vars);
    // Related pins of this pin's internal_power groups that the function reads.
    let mut related = BTreeSet::new();
    for l in lines {
        let t = l.trim();
        if let Some(r) = t.strip_prefix("related_pin") {
            let v = r.trim_start().trim_start_matches(':').trim();
            let v = v.trim_end_matches(';').trim().trim_matches('"');
            if vars.contains(v) {
                related.insert(v.to_string());
            }
        }
    }
    let k = related.len().max(1) as f64;
    let mut out = Vec::with_capacity(lines.len());
    // Depth-tracked pass: which group are we in, and is it a scaled internal_power group?
    let mut stack: Vec<String> = Vec::new();
    let mut scale_group = false;
    let mut group_related: Option<String> = None;
    let mut buffered: Vec<String> = Vec::new();
    for l in lines {
        let t = l.trim();
        if let Some((kind, _)) = group_head(t) {
            stack.push(kind.to_string());
            if kind == "internal_power" {
                buffered.clear();
                group_related = None;
                scale_group = true;
            }
        }
        let in_ip = stack.iter().any(|g| g == "internal_power");
        if stack.len() == 1 && t.starts_with("function") {
            out.push(l.replace(t, &format!("function : \"ACT_{pin}\";")));
            continue;
        }
        if in_ip {
            if let Some(r) = t.strip_prefix("related_pin") {
                let v = r.trim_start().trim_start_matches(':').trim();
                group_related = Some(v.trim_end_matches(';').trim().trim_matches('"').into());
            }
            buffered.push(l.clone());
        } else {
            out.push(l.clone());
        }
        if t.starts_with('}') {
            let kind = stack.pop().unwrap_or_default();
            if kind == "internal_power" && scale_group {
                let scale = group_related.as_ref().is_some_and(|r| related.contains(r));
                let mut in_values = false;
                for b in buffered.drain(..) {
                    let bt = b.trim_start();
                    if bt.starts_with("values") {
                        in_values = true;
                    }
                    let ends = in_values && b.trim_end().ends_with(");");
                    if scale && in_values {
                        out.push(scale_values(&b, 2.0 / k));
                    } else {
                        out.push(b);
                    }
                    if ends {
                        in_values = false;
                    }
                }
                scale_group = false;
            }
        }
    }
    out.extend(buffered);
    Some(out)
}

/// The power-analysis copy of a liberty text (see the module documentation).
pub fn annotate_liberty(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 50);
    let mut depth = 0usize;
    let mut cell_depth: Option<usize> = None;
    let mut pin: Option<(String, usize, Vec<String>)> = None;
    let mut act_pins: Vec<String> = Vec::new();
    for raw in text.lines() {
        let t = raw.trim();
        let head = group_head(t);
        let opens = t.matches('{').count();
        let closes = t.matches('}').count();
        if let Some((kind, name)) = head {
            if kind == "cell" {
                cell_depth = Some(depth);
                act_pins.clear();
            }
            if kind == "pin" && cell_depth.is_some() && pin.is_none() {
                pin = Some((name.to_string(), depth, Vec::new()));
            }
        }
        let new_depth = (depth + opens).saturating_sub(closes);
        if let Some((name, d, buf)) = pin.as_mut() {
            buf.push(raw.to_string());
            if new_depth == *d {
                let (name, buf) = (std::mem::take(name), std::mem::take(buf));
                pin = None;
                match rewrite_pin(&buf, &name) {
                    Some(lines) => {
                        act_pins.push(name);
                        for l in lines {
                            out.push_str(&l);
                            out.push('\n');
                        }
                    }
                    None => {
                        for l in buf {
                            out.push_str(&l);
                            out.push('\n');
                        }
                    }
                }
            }
            depth = new_depth;
            continue;
        }
        if cell_depth == Some(new_depth) && closes > 0 {
            // Closing brace of the cell: add the activity pins first.
            for p in act_pins.drain(..) {
                let _ = writeln!(
                    out,
                    "    pin (ACT_{p}) {{\n      direction : input;\n      capacitance : 0;\n    }}"
                );
            }
            cell_depth = None;
        }
        out.push_str(raw);
        out.push('\n');
        depth = new_depth;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIB: &str = "library (x) {\n  cell (NAND2) {\n    pin (Y) {\n      direction : output;\n      function : \"(!A) + (!B)\";\n      internal_power () {\n        related_pin : \"A\";\n        rise_power (t) {\n          values ( \\\n            \"1.0, 2.0\" \\\n          );\n        }\n      }\n      internal_power () {\n        related_pin : \"B\";\n        rise_power (t) {\n          values (\"4.0, 8.0\");\n        }\n      }\n    }\n    pin (A) {\n      direction : input;\n      capacitance : 0.5;\n    }\n  }\n  cell (TIEHI) {\n    pin (H) {\n      direction : output;\n      function : \"1\";\n    }\n  }\n}\n";

    #[test]
    fn library_gets_activity_pins_and_scaled_arcs() {
        let a = annotate_liberty(LIB);
        assert!(a.contains("function : \"ACT_Y\";"), "{a}");
        assert!(a.contains("pin (ACT_Y)"), "{a}");
        // Two related inputs: scale 2/2 = 1.
        assert!(a.contains("\"1, 2\""), "{a}");
        assert!(a.contains("\"4, 8\""), "{a}");
        // Constant outputs are left alone.
        assert!(a.contains("function : \"1\";"));
        assert!(!a.contains("ACT_H"));
        let info = crate::liberty::library_info(&a, std::path::Path::new("a.lib"), &[]).unwrap();
        assert_eq!(info.cells["NAND2"].outputs["Y"], "ACT_Y");
        assert_eq!(info.cells["NAND2"].input_caps["ACT_Y"], 0.0);
        let inv = LIB
            .replace("(!A) + (!B)", "!A")
            .replace("related_pin : \"B\"", "related_pin : \"C\"");
        let a = annotate_liberty(&inv);
        // One related input read by the function: scale 2; the other arc is untouched.
        assert!(a.contains("\"2, 4\""), "{a}");
        assert!(a.contains("\"4.0, 8.0\""), "{a}");
    }

    #[test]
    fn netlist_gets_activity_ports() {
        let n = "module t(a, y);\n  input a;\n  output y;\n  wire w;\n  INV u1 (\n    .A(a),\n    .Y(w)\n  );\n  INV u2 (\n    .A(w),\n    .Y(y)\n  );\nendmodule\n";
        let cells: BTreeSet<String> = ["INV".to_string()].into();
        let insts = instances(n, "t", &cells);
        assert_eq!(insts.len(), 2);
        assert_eq!(
            insts[1].pins,
            vec![("A".into(), "w".into()), ("Y".into(), "y".into())]
        );
        let ann: BTreeMap<String, BTreeSet<String>> =
            [("INV".to_string(), ["Y".to_string()].into())].into();
        let (p, ports) = power_netlist(n, "t", &insts, &ann).unwrap();
        assert_eq!(
            ports,
            vec![("act_0".into(), "w".into()), ("act_1".into(), "y".into())]
        );
        assert!(
            p.starts_with("module t(a, y, act_0, act_1);\n  input act_0;\n"),
            "{p}"
        );
        assert!(p.contains("    .Y(w),\n    .ACT_Y(act_0)\n  );"), "{p}");
    }
}
