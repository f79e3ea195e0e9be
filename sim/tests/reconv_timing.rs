//! Reconvergence in the timing model (control-flow spec §3.1, §6): when the stack update of a
//! branch becomes visible to fetch (`reconv.stack_update_at`), the issue-time flush of the
//! entries fetched past a redirecting branch (`reconv.issue_flush`), the §6 counters
//! (`reconv.counters`), and functional results that stay those of the emulator under every
//! setting.

mod common;

use common::{run_checked, Replay, Streams};
use sim::config::reconv::StackUpdateAt;
use sim::config::GpuConfig;
use sim::inst::{Family, OpClass, WarpInst};
use sim::timing::{Simulation, Stream};
use sim::KernelInfo;

fn inst(pc: u32, family: Family, op: OpClass) -> WarpInst {
    let mut i = WarpInst::new(pc, family, op, u32::MAX);
    if family == Family::Int {
        i.n_dst = 1;
        i.dst[0] = (pc / 8) as u16;
    }
    i
}

/// Eight warps, each: eight taken branches (PCs 0, 80, …, 560, each jumping to the next), a
/// branch at 640 that falls through, and adds at 648 and 656. In fetch groups of two the
/// oracle front end needs 6 groups per warp, ending every group at a branch needs 10; with
/// one warp fetching per cycle, fetch bounds the run.
fn warps_stream(n_warps: u32) -> Replay {
    let add = |pc| inst(pc, Family::Int, OpClass::Add);
    let bra = |pc| inst(pc, Family::Ctrl, OpClass::Branch);
    let mut list: Vec<WarpInst> = (0..9).map(|k| bra(80 * k)).collect();
    list.extend([add(648), add(656)]);
    let mut warps = Streams::new();
    for w in 0..n_warps {
        warps.insert((0, w), list.clone());
    }
    let info = KernelInfo {
        name: "k".into(),
        grid: [1, 1, 1],
        block: [32 * n_warps, 1, 1],
        shared_bytes: 0,
        regs_per_thread: 16,
    };
    Replay::new(info, warps)
}

fn run_warps(n_warps: u32, at: StackUpdateAt, flush: bool) -> sim::activity::KernelActivity {
    let mut cfg = GpuConfig::preset("gtx480").unwrap();
    cfg.frontend.perfect_icache = true;
    cfg.reconv.stack_update_at = at;
    cfg.reconv.issue_flush = flush;
    cfg.reconv.counters = true;
    cfg.validate("test").unwrap();
    let mut s = warps_stream(n_warps);
    Simulation::new(&cfg).run(Stream(&mut s)).unwrap()
}

#[test]
fn stack_update_timing_delays_fetch_after_a_branch() {
    let fetch = run_warps(8, StackUpdateAt::Fetch, false);
    let issue = run_warps(8, StackUpdateAt::Issue, false);
    let flush = run_warps(8, StackUpdateAt::Issue, true);
    let wb = run_warps(8, StackUpdateAt::Writeback, false);
    for k in [&fetch, &issue, &flush, &wb] {
        assert_eq!(k.warp_insts, 88);
    }
    // Ending the fetch group at each branch costs fetch rounds (fetch bounds this run);
    // waiting for the branch's write-back costs its pipeline latency on top, which shows with
    // a single warp (the eight warps hide it behind the fetch bound).
    eprintln!(
        "cycles: fetch {} issue {} issue+flush {} writeback {}",
        fetch.cycles, issue.cycles, flush.cycles, wb.cycles
    );
    assert!(
        issue.cycles > fetch.cycles,
        "{} {}",
        issue.cycles,
        fetch.cycles
    );
    assert!(wb.cycles >= issue.cycles, "{} {}", wb.cycles, issue.cycles);
    let issue1 = run_warps(1, StackUpdateAt::Issue, false);
    let wb1 = run_warps(1, StackUpdateAt::Writeback, false);
    assert!(
        wb1.cycles > issue1.cycles,
        "{} {}",
        wb1.cycles,
        issue1.cycles
    );
    // The flush front end runs on past the fall-through branch at 56, so it is no slower than
    // ending every group at a branch.
    assert!(flush.cycles <= issue.cycles);
    let ib = |k: &sim::activity::KernelActivity| {
        k.sms
            .iter()
            .map(|s| (s.ibuffer.flushes, s.ibuffer.flushed_entries))
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    };
    // The eight taken branches redirect the warp: the one slot behind each is flushed.
    assert_eq!(ib(&flush), (64, 64));
    assert_eq!(ib(&issue), (0, 0));
    assert_eq!(ib(&fetch), (0, 0));
    // SIMD-efficiency buckets: 88 full-warp issues; a replayed stream carries no stack.
    let r = fetch.reconv.as_ref().unwrap();
    assert_eq!(r.issued_lanes[8], 88);
    assert!(!r.stack_from_front_end);
    let slots = fetch.sms.iter().flat_map(|s| &s.sched).map(|a| a.issued[0]);
    assert_eq!(r.w0_mem + r.w0_idle + r.w0_stall, slots.sum::<u64>());
}

#[test]
fn counters_off_leave_the_record_without_them() {
    let mut cfg = GpuConfig::preset("gtx480").unwrap();
    cfg.frontend.perfect_icache = true;
    let mut s = warps_stream(2);
    let k = Simulation::new(&cfg).run(Stream(&mut s)).unwrap();
    assert!(k.reconv.is_none());
}

/// A divergent workload keeps its functional results under every stack-update setting, the
/// stack counters come from the emulator and do not depend on fetch timing.
#[test]
fn divergent_workload_results_hold_under_every_setting() {
    let mut stacks = Vec::new();
    for (at, flush) in [
        (StackUpdateAt::Fetch, false),
        (StackUpdateAt::Issue, false),
        (StackUpdateAt::Issue, true),
        (StackUpdateAt::Writeback, false),
    ] {
        let mut cfg = GpuConfig::preset("gtx480").unwrap();
        cfg.reconv.stack_update_at = at;
        cfg.reconv.issue_flush = flush;
        cfg.reconv.counters = true;
        let a = run_checked(&cfg, "bfs");
        let r = a.aggregate.reconv.clone().unwrap();
        assert!(r.stack_from_front_end);
        assert!(r.stack.divergent_branches > 0);
        assert_eq!(
            r.stack.divergent_branches,
            a.aggregate
                .sms
                .iter()
                .map(|s| s.simt.divergent_branches)
                .sum::<u64>()
        );
        stacks.push(r.stack);
    }
    assert!(stacks.windows(2).all(|w| w[0] == w[1]), "{stacks:?}");
}

#[test]
fn gf8800gtx_like_runs_a_workload() {
    let cfg = GpuConfig::preset("gf8800gtx_like").unwrap();
    let a = run_checked(&cfg, "bfs");
    assert!(a.aggregate.cycles > 0);
}
