//! Workload suite rows 1–10 (spec simulator.md §4): every kernel matches its CPU reference at the
//! test size on the functional emulator, the test tier stays within 2·10⁵ warp instructions,
//! and the dynamic warp-instruction count per kernel equals the workload's manifest (regression).

use std::collections::BTreeMap;

use sim::emu::Emulator;
use sim::workloads::{self, Size};

#[path = "support/counting.rs"]
mod counting;
use counting::Counting;

fn check_workload(name: &str) {
    let w = workloads::find(name).unwrap_or_else(|| panic!("workload {name} not registered"));
    let mut gpu = Counting {
        emu: Emulator::new(),
        per_kernel: BTreeMap::new(),
    };
    let report = w
        .run(Size::Test, &mut gpu, true)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let check = report.check.expect("check requested");
    assert!(check.passed, "{name}: {}", check.detail);
    assert!(report.launches >= 1);
    let total: u64 = gpu.per_kernel.values().sum();
    assert!(
        total <= 200_000,
        "{name}: test tier runs {total} warp instructions (> 2e5)"
    );
    let got: Vec<(String, u64)> = gpu.per_kernel.into_iter().collect();
    let want: Vec<(String, u64)> = w
        .manifest()
        .test_warp_insts
        .iter()
        .map(|&(k, n)| (k.to_string(), n))
        .collect();
    assert_eq!(
        got, want,
        "{name}: dynamic warp instructions per kernel differ from the manifest"
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

workload_tests!(backprop, bfs, btree, gaussian, hotspot, kmeans, lavamd, lud, nw, pathfinder);

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
