//! Execution-unit power gating on the GTX480 at 40 nm: conventional idle-detect gating, the
//! gating-aware GATES scheduler, and Warped-Gates (GATES + coordinated blackout + adaptive idle
//! detect), each against the two-level scheduler without gating. Prints, per technique, the run
//! time overhead, the INT and FP execution units' static-energy savings (gating overhead
//! charged), the share of idle cycles in runs long enough to pay off (region C), and the change
//! of total energy and EDP; writes the `compare` plots.
//!
//! `cargo run --release --example warped_gates [-- --workload all --size bench]`

#[path = "common/mod.rs"]
mod common;

fn main() -> anyhow::Result<()> {
    let k = common::Knobs::parse_with("hotspot,backprop");
    let c = common::compare(
        "gtx480",
        techlib::ResolvedPoint::named("40nm").unwrap(),
        "two-level",
        &["conv-pg", "gates", "warped-gates"],
        &[],
        None,
        &k,
    )?;
    common::print_header(&c, &k);
    let rows: Vec<Vec<String>> = c
        .variants
        .iter()
        .map(|v| {
            let a = &v.aggregate;
            let region_c = |r: &Option<gpuenergy::compare::IdleRegions>| {
                r.as_ref()
                    .map(|r| format!("{:.1} %", 100.0 * r.by_cycles[2]))
                    .unwrap_or_else(|| "—".into())
            };
            vec![
                v.name.clone(),
                common::pct(Some(a.perf_overhead)),
                common::pct(a.static_savings.int),
                common::pct(a.static_savings.fp),
                region_c(&a.idle_regions.int),
                common::pct(Some(a.energy_change)),
                common::pct(Some(a.edp_change)),
            ]
        })
        .collect();
    common::print_table(
        &[
            "technique",
            "perf overhead",
            "INT static saving",
            "FP static saving",
            "INT idle cycles in C",
            "energy",
            "EDP",
        ],
        &rows,
    );
    let dir = k.out_dir("warped_gates")?;
    let mut run = gpuenergy::provenance::RunInfo::new();
    run.config_name = c.gpu.clone();
    run.size = c.size.clone();
    for p in gpuenergy::report::compare::write_plots(&dir, &c, &run)? {
        println!("plot: {}", p.display());
    }
    Ok(())
}
