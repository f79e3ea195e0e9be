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

/// A malformed term, or a term that cannot be evaluated with the parameters given.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TermError {
    /// The divisor is not a parenthesised sum of parameter names.
    #[error("term '{term}': divisor must be (NAME+NAME+...), got '{got}'")]
    Divisor {
        /// The whole term.
        term: String,
        /// The divisor as written.
        got: String,
    },
    /// `pow2()`, `clog2()` or `log2()` applied to something other than a parameter name.
    #[error("term '{term}': {func}() needs a parameter name, got '{got}'")]
    FunctionArgument {
        /// The whole term.
        term: String,
        /// `pow2`, `clog2` or `log2`.
        func: &'static str,
        /// The argument as written.
        got: String,
    },
    /// An exponent that is not an integer.
    #[error("term '{term}': exponent '{got}' is not a small integer")]
    Exponent {
        /// The whole term.
        term: String,
        /// The exponent as written.
        got: String,
    },
    /// `NAME^k` with a bad name or k outside 1..=4.
    #[error("term '{term}': expected NAME^k with k in 1..=4, got '{got}'")]
    Power {
        /// The whole term.
        term: String,
        /// The factor as written.
        got: String,
    },
    /// A constant factor that is zero, negative or not finite.
    #[error("term '{term}': constant factor must be positive")]
    NonPositiveConstant {
        /// The whole term.
        term: String,
    },
    /// A factor that is none of the allowed shapes.
    #[error(
        "term '{term}': factor '{factor}' is not a number, NAME, NAME^k, log2(NAME) or clog2(NAME)"
    )]
    Factor {
        /// The whole term.
        term: String,
        /// The factor as written.
        factor: String,
    },
    /// A parameter the term uses is missing.
    #[error("parameter '{name}' is needed by the model but was not given")]
    MissingParam {
        /// The parameter's name.
        name: String,
    },
    /// The divisor sums to zero.
    #[error("divisor of a term is {value}; parameters must be positive")]
    NonPositiveDivisor {
        /// The divisor's value.
        value: f64,
    },
}

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
    pub fn parse(s: &str) -> Result<Term, TermError> {
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
                    return Err(TermError::Divisor {
                        term: s.into(),
                        got: d.into(),
                    });
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
                    return Err(TermError::FunctionArgument {
                        term: s.into(),
                        func: "pow2",
                        got: inner.into(),
                    });
                }
                Factor::Pow2(inner.trim().to_string())
            } else if let Some(inner) = f.strip_prefix("clog2(").and_then(|r| r.strip_suffix(')')) {
                if !is_ident(inner.trim()) {
                    return Err(TermError::FunctionArgument {
                        term: s.into(),
                        func: "clog2",
                        got: inner.into(),
                    });
                }
                Factor::Clog2(inner.trim().to_string())
            } else if let Some(inner) = f.strip_prefix("log2(").and_then(|r| r.strip_suffix(')')) {
                if !is_ident(inner.trim()) {
                    return Err(TermError::FunctionArgument {
                        term: s.into(),
                        func: "log2",
                        got: inner.into(),
                    });
                }
                Factor::Log2(inner.trim().to_string())
            } else if let Some((name, pow)) = f.split_once('^') {
                let p: i32 = pow.trim().parse().map_err(|_| TermError::Exponent {
                    term: s.into(),
                    got: pow.into(),
                })?;
                if !is_ident(name.trim()) || !(1..=4).contains(&p) {
                    return Err(TermError::Power {
                        term: s.into(),
                        got: f.into(),
                    });
                }
                Factor::Pow(name.trim().to_string(), p)
            } else if is_ident(f) {
                Factor::Pow(f.to_string(), 1)
            } else if let Ok(v) = f.parse::<f64>() {
                if !(v.is_finite() && v > 0.0) {
                    return Err(TermError::NonPositiveConstant { term: s.into() });
                }
                Factor::Const(v)
            } else {
                return Err(TermError::Factor {
                    term: s.into(),
                    factor: f.into(),
                });
            };
            factors.push(factor);
        }
        Ok(Term { factors, divisor })
    }

    /// Value of the term for the given parameters; an error names a missing parameter.
    pub fn eval(&self, params: &BTreeMap<String, u32>) -> Result<f64, TermError> {
        let get = |n: &str| {
            params
                .get(n)
                .map(|&v| v as f64)
                .ok_or_else(|| TermError::MissingParam { name: n.into() })
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
                return Err(TermError::NonPositiveDivisor { value: d });
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
            .to_string()
            .contains("'X'"));
    }
}
