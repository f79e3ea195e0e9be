//! A tiny term language for the linear forms of the logic models.
//!
//! A term is a product of factors separated by `*`. A factor is
//! - `1` (the constant term) or any positive decimal number,
//! - a size parameter name (`N`, `W`, `E`), optionally raised to a small integer power (`N^2`),
//! - `log2(N)` (real logarithm) or `clog2(N)` (⌈log₂ N⌉, at least 1: the bits needed to encode
//!   N choices, the depth of an N-input tree),
//! - `pow2(N)` (2ᴺ: the entries of a table indexed by N bits).
//!
//! A term may end with a divisor `/(A+B)`, a sum of parameters (or a single one): per-operation
//! energy of a block that performs A+B operations per cycle, e.g.
//! `"ENTRIES*WIDTH/(RPORTS+WPORTS)"` (clocking all storage, shared by every port access).
//!
//! Examples: `"N^2*W"` (crossbar crosspoints), `"E*W"` (CAM match cells), `"N*clog2(N)"`
//! (arbiter priority tree). Parameter names are case-sensitive and must match the component's
//! size parameters.

use std::collections::BTreeMap;

/// One factor of a term.
#[derive(Debug, Clone, PartialEq)]
enum Factor {
    Const(f64),
    Pow(String, i32),
    Log2(String),
    Clog2(String),
    Pow2(String),
}

/// A parsed term: the product of its factors.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    factors: Vec<Factor>,
    /// Parameters summed in the divisor (empty: no divisor).
    divisor: Vec<String>,
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic() || ch == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

impl Term {
    /// Parse a term; the error says which factor is malformed and what is allowed.
    pub fn parse(s: &str) -> Result<Term, String> {
        let mut factors = Vec::new();
        let (num, div) = match s.split_once('/') {
            Some((n, d)) => (n, Some(d.trim())),
            None => (s, None),
        };
        let mut divisor = Vec::new();
        if let Some(d) = div {
            let inner = d
                .strip_prefix('(')
                .and_then(|r| r.strip_suffix(')'))
                .unwrap_or(d);
            for n in inner.split('+') {
                let n = n.trim();
                if !is_ident(n) {
                    return Err(format!(
                        "term '{s}': divisor must be (NAME+NAME+...), got '{d}'"
                    ));
                }
                divisor.push(n.to_string());
            }
        }
        for raw in num.split('*') {
            let f = raw.trim();
            let factor = if let Some(inner) =
                f.strip_prefix("pow2(").and_then(|r| r.strip_suffix(')'))
            {
                if !is_ident(inner.trim()) {
                    return Err(format!(
                        "term '{s}': pow2() needs a parameter name, got '{inner}'"
                    ));
                }
                Factor::Pow2(inner.trim().to_string())
            } else if let Some(inner) = f.strip_prefix("clog2(").and_then(|r| r.strip_suffix(')')) {
                if !is_ident(inner.trim()) {
                    return Err(format!(
                        "term '{s}': clog2() needs a parameter name, got '{inner}'"
                    ));
                }
                Factor::Clog2(inner.trim().to_string())
            } else if let Some(inner) = f.strip_prefix("log2(").and_then(|r| r.strip_suffix(')')) {
                if !is_ident(inner.trim()) {
                    return Err(format!(
                        "term '{s}': log2() needs a parameter name, got '{inner}'"
                    ));
                }
                Factor::Log2(inner.trim().to_string())
            } else if let Some((name, pow)) = f.split_once('^') {
                let p: i32 = pow
                    .trim()
                    .parse()
                    .map_err(|_| format!("term '{s}': exponent '{pow}' is not a small integer"))?;
                if !is_ident(name.trim()) || !(1..=4).contains(&p) {
                    return Err(format!(
                        "term '{s}': expected NAME^k with k in 1..=4, got '{f}'"
                    ));
                }
                Factor::Pow(name.trim().to_string(), p)
            } else if is_ident(f) {
                Factor::Pow(f.to_string(), 1)
            } else if let Ok(v) = f.parse::<f64>() {
                if !(v.is_finite() && v > 0.0) {
                    return Err(format!("term '{s}': constant factor must be positive"));
                }
                Factor::Const(v)
            } else {
                return Err(format!(
                    "term '{s}': factor '{f}' is not a number, NAME, NAME^k, log2(NAME) or clog2(NAME)"
                ));
            };
            factors.push(factor);
        }
        Ok(Term { factors, divisor })
    }

    /// Value of the term for the given parameters; an error names a missing parameter.
    pub fn eval(&self, params: &BTreeMap<String, u32>) -> Result<f64, String> {
        let get = |n: &str| {
            params
                .get(n)
                .map(|&v| v as f64)
                .ok_or_else(|| format!("parameter '{n}' is needed by the model but was not given"))
        };
        let mut v = 1.0;
        for f in &self.factors {
            v *= match f {
                Factor::Const(c) => *c,
                Factor::Pow(n, p) => get(n)?.powi(*p),
                Factor::Log2(n) => get(n)?.max(1.0).log2(),
                Factor::Clog2(n) => get(n)?.max(2.0).log2().ceil(),
                Factor::Pow2(n) => get(n)?.exp2(),
            };
        }
        if !self.divisor.is_empty() {
            let mut d = 0.0;
            for n in &self.divisor {
                d += get(n)?;
            }
            if d <= 0.0 {
                return Err(format!(
                    "divisor of a term is {d}; parameters must be positive"
                ));
            }
            v /= d;
        }
        Ok(v)
    }

    /// Parameter names this term uses.
    pub fn params(&self) -> Vec<&str> {
        self.factors
            .iter()
            .filter_map(|f| match f {
                Factor::Const(_) => None,
                Factor::Pow(n, _) | Factor::Log2(n) | Factor::Clog2(n) | Factor::Pow2(n) => {
                    Some(n.as_str())
                }
            })
            .chain(self.divisor.iter().map(|s| s.as_str()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_eval() {
        let p: BTreeMap<String, u32> = [("N".to_string(), 8), ("W".to_string(), 32)].into();
        let ev = |s: &str| Term::parse(s).unwrap().eval(&p).unwrap();
        assert_eq!(ev("1"), 1.0);
        assert_eq!(ev("N^2*W"), 2048.0);
        assert_eq!(ev("N*clog2(N)"), 24.0);
        assert_eq!(ev("log2(W)"), 5.0);
        assert_eq!(ev("pow2(N)*W"), 8192.0);
        assert_eq!(ev("N*W/(N+W)"), 256.0 / 40.0);
        assert_eq!(ev("W/(N)"), 4.0);
        assert!(Term::parse("N/(2+W)").is_err());
        assert!(Term::parse("N^9").is_err());
        assert!(Term::parse("N+W").is_err());
        assert!(Term::parse("2*X")
            .unwrap()
            .eval(&p)
            .unwrap_err()
            .contains("'X'"));
    }
}
