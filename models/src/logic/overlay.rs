//! Calibration overlays: coefficients of the logic-component models fitted to synthesis results.
//!
//! An [`Overlay`] holds, per component kind (`alu32`, `crossbar`, ...) and quantity (area,
//! leakage, energy per operation, critical-path delay), a linear form in the component's size
//! parameters — `q = Σ cᵢ · termᵢ(params)`, with terms written in the small term language of
//! [`crate::logic::terms`] (`"N*W"`, `"N^2*W"`, `"N*log2(N)"`, `"1"`) — plus its fit statistics
//! (number of points, in-sample and leave-one-out cross-validated MAPE). Coefficients are SI and
//! hold at the overlay's [`OverlayReference`] operating point; `models::logic` rescales them to
//! other supplies and device flavours through `techlib`.
//!
//! `calibration` writes overlays (it fits them); `models` reads them. On disk they are TOML:
//!
//! ```toml
//! node = "asap7"
//! [reference]
//! flavour = "rvt"
//! corner = "tt"
//! vdd_v = 0.7
//! temperature_c = 25.0
//! clock_period_s = 1e-9
//! [kinds.crossbar.area_m2]
//! form = "crossbar"
//! terms = ["N^2*W", "N*W", "1"]
//! coefficients = [1.1e-13, 2.0e-13, 0.0]
//! n_points = 8
//! fit_mape_pct = 2.1
//! cv_mape_pct = 3.4
//! ```

use crate::logic::terms::{Term, TermError};
use crate::logic::LogicKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Errors reading, validating or writing an overlay.
#[derive(Debug, thiserror::Error)]
pub enum OverlayError {
    /// The file could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// Path of the overlay.
        path: PathBuf,
        /// Underlying error.
        error: std::io::Error,
    },
    /// The TOML is malformed or does not follow the overlay schema.
    #[error("{}:{line}: {msg}", path.display())]
    Syntax {
        /// Path of the overlay (or `<string>`).
        path: PathBuf,
        /// 1-based line (0 when unknown).
        line: usize,
        /// What was wrong.
        msg: String,
    },
}

/// The operating point at which an overlay's coefficients were fitted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OverlayReference {
    /// Device flavour name as techlib spells it (`rvt`, `lvt`, `slvt`).
    pub flavour: String,
    /// Process corner of the characterisation (`tt`, `ff`, `ss`).
    pub corner: String,
    /// Supply voltage of the characterisation, volts.
    pub vdd_v: f64,
    /// Temperature of the characterisation, °C.
    pub temperature_c: f64,
    /// Clock period used in synthesis and power analysis, seconds.
    pub clock_period_s: f64,
    /// Free-text description of the tools and libraries.
    #[serde(default)]
    pub source: String,
}

/// One fitted quantity of one component kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuantityFit {
    /// Name of the form (which structural model the terms come from).
    pub form: String,
    /// Terms of the linear form, in the term language of [`crate::logic::terms`].
    pub terms: Vec<String>,
    /// One SI coefficient per term.
    pub coefficients: Vec<f64>,
    /// Number of synthesis points used.
    pub n_points: usize,
    /// Mean absolute percentage error of the fit on its own points.
    pub fit_mape_pct: f64,
    /// Leave-one-out cross-validated mean absolute percentage error.
    pub cv_mape_pct: f64,
}

impl QuantityFit {
    /// Evaluate `Σ cᵢ·termᵢ(params)`; an error names a term whose parameter is missing.
    pub fn eval(&self, params: &BTreeMap<String, u32>) -> Result<f64, TermError> {
        let mut sum = 0.0;
        for (t, c) in self.terms.iter().zip(&self.coefficients) {
            let term = Term::parse(t)?;
            sum += c * term.eval(params)?;
        }
        Ok(sum)
    }
}

/// The fitted quantities of one component kind (any may be absent; a misspelled quantity is an
/// error, not an absent one).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindFit {
    /// Cell area, m².
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area_m2: Option<QuantityFit>,
    /// Leakage power, W.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leakage_w: Option<QuantityFit>,
    /// Dynamic energy per operation, J.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy_per_op_j: Option<QuantityFit>,
    /// Critical-path delay, s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_s: Option<QuantityFit>,
}

impl KindFit {
    /// The quantities present, by name, in a fixed order.
    pub fn quantities(&self) -> Vec<(&'static str, &QuantityFit)> {
        let mut v = Vec::new();
        for (n, q) in [
            ("area_m2", &self.area_m2),
            ("leakage_w", &self.leakage_w),
            ("energy_per_op_j", &self.energy_per_op_j),
            ("delay_s", &self.delay_s),
        ] {
            if let Some(q) = q {
                v.push((n, q));
            }
        }
        v
    }
}

/// Fitted coefficients per component kind for one technology node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overlay {
    /// techlib node name (`asap7`).
    pub node: String,
    /// Where the coefficients hold.
    pub reference: OverlayReference,
    /// Per component kind (`alu32`, `crossbar`, ...).
    #[serde(default)]
    pub kinds: BTreeMap<String, KindFit>,
}

impl Overlay {
    /// Parse an overlay from TOML text; `path` is used only in error messages.
    pub fn from_toml_str(text: &str, path: &Path) -> Result<Overlay, OverlayError> {
        let ov: Overlay = toml::from_str(text).map_err(|e| OverlayError::Syntax {
            path: path.to_path_buf(),
            line: e
                .span()
                .map(|s| 1 + text[..s.start.min(text.len())].matches('\n').count())
                .unwrap_or(0),
            msg: e.message().to_string(),
        })?;
        ov.validate(text, path)?;
        Ok(ov)
    }

    /// Read an overlay file.
    pub fn load(path: &Path) -> Result<Overlay, OverlayError> {
        let text = std::fs::read_to_string(path).map_err(|source| OverlayError::Io {
            path: path.to_path_buf(),
            error: source,
        })?;
        Self::from_toml_str(&text, path)
    }

    /// Serialise to TOML (deterministic: kinds sorted by name).
    pub fn to_toml_string(&self) -> String {
        let body = toml::to_string(self).expect("overlay serialises to TOML");
        format!("# gpuenergy calibration overlay (fitted coefficients, SI units)\n{body}")
    }

    /// Write the overlay to `path`, after the checks that [`Overlay::load`] applies: an overlay
    /// that could not be read back is never written.
    pub fn save(&self, path: &Path) -> Result<(), OverlayError> {
        self.save_with_header(path, "")
    }

    /// As [`Overlay::save`], with `header` (TOML comment lines, each starting `#`, saying what
    /// wrote the file) before the overlay's text.
    pub fn save_with_header(&self, path: &Path, header: &str) -> Result<(), OverlayError> {
        let text = format!("{header}{}", self.to_toml_string());
        self.validate(&text, path)?;
        std::fs::write(path, text).map_err(|source| OverlayError::Io {
            path: path.to_path_buf(),
            error: source,
        })
    }

    /// Check the overlay, every field against its range: `node` a techlib node and the
    /// reference `flavour` one of its flavours; the reference supply, temperature and clock
    /// period within [`REFERENCE_RANGES`]; every kind a known [`LogicKind`]; every form with
    /// valid term syntax, one coefficient per term, each coefficient finite and of magnitude
    /// at most the quantity's bound ([`QUANTITY_MAX`]: no block of any size is costed by a
    /// coefficient above it), and no negative coefficient on a term other than the constant
    /// `1` (every other term counts hardware, so a negative coefficient would make a larger
    /// block cheaper; the constant alone is an offset of the asymptotic law and may take either
    /// sign); at least one point per term; fit errors non-negative (or NaN, undefined). An error names
    /// the file, the line of the key, the key and the allowed values.
    fn validate(&self, text: &str, path: &Path) -> Result<(), OverlayError> {
        let err = |table: &str, field: &str, msg: String| OverlayError::Syntax {
            path: path.to_path_buf(),
            line: key_line(text, table, field),
            msg: if table.is_empty() {
                format!("{field}: {msg}")
            } else {
                format!("[{table}] {field}: {msg}")
            },
        };
        let node = techlib::node(&self.node).map_err(|e| err("", "node", e.to_string()))?;
        node.flavour(&self.reference.flavour)
            .map_err(|e| err("reference", "flavour", e.to_string()))?;
        for (field, v, lo, hi, unit) in [
            (
                "vdd_v",
                self.reference.vdd_v,
                REFERENCE_RANGES[0].0,
                REFERENCE_RANGES[0].1,
                "V",
            ),
            (
                "temperature_c",
                self.reference.temperature_c,
                REFERENCE_RANGES[1].0,
                REFERENCE_RANGES[1].1,
                "C",
            ),
            (
                "clock_period_s",
                self.reference.clock_period_s,
                REFERENCE_RANGES[2].0,
                REFERENCE_RANGES[2].1,
                "s",
            ),
        ] {
            if !(v.is_finite() && v >= lo && v <= hi) {
                return Err(err(
                    "reference",
                    field,
                    format!("{v} is out of range: allowed {lo:e} to {hi:e} {unit}"),
                ));
            }
        }
        for (kind, kf) in &self.kinds {
            if LogicKind::parse(kind).is_none() {
                return Err(err(
                    &format!("kinds.{kind}"),
                    "kind",
                    format!(
                        "unknown component kind '{kind}'; known: {}",
                        LogicKind::ALL
                            .iter()
                            .map(|k| k.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            for (qname, q) in kf.quantities() {
                let key = format!("kinds.{kind}.{qname}");
                let max = QUANTITY_MAX
                    .iter()
                    .find(|(n, _)| *n == qname)
                    .map_or(f64::INFINITY, |(_, m)| *m);
                if q.terms.len() != q.coefficients.len() {
                    return Err(err(
                        &key,
                        "coefficients",
                        format!(
                            "{} terms but {} coefficients; expected one coefficient per term",
                            q.terms.len(),
                            q.coefficients.len()
                        ),
                    ));
                }
                if q.terms.is_empty() {
                    return Err(err(&key, "terms", "no terms; expected at least one".into()));
                }
                for t in &q.terms {
                    Term::parse(t).map_err(|m| err(&key, "terms", m.to_string()))?;
                }
                if let Some(c) = q.coefficients.iter().find(|c| !c.is_finite()) {
                    return Err(err(
                        &key,
                        "coefficients",
                        format!("coefficient {c} is not a finite number"),
                    ));
                }
                if let Some(c) = q.coefficients.iter().find(|c| c.abs() > max) {
                    return Err(err(
                        &key,
                        "coefficients",
                        format!(
                            "coefficient {c:e} is out of range: allowed magnitude up to {max:e} \
                             (SI, per unit of its term)"
                        ),
                    ));
                }
                for (t, c) in q.terms.iter().zip(&q.coefficients) {
                    if *c < 0.0 && t.trim() != "1" {
                        return Err(err(
                            &key,
                            "coefficients",
                            format!(
                                "coefficient {c} of term '{t}' is negative; only the constant \
                                 term '1' may be"
                            ),
                        ));
                    }
                }
                if q.n_points < q.terms.len() || q.n_points > MAX_POINTS {
                    return Err(err(
                        &key,
                        "n_points",
                        format!(
                            "{} is out of range: allowed {} (one point per term) to {MAX_POINTS}",
                            q.n_points,
                            q.terms.len()
                        ),
                    ));
                }
                for (field, v) in [
                    ("fit_mape_pct", q.fit_mape_pct),
                    ("cv_mape_pct", q.cv_mape_pct),
                ] {
                    // NaN is how a fit records an undefined error (leave-one-out needs more
                    // points than terms); infinities and negatives are corrupt
                    if !(v.is_nan() || (v.is_finite() && v >= 0.0)) {
                        return Err(err(
                            &key,
                            field,
                            format!(
                                "{v} is out of range: allowed a finite number >= 0, or nan \
                                 (undefined)"
                            ),
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Allowed `[reference]` values, (lowest, highest): `vdd_v` above 0 up to 5 V,
/// `temperature_c` from absolute zero to 400 °C, `clock_period_s` 1 ps to 1 s.
pub const REFERENCE_RANGES: [(f64, f64); 3] = [(1e-3, 5.0), (-273.15, 400.0), (1e-12, 1.0)];

/// Largest magnitude of a coefficient per quantity, SI per unit of its term: 1e-3 m² of area,
/// 10 W of leakage, 1e-6 J per operation and 1e-3 s of delay, far above any fitted block (a
/// 32-bit ALU is about 1e-11 m², 1e-7 W, 1e-13 J and 1e-10 s) and below a unit slip.
pub const QUANTITY_MAX: [(&str, f64); 4] = [
    ("area_m2", 1e-3),
    ("leakage_w", 10.0),
    ("energy_per_op_j", 1e-6),
    ("delay_s", 1e-3),
];

/// Most synthesis points a fit may claim.
pub const MAX_POINTS: usize = 1_000_000;

/// The 1-based line of `field = ` inside the table `[table]` of an overlay's text (top level
/// when `table` is empty), the table's header line when the field is not written, 0 when
/// neither is found.
fn key_line(text: &str, table: &str, field: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let start = if table.is_empty() {
        Some(0)
    } else {
        lines
            .iter()
            .position(|l| l.trim() == format!("[{table}]"))
            .map(|i| i + 1)
    };
    let Some(start) = start else { return 0 };
    let is_field = |l: &str| {
        l.trim_start()
            .strip_prefix(field)
            .is_some_and(|r| r.trim_start().starts_with('='))
    };
    for (i, l) in lines.iter().enumerate().skip(start) {
        if l.trim_start().starts_with('[') {
            break;
        }
        if is_field(l) {
            return i + 1;
        }
    }
    start
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Overlay {
        let mut kinds = BTreeMap::new();
        kinds.insert(
            "crossbar".to_string(),
            KindFit {
                area_m2: Some(QuantityFit {
                    form: "crossbar".into(),
                    terms: vec!["N^2*W".into(), "1".into()],
                    coefficients: vec![1e-13, 2e-12],
                    n_points: 5,
                    fit_mape_pct: 1.0,
                    cv_mape_pct: 2.0,
                }),
                ..Default::default()
            },
        );
        Overlay {
            node: "asap7".into(),
            reference: OverlayReference {
                flavour: "rvt".into(),
                corner: "tt".into(),
                vdd_v: 0.7,
                temperature_c: 25.0,
                clock_period_s: 1e-9,
                source: "test".into(),
            },
            kinds,
        }
    }

    #[test]
    fn round_trip() {
        let ov = sample();
        let text = ov.to_toml_string();
        let back = Overlay::from_toml_str(&text, Path::new("x.toml")).unwrap();
        assert_eq!(ov, back);
        let p: BTreeMap<String, u32> = [("N".to_string(), 4), ("W".to_string(), 8)].into();
        let a = back.kinds["crossbar"]
            .area_m2
            .as_ref()
            .unwrap()
            .eval(&p)
            .unwrap();
        assert!((a - (1e-13 * 128.0 + 2e-12)).abs() < 1e-20);
    }

    #[test]
    fn misspelled_kinds_quantities_and_bad_numbers_are_refused() {
        let bad = |edit: &dyn Fn(&mut toml::Table), needle: &str| {
            let mut t: toml::Table = toml::from_str(&sample().to_toml_string()).unwrap();
            edit(&mut t);
            let text = toml::to_string(&t).unwrap();
            let e = Overlay::from_toml_str(&text, Path::new("ov.toml"))
                .unwrap_err()
                .to_string();
            assert!(e.contains(needle), "expected '{needle}' in: {e}");
        };
        fn kinds(t: &mut toml::Table) -> &mut toml::Table {
            t["kinds"].as_table_mut().unwrap()
        }
        fn area(t: &mut toml::Table) -> &mut toml::Table {
            kinds(t)["crossbar"]["area_m2"].as_table_mut().unwrap()
        }
        fn reference(t: &mut toml::Table) -> &mut toml::Table {
            t["reference"].as_table_mut().unwrap()
        }
        bad(
            &|t| {
                let k = kinds(t).remove("crossbar").unwrap();
                kinds(t).insert("crosbar".into(), k);
            },
            "unknown component kind 'crosbar'",
        );
        bad(
            &|t| {
                let k = kinds(t)["crossbar"].as_table_mut().unwrap();
                let q = k.remove("area_m2").unwrap();
                k.insert("area_mm2".into(), q);
            },
            "area_mm2",
        );
        bad(
            &|t| {
                reference(t).insert("clock_period_s".into(), toml::Value::Float(0.0));
            },
            "clock_period_s",
        );
        bad(
            &|t| {
                reference(t).insert("vdd_v".into(), toml::Value::Float(f64::NAN));
            },
            "vdd_v",
        );
        let coef = |c: f64| {
            move |t: &mut toml::Table| {
                area(t).insert(
                    "coefficients".into(),
                    toml::Value::Array(vec![toml::Value::Float(c), toml::Value::Float(2e-12)]),
                );
            }
        };
        bad(&coef(-1e-13), "negative");
        bad(&coef(f64::INFINITY), "finite");
        // A negative constant is an offset and allowed.
        let mut ov = sample();
        ov.kinds
            .get_mut("crossbar")
            .unwrap()
            .area_m2
            .as_mut()
            .unwrap()
            .coefficients[1] = -2e-14;
        Overlay::from_toml_str(&ov.to_toml_string(), Path::new("x")).unwrap();
    }

    #[test]
    fn an_invalid_overlay_is_never_written() {
        let dir = std::env::temp_dir().join(format!("overlay-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ov.toml");
        let mut ov = sample();
        ov.kinds
            .get_mut("crossbar")
            .unwrap()
            .area_m2
            .as_mut()
            .unwrap()
            .coefficients[0] = f64::NAN;
        assert!(ov.save(&path).is_err());
        assert!(!path.exists(), "nothing written");
        let mut ov = sample();
        let kf = ov.kinds.remove("crossbar").unwrap();
        ov.kinds.insert("crosbar".into(), kf);
        assert!(ov.save(&path).is_err());
        assert!(!path.exists());
        sample().save(&path).unwrap();
        assert!(path.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn errors_name_line() {
        let text = sample()
            .to_toml_string()
            .replace("coefficients = [", "coefficients = [1.0, ");
        let e = Overlay::from_toml_str(&text, Path::new("ov.toml")).unwrap_err();
        let m = e.to_string();
        assert!(m.starts_with("ov.toml:"), "{m}");
        assert!(m.contains("coefficient"), "{m}");
        let line: usize = m.split(':').nth(1).unwrap().parse().unwrap();
        assert!(line > 0, "{m}");
        let e = Overlay::from_toml_str("node = \"a\"\nreference = 3\n", Path::new("b.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("b.toml:2:"), "{e}");
    }
}
