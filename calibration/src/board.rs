//! Fitting the board-power model's two global scalars to measured board power.
//!
//! The model is [`models::gpu::board`]: `P_board = (k·P_dyn + P_rest)/η + P_const`, with `P_rest`
//! the chip's leakage and the memory's access and background power, and `η` the regulators'
//! efficiency (fixed). For each measured kernel the modelled terms come from a run of the
//! estimate; `k ≥ 0` and `P_const ≥ 0` are fitted to all kernels at once by non-negative least
//! squares ([`crate::fit::nnls`]) on *relative* residuals — each row divided by its measured
//! power — so that the fit minimises the error measure it is judged by (MAPE) and a 100 W
//! kernel weighs as much as a 200 W one. Nothing is fitted per kernel.
//!
//! Reported with the fit: MAPE and worst kernel over the fitted rows, Pearson's r, and the
//! leave-one-out MAPE (each kernel predicted by the fit to all the others), the honest figure
//! for kernels the fit has not seen.

use crate::error::CalError;
use crate::fit::nnls::nnls;
use models::gpu::board::{BoardScalars, BoardTerms};
use nalgebra::{DMatrix, DVector};
use serde::Serialize;

/// One measured kernel: its modelled terms and the board power measured while it repeated.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardRow {
    /// The kernel's name in the measurement table.
    pub kernel: String,
    /// The modelled terms of its run, W.
    pub terms: BoardTerms,
    /// Measured average board power, W.
    pub measured_w: f64,
}

/// One kernel's prediction by the fit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardPrediction {
    /// The kernel.
    pub kernel: String,
    /// Measured board power, W.
    pub measured_w: f64,
    /// Predicted by the fit to every row, W.
    pub predicted_w: f64,
    /// Predicted by the fit to every other row (leave-one-out), W.
    pub loo_predicted_w: f64,
}

/// The fitted scalars and how well they fit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardFit {
    /// `k`, `P_const` and the fixed `η`.
    pub scalars: BoardScalars,
    /// Mean absolute percentage error over the fitted rows, %.
    pub mape_pct: f64,
    /// Pearson's correlation of predicted and measured power.
    pub pearson_r: f64,
    /// The kernel with the largest absolute error and its signed error, %.
    pub worst: (String, f64),
    /// Leave-one-out MAPE, %.
    pub loo_mape_pct: f64,
    /// Every row's prediction.
    pub rows: Vec<BoardPrediction>,
}

/// `(k, P_const)` fitted to `rows` at regulator efficiency `eta`.
fn solve(rows: &[&BoardRow], eta: f64) -> Result<(f64, f64), CalError> {
    let m = rows.len();
    let mut a = DMatrix::<f64>::zeros(m, 2);
    let mut b = DVector::<f64>::zeros(m);
    for (i, r) in rows.iter().enumerate() {
        let t = &r.terms;
        let fixed = (t.chip_leakage_w + t.dram_dynamic_w + t.dram_background_w) / eta;
        a[(i, 0)] = t.chip_dynamic_w / eta / r.measured_w;
        a[(i, 1)] = 1.0 / r.measured_w;
        b[i] = (r.measured_w - fixed) / r.measured_w;
    }
    let x = nnls(&a, &b).ok_or_else(|| CalError::Fit("board fit: no finite solution".into()))?;
    Ok((x[0], x[1]))
}

fn predict(k: f64, c: f64, eta: f64, t: &BoardTerms) -> f64 {
    BoardScalars {
        dynamic_scale: k,
        constant_w: c,
        vr_efficiency: eta,
        source: String::new(),
    }
    .power(t)
    .board_power_w
}

/// Pearson's correlation coefficient of two equally long series (0 when either is constant).
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx).powi(2);
        syy += (b - my).powi(2);
    }
    if sxx > 0.0 && syy > 0.0 {
        sxy / (sxx * syy).sqrt()
    } else {
        0.0
    }
}

/// Fits the board scalars to `rows` at regulator efficiency `eta`; `data` says what the rows
/// are (recorded in the scalars' `source`). Needs at least three rows, each with a positive
/// measured power and finite, non-negative terms.
pub fn fit_board(rows: &[BoardRow], eta: f64, data: &str) -> Result<BoardFit, CalError> {
    if rows.len() < 3 {
        return Err(CalError::Fit(format!(
            "board fit: {} measured kernels; two scalars and a leave-one-out check need at least 3",
            rows.len()
        )));
    }
    for r in rows {
        let t = &r.terms;
        let terms = [
            t.chip_dynamic_w,
            t.chip_leakage_w,
            t.dram_dynamic_w,
            t.dram_background_w,
        ];
        if !(r.measured_w.is_finite() && r.measured_w > 0.0)
            || terms.iter().any(|v| !v.is_finite() || *v < 0.0)
        {
            return Err(CalError::Fit(format!(
                "board fit: kernel '{}' has a non-positive measurement or a negative or \
                 non-finite modelled term",
                r.kernel
            )));
        }
    }
    let all: Vec<&BoardRow> = rows.iter().collect();
    let (k, c) = solve(&all, eta)?;
    let mut preds = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        let others: Vec<&BoardRow> = rows
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, r)| r)
            .collect();
        let (ki, ci) = solve(&others, eta)?;
        preds.push(BoardPrediction {
            kernel: r.kernel.clone(),
            measured_w: r.measured_w,
            predicted_w: predict(k, c, eta, &r.terms),
            loo_predicted_w: predict(ki, ci, eta, &r.terms),
        });
    }
    let err = |p: f64, m: f64| (p - m) / m * 100.0;
    let n = preds.len() as f64;
    let mape_pct = preds
        .iter()
        .map(|p| err(p.predicted_w, p.measured_w).abs())
        .sum::<f64>()
        / n;
    let loo_mape_pct = preds
        .iter()
        .map(|p| err(p.loo_predicted_w, p.measured_w).abs())
        .sum::<f64>()
        / n;
    let worst = preds
        .iter()
        .map(|p| (p.kernel.clone(), err(p.predicted_w, p.measured_w)))
        .fold((String::new(), 0.0_f64), |w, x| {
            if x.1.abs() > w.1.abs() {
                x
            } else {
                w
            }
        });
    let pearson_r = pearson(
        &preds.iter().map(|p| p.predicted_w).collect::<Vec<_>>(),
        &preds.iter().map(|p| p.measured_w).collect::<Vec<_>>(),
    );
    let source = format!(
        "fitted by non-negative least squares on relative residuals to {} measured kernels ({data}); \
         MAPE {mape_pct:.1} %, leave-one-out MAPE {loo_mape_pct:.1} %, Pearson r {pearson_r:.3}, \
         worst {} {:+.1} %; regulator efficiency fixed at {eta}",
        rows.len(),
        worst.0,
        worst.1
    );
    Ok(BoardFit {
        scalars: BoardScalars {
            dynamic_scale: k,
            constant_w: c,
            vr_efficiency: eta,
            source,
        },
        mape_pct,
        pearson_r,
        worst,
        loo_mape_pct,
        rows: preds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, dyn_w: f64, measured: f64) -> BoardRow {
        BoardRow {
            kernel: name.into(),
            terms: BoardTerms {
                chip_dynamic_w: dyn_w,
                chip_leakage_w: 20.0,
                dram_dynamic_w: 5.0,
                dram_background_w: 8.0,
            },
            measured_w: measured,
        }
    }

    #[test]
    fn recovers_the_scalars_that_made_the_data() {
        let (k, c, eta) = (1.7, 40.0, 0.9);
        let rows: Vec<BoardRow> = [30.0, 60.0, 90.0, 120.0, 45.0]
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let mut r = row(&format!("k{i}"), *d, 1.0);
                r.measured_w = predict(k, c, eta, &r.terms);
                r
            })
            .collect();
        let f = fit_board(&rows, eta, "synthetic").unwrap();
        assert!((f.scalars.dynamic_scale - k).abs() < 1e-6, "{f:?}");
        assert!((f.scalars.constant_w - c).abs() < 1e-4, "{f:?}");
        assert!(f.mape_pct < 1e-6 && f.loo_mape_pct < 1e-6);
        assert!((f.pearson_r - 1.0).abs() < 1e-9);
    }

    #[test]
    fn noisy_data_report_their_error_and_the_worst_kernel() {
        let mut rows: Vec<BoardRow> = [30.0, 60.0, 90.0, 120.0]
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let mut r = row(&format!("k{i}"), *d, 1.0);
                r.measured_w = predict(1.0, 50.0, 0.9, &r.terms);
                r
            })
            .collect();
        rows[2].measured_w *= 1.3;
        let f = fit_board(&rows, 0.9, "synthetic").unwrap();
        assert!(f.mape_pct > 1.0);
        assert!(f.loo_mape_pct >= f.mape_pct);
        assert_eq!(f.worst.0, "k2");
        assert!(f.scalars.source.contains("4 measured kernels"));
    }

    #[test]
    fn too_few_or_bad_rows_are_refused() {
        assert!(fit_board(&[row("a", 1.0, 100.0), row("b", 2.0, 120.0)], 0.9, "x").is_err());
        let mut rows = vec![
            row("a", 1.0, 100.0),
            row("b", 2.0, 120.0),
            row("c", 3.0, 0.0),
        ];
        let e = fit_board(&rows, 0.9, "x").unwrap_err().to_string();
        assert!(e.contains("'c'"), "{e}");
        rows[2].measured_w = 130.0;
        rows[1].terms.chip_leakage_w = f64::NAN;
        assert!(fit_board(&rows, 0.9, "x").is_err());
    }
}
