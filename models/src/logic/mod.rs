//! Parametric logic components: area, leakage, energy per operation and delay of datapath and
//! control blocks (ALUs, multipliers, FP units, flop/latch arrays, CAMs, crossbars, arbiters,
//! dependence matrices, scoreboards, gating controllers, the partitioned register file's swap
//! table, pilot counters and epoch detector, the tensor core's dot-product slice) as functions of their size parameters
//! at a `techlib` operating point.
//!
//! ```
//! use models::logic::{model, LogicKind, params};
//! let node = techlib::node("asap7").unwrap();
//! let tech = node.at(&techlib::Conditions::new(techlib::Flavour::Rvt)).unwrap();
//! let c = model(LogicKind::Crossbar, &params(&[("N", 8), ("WIDTH", 32)]), &tech, None).unwrap();
//! assert!(c.area_m2 > 0.0 && c.energy_per_op_j > 0.0 && c.leakage_w > 0.0);
//! ```
//!
//! Two sources of numbers:
//! - **Analytical defaults** ([`analytical`]): gate-equivalent counts × the technology's device
//!   numbers (gate capacitance, off-current per width, FO4 delay); uncalibrated, for nodes
//!   without synthesis data.
//! - **Calibrated** (an [`Overlay`], written by `gpuenergy calibrate`): the fitted linear forms
//!   of [`default_form`] evaluated at the parameters — valid at the overlay's reference point —
//!   then carried to the asked point through device physics by [`NodeScaling`], never held
//!   constant: leakage ∝ I_off·w_min·Vdd, energy ∝ (w_min·C_g + l_wire·C_wire)·Vdd², area ∝
//!   area per gate equivalent, delay ∝ FO4. The asked point may be on the overlay's node (other
//!   flavour, supply, temperature) or on another node (an ASAP7 overlay used at `finfet7` or a
//!   planar node); see [`scaling`].

pub mod analytical;
pub mod kinds;
pub mod leakage;
pub mod overlay;
pub mod scaling;
pub mod tensor_core;
pub mod terms;

pub use kinds::{default_form, fit_min_params, LogicKind};
pub use scaling::{NodeScaling, ScalingPoint};

use leakage::w_min_m;
use overlay::{Overlay, QuantityFit};
use std::collections::BTreeMap;
use techlib::{Conditions, Flavour, TechPoint};

/// Errors of the logic models.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// A size parameter the kind does not have.
    #[error("{kind} has no size parameter '{param}' (its parameters: {known})")]
    UnknownParam {
        /// Component kind.
        kind: LogicKind,
        /// The parameter given.
        param: String,
        /// Parameters the kind has.
        known: String,
    },
    /// A parameter of value 0.
    #[error("{kind}: size parameter '{param}' must be at least 1")]
    ZeroParam {
        /// Component kind.
        kind: LogicKind,
        /// The parameter.
        param: String,
    },
    /// The overlay belongs to another node.
    #[error("calibration overlay is for node '{overlay}' but the technology point is '{tech}'")]
    NodeMismatch {
        /// Node of the overlay.
        overlay: String,
        /// Node of the technology point.
        tech: String,
    },
    /// The overlay's reference point could not be evaluated by techlib.
    #[error("overlay reference point: {0}")]
    Tech(#[from] techlib::TechError),
    /// A term of the overlay could not be evaluated.
    #[error("overlay form of {kind}.{quantity}: {error}")]
    Form {
        /// Component kind.
        kind: LogicKind,
        /// Quantity.
        quantity: &'static str,
        /// What went wrong.
        error: terms::TermError,
    },
}

/// Cost of one logic block at one operating point (SI units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogicCost {
    /// Cell area, m².
    pub area_m2: f64,
    /// Leakage power, W.
    pub leakage_w: f64,
    /// Dynamic energy per operation, J.
    pub energy_per_op_j: f64,
    /// Critical-path delay, s.
    pub delay_s: f64,
    /// Whether the numbers come from a calibration overlay (per quantity: area, leakage,
    /// energy, delay).
    pub calibrated: [bool; 4],
}

/// Build a parameter map from pairs.
pub fn params(p: &[(&str, u32)]) -> BTreeMap<String, u32> {
    p.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// Check parameters against the kind and fill the defaults of missing ones.
pub fn resolve_params(
    kind: LogicKind,
    p: &BTreeMap<String, u32>,
) -> Result<BTreeMap<String, u32>, ModelError> {
    let mut full = kind.default_params();
    for (k, v) in p {
        if !full.contains_key(k) {
            return Err(ModelError::UnknownParam {
                kind,
                param: k.clone(),
                known: if full.is_empty() {
                    "none".into()
                } else {
                    full.keys().cloned().collect::<Vec<_>>().join(", ")
                },
            });
        }
        if *v == 0 {
            return Err(ModelError::ZeroParam {
                kind,
                param: k.clone(),
            });
        }
        full.insert(k.clone(), *v);
    }
    Ok(full)
}

/// Area of one NAND2 gate equivalent, m² (see [`analytical`]).
pub fn area_per_ge_m2(tech: &TechPoint) -> f64 {
    let f2 = tech.feature_size_m * tech.feature_size_m;
    if tech.device().fin_width_m.is_some() {
        1800.0 * f2
    } else {
        400.0 * f2
    }
}

/// Switched capacitance of one gate-equivalent toggle `C_ge` and clock capacitance of one state
/// bit `C_ck`, F (see [`analytical`]).
fn ge_capacitances_f(tech: &TechPoint) -> (f64, f64) {
    let w = w_min_m(tech);
    let cg = tech.c_gate_f_per_m();
    (
        3.0 * (1.0 + tech.device().n2p_drv_rt) * w * cg,
        4.0 * w * cg,
    )
}

/// Ratio of a block's total node capacitance to the capacitance one operation switches, in the
/// analytical model of `kind`: `(ge·C_ge + ff·C_ck) / (α·ge·C_ge + ff·C_ck)` (every gate node and
/// clocked state bit, against the `α` fraction of gate nodes an operation toggles). Multiplied by
/// a (possibly calibrated) energy per operation over `Vdd²`, it gives the capacitance of every
/// node of the block, which is what a collapsed supply rail must recharge.
pub fn total_to_switched_capacitance(
    kind: LogicKind,
    p: &BTreeMap<String, u32>,
    tech: &TechPoint,
) -> f64 {
    let c = analytical::counts(kind, p);
    let (c_ge, c_ck) = ge_capacitances_f(tech);
    let switched = c.activity * c.ge * c_ge + c.ff * c_ck;
    if switched > 0.0 {
        (c.ge * c_ge + c.ff * c_ck) / switched
    } else {
        1.0
    }
}

/// The analytical (uncalibrated) cost.
pub fn analytical_cost(kind: LogicKind, p: &BTreeMap<String, u32>, tech: &TechPoint) -> LogicCost {
    let c = analytical::counts(kind, p);
    let vdd = tech.vdd_v();
    let (c_ge, c_ck) = ge_capacitances_f(tech);
    let leak_ge = leakage::derive(tech).leakage_per_ge_w;
    LogicCost {
        area_m2: (c.ge + 4.0 * c.ff) * area_per_ge_m2(tech),
        leakage_w: (c.ge + 4.0 * c.ff) * leak_ge,
        energy_per_op_j: (c.activity * c.ge * c_ge + c.ff * c_ck) * vdd * vdd
            / kind.ops_per_cycle(p).max(1.0),
        delay_s: c.depth_fo4 * tech.fo4_delay_s(),
        calibrated: [false; 4],
    }
}

fn eval_fit(
    kind: LogicKind,
    q: &'static str,
    f: &QuantityFit,
    p: &BTreeMap<String, u32>,
) -> Result<f64, ModelError> {
    let v = f.eval(p).map_err(|error| ModelError::Form {
        kind,
        quantity: q,
        error,
    })?;
    Ok(v.max(0.0))
}

/// The technology point an overlay's coefficients hold at: the overlay's node at its reference
/// flavour (the asked flavour where the overlay names none techlib knows), supply and
/// temperature.
pub fn reference_point(overlay: &Overlay, tech: &TechPoint) -> Result<TechPoint, ModelError> {
    let node = techlib::node(&overlay.node)?;
    let flavour = Flavour::parse(&overlay.reference.flavour).unwrap_or(tech.conditions.flavour);
    Ok(node.at(&Conditions::new(flavour)
        .with_vdd(overlay.reference.vdd_v)
        .with_temperature(overlay.reference.temperature_c + 273.15))?)
}

/// Cost of `kind` with size `params` at `tech`, calibrated by `overlay` where it has a fit for
/// the kind (per quantity), else analytical.
pub fn model(
    kind: LogicKind,
    params: &BTreeMap<String, u32>,
    tech: &TechPoint,
    overlay: Option<&Overlay>,
) -> Result<LogicCost, ModelError> {
    let p = resolve_params(kind, params)?;
    let mut cost = analytical_cost(kind, &p, tech);
    let Some(ov) = overlay else { return Ok(cost) };
    let Some(kf) = ov.kinds.get(kind.name()) else {
        return Ok(cost);
    };
    let s = overlay_scaling(ov, tech)?;
    if let Some(f) = &kf.area_m2 {
        cost.area_m2 = eval_fit(kind, "area_m2", f, &p)? * s.area;
        cost.calibrated[0] = true;
    }
    if let Some(f) = &kf.leakage_w {
        cost.leakage_w = eval_fit(kind, "leakage_w", f, &p)? * s.leakage;
        cost.calibrated[1] = true;
    }
    if let Some(f) = &kf.energy_per_op_j {
        cost.energy_per_op_j = eval_fit(kind, "energy_per_op_j", f, &p)? * s.dynamic_energy;
        cost.calibrated[2] = true;
    }
    if let Some(f) = &kf.delay_s {
        cost.delay_s = eval_fit(kind, "delay_s", f, &p)? * s.delay;
        cost.calibrated[3] = true;
    }
    Ok(cost)
}

/// The factors that carry `overlay`'s coefficients from its reference point to `tech`
/// (same node or another one; see [`scaling`]).
pub fn overlay_scaling(overlay: &Overlay, tech: &TechPoint) -> Result<NodeScaling, ModelError> {
    let r = reference_point(overlay, tech)?;
    Ok(NodeScaling::between(&r, tech))
}

/// A sized logic block: the `Component`-style handle the chip model composes.
#[derive(Debug, Clone, PartialEq)]
pub struct LogicBlock {
    /// Kind.
    pub kind: LogicKind,
    /// Size parameters (missing ones take the kind's defaults).
    pub params: BTreeMap<String, u32>,
}

impl LogicBlock {
    /// A block of `kind` with `params`.
    pub fn new(kind: LogicKind, params: &[(&str, u32)]) -> LogicBlock {
        LogicBlock {
            kind,
            params: self::params(params),
        }
    }

    /// Its cost at `tech` (see [`model`]).
    pub fn cost(
        &self,
        tech: &TechPoint,
        overlay: Option<&Overlay>,
    ) -> Result<LogicCost, ModelError> {
        model(self.kind, &self.params, tech, overlay)
    }
}

#[cfg(test)]
mod tests;
