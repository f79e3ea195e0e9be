//! The register-file characterisation of `gpuenergy rfstats` (register-file spec §9
//! "Characterisation", no technique needed), computed from a run's per-register record
//! ([`sim::activity::RegisterStats`], `stats.per_register`), and its table, JSON, CSV and plots.
//!
//! Metrics, per workload (all kernels) and per kernel:
//! - allocated-register fraction (spec §2.6): allocated register-cycles over all SMs' register
//!   files for the run, and its complement;
//! - register inter-access distance (cycles between consecutive accesses of one allocated
//!   entry): log2 histogram and mean, over all distances and over those ≤
//!   `metrics.interaccess_cutoff`;
//! - active lanes per issued warp instruction in the bins 1–4 … 25–32, the mean SIMD
//!   utilisation, and the class: Cat 1 = every instruction has 32 active lanes, Cat 2 = mean
//!   utilisation ≥ 90 %, Cat 3 = below 90 %;
//! - the share of all register accesses (reads + writes of the general registers, all warps)
//!   that go to the top 3, 4 and 5 registers of the oracle ranking (most accessed first, ties to
//!   the lower id, spec §12 #11);
//! - pilot representativeness: the normalised per-register count difference
//!   `Σ_r |p_r − q_r| / Σ_r p_r` between the mean pilot warp `p` (one pilot per SM and kernel
//!   launch, the partitioned register file's rule) and the mean warp `q` of the pilots' CTAs
//!   and of the other CTAs; the sorted-order agreement, the share of register pairs that the
//!   pilot and the oracle rank the same way (concordant / (concordant + discordant), ties left
//!   out: Kendall's concordance); the share of all accesses captured by the pilot's top n
//!   registers vs the oracle's top n (n = `prf.n_fast`);
//! - the static first-n share (R0 … R(n−1)) vs the profiled (oracle) top-n share.

use super::plot;
use serde::Serialize;
use sim::activity::{Activity, KernelActivity, Log2Hist, RegisterStats, ACTIVE_LANE_BINS};
use sim::config::GpuConfig;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// General registers per thread (the predicates follow them in the per-register vectors).
const GENERAL_REGS: usize = 256;

/// One bin of a log2 histogram: values in `lo..=hi`.
#[derive(Clone, Debug, Serialize)]
pub struct HistBin {
    /// Smallest value of the bin.
    pub lo: u64,
    /// Largest value of the bin.
    pub hi: u64,
    /// Values recorded in the bin.
    pub count: u64,
}

/// Inter-access distances (cycles).
#[derive(Clone, Debug, Serialize)]
pub struct InterAccess {
    /// `metrics.interaccess_cutoff`, cycles.
    pub cutoff_cycles: u64,
    /// Distances recorded.
    pub count: u64,
    /// Their mean, cycles (`None` without distances).
    pub mean_cycles: Option<f64>,
    /// Distances ≤ the cutoff.
    pub count_within_cutoff: u64,
    /// Their mean, cycles.
    pub mean_within_cutoff_cycles: Option<f64>,
    /// The log2 histogram of every distance.
    pub histogram: Vec<HistBin>,
    /// The log2 histogram of the distances ≤ the cutoff.
    pub histogram_within_cutoff: Vec<HistBin>,
}

/// Active lanes per issued warp instruction.
#[derive(Clone, Debug, Serialize)]
pub struct ActiveLanes {
    /// Bin labels ("1-4" … "25-32").
    pub bins: Vec<String>,
    /// Instructions per bin.
    pub insts: Vec<u64>,
    /// Instructions with no active lane.
    pub masked_off_insts: u64,
    /// Instructions with all 32 lanes active.
    pub full_warp_insts: u64,
    /// Mean active lanes / 32 over the issued instructions.
    pub mean_utilisation: f64,
    /// "Cat 1", "Cat 2" or "Cat 3".
    pub category: String,
}

/// Pilot representativeness of one kernel.
#[derive(Clone, Debug, Serialize)]
pub struct PilotRep {
    /// Pilot warps profiled (one per SM and kernel launch).
    pub pilots: u64,
    /// Normalised per-register count difference vs the mean warp of the pilots' CTAs (`None`
    /// without such warps).
    pub diff_same_cta: Option<f64>,
    /// The same vs the mean warp of the other CTAs.
    pub diff_other_cta: Option<f64>,
    /// Share of register pairs the pilot orders as the oracle does.
    pub order_agreement: Option<f64>,
    /// n = `prf.n_fast`.
    pub n: usize,
    /// The pilot's top-n registers.
    pub pilot_top: Vec<usize>,
    /// Share of all accesses to the pilot's top n.
    pub pilot_top_n_share: f64,
}

/// The register-access metrics of one kernel (or of all kernels).
#[derive(Clone, Debug, Serialize)]
pub struct KernelRegs {
    /// Kernel name ("all" for every kernel together).
    pub kernel: String,
    /// Register accesses (reads + writes of the general registers, all warps).
    pub accesses: u64,
    /// Share of the accesses to the top 3, 4 and 5 registers (oracle ranking).
    pub top_shares: [f64; 3],
    /// The oracle ranking's top n registers.
    pub oracle_top: Vec<usize>,
    /// Share of the accesses to the oracle's top n (the profiled top-n share).
    pub oracle_top_n_share: f64,
    /// Share of the accesses to R0 … R(n−1).
    pub static_first_n_share: f64,
    /// Pilot representativeness (`None` when no pilot was profiled).
    pub pilot: Option<PilotRep>,
}

/// The characterisation of one workload.
#[derive(Clone, Debug, Serialize)]
pub struct RfCharacter {
    /// Workload name.
    pub workload: String,
    /// `gpu.name` of the configuration.
    pub gpu: String,
    /// Cycles of the run.
    pub cycles: u64,
    /// Warp instructions issued.
    pub warp_insts: u64,
    /// A launch was stopped early by `sim.max_cycles` or `sim.max_warp_insts`: the statistics
    /// cover only the simulated part.
    pub truncated: bool,
    /// Allocated-register fraction (time average over every SM's register file).
    pub allocated_fraction: f64,
    /// 1 − the allocated fraction.
    pub unallocated_fraction: f64,
    /// Inter-access distances.
    pub inter_access: InterAccess,
    /// Active lanes per issued warp instruction.
    pub active_lanes: ActiveLanes,
    /// All kernels together, then each kernel in order of first launch.
    pub kernels: Vec<KernelRegs>,
}

fn bins(h: &Log2Hist) -> Vec<HistBin> {
    let last = h.counts.iter().rposition(|&c| c > 0);
    let Some(last) = last else {
        return Vec::new();
    };
    (0..=last)
        .map(|k| {
            let (lo, hi) = if k == 0 {
                (0, 0)
            } else {
                (
                    1u64 << (k - 1),
                    if k == 64 { u64::MAX } else { (1u64 << k) - 1 },
                )
            };
            HistBin {
                lo,
                hi,
                count: h.counts[k],
            }
        })
        .collect()
}

fn mean(sum: u64, n: u64) -> Option<f64> {
    (n > 0).then(|| sum as f64 / n as f64)
}

/// Registers ranked by `counts` (most first, ties to the lower id), the first `n`.
fn top(counts: &[f64], n: usize) -> Vec<usize> {
    let mut ids: Vec<usize> = (0..counts.len()).collect();
    ids.sort_by(|&a, &b| counts[b].total_cmp(&counts[a]).then(a.cmp(&b)));
    ids.truncate(n);
    ids
}

fn share(total: &[f64], ids: &[usize]) -> f64 {
    let t: f64 = total.iter().sum();
    if t > 0.0 {
        ids.iter().map(|&i| total[i]).sum::<f64>() / t
    } else {
        0.0
    }
}

fn general(v: &[u64]) -> Vec<f64> {
    (0..GENERAL_REGS)
        .map(|i| v.get(i).copied().unwrap_or(0) as f64)
        .collect()
}

/// Normalised L1 difference Σ|p − q| / Σp of two per-warp mean vectors.
fn l1_diff(p: &[f64], q: &[f64]) -> Option<f64> {
    let sp: f64 = p.iter().sum();
    (sp > 0.0).then(|| p.iter().zip(q).map(|(a, b)| (a - b).abs()).sum::<f64>() / sp)
}

/// Kendall concordance of the orders of `a` and `b` over the registers either accesses.
fn concordance(a: &[f64], b: &[f64]) -> Option<f64> {
    let used: Vec<usize> = (0..a.len()).filter(|&i| a[i] > 0.0 || b[i] > 0.0).collect();
    let (mut c, mut d) = (0u64, 0u64);
    for (x, &i) in used.iter().enumerate() {
        for &j in &used[x + 1..] {
            let s = (a[i] - a[j]) * (b[i] - b[j]);
            if s > 0.0 {
                c += 1;
            } else if s < 0.0 {
                d += 1;
            }
        }
    }
    (c + d > 0).then(|| c as f64 / (c + d) as f64)
}

fn kernel_regs(name: &str, r: &RegisterStats, n: usize) -> KernelRegs {
    let total: Vec<f64> = (0..GENERAL_REGS)
        .map(|i| {
            (r.reads.get(i).copied().unwrap_or(0) + r.writes.get(i).copied().unwrap_or(0)) as f64
        })
        .collect();
    let accesses = total.iter().sum::<f64>() as u64;
    let top_shares = [3, 4, 5].map(|k| share(&total, &top(&total, k)));
    let oracle_top = top(&total, n);
    let first_n: Vec<usize> = (0..n.min(GENERAL_REGS)).collect();
    let pilot = (r.profiled_pilots > 0).then(|| {
        let per = |v: &[u64], warps: u64| -> Option<Vec<f64>> {
            (warps > 0).then(|| general(v).iter().map(|x| x / warps as f64).collect())
        };
        let p = per(&r.profiled_pilot_counts, r.profiled_pilots).unwrap_or_default();
        let same = per(&r.pilot_cta_counts, r.pilot_cta_warps);
        let other = per(&r.other_cta_counts, r.other_cta_warps);
        let pilot_top = top(&p, n);
        PilotRep {
            pilots: r.profiled_pilots,
            diff_same_cta: same.and_then(|q| l1_diff(&p, &q)),
            diff_other_cta: other.and_then(|q| l1_diff(&p, &q)),
            order_agreement: concordance(&p, &total),
            n,
            pilot_top_n_share: share(&total, &pilot_top),
            pilot_top,
        }
    });
    KernelRegs {
        kernel: name.to_string(),
        accesses,
        top_shares,
        oracle_top_n_share: share(&total, &oracle_top),
        oracle_top,
        static_first_n_share: share(&total, &first_n),
        pilot,
    }
}

/// The characterisation of workload `name` from its Activity `act` on `cfg` (which must have
/// recorded `stats.per_register`).
pub fn characterise(name: &str, cfg: &GpuConfig, act: &Activity) -> anyhow::Result<RfCharacter> {
    let a: &KernelActivity = &act.aggregate;
    let r = a.per_register.as_ref().ok_or_else(|| {
        anyhow::anyhow!("{name}: the run recorded no per-register statistics (stats.per_register)")
    })?;
    let n = cfg.prf.n_fast as usize;
    let denom = a.cycles as f64 * cfg.gpu.n_sm as f64 * cfg.sm.n_registers as f64;
    let allocated = if denom > 0.0 {
        a.occupancy.allocated_reg_cycles as f64 / denom
    } else {
        0.0
    };
    let w = r.inter_access_within_cutoff.clone();
    let util = if a.warp_insts > 0 {
        a.thread_insts as f64 / (32.0 * a.warp_insts as f64)
    } else {
        0.0
    };
    let category = if a.warp_insts > 0 && r.full_warp_insts == a.warp_insts {
        "Cat 1"
    } else if util >= 0.90 {
        "Cat 2"
    } else {
        "Cat 3"
    };
    let mut lo = 1;
    let labels = ACTIVE_LANE_BINS
        .iter()
        .map(|&hi| {
            let l = format!("{lo}-{hi}");
            lo = hi + 1;
            l
        })
        .collect();
    let mut kernels = vec![kernel_regs("all", r, n)];
    for k in &act.kernels {
        if let Some(kr) = &k.per_register {
            kernels.push(kernel_regs(&k.name, kr, n));
        }
    }
    Ok(RfCharacter {
        workload: name.to_string(),
        gpu: cfg.gpu.name.clone(),
        cycles: a.cycles,
        warp_insts: a.warp_insts,
        truncated: act.is_truncated(),
        allocated_fraction: allocated,
        unallocated_fraction: 1.0 - allocated,
        inter_access: InterAccess {
            cutoff_cycles: r.interaccess_cutoff,
            count: r.inter_access.count,
            mean_cycles: mean(r.inter_access.sum, r.inter_access.count),
            count_within_cutoff: w.count,
            mean_within_cutoff_cycles: mean(w.sum, w.count),
            histogram: bins(&r.inter_access),
            histogram_within_cutoff: bins(&w),
        },
        active_lanes: ActiveLanes {
            bins: labels,
            insts: r.active_lane_insts.clone(),
            masked_off_insts: r.masked_off_insts,
            full_warp_insts: r.full_warp_insts,
            mean_utilisation: util,
            category: category.to_string(),
        },
        kernels,
    })
}

fn pct(v: Option<f64>) -> String {
    v.map_or("-".into(), |x| format!("{:.1}%", 100.0 * x))
}

fn num(v: Option<f64>) -> String {
    v.map_or("-".into(), |x| format!("{x:.1}"))
}

/// The fixed-width text of every workload's characterisation.
pub fn table(rows: &[RfCharacter]) -> String {
    let mut s = String::new();
    for c in rows {
        let _ = writeln!(
            s,
            "{} on {}: {} cycles, {} warp insts{}",
            c.workload,
            c.gpu,
            c.cycles,
            c.warp_insts,
            if c.truncated {
                " (TRUNCATED: stopped early by sim.max_cycles or sim.max_warp_insts; the \
                 statistics cover only the simulated part)"
            } else {
                ""
            }
        );
        let _ = writeln!(
            s,
            "  allocated registers {:.1}%, unallocated {:.1}%",
            100.0 * c.allocated_fraction,
            100.0 * c.unallocated_fraction
        );
        let ia = &c.inter_access;
        let _ = writeln!(
            s,
            "  inter-access distance: mean {} cycles over {} distances; within {} cycles: mean {} \
             over {}",
            num(ia.mean_cycles),
            ia.count,
            ia.cutoff_cycles,
            num(ia.mean_within_cutoff_cycles),
            ia.count_within_cutoff
        );
        let _ = write!(s, "    histogram (cycles: count):");
        for b in &ia.histogram {
            let _ = write!(s, " {}-{}: {}", b.lo, b.hi, b.count);
        }
        let _ = writeln!(s);
        let al = &c.active_lanes;
        let _ = write!(s, "  active lanes per warp inst:");
        for (l, n) in al.bins.iter().zip(&al.insts) {
            let _ = write!(s, " {l}: {n}");
        }
        let _ = writeln!(
            s,
            "; none: {}; utilisation {:.1}% ({})",
            al.masked_off_insts,
            100.0 * al.mean_utilisation,
            al.category
        );
        let _ = writeln!(
            s,
            "  {:<24} {:>12} {:>7} {:>7} {:>7} {:>10} {:>10} {:>10} {:>9} {:>9} {:>9}",
            "kernel",
            "accesses",
            "top3",
            "top4",
            "top5",
            "oracle-n",
            "static-n",
            "pilot-n",
            "d(CTA)",
            "d(other)",
            "order"
        );
        for k in &c.kernels {
            let p = k.pilot.as_ref();
            let _ = writeln!(
                s,
                "  {:<24} {:>12} {:>6.1}% {:>6.1}% {:>6.1}% {:>9.1}% {:>9.1}% {:>10} {:>9} {:>9} {:>9}",
                k.kernel,
                k.accesses,
                100.0 * k.top_shares[0],
                100.0 * k.top_shares[1],
                100.0 * k.top_shares[2],
                100.0 * k.oracle_top_n_share,
                100.0 * k.static_first_n_share,
                pct(p.map(|p| p.pilot_top_n_share)),
                pct(p.and_then(|p| p.diff_same_cta)),
                pct(p.and_then(|p| p.diff_other_cta)),
                pct(p.and_then(|p| p.order_agreement)),
            );
        }
    }
    if let Some(c) = rows.first() {
        let n = c
            .kernels
            .first()
            .map_or(0, |k| k.pilot.as_ref().map_or(k.oracle_top.len(), |p| p.n));
        let _ = writeln!(
            s,
            "(n = prf.n_fast = {n}; oracle-n / static-n / pilot-n: share of all accesses to the \
             oracle's top n, to R0..R(n-1), to the pilot's top n; d: normalised per-register \
             count difference of the pilot vs its CTA's other warps and vs other CTAs' warps; \
             order: share of register pairs the pilot orders as the oracle)"
        );
    }
    s
}

/// Long-form CSV: `workload,kernel,metric,value`, one row per scalar and histogram bin.
pub fn csv(rows: &[RfCharacter]) -> String {
    let mut s = String::from("workload,kernel,metric,value\n");
    let mut row = |w: &str, k: &str, m: &str, v: String| {
        let _ = writeln!(s, "{w},{k},{m},{v}");
    };
    let opt = |v: Option<f64>| v.map_or(String::new(), |x| format!("{x}"));
    for c in rows {
        let w = c.workload.as_str();
        row(w, "all", "cycles", c.cycles.to_string());
        row(w, "all", "warp_insts", c.warp_insts.to_string());
        row(w, "all", "truncated", c.truncated.to_string());
        row(
            w,
            "all",
            "allocated_fraction",
            c.allocated_fraction.to_string(),
        );
        row(
            w,
            "all",
            "unallocated_fraction",
            c.unallocated_fraction.to_string(),
        );
        let ia = &c.inter_access;
        row(
            w,
            "all",
            "interaccess_cutoff_cycles",
            ia.cutoff_cycles.to_string(),
        );
        row(w, "all", "interaccess_count", ia.count.to_string());
        row(w, "all", "interaccess_mean_cycles", opt(ia.mean_cycles));
        row(
            w,
            "all",
            "interaccess_within_cutoff_count",
            ia.count_within_cutoff.to_string(),
        );
        row(
            w,
            "all",
            "interaccess_within_cutoff_mean_cycles",
            opt(ia.mean_within_cutoff_cycles),
        );
        for b in &ia.histogram {
            row(
                w,
                "all",
                &format!("interaccess_hist_{}_{}", b.lo, b.hi),
                b.count.to_string(),
            );
        }
        for b in &ia.histogram_within_cutoff {
            row(
                w,
                "all",
                &format!("interaccess_within_cutoff_hist_{}_{}", b.lo, b.hi),
                b.count.to_string(),
            );
        }
        let al = &c.active_lanes;
        for (l, n) in al.bins.iter().zip(&al.insts) {
            row(w, "all", &format!("active_lanes_{l}"), n.to_string());
        }
        row(
            w,
            "all",
            "masked_off_insts",
            al.masked_off_insts.to_string(),
        );
        row(w, "all", "full_warp_insts", al.full_warp_insts.to_string());
        row(
            w,
            "all",
            "mean_utilisation",
            al.mean_utilisation.to_string(),
        );
        row(w, "all", "category", al.category.clone());
        for k in &c.kernels {
            let kn = k.kernel.as_str();
            row(w, kn, "accesses", k.accesses.to_string());
            for (i, n) in [3, 4, 5].iter().enumerate() {
                row(w, kn, &format!("top{n}_share"), k.top_shares[i].to_string());
            }
            row(
                w,
                kn,
                "oracle_top_n_share",
                k.oracle_top_n_share.to_string(),
            );
            row(
                w,
                kn,
                "static_first_n_share",
                k.static_first_n_share.to_string(),
            );
            if let Some(p) = &k.pilot {
                row(w, kn, "pilots", p.pilots.to_string());
                row(w, kn, "pilot_top_n_share", p.pilot_top_n_share.to_string());
                row(w, kn, "pilot_diff_same_cta", opt(p.diff_same_cta));
                row(w, kn, "pilot_diff_other_cta", opt(p.diff_other_cta));
                row(w, kn, "pilot_order_agreement", opt(p.order_agreement));
            }
        }
    }
    s
}

/// Writes per workload `<workload>_active_lanes.svg` and `<workload>_interaccess.svg` into
/// `dir`, each title ending with `context` (what produced the run: configuration, size,
/// version); returns the files written.
pub fn plots(dir: &Path, rows: &[RfCharacter], context: &str) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut out = Vec::new();
    for c in rows {
        let p = dir.join(format!("{}_active_lanes.svg", c.workload));
        let al = &c.active_lanes;
        plot::bar_chart(
            &p,
            &format!(
                "{}: active lanes per issued warp instruction — {context}",
                c.workload
            ),
            "active lanes",
            "warp instructions (count)",
            &al.bins,
            &al.insts.iter().map(|&v| v as f64).collect::<Vec<_>>(),
        )?;
        out.push(p);
        let p = dir.join(format!("{}_interaccess.svg", c.workload));
        let h = &c.inter_access.histogram;
        plot::bar_chart(
            &p,
            &format!("{}: register inter-access distance — {context}", c.workload),
            "distance (cycles)",
            "distances (count)",
            &h.iter()
                .map(|b| format!("{}-{}", b.lo, b.hi))
                .collect::<Vec<_>>(),
            &h.iter().map(|b| b.count as f64).collect::<Vec<_>>(),
        )?;
        out.push(p);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranking_breaks_ties_to_the_lower_id_and_concordance_counts_pairs() {
        assert_eq!(top(&[1.0, 3.0, 3.0, 0.0], 2), vec![1, 2]);
        assert_eq!(share(&[1.0, 3.0, 3.0, 1.0], &[1, 2]), 0.75);
        assert_eq!(
            concordance(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]),
            Some(1.0)
        );
        assert_eq!(
            concordance(&[1.0, 2.0, 3.0], &[30.0, 20.0, 10.0]),
            Some(0.0)
        );
        assert_eq!(l1_diff(&[2.0, 2.0], &[1.0, 3.0]), Some(0.5));
    }
}
