//! Interpolation and extrapolation between tabulated nodes.
//!
//! A planar node at a feature size that is not tabulated is built from its two neighbours as
//! CACTI does: every parameter is linear in feature size between the two nodes,
//! `p(F) = w·p(F_lo) + (1 − w)·p(F_hi)` with `w = (F_hi − F)/(F_hi − F_lo)`. Temperature tables,
//! cell geometry (in F units) and wire geometry are blended entry by entry; only entries present at
//! both nodes survive (a device type missing at one node is missing at the blend).
//!
//! Beyond the last tabulated node (planar16, from 22 and 32 nm) a straight-line extrapolation can
//! turn lengths, currents and voltages negative, so extrapolation is log-linear instead:
//! `p(F) = p(F_a)·(p(F_a)/p(F_b))^((F_a − F)/(F_b − F_a))`, a power law in feature size through the
//! two nodes. Where either value is zero or negative the nearer node's value is kept.

use toml::Value;

/// How two numbers combine.
#[derive(Debug, Clone, Copy)]
pub enum Rule {
    /// `w·a + (1 − w)·b`.
    Linear {
        /// Weight of `a`: `(F_hi − F)/(F_hi − F_lo)`, from 0 to 1 between the nodes.
        w: f64,
    },
    /// `a·(a/b)^t` for positive `a`, `b`; `a` otherwise.
    LogExtrapolate {
        /// Exponent `(F_a − F)/(F_b − F_a)`: distance past the nearer node, in node spacings.
        t: f64,
    },
}

impl Rule {
    fn number(self, a: f64, b: f64) -> f64 {
        match self {
            Rule::Linear { w } => w * a + (1.0 - w) * b,
            Rule::LogExtrapolate { t } => {
                if a > 0.0 && b > 0.0 {
                    a * (a / b).powf(t)
                } else {
                    a
                }
            }
        }
    }
}

/// Blends two parsed node files of the same schema. Strings come from `a`.
pub fn blend(a: &Value, b: &Value, rule: Rule) -> Value {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => Value::Float(rule.number(*x, *y)),
        (Value::Integer(x), Value::Integer(y)) => Value::Float(rule.number(*x as f64, *y as f64)),
        (Value::Float(x), Value::Integer(y)) => Value::Float(rule.number(*x, *y as f64)),
        (Value::Integer(x), Value::Float(y)) => Value::Float(rule.number(*x as f64, *y)),
        (Value::Array(xs), Value::Array(ys)) if xs.len() == ys.len() => {
            Value::Array(xs.iter().zip(ys).map(|(x, y)| blend(x, y, rule)).collect())
        }
        (Value::Table(ta), Value::Table(tb)) => {
            let mut out = toml::map::Map::new();
            for (k, va) in ta {
                if let Some(vb) = tb.get(k) {
                    out.insert(k.clone(), blend(va, vb, rule));
                }
            }
            Value::Table(out)
        }
        _ => a.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_midpoint_and_missing_keys() {
        let a: Value = toml::from_str("x = 1.0\ny = [2.0, 4.0]\nonly_a = 3.0\ns = \"a\"").unwrap();
        let b: Value = toml::from_str("x = 3.0\ny = [4.0, 8.0]\ns = \"b\"").unwrap();
        let c = blend(&a, &b, Rule::Linear { w: 0.5 });
        assert_eq!(c["x"].as_float(), Some(2.0));
        assert_eq!(c["y"][1].as_float(), Some(6.0));
        assert!(c.get("only_a").is_none());
        assert_eq!(c["s"].as_str(), Some("a"));
    }

    #[test]
    fn log_extrapolation_keeps_sign() {
        let a: Value = toml::from_str("x = 2.0\nz = 0.0").unwrap();
        let b: Value = toml::from_str("x = 4.0\nz = 1.0").unwrap();
        let c = blend(&a, &b, Rule::LogExtrapolate { t: 1.0 });
        assert_eq!(c["x"].as_float(), Some(1.0));
        assert_eq!(c["z"].as_float(), Some(0.0));
    }
}
