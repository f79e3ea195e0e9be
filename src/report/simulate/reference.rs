//! The summaries of a reference-mode run (`reconv.mode` = dwf, mimd or nrec; control-flow spec
//! §3.4, §4, §5, §6) and of the PDOM baseline under the same model, as JSON and as a table.

use sim::config::GpuConfig;

/// Labels of the SIMD-efficiency buckets of the reference-mode model (control-flow spec §6).
const REF_BUCKETS: [&str; 9] = [
    "W0", "W1-4", "W5-8", "W9-12", "W13-16", "W17-20", "W21-24", "W25-28", "W29-32",
];

fn ref_mode_label(cfg: &GpuConfig) -> String {
    use sim::config::reconv::ReconvMode;
    let d = &cfg.dwf;
    match cfg.reconv.mode {
        ReconvMode::Dwf => format!(
            "dwf (policy {}, {}, swizzle {}, {})",
            d.policy.as_str(),
            if d.lane_aware {
                "lane-aware"
            } else {
                "not lane-aware"
            },
            if d.swizzle { "on" } else { "off" },
            if d.infinite_resources {
                "infinite resources"
            } else {
                "finite structures"
            }
        ),
        m => m.as_str().to_string(),
    }
}

/// JSON summary of a reference-mode run (`reconv.mode` = dwf, mimd or nrec) and of the PDOM
/// baseline under the same model: cycles, issues, thread instructions, SIMD efficiency and
/// buckets, DWF structure counters, simulation rate.
pub fn reference_json(
    cfg: &GpuConfig,
    workload: &str,
    size: &str,
    s: &sim::timing::dwf::refmodel::RefStats,
    base: &sim::timing::dwf::refmodel::RefStats,
    wall_s: f64,
) -> serde_json::Value {
    let w = cfg.gpu.warp_size;
    serde_json::json!({
        "model": "reference-mode (control-flow spec 3.4, 4, 5; scheduler-level timing)",
        "preset": cfg.gpu.name,
        "workload": workload,
        "size": size,
        "mode": cfg.reconv.mode.as_str(),
        "dwf_policy": cfg.dwf.policy.as_str(),
        "cycles": s.cycles,
        "pdom_cycles": base.cycles,
        "speedup_vs_pdom": if s.cycles > 0 { base.cycles as f64 / s.cycles as f64 } else { 0.0 },
        "warp_issues": s.warp_issues,
        "thread_insts": s.thread_insts,
        "simd_efficiency": s.simd_efficiency(w),
        "pdom_simd_efficiency": base.simd_efficiency(w),
        "issue_slots": s.simd_buckets,
        "w0_split": s.w0,
        "bank_conflict_stall_cycles": s.bank_conflict_stall_cycles,
        "occupancy": s.occupancy.as_ref().map(occupancy_json),
        "fairness": {
            "threads": s.fairness.threads,
            "max_wait_cycles": s.fairness.max_wait_cycles,
            "mean_max_wait_cycles": s.fairness.mean_max_wait_cycles(),
            "max_wait_log2_hist": s.fairness.max_wait_log2_hist,
            "insts_per_thread": {
                "min": s.fairness.insts_min,
                "mean": s.fairness.mean_insts(),
                "max": s.fairness.insts_max,
            },
        },
        "formation": s.formation,
        "majority": s.majority,
        "wall_s": wall_s,
        "thread_insts_per_s": s.thread_insts as f64 / wall_s.max(1e-9),
    })
}

/// The DWF occupancy histograms with their CDFs, means and maxima.
fn occupancy_json(o: &sim::timing::dwf::refmodel::DwfOccupancy) -> serde_json::Value {
    use sim::timing::dwf::refmodel::DwfOccupancy;
    let one = |h: &[u64]| {
        serde_json::json!({
            "histogram": h,
            "cdf": DwfOccupancy::cdf(h),
            "mean": DwfOccupancy::mean(h),
            "max": h.iter().rposition(|&n| n > 0).unwrap_or(0),
        })
    };
    serde_json::json!({
        "samples": "one per core and scheduler cycle; element k = cycles with k live entries",
        "pool_entries": one(&o.pool),
        "heap_entries": one(&o.heap),
        "pc_lut_entries": one(&o.lut),
    })
}

/// Table summary of a reference-mode run and of the PDOM baseline under the same model.
pub fn reference_table(
    cfg: &GpuConfig,
    workload: &str,
    size: &str,
    s: &sim::timing::dwf::refmodel::RefStats,
    base: &sim::timing::dwf::refmodel::RefStats,
    wall_s: f64,
) -> String {
    use std::fmt::Write;
    let w = cfg.gpu.warp_size;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{workload} ({size}) on {}: reference-mode model (scheduler-level timing, control-flow \
         spec 3.4, 4, 5), mode {}",
        cfg.gpu.name,
        ref_mode_label(cfg)
    );
    let sp = if s.cycles > 0 {
        base.cycles as f64 / s.cycles as f64
    } else {
        0.0
    };
    let _ = writeln!(
        o,
        "cycles: {}  (pdom in the same model: {}, speedup {sp:.3})",
        s.cycles, base.cycles
    );
    let _ = writeln!(
        o,
        "warp issues: {}  thread insts: {}  SIMD efficiency: {:.3} (pdom {:.3})",
        s.warp_issues,
        s.thread_insts,
        s.simd_efficiency(w),
        base.simd_efficiency(w)
    );
    let b: Vec<String> = REF_BUCKETS
        .iter()
        .zip(s.simd_buckets)
        .map(|(l, n)| format!("{l} {n}"))
        .collect();
    let _ = writeln!(o, "issue slots: {}", b.join(", "));
    let _ = writeln!(
        o,
        "W0 slots: mem {} (every thread waits on memory), idle {} (none ready), stall {} \
         (issue port held by a bank-conflict stall), empty {} (no CTA on the core)",
        s.w0.mem, s.w0.idle, s.w0.stall, s.w0.empty
    );
    if s.bank_conflict_stall_cycles > 0 || !cfg.dwf.lane_aware {
        let _ = writeln!(
            o,
            "register-bank conflict stall cycles: {}",
            s.bank_conflict_stall_cycles
        );
    }
    if let Some(f) = &s.formation {
        let _ = writeln!(
            o,
            "DWF formation: PC-warp LUT lookups {} (hits {}, misses {}), new-warp events {}, \
             allocator pops {} pushes {}, PC-bank writes {}, TID-bank writes {}, pool_full_stall \
             {}, max pool occupancy {}",
            f.lut_lookups,
            f.lut_hits,
            f.lut_misses,
            f.new_warp_events,
            f.alloc_pops,
            f.alloc_pushes,
            f.pc_bank_writes,
            f.tid_bank_writes.iter().sum::<u64>(),
            f.pool_full_stall,
            f.max_pool_occupancy
        );
    }
    let f = &s.fairness;
    let _ = writeln!(
        o,
        "fairness: {} threads, longest wait between two issues of a thread {} cycles (mean of \
         the per-thread maxima {:.0}), instructions per thread {} / {:.1} / {} (min / mean / max)",
        f.threads,
        f.max_wait_cycles,
        f.mean_max_wait_cycles(),
        f.insts_min,
        f.mean_insts(),
        f.insts_max
    );
    if let Some(oc) = &s.occupancy {
        use sim::timing::dwf::refmodel::DwfOccupancy;
        let m = |h: &[u64]| {
            format!(
                "mean {:.1} max {}",
                DwfOccupancy::mean(h),
                h.iter().rposition(|&n| n > 0).unwrap_or(0)
            )
        };
        let _ = writeln!(
            o,
            "DWF occupancy per core-cycle: pool {}, PC-warp LUT {}{}",
            m(&oc.pool),
            m(&oc.lut),
            if oc.heap.is_empty() {
                String::new()
            } else {
                format!(", heap {}", m(&oc.heap))
            }
        );
    }
    if let Some(m) = &s.majority {
        let _ = writeln!(
            o,
            "DWF majority: MHeap LUT lookups {} writes {}, heap reads {} writes {} swaps {} \
             (sift-up {}, sift-down {}, longest {}), heap_rebalance_stall {}, heap_overflow {}, \
             max live heap entries {}",
            m.mheap_lut_lookups,
            m.mheap_lut_writes,
            m.heap_reads,
            m.heap_writes,
            m.heap_swaps,
            m.sift_up_swaps,
            m.sift_down_swaps,
            m.max_sift,
            m.heap_rebalance_stall,
            m.heap_overflow,
            m.max_heap_live
        );
    }
    let _ = writeln!(
        o,
        "simulation: {wall_s:.2} s, {:.0} thread insts/s",
        s.thread_insts as f64 / wall_s.max(1e-9)
    );
    o
}
