//! Workloads of spec §4 rows 11–20 at the test tier on the cycle-level timing model
//! (`TimingGpu`, gtx480 preset): CTAs run concurrently in the timing model's order, and every
//! output must still match its CPU reference.

use sim::config::GpuConfig;
use sim::timing::Simulation;
use sim::workloads::{self, Size};

#[test]
fn rows_11_to_20_on_the_timing_model() {
    for name in [
        "srad",
        "heartwall_like",
        "sgemm",
        "mriq",
        "cutcp",
        "spmv",
        "stencil",
        "lbm",
        "histo",
        "cp",
    ] {
        let cfg = GpuConfig::preset("gtx480").unwrap();
        let mut gpu = Simulation::new(&cfg).gpu().unwrap();
        let t0 = std::time::Instant::now();
        let rep = workloads::find(name)
            .unwrap()
            .run(Size::Test, &mut gpu, true)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let check = rep.check.unwrap();
        println!(
            "{name}: {:.2} s: {}",
            t0.elapsed().as_secs_f64(),
            check.detail
        );
        assert!(check.passed, "{name} on the timing model: {}", check.detail);
    }
}

/// A cycle limit cuts every bfs launch short; the level loop, which iterates until the device
/// reports no change, must stop after the first truncated level instead of repeating it.
#[test]
fn bfs_level_loop_stops_on_a_truncated_launch() {
    let mut cfg = GpuConfig::preset("gtx480").unwrap();
    cfg.sim.max_cycles = 100;
    let mut gpu = Simulation::new(&cfg).gpu().unwrap();
    let rep = workloads::find("bfs")
        .unwrap()
        .run(Size::Test, &mut gpu, false)
        .unwrap();
    assert_eq!(rep.launches, 2, "one level (two launches), then stop");
    assert!(gpu.activity().aggregate.truncated);
}
