//! The issue stage's hardware cost in a comparison: a variant's issue structures against the
//! baseline's per workload ([`IssueCompare`], issue-stage spec §4) and summed over the workloads
//! ([`IssueAggregate`]).

use super::{change, WorkloadCompare};
use crate::study::WorkloadResult;
use serde::Serialize;
use std::collections::BTreeMap;

/// adds (added − removed structures, per SM and per chip) and the change of the issue-stage
/// structures' energy ([`crate::issuecost`]; both designs costed by the issue-stage §4 model).
#[derive(Clone, Debug, Serialize)]
pub struct IssueCompare {
    /// The variant's issue design (`baseline`, or its out-of-order issue stage's name).
    pub design: String,
    /// The design's instruction-buffer depth N, when it has that knob; absent for the baseline
    /// design.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ib_depth: Option<u32>,
    /// Area of the variant's issue structures per SM, mm².
    pub added_area_per_sm_mm2: f64,
    /// Area of the baseline's issue structures per SM (the removed ones; also the operand
    /// collectors when the variant's structures replace them), mm².
    pub removed_area_per_sm_mm2: f64,
    /// Added − removed per SM, mm².
    pub area_per_sm_mm2: f64,
    /// That over the baseline's SM area.
    pub area_sm_share: f64,
    /// Added − removed over the chip (× SMs), mm².
    pub area_chip_mm2: f64,
    /// That over the baseline's chip area (the estimate's die area).
    pub area_die_share: f64,
    /// That over a published die area (`compare --die-mm2`); absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area_ref_die_share: Option<f64>,
    /// Added − removed leakage power per SM, W.
    pub leakage_per_sm_w: f64,
    /// Added − removed leakage power of the chip, W.
    pub leakage_chip_w: f64,
    /// The variant's issue-structure energy on the run (dynamic + leakage), J.
    pub energy_j: f64,
    /// Its dynamic part, J.
    pub dynamic_j: f64,
    /// The baseline's issue-structure energy on its run, J.
    pub baseline_energy_j: f64,
    /// Its dynamic part, J.
    pub baseline_dynamic_j: f64,
    /// `energy_j / baseline_energy_j − 1`.
    pub energy_change: f64,
    /// `(energy_j − baseline_energy_j)` over the baseline run's total energy.
    pub energy_change_of_total: f64,
}

pub(super) fn issue_metrics(r: &WorkloadResult, base: &WorkloadResult) -> Option<IssueCompare> {
    let (v, b) = (r.issue()?, base.issue()?);
    if v.design == b.design && v.ib_depth == b.ib_depth {
        return None;
    }
    // a design whose structures are the operand collectors replaces the machine's (issuecost)
    let d_sm = v.area_per_sm_mm2 - v.replaced_collectors_per_sm_mm2 - b.area_per_sm_mm2;
    let d_leak = v.leakage_per_sm_w - v.replaced_collectors_leakage_per_sm_w - b.leakage_per_sm_w;
    let n = v.n_sm as f64;
    let share = |x: f64, d: f64| if d > 0.0 { x / d } else { 0.0 };
    Some(IssueCompare {
        design: v.design.clone(),
        ib_depth: v.ib_depth,
        added_area_per_sm_mm2: v.area_per_sm_mm2,
        removed_area_per_sm_mm2: b.area_per_sm_mm2 + v.replaced_collectors_per_sm_mm2,
        area_per_sm_mm2: d_sm,
        area_sm_share: share(d_sm, b.sm_area_mm2),
        area_chip_mm2: d_sm * n,
        area_die_share: share(d_sm * n, b.chip_area_mm2),
        area_ref_die_share: None,
        leakage_per_sm_w: d_leak,
        leakage_chip_w: d_leak * n,
        energy_j: v.energy_j(),
        dynamic_j: v.dynamic_j,
        baseline_energy_j: b.energy_j(),
        baseline_dynamic_j: b.dynamic_j,
        energy_change: change(v.energy_j(), b.energy_j()),
        energy_change_of_total: share(v.energy_j() - b.energy_j(), base.energy_j),
    })
}

/// A variant's issue-stage cost over the workloads: the configuration's area and leakage (the
/// same on every workload) and the issue-structure energies summed.
#[derive(Clone, Debug, Serialize)]
pub struct IssueAggregate {
    /// Workloads aggregated.
    pub workloads: usize,
    /// The variant's issue design.
    pub design: String,
    /// The design's instruction-buffer depth N, when it has that knob; absent for the baseline
    /// design.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ib_depth: Option<u32>,
    /// Added − removed area per SM, mm².
    pub area_per_sm_mm2: f64,
    /// That over the baseline's SM area.
    pub area_sm_share: f64,
    /// Added − removed area of the chip, mm².
    pub area_chip_mm2: f64,
    /// That over the baseline's chip area.
    pub area_die_share: f64,
    /// The published die area given (`compare --die-mm2`), mm²; absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_die_mm2: Option<f64>,
    /// `area_chip_mm2` over it; absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area_ref_die_share: Option<f64>,
    /// Added − removed leakage power of the chip, W.
    pub leakage_chip_w: f64,
    /// Σ over workloads of the variant's issue-structure energy, J.
    pub energy_j: f64,
    /// Σ of the baseline's, J.
    pub baseline_energy_j: f64,
    /// `energy_j / baseline_energy_j − 1`.
    pub energy_change: f64,
    /// `Σ(energy_j − baseline_energy_j)` over the baseline's total energy (all workloads).
    pub energy_change_of_total: f64,
}

pub(super) fn issue_aggregate(
    per: &BTreeMap<String, WorkloadCompare>,
    base_total_j: f64,
) -> Option<IssueAggregate> {
    let v: Vec<&IssueCompare> = per.values().filter_map(|c| c.issue_cost.as_ref()).collect();
    let f = v.first()?;
    let e: f64 = v.iter().map(|x| x.energy_j).sum();
    let b: f64 = v.iter().map(|x| x.baseline_energy_j).sum();
    Some(IssueAggregate {
        workloads: v.len(),
        design: f.design.clone(),
        ib_depth: f.ib_depth,
        area_per_sm_mm2: f.area_per_sm_mm2,
        area_sm_share: f.area_sm_share,
        area_chip_mm2: f.area_chip_mm2,
        area_die_share: f.area_die_share,
        reference_die_mm2: None,
        area_ref_die_share: None,
        leakage_chip_w: f.leakage_chip_w,
        energy_j: e,
        baseline_energy_j: b,
        energy_change: change(e, b),
        energy_change_of_total: if base_total_j > 0.0 {
            (e - b) / base_total_j
        } else {
            0.0
        },
    })
}
