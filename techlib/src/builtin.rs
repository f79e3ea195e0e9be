//! The built-in node files (embedded) and node-name resolution.

use crate::blend::{blend, Rule};
use crate::error::TechError;
use crate::schema::NodeFile;
use crate::wire::{Projection, Wire, WireType};
use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};
use toml::Value;

/// Built-in node files, `(name, text)`.
pub const BUILTIN_FILES: [(&str, &str); 10] = [
    ("planar90", include_str!("../data/planar90.toml")),
    ("planar65", include_str!("../data/planar65.toml")),
    ("planar45", include_str!("../data/planar45.toml")),
    ("planar32", include_str!("../data/planar32.toml")),
    ("planar22", include_str!("../data/planar22.toml")),
    ("planar16", include_str!("../data/planar16.toml")),
    ("finfet12", include_str!("../data/finfet12.toml")),
    ("finfet7", include_str!("../data/finfet7.toml")),
    ("asap7", include_str!("../data/asap7.toml")),
    ("planar_model", include_str!("../data/planar_model.toml")),
];

/// Names of the built-in nodes, in the order `gpuenergy techs` lists them.
pub const NODE_NAMES: [&str; 9] = [
    "planar90", "planar65", "planar45", "planar32", "planar22", "planar16", "finfet12", "finfet7",
    "asap7",
];

/// Tabulated planar nodes by feature size (nm), ascending; planar16 is extrapolated.
pub const PLANAR_NODES_NM: [(f64, &str); 6] = [
    (16.0, "planar16"),
    (22.0, "planar22"),
    (32.0, "planar32"),
    (45.0, "planar45"),
    (65.0, "planar65"),
    (90.0, "planar90"),
];

fn text_of(name: &str) -> Option<&'static str> {
    BUILTIN_FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
}

fn parse_value(file: &str, text: &str) -> Result<Value, TechError> {
    toml::from_str::<Value>(text).map_err(|e| TechError::BadFile {
        file: file.to_string(),
        what: e.to_string(),
    })
}

/// Parses a node file text into the schema, naming `file` in errors.
pub fn parse_node_file(file: &str, text: &str) -> Result<NodeFile, TechError> {
    toml::from_str::<NodeFile>(text).map_err(|e| TechError::BadFile {
        file: file.to_string(),
        what: e.to_string(),
    })
}

/// The built-in bulk-planar drive-model assumptions, merged into every planar node.
fn planar_model_value() -> Result<Value, TechError> {
    parse_value("planar_model.toml", text_of("planar_model").unwrap_or(""))
}

/// Parsed value of a tabulated or derived planar node, computed once per process.
fn planar_value(name: &str) -> Result<Value, TechError> {
    static CACHE: OnceLock<Mutex<BTreeMap<String, Value>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(BTreeMap::new()));
    if let Some(v) = cache.lock().ok().and_then(|c| c.get(name).cloned()) {
        return Ok(v);
    }
    let v = planar_value_uncached(name)?;
    if let Ok(mut c) = cache.lock() {
        c.insert(name.to_string(), v.clone());
    }
    Ok(v)
}

/// Parsed value of a tabulated or derived planar node (before typed deserialisation).
fn planar_value_uncached(name: &str) -> Result<Value, TechError> {
    let text = text_of(name).ok_or_else(|| unknown(name))?;
    let own = parse_value(&format!("{name}.toml"), text)?;
    let mut v = if let Some(der) = own.get("derivation") {
        // Derived node: log-linear extrapolation from the two named nodes.
        let from: Vec<String> = der
            .get("from")
            .and_then(|f| f.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        if from.len() != 2 {
            return Err(TechError::BadFile {
                file: format!("{name}.toml"),
                what: "derivation.from must name two nodes".into(),
            });
        }
        let a = with_wire_rc(planar_value(&from[0])?);
        let b = with_wire_rc(planar_value(&from[1])?);
        let fa = feature_nm(&a);
        let fb = feature_nm(&b);
        let f = feature_nm(&own);
        let t = (fa - f) / (fb - fa);
        let mut out = blend(&a, &b, Rule::LogExtrapolate { t });
        if let (Value::Table(o), Value::Table(src)) = (&mut out, &own) {
            for (k, val) in src {
                o.insert(k.clone(), val.clone());
            }
        }
        out
    } else {
        own
    };
    if let Value::Table(t) = &mut v {
        if !t.contains_key("drive_model") {
            if let Some(dm) = planar_model_value()?.get("drive_model") {
                t.insert("drive_model".into(), dm.clone());
            }
        }
    }
    Ok(v)
}

fn feature_nm(v: &Value) -> f64 {
    v.get("feature_size_nm")
        .and_then(|x| x.as_float().or_else(|| x.as_integer().map(|i| i as f64)))
        .unwrap_or(f64::NAN)
}

/// Writes each geometric wire's R and C per µm into the tree, so that interpolation between
/// nodes interpolates R and C (as CACTI does) rather than recomputing them from blended geometry.
fn with_wire_rc(mut v: Value) -> Value {
    let f_m = feature_nm(&v) * 1e-9;
    let Ok(file) = v.clone().try_into::<NodeFile>() else {
        return v;
    };
    if let Some(Value::Table(wires)) = v.get_mut("wires") {
        for p in Projection::ALL {
            for t in WireType::ALL {
                let Some(wf) = file.wires.get(p.key()).and_then(|m| m.get(t.key())) else {
                    continue;
                };
                let Some(w) = Wire::from_file(wf, t, p, f_m) else {
                    continue;
                };
                if let Some(Value::Table(entry)) = wires
                    .get_mut(p.key())
                    .and_then(|m| m.as_table_mut())
                    .and_then(|m| m.get_mut(t.key()))
                {
                    entry.insert("r_per_um_ohm".into(), Value::Float(w.r_ohm_per_m() * 1e-6));
                    entry.insert("c_per_um_f".into(), Value::Float(w.c_f_per_m() * 1e-6));
                }
            }
        }
    }
    v
}

fn unknown(asked: &str) -> TechError {
    TechError::UnknownNode {
        asked: asked.to_string(),
        known: NODE_NAMES.join(", "),
        min_nm: PLANAR_NODES_NM[0].0,
        max_nm: PLANAR_NODES_NM[PLANAR_NODES_NM.len() - 1].0,
    }
}

/// Parses a feature size: `40nm`, `40 nm`, `0.04um`, or a bare number (micrometres when below 1,
/// as in CACTI's `tech_um`; nanometres otherwise). Returns nanometres.
pub fn parse_feature_nm(s: &str) -> Option<f64> {
    let t = s.trim().to_ascii_lowercase();
    let (num, unit_nm) = if let Some(x) = t.strip_suffix("nm") {
        (x.trim(), Some(1.0))
    } else if let Some(x) = t.strip_suffix("um") {
        (x.trim(), Some(1000.0))
    } else {
        (t.as_str(), None)
    };
    let x: f64 = num.parse().ok()?;
    if !x.is_finite() || x <= 0.0 {
        return None;
    }
    Some(match unit_nm {
        Some(m) => x * m,
        None if x < 1.0 => x * 1000.0,
        None => x,
    })
}

/// Resolves a node name to its parsed file: built-in name, or planar feature size (interpolated).
/// Results are memoised per name.
pub fn resolve(name: &str) -> Result<NodeFile, TechError> {
    static CACHE: OnceLock<Mutex<BTreeMap<String, NodeFile>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(BTreeMap::new()));
    let key = name.trim().to_ascii_lowercase();
    if let Some(f) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(f);
    }
    let f = resolve_uncached(name)?;
    if let Ok(mut c) = cache.lock() {
        if c.len() < 4096 {
            c.insert(key, f.clone());
        }
    }
    Ok(f)
}

fn resolve_uncached(name: &str) -> Result<NodeFile, TechError> {
    let key = name.trim().to_ascii_lowercase();
    if key == "finfet12" || key == "finfet7" || key == "asap7" {
        let text = text_of(&key).ok_or_else(|| unknown(name))?;
        return parse_node_file(&format!("{key}.toml"), text);
    }
    if let Some((_, n)) = PLANAR_NODES_NM.iter().find(|(_, n)| *n == key) {
        return typed(n, planar_value(n)?);
    }
    let f = parse_feature_nm(&key).ok_or_else(|| unknown(name))?;
    // Snap to a tabulated node when within floating-point noise (0.045 um = 45 nm).
    let snapped = (f * 1e6).round() / 1e6;
    if let Some((_, n)) = PLANAR_NODES_NM
        .iter()
        .find(|(nm, _)| (*nm - snapped).abs() < 1e-6)
    {
        return typed(n, planar_value(n)?);
    }
    let lo = PLANAR_NODES_NM.iter().rev().find(|(nm, _)| *nm < snapped);
    let hi = PLANAR_NODES_NM.iter().find(|(nm, _)| *nm > snapped);
    let (Some(&(f_lo, n_lo)), Some(&(f_hi, n_hi))) = (lo, hi) else {
        return Err(unknown(name));
    };
    let a = with_wire_rc(planar_value(n_lo)?);
    let b = with_wire_rc(planar_value(n_hi)?);
    let w = (f_hi - snapped) / (f_hi - f_lo);
    let mut v = blend(&a, &b, Rule::Linear { w });
    if let Value::Table(t) = &mut v {
        let label = format_nm(snapped);
        t.insert("name".into(), Value::String(label.clone()));
        t.insert("feature_size_nm".into(), Value::Float(snapped));
        t.insert(
            "description".into(),
            Value::String(format!(
                "planar {label}: linear interpolation in feature size between {n_lo} and {n_hi}"
            )),
        );
        t.remove("derivation");
    }
    typed(name, v)
}

/// `40nm`, `22.5nm`.
pub fn format_nm(nm: f64) -> String {
    let s = format!("{nm:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}nm")
}

fn typed(name: &str, v: Value) -> Result<NodeFile, TechError> {
    v.try_into::<NodeFile>().map_err(|e| TechError::BadFile {
        file: format!("{name} (built)"),
        what: e.to_string(),
    })
}
