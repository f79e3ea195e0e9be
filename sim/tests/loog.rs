//! LOOG collector-unit out-of-order issue (issue-stage §3): directed tests of the RAT rename
//! and lookup, the RRS release, the UUID age order, the dispatch rule (lowest index, LSU in
//! order, WAR guard, registered ready vector), the CU occupancy limits and the WAW elimination;
//! and timing runs: every test-size workload keeps its functional result under LOOG, the run is
//! deterministic, and the in-order default carries no LOOG record.

mod common;

use sim::activity::LoogStats;
use sim::config::{GpuConfig, OooMode};
use sim::inst::{Family, OpClass, Reg};
use sim::timing::ooo::loog::{older, uuid_distance, RfRead, NO_ID};
use sim::timing::ooo::{AllocStall, LoogParams, LsqKind, LsqMem, RfArbiter, SmLoog};
use sim::timing::tinst::TInst;

fn loog_cfg() -> GpuConfig {
    let mut cfg = GpuConfig::preset("gtx1080ti").unwrap();
    cfg.sched.ooo.mode = OooMode::Loog;
    cfg.validate("loog").unwrap();
    cfg
}

fn stats(a: &sim::activity::Activity) -> LoogStats {
    let mut s = LoogStats::default();
    for k in &a.kernels {
        if let Some(x) = &k.loog {
            s.merge(x);
        }
    }
    s
}

fn cycles(a: &sim::activity::Activity) -> u64 {
    a.kernels.iter().map(|k| k.cycles).sum()
}

fn insts(a: &sim::activity::Activity) -> u64 {
    a.kernels.iter().map(|k| k.warp_insts).sum()
}

/// Every test-size workload produces its reference result under LOOG, every instruction that
/// takes a CU is dispatched, and the same instructions run as in order.
#[test]
fn all_workloads_functional_under_loog() {
    let cfg = loog_cfg();
    let base = GpuConfig::preset("gtx1080ti").unwrap();
    for w in sim::workloads::all() {
        let name = w.info().name;
        let a = common::run_checked(&cfg, name);
        let b = common::run_checked(&base, name);
        let s = stats(&a);
        assert_eq!(insts(&a), insts(&b), "{name}: same instructions");
        assert_eq!(s.cu_allocs, s.dispatches, "{name}: every CU dispatches");
        assert_eq!(s.broadcasts, s.rrs_allocs.max(s.broadcasts), "{name}");
        eprintln!(
            "{name}: in-order {} loog {} cycles, {s:?}",
            cycles(&b),
            cycles(&a)
        );
    }
}

// ---------------------------------------------------------------- directed tests of the state

fn params(n_cu: u32, n_rrs: u32) -> LoogParams {
    LoogParams {
        slices: 1,
        n_cu,
        n_rrs,
        wb_buffers: 1,
        uuid_bits: 8,
        arbiter: RfArbiter::Id,
        rf_read_ports: 1,
        rrs_dispatch_needs_free_slot: true,
        ready_first: true,
        defer_load_consumers: false,
        lsq: None,
    }
}

fn inst(family: Family, op: OpClass, dst: &[Reg], src: &[Reg]) -> TInst {
    let mut i = TInst::NOP;
    i.family = family;
    i.op = op;
    i.active_mask = u32::MAX;
    i.n_dst = dst.len() as u8;
    i.dst[..dst.len()].copy_from_slice(dst);
    i.n_src = src.len() as u8;
    i.src[..src.len()].copy_from_slice(src);
    i
}

fn alu(dst: &[Reg], src: &[Reg]) -> TInst {
    inst(Family::Int, OpClass::Add, dst, src)
}

/// Allocates into the CU `can_alloc` names; returns (CU, tag).
fn put(o: &mut SmLoog, w: usize, i: TInst, lsu: bool, t: u64) -> (usize, u16) {
    let ci = o.can_alloc(0, w, i.n_dst > 0).expect("free CU");
    (ci, o.alloc(0, ci, w, i, 0, lsu, t))
}

/// Grants every RF read.
fn read_all(o: &mut SmLoog, t: u64) {
    o.rf_read(t, &mut |_: &RfRead| true);
}

/// `sched.ooo.loog_defer_load_consumers`: a head that reads the result of a dispatched global
/// load counts as waiting (goes after the other warps' heads) only with the knob, and only
/// until the load's result arrives; a shared load's consumer is never held back, and a head
/// whose producer has not dispatched waits either way.
#[test]
fn load_consumers_are_deferred_only_with_the_knob() {
    use sim::inst::MemSpace;
    use sim::timing::tinst::MemRef;
    for defer in [false, true] {
        let p = LoogParams {
            defer_load_consumers: defer,
            ..params(4, 0)
        };
        let mut o = SmLoog::new(p, 1);
        let load = |d: Reg, space| {
            let mut i = inst(Family::Mem, OpClass::Load, &[d], &[2]);
            i.mem = Some(MemRef {
                space,
                width_bytes: 4,
                slot: 0,
            });
            i
        };
        let (_, tg) = put(&mut o, 0, load(1, MemSpace::Global), true, 0);
        put(&mut o, 0, load(3, MemSpace::Shared), true, 0);
        let (use_g, use_s) = (alu(&[4], &[1]), alu(&[5], &[3]));
        o.begin_cycle(1);
        assert!(o.head_waits(0, 0, &use_g), "producer not dispatched");
        // each load reads r2 from the register file, then they dispatch in order
        for t in 1..6 {
            if t > 1 {
                o.begin_cycle(t);
            }
            read_all(&mut o, t);
            o.dispatch(0, t, &mut |_| true);
        }
        assert!(o.slices[0].cus[..2].iter().all(|c| c.dispatched));
        assert_eq!(o.head_waits(0, 0, &use_g), defer, "global load in flight");
        assert!(!o.head_waits(0, 0, &use_s), "shared load in flight");
        o.result_done(tg, 6);
        assert!(
            !o.head_waits(0, 0, &use_g),
            "the global load's result arrived"
        );
    }
}

/// §3.2 steps 2 and 4: the RAT visit renames the destination and names the producer of each
/// source; a consumer captures the broadcast and is ready (registered) one cycle after the
/// capture; the producer's broadcast marks the register `from_rf` and frees its CU next cycle.
#[test]
fn rat_rename_lookup_and_broadcast_capture() {
    let mut o = SmLoog::new(params(4, 0), 1);
    let (c0, tag0) = put(&mut o, 0, alu(&[1], &[2, 3]), false, 0);
    assert_eq!((c0, tag0), (0, 0));
    assert_eq!(o.rat_lookup(0, 1), None, "renamed only at the RAT visit");
    o.begin_cycle(1);
    assert_eq!(o.rat_lookup(0, 1), Some(0), "r1 renamed to CU 0");
    assert_eq!(o.stats.rat_reads, 2);
    assert_eq!(o.stats.rat_writes, 1);
    let (c1, _) = put(&mut o, 0, alu(&[4], &[1, 2]), false, 1);
    assert_eq!(c1, 1, "lowest free CU");
    o.begin_cycle(2);
    let op = o.slices[0].cus[1].ops[0];
    assert!(!op.from_rf && op.src_id == 0, "r1 comes from CU 0: {op:?}");
    assert!(o.slices[0].cus[1].ops[1].from_rf, "r2 from the RF");
    // CU 0: grant and read r2 at 2, r3 at 3; ready at 4 and 5 (one cycle after each read);
    // dispatchable one cycle after the last became valid
    // CU 0: granted at 2 (ID arbiter: lowest index), reads r2 at 2 and r3 at 3, valid at 3
    // and 4; the registered ready vector lets it go at 5
    read_all(&mut o, 2);
    read_all(&mut o, 3);
    assert_eq!(o.stats.rf_reads, 2);
    assert_eq!(o.dispatch(0, 3, &mut |_| true), None, "r3 not yet read");
    assert_eq!(
        o.dispatch(0, 4, &mut |_| true),
        None,
        "ready vector is registered"
    );
    read_all(&mut o, 4); // CU 1 reads r2
    assert_eq!(o.dispatch(0, 5, &mut |_| true), Some(0));
    // the result arrives at 10: rd_valid; broadcast at 11, captured by CU 1, valid at 12
    o.result_done(tag0, 10);
    assert_eq!(o.stats.rf_writes, 1);
    o.begin_cycle(11);
    assert_eq!(o.stats.broadcasts, 1);
    assert_eq!(o.stats.captures, 1);
    assert_eq!(o.rat_lookup(0, 1), None, "r1 back in the RF");
    assert_eq!(o.slices[0].cus[1].ops[0].ready_at, 12);
    assert!(
        o.slices[0].cus[0].alloc,
        "CU 0 freed the cycle after the broadcast"
    );
    o.begin_cycle(12);
    assert!(!o.slices[0].cus[0].alloc);
    assert_eq!(o.dispatch(0, 12, &mut |_| true), None);
    assert_eq!(o.dispatch(0, 13, &mut |_| true), Some(1));
    // a later reader of r1 reads the RF
    let (c2, _) = put(&mut o, 0, alu(&[5], &[1]), false, 13);
    assert_eq!(c2, 0, "CU 0 is free again");
    o.begin_cycle(14);
    assert!(o.slices[0].cus[0].ops[0].from_rf);
}

/// A consumer whose RAT visit falls in its producer's broadcast cycle captures the value from
/// the write-back buffer in that cycle.
#[test]
fn rat_visit_in_the_broadcast_cycle_captures() {
    let mut o = SmLoog::new(params(4, 0), 1);
    let (_, tag0) = put(&mut o, 0, alu(&[1], &[]), false, 0);
    o.begin_cycle(1);
    assert_eq!(o.dispatch(0, 2, &mut |_| true), Some(0));
    o.result_done(tag0, 5);
    put(&mut o, 0, alu(&[2], &[1]), false, 5);
    o.begin_cycle(6); // RAT visit of CU 1, then CU 0's broadcast
    let op = o.slices[0].cus[1].ops[0];
    assert!(!op.from_rf && op.ready_at == 7, "{op:?}");
    assert_eq!(o.stats.captures, 1);
}

/// §3.2 step 7: a result whose register a younger writer renamed is not written to the RF
/// (WAW elimination), also when the younger one has already written back.
#[test]
fn waw_elimination() {
    let mut o = SmLoog::new(params(4, 0), 1);
    let (_, ta) = put(&mut o, 0, alu(&[1], &[]), false, 0);
    let (_, tb) = put(&mut o, 0, alu(&[1], &[]), false, 1);
    o.begin_cycle(1);
    o.begin_cycle(2);
    assert_eq!(o.rat_lookup(0, 1), Some(1));
    assert!(!o.rf_write_kept(0, 1, ta) && o.rf_write_kept(0, 1, tb));
    // the younger finishes first and writes; the older one then finds r1 `from_rf`
    o.result_done(tb, 5);
    o.begin_cycle(6);
    assert_eq!(o.rat_lookup(0, 1), None);
    o.result_done(ta, 7);
    assert_eq!((o.stats.rf_writes, o.stats.rf_writes_skipped), (1, 1));
}

/// RRS variant: the RRS entry is allocated with the CU for a write-back instruction only, the
/// RAT names the RRS entry, the CU is freed the cycle after dispatch and the RRS entry the
/// cycle after its broadcast.
#[test]
fn rrs_release() {
    let mut o = SmLoog::new(params(2, 3), 1);
    let (c0, t0) = put(&mut o, 0, alu(&[1], &[]), false, 0);
    let (c1, t1) = put(
        &mut o,
        0,
        inst(Family::Mem, OpClass::Store, &[], &[1]),
        true,
        0,
    );
    assert_eq!((c0, t0, c1, t1), (0, 0, 1, NO_ID));
    assert_eq!(
        o.stats.rrs_allocs, 1,
        "only the write-back instruction takes an entry"
    );
    o.begin_cycle(1);
    assert_eq!(o.rat_lookup(0, 1), Some(0), "the RAT names RRS entry 0");
    assert_eq!(o.dispatch(0, 2, &mut |_| true), Some(0));
    o.begin_cycle(3);
    assert!(
        !o.slices[0].cus[0].alloc,
        "CU freed the cycle after dispatch"
    );
    assert!(
        o.slices[0].prods[0].alloc,
        "RRS entry held until write-back"
    );
    // the freed CU takes another write-back instruction with a second RRS entry
    let (c2, t2) = put(&mut o, 0, alu(&[2], &[]), false, 3);
    assert_eq!((c2, t2), (0, 1));
    o.result_done(t0, 8);
    o.begin_cycle(9);
    assert_eq!(
        o.stats.captures, 1,
        "the store captures r1 from the RRS entry's broadcast"
    );
    o.begin_cycle(10);
    assert!(
        !o.slices[0].prods[0].alloc,
        "RRS entry freed the cycle after its broadcast"
    );
    assert_eq!(o.stats.rrs_alloc_period_hist.iter().sum::<u64>(), 1);
}

/// With an RRS and no free entry, a write-back instruction cannot allocate; with
/// `rrs_dispatch_needs_free_slot` a ready write-back CU is also held at dispatch while every
/// entry is taken (its own included), and goes once a write-back frees one.
#[test]
fn rrs_full_stalls_allocation_and_dispatch() {
    let mut o = SmLoog::new(params(2, 3), 1);
    let mut tags = Vec::new();
    for k in 0..2u64 {
        let t = 3 * k;
        let (ci, tag) = put(&mut o, 0, alu(&[k as Reg + 1], &[]), false, t);
        tags.push(tag);
        o.begin_cycle(t + 1);
        assert_eq!(o.dispatch(0, t + 2, &mut |_| true), Some(ci));
        o.begin_cycle(t + 3);
    }
    let (c3, _) = put(&mut o, 0, alu(&[3], &[]), false, 6);
    o.begin_cycle(7);
    assert_eq!(o.can_alloc(0, 0, true), Err(AllocStall::NoRrs));
    assert!(o.can_alloc(0, 0, false).is_ok(), "a store needs no entry");
    assert_eq!(
        o.dispatch(0, 8, &mut |_| true),
        None,
        "every RRS entry is taken"
    );
    assert_eq!(o.stats.no_rrs_dispatch_stall, 1);
    o.result_done(tags[0], 8);
    o.begin_cycle(9);
    o.begin_cycle(10);
    assert_eq!(o.dispatch(0, 10, &mut |_| true), Some(c3));
    let mut p = params(2, 3);
    p.rrs_dispatch_needs_free_slot = false;
    let mut o = SmLoog::new(p, 1);
    for k in 0..3u64 {
        let (ci, _) = put(&mut o, 0, alu(&[k as Reg + 1], &[]), false, 3 * k);
        o.begin_cycle(3 * k + 1);
        assert_eq!(
            o.dispatch(0, 3 * k + 2, &mut |_| true),
            Some(ci),
            "knob off"
        );
        o.begin_cycle(3 * k + 3);
    }
}

/// The dispatch rule (§3.2 step 5): the lowest-index ready CU goes first even when younger; an
/// LD/ST instruction waits for every older undispatched LD/ST instruction of its warp (whatever
/// their CU indices); a writer waits while an older CU still has to read its destination from
/// the RF (WAR guard). Reorders count the UUID distance to the oldest bypassed instruction.
#[test]
fn dispatch_rule_order_lsu_and_war_guard() {
    let mut o = SmLoog::new(params(4, 0), 1);
    // A: a store (CU 0, no write-back) dispatches and frees CU 0
    put(
        &mut o,
        0,
        inst(Family::Mem, OpClass::Store, &[], &[]),
        true,
        0,
    );
    o.begin_cycle(1);
    // B: load reading r9 from the RF (CU 1); C: writes r9 (CU 2, WAR on B)
    let (cb, _) = put(
        &mut o,
        0,
        inst(Family::Mem, OpClass::Load, &[3], &[9]),
        true,
        1,
    );
    assert_eq!(o.dispatch(0, 2, &mut |_| true), Some(0));
    o.begin_cycle(2);
    let (cc, _) = put(&mut o, 0, alu(&[9], &[]), false, 2);
    o.begin_cycle(3);
    assert_eq!((cb, cc), (1, 2));
    // D: a load younger than B, allocated into the freed CU 0
    let (cd, _) = put(
        &mut o,
        0,
        inst(Family::Mem, OpClass::Load, &[4], &[]),
        true,
        3,
    );
    assert_eq!(cd, 0);
    o.begin_cycle(4);
    // at 5: D (CU 0) is ready but an older load (B) has not dispatched; C is ready but B
    // still has to read r9: nothing goes
    assert_eq!(o.dispatch(0, 5, &mut |_| true), None);
    // B reads r9 at 5, valid at 6, ready at 7; at 6 the WAR guard has cleared, C goes
    read_all(&mut o, 5);
    assert_eq!(o.dispatch(0, 6, &mut |_| true), Some(cc));
    assert_eq!(o.stats.reorders, 1, "C bypassed B");
    assert_eq!(o.stats.reorder_distance_hist[1], 1, "B and C are adjacent");
    // B before D although D has the lower index
    assert_eq!(o.dispatch(0, 7, &mut |_| true), Some(cb));
    assert_eq!(o.dispatch(0, 8, &mut |_| true), Some(cd));
    // a busy unit passes the lowest-index CU over and counts a per-unit stall
    let mut o = SmLoog::new(params(4, 0), 1);
    put(&mut o, 0, alu(&[1], &[]), false, 0);
    put(&mut o, 0, alu(&[2], &[]), false, 0);
    o.begin_cycle(1);
    assert_eq!(o.dispatch(0, 2, &mut |c| c.inst.dst[0] != 1), Some(1));
    assert_eq!(o.stats.unit_busy_stalls[0], 1);
}

/// CU occupancy limits: with N_cu CUs the (N_cu + 1)-th instruction finds none until one is
/// freed. UUID overflow: with U = 4 (UUIDs 1..=15, quarters of 4) a new UUID waits while
/// `older` would not order an in-flight instruction of the warp before it: the all-ones UUID
/// 15 while UUID 1 (MSBs 00) is in flight (the RTL rule), and in general any UUID of the top
/// quarter then; the counter wraps from 15 to 1.
#[test]
fn cu_occupancy_and_uuid_overflow() {
    let mut o = SmLoog::new(params(2, 0), 2);
    put(&mut o, 0, alu(&[1], &[]), false, 0);
    put(&mut o, 1, alu(&[1], &[]), false, 0);
    assert_eq!(o.can_alloc(0, 0, true), Err(AllocStall::NoCu));
    assert_eq!(o.occupied(0), 2);
    o.begin_cycle(1);
    assert_eq!(o.dispatch(0, 2, &mut |_| true), Some(0));
    assert_eq!(
        o.can_alloc(0, 0, true),
        Err(AllocStall::NoCu),
        "held until write-back"
    );
    let mut p = params(2, 0);
    p.uuid_bits = 4;
    let mut o = SmLoog::new(p, 1);
    put(
        &mut o,
        0,
        inst(Family::Mem, OpClass::Store, &[], &[]),
        true,
        0,
    ); // UUID 1, stays
    let mut t = 1;
    // UUIDs 2..=11 through CU 1 (no write-back: freed the cycle after dispatch)
    for _ in 2..=11 {
        let (ci, _) = put(&mut o, 0, alu(&[], &[]), false, t);
        assert_eq!(ci, 1);
        o.begin_cycle(t + 1);
        assert_eq!(o.dispatch(0, t + 2, &mut |c| c.uuid != 1), Some(1));
        o.begin_cycle(t + 3);
        t += 3;
    }
    assert_eq!(o.next_uuid[0], 12);
    assert_eq!(o.can_alloc(0, 0, false), Err(AllocStall::UuidOverflow));
    assert_eq!(o.dispatch(0, t, &mut |_| true), Some(0));
    o.begin_cycle(t + 1);
    for _ in 12..=15 {
        assert!(o.can_alloc(0, 0, false).is_ok());
        put(&mut o, 0, alu(&[], &[]), false, t + 1);
        o.begin_cycle(t + 2);
        assert!(o.dispatch(0, t + 3, &mut |_| true).is_some());
        o.begin_cycle(t + 4);
        t += 3;
    }
    assert_eq!(o.next_uuid[0], 1, "wraps to 1, never 0");
    // the RTL rule: 15 waits for an in-flight 00 UUID
    let mut o = SmLoog::new(p, 1);
    o.next_uuid[0] = 3;
    put(&mut o, 0, alu(&[], &[]), false, 0); // UUID 3
    o.next_uuid[0] = 15;
    assert_eq!(o.can_alloc(0, 0, false), Err(AllocStall::UuidOverflow));
}

/// The age compare of §3.1 across the wrap, and the UUID distance.
#[test]
fn uuid_age_compare() {
    assert!(older(1, 2, 8) && !older(2, 1, 8));
    assert!(older(250, 3, 8), "11xxxxxx is older than 00xxxxxx");
    assert!(!older(3, 250, 8));
    assert!(older(100, 200, 8) && !older(200, 100, 8));
    assert_eq!(uuid_distance(250, 3, 8), 8);
    assert_eq!(uuid_distance(5, 9, 8), 4);
}

/// Round-robin register-file arbitration grants after the last granted CU; ID grants the
/// lowest index.
#[test]
fn rf_arbiters() {
    for (arb, first) in [(RfArbiter::Id, [0usize, 0]), (RfArbiter::Rr, [0, 1])] {
        let mut p = params(4, 0);
        p.arbiter = arb;
        let mut o = SmLoog::new(p, 1);
        put(&mut o, 0, alu(&[1], &[7, 8]), false, 0);
        put(&mut o, 0, alu(&[2], &[7]), false, 0);
        o.begin_cycle(1);
        let mut got = Vec::new();
        for t in 2..4 {
            o.rf_read(t, &mut |q: &RfRead| {
                got.push(q.cu);
                true
            });
        }
        // ID: CU 0 keeps the grant until both its reads are done
        if arb == RfArbiter::Id {
            assert_eq!(got, vec![0, 0]);
        } else {
            assert_eq!(got[0], first[0]);
        }
    }
}

// ---------------------------------------------------------------- property: values and order

/// SplitMix64.
fn rng(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Random single-warp programs over six registers run through the state with random unit
/// latencies and random unit refusals: every source operand receives the value of the
/// youngest older writer of its register (from the RF or a broadcast), LD/ST instructions
/// dispatch in program order, and the RF ends holding the last writer of every register.
#[test]
fn every_operand_gets_its_program_order_value() {
    for seed in 0..200u64 {
        let mut st = seed;
        for (n_cu, n_rrs) in [(4, 0), (3, 5), (8, 0), (1, 0)] {
            let mut p = params(n_cu, n_rrs);
            p.uuid_bits = 5;
            p.arbiter = if seed.is_multiple_of(2) {
                RfArbiter::Id
            } else {
                RfArbiter::RrAlloc
            };
            run_program(&mut st, p);
        }
    }
}

fn run_program(st: &mut u64, p: LoogParams) {
    let n = 60usize;
    // program: (dst, srcs, lsu, latency); value of instruction k's destination = k + 1
    let prog: Vec<(Option<Reg>, Vec<Reg>, bool, u64)> = (0..n)
        .map(|_| {
            let dst = (!rng(st).is_multiple_of(4)).then(|| (rng(st) % 6 + 1) as Reg);
            let ns = (rng(st) % 4) as usize;
            let mut srcs: Vec<Reg> = (0..ns).map(|_| (rng(st) % 6 + 1) as Reg).collect();
            srcs.dedup();
            (dst, srcs, rng(st).is_multiple_of(3), 1 + rng(st) % 12)
        })
        .collect();
    // expected value of each source: the youngest older writer
    let expect = |k: usize, r: Reg| -> u64 {
        (0..k)
            .rev()
            .find(|&j| prog[j].0 == Some(r))
            .map_or(0, |j| j as u64 + 1)
    };
    let mut o = SmLoog::new(p, 1);
    let mut rf = [0u64; 8];
    let mut cu_prog = vec![usize::MAX; p.n_cu as usize];
    let mut got: Vec<[Option<u64>; 8]> = vec![[None; 8]; n];
    let mut prod_val = vec![0u64; p.n_id() as usize];
    let mut pending: Vec<(u64, u16, usize)> = Vec::new();
    let mut dispatched_lsu = Vec::new();
    let mut next = 0usize;
    let mut done = 0usize;
    for t in 1..20_000u64 {
        o.begin_cycle(t);
        // captures made by this cycle's broadcast
        for (ci, &k) in cu_prog.iter().enumerate() {
            let c = &o.slices[0].cus[ci];
            if k == usize::MAX || !c.alloc || c.dispatched {
                continue;
            }
            for op in &c.ops[..c.n_ops as usize] {
                if !op.from_rf && op.ready_at == t + 1 && got[k][op.reg as usize].is_none() {
                    got[k][op.reg as usize] = Some(prod_val[op.src_id as usize]);
                }
            }
        }
        // results
        pending.sort();
        while let Some(&(at, tag, k)) = pending.first() {
            if at > t {
                break;
            }
            pending.remove(0);
            let r = prog[k].0.unwrap();
            if o.rf_write_kept(0, r, tag) {
                rf[r as usize] = k as u64 + 1;
            }
            o.result_done(tag, t);
            done += 1;
        }
        // dispatch (a unit refuses one time in four)
        let refuse = rng(st).is_multiple_of(4);
        if let Some(ci) = o.dispatch(0, t, &mut |_| !refuse) {
            let k = cu_prog[ci];
            for &r in &prog[k].1 {
                assert_eq!(
                    got[k][r as usize],
                    Some(expect(k, r)),
                    "inst {k} source r{r}: {p:?}"
                );
            }
            if prog[k].2 {
                assert!(
                    dispatched_lsu.iter().all(|&j| j < k)
                        && (0..k)
                            .filter(|&j| prog[j].2)
                            .all(|j| dispatched_lsu.contains(&j)),
                    "LD/ST order at {k}"
                );
                dispatched_lsu.push(k);
            }
            let tag = o.slices[0].cus[ci].inst.tag;
            if prog[k].0.is_some() {
                pending.push((t + prog[k].3, tag, k));
            } else {
                done += 1;
            }
        }
        // RF reads
        let rfv = rf;
        let mut reads = Vec::new();
        o.rf_read(t, &mut |q: &RfRead| {
            if rng(st).is_multiple_of(5) {
                return false; // bank taken
            }
            reads.push((q.cu, q.reg, rfv[q.reg as usize]));
            true
        });
        for (ci, r, v) in reads {
            got[cu_prog[ci]][r as usize] = Some(v);
        }
        // allocation
        if next < n {
            let (dst, srcs, lsu, _) = &prog[next];
            let d: Vec<Reg> = dst.iter().copied().collect();
            let fam = if *lsu { Family::Mem } else { Family::Int };
            let op = if *lsu { OpClass::Load } else { OpClass::Add };
            if let Ok(ci) = o.can_alloc(0, 0, dst.is_some()) {
                let tag = o.alloc(0, ci, 0, inst(fam, op, &d, srcs), 0, *lsu, t);
                if tag != NO_ID {
                    prod_val[tag as usize] = next as u64 + 1;
                }
                cu_prog[ci] = next;
                next += 1;
            }
        }
        if done == n && !o.busy() {
            break;
        }
    }
    if done != n {
        for c in &o.slices[0].cus {
            eprintln!(
                "{} {} uuid {} lsu {} prod {} ops {:?}",
                c.alloc,
                c.dispatched,
                c.uuid,
                c.lsu,
                c.prod,
                &c.ops[..c.n_ops as usize]
            );
        }
        eprintln!(
            "pending {pending:?} next {next} next_uuid {}",
            o.next_uuid[0]
        );
    }
    assert_eq!(done, n, "every instruction completes: {p:?}");
    for r in 1..=6u16 {
        assert_eq!(rf[r as usize], expect(n, r), "final r{r}: {p:?}");
    }
}

// ---------------------------------------------------------------- configuration and timing

/// One CU per slice: nothing can be bypassed (no reorders), at most one instruction per slice
/// is in a CU, and the same instructions run; with more CUs the run reorders.
#[test]
fn one_cu_never_reorders() {
    let mut one = loog_cfg();
    one.sched.ooo.loog_n_cu = 1;
    for name in ["kmeans", "bfs"] {
        let a = common::run_checked(&one, name);
        let s = stats(&a);
        assert_eq!(s.reorders, 0, "{name}");
        assert_eq!(s.cu_occupancy_hist.len(), 2, "{name}");
        let b = common::run_checked(&loog_cfg(), name);
        assert!(stats(&b).reorders > 0, "{name}");
        assert!(
            cycles(&a) >= cycles(&b),
            "{name}: one CU {} < 16 CUs {}",
            cycles(&a),
            cycles(&b)
        );
    }
}

/// The RRS variant, two write-back buffers, the round-robin arbiters, more read ports and a
/// 20-bit UUID, and deferred load consumers all run to the reference result.
#[test]
fn knob_variants_run() {
    for (k, v) in [
        ("loog_rrs_factor", "2.0"),
        ("loog_wb_buffers", "2"),
        ("loog_rf_arbiter", "\"rr_alloc\""),
        ("loog_rf_read_ports", "4"),
        ("loog_uuid_bits", "20"),
        ("loog_defer_load_consumers", "true"),
    ] {
        let text = format!("base = \"gtx1080ti\"\n[sched.ooo]\nmode = \"loog\"\n{k} = {v}\n");
        let cfg = GpuConfig::from_toml_str(&text, "k.toml").unwrap();
        let a = common::run_checked(&cfg, "spmv");
        let s = stats(&a);
        assert_eq!(s.cu_allocs, s.dispatches, "{k}");
        if k == "loog_rrs_factor" {
            assert!(s.rrs_allocs > 0 && s.n_rrs == 32, "{s:?}");
        }
        if k == "loog_wb_buffers" {
            assert_eq!(s.wb_buffer_writes, 2 * s.broadcasts);
        }
    }
}

/// The LOOG run is deterministic; the in-order default carries no LOOG record.
#[test]
fn deterministic_and_absent_by_default() {
    let cfg = loog_cfg();
    let a = common::run_checked(&cfg, "kmeans");
    let b = common::run_checked(&cfg, "kmeans");
    assert_eq!(a, b);
    let base = common::run_checked(&GpuConfig::preset("gtx1080ti").unwrap(), "kmeans");
    assert!(base.kernels.iter().all(|k| k.loog.is_none()));
    assert!(!serde_json::to_string(&base).unwrap().contains("\"loog\""));
}

/// Range checks name the key; the §4 inputs follow the knobs.
#[test]
fn knobs_are_range_checked() {
    for (text, key) in [
        ("loog_n_cu = 65\n", "sched.ooo.loog_n_cu"),
        ("loog_rrs_factor = 0.5\n", "sched.ooo.loog_rrs_factor"),
        ("loog_rrs_factor = 1.0\n", "sched.ooo.loog_rrs_factor"),
        (
            "loog_n_cu = 8\nloog_wb_buffers = 2\n",
            "sched.ooo.loog_wb_buffers",
        ),
        ("loog_wb_buffers = 3\n", "sched.ooo.loog_wb_buffers"),
        ("loog_uuid_bits = 2\n", "sched.ooo.loog_uuid_bits"),
        ("loog_rf_read_ports = 0\n", "sched.ooo.loog_rf_read_ports"),
        ("loog_rf_read_ports = 9\n", "sched.ooo.loog_rf_read_ports"),
        ("loog_rf_arbiter = \"best\"\n", "loog_rf_arbiter"),
        (
            "loog_lsq = true\nloog_lq_entries = 0\n",
            "sched.ooo.loog_lq_entries",
        ),
        (
            "loog_lsq = true\nloog_sq_entries = 65\n",
            "sched.ooo.loog_sq_entries",
        ),
        (
            "loog_ready_first = false\nloog_defer_load_consumers = true\n",
            "sched.ooo.loog_defer_load_consumers",
        ),
    ] {
        let t = format!("base = \"gtx1080ti\"\n[sched.ooo]\nmode = \"loog\"\n{text}");
        let e = GpuConfig::from_toml_str(&t, "l.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains(key) && e.contains("l.toml"), "{text}: {e}");
    }
    let e = GpuConfig::from_toml_str(
        "base = \"gtx1080ti\"\n[sched.ooo]\nmode = \"loog\"\n[pg]\npolicy = \"Conventional\"\n",
        "l.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("pg.policy"), "{e}");
    let ok = "base = \"gtx1080ti\"\n[sched.ooo]\nmode = \"loog\"\nloog_rrs_factor = 1.5\n\
              loog_n_cu = 14\nloog_wb_buffers = 2\nloog_uuid_bits = 20\n";
    let c = GpuConfig::from_toml_str(ok, "ok.toml").unwrap();
    let hw = sim::activity::LoogHwInputs::of_config(&c).unwrap();
    assert_eq!((hw.n_cu, hw.n_rrs, hw.n_id, hw.id_bits), (14, 21, 21, 5));
    assert_eq!(
        (hw.slices_per_sm, hw.warps_per_slice, hw.uuid_bits),
        (4, 16, 20)
    );
    assert_eq!(hw.rat_bits(), 16 * 262 * 6);
    assert_eq!(hw.uuid_comparators(), 14 * 13);
    assert_eq!(hw.war_comparators(), 3 * 14 * 13);
    // the RTL default N_cu = min(16, W x issue width)
    let d = loog_cfg();
    assert_eq!(sim::activity::LoogHwInputs::of_config(&d).unwrap().n_cu, 16);
    assert!(
        sim::activity::LoogHwInputs::of_config(&GpuConfig::preset("gtx1080ti").unwrap()).is_none()
    );
}

// ---------------------------------------------------------------- dependent chains across warps

/// `n_warps` warps of one CTA, each a chain of `len` dependent `op` instructions
/// (`r1 ← r1 op r2`: one source renamed to the previous link's producer, one from the register
/// file), replayed on `preset` with warp policy `policy`, in order or under LOOG (with
/// `sched.ooo.loog_ready_first` = `ready_first`). Returns the kernel's cycles.
fn chain_cycles(
    preset: &str,
    policy: &str,
    loog: Option<bool>,
    n_warps: u32,
    len: u32,
    (fam, op): (Family, OpClass),
) -> u64 {
    use common::{Replay, Streams};
    use sim::inst::WarpInst;
    let mut cfg = GpuConfig::preset(preset).unwrap();
    cfg.frontend.perfect_icache = true;
    cfg.sched.policy = policy.to_string().try_into().unwrap();
    if let Some(ready_first) = loog {
        cfg.sched.ooo.mode = OooMode::Loog;
        cfg.sched.ooo.loog_ready_first = ready_first;
    }
    cfg.validate("chain").unwrap();
    let list: Vec<WarpInst> = (0..len)
        .map(|k| {
            let mut i = WarpInst::new(8 * k, fam, op, u32::MAX);
            i.n_dst = 1;
            i.dst[0] = 1;
            i.n_src = 2;
            i.src[..2].copy_from_slice(&[1, 2]);
            i
        })
        .collect();
    let mut warps = Streams::new();
    for w in 0..n_warps {
        warps.insert((0, w), list.clone());
    }
    let info = sim::KernelInfo {
        name: "chain".into(),
        grid: [1, 1, 1],
        block: [32 * n_warps, 1, 1],
        shared_bytes: 0,
        regs_per_thread: 16,
    };
    let mut s = Replay::new(info, warps);
    let k = sim::timing::Simulation::new(&cfg)
        .run(sim::timing::Stream(&mut s))
        .unwrap();
    assert_eq!(k.warp_insts, (n_warps * len) as u64);
    k.cycles
}

/// Dependent chains of different warps (each waits only on itself) overlap under LOOG with
/// every warp policy, as in order; and a LOOG chain is never shorter than its dependence
/// bound: per link the unit latency L plus the §3.2 stages from a producer's dispatch to its
/// consumer's (the picked→dispatch stage, `rd_valid` at write-back, the broadcast the cycle
/// after, the captured operand valid the cycle after, the registered ready vector): L + 4.
/// Without `loog_ready_first` a greedy (GTO) policy lets the first warp's chain take every CU
/// (it never stalls at allocation), and the chains run mostly one after another.
#[test]
fn chains_of_different_warps_overlap() {
    let len = 64u64;
    let int = (Family::Int, OpClass::Add);
    let dp = (Family::Dp, OpClass::Add);
    for (preset, policy) in [
        ("vortex_like", "lrr"),
        ("vortex_like", "gto"),
        ("gtx1080ti", "gto"),
    ] {
        for (class, lat) in [(int, 4u64), (dp, 8)] {
            let run = |loog, n| chain_cycles(preset, policy, loog, n, len as u32, class);
            let (io1, io8) = (run(None, 1), run(None, 8));
            let (lo1, lo8) = (run(Some(true), 1), run(Some(true), 8));
            eprintln!(
                "{preset} {policy} {class:?}: in order 1 warp {io1}, 8 warps {io8}; \
                 LOOG 1 warp {lo1}, 8 warps {lo8}"
            );
            assert!(
                lo1 >= len * (lat + 4),
                "{preset} {class:?}: a LOOG chain of {len} in {lo1} cycles"
            );
            // 8 warps: no slower than in order beyond one chain's fixed-stage difference and
            // the stagger of one allocation per slice per cycle (under 8 cycles)
            assert!(
                lo8 <= io8 + lo1.saturating_sub(io1) + 8,
                "{preset} {policy} {class:?}: 8 LOOG chains {lo8} vs in order {io8}"
            );
            if class == int {
                // one SP unit of initiation interval 1 per slice: the chains overlap
                assert!(
                    lo8 * 2 < 8 * lo1,
                    "{preset} {policy}: 8 chains {lo8} not overlapped (one chain {lo1})"
                );
            }
        }
    }
    // the greedy policy without the allocation order: one chain after another
    let serial = chain_cycles("vortex_like", "gto", Some(false), 8, len as u32, int);
    let one = chain_cycles("vortex_like", "gto", Some(false), 1, len as u32, int);
    eprintln!("GTO without loog_ready_first: 8 warps {serial}, 1 warp {one}");
    // mostly one chain after another (the fetch of one instruction per cycle lets the other
    // warps slip in now and then): over 5 chains' time, against about one with the order
    assert!(serial > 5 * one, "{serial} vs 8 x {one}");
}

/// A PTX kernel of one CTA of `n_warps` warps on `preset` (warp policy `policy`, LOOG or in
/// order): a barrier, `trips` loop trips of 16 dependent `add.u32 %r20, %r20, %r21`, the trip
/// count and branch, a barrier (the shape of the `measure_fu` microbenchmark). Returns the
/// run's cycles.
fn ptx_chain_cycles(preset: &str, policy: &str, loog: bool, n_warps: u32, trips: u32) -> u64 {
    use sim::stream::{Gpu, ParamValue};
    use sim::timing::{Program, Simulation, TimingGpu};
    let mut cfg = GpuConfig::preset(preset).unwrap();
    cfg.sched.policy = policy.to_string().try_into().unwrap();
    if loog {
        cfg.sched.ooo.mode = OooMode::Loog;
    }
    cfg.validate("chain").unwrap();
    let mut text = String::from(
        ".version 7.0\n.target sm_70\n.address_size 64\n\n.visible .entry chain(\n    \
         .param .u32 p_trips\n)\n{\n    .reg .pred %p<8>;\n    .reg .b32 %r<32>;\n    \
         ld.param.u32 %r4, [p_trips];\n    mov.u32 %r20, 1;\n    mov.u32 %r21, 1;\n    \
         bar.sync 0;\nLOOP:\n",
    );
    for _ in 0..16 {
        text.push_str("    add.u32 %r20, %r20, %r21;\n");
    }
    text.push_str(
        "    sub.u32 %r4, %r4, 1;\n    setp.ne.u32 %p5, %r4, 0;\n    @%p5 bra LOOP;\n    \
         bar.sync 0;\n    exit;\n}\n",
    );
    let m = sim::ptx::Module::parse(&text, "chain.ptx").unwrap();
    let k = m.kernel("chain").unwrap();
    let l = sim::Launch {
        kernel: k,
        grid: [1, 1, 1],
        block: [32 * n_warps, 1, 1],
        params: vec![ParamValue::U32(trips)],
        shared_bytes: 0,
        cooperative: false,
    };
    let (r, act) = Simulation::new(&cfg)
        .run(Program(|gpu: &mut TimingGpu| gpu.launch(&l)))
        .unwrap();
    r.unwrap();
    act.aggregate.cycles
}

/// The `measure_fu` shape with its loop branch and barriers: the per-link period of 1 and 8
/// warps by the difference of two trip counts. Under LOOG, 8 warps' chains overlap with the
/// round-robin and the greedy policy about as well as in order or better: fu(8) = P8/P1 at
/// most 10% above in order's (serialised chains give 8 on vortex_like's one slice, 2 on
/// gtx1080ti's two warps per slice).
#[test]
fn ptx_chains_of_different_warps_overlap() {
    for preset in ["vortex_like", "gtx1080ti"] {
        for policy in ["lrr", "gto"] {
            let fu = |loog: bool| {
                let p = |c: u32| {
                    let a = ptx_chain_cycles(preset, policy, loog, c, 4);
                    let b = ptx_chain_cycles(preset, policy, loog, c, 12);
                    (b - a) as f64 / (8.0 * 16.0)
                };
                let (p1, p8) = (p(1), p(8));
                (p1, p8 / p1)
            };
            let (io, lo) = (fu(false), fu(true));
            eprintln!(
                "{preset} {policy}: in order P1 {:.2} fu(8) {:.2}; LOOG P1 {:.2} fu(8) {:.2}",
                io.0, io.1, lo.0, lo.1
            );
            assert!(
                lo.1 <= 1.1 * io.1,
                "{preset} {policy}: LOOG fu(8) {} vs in order {}",
                lo.1,
                io.1
            );
        }
    }
}

// ------------------------------------------------------------------ memory queues (loog_lsq)

fn mem(kind: LsqKind, lo: u64, hi: u64) -> LsqMem {
    LsqMem {
        kind,
        membar: false,
        space: 1,
        lo,
        hi,
    }
}

/// Cycles `ts` of the state with every RF read granted.
fn run_cycles(o: &mut SmLoog, ts: std::ops::Range<u64>) {
    for t in ts {
        o.begin_cycle(t);
        read_all(o, t);
    }
}

/// Allocates a memory instruction with its queue record; returns the CU.
fn put_mem(o: &mut SmLoog, i: TInst, m: LsqMem, t: u64) -> usize {
    let ci = o.can_alloc_mem(0, 0, i.n_dst > 0, m.kind).expect("free CU");
    o.alloc_mem(0, ci, 0, i, 0, true, m, t);
    ci
}

/// The memory queues (issue-stage §3.2 "Original LOOG memory queues"): a load passes an older
/// load whose address is not ready; it does not pass an older store whose operands (address)
/// are not ready, nor a ready older store whose range overlaps its own, while a disjoint one
/// lets it go; a store waits for an older overlapping load; nothing passes a memory barrier.
/// Without the queues the same loads dispatch in order.
#[test]
fn memory_queues_reorder_only_independent_accesses() {
    let lsq = LoogParams {
        lsq: Some((8, 8)),
        ..params(8, 0)
    };
    let ld = |d: Reg, a: Reg| inst(Family::Mem, OpClass::Load, &[d], &[a]);
    let st = |a: Reg, v: Reg| inst(Family::Mem, OpClass::Store, &[], &[a, v]);
    // r1 is produced by an ALU op that never dispatches here (its consumer's operand is
    // not ready); r2 is in the register file
    let setup = |p: LoogParams| {
        let mut o = SmLoog::new(p, 1);
        put(&mut o, 0, alu(&[1], &[]), false, 0);
        o.begin_cycle(1);
        o
    };
    // 1. load A (address r1, not ready) then load B (address r2): B passes A
    let mut o = setup(lsq);
    let a = put_mem(&mut o, ld(3, 1), mem(LsqKind::Load, 0, 128), 1);
    let b = put_mem(&mut o, ld(4, 2), mem(LsqKind::Load, 0, 128), 1);
    o.begin_cycle(2);
    read_all(&mut o, 2);
    o.begin_cycle(3);
    read_all(&mut o, 3);
    o.begin_cycle(4);
    let pick = o.dispatch(0, 4, &mut |c| c.inst.family == Family::Mem);
    assert_eq!(pick, Some(b), "B passes the waiting A (CU {a})");
    let l = o.stats.lsq.clone().unwrap();
    assert_eq!((l.lq_allocs, l.bypasses), (2, 1));
    // ... and without the queues B waits for A
    let mut o = setup(params(8, 0));
    put(&mut o, 0, ld(3, 1), true, 1);
    put(&mut o, 0, ld(4, 2), true, 1);
    run_cycles(&mut o, 2..4);
    o.begin_cycle(4);
    assert_eq!(
        o.dispatch(0, 4, &mut |c| c.inst.family == Family::Mem),
        None
    );
    assert!(o.stats.lsq.is_none());
    // 2. store (address r1, not ready) then load B: B is held (unresolved address)
    let mut o = setup(lsq);
    put_mem(&mut o, st(1, 2), mem(LsqKind::Store, 0, 128), 1);
    put_mem(&mut o, ld(4, 2), mem(LsqKind::Load, 512, 640), 1);
    run_cycles(&mut o, 2..5);
    // both read r2 through the one port (store at 2, load at 3): the load is ready at 5
    o.begin_cycle(5);
    assert_eq!(
        o.dispatch(0, 5, &mut |c| c.inst.family == Family::Mem),
        None
    );
    let l = o.stats.lsq.clone().unwrap();
    assert_eq!((l.sq_allocs, l.unresolved_holds), (1, 1));
    // 3. a ready store the LSU does not take yet: a disjoint load passes it, an overlapping
    //    one does not
    for (range, passes) in [((512, 640), true), ((64, 192), false)] {
        let mut o = SmLoog::new(lsq, 1);
        let s0 = put_mem(&mut o, st(2, 5), mem(LsqKind::Store, 0, 128), 0);
        let l1 = put_mem(&mut o, ld(4, 6), mem(LsqKind::Load, range.0, range.1), 0);
        // the one RF port reads r2, r5 (store) at 1, 2 and r6 (load) at 3: both ready at 5
        run_cycles(&mut o, 1..5);
        o.begin_cycle(5);
        let pick = o.dispatch(0, 5, &mut |c| c.inst.op != OpClass::Store);
        assert_eq!(pick, passes.then_some(l1), "{range:?} (store in CU {s0})");
        assert_eq!(
            o.stats.lsq.clone().unwrap().address_holds,
            u64::from(!passes)
        );
    }
    // 4. a ready store behind an older, waiting load: it passes a disjoint one only
    for (range, passes) in [((512, 640), true), ((0, 4), false)] {
        let mut o = setup(lsq);
        put_mem(&mut o, ld(3, 1), mem(LsqKind::Load, 0, 128), 1);
        let s1 = put_mem(&mut o, st(2, 5), mem(LsqKind::Store, range.0, range.1), 1);
        run_cycles(&mut o, 2..5);
        let pick = o.dispatch(0, 5, &mut |c| c.inst.family == Family::Mem);
        assert_eq!(pick, passes.then_some(s1), "{range:?}");
    }
    // 5. a barrier: the load behind a waiting membar stays
    let mut o = setup(lsq);
    let bar = LsqMem {
        membar: true,
        ..LsqMem::NONE
    };
    let mut mb = inst(Family::Mem, OpClass::Membar, &[], &[1]);
    mb.n_src = 1;
    put_mem(&mut o, mb, bar, 1);
    put_mem(&mut o, ld(4, 2), mem(LsqKind::Load, 0, 4), 1);
    run_cycles(&mut o, 2..5);
    assert_eq!(o.dispatch(0, 5, &mut |c| c.inst.op == OpClass::Load), None);
    assert_eq!(o.stats.lsq.clone().unwrap().barrier_holds, 1);
}

/// The queues' sizes bound the loads and stores in CUs: with one load-queue entry the second
/// load waits for a free entry although CUs are free (`NoLsq`), and takes it once the first
/// one's CU is freed.
#[test]
fn a_full_load_queue_stalls_allocation() {
    let p = LoogParams {
        lsq: Some((1, 1)),
        ..params(4, 0)
    };
    let mut o = SmLoog::new(p, 1);
    let ld = inst(Family::Mem, OpClass::Load, &[3], &[2]);
    put_mem(&mut o, ld, mem(LsqKind::Load, 0, 4), 0);
    assert_eq!(
        o.can_alloc_mem(0, 0, true, LsqKind::Load),
        Err(AllocStall::NoLsq)
    );
    // a store still has its queue
    assert!(o.can_alloc_mem(0, 0, false, LsqKind::Store).is_ok());
    o.count_stall(AllocStall::NoLsq);
    assert_eq!(o.stats.lsq.as_ref().unwrap().full_stall, 1);
}

/// Whole workloads under LOOG with the memory queues keep their results, and every memory
/// instruction that takes a queue entry is counted; the queues reorder some memory accesses
/// and never make an instruction disappear.
#[test]
fn workloads_run_with_memory_queues() {
    let mut cfg = loog_cfg();
    cfg.sched.ooo.loog_lsq = true;
    cfg.validate("lsq").unwrap();
    let base = loog_cfg();
    for name in ["hotspot", "bfs", "sgemm"] {
        let a = common::run_checked(&cfg, name);
        let b = common::run_checked(&base, name);
        let s = stats(&a);
        let l = s.lsq.clone().expect("lsq counters");
        assert_eq!(insts(&a), insts(&b), "{name}");
        assert_eq!(s.cu_allocs, s.dispatches, "{name}");
        assert!(l.lq_allocs > 0 && l.searches > 0, "{name}: {l:?}");
        assert!(stats(&b).lsq.is_none());
        eprintln!(
            "{name}: loog {} cycles, with queues {} ({l:?})",
            cycles(&b),
            cycles(&a)
        );
    }
}
