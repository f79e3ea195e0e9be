//! The §9 sweeps of the power-gating spec on test-size workloads with gtx480, printed with
//! `cargo test --release -p sim --test pg_sweeps -- --ignored --nocapture`:
//!
//! - critical wakeups vs runtime over the static idle-detect threshold D = 0…10 under
//!   blackout (GATES + coordinated blackout, adaptive D off): per D the critical wakeups, their
//!   rate per 1000 cycles and the runtime normalised to the no-PG two-level run, then per
//!   benchmark the Pearson correlation of rate and normalised runtime over the eleven points;
//! - each technique's runtime normalised to the reference the spec names (two-level without
//!   gating), and Origami normalised to Warped-Gates (the cross-chapter reference).
//!
//! Ignored by default: it simulates about eighty runs (a few minutes in release). Every run's
//! functional check must pass.

use sim::activity::Activity;
use sim::config::pg::{Granularity, PgPolicy};
use sim::config::{GpuConfig, SchedPolicy};
use sim::timing::Simulation;
use sim::workloads::{self, Size};

const WORKLOADS: [&str; 4] = ["backprop", "cp", "nw", "hotspot"];

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

/// Pearson correlation coefficient of two equally long series (`None` when one is constant).
fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

fn critical_wakeups(a: &Activity) -> u64 {
    a.aggregate
        .gating
        .as_ref()
        .map_or(0, |g| g.domains.iter().map(|d| d.critical_wakeups).sum())
}

/// The no-PG two-level reference run of the spec (§9 "normalised to a reference run").
fn reference() -> GpuConfig {
    let mut c = GpuConfig::preset("gtx480").unwrap();
    c.sched.policy = SchedPolicy::TwoLevel;
    c
}

#[test]
fn pearson_of_known_series() {
    assert!((pearson(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]).unwrap() - 1.0).abs() < 1e-12);
    assert!((pearson(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]).unwrap() + 1.0).abs() < 1e-12);
    assert!(pearson(&[1.0, 1.0], &[1.0, 2.0]).is_none());
}

#[test]
#[ignore = "sweep: about eighty test-size runs; prints the §9 tables"]
fn critical_wakeups_vs_runtime_over_d() {
    println!("critical wakeups vs runtime over static D (GATES + CoordinatedBlackout, gtx480)");
    for name in WORKLOADS {
        let t_ref = run(&reference(), name).aggregate.cycles as f64;
        let (mut rate, mut norm) = (Vec::new(), Vec::new());
        println!("{name}: no-PG two-level {t_ref} cycles");
        println!("   D  critical  per-kcycle  runtime/no-PG");
        for d in 0..=10u32 {
            let mut c = reference();
            c.sched.policy = SchedPolicy::Gates;
            c.pg.policy = PgPolicy::CoordinatedBlackout;
            c.pg.adaptive.enabled = false;
            c.pg.idle_detect = d;
            c.validate("sweep").unwrap();
            let a = run(&c, name);
            let cycles = a.aggregate.cycles as f64;
            let cw = critical_wakeups(&a);
            let r = 1000.0 * cw as f64 / cycles;
            rate.push(r);
            norm.push(cycles / t_ref);
            println!("  {d:>2}  {cw:>8}  {r:>10.3}  {:>13.4}", cycles / t_ref);
        }
        match pearson(&rate, &norm) {
            Some(p) => println!("  Pearson(critical/kcycle, runtime) = {p:.3}"),
            None => println!("  Pearson undefined (a constant series)"),
        }
    }
}

#[test]
#[ignore = "sweep: test-size runs of every technique; prints the normalised runtimes"]
fn technique_runtime_normalised_to_the_reference() {
    let base = reference();
    let with = |f: &dyn Fn(&mut GpuConfig)| {
        let mut c = base.clone();
        f(&mut c);
        c.validate("technique").unwrap();
        c
    };
    let lane = |c: &mut GpuConfig| {
        c.pg.granularity = Granularity::LaneGroup;
        c.pg.lane_group_size = 1;
    };
    let techniques: Vec<(&str, GpuConfig)> = vec![
        (
            "ConvPG",
            with(&|c| {
                c.sched.policy = SchedPolicy::Gates;
                c.pg.policy = PgPolicy::Conventional;
            }),
        ),
        ("GATES", with(&|c| c.sched.policy = SchedPolicy::Gates)),
        (
            "NaiveBO",
            with(&|c| {
                c.sched.policy = SchedPolicy::Gates;
                c.pg.policy = PgPolicy::NaiveBlackout;
            }),
        ),
        (
            "CoordBO",
            with(&|c| {
                c.sched.policy = SchedPolicy::Gates;
                c.pg.policy = PgPolicy::CoordinatedBlackout;
            }),
        ),
        (
            "WarpedGates",
            with(&|c| {
                c.sched.policy = SchedPolicy::Gates;
                c.pg.policy = PgPolicy::CoordinatedBlackout;
                c.pg.adaptive.enabled = true;
            }),
        ),
        (
            "TwoLevelPG",
            with(&|c| {
                c.pg.policy = PgPolicy::Conventional;
                lane(c);
            }),
        ),
        (
            "WarpFolding",
            with(&|c| {
                c.pg.policy = PgPolicy::Conventional;
                lane(c);
                c.fold.enabled = true;
            }),
        ),
        (
            "Origami",
            with(&|c| {
                c.pg.policy = PgPolicy::Conventional;
                lane(c);
                c.fold.enabled = true;
                c.sched.policy = SchedPolicy::Origami;
            }),
        ),
    ];
    println!("runtime normalised to two-level without gating (gtx480, test size)");
    print!("{:<10}", "workload");
    for (n, _) in &techniques {
        print!(" {n:>11}");
    }
    println!(" {:>17}", "Origami/WarpedG");
    for name in WORKLOADS {
        let t_ref = run(&base, name).aggregate.cycles as f64;
        print!("{name:<10}");
        let mut by = std::collections::BTreeMap::new();
        for (n, c) in &techniques {
            let t = run(c, name).aggregate.cycles as f64;
            by.insert(*n, t);
            print!(" {:>11.4}", t / t_ref);
        }
        println!(" {:>17.4}", by["Origami"] / by["WarpedGates"]);
    }
}
