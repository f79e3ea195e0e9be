//! The reference of every key a configuration file (`--config`) or `--set` accepts: the
//! machine's tables (`sim`'s schema, the registered technique sections included) and the
//! study's `[energy]` and `[opt]`, one row per key with its meaning, the values it allows and
//! its value in each built-in preset.
//!
//! Nothing here is typed: the keys are those of the presets' full files
//! ([`StudyConfig::to_full_toml_string`], what `presets --dump` prints), the meaning is the
//! field's doc comment read from the schema's source ([`sim::config::keydoc`]), a number's
//! range and unit come from the tables the loader checks with ([`sim::config::key_range`],
//! [`super::opt::RANGES`], `models::energy_section::RANGES`), and a choice's allowed values
//! are the ones the loader names when it refuses a value that is none of them. A key without
//! a meaning, or a number without a range and unit, is an error naming the key, so a new key
//! cannot go undocumented (`tests/config_keys_doc.rs`).

use super::StudyConfig;
use serde::Serialize;
use sim::config::keydoc::{schema_sources, DocIndex};
use sim::config::GpuConfig;

/// The preset whose values the reference lists first (the default of every command).
pub const DEFAULT_PRESET: &str = "gtx480";

/// One key of the reference.
#[derive(Clone, Debug, Serialize)]
pub struct KeyRow {
    /// The dotted key as `--set` takes it (`gpu.core_mhz`).
    pub key: String,
    /// What the key sets: its doc comment in the schema.
    pub meaning: String,
    /// `number`, `integer`, `number list`, `boolean`, `choice`, `text` or `text list`.
    pub kind: &'static str,
    /// The unit of a number (`MHz`, `cycles`; a parenthesised word for a dimensionless one).
    pub unit: Option<String>,
    /// The smallest value a number may take.
    pub min: Option<f64>,
    /// The largest value a number may take (`None` with `min`: unbounded above).
    pub max: Option<f64>,
    /// The values a choice allows, as the loader names them (comma-separated); for text the
    /// loader checks, its rule.
    pub allowed: Option<String>,
    /// The key's value in each built-in preset, as TOML (preset name, value).
    pub presets: Vec<(String, String)>,
}

impl KeyRow {
    /// The key's value in [`DEFAULT_PRESET`].
    pub fn default_value(&self) -> &str {
        self.presets
            .iter()
            .find(|(p, _)| p == DEFAULT_PRESET)
            .map(|(_, v)| v.as_str())
            .unwrap_or("")
    }

    /// What the key allows, in words: `1 to 100000 MHz`, `true or false`, the choices.
    pub fn allowed_text(&self) -> String {
        match (self.kind, self.min, &self.allowed) {
            ("boolean", _, _) => "true or false".into(),
            (_, Some(lo), _) => {
                let unit = self.unit.as_deref().unwrap_or("");
                let each = if self.kind == "number list" {
                    "each "
                } else {
                    ""
                };
                match self.max {
                    Some(hi) if hi.is_finite() => {
                        format!("{each}{} to {} {unit}", show(lo), show(hi))
                    }
                    _ => format!("{each}≥ {} {unit}", show(lo)),
                }
            }
            ("choice", _, Some(a)) => format!("one of: {a}"),
            (_, _, Some(rule)) => format!("text: {rule}"),
            ("text list", _, _) => "list of text".into(),
            _ => "text".into(),
        }
    }
}

/// `v` without a fraction when it has none.
fn show(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e16 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// The doc-comment index of every table a study configuration has.
fn index() -> DocIndex {
    let mut sources: Vec<(&str, &str)> = schema_sources();
    sources.push(models::energy_section::SOURCE);
    sources.push(("src/study_config/opt.rs", include_str!("opt.rs")));
    DocIndex::parse(&sources)
}

/// The struct a key's first part names, and the path below it.
fn root_of(key: &str) -> (&'static str, Vec<&str>) {
    let parts: Vec<&str> = key.split('.').collect();
    match parts[0] {
        "energy" => ("EnergySection", parts[1..].to_vec()),
        "opt" => ("OptSection", parts[1..].to_vec()),
        _ => ("GpuConfig", parts),
    }
}

/// The meaning of a top-level table (`gpu`, `energy`), from the field or struct that declares
/// it; empty when it has none.
pub fn table_meaning(table: &str) -> String {
    let ix = index();
    match table {
        "energy" | "opt" => {
            let name = root_of(table).0;
            ix.item_doc(name)
                .map(|d| {
                    let tag = format!("`[{table}]`");
                    let d = d.strip_prefix(&tag).unwrap_or(d);
                    let d = d.trim_start_matches([':', '.', ' ']);
                    let mut c = d.chars();
                    c.next()
                        .map(|f| f.to_uppercase().chain(c).collect())
                        .unwrap_or_default()
                })
                .unwrap_or_default()
        }
        _ => ix.meaning("GpuConfig", &[table]).unwrap_or_default(),
    }
}

/// Every leaf of `t` as (dotted key, value), tables walked in order.
fn leaves(t: &toml::Table, prefix: &str, out: &mut Vec<(String, toml::Value)>) {
    for (k, v) in t {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(sub) => leaves(sub, &key, out),
            _ => out.push((key, v.clone())),
        }
    }
}

/// The range and unit of a numeric key, from the table its owner checks with.
fn range(key: &str) -> Option<(f64, f64, String)> {
    if let Some((lo, hi, unit)) = sim::config::key_range(key) {
        return Some((lo, hi, unit.to_string()));
    }
    super::opt::RANGES
        .iter()
        .chain(models::energy_section::RANGES)
        .find(|(k, ..)| *k == key)
        .map(|&(_, lo, hi, unit)| (lo, hi, unit.to_string()))
}

/// What the loader says when `key` is set to a word no value of it is: the allowed values it
/// names (`Choice`), else its rule for the text (`Rule`); `None` when it accepts the word.
fn probe(base: &StudyConfig, key: &str) -> Option<Probe> {
    let word = "__not_a_value__";
    let e = match base.with_overrides(&[(key.to_string(), word.to_string())], "--set") {
        Ok(_) => return None,
        Err(e) => e.to_string(),
    };
    for (open, close) in [
        ("expected one of ", None),
        ("(allowed: ", Some(')')),
        ("(expected ", Some(')')),
        ("expected `", None),
    ] {
        if let Some(at) = e.find(open) {
            let rest = &e[at + open.len() - usize::from(open.ends_with('`'))..];
            let list = match close {
                Some(c) => rest.rfind(c).map(|i| &rest[..i]).unwrap_or(rest),
                None => rest,
            };
            let list = list.trim().trim_end_matches('.').replace('`', "");
            let items: Vec<&str> = list
                .split(", ")
                .flat_map(|x| x.split(" or "))
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .collect();
            return Some(Probe::Choice(items.join(", ")));
        }
    }
    if e.contains("untagged enum") {
        // A number or a word: serde names neither; the meaning says which.
        return Some(Probe::Rule(
            "a number or a word, as the meaning says".into(),
        ));
    }
    // The rule after the key and the echoed word.
    let tag = format!("'{key}'");
    let mut rule = e.find(&tag).map(|i| &e[i + tag.len()..]).unwrap_or(&e);
    if let Some(i) = rule.rfind(word) {
        rule = &rule[i + word.len()..];
    }
    let rule = rule
        .trim_start_matches(['"', '\'', ':', ',', ' '])
        .to_string();
    Some(Probe::Rule(rule))
}

/// The loader's answer to a word that is no value of a text key.
enum Probe {
    /// The allowed values, comma-separated.
    Choice(String),
    /// The rule the text must follow, as the loader words it.
    Rule(String),
}

/// Every key of a study configuration, in the order of the full file, with its meaning,
/// allowed values and per-preset values. `Err` lists each key without a meaning, each number
/// without a range and unit.
pub fn key_reference() -> Result<Vec<KeyRow>, Vec<String>> {
    let ix = index();
    let mut per_preset: Vec<(String, Vec<(String, toml::Value)>)> = Vec::new();
    let mut problems = Vec::new();
    for name in GpuConfig::preset_names() {
        let cfg = StudyConfig::preset(name).map_err(|e| vec![e.to_string()])?;
        let table: toml::Table =
            toml::from_str(&cfg.to_full_toml_string()).map_err(|e| vec![format!("{name}: {e}")])?;
        let mut out = Vec::new();
        leaves(&table, "", &mut out);
        per_preset.push((name.to_string(), out));
    }
    let mut keys: Vec<(String, toml::Value)> = Vec::new();
    for (_, list) in &per_preset {
        for (k, v) in list {
            if !keys.iter().any(|(x, _)| x == k) {
                keys.push((k.clone(), v.clone()));
            }
        }
    }
    let base = StudyConfig::preset(DEFAULT_PRESET).map_err(|e| vec![e.to_string()])?;
    let mut rows = Vec::new();
    for (key, value) in keys {
        let (root, path) = root_of(&key);
        let meaning = match ix.meaning(root, &path) {
            Ok(m) => m,
            Err(e) => {
                problems.push(format!("{key}: no meaning ({e})"));
                continue;
            }
        };
        let numbers = |a: &Vec<toml::Value>| a.iter().all(|x| x.is_integer() || x.is_float());
        let kind = match &value {
            toml::Value::Integer(_) => "integer",
            toml::Value::Float(_) => "number",
            toml::Value::Boolean(_) => "boolean",
            toml::Value::String(_) => "text",
            toml::Value::Array(a) if !a.is_empty() && numbers(a) => "number list",
            toml::Value::Array(a) if a.is_empty() && range(&key).is_some() => "number list",
            toml::Value::Array(_) => "text list",
            _ => "text",
        };
        let mut row = KeyRow {
            key: key.clone(),
            meaning,
            kind,
            unit: None,
            min: None,
            max: None,
            allowed: None,
            presets: per_preset
                .iter()
                .filter_map(|(p, list)| {
                    list.iter()
                        .find(|(k, _)| *k == key)
                        .map(|(_, v)| (p.clone(), v.to_string()))
                })
                .collect(),
        };
        match kind {
            "integer" | "number" | "number list" => match range(&key) {
                Some((lo, hi, unit)) => {
                    row.min = Some(lo);
                    row.max = hi.is_finite().then_some(hi);
                    row.unit = Some(unit);
                }
                None => problems.push(format!("{key}: a number without a range and unit")),
            },
            "text" => match probe(&base, &key) {
                Some(Probe::Choice(list)) => {
                    row.kind = "choice";
                    row.allowed = Some(list);
                }
                Some(Probe::Rule(rule)) => row.allowed = Some(rule),
                None => {}
            },
            _ => {}
        }
        rows.push(row);
    }
    if problems.is_empty() {
        Ok(rows)
    } else {
        Err(problems)
    }
}
