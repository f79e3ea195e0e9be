//! The per-technique sections of `gpuenergy simulate`'s text summary: the partitioned register
//! file, reconvergence and the register file's event counters (an out-of-order issue
//! stage's section is its record's, `sim::activity::IssueStageCounters`).

use sim::activity::RfStats;

/// The partitioned-register-file section of the text summary (register-file spec §5.8): where
/// the accesses went, the FRF_low share of time, the pilot's share and the overhead events of
/// the swap table, the adaptive FRF and the RF cache.
pub(super) fn prf_table(p: &sim::activity::PrfRecord) -> String {
    use sim::activity::rfevents::Part;
    use std::fmt::Write;
    let mut s = String::new();
    let org = match (p.enabled, p.rfc) {
        (true, _) => format!(
            "partitioned (FRF {} regs/thread, SRF latency {} cycles)",
            p.n_fast, p.srf_latency_cycles
        ),
        (false, true) => "MRF behind an RF cache".to_string(),
        (false, false) => "MRF".to_string(),
    };
    let _ = writeln!(s, "Register file organisation: {org}");
    let ev = &p.events;
    let total: u64 = ev.accesses.iter().map(|a| a[0] + a[1]).sum();
    let share = |n: u64, d: u64| {
        if d > 0 {
            100.0 * n as f64 / d as f64
        } else {
            0.0
        }
    };
    for part in Part::ALL {
        let [r, w] = ev.accesses[part.index()];
        if r + w == 0 {
            continue;
        }
        let _ = writeln!(
            s,
            "  {:<9} reads {:>14}  writes {:>14}  {:>5.1}% of accesses",
            format!("{part:?}"),
            r,
            w,
            share(r + w, total)
        );
    }
    if p.enabled {
        let _ = writeln!(
            s,
            "  FRF_low {:.1}% of SM-cycles  epochs {} ({} low)  mode switches {}  pilot {:.1}% of \
             SM-cycles",
            share(p.frf_low_cycles, p.sm_cycles),
            p.epochs,
            p.epochs_low,
            p.mode_switches,
            share(p.pilot_cycles, p.sm_cycles)
        );
        let _ = writeln!(
            s,
            "  swap lookups {}  pilot counter increments {}  sorts {}  table writes {}  \
             unprofiled kernels {}",
            ev.swap_lookups,
            ev.pilot_counter_increments,
            ev.sorts,
            ev.table_writes,
            ev.kernels_unprofiled
        );
    }
    if p.rfc {
        let reads = ev.rfc_read_hits + ev.rfc_read_misses;
        let _ = writeln!(
            s,
            "  RFC read hits {} ({:.1}%)  writes {}  write-backs {} evicted + {} flushed  \
             dead drops {}  RFC port conflicts {} ({} write)  write-back MRF-bank conflicts {}",
            ev.rfc_read_hits,
            share(ev.rfc_read_hits, reads),
            ev.rfc_writes,
            ev.rfc_eviction_writebacks,
            ev.rfc_flush_writebacks,
            ev.rfc_dead_drops,
            ev.rfc_port_conflicts,
            ev.rfc_write_port_conflicts,
            ev.rfc_writeback_bank_conflicts
        );
    }
    s
}

/// The reconvergence section of the text summary (control-flow spec §6): PDOM stack activity
/// and the SIMD-efficiency buckets of the issue slots.
pub(super) fn reconv_table(r: &sim::activity::ReconvStats) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let st = &r.stack;
    if r.stack_from_front_end {
        let _ = writeln!(
            s,
            "Reconvergence stack: pushes {}  pops {} (reconvergence {}, cascade {})  divergent \
             branches {}  max depth {}",
            st.pushes,
            st.pops,
            st.reconvergence_pops,
            st.cascade_pops,
            st.divergent_branches,
            st.max_depth
        );
    } else {
        let _ = writeln!(s, "Reconvergence stack: not replayed (trace front end)");
    }
    let _ = writeln!(
        s,
        "SIMD efficiency (issue slots): W0.Mem {}  W0.Idle {}  Stall {}",
        r.w0_mem, r.w0_idle, r.w0_stall
    );
    let mut line = String::from(" ");
    for (i, n) in r.issued_lanes.iter().enumerate() {
        let label = if i == 0 {
            "W0(issued)".to_string()
        } else {
            format!("W{}-{}", 4 * i - 3, 4 * i)
        };
        let _ = write!(line, " {label} {n}");
    }
    let _ = writeln!(s, "{line}");
    s
}

/// The register-file section of the text summary (a register-file technique section on):
/// per-state residency, the techniques' own lines ([`RfStats::technique_text`]; `derived`: the
/// technique's timing was derived from the technology point), collector use (register-file
/// spec §9).
pub(super) fn rf_table(r: &RfStats, warp_insts: u64, derived: bool) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "register file (all SMs):");
    for res in &r.residency {
        let t = (res.off + res.drowsy + res.waking + res.on).max(1) as f64;
        let _ = writeln!(
            s,
            "  {:<8} residency: OFF {:>5.1}%  DROWSY {:>5.1}%  WAKING {:>5.1}%  ON {:>5.1}%  \
             ({} units)",
            res.part,
            100.0 * res.off as f64 / t,
            100.0 * res.drowsy as f64 / t,
            100.0 * res.waking as f64 / t,
            100.0 * res.on as f64 / t,
            res.units
        );
    }
    s.push_str(&r.technique_text(warp_insts, derived));
    let _ = writeln!(
        s,
        "  collectors: {} allocations, {} allocation stalls, {} busy CU-cycles; bank conflicts: \
         {} read-read, {} write-read",
        r.cu_allocs,
        r.cu_alloc_stalls,
        r.cu_occupied_cycles,
        r.conflicts_read_read,
        r.conflicts_write_read
    );
    s
}
