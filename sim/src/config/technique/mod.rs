//! The technique sections: the configuration tables of the register-file techniques, each in
//! its own module, registered once in [`SECTIONS`] (and its field once in [`section_fields`]).
//!
//! The generic configuration code (the schema, the loader's full table, the range table, the
//! validation, the reference-mode check and the simulated view) names no technique: it goes
//! through this list. A technique's module exposes one [`TechniqueSection`]: its TOML table
//! name, the table with every key, the outer bounds of its numeric keys (`config/ranges.rs`
//! semantics), its range and combination checks, its `enabled` switch, whether it needs the
//! plain monolithic register file, and the keys only the cost models read.

pub mod coma;
pub mod tric;

use crate::config::ranges::Range;
use crate::config::schema::GpuConfig;

/// Largest look-ahead k a register-file organisation may ask of the schedulers: they predict
/// at most this many instructions ahead (`timing/sm/lookahead.rs` sizes its buffer by it).
pub const MAX_LOOKAHEAD: u32 = 16;

/// What the generic configuration code needs of one technique's `[NAME]` table.
pub(crate) struct TechniqueSection {
    /// The TOML table name (`tric`); its switch is `NAME.enabled`.
    pub name: &'static str,
    /// The table with every key, including those at their defaults (which the schema does not
    /// serialise), so that a user file or `--set` may override each key on a base preset.
    pub table: fn(&GpuConfig) -> toml::Table,
    /// The physical range of each numeric key, most specific first; consulted after the
    /// generic table of `config/ranges.rs`, with the same pattern rules.
    pub ranges: &'static [Range],
    /// Range and combination checks of the section; each message names the key.
    pub check: fn(&GpuConfig, &mut Vec<String>),
    /// `NAME.enabled`: the technique runs (the reference-mode model runs none).
    pub enabled: fn(&GpuConfig) -> bool,
    /// The message when the technique is on together with a register-file organisation other
    /// than the plain monolithic file (partitioned RF, MRF baseline, RF cache); `None` when it
    /// works with all of them.
    pub plain_rf_only: Option<&'static str>,
    /// Resets the keys only the cost models read to their defaults (`GpuConfig::simulated_view`).
    pub reset_cost_only_keys: fn(&mut GpuConfig),
    /// The section's source file (path, text): its doc comments document its keys
    /// (`config::keydoc`, `docs/config-keys.md`).
    pub source: (&'static str, &'static str),
}

/// The registered technique sections, in the order their tables, checks and messages appear.
pub(crate) const SECTIONS: &[TechniqueSection] = &[tric::SECTION, coma::SECTION];

/// Calls `$then!` with the `GpuConfig` fields of the registered technique sections (field
/// name = table name), each with its docs and serde attributes, in [`SECTIONS`] order;
/// `config/schema/mod.rs` declares `GpuConfig` through it.
impl GpuConfig {
    /// Whether a registered technique section is switched on (`NAME.enabled`).
    pub fn rf_technique_enabled(&self) -> bool {
        SECTIONS.iter().any(|s| (s.enabled)(self))
    }
}

macro_rules! section_fields {
    ($then:ident) => {
        $then! {
            /// `[tric]`: tri-modal register control (register-file spec §3); defaults when
            /// absent (and not written then).
            #[serde(
                default,
                skip_serializing_if = "crate::config::technique::tric::TricSection::is_default"
            )]
            tric: crate::config::technique::tric::TricSection,
            /// `[coma]`: mask-aware register access (register-file spec §4); defaults when
            /// absent (and not written then).
            #[serde(
                default,
                skip_serializing_if = "crate::config::technique::coma::ComaSection::is_default"
            )]
            coma: crate::config::technique::coma::ComaSection,
        }
    };
}
pub(crate) use section_fields;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_section_is_a_table_of_the_schema_with_its_ranges() {
        let cfg = GpuConfig::preset("gtx480").unwrap();
        let full = cfg.to_full_toml_string();
        let mut names: Vec<&str> = SECTIONS.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SECTIONS.len(), "a section registered twice");
        for s in SECTIONS {
            assert!(
                full.contains(&format!("[{}]", s.name)),
                "[{}] missing from the full schema",
                s.name
            );
            assert!(!(s.enabled)(&cfg), "{} is on in gtx480", s.name);
            assert!((s.table)(&cfg).contains_key("enabled"), "{}", s.name);
            let prefix = format!("{}.", s.name);
            assert!(
                s.ranges.iter().all(|r| r.key.starts_with(&prefix)),
                "{}: a range outside its own table",
                s.name
            );
            let on = cfg
                .with_overrides(
                    &[(format!("{}.enabled", s.name), "true".to_string())],
                    "--set",
                )
                .unwrap();
            assert!((s.enabled)(&on), "{}", s.name);
            let mut bad = Vec::new();
            (s.check)(&on, &mut bad);
            assert!(bad.is_empty(), "{}: {bad:?}", s.name);
        }
    }
}
