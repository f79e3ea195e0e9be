//! On-disk schema of the node files (`techlib/data/*.toml`, and user files of the same shape).
//!
//! Planar nodes store ITRS table values in the tables' own units (the unit is in every key);
//! FinFET nodes store per-fin values. Conversion to SI happens when a [`crate::Device`] is built.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A node file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NodeFile {
    pub name: String,
    /// `"planar"` or `"finfet"`.
    pub kind: String,
    pub feature_size_nm: f64,
    pub description: String,
    /// Present when the node is derived from other nodes instead of tabulated (planar16).
    #[serde(default)]
    pub derivation: Option<Derivation>,
    #[serde(default)]
    pub scalars: Option<Scalars>,
    /// Temperatures of the rows of the temperature tables (planar).
    #[serde(default)]
    pub table_temperatures_k: Vec<f64>,
    /// Planar device types (hp, lstp, lop, lp_dram, comm_dram), per-um values.
    #[serde(default)]
    pub flavours: BTreeMap<String, PlanarFlavour>,
    /// Bulk-planar drive/leakage model assumptions used to move away from the tabulated Vdd.
    #[serde(default)]
    pub drive_model: Option<PlanarDriveModel>,
    /// FinFET device flavours (per-fin values).
    #[serde(default)]
    pub fin_flavours: BTreeMap<String, FinFlavour>,
    #[serde(default)]
    pub fin: Option<FinGeometry>,
    #[serde(default)]
    pub operating_points: BTreeMap<String, OperatingPointFile>,
    /// Operating point used when none is named (FinFET nodes).
    #[serde(default)]
    pub nominal_operating_point: Option<String>,
    #[serde(default)]
    pub cells: BTreeMap<String, CellFile>,
    #[serde(default)]
    pub dram_cells: BTreeMap<String, DramCellFile>,
    /// `wires.<projection>.<type>`.
    #[serde(default)]
    pub wires: BTreeMap<String, BTreeMap<String, WireFile>>,
    #[serde(default)]
    pub tsv: BTreeMap<String, TsvFile>,
    /// Variability and retention knobs (FinFET nodes).
    #[serde(default)]
    pub variability: Option<Variability>,
    /// Fitted scalars with their provenance (documentation; the values used are in the sections above).
    #[serde(default)]
    pub fits: BTreeMap<String, FitRecord>,
}

/// How a derived node is built from tabulated ones.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Derivation {
    /// `"extrapolate_log_linear"`.
    pub method: String,
    /// The two nodes it is derived from (nearest first).
    pub from: Vec<String>,
    pub note: String,
}

/// Node-wide scalars of the ITRS tables.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Scalars {
    pub logic_scaling_co_eff: f64,
    pub core_tx_density_per_um2: f64,
    pub sckt_co_eff: f64,
    pub chip_layout_overhead: f64,
    pub macro_layout_overhead: f64,
    pub sense_delay_s: f64,
    pub sense_dy_energy_j: f64,
}

/// One ITRS device type at one node (per um of width).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlanarFlavour {
    pub c_g_ideal_f_per_um: f64,
    pub c_fringe_f_per_um: f64,
    pub c_junc_f_per_um2: f64,
    pub c_junc_sw_f_per_um: f64,
    pub l_phy_um: f64,
    pub l_elec_um: f64,
    pub nmos_effective_resistance_multiplier: f64,
    pub vdd_v: f64,
    pub vth_v: f64,
    pub vdsat_v: f64,
    pub i_on_n_a_per_um: f64,
    pub i_on_p_a_per_um: f64,
    pub c_ox_f_per_um2: f64,
    pub t_ox_um: f64,
    pub n2p_drv_rt: f64,
    pub lch_lk_rdc: f64,
    pub mobility_n_um2_per_vs: f64,
    pub gmp_to_gmn_multiplier: f64,
    pub vpp_v: f64,
    /// One value per `table_temperatures_k` row.
    pub i_off_n_a_per_um: Vec<f64>,
    pub i_g_on_n_a_per_um: Vec<f64>,
}

/// Model exponents for planar devices away from the tabulated Vdd (not part of the ITRS tables).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlanarDriveModel {
    /// Velocity-saturation index of the alpha-power law.
    pub alpha: f64,
    /// Subthreshold ideality factor n (swing = n kT/q ln 10).
    pub subthreshold_n: f64,
    /// Drain-induced barrier lowering, V of Vth per V of Vds.
    pub dibl_v_per_v: f64,
    /// Gate-leakage exponent: I_g ∝ (V/Vdd_nominal)^k.
    pub gate_leakage_v_exponent: f64,
    pub note: String,
}

/// Fin geometry of a FinFET node.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FinGeometry {
    pub height_nm: f64,
    pub thickness_nm: f64,
    pub pitch_nm: f64,
    pub gate_length_nm: f64,
    pub underlap_per_side_nm: f64,
    pub contacted_gate_pitch_nm: f64,
    /// Effective (gated) width of one fin, nm: 2·height for a double-gate fin, 2·height +
    /// thickness for a tri-gate fin.
    pub effective_width_nm: f64,
    pub note: String,
}

/// One FinFET device flavour; currents and capacitances are per fin.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FinFlavour {
    /// Threshold at 300 K, zero Vds, back gate tied to the front gate.
    pub vth_v: f64,
    /// Velocity-saturation index of the smooth alpha-power law.
    pub alpha: f64,
    /// Smoothing factor m of the EKV-style interpolation: subthreshold ideality n = m / alpha.
    pub ekv_m: f64,
    pub dibl_v_per_v: f64,
    /// NMOS on-current per fin at `i_on_ref_vdd_v` (Vgs = Vds = Vdd), 300 K, back gate tied.
    pub i_on_ref_a_per_fin: f64,
    pub i_on_ref_vdd_v: f64,
    /// PMOS/NMOS drive: I_on_p = I_on_n / n2p_drv_rt.
    pub n2p_drv_rt: f64,
    /// dVth/dT (negative: Vth falls as temperature rises).
    pub vth_temp_coeff_v_per_k: f64,
    /// Mobility ∝ (T/300 K)^-exponent.
    pub mobility_temp_exponent: f64,
    pub c_g_ideal_f_per_fin: f64,
    /// Gate-to-contact/fringe capacitance per fin.
    pub c_fringe_f_per_fin: f64,
    /// Drain (junction/contact) capacitance per fin.
    pub c_drain_f_per_fin: f64,
    pub i_g_on_a_per_fin: f64,
    /// Gate-leakage supply exponent: I_g ∝ (V/V_ref)^k.
    pub gate_leakage_v_exponent: f64,
    /// Equivalent oxide thickness of the gate stack, nm.
    pub eot_nm: f64,
    /// Electron mobility at 300 K, cm²/(V·s).
    pub mobility_n_cm2_per_vs: f64,
    /// Vth rise of the front channel when the back gate is held at GND (off side).
    pub bg_off_vth_shift_v: f64,
    /// Fraction of the channel that conducts with the back gate off (one of two sides).
    pub bg_off_channel_fraction: f64,
    /// Fraction of gate capacitance seen by the front gate with the back gate off.
    pub bg_off_cap_fraction: f64,
    pub note: String,
}

/// A named supply point.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct OperatingPointFile {
    pub vdd_v: f64,
    pub description: String,
}

/// A memory cell. Planar cells give widths in feature sizes (`*_f`), FinFET cells in fins.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CellFile {
    #[serde(default)]
    pub w_access_f: Option<f64>,
    #[serde(default)]
    pub w_pmos_f: Option<f64>,
    #[serde(default)]
    pub w_nmos_f: Option<f64>,
    #[serde(default)]
    pub area_f2: Option<f64>,
    #[serde(default)]
    pub fins_access: Option<f64>,
    #[serde(default)]
    pub fins_pmos: Option<f64>,
    #[serde(default)]
    pub fins_nmos: Option<f64>,
    #[serde(default)]
    pub fins_read_access: Option<f64>,
    #[serde(default)]
    pub fins_read_driver: Option<f64>,
    #[serde(default)]
    pub area_um2: Option<f64>,
    pub aspect_ratio: f64,
    /// Static noise margins measured for this cell: `[[vdd_v, back_gate_on (1/0), snm_v], ...]`.
    #[serde(default)]
    pub snm_points: Vec<Vec<f64>>,
    #[serde(default)]
    pub note: Option<String>,
}

/// A DRAM cell (absolute units).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DramCellFile {
    pub vdd_cell_v: f64,
    pub w_access_um: f64,
    pub w_pmos_um: f64,
    pub w_nmos_um: f64,
    pub area_um2: f64,
    pub aspect_ratio: f64,
    pub i_on_a_per_um: f64,
    pub vdd_v: f64,
    pub c_cell_f: f64,
    pub i_off_worst_case_len_temp_a_per_um: f64,
}

/// One wire type under one projection.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireFile {
    pub pitch_f: f64,
    pub barrier_thickness_um: f64,
    pub dishing_thickness_um: f64,
    pub alpha_scatter: f64,
    pub aspect_ratio: f64,
    pub miller_value: f64,
    pub horiz_dielectric_constant: f64,
    pub vert_dielectric_constant: f64,
    pub ild_thickness_um: f64,
    pub fringe_cap_f_per_um: f64,
    pub resistivity_uohm_m: f64,
    pub r_per_um_ohm: f64,
    pub c_per_um_f: f64,
}

/// Through-silicon vias of one projection; arrays indexed by TSV type (0 fine, 1 coarse, 2 unused).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TsvFile {
    pub pitch_um: Vec<f64>,
    pub diameter_um: Vec<f64>,
    pub length_um: Vec<f64>,
    pub dielec_thickness_um: Vec<f64>,
    pub contact_resistance_ohm: Vec<f64>,
    pub depletion_width_um: Vec<f64>,
    pub liner_dielectric_constant: Vec<f64>,
}

/// Provenance of a fitted scalar.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FitRecord {
    pub value: f64,
    pub unit: String,
    pub fitted_to: String,
    pub fit_error: String,
}

/// Variability and data-retention knobs.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Variability {
    /// Vth variation from line-edge roughness, mV.
    pub vth_sigma_ler_mv: f64,
    /// Whether `vth_sigma_ler_mv` is a 3σ value (false: 1σ).
    pub vth_ler_is_3sigma: bool,
    /// Gate-length variation (σ), nm.
    pub sigma_l_nm: f64,
    /// Data-retention voltage of the cells, mV.
    pub drv_mv: f64,
    pub note: String,
}
