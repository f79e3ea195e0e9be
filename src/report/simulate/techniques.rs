//! The per-technique sections of `gpuenergy simulate`'s text summary: the partitioned register
//! file, reconvergence, LOOG, SOCGPU and the register file's event counters.

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

/// The LOOG section of the text summary (issue-stage §5): collector units, RAT, register file,
/// broadcasts, stalls, the RRS and reorders.
pub(super) fn loog_table(g: &sim::activity::LoogStats) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let rrs = if g.n_rrs > 0 {
        format!(", RRS {} entries", g.n_rrs)
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "LOOG issue ({} CUs per slice{rrs}, {} WB buffer(s)):",
        g.n_cu, g.wb_buffers
    );
    let _ = writeln!(
        s,
        "  CU allocations {}  dispatches {}  mean CU occupancy {:.2} per slice",
        g.cu_allocs,
        g.dispatches,
        g.mean_cu_occupancy()
    );
    let _ = writeln!(
        s,
        "  RAT reads {}  writes {}  UUID comparisons {}",
        g.rat_reads, g.rat_writes, g.uuid_comparisons
    );
    let _ = writeln!(
        s,
        "  RF reads {} (bank waits {})  RF writes {}  skipped by WAW elimination {}",
        g.rf_reads, g.rf_read_conflicts, g.rf_writes, g.rf_writes_skipped
    );
    let _ = writeln!(
        s,
        "  broadcasts {}  captures {}  WB-buffer writes {}",
        g.broadcasts, g.captures, g.wb_buffer_writes
    );
    let busy: Vec<String> = sim::activity::LOOG_UNIT_NAMES
        .iter()
        .zip(&g.unit_busy_stalls)
        .filter(|(_, &n)| n > 0)
        .map(|(u, n)| format!("{u} {n}"))
        .collect();
    let _ = writeln!(
        s,
        "  stalls: no_cu {}  uuid_overflow {}  no_rrs {}  rrs at dispatch {}  unit busy [{}]",
        g.no_cu_stall,
        g.uuid_overflow_stall,
        g.no_rrs_stall,
        g.no_rrs_dispatch_stall,
        busy.join(", ")
    );
    if let Some(l) = &g.lsq {
        let _ = writeln!(
            s,
            "  memory queues: LQ {} SQ {} entries taken, full {} slice-cycles, {} address \
             searches; held by unresolved store {}, overlap {}, barrier {}; bypasses {}",
            l.lq_allocs,
            l.sq_allocs,
            l.full_stall,
            l.searches,
            l.unresolved_holds,
            l.address_holds,
            l.barrier_holds,
            l.bypasses
        );
    }
    if g.n_rrs > 0 {
        let _ = writeln!(s, "  RRS allocations {}", g.rrs_allocs);
    }
    let _ = writeln!(
        s,
        "  reorders {} ({:.1}% of dispatches)",
        g.reorders,
        100.0 * g.reorder_fraction()
    );
    s
}

/// The SOCGPU section of the text summary (issue-stage §5): buffer and dependence-matrix
/// activity, candidates, flushes, control instructions, reorders and dual issues.
pub(super) fn socgpu_table(g: &sim::activity::SocgpuStats) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "SOCGPU issue (IB depth {}):", g.ib_depth);
    let _ = writeln!(
        s,
        "  IB inserts {}  reads {}  mean occupancy {:.2} entries/warp",
        g.ib_inserts,
        g.ib_reads,
        g.mean_occupancy()
    );
    let _ = writeln!(
        s,
        "  DM row writes {} ({} entry comparisons)  NOR evaluations {}  column clears {}",
        g.dm_row_writes, g.dm_comparisons, g.dm_nor_evals, g.dm_column_clears
    );
    let _ = writeln!(
        s,
        "  mean candidates {:.2}  ready-counter increments {}  seniority updates {}",
        g.mean_candidates(),
        g.ready_ctr_increments,
        g.seniority_updates
    );
    let _ = writeln!(
        s,
        "  ctl insts {} ({:.1}% of insts)  flushes {} ({:.2} per 100 insts)  discarded {}  \
         ib_squash {}",
        g.ctl_insts,
        100.0 * g.ctl_fraction(),
        g.flushes,
        g.flushes_per_100(),
        g.flush_discarded,
        g.ib_squash
    );
    let _ = writeln!(
        s,
        "  reorders {}  dual issues {}  smart-dual re-selections {}",
        g.reorders, g.dual_issues, g.smart_dual_reselections
    );
    s
}

/// The register-file section of the text summary (TRIC or COMA on): per-state residency,
/// wake events and stalls, driven-lane fraction, collector use (register-file spec §9).
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
    if let Some(tr) = &r.tric {
        let _ = writeln!(
            s,
            "  TRIC ({}, L = {}{}): {} wake events ({:.1} per kilo-instruction), {} wake-stall \
             cycles over {} instructions, {} write wake-stall cycles",
            tr.granularity,
            tr.wake_latency,
            if derived { " derived" } else { "" },
            tr.wake_events,
            1000.0 * tr.wake_events as f64 / warp_insts.max(1) as f64,
            tr.wake_stall_cycles,
            tr.wake_stalled_insts,
            tr.write_wake_stall_cycles
        );
        if tr.lookahead > 0 {
            let _ = writeln!(
                s,
                "  look-ahead k = {}: {} early wakes, {} claimed by an instruction, {} timed out \
                 (mispredicted)",
                tr.lookahead, tr.lookahead_wakes, tr.lookahead_hits, tr.lookahead_mispredicted
            );
        }
    }
    let _ = writeln!(
        s,
        "  COMA {}: driven-lane fraction {:.4} (segments of {} lanes); mask table {} reads, \
         {} writes",
        if r.coma { "on" } else { "off" },
        r.driven_fraction().unwrap_or(0.0),
        r.segment_lanes,
        r.mask_table_reads,
        r.mask_table_writes
    );
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
