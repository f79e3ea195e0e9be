//! Tables of a configuration file that another crate owns (the cost models' `[energy]`, the
//! optimiser's `[opt]`): [`GpuConfig::from_toml_str_split`](crate::config::GpuConfig) sets
//! them aside as written, and their owner reads each one here onto its defaults, key by key,
//! with the same strictness and messages as the machine's tables — an unknown key or a value
//! of the wrong type is an error naming the file, the line and the key.

use super::cfg_err;
use super::tables::set_path_creating;
use super::tables::{find_key_line, first_bad_key_by, merge, parse_override_value};
use crate::SimError;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The top-level tables of a configuration file that other crates own, as written, with the
/// file's text and name for their messages.
#[derive(Clone, Debug, Default)]
pub struct OtherTables {
    tables: toml::Table,
    text: String,
    file: String,
}

impl OtherTables {
    pub(super) fn new(tables: toml::Table, text: &str, file: &str) -> OtherTables {
        OtherTables {
            tables,
            text: text.to_string(),
            file: file.to_string(),
        }
    }

    /// Whether the file has the table `name`.
    pub fn has(&self, name: &str) -> bool {
        self.tables.contains_key(name)
    }

    /// The table `name` read onto `T::default()` key by key (`T` is the table's serde struct,
    /// every key present in its serialisation); the defaults when the file has no such table.
    pub fn read<T: Serialize + DeserializeOwned + Default>(
        &self,
        name: &str,
    ) -> Result<T, SimError> {
        let mut user = toml::Table::new();
        if let Some(v) = self.tables.get(name) {
            user.insert(name.to_string(), v.clone());
        }
        overlay(&T::default(), name, &user, Some(&self.text), &self.file)
    }
}

/// `current` (the table `name` of a configuration) with single keys overridden, as the
/// command line's `--set name.key=value` gives them: each `(dotted key, value)` pair, whose
/// key starts with `name.`, replaces one key; a value is read as
/// [`GpuConfig::with_overrides`](crate::config::GpuConfig::with_overrides) reads it. Unknown keys
/// and values of the wrong type are errors naming `origin` and the key.
pub fn table_with_overrides<T: Serialize + DeserializeOwned>(
    current: &T,
    name: &str,
    pairs: &[(String, String)],
    origin: &str,
) -> Result<T, SimError> {
    let mut user = toml::Table::new();
    for (key, raw) in pairs {
        let path: Vec<String> = key.split('.').map(|s| s.trim().to_string()).collect();
        if path.iter().any(|p| p.is_empty()) {
            return Err(cfg_err(
                origin,
                format!("'{key}': expected a dotted key such as pg.bet"),
            ));
        }
        set_path_creating(&mut user, &path, parse_override_value(raw));
    }
    overlay(current, name, &user, None, origin)
}

/// `base` as the table `name`, with `user` (`{name: …}`) overlaid key by key. `text`: the
/// file's text, whose lines the messages name (`None` for command-line pairs).
fn overlay<T: Serialize + DeserializeOwned>(
    base: &T,
    name: &str,
    user: &toml::Table,
    text: Option<&str>,
    file: &str,
) -> Result<T, SimError> {
    let mut merged = toml::Table::new();
    let table = toml::Table::try_from(base).expect("section serialises");
    merged.insert(name.to_string(), toml::Value::Table(table));
    let base_table = merged.clone();
    let at = |key: &str| match text {
        Some(t) => {
            let parts: Vec<String> = key.split('.').map(str::to_string).collect();
            format!("line {}: ", find_key_line(t, &parts).unwrap_or(0))
        }
        None => String::new(),
    };
    if let Err(key) = merge(&mut merged, user, &mut Vec::new()) {
        let msg = match text {
            Some(_) => format!(
                "{}unknown key '{key}' (not in the configuration schema)",
                at(&key)
            ),
            None => format!(
                "'{key}': unknown key (not in the configuration schema; see `gpuenergy presets \
                 --dump gtx480`)"
            ),
        };
        return Err(cfg_err(file, msg));
    }
    let build = |mut t: toml::Table| -> Result<T, toml::de::Error> {
        let v = t
            .remove(name)
            .unwrap_or(toml::Value::Table(toml::Table::new()));
        v.try_into::<T>()
    };
    build(merged).map_err(|e| {
        let (key, msg) = first_bad_key_by(&base_table, user, |t| build(t).map(|_| ()))
            .unwrap_or_else(|| (String::new(), e.message().to_string()));
        cfg_err(file, format!("{}'{key}': {msg}", at(&key)))
    })
}
