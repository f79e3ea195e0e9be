//! Renderers of `gpuenergy simulate`: the text and JSON summaries of a cycle-level simulation
//! (cycles, IPC, occupancy and the stall breakdown per kernel and in aggregate).
//!
//! This file renders the run-level summaries; [`gating`] the power-gating sections,
//! [`techniques`] the per-technique sections of the table and [`reference`] the reference-mode
//! model's summaries.

mod gating;
mod reference;
mod techniques;

pub use reference::{reference_json, reference_table};

use gating::{gating_json, gating_table};
use techniques::{prf_table, reconv_table, rf_table};

use sim::activity::{Activity, KernelActivity, StallCounts};

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
    cfg: &crate::study_config::StudyConfig,
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
    let issue_stage = a.issue_stage();
    if let Some(g) = issue_stage.filter(|g| g.precedes_reconvergence()) {
        o.insert(g.json_key().into(), g.summary_json());
    }
    if let Some(r) = &a.reconv {
        let mut j = serde_json::to_value(r).expect("ReconvStats serialises");
        if let Some(m) = j.as_object_mut() {
            m.insert("issue_slot_share".into(), r.issue_slot_share().into());
        }
        o.insert("reconvergence".into(), j);
    }
    if let Some(g) = issue_stage.filter(|g| !g.precedes_reconvergence()) {
        o.insert(g.json_key().into(), g.summary_json());
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

/// Adds each launched kernel's static register facts to its object in the summary's `kernels`
/// list (matched by name): `regs_per_thread` (32-bit registers after allocation),
/// `local_bytes_per_thread` (bytes, spill slots included), and what spilling to local memory
/// added (`sim::ptx::spill`): `spill_bytes_per_thread` (bytes), `spill_store_insts` and
/// `spill_load_insts` (static instructions).
pub fn add_kernel_code(
    summary: &mut serde_json::Value,
    kernels: &[std::sync::Arc<sim::ptx::Kernel>],
) {
    let Some(list) = summary.get_mut("kernels").and_then(|k| k.as_array_mut()) else {
        return;
    };
    for entry in list {
        let Some(o) = entry.as_object_mut() else {
            continue;
        };
        let Some(k) = kernels
            .iter()
            .find(|k| o.get("name").and_then(|n| n.as_str()) == Some(k.name.as_str()))
        else {
            continue;
        };
        let sp = &k.code.spills;
        o.insert("regs_per_thread".into(), k.regs_per_thread().into());
        o.insert("local_bytes_per_thread".into(), k.local_bytes().into());
        o.insert("spill_bytes_per_thread".into(), sp.bytes_per_thread.into());
        o.insert("spill_store_insts".into(), sp.store_insts.into());
        o.insert("spill_load_insts".into(), sp.load_insts.into());
    }
}

/// One line per launched kernel that was spilled to local memory: its registers per thread and
/// what spilling added (empty when none was).
pub fn spill_lines(kernels: &[std::sync::Arc<sim::ptx::Kernel>]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    for k in kernels {
        let sp = &k.code.spills;
        if sp.values == 0 {
            continue;
        }
        let _ = writeln!(
            s,
            "{}: {} registers/thread with {} values spilled to local memory ({} st.local, {} \
             ld.local, {} B/thread)",
            k.name,
            k.regs_per_thread(),
            sp.values,
            sp.store_insts,
            sp.load_insts,
            sp.bytes_per_thread
        );
    }
    s
}

/// The text summary of the same: a heading, one line per kernel and the aggregate, the stall
/// breakdown in shares of scheduler-cycles without issue, the simulation rate and the check.
/// `config` names the configuration as the provenance does (a file's path and the preset it
/// started from, not only `gpu.name`).
pub fn summary_table(
    cfg: &crate::study_config::StudyConfig,
    config: &str,
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
        "{name} ({size}) on {config} [{}], scheduler {}",
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
            "{:<12} {:>8} {:>12} {:>14} {:>8.3} {:>8.1}% {:>5}{}",
            k.name,
            k.launches,
            k.cycles,
            k.warp_insts,
            k.ipc_warp(),
            100.0 * k.occupancy.mean_occupancy,
            k.occupancy.max_ctas_per_sm,
            if k.truncated { "  TRUNCATED" } else { "" }
        );
    }
    if act.is_truncated() {
        let _ = writeln!(s, "{}", truncation_note(cfg));
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
    if let Some(r) = a.rf.as_ref().filter(|_| cfg.rf_technique_enabled()) {
        let derived = crate::technique::derived_timings().any(|d| d.wanted(cfg));
        s.push_str(&rf_table(r, a.warp_insts, derived));
    }
    if let Some(p) = a.rf.as_ref().and_then(|r| r.prf.as_ref()) {
        s.push_str(&prf_table(p));
    }
    let issue_stage = a.issue_stage();
    if let Some(g) = issue_stage.filter(|g| g.precedes_reconvergence()) {
        s.push_str(&g.summary_text());
    }
    if let Some(r) = &a.reconv {
        s.push_str(&reconv_table(r));
    }
    if let Some(g) = issue_stage.filter(|g| !g.precedes_reconvergence()) {
        s.push_str(&g.summary_text());
    }
    let _ = writeln!(
        s,
        "{} {} warp insts in {:.2} s ({:.2} M warp insts/s)",
        match act.provenance.as_ref().map(|p| p.source.as_str()) {
            Some(sim::sample::SOURCE_NAME) =>
                "sampled (timed launches simulated, the rest extrapolated)",
            Some(_) => "modelled (functional run + analytical timing)",
            None => "simulated",
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
    } else if p.source == sim::sample::SOURCE_NAME {
        "activity: kernel sampling (launches of each cluster past its timed ones extrapolated; \
         see the sampling line)"
            .to_string()
    } else {
        format!("activity: {} (not simulated)", p.source)
    };
    Some(format!(
        "{head}\n  absent or bounded counters: {}",
        p.absent.join("; ")
    ))
}

/// The line that says a run was stopped early, with the limits that stop runs.
pub(crate) fn truncation_note(cfg: &sim::config::GpuConfig) -> String {
    format!(
        "note: TRUNCATED: a launch was stopped early by sim.max_cycles = {} or \
         sim.max_warp_insts = {} (0: no limit); the counts cover only the simulated part",
        cfg.sim.max_cycles, cfg.sim.max_warp_insts
    )
}
