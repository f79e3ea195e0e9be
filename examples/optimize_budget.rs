//! The best design under a growing area budget: for each budget (a share of the SMs' area) the
//! optimiser picks the gating and register-file techniques and their continuous knobs that
//! minimise energy with at most 5 % slowdown on the GTX480 at 7 nm FinFET (STV), and verifies
//! the pick by full simulation. One Activity cache serves every budget, so each design is
//! simulated once. Prints, per budget, the chosen design, the verified energy saving, the area
//! it adds and its slowdown; plots the energy–area Pareto front of every design evaluated.
//!
//! `cargo run --release --example optimize_budget [-- --workload all --size bench]`

#[path = "common/mod.rs"]
mod common;

use gpuenergy::optimize::cache::ActivityCache;
use gpuenergy::optimize::evaluate::{Objective, SimEvaluator};
use gpuenergy::optimize::space::Space;
use gpuenergy::optimize::{optimize, pareto, Problem};
use gpuenergy::study::{workloads_named, Study};
use gpuenergy::study_config::StudyConfig;
use std::sync::Arc;

fn main() -> anyhow::Result<()> {
    let k = common::Knobs::parse_with("hotspot");
    let dir = k.out_dir("optimize_budget")?;
    let base = StudyConfig::preset("gtx480")?;
    let tech = techlib::ResolvedPoint::resolve("finfet7", None, None, Some("stv"), None).unwrap();
    let mut space = Space::parse("gating,rf", &base).map_err(anyhow::Error::msg)?;
    space
        .apply_snm_floor(tech.node(), base.opt.snm_min)
        .map_err(anyhow::Error::msg)?;
    let conflicts = space.conflicts(&base, &[]);
    let cache = Arc::new(ActivityCache::new(dir.join("cache")));
    let study = Study::new(base.clone(), tech, None)
        .size(k.size.parse()?)
        .cache(cache.clone());
    let ev = SimEvaluator::new(
        &space,
        base.machine,
        Vec::new(),
        study,
        workloads_named(k.workloads())?,
        || {},
    );
    let [sm_m2, _, _] = ev.budget_bases_m2()?;
    println!(
        "GTX480 at finfet7 STV, gating and register-file space ({} combinations), workloads: {}\n",
        space.combinations(),
        k.workloads()
    );
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut last = None;
    for budget_pct in [0.5, 1.0, 2.0, 5.0, 10.0] {
        let budget_mm2 = budget_pct / 100.0 * sm_m2 * 1e6;
        let p = Problem::new(Objective::Energy, budget_mm2, 0.05);
        eprintln!("budget {budget_pct} % of the SMs ({budget_mm2:.4} mm²)");
        match optimize(&space, &ev, &p, &conflicts) {
            Ok(o) => {
                let saving = 1.0 - o.verified.energy_j / o.baseline.energy_j;
                rows.push(vec![
                    format!("{budget_pct} %"),
                    format!("{budget_mm2:.4}"),
                    o.chosen_name.clone(),
                    common::pct(Some(-saving)),
                    format!("{:.4}", o.verified.added_area_mm2),
                    common::pct(Some(o.verified.slowdown)),
                    o.iterations.len().to_string(),
                ]);
                last = Some((o, p));
            }
            Err(e) => {
                rows.push(vec![
                    format!("{budget_pct} %"),
                    format!("{budget_mm2:.4}"),
                    "none fits (note below)".into(),
                    "—".into(),
                    "—".into(),
                    "—".into(),
                    "0".into(),
                ]);
                notes.push(format!("{budget_pct} %: {e}"));
            }
        }
    }
    common::print_table(
        &[
            "budget (of SMs)",
            "budget (mm²)",
            "chosen",
            "energy",
            "added area (mm²)",
            "slowdown",
            "MILP iterations",
        ],
        &rows,
    );
    for n in &notes {
        println!("{n}");
    }
    let (hits, misses) = cache.counts();
    println!("\nworkload runs: {misses} simulated, {hits} from the cache");
    if let Some((o, p)) = last {
        let front = pareto::front(&o.evaluated, p.objective, p.slowdown_cap);
        let svg = pareto::write_svg(
            &dir,
            &o.evaluated,
            &front,
            p.objective,
            p.objective.of(&o.baseline),
            &pareto::PlotMarks {
                chosen_name: &o.chosen_name,
                chosen_area_mm2: o.verified.added_area_mm2,
                chosen_objective: p.objective.of(&o.verified),
                budget_mm2: p.area_cap_mm2,
                subtitle: &format!("gtx480 · gpuenergy {}", env!("CARGO_PKG_VERSION")),
            },
        )?;
        println!("plot: {}", svg.display());
    }
    Ok(())
}
