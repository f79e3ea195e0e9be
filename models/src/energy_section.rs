//! `[energy]`: the register-file energy-accounting switches (register-file spec §8), also
//! reached as `models::rf::EnergySection`; a module of its own, which imports nothing of the
//! crate, because every costing's context ([`crate::technique::CostContext`]) carries it. They
//! are read where a run's register-file record is costed (`energy.write_equals_read` by
//! [`crate::rf::structures::RfDesign::from_config`], `energy.calibration` and
//! `energy.fixed_ratio_sweep` by the root crate's costing and comparison), never by the
//! simulator, so they live here rather than in `sim`'s machine configuration. A configuration
//! file still carries them as its `[energy]` table: the root crate's study configuration reads
//! that table beside the machine's and checks it with the same strictness (unknown keys and
//! bad values are errors naming the file, line and key).

use serde::{Deserialize, Serialize};

/// This file as (path from the repository root, text): the key reference reads the `[energy]`
/// keys' meanings from the doc comments below (`sim::config::keydoc`).
pub const SOURCE: (&str, &str) = (
    "models/src/energy_section.rs",
    include_str!("energy_section.rs"),
);

/// `energy.calibration`: where the MRF/SRF access energies come from (spec §8.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnergyCalibration {
    /// `"model"`: the SRAM model.
    #[default]
    Model,
    /// `"paper_rows"`: the reference rows for the MRF and SRF (the FRF always from the model).
    PaperRows,
}

/// `[energy]`: register-file energy-accounting switches, read by `models` and the CLI when
/// they cost a run's register-file record; the simulator never reads them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EnergySection {
    /// `energy.calibration`.
    pub calibration: EnergyCalibration,
    /// `energy.write_equals_read`: a write costs a read of the same structure.
    pub write_equals_read: bool,
    /// `energy.fixed_ratio_sweep`: dynamic:leakage power ratios r for the fixed-ratio total
    /// saving `S_tot(r) = (S_leak + r·S_dyn)/(1 + r)` (spec §8.5); empty = none.
    pub fixed_ratio_sweep: Vec<f64>,
}

/// The range of each numeric `[energy]` key as (key, smallest, largest, unit), an array's
/// elements each: [`EnergySection::check`] applies it and the key reference prints it.
pub const RANGES: &[(&str, f64, f64, &str)] = &[(
    "energy.fixed_ratio_sweep",
    0.0,
    f64::INFINITY,
    "(dynamic:leakage power ratio)",
)];

impl Default for EnergySection {
    fn default() -> Self {
        EnergySection {
            calibration: EnergyCalibration::Model,
            write_equals_read: true,
            fixed_ratio_sweep: Vec::new(),
        }
    }
}

impl EnergySection {
    /// All keys at their defaults (the table is then not serialised).
    pub fn is_default(&self) -> bool {
        *self == EnergySection::default()
    }

    /// Range checks; each message names the key.
    pub fn check(&self, bad: &mut Vec<String>) {
        let (_, lo, _, _) = RANGES[0];
        for &r in &self.fixed_ratio_sweep {
            if !(r.is_finite() && r >= lo) {
                bad.push(format!(
                    "'energy.fixed_ratio_sweep' holds {r}: every ratio must be a non-negative \
                     number"
                ));
            }
        }
    }
}
