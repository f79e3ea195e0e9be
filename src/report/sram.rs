//! Renderers of `gpuenergy sram`: the table, JSON and CSV of one SRAM array's figures, and the
//! CACTI-named header and rows of a batch run.
//!
//! Figures arrive in SI units ([`SramResult`]) and leave in the units their labels name (mm^2,
//! mm, ns, pJ or nJ, mW). The total leakage is the banks' own leakage plus the top-level route
//! they share, counted once: `leakage_mw` = banks × `leakage_per_bank_mw` +
//! `leakage_shared_route_mw` in every format (the batch CSV keeps CACTI's per-bank column, which
//! includes the route to the bank).

use models::sram::reference::ConfigRow;
use models::sram::{ComponentCost, SramResult, SramSpec};
use std::fmt::Write;

/// The JSON of one array: totals, organisation and the per-component breakdown.
pub fn json(r: &SramResult) -> serde_json::Value {
    let comp = |c: &ComponentCost| {
        serde_json::json!({
            "area_mm2": c.area_m2 * 1e6,
            "read_pj": c.read_energy_j * 1e12,
            "write_pj": c.write_energy_j * 1e12,
            "leakage_mw": c.leakage_w * 1e3,
            "delay_ns": c.delay_s * 1e9,
        })
    };
    let b = &r.breakdown;
    let o = &r.organisation;
    serde_json::json!({
        "area_mm2": r.area_m2 * 1e6,
        "height_mm": r.height_m * 1e3,
        "width_mm": r.width_m * 1e3,
        "access_ns": r.access_time_s * 1e9,
        "cycle_ns": r.cycle_time_s * 1e9,
        "read_pj": r.read_energy_j * 1e12,
        "write_pj": r.write_energy_j * 1e12,
        "leakage_mw": r.leakage_w * 1e3,
        "leakage_per_bank_mw": per_bank_w(r) * 1e3,
        "leakage_shared_route_mw": r.leakage_top_route_w * 1e3,
        "organisation": {
            "ndwl": o.ndwl, "ndbl": o.ndbl, "nspd": o.nspd, "mux_bl": o.mux_bl,
            "rows": o.rows, "cols": o.cols,
        },
        "breakdown": {
            "decoder": comp(&b.decoder),
            "wordline": comp(&b.wordline),
            "bitline": comp(&b.bitline),
            "sense_amp": comp(&b.sense_amp),
            "mux": comp(&b.mux),
            "routing": comp(&b.routing),
            "cells": comp(&b.cells),
        },
    })
}

/// One bank's own leakage, without the top-level route the banks share (W).
fn per_bank_w(r: &SramResult) -> f64 {
    r.leakage_bank_w - r.leakage_top_route_w
}

/// The CSV of one array: a header row and one row of totals, each line ending in a newline.
pub fn csv(r: &SramResult) -> String {
    format!(
        "area_mm2,height_mm,width_mm,access_ns,cycle_ns,read_pj,write_pj,leakage_mw,leakage_per_bank_mw,leakage_shared_route_mw\n{},{},{},{},{},{},{},{},{},{}\n",
        r.area_m2 * 1e6,
        r.height_m * 1e3,
        r.width_m * 1e3,
        r.access_time_s * 1e9,
        r.cycle_time_s * 1e9,
        r.read_energy_j * 1e12,
        r.write_energy_j * 1e12,
        r.leakage_w * 1e3,
        per_bank_w(r) * 1e3,
        r.leakage_top_route_w * 1e3
    )
}

/// The fixed-width text of one array: the specification on `node`, the organisation, the
/// totals, the per-component breakdown, and the lane slices and design supply (`design_vdd_v`,
/// volts) the array was organised for.
pub fn table(spec: &SramSpec, node: &str, r: &SramResult, lanes: u32, design_vdd_v: f64) -> String {
    let mut out = String::new();
    let o = &r.organisation;
    let _ = writeln!(
        out,
        "SRAM {} B, {} B/access, {} rw + {} r + {} w ports, {} bank(s), {:?}, {}",
        spec.capacity_bytes,
        spec.block_bytes,
        spec.rw_ports,
        spec.read_ports,
        spec.write_ports,
        spec.banks,
        spec.cell,
        node
    );
    let _ = writeln!(
        out,
        "organisation: Ndwl {} Ndbl {} Nspd {} (bitline mux {}), subarray {} x {}",
        o.ndwl, o.ndbl, o.nspd, o.mux_bl, o.rows, o.cols
    );
    let _ = writeln!(
        out,
        "{:<22}{:>14}",
        "area (mm^2)",
        format!("{:.6}", r.area_m2 * 1e6)
    );
    let _ = writeln!(
        out,
        "{:<22}{:>14}",
        "height x width (mm)",
        format!("{:.4} x {:.4}", r.height_m * 1e3, r.width_m * 1e3)
    );
    for (label, value) in [
        ("access time (ns)", r.access_time_s * 1e9),
        ("cycle time (ns)", r.cycle_time_s * 1e9),
        ("read energy (pJ)", r.read_energy_j * 1e12),
        ("write energy (pJ)", r.write_energy_j * 1e12),
        ("leakage (mW)", r.leakage_w * 1e3),
        ("leakage per bank (mW)", per_bank_w(r) * 1e3),
        ("shared route (mW)", r.leakage_top_route_w * 1e3),
    ] {
        let _ = writeln!(out, "{label:<22}{value:>14.4}");
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<11}{:>12}{:>12}{:>12}{:>12}{:>12}",
        "component", "area mm^2", "read pJ", "write pJ", "leak mW", "delay ns"
    );
    let b = &r.breakdown;
    for (name, c) in [
        ("decoder", &b.decoder),
        ("wordline", &b.wordline),
        ("bitline", &b.bitline),
        ("sense amp", &b.sense_amp),
        ("mux", &b.mux),
        ("routing", &b.routing),
        ("cells", &b.cells),
    ] {
        let _ = writeln!(
            out,
            "{:<11}{:>12.6}{:>12.4}{:>12.4}{:>12.4}{:>12.4}",
            name,
            c.area_m2 * 1e6,
            c.read_energy_j * 1e12,
            c.write_energy_j * 1e12,
            c.leakage_w * 1e3,
            c.delay_s * 1e9
        );
    }
    let _ = writeln!(
        out,
        "\n{lanes} lane slice(s); designed at {design_vdd_v:.3} V"
    );
    out
}

/// The header line (no newline) of a batch run: the input columns, then CACTI-named outputs and
/// the model's run time per row.
pub fn batch_header(input_columns: &[&str]) -> String {
    format!(
        "{},access_ns,cycle_ns,read_nJ,write_nJ,leak_bank_mW,gate_leak_bank_mW,height_mm,width_mm,model_seconds",
        input_columns.join(",")
    )
}

/// One row (no newline) of a batch run: the configuration as read, the array's figures, and
/// `model_seconds`, the wall time the model took on the row. The subthreshold leakage column
/// is the bank leakage less its gate part, as CACTI reports them apart.
pub fn batch_row(cfg: &ConfigRow, r: &SramResult, model_seconds: f64) -> String {
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.6e}",
        cfg.tech_um,
        cfg.size_bytes,
        cfg.block_bytes,
        cfg.rw_ports,
        cfg.read_ports,
        cfg.write_ports,
        cfg.banks,
        cfg.cell_type,
        r.access_time_s * 1e9,
        r.cycle_time_s * 1e9,
        r.read_energy_j * 1e9,
        r.write_energy_j * 1e9,
        (r.leakage_bank_w - r.gate_leakage_bank_w) * 1e3,
        r.gate_leakage_bank_w * 1e3,
        r.height_m * 1e3,
        r.width_m * 1e3,
        model_seconds
    )
}
