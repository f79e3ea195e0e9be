//! Workloads of spec §4 rows 11–20 on the functional emulator: every kernel's output matches
//! its CPU reference at the `test` tier, the tier stays within its warp-instruction budget,
//! and the dynamic warp-instruction count of each kernel equals the regression constant in
//! the workload's manifest.

use sim::emu::Emulator;
use sim::workloads::{self, Size};
use std::collections::BTreeMap;

#[path = "support/counting.rs"]
mod counting;
use counting::Counting;

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

#[test]
fn srad() {
    check_workload("srad");
}

#[test]
fn heartwall_like() {
    check_workload("heartwall_like");
}

#[test]
fn sgemm() {
    check_workload("sgemm");
}

#[test]
fn mriq() {
    check_workload("mriq");
}

#[test]
fn cutcp() {
    check_workload("cutcp");
}

#[test]
fn spmv() {
    check_workload("spmv");
}

#[test]
fn stencil() {
    check_workload("stencil");
}

#[test]
fn lbm() {
    check_workload("lbm");
}

#[test]
fn histo() {
    check_workload("histo");
}

#[test]
fn cp() {
    check_workload("cp");
}

/// Bench tier of every workload, with checking (slow: `--ignored`).
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
