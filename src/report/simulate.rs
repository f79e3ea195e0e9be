//! Renderers of `gpuenergy simulate`: the text and JSON summaries of a cycle-level simulation
//! (cycles, IPC, occupancy and the stall breakdown per kernel and in aggregate).

use sim::activity::{Activity, KernelActivity, StallCounts};
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
    v
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
    let _ = writeln!(
        s,
        "simulated {} warp insts in {:.2} s ({:.2} M warp insts/s)",
        a.warp_insts,
        wall_s,
        a.warp_insts as f64 / wall_s.max(1e-9) / 1e6
    );
    if let Some((p, d)) = check {
        let _ = writeln!(s, "check: {} ({d})", if *p { "passed" } else { "FAILED" });
    }
    s
}
