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
    /// Node name (`planar45`, `finfet7`, ...).
    pub name: String,
    /// `"planar"` or `"finfet"`.
    pub kind: String,
    /// Feature size, nm.
    pub feature_size_nm: f64,
    /// One-line description shown in listings.
    pub description: String,
    /// Present when the node is derived from other nodes instead of tabulated (planar16).
    #[serde(default)]
    pub derivation: Option<Derivation>,
    /// Node-wide scalars (sense amplifier, layout overheads, logic density).
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
    /// Fin geometry (FinFET nodes).
    #[serde(default)]
    pub fin: Option<FinGeometry>,
    /// Named supply points (FinFET nodes), by name.
    #[serde(default)]
    pub operating_points: BTreeMap<String, OperatingPointFile>,
    /// Operating point used when none is named (FinFET nodes).
    #[serde(default)]
    pub nominal_operating_point: Option<String>,
    /// SRAM and CAM cells by key (`sram`, `sram8t`, `cam`).
    #[serde(default)]
    pub cells: BTreeMap<String, CellFile>,
    /// DRAM cells by process (`lp_dram`, `comm_dram`).
    #[serde(default)]
    pub dram_cells: BTreeMap<String, DramCellFile>,
    /// `wires.<projection>.<type>`.
    #[serde(default)]
    pub wires: BTreeMap<String, BTreeMap<String, WireFile>>,
    /// Through-silicon vias by projection (`aggressive`, `conservative`).
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
    /// Why and how the node is derived.
    pub note: String,
}

/// Node-wide scalars of the ITRS tables.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Scalars {
    /// Logic area scaling relative to 90 nm (0.7 per generation: 1.0 at 90 nm, 0.49 at 45 nm).
    pub logic_scaling_co_eff: f64,
    /// Core logic transistor density (the tables' `core_tx_density`), per µm².
    pub core_tx_density_per_um2: f64,
    /// Short-circuit power coefficient (the tables' `sckt_co_eff`).
    pub sckt_co_eff: f64,
    /// Area multiplier for chip-level layout overhead.
    pub chip_layout_overhead: f64,
    /// Area multiplier for layout overhead within a macro (array).
    pub macro_layout_overhead: f64,
    /// Sense-amplifier delay, s.
    pub sense_delay_s: f64,
    /// Sense-amplifier dynamic energy per sensing, J (the tables' `sense_dy_power`).
    pub sense_dy_energy_j: f64,
}

/// One ITRS device type at one node (per um of width).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlanarFlavour {
    /// Ideal (intrinsic) gate capacitance per width, F/µm.
    pub c_g_ideal_f_per_um: f64,
    /// Fringe gate capacitance per width, F/µm.
    pub c_fringe_f_per_um: f64,
    /// Bottom junction capacitance per diffusion area, F/µm².
    pub c_junc_f_per_um2: f64,
    /// Sidewall junction capacitance per diffusion perimeter, F/µm.
    pub c_junc_sw_f_per_um: f64,
    /// Physical gate length, µm.
    pub l_phy_um: f64,
    /// Electrical (effective) channel length, µm.
    pub l_elec_um: f64,
    /// Effective-resistance multiplier at `vdd_v`: `R_on = multiplier · Vdd / I_on`.
    pub nmos_effective_resistance_multiplier: f64,
    /// Nominal supply of the device type, V.
    pub vdd_v: f64,
    /// Threshold voltage, V.
    pub vth_v: f64,
    /// Drain saturation voltage at `vdd_v`, V.
    pub vdsat_v: f64,
    /// NMOS on-current per width at `vdd_v`, A/µm.
    pub i_on_n_a_per_um: f64,
    /// PMOS on-current per width at `vdd_v`, A/µm.
    pub i_on_p_a_per_um: f64,
    /// Gate-oxide capacitance per area, F/µm².
    pub c_ox_f_per_um2: f64,
    /// Gate-oxide thickness, µm.
    pub t_ox_um: f64,
    /// NMOS/PMOS drive ratio (PMOS width needed for equal drive).
    pub n2p_drv_rt: f64,
    /// Leakage multiplier of long-channel devices.
    pub lch_lk_rdc: f64,
    /// Electron mobility, µm²/(V·s).
    pub mobility_n_um2_per_vs: f64,
    /// PMOS/NMOS transconductance ratio (used for the sense amplifier's gain).
    pub gmp_to_gmn_multiplier: f64,
    /// Boosted wordline supply (DRAM types), V; 0 when not used.
    pub vpp_v: f64,
    /// One value per `table_temperatures_k` row.
    pub i_off_n_a_per_um: Vec<f64>,
    /// NMOS gate-tunnelling current of an on device per width, A/µm; one value per `table_temperatures_k` row.
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
    /// Where the exponents come from.
    pub note: String,
}

/// Fin geometry of a FinFET node.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FinGeometry {
    /// Fin height, nm.
    pub height_nm: f64,
    /// Fin (silicon body) thickness, nm.
    pub thickness_nm: f64,
    /// Fin pitch, nm.
    pub pitch_nm: f64,
    /// Physical gate length, nm.
    pub gate_length_nm: f64,
    /// Gate-to-source/drain underlap on each side, nm (channel length = gate length + 2 × underlap).
    pub underlap_per_side_nm: f64,
    /// Contacted gate pitch, nm.
    pub contacted_gate_pitch_nm: f64,
    /// Effective (gated) width of one fin, nm: 2·height for a double-gate fin, 2·height +
    /// thickness for a tri-gate fin.
    pub effective_width_nm: f64,
    /// Sources and assumptions of the geometry.
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
    /// Drain-induced barrier lowering, V of Vth per V of Vds.
    pub dibl_v_per_v: f64,
    /// NMOS on-current per fin at `i_on_ref_vdd_v` (Vgs = Vds = Vdd), 300 K, back gate tied.
    pub i_on_ref_a_per_fin: f64,
    /// Supply of the `i_on_ref_a_per_fin` measurement, V; also the reference of the gate-leakage law.
    pub i_on_ref_vdd_v: f64,
    /// PMOS/NMOS drive: I_on_p = I_on_n / n2p_drv_rt.
    pub n2p_drv_rt: f64,
    /// dVth/dT (negative: Vth falls as temperature rises).
    pub vth_temp_coeff_v_per_k: f64,
    /// Mobility ∝ (T/300 K)^-exponent.
    pub mobility_temp_exponent: f64,
    /// Ideal (intrinsic) gate capacitance per fin, F.
    pub c_g_ideal_f_per_fin: f64,
    /// Gate-to-contact/fringe capacitance per fin.
    pub c_fringe_f_per_fin: f64,
    /// Drain (junction/contact) capacitance per fin.
    pub c_drain_f_per_fin: f64,
    /// Gate-tunnelling current of an on device per fin at `i_on_ref_vdd_v`, A.
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
    /// Sources of the flavour's values.
    pub note: String,
}

/// A named supply point.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct OperatingPointFile {
    /// Supply, V.
    pub vdd_v: f64,
    /// One-line description.
    pub description: String,
}

/// A memory cell. Planar cells give widths in feature sizes (`*_f`), FinFET cells in fins.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CellFile {
    /// Access (pass-gate) transistor width, in F (planar).
    #[serde(default)]
    pub w_access_f: Option<f64>,
    /// Pull-up PMOS width, in F (planar).
    #[serde(default)]
    pub w_pmos_f: Option<f64>,
    /// Pull-down NMOS width, in F (planar).
    #[serde(default)]
    pub w_nmos_f: Option<f64>,
    /// Cell area, in F² (planar).
    #[serde(default)]
    pub area_f2: Option<f64>,
    /// Access (pass-gate) fins (FinFET).
    #[serde(default)]
    pub fins_access: Option<f64>,
    /// Pull-up PMOS fins (FinFET).
    #[serde(default)]
    pub fins_pmos: Option<f64>,
    /// Pull-down NMOS fins (FinFET).
    #[serde(default)]
    pub fins_nmos: Option<f64>,
    /// Read-port access fins (FinFET 8T cells).
    #[serde(default)]
    pub fins_read_access: Option<f64>,
    /// Read-port driver fins (FinFET 8T cells).
    #[serde(default)]
    pub fins_read_driver: Option<f64>,
    /// Cell area, µm² (FinFET).
    #[serde(default)]
    pub area_um2: Option<f64>,
    /// Height / width of the cell.
    pub aspect_ratio: f64,
    /// Static noise margins measured for this cell: `[[vdd_v, back_gate_on (1/0), snm_v], ...]`.
    #[serde(default)]
    pub snm_points: Vec<Vec<f64>>,
    /// Source of the cell data.
    #[serde(default)]
    pub note: Option<String>,
}

/// A DRAM cell (absolute units).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DramCellFile {
    /// Cell storage supply, V (0 where the table leaves it empty).
    pub vdd_cell_v: f64,
    /// Access-transistor width, µm.
    pub w_access_um: f64,
    /// PMOS width, µm (0 in the ITRS DRAM cells).
    pub w_pmos_um: f64,
    /// NMOS width besides the access transistor, µm (0 in the ITRS DRAM cells).
    pub w_nmos_um: f64,
    /// Cell area, µm².
    pub area_um2: f64,
    /// Height / width of the cell.
    pub aspect_ratio: f64,
    /// Access-transistor on-current per width, A/µm.
    pub i_on_a_per_um: f64,
    /// Supply of the DRAM process as the cell table gives it, V.
    pub vdd_v: f64,
    /// Storage capacitance of one cell, F.
    pub c_cell_f: f64,
    /// Access-transistor off-current per width at worst-case channel length and temperature, A/µm.
    pub i_off_worst_case_len_temp_a_per_um: f64,
}

/// One wire type under one projection.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireFile {
    /// Wire pitch, in feature sizes F.
    pub pitch_f: f64,
    /// Thickness of the diffusion barrier lining the conductor, µm.
    pub barrier_thickness_um: f64,
    /// Thickness lost to dishing in chemical-mechanical polishing, µm.
    pub dishing_thickness_um: f64,
    /// Resistivity multiplier for surface and grain-boundary scattering.
    pub alpha_scatter: f64,
    /// Metal thickness / width.
    pub aspect_ratio: f64,
    /// Miller factor on the sidewall coupling capacitance.
    pub miller_value: f64,
    /// Relative permittivity between neighbouring wires of a layer.
    pub horiz_dielectric_constant: f64,
    /// Relative permittivity of the inter-layer dielectric.
    pub vert_dielectric_constant: f64,
    /// Inter-layer dielectric thickness, µm.
    pub ild_thickness_um: f64,
    /// Fringe capacitance per length, F/µm.
    pub fringe_cap_f_per_um: f64,
    /// Bulk resistivity of the conductor, µΩ·m.
    pub resistivity_uohm_m: f64,
    /// Tabulated resistance per length, Ω/µm (DRAM-internal wires); 0: computed from the geometry.
    pub r_per_um_ohm: f64,
    /// Tabulated capacitance per length, F/µm (DRAM-internal wires); 0: computed from the geometry.
    pub c_per_um_f: f64,
}

/// Through-silicon vias of one projection; arrays indexed by TSV type (0 fine, 1 coarse, 2 unused).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TsvFile {
    /// Via pitch, µm.
    pub pitch_um: Vec<f64>,
    /// Via diameter, µm.
    pub diameter_um: Vec<f64>,
    /// Via length (thinned die depth), µm.
    pub length_um: Vec<f64>,
    /// Thickness of the dielectric liner, µm.
    pub dielec_thickness_um: Vec<f64>,
    /// Contact resistance, Ω.
    pub contact_resistance_ohm: Vec<f64>,
    /// Width of the depletion region around the via, µm.
    pub depletion_width_um: Vec<f64>,
    /// Relative permittivity of the liner.
    pub liner_dielectric_constant: Vec<f64>,
}

/// Provenance of a fitted scalar.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FitRecord {
    /// The fitted value, in `unit`.
    pub value: f64,
    /// Unit of `value` (`-` when dimensionless).
    pub unit: String,
    /// The data the value is fitted to.
    pub fitted_to: String,
    /// The fit's error against that data.
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
    /// Sources and caveats of these knobs.
    pub note: String,
}
