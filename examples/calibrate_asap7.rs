//! Calibration against synthesis: fits every logic component's parametric form to the ASAP7
//! synthesis records committed in `calibration/goldens/asap7-rvt-tt` (yosys + OpenSTA runs of
//! the Verilog in `calibration/rtl/`), prints the fitted coefficients with their leave-one-out
//! errors, then prices a few components at their default sizes with the analytical models and
//! with the fitted overlay, side by side. Writes the overlay and the predicted-vs-synthesised
//! parity plots. Needs no synthesis tools: the records are already in the repository
//! (`gpuenergy synth --component all --sweep` regenerates them where yosys and OpenSTA exist).
//!
//! `cargo run --release --example calibrate_asap7 [-- --out DIR]`

#[path = "common/mod.rs"]
mod common;

use models::logic::{model, resolve_params, LogicKind};
use std::collections::BTreeMap;
use std::path::Path;

fn main() -> anyhow::Result<()> {
    let k = common::Knobs::parse_with("none");
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration/goldens/asap7-rvt-tt");
    let collected = calibration::collect::collect_all(&goldens)?;
    anyhow::ensure!(
        collected.dropped.is_empty(),
        "{} corrupt record(s) under {}",
        collected.dropped.len(),
        goldens.display()
    );
    println!(
        "{} synthesis records from {}\n",
        collected.records.len(),
        goldens.display()
    );
    let fit = calibration::fit::fit_records("asap7", &collected.records)?;
    print!("{}", gpuenergy::report::calibration::to_table(&fit));

    // The same components priced by the analytical model and by the overlay, at asap7 RVT and
    // its nominal supply.
    let node = techlib::node("asap7")?;
    let tech = node.at(&techlib::Conditions::new(techlib::Flavour::Rvt))?;
    let mut rows = Vec::new();
    for kind in [
        LogicKind::parse("alu32"),
        LogicKind::parse("fadd32"),
        LogicKind::parse("crossbar"),
        LogicKind::parse("dep_matrix"),
        LogicKind::parse("pg_controller"),
    ]
    .into_iter()
    .flatten()
    {
        let p = resolve_params(kind, &BTreeMap::new())?;
        let a = model(kind, &p, &tech, None)?;
        let c = model(kind, &p, &tech, Some(&fit.overlay))?;
        rows.push(vec![
            kind.name().to_string(),
            format!("{:.1}", a.area_m2 * 1e12),
            format!("{:.1}", c.area_m2 * 1e12),
            format!("{:.3}", a.leakage_w * 1e6),
            format!("{:.3}", c.leakage_w * 1e6),
            format!("{:.3}", a.energy_per_op_j * 1e12),
            format!("{:.3}", c.energy_per_op_j * 1e12),
        ]);
    }
    println!(
        "\nasap7 RVT at {:.2} V, default sizes: analytical vs calibrated",
        tech.vdd_v()
    );
    common::print_table(
        &[
            "component",
            "area µm² (model)",
            "(calibrated)",
            "leakage µW (model)",
            "(calibrated)",
            "pJ/op (model)",
            "(calibrated)",
        ],
        &rows,
    );
    let dir = k.out_dir("calibrate_asap7")?;
    let overlay = dir.join("overlay.toml");
    fit.overlay.save(&overlay)?;
    println!("\noverlay: {}", overlay.display());
    for p in gpuenergy::report::plot::write_parity_plots(&fit, &dir)? {
        println!("plot: {}", p.display());
    }
    Ok(())
}
