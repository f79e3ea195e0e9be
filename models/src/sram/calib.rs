//! Global scale factors of the SRAM model, fitted by code against CACTI 7 results
//! (`../shared/reference/cacti7_train.csv`) and stored in `models/data/sram_calib.toml`.
//!
//! Regenerate with `cargo run --release -p models --example sram_fit` (it prints the fitted
//! values, the fit error and the TOML to paste). Each factor multiplies one modelled quantity
//! that the analytical model computes from first principles; a value near 1 means the physics
//! alone matches.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calib {
    /// Multiplies decoder and bitline-periphery layout area.
    pub periph_area: f64,
    /// Multiplies the routing pitch of H-tree wire bundles (wire + repeater + via spacing).
    pub route_pitch: f64,
    /// Multiplies the delays inside a subarray (decoder, wordline, bitline, sense, mux).
    pub delay_array: f64,
    /// Multiplies the delay of the H-trees (bank and inter-bank routing).
    pub delay_route: f64,
    /// Multiplies the dynamic energy inside the subarrays.
    pub energy_array: f64,
    /// Multiplies the bitline and sense-amplifier dynamic energy.
    #[serde(default = "one")]
    pub energy_bitline: f64,
    /// Multiplies the dynamic energy of the H-tree inside a bank.
    pub energy_route: f64,
    /// Multiplies the dynamic energy of the tree between banks (global wires).
    #[serde(default = "one")]
    pub energy_top: f64,
    /// Per-flavour multipliers of all dynamic energy (hp, lstp, lop; FinFET flavours use 1).
    #[serde(default = "one")]
    pub energy_hp: f64,
    #[serde(default = "one")]
    pub energy_lstp: f64,
    #[serde(default = "one")]
    pub energy_lop: f64,
    /// Multiplies the bank-edge I/O latch/driver area and energy (per address/data wire).
    #[serde(default = "one")]
    pub io: f64,
    /// Multiplies peripheral (non-cell) leakage.
    pub leakage_periph: f64,
    /// Multiplies cell leakage (1 for planar nodes: the ITRS currents are used as they are).
    #[serde(default = "one")]
    pub leakage_cell: f64,
    /// Level-shifter energy per read bit of an array running below its node's nominal supply:
    /// the read data is lifted to the nominal-supply datapath, and the shifter's contention
    /// energy grows with the relative supply gap, `E = this × (V_nom − V)/V_nom` per bit (J/bit).
    /// Zero for planar nodes (CACTI has no such term); fitted for FinFET nodes, where it is what
    /// makes the energy per access of a near-threshold array exceed its C·V² share.
    #[serde(default)]
    pub level_shift_j_per_bit: f64,
}

fn one() -> f64 {
    1.0
}

impl Default for Calib {
    fn default() -> Self {
        Calib {
            periph_area: 1.0,
            route_pitch: 1.0,
            delay_array: 1.0,
            delay_route: 1.0,
            energy_array: 1.0,
            energy_bitline: 1.0,
            energy_route: 1.0,
            energy_top: 1.0,
            energy_hp: 1.0,
            energy_lstp: 1.0,
            energy_lop: 1.0,
            io: 1.0,
            leakage_periph: 1.0,
            leakage_cell: 1.0,
            level_shift_j_per_bit: 0.0,
        }
    }
}

#[derive(Debug, Deserialize)]
struct CalibFile {
    planar: Calib,
    finfet: Calib,
}

const CALIB_TOML: &str = include_str!("../../data/sram_calib.toml");

/// The fitted factors for planar nodes (the embedded TOML).
pub fn planar() -> Calib {
    // The embedded file is checked by a unit test; fall back to unity factors if it were ever
    // unreadable so that the model still runs on pure physics.
    toml::from_str::<CalibFile>(CALIB_TOML)
        .map(|f| f.planar)
        .unwrap_or_default()
}

/// The fitted factors for FinFET nodes (the embedded TOML).
pub fn finfet() -> Calib {
    toml::from_str::<CalibFile>(CALIB_TOML)
        .map(|f| f.finfet)
        .unwrap_or_default()
}

impl Calib {
    /// The dynamic-energy multiplier of a device flavour.
    pub fn flavour_energy(&self, f: super::Flavour) -> f64 {
        match f {
            super::Flavour::Hp => self.energy_hp,
            super::Flavour::Lstp => self.energy_lstp,
            super::Flavour::Lop => self.energy_lop,
            super::Flavour::Lvt | super::Flavour::Rvt | super::Flavour::Slvt => 1.0,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn embedded_calibration_parses() {
        let f: super::CalibFile = toml::from_str(super::CALIB_TOML).expect("sram_calib.toml");
        assert!(f.planar.delay_array > 0.0 && f.finfet.energy_array > 0.0);
    }
}
