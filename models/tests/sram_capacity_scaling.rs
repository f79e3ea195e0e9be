//! How the SRAM model's access energy scales with capacity, against CACTI 7 on the reference
//! grid (`../shared/reference/cacti7_train.csv`). The MAPE test bounds each row's error; this
//! one bounds how the error *moves* with capacity, which is what a small array's energy against
//! a large one's (the fast register file against the monolithic one) rests on. Over the 360
//! rows (every node, device, block, port and bank count), the least-squares slope of
//! `ln(E_model / E_CACTI)` against `ln(capacity)` is the difference between the two models'
//! capacity exponents `d ln E / d ln C` (zero when the model scales as CACTI does, whatever its
//! level). Prints that slope, the mean signed error per capacity, and the slope within each
//! block size; fails when the pooled slope exceeds 0.02 in magnitude, a block size's exceeds
//! 0.05, or the mean signed error of a capacity leaves ±6 % up to 256 KB (register files and
//! first-level caches) or ±12 % above.

use std::collections::BTreeMap;

use models::sram::calib;
use models::sram::reference::{parse_cacti_csv, run_rows, TechCache};

const CSV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/reference/cacti7_train.csv"
);

/// Least-squares slope of `y` against `x`.
fn slope(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    sxy / sxx
}

#[test]
fn energy_scales_with_capacity_as_cacti7_does() {
    let text = std::fs::read_to_string(CSV).expect("reference csv");
    let rows = parse_cacti_csv(&text).expect("parse reference csv");
    let mut cache = TechCache::default();
    let res = run_rows(&rows, &calib::planar(), &mut cache).expect("model runs on every row");
    // (ln capacity, ln(model/CACTI)) per row, also grouped by capacity and by block size
    let mut all = (Vec::new(), Vec::new());
    let mut by_size: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    let mut by_block: BTreeMap<u64, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    for (row, (r, _)) in rows.iter().zip(&res) {
        let c = &row.config;
        let x = (c.size_bytes as f64).ln();
        let e = (r.read_energy_j * 1e9 / row.cacti.read_nj).ln();
        all.0.push(x);
        all.1.push(e);
        by_size.entry(c.size_bytes).or_default().push(e);
        let b = by_block.entry(c.block_bytes).or_default();
        b.0.push(x);
        b.1.push(e);
    }
    let pooled = slope(&all.0, &all.1);
    println!(
        "d ln(E_model/E_CACTI) / d ln C over {} rows: {pooled:+.4} (model exponent minus CACTI's)",
        all.0.len()
    );
    println!("capacity      rows  mean signed error");
    let mut bad = Vec::new();
    for (size, es) in &by_size {
        let m = (es.iter().sum::<f64>() / es.len() as f64).exp() - 1.0;
        println!("{:>8} B {:>8}  {:>+8.1} %", size, es.len(), m * 100.0);
        let bound = if *size <= 256 * 1024 { 0.06 } else { 0.12 };
        if m.abs() > bound {
            bad.push(format!(
                "{size} B: {:+.1} % (bound ±{:.0} %)",
                m * 100.0,
                bound * 100.0
            ));
        }
    }
    println!("block   rows  slope");
    let mut worst_block = 0.0f64;
    for (block, (x, y)) in &by_block {
        let s = slope(x, y);
        println!("{block:>5} B {:>5} {s:>+7.4}", x.len());
        worst_block = worst_block.max(s.abs());
    }
    assert!(
        pooled.abs() <= 0.02,
        "the model's capacity exponent differs from CACTI 7's by {pooled:+.4}"
    );
    assert!(
        worst_block <= 0.05,
        "a block size's capacity exponent differs from CACTI 7's by {worst_block:.4}"
    );
    assert!(
        bad.is_empty(),
        "mean signed energy error out of bounds: {}",
        bad.join("; ")
    );
}
