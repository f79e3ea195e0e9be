//! `gpuenergy compare` for the reference modes of the control-flow spec (§3.4 MIMD and NREC,
//! §4–§5 dynamic warp formation): when the baseline or a variant sets `reconv.mode` to `dwf`,
//! `mimd` or `nrec`, every run goes to the reference-mode model
//! (`sim::timing::dwf::refmodel`), the baseline included (a PDOM baseline runs there under the
//! same scheduler-level timing), so that cycles compare like for like. Each run reports cycles,
//! speedup, SIMD efficiency, the DWF structure counters and the simulation rate, and its
//! activity record ([`sim::timing::dwf::refactivity`]) is costed by the chip model at the
//! comparison's technology point: energy and EDP and their change against the baseline, and
//! the chip area against the baseline's in the one area table of every comparison
//! ([`crate::compare::AreaCompare`]). A DWF run's own hardware is in its estimate
//! ([`crate::dwfcost`]); the table adds under its row only what the area table does not say
//! (its share of `dwf.die_area_mm2`, the PDOM stacks line item, its structures' energy).

use crate::compare::{AreaCompare, Variant};
use crate::dwfcost::DwfHardware;
use crate::study::Study;
use models::gpu::{ChipModel, TechCostSource};
use serde::Serialize;
use sim::config::reconv::ReconvMode;
use sim::timing::dwf::refmodel::{RefGpu, RefStats};
use sim::workloads::{Size, Workload};
use std::collections::BTreeMap;
use std::time::Instant;

/// True when some run of the comparison needs the reference-mode model.
pub fn needed(baseline: &Variant, variants: &[Variant]) -> bool {
    std::iter::once(baseline)
        .chain(variants)
        .any(|v| v.config.reconv.mode != ReconvMode::Pdom)
}

/// One workload under one variant.
#[derive(Clone, Debug, Serialize)]
pub struct RefResult {
    /// `reconv.mode` of the run.
    pub mode: String,
    /// Cycles (summed over launches).
    pub cycles: u64,
    /// Baseline cycles / these cycles.
    pub speedup: f64,
    /// Thread instructions / (warp issues × warp size).
    pub simd_efficiency: f64,
    /// Every counter of the run.
    pub stats: RefStats,
    /// Thread instructions simulated per second of wall time.
    pub thread_insts_per_s: f64,
    /// The run's energy costed from its activity record, when a technology point was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub energy: Option<RefEnergy>,
    /// The DWF scheduler's hardware (DWF runs, when a technology point was given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dwf_hardware: Option<DwfHardware>,
    /// The chip area with the run's techniques' structures against the baseline's, when a
    /// technology point was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area: Option<AreaCompare>,
}

/// A reference-mode run costed at the comparison's technology point.
#[derive(Clone, Debug, Serialize)]
pub struct RefEnergy {
    /// Run time at the chip model's core clock, s.
    pub runtime_s: f64,
    /// Chip energy (DWF structures included), J.
    pub energy_j: f64,
    /// Dynamic part, J.
    pub dynamic_j: f64,
    /// Leakage part, J.
    pub leakage_j: f64,
    /// Energy-delay product, J·s.
    pub edp_js: f64,
    /// (energy − baseline energy) / baseline energy.
    pub energy_change: f64,
    /// (EDP − baseline EDP) / baseline EDP.
    pub edp_change: f64,
}

/// The technology point the runs are costed at: the study of the baseline configuration.
pub struct HwContext {
    /// The baseline's study (technology point, overlay).
    pub study: Study,
}

/// One variant's study, cost source and chip model.
struct Costing {
    study: Study,
    src: TechCostSource,
    chip: ChipModel,
}

/// The comparison: per workload, the baseline's and each variant's results.
#[derive(Clone, Debug, Serialize)]
pub struct RefComparison {
    /// What the numbers come from.
    pub model: &'static str,
    /// Input size tier.
    pub size: String,
    /// Baseline name.
    pub baseline: String,
    /// Variant names in order.
    pub variants: Vec<String>,
    /// Per workload, per run name (baseline and variants).
    pub workloads: BTreeMap<String, BTreeMap<String, RefResult>>,
    /// Geometric-mean speedup of each variant over the workloads.
    pub geomean_speedup: BTreeMap<String, f64>,
    /// Each variant's chip area against the baseline's (the configuration's, the same on every
    /// workload), when a technology point was given.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub area: BTreeMap<String, AreaCompare>,
}

fn one(
    v: &Variant,
    w: &dyn Workload,
    size: Size,
) -> anyhow::Result<(RefStats, sim::activity::Activity, f64)> {
    let t0 = Instant::now();
    let mut gpu = RefGpu::new(&v.config)?;
    w.run(size, &mut gpu, false)?;
    let wall = t0.elapsed().as_secs_f64();
    let stats = gpu.stats.clone();
    Ok((stats, gpu.into_activity(), wall))
}

/// Runs the baseline and every variant on every workload; `progress(done, what)` after each.
pub fn run(
    baseline: &Variant,
    variants: &[Variant],
    list: &[&dyn Workload],
    size: Size,
    hw: Option<&HwContext>,
    progress: &dyn Fn(usize, String),
) -> anyhow::Result<RefComparison> {
    let mut out = BTreeMap::new();
    let mut areas: BTreeMap<String, AreaCompare> = BTreeMap::new();
    let mut logs: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut done = 0usize;
    let runs: Vec<&Variant> = std::iter::once(baseline).chain(variants).collect();
    let costing: Vec<Option<Costing>> = match hw {
        Some(h) => runs
            .iter()
            .map(|v| {
                let study = h.study.variant(v.config.clone());
                let src = study.cost_source()?;
                let chip = study.chip(&src)?;
                Ok(Some(Costing { study, src, chip }))
            })
            .collect::<anyhow::Result<_>>()?,
        None => runs.iter().map(|_| None).collect(),
    };
    for w in list {
        let name = w.info().name;
        let mut per = BTreeMap::new();
        let mut base_cycles = 0u64;
        let mut base_run: Option<crate::study::WorkloadResult> = None;
        for (k, v) in runs.iter().enumerate() {
            progress(done, format!("{name}: {}", v.name));
            let (s, act, wall) = one(v, *w, size)
                .map_err(|e| anyhow::anyhow!("workload '{name}', run '{}': {e:#}", v.name))?;
            done += 1;
            if k == 0 {
                base_cycles = s.cycles;
            }
            let speedup = if s.cycles > 0 {
                base_cycles as f64 / s.cycles as f64
            } else {
                0.0
            };
            if k > 0 && speedup > 0.0 {
                logs.entry(v.name.clone()).or_default().push(speedup.ln());
            }
            let (energy, dwf_hardware, area) = match &costing[k] {
                Some(c) => {
                    let r = c
                        .study
                        .cost(&c.chip, &c.src.label, name, &act)
                        .map_err(|e| anyhow::anyhow!("workload '{name}', run '{}': {e}", v.name))?;
                    let base = base_run.get_or_insert_with(|| r.clone());
                    let ch = |x: f64, b: f64| if b > 0.0 { x / b - 1.0 } else { 0.0 };
                    let e = RefEnergy {
                        runtime_s: r.runtime_s,
                        energy_j: r.energy_j,
                        dynamic_j: r.dynamic_j,
                        leakage_j: r.leakage_j,
                        edp_js: r.edp_js,
                        energy_change: ch(r.energy_j, base.energy_j),
                        edp_change: ch(r.edp_js, base.edp_js),
                    };
                    let area = crate::compare::area_metrics(&r, base);
                    if k > 0 {
                        areas.entry(v.name.clone()).or_insert(area);
                    }
                    (Some(e), r.dwf().cloned(), Some(area))
                }
                None => (None, None, None),
            };
            per.insert(
                v.name.clone(),
                RefResult {
                    energy,
                    dwf_hardware,
                    area,
                    mode: v.config.reconv.mode.as_str().to_string(),
                    cycles: s.cycles,
                    speedup,
                    simd_efficiency: s.simd_efficiency(v.config.gpu.warp_size),
                    thread_insts_per_s: s.thread_insts as f64 / wall.max(1e-9),
                    stats: s,
                },
            );
        }
        out.insert(name.to_string(), per);
    }
    let geomean_speedup = logs
        .into_iter()
        .map(|(k, v)| (k, (v.iter().sum::<f64>() / v.len().max(1) as f64).exp()))
        .collect();
    Ok(RefComparison {
        model: "reference-mode model (control-flow spec 3.4, 4, 5; scheduler-level timing; \
                activity records costed by the chip model)",
        size: size.as_str().to_string(),
        baseline: baseline.name.clone(),
        variants: variants.iter().map(|v| v.name.clone()).collect(),
        workloads: out,
        geomean_speedup,
        area: areas,
    })
}

/// Text table: per workload, cycles and speedup of each run.
pub fn table(c: &RefComparison) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "{} ({} size)", c.model, c.size);
    let names: Vec<&String> = std::iter::once(&c.baseline).chain(&c.variants).collect();
    let _ = write!(s, "{:<14}", "workload");
    for n in &names {
        let _ = write!(s, " {:>22}", n);
    }
    let _ = writeln!(s);
    for (w, per) in &c.workloads {
        let _ = write!(s, "{w:<14}");
        for n in &names {
            match per.get(*n) {
                Some(r) => {
                    let _ = write!(
                        s,
                        " {:>10} x{:<5.3} e{:.2}",
                        r.cycles, r.speedup, r.simd_efficiency
                    );
                }
                None => {
                    let _ = write!(s, " {:>22}", "-");
                }
            }
        }
        let _ = writeln!(s);
    }
    for (n, g) in &c.geomean_speedup {
        let _ = writeln!(s, "geomean speedup of {n} over {}: {g:.3}", c.baseline);
    }
    let costed = c
        .workloads
        .values()
        .any(|per| per.values().any(|r| r.energy.is_some()));
    if costed {
        let _ = writeln!(s, "energy (uJ) and its change against {}:", c.baseline);
        let _ = write!(s, "{:<14}", "workload");
        for n in &names {
            let _ = write!(s, " {:>22}", n);
        }
        let _ = writeln!(s);
        let mut sums = vec![0.0f64; names.len()];
        for (w, per) in &c.workloads {
            let _ = write!(s, "{w:<14}");
            for (i, n) in names.iter().enumerate() {
                match per.get(*n).and_then(|r| r.energy.as_ref()) {
                    Some(e) => {
                        sums[i] += e.energy_j;
                        let _ = write!(
                            s,
                            " {:>13.3} {:>+7.2}%",
                            e.energy_j * 1e6,
                            100.0 * e.energy_change
                        );
                    }
                    None => {
                        let _ = write!(s, " {:>22}", "-");
                    }
                }
            }
            let _ = writeln!(s);
        }
        let _ = write!(s, "{:<14}", "sum");
        for x in &sums {
            let d = if sums[0] > 0.0 {
                x / sums[0] - 1.0
            } else {
                0.0
            };
            let _ = write!(s, " {:>13.3} {:>+7.2}%", x * 1e6, 100.0 * d);
        }
        let _ = writeln!(s);
    }
    if !c.area.is_empty() {
        let rows: Vec<crate::report::compare::AreaRow<'_>> = c
            .variants
            .iter()
            .filter_map(|n| {
                let area = c.area.get(n)?;
                let runs: Vec<&DwfHardware> = c
                    .workloads
                    .values()
                    .filter_map(|per| per.get(n).and_then(|r| r.dwf_hardware.as_ref()))
                    .collect();
                let detail = runs
                    .first()
                    .map(|h| {
                        let dyn_j: f64 = runs.iter().map(|h| h.dynamic_j).sum();
                        let leak_j: f64 = runs.iter().map(|h| h.leakage_j).sum();
                        vec![format!(
                            "DWF scheduler: {:.3} % of a {} mm2 die (dwf.die_area_mm2); PDOM \
                             stacks (line item, not subtracted) {:.4} mm2 per core; its \
                             structures over the {} workloads: dynamic {:.3e} J, leakage {:.3e} J",
                            100.0 * h.die_share,
                            h.die_area_mm2,
                            h.pdom_stacks_per_core_mm2,
                            runs.len(),
                            dyn_j,
                            leak_j
                        )]
                    })
                    .unwrap_or_default();
                Some(crate::report::compare::AreaRow {
                    name: n,
                    area,
                    detail,
                })
            })
            .collect();
        s.push('\n');
        s.push_str(&crate::report::compare::area_table(&rows));
    }
    let _ = writeln!(
        s,
        "(cycles, speedup over the baseline, SIMD efficiency e; energies are the chip model's \
         costing of each run's reference-mode activity record, DWF structures included)"
    );
    s
}
