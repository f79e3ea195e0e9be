//! The COMA divided-wordline circuit (register-file spec §4.1, §4.3, §9): AND-gate count and
//! area, wordline charging delay with and without DWL, and the model value of
//! `coma.fixed_fraction`.
//!
//! Organisation (`coma.lane_org = "wide_128B"`): one register-file row is an entry of
//! `entry_bytes × 8` cells. Without DWL one wordline driver charges the whole row: its wire and
//! every cell's access gates. With DWL (Yoshimoto et al., "A divided word-line structure in the
//! static RAM and its application to a 64K full CMOS RAM", IEEE JSSC 18(5), 1983) a global
//! wordline on the semi-global wire layer spans the row and loads only one AND-gate input per
//! segment (`lanes / lanes_per_segment` segments of `32·lanes_per_segment` bits); each AND
//! of the global wordline and its lane's mask bit drives a local wordline of the segment's
//! cells on the local layer.
//!
//! Delay (Elmore, a driver chain plus a distributed RC line with distributed load): a driver
//! chain of fan-out-of-4 stages from a minimum inverter to a load `C` takes
//! `FO4 · max(1, log₄(C/C_in))`; a line of total resistance `R` and total capacitance `C`
//! (wire plus distributed gate load) adds `0.38·R·C` (Bakoglu, *Circuits, interconnections and
//! packaging for VLSI*, 1990).
//! - without DWL: `t = t_chain(C_row) + 0.38·R_row·C_row`, with the cell wordline capacitance
//!   and resistance per cell of the SRAM model ([`crate::sram::cell::cell_figures`]);
//! - with DWL: `t = t_chain(C_gwl) + 0.38·R_gwl·C_gwl + t_chain,AND(C_seg) + 0.38·R_seg·C_seg`,
//!   `C_gwl` the global wire plus one AND input per segment, the AND gate a NAND2 and an
//!   inverter chain (its first stage one FO4).
//!
//! Area: rows × segments per row per bank AND gates = `entries × segments` (every entry is a
//! row), each an AND2 of 1.5 gate equivalents ([`crate::logic::area_per_ge_m2`]); leakage with
//! the analytical per-GE leakage of [`crate::logic`].
//!
//! `fixed_fraction = "model"` (§4.3): the part of a read that the lane mask does not gate is the
//! row decoder (one decoder for the row instead of one per lane slice: the lane-sliced array's
//! decoder energy divided by the lane count) and the global wordline with its AND-gate inputs:
//! `f = (E_dec/lanes + C_gwl·Vdd²) / (E_read − E_dec + E_dec/lanes + C_gwl·Vdd²)`.
//! Everything else of the lane-sliced read (local wordlines, bitlines, sense amplifiers, data
//! routing to the port) belongs to a lane and is gated with it.
//!
//! In the §8 accounting ([`Coma`], a [`RfTechniqueTerms`]): a lane-gated access with
//! `f_fixed` from `coma.fixed_fraction`, one mask-table write per collector-unit allocation and
//! one mask-table read per register read (§8.3, counted in the run's `RfStats` record), and two
//! added structures, the mask table and the AND gates.

use super::structures::{array_tech, logic_tech, stv_supply_v, ArrayCost, RfDesign, RfStructures};
use super::technique::{
    AddedPart, Counted, EventEnergy, RfTechniqueKind, RfTechniqueModel, RfTechniqueTerms, TermSpec,
};
use super::RfError;
use crate::overlay::Overlay;
use crate::sram::cell::{cell_figures, Ports};
use crate::sram::{BackGate, CellKind};
use serde::Serialize;

/// The DWL circuit of one register file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ComaCircuit {
    /// Lanes per wordline segment (`coma.lanes_per_segment`).
    pub lanes_per_segment: u32,
    /// Segments per row.
    pub segments_per_row: u32,
    /// AND gates, all banks.
    pub and_gates: u64,
    /// Their area, m².
    pub and_area_m2: f64,
    /// Their leakage, W.
    pub and_leakage_w: f64,
    /// AND-gate area over the register file's area.
    pub and_area_share: f64,
    /// Wordline charging delay without DWL, s.
    pub wl_delay_plain_s: f64,
    /// Wordline charging delay with DWL (global + local), s.
    pub wl_delay_dwl_s: f64,
    /// Energy of the global wordline with its AND inputs per access, J.
    pub global_wl_energy_j: f64,
    /// The model's `coma.fixed_fraction`.
    pub fixed_fraction: f64,
}

/// The DWL circuit of `design`'s MRF (`mrf`, evaluated at the design's super-threshold supply
/// by [`super::structures::evaluate`]) with `lanes_per_segment` lanes per segment.
pub fn coma_circuit(
    design: &RfDesign,
    mrf: &ArrayCost,
    lanes_per_segment: u32,
) -> Result<ComaCircuit, RfError> {
    if lanes_per_segment == 0 || !design.lanes.is_multiple_of(lanes_per_segment) {
        return Err(RfError::input(
            "coma.lanes_per_segment",
            lanes_per_segment,
            "a divisor of the lane count (1, 2, 4, … 32)",
        ));
    }
    let vdd = stv_supply_v(design)?;
    let tech = array_tech(design, vdd, BackGate::Vdd)?;
    let lt = logic_tech(design, vdd)?;
    let kind = if tech.finfet {
        CellKind::EightT
    } else {
        CellKind::SixT
    };
    let ports = if tech.finfet {
        Ports {
            rw: 0,
            rd: 1,
            wr: 1,
        }
    } else {
        Ports {
            rw: 1,
            rd: 0,
            wr: 0,
        }
    };
    let cf = cell_figures(&tech, kind, ports);
    let bits = design.entry_bytes as f64 * 8.0;
    let segments = design.lanes / lanes_per_segment;
    let seg_bits = bits / segments as f64;
    let d = lt.device();
    let w_min = d.fin_width_m.unwrap_or(4.0 * lt.feature_size_m);
    let c_in = (1.0 + d.n2p_drv_rt) * w_min * lt.c_gate_f_per_m();
    let fo4 = lt.fo4_delay_s();
    let chain = |c: f64| fo4 * (c / c_in).max(4.0).log(4.0);
    // without DWL
    let c_row = bits * cf.c_wl_per_cell_f;
    let r_row = bits * cf.r_wl_per_cell_ohm;
    let plain = chain(c_row) + 0.38 * r_row * c_row;
    // with DWL
    let len = bits * cf.width_m;
    let c_gwl = len * tech.wire_semi.c_f_per_m + segments as f64 * c_in;
    let r_gwl = len * tech.wire_semi.r_ohm_per_m;
    let c_seg = seg_bits * cf.c_wl_per_cell_f;
    let r_seg = seg_bits * cf.r_wl_per_cell_ohm;
    let dwl = chain(c_gwl) + 0.38 * r_gwl * c_gwl + fo4 + chain(c_seg) + 0.38 * r_seg * c_seg;
    let gates = design.entries as u64 * segments as u64;
    let ge = 1.5 * gates as f64;
    let and_area = ge * crate::logic::area_per_ge_m2(&lt);
    let e_gwl = c_gwl * vdd * vdd;
    let dec_all = mrf.decoder_read_energy_j;
    let dec_one = dec_all / design.lanes as f64;
    let total = mrf.read_energy_j - dec_all + dec_one + e_gwl;
    let fixed = if total > 0.0 {
        ((dec_one + e_gwl) / total).clamp(0.0, 1.0)
    } else {
        0.0
    };
    Ok(ComaCircuit {
        lanes_per_segment,
        segments_per_row: segments,
        and_gates: gates,
        and_area_m2: and_area,
        and_leakage_w: ge * 2.0 * w_min * lt.i_off_a_per_m() * vdd,
        and_area_share: if mrf.area_m2 > 0.0 {
            and_area / mrf.area_m2
        } else {
            0.0
        },
        wl_delay_plain_s: plain,
        wl_delay_dwl_s: dwl,
        global_wl_energy_j: e_gwl,
        fixed_fraction: fixed,
    })
}

/// The mask-write term: one mask-table write per collector-unit allocation.
const MASK_WRITES: &str = "mask writes";
/// The mask-read term: one mask-table read per register read.
const MASK_READS: &str = "mask reads";
/// The mask table's leaf and leakage label.
const MASK_TABLE: &str = "COMA mask table";
/// The AND gates' leaf and leakage label.
const AND_GATES: &str = "DWL AND gates";

/// COMA's side of the §8 accounting (module doc).
pub struct Coma;

/// COMA's terms in the accounting, for the run's circuit `c` on the structures `s` with the
/// fixed fraction `fixed_fraction` (an error unless in [0, 1]).
pub fn coma_model(
    c: &ComaCircuit,
    s: &RfStructures,
    fixed_fraction: f64,
) -> Result<RfTechniqueModel, RfError> {
    if !(0.0..=1.0).contains(&fixed_fraction) {
        return Err(RfError::input(
            "coma.fixed_fraction",
            fixed_fraction,
            "a fraction in [0, 1] or \"model\"",
        ));
    }
    let per_op = s.mask_table.energy_per_op_j;
    let event = |label| EventEnergy {
        label,
        energy_j: per_op,
        per_copy: false,
    };
    Ok(RfTechniqueModel {
        kind: RfTechniqueKind::Access,
        event_energy: vec![event(MASK_WRITES), event(MASK_READS)],
        added_leakage_w: vec![
            (MASK_TABLE.into(), s.mask_table.leakage_w),
            (AND_GATES.into(), c.and_leakage_w),
        ],
        added: vec![
            AddedPart {
                name: MASK_TABLE,
                area_m2: s.mask_table.area_m2,
                dyn_terms: &[MASK_WRITES, MASK_READS],
                leakage: Some(MASK_TABLE),
            },
            AddedPart {
                name: AND_GATES,
                area_m2: c.and_area_m2,
                dyn_terms: &[],
                leakage: Some(AND_GATES),
            },
        ],
        lane_gating: Some(fixed_fraction),
        states: None,
    })
}

impl RfTechniqueTerms for Coma {
    fn name(&self) -> &'static str {
        "coma"
    }

    fn kind(&self) -> RfTechniqueKind {
        RfTechniqueKind::Access
    }

    fn enabled(&self, cfg: &sim::config::GpuConfig) -> bool {
        cfg.coma.enabled
    }

    fn enable_key(&self) -> &'static str {
        "coma.enabled"
    }

    fn terms(&self) -> &'static [TermSpec] {
        &[
            TermSpec {
                label: MASK_WRITES,
                counted: Counted::Events,
            },
            TermSpec {
                label: MASK_READS,
                counted: Counted::Events,
            },
        ]
    }

    fn events(&self, k: &sim::activity::KernelActivity) -> Vec<(&'static str, u64)> {
        let (writes, reads) =
            k.rf.as_ref()
                .map_or((0, 0), |r| (r.mask_table_writes, r.mask_table_reads));
        vec![(MASK_WRITES, writes), (MASK_READS, reads)]
    }

    fn model(
        &self,
        cfg: &sim::config::GpuConfig,
        design: &RfDesign,
        s: &RfStructures,
        _overlay: Option<&Overlay>,
    ) -> Result<RfTechniqueModel, RfError> {
        use sim::config::coma::FixedFraction;
        let c = coma_circuit(design, &s.mrf_stv, cfg.coma.segment_lanes())?;
        let f = match cfg.coma.fixed_fraction {
            FixedFraction::Word(_) => c.fixed_fraction,
            FixedFraction::Value(v) => v,
        };
        coma_model(&c, s, f)
    }
}
