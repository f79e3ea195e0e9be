//! Speed of the power engine (issue targets: costing one saved Activity ≤ 10 ms; `gpuenergy
//! estimate --tech finfet7` on the defaults ≤ 10 s).
//!
//! Run: `cargo bench --bench estimate`. Prints the median time to cost a saved Activity (chip
//! model build + estimate, from JSON) and the wall time of the default end-to-end estimate.

use models::gpu::{ChipModel, TechChoice, TechCostSource};
use sim::activity::Activity;
use sim::config::GpuConfig;
use sim::timing::TimingGpu;
use sim::workloads::{self, Size};
use std::time::Instant;

fn main() {
    let cfg = GpuConfig::preset("gtx480").expect("preset");
    // A saved Activity: simulate one workload once and serialise it.
    let w = workloads::find("hotspot").expect("hotspot");
    let mut gpu = TimingGpu::new(cfg.clone());
    w.run(Size::Test, &mut gpu, false).expect("simulate");
    let json = gpu.into_activity().to_json();
    let mut choice = TechChoice::new("finfet7");
    choice.op = Some("stv".into());

    let mut times = Vec::new();
    let (mut parse_s, mut build_s, mut cost_s) = (0.0, 0.0, 0.0);
    let n = 50;
    for _ in 0..n {
        let t = Instant::now();
        let act = Activity::from_json(&json, "saved").expect("json");
        let t1 = Instant::now();
        let src = TechCostSource::new(&choice, None).expect("tech");
        let chip = ChipModel::build(&cfg, &src).expect("chip");
        let t2 = Instant::now();
        let e = chip.estimate("hotspot", &src.label, 350.0, &act.aggregate);
        std::hint::black_box(e.energy_j());
        let t3 = Instant::now();
        parse_s += (t1 - t).as_secs_f64();
        build_s += (t2 - t1).as_secs_f64();
        cost_s += (t3 - t2).as_secs_f64();
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "  mean: JSON parse {:.3} ms ({} KiB), technology + chip model {:.3} ms, estimate {:.3} ms",
        parse_s / n as f64 * 1e3,
        json.len() / 1024,
        build_s / n as f64 * 1e3,
        cost_s / n as f64 * 1e3
    );
    println!(
        "costing one saved Activity (parse + chip model + estimate): median {:.3} ms, p95 {:.3} ms (target <= 10 ms)",
        times[times.len() / 2] * 1e3,
        times[times.len() * 95 / 100] * 1e3
    );

    let exe = env!("CARGO_BIN_EXE_gpuenergy");
    let t = Instant::now();
    let out = std::process::Command::new(exe)
        .args(["estimate", "--tech", "finfet7", "--format", "json"])
        .output()
        .expect("run gpuenergy");
    let secs = t.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    println!(
        "gpuenergy estimate --tech finfet7 (defaults: gtx480, 20 workloads, test size): {secs:.2} s wall (target <= 10 s)"
    );
}
