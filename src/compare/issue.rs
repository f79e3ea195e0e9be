//! The issue stage's energy in a comparison: a variant's issue structures against the
//! baseline's per workload ([`IssueCompare`], issue-stage spec §4, §5) and summed over the
//! workloads ([`IssueAggregate`]). The area and leakage power the issue stage adds are the
//! comparison's one area table ([`super::AreaCompare`]: the structures, the leaves they
//! replace), not repeated here.

use super::{change, WorkloadCompare};
use crate::study::WorkloadResult;
use serde::Serialize;
use std::collections::BTreeMap;

/// A variant's issue stage against the baseline's on one workload: the energy of the issue
/// structures of both runs, each design costed by the issue-stage §4 model
/// ([`crate::issuecost`]), and its change.
#[derive(Clone, Debug, Serialize)]
pub struct IssueCompare {
    /// The variant's issue design (`baseline`, or its out-of-order issue stage's name).
    pub design: String,
    /// The design's instruction-buffer depth N, when it has that knob; absent for the baseline
    /// design.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ib_depth: Option<u32>,
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
    let share = |x: f64, d: f64| if d > 0.0 { x / d } else { 0.0 };
    Some(IssueCompare {
        design: v.design.clone(),
        ib_depth: v.ib_depth,
        energy_j: v.energy_j(),
        dynamic_j: v.dynamic_j,
        baseline_energy_j: b.energy_j(),
        baseline_dynamic_j: b.dynamic_j,
        energy_change: change(v.energy_j(), b.energy_j()),
        energy_change_of_total: share(v.energy_j() - b.energy_j(), base.energy_j),
    })
}

/// A variant's issue-structure energy over the workloads.
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
