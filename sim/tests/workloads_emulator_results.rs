//! Every built-in workload (simulator §4) on the functional emulator: each kernel's
//! output matches its CPU reference at the `test` tier, the tier stays within its budget of
//! 2·10⁵ warp instructions, the launch count is the one the host program reports, and the
//! dynamic warp-instruction count of each kernel equals the regression constant in the
//! workload's manifest. Also: the registry lists every workload with known character tags, and
//! inputs are deterministic.

use sim::emu::Emulator;
use sim::workloads::{self, Size};
use std::collections::BTreeMap;

mod common;
use common::Counting;

/// Runs `name` at the test tier with checking; returns warp instructions per kernel.
fn run_test_tier(name: &str) -> BTreeMap<String, u64> {
    let w = workloads::find(name).unwrap_or_else(|| panic!("workload {name} not registered"));
    let mut gpu = Counting {
        emu: Emulator::new(),
        per_kernel: BTreeMap::new(),
    };
    let rep = w
        .run(Size::Test, &mut gpu, true)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let check = rep.check.expect("check requested");
    println!("{name}: {}", check.detail);
    assert!(check.passed, "{name}: {}", check.detail);
    assert_eq!(
        rep.launches as u64,
        gpu.emu.launches(),
        "{name}: launch count"
    );
    gpu.per_kernel
}

fn check_workload(name: &str) {
    let counts = run_test_tier(name);
    let total: u64 = counts.values().sum();
    println!("{name}: {counts:?} total {total}");
    assert!(
        total <= 200_000,
        "{name}: test tier runs {total} warp instructions (budget 2e5)"
    );
    let manifest = workloads::find(name).unwrap().manifest();
    let want: BTreeMap<String, u64> = manifest
        .test_warp_insts
        .iter()
        .map(|&(k, n)| (k.to_string(), n))
        .collect();
    assert_eq!(
        counts, want,
        "{name}: warp instructions per kernel vs manifest"
    );
}

macro_rules! workload_tests {
    ($($name:ident),*) => {
        $(
            #[test]
            fn $name() {
                check_workload(stringify!($name));
            }
        )*
    };
}

workload_tests!(
    backprop,
    bfs,
    btree,
    gaussian,
    hotspot,
    kmeans,
    lavamd,
    lud,
    nw,
    pathfinder,
    srad,
    heartwall_like,
    sgemm,
    mriq,
    cutcp,
    spmv,
    stencil,
    lbm,
    histo,
    cp
);

#[test]
fn registry_lists_every_workload_once_with_known_tags() {
    let all = workloads::all();
    for w in &all {
        let info = w.info();
        assert!(!info.description.is_empty(), "{}", info.name);
        for tag in info.character.split_whitespace() {
            assert!(
                workloads::tag_word(tag).is_some(),
                "{}: unknown tag {tag}",
                info.name
            );
        }
    }
    for name in [
        "backprop",
        "bfs",
        "btree",
        "gaussian",
        "hotspot",
        "kmeans",
        "lavamd",
        "lud",
        "nw",
        "pathfinder",
    ] {
        assert!(workloads::find(name).is_some(), "{name} missing");
    }
}

#[test]
fn inputs_are_deterministic() {
    // Two runs of the same workload give the same warp-instruction count and the same result.
    for name in ["bfs", "pathfinder"] {
        let w = workloads::find(name).unwrap();
        let mut counts = Vec::new();
        for _ in 0..2 {
            let mut emu = Emulator::new();
            let r = w.run(Size::Test, &mut emu, true).unwrap();
            assert!(r.check.unwrap().passed);
            counts.push(emu.warp_insts());
        }
        assert_eq!(counts[0], counts[1], "{name}");
    }
}

/// Bench tier of the workloads of spec §4 rows 11–20, with checking (slow: `--ignored`).
#[test]
#[ignore]
fn bench_tier_all() {
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
        let w = workloads::find(name).unwrap();
        let mut emu = Emulator::new();
        let t0 = std::time::Instant::now();
        let rep = w.run(Size::Bench, &mut emu, true).unwrap();
        let check = rep.check.unwrap();
        println!(
            "{name}: bench {} warp insts in {:.1} s (incl. reference): {}",
            emu.warp_insts(),
            t0.elapsed().as_secs_f64(),
            check.detail
        );
        assert!(check.passed, "{name}: {}", check.detail);
    }
}
