//! The [`CostSource`] that ties the chip model to the SRAM model, the logic models and techlib at
//! one technology point, and says for every cost where it came from ([`Source`]).

use super::chip::{CostError, CostSource, Costed, UnitCost};
use super::estimate::{CvMape, QuantityMape, Source, SramAccuracy};
use super::storage::StorageSpec;
use crate::logic::{model, LogicKind};
use crate::overlay::Overlay;
use crate::sram::{self, CellKind, SramError, SramSpec, SramTech, TechRequest};
use std::collections::BTreeMap;
use techlib::plausible;
use techlib::{NodeKind, Projection, ResolvedPoint, TechPoint, WireType};

/// Errors setting up a technology point for costing.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// techlib does not know the node, flavour or operating point, or cannot evaluate it.
    #[error(transparent)]
    Tech(#[from] techlib::TechError),
    /// The SRAM model has no such device flavour.
    #[error(
        "the SRAM model has no device flavour '{flavour}' (it has: hp, lstp, lop, lvt, rvt, slvt)"
    )]
    SramFlavour {
        /// The flavour asked for.
        flavour: String,
    },
    /// The SRAM model's technology could not be built at this point.
    #[error(transparent)]
    Sram(#[from] SramError),
}

/// The SRAM model's measured error against CACTI 7 at nodes of `node_kind`, or `None` where
/// no measurement is recorded (rendered as "unmeasured").
///
/// Planar nodes: the held-out figures recorded by the fit (`models/data/sram_calib.toml`,
/// factors fitted without those rows, asserted equal to a fresh measurement by
/// `tests/sram_cacti.rs`). FinFET nodes: CACTI 7 has no FinFET devices, and the 7 nm
/// register-file rows the FinFET scalars are solved from are no independent check, so `None`.
pub fn sram_accuracy(node_kind: NodeKind) -> Option<SramAccuracy> {
    match node_kind {
        NodeKind::Planar => {
            let a = crate::sram::recorded_accuracy(crate::sram::AccuracySplit::HeldOut);
            let finite = a.area_mape_pct.is_finite()
                && a.read_energy_mape_pct.is_finite()
                && a.leakage_mape_pct.is_finite();
            finite.then_some(SramAccuracy {
                area_mape_pct: a.area_mape_pct,
                read_energy_mape_pct: a.read_energy_mape_pct,
                leakage_mape_pct: a.leakage_mape_pct,
            })
        }
        NodeKind::Finfet => None,
    }
}

/// Costs components with the SRAM and logic models at one point.
pub struct TechCostSource {
    /// The techlib point costed at (device, wires, cells).
    pub point: TechPoint,
    /// The SRAM model's technology at the same point.
    pub sram_tech: SramTech,
    /// SRAM cell of the arrays: 8T at FinFET nodes, 6T at planar nodes.
    pub cell: CellKind,
    /// Calibration overlay for logic costs; `None`: analytical logic models.
    pub overlay: Option<Overlay>,
    /// How costs from the overlay name it in their [`Source`]: its file when the caller sets
    /// one with [`TechCostSource::with_overlay_name`], else its node and reference point.
    pub overlay_name: String,
    /// Planar or FinFET: selects the SRAM model's recorded accuracy.
    pub node_kind: NodeKind,
    /// Human-readable label, e.g. "finfet7 lvt".
    pub label: String,
    /// Core-clock scale relative to the preset's clock: FO4(nominal supply) / FO4(this supply).
    /// Presets give clocks at the node's nominal operating point (finfet7: STV); a lower supply
    /// slows every gate by the FO4 ratio, and the clock with it.
    pub clock_scale: f64,
    cache: std::cell::RefCell<BTreeMap<String, Costed>>,
}

impl TechCostSource {
    /// Evaluates `choice` (node, flavour, supply or operating point, temperature, design
    /// supply, resolved once by [`ResolvedPoint::resolve`]) and builds the SRAM model's
    /// technology there; `overlay` calibrates the logic costs.
    pub fn new(
        choice: &ResolvedPoint,
        overlay: Option<Overlay>,
    ) -> Result<TechCostSource, SourceError> {
        let node = choice.node();
        let flavour_name = choice.flavour_name().to_string();
        let flavour = choice.flavour();
        let temperature_k = choice.temperature_k();
        let point = choice.at()?;
        // A supply the user chose must keep the node functional (techlib::plausible); the
        // default, nominal supply always does.
        if choice.supply_chosen() {
            let knob = if choice.vdd_v().is_some() {
                "operating supply (--vdd)"
            } else {
                "operating point (--op) supply"
            };
            plausible::check_supply_v(node, flavour, temperature_k, point.vdd_v(), knob)?;
        }
        if let Some(v) = choice.design_vdd_v() {
            plausible::check_supply_v(
                node,
                flavour,
                temperature_k,
                v,
                "design supply (--design-vdd)",
            )?;
        }
        let nominal = node.at(&choice.nominal_conditions_of(flavour))?;
        let clock_scale = nominal.fo4_delay_s() / point.fo4_delay_s();
        if sram::Flavour::parse(&flavour_name).is_none() {
            return Err(SourceError::SramFlavour {
                flavour: flavour_name.clone(),
            });
        }
        let sram_tech = sram::sram_tech_designed_at(
            &TechRequest::new(choice.clone().with_vdd_v(point.vdd_v())?),
            choice.design_vdd_v(),
        )?;
        let cell = storage_cell(node.kind());
        let label = format!("{} {}", node.name(), flavour_name);
        let overlay_name = overlay
            .as_ref()
            .map(|o| {
                format!(
                    "{} overlay ({}, {} V, {} C)",
                    o.node, o.reference.flavour, o.reference.vdd_v, o.reference.temperature_c
                )
            })
            .unwrap_or_default();
        Ok(TechCostSource {
            point,
            sram_tech,
            cell,
            overlay,
            overlay_name,
            node_kind: node.kind(),
            label,
            clock_scale,
            cache: Default::default(),
        })
    }
}

impl TechCostSource {
    /// Refuses a core clock `core_clock_hz` faster than the point's gates allow
    /// ([`plausible::check_clock`]: a cycle of at least [`plausible::MIN_CYCLE_FO4`] FO4
    /// delays); `knob` names where the clock came from.
    pub fn check_core_clock(&self, core_clock_hz: f64, knob: &str) -> Result<(), SourceError> {
        let node = self.label.split(' ').next().unwrap_or_default();
        Ok(plausible::check_clock(
            &self.point,
            node,
            core_clock_hz,
            knob,
        )?)
    }

    /// Supply voltage of the point.
    pub fn vdd_v_value(&self) -> f64 {
        self.point.vdd_v()
    }

    /// Names the overlay (e.g. by its file) in the [`Source`] of calibrated costs.
    pub fn with_overlay_name(mut self, name: impl Into<String>) -> TechCostSource {
        self.overlay_name = name.into();
        self.cache.borrow_mut().clear();
        self
    }

    /// The source of a logic cost: the overlay's cross-validated error for each quantity it
    /// calibrated, or the analytical model when it calibrated none.
    pub(super) fn logic_source(&self, kind: LogicKind, calibrated: [bool; 4]) -> Source {
        let fit = self.overlay.as_ref().and_then(|o| o.kinds.get(kind.name()));
        let Some(fit) = fit.filter(|_| calibrated[..3].iter().any(|&c| c)) else {
            return Source::Analytical;
        };
        let mape = |on: bool, q: &Option<crate::overlay::QuantityFit>| match q {
            Some(q) if on => CvMape::from_recorded(q.cv_mape_pct),
            _ => CvMape::Analytical,
        };
        Source::Calibrated {
            overlay: self.overlay_name.clone(),
            cv_mape_pct: QuantityMape {
                area_m2: mape(calibrated[0], &fit.area_m2),
                leakage_w: mape(calibrated[1], &fit.leakage_w),
                energy_per_op_j: mape(calibrated[2], &fit.energy_per_op_j),
            },
        }
    }
}

/// The cell of every storage array at a node of `kind`: 8T at FinFET nodes (6T is not viable
/// at 7 nm), 6T on planar nodes.
pub fn storage_cell(kind: techlib::NodeKind) -> CellKind {
    match kind {
        techlib::NodeKind::Planar => CellKind::SixT,
        _ => CellKind::EightT,
    }
}

/// The SRAM model's specification of one array of `s` with `cell` cells (what
/// [`TechCostSource`] evaluates for every storage array).
pub fn sram_spec(s: &StorageSpec, cell: CellKind) -> SramSpec {
    SramSpec {
        capacity_bytes: s.size_bytes,
        block_bytes: s.block_bytes,
        rw_ports: s.rw_ports,
        read_ports: s.read_ports,
        write_ports: s.write_ports,
        banks: s.banks,
        cell,
        objective: Default::default(),
    }
}

impl CostSource for TechCostSource {
    fn sram(&self, s: &StorageSpec) -> Result<Costed, CostError> {
        let r = sram::evaluate(&sram_spec(s, self.cell), &self.sram_tech)?;
        Ok(Costed {
            cost: UnitCost {
                area_m2: r.area_m2,
                leakage_w: r.leakage_w,
                read_j: r.read_energy_j,
                write_j: r.write_energy_j,
            },
            source: Source::SramModel {
                accuracy: sram_accuracy(self.node_kind),
            },
        })
    }

    fn logic(&self, kind: LogicKind, p: &[(&str, u32)]) -> Result<Costed, CostError> {
        let key = format!("{kind}{p:?}");
        if let Some(c) = self.cache.borrow().get(&key) {
            return Ok(c.clone());
        }
        let c = model(
            kind,
            &crate::logic::params(p),
            &self.point,
            self.overlay.as_ref(),
        )?;
        let costed = Costed {
            cost: UnitCost {
                area_m2: c.area_m2,
                leakage_w: c.leakage_w,
                read_j: c.energy_per_op_j,
                write_j: c.energy_per_op_j,
            },
            source: self.logic_source(kind, c.calibrated),
        };
        self.cache.borrow_mut().insert(key, costed.clone());
        Ok(costed)
    }

    fn vdd_v(&self) -> f64 {
        self.point.vdd_v()
    }

    fn clock_scale(&self) -> f64 {
        self.clock_scale
    }

    fn global_wire_c_f_per_m(&self) -> f64 {
        self.point
            .wire(WireType::Global, Projection::Conservative)
            .map(|w| w.c_f_per_m())
            .unwrap_or(2e-10)
    }

    fn sram_height_m(&self, s: &StorageSpec) -> Result<f64, CostError> {
        Ok(sram::evaluate(&sram_spec(s, self.cell), &self.sram_tech)?.height_m)
    }

    /// The semi-global layer of the SRAM model's technology (the layer of its bank H-trees).
    fn bus_wire_c_f_per_m(&self) -> f64 {
        self.sram_tech.wire_semi.c_f_per_m
    }

    /// A master-slave flop loads its clock with two transmission gates and two clocked
    /// inverter devices: about four minimum transistors of width 3F each.
    fn clock_pin_c_f(&self) -> f64 {
        4.0 * 3.0 * self.point.feature_size_m * self.point.c_gate_f_per_m()
    }
}
