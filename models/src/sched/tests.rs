//! Unit tests of the scheduling model: the worked example of analytical-model §2.6 and the
//! other checks that section lists (T(g, b) with fu ≡ 1, no phantom wave, limiter selection,
//! rounding before division), plus the launch checker and the §6 hooks.

use super::*;

/// The §2.6 machine: unit 1 with t = 1, m = 1, s = 1 (latency 1) and unit 2 with t = 3 and
/// m = ∞ (latency 3), so a chain through both has P1 = 1 + 3 = 4.
fn worked_example() -> SchedModel {
    SchedModel {
        w: 32,
        n_mp: 1,
        limits: Limits::unbounded(1),
        buf: Buffers {
            n1: Some(16),
            n1_single_warp_exempt: false,
            n2: 64,
            s: 49152,
            s_min: 256,
            r: vec![2048],
            r_min: vec![4],
        },
        units: vec![
            Unit::new("u1", 1.0, 1, Some(1), 1),
            Unit::new("u2", 3.0, 3, None, 1),
        ],
    }
}

#[test]
fn worked_example_p1_is_sum_of_latencies() {
    let m = worked_example();
    assert_eq!(m.p1_pred(&[0, 1], 0.0), 4.0);
}

#[test]
fn worked_example_period_and_fu() {
    let m = worked_example();
    let used = [(0usize, 1.0f64), (1, 1.0)];
    let p: Vec<f64> = (1..=8).map(|c| m.period_cycles(c, &used, 4.0)).collect();
    assert_eq!(p, vec![4.0, 4.0, 4.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
    for c in 1..=8u32 {
        let want = (c as f64 / 4.0).max(1.0);
        assert!((m.fu(c, &[0, 1], 4.0) - want).abs() < 1e-12, "c = {c}");
    }
    assert_eq!(m.fu(0, &[0, 1], 4.0), 0.0);
    // the bottleneck is unit 1: one warp instruction per cycle
    assert_eq!(m.thr_bot(&[0, 1]), 1.0);
    let n_bot = m.n_bot(32, |c| m.fu(c, &[0, 1], 4.0));
    assert!((n_bot / 4.0 - m.thr_bot(&[0, 1])).abs() < 1e-12);
}

#[test]
fn t_rel_latency_bound_counts_waves() {
    let m = worked_example();
    let one = |c: u32| if c == 0 { 0.0 } else { 1.0 };
    for g in 0..20u32 {
        assert_eq!(m.t_rel(g, 1, 2, one), g.div_ceil(2) as f64, "g = {g}");
    }
}

#[test]
fn t_rel_full_waves_add_no_phantom_wave() {
    let m = worked_example();
    let fu = |c: u32| m.fu(c, &[0, 1], 4.0);
    // g mod N_slot = 0: exactly g/N_slot waves of fu(b·N_slot)
    assert_eq!(m.t_rel(6, 2, 3, fu), 2.0 * fu(6));
    // special case T(2,b)/T(1,b) = fu(2b)/fu(b) when N_slot ≥ 2, and 2 when N_slot = 1
    let b = 4;
    assert!((m.t_rel(2, b, 2, fu) / m.t_rel(1, b, 2, fu) - fu(2 * b) / fu(b)).abs() < 1e-12);
    assert_eq!(m.t_rel(2, b, 1, fu) / m.t_rel(1, b, 1, fu), 2.0);
    assert_eq!(m.t_rel(3, 1, 0, fu), f64::INFINITY);
}

#[test]
fn n_slot_limiter_selection() {
    let m = worked_example();
    // b = 1, nothing else: barrier buffer (16 < 64)
    assert_eq!(m.n_slot(1, 0, &[0]), (16, Limiter::Barrier));
    // b = 8: warp slots 64/8 = 8
    assert_eq!(m.n_slot(8, 0, &[0]), (8, Limiter::WarpSlot));
    // shared memory 49152/12288 = 4
    assert_eq!(m.n_slot(1, 12288, &[0]), (4, Limiter::Shmem));
    // registers: 2048/(64·4) = 8 vs warp slots 64/4 = 16
    assert_eq!(m.n_slot(4, 0, &[64]), (8, Limiter::Regfile(0)));
    // single-warp exemption removes the N1 term for b = 1 only
    let mut e = worked_example();
    e.buf.n1_single_warp_exempt = true;
    assert_eq!(e.n_slot(1, 0, &[0]), (64, Limiter::WarpSlot));
    assert_eq!(e.n_slot(2, 0, &[0]), (16, Limiter::Barrier));
    assert_eq!(m.n_slot(0, 0, &[0]).0, 0);
}

#[test]
fn rounding_applies_before_division() {
    let m = worked_example();
    // s = 9829 rounds up to 9984 (s_min = 256): ⌊49152/9984⌋ = 4, while dividing first
    // would give ⌊49152/9829⌋ = 5
    assert_eq!(m.n_slot(1, 9829, &[0]), (4, Limiter::Shmem));
    // registers: r = 5 rounds to 8 (r_min 4): 2048/(8·32) = 8; unrounded 2048/(5·32) = 12.8
    assert_eq!(m.n_slot(8, 0, &[5]), (8, Limiter::WarpSlot));
    let mut big = worked_example();
    big.buf.n2 = 1024;
    big.buf.n1 = None;
    assert_eq!(big.n_slot(8, 0, &[5]), (32, Limiter::Regfile(0)));
}

#[test]
fn launch_check_names_the_limit() {
    let mut m = worked_example();
    m.limits = Limits {
        t_per_b: 1024,
        t_per_g: 1 << 20,
        s_per_b: 49152,
        r_per_t: vec![255],
        r_per_b: vec![2048],
    };
    let k = |blocks: u64, t: u32, s: u32, r: u32| KernelShape {
        blocks,
        threads_per_block: t,
        shared_bytes: s,
        regs_per_thread: vec![r],
    };
    assert_eq!(m.check_launch(&k(1, 1024, 49152, 64)), Ok(()));
    let lim = |r: Result<(), LaunchFail>| r.unwrap_err().limit;
    assert_eq!(
        lim(m.check_launch(&k(1, 1025, 0, 1))),
        Limit::ThreadsPerBlock
    );
    assert_eq!(
        lim(m.check_launch(&k(1025, 1024, 0, 1))),
        Limit::ThreadsPerGrid
    );
    assert_eq!(
        lim(m.check_launch(&k(1, 32, 49153, 1))),
        Limit::SharedPerBlock
    );
    assert_eq!(
        lim(m.check_launch(&k(1, 32, 0, 256))),
        Limit::RegsPerThread(0)
    );
    // 32 warps × ⌈65, 4⌉ = 32 × 68 = 2176 > 2048
    assert_eq!(
        lim(m.check_launch(&k(1, 1024, 0, 65))),
        Limit::RegsPerBlock(0)
    );
    assert_eq!(m.check_launch(&k(1, 1024, 0, 64)), Ok(()));
}

#[test]
fn hooks_util_idle_and_unused_capacity() {
    let m = worked_example();
    // 8 warps: P = 8, unit 1 is fully busy, its idle interval is 0
    let p = m.period_cycles(8, &[(0, 1.0), (1, 1.0)], 4.0);
    assert_eq!(m.util(0, 1.0, 8, p), 1.0);
    assert_eq!(m.idle_interval_cycles(0, 1.0, 8, p), Some(0.0));
    // 2 warps: P = 4, unit 1 busy half the time, idle 1 cycle between uses
    let p = m.period_cycles(2, &[(0, 1.0), (1, 1.0)], 4.0);
    assert_eq!(m.util(0, 1.0, 2, p), 0.5);
    assert_eq!(m.idle_interval_cycles(0, 1.0, 2, p), Some(1.0));
    assert_eq!(m.util(1, 1.0, 2, p), 0.0);
    // unused capacity: b = 4, s = 4096, r = 16: N_slot = min(16, 16, 12, 2048/64 = 32) = 12
    let u = m.unused_capacity(4, 4096, &[16]);
    assert_eq!(u.shmem_bytes, 0);
    assert_eq!(u.warp_slots, 64 - 48);
    assert_eq!(u.regs_warp, vec![2048 - 12 * 4 * 16]);
}

#[test]
fn partitions_step_fu_in_ceil_c_over_s() {
    // one unit per sub-core on 4 sub-cores, t = 4, P1 = 4: fu(c) = max(1, ⌈c/4⌉)
    let m = SchedModel {
        units: vec![Unit::new("sp", 4.0, 4, Some(1), 4)],
        ..worked_example()
    };
    let f: Vec<f64> = (1..=9).map(|c| m.fu(c, &[0], 4.0)).collect();
    assert_eq!(f, vec![1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 3.0]);
    assert_eq!(m.thr_bot(&[0]), 1.0);
}

#[test]
fn operand_path_pseudo_units() {
    use super::OperandPath;
    // one bank, one port: an add (2 reads + 1 write) takes 3 port-cycles, so with P1 = 7
    // the port pool saturates at c = 3: fu(3) = 9/7
    let op = OperandPath {
        banks_per_partition: 1,
        ports_per_bank: 1,
        port_cycles_per_access: 1,
        partitions: 1,
        collectors_per_partition: 1,
    };
    let m = SchedModel {
        w: 32,
        n_mp: 1,
        limits: Limits::unbounded(1),
        buf: Buffers {
            n1: Some(8),
            n1_single_warp_exempt: false,
            n2: 32,
            s: 0,
            s_min: 1,
            r: vec![1024],
            r_min: vec![1],
        },
        units: vec![op.rf_unit(), op.collector_unit(2)],
    };
    assert_eq!(m.fu_counts(2, [(0, 3.0)], 7.0), 1.0);
    assert!((m.fu_counts(3, [(0, 3.0)], 7.0) - 9.0 / 7.0).abs() < 1e-12);
    // reads serialise on the single port: the chain link gains one cycle per extra read
    assert_eq!(op.chain_read_cycles(1), 0);
    assert_eq!(op.chain_read_cycles(2), 1);
    assert_eq!(op.collector_cycles(2), 3.0);
    let wide = OperandPath {
        banks_per_partition: 16,
        ports_per_bank: 2,
        ..op
    };
    assert_eq!(wide.chain_read_cycles(2), 0);
    assert_eq!(wide.rf_unit().m, Some(32));
}
