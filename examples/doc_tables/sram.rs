//! The SRAM model against CACTI 7 (docs/accuracy.md, docs/techniques.md).

use super::markdown::*;
use anyhow::{Context, Result};
use std::fmt::Write;

/// The CACTI 7 reference grid (360 rows) beside the repository.
pub(super) fn cacti_rows() -> Result<Vec<models::sram::reference::CactiRow>> {
    let path = "../shared/reference/cacti7_train.csv";
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    Ok(models::sram::reference::parse_cacti_csv(&text)?)
}

/// Mean absolute percentage errors against CACTI 7, every row and the held-out rows (with the
/// factors fitted without them), and the finfet7 register files against their two rows.
pub(super) fn sram_accuracy() -> Result<String> {
    use models::sram::calib;
    use models::sram::fit::{rf_spec, rf_tech, RF_LANES, RF_POINTS};
    use models::sram::reference::{accuracy, held_out, run_rows, TechCache};
    let rows = cacti_rows()?;
    let mut cache = TechCache::default();
    let all = accuracy(&run_rows(&rows, &calib::planar(), &mut cache)?);
    let held = accuracy(&run_rows(
        &held_out(&rows),
        &calib::planar_train(),
        &mut cache,
    )?);
    let row = |what: &str, m: &models::sram::SramAccuracy| {
        vec![
            what.to_string(),
            m.rows.to_string(),
            format!("{:.1} %", m.area_mape_pct),
            format!("{:.1} %", m.read_energy_mape_pct),
            format!("{:.1} %", m.leakage_mape_pct),
            format!("{:.1} %", m.access_time_mape_pct),
        ]
    };
    let mut s = table(
        &[
            "SRAM model vs CACTI 7, MAPE",
            "rows",
            "area",
            "read energy",
            "leakage",
            "access time",
        ],
        &[
            row("every row", &all),
            row("held-out rows, factors fitted without them", &held),
        ],
    );
    let f = calib::finfet_scalars();
    let _ = writeln!(
        s,
        "\nfinfet7 register files: energy scale {:.3}, leakage scale {:.3}, level shift \
         {:.3e} J/bit, solved from the two rows; the structure alone gives the MRF {:+.1} % \
         energy.\n",
        f.energy_scale, f.leakage_scale, f.level_shift_j_per_bit, f.mrf_energy_structural_err_pct
    );
    let mut rows = Vec::new();
    for p in RF_POINTS.iter() {
        let r = models::sram::evaluate_sliced(&rf_spec(p), RF_LANES, &rf_tech(p)?)?;
        let (e, l) = (r.read_energy_j * 1e12, r.leakage_w * 1e3);
        rows.push(vec![
            p.label.to_string(),
            format!("{e:.2} pJ"),
            format!("{:.2} pJ", p.access_pj),
            format!("{:.1} mW", l),
            format!("{:.1} mW", p.leakage_mw),
        ]);
    }
    s.push_str(&table(
        &[
            "register file",
            "access, model",
            "access, row",
            "leakage, model",
            "leakage, row",
        ],
        &rows,
    ));
    Ok(s)
}

/// Least-squares slope of `y` against `x`.
pub(super) fn slope(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    sxy / sxx
}

/// How the read-energy error against CACTI 7 moves with capacity: the slope of
/// `ln(E_model/E_CACTI)` against `ln C` over every row (the difference of the two models'
/// capacity exponents), the mean signed error per capacity and the slope per block size.
pub(super) fn sram_capacity() -> Result<String> {
    use models::sram::calib;
    use models::sram::reference::{run_rows, TechCache};
    use std::collections::BTreeMap;
    let rows = cacti_rows()?;
    let res = run_rows(&rows, &calib::planar(), &mut TechCache::default())?;
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
    let mut s = format!(
        "d ln(E_model/E_CACTI) / d ln C over {} rows: {:+.4} (model exponent minus CACTI's)\n\n",
        all.0.len(),
        slope(&all.0, &all.1)
    );
    let rows: Vec<Vec<String>> = by_size
        .iter()
        .map(|(size, es)| {
            let m = (es.iter().sum::<f64>() / es.len() as f64).exp() - 1.0;
            vec![format!("{size} B"), es.len().to_string(), spct(m, 1)]
        })
        .collect();
    s.push_str(&table(&["capacity", "rows", "mean signed error"], &rows));
    let rows: Vec<Vec<String>> = by_block
        .iter()
        .map(|(block, (x, y))| {
            vec![
                format!("{block} B"),
                x.len().to_string(),
                format!("{:+.4}", slope(x, y)),
            ]
        })
        .collect();
    s.push('\n');
    s.push_str(&table(&["block", "rows", "slope"], &rows));
    Ok(s)
}
