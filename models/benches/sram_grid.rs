//! Speed of the SRAM model: every configuration of the CACTI 7 reference set (360 rows),
//! organisation search included, timed one by one, then the same configurations at 80 % of the
//! nominal supply (organisation searched at the design point, then evaluated at the operating
//! point: the full cost of one run away from the design supply) and lane-sliced finfet7 register
//! files. Prints the median and 95th percentile time per configuration and the ratio to CACTI's
//! median `cacti_seconds`.
//!
//! `cargo bench -p models --bench sram_grid`

use models::sram::calib;
use models::sram::reference::{parse_cacti_csv, TechCache};
use std::time::Instant;

const CSV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/reference/cacti7_train.csv"
);

fn pct(sorted: &[f64], q: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i]
}

fn main() {
    let text = std::fs::read_to_string(CSV).expect("reference csv");
    let rows = parse_cacti_csv(&text).expect("parse");
    let c = calib::planar();
    let mut cache = TechCache::default();
    // technologies are built once per (node, flavour), as a batch run does
    for row in &rows {
        cache.get(&row.config.tech_request().unwrap()).unwrap();
    }
    let reps = 5;
    let mut times = Vec::with_capacity(rows.len());
    let mut sink = 0.0;
    for row in &rows {
        let tech = cache
            .get(&row.config.tech_request().unwrap())
            .unwrap()
            .clone();
        let spec = row.config.spec();
        let mut best = f64::INFINITY;
        for _ in 0..reps {
            let t0 = Instant::now();
            let r = models::sram::evaluate_with(&spec, &tech, &c).unwrap();
            best = best.min(t0.elapsed().as_secs_f64());
            sink += r.read_energy_j;
        }
        times.push(best);
    }
    times.sort_by(f64::total_cmp);
    let mut cacti: Vec<f64> = rows.iter().map(|r| r.cacti.cacti_seconds).collect();
    cacti.sort_by(f64::total_cmp);
    let med = pct(&times, 0.5);
    let p95 = pct(&times, 0.95);
    let cmed = pct(&cacti, 0.5);
    println!(
        "SRAM model over {} configurations (best of {reps} runs each):",
        rows.len()
    );
    println!(
        "  median {:.4} ms, p95 {:.4} ms per configuration",
        med * 1e3,
        p95 * 1e3
    );
    println!(
        "  CACTI 7 median {:.1} ms -> {:.0}x faster (median)",
        cmed * 1e3,
        cmed / med
    );
    // away from the design supply: design-point search plus one evaluation at the operating point
    let mut times = Vec::with_capacity(rows.len());
    for row in &rows {
        let mut req = row.config.tech_request().unwrap();
        let nominal = cache.get(&req).unwrap().periph.vdd_v;
        req.point = req.point.with_vdd_v(0.8 * nominal).unwrap();
        let tech = models::sram::sram_tech(&req).unwrap();
        let spec = row.config.spec();
        let mut best = f64::INFINITY;
        for _ in 0..reps {
            let t0 = Instant::now();
            let r = models::sram::evaluate_with(&spec, &tech, &c).unwrap();
            best = best.min(t0.elapsed().as_secs_f64());
            sink += r.read_energy_j;
        }
        times.push(best);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "  at 0.8 x nominal supply (design-point search + operating-point evaluation): median {:.4} ms, p95 {:.4} ms",
        pct(&times, 0.5) * 1e3,
        pct(&times, 0.95) * 1e3
    );
    // lane-sliced finfet7 register files, 16 KB to 512 KB, STV and NTV
    let mut times = Vec::new();
    for op in ["stv", "ntv"] {
        let p = models::sram::fit::RF_POINTS[0];
        let tech = models::sram::fit::rf_tech(&models::sram::fit::RfPoint { op, ..p }).unwrap();
        for kb in [16u64, 32, 64, 128, 256, 512] {
            let spec = models::sram::SramSpec {
                capacity_bytes: kb * 1024,
                ..models::sram::fit::rf_spec(&p)
            };
            let mut best = f64::INFINITY;
            for _ in 0..reps {
                let t0 = Instant::now();
                let r = models::sram::evaluate_sliced(&spec, models::sram::fit::RF_LANES, &tech)
                    .unwrap();
                best = best.min(t0.elapsed().as_secs_f64());
                sink += r.read_energy_j;
            }
            times.push(best);
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "  finfet7 lane-sliced register files ({} configurations): median {:.4} ms, max {:.4} ms",
        times.len(),
        pct(&times, 0.5) * 1e3,
        pct(&times, 1.0) * 1e3
    );
    assert!(sink.is_finite());
}
