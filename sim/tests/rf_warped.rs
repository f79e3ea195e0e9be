//! The register-file latency path, TRIC and COMA through the full SM (register-file spec §2.3,
//! §3, §4, §11): a run with TRIC and COMA off (and `rf.latency = 1`) is byte-identical to the
//! timing model before they existed; TRIC with L = 1 takes the plain run's cycles; residency
//! sums to units × cycles; OFF entries are never accessed; wake stalls follow L − 1 in a
//! directed stream; COMA with full masks drives every lane; functional results never change.

use sim::activity::{Activity, KernelActivity, RfStats};
use sim::config::coma::LaneOrg;
use sim::config::tric::{DestPolicy, TricAllocScope, TricGranularity};
use sim::config::{GpuConfig, PortOccupancy};
use sim::inst::{Family, OpClass};
use sim::timing::synth::{alu, SynthStream};
use sim::timing::{Simulation, Stream};
use sim::workloads::{self, Size};

fn run(cfg: &GpuConfig, name: &str) -> Activity {
    let mut gpu = Simulation::new(cfg).gpu().unwrap();
    let rep = workloads::find(name)
        .unwrap()
        .run(Size::Test, &mut gpu, true)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let check = rep.check.unwrap();
    assert!(check.passed, "{name}: {}", check.detail);
    gpu.activity().clone()
}

/// FNV-1a, 64 bit.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// FNV-1a hashes of the Activity JSON of hotspot, sgemm and bfs (test size, gtx480) as the
/// timing model produced them before the register-file latency path, TRIC and COMA existed
/// (bfs's re-pinned with the DRAM channel's out-of-order service, which moves its memory
/// timing; hotspot and sgemm do not change).
const PLAIN_RF_JSON_FNV: [(&str, u64); 3] = [
    ("hotspot", 0x963f_2d9e_8944_e1be),
    ("sgemm", 0x9cd6_c564_ad79_cae6),
    ("bfs", 0x33ec_3cf9_b16e_edb6),
];

#[test]
fn plain_rf_activity_is_byte_identical() {
    let base = GpuConfig::preset("gtx480").unwrap();
    let off = base
        .with_overrides(
            &[
                ("tric.enabled".into(), "false".into()),
                ("coma.enabled".into(), "false".into()),
                ("rf.latency".into(), "1".into()),
                ("rf.port_occupancy".into(), "\"pipelined\"".into()),
            ],
            "test",
        )
        .unwrap();
    for (name, want) in PLAIN_RF_JSON_FNV {
        let a = run(&base, name);
        let h = fnv(a.to_json().as_bytes());
        eprintln!("(\"{name}\", {h:#018x}),");
        assert!(a.aggregate.rf.is_none());
        assert_eq!(h, want, "{name}: Activity JSON changed");
        // explicit "off" values and the other port-occupancy mode change nothing at latency 1
        let b = run(&off, name);
        let mut bj = b.clone();
        bj.config_hash = a.config_hash.clone();
        assert_eq!(bj.to_json(), a.to_json(), "{name}");
    }
}

/// FNV-1a hashes of the Activity JSON of hotspot, sgemm and bfs (test size, gtx480) with TRIC
/// on at L = 3 as the timing model produced them before look-ahead existed (bfs's re-pinned
/// with the DRAM channel's out-of-order service).
const TRIC_L3_JSON_FNV: [(&str, u64); 3] = [
    ("hotspot", 0xfc84_89e0_9751_ded4),
    ("sgemm", 0x5d0f_777f_1318_d57e),
    ("bfs", 0x7de8_1cb7_375d_5e77),
];

#[test]
fn tric_without_lookahead_is_byte_identical() {
    let base = GpuConfig::preset("gtx480").unwrap();
    let cfg = with(
        &base,
        &[
            ("tric.enabled", "true"),
            ("tric.wake_latency", "3"),
            ("tric.lookahead", "0"),
        ],
    );
    for (name, want) in TRIC_L3_JSON_FNV {
        let a = run(&cfg, name);
        let j = a.to_json();
        let h = fnv(j.as_bytes());
        eprintln!("(\"{name}\", {h:#018x}),");
        assert!(
            !j.contains("lookahead"),
            "{name}: no look-ahead fields at k = 0"
        );
        assert_eq!(h, want, "{name}: Activity JSON changed");
    }
}

#[test]
fn lookahead_hides_wake_stalls_on_a_real_workload() {
    let base = GpuConfig::preset("gtx480").unwrap();
    let at = |k: u32| {
        with(
            &base,
            &[
                ("tric.enabled", "true"),
                ("tric.wake_latency", "3"),
                ("tric.lookahead", &k.to_string()),
            ],
        )
    };
    for name in ["hotspot", "sgemm"] {
        let a0 = run(&at(0), name);
        let s0 = rf(&a0.aggregate).tric.clone().unwrap();
        assert!(
            s0.wake_stall_cycles > 0,
            "{name}: L = 3 stalls without look-ahead"
        );
        for k in [2u32, 3] {
            // `run` checks the functional result against the CPU reference
            let a = run(&at(k), name);
            check_residency(&a, &format!("{name} k = {k}"));
            let t = rf(&a.aggregate).tric.clone().unwrap();
            eprintln!(
                "{name} k = {k}: wake-stall {} -> {}, hits {}, mispredicted {}",
                s0.wake_stall_cycles,
                t.wake_stall_cycles,
                t.lookahead_hits,
                t.lookahead_mispredicted
            );
            assert_eq!(t.lookahead, k);
            assert_eq!(a.aggregate.warp_insts, a0.aggregate.warp_insts, "{name}");
            assert!(
                t.wake_stall_cycles < s0.wake_stall_cycles,
                "{name} k = {k}: wake stalls fall with look-ahead"
            );
            assert!(
                t.lookahead_wakes > 0 && t.lookahead_hits > 0,
                "{name} k = {k}"
            );
            assert!(t.lookahead_wakes <= t.wake_events);
        }
    }
}

fn with(base: &GpuConfig, kv: &[(&str, &str)]) -> GpuConfig {
    let pairs: Vec<(String, String)> = kv
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    base.with_overrides(&pairs, "test").unwrap()
}

fn rf(k: &KernelActivity) -> &RfStats {
    k.rf.as_ref().expect("register-file record")
}

/// A kernel record without the register-file record (to compare timing and every counter).
fn without_rf(k: &KernelActivity) -> KernelActivity {
    let mut k = k.clone();
    k.rf = None;
    k
}

fn check_residency(a: &Activity, what: &str) {
    for k in &a.kernels {
        let r = rf(k);
        for res in &r.residency {
            assert_eq!(
                res.off + res.drowsy + res.waking + res.on,
                res.units * k.cycles,
                "{what} {}: residency sums to units × cycles",
                k.name
            );
        }
        if let Some(t) = &r.tric {
            assert_eq!(t.off_accesses, 0, "{what} {}: OFF entry accessed", k.name);
            assert_eq!(t.not_on_accesses, 0, "{what} {}: access before ON", k.name);
        }
    }
}

#[test]
fn tric_l1_takes_the_plain_cycles_and_tric_off_is_all_on() {
    let base = GpuConfig::preset("gtx480").unwrap();
    for name in ["hotspot", "bfs"] {
        let a0 = run(&base, name);
        let a1 = run(
            &with(
                &base,
                &[("tric.enabled", "true"), ("tric.wake_latency", "1")],
            ),
            name,
        );
        for (k0, k1) in a0.kernels.iter().zip(&a1.kernels) {
            assert_eq!(k0.cycles, k1.cycles, "{name}");
            assert_eq!(
                *k0,
                without_rf(k1),
                "{name}: every counter as the plain run"
            );
            let t = rf(k1).tric.as_ref().unwrap();
            assert_eq!(t.wake_stall_cycles, 0);
            assert!(t.wake_events > 0);
        }
        check_residency(&a1, name);
        // COMA alone: TRIC off, every entry ON for the whole kernel
        let ac = run(&with(&base, &[("coma.enabled", "true")]), name);
        for (k0, kc) in a0.kernels.iter().zip(&ac.kernels) {
            assert_eq!(*k0, without_rf(kc), "{name}: COMA changes no timing");
            let r = rf(kc);
            assert!(r.tric.is_none());
            let res = &r.residency[0];
            assert_eq!(res.on, res.units * kc.cycles, "{name}: 100 % ON");
            assert_eq!(res.off + res.drowsy + res.waking, 0);
        }
    }
}

#[test]
fn tric_variants_keep_results_and_invariants() {
    let base = GpuConfig::preset("gtx480").unwrap();
    let variants: [&[(&str, &str)]; 5] = [
        &[("tric.enabled", "true"), ("tric.wake_latency", "3")],
        &[
            ("tric.enabled", "true"),
            ("tric.wake_latency", "2"),
            ("tric.alloc_scope", "per_cta"),
        ],
        &[
            ("tric.enabled", "true"),
            ("tric.granularity", "entry_lane"),
            ("coma.enabled", "true"),
        ],
        &[
            ("tric.enabled", "true"),
            ("tric.dest_policy", "just_in_time"),
        ],
        &[
            ("rf.latency", "2"),
            ("rf.port_occupancy", "pipelined"),
            ("tric.enabled", "true"),
        ],
    ];
    for name in ["bfs", "nw"] {
        let a0 = run(&base, name);
        for v in variants {
            let cfg = with(&base, v);
            // `run` checks the functional result against the CPU reference
            let a = run(&cfg, name);
            check_residency(&a, &format!("{name} {v:?}"));
            for (k0, k) in a0.kernels.iter().zip(&a.kernels) {
                assert_eq!(k0.warp_insts, k.warp_insts, "{name} {v:?}");
                assert!(
                    k.cycles >= k0.cycles,
                    "{name} {v:?}: no technique is faster"
                );
                let r = rf(k);
                let reads: u64 = k.sms.iter().flat_map(|s| &s.rf.reads).sum();
                let writes: u64 = k.sms.iter().flat_map(|s| &s.rf.writes).sum();
                assert_eq!(r.parts[0].reads, reads, "{name} {v:?}");
                assert_eq!(r.parts[0].writes, writes, "{name} {v:?}");
            }
        }
    }
    // config values parse to the enums the model reads
    let c = with(&base, variants[1]);
    assert_eq!(c.tric.alloc_scope, TricAllocScope::PerCta);
    let c = with(&base, variants[2]);
    assert_eq!(c.tric.granularity, TricGranularity::EntryLane);
    assert_eq!(c.coma.lane_org, LaneOrg::Wide128B);
    let c = with(&base, variants[3]);
    assert_eq!(c.tric.dest_policy, DestPolicy::JustInTime);
    let c = with(&base, variants[4]);
    assert_eq!(c.rf.port_occupancy, PortOccupancy::Pipelined);
}

fn one_sm() -> GpuConfig {
    let mut c = GpuConfig::preset("gtx480").unwrap();
    c.gpu.n_sm = 1;
    c.frontend.perfect_icache = true;
    c
}

/// One warp issuing `n` independent instructions, each reading a register nothing touched
/// before (DROWSY) and writing a fresh one.
fn fresh_reads(cfg: &GpuConfig, n: u32) -> KernelActivity {
    let mut s = SynthStream::new(
        "fresh",
        [1, 1, 1],
        [32, 1, 1],
        64,
        0,
        Box::new(move |_, _| {
            (0..n)
                .map(|i| {
                    alu(
                        8 * i,
                        Family::Int,
                        OpClass::Add,
                        &[32 + i as u16],
                        &[i as u16],
                    )
                })
                .collect()
        }),
    );
    Simulation::new(cfg).run(Stream(&mut s)).unwrap()
}

#[test]
fn wake_stalls_are_l_minus_one_per_fresh_source() {
    let n = 20;
    let base = fresh_reads(&one_sm(), n);
    for l in [1u32, 2, 3] {
        let mut cfg = one_sm();
        cfg.tric.enabled = true;
        cfg.tric.wake_latency = l;
        let k = fresh_reads(&cfg, n);
        let t = rf(&k).tric.clone().unwrap();
        assert_eq!(t.wake_stall_cycles, (l as u64 - 1) * n as u64, "L = {l}");
        assert_eq!(
            t.wake_stalled_insts,
            if l > 1 { n as u64 } else { 0 },
            "L = {l}"
        );
        // every source and destination woken once
        assert_eq!(t.wake_events, 2 * n as u64, "L = {l}");
        assert!(k.cycles >= base.cycles + (l as u64 - 1), "L = {l}");
        if l == 1 {
            assert_eq!(k.cycles, base.cycles);
        }
        let r = &rf(&k).residency[0];
        assert_eq!(r.off + r.drowsy + r.waking + r.on, r.units * k.cycles);
        // each woken entry spends exactly L cycles WAKING
        assert_eq!(r.waking, l as u64 * 2 * n as u64, "L = {l}");
    }
}

#[test]
fn multi_cycle_access_latency_delays_operands() {
    // a dependent chain: each instruction waits for the previous result, so every extra
    // cycle of read and write latency shows in the period
    let chain = |cfg: &GpuConfig, n: u32| {
        let mut s = SynthStream::new(
            "chain",
            [1, 1, 1],
            [32, 1, 1],
            8,
            0,
            Box::new(move |_, _| {
                (0..n)
                    .map(|i| alu(8 * i, Family::Fp, OpClass::Add, &[1], &[1]))
                    .collect()
            }),
        );
        Simulation::new(cfg).run(Stream(&mut s)).unwrap().cycles
    };
    let per = |cfg: &GpuConfig| (chain(cfg, 40) - chain(cfg, 20)) as f64 / 20.0;
    let p1 = per(&one_sm());
    for lat in [2u32, 3] {
        let mut cfg = one_sm();
        cfg.rf.latency = lat;
        let p = per(&cfg);
        // the read arrives lat − 1 cycles later, and the write completes lat − 1 later
        assert_eq!(p, p1 + 2.0 * (lat as f64 - 1.0), "rf.latency = {lat}");
    }
}

/// One warp, `n` independent instructions with active mask `mask`.
fn masked(cfg: &GpuConfig, n: u32, mask: u32) -> KernelActivity {
    let mut s = SynthStream::new(
        "masked",
        [1, 1, 1],
        [32, 1, 1],
        16,
        0,
        Box::new(move |_, _| {
            (0..n)
                .map(|i| {
                    let mut w = alu(
                        8 * i,
                        Family::Fp,
                        OpClass::Add,
                        &[8 + (i % 4) as u16],
                        &[(i % 4) as u16, 4],
                    );
                    w.active_mask = mask;
                    w
                })
                .collect()
        }),
    );
    Simulation::new(cfg).run(Stream(&mut s)).unwrap()
}

#[test]
fn coma_full_masks_drive_every_lane_and_partial_masks_only_active_ones() {
    let mut cfg = one_sm();
    cfg.coma.enabled = true;
    // all-ones masks: exactly the plain file's access energy (φ = 1 per access)
    let k = masked(&cfg, 16, u32::MAX);
    let r = rf(&k);
    assert_eq!(r.driven_fraction(), Some(1.0));
    let p = &r.parts[0];
    assert_eq!(p.read_driven_lanes, 32 * p.reads);
    assert_eq!(p.write_driven_lanes, 32 * p.writes);
    assert_eq!(r.mask_table_reads, p.reads);
    assert_eq!(r.mask_table_writes, r.cu_allocs);
    // half the lanes: half the driven lanes, for reads and writes alike
    let k = masked(&cfg, 16, 0x0000_ffff);
    let p = &rf(&k).parts[0];
    assert_eq!(p.read_driven_lanes, 16 * p.reads);
    // one lane in a quad drives the whole quad
    cfg.coma.lane_org = LaneOrg::Cluster4x16B;
    let k = masked(&cfg, 16, 0x0000_0001);
    let p = &rf(&k).parts[0];
    assert_eq!(p.read_driven_lanes, 4 * p.reads);
    // without COMA every access drives 32 lanes whatever the mask
    let mut plain = one_sm();
    plain.rf.latency = 2;
    let k = masked(&plain, 16, 0x0000_0001);
    assert_eq!(rf(&k).driven_fraction(), Some(1.0));
    // divergent bfs: one-lane segments drive exactly the active lanes
    let base = GpuConfig::preset("gtx480").unwrap();
    let a = run(&with(&base, &[("coma.enabled", "true")]), "bfs");
    for k in &a.kernels {
        let r = rf(k);
        let read_lanes: u64 = k.sms.iter().flat_map(|s| &s.rf.read_lanes).sum();
        let write_lanes: u64 = k.sms.iter().flat_map(|s| &s.rf.write_lanes).sum();
        assert_eq!(r.parts[0].read_driven_lanes, read_lanes);
        assert_eq!(r.parts[0].write_driven_lanes, write_lanes);
        assert!(r.driven_fraction().unwrap() < 1.0);
    }
}

/// Our own measurement (register-file spec §9, Warped RF): normalised execution time and
/// residency per TRIC state for L = 1, 2, 3 and for L = 3 with look-ahead k = 1, 2, 3 (COMA
/// on), gtx480 at the test size. Run with
/// `cargo test --release -p sim --test rf_warped -- --ignored --nocapture`.
#[test]
#[ignore]
fn measure_tric_slowdown_and_residency() {
    let base = GpuConfig::preset("gtx480").unwrap();
    println!(
        "{:<10} {:>2} {:>2} {:>10} {:>8} {:>7} {:>7} {:>7} {:>7} {:>9} {:>11} {:>7} {:>9}",
        "workload",
        "L",
        "k",
        "cycles",
        "norm",
        "OFF%",
        "DROWSY%",
        "WAKING%",
        "ON%",
        "wake/kI",
        "wake-stall",
        "driven",
        "mispred%"
    );
    for name in ["hotspot", "bfs", "nw", "backprop", "pathfinder", "sgemm"] {
        let a0 = run(&base, name);
        let c0 = a0.aggregate.cycles;
        // L = 1, 2, 3 without look-ahead, then L = 3 with look-ahead k = 1, 2, 3
        for (l, la) in [(1u32, 0u32), (2, 0), (3, 0), (3, 1), (3, 2), (3, 3)] {
            let cfg = with(
                &base,
                &[
                    ("tric.enabled", "true"),
                    ("coma.enabled", "true"),
                    ("tric.wake_latency", &l.to_string()),
                    ("tric.lookahead", &la.to_string()),
                ],
            );
            let a = run(&cfg, name);
            let k = &a.aggregate;
            let r = rf(k);
            let res = &r.residency[0];
            let tot = (res.off + res.drowsy + res.waking + res.on) as f64;
            let t = r.tric.as_ref().unwrap();
            println!(
                "{:<10} {:>2} {:>2} {:>10} {:>8.4} {:>7.2} {:>7.2} {:>7.2} {:>7.2} {:>9.1} {:>11} {:>7.4} {:>9.1}",
                name,
                l,
                la,
                k.cycles,
                k.cycles as f64 / c0 as f64,
                100.0 * res.off as f64 / tot,
                100.0 * res.drowsy as f64 / tot,
                100.0 * res.waking as f64 / tot,
                100.0 * res.on as f64 / tot,
                1000.0 * t.wake_events as f64 / k.warp_insts as f64,
                t.wake_stall_cycles,
                r.driven_fraction().unwrap_or(0.0),
                100.0 * t.lookahead_mispredicted as f64 / t.lookahead_wakes.max(1) as f64
            );
        }
    }
}

/// One one-warp CTA of 8 registers per thread running a few dependent instructions on R0…R7.
fn eight_regs(cfg: &GpuConfig) -> KernelActivity {
    let mut s = SynthStream::new(
        "eight",
        [1, 1, 1],
        [32, 1, 1],
        8,
        0,
        Box::new(move |_, _| {
            (0..8u32)
                .map(|i| {
                    let r = i as u16;
                    alu(8 * i, Family::Int, OpClass::Add, &[(r + 1) % 8], &[r])
                })
                .collect()
        }),
    );
    Simulation::new(cfg).run(Stream(&mut s)).unwrap()
}

/// §8.2 `tric.gate_periphery_if_bank_off`: the run records, per bank, the cycles in which all
/// its entries are OFF. With `rf.bank_map = "reg_only"` an entry (w, r) sits in bank r mod 16,
/// so under `kernel_static` allocation (allocated entries never OFF) the banks at and above
/// the allocated registers per thread are OFF for the whole kernel and the others never are:
/// exactly (banks − regs) × cycles. Under `per_cta` the allocated banks are OFF too while no CTA
/// holds the slot, so the count can only grow. Without the knob nothing is recorded.
#[test]
fn bank_off_cycles_are_recorded_per_bank() {
    let at = |scope: &str, gate: bool| {
        let mut cfg = with(
            &one_sm(),
            &[
                ("tric.enabled", "true"),
                ("tric.alloc_scope", scope),
                ("rf.bank_map", "\"reg_only\""),
                (
                    "tric.gate_periphery_if_bank_off",
                    if gate { "true" } else { "false" },
                ),
            ],
        );
        cfg.gpu.n_sm = 1;
        eight_regs(&cfg)
    };
    let nb = one_sm().rf.n_banks as u64;
    assert!(nb > 8);
    let k = at("\"kernel_static\"", true);
    let r = &rf(&k).residency[0];
    // allocated entries: the OFF unit-cycles are exactly the unallocated entries' (kernel_static)
    assert_eq!(r.off % k.cycles, 0);
    let alloc_entries = r.units - r.off / k.cycles;
    let regs = 8; // 8 registers per thread, a multiple of every allocation granularity here
    assert_eq!(alloc_entries % regs, 0, "{r:?}");
    assert_eq!(r.bank_off_cycles, (nb - regs) * k.cycles, "{r:?}");
    let p = at("\"per_cta\"", true);
    let rp = &rf(&p).residency[0];
    assert_eq!(p.cycles, k.cycles);
    assert!(rp.bank_off_cycles > r.bank_off_cycles, "{rp:?}");
    assert!(rp.bank_off_cycles <= nb * p.cycles);
    let off = at("\"kernel_static\"", false);
    assert_eq!(rf(&off).residency[0].bank_off_cycles, 0);
    assert!(!serde_json::to_string(&off)
        .unwrap()
        .contains("bank_off_cycles"));
}
