//! `[coma]`: coordinated mask-aware register access of the Warped Register File
//! (register-file spec §4): COMA drives only the active lanes' wordline segments of an access.
//!
//! Every key has a serde default, and the table is skipped when serialising a configuration
//! that leaves it at its default, so presets and user files without it load and hash exactly
//! as before. With `coma.enabled = false` the timing model and every counter it had before are
//! unchanged. `SECTION` registers the table with the generic configuration code
//! (`config::technique::SECTIONS`).

use serde::{Deserialize, Serialize};

use super::TechniqueSection;
use crate::config::ranges::r;

/// COMA's registration with the generic configuration code: its table, the outer bounds of its
/// numeric keys, its checks and its switch.
pub(crate) const SECTION: TechniqueSection = TechniqueSection {
    name: "coma",
    table: |c| toml::Table::try_from(&c.coma).expect("coma serialises"),
    ranges: &[
        r("coma.fixed_fraction", 0.0, 1.0, "(fraction)"),
        r("coma.lanes_per_segment", 1.0, 32.0, "lanes"),
    ],
    check: |c, bad| c.coma.check(bad),
    enabled: |c| c.coma.enabled,
    plain_rf_only: None,
    reset_cost_only_keys: |_| {},
    source: ("sim/src/config/technique/coma.rs", include_str!("coma.rs")),
};

/// `coma.lane_org`: how the lanes of an entry are laid out (spec §4.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LaneOrg {
    /// `"wide_128B"`: one 128-B row with a divided wordline, `coma.lanes_per_segment` lanes
    /// per segment.
    #[default]
    #[serde(rename = "wide_128B")]
    Wide128B,
    /// `"cluster4_16B"`: lane quads with 16-B register files; a quad is driven if any of its
    /// four lanes is active.
    #[serde(rename = "cluster4_16B")]
    Cluster4x16B,
    /// `"per_lane_32banks"`: 32 banks of 4 B; only active lanes' banks are accessed.
    #[serde(rename = "per_lane_32banks")]
    PerLane32Banks,
}

/// `coma.fixed_fraction`: a number in 0..=1 or `"model"`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FixedFraction {
    /// The share of the access energy that is not lane-gated.
    Value(f64),
    /// `"model"`: the SRAM model sets it.
    Word(ModelWord),
}

/// The word `model`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ModelWord {
    /// Derived by the model.
    #[serde(rename = "model")]
    Model,
}

/// `[coma]`: coordinated mask-aware register access.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ComaSection {
    /// `coma.enabled`: drive only the active lanes' segments of each access.
    pub enabled: bool,
    /// `coma.lanes_per_segment`: lanes of one divided-wordline segment (divides 32).
    pub lanes_per_segment: u32,
    /// `coma.fixed_fraction` (read by the energy accounting; the simulator counts driven
    /// lanes).
    pub fixed_fraction: FixedFraction,
    /// `coma.lane_org`.
    pub lane_org: LaneOrg,
}

impl Default for ComaSection {
    fn default() -> Self {
        ComaSection {
            enabled: false,
            lanes_per_segment: 1,
            fixed_fraction: FixedFraction::Value(0.0),
            lane_org: LaneOrg::Wide128B,
        }
    }
}

impl ComaSection {
    /// All keys at their defaults (the table is then not serialised).
    pub fn is_default(&self) -> bool {
        *self == ComaSection::default()
    }

    /// Lanes one gated segment spans: `lanes_per_segment` for the divided wordline, 4 for
    /// lane quads, 1 for per-lane banks.
    pub fn segment_lanes(&self) -> u32 {
        match self.lane_org {
            LaneOrg::Wide128B => self.lanes_per_segment,
            LaneOrg::Cluster4x16B => 4,
            LaneOrg::PerLane32Banks => 1,
        }
    }

    /// Range checks; each message names the key.
    pub fn check(&self, bad: &mut Vec<String>) {
        if !matches!(self.lanes_per_segment, 1 | 2 | 4 | 8 | 16 | 32) {
            bad.push(format!(
                "'coma.lanes_per_segment' = {}: allowed 1, 2, 4, 8, 16 or 32 (a divisor of the \
                 32 lanes)",
                self.lanes_per_segment
            ));
        }
        if let FixedFraction::Value(f) = self.fixed_fraction {
            if !(0.0..=1.0).contains(&f) {
                bad.push(format!(
                    "'coma.fixed_fraction' = {f}: must be a fraction in 0..=1 or \"model\""
                ));
            }
        }
    }
}
