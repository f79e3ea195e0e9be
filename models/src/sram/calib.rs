//! Global scale factors of the SRAM model, fitted by code against CACTI 7 results
//! (`../shared/reference/cacti7_train.csv`) and stored in `models/data/sram_calib.toml`.
//!
//! Regenerate with `cargo run --release -p models --example sram_fit -- --write` (it prints the
//! fitted values and the fit error, and writes the file, accuracy figures included). Each factor multiplies one modelled quantity
//! that the analytical model computes from first principles; a value near 1 means the physics
//! alone matches.

use serde::{Deserialize, Serialize};

/// The model's global factors: one `[planar]` or `[planar_train]` table of
/// `models/data/sram_calib.toml`, each key named as its field (dimensionless unless stated).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calib {
    /// Multiplies decoder and bitline-periphery layout area.
    pub periph_area: f64,
    /// Multiplies the routing pitch of H-tree wire bundles (wire + repeater + via spacing).
    pub route_pitch: f64,
    /// Check bits stored per data bit (not fitted): CACTI's default configuration, which the
    /// reference rows use, adds one check bit per data byte (1/8), and so does FinCACTI behind
    /// the 7 nm rows. The columns of every subarray and the data bundles grow by this fraction;
    /// the level shifters lift only the data bits.
    #[serde(default)]
    pub ecc_bits_per_data_bit: f64,
    /// Multiplies the routing pitch of the tree between banks on top of `route_pitch`.
    #[serde(default = "one")]
    pub route_pitch_top: f64,
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
    /// Multiplies the energy of the row-address distribution to every mat of a bank.
    #[serde(default = "one")]
    pub energy_addr_dist: f64,
    /// Multiplies the dynamic energy of the tree between banks (global wires).
    #[serde(default = "one")]
    pub energy_top: f64,
    /// Per-flavour multipliers of all dynamic energy (hp, lstp, lop; FinFET flavours use 1).
    #[serde(default = "one")]
    pub energy_hp: f64,
    /// `energy_lstp`: multiplier of all dynamic energy of lstp arrays.
    #[serde(default = "one")]
    pub energy_lstp: f64,
    /// `energy_lop`: multiplier of all dynamic energy of lop arrays.
    #[serde(default = "one")]
    pub energy_lop: f64,
    /// Multiplies the bank-edge I/O latch/driver area and energy (per address/data wire).
    #[serde(default = "one")]
    pub io: f64,
    /// Multiplies peripheral (non-cell) leakage.
    pub leakage_periph: f64,
    /// Multiplies the leakage of the routing repeaters and bank-edge latches on top of
    /// `leakage_periph`.
    #[serde(default = "one")]
    pub leakage_route: f64,
    /// Multiplies cell leakage (the cell's off devices on the ITRS currents).
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
            route_pitch_top: 1.0,
            ecc_bits_per_data_bit: 0.0,
            delay_array: 1.0,
            delay_route: 1.0,
            energy_array: 1.0,
            energy_bitline: 1.0,
            energy_route: 1.0,
            energy_addr_dist: 1.0,
            energy_top: 1.0,
            energy_hp: 1.0,
            energy_lstp: 1.0,
            energy_lop: 1.0,
            io: 1.0,
            leakage_periph: 1.0,
            leakage_route: 1.0,
            leakage_cell: 1.0,
            level_shift_j_per_bit: 0.0,
        }
    }
}

/// The FinFET scalars fitted to the two 7 nm register-file rows ([`super::fit::fit_finfet`]),
/// applied on top of the planar structural factors, with the fit's errors.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinfetScalars {
    /// Multiplies all dynamic energy (array, bitline, routing, address distribution, inter-bank
    /// tree): the one energy scalar, solved from the MRF row (at the nominal supply, so free of
    /// level shifting).
    pub energy_scale: f64,
    /// The MRF access-energy error of the structure alone (energy scale 1), percent: how far
    /// the planar structural factors on the finfet7 data land without any energy fitting.
    pub mrf_energy_structural_err_pct: f64,
    /// Multiplies cell and peripheral leakage (the structure's leakage on the `techlib`
    /// device currents, scaled to the two rows by least squares in log space).
    pub leakage_scale: f64,
    /// Level-shifter energy per read bit per unit relative supply gap (J/bit), see
    /// [`Calib::level_shift_j_per_bit`].
    pub level_shift_j_per_bit: f64,
    /// Model/reference − 1 at the fitted scalars (percent): MRF and SRF access energy and
    /// leakage.
    pub mrf_energy_err_pct: f64,
    /// MRF leakage error at the fitted scalars (percent).
    pub mrf_leakage_err_pct: f64,
    /// SRF access-energy error at the fitted scalars (percent).
    pub srf_energy_err_pct: f64,
    /// SRF leakage error at the fitted scalars (percent).
    pub srf_leakage_err_pct: f64,
}

/// Mean absolute percentage errors of the model against the CACTI 7 reference rows.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SramAccuracy {
    /// Area MAPE (percent).
    pub area_mape_pct: f64,
    /// Read energy per access MAPE (percent).
    pub read_energy_mape_pct: f64,
    /// Total leakage power MAPE (percent).
    pub leakage_mape_pct: f64,
    /// Access time MAPE (percent).
    pub access_time_mape_pct: f64,
    /// Rows measured.
    pub rows: usize,
}

/// Which recorded accuracy figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccuracySplit {
    /// The embedded planar factors (fitted on all rows) measured on all rows.
    AllRows,
    /// The factors fitted on the training split only ([`planar_train`]) measured on the
    /// held-out rows ([`super::reference::held_out`]), which the fit never saw.
    HeldOut,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AccuracyFile {
    all_rows: SramAccuracy,
    held_out: SramAccuracy,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CalibFile {
    planar: Calib,
    planar_train: Calib,
    finfet: FinfetScalars,
    accuracy: AccuracyFile,
}

const CALIB_TOML: &str = include_str!("../../data/sram_calib.toml");

/// The embedded file, parsed once per process (the SRAM model asks for it on every array it
/// costs).
fn file() -> Option<&'static CalibFile> {
    static FILE: std::sync::OnceLock<Option<CalibFile>> = std::sync::OnceLock::new();
    FILE.get_or_init(|| toml::from_str::<CalibFile>(CALIB_TOML).ok())
        .as_ref()
}

/// The fitted factors for planar nodes (the embedded TOML).
pub fn planar() -> Calib {
    // The embedded file is checked by a unit test; fall back to unity factors if it were ever
    // unreadable so that the model still runs on pure physics.
    file().map(|f| f.planar).unwrap_or_default()
}

/// The planar factors fitted on the training split only (for the held-out measurement).
pub fn planar_train() -> Calib {
    file().map(|f| f.planar_train).unwrap_or_default()
}

/// The fitted FinFET scalars (the embedded TOML).
pub fn finfet_scalars() -> FinfetScalars {
    file().map(|f| f.finfet).unwrap_or(FinfetScalars {
        energy_scale: 1.0,
        mrf_energy_structural_err_pct: f64::NAN,
        leakage_scale: 1.0,
        level_shift_j_per_bit: 0.0,
        mrf_energy_err_pct: f64::NAN,
        mrf_leakage_err_pct: f64::NAN,
        srf_energy_err_pct: f64::NAN,
        srf_leakage_err_pct: f64::NAN,
    })
}

/// The planar structural factors with the FinFET scalars applied.
pub fn with_finfet_scalars(planar: &Calib, s: &FinfetScalars) -> Calib {
    Calib {
        energy_array: planar.energy_array * s.energy_scale,
        energy_bitline: planar.energy_bitline * s.energy_scale,
        energy_route: planar.energy_route * s.energy_scale,
        energy_addr_dist: planar.energy_addr_dist * s.energy_scale,
        energy_top: planar.energy_top * s.energy_scale,
        leakage_cell: planar.leakage_cell * s.leakage_scale,
        leakage_periph: planar.leakage_periph * s.leakage_scale,
        level_shift_j_per_bit: s.level_shift_j_per_bit,
        ..*planar
    }
}

/// The factors for FinFET nodes: the planar structural factors plus the fitted scalars.
pub fn finfet() -> Calib {
    with_finfet_scalars(&planar(), &finfet_scalars())
}

/// The factors for `tech` (FinFET or planar).
pub fn for_tech(tech: &super::SramTech) -> Calib {
    if tech.finfet {
        finfet()
    } else {
        planar()
    }
}

/// The accuracy recorded by the fit code (`cargo run --release -p models --example sram_fit
/// -- --write`) in `models/data/sram_calib.toml`; the accuracy test re-measures it.
pub fn recorded_accuracy(split: AccuracySplit) -> SramAccuracy {
    let f = file().map(|f| f.accuracy);
    let nan = SramAccuracy {
        area_mape_pct: f64::NAN,
        read_energy_mape_pct: f64::NAN,
        leakage_mape_pct: f64::NAN,
        access_time_mape_pct: f64::NAN,
        rows: 0,
    };
    match (f, split) {
        (Some(a), AccuracySplit::AllRows) => a.all_rows,
        (Some(a), AccuracySplit::HeldOut) => a.held_out,
        (None, _) => nan,
    }
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
        assert!(f.planar.delay_array > 0.0 && f.finfet.leakage_scale > 0.0);
        assert!(f.accuracy.all_rows.rows > 0);
    }

    /// Every factor is determined by the data: withholding a fifth of the rows moves none of
    /// them by more than 2× (a factor free to drift along a flat direction of the objective would
    /// land anywhere, as the decoder-and-wordline energy factor once did, at 1e-19).
    #[test]
    fn training_split_factors_agree_with_the_full_fit() {
        let (a, b) = (super::planar(), super::planar_train());
        let pairs = [
            ("periph_area", a.periph_area, b.periph_area),
            ("route_pitch", a.route_pitch, b.route_pitch),
            ("route_pitch_top", a.route_pitch_top, b.route_pitch_top),
            ("delay_array", a.delay_array, b.delay_array),
            ("delay_route", a.delay_route, b.delay_route),
            ("energy_array", a.energy_array, b.energy_array),
            ("energy_bitline", a.energy_bitline, b.energy_bitline),
            ("energy_route", a.energy_route, b.energy_route),
            ("energy_addr_dist", a.energy_addr_dist, b.energy_addr_dist),
            ("energy_top", a.energy_top, b.energy_top),
            ("energy_hp", a.energy_hp, b.energy_hp),
            ("energy_lstp", a.energy_lstp, b.energy_lstp),
            ("energy_lop", a.energy_lop, b.energy_lop),
            ("io", a.io, b.io),
            ("leakage_periph", a.leakage_periph, b.leakage_periph),
            ("leakage_route", a.leakage_route, b.leakage_route),
            ("leakage_cell", a.leakage_cell, b.leakage_cell),
        ];
        for (name, x, y) in pairs {
            let r = (x / y).max(y / x);
            assert!(
                r.is_finite() && r < 2.0,
                "{name}: all rows {x}, training split {y}"
            );
        }
    }
}
