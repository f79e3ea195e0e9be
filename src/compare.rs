//! `compare`: techniques side by side. A baseline and one or more variants (each a named
//! technique or `+`-joined combination, [`crate::technique`]) run on the same workloads at the
//! same technology point; every run is one [`Study`] of one configuration. Per workload and in
//! aggregate the comparison reports run time and `perf_overhead = T_variant/T_baseline − 1`,
//! total energy and EDP and their change against the baseline, and — for gated runs — the
//! static energy of the INT and FP execution units with and without gating, `static_savings`
//! per class (power-gating §1.6, §9), gating events and wakeups (also over the baseline's),
//! and the A/B/C split of idle runs (power-gating §1.5); per run the INT and FP pipes' idle
//! fraction normalised to the baseline's, the schedulers' active-set size and folding's ratios
//! (power-gating §9).
//!
//! Aggregates: `perf_overhead` and `static_savings` are arithmetic means over the workloads
//! (FP means skip workloads without FP activity, which are flagged); energy and EDP are sums
//! over the workloads, with their change against the baseline's sums.
//!
//! Register-file techniques (TRIC, COMA, the partitioned RF, the RF cache): per workload the
//! dynamic, leakage and total savings of the variant's register file against the baseline's
//! (register-file spec §8.4, on the energy and on the power basis, [`crate::rfcost`]), the
//! access split of the partitioned RF, the register-file area, the model's dynamic:leakage
//! ratio and the §8.5 fixed-ratio totals at it and at each `energy.fixed_ratio_sweep` ratio;
//! in aggregate each saving as the arithmetic mean, the geometric mean of the ratios and the
//! total-weighted value (§9), each labelled.

use crate::study::{Study, StudyError, WorkloadResult};
use crate::technique::{self, Resolved, TechniqueError};
use rayon::prelude::*;
use serde::Serialize;
use sim::config::GpuConfig;
use sim::workloads::Workload;
use std::collections::BTreeMap;

/// Why a comparison could not run.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// A technique name or combination is not valid.
    #[error(transparent)]
    Technique(#[from] TechniqueError),
    /// A technique's knobs, a `--set` or a `--sweep` value do not make a valid configuration.
    #[error("{variant}: {error}")]
    Config {
        /// The variant whose configuration failed.
        variant: String,
        /// Why.
        error: sim::SimError,
    },
    /// A `--sweep` argument is malformed.
    #[error("--sweep '{0}': expected KEY=V1,V2,... with a dotted configuration key, e.g. pg.bet=9,14,19,24")]
    Sweep(String),
    /// Nothing to compare.
    #[error("compare needs at least one --technique (see `gpuenergy techniques`)")]
    NoVariant,
    /// A run failed.
    #[error(transparent)]
    Study(Box<StudyError>),
    /// One variant's run failed: names the variant, so that the run can be repeated alone
    /// (`gpuenergy simulate --technique NAME --workload W`).
    #[error("variant '{variant}'")]
    Run {
        /// The variant (or the baseline) whose run failed.
        variant: String,
        /// Why.
        #[source]
        error: Box<StudyError>,
    },
}

impl From<StudyError> for CompareError {
    fn from(e: StudyError) -> Self {
        CompareError::Study(Box::new(e))
    }
}

/// One configuration to run: the baseline or a variant.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Its name in every output (`warped-gates`, `gates+coord-blackout [pg.bet=19]`).
    pub name: String,
    /// The resolved configuration.
    pub config: GpuConfig,
}

/// Builds the baseline and the variants: `base` with each technique applied, then `set`
/// (applied to every run, the baseline too), then, for the variants, each value of the sweep.
pub fn plan(
    base: &GpuConfig,
    baseline: &str,
    techniques: &[String],
    set: &[(String, String)],
    sweep: Option<&(String, Vec<String>)>,
) -> Result<(Variant, Vec<Variant>), CompareError> {
    if techniques.is_empty() {
        return Err(CompareError::NoVariant);
    }
    let build = |r: &Resolved, extra: &[(String, String)], name: String| {
        let mut pairs = set.to_vec();
        pairs.extend_from_slice(extra);
        r.apply(base, &pairs)
            .map(|config| Variant {
                name: name.clone(),
                config,
            })
            .map_err(|error| CompareError::Config {
                variant: name,
                error,
            })
    };
    // every name is checked before any configuration is built
    let b = technique::resolve(baseline)?;
    let resolved = techniques
        .iter()
        .map(|t| technique::resolve(t))
        .collect::<Result<Vec<_>, _>>()?;
    let baseline = build(&b, &[], b.name.clone())?;
    let mut variants = Vec::new();
    for r in &resolved {
        match sweep {
            None => variants.push(build(r, &[], r.name.clone())?),
            Some((key, values)) => {
                for v in values {
                    let extra = [(key.clone(), v.clone())];
                    variants.push(build(r, &extra, format!("{} [{key}={v}]", r.name))?);
                }
            }
        }
    }
    Ok((baseline, variants))
}

/// Parses `--sweep KEY=V1,V2,...`.
pub fn parse_sweep(arg: &str) -> Result<(String, Vec<String>), CompareError> {
    let bad = || CompareError::Sweep(arg.to_string());
    let (k, vs) = arg.split_once('=').ok_or_else(bad)?;
    let k = k.trim();
    let values: Vec<String> = vs.split(',').map(|v| v.trim().to_string()).collect();
    if k.is_empty() || values.iter().any(|v| v.is_empty()) {
        return Err(bad());
    }
    Ok((k.to_string(), values))
}

/// A variant's numbers on one workload, against the baseline's run of it.
#[derive(Clone, Debug, Serialize)]
pub struct WorkloadCompare {
    /// Simulated core cycles.
    pub cycles: u64,
    /// Run time, s.
    pub runtime_s: f64,
    /// `T_variant / T_baseline − 1`.
    pub perf_overhead: f64,
    /// Total energy (dynamic + leakage + gating overhead), J.
    pub energy_j: f64,
    /// `energy_j / baseline energy − 1`.
    pub energy_change: f64,
    /// Energy-delay product, J·s.
    pub edp_js: f64,
    /// `edp_js / baseline EDP − 1`.
    pub edp_change: f64,
    /// Dynamic energy, J (identical across gating policies of one scheduler).
    pub dynamic_j: f64,
    /// Leakage energy, J.
    pub leakage_j: f64,
    /// The run stopped at a cycle or instruction limit.
    pub truncated: bool,
    /// `static_savings` of the INT and FP execution units (power-gating §1.6) against the
    /// baseline's leakage of the same units; `null` for a class that is not gated, and for FP
    /// when the workload has no FP activity.
    pub static_savings: ClassPair<Option<f64>>,
    /// Gating events over every domain.
    pub events: u64,
    /// Wakeups over every domain.
    pub wakeups: u64,
    /// Critical wakeups (blackout policies).
    pub critical_wakeups: u64,
    /// Shares of idle runs in regions A/B/C (power-gating §1.5), per class.
    pub idle_regions: ClassPair<Option<IdleRegions>>,
    /// The accounting per gated class (leakage with and without gating, overheads), J.
    pub classes: Vec<ClassEnergy>,
    /// Gating events and wakeups over the baseline's (power-gating §9 "also normalised to a
    /// reference policy"); `null` when the baseline does not gate.
    pub events_norm: Option<f64>,
    /// See `events_norm`.
    pub wakeups_norm: Option<f64>,
    /// Idle time of the INT and FP pipes from their timelines, and normalised to the
    /// baseline's (power-gating §9 "Time"); `null` for a class with no pipe.
    pub unit_idle: ClassPair<Option<UnitIdle>>,
    /// Schedulers' active-set size (power-gating §9 "Workload"); `null` for a run without
    /// gating controllers or folding, which does not record it.
    pub active_set: Option<ActiveSetSize>,
    /// Warp folding's ratios (power-gating §9 "Folding"); `null` without folding.
    pub folding: Option<FoldingSummary>,
    /// Register-file savings against the baseline's register file (register-file spec §8.4,
    /// §8.5); absent for a run without a register-file technique.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rf: Option<RfCompare>,
    /// The issue stage's hardware cost against the baseline's (issue-stage spec §4); absent
    /// when the run and the baseline have the same issue design.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issue_cost: Option<IssueCompare>,
}

/// A variant's issue stage against the baseline's on one workload: the area and leakage it
/// adds (added − removed structures, per SM and per chip) and the change of the issue-stage
/// structures' energy ([`crate::issuecost`]; both designs costed by the issue-stage §4 model).
#[derive(Clone, Debug, Serialize)]
pub struct IssueCompare {
    /// The variant's issue design (`socgpu`, `baseline`).
    pub design: String,
    /// SOCGPU instruction-buffer depth N; absent for the baseline design.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ib_depth: Option<u32>,
    /// Area of the variant's issue structures per SM, mm².
    pub added_area_per_sm_mm2: f64,
    /// Area of the baseline's issue structures per SM (the removed ones; with LOOG also the
    /// operand collectors its collector units replace), mm².
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

fn issue_metrics(r: &WorkloadResult, base: &WorkloadResult) -> Option<IssueCompare> {
    let (v, b) = (r.issue()?, base.issue()?);
    if v.design == b.design && v.ib_depth == b.ib_depth {
        return None;
    }
    // LOOG's collector units replace the machine's operand collectors (issuecost)
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
    /// SOCGPU instruction-buffer depth N; absent for the baseline design.
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

fn issue_aggregate(
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

/// Reports every issue-stage area overhead of `c` also against a published die area of
/// `die_mm2` mm² (issue-stage §1.1: the die area is only a denominator).
pub fn set_reference_die(c: &mut Comparison, die_mm2: f64) {
    for v in &mut c.variants {
        for w in v.per_workload.values_mut() {
            if let Some(i) = &mut w.issue_cost {
                i.area_ref_die_share = Some(i.area_chip_mm2 / die_mm2);
            }
        }
        if let Some(i) = &mut v.aggregate.issue_cost {
            i.reference_die_mm2 = Some(die_mm2);
            i.area_ref_die_share = Some(i.area_chip_mm2 / die_mm2);
        }
    }
}

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
fn rf_metrics(r: &WorkloadResult, base: &WorkloadResult, sweep: &[f64]) -> Option<RfCompare> {
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
fn rf_aggregate(per: &BTreeMap<String, WorkloadCompare>, sweep: &[f64]) -> Option<RfAggregate> {
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

/// Idle fraction of one class of pipes (INT or FP), whole pipe and per lane, and the same over
/// the baseline run's (`null` when the baseline's is 0).
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct UnitIdle {
    /// Idle cycles ÷ cycles of the class's pipes (a pipe is busy when any lane is).
    pub idle_fraction: f64,
    /// Idle lane-cycles ÷ lane-cycles of the class's pipes.
    pub lane_idle_fraction: f64,
    /// `idle_fraction` ÷ the baseline's.
    pub idle_fraction_norm: Option<f64>,
    /// `lane_idle_fraction` ÷ the baseline's.
    pub lane_idle_fraction_norm: Option<f64>,
}

/// Active-set size of the warp schedulers over a run.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct ActiveSetSize {
    /// Largest active set of one scheduler, warps.
    pub max_warps: u32,
    /// Mean over the scheduler-cycles, warps.
    pub mean_warps: f64,
}

/// Warp folding over a run (power-gating §9 "Folding", "Workload").
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct FoldingSummary {
    /// Per type: cycles with folding enabled ÷ cycles.
    pub fold_time_ratio: ClassPair<f64>,
    /// Per type: folded ÷ dispatched SP instructions.
    pub fold_instr_ratio: ClassPair<f64>,
    /// Fold phases, summed over the SMs.
    pub phases: u64,
    /// Phases in which the utilisation rule turned folding off.
    pub phases_disabled: u64,
    /// SP warp instructions with a full and with a partial active mask.
    pub full_insts: u64,
    /// See `full_insts`.
    pub partial_insts: u64,
}

/// `a / b` when `b > 0`.
fn ratio(a: f64, b: f64) -> Option<f64> {
    (b > 0.0).then(|| a / b)
}

/// A class's idle time in a run (`r`) against the baseline's (`base`), each as `[pipe, lane]` × `[idle, total]` cycles; `None` without pipes.
fn unit_idle(r: [[u64; 2]; 2], base: [[u64; 2]; 2]) -> Option<UnitIdle> {
    let frac = |x: [u64; 2]| x[0] as f64 / x[1].max(1) as f64;
    (r[0][1] > 0).then(|| UnitIdle {
        idle_fraction: frac(r[0]),
        lane_idle_fraction: frac(r[1]),
        idle_fraction_norm: ratio(frac(r[0]), frac(base[0])),
        lane_idle_fraction_norm: ratio(frac(r[1]), frac(base[1])),
    })
}

/// The run-level §9 metrics of `r` against the baseline's run `base`.
fn run_metrics(
    r: &WorkloadResult,
    base: &WorkloadResult,
) -> (
    ClassPair<Option<UnitIdle>>,
    Option<ActiveSetSize>,
    Option<FoldingSummary>,
) {
    let (m, b) = (&r.pg_metrics, &base.pg_metrics);
    let idle = ClassPair {
        int: unit_idle(m.int_idle, b.int_idle),
        fp: unit_idle(m.fp_idle, b.fp_idle),
    };
    let active = m.active_set.map(|a| ActiveSetSize {
        max_warps: a.max_warps,
        mean_warps: a.mean_warps(),
    });
    let folding = m.fold.as_ref().map(|f| FoldingSummary {
        fold_time_ratio: ClassPair {
            int: f.fold_time_ratio(0),
            fp: f.fold_time_ratio(1),
        },
        fold_instr_ratio: ClassPair {
            int: f.fold_instr_ratio(0),
            fp: f.fold_instr_ratio(1),
        },
        phases: f.phases,
        phases_disabled: f.phases_disabled,
        full_insts: f.full,
        partial_insts: f.partial,
    });
    (idle, active, folding)
}

/// A value per execution-unit class.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct ClassPair<T> {
    /// INT lanes.
    pub int: T,
    /// FP lanes.
    pub fp: T,
}

/// The A/B/C split of a class's idle runs (power-gating §1.5): A `L ≤ D`, B `D < L ≤ D+BET`,
/// C `L > D+BET`; as shares of the runs and of the idle cycles.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct IdleRegions {
    /// Share of idle runs in A, B, C.
    pub by_count: [f64; 3],
    /// Share of idle cycles in A, B, C.
    pub by_cycles: [f64; 3],
}

/// One gated class's energies in a run, against the baseline.
#[derive(Clone, Debug, Serialize)]
pub struct ClassEnergy {
    /// `int`, `fp` or `sfu`.
    pub class: String,
    /// Leakage of these units in the baseline run, J.
    pub leakage_base_j: f64,
    /// Leakage with gating, J.
    pub leakage_pg_j: f64,
    /// Event overhead, J.
    pub overhead_j: f64,
    /// Control-logic energy, J.
    pub control_j: f64,
    /// Busy cycles summed over the class's domains (0: the class had no work).
    pub busy_cycles: u64,
    /// Gated cycles summed over the class's domains.
    pub gated_cycles: u64,
    /// Events with `G ≤ BET` and with `G > BET`.
    pub events_by_outcome: [u64; 2],
    /// `pg_overhead_norm = N_events·BET/T_base` (power-gating §9), per domain of the class:
    /// the event overhead in baseline-run cycles.
    pub pg_overhead_norm: f64,
}

fn shares(v: [u64; 3]) -> [f64; 3] {
    let t: u64 = v.iter().sum();
    if t == 0 {
        [0.0; 3]
    } else {
        v.map(|x| x as f64 / t as f64)
    }
}

/// The gating metrics of run `r` against the baseline's run `base` of the same workload.
fn gating_metrics(r: &WorkloadResult, base: &WorkloadResult) -> GatingMetrics {
    let mut m = GatingMetrics::default();
    let Some(classes) = r.gating() else {
        return m;
    };
    // E_leak,base = P_leak·t_clk·T_base: the run's ungated leakage at the baseline's length.
    let scale = if r.cycles > 0 {
        base.cycles as f64 / r.cycles as f64
    } else {
        1.0
    };
    for c in classes {
        // the models-side accounting, with the baseline's length in place of the run's own
        let against_base = models::gating::cost::ClassCost {
            leakage_base_j: c.leakage_ungated_j * scale,
            ..c.clone()
        };
        let e = ClassEnergy {
            class: c.class.clone(),
            leakage_base_j: against_base.leakage_base_j,
            leakage_pg_j: c.leakage_pg_j,
            overhead_j: c.overhead_j,
            control_j: c.control_j,
            busy_cycles: c.busy_cycles,
            gated_cycles: c.gated_cycles,
            events_by_outcome: c.events_by_outcome,
            pg_overhead_norm: c.events as f64 * r.pg_metrics.bet as f64
                / (c.domains.max(1) as f64 * base.cycles.max(1) as f64),
        };
        m.events += c.events;
        m.wakeups += c.wakeups;
        m.critical_wakeups += c.critical_wakeups;
        let regions = IdleRegions {
            by_count: shares(c.region_count),
            by_cycles: shares(c.region_cycles),
        };
        match c.class.as_str() {
            "int" => {
                m.savings.int = Some(against_base.static_savings());
                m.regions.int = Some(regions);
            }
            "fp" => {
                // FP aggregates exclude workloads with no FP activity (power-gating §9).
                if c.busy_cycles > 0 {
                    m.savings.fp = Some(against_base.static_savings());
                }
                m.regions.fp = Some(regions);
            }
            _ => {}
        }
        m.classes.push(e);
    }
    m
}

#[derive(Default)]
struct GatingMetrics {
    savings: ClassPair<Option<f64>>,
    regions: ClassPair<Option<IdleRegions>>,
    events: u64,
    wakeups: u64,
    critical_wakeups: u64,
    classes: Vec<ClassEnergy>,
}

/// A variant's aggregate over the workloads.
#[derive(Clone, Debug, Serialize)]
pub struct Aggregate {
    /// Mean of the per-workload `perf_overhead`.
    pub perf_overhead: f64,
    /// Sum of the workloads' energies, J.
    pub energy_j: f64,
    /// Against the baseline's sum.
    pub energy_change: f64,
    /// Sum of the workloads' EDPs, J·s.
    pub edp_js: f64,
    /// Against the baseline's sum.
    pub edp_change: f64,
    /// Mean over the workloads of `static_savings` per class (FP: over the workloads with FP
    /// activity only).
    pub static_savings: ClassPair<Option<f64>>,
    /// Workloads left out of the FP mean: no FP activity.
    pub fp_excluded: Vec<String>,
    /// Gating events, summed over the workloads.
    pub events: u64,
    /// Wakeups, summed.
    pub wakeups: u64,
    /// Critical wakeups, summed.
    pub critical_wakeups: u64,
    /// A/B/C shares of the idle runs of all workloads together, per class.
    pub idle_regions: ClassPair<Option<IdleRegions>>,
    /// Register-file savings in the three aggregations of register-file spec §9; absent when
    /// no workload has a register-file technique.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rf: Option<RfAggregate>,
    /// The issue stage's hardware cost against the baseline's; absent when no workload's run
    /// has another issue design than the baseline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issue_cost: Option<IssueAggregate>,
    /// Largest active set over the workloads, and the mean of the workloads' mean sizes.
    pub active_set: Option<ActiveSetSize>,
}

/// One variant's results.
#[derive(Clone, Debug, Serialize)]
pub struct VariantResult {
    /// The variant's name.
    pub name: String,
    /// Per workload, keyed by workload name.
    pub per_workload: BTreeMap<String, WorkloadCompare>,
    /// Over all workloads.
    pub aggregate: Aggregate,
}

/// A whole comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// Technology label.
    pub tech: String,
    /// GPU configuration name.
    pub gpu: String,
    /// Workload size tier.
    pub size: String,
    /// The baseline's name.
    pub baseline: String,
    /// The baseline's own runs, keyed by workload (its overheads and changes are 0).
    pub baseline_runs: BTreeMap<String, WorkloadCompare>,
    /// The variants, in the order given.
    pub variants: Vec<VariantResult>,
}

/// `a / b − 1`, 0 when the baseline is 0.
fn change(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b - 1.0
    } else {
        0.0
    }
}

fn one(r: &WorkloadResult, base: &WorkloadResult, sweep: &[f64]) -> WorkloadCompare {
    let g = gating_metrics(r, base);
    let gb = gating_metrics(base, base);
    let (unit_idle, active_set, folding) = run_metrics(r, base);
    WorkloadCompare {
        cycles: r.cycles,
        runtime_s: r.runtime_s,
        perf_overhead: change(r.runtime_s, base.runtime_s),
        energy_j: r.energy_j,
        energy_change: change(r.energy_j, base.energy_j),
        edp_js: r.edp_js,
        edp_change: change(r.edp_js, base.edp_js),
        dynamic_j: r.dynamic_j,
        leakage_j: r.leakage_j,
        truncated: r.truncated,
        static_savings: g.savings,
        events: g.events,
        wakeups: g.wakeups,
        critical_wakeups: g.critical_wakeups,
        idle_regions: g.regions,
        classes: g.classes,
        rf: rf_metrics(r, base, sweep),
        issue_cost: issue_metrics(r, base),
        events_norm: ratio(g.events as f64, gb.events as f64),
        wakeups_norm: ratio(g.wakeups as f64, gb.wakeups as f64),
        unit_idle,
        active_set,
        folding,
    }
}

/// Runs the baseline and every variant on `workloads` (all runs in parallel on rayon's pool)
/// with the technology point, overlay and options of `study`; `progress(done, total, label)`
/// is called after each run.
pub fn run(
    study: &Study,
    size_label: &str,
    baseline: &Variant,
    variants: &[Variant],
    workloads: &[&dyn Workload],
    progress: &(dyn Fn(usize, usize, &str) + Send + Sync),
) -> Result<Comparison, CompareError> {
    let all: Vec<&Variant> = std::iter::once(baseline).chain(variants.iter()).collect();
    let jobs: Vec<(usize, usize)> = (0..all.len())
        .flat_map(|v| (0..workloads.len()).map(move |w| (v, w)))
        .collect();
    let total = jobs.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let studies: Vec<Study> = all
        .iter()
        .map(|v| study.variant(v.config.clone()).parallel(false))
        .collect();
    let results: Vec<Result<(WorkloadResult, String), StudyError>> = jobs
        .par_iter()
        .map(|&(v, w)| {
            let r = studies[v].run(&[workloads[w]]).map(|mut rep| {
                let tech = rep.tech.clone();
                (rep.workloads.remove(0), tech)
            });
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(
                n,
                total,
                &format!("{} on {}", all[v].name, workloads[w].info().name),
            );
            r
        })
        .collect();
    let mut table: Vec<Vec<WorkloadResult>> = vec![Vec::new(); all.len()];
    let mut tech = String::new();
    for (&(v, _), r) in jobs.iter().zip(results) {
        let (r, t) = r.map_err(|e| CompareError::Run {
            variant: all[v].name.clone(),
            error: Box::new(e),
        })?;
        tech = t;
        table[v].push(r);
    }
    let base = &table[0];
    let per = |runs: &[WorkloadResult], sweep: &[f64]| -> BTreeMap<String, WorkloadCompare> {
        runs.iter()
            .zip(base)
            .map(|(r, b)| (r.workload.clone(), one(r, b, sweep)))
            .collect()
    };
    let sum = |runs: &[WorkloadResult], f: fn(&WorkloadResult) -> f64| -> f64 {
        runs.iter().map(f).sum()
    };
    let base_e = sum(base, |r| r.energy_j);
    let base_edp = sum(base, |r| r.edp_js);
    let variants = all[1..]
        .iter()
        .zip(&table[1..])
        .map(|(v, runs)| {
            let sweep = &v.config.energy.fixed_ratio_sweep;
            let per_workload = per(runs, sweep);
            let n = per_workload.len().max(1) as f64;
            let e = sum(runs, |r| r.energy_j);
            let edp = sum(runs, |r| r.edp_js);
            let mean = |f: &dyn Fn(&WorkloadCompare) -> Option<f64>| -> Option<f64> {
                let v: Vec<f64> = per_workload.values().filter_map(f).collect();
                (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
            };
            let regions = |class: &str| -> Option<IdleRegions> {
                let mut count = [0u64; 3];
                let mut cycles = [0u64; 3];
                let mut any = false;
                for r in runs.iter().filter_map(|r| r.gating()) {
                    for c in r.iter().filter(|c| c.class == class) {
                        any = true;
                        for i in 0..3 {
                            count[i] += c.region_count[i];
                            cycles[i] += c.region_cycles[i];
                        }
                    }
                }
                any.then(|| IdleRegions {
                    by_count: shares(count),
                    by_cycles: shares(cycles),
                })
            };
            VariantResult {
                name: v.name.clone(),
                aggregate: Aggregate {
                    perf_overhead: per_workload.values().map(|c| c.perf_overhead).sum::<f64>() / n,
                    energy_j: e,
                    energy_change: change(e, base_e),
                    edp_js: edp,
                    edp_change: change(edp, base_edp),
                    static_savings: ClassPair {
                        int: mean(&|c| c.static_savings.int),
                        fp: mean(&|c| c.static_savings.fp),
                    },
                    fp_excluded: per_workload
                        .iter()
                        .filter(|(_, c)| {
                            c.classes
                                .iter()
                                .any(|k| k.class == "fp" && k.busy_cycles == 0)
                        })
                        .map(|(w, _)| w.clone())
                        .collect(),
                    events: per_workload.values().map(|c| c.events).sum(),
                    wakeups: per_workload.values().map(|c| c.wakeups).sum(),
                    critical_wakeups: per_workload.values().map(|c| c.critical_wakeups).sum(),
                    idle_regions: ClassPair {
                        int: regions("int"),
                        fp: regions("fp"),
                    },
                    rf: rf_aggregate(&per_workload, sweep),
                    issue_cost: issue_aggregate(&per_workload, base_e),
                    active_set: {
                        let a: Vec<ActiveSetSize> =
                            per_workload.values().filter_map(|c| c.active_set).collect();
                        (!a.is_empty()).then(|| ActiveSetSize {
                            max_warps: a.iter().map(|x| x.max_warps).max().unwrap_or(0),
                            mean_warps: a.iter().map(|x| x.mean_warps).sum::<f64>()
                                / a.len() as f64,
                        })
                    },
                },
                per_workload,
            }
        })
        .collect();
    Ok(Comparison {
        tech,
        gpu: baseline.config.gpu.name.clone(),
        size: size_label.to_string(),
        baseline: baseline.name.clone(),
        baseline_runs: per(base, &baseline.config.energy.fixed_ratio_sweep),
        variants,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_arguments_parse() {
        let (k, v) = parse_sweep("pg.bet=9,14, 19").unwrap();
        assert_eq!(k, "pg.bet");
        assert_eq!(v, vec!["9", "14", "19"]);
        for bad in ["pg.bet", "=1,2", "pg.bet=1,,2", "pg.bet="] {
            assert!(parse_sweep(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn plan_needs_a_variant_and_names_bad_techniques() {
        let cfg = GpuConfig::preset("gtx480").unwrap();
        assert!(matches!(
            plan(&cfg, "none", &[], &[], None),
            Err(CompareError::NoVariant)
        ));
        let e = plan(&cfg, "none", &["warped-gate".into()], &[], None).unwrap_err();
        assert!(e.to_string().contains("warped-gate"), "{e}");
    }

    #[test]
    fn change_is_relative() {
        assert!((change(1.1, 1.0) - 0.1).abs() < 1e-12);
        assert_eq!(change(1.0, 0.0), 0.0);
    }
}
