//! Register-file power techniques: the energy, leakage, area and timing of every structure of a
//! GPU register file and of the structures the techniques add (register-file spec §1, §4–§9),
//! and the per-state energy accounting that turns a run's activity counters into energy.
//!
//! - [`structures`]: per structure `{E_rd, E_wr, P_array, P_periph, area, t_access}` for the
//!   monolithic RF (MRF) at the super- and near-threshold supplies, the fast RF (FRF) in both
//!   back-gate modes, the slow RF (SRF), the register-file cache (RFC) with its tag CAM, the
//!   COMA mask table, the swap-table CAM, the pilot-warp counters and the adaptive-FRF epoch
//!   counter, with the derived latencies `⌈t_access/t_clk⌉`. Arrays are the chip model's
//!   register file (independent lane-sliced banks plus the bank-to-collector bus);
//!   control structures from the logic models ([`crate::logic`]), calibrated to synthesis when
//!   an overlay is given.
//! - [`technique`]: the seam a register-file technique implements to join the §8 accounting
//!   ([`technique::RfTechniqueTerms`]: its event terms and counts, added structures, knobs),
//!   and [`TECHNIQUES`], the one list of the registered implementations.
//! - [`coma`]: the divided-wordline circuit (AND-gate count and area, wordline charging delay
//!   with and without DWL), the model value of `coma.fixed_fraction`, and COMA's accounting
//!   terms.
//! - [`tric`]: TRIC's per-entry costs, switch, control, derived wake latency (the
//!   [`DERIVED_TIMINGS`] entry [`tric::TricWake`]) and accounting terms.
//! - [`counts`]: a simulated run's activity mapped onto the accounting's counts.
//! - [`EnergySection`]: `[energy]`, the accounting's switches (in [`crate::energy_section`],
//!   which every costing's context carries).
//! - [`accounting`]: §8 (dynamic, leakage with per-state residency, overheads, totals and
//!   savings on the energy and power basis, the fixed-ratio combination) over a plain counts
//!   struct ([`accounting::RfCounts`]), and the three labelled aggregations of §9.
//! - The drowsy leakage ratio ρ(V_drowsy) of the cells ([`drowsy_ratio`]) from techlib's cell
//!   leakage at two supplies, and the retention voltage it is anchored to
//!   ([`retention_voltage`]).

pub mod accounting;
pub mod coma;
pub mod counts;
pub mod structures;
pub mod technique;
pub mod tric;

/// The register-file techniques of the §8 accounting, registered once, in the order a record
/// lists them ([`technique`]).
pub static TECHNIQUES: &[&dyn technique::RfTechniqueTerms] = &[&tric::Tric, &coma::Coma];

/// The knobs the register-file techniques derive from the technology point before a run
/// ([`crate::technique::DerivedTiming`]), registered once, in the order they are derived.
pub static DERIVED_TIMINGS: &[&dyn crate::technique::DerivedTiming] = &[&tric::TricWake];

pub use crate::energy_section::{EnergyCalibration, EnergySection};

use techlib::{CellKind, Conditions, Flavour, NodeKind};

/// Errors of the register-file models. Every message names the knob or input and what is
/// allowed.
#[derive(Debug, thiserror::Error)]
pub enum RfError {
    /// An input out of range or inconsistent with another.
    #[error("{knob} = {value}: expected {allowed}")]
    Input {
        /// The knob or input.
        knob: String,
        /// The value given.
        value: String,
        /// What is allowed.
        allowed: String,
    },
    /// The SRAM model refused an array.
    #[error("{structure}: {error}")]
    Sram {
        /// Which structure.
        structure: &'static str,
        /// The model's error.
        error: crate::sram::SramError,
    },
    /// A logic model refused a control structure.
    #[error("{structure}: {error}")]
    Logic {
        /// Which structure.
        structure: &'static str,
        /// The model's error.
        error: crate::logic::ModelError,
    },
    /// techlib could not evaluate a point.
    #[error(transparent)]
    Tech(#[from] techlib::TechError),
    /// The gating (sleep-switch) model refused the TRIC switch.
    #[error(transparent)]
    Gating(#[from] crate::gating::GatingError),
}

impl RfError {
    /// An [`RfError::Input`].
    pub fn input(knob: &str, value: impl std::fmt::Display, allowed: &str) -> RfError {
        RfError::Input {
            knob: knob.to_string(),
            value: value.to_string(),
            allowed: allowed.to_string(),
        }
    }
}

/// Cell data-retention voltage (DRV) of a node and where it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Retention {
    /// DRV, V.
    pub drv_v: f64,
    /// Its source, in words (for reports).
    pub source: String,
}

/// DRV of the cells of `node`.
///
/// - A node file with a `[variability] drv_mv` (finfet7: the nominal-device hold limit) gives it
///   directly.
/// - The planar nodes of the source's Table 2.1 (90, 65, 32 nm: 120, 145, 220 mV,
///   `techlib::table21::TABLE_2_1`) give theirs.
/// - Any other planar node: linear interpolation of the Table 2.1 DRVs in ln(feature size),
///   held at the end values outside 32–90 nm (DRV rises as SNM degrades with scaling; the
///   table is the only data). This is an interpolation, reported as such in `source`.
/// - Other nodes without retention data (ASAP7) are an error naming `tric.drv_mv`.
pub fn retention_voltage(n: &techlib::Node) -> Result<Retention, RfError> {
    if let Some(v) = &n.file().variability {
        if v.drv_mv.is_finite() && v.drv_mv > 0.0 {
            return Ok(Retention {
                drv_v: v.drv_mv * 1e-3,
                source: format!("{} node file [variability] drv_mv", n.name()),
            });
        }
    }
    let table = techlib::table21::TABLE_2_1;
    if let Some(row) = table.iter().find(|r| r.0 == n.name()) {
        return Ok(Retention {
            drv_v: row.3,
            source: format!("Table 2.1 row {}", row.0),
        });
    }
    if n.kind() != NodeKind::Planar {
        return Err(RfError::input(
            "tric.drv_mv",
            format!("(none for node {})", n.name()),
            "a node with retention data (planar nodes, finfet7) or an explicit drv_mv",
        ));
    }
    // Table 2.1 feature sizes 90, 65, 32 nm, DRV in V; interpolate in ln(F)
    let pts: Vec<(f64, f64)> = table
        .iter()
        .map(|r| {
            // the table's own nodes: the interpolation spans several
            let f = techlib::node(r.0)
                .map(|m| m.feature_size_nm())
                .unwrap_or(0.0);
            (f.max(1e-3).ln(), r.3)
        })
        .collect();
    let x = n.feature_size_nm().max(1e-3).ln();
    let (lo, hi) = pts.iter().fold((pts[0], pts[0]), |(lo, hi), p| {
        (
            if p.0 < lo.0 { *p } else { lo },
            if p.0 > hi.0 { *p } else { hi },
        )
    });
    let drv = if x <= lo.0 {
        lo.1
    } else if x >= hi.0 {
        hi.1
    } else {
        let mut sorted = pts.clone();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        let i = sorted
            .windows(2)
            .position(|w| x >= w[0].0 && x <= w[1].0)
            .unwrap_or(0);
        let (a, b) = (sorted[i], sorted[i + 1]);
        a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0)
    };
    Ok(Retention {
        drv_v: drv,
        source: format!(
            "interpolated in ln(F) between the Table 2.1 DRVs for {:.0} nm",
            n.feature_size_nm()
        ),
    })
}

/// The cell kind of the register files at a node: 8T at FinFET nodes (the source's cells), 6T
/// at planar nodes (Table 2.1).
pub fn rf_cell_kind(node: &techlib::Node) -> Result<CellKind, RfError> {
    Ok(match node.kind() {
        NodeKind::Finfet => CellKind::Eight,
        _ => CellKind::Six,
    })
}

/// Drowsy leakage ratio `ρ(V) = P_cell(V)/P_cell(Vdd)` of one register-file cell of `node`
/// (`flavour`, 300 K) at `v_drowsy_v` against `vdd_v`, from techlib's cell standby current
/// (subthreshold with DIBL and gate leakage of the cell's devices) times the supply. This is the
/// §3.1 ρ_DROWSY of the array part; it is also the function behind the planar anchor
/// (`techlib::table21::drowsy_ratio`, ρ < 0.10 at DRV + 250 mV).
pub fn drowsy_ratio(
    n: &techlib::Node,
    flavour: Flavour,
    vdd_v: f64,
    v_drowsy_v: f64,
) -> Result<f64, RfError> {
    if !(vdd_v.is_finite() && vdd_v > 0.0) {
        return Err(RfError::input("vdd_v", vdd_v, "a supply > 0 V"));
    }
    if !(v_drowsy_v.is_finite() && v_drowsy_v > 0.0 && v_drowsy_v <= vdd_v) {
        return Err(RfError::input(
            "tric.drowsy_margin_mv",
            format!("V_drowsy {v_drowsy_v} V"),
            "DRV + margin in (0, Vdd]",
        ));
    }
    let kind = rf_cell_kind(n)?;
    let p = |v: f64| -> Result<f64, RfError> {
        let t = n.at(&Conditions::new(flavour).with_vdd(v))?;
        Ok(t.cell_standby_power_w(kind)?)
    };
    let full = p(vdd_v)?;
    if !(full.is_finite() && full > 0.0) {
        return Err(RfError::input(
            "node",
            n.name(),
            "a node whose cells leak (positive standby power)",
        ));
    }
    Ok(p(v_drowsy_v)? / full)
}

/// ρ_DROWSY at `DRV + margin` ([`retention_voltage`], [`drowsy_ratio`]), with the drowsy supply
/// it used: `(ρ, V_drowsy)`. A drowsy supply at or above Vdd gives ρ = 1.
pub fn drowsy_ratio_at_margin(
    node: &techlib::Node,
    flavour: Flavour,
    vdd_v: f64,
    margin_v: f64,
) -> Result<(f64, f64), RfError> {
    if !(margin_v.is_finite() && margin_v >= 0.0) {
        return Err(RfError::input(
            "tric.drowsy_margin_mv",
            margin_v * 1e3,
            "a margin >= 0 mV",
        ));
    }
    let v = retention_voltage(node)?.drv_v + margin_v;
    if v >= vdd_v {
        return Ok((1.0, vdd_v));
    }
    Ok((drowsy_ratio(node, flavour, vdd_v, v)?, v))
}

/// The default device flavour of a node's register files: LVT at FinFET nodes (the source's
/// "STD (LVT)" device), HP at planar nodes (Table 2.1's cells).
pub fn default_flavour(node: &techlib::Node) -> Result<Flavour, RfError> {
    Ok(match node.kind() {
        NodeKind::Finfet => Flavour::Lvt,
        _ => Flavour::Hp,
    })
}

/// The SRAM model's flavour for a techlib flavour (`None` for the DRAM processes).
pub fn sram_flavour(f: Flavour) -> Option<crate::sram::Flavour> {
    use crate::sram::Flavour as S;
    Some(match f {
        Flavour::Hp => S::Hp,
        Flavour::Lstp => S::Lstp,
        Flavour::Lop => S::Lop,
        Flavour::Lvt => S::Lvt,
        Flavour::Rvt => S::Rvt,
        Flavour::Slvt => S::Slvt,
        Flavour::LpDram | Flavour::CommDram => return None,
    })
}
