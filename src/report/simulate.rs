//! Renderers of `gpuenergy simulate`: the text and JSON summaries of a cycle-level simulation
//! (cycles, IPC, occupancy and the stall breakdown per kernel and in aggregate).

use sim::activity::{
    Activity, DomainClass, FoldStats, GatingStats, KernelActivity, RfStats, StallCounts,
    ACTIVE_THREAD_BIN_LABELS, FOLD_TYPES,
};
use sim::config::GpuConfig;

/// The stall counters by name, in the order the table lists them.
fn stalls_map(s: &StallCounts) -> Vec<(&'static str, u64)> {
    vec![
        ("no_warp", s.no_warp),
        ("ibuffer_empty", s.ibuffer_empty),
        ("barrier", s.barrier),
        ("scoreboard", s.scoreboard),
        ("cu_full", s.cu_full),
        ("pipe_busy", s.pipe_busy),
        ("unit_gated", s.unit_gated),
    ]
}

/// The JSON object of one kernel's (or the aggregate's) counters.
fn kernel_json(k: &KernelActivity) -> serde_json::Value {
    let stalls: serde_json::Map<String, serde_json::Value> = stalls_map(&k.stalls)
        .into_iter()
        .map(|(n, v)| (n.to_string(), v.into()))
        .collect();
    serde_json::json!({
        "name": k.name,
        "launches": k.launches,
        "cycles": k.cycles,
        "warp_instructions": k.warp_insts,
        "thread_instructions": k.thread_insts,
        "ipc": k.ipc_warp(),
        "occupancy": k.occupancy.mean_occupancy,
        "max_ctas_per_sm": k.occupancy.max_ctas_per_sm,
        "occupancy_limiter": k.occupancy.limiter,
        "stalls": stalls,
        "truncated": k.truncated,
    })
}

/// The JSON summary of a simulation of `name` at input size `size` (`trace` for a trace) on
/// `cfg`: the aggregate counters, the configuration, wall time `wall_s` (seconds) and simulation
/// rate, one object per kernel, and the reference check (passed, detail) when one was run.
pub fn summary_json(
    cfg: &GpuConfig,
    name: &str,
    size: &str,
    act: &Activity,
    wall_s: f64,
    check: &Option<(bool, String)>,
) -> serde_json::Value {
    let a = &act.aggregate;
    let mut v = kernel_json(a);
    let o = v.as_object_mut().expect("object");
    o.insert("workload".into(), name.into());
    o.insert("size".into(), size.into());
    o.insert("gpu".into(), cfg.gpu.name.clone().into());
    o.insert(
        "scheduler".into(),
        String::from(cfg.sched.policy.clone()).into(),
    );
    o.insert("config_hash".into(), cfg.hash_hex().into());
    o.insert("activity_source".into(), activity_source(act).into());
    if let Some(p) = &act.provenance {
        o.insert(
            "provenance".into(),
            serde_json::to_value(p).expect("provenance serialises"),
        );
    }
    o.insert("wall_s".into(), wall_s.into());
    o.insert(
        "sim_rate_warp_insts_per_s".into(),
        (a.warp_insts as f64 / wall_s.max(1e-9)).into(),
    );
    o.insert(
        "kernels".into(),
        act.kernels
            .iter()
            .map(kernel_json)
            .collect::<Vec<_>>()
            .into(),
    );
    if let Some((p, d)) = check {
        o.insert(
            "check".into(),
            serde_json::json!({"passed": p, "detail": d}),
        );
    }
    if let Some(g) = &a.gating {
        o.insert("gating".into(), gating_json(g, a));
    }
    if let Some(r) = &a.rf {
        o.insert(
            "register_file".into(),
            serde_json::to_value(r).expect("RfStats serialises"),
        );
    }
    if let Some(g) = &a.socgpu {
        let mut j = serde_json::to_value(g).expect("SocgpuStats serialises");
        if let Some(m) = j.as_object_mut() {
            m.insert("ctl_fraction".into(), g.ctl_fraction().into());
            m.insert("flushes_per_100_insts".into(), g.flushes_per_100().into());
            m.insert("mean_occupancy".into(), g.mean_occupancy().into());
            m.insert("mean_candidates".into(), g.mean_candidates().into());
        }
        o.insert("socgpu".into(), j);
    }
    if let Some(r) = &a.reconv {
        let mut j = serde_json::to_value(r).expect("ReconvStats serialises");
        if let Some(m) = j.as_object_mut() {
            m.insert("issue_slot_share".into(), r.issue_slot_share().into());
        }
        o.insert("reconvergence".into(), j);
    }
    if let Some(g) = &a.loog {
        let mut j = serde_json::to_value(g).expect("LoogStats serialises");
        if let Some(m) = j.as_object_mut() {
            m.insert("mean_cu_occupancy".into(), g.mean_cu_occupancy().into());
            m.insert("reorder_fraction".into(), g.reorder_fraction().into());
        }
        o.insert("loog".into(), j);
    }
    v
}

/// The partitioned-register-file section of the text summary (register-file spec §5.8): where
/// the accesses went, the FRF_low share of time, the pilot's share and the overhead events of
/// the swap table, the adaptive FRF and the RF cache.
fn prf_table(p: &sim::activity::PrfRecord) -> String {
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
fn reconv_table(r: &sim::activity::ReconvStats) -> String {
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
fn loog_table(g: &sim::activity::LoogStats) -> String {
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
fn socgpu_table(g: &sim::activity::SocgpuStats) -> String {
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
fn rf_table(r: &RfStats, warp_insts: u64, derived: bool) -> String {
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

/// The power-gating classes of a run: INT clusters, FP clusters, SFUs (power-gating §9).
const GATING_CLASSES: [(DomainClass, &str); 3] = [
    (DomainClass::IntCluster, "int"),
    (DomainClass::FpCluster, "fp"),
    (DomainClass::Sfu, "sfu"),
];

/// Shares of the three A/B/C values.
fn abc(v: [u64; 3]) -> [f64; 3] {
    let t: u64 = v.iter().sum();
    v.map(|x| if t > 0 { x as f64 / t as f64 } else { 0.0 })
}

/// Per class, GPU-wide, the §9 time, state, event and idle-run metrics of a gated run, with
/// the per-epoch critical-wakeup and D traces under adaptive D; the run's active-set size,
/// instruction mix by type and folding record.
fn gating_json(g: &GatingStats, k: &KernelActivity) -> serde_json::Value {
    let mut classes = serde_json::Map::new();
    for (c, name) in GATING_CLASSES {
        let Some(d) = g.aggregate(c, None) else {
            continue;
        };
        let t = d.cycles.max(1) as f64;
        let domains = g
            .domains
            .iter()
            .filter(|x| x.pipe == name && x.sm == d.sm)
            .count();
        classes.insert(
            name.into(),
            serde_json::json!({
                "domains_per_sm": domains,
                "cycles": d.cycles,
                "busy_cycles": d.busy,
                "idle_fraction": d.idle as f64 / t,
                "state_cycles": {
                    "idle_detect_busy": d.idle_detect_busy,
                    "idle_detect_idle": d.idle_detect_idle,
                    "uncompensated": d.uncompensated,
                    "compensated": d.compensated,
                    "wakeup": d.wakeup,
                },
                "compensated_pct": d.compensated as f64 / t,
                "compensated_pct_signed": d.compensated_pct_signed(),
                "net_gain_pct": d.net_gain_pct(g.bet),
                "events": d.events,
                "wakeups": d.wakeups,
                "events_g_le_bet": d.events_g_le_bet,
                "events_g_gt_bet": d.events_g_gt_bet,
                "critical_wakeups": d.critical_wakeups,
                "critical_wakeups_per_kcycle": 1000.0 * d.critical_wakeups as f64 / t,
                "blocked_wakeups": d.blocked_wakeups,
                "blocked_demand_cycles": d.blocked_demand_cycles,
                "idle_regions": {"by_count": abc(d.region_count), "by_cycles": abc(d.region_cycles)},
                "short_bubble_frac": d.short_bubble_cycles as f64 / t,
                "idle_run_count": d.idle_run_count,
                "idle_run_cycles": d.idle_run_cycles,
                "gated_length_hist": d.g_hist,
            }),
        );
        if !d.epoch_critical.is_empty() {
            if let Some(o) = classes.get_mut(name).and_then(|v| v.as_object_mut()) {
                o.insert(
                    "critical_wakeups_per_epoch".into(),
                    d.epoch_critical.clone().into(),
                );
                o.insert("d_per_epoch".into(), d.epoch_d.clone().into());
            }
        }
    }
    let mut v = serde_json::json!({
        "policy": g.policy,
        "bet": g.bet,
        "wakeup": g.wakeup,
        "idle_detect": g.idle_detect,
        "max_ready_wait": g.max_ready_wait,
        "classes": classes,
        "instruction_mix": instruction_mix(k),
    });
    let o = v.as_object_mut().expect("object");
    if let Some(p) = &g.lane_policy {
        o.insert("lane_policy".into(), p.clone().into());
    }
    if let Some(a) = &g.active_set {
        o.insert(
            "active_set".into(),
            serde_json::json!({
                "max_warps": a.max_warps,
                "mean_warps": a.mean_warps(),
                "sched_cycles": a.sched_cycles,
                "per_sm_mean_warps": g
                    .active_set_per_sm
                    .iter()
                    .map(|s| s.mean_warps())
                    .collect::<Vec<_>>(),
                "per_sm_max_warps": g
                    .active_set_per_sm
                    .iter()
                    .map(|s| s.max_warps)
                    .collect::<Vec<_>>(),
            }),
        );
    }
    if let Some(f) = &g.fold {
        o.insert("folding".into(), folding_json(f));
    }
    v
}

/// Issued warp instructions by type (power-gating §9 "Workload": instruction mix), and each
/// type's share.
fn instruction_mix(k: &KernelActivity) -> serde_json::Value {
    let f = &k.by_family;
    let all = [
        ("int", f.int),
        ("fp", f.fp),
        ("dp", f.dp),
        ("sfu", f.sfu),
        ("mem", f.mem),
        ("ctrl", f.ctrl),
        ("bar", f.bar),
    ];
    let n = all.iter().map(|x| x.1.warp_insts).sum::<u64>().max(1) as f64;
    all.iter()
        .map(|(name, c)| {
            (
                (*name).to_string(),
                serde_json::json!({"warp_insts": c.warp_insts, "share": c.warp_insts as f64 / n}),
            )
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// The §9 "Folding" and "Workload" metrics of a folded run, per type (INT, FP).
fn folding_json(f: &FoldStats) -> serde_json::Value {
    let mut per_type = serde_json::Map::new();
    for (i, name) in FOLD_TYPES.iter().enumerate() {
        per_type.insert(
            (*name).into(),
            serde_json::json!({
                "fold_time_ratio": f.fold_time_ratio(i),
                "fold_instr_ratio": f.fold_instr_ratio(i),
                "sp_insts": f.sp_insts[i],
                "folded": f.folded[i],
                "two_pass": f.two_pass[i],
                "skip_empty": f.skip_empty[i],
            }),
        );
    }
    let hist: serde_json::Map<String, serde_json::Value> = ACTIVE_THREAD_BIN_LABELS
        .iter()
        .zip(f.active_threads_hist)
        .map(|(l, n)| ((*l).to_string(), n.into()))
        .collect();
    serde_json::json!({
        "types": per_type,
        "phases": f.phases,
        "phases_disabled": f.phases_disabled,
        "sub_warps": f.sub_warps,
        "shifted": f.shifted,
        "full_insts": f.full,
        "partial_insts": f.partial,
        "active_threads_hist": hist,
    })
}

/// The folding lines of the text summary.
fn folding_lines(f: &FoldStats) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "warp folding: {} phases, {} disabled by utilisation; {} sub-warp passes, {} shifted",
        f.phases, f.phases_disabled, f.sub_warps, f.shifted
    );
    for (i, name) in FOLD_TYPES.iter().enumerate() {
        let _ = writeln!(
            s,
            "  {name:<3} fold time {:>5.1}%  folded {:>5.1}% of {} ({} two-pass, {} skip-empty)",
            100.0 * f.fold_time_ratio(i),
            100.0 * f.fold_instr_ratio(i),
            f.sp_insts[i],
            f.two_pass[i],
            f.skip_empty[i]
        );
    }
    let n = (f.full + f.partial).max(1) as f64;
    let bins: Vec<String> = ACTIVE_THREAD_BIN_LABELS
        .iter()
        .zip(f.active_threads_hist)
        .map(|(l, c)| format!("{l}: {:.1}%", 100.0 * c as f64 / n))
        .collect();
    let _ = writeln!(
        s,
        "  SP warp insts: {} full, {} partial; active threads {}",
        f.full,
        f.partial,
        bins.join(", ")
    );
    s
}

/// The gating section of the text summary: one line per class, GPU-wide.
fn gating_table(g: &GatingStats) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let lanes = g
        .lane_policy
        .as_ref()
        .map(|p| format!(", lane domains {p}"))
        .unwrap_or_default();
    let _ = writeln!(
        s,
        "power gating: {}{lanes} (BET {}, W {}, D {}); per class over all SMs:",
        g.policy, g.bet, g.wakeup, g.idle_detect
    );
    let _ = writeln!(
        s,
        "  {:<5} {:>7} {:>7} {:>8} {:>8} {:>8} {:>9} {:>9}   {:>6} {:>6} {:>6}",
        "class",
        "idle",
        "gated",
        "comp-unc",
        "events",
        "wakeups",
        "critical",
        "G>BET",
        "A",
        "B",
        "C"
    );
    for (c, name) in GATING_CLASSES {
        let Some(d) = g.aggregate(c, None) else {
            continue;
        };
        let t = d.cycles.max(1) as f64;
        let r = abc(d.region_cycles);
        let _ = writeln!(
            s,
            "  {:<5} {:>6.1}% {:>6.1}% {:>7.1}% {:>8} {:>8} {:>9} {:>8.1}%   {:>5.1}% {:>5.1}% {:>5.1}%",
            name,
            100.0 * d.idle as f64 / t,
            100.0 * (d.uncompensated + d.compensated) as f64 / t,
            100.0 * d.compensated_pct_signed(),
            d.events,
            d.wakeups,
            d.critical_wakeups,
            if d.events > 0 {
                100.0 * d.events_g_gt_bet as f64 / d.events as f64
            } else {
                0.0
            },
            100.0 * r[0],
            100.0 * r[1],
            100.0 * r[2]
        );
    }
    let _ = writeln!(
        s,
        "  (idle, gated: shares of domain-cycles; comp-unc: compensated minus uncompensated cycles; \
         A/B/C: idle cycles in runs L <= D, D < L <= D+BET, L > D+BET; most cycles any ready \
         instruction waited: {})",
        g.max_ready_wait
    );
    if let Some(a) = &g.active_set {
        let _ = writeln!(
            s,
            "  active set per scheduler: mean {:.2} warps, max {} warps",
            a.mean_warps(),
            a.max_warps
        );
    }
    if let Some(f) = &g.fold {
        s.push_str(&folding_lines(f));
    }
    s
}

/// Adds `launch_cycles` to a JSON summary: the cycles of each timed launch in launch order,
/// each including the `gpu.kernel_launch_latency` before it (the first only with
/// `compat.launch_latency_first`; they sum to `cycles`); the
/// launch indices of `gpuenergy correlate`'s reference files.
pub fn add_launch_cycles(summary: &mut serde_json::Value, launch_cycles: &[u64]) {
    if let Some(o) = summary.as_object_mut() {
        o.insert("launch_cycles".into(), launch_cycles.into());
    }
}

/// The text summary of the same: a heading, one line per kernel and the aggregate, the stall
/// breakdown in shares of scheduler-cycles without issue, the simulation rate and the check.
pub fn summary_table(
    cfg: &GpuConfig,
    name: &str,
    size: &str,
    act: &Activity,
    wall_s: f64,
    check: &Option<(bool, String)>,
) -> String {
    use std::fmt::Write;
    let a = &act.aggregate;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{name} ({size}) on {} [{}], scheduler {}",
        cfg.gpu.name,
        cfg.hash_hex(),
        String::from(cfg.sched.policy.clone())
    );
    if let Some(note) = analytical_note(act) {
        let _ = writeln!(s, "{note}");
    }
    let _ = writeln!(
        s,
        "{:<12} {:>8} {:>12} {:>14} {:>8} {:>9} {:>5}",
        "kernel", "launches", "cycles", "warp insts", "IPC", "occupancy", "CTAs"
    );
    for k in act.kernels.iter().chain(std::iter::once(a)) {
        let _ = writeln!(
            s,
            "{:<12} {:>8} {:>12} {:>14} {:>8.3} {:>8.1}% {:>5}",
            k.name,
            k.launches,
            k.cycles,
            k.warp_insts,
            k.ipc_warp(),
            100.0 * k.occupancy.mean_occupancy,
            k.occupancy.max_ctas_per_sm
        );
    }
    let total: u64 = stalls_map(&a.stalls).iter().map(|x| x.1).sum();
    let _ = writeln!(s, "stalls (scheduler-cycles without issue):");
    for (n, v) in stalls_map(&a.stalls) {
        let pct = if total > 0 {
            100.0 * v as f64 / total as f64
        } else {
            0.0
        };
        let _ = writeln!(s, "  {n:<14} {v:>14} {pct:>6.1}%");
    }
    if let Some(g) = &a.gating {
        s.push_str(&gating_table(g));
    }
    if let Some(r) =
        a.rf.as_ref()
            .filter(|_| cfg.tric.enabled || cfg.coma.enabled)
    {
        let derived = cfg.tric.wake_latency_mode == sim::config::tric::WakeLatencyMode::Derived;
        s.push_str(&rf_table(r, a.warp_insts, derived));
    }
    if let Some(p) = a.rf.as_ref().and_then(|r| r.prf.as_ref()) {
        s.push_str(&prf_table(p));
    }
    if let Some(g) = &a.socgpu {
        s.push_str(&socgpu_table(g));
    }
    if let Some(r) = &a.reconv {
        s.push_str(&reconv_table(r));
    }
    if let Some(g) = &a.loog {
        s.push_str(&loog_table(g));
    }
    let _ = writeln!(
        s,
        "{} {} warp insts in {:.2} s ({:.2} M warp insts/s)",
        if act.provenance.is_some() {
            "modelled (functional run + analytical timing)"
        } else {
            "simulated"
        },
        a.warp_insts,
        wall_s,
        a.warp_insts as f64 / wall_s.max(1e-9) / 1e6
    );
    if let Some((p, d)) = check {
        let _ = writeln!(s, "check: {} ({d})", if *p { "passed" } else { "FAILED" });
    }
    s
}

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

/// `"model"` for a record of the analytical activity source (its provenance's source), else
/// `"sim"` (the cycle-level simulator).
pub fn activity_source(act: &Activity) -> &str {
    act.provenance.as_ref().map_or("sim", |p| p.source.as_str())
}

/// The lines a table prints near its top for a record that was not simulated: what it is and
/// which counters are absent; `None` for a simulated record.
pub fn analytical_note(act: &Activity) -> Option<String> {
    let p = act.provenance.as_ref()?;
    let head = if p.source == crate::amodel::SOURCE_NAME {
        crate::amodel::TABLE_NOTE.to_string()
    } else {
        format!("activity: {} (not simulated)", p.source)
    };
    Some(format!(
        "{head}\n  absent or bounded counters: {}",
        p.absent.join("; ")
    ))
}
