//! Switching activity from the component's stimulus testbench, run on the mapped gate-level
//! netlist: the netlist (with the size parameters declared, so the testbench's overrides
//! apply) and zero-delay Verilog models of its cells generated from the liberty descriptions
//! ([`super::cellmodel`]) are compiled with the testbench in iverilog, vvp runs with
//! `+vcd=FILE +vcddepth=1` (the DUT's own nets, not the cell models' insides), and the dump gives
//! every net's toggle density (0↔1 transitions per clock cycle) and duty (fraction of time at 1).

use super::sta::Port;
use super::{tools, FlowSpec, Testbench};
use crate::error::{read_text, CalError};
use crate::vcd::Vcd;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// `(density, duty)` per net bit, keyed `name[i]` (or `name` for scalars).
pub type Activities = BTreeMap<String, (f64, f64)>;

/// Switching activity of a simulated netlist.
#[derive(Debug, Clone, Default)]
pub struct NetActivity {
    /// Every net of the DUT scope (ports and internal nets).
    pub nets: Activities,
    /// The DUT's input ports only (clock excluded).
    pub inputs: Activities,
}

/// The mapped netlist with `parameter NAME = VALUE;` declared for every size parameter, so that
/// the testbench's parameter overrides of the DUT apply to it.
pub fn sim_netlist(netlist: &str, top: &str, params: &BTreeMap<String, u32>) -> String {
    let mut s = String::with_capacity(netlist.len() + 64);
    let mut in_top = false;
    let mut done = false;
    for l in netlist.lines() {
        s.push_str(l);
        s.push('\n');
        let t = l.trim();
        if let Some(r) = t.strip_prefix("module ") {
            in_top = r.split(|c: char| c == '(' || c.is_whitespace()).next() == Some(top);
        }
        if in_top && !done && t.ends_with(");") {
            for (k, v) in params {
                s.push_str(&format!("  parameter {k} = {v};\n"));
            }
            done = true;
        }
    }
    s
}

/// Simulate the gate-level netlist `dir/netlist.v` under the testbench and return the
/// activities of every net (the input ports' are also written to `activity.txt`).
pub fn simulate(
    spec: &FlowSpec,
    tb: &Testbench,
    dir: &Path,
    cycles: u32,
    ports: &[Port],
    lib: &super::PreparedLibrary,
) -> Result<NetActivity, CalError> {
    let netlist = read_text(&dir.join("netlist.v"))?;
    let lib_cells: std::collections::BTreeSet<String> = lib.info.cells.keys().cloned().collect();
    let used: std::collections::BTreeSet<String> =
        super::annotate::instances(&netlist, &spec.top, &lib_cells)
            .into_iter()
            .map(|i| i.cell)
            .collect();
    crate::error::write_text(
        &dir.join("cells.v"),
        &super::cellmodel::models(&lib.info, &used)?,
    )?;
    crate::error::write_text(
        &dir.join("netlist_sim.v"),
        &sim_netlist(&netlist, &spec.top, &spec.chparams),
    )?;
    drop(netlist);
    let mut cmd = Command::new("iverilog");
    cmd.arg("-g2012")
        .arg("-o")
        .arg("sim.vvp")
        .arg("-s")
        .arg(&tb.top);
    if tb.takes_params {
        for (k, v) in &spec.chparams {
            cmd.arg(format!("-P{}.{}={}", tb.top, k, v));
        }
    }
    for f in &tb.files {
        cmd.arg(tools::absolute(f));
    }
    cmd.arg("netlist_sim.v").arg("cells.v");
    tools::run_logged(cmd, dir, &dir.join("iverilog.log"), "iverilog")?;
    let mut run = Command::new("vvp");
    run.arg("-n").arg("sim.vvp");
    for p in &tb.plusargs {
        run.arg(p);
    }
    run.arg(format!("+cycles={cycles}"))
        .arg("+vcd=stim.vcd")
        .arg("+vcddepth=1");
    tools::run_logged(run, dir, &dir.join("sim.log"), "vvp")?;
    let vcd_path = dir.join("stim.vcd");
    let text = read_text(&vcd_path)?;
    let vcd = Vcd::parse(&text, &vcd_path)?;
    drop(text);
    let inputs: Vec<&Port> = ports.iter().filter(|p| p.input).collect();
    // The DUT scope: as given, or the scope declaring the most input port names.
    let scope = if !tb.dut_scope.is_empty() {
        tb.dut_scope.clone()
    } else {
        vcd.scopes()
            .into_iter()
            .max_by_key(|s| {
                let names: Vec<&str> = vcd.scope_vars(s).map(|v| v.name.as_str()).collect();
                (
                    inputs
                        .iter()
                        .filter(|p| names.contains(&p.name.as_str()))
                        .count(),
                    std::cmp::Reverse(s.len()),
                )
            })
            .unwrap_or_default()
    };
    // Clock cycles covered: rising edges of the DUT's clock; a combinational DUT has none, and
    // then the testbench applies one vector per cycle for the `+cycles` it was given.
    let n_cycles = match spec.clock_port.as_deref() {
        Some(clk) => vcd
            .scope_vars(&scope)
            .find(|v| v.name == clk)
            .map(|v| vcd.stats[&v.id][0].rises as f64)
            .filter(|&r| r > 0.0)
            .ok_or_else(|| {
                CalError::Invalid(format!(
                    "{}: no toggling clock '{clk}' in scope {} of the stimulus dump",
                    vcd_path.display(),
                    scope.join(".")
                ))
            })?,
        None => cycles as f64,
    };
    let all = vcd.activities(&scope, n_cycles);
    let mut out = Activities::new();
    for p in &inputs {
        if Some(p.name.as_str()) == spec.clock_port.as_deref() {
            continue;
        }
        for key in p.bit_names() {
            if let Some(a) = all.get(&key) {
                out.insert(key, *a);
            }
        }
    }
    if out.is_empty() {
        return Err(CalError::Invalid(format!(
            "{}: none of the DUT's input ports were found in scope {}",
            vcd_path.display(),
            scope.join(".")
        )));
    }
    let mut txt = format!(
        "# scope {} cycles {}\n# pin density duty\n",
        scope.join("."),
        n_cycles
    );
    for (k, (d, u)) in &out {
        txt.push_str(&format!("{k} {d:.6} {u:.6}\n"));
    }
    crate::error::write_text(&dir.join("activity.txt"), &txt)?;
    // The dump can be large; the per-net activities are what the analysis needs.
    let _ = std::fs::remove_file(&vcd_path);
    Ok(NetActivity {
        nets: all,
        inputs: out,
    })
}
