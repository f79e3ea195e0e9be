//! `gpuenergy compare` for the reference modes of the control-flow spec (§3.4 MIMD and NREC,
//! §4–§5 dynamic warp formation): when the baseline or a variant sets `reconv.mode` to `dwf`,
//! `mimd` or `nrec`, every run goes to the reference-mode model
//! (`sim::timing::dwf::refmodel`), the baseline included (a PDOM baseline runs there under the
//! same scheduler-level timing), so that cycles compare like for like. That model writes no
//! activity record, so this comparison reports cycles, speedups, SIMD efficiency, the DWF
//! structure counters and the simulation rate, and not the chip's energy. A DWF run's own
//! hardware is costed at the comparison's technology point ([`crate::dwfcost`]): its area per
//! core and chip, and its structures' dynamic and leakage energy over the run.

use crate::compare::Variant;
use crate::dwfcost::{self, DwfHardware};
use models::gpu::TechCostSource;
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
    /// The DWF scheduler's hardware (DWF runs, when a technology point was given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dwf_hardware: Option<DwfHardware>,
}

/// The technology point the DWF hardware is costed at.
pub struct HwContext {
    /// Cost source at the study's technology point.
    pub src: TechCostSource,
    /// Its label.
    pub tech: String,
    /// The chip model's core clock at that point, Hz.
    pub core_clock_hz: f64,
    /// Area of one core (SM) in the chip model, mm².
    pub core_area_mm2: f64,
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
}

fn one(v: &Variant, w: &dyn Workload, size: Size) -> anyhow::Result<(RefStats, f64)> {
    let t0 = Instant::now();
    let mut gpu = RefGpu::new(&v.config)?;
    w.run(size, &mut gpu, false)?;
    Ok((gpu.stats, t0.elapsed().as_secs_f64()))
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
    let mut logs: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut done = 0usize;
    for w in list {
        let name = w.info().name;
        let mut per = BTreeMap::new();
        let mut base_cycles = 0u64;
        for (k, v) in std::iter::once(baseline).chain(variants).enumerate() {
            progress(done, format!("{name}: {}", v.name));
            let (s, wall) = one(v, *w, size)
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
            let dwf_hardware = match hw {
                Some(h) if v.config.reconv.mode == ReconvMode::Dwf => Some(
                    dwfcost::cost(
                        &v.config,
                        &s,
                        &h.src,
                        &h.tech,
                        h.core_clock_hz,
                        h.core_area_mm2,
                    )
                    .map_err(|e| anyhow::anyhow!("run '{}': DWF hardware: {e}", v.name))?,
                ),
                _ => None,
            };
            per.insert(
                v.name.clone(),
                RefResult {
                    dwf_hardware,
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
                the chip's energy not estimated, the DWF structures costed)",
        size: size.as_str().to_string(),
        baseline: baseline.name.clone(),
        variants: variants.iter().map(|v| v.name.clone()).collect(),
        workloads: out,
        geomean_speedup,
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
    for n in &c.variants {
        let runs: Vec<&DwfHardware> = c
            .workloads
            .values()
            .filter_map(|per| per.get(n).and_then(|r| r.dwf_hardware.as_ref()))
            .collect();
        let Some(h) = runs.first() else { continue };
        let _ = writeln!(
            s,
            "DWF hardware of {n} at {}: {:.4} mm2 per core ({:.2} % of a {:.3} mm2 core), \
             {:.3} mm2 over {} cores ({:.3} % of a {} mm2 die); leakage {:.3e} W per core; \
             PDOM stacks (line item) {:.4} mm2 per core",
            h.tech,
            h.area_per_core_mm2,
            100.0 * h.core_share,
            h.core_area_mm2,
            h.area_chip_mm2,
            h.cores,
            100.0 * h.die_share,
            h.die_area_mm2,
            h.leakage_per_core_w,
            h.pdom_stacks_per_core_mm2
        );
        let dyn_j: f64 = runs.iter().map(|h| h.dynamic_j).sum();
        let leak_j: f64 = runs.iter().map(|h| h.leakage_j).sum();
        let _ = writeln!(
            s,
            "  its structures over the {} workloads: dynamic {:.3e} J, leakage {:.3e} J",
            runs.len(),
            dyn_j,
            leak_j
        );
    }
    let _ = writeln!(
        s,
        "(cycles, speedup over the baseline, SIMD efficiency e; the chip's energy is not \
         estimated for reference-mode runs, only the DWF structures')"
    );
    s
}
