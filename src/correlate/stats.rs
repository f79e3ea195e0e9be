//! The figures of merit of a correlation (see the [`super`] module documentation): per-row
//! error, MAPE, Pearson's r on cycles and on log10 cycles, and the rows within the agreement band.

use serde::Serialize;

/// Half-width of the agreement band the report counts rows in and the plot draws: ±15 %, the
/// band of Accel-Sim's correlation plots. A presentation choice, not a fitted number.
pub const BAND_FRACTION: f64 = 0.15;
/// The figures of merit of a set of rows (see the module documentation).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// Number of rows.
    pub rows: usize,
    /// Mean absolute percentage error, %.
    pub mape_pct: f64,
    /// Mean signed error, % (positive: the model is slower than the reference).
    pub mean_error_pct: f64,
    /// Pearson's r of simulated against reference cycles; `None` when undefined.
    pub pearson_r_cycles: Option<f64>,
    /// Pearson's r of log10 simulated against log10 reference cycles; `None` when undefined.
    pub pearson_r_log_cycles: Option<f64>,
    /// Rows whose error is within ±[`BAND_FRACTION`].
    pub within_band: usize,
}

/// Pearson's product-moment correlation coefficient of `xs` and `ys` (same length):
/// `Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)² · Σ(y−ȳ)²)`. `None` for fewer than two points or when either
/// series is constant.
pub fn pearson_r(xs: &[f64], ys: &[f64]) -> Option<f64> {
    let n = xs.len();
    if n < 2 || ys.len() != n {
        return None;
    }
    let mx = xs.iter().sum::<f64>() / n as f64;
    let my = ys.iter().sum::<f64>() / n as f64;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in xs.iter().zip(ys) {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    if sxx <= 0.0 || syy <= 0.0 {
        return None;
    }
    Some((sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

/// Mean absolute percentage error of `ours` against `reference` (positive values), %:
/// `100 · Σ|o − r| / r / n`; 0 for no points.
pub fn mape_pct(reference: &[f64], ours: &[f64]) -> f64 {
    if reference.is_empty() {
        return 0.0;
    }
    100.0
        * reference
            .iter()
            .zip(ours)
            .map(|(r, o)| ((o - r) / r).abs())
            .sum::<f64>()
        / reference.len() as f64
}

/// Whether a series of positive values has a spread a correlation can see: its largest and
/// smallest values differ by more than one part in 1e9.
fn varies(v: &[f64]) -> bool {
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    max.is_finite() && min.is_finite() && max - min > 1e-9 * max.abs()
}

/// The statistics of `(reference, ours)` cycle pairs: r on cycles and on log10 cycles are
/// both `None` ("n/a" in every format) unless both are defined.
pub fn stats(pairs: &[(f64, f64)]) -> Stats {
    let r: Vec<f64> = pairs.iter().map(|p| p.0).collect();
    let o: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let n = pairs.len();
    let mean_error_pct = if n == 0 {
        0.0
    } else {
        100.0 * pairs.iter().map(|(r, o)| (o - r) / r).sum::<f64>() / n as f64
    };
    let log = |v: &[f64]| v.iter().map(|x| x.log10()).collect::<Vec<_>>();
    // r on cycles and on log10 cycles are defined together or not at all: both need two
    // points and two distinct values on each side, and a series whose values differ only
    // in the last bits (constant after log10) would give a defined r on one and n/a on the
    // other. A non-finite r (overflowing sums) is undefined too.
    let defined = n >= 2 && varies(&r) && varies(&o);
    let finite = |x: Option<f64>| x.filter(|v| v.is_finite());
    let (rc, rl) = if defined {
        (
            finite(pearson_r(&r, &o)),
            finite(pearson_r(&log(&r), &log(&o))),
        )
    } else {
        (None, None)
    };
    let (rc, rl) = match (rc, rl) {
        (Some(a), Some(b)) => (Some(a), Some(b)),
        _ => (None, None),
    };
    Stats {
        rows: n,
        mape_pct: mape_pct(&r, &o),
        mean_error_pct,
        pearson_r_cycles: rc,
        pearson_r_log_cycles: rl,
        within_band: pairs
            .iter()
            .filter(|(r, o)| ((o - r) / r).abs() <= BAND_FRACTION + 1e-12)
            .count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mape_and_pearson_match_hand_computed_values() {
        // errors +10 %, −20 %, +50 %: MAPE = (10 + 20 + 50) / 3 = 26.667 %, mean = 13.333 %
        let r = [100.0, 200.0, 400.0];
        let o = [110.0, 160.0, 600.0];
        assert!((mape_pct(&r, &o) - 80.0 / 3.0).abs() < 1e-12);
        // x̄ = 233.33, ȳ = 290; Σdxdy = 80000, Σdx² = 46666.67, Σdy² = 145400
        // r = 80000 / √(46666.67 · 145400) = 0.971190
        let p = pearson_r(&r, &o).unwrap();
        assert!((p - 0.971_190).abs() < 1e-6, "{p}");
        let s = stats(&[(100.0, 110.0), (200.0, 160.0), (400.0, 600.0)]);
        assert_eq!(s.rows, 3);
        assert!((s.mean_error_pct - 40.0 / 3.0).abs() < 1e-12);
        assert_eq!(s.within_band, 1, "only +10 % is within ±15 %");
        assert!((s.pearson_r_cycles.unwrap() - p).abs() < 1e-15);
        // log10: x = (2, 2.30103, 2.60206), y = (2.04139, 2.20412, 2.77815);
        // Σdxdy = 0.221786, Σdx² = 0.181238, Σdy² = 0.299602, r = 0.951783
        let l = s.pearson_r_log_cycles.unwrap();
        assert!((l - 0.951_783).abs() < 1e-6, "{l}");
        // a perfect linear relation, exact and reversed
        assert!((pearson_r(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]).unwrap() - 1.0).abs() < 1e-15);
        assert!((pearson_r(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]).unwrap() + 1.0).abs() < 1e-15);
        // undefined cases
        assert_eq!(pearson_r(&[1.0], &[2.0]), None);
        assert_eq!(pearson_r(&[1.0, 2.0], &[5.0, 5.0]), None);
        assert_eq!(mape_pct(&[], &[]), 0.0);
        // One row, one constant side, or values equal to one part in 1e9: n/a on both scales.
        for pairs in [
            vec![(100.0, 110.0)],
            vec![(100.0, 110.0), (200.0, 110.0)],
            vec![(100.0, 110.0), (100.0, 220.0)],
            vec![(1e12, 5.0), (1e12 + 1.0, 7.0)],
        ] {
            let s = stats(&pairs);
            assert_eq!(
                (s.pearson_r_cycles, s.pearson_r_log_cycles),
                (None, None),
                "{pairs:?}"
            );
            assert!(s.mape_pct.is_finite() && s.mean_error_pct.is_finite());
        }
    }
}
