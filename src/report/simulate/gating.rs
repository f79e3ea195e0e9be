//! The power-gating sections of `gpuenergy simulate`'s summaries (power-gating §9): per class
//! the time, state, event and idle-run metrics, the instruction mix and warp folding, as JSON
//! and as text.

use sim::activity::{
    DomainClass, FoldStats, GatingStats, KernelActivity, ACTIVE_THREAD_BIN_LABELS, FOLD_TYPES,
};

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
pub(super) fn gating_json(g: &GatingStats, k: &KernelActivity) -> serde_json::Value {
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
pub(super) fn gating_table(g: &GatingStats) -> String {
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
