//! Importing GPGPU-Sim / Accel-Sim configurations (`gpgpusim.config`, `trace.config`) as a
//! gpuenergy [`GpuConfig`].
//!
//! The option files are read with GPGPU-Sim's syntax ([`options`]), every option the simulator
//! models is mapped onto its schema keys with unit and format conversion ([`map`], [`fields`]),
//! and an option whose value cannot be honoured is an error naming file, line, option, value and
//! the allowed values. Options the files leave out keep the values of a base preset: the one
//! named, or else the built-in preset that the import changes least (fewest differing keys;
//! ties go to `gtx1080ti`). Options the simulator does not model are listed with the reason, in
//! [`Imported::unmodelled`] and as comments in [`Imported::to_toml`].

mod fields;
mod map;
mod options;
mod unmodelled;
mod volta;

pub use fields::{CacheString, DramTimingOpt, Scheduler, SECTOR_BYTES};
pub use map::{MappedOption, UnmodelledOption};
pub use options::{last_wins, parse_option_text, OptionValue};

use super::{GpuConfig, PRESET_NAMES};
use crate::SimError;

/// One option file: the name it is reported under and its text.
#[derive(Clone, Debug)]
pub struct OptionSource<'a> {
    /// File name as given by the user (used in messages and in the output header).
    pub file: &'a str,
    /// File contents.
    pub text: &'a str,
}

/// The result of an import.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The resolved configuration (validated).
    pub config: GpuConfig,
    /// Name of the base preset that supplied every key the files do not set.
    pub base: String,
    /// For a base chosen as the closest preset: `(preset, keys the import changes)` for every
    /// preset, in [`PRESET_NAMES`] order, `None` where the imported values do not fit that preset;
    /// empty when the base was named.
    pub distances: Vec<(String, Option<usize>)>,
    /// Files read, in order.
    pub sources: Vec<String>,
    /// Options mapped onto schema keys (or honoured as they are), in file order.
    pub mapped: Vec<MappedOption>,
    /// Options the simulator does not model, in file order.
    pub unmodelled: Vec<UnmodelledOption>,
}

/// Dotted paths of the leaves of a serialised configuration, with their values.
fn leaves(cfg: &GpuConfig) -> Vec<(String, toml::Value)> {
    fn walk(t: &toml::Table, prefix: &str, out: &mut Vec<(String, toml::Value)>) {
        for (k, v) in t {
            let p = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            match v {
                toml::Value::Table(sub) => walk(sub, &p, out),
                _ => out.push((p, v.clone())),
            }
        }
    }
    let mut out = Vec::new();
    // the full table: every key, those written only away from their defaults too
    let t: toml::Table =
        toml::from_str(&cfg.to_full_toml_string()).expect("a full configuration reads back");
    walk(&t, "", &mut out);
    out
}

/// Schema keys (dotted leaf paths, `gpu.name` excluded) whose values differ between `a` and `b`.
/// Both sides are read key by key, so a key one side lacks cannot shift the pairs.
pub fn differing_keys(a: &GpuConfig, b: &GpuConfig) -> Vec<(String, toml::Value, toml::Value)> {
    let la: std::collections::BTreeMap<String, toml::Value> = leaves(a).into_iter().collect();
    let lb: std::collections::BTreeMap<String, toml::Value> = leaves(b).into_iter().collect();
    let absent = || toml::Value::String("(absent)".into());
    let keys: std::collections::BTreeSet<&String> = la.keys().chain(lb.keys()).collect();
    keys.into_iter()
        .filter(|k| k.as_str() != "gpu.name")
        .filter_map(|k| {
            let va = la.get(k).cloned().unwrap_or_else(absent);
            let vb = lb.get(k).cloned().unwrap_or_else(absent);
            (va != vb).then(|| (k.clone(), va, vb))
        })
        .collect()
}

/// Imports the option files `sources` (read in order; a later file overrides an earlier one)
/// on top of `base` (a preset name) or, when `base` is `None`, on the closest preset. The
/// configuration is named `name`.
pub fn import(
    sources: &[OptionSource<'_>],
    base: Option<&str>,
    name: &str,
) -> Result<Imported, SimError> {
    let parsed: Vec<Vec<OptionValue>> = sources
        .iter()
        .map(|s| parse_option_text(s.text, s.file))
        .collect::<Result<_, _>>()?;
    let opts = last_wins(&parsed);
    let first_file = sources.first().map(|s| s.file).unwrap_or("<none>");
    if opts.is_empty() {
        return Err(super::load::cfg_err(
            first_file,
            "no options found (a GPGPU-Sim configuration holds lines such as \
             `-gpgpu_n_clusters 15`); nothing to import",
        ));
    }
    let build = |preset: &str| -> Result<Imported, SimError> {
        let base_cfg = GpuConfig::preset(preset)?;
        let (mut config, mapped, mut unmodelled) = map::apply(&opts, base_cfg.clone())?;
        // Values outside their physical range are refused before anything serialises them
        // (a u64 beyond TOML's integer range cannot be written).
        let range_faults: Vec<String> = config.range_errors().into_iter().map(|(_, m)| m).collect();
        if !range_faults.is_empty() {
            return Err(explain(
                super::load::cfg_err(first_file, range_faults.join("; ")),
                &mapped,
                preset,
            ));
        }
        // Keys no model reads keep the base value. An option that set only such keys is not
        // modelled; one that set others too stays mapped, its note naming the keys kept.
        let reset = super::load::reset_unread_keys(&mut config, &base_cfg);
        let mut kept = Vec::new();
        for mut m in mapped {
            let unread: Vec<&(String, String)> =
                reset.iter().filter(|(k, _)| m.keys.contains(k)).collect();
            if unread.is_empty() {
                kept.push(m);
                continue;
            }
            let names: Vec<String> = unread.iter().map(|(k, _)| format!("'{k}'")).collect();
            let why: Vec<&str> = unread.iter().map(|(_, w)| w.as_str()).collect();
            m.keys.retain(|k| !reset.iter().any(|(r, _)| r == k));
            let text = format!(
                "{} not modelled ({}); the value of preset '{preset}' is kept",
                names.join(", "),
                why.join("; ")
            );
            if m.keys.is_empty() {
                unmodelled.push(UnmodelledOption {
                    option: m.option,
                    reason: text,
                });
            } else {
                m.note = if m.note.is_empty() {
                    text
                } else {
                    format!("{}; {text}", m.note)
                };
                kept.push(m);
            }
        }
        let mapped = kept;
        config.gpu.name = name.to_string();
        config
            .validate(first_file)
            .map_err(|e| explain(e, &mapped, preset))?;
        Ok(Imported {
            config,
            base: preset.to_string(),
            distances: Vec::new(),
            sources: sources.iter().map(|s| s.file.to_string()).collect(),
            mapped,
            unmodelled,
        })
    };
    if let Some(b) = base {
        return build(b);
    }
    // Closest preset: fewest keys changed by the import; ties and failures fall to gtx1080ti.
    let mut best: Option<(usize, Imported)> = None;
    let mut distances = Vec::new();
    let mut first_err = None;
    for preset in ["gtx1080ti", "gtx780", "gtx480"] {
        match build(preset) {
            Ok(imp) => {
                let d = differing_keys(&imp.config, &GpuConfig::preset(preset)?).len();
                distances.push((preset.to_string(), Some(d)));
                if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                    best = Some((d, imp));
                }
            }
            Err(e) => {
                distances.push((preset.to_string(), None));
                first_err.get_or_insert(e);
            }
        }
    }
    let Some((_, mut imp)) = best else {
        return Err(first_err.expect("three presets tried"));
    };
    distances.sort_by_key(|(p, _)| PRESET_NAMES.iter().position(|n| n == p));
    imp.distances = distances;
    Ok(imp)
}

/// A configuration error of an imported file, saying that the values do not fit the base
/// preset and naming the options behind the keys the message names.
fn explain(e: SimError, mapped: &[MappedOption], preset: &str) -> SimError {
    match e {
        SimError::Config { file, msg } => {
            let from: Vec<String> = mapped
                .iter()
                .filter(|m| m.keys.iter().any(|k| msg.contains(&format!("'{k}'"))))
                .map(|m| {
                    format!(
                        "{} {} ({})",
                        m.option.name,
                        m.option.value,
                        m.option.place()
                    )
                })
                .collect();
            let from = if from.is_empty() {
                String::new()
            } else {
                format!(" [set by {}]", from.join(", "))
            };
            SimError::Config {
                file,
                msg: format!(
                    "the imported values do not fit base preset '{preset}' (choose another \
                     with --base): {msg}{from}"
                ),
            }
        }
        other => other,
    }
}

/// `gtx480 6, gtx780 69, gtx1080ti does not fit`: the closest-preset comparison in words.
pub fn distance_list(distances: &[(String, Option<usize>)]) -> Vec<String> {
    distances
        .iter()
        .map(|(p, n)| match n {
            Some(n) => format!("{p} {n}"),
            None => format!("{p} does not fit"),
        })
        .collect()
}

impl Imported {
    /// One line per option not modelled: `option value (file:line): reason`.
    pub fn unmodelled_lines(&self) -> Vec<String> {
        self.unmodelled
            .iter()
            .map(|u| {
                format!(
                    "{} {} ({}): {}",
                    u.option.name,
                    u.option.value,
                    u.option.place(),
                    u.reason
                )
            })
            .collect()
    }

    /// The configuration as a full TOML file that `--config` loads: a header naming the
    /// sources, the base preset and every option not modelled, then every table and key, each
    /// key set by the import annotated with the option(s) it came from.
    pub fn to_toml(&self) -> String {
        let mut s = String::new();
        s.push_str(
            "# Imported by `gpuenergy presets --import` from GPGPU-Sim/Accel-Sim options:\n",
        );
        for f in &self.sources {
            s.push_str(&format!("#   {f}\n"));
        }
        if self.distances.is_empty() {
            s.push_str(&format!(
                "# Base preset: {} (named); every key the files do not set comes from it.\n",
                self.base
            ));
        } else {
            let d = distance_list(&self.distances);
            s.push_str(&format!(
                "# Base preset: {}, the closest built-in preset (keys the import changes: {});\n\
                 # every key the files do not set comes from it.\n",
                self.base,
                d.join(", ")
            ));
        }
        s.push_str(&format!(
            "# Options mapped: {} (annotated below). Options not modelled: {}.\n",
            self.mapped.len(),
            self.unmodelled.len()
        ));
        let honoured: Vec<&MappedOption> =
            self.mapped.iter().filter(|m| m.keys.is_empty()).collect();
        if !honoured.is_empty() {
            s.push_str("#\n# Honoured as the simulator behaves (no key to set):\n");
            for m in honoured {
                s.push_str(&format!(
                    "#   {} {} ({}): {}\n",
                    m.option.name,
                    m.option.value,
                    m.option.place(),
                    m.note
                ));
            }
        }
        if !self.unmodelled.is_empty() {
            s.push_str("#\n# Not modelled (option value (file:line): reason):\n");
            for l in self.unmodelled_lines() {
                s.push_str(&format!("#   {l}\n"));
            }
        }
        s.push('\n');
        s.push_str(&self.annotate(&self.config.to_toml_string()));
        s
    }

    /// Appends `# <option> (file:line)` to each line of `body` whose key (or table) the import
    /// set.
    fn annotate(&self, body: &str) -> String {
        let mut table = String::new();
        let mut out = String::new();
        for line in body.lines() {
            let trimmed = line.trim();
            let path = if let Some(h) = trimmed.strip_prefix('[') {
                table = h.trim_end_matches(']').to_string();
                Some(table.clone())
            } else {
                trimmed
                    .split_once(" = ")
                    .map(|(k, _)| format!("{table}.{}", k.trim()))
            };
            out.push_str(line);
            if let Some(p) = path {
                let from: Vec<String> = self
                    .mapped
                    .iter()
                    .filter(|m| m.keys.contains(&p))
                    .map(|m| format!("{} ({})", m.option.name, m.option.place()))
                    .collect();
                if !from.is_empty() {
                    out.push_str("  # ");
                    out.push_str(&from.join(", "));
                }
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests;
