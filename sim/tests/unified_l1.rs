//! A unified L1/shared array (`l1d.unified_kb`, `shmem.carveout_kb`; `config::L1dCarveout`):
//! each launch of the v100 preset runs with the carve-out its resident CTAs' shared memory
//! needs and an L1 of the rest, recorded in the launch's occupancy; a preset with two arrays
//! records none; and an L1 given the whole array misses and evicts no more than the preset's
//! fixed 32 KB.

use sim::activity::Activity;
use sim::config::GpuConfig;
use sim::timing::Simulation;
use sim::workloads::{self, Size};

fn run(cfg: &GpuConfig, name: &str) -> Activity {
    let mut gpu = Simulation::new(cfg).gpu().unwrap();
    let rep = workloads::find(name)
        .unwrap()
        .run(Size::Test, &mut gpu, true)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(rep.check.unwrap().passed, "{name}");
    gpu.activity().clone()
}

/// L1 read misses and lines evicted, over the run.
fn l1_misses_evictions(a: &Activity) -> (u64, u64) {
    let sms = || a.kernels.iter().flat_map(|k| &k.sms);
    (
        sms().map(|s| s.l1d.read.miss).sum(),
        sms().map(|s| s.l1d.evictions).sum(),
    )
}

#[test]
fn each_launch_carves_what_its_ctas_need() {
    let v100 = GpuConfig::preset("v100").unwrap();
    let unified = v100.l1d.unified_kb as u64 * 1024;
    let options: Vec<u64> = v100
        .shmem
        .carveout_kb
        .iter()
        .map(|&k| k as u64 * 1024)
        .collect();
    let mut with_shared = 0;
    for name in ["bfs", "hotspot", "sgemm", "backprop"] {
        let a = run(&v100, name);
        for k in &a.kernels {
            let o = &k.occupancy;
            let carve = o
                .shmem_carveout_bytes
                .expect("a unified array records its carve-out");
            let l1 = o.l1d_bytes.expect("and the L1's capacity");
            assert!(options.contains(&carve), "{name}/{}: {carve}", k.name);
            // Volta's carve-outs leave whole ways: the two halves fill the array
            assert_eq!(carve + l1, unified, "{name}/{}", k.name);
            with_shared += usize::from(carve > 0);
        }
    }
    assert!(with_shared > 0, "no launch used shared memory");
    // bfs uses no shared memory: the whole array is L1
    let bfs = run(&v100, "bfs");
    assert!(bfs
        .kernels
        .iter()
        .all(|k| k.occupancy.l1d_bytes == Some(unified)));
    // two arrays: nothing carved
    let pascal = run(&GpuConfig::preset("gtx1080ti").unwrap(), "bfs");
    assert!(pascal
        .kernels
        .iter()
        .all(|k| k.occupancy.shmem_carveout_bytes.is_none() && k.occupancy.l1d_bytes.is_none()));
}

#[test]
fn the_whole_array_as_l1_misses_and_evicts_no_more_than_the_fixed_split() {
    let v100 = GpuConfig::preset("v100").unwrap();
    let mut fixed = v100.clone();
    fixed.l1d.unified_kb = 0;
    fixed.shmem.carveout_kb.clear();
    fixed.validate("test").unwrap();
    let mut fewer = 0;
    for name in ["bfs", "backprop", "pathfinder", "nw"] {
        let (u, f) = (
            l1_misses_evictions(&run(&v100, name)),
            l1_misses_evictions(&run(&fixed, name)),
        );
        println!("{name}: unified {u:?} (misses, evictions), fixed 32 KB {f:?}");
        assert!(u.0 <= f.0 && u.1 <= f.1, "{name}: {u:?} > {f:?}");
        fewer += usize::from(u.1 < f.1);
    }
    // at the test size the footprints are streamed or fit in 32 KB (the misses agree); the
    // larger array shows in the lines it evicts
    assert!(fewer > 0, "a larger L1 evicted no fewer lines");
}
