//! The partitioned register file on the GTX780 at 7 nm FinFET: a fast FRF at STV for the
//! registers a pilot warp finds hottest and a slow SRF at NTV for the rest, with and without the
//! adaptive FRF, against the monolithic RF at STV; the monolithic RF at NTV for comparison.
//! Prints the register file's dynamic, leakage and total savings (energy basis, mean over the
//! workloads), the share of accesses served by each part, the run-time overhead and the
//! register-file area; plots the savings.
//!
//! `cargo run --release --example partitioned_rf [-- --workload all --size bench]`

#[path = "common/mod.rs"]
mod common;

fn main() -> anyhow::Result<()> {
    let k = common::Knobs::parse_with("hotspot,sgemm");
    let tech = techlib::ResolvedPoint::resolve("finfet7", None, None, Some("stv"), None).unwrap();
    let c = common::compare(
        "gtx780",
        tech,
        "mrf-stv",
        &["partitioned-rf", "adaptive-frf", "mrf-ntv"],
        &[],
        None,
        &k,
    )?;
    common::print_header(&c, &k);
    let mut labels = Vec::new();
    let mut series: Vec<(String, Vec<f64>)> = ["dynamic", "leakage", "total"]
        .iter()
        .map(|s| (format!("{s} saving"), Vec::new()))
        .collect();
    let mut rows = Vec::new();
    for v in &c.variants {
        let a = &v.aggregate;
        let Some(rf) = &a.rf else { continue };
        let s = &rf.savings;
        let split = rf
            .access_split
            .map(|x| {
                format!(
                    "{:.0}/{:.0}/{:.0}",
                    100.0 * x.frf_high,
                    100.0 * x.frf_low,
                    100.0 * x.srf
                )
            })
            .unwrap_or_else(|| "—".into());
        rows.push(vec![
            v.name.clone(),
            common::pct(Some(s.dynamic.mean)),
            common::pct(Some(s.leakage.mean)),
            common::pct(Some(s.total.mean)),
            split,
            common::pct(Some(a.perf_overhead)),
            format!("{:.3}", rf.rf_area_mm2),
        ]);
        labels.push(v.name.clone());
        for (i, x) in [s.dynamic.mean, s.leakage.mean, s.total.mean]
            .iter()
            .enumerate()
        {
            series[i].1.push(100.0 * x);
        }
    }
    common::print_table(
        &[
            "technique",
            "RF dynamic saving",
            "RF leakage saving",
            "RF total saving",
            "FRF high/low/SRF (%)",
            "perf overhead",
            "RF area (mm²)",
        ],
        &rows,
    );
    let dir = k.out_dir("partitioned_rf")?;
    let p = dir.join("rf_savings.svg");
    gpuenergy::report::compare::grouped_bars(
        &p,
        &format!("register-file savings, {} at {}", c.gpu, c.tech),
        &format!("gpuenergy {}", env!("CARGO_PKG_VERSION")),
        "variant",
        "saving against MRF at STV (%)",
        &labels,
        &series,
    )?;
    println!("plot: {}", p.display());
    Ok(())
}
