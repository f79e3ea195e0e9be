//! Register-file savings in a comparison: a variant's register file against the baseline's per
//! workload ([`RfCompare`], register-file spec §8.4, §8.5) and aggregated over the workloads three
//! ways ([`RfAggregate`], §9).

use super::WorkloadCompare;
use crate::study::WorkloadResult;
use serde::Serialize;
use std::collections::BTreeMap;

/// Register-file savings `S_X = 1 − X_variant/X_baseline` for X ∈ {dynamic, leakage, total}
/// (total includes the added structures' overheads).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct RfSavings {
    /// Dynamic.
    pub dynamic: f64,
    /// Leakage.
    pub leakage: f64,
    /// Total.
    pub total: f64,
}

/// The §8.5 fixed-ratio total saving at one ratio.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct FixedRatioTotal {
    /// Dynamic:leakage power ratio `r`.
    pub r: f64,
    /// `S_tot(r) = (S_leak + r·S_dyn)/(1 + r)`, power basis.
    pub total: f64,
}

/// A variant's register file on one workload against the baseline's (register-file spec §8.4,
/// §8.5, §9).
#[derive(Clone, Debug, Serialize)]
pub struct RfCompare {
    /// Savings on the energy basis.
    pub savings: RfSavings,
    /// Savings on the power basis (each energy over its own run's time).
    pub savings_power: RfSavings,
    /// Access shares of the partitioned RF; absent without the partition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access_split: Option<crate::rfcost::AccessSplit>,
    /// Register-file area on the chip (structures and added structures), mm².
    pub rf_area_mm2: f64,
    /// The model's dynamic:leakage power ratio of the baseline's register file.
    pub model_ratio: f64,
    /// `S_tot` at the model's ratio (§8.5 formula, overheads excluded), power basis.
    pub total_at_model_ratio: f64,
    /// `S_tot(r)` for each `energy.fixed_ratio_sweep` ratio; absent when the sweep is empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixed_ratio: Vec<FixedRatioTotal>,
    #[serde(skip)]
    pairs: RfPairs,
}

/// Variant and baseline values of one workload, kept for the aggregations.
#[derive(Clone, Copy, Debug, Default)]
struct RfPairs {
    energy: [(f64, f64); 3],
    power: [(f64, f64); 3],
}

/// One saving aggregated three ways over the workloads (register-file spec §9).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Aggregated {
    /// Arithmetic mean of the per-workload savings.
    pub mean: f64,
    /// One minus the geometric mean of the per-workload ratios `X_variant/X_baseline`.
    pub geomean_ratio: f64,
    /// One minus `ΣX_variant / ΣX_baseline`.
    pub total_weighted: f64,
}

/// Savings aggregated three ways.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct RfSavingsAggregate {
    /// Dynamic.
    pub dynamic: Aggregated,
    /// Leakage.
    pub leakage: Aggregated,
    /// Total.
    pub total: Aggregated,
}

/// The fixed-ratio total at one ratio, aggregated three ways.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct FixedRatioAggregate {
    /// Ratio `r`.
    pub r: f64,
    /// `S_tot(r)`: the mean of the per-workload values, one minus the geometric mean of
    /// `1 − S_tot(r)`, and the formula on the total-weighted power savings.
    pub total: Aggregated,
}

/// A variant's register-file savings over the workloads that have them.
#[derive(Clone, Debug, Serialize)]
pub struct RfAggregate {
    /// Workloads aggregated (those with a register-file technique and a costed baseline).
    pub workloads: usize,
    /// Energy-basis savings.
    pub savings: RfSavingsAggregate,
    /// Power-basis savings.
    pub savings_power: RfSavingsAggregate,
    /// Mean over the workloads of the access shares; absent without the partition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access_split: Option<crate::rfcost::AccessSplit>,
    /// Register-file area, mm² (one configuration: the same on every workload).
    pub rf_area_mm2: f64,
    /// The model's ratio over all workloads: `Σ P_dyn,base / Σ P_leak,base`.
    pub model_ratio: f64,
    /// `S_tot` at that ratio from the total-weighted power savings.
    pub total_at_model_ratio: f64,
    /// `S_tot(r)` per swept ratio; absent when the sweep is empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixed_ratio: Vec<FixedRatioAggregate>,
}

fn rf_saving(x: f64, b: f64) -> f64 {
    if b > 0.0 {
        1.0 - x / b
    } else {
        0.0
    }
}

/// The register-file comparison of run `r` against the baseline's run `base` with the
/// variant's `energy.fixed_ratio_sweep`.
pub(super) fn rf_metrics(
    r: &WorkloadResult,
    base: &WorkloadResult,
    sweep: &[f64],
) -> Option<RfCompare> {
    let rf = r.rf()?;
    let b = base.rf().map(|x| &x.energy).or(base.rf_plain.as_ref())?;
    let t = &rf.energy;
    let x = [t.dyn_j, t.leak_j, t.tot_j];
    let y = [b.dyn_j, b.leak_j, b.tot_j];
    let mut pairs = RfPairs::default();
    for i in 0..3 {
        pairs.energy[i] = (x[i], y[i]);
        pairs.power[i] = (x[i] / t.time_s, y[i] / b.time_s);
    }
    let sv = |p: &[(f64, f64); 3]| RfSavings {
        dynamic: rf_saving(p[0].0, p[0].1),
        leakage: rf_saving(p[1].0, p[1].1),
        total: rf_saving(p[2].0, p[2].1),
    };
    let savings_power = sv(&pairs.power);
    let model_ratio = models::rf::accounting::model_ratio(b);
    let fr = |r: f64| {
        if r.is_finite() {
            (savings_power.leakage + r * savings_power.dynamic) / (1.0 + r)
        } else {
            savings_power.dynamic
        }
    };
    Some(RfCompare {
        savings: sv(&pairs.energy),
        savings_power,
        access_split: rf.access_split,
        rf_area_mm2: rf.rf_area_mm2,
        model_ratio,
        total_at_model_ratio: fr(model_ratio),
        fixed_ratio: sweep
            .iter()
            .map(|&r| FixedRatioTotal { r, total: fr(r) })
            .collect(),
        pairs,
    })
}

/// The three aggregations of `(variant, baseline)` pairs as savings; `None` when a baseline is
/// not positive.
fn aggregated(pairs: &[(f64, f64)]) -> Option<Aggregated> {
    let a = models::rf::accounting::aggregate_ratios(pairs)
        .ok()?
        .as_savings();
    Some(Aggregated {
        mean: a.arithmetic_mean,
        geomean_ratio: a.geometric_mean,
        total_weighted: a.total_weighted,
    })
}

/// The register-file aggregate of a variant's workloads (`sweep`: its fixed ratios).
pub(super) fn rf_aggregate(
    per: &BTreeMap<String, WorkloadCompare>,
    sweep: &[f64],
) -> Option<RfAggregate> {
    let rfs: Vec<&RfCompare> = per.values().filter_map(|c| c.rf.as_ref()).collect();
    if rfs.is_empty() {
        return None;
    }
    let col = |f: &dyn Fn(&RfPairs) -> (f64, f64)| -> Vec<(f64, f64)> {
        rfs.iter().map(|c| f(&c.pairs)).collect()
    };
    let set = |power: bool| -> Option<RfSavingsAggregate> {
        let g = |i: usize| aggregated(&col(&|p| if power { p.power[i] } else { p.energy[i] }));
        Some(RfSavingsAggregate {
            dynamic: g(0)?,
            leakage: g(1)?,
            total: g(2)?,
        })
    };
    let savings = set(false)?;
    let savings_power = set(true)?;
    let n = rfs.len() as f64;
    let splits: Vec<_> = rfs.iter().filter_map(|c| c.access_split).collect();
    let access_split = (!splits.is_empty()).then(|| {
        let k = splits.len() as f64;
        crate::rfcost::AccessSplit {
            frf_high: splits.iter().map(|s| s.frf_high).sum::<f64>() / k,
            frf_low: splits.iter().map(|s| s.frf_low).sum::<f64>() / k,
            srf: splits.iter().map(|s| s.srf).sum::<f64>() / k,
        }
    });
    let base_dyn_w: f64 = rfs.iter().map(|c| c.pairs.power[0].1).sum();
    let base_leak_w: f64 = rfs.iter().map(|c| c.pairs.power[1].1).sum();
    let model_ratio = if base_leak_w > 0.0 {
        base_dyn_w / base_leak_w
    } else {
        f64::INFINITY
    };
    let tw = |r: f64| {
        let p = &savings_power;
        if r.is_finite() {
            (p.leakage.total_weighted + r * p.dynamic.total_weighted) / (1.0 + r)
        } else {
            p.dynamic.total_weighted
        }
    };
    let mut fixed_ratio = Vec::new();
    for &r in sweep {
        let per_w: Vec<f64> = rfs
            .iter()
            .map(|c| {
                c.fixed_ratio
                    .iter()
                    .find(|x| x.r == r)
                    .map_or(0.0, |x| x.total)
            })
            .collect();
        let ratios: Vec<(f64, f64)> = per_w.iter().map(|s| ((1.0 - s).max(0.0), 1.0)).collect();
        let gm = aggregated(&ratios).map_or(f64::NAN, |a| a.geomean_ratio);
        fixed_ratio.push(FixedRatioAggregate {
            r,
            total: Aggregated {
                mean: per_w.iter().sum::<f64>() / n,
                geomean_ratio: gm,
                total_weighted: tw(r),
            },
        });
    }
    Some(RfAggregate {
        workloads: rfs.len(),
        savings,
        savings_power,
        access_split,
        rf_area_mm2: rfs[0].rf_area_mm2,
        model_ratio,
        total_at_model_ratio: tw(model_ratio),
        fixed_ratio,
    })
}
