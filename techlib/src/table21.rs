//! Planar 6T cell leakage against the published PTM cell currents (Table 2.1 of the source:
//! 90/65/32 nm) and the drowsy-retention anchor.
//!
//! The cell current is computed from the device model and the ITRS cell widths
//! ([`crate::SramCell::standby_current_a`], HP devices at the table's supply, 300 K). The source's
//! PTM devices are not the ITRS devices, so a per-node multiplicative constant
//! `scale = I_table / I_model` is fitted (one constant per node, exact by construction) and
//! recorded in the node file under `[fits.sram6t_cell_leakage_scale]`; the unscaled model error is
//! what this comparison measures.
//!
//! Drowsy anchor: with the supply lowered to DRV + 250 mV, a cell must leak less than 10 % of its
//! full-supply leakage at all three nodes. [`drowsy_ratio`] evaluates the model's ratio.

use crate::cell::CellKind;
use crate::error::TechError;
use crate::{node, Conditions, Flavour};

/// `(node, Vdd V, cell leakage A, DRV V)` of Table 2.1.
pub const TABLE_2_1: [(&str, f64, f64, f64); 3] = [
    ("planar90", 1.2, 14.6e-9, 0.120),
    ("planar65", 1.1, 22.8e-9, 0.145),
    ("planar32", 0.9, 26.08e-9, 0.220),
];

/// Drowsy margin above DRV of the anchor, V.
pub const DROWSY_MARGIN_V: f64 = 0.250;
/// Maximum drowsy/full leakage ratio of the anchor.
pub const DROWSY_MAX_RATIO: f64 = 0.10;

/// One row of the comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct CellLeakageRow {
    /// Node of the table row.
    pub node: &'static str,
    /// Supply of the row, V.
    pub vdd_v: f64,
    /// Published cell leakage current, A.
    pub table_a: f64,
    /// Modelled standby current of one 6T cell (HP devices, 300 K, unscaled), A.
    pub model_a: f64,
    /// Fitted `table / model`.
    pub scale: f64,
    /// Unscaled relative error `model/table − 1`.
    pub unscaled_error: f64,
    /// Scale recorded in the node file, if any.
    pub recorded_scale: Option<f64>,
}

/// Standby current of one 6T cell of `node_name` (HP, 300 K) at `vdd_v`, A.
pub fn cell_current_a(node_name: &str, vdd_v: f64) -> Result<f64, TechError> {
    let n = node(node_name)?;
    let p = n.at(&Conditions::new(Flavour::Hp).with_vdd(vdd_v))?;
    p.cell_standby_current_a(CellKind::Six)
}

/// Fits the per-node constants.
pub fn fit() -> Result<Vec<CellLeakageRow>, TechError> {
    TABLE_2_1
        .iter()
        .map(|&(name, vdd, table_a, _)| {
            let model_a = cell_current_a(name, vdd)?;
            let recorded = node(name)?
                .file()
                .fits
                .get("sram6t_cell_leakage_scale")
                .map(|r| r.value);
            Ok(CellLeakageRow {
                node: name,
                vdd_v: vdd,
                table_a,
                model_a,
                scale: table_a / model_a,
                unscaled_error: model_a / table_a - 1.0,
                recorded_scale: recorded,
            })
        })
        .collect()
}

/// Model ratio of cell leakage at DRV + margin to leakage at full supply, per Table 2.1 node.
pub fn drowsy_ratio() -> Result<Vec<(&'static str, f64)>, TechError> {
    TABLE_2_1
        .iter()
        .map(|&(name, vdd, _, drv)| {
            let full = cell_current_a(name, vdd)? * vdd;
            let v = drv + DROWSY_MARGIN_V;
            let low = cell_current_a(name, v)? * v;
            Ok((name, low / full))
        })
        .collect()
}
