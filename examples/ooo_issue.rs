//! Out-of-order issue on the GTX 1080 Ti at 16 nm: SOCGPU (per-warp out-of-order issue from an
//! N-entry instruction buffer with a dependence matrix, N = 2, 4, 8) and LOOG (collector units
//! as reservation stations), each against the in-order scoreboard. Prints the speed-up, the
//! area the issue structures add per SM (and as a share of the SM), the change of the issue
//! structures' energy and what that change is of the whole chip's energy; plots speed-up and
//! area.
//!
//! `cargo run --release --example ooo_issue [-- --workload all --size bench]`

#[path = "common/mod.rs"]
mod common;

fn main() -> anyhow::Result<()> {
    let k = common::Knobs::parse_with("sgemm,hotspot");
    let tech = techlib::ResolvedPoint::named("planar16").unwrap();
    let socgpu = common::compare(
        "gtx1080ti",
        tech.clone(),
        "none",
        &["socgpu"],
        &[],
        Some(("sched.ooo.ib_depth", &["2", "4", "8"])),
        &k,
    )?;
    let loog = common::compare("gtx1080ti", tech, "none", &["loog"], &[], None, &k)?;
    println!(
        "{} at {}, {} size, against the in-order issue stage (workloads: {})\n",
        socgpu.gpu,
        socgpu.tech,
        socgpu.size,
        k.workloads()
    );
    let mut rows = Vec::new();
    let mut labels = Vec::new();
    let mut speedup = Vec::new();
    let mut area = Vec::new();
    for v in socgpu.variants.iter().chain(&loog.variants) {
        let a = &v.aggregate;
        let s = 1.0 / (1.0 + a.perf_overhead);
        let (area_txt, share) = (
            format!("{:+.4}", a.area.added_area_per_sm_mm2),
            a.area.added_area_sm_share,
        );
        let (e_issue, e_total) = match &a.issue_cost {
            Some(ic) => (
                common::pct(Some(ic.energy_change)),
                common::pct(Some(ic.energy_change_of_total)),
            ),
            None => ("—".into(), "—".into()),
        };
        rows.push(vec![
            v.name.clone(),
            format!("{s:.3}"),
            area_txt,
            common::pct(Some(share)),
            e_issue,
            e_total,
        ]);
        labels.push(v.name.clone());
        speedup.push(100.0 * (s - 1.0));
        area.push(100.0 * share);
    }
    common::print_table(
        &[
            "issue stage",
            "speed-up",
            "added area per SM (mm²)",
            "of the SM",
            "issue energy",
            "of total energy",
        ],
        &rows,
    );
    let dir = k.out_dir("ooo_issue")?;
    let p = dir.join("ooo_issue.svg");
    gpuenergy::report::compare::grouped_bars(
        &p,
        &format!("out-of-order issue, {} at {}", socgpu.gpu, socgpu.tech),
        &format!("gpuenergy {}", env!("CARGO_PKG_VERSION")),
        "issue stage",
        "change against in-order (%)",
        &labels,
        &[
            ("speed-up − 1".to_string(), speedup),
            ("added area of the SM".to_string(), area),
        ],
    )?;
    println!("plot: {}", p.display());
    Ok(())
}
