//! The configuration of a study: the simulated machine (`sim`'s [`GpuConfig`]) and the tables
//! of the same file that the costing and the tools read — the register-file energy
//! accounting's `[energy]` ([`EnergySection`], in `models`) and the optimiser's `[opt]`
//! ([`OptSection`], [`opt`]). A user writes one TOML file as before; [`StudyConfig`] hands its machine
//! tables to `sim` ([`GpuConfig::from_toml_str_split`]) and reads `[energy]` and `[opt]` with
//! the same strictness (an unknown key or a bad value is an error naming the file, the line and
//! the key), and `--set energy.…`/`--set opt.…` reach them as before.
//!
//! The text and hash of a study configuration ([`StudyConfig::to_toml_string`],
//! [`StudyConfig::hash_hex`]) are those of the whole file taken as one configuration, byte for
//! byte what they were when `[energy]` and `[opt]` were tables of the machine's schema: a
//! non-default `[energy]` is written where it sat then (after the machine's `[coma]`, before
//! `[metrics]`, `[reconv]` and `[dwf]`) and a non-default `[opt]` last; at their defaults
//! neither is written, so the text is the machine's own. The machine's text and hash
//! ([`GpuConfig::hash_hex`], what the simulator stamps on an Activity) leave them out;
//! [`crate::study::Study`] stamps its Activity records with the study configuration's hash, as
//! they were stamped before.

pub mod keys;
pub mod opt;

use models::rf::EnergySection;
use opt::OptSection;
use serde::Serialize;
use sim::config::GpuConfig;
use sim::SimError;

/// The top-level tables of a configuration file that are not the machine's.
pub const OTHER_TABLES: [&str; 2] = ["energy", "opt"];

/// The machine tables a non-default `[energy]` is written before (module doc).
const AFTER_ENERGY: [&str; 3] = ["metrics", "reconv", "dwf"];

/// A study's configuration: the machine and the tables of the same file that are not the
/// machine's. It dereferences to the machine, so `cfg.gpu.n_sm` and a `&GpuConfig` argument
/// read as before.
#[derive(Clone, Debug, PartialEq)]
pub struct StudyConfig {
    /// The simulated machine.
    pub machine: GpuConfig,
    /// `[energy]`: the register-file energy-accounting switches.
    pub energy: EnergySection,
    /// `[opt]`: the defaults of `gpuenergy optimize`.
    pub opt: OptSection,
}

impl From<GpuConfig> for StudyConfig {
    /// The machine with `[energy]` and `[opt]` at their defaults.
    fn from(machine: GpuConfig) -> StudyConfig {
        StudyConfig {
            machine,
            energy: EnergySection::default(),
            opt: OptSection::default(),
        }
    }
}

impl std::ops::Deref for StudyConfig {
    type Target = GpuConfig;
    fn deref(&self) -> &GpuConfig {
        &self.machine
    }
}

impl std::ops::DerefMut for StudyConfig {
    fn deref_mut(&mut self) -> &mut GpuConfig {
        &mut self.machine
    }
}

/// `[energy]` alone, as it is written among the machine's tables.
#[derive(Serialize)]
struct EnergyTable<'a> {
    energy: &'a EnergySection,
}

/// `[opt]` alone, as it is written after the machine's tables.
#[derive(Serialize)]
struct OptTable<'a> {
    opt: &'a OptSection,
}

/// A [`StudyConfig`] prepared to take many sets of overrides
/// ([`StudyConfig::prepare_overrides`]).
#[derive(Clone, Debug)]
pub struct PreparedOverrides {
    study: StudyConfig,
    machine: sim::config::OverrideBase,
}

impl PreparedOverrides {
    /// [`StudyConfig::with_overrides`] on the prepared configuration.
    pub fn apply(&self, pairs: &[(String, String)], origin: &str) -> Result<StudyConfig, SimError> {
        self.study
            .overrides_with(pairs, origin, |p, o| self.machine.apply(p, o))
    }
}

impl StudyConfig {
    /// A built-in preset (every name and alias [`GpuConfig::preset`] takes), `[energy]` and
    /// `[opt]` at their defaults.
    pub fn preset(name: &str) -> Result<StudyConfig, SimError> {
        GpuConfig::preset(name).map(StudyConfig::from)
    }

    /// Reads a configuration file, full or `base = "<preset>"` plus overrides, with its
    /// `[energy]` and `[opt]` tables.
    pub fn from_toml_file(path: &std::path::Path) -> Result<StudyConfig, SimError> {
        let (machine, other) = GpuConfig::from_toml_file_split(path, &OTHER_TABLES)?;
        Self::with_tables(machine, &other, &path.display().to_string())
    }

    /// As [`StudyConfig::from_toml_file`] for text already in memory; `file` names it in
    /// errors.
    pub fn from_toml_str(text: &str, file: &str) -> Result<StudyConfig, SimError> {
        let (machine, other) = GpuConfig::from_toml_str_split(text, file, &OTHER_TABLES)?;
        Self::with_tables(machine, &other, file)
    }

    fn with_tables(
        machine: GpuConfig,
        other: &sim::config::OtherTables,
        file: &str,
    ) -> Result<StudyConfig, SimError> {
        let cfg = StudyConfig {
            machine,
            energy: other.read("energy")?,
            opt: other.read("opt")?,
        };
        cfg.check(file)?;
        Ok(cfg)
    }

    /// The range checks of `[energy]` and `[opt]`, gathered into one message naming `file`.
    fn check(&self, file: &str) -> Result<(), SimError> {
        let mut bad = Vec::new();
        self.energy.check(&mut bad);
        self.opt.check(&mut bad);
        if bad.is_empty() {
            Ok(())
        } else {
            Err(SimError::Config {
                file: file.to_string(),
                msg: bad.join("; "),
            })
        }
    }

    /// The same tables with another machine (a variant of this study's).
    pub fn with_machine(&self, machine: GpuConfig) -> StudyConfig {
        StudyConfig {
            machine,
            energy: self.energy.clone(),
            opt: self.opt.clone(),
        }
    }

    /// This configuration with single keys overridden (`--set`, a technique's knobs): each
    /// `(dotted key, value)` pair replaces one key of the machine ([`GpuConfig::with_overrides`])
    /// or of `[energy]` or `[opt]`, by the key's first part. Errors name `origin` and the key.
    pub fn with_overrides(
        &self,
        pairs: &[(String, String)],
        origin: &str,
    ) -> Result<StudyConfig, SimError> {
        self.overrides_with(pairs, origin, |p, o| self.machine.with_overrides(p, o))
    }

    /// This configuration prepared to take many sets of overrides (a sweep's variants): the
    /// machine's schema table is built once ([`sim::config::OverrideBase`]).
    pub fn prepare_overrides(&self) -> PreparedOverrides {
        PreparedOverrides {
            study: self.clone(),
            machine: self.machine.override_base(),
        }
    }

    /// [`StudyConfig::with_overrides`] with the machine's pairs applied by `machine`.
    fn overrides_with(
        &self,
        pairs: &[(String, String)],
        origin: &str,
        machine: impl FnOnce(&[(String, String)], &str) -> Result<GpuConfig, SimError>,
    ) -> Result<StudyConfig, SimError> {
        let of = |table: &str| -> Vec<(String, String)> {
            pairs
                .iter()
                .filter(|(k, _)| k.split('.').next().map(str::trim) == Some(table))
                .cloned()
                .collect()
        };
        let (machine_pairs, _) = split_overrides(pairs);
        let (energy_pairs, opt_pairs) = (of("energy"), of("opt"));
        let cfg = StudyConfig {
            machine: machine(&machine_pairs, origin)?,
            energy: match energy_pairs.is_empty() {
                true => self.energy.clone(),
                false => sim::config::table_with_overrides(
                    &self.energy,
                    "energy",
                    &energy_pairs,
                    origin,
                )?,
            },
            opt: match opt_pairs.is_empty() {
                true => self.opt.clone(),
                false => sim::config::table_with_overrides(&self.opt, "opt", &opt_pairs, origin)?,
            },
        };
        cfg.check(origin)?;
        Ok(cfg)
    }

    /// The resolved configuration as TOML (module doc): the machine's tables with `[energy]`
    /// and `[opt]` where they were written before the split, each only when not at its
    /// defaults.
    pub fn to_toml_string(&self) -> String {
        let energy = !self.energy.is_default();
        let opt = !self.opt.is_default();
        if !energy && !opt {
            return self.machine.to_toml_string();
        }
        let mut tables = self.machine.toml_tables();
        if energy {
            let text = toml::to_string(&EnergyTable {
                energy: &self.energy,
            })
            .expect("energy serialises");
            let at = tables
                .iter()
                .position(|(name, _)| AFTER_ENERGY.contains(&name.as_str()))
                .unwrap_or(tables.len());
            tables.insert(at, ("energy".to_string(), text));
        }
        if opt {
            let text = toml::to_string(&OptTable { opt: &self.opt }).expect("opt serialises");
            tables.push(("opt".to_string(), text));
        }
        let texts: Vec<&str> = tables.iter().map(|(_, t)| t.as_str()).collect();
        texts.join("\n")
    }

    /// The resolved configuration as a full TOML file with every key, `[energy]` and `[opt]`
    /// included at their defaults (what `gpuenergy presets --dump` prints).
    pub fn to_full_toml_string(&self) -> String {
        let mut others = toml::Table::new();
        others.insert(
            "energy".into(),
            toml::Value::try_from(&self.energy).expect("energy serialises"),
        );
        others.insert(
            "opt".into(),
            toml::Value::try_from(&self.opt).expect("opt serialises"),
        );
        self.machine.to_full_toml_string_with(others)
    }

    /// FNV-1a-64 of [`StudyConfig::to_toml_string`]: the config hash of the file as one
    /// configuration (equal to [`GpuConfig::hash_hex`] while `[energy]` and `[opt]` hold their
    /// defaults).
    pub fn hash_hex(&self) -> String {
        let h = crate::digest::fnv1a(crate::digest::FNV_OFFSET, self.to_toml_string().as_bytes());
        format!("{h:016x}")
    }
}

/// `--set` pairs: dotted key, value.
pub type KeyValues = Vec<(String, String)>;

/// `pairs` split by the table their key names: `(the machine's, [energy]'s and [opt]'s)`, each
/// in the order given.
pub fn split_overrides(pairs: &[(String, String)]) -> (KeyValues, KeyValues) {
    pairs.iter().cloned().partition(|(k, _)| {
        let first = k.split('.').next().map(str::trim).unwrap_or("");
        !OTHER_TABLES.contains(&first)
    })
}

/// A configuration that `--set` pairs and a technique's knobs apply to: the machine alone
/// ([`GpuConfig`], where `[energy]`/`[opt]` keys are unknown) or a study's configuration.
pub trait Overridable: Sized {
    /// `self` with the pairs applied and validated; errors name `origin` and the key.
    fn overridden(&self, pairs: &[(String, String)], origin: &str) -> Result<Self, SimError>;
}

impl Overridable for GpuConfig {
    fn overridden(&self, pairs: &[(String, String)], origin: &str) -> Result<Self, SimError> {
        self.with_overrides(pairs, origin)
    }
}

impl Overridable for StudyConfig {
    fn overridden(&self, pairs: &[(String, String)], origin: &str) -> Result<Self, SimError> {
        self.with_overrides(pairs, origin)
    }
}

/// What [`crate::study::Study::variant`] takes: a whole study configuration, or a machine that
/// keeps the study's `[energy]` and `[opt]`.
pub trait IntoVariant {
    /// The variant's configuration, given the configuration of the study it varies.
    fn into_variant(self, of: &StudyConfig) -> StudyConfig;
}

impl IntoVariant for StudyConfig {
    fn into_variant(self, _: &StudyConfig) -> StudyConfig {
        self
    }
}

impl IntoVariant for GpuConfig {
    fn into_variant(self, of: &StudyConfig) -> StudyConfig {
        of.with_machine(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// Config hashes written by a build from before `[energy]` and `[opt]` left the machine's
    /// schema (`simulate --format json`'s `config_hash`), for the same inputs.
    #[test]
    fn hashes_are_those_of_the_single_schema() {
        type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);
        let cases: [Case; 5] = [
            ("gtx480", &[], "5f39b40ff4628bec"),
            (
                "gtx480",
                &[
                    ("energy.write_equals_read", "false"),
                    ("tric.drowsy_margin_mv", "40"),
                    ("opt.snm_min", "0.1"),
                ],
                "9ffbd8b6c0da5f4f",
            ),
            ("gtx780", &[("opt.objective", "edp")], "710d4f4fd601cbf6"),
            (
                "gtx480",
                &[
                    ("energy.calibration", "paper_rows"),
                    ("reconv.counters", "true"),
                    ("dwf.lane_aware", "false"),
                    ("opt.max_slowdown", "0.2"),
                    ("tric.enabled", "true"),
                ],
                "ac7a0f90e8ff9596",
            ),
            (
                "gtx1080ti",
                &[
                    ("energy.write_equals_read", "false"),
                    ("metrics.interaccess_cutoff", "100"),
                    ("coma.enabled", "true"),
                ],
                "40bba27b0d048e73",
            ),
        ];
        for (preset, pairs, hash) in cases {
            let cfg = StudyConfig::preset(preset)
                .unwrap()
                .with_overrides(&set(pairs), "--set")
                .unwrap();
            assert_eq!(cfg.hash_hex(), hash, "{preset} {pairs:?}");
        }
        let file = "base = \"gtx480\"\n[tric]\nenabled = false\n[energy]\n\
                    write_equals_read = false\nfixed_ratio_sweep = [2.0, 5.0]\n[metrics]\n\
                    [opt]\narea_budget = \"2%\"\nobjective = \"edp\"\n";
        let cfg = StudyConfig::from_toml_str(file, "e.toml").unwrap();
        assert_eq!(cfg.hash_hex(), "24a82ad51ac8e87c");
        assert_eq!(cfg.energy.fixed_ratio_sweep, [2.0, 5.0]);
        assert_eq!(cfg.machine, GpuConfig::preset("gtx480").unwrap());
        // the machine's own hash leaves the other tables out
        assert_eq!(cfg.machine.hash_hex(), "5f39b40ff4628bec");
    }

    #[test]
    fn other_tables_keep_their_strictness() {
        let bad = |text: &str| {
            StudyConfig::from_toml_str(text, "u.toml")
                .unwrap_err()
                .to_string()
        };
        let e = bad("base = \"gtx480\"\n[energy]\nwrite_equals_red = false\n");
        assert!(
            e.contains("u.toml") && e.contains("line 3") && e.contains("energy.write_equals_red"),
            "{e}"
        );
        let e = bad("base = \"gtx480\"\n[opt]\nobjective = \"power\"\n");
        assert!(
            e.contains("line 3") && e.contains("opt.objective") && e.contains("edp"),
            "{e}"
        );
        let e = bad("base = \"gtx480\"\nopt.max_slowdown = -0.1\n");
        assert!(e.contains("'opt.max_slowdown'"), "{e}");
        let e = bad("base = \"gtx480\"\n[energy]\nfixed_ratio_sweep = [-1.0]\n");
        assert!(e.contains("energy.fixed_ratio_sweep"), "{e}");
        let e = StudyConfig::preset("gtx480")
            .unwrap()
            .with_overrides(&set(&[("energy.calibrashun", "model")]), "--set")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--set") && e.contains("energy.calibrashun"),
            "{e}"
        );
        // the machine alone has no such tables
        let e = GpuConfig::preset("gtx480")
            .unwrap()
            .overridden(&set(&[("opt.snm_min", "0.1")]), "--set")
            .unwrap_err()
            .to_string();
        assert!(e.contains("'opt'") && e.contains("unknown key"), "{e}");
    }

    #[test]
    fn a_full_dump_loads_back_with_its_other_tables() {
        let cfg = StudyConfig::preset("gtx1080ti").unwrap();
        let full = cfg.to_full_toml_string();
        assert!(
            full.contains("[energy]") && full.contains("[opt]"),
            "{full}"
        );
        assert_eq!(StudyConfig::from_toml_str(&full, "dump.toml").unwrap(), cfg);
        let edited = full.replace("write_equals_read = true", "write_equals_read = false");
        let back = StudyConfig::from_toml_str(&edited, "dump.toml").unwrap();
        assert!(!back.energy.write_equals_read);
        assert_eq!(back.machine, cfg.machine);
    }
}
