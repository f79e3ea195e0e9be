//! Yosys synthesis script and run.

use super::{tools, FlowSpec, PreparedLibrary};
use crate::error::{write_text, CalError};
use std::path::Path;
use std::process::Command;

/// The Yosys script for `spec` against `lib` (paths absolute).
pub fn script(spec: &FlowSpec, lib: &PreparedLibrary) -> String {
    let merged = lib.merged.display();
    let mut s = String::new();
    for f in &spec.files {
        s.push_str(&format!(
            "read_verilog -defer {}\n",
            tools::absolute(f).display()
        ));
    }
    for (k, v) in &spec.chparams {
        s.push_str(&format!("chparam -set {k} {v} {}\n", spec.top));
    }
    s.push_str(&format!("synth -top {} -flatten\n", spec.top));
    for c in &spec.yosys_extra {
        s.push_str(c);
        s.push('\n');
    }
    if lib.latch_techmap().is_some() {
        s.push_str("techmap -map latch_map.v\n");
    }
    s.push_str(&format!("dfflibmap -liberty {merged}\n"));
    s.push_str("opt -purge\n");
    s.push_str(&format!("abc -liberty {merged}\n"));
    s.push_str("opt_clean -purge\n");
    if let (Some((hi, hp)), Some((lo, lp))) = (&lib.tie_hi, &lib.tie_lo) {
        s.push_str(&format!(
            "hilomap -singleton -hicell {hi} {hp} -locell {lo} {lp}\n"
        ));
    }
    s.push_str("setundef -zero\n");
    s.push_str("check\n");
    s.push_str(&format!("tee -q -o stat.txt stat -liberty {merged}\n"));
    s.push_str(&format!(
        "tee -q -o stat.json stat -json -liberty {merged}\n"
    ));
    s.push_str("write_verilog -noattr -noexpr netlist.v\n");
    s
}

/// Run Yosys in `dir`; writes `synth.ys`, `yosys.log`, `stat.txt`, `stat.json`, `netlist.v`.
pub fn synthesise(spec: &FlowSpec, lib: &PreparedLibrary, dir: &Path) -> Result<(), CalError> {
    if let Some(m) = lib.latch_techmap() {
        write_text(&dir.join("latch_map.v"), &m)?;
    }
    let ys = dir.join("synth.ys");
    write_text(&ys, &script(spec, lib))?;
    let mut cmd = Command::new("yosys");
    cmd.arg("-q").arg("-s").arg("synth.ys");
    tools::run_logged(cmd, dir, &dir.join("yosys.log"), "yosys")?;
    for f in ["stat.txt", "stat.json", "netlist.v"] {
        if !dir.join(f).exists() {
            return Err(CalError::ToolFailed {
                tool: "yosys".into(),
                status: "0".into(),
                log: dir.join("yosys.log"),
                tail: format!("{f} was not written"),
            });
        }
    }
    Ok(())
}
