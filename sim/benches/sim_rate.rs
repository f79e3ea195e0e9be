//! Simulation rate of the timing model: simulated warp instructions per host second on the
//! gtx480 preset, one thread (simulator §6.2).
//!
//! `cargo bench -p sim --bench sim_rate` runs hotspot and sgemm at the bench size.
//! Environment: `SIM_RATE_SIZE=test|bench` (default bench), `SIM_RATE_WORKLOADS=a,b,...`
//! (default `hotspot,sgemm`; `all` = the whole suite), `SIM_RATE_PRESET` (default gtx480),
//! `SIM_RATE_GATING=off|on|both` (default both): `on` runs the same workloads with power
//! gating (`sched.policy = "gates"`, `pg.policy = "CoordinatedBlackout"`, adaptive D), whose
//! per-cycle controller update disables cycle skipping. `SIM_RATE_FOLD=off|on|only` (default
//! off): `on` also runs them, and `only` runs them only, with the Origami technique (`fold.enabled`, `sched.policy =
//! "origami"`, lane-group Conventional gating with eager gating), which also steps every
//! cycle.
//! `SIM_RATE_WARPED_RF=off|on` (default off): `on` also runs the plain configuration with TRIC
//! (L = 3) and COMA on.
//! `SIM_RATE_PRF=off|on` (default off): `on` also runs the plain configuration with the
//! partitioned RF (`prf.enabled`, n = 4, SRF 3 cycles, instant remap).
//! `SIM_RATE_SOCGPU=off|on|only` (default off): `on` also runs them, and `only` runs them only,
//! with SOCGPU out-of-order issue (`sched.ooo.mode = "socgpu"`, depth `SIM_RATE_SOCGPU_DEPTH`,
//! default 8); its SMs sleep through unchanged cycles like the in-order ones unless the local
//! policy keeps per-cycle state (MostReady, LeastReady, Random).
//! `SIM_RATE_LOOG=off|on|only` (default off): the same with LOOG collector-unit out-of-order
//! issue (`sched.ooo.mode = "loog"`, default knobs), also evaluated every cycle.

use sim::config::GpuConfig;
use sim::timing::Simulation;
use sim::workloads::{self, Size};
use std::time::Instant;

/// CPU time of the calling thread in seconds (Linux), if available.
fn thread_cpu_s() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns * 1e-9)
}

fn main() {
    let size: Size = std::env::var("SIM_RATE_SIZE")
        .unwrap_or_else(|_| "bench".into())
        .parse()
        .expect("SIM_RATE_SIZE is test or bench");
    let preset = std::env::var("SIM_RATE_PRESET").unwrap_or_else(|_| "gtx480".into());
    let list = std::env::var("SIM_RATE_WORKLOADS").unwrap_or_else(|_| "hotspot,sgemm".into());
    let names: Vec<String> = if list == "all" {
        workloads::all()
            .iter()
            .map(|w| w.info().name.to_string())
            .collect()
    } else {
        list.split(',').map(|s| s.trim().to_string()).collect()
    };
    let fold = std::env::var("SIM_RATE_FOLD").unwrap_or_else(|_| "off".into());
    let gating = if fold == "only" {
        "none".to_string()
    } else {
        std::env::var("SIM_RATE_GATING").unwrap_or_else(|_| "both".into())
    };
    let socgpu = std::env::var("SIM_RATE_SOCGPU").unwrap_or_else(|_| "off".into());
    let loog = std::env::var("SIM_RATE_LOOG").unwrap_or_else(|_| "off".into());
    let gating = if socgpu == "only" || loog == "only" {
        "none".to_string()
    } else {
        gating
    };
    let base = GpuConfig::preset(&preset).expect("preset");
    if socgpu != "off" {
        let mut cfg = base.clone();
        cfg.sched.ooo.mode = sim::config::OooMode::Socgpu;
        cfg.sched.ooo.ib_depth = std::env::var("SIM_RATE_SOCGPU_DEPTH")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(8);
        cfg.validate("SIM_RATE_SOCGPU")
            .expect("SOCGPU configuration");
        println!(
            "sim_rate: preset {preset}, size {size}, 1 thread, SOCGPU (IB depth {})",
            cfg.sched.ooo.ib_depth
        );
        rate(&cfg, size, &names);
        if socgpu == "only" {
            return;
        }
    }
    if loog != "off" {
        let mut cfg = base.clone();
        cfg.sched.ooo.mode = sim::config::OooMode::Loog;
        cfg.validate("SIM_RATE_LOOG").expect("LOOG configuration");
        println!(
            "sim_rate: preset {preset}, size {size}, 1 thread, LOOG ({} CUs per slice)",
            cfg.loog_n_cu()
        );
        rate(&cfg, size, &names);
        if loog == "only" {
            return;
        }
    }
    if gating != "on" && gating != "none" {
        println!("sim_rate: preset {preset}, size {size}, 1 thread");
        rate(&base, size, &names);
    }
    if std::env::var("SIM_RATE_WARPED_RF").is_ok_and(|v| v == "on") {
        let mut cfg = base.clone();
        cfg.tric.enabled = true;
        cfg.tric.wake_latency = 3;
        cfg.coma.enabled = true;
        println!("sim_rate: preset {preset}, size {size}, 1 thread, warped RF (TRIC L = 3 + COMA)");
        rate(&cfg, size, &names);
    }
    if std::env::var("SIM_RATE_PRF").is_ok_and(|v| v == "on") {
        let mut cfg = base.clone();
        cfg.prf.enabled = true;
        println!("sim_rate: preset {preset}, size {size}, 1 thread, partitioned RF (n = 4)");
        rate(&cfg, size, &names);
    }
    if gating != "off" && gating != "none" {
        let mut cfg = base.clone();
        cfg.sched.policy = sim::config::SchedPolicy::Gates;
        cfg.pg.policy = sim::config::pg::PgPolicy::CoordinatedBlackout;
        cfg.pg.adaptive.enabled = true;
        println!(
            "sim_rate: preset {preset}, size {size}, 1 thread, gating on (gates + \
             CoordinatedBlackout, adaptive D)"
        );
        rate(&cfg, size, &names);
    }
    if fold != "off" {
        let mut cfg = base.clone();
        cfg.fold.enabled = true;
        cfg.sched.policy = sim::config::SchedPolicy::Origami;
        cfg.pg.policy = sim::config::pg::PgPolicy::Conventional;
        cfg.pg.granularity = sim::config::pg::Granularity::LaneGroup;
        cfg.pg.lane_group_size = 1;
        println!(
            "sim_rate: preset {preset}, size {size}, 1 thread, Origami (folding, lane shifting, \
             lane-group Conventional gating with eager gating)"
        );
        rate(&cfg, size, &names);
    }
}

/// Runs `names` on `cfg` and prints the rate table.
fn rate(cfg: &GpuConfig, size: Size, names: &[String]) {
    println!(
        "{:<16} {:>14} {:>12} {:>9} {:>9} {:>12} {:>12}",
        "workload", "warp insts", "cycles", "wall s", "cpu s", "M/s (wall)", "M/s (cpu)"
    );
    let (mut ti, mut tw, mut tc) = (0u64, 0f64, 0f64);
    for n in names {
        let w = workloads::find(n).unwrap_or_else(|| panic!("unknown workload {n}"));
        let mut gpu = Simulation::new(cfg).gpu().expect("policies resolve");
        let t0 = Instant::now();
        let c0 = thread_cpu_s();
        w.run(size, &mut gpu, false).expect("workload runs");
        let wall = t0.elapsed().as_secs_f64();
        let cpu = match (c0, thread_cpu_s()) {
            (Some(a), Some(b)) => b - a,
            _ => wall,
        };
        let a = gpu.activity().aggregate.clone();
        ti += a.warp_insts;
        tw += wall;
        tc += cpu;
        println!(
            "{:<16} {:>14} {:>12} {:>9.2} {:>9.2} {:>12.3} {:>12.3}",
            n,
            a.warp_insts,
            a.cycles,
            wall,
            cpu,
            a.warp_insts as f64 / wall / 1e6,
            a.warp_insts as f64 / cpu / 1e6
        );
    }
    println!(
        "{:<16} {:>14} {:>12} {:>9.2} {:>9.2} {:>12.3} {:>12.3}",
        "total",
        ti,
        "",
        tw,
        tc,
        ti as f64 / tw / 1e6,
        ti as f64 / tc / 1e6
    );
}
