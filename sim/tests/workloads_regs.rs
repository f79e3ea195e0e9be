//! Register allocation of the workload kernels (rows 1–10) against the spec's hint, printed for
//! inspection: `cargo test --release -p sim --test workloads_regs -- --nocapture`.
//! The hint is a property of the original CUDA builds; the assertion only bounds the allocation.

use sim::ptx::Module;

const KERNELS: &[(&str, &str, Option<u32>)] = &[
    (
        "backprop",
        include_str!("../workloads/backprop.ptx"),
        Some(13),
    ),
    ("bfs", include_str!("../workloads/bfs.ptx"), Some(7)),
    ("btree", include_str!("../workloads/btree.ptx"), Some(15)),
    ("gaussian", include_str!("../workloads/gaussian.ptx"), None),
    (
        "hotspot",
        include_str!("../workloads/hotspot.ptx"),
        Some(27),
    ),
    ("kmeans", include_str!("../workloads/kmeans.ptx"), Some(9)),
    ("lavamd", include_str!("../workloads/lavamd.ptx"), None),
    ("lud", include_str!("../workloads/lud.ptx"), Some(9)),
    ("nw", include_str!("../workloads/nw.ptx"), Some(21)),
    (
        "pathfinder",
        include_str!("../workloads/pathfinder.ptx"),
        Some(9),
    ),
];

#[test]
fn kernels_allocate_a_sane_register_count() {
    for &(name, text, hint) in KERNELS {
        let m = Module::parse(text, name).unwrap();
        for k in m.kernel_names() {
            let kernel = m.kernel(&k).unwrap();
            let regs = kernel.regs_per_thread();
            println!(
                "{name:11} {k:16} regs {regs:3} (hint {}) shared {} B",
                hint.map_or("-".to_string(), |h| h.to_string()),
                kernel.static_shared_bytes()
            );
            assert!((4..=64).contains(&regs), "{name}/{k}: {regs} registers");
        }
    }
}
