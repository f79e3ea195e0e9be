//! Power gating through the full SM (power-gating §8.9): gtx480 with `sched.policy = "gates"`
//! (and two-level) under each `pg.policy`, small workloads at the test tier. Per domain the
//! state cycles sum to T and `events − wakeups ∈ {0, 1}`; per-type executed warp-instruction
//! counts, per-pipe op and active-lane counts and the functional results equal those of the
//! no-PG run; a `pg.policy = "None"` run is identical to one without a `[pg]` table.

mod common;
use common::{pipe_ops, run_checked};
use sim::activity::Activity;
use sim::config::pg::PgPolicy;
use sim::config::{GpuConfig, SchedPolicy};

fn check_invariants(a: &Activity, what: &str) {
    for k in a.kernels.iter().chain(std::iter::once(&a.aggregate)) {
        let g = k
            .gating
            .as_ref()
            .unwrap_or_else(|| panic!("{what}: no gating record"));
        assert!(!g.domains.is_empty());
        // 15 SMs × 2 SP units × (INT, FP)
        assert_eq!(g.domains.len() % 60, 0, "{what}");
        for d in &g.domains {
            assert_eq!(d.state_cycles(), d.cycles, "{what}: {d:?}");
            assert_eq!(d.busy + d.idle, d.cycles, "{what}");
            let open = d.events - d.wakeups;
            // per launch at most one event is left open at the kernel's end
            assert!(d.events >= d.wakeups, "{what}");
            assert!(open <= k.launches, "{what}: {} − {}", d.events, d.wakeups);
            assert_eq!(
                d.idle_run_cycles.iter().sum::<u64>(),
                d.idle,
                "{what}: idle runs cover the idle cycles"
            );
            assert_eq!(d.g_hist.values().sum::<u64>(), d.events);
            assert_eq!(
                d.g_hist.iter().map(|(g, n)| g * n).sum::<u64>(),
                d.gated_cycles
            );
        }
        assert_eq!(
            g.domains[0].cycles, k.cycles,
            "{what}: T is the kernel's cycles"
        );
    }
}

#[test]
fn gating_keeps_work_and_results_and_holds_the_invariants() {
    for name in ["backprop", "cp", "nw"] {
        let base = GpuConfig::preset("gtx480").unwrap();
        let a0 = run_checked(&base, name);
        assert!(a0.aggregate.gating.is_none());
        for sched in [SchedPolicy::Gates, SchedPolicy::TwoLevel] {
            for policy in [
                PgPolicy::None,
                PgPolicy::Conventional,
                PgPolicy::NaiveBlackout,
                PgPolicy::CoordinatedBlackout,
            ] {
                let mut cfg = base.clone();
                cfg.sched.policy = sched.clone();
                cfg.pg.policy = policy;
                if policy == PgPolicy::CoordinatedBlackout {
                    cfg.pg.adaptive.enabled = true;
                    cfg.pg.adaptive.epoch = 500;
                }
                let what = format!("{name} {sched:?} {policy:?}");
                let a = run_checked(&cfg, name);
                let (k0, k) = (&a0.aggregate, &a.aggregate);
                assert_eq!(
                    k.by_family, k0.by_family,
                    "{what}: per-type instruction counts"
                );
                assert_eq!(pipe_ops(k), pipe_ops(k0), "{what}: per-pipe op/lane counts");
                if policy == PgPolicy::None {
                    assert!(k.gating.is_none());
                } else {
                    check_invariants(&a, &what);
                }
            }
        }
    }
}

#[test]
fn pg_none_is_identical_to_no_pg_table() {
    let base = GpuConfig::preset("gtx480").unwrap();
    let mut none = base.clone();
    none.pg.policy = PgPolicy::None;
    assert_eq!(none.hash_hex(), base.hash_hex());
    assert_eq!(
        run_checked(&base, "nw").to_json(),
        run_checked(&none, "nw").to_json()
    );
}

#[test]
fn gated_runs_report_events_and_timing() {
    let mut cfg = GpuConfig::preset("gtx480").unwrap();
    cfg.pg.policy = PgPolicy::Conventional;
    let tl = run_checked(&cfg, "cp");
    cfg.sched.policy = SchedPolicy::Gates;
    let ga = run_checked(&cfg, "cp");
    let events = |a: &Activity| -> u64 {
        a.aggregate
            .gating
            .as_ref()
            .unwrap()
            .domains
            .iter()
            .map(|d| d.events)
            .sum()
    };
    assert!(events(&tl) > 0);
    assert!(events(&ga) > 0);
    let g = ga.aggregate.gating.as_ref().unwrap();
    assert_eq!(g.bet, 14);
    assert_eq!(g.wakeup, 3);
    let int = g
        .aggregate(sim::activity::DomainClass::IntCluster, None)
        .unwrap();
    assert_eq!(int.state_cycles(), int.cycles);
}

/// `pg.gate_sfu`: the SFUs become Conventional domains (cp is SFU-heavy: rsqrt).
#[test]
fn sfu_domains_with_gate_sfu() {
    let base = GpuConfig::preset("gtx480").unwrap();
    let a0 = run_checked(&base, "cp");
    let mut cfg = base.clone();
    cfg.pg.policy = PgPolicy::Conventional;
    cfg.pg.gate_sfu = true;
    let a = run_checked(&cfg, "cp");
    assert_eq!(a.aggregate.by_family, a0.aggregate.by_family);
    assert_eq!(pipe_ops(&a.aggregate), pipe_ops(&a0.aggregate));
    let g = a.aggregate.gating.as_ref().unwrap();
    let sfu: Vec<_> = g.domains.iter().filter(|d| d.pipe == "sfu").collect();
    assert_eq!(sfu.len(), 15 * cfg.units.n_sfu as usize);
    assert!(sfu.iter().any(|d| d.busy > 0));
    for d in &g.domains {
        assert_eq!(d.state_cycles(), d.cycles);
    }
}

/// Lane-group domains on the full SM (sizes 1, 2, 4): same work and results, invariants hold.
#[test]
fn lane_group_domains_on_the_sm() {
    use sim::config::pg::Granularity;
    let base = GpuConfig::preset("gtx480").unwrap();
    let a0 = run_checked(&base, "nw");
    for size in [1, 2, 4] {
        let mut cfg = base.clone();
        cfg.pg.policy = PgPolicy::NaiveBlackout;
        cfg.pg.granularity = Granularity::LaneGroup;
        cfg.pg.lane_group_size = size;
        let a = run_checked(&cfg, "nw");
        assert_eq!(a.aggregate.by_family, a0.aggregate.by_family);
        assert_eq!(pipe_ops(&a.aggregate), pipe_ops(&a0.aggregate));
        let g = a.aggregate.gating.as_ref().unwrap();
        let per_sm = 2 * 2 * (cfg.units.sp_lanes / size) as usize;
        assert_eq!(g.domains.len(), 15 * per_sm, "size {size}");
        assert!(g.domains.iter().all(|d| d.lanes == size));
        for d in &g.domains {
            assert_eq!(d.state_cycles(), d.cycles);
            assert!(d.events - d.wakeups <= a.aggregate.launches);
        }
    }
}
