//! OpenSTA timing and power analysis of the mapped netlist.

use super::stim::Activities;
use super::{tools, FlowOptions, FlowSpec, PreparedLibrary};
use crate::error::{write_text, CalError};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// A port of the netlist's top module.
#[derive(Debug, Clone, PartialEq)]
pub struct Port {
    /// Name.
    pub name: String,
    /// Input (true) or output.
    pub input: bool,
    /// `[msb:lsb]` range, None for scalars.
    pub range: Option<(i64, i64)>,
}

impl Port {
    /// Bit names as OpenSTA and the VCD reader spell them (`a[3]`, or `clk`).
    pub fn bit_names(&self) -> Vec<String> {
        match self.range {
            None => vec![self.name.clone()],
            Some((m, l)) => {
                let (lo, hi) = if m >= l { (l, m) } else { (m, l) };
                (lo..=hi).map(|i| format!("{}[{}]", self.name, i)).collect()
            }
        }
    }
}

/// Ports of `top` in a Yosys-written netlist (`input [31:0] a;` declarations).
pub fn netlist_ports(netlist: &str, top: &str) -> Vec<Port> {
    let mut out = Vec::new();
    let mut in_top = false;
    for l in netlist.lines() {
        let t = l.trim();
        if let Some(r) = t.strip_prefix("module ") {
            in_top = r.split(|c: char| c == '(' || c.is_whitespace()).next() == Some(top);
            continue;
        }
        if t.starts_with("endmodule") {
            in_top = false;
        }
        if !in_top {
            continue;
        }
        let (input, rest) = if let Some(r) = t.strip_prefix("input ") {
            (true, r)
        } else if let Some(r) = t.strip_prefix("output ") {
            (false, r)
        } else {
            continue;
        };
        let rest = rest.trim().trim_end_matches(';').trim();
        let (range, names) = if let Some(r) = rest.strip_prefix('[') {
            let (rg, names) = r.split_once(']').unwrap_or(("", ""));
            let rg = rg
                .split_once(':')
                .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
            (rg, names)
        } else {
            (None, rest)
        };
        for n in names.split(',') {
            let n = n.trim();
            if !n.is_empty() {
                out.push(Port {
                    name: n.to_string(),
                    input,
                    range,
                });
            }
        }
    }
    out
}

/// Tcl quoting of a port/pin name for `get_ports`.
fn tcl_name(n: &str) -> String {
    format!("{{{n}}}")
}

/// Activity annotation of the power-analysis netlist: `(act port, (density, duty))`.
pub type PortActivities = Vec<(String, (f64, f64))>;

/// The OpenSTA script. With `net_act`, the power-analysis library copies and `power.v` are read
/// and every `act_N` port gets the simulated activity of its net ([`super::annotate`]).
pub fn script(
    spec: &FlowSpec,
    lib: &PreparedLibrary,
    opts: &FlowOptions,
    ports: &[Port],
    act: Option<&Activities>,
    net_act: Option<&PortActivities>,
) -> String {
    let mut s = String::new();
    let (libs, netlist) = match net_act {
        Some(_) => (&lib.power_files, "power.v"),
        None => (&lib.files, "netlist.v"),
    };
    for f in libs {
        let _ = writeln!(s, "read_liberty {}", tools::absolute(f).display());
    }
    let _ = writeln!(s, "read_verilog {netlist}");
    let _ = writeln!(s, "link_design {}", spec.top);
    let _ = writeln!(s, "set_cmd_units -time ns -power W");
    let period_ns = opts.clock_period_s * 1e9;
    let has_clk = spec
        .clock_port
        .as_ref()
        .is_some_and(|c| ports.iter().any(|p| p.input && &p.name == c));
    match (&spec.clock_port, has_clk) {
        (Some(c), true) => {
            let _ = writeln!(
                s,
                "create_clock -name clk -period {period_ns} [get_ports {}]",
                tcl_name(c)
            );
        }
        _ => {
            let _ = writeln!(s, "create_clock -name clk -period {period_ns}");
        }
    }
    let data_in: Vec<&Port> = ports
        .iter()
        .filter(|p| p.input && Some(&p.name) != spec.clock_port.as_ref())
        .collect();
    for p in &data_in {
        let _ = writeln!(
            s,
            "set_input_delay 0 -clock clk [get_ports {}]",
            tcl_name(&p.name)
        );
    }
    for p in ports.iter().filter(|p| !p.input) {
        let _ = writeln!(
            s,
            "set_output_delay 0 -clock clk [get_ports {}]",
            tcl_name(&p.name)
        );
    }
    // Activities must all be set before the first power report (OpenSTA caches the result).
    match act {
        Some(a) => {
            for p in &data_in {
                for b in p.bit_names() {
                    let (d, u) = a.get(&b).copied().unwrap_or((0.0, 0.0));
                    let _ = writeln!(
                        s,
                        "set_power_activity -input_ports [get_ports {}] -activity {d:.6} -duty {:.6}",
                        tcl_name(&b),
                        u.clamp(0.0, 1.0)
                    );
                }
            }
        }
        None => {
            let _ = writeln!(
                s,
                "set_power_activity -input -activity {} -duty 0.5",
                opts.default_activity
            );
        }
    }
    for (p, (d, u)) in net_act.into_iter().flatten() {
        let _ = writeln!(
            s,
            "set_power_activity -input_ports [get_ports {p}] -activity {d:.6} -duty {:.6}",
            u.clamp(0.0, 1.0)
        );
    }
    let _ = writeln!(
        s,
        "report_checks -path_delay max -digits 4 -format full > checks.rpt"
    );
    let _ = writeln!(s, "report_power -digits 6 > power.rpt");
    s
}

/// The power-analysis netlist `dir/power.v` and the activity of each of its `act_N` ports, from
/// the simulated activities of every net.
fn annotate_nets(
    spec: &FlowSpec,
    lib: &PreparedLibrary,
    dir: &Path,
    netlist: &str,
    nets: &Activities,
) -> Result<PortActivities, CalError> {
    let cells: std::collections::BTreeSet<String> = lib.info.cells.keys().cloned().collect();
    let insts = super::annotate::instances(netlist, &spec.top, &cells);
    let annotated = super::annotate::annotated_outputs(&lib.info);
    let (text, ports) = super::annotate::power_netlist(netlist, &spec.top, &insts, &annotated)?;
    write_text(&dir.join("power.v"), &text)?;
    let mut out = Vec::with_capacity(ports.len());
    for (port, net) in ports {
        let a = if net.is_empty() {
            (0.0, 0.0)
        } else {
            let key = net.replace(' ', "");
            *nets.get(&key).ok_or_else(|| {
                CalError::Invalid(format!(
                    "{}: net '{net}' of the netlist is not in the simulation dump",
                    dir.join("netlist.v").display()
                ))
            })?
        };
        out.push((port, a));
    }
    Ok(out)
}

/// Run OpenSTA in `dir`; writes `sta.tcl`, `sta.log`, `checks.rpt`, `power.rpt` (and
/// `power.v` when every net's activity is given).
pub fn analyse(
    spec: &FlowSpec,
    lib: &PreparedLibrary,
    dir: &Path,
    opts: &FlowOptions,
    act: Option<&super::stim::NetActivity>,
) -> Result<(), CalError> {
    let netlist = crate::error::read_text(&dir.join("netlist.v"))?;
    let ports = netlist_ports(&netlist, &spec.top);
    if ports.is_empty() {
        return Err(CalError::Invalid(format!(
            "{}: module '{}' has no ports in the netlist",
            dir.join("netlist.v").display(),
            spec.top
        )));
    }
    let net_act = match act {
        Some(a) => Some(annotate_nets(spec, lib, dir, &netlist, &a.nets)?),
        None => None,
    };
    write_text(
        &dir.join("sta.tcl"),
        &script(
            spec,
            lib,
            opts,
            &ports,
            act.map(|a| &a.inputs),
            net_act.as_ref(),
        ),
    )?;
    let mut cmd = Command::new("sta");
    cmd.arg("-no_splash").arg("-exit").arg("sta.tcl");
    let log = tools::run_logged(cmd, dir, &dir.join("sta.log"), "sta")?;
    if log.contains("Error:") {
        let tail: Vec<&str> = log
            .lines()
            .filter(|l| l.contains("Error"))
            .take(5)
            .collect();
        return Err(CalError::ToolFailed {
            tool: "sta".into(),
            status: "0 (errors in log)".into(),
            log: dir.join("sta.log"),
            tail: tail.join("\n"),
        });
    }
    // Tag the timing report with the unit set above, for the parser.
    let checks = dir.join("checks.rpt");
    let body = crate::error::read_text(&checks)?;
    write_text(&checks, &format!("# time_unit: ns\n{body}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_from_netlist() {
        let n = "module sub(x);\ninput x;\nendmodule\nmodule top(clk, a, y);\n  input clk;\n  input [3:0] a;\n  output [1:0] y;\nendmodule\n";
        let p = netlist_ports(n, "top");
        assert_eq!(p.len(), 3);
        assert_eq!(p[1].bit_names(), vec!["a[0]", "a[1]", "a[2]", "a[3]"]);
        assert!(!p[2].input);
    }
}
