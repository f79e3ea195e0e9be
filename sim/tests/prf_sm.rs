//! The partitioned RF, the adaptive FRF, the MRF baselines and the RF cache through the full SM
//! (register-file spec §5, §6, §7, §11): the limits of n reproduce the monolithic baselines'
//! cycles, an SRF as fast as the FRF gives the plain RF's cycles, the FRF + SRF accesses are the
//! plain RF's, the access split sums, the pilot's counters are its operand accesses, the
//! adaptive FRF's threshold limits, the RF cache's MRF traffic, and functional results never
//! change.

mod common;

use common::run_checked as run;
use sim::activity::{Activity, KernelActivity, PrfRecord, RfStats};
use sim::config::GpuConfig;
use sim::timing::rf::Part;

fn with(base: &GpuConfig, kv: &[(&str, &str)]) -> GpuConfig {
    let pairs: Vec<(String, String)> = kv
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    base.with_overrides(&pairs, "test").unwrap()
}

fn gtx780() -> GpuConfig {
    GpuConfig::preset("gtx780").unwrap()
}

fn rf(k: &KernelActivity) -> &RfStats {
    k.rf.as_ref().expect("register-file record")
}

fn prf(k: &KernelActivity) -> &PrfRecord {
    rf(k).prf.as_ref().expect("partitioned-RF record")
}

/// (reads, writes) of structure `part` (`"mrf"`, `"frf_high"`, …) in a kernel's record.
fn part(k: &KernelActivity, part: &str) -> (u64, u64) {
    rf(k)
        .parts
        .iter()
        .find(|p| p.part == part)
        .map_or((0, 0), |p| (p.reads, p.writes))
}

/// Register-file (reads, writes) of a kernel as the banks counted them.
fn bank_accesses(k: &KernelActivity) -> (u64, u64) {
    k.sms.iter().fold((0, 0), |(r, w), s| {
        (
            r + s.rf.reads.iter().sum::<u64>(),
            w + s.rf.writes.iter().sum::<u64>(),
        )
    })
}

/// A kernel record without the register-file record (to compare timing and every counter).
fn without_rf(k: &KernelActivity) -> KernelActivity {
    let mut k = k.clone();
    k.rf = None;
    k
}

fn same_timing(a: &Activity, b: &Activity, what: &str) {
    assert_eq!(a.kernels.len(), b.kernels.len(), "{what}");
    for (x, y) in a.kernels.iter().zip(&b.kernels) {
        assert_eq!(x.cycles, y.cycles, "{what} {}: cycles", x.name);
        assert_eq!(without_rf(x), without_rf(y), "{what} {}", x.name);
    }
}

const PRF: (&str, &str) = ("prf.enabled", "true");

/// §11: n = 63 with the adaptive FRF off is MRF@STV (every access to FRF_high at 1 cycle, the
/// same banks); n = 0 is MRF@NTV with the same latency (every access to the SRF). The FRF of
/// n = 63 must fit in the register file (63 × warps ≤ 2048 entries), so the machine keeps 32
/// warp slots.
#[test]
fn limits_of_n_reproduce_the_monolithic_baselines() {
    let base = with(&gtx780(), &[("sm.max_warps", "32")]);
    for name in ["hotspot", "bfs"] {
        let stv = run(&base, name);
        let p63 = run(&with(&base, &[PRF, ("prf.n_fast", "63")]), name);
        same_timing(&stv, &p63, &format!("n = 63 vs MRF@STV, {name}"));
        let ntv = run(
            &with(&base, &[("mrf.region", "\"NTV\""), ("mrf.lat", "3")]),
            name,
        );
        let p0 = run(
            &with(&base, &[PRF, ("prf.n_fast", "0"), ("prf.lat_srf", "3")]),
            name,
        );
        same_timing(&ntv, &p0, &format!("n = 0 vs MRF@NTV, {name}"));
        for (k0, kn) in p0.kernels.iter().zip(&ntv.kernels) {
            assert_eq!(part(k0, "srf"), part(kn, "mrf"), "{name} {}", k0.name);
            assert_eq!(part(k0, "frf_high"), (0, 0));
            assert!(ntv.kernels.iter().all(|k| !prf(k).enabled));
        }
        for k in &p63.kernels {
            assert_eq!(part(k, "srf"), (0, 0), "{name} {}", k.name);
            assert_eq!(
                prf(k).events.profiles_skipped,
                k.launches * k.sms.len() as u64
            );
        }
        // MRF@NTV is slower than MRF@STV
        assert!(ntv.aggregate.cycles > stv.aggregate.cycles, "{name}");
    }
}

/// §11: SRF latency = FRF latency = 1 with the adaptive FRF off gives the plain RF's cycles
/// while the mapping is the identity (a swap moves registers to other banks, §5.2, which
/// changes bank conflicts: here the table is never filled, `prf.sort_latency` beyond the
/// kernel), and the FRF + SRF accesses are the plain RF's accesses (with the default SRF
/// latency and the swap too); the split sums to the total and matches the bank counts and the
/// events.
#[test]
fn srf_at_frf_latency_takes_the_plain_cycles_and_accesses_add_up() {
    let base = gtx780();
    for name in ["hotspot", "sgemm", "nw"] {
        let plain = run(&base, name);
        let fast = run(
            &with(
                &base,
                &[
                    PRF,
                    ("prf.lat_srf", "1"),
                    ("prf.sort_latency", "1000000000"),
                ],
            ),
            name,
        );
        same_timing(&plain, &fast, &format!("lat_srf = 1, {name}"));
        let slow = run(&with(&base, &[PRF]), name);
        for (kp, ks) in plain.kernels.iter().zip(&slow.kernels) {
            let (r, w) = bank_accesses(kp);
            let frf = part(ks, "frf_high");
            let srf = part(ks, "srf");
            assert_eq!(part(ks, "frf_low"), (0, 0));
            assert_eq!((frf.0 + srf.0, frf.1 + srf.1), (r, w), "{name} {}", kp.name);
            assert_eq!(bank_accesses(ks), (r, w), "{name} {}", kp.name);
            let ev = &prf(ks).events;
            assert_eq!(ev.reads(Part::FrfHigh), frf.0);
            assert_eq!(ev.writes(Part::Srf), srf.1);
            assert_eq!(ev.reads(Part::Mrf) + ev.writes(Part::Mrf), 0);
            // one profiled kernel per SM that ran a CTA: one sort each, 2n × copies writes
            assert!(ev.sorts <= ks.launches * ks.sms.len() as u64);
            assert!(prf(ks).pilot_cycles <= prf(ks).sm_cycles);
            assert!(srf.0 + srf.1 > 0, "{name}: some accesses go to the SRF");
        }
        assert!(
            slow.aggregate.cycles >= plain.aggregate.cycles,
            "{name}: a 3-cycle SRF does not speed the kernel up"
        );
    }
}

/// §11: a pilot counter equals the pilot's operand accesses (cross-checked against the
/// instruction stream): one CTA of two warps on one SM, the pilot (warp 0) runs a known
/// program, warp 1 a longer one that outlives the pilot and so uses the filled table.
#[test]
fn pilot_counters_equal_its_operand_accesses() {
    use sim::inst::{Family, OpClass};
    use sim::timing::synth::{alu, SynthStream};
    use sim::timing::{Simulation, Stream};
    let mut cfg = with(&gtx780(), &[PRF]);
    cfg.gpu.n_sm = 1;
    cfg.frontend.perfect_icache = true;
    // (dst, srcs): R9 and R10 hot, R2 read twice by one instruction
    let prog = |n: u32| -> Vec<(Vec<u16>, Vec<u16>)> {
        (0..n)
            .map(|i| match i % 4 {
                0 => (vec![9], vec![10, 11]),
                1 => (vec![10], vec![9, 9]),
                2 => (vec![12], vec![2, 2]),
                _ => (vec![9], vec![10, 13]),
            })
            .collect()
    };
    let (n0, n1) = (40u32, 400u32);
    let expect: u64 = prog(n0)
        .iter()
        .map(|(d, s)| (d.len() + s.len()) as u64)
        .sum();
    let mut s = SynthStream::new(
        "pilot",
        [1, 1, 1],
        [64, 1, 1],
        16,
        0,
        Box::new(move |_, w| {
            let n = if w == 0 { n0 } else { n1 };
            prog(n)
                .iter()
                .enumerate()
                .map(|(i, (d, s))| alu(8 * i as u32, Family::Int, OpClass::Add, d, s))
                .collect()
        }),
    );
    let k = Simulation::new(&cfg).run(Stream(&mut s)).unwrap();
    let ev = &prf(&k).events;
    assert_eq!(ev.pilot_counter_increments, expect);
    assert_eq!(ev.sorts, 1);
    // hot set R9, R10, R2, R11 (ties to the lower id); R2 is already fast, so 3 pairs:
    // 2 entries each × 4 copies
    assert_eq!(ev.table_writes, 3 * 2 * 4);
    assert!(
        ev.swap_lookups > 0,
        "warp 1 uses the table after the pilot's exit"
    );
    let p = prf(&k);
    assert!(p.pilot_cycles > 0 && p.pilot_cycles < p.sm_cycles);
    // R9 and R10 moved to the FRF: warp 1's later accesses of them are fast
    assert!(part(&k, "frf_high").0 > part(&k, "srf").0);
}

/// §11: adaptive FRF with threshold 0 is always FRF_high; with a threshold above
/// epoch × issue width it is FRF_low from the second epoch on.
#[test]
fn adaptive_frf_threshold_limits() {
    let base = with(&gtx780(), &[PRF, ("afrf.enabled", "true")]);
    let high = run(&with(&base, &[("afrf.threshold", "0")]), "hotspot");
    for k in &high.kernels {
        let p = prf(k);
        assert_eq!(part(k, "frf_low"), (0, 0), "{}", k.name);
        assert_eq!((p.epochs_low, p.mode_switches, p.frf_low_cycles), (0, 0, 0));
        assert!(p.epochs > 0);
    }
    // gtx780: 4 schedulers × 2 issue × 50 cycles = 400 < 512 = 2^9
    let low = run(&with(&base, &[("afrf.threshold", "512")]), "hotspot");
    for k in &low.kernels {
        let p = prf(k);
        let (hr, hw) = part(k, "frf_high");
        let (lr, lw) = part(k, "frf_low");
        assert!(lr + lw > 10 * (hr + hw), "{}: mostly FRF_low", k.name);
        // every SM's first epoch of a launch is FRF_high, every later one FRF_low
        let sms = k.launches * k.sms.len() as u64;
        assert_eq!(p.epochs_low + sms, p.epochs, "{}", k.name);
        assert!(p.frf_low_cycles > 0 && p.frf_low_cycles <= p.sm_cycles);
    }
    // the default threshold lands in between and still sums
    let mid = run(&base, "hotspot");
    for k in &mid.kernels {
        let total: u64 = rf(k).parts.iter().map(|p| p.reads + p.writes).sum();
        let (r, w) = bank_accesses(k);
        assert_eq!(total, r + w, "{}", k.name);
    }
}

/// §7.4: with the RF cache the MRF serves exactly the read misses (no allocation on a read
/// miss), every read is one tag check, and the MRF's writes are the bypassed results plus the
/// write-backs; all writes of active warps go to the RFC.
#[test]
fn rf_cache_mrf_traffic() {
    let base = with(
        &gtx780(),
        &[("rfc.enabled", "true"), ("sched.policy", "\"two_level\"")],
    );
    for name in ["hotspot", "bfs"] {
        let a = run(&base, name);
        let plain = run(&with(&gtx780(), &[("sched.policy", "\"two_level\"")]), name);
        for (k, kp) in a.kernels.iter().zip(&plain.kernels) {
            let ev = &prf(k).events;
            let (mr, mw) = part(k, "mrf");
            let (cr, cw) = part(k, "rfc");
            assert_eq!(mr, ev.rfc_read_misses, "{name} {}", k.name);
            assert_eq!(cr, ev.rfc_read_hits, "{name} {}", k.name);
            assert_eq!(mr + cr, ev.rfc_read_tag_checks);
            assert_eq!(cw, ev.rfc_writes);
            assert!(mw >= ev.rfc_writebacks());
            assert!(ev.rfc_read_hits > 0 && ev.rfc_writes > 0, "{name}");
            // every operand read and result write of the plain run is one RFC or MRF access
            let (r, w) = bank_accesses(kp);
            assert_eq!(mr + cr, r, "{name} {}", k.name);
            assert_eq!(mw - ev.rfc_writebacks() + cw, w, "{name} {}", k.name);
            // the MRF banks serve the misses, the bypassed results and the write-backs (a
            // write-back still queued when the kernel ends took no port); RFC hits and
            // cached results take RFC ports only
            let (br, bw) = bank_accesses(k);
            assert_eq!(br, mr, "{name} {}", k.name);
            assert!(bw <= mw && bw + 64 >= mw, "{name} {}: {bw} vs {mw}", k.name);
        }
    }
}

/// `prf.remap_policy = "migrate"`: the migration accesses are counted (4 per swap pair and
/// migrated warp) and the kernel completes; "new_warps_only" never migrates.
#[test]
fn migration_accesses_are_counted() {
    let base = with(&gtx780(), &[PRF, ("prf.remap_policy", "\"migrate\"")]);
    let a = run(&base, "sgemm");
    let ev = &prf(&a.kernels[0]).events;
    // requests go FRF read, SRF read, FRF write, SRF write per pair; a warp that exits drops
    // the rest
    assert!(ev.migration_frf_reads > 0);
    assert!(ev.migration_frf_reads >= ev.migration_srf_reads);
    assert!(ev.migration_srf_reads >= ev.migration_frf_writes);
    assert!(ev.migration_frf_writes >= ev.migration_srf_writes);
    let b = run(
        &with(
            &gtx780(),
            &[PRF, ("prf.remap_policy", "\"new_warps_only\"")],
        ),
        "sgemm",
    );
    assert_eq!(prf(&b.kernels[0]).events.migration_accesses(), 0);
}

/// `prf.reprofile_every_cycles`: a kernel longer than the interval is re-profiled (rounds
/// started, one more sort per finished round) under every remap policy, functional results
/// unchanged; with 0 nothing is re-profiled.
#[test]
fn reprofiling_within_a_kernel() {
    for policy in ["\"instant\"", "\"new_warps_only\"", "\"migrate\""] {
        let cfg = with(
            &gtx780(),
            &[
                PRF,
                ("prf.remap_policy", policy),
                ("prf.reprofile_every_cycles", "400"),
            ],
        );
        let a = run(&cfg, "sgemm");
        let k = &a.kernels[0];
        let ev = &prf(k).events;
        assert!(ev.reprofiles > 0, "{policy}: {} cycles", k.cycles);
        // per SM: one sort for the first round, one per re-profiling round that ended
        assert!(ev.sorts > ev.reprofiles / 2, "{policy}: {ev:?}");
        let b = run(
            &with(&gtx780(), &[PRF, ("prf.remap_policy", policy)]),
            "sgemm",
        );
        assert_eq!(prf(&b.kernels[0]).events.reprofiles, 0);
    }
}

/// `prf.n_fast` beyond the kernel's registers with `prf.skip_if_fits = false` stops at the
/// launch with an error naming the key; an unresolved `"derived"` SRF latency too.
#[test]
fn launch_errors_name_the_key() {
    let cfg = with(
        &gtx780(),
        &[PRF, ("prf.n_fast", "32"), ("prf.skip_if_fits", "false")],
    );
    let mut gpu = sim::timing::Simulation::new(&cfg).gpu().unwrap();
    let e = sim::workloads::find("hotspot")
        .unwrap()
        .run(sim::workloads::Size::Test, &mut gpu, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("'prf.n_fast'"), "{e}");
    let cfg = with(&gtx780(), &[PRF, ("prf.lat_srf", "\"derived\"")]);
    let mut gpu = sim::timing::Simulation::new(&cfg).gpu().unwrap();
    let e = sim::workloads::find("hotspot")
        .unwrap()
        .run(sim::workloads::Size::Test, &mut gpu, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("'prf.lat_srf'"), "{e}");
}

/// Combinations the timing model does not run are refused naming both keys.
#[test]
fn incompatible_combinations_are_refused() {
    let load = |kv: &[(&str, &str)]| {
        let pairs: Vec<(String, String)> = kv
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        gtx780()
            .with_overrides(&pairs, "test")
            .unwrap_err()
            .to_string()
    };
    let e = load(&[("afrf.enabled", "true")]);
    assert!(
        e.contains("'afrf.enabled'") && e.contains("'prf.enabled'"),
        "{e}"
    );
    let e = load(&[PRF, ("rfc.enabled", "true")]);
    assert!(
        e.contains("'rfc.enabled'") && e.contains("'prf.enabled'"),
        "{e}"
    );
    let e = load(&[PRF, ("tric.enabled", "true")]);
    assert!(
        e.contains("'tric.enabled'") && e.contains("'prf.enabled'"),
        "{e}"
    );
    let e = load(&[PRF, ("rf.latency", "2")]);
    assert!(
        e.contains("'rf.latency'") && e.contains("'prf.enabled'"),
        "{e}"
    );
}

/// The knob sets of the register-file techniques (partitioned RF, adaptive FRF, RF cache,
/// MRF@NTV, migration) leave every test-size workload's functional results unchanged (the
/// workload's own reference check).
#[test]
fn every_technique_keeps_every_workload_correct() {
    let base = gtx780();
    let techniques: [&[(&str, &str)]; 5] = [
        &[PRF],
        &[PRF, ("afrf.enabled", "true")],
        &[("rfc.enabled", "true")],
        &[("mrf.region", "\"NTV\""), ("mrf.lat", "3")],
        &[PRF, ("prf.remap_policy", "\"migrate\"")],
    ];
    for w in sim::workloads::all() {
        let name = w.info().name;
        for t in techniques {
            run(&with(&base, t), name);
        }
    }
}

/// A one-warp kernel on one SM of `cfg` running `prog` (destination, sources) per instruction.
fn synth(cfg: &GpuConfig, prog: Vec<(Vec<u16>, Vec<u16>)>) -> KernelActivity {
    use sim::inst::{Family, OpClass};
    use sim::timing::synth::{alu, SynthStream};
    use sim::timing::{Simulation, Stream};
    let mut s = SynthStream::new(
        "synth",
        [1, 1, 1],
        [32, 1, 1],
        40,
        0,
        Box::new(move |_, _| {
            prog.iter()
                .enumerate()
                .map(|(i, (d, s))| alu(8 * i as u32, Family::Int, OpClass::Add, d, s))
                .collect()
        }),
    );
    Simulation::new(cfg).run(Stream(&mut s)).unwrap()
}

fn one_sm(kv: &[(&str, &str)]) -> GpuConfig {
    let mut c = with(&gtx780(), kv);
    c.gpu.n_sm = 1;
    c.frontend.perfect_icache = true;
    c
}

/// §11: the bank port is exclusive between the FRF and SRF halves of a bank. Warp 0's R24
/// (SRF, 3 cycles, `full_latency`) and R0 (FRF) share bank 0 of 24: the FRF read waits for
/// the SRF read's port; R25 (bank 1) does not.
#[test]
fn bank_port_is_shared_by_the_frf_and_srf_halves() {
    let cfg = one_sm(&[PRF, ("rf.port_occupancy", "\"full_latency\"")]);
    let b = cfg.rf.n_banks as u16;
    let same = synth(&cfg, vec![(vec![30], vec![b]), (vec![31], vec![0])]);
    let other = synth(&cfg, vec![(vec![30], vec![b + 1]), (vec![31], vec![0])]);
    assert_eq!(part(&same, "srf").0, 1);
    assert_eq!(part(&same, "frf_high").0, 1);
    assert!(rf(&same).conflicts_read_read > 0, "{:?}", rf(&same));
    assert_eq!(rf(&other).conflicts_read_read, 0);
}

/// §2.3 / §5.2 / §5.3 with `rf.port_occupancy`: an SRF access takes its bank's only port for
/// its whole latency under `"full_latency"` and for its grant cycle under `"pipelined"`. Eight
/// independent instructions of warp 0 read R24 (SRF under the identity mapping, bank 0): under
/// `"full_latency"` bank 0 grants one of them every `prf.lat_srf` = 3 cycles, under
/// `"pipelined"` one a cycle, so the run is at least 2 cycles per read after the first longer
/// (the results go to R30…R37, banks 6…13, away from bank 0). The same program on R0 (FRF, one
/// cycle) takes the same cycles under both. This is the bank bandwidth an SRF access costs.
#[test]
fn an_srf_access_holds_its_bank_for_its_latency_under_full_latency() {
    let n = 8u16;
    let prog = |src: u16| -> Vec<(Vec<u16>, Vec<u16>)> {
        (0..n).map(|i| (vec![30 + i], vec![src])).collect()
    };
    let full = one_sm(&[PRF, ("rf.port_occupancy", "\"full_latency\"")]);
    let piped = one_sm(&[PRF, ("rf.port_occupancy", "\"pipelined\"")]);
    let (f, p) = (synth(&full, prog(24)), synth(&piped, prog(24)));
    assert_eq!(part(&f, "srf").0, n as u64);
    assert!(
        f.cycles >= p.cycles + 2 * (n as u64 - 1),
        "full_latency {} vs pipelined {} cycles",
        f.cycles,
        p.cycles
    );
    assert!(rf(&f).conflicts_read_read > rf(&p).conflicts_read_read);
    let (f0, p0) = (synth(&full, prog(0)), synth(&piped, prog(0)));
    assert_eq!(part(&f0, "frf_high").0, n as u64);
    assert_eq!(f0.cycles, p0.cycles);
}

/// §5.3: an SRF read delivers `prf.lat_srf` cycles after its grant and an SRF write completes
/// (and leaves the scoreboard) `prf.lat_srf` cycles after its grant, so a chain of dependent
/// instructions on SRF registers (R(5+i) ← R(4+i), one warp, identity mapping) is
/// 2 × (lat_srf − 1) = 4 cycles longer per link than with a one-cycle SRF; under
/// `"pipelined"` no bank is held, so the difference is latency alone.
#[test]
fn a_dependent_srf_chain_waits_the_srf_latency_on_read_and_write() {
    let n = 16u16;
    let prog: Vec<(Vec<u16>, Vec<u16>)> = (0..n).map(|i| (vec![5 + i], vec![4 + i])).collect();
    let slow = one_sm(&[PRF, ("rf.port_occupancy", "\"pipelined\"")]);
    let fast = one_sm(&[
        PRF,
        ("rf.port_occupancy", "\"pipelined\""),
        ("prf.lat_srf", "1"),
    ]);
    let (s, f) = (synth(&slow, prog.clone()), synth(&fast, prog));
    assert_eq!(part(&s, "srf"), (n as u64, n as u64));
    assert_eq!(
        s.cycles,
        f.cycles + 4 * n as u64,
        "lat_srf 3: {} cycles, lat_srf 1: {}",
        s.cycles,
        f.cycles
    );
}

/// §7.4 ports and oracle liveness on a directed one-warp program (2 RFC entries per warp,
/// FIFO): R1←R0, R2←R1, R3←R2 (evicts R1), R4←R1,R3 (R1 misses; evicts R2), R2←R4 (evicts
/// R3); each instruction after the first depends on its predecessor, so the accesses come in
/// program order. Reads: R0 and the second R1 miss (MRF bank reads), R1, R2, R3, R4 hit (RFC
/// ports, no bank port). `"none"`: the evictions of R1, R2, R3 are written back through MRF bank ports.
/// `"oracle"`: only R1 (read after its eviction) is; R2 (rewritten) and R3 (never read before
/// the exit) are dropped dead.
#[test]
fn rf_cache_ports_and_oracle_liveness_directed() {
    let prog = || {
        vec![
            (vec![1], vec![0]),
            (vec![2], vec![1]),
            (vec![3], vec![2]),
            (vec![4], vec![1, 3]),
            (vec![2], vec![4]),
        ]
    };
    for (liveness, wbs, dead) in [("\"none\"", 3, 0), ("\"oracle\"", 1, 2)] {
        let cfg = one_sm(&[
            ("rfc.enabled", "true"),
            ("rfc.entries_per_warp", "2"),
            ("rfc.liveness", liveness),
        ]);
        let k = synth(&cfg, prog());
        let ev = &prf(&k).events;
        assert_eq!(ev.rfc_read_hits, 4, "{liveness}");
        assert_eq!(ev.rfc_read_misses, 2, "{liveness}");
        assert_eq!(ev.rfc_writes, 5, "{liveness}");
        assert_eq!(ev.rfc_eviction_writebacks, wbs, "{liveness}");
        assert_eq!(ev.rfc_flush_writebacks, 0, "{liveness}");
        assert_eq!(ev.rfc_dead_drops, dead, "{liveness}");
        assert_eq!(ev.rfc_port_conflicts, 0, "{liveness}");
        assert_eq!(part(&k, "mrf"), (2, wbs), "{liveness}");
        assert_eq!(part(&k, "rfc"), (4, 5), "{liveness}");
        // the MRF banks saw exactly the misses and the write-backs
        assert_eq!(bank_accesses(&k), (2, wbs), "{liveness}");
    }
}

/// RFC read ports are the RFC's own: R3←R1,R2 with both sources cached needs two RFC reads in
/// one cycle. With `rfc.read_ports = 1` the second is a counted RFC port conflict and is read
/// the next cycle (one cycle more); with 2 there is none. Neither hit takes an MRF bank port.
#[test]
fn rf_cache_read_port_conflict_directed() {
    let prog = || {
        vec![
            (vec![1], vec![0]),
            (vec![2], vec![0]),
            (vec![3], vec![1, 2]),
        ]
    };
    let run = |ports: &str| {
        let cfg = one_sm(&[
            ("rfc.enabled", "true"),
            ("rfc.read_ports", ports),
            ("rfc.write_ports", "2"),
        ]);
        synth(&cfg, prog())
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(prf(&one).events.rfc_read_hits, 2);
    assert_eq!(prf(&one).events.rfc_port_conflicts, 1);
    assert_eq!(prf(&two).events.rfc_port_conflicts, 0);
    assert_eq!(one.cycles, two.cycles + 1);
    assert_eq!(bank_accesses(&one).0, 2);
    assert_eq!(bank_accesses(&two).0, 2);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]
        /// Any program, n and SRF latency: every access goes to exactly one of FRF and SRF
        /// (their sum is the bank count), and the pilot's counter increments are its operand
        /// accesses (one warp: the pilot).
        #[test]
        fn accesses_split_and_pilot_counts(
            n in 0u32..8,
            lat in 1u32..6,
            prog in proptest::collection::vec(
                (0u16..12, proptest::collection::vec(0u16..12, 1..3)), 1..40),
        ) {
            let n_s = n.to_string();
            let lat_s = lat.to_string();
            let cfg = one_sm(&[PRF, ("prf.n_fast", &n_s), ("prf.lat_srf", &lat_s)]);
            let expect: u64 = prog.iter().map(|(_, s)| s.len() as u64 + 1).sum();
            let prog: Vec<(Vec<u16>, Vec<u16>)> =
                prog.into_iter().map(|(d, s)| (vec![d], s)).collect();
            let k = synth(&cfg, prog);
            let (r, w) = bank_accesses(&k);
            let f = part(&k, "frf_high");
            let s = part(&k, "srf");
            prop_assert_eq!((f.0 + s.0, f.1 + s.1), (r, w));
            prop_assert_eq!(prf(&k).events.pilot_counter_increments, expect);
        }
    }
}
