//! The chip area a variant's techniques add, for every technique: the variant's estimate tree
//! (which carries the structures each technique's costing adds — power-gating switches and
//! controllers, register-file structures, issue-stage structures, the DWF scheduler) against
//! the baseline's, over the chip and per SM ([`AreaCompare`]). The issue-stage table
//! ([`super::issue`]) splits an issue design's part of it into added and removed structures.

use crate::study::WorkloadResult;
use serde::Serialize;

/// A variant's chip area against the baseline's, from their runs' estimate trees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct AreaCompare {
    /// The baseline's chip area, mm².
    pub baseline_area_mm2: f64,
    /// The variant's chip area with its techniques' structures, mm².
    pub area_mm2: f64,
    /// `area_mm2 − baseline_area_mm2`, mm².
    pub added_area_mm2: f64,
    /// That over the baseline's chip area.
    pub added_area_chip_share: f64,
    /// The baseline's area of one SM, mm².
    pub baseline_sm_area_mm2: f64,
    /// The added area per SM (the SMs' part of the added area over the SM count), mm².
    pub added_area_per_sm_mm2: f64,
    /// That over the baseline's SM area.
    pub added_area_sm_share: f64,
    /// `added_area_mm2` over a published die area (`compare --die-mm2`); absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub added_area_ref_die_share: Option<f64>,
}

/// Run `r`'s chip area against baseline run `base`'s.
pub(super) fn area_metrics(r: &WorkloadResult, base: &WorkloadResult) -> AreaCompare {
    let chip = |w: &WorkloadResult| w.estimate.root.area_m2 * 1e6;
    let sms = |w: &WorkloadResult| {
        w.estimate
            .root
            .find_part(models::gpu::Part::Sms)
            .map_or((0.0, 1), |n| (n.area_m2 * 1e6, n.instances.max(1)))
    };
    let (b, v) = (chip(base), chip(r));
    let ((bs, n), (vs, _)) = (sms(base), sms(r));
    let share = |x: f64, d: f64| if d > 0.0 { x / d } else { 0.0 };
    let sm_base = bs / n as f64;
    let added_sm = (vs - bs) / n as f64;
    AreaCompare {
        baseline_area_mm2: b,
        area_mm2: v,
        added_area_mm2: v - b,
        added_area_chip_share: share(v - b, b),
        baseline_sm_area_mm2: sm_base,
        added_area_per_sm_mm2: added_sm,
        added_area_sm_share: share(added_sm, sm_base),
        added_area_ref_die_share: None,
    }
}
