//! The chip area a variant's techniques add, for every technique: the variant's estimate tree
//! (which carries the structures each technique's costing adds — power-gating switches and
//! controllers, register-file structures, issue-stage structures, the DWF scheduler) against
//! the baseline's, over the chip and per SM, split into the structures the variant's tree has
//! and the baseline's has not and the baseline's leaves they replace, with the change of the
//! chip's leakage power every block powered ([`AreaCompare`]). This is the one area table of
//! every comparison, the reference-mode one ([`crate::refcompare`]) included; an issue stage's
//! and the DWF scheduler's own records add only what it does not say (their energy).

use crate::study::WorkloadResult;
use models::gpu::Node;
use serde::Serialize;
use std::collections::BTreeMap;

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
    /// Area of the leaves the variant's tree has and the baseline's has not (its techniques'
    /// structures), over the chip, mm².
    pub structures_mm2: f64,
    /// Area of the baseline's leaves the variant's tree has not (those the structures
    /// replace), over the chip, mm². `structures_mm2 − replaced_mm2` is `added_area_mm2` when
    /// the leaves both trees have keep their area, as every built-in technique does.
    pub replaced_mm2: f64,
    /// The variant's chip leakage power with every block powered less the baseline's, W.
    pub added_leakage_w: f64,
    /// `added_area_mm2` over a published die area (`compare --die-mm2`); absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub added_area_ref_die_share: Option<f64>,
}

impl AreaCompare {
    /// The figures of a comparison's area columns, in their order
    /// ([`AreaCompare::COLUMNS`]): chip area, added area, its chip share, added per SM, its SM
    /// share, the structures' and the replaced leaves' area, the added leakage every block
    /// powered.
    pub fn columns(&self) -> [f64; 8] {
        [
            self.area_mm2,
            self.added_area_mm2,
            self.added_area_chip_share,
            self.added_area_per_sm_mm2,
            self.added_area_sm_share,
            self.structures_mm2,
            self.replaced_mm2,
            self.added_leakage_w,
        ]
    }

    /// The names of [`AreaCompare::columns`].
    pub const COLUMNS: [&'static str; 8] = [
        "area_mm2",
        "added_area_mm2",
        "added_area_chip_share",
        "added_area_per_sm_mm2",
        "added_area_sm_share",
        "structures_mm2",
        "replaced_mm2",
        "added_leakage_w",
    ];
}

/// Every leaf of `n` by its path of names, with its area and leakage power.
fn leaves(n: &Node, path: &str, out: &mut BTreeMap<String, (f64, f64)>) {
    let p = format!("{path}/{}", n.name);
    if n.children.is_empty() {
        let e = out.entry(p.clone()).or_default();
        e.0 += n.area_m2;
        e.1 += n.leakage_w;
    }
    for c in &n.children {
        leaves(c, &p, out);
    }
}

/// Run `r`'s chip area against baseline run `base`'s.
pub(crate) fn area_metrics(r: &WorkloadResult, base: &WorkloadResult) -> AreaCompare {
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
    let (mut lb, mut lv) = (BTreeMap::new(), BTreeMap::new());
    leaves(&base.estimate.root, "", &mut lb);
    leaves(&r.estimate.root, "", &mut lv);
    let only = |a: &BTreeMap<String, (f64, f64)>, b: &BTreeMap<String, (f64, f64)>| -> f64 {
        a.iter()
            .filter(|(k, _)| !b.contains_key(*k))
            .fold(0.0, |a, (_, x)| a + x.0)
            * 1e6
    };
    let leak = |w: &WorkloadResult| w.estimate.root.totals().leakage_w;
    AreaCompare {
        baseline_area_mm2: b,
        area_mm2: v,
        added_area_mm2: v - b,
        added_area_chip_share: share(v - b, b),
        baseline_sm_area_mm2: sm_base,
        added_area_per_sm_mm2: added_sm,
        added_area_sm_share: share(added_sm, sm_base),
        structures_mm2: only(&lv, &lb),
        replaced_mm2: only(&lb, &lv),
        added_leakage_w: leak(r) - leak(base),
        added_area_ref_die_share: None,
    }
}
