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
//! Register-file techniques (those [`crate::rfcost`] costs): per workload the
//! dynamic, leakage and total savings of the variant's register file against the baseline's
//! (register-file spec §8.4, on the energy and on the power basis, [`crate::rfcost`]), the
//! access split of the partitioned RF, the register-file area, the model's dynamic:leakage
//! ratio and the §8.5 fixed-ratio totals at it and at each `energy.fixed_ratio_sweep` ratio;
//! in aggregate each saving as the arithmetic mean, the geometric mean of the ratios and the
//! total-weighted value (§9), each labelled.
//!
//! Sub-modules by what they measure: [`gating`] (power-gating metrics), [`rf`] (register-file
//! savings), [`area`] (the one area table: the chip area and leakage power every technique's
//! structures add) and [`issue`] (the issue structures' energy); this file plans the runs, runs
//! them and assembles each variant's per-workload and aggregate results.

mod area;
mod gating;
mod issue;
mod rf;

pub(crate) use area::area_metrics;
pub use area::AreaCompare;
pub use gating::{ActiveSetSize, ClassEnergy, ClassPair, FoldingSummary, IdleRegions, UnitIdle};
pub use issue::{IssueAggregate, IssueCompare};
pub use rf::{
    Aggregated, FixedRatioAggregate, FixedRatioTotal, RfAggregate, RfCompare, RfSavings,
    RfSavingsAggregate,
};

use gating::{gating_metrics, ratio, run_metrics, shares};
use issue::{issue_aggregate, issue_metrics};
use rf::{rf_aggregate, rf_metrics};

use crate::study::{Study, StudyError, WorkloadResult};
use crate::study_config::StudyConfig;
use crate::technique::{self, Resolved, TechniqueError};
use rayon::prelude::*;
use serde::Serialize;
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
    /// The resolved configuration (the machine with its `[energy]` and `[opt]`).
    pub config: StudyConfig,
}

/// Builds the baseline and the variants: `base` with each technique applied, then `set`
/// (applied to every run, the baseline too), then, for the variants, each value of the sweep.
pub fn plan(
    base: &StudyConfig,
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
    /// The issue structures' energy against the baseline's (issue-stage spec §4, §5); absent
    /// when the run and the baseline have the same issue design. Their area is in `area`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issue_cost: Option<IssueCompare>,
    /// The chip area with the structures of the run's techniques against the baseline's
    /// ([`AreaCompare`], every technique).
    pub area: AreaCompare,
    /// What kernel sampling did in this run and its estimated errors (`--sample`); a variant
    /// replays the baseline's decisions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample: Option<crate::sample::SampleReport>,
}

/// Reports the area every variant of `c` adds also against a published die area of `die_mm2`
/// mm² (issue-stage §1.1: the die area is only a denominator).
pub fn set_reference_die(c: &mut Comparison, die_mm2: f64) {
    for v in &mut c.variants {
        for w in v.per_workload.values_mut() {
            w.area.added_area_ref_die_share = Some(w.area.added_area_mm2 / die_mm2);
        }
        v.aggregate.area.added_area_ref_die_share = Some(v.aggregate.area.added_area_mm2 / die_mm2);
    }
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
    /// The issue structures' energy against the baseline's; absent when no workload's run
    /// has another issue design than the baseline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issue_cost: Option<IssueAggregate>,
    /// The chip area the variant's techniques add against the baseline's ([`AreaCompare`];
    /// the configuration's, the same on every workload).
    pub area: AreaCompare,
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
pub(super) fn change(a: f64, b: f64) -> f64 {
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
        area: area_metrics(r, base),
        events_norm: ratio(g.events as f64, gb.events as f64),
        wakeups_norm: ratio(g.wakeups as f64, gb.wakeups as f64),
        unit_idle,
        active_set,
        folding,
        sample: r.sample.clone(),
    }
}

/// The jobs of a sampled comparison: the baseline's runs first, each deciding its clusters
/// online; then every variant replaying the baseline's decisions for the same workload
/// (`--sample kernels` with the baseline's plan, so that the same launches are timed and a
/// difference is not sampling noise), or in full where `--sample auto` ran the baseline in
/// full.
fn sampled_jobs(
    studies: &[Study],
    workloads: &[&dyn Workload],
    jobs: &[(usize, usize)],
    count: &(dyn Fn(usize, usize) + Send + Sync),
) -> Vec<Result<(WorkloadResult, String), StudyError>> {
    use crate::sample::Sampling;
    type Run = Result<(WorkloadResult, String, Option<Sampling>), StudyError>;
    let sampling = studies[0].sampling_settings().clone();
    let base: Vec<Run> = (0..workloads.len())
        .into_par_iter()
        .map(|w| {
            let r = studies[0].run_keep(&[workloads[w]]).map(|(mut rep, acts)| {
                let follow = sampling.follow(acts.into_iter().next().and_then(|a| a.sample));
                let tech = rep.tech.clone();
                (rep.workloads.remove(0), tech, Some(follow))
            });
            count(0, w);
            r
        })
        .collect();
    let follow: Vec<Option<Sampling>> = base
        .iter()
        .map(|r| r.as_ref().ok().and_then(|x| x.2.clone()))
        .collect();
    let mut rest: Vec<Result<(WorkloadResult, String), StudyError>> = jobs
        .par_iter()
        .filter(|&&(v, _)| v > 0)
        .map(|&(v, w)| {
            let s = follow[w].clone().unwrap_or_default();
            let r = studies[v]
                .clone()
                .sampling(s)
                .run(&[workloads[w]])
                .map(|mut rep| {
                    let tech = rep.tech.clone();
                    (rep.workloads.remove(0), tech)
                });
            count(v, w);
            r
        })
        .collect();
    let mut out: Vec<Result<(WorkloadResult, String), StudyError>> = base
        .into_iter()
        .map(|r| r.map(|(w, t, _)| (w, t)))
        .collect();
    out.append(&mut rest);
    out
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
    let count = |v: usize, w: usize| {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        progress(
            n,
            total,
            &format!("{} on {}", all[v].name, workloads[w].info().name),
        );
    };
    let results: Vec<Result<(WorkloadResult, String), StudyError>> =
        if study.sampling_settings().is_on() {
            sampled_jobs(&studies, workloads, &jobs, &count)
        } else {
            jobs.par_iter()
                .map(|&(v, w)| {
                    let r = studies[v].run(&[workloads[w]]).map(|mut rep| {
                        let tech = rep.tech.clone();
                        (rep.workloads.remove(0), tech)
                    });
                    count(v, w);
                    r
                })
                .collect()
        };
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
                    area: per_workload
                        .values()
                        .next()
                        .map(|c| c.area)
                        .unwrap_or_default(),
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
        let cfg = StudyConfig::preset("gtx480").unwrap();
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
