//! The flow's view of the calibration components: RTL files, top module, size parameters and
//! their sweep grids, operations per cycle and the stimulus testbench, for each kind of
//! `models::logic::LogicKind` that has Verilog under `calibration/rtl/`.
//!
//! Sweep grids have at least five points per size parameter; two-parameter components sweep
//! each parameter across the other's default (a cross through the default point), which
//! identifies the product and the separate terms of the forms without a full grid. Sizes are
//! bounded so that one synthesis stays within about 30 s on one core.
//!
//! Every component completes one operation per cycle (one result, one read/write cycle, one
//! lookup, one transfer per output, one grant, one check), so energy per operation is the
//! energy per clock cycle.

use super::{FlowSpec, Testbench};
use crate::error::CalError;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Directory of the calibration RTL.
pub fn rtl_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rtl")
}

struct Entry {
    name: &'static str,
    /// Fixed (non-swept) parameters passed to chparam.
    fixed: &'static [(&'static str, u32)],
    /// Default sizes.
    defaults: &'static [(&'static str, u32)],
    /// Grid per size parameter (crossed through the defaults).
    grid: &'static [(&'static str, &'static [u32])],
    extra_files: &'static [&'static str],
}

const FP: &[&str] = &["fp_common.v"];

const ENTRIES: &[Entry] = &[
    Entry { name: "alu32", fixed: &[], defaults: &[("WIDTH", 32)], grid: &[("WIDTH", &[8, 16, 24, 32, 48, 64])], extra_files: &[] },
    Entry { name: "imul32", fixed: &[], defaults: &[("WIDTH", 32)], grid: &[("WIDTH", &[8, 12, 16, 20, 24, 32])], extra_files: &[] },
    Entry { name: "fadd32", fixed: &[], defaults: &[], grid: &[], extra_files: FP },
    Entry { name: "fmul32", fixed: &[], defaults: &[], grid: &[], extra_files: FP },
    Entry { name: "ffma32", fixed: &[], defaults: &[], grid: &[], extra_files: FP },
    Entry { name: "sfu_lane", fixed: &[], defaults: &[("TBITS", 6)], grid: &[("TBITS", &[3, 4, 5, 6, 7])], extra_files: &[] },
    Entry {
        name: "flop_array",
        fixed: &[("RPORTS", 2), ("WPORTS", 1)],
        defaults: &[("ENTRIES", 16), ("WIDTH", 32)],
        grid: &[("ENTRIES", &[4, 8, 12, 16, 24, 32]), ("WIDTH", &[8, 16, 24, 32, 64])],
        extra_files: &[],
    },
    Entry {
        name: "latch_array",
        fixed: &[("RPORTS", 2), ("WPORTS", 1)],
        defaults: &[("ENTRIES", 16), ("WIDTH", 32)],
        grid: &[("ENTRIES", &[4, 8, 12, 16, 24, 32]), ("WIDTH", &[8, 16, 24, 32, 64])],
        extra_files: &[],
    },
    Entry {
        name: "cam",
        fixed: &[],
        defaults: &[("ENTRIES", 16), ("WIDTH", 32)],
        grid: &[("ENTRIES", &[4, 8, 12, 16, 24, 32]), ("WIDTH", &[8, 16, 24, 32, 48])],
        extra_files: &[],
    },
    Entry {
        name: "crossbar",
        fixed: &[],
        defaults: &[("N", 4), ("WIDTH", 32)],
        grid: &[("N", &[2, 3, 4, 6, 8]), ("WIDTH", &[8, 16, 32, 48, 64])],
        extra_files: &[],
    },
    Entry { name: "arb_rr", fixed: &[], defaults: &[("N", 8)], grid: &[("N", &[2, 4, 8, 16, 32, 64])], extra_files: &[] },
    Entry { name: "arb_fixed", fixed: &[], defaults: &[("N", 8)], grid: &[("N", &[2, 4, 8, 16, 32, 64])], extra_files: &[] },
    Entry { name: "dep_matrix", fixed: &[], defaults: &[("N", 8)], grid: &[("N", &[4, 8, 12, 16, 24, 32])], extra_files: &[] },
    Entry {
        name: "scoreboard",
        fixed: &[],
        defaults: &[("NREGS", 64), ("NSRC", 3)],
        grid: &[("NREGS", &[16, 32, 64, 96, 128, 256]), ("NSRC", &[1, 2, 3, 4, 5])],
        extra_files: &[],
    },
    Entry {
        name: "pg_controller",
        fixed: &[],
        defaults: &[("BET_W", 5), ("IDLE_W", 4)],
        grid: &[("IDLE_W", &[2, 3, 4, 6, 8]), ("BET_W", &[4, 5, 6, 7, 8])],
        extra_files: &[],
    },
];

fn entry(name: &str) -> Result<&'static Entry, CalError> {
    ENTRIES.iter().find(|e| e.name == name).ok_or_else(|| {
        CalError::Invalid(format!("unknown component '{name}'; known: {}", names().join(", ")))
    })
}

/// Names of the components with RTL, in a fixed order.
pub fn names() -> Vec<String> {
    ENTRIES.iter().map(|e| e.name.to_string()).collect()
}

/// The default sweep: the default point plus each size parameter over its grid with the others
/// at their defaults (deduplicated, sorted).
pub fn sweep(name: &str) -> Result<Vec<BTreeMap<String, u32>>, CalError> {
    let e = entry(name)?;
    let base: BTreeMap<String, u32> = e.defaults.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let mut pts = vec![base.clone()];
    for (p, grid) in e.grid {
        for v in *grid {
            let mut q = base.clone();
            q.insert(p.to_string(), *v);
            pts.push(q);
        }
    }
    pts.sort();
    pts.dedup();
    Ok(pts)
}

/// The flow specification of `name` at sizes `params` (missing sizes take defaults).
pub fn spec(name: &str, params: &BTreeMap<String, u32>) -> Result<FlowSpec, CalError> {
    let e = entry(name)?;
    let mut p: BTreeMap<String, u32> = e.defaults.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    for (k, v) in params {
        if !p.contains_key(k) {
            return Err(CalError::Invalid(format!(
                "{name} has no size parameter '{k}' (its parameters: {})",
                if p.is_empty() { "none".to_string() } else { p.keys().cloned().collect::<Vec<_>>().join(", ") }
            )));
        }
        if *v == 0 {
            return Err(CalError::Invalid(format!("{name}: {k} must be at least 1")));
        }
        p.insert(k.clone(), *v);
    }
    let dir = rtl_dir();
    let mut files = vec![dir.join(format!("{name}.v"))];
    files.extend(e.extra_files.iter().map(|f| dir.join(f)));
    for f in &files {
        if !f.exists() {
            return Err(CalError::Invalid(format!("RTL file {} is missing", f.display())));
        }
    }
    let tb_file = dir.join("tb").join(format!("{name}_tb.v"));
    let testbench = tb_file.exists().then(|| Testbench {
        top: format!("{name}_tb"),
        files: [dir.join("tb").join("timescale.v"), tb_file].into_iter().filter(|f| f.exists()).collect(),
        plusargs: vec!["+stim".into()],
        dut_scope: vec![format!("{name}_tb"), "dut".into()],
        takes_params: !e.defaults.is_empty(),
    });
    // Fixed parameters are passed to chparam too but are not part of the record's sizes.
    let mut chparams = p.clone();
    for (k, v) in e.fixed {
        chparams.insert(k.to_string(), *v);
    }
    Ok(FlowSpec {
        kind: name.to_string(),
        top: name.to_string(),
        files,
        params: p,
        chparams,
        ops_per_cycle: 1.0,
        // Dropped by the flow when the synthesised block has no such port.
        clock_port: Some("clk".to_string()),
        testbench,
        yosys_extra: vec![],
    })
}
