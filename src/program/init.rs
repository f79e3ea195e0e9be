//! A program file's buffer contents: the numbers as written (`num`), whether one fits a
//! dtype (`check_num`), and the `init` spec of a buffer or a copy (`parse_init`: zeros, a
//! constant, a range, seeded random values of the dtype, or a `.npy`/raw file read against the
//! program file's folder), each fault a message naming the key.

use super::npy;
use super::{DType, Init, Num};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// A number as written (integers kept exact).
pub(crate) fn num(v: &toml::Value) -> Option<Num> {
    match v {
        toml::Value::Integer(i) => Some(Num::Int(*i as i128)),
        toml::Value::Float(f) => Some(Num::Float(*f)),
        _ => None,
    }
}

/// Checks that `n` is representable in `dtype` (integers: exactly, in range).
fn check_num(n: Num, dtype: DType, what: &str) -> Result<(), String> {
    match (n, dtype.int_range()) {
        (Num::Int(i), Some((lo, hi))) if i < lo || i > hi => Err(format!(
            "{what} {i} is outside the range of {} ({lo}..={hi})",
            dtype.name()
        )),
        (Num::Float(f), Some(_)) => Err(format!(
            "{what} {f} is not an integer, and the buffer's dtype is {}",
            dtype.name()
        )),
        (Num::Float(f), None) if !f.is_finite() && what != "constant" => {
            Err(format!("{what} {f} is not finite"))
        }
        _ => Ok(()),
    }
}

/// Parses an init spec (`"zeros"`, `{ constant = V }`, `{ range = {…} }`, `{ random = {…} }`,
/// `{ file = "…" }`) for a buffer of `count` elements of `dtype`; files are resolved against
/// `folder` and read.
pub(crate) fn parse_init(
    v: &toml::Value,
    dtype: DType,
    count: u64,
    folder: &Path,
) -> Result<Init, String> {
    const ALLOWED: &str = "allowed: \"zeros\", { constant = V }, { range = { start = A, step = \
                           B } }, { random = { seed = S, min = A, max = B } }, { file = \"PATH\" }";
    if let toml::Value::String(s) = v {
        return match s.as_str() {
            "zeros" => Ok(Init::Zeros),
            _ => Err(format!("unknown init '{s}'; {ALLOWED}")),
        };
    }
    let toml::Value::Table(t) = v else {
        return Err(format!("init must be a string or a table; {ALLOWED}"));
    };
    if t.len() != 1 {
        return Err(format!("init must have exactly one key; {ALLOWED}"));
    }
    let (k, val) = t.iter().next().expect("one key");
    let sub = |keys: &[&str]| -> Result<BTreeMap<String, toml::Value>, String> {
        let toml::Value::Table(st) = val else {
            return Err(format!(
                "'{k}' must be a table with keys {}",
                keys.join(", ")
            ));
        };
        for key in st.keys() {
            if !keys.contains(&key.as_str()) {
                return Err(format!(
                    "unknown key '{key}' in '{k}'; allowed: {}",
                    keys.join(", ")
                ));
            }
        }
        Ok(st.iter().map(|(a, b)| (a.clone(), b.clone())).collect())
    };
    let need = |m: &BTreeMap<String, toml::Value>, key: &str| -> Result<Num, String> {
        let x = m.get(key).ok_or_else(|| format!("'{k}' needs '{key}'"))?;
        num(x).ok_or_else(|| format!("'{k}.{key}' must be a number"))
    };
    match k.as_str() {
        "constant" => {
            let n = num(val).ok_or("'constant' must be a number")?;
            check_num(n, dtype, "constant")?;
            Ok(Init::Constant(n))
        }
        "range" => {
            let m = sub(&["start", "step"])?;
            let (start, step) = (need(&m, "start")?, need(&m, "step")?);
            check_num(start, dtype, "range.start")?;
            check_num(
                step,
                dtype.int_range().map_or(DType::F64, |_| DType::I64),
                "range.step",
            )
            .map_err(|e| e.replace("the buffer's dtype is", "the buffer's dtype is integer,"))?;
            if let (Num::Int(a), Num::Int(b), Some((lo, hi))) = (start, step, dtype.int_range()) {
                let last = a + b * (count.max(1) as i128 - 1);
                if last < lo || last > hi {
                    return Err(format!(
                        "range reaches {last} at element {}, outside the range of {} \
                         ({lo}..={hi})",
                        count.max(1) - 1,
                        dtype.name()
                    ));
                }
            }
            Ok(Init::Range { start, step })
        }
        "random" => {
            let m = sub(&["seed", "min", "max"])?;
            let seed = match need(&m, "seed")? {
                Num::Int(s) if s >= 0 => s as u64,
                _ => return Err("'random.seed' must be a non-negative integer".into()),
            };
            let (min, max) = (need(&m, "min")?, need(&m, "max")?);
            check_num(min, dtype, "random.min")?;
            check_num(max, dtype, "random.max")?;
            if min.as_f64() > max.as_f64() || (dtype.is_float() && min.as_f64() == max.as_f64()) {
                return Err(format!(
                    "random.min {} must be below random.max {}",
                    min.as_f64(),
                    max.as_f64()
                ));
            }
            Ok(Init::Random { seed, min, max })
        }
        "file" => {
            let toml::Value::String(p) = val else {
                return Err("'file' must be a path (string)".into());
            };
            let path = folder.join(p);
            let bytes =
                std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let want = count * dtype.size();
            let data = if path.extension().is_some_and(|e| e == "npy") {
                let n = npy::read(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
                if n.dtype != dtype {
                    return Err(format!(
                        "{} holds {} elements; the buffer's dtype is {}",
                        path.display(),
                        n.dtype.name(),
                        dtype.name()
                    ));
                }
                if n.count() != count {
                    return Err(format!(
                        "{} holds {} elements; the buffer has {count}",
                        path.display(),
                        n.count()
                    ));
                }
                n.data
            } else {
                if bytes.len() as u64 != want {
                    return Err(format!(
                        "{} has {} bytes; the buffer has {want} ({count} x {})",
                        path.display(),
                        bytes.len(),
                        dtype.name()
                    ));
                }
                bytes
            };
            Ok(Init::File {
                path,
                data: Arc::new(data),
            })
        }
        other => Err(format!("unknown init '{other}'; {ALLOWED}")),
    }
}
