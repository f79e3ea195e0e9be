//! Bench-tier runs of workloads (slow; run explicitly):
//! `cargo test --release -p sim --test workloads_bench -- --ignored --nocapture [name]`
//! prints launches, dynamic warp instructions, wall time and the reference check per workload.

use sim::emu::Emulator;
use sim::workloads::{self, Size};

#[test]
#[ignore = "bench tier: tens of seconds per workload"]
fn bench_tier_counts() {
    let filter = std::env::var("WORKLOAD").ok();
    for w in workloads::all() {
        let name = w.info().name;
        if filter.as_deref().is_some_and(|f| f != name) {
            continue;
        }
        let mut emu = Emulator::new();
        let t0 = std::time::Instant::now();
        let r = w
            .run(Size::Bench, &mut emu, true)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let secs = t0.elapsed().as_secs_f64();
        let c = r.check.unwrap();
        println!(
            "{name:12} launches {:6} warp_insts {:12} time {:7.2} s  {:.2e} winst/s  check {}: {}",
            r.launches,
            emu.warp_insts(),
            secs,
            emu.warp_insts() as f64 / secs,
            if c.passed { "ok" } else { "FAILED" },
            c.detail
        );
        assert!(c.passed, "{name}: {}", c.detail);
    }
}
