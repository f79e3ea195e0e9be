//! One technique across technologies: Warped-Gates (GATES + coordinated blackout + adaptive idle
//! detect) against the two-level scheduler on the GTX480 at planar 45, 32, 22 and 16 nm and at
//! 7 nm FinFET at super- and near-threshold supply, with the break-even time and wake-up latency
//! derived at each point from the sleep-transistor model (`pg.timing = "Physical"`). Prints,
//! per point, the derived BET and W, the INT and FP static-energy savings, the run-time
//! overhead and the change of total energy; plots the savings per node.
//!
//! `cargo run --release --example sweep_nodes [-- --workload all --size bench]`

#[path = "common/mod.rs"]
mod common;

use gpuenergy::study::Study;
use gpuenergy::study_config::StudyConfig;

fn main() -> anyhow::Result<()> {
    let k = common::Knobs::parse_with("hotspot");
    let points: [(&str, Option<&str>); 6] = [
        ("planar45", None),
        ("planar32", None),
        ("planar22", None),
        ("planar16", None),
        ("finfet7", Some("stv")),
        ("finfet7", Some("ntv")),
    ];
    let set = [("pg.timing", "Physical")];
    let mut rows = Vec::new();
    let mut labels = Vec::new();
    let mut series: Vec<(String, Vec<f64>)> =
        ["INT static saving", "FP static saving", "energy change"]
            .iter()
            .map(|s| (s.to_string(), Vec::new()))
            .collect();
    for (node, op) in points {
        let tech = techlib::ResolvedPoint::resolve(node, None, None, op, None).unwrap();
        let label = match op {
            Some(o) => format!("{node} {o}"),
            None => node.to_string(),
        };
        // the BET and W the simulator is given at this point
        let (_, planned) = gpuenergy::compare::plan(
            &StudyConfig::preset("gtx480")?,
            "two-level",
            &["warped-gates".to_string()],
            &set.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect::<Vec<_>>(),
            None,
        )?;
        let study = Study::new(planned[0].config.clone(), tech.clone(), None);
        let chip = study.chip(&study.cost_source()?)?;
        let timed = study.timed_config(&chip)?;
        let c = common::compare(
            "gtx480",
            tech,
            "two-level",
            &["warped-gates"],
            &set,
            None,
            &k,
        )?;
        let a = &c.variants[0].aggregate;
        rows.push(vec![
            label.clone(),
            format!("{:.0}", chip.core_clock_hz / 1e6),
            timed.pg.bet.to_string(),
            timed.pg.wakeup.to_string(),
            common::pct(a.static_savings.int),
            common::pct(a.static_savings.fp),
            common::pct(Some(a.perf_overhead)),
            common::pct(Some(a.energy_change)),
        ]);
        labels.push(label);
        series[0]
            .1
            .push(100.0 * a.static_savings.int.unwrap_or(0.0));
        series[1].1.push(100.0 * a.static_savings.fp.unwrap_or(0.0));
        series[2].1.push(100.0 * a.energy_change);
    }
    println!(
        "Warped-Gates against two-level, GTX480, {} size (workloads: {})\n",
        k.size,
        k.workloads()
    );
    common::print_table(
        &[
            "technology",
            "clock (MHz)",
            "BET (cycles)",
            "W (cycles)",
            "INT static saving",
            "FP static saving",
            "perf overhead",
            "energy",
        ],
        &rows,
    );
    let dir = k.out_dir("sweep_nodes")?;
    let p = dir.join("sweep_nodes.svg");
    gpuenergy::report::compare::grouped_bars(
        &p,
        "Warped-Gates across technologies (GTX480)",
        &format!("gtx480, test size, gpuenergy {}", env!("CARGO_PKG_VERSION")),
        "technology",
        "saving or change (%)",
        &labels,
        &series,
    )?;
    println!("plot: {}", p.display());
    Ok(())
}
