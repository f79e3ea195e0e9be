//! Non-negative least squares: minimise ‖A x − b‖₂ subject to x ≥ 0, by the Lawson–Hanson
//! active-set algorithm (Lawson & Hanson, *Solving Least Squares Problems*, 1974, ch. 23).
//! Each inner step solves the unconstrained problem on the passive set with nalgebra's SVD.

use nalgebra::{DMatrix, DVector};

/// Solve the NNLS problem; columns are scaled to unit norm internally for conditioning.
/// Returns `None` when the input has no rows or columns or contains non-finite numbers.
pub fn nnls(a: &DMatrix<f64>, b: &DVector<f64>) -> Option<DVector<f64>> {
    let (m, n) = a.shape();
    if m == 0 || n == 0 || b.len() != m || a.iter().chain(b.iter()).any(|v| !v.is_finite()) {
        return None;
    }
    // Column scaling.
    let scale: Vec<f64> = (0..n)
        .map(|j| {
            let s = a.column(j).norm();
            if s > 0.0 {
                s
            } else {
                1.0
            }
        })
        .collect();
    let mut as_ = a.clone();
    for (j, s) in scale.iter().enumerate() {
        as_.column_mut(j).scale_mut(1.0 / s);
    }
    let a = &as_;
    let tol = 1e-12 * (1.0 + b.norm());
    let mut x = DVector::<f64>::zeros(n);
    let mut passive = vec![false; n];
    let solve_passive = |passive: &[bool]| -> DVector<f64> {
        let idx: Vec<usize> = (0..n).filter(|&j| passive[j]).collect();
        let mut z = DVector::<f64>::zeros(n);
        if idx.is_empty() {
            return z;
        }
        let sub = DMatrix::from_fn(m, idx.len(), |r, c| a[(r, idx[c])]);
        let svd = sub.svd(true, true);
        if let Ok(sol) = svd.solve(b, 1e-12) {
            for (k, &j) in idx.iter().enumerate() {
                z[j] = sol[k];
            }
        }
        z
    };
    for _outer in 0..(3 * n + 10) {
        let w = a.transpose() * (b - a * &x);
        let cand = (0..n)
            .filter(|&j| !passive[j] && w[j] > tol)
            .max_by(|&i, &j| w[i].partial_cmp(&w[j]).unwrap_or(std::cmp::Ordering::Equal));
        let Some(t) = cand else { break };
        passive[t] = true;
        for _inner in 0..(3 * n + 10) {
            let z = solve_passive(&passive);
            if (0..n).all(|j| !passive[j] || z[j] > 0.0) {
                x = z;
                break;
            }
            // Step back towards x until a passive variable hits zero.
            let mut alpha = f64::INFINITY;
            for j in 0..n {
                if passive[j] && z[j] <= 0.0 {
                    let d = x[j] - z[j];
                    if d > 0.0 {
                        alpha = alpha.min(x[j] / d);
                    }
                }
            }
            if !alpha.is_finite() {
                alpha = 0.0;
            }
            for j in 0..n {
                x[j] += alpha * (z[j] - x[j]);
                if passive[j] && x[j] <= 1e-15 {
                    passive[j] = false;
                    x[j] = 0.0;
                }
            }
        }
    }
    for j in 0..n {
        x[j] /= scale[j];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_positive_solution() {
        let a = DMatrix::from_row_slice(4, 2, &[1.0, 1.0, 2.0, 1.0, 3.0, 1.0, 4.0, 1.0]);
        let b = DVector::from_vec(vec![3.0, 5.0, 7.0, 9.0]);
        let x = nnls(&a, &b).unwrap();
        assert!(
            (x[0] - 2.0).abs() < 1e-9 && (x[1] - 1.0).abs() < 1e-9,
            "{x}"
        );
    }

    #[test]
    fn clamps_negative_coefficient() {
        // Unconstrained optimum has a negative intercept; NNLS must return x >= 0.
        let a = DMatrix::from_row_slice(3, 2, &[1.0, 1.0, 2.0, 1.0, 3.0, 1.0]);
        let b = DVector::from_vec(vec![1.0, 3.0, 5.0]);
        let x = nnls(&a, &b).unwrap();
        assert!(x.iter().all(|v| *v >= 0.0), "{x}");
        assert!(x[1].abs() < 1e-12);
    }
}
