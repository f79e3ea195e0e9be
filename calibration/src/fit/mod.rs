//! Fitting the `models::logic` forms to synthesis records.
//!
//! For each component kind and quantity (area, leakage, energy per operation, critical-path
//! delay) the form is `q = Σ cⱼ·termⱼ(params)` with the terms of
//! [`models::logic::default_form`]. Coefficients are fitted by non-negative least squares
//! ([`nnls`]) on *relative* residuals — row i is divided by the measured value yᵢ — so that
//! small and large sizes weigh equally, matching the error metric (MAPE). Physics demands
//! non-negativity: every term counts hardware (cells, crosspoints, tree levels), and a
//! negative coefficient would make a larger block cheaper. The constant term alone may take
//! either sign (a fixed offset of the asymptotic law). Records below
//! [`models::logic::fit_min_params`] are left out.
//!
//! Leave-one-out cross-validation: each point is predicted by the fit to all the others; the
//! mean absolute percentage error of those predictions is `cv_mape_pct`.

pub mod nnls;

use crate::error::CalError;
use crate::record::SynthRecord;
use models::logic::terms::Term;
use models::overlay::{KindFit, Overlay, OverlayReference, QuantityFit};
use nalgebra::{DMatrix, DVector};
use std::collections::BTreeMap;

/// The quantities fitted per kind, with the record accessor.
pub const QUANTITIES: [&str; 4] = ["area_m2", "leakage_w", "energy_per_op_j", "delay_s"];

/// Value of a quantity in a record (None when absent or not positive).
pub fn quantity(r: &SynthRecord, q: &str) -> Option<f64> {
    let v = match q {
        "area_m2" => Some(r.area_m2),
        "leakage_w" => Some(r.leakage_w),
        "energy_per_op_j" => Some(r.energy_per_op_j),
        "delay_s" => r.critical_path_s,
        _ => None,
    }?;
    (v.is_finite() && v > 0.0).then_some(v)
}

/// Weighted NNLS fit of `terms` to `(params, y)` points; returns the coefficients.
pub fn fit_terms(
    terms: &[Term],
    pts: &[(&BTreeMap<String, u32>, f64)],
) -> Result<Vec<f64>, CalError> {
    let m = pts.len();
    let n = terms.len();
    if m == 0 {
        return Err(CalError::Fit("no points".into()));
    }
    // The constant term (a term that evaluates to 1 everywhere) may take either sign: it is split
    // into a non-negative pair (+1, −1).
    let const_col = terms.iter().position(|t| t.params().is_empty());
    let cols = n + usize::from(const_col.is_some());
    let mut a = DMatrix::<f64>::zeros(m, cols);
    for (i, (p, y)) in pts.iter().enumerate() {
        for (j, t) in terms.iter().enumerate() {
            a[(i, j)] = t.eval(p).map_err(|e| CalError::Fit(e.to_string()))? / y;
        }
        if let Some(c) = const_col {
            a[(i, n)] = -a[(i, c)];
        }
    }
    let b = DVector::from_element(m, 1.0);
    let x = nnls::nnls(&a, &b).ok_or_else(|| CalError::Fit("non-finite data".into()))?;
    let mut coef: Vec<f64> = x.iter().take(n).copied().collect();
    if let Some(c) = const_col {
        coef[c] -= x[n];
    }
    Ok(coef)
}

/// Predict with fitted coefficients.
pub fn predict(terms: &[Term], coef: &[f64], p: &BTreeMap<String, u32>) -> Result<f64, CalError> {
    let mut s = 0.0;
    for (t, c) in terms.iter().zip(coef) {
        s += c * t.eval(p).map_err(|e| CalError::Fit(e.to_string()))?;
    }
    Ok(s)
}

/// Mean absolute percentage error of predictions.
pub fn mape_pct(pairs: &[(f64, f64)]) -> f64 {
    if pairs.is_empty() {
        return f64::NAN;
    }
    100.0
        * pairs
            .iter()
            .map(|(pred, y)| ((pred - y) / y).abs())
            .sum::<f64>()
        / pairs.len() as f64
}

/// One point: (label, measured, in-sample prediction, leave-one-out prediction).
pub type PointPrediction = (String, f64, f64, f64);

/// Result of fitting one quantity, with the per-point predictions for parity plots.
#[derive(Debug, Clone)]
pub struct QuantityResult {
    /// The fit as stored in the overlay.
    pub fit: QuantityFit,
    /// Per point: (label, measured, in-sample prediction, leave-one-out prediction).
    pub points: Vec<(String, f64, f64, f64)>,
}

/// Fit one quantity of one kind. With a single point only the constant-scale fit is possible
/// and `cv_mape_pct` is NaN (no cross-validation without a second point).
pub fn fit_quantity(
    form_name: &str,
    term_strs: &[String],
    recs: &[&SynthRecord],
    q: &str,
) -> Result<Option<QuantityResult>, CalError> {
    let pts: Vec<(&SynthRecord, f64)> = recs
        .iter()
        .filter_map(|r| quantity(r, q).map(|v| (*r, v)))
        .collect();
    if pts.is_empty() {
        return Ok(None);
    }
    let terms: Vec<Term> = term_strs
        .iter()
        .map(|t| Term::parse(t).map_err(|e| CalError::Fit(e.to_string())))
        .collect::<Result<_, _>>()?;
    // Keep only terms that the points can identify: with fewer points than terms, fall back to
    // the leading terms (the dominant structure first in every form).
    let use_n = terms.len().min(pts.len().saturating_sub(1).max(1));
    let terms = &terms[..use_n];
    let term_strs = &term_strs[..use_n];
    let data: Vec<(&BTreeMap<String, u32>, f64)> =
        pts.iter().map(|(r, v)| (&r.params, *v)).collect();
    let coef = fit_terms(terms, &data)?;
    let mut points = Vec::new();
    let mut ins = Vec::new();
    let mut loo = Vec::new();
    for i in 0..data.len() {
        let pred = predict(terms, &coef, data[i].0)?;
        let cv = if data.len() >= 2 {
            let rest: Vec<(&BTreeMap<String, u32>, f64)> = data
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != i)
                .map(|(_, d)| *d)
                .collect();
            let c = fit_terms(terms, &rest)?;
            predict(terms, &c, data[i].0)?
        } else {
            f64::NAN
        };
        ins.push((pred, data[i].1));
        if cv.is_finite() {
            loo.push((cv, data[i].1));
        }
        points.push((pts[i].0.label(), data[i].1, pred, cv));
    }
    Ok(Some(QuantityResult {
        fit: QuantityFit {
            form: form_name.to_string(),
            terms: term_strs.to_vec(),
            coefficients: coef,
            n_points: data.len(),
            fit_mape_pct: mape_pct(&ins),
            cv_mape_pct: if loo.is_empty() {
                f64::NAN
            } else {
                mape_pct(&loo)
            },
        },
        points,
    }))
}

/// Refuses a fit that must not reach an overlay: a non-finite coefficient, a negative
/// coefficient on a term other than the constant (every such term counts hardware), or a
/// prediction that is not positive at a fitted point or at the smallest size the fit covers
/// (each parameter at the smaller of its smallest fitted value and the form's validity floor
/// [`models::logic::fit_min_params`]): a fit that extrapolates to zero or negative area, delay,
/// leakage or energy within its own range.
pub fn check_fit(
    kind: models::logic::LogicKind,
    q: &str,
    fit: &QuantityFit,
    recs: &[&SynthRecord],
) -> Result<(), CalError> {
    let at = format!("{kind} {q}");
    for (t, c) in fit.terms.iter().zip(&fit.coefficients) {
        if !c.is_finite() {
            return Err(CalError::Fit(format!(
                "{at}: coefficient of '{t}' is {c}, not a finite number"
            )));
        }
        if *c < 0.0 && t.trim() != "1" {
            return Err(CalError::Fit(format!(
                "{at}: coefficient of '{t}' is {c}, negative (a larger block would cost less)"
            )));
        }
    }
    let terms: Vec<Term> = fit
        .terms
        .iter()
        .map(|t| Term::parse(t).map_err(|e| CalError::Fit(e.to_string())))
        .collect::<Result<_, _>>()?;
    let mut smallest: BTreeMap<String, u32> = BTreeMap::new();
    for r in recs {
        for (k, v) in &r.params {
            let e = smallest.entry(k.clone()).or_insert(*v);
            *e = (*e).min(*v);
        }
    }
    for (k, min) in models::logic::fit_min_params(kind) {
        if let Some(v) = smallest.get_mut(*k) {
            *v = (*v).min(*min);
        }
    }
    let probes = recs
        .iter()
        .map(|r| (r.label(), &r.params))
        .chain(std::iter::once((
            "the smallest size".to_string(),
            &smallest,
        )));
    for (label, p) in probes {
        // A record without every parameter of the form is not a probe point of it.
        let Ok(v) = predict(&terms, &fit.coefficients, p) else {
            continue;
        };
        if !(v.is_finite() && v > 0.0) {
            return Err(CalError::Fit(format!(
                "{at}: the fit predicts {v:e} at {label} ({p:?}); it extrapolates to zero or \
                 below, so it is not written"
            )));
        }
    }
    Ok(())
}

/// How far a record's supply may sit from the node's supplies and still be taken as the
/// node's: from half the lowest to 1.5 times the highest of its flavour's nominal supply and
/// its operating points.
pub const NODE_VDD_MARGIN: (f64, f64) = (0.5, 1.5);

/// Records carry no node name, but their library names a device flavour and a supply: the
/// flavour must be one of `node`'s and the supply within [`NODE_VDD_MARGIN`] of the node's
/// supplies. A record set synthesised for another node (asap7's 0.7 V rvt libraries fitted
/// as `planar45`, which has no rvt, or as `finfet7`, whose supplies are 0.30-0.45 V) is an
/// error naming the node, the record and the allowed values, so an overlay never claims a
/// node its coefficients were not fitted at.
pub fn check_node(node: &str, r: &SynthRecord) -> Result<(), CalError> {
    let n = techlib::node(node).map_err(|e| CalError::Invalid(format!("--tech {node}: {e}")))?;
    let flavour = n.flavour(&r.flavour).map_err(|e| {
        CalError::Invalid(format!(
            "--tech {node} does not match the records: record {} was synthesised with \
             flavour '{}' ({e}); give the node the records were synthesised for",
            r.label(),
            r.flavour
        ))
    })?;
    let mut supplies: Vec<f64> = n.operating_points().iter().map(|o| o.vdd_v).collect();
    if let Ok(v) = n.nominal_vdd_v(flavour) {
        supplies.push(v);
    }
    let lo = supplies.iter().copied().fold(f64::INFINITY, f64::min) * NODE_VDD_MARGIN.0;
    let hi = supplies.iter().copied().fold(0.0, f64::max) * NODE_VDD_MARGIN.1;
    if !(lo..=hi).contains(&r.vdd_v) {
        return Err(CalError::Invalid(format!(
            "--tech {node} does not match the records: record {} was synthesised at vdd_v = \
             {} V, outside {lo:.3}-{hi:.3} V around the node's supplies; give the node the \
             records were synthesised for",
            r.label(),
            r.vdd_v
        )));
    }
    Ok(())
}

/// The outcome of fitting a set of records.
#[derive(Debug, Clone)]
pub struct FitOutcome {
    /// The overlay to write.
    pub overlay: Overlay,
    /// Per kind and quantity, the per-point predictions.
    pub points: BTreeMap<(String, String), Vec<PointPrediction>>,
}

/// Fit every kind present in `records` (all of one flavour/corner) and build an overlay.
pub fn fit_records(node: &str, records: &[SynthRecord]) -> Result<FitOutcome, CalError> {
    fit_records_with_progress(node, records, &mut crate::progress::ignore)
}

/// [`fit_records`], reporting a `fit` [`crate::progress::Step`] per component kind as its
/// fits (every quantity, with leave-one-out cross-validation) start.
pub fn fit_records_with_progress(
    node: &str,
    records: &[SynthRecord],
    on_step: crate::progress::OnStep<'_>,
) -> Result<FitOutcome, CalError> {
    let first = records
        .first()
        .ok_or_else(|| CalError::Fit("no synthesis records to fit".into()))?;
    for r in records {
        if r.flavour != first.flavour || r.corner != first.corner {
            return Err(CalError::Fit(format!(
                "records mix libraries ({} {} and {} {}); fit one flavour/corner at a time",
                first.flavour, first.corner, r.flavour, r.corner
            )));
        }
    }
    check_node(node, first)?;
    let mut by_kind: BTreeMap<&str, Vec<&SynthRecord>> = BTreeMap::new();
    for r in records {
        // Records below the forms' validity range are not fitted (see fit_min_params).
        if let Some(k) = models::logic::LogicKind::parse(&r.component) {
            let below = models::logic::fit_min_params(k)
                .iter()
                .any(|(p, min)| r.params.get(*p).is_some_and(|v| v < min));
            if below {
                continue;
            }
        }
        by_kind.entry(&r.component).or_default().push(r);
    }
    let mut kinds = BTreeMap::new();
    let mut points = BTreeMap::new();
    let total = by_kind.len();
    for (done, (kind, recs)) in by_kind.into_iter().enumerate() {
        on_step(crate::progress::Step {
            stage: "fit",
            item: kind,
            done,
            total,
        });
        let lk = models::logic::LogicKind::parse(kind).ok_or_else(|| {
            CalError::Fit(format!(
                "unknown component kind '{kind}' (known: {})",
                models::logic::LogicKind::ALL
                    .iter()
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        let mut kf = KindFit::default();
        for q in QUANTITIES {
            let form = models::logic::default_form(lk, q);
            let terms: Vec<String> = form.iter().map(|s| s.to_string()).collect();
            if let Some(res) = fit_quantity(lk.name(), &terms, &recs, q)? {
                check_fit(lk, q, &res.fit, &recs)?;
                points.insert((kind.to_string(), q.to_string()), res.points);
                let slot = match q {
                    "area_m2" => &mut kf.area_m2,
                    "leakage_w" => &mut kf.leakage_w,
                    "energy_per_op_j" => &mut kf.energy_per_op_j,
                    _ => &mut kf.delay_s,
                };
                *slot = Some(res.fit);
            }
        }
        kinds.insert(kind.to_string(), kf);
    }
    Ok(FitOutcome {
        overlay: Overlay {
            node: node.to_string(),
            reference: OverlayReference {
                flavour: first.flavour.clone(),
                corner: first.corner.clone(),
                vdd_v: first.vdd_v,
                temperature_c: 25.0,
                clock_period_s: first.clock_period_s,
                source: first.source.clone(),
            },
            kinds,
        },
        points,
    })
}
