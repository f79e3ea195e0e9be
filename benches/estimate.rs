//! Speed of the power engine (targets: costing one saved Activity ≤ 10 ms; the default
//! estimate — gtx480 at finfet7, every workload at the `test` size — ≤ 10 s).
//!
//! Run: `cargo bench --bench estimate`. Prints the median time to cost a saved Activity (chip
//! model build + estimate, from JSON) and the wall time of the default end-to-end estimate, both
//! through the library pipeline [`gpuenergy::study::Study`].

use gpuenergy::study::Study;
use sim::activity::Activity;
use sim::config::GpuConfig;
use sim::workloads;
use std::time::Instant;

fn main() {
    let cfg = GpuConfig::preset("gtx480").expect("preset");
    let choice = techlib::ResolvedPoint::resolve("finfet7", None, None, Some("stv"), None).unwrap();
    let study = Study::new(cfg, choice, None);
    // A saved Activity: simulate one workload once and serialise it.
    let w = workloads::find("hotspot").expect("hotspot");
    let json = study.simulate(w).expect("simulate").to_json();

    let mut times = Vec::new();
    let (mut parse_s, mut build_s, mut cost_s) = (0.0, 0.0, 0.0);
    let n = 50;
    for _ in 0..n {
        let t = Instant::now();
        let act = Activity::from_json(&json, "saved").expect("json");
        let t1 = Instant::now();
        let src = study.cost_source().expect("tech");
        let chip = study.chip(&src).expect("chip");
        let t2 = Instant::now();
        let r = study
            .cost(&chip, &src.label, "hotspot", &act)
            .expect("estimate");
        std::hint::black_box(r.energy_j);
        let t3 = Instant::now();
        parse_s += (t1 - t).as_secs_f64();
        build_s += (t2 - t1).as_secs_f64();
        cost_s += (t3 - t2).as_secs_f64();
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(|a, b| a.total_cmp(b));
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

    let t = Instant::now();
    let list = workloads::all();
    let report = study.run(&list).expect("estimate");
    let text = gpuenergy::report::json::render(&report).expect("json");
    std::hint::black_box(text.len());
    let secs = t.elapsed().as_secs_f64();
    println!(
        "default estimate through Study::run (gtx480 at finfet7, {} workloads, test size, JSON rendered): {secs:.2} s wall (target <= 10 s)",
        list.len()
    );
}
