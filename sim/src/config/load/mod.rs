//! Loading configurations: embedded presets, user files that override a preset key by key, and
//! error messages that name the file and the line.

//!
//! This file holds the presets and the loading entry points of [`GpuConfig`]; [`tables`] the
//! TOML table work (overlay, dotted paths, key lines), [`unread`] the keys no model reads and
//! [`validate`] the value checks.

mod other;
mod tables;
mod unread;
mod validate;

pub use other::{table_with_overrides, OtherTables};

pub(crate) use unread::reset_unread_keys;
pub use unread::UNREAD_KEYS;

use super::schema::{GpuConfig, SchedPolicy};
use crate::SimError;
use tables::{
    find_key_line, first_bad_key, key_path_at, line_of, merge, parse_override_value, schema_table,
    set_path_creating,
};

/// Preset names, in the order `gpuenergy presets` lists them.
pub const PRESET_NAMES: [&str; 6] = [
    "gtx480",
    "gtx780",
    "gtx1080ti",
    "v100",
    "gf8800gtx_like",
    "vortex_like",
];

/// The embedded preset files `(name, TOML text)`.
pub const PRESETS: [(&str, &str); 6] = [
    ("gtx480", include_str!("../../../presets/gtx480.toml")),
    ("gtx780", include_str!("../../../presets/gtx780.toml")),
    ("gtx1080ti", include_str!("../../../presets/gtx1080ti.toml")),
    ("v100", include_str!("../../../presets/v100.toml")),
    (
        "gf8800gtx_like",
        include_str!("../../../presets/gf8800gtx_like.toml"),
    ),
    (
        "vortex_like",
        include_str!("../../../presets/vortex_like.toml"),
    ),
];

fn preset_text(name: &str) -> Option<&'static str> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

pub(super) fn cfg_err(file: &str, msg: impl Into<String>) -> SimError {
    SimError::Config {
        file: file.to_string(),
        msg: msg.into(),
    }
}

impl GpuConfig {
    /// Names of the built-in presets.
    pub fn preset_names() -> &'static [&'static str] {
        &PRESET_NAMES
    }

    /// A built-in preset by name (`gtx480`, `gtx780`, `gtx1080ti`, `v100`, `gf8800gtx_like`,
    /// `vortex_like`; the spec's `*_like` names, `gf8800gtx`, `vortex` and `kepler_ch6` are
    /// accepted as aliases; `gtx480_tl` is gtx480 with the two-level scheduler).
    pub fn preset(name: &str) -> Result<GpuConfig, SimError> {
        let (canon, two_level) = match name {
            "gtx480" | "gtx480_like" => ("gtx480", false),
            "gtx480_tl" => ("gtx480", true),
            "gtx780" | "gtx780_like" | "kepler_ch6" => ("gtx780", false),
            "gtx1080ti" | "gtx1080ti_like" => ("gtx1080ti", false),
            "v100" | "v100_like" => ("v100", false),
            "gf8800gtx_like" | "gf8800gtx" => ("gf8800gtx_like", false),
            "vortex_like" | "vortex" => ("vortex_like", false),
            _ => {
                return Err(cfg_err(
                    name,
                    format!(
                        "unknown preset '{name}' (expected one of {})",
                        PRESET_NAMES.join(", ")
                    ),
                ))
            }
        };
        let text = preset_text(canon).expect("embedded preset");
        let file = format!("<preset {canon}>");
        let mut cfg = Self::parse_full(text, &file)?;
        if two_level {
            cfg.sched.policy = SchedPolicy::TwoLevel;
        }
        Ok(cfg)
    }

    /// Reads a configuration file: either a full file of the schema, or a file with
    /// `base = "<preset>"` at the top whose keys override that preset one by one.
    pub fn from_toml_file(path: &std::path::Path) -> Result<GpuConfig, SimError> {
        let text = std::fs::read_to_string(path).map_err(|e| SimError::Io {
            path: path.display().to_string(),
            source: e,
        })?;
        Self::from_toml_str(&text, &path.display().to_string())
    }

    /// Reads a configuration file that may also hold top-level tables another crate owns (the
    /// names in `others`, e.g. the cost models' `[energy]`): those tables are taken out before
    /// the machine schema sees the file and returned as written ([`OtherTables`], which reads
    /// each one with the same strictness as the machine's tables); the rest loads as
    /// [`GpuConfig::from_toml_file`] loads a file.
    pub fn from_toml_file_split(
        path: &std::path::Path,
        others: &[&str],
    ) -> Result<(GpuConfig, OtherTables), SimError> {
        let text = std::fs::read_to_string(path).map_err(|e| SimError::Io {
            path: path.display().to_string(),
            source: e,
        })?;
        Self::from_toml_str_split(&text, &path.display().to_string(), others)
    }

    /// As [`GpuConfig::from_toml_file`] for text already in memory; `file` names it in errors.
    pub fn from_toml_str(text: &str, file: &str) -> Result<GpuConfig, SimError> {
        Self::from_toml_str_split(text, file, &[]).map(|(cfg, _)| cfg)
    }

    /// As [`GpuConfig::from_toml_file_split`] for text already in memory; `file` names it in
    /// errors.
    pub fn from_toml_str_split(
        text: &str,
        file: &str,
        others: &[&str],
    ) -> Result<(GpuConfig, OtherTables), SimError> {
        let mut user: toml::Table = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
            cfg_err(file, format!("line {line}: {}", e.message()))
        })?;
        let mut set_aside = toml::Table::new();
        for name in others {
            if let Some(v) = user.remove(*name) {
                set_aside.insert(name.to_string(), v);
            }
        }
        let cfg = if user.contains_key("base") {
            Self::from_base_file(&user, text, file)?
        } else if set_aside.is_empty() {
            Self::parse_full(text, file)?
        } else {
            Self::full_from_table(user, text, file)?
        };
        Ok((cfg, OtherTables::new(set_aside, text, file)))
    }

    /// A file with `base = "<preset>"` (already parsed, the other crates' tables taken out):
    /// the preset with the file's keys overlaid one by one.
    fn from_base_file(user: &toml::Table, text: &str, file: &str) -> Result<GpuConfig, SimError> {
        let base = &user["base"];
        let base_line = find_key_line(text, &["base".to_string()]).unwrap_or(1);
        let Some(base_name) = base.as_str() else {
            return Err(cfg_err(
                file,
                format!("line {base_line}: 'base' must be a preset name string"),
            ));
        };
        let base_cfg = Self::preset(base_name).map_err(|_| {
            cfg_err(
                file,
                format!(
                    "line {base_line}: unknown base preset '{base_name}' (expected one of {})",
                    PRESET_NAMES.join(", ")
                ),
            )
        })?;
        let mut merged = schema_table(&base_cfg);
        let mut overlay = user.clone();
        overlay.remove("base");
        let mut path = Vec::new();
        if let Err(key) = merge(&mut merged, &overlay, &mut path) {
            let parts: Vec<String> = key.split('.').map(str::to_string).collect();
            let line = find_key_line(text, &parts).unwrap_or(0);
            return Err(cfg_err(
                file,
                format!("line {line}: unknown key '{key}' (not in the configuration schema)"),
            ));
        }
        let base_table = schema_table(&base_cfg);
        let cfg: GpuConfig =
            toml::Value::Table(merged)
                .try_into()
                .map_err(|e: toml::de::Error| {
                    let (key, msg) = first_bad_key(&base_table, &overlay)
                        .unwrap_or_else(|| (String::new(), e.message().to_string()));
                    let parts: Vec<String> = key.split('.').map(str::to_string).collect();
                    let line = find_key_line(text, &parts).unwrap_or(0);
                    cfg_err(file, format!("line {line}: '{key}': {msg}"))
                })?;
        cfg.validate_located(file, Some(text))?;
        Ok(cfg)
    }

    /// A full file whose other crates' tables were taken out: deserialised from the rest. A
    /// fault is located by deserialising the same table written out again (which gives the
    /// key at the fault's position) and finding that key in the file's own text.
    fn full_from_table(user: toml::Table, text: &str, file: &str) -> Result<GpuConfig, SimError> {
        let cfg: GpuConfig =
            toml::Value::Table(user.clone())
                .try_into()
                .map_err(|e: toml::de::Error| {
                    let canon = toml::to_string(&user).unwrap_or_default();
                    let line = toml::from_str::<GpuConfig>(&canon)
                        .err()
                        .and_then(|e| e.span())
                        .and_then(|s| find_key_line(text, &key_path_at(&canon, s.start)))
                        .unwrap_or(0);
                    cfg_err(file, format!("line {line}: {}", e.message()))
                })?;
        cfg.validate_located(file, Some(text))?;
        Ok(cfg)
    }

    fn parse_full(text: &str, file: &str) -> Result<GpuConfig, SimError> {
        let cfg: GpuConfig = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
            cfg_err(file, format!("line {line}: {}", e.message()))
        })?;
        cfg.validate_located(file, Some(text))?;
        Ok(cfg)
    }

    /// This configuration with single keys overridden, as the command line's `--set key=value`
    /// and named techniques give them: each `(dotted key, value)` pair replaces one schema key.
    /// A value is read as a TOML value (`14`, `true`, `0.7`, `"Gt"`, `[4, 1]`) and, when it is
    /// not one, as a bare string (`pg.policy=Conventional`). `origin` names where the pairs come
    /// from in errors (e.g. `--set`). Unknown keys, values of the wrong type and values the
    /// model refuses are errors naming the key; the result is validated like a loaded file.
    pub fn with_overrides(
        &self,
        pairs: &[(String, String)],
        origin: &str,
    ) -> Result<GpuConfig, SimError> {
        if pairs.is_empty() {
            return Ok(self.clone());
        }
        self.override_base().apply(pairs, origin)
    }

    /// This configuration prepared to take many sets of overrides (a sweep's variants): its
    /// schema table is built once, and each [`OverrideBase::apply`] starts from a copy of it.
    pub fn override_base(&self) -> OverrideBase {
        OverrideBase {
            cfg: self.clone(),
            table: schema_table(self),
        }
    }

    /// The resolved configuration as TOML: every key, except the tables that hold all their
    /// defaults and are written only when set (`[pg]`, `[sched.gates]`, `[fold]`, `[origami]`,
    /// `[physical]`, `[prf]`, `[afrf]`, `[mrf]`, `[rfc]`), so that the text, and the hash of every output, of a configuration
    /// without them does not change when such a table is added to the schema.
    pub fn to_toml_string(&self) -> String {
        toml::to_string(self).expect("config serialises")
    }

    /// The resolved configuration as a full TOML file with every schema key, the default-only
    /// tables included (what `gpuenergy presets --dump` prints, so that every knob is seen).
    pub fn to_full_toml_string(&self) -> String {
        toml::to_string(&schema_table(self)).expect("config serialises")
    }

    /// As [`GpuConfig::to_full_toml_string`], with top-level tables another crate owns
    /// (`others`, each a name and its table with every key) written among the machine's.
    pub fn to_full_toml_string_with(&self, others: toml::Table) -> String {
        let mut t = schema_table(self);
        t.extend(others);
        toml::to_string(&t).expect("config serialises")
    }

    /// The resolved TOML text ([`GpuConfig::to_toml_string`]) cut at its top-level tables, in
    /// order: `(table name, text)`, each text ending in a single newline, so that joining the
    /// texts with `"\n"` (the blank line between two tables) gives the whole text back. Lets
    /// the owner of other tables write them among the machine's where they used to sit, so
    /// that a configuration's text and hash stay what they were.
    pub fn toml_tables(&self) -> Vec<(String, String)> {
        let text = self.to_toml_string();
        let names = toml::Table::try_from(self).expect("config serialises");
        let mut out: Vec<(String, String)> = Vec::new();
        for line in text.split_inclusive('\n') {
            let header = line
                .trim_end()
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .filter(|h| !h.starts_with('['));
            let top = header.map(|h| h.split('.').next().unwrap_or("").trim().to_string());
            match (top, out.last_mut()) {
                (Some(t), last)
                    if names.contains_key(&t) && last.as_ref().is_none_or(|(n, _)| *n != t) =>
                {
                    out.push((t, line.to_string()))
                }
                (_, Some((_, s))) => s.push_str(line),
                (_, None) => out.push((String::new(), line.to_string())),
            }
        }
        for (_, s) in &mut out {
            while s.ends_with("\n\n") {
                s.pop();
            }
        }
        out
    }

    /// FNV-1a-64 of the resolved TOML text: the config hash stored in every output.
    pub fn hash_hex(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.to_toml_string().bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{h:016x}")
    }
}

/// A configuration with its schema table ([`GpuConfig::override_base`]): applying a set of
/// overrides to it gives what [`GpuConfig::with_overrides`] gives on the configuration, without
/// serialising the configuration again.
#[derive(Clone, Debug)]
pub struct OverrideBase {
    cfg: GpuConfig,
    table: toml::Table,
}

impl OverrideBase {
    /// The configuration the overrides apply to.
    pub fn config(&self) -> &GpuConfig {
        &self.cfg
    }

    /// [`GpuConfig::with_overrides`] on [`OverrideBase::config`].
    pub fn apply(&self, pairs: &[(String, String)], origin: &str) -> Result<GpuConfig, SimError> {
        if pairs.is_empty() {
            return Ok(self.cfg.clone());
        }
        let base = &self.table;
        let mut merged = base.clone();
        let mut overlay = toml::Table::new();
        for (key, raw) in pairs {
            let path: Vec<String> = key.split('.').map(|s| s.trim().to_string()).collect();
            if key.trim().is_empty() || path.iter().any(|p| p.is_empty()) {
                return Err(cfg_err(
                    origin,
                    format!("'{key}': expected a dotted key such as pg.bet"),
                ));
            }
            let value = parse_override_value(raw);
            let mut one = toml::Table::new();
            set_path_creating(&mut one, &path, value.clone());
            if let Err(k) = merge(&mut merged, &one, &mut Vec::new()) {
                return Err(cfg_err(
                    origin,
                    format!("'{k}': unknown key (not in the configuration schema; see `gpuenergy presets --dump gtx480`)"),
                ));
            }
            set_path_creating(&mut overlay, &path, value);
        }
        let cfg: GpuConfig =
            toml::Value::Table(merged)
                .try_into()
                .map_err(|e: toml::de::Error| {
                    let (key, msg) = first_bad_key(base, &overlay)
                        .unwrap_or_else(|| (String::new(), e.message().to_string()));
                    cfg_err(origin, format!("'{key}': {msg}"))
                })?;
        cfg.validate(origin)?;
        Ok(cfg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_replace_single_keys() {
        let base = GpuConfig::preset("gtx480").unwrap();
        let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let c = base
            .with_overrides(
                &pairs(&[
                    ("sched.policy", "lrr"),
                    ("gpu.n_sm", "4"),
                    ("units.sp_lanes", "8"),
                ]),
                "--set",
            )
            .unwrap();
        assert_eq!(c.sched.policy, SchedPolicy::Lrr);
        assert_eq!(c.gpu.n_sm, 4);
        assert_eq!(c.units.sp_lanes, 8);
        // untouched keys keep their values, and no pair gives the same configuration
        assert_eq!(c.l1d, base.l1d);
        assert_eq!(base.with_overrides(&[], "--set").unwrap(), base);
        // a quoted string and a bare one read the same
        let q = base
            .with_overrides(&pairs(&[("sched.policy", "\"lrr\"")]), "--set")
            .unwrap();
        assert_eq!(q.sched.policy, SchedPolicy::Lrr);
    }

    #[test]
    fn overrides_name_the_bad_key() {
        let base = GpuConfig::preset("gtx480").unwrap();
        let bad = |k: &str, v: &str| {
            base.with_overrides(&[(k.to_string(), v.to_string())], "--set")
                .unwrap_err()
                .to_string()
        };
        let e = bad("sched.polcy", "lrr");
        assert!(
            e.contains("--set") && e.contains("sched.polcy") && e.contains("unknown key"),
            "{e}"
        );
        let e = bad("gpu.n_sm", "many");
        assert!(e.contains("gpu.n_sm"), "{e}");
        let e = bad("gpu.n_sm", "0");
        assert!(e.contains("gpu.n_sm") && e.contains("positive"), "{e}");
        let e = bad("sched.policy", "fastest");
        assert!(e.contains("sched.policy") && e.contains("expected"), "{e}");
        let e = bad("", "1");
        assert!(e.contains("dotted key"), "{e}");
    }

    #[test]
    fn toml_tables_join_back_into_the_text() {
        for n in PRESET_NAMES {
            // Every registered technique section on, so that its default-hidden table is
            // written.
            let on: Vec<(String, String)> = crate::config::technique::SECTIONS
                .iter()
                .map(|s| (format!("{}.enabled", s.name), "true".to_string()))
                .collect();
            let mut c = GpuConfig::preset(n)
                .unwrap()
                .with_overrides(&on, "--set")
                .unwrap();
            c.metrics.interaccess_cutoff += 1;
            c.reconv.counters = true;
            for cfg in [GpuConfig::preset(n).unwrap(), c] {
                let t = cfg.toml_tables();
                let joined: Vec<&str> = t.iter().map(|(_, s)| s.as_str()).collect();
                assert_eq!(joined.join("\n"), cfg.to_toml_string(), "{n}");
                assert!(
                    t.iter().any(|(k, _)| k == "sched") && t[0].0 == "sim",
                    "{n}"
                );
                let mut names: Vec<&str> = t.iter().map(|(k, _)| k.as_str()).collect();
                names.dedup();
                assert_eq!(names.len(), t.len(), "{n}: a table cut in two");
            }
        }
    }

    #[test]
    fn other_tables_are_set_aside_and_read_with_lines() {
        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(deny_unknown_fields, default)]
        struct Extra {
            on: bool,
            ratio_sweep: Vec<f64>,
        }
        let text = "base = \"gtx480\"\n[sched]\npolicy = \"lrr\"\n[extra]\non = true\n";
        let (cfg, other) = GpuConfig::from_toml_str_split(text, "u.toml", &["extra"]).unwrap();
        assert_eq!(cfg.sched.policy, SchedPolicy::Lrr);
        let x: Extra = other.read("extra").unwrap();
        assert!(x.on && x.ratio_sweep.is_empty());
        // without the name the table is an unknown key, as before
        let e = GpuConfig::from_toml_str(text, "u.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 4") && e.contains("'extra'"), "{e}");
        // unknown keys and wrong types of the set-aside table name file, line and key
        let bad = "base = \"gtx480\"\n[extra]\non = true\nof = 1\n";
        let (_, other) = GpuConfig::from_toml_str_split(bad, "u.toml", &["extra"]).unwrap();
        let e = other.read::<Extra>("extra").unwrap_err().to_string();
        assert!(
            e.contains("u.toml") && e.contains("line 4") && e.contains("'extra.of'"),
            "{e}"
        );
        let bad = "base = \"gtx480\"\n[extra]\n\non = 3\n";
        let (_, other) = GpuConfig::from_toml_str_split(bad, "u.toml", &["extra"]).unwrap();
        let e = other.read::<Extra>("extra").unwrap_err().to_string();
        assert!(e.contains("line 4") && e.contains("'extra.on'"), "{e}");
        // a full file: the machine's faults still name their line
        let full = GpuConfig::preset("gtx480").unwrap().to_full_toml_string();
        let with = format!("{full}\n[extra]\non = true\n");
        let (back, other) = GpuConfig::from_toml_str_split(&with, "f.toml", &["extra"]).unwrap();
        assert_eq!(back, GpuConfig::preset("gtx480").unwrap());
        assert!(other.read::<Extra>("extra").unwrap().on);
        let typo = with.replacen("n_sm =", "n_sn =", 1);
        let line = typo.lines().position(|l| l.starts_with("n_sn")).unwrap() + 1;
        let e = GpuConfig::from_toml_str_split(&typo, "f.toml", &["extra"])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("line {line}:")) && e.contains("n_sn"),
            "{e}"
        );
        // `--set` on such a table
        let x = table_with_overrides(&x, "extra", &[("extra.on".into(), "false".into())], "--set")
            .unwrap();
        assert!(!x.on);
        let e = table_with_overrides(&x, "extra", &[("extra.no".into(), "1".into())], "--set")
            .unwrap_err()
            .to_string();
        assert!(e.contains("--set") && e.contains("'extra.no'"), "{e}");
    }

    #[test]
    fn presets_parse_and_validate() {
        for n in PRESET_NAMES {
            let c = GpuConfig::preset(n).unwrap();
            assert_eq!(c.gpu.name, n);
        }
    }

    #[test]
    fn key_line_finder() {
        let t = "base = \"gtx480\"\n[sched]\npolicy = \"lrr\"\n[sched.two_level]\nfoo = 1\n";
        let p: Vec<String> = ["sched", "two_level", "foo"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(find_key_line(t, &p), Some(5));
    }

    #[test]
    fn a_prepared_base_applies_overrides_exactly_as_with_overrides() {
        let p = |k: &str, v: &str| (k.to_string(), v.to_string());
        let cases: Vec<Vec<(String, String)>> = vec![
            vec![],
            vec![p("pg.bet", "14")],
            vec![
                p("pg.policy", "Conventional"),
                p("pg.bet", "40"),
                p("pg.wakeup", "7"),
            ],
            vec![p("gpu.n_sm", "30"), p("gpu.core_mhz", "1000.5")],
            // errors: unknown key, wrong type, out of range, refused unread value, bad key
            vec![p("pg.nosuch", "1")],
            vec![p("pg.bet", "\"x\"")],
            vec![p("gpu.n_sm", "0")],
            vec![p("gpu.core_mhz", "1e12")],
            vec![p("sim.seed", "5")],
            vec![p("pg..bet", "1")],
        ];
        for name in ["gtx480", "gtx1080ti"] {
            let cfg = GpuConfig::preset(name).unwrap();
            let prepared = cfg.override_base();
            assert_eq!(prepared.config().to_toml_string(), cfg.to_toml_string());
            let mut refused = 0;
            for pairs in &cases {
                let a = cfg.with_overrides(pairs, "--set");
                refused += a.is_err() as usize;
                let b = prepared.apply(pairs, "--set");
                match (a, b) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a.to_toml_string(), b.to_toml_string(), "{pairs:?}")
                    }
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{pairs:?}"),
                    (a, b) => panic!("{pairs:?}: {:?} vs {:?}", a.is_ok(), b.is_ok()),
                }
            }
            assert_eq!(refused, 6, "{name}: the six faulty sets are refused");
        }
    }
}
