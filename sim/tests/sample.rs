//! Kernel sampling on the timing GPU (`sim::sample`): launches of one shape and work are
//! timed twice and extrapolated after, launches that differ make clusters of their own, the
//! exact counts equal a full run's, the results stay functionally correct, and a sampled run
//! is deterministic and replays a plan.

use sim::activity::Activity;
use sim::config::GpuConfig;
use sim::sample::SampleSettings;
use sim::stream::{Gpu, ParamValue};
use sim::timing::{Program, Simulation, TimingGpu};
use sim::workloads::{self, Size};
use sim::SimError;
use std::sync::Arc;

fn run(name: &str, sample: Option<SampleSettings>) -> Activity {
    let cfg = GpuConfig::preset("gtx480").unwrap();
    let w = workloads::find(name).unwrap();
    let (ran, act) = Simulation::new(&cfg)
        .run(Program(|gpu: &mut TimingGpu| {
            if let Some(s) = sample {
                gpu.set_sampling(s);
            }
            w.run(Size::Test, gpu, true)
        }))
        .unwrap();
    let rep = ran.unwrap();
    let check = rep.check.unwrap();
    assert!(check.passed, "{name}: {}", check.detail);
    act
}

/// A host program of `iters` identical launches of the stencil kernel (ping-pong buffers);
/// returns the final grid.
fn stencil_loop(gpu: &mut dyn Gpu, iters: usize) -> Result<Vec<f32>, SimError> {
    let (nx, ny, nz) = (64u32, 64u32, 8u32);
    let a0: Vec<f32> = (0..nx * ny * nz).map(|i| (i % 97) as f32 / 97.0).collect();
    let kernel = workloads::load_kernels(STENCIL, "stencil.ptx", &["stencil_kernel"])?.remove(0);
    let mut cur = workloads::upload_f32(gpu, &a0)?;
    let mut next = workloads::upload_f32(gpu, &a0)?;
    for _ in 0..iters {
        let params = vec![
            ParamValue::U32(nx),
            ParamValue::U32(ny),
            ParamValue::U32(nz),
            ParamValue::F32(1.0 / 6.0),
            ParamValue::F32(1.0 / 36.0),
            workloads::ptr(cur),
            workloads::ptr(next),
        ];
        workloads::launch(gpu, &kernel, [nx / 32, ny / 32, 1], [32, 32, 1], params)?;
        std::mem::swap(&mut cur, &mut next);
    }
    workloads::download_f32(gpu, cur, a0.len())
}

const STENCIL: &str = include_str!("../workloads/stencil.ptx");

fn run_loop(iters: usize, sample: Option<SampleSettings>) -> (Vec<f32>, Activity) {
    let cfg = GpuConfig::preset("gtx480").unwrap();
    let (out, act) = Simulation::new(&cfg)
        .run(Program(|gpu: &mut TimingGpu| {
            if let Some(s) = sample {
                gpu.set_sampling(s);
            }
            stencil_loop(gpu, iters)
        }))
        .unwrap();
    (out.unwrap(), act)
}

#[test]
fn identical_launches_are_timed_a_few_times_and_extrapolated_within_the_estimate() {
    let (out_full, full) = run_loop(12, None);
    let (out, s) = run_loop(12, Some(SampleSettings::default()));
    // the extrapolated launches ran functionally: the program's results are the same
    assert_eq!(out, out_full);
    let sum = s.sample.as_ref().unwrap();
    assert_eq!(sum.launches, 12);
    assert_eq!(sum.clusters.len(), 1, "{:?}", sum.plan);
    assert_eq!(sum.timed_launches, 5, "launches 1, 2, 3, 4 and 8");
    // the functional counts are exact
    assert_eq!(s.aggregate.warp_insts, full.aggregate.warp_insts);
    assert_eq!(s.aggregate.thread_insts, full.aggregate.thread_insts);
    assert_eq!(s.aggregate.by_family, full.aggregate.by_family);
    assert_eq!(s.aggregate.launches, full.aggregate.launches);
    // the extrapolated cycles are within the estimated error of the full run's
    let err =
        s.aggregate.cycles.abs_diff(full.aggregate.cycles) as f64 / full.aggregate.cycles as f64;
    assert!(
        err <= sum.estimated_error_cycles + 1e-9,
        "error {err} above the estimate {}",
        sum.estimated_error_cycles
    );
    s.check_consistent("sampled").unwrap();
    assert_eq!(s.provenance.as_ref().unwrap().source, "sim-sampled");
    assert!(full.sample.is_none() && full.provenance.is_none());
}

#[test]
fn launches_that_differ_make_clusters_of_their_own() {
    // gaussian's launches shrink the matrix step by step: grids and work differ
    let s = run("gaussian", Some(SampleSettings::default()));
    let sum = s.sample.as_ref().unwrap();
    assert!(sum.clusters.len() > 2, "{} clusters", sum.clusters.len());
    for c in &sum.clusters {
        assert!(c.timed_launches >= 1 && c.timed_launches <= c.launches);
        assert_eq!(c.extrapolated.is_some(), c.timed_launches < c.launches);
    }
    // a tolerance of 0 keeps only launches with identical signatures together
    let strict = run(
        "gaussian",
        Some(SampleSettings {
            tolerance: 0.0,
            plan: None,
        }),
    );
    assert!(strict.sample.as_ref().unwrap().clusters.len() >= sum.clusters.len());
}

#[test]
fn a_sampled_run_is_deterministic_and_replays_its_plan() {
    let a = run("kmeans", Some(SampleSettings::default()));
    let b = run("kmeans", Some(SampleSettings::default()));
    assert_eq!(a.to_json(), b.to_json());
    let plan = a.sample.as_ref().unwrap().plan.clone();
    let c = run(
        "kmeans",
        Some(SampleSettings {
            tolerance: 1.0,
            plan: Some(Arc::new(plan.clone())),
        }),
    );
    assert_eq!(
        c.sample.as_ref().unwrap().plan,
        plan,
        "the plan wins over the tolerance"
    );
}
