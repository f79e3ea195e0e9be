//! Renderers of a calibration fit (`gpuenergy calibrate`): per component kind and quantity the
//! fitted linear form, its number of synthesis points and its in-sample and leave-one-out
//! cross-validated errors, as a text table or JSON.

use ::calibration::fit::FitOutcome;

/// Friendly unit of a quantity: (label, scale from SI).
pub fn unit(q: &str) -> (&'static str, f64) {
    match q {
        "area_m2" => ("um2", 1e12),
        "leakage_w" => ("uW", 1e6),
        "energy_per_op_j" => ("pJ", 1e12),
        _ => ("ps", 1e12),
    }
}

fn num_or_null(v: f64) -> serde_json::Value {
    if v.is_finite() {
        serde_json::json!(v)
    } else {
        serde_json::Value::Null
    }
}

/// The fit as JSON: per kind and quantity, terms, coefficients (SI), n, MAPEs.
pub fn to_json(o: &FitOutcome) -> serde_json::Value {
    let mut kinds = serde_json::Map::new();
    for (k, kf) in &o.overlay.kinds {
        let mut qs = serde_json::Map::new();
        for (q, f) in kf.quantities() {
            qs.insert(
                q.to_string(),
                serde_json::json!({
                    "form": f.form,
                    "terms": f.terms,
                    "coefficients": f.coefficients,
                    "n_points": f.n_points,
                    "fit_mape_pct": num_or_null(f.fit_mape_pct),
                    "cv_mape_pct": num_or_null(f.cv_mape_pct),
                }),
            );
        }
        kinds.insert(k.clone(), serde_json::Value::Object(qs));
    }
    serde_json::json!({
        "node": o.overlay.node,
        "reference": {
            "flavour": o.overlay.reference.flavour,
            "corner": o.overlay.reference.corner,
            "vdd_v": o.overlay.reference.vdd_v,
            "clock_period_s": o.overlay.reference.clock_period_s,
        },
        "kinds": kinds,
    })
}

/// The fit as a text table.
pub fn to_table(o: &FitOutcome) -> String {
    let mut s = format!(
        "calibration of {} ({} {}, {:.2} V, clock {:.3} ns)\n",
        o.overlay.node,
        o.overlay.reference.flavour,
        o.overlay.reference.corner,
        o.overlay.reference.vdd_v,
        o.overlay.reference.clock_period_s * 1e9
    );
    s.push_str(&format!(
        "{:<14} {:<16} {:>3} {:>8} {:>8}  form (SI-free units as shown, per term)\n",
        "kind", "quantity", "n", "fit%", "cv%"
    ));
    for (k, kf) in &o.overlay.kinds {
        for (q, f) in kf.quantities() {
            let (u, sc) = unit(q);
            let terms: Vec<String> = f
                .terms
                .iter()
                .zip(&f.coefficients)
                .map(|(t, c)| format!("{:.4e}*{}", c * sc, t))
                .collect();
            let cv = if f.cv_mape_pct.is_finite() {
                format!("{:.2}", f.cv_mape_pct)
            } else {
                "n/a".into()
            };
            s.push_str(&format!(
                "{:<14} {:<16} {:>3} {:>8.2} {:>8}  {} = {}\n",
                k,
                q,
                f.n_points,
                f.fit_mape_pct,
                cv,
                u,
                terms.join(" + ")
            ));
        }
    }
    s
}
