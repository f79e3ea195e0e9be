//! The analytical activity source (`--activity-source model`, `gpuenergy::amodel`): its records
//! are consistent and costable for every built-in workload, its functional counts equal the
//! cycle-level simulator's exactly, it is deterministic, it refuses what it cannot represent
//! (exit 2, naming the knob), and its outputs say that the activity is analytical.

mod common;

use gpuenergy::amodel;
use gpuenergy::study::{ActivitySource, Study};
use sim::activity::Activity;
use sim::config::GpuConfig;
use sim::timing::{Program, Simulation, TimingGpu};
use sim::workloads::{self, Size};
use std::collections::BTreeMap;

fn gtx480() -> GpuConfig {
    GpuConfig::preset("gtx480").unwrap()
}

fn simulated(cfg: &GpuConfig, w: &dyn workloads::Workload) -> Activity {
    let (r, act) = Simulation::new(cfg)
        .run(Program(|gpu: &mut TimingGpu| w.run(Size::Test, gpu, false)))
        .unwrap();
    r.unwrap();
    act
}

/// Operations and lanes per (pipe, op class), summed over SMs and pipe instances.
fn ops(a: &Activity) -> BTreeMap<(String, String), (u64, u64)> {
    let mut m = BTreeMap::new();
    for s in &a.aggregate.sms {
        for p in &s.exec {
            for (op, ol) in &p.ops {
                let e = m.entry((p.pipe.clone(), op.clone())).or_insert((0, 0));
                e.0 += ol.ops;
                e.1 += ol.lanes;
            }
        }
    }
    m
}

#[test]
fn every_workload_is_consistent_costable_and_functionally_exact() {
    let cfg = gtx480();
    let study = Study::new(
        cfg.clone(),
        techlib::ResolvedPoint::named("40nm").unwrap(),
        None,
    );
    let src = study.cost_source().unwrap();
    let chip = study.chip(&src).unwrap();
    for w in workloads::all() {
        let name = w.info().name;
        let m = amodel::run_workload(&cfg, w, Size::Test).unwrap();
        m.check_consistent(name).unwrap();
        let p = m
            .provenance
            .as_ref()
            .expect("a model record names its provenance");
        assert_eq!(p.source, "model");
        assert!(!p.absent.is_empty() && !p.functional.is_empty() && !p.analytical.is_empty());
        assert_eq!(m.config_hash, cfg.hash_hex());
        let a = &m.aggregate;
        assert!(a.cycles > 0, "{name}: cycles");
        assert_eq!(
            a.sms.len(),
            cfg.gpu.n_sm as usize,
            "{name}: one record per SM"
        );
        let r = study.cost(&chip, &src.label, name, &m).unwrap();
        assert!(
            r.energy_j.is_finite() && r.energy_j > 0.0,
            "{name}: {}",
            r.energy_j
        );
        // the functional counts are the simulator's, exactly
        let s = simulated(&cfg, w);
        let b = &s.aggregate;
        assert_eq!(a.launches, b.launches, "{name}: launches");
        assert_eq!(a.warp_insts, b.warp_insts, "{name}: warp instructions");
        assert_eq!(
            a.thread_insts, b.thread_insts,
            "{name}: thread instructions"
        );
        assert_eq!(a.by_family, b.by_family, "{name}: per family");
        assert_eq!(ops(&m), ops(&s), "{name}: per pipe and op class");
        let sum = |x: &Activity, f: fn(&sim::activity::SmActivity) -> u64| -> u64 {
            x.aggregate.sms.iter().map(f).sum()
        };
        for (what, f) in [
            (
                "ctas",
                (|s: &sim::activity::SmActivity| s.ctas) as fn(&_) -> u64,
            ),
            ("ldst.insts", |s| s.ldst.insts),
            ("smem.accesses", |s| s.smem.accesses),
            ("smem.lanes", |s| s.smem.lanes),
            ("bar.arrivals", |s| s.bar.arrivals),
            ("simt.divergent_branches", |s| s.simt.divergent_branches),
            ("rf.pred_reads", |s| s.rf.pred_reads),
            ("rf.writes", |s| s.rf.writes.iter().sum()),
            ("rf.reads", |s| s.rf.reads.iter().sum()),
        ] {
            assert_eq!(sum(&m, f), sum(&s, f), "{name}: {what}");
        }
    }
}

#[test]
fn two_runs_are_byte_identical() {
    let cfg = gtx480();
    for name in ["hotspot", "bfs", "sgemm"] {
        let w = workloads::find(name).unwrap();
        let a = amodel::run_workload(&cfg, w, Size::Test).unwrap().to_json();
        let b = amodel::run_workload(&cfg, w, Size::Test).unwrap().to_json();
        assert!(a == b, "{name}: two runs differ");
    }
}

#[test]
fn a_study_on_the_model_says_so_and_refuses_what_it_cannot_represent() {
    let cfg = gtx480();
    let list = gpuenergy::study::workloads_named("hotspot").unwrap();
    let r = Study::new(
        cfg.clone(),
        techlib::ResolvedPoint::named("40nm").unwrap(),
        None,
    )
    .activity_source(ActivitySource::Model)
    .run(&list)
    .unwrap();
    assert_eq!(r.activity_source, "model");
    assert!(gpuenergy::report::table::render(&r).contains(amodel::TABLE_NOTE));
    let mut gated = cfg.clone();
    gated.stats.per_register = true;
    let e = match Study::new(gated, techlib::ResolvedPoint::named("40nm").unwrap(), None)
        .activity_source(ActivitySource::Model)
        .run(&list)
    {
        Ok(_) => panic!("stats.per_register should be refused on the model"),
        Err(e) => e.to_string(),
    };
    assert!(
        e.contains("stats.per_register") && e.contains("false"),
        "{e}"
    );
    let sim = Study::new(cfg, techlib::ResolvedPoint::named("40nm").unwrap(), None)
        .run(&list)
        .unwrap();
    assert_eq!(sim.activity_source, "sim");
    assert!(!gpuenergy::report::table::render(&sim).contains(amodel::TABLE_NOTE));
}

#[test]
fn cli_outputs_say_the_activity_is_analytical() {
    let t = common::ok(&[
        "simulate",
        "--workload",
        "hotspot",
        "--activity-source",
        "model",
    ]);
    assert!(
        t.contains("analytical model") && t.contains("not simulated"),
        "{t}"
    );
    let j = common::ok(&[
        "simulate",
        "--workload",
        "hotspot",
        "--activity-source",
        "model",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&j).unwrap();
    assert_eq!(v["activity_source"], "model");
    assert!(v["provenance"]["absent"]
        .as_array()
        .is_some_and(|a| !a.is_empty()));
    let j = common::ok(&[
        "estimate",
        "--tech",
        "40nm",
        "--workload",
        "hotspot",
        "--activity-source",
        "model",
        "--format",
        "json",
        "--quiet",
    ]);
    let v: serde_json::Value = serde_json::from_str(&j).unwrap();
    assert_eq!(v["activity_source"], "model");
    let t = common::ok(&[
        "estimate",
        "--tech",
        "40nm",
        "--workload",
        "hotspot",
        "--activity-source",
        "model",
        "--quiet",
    ]);
    // the provenance line, then the note
    assert!(t.starts_with("gpuenergy "), "{t}");
    assert!(
        t.split_once('\n')
            .unwrap()
            .1
            .starts_with(amodel::TABLE_NOTE),
        "{t}"
    );
}

#[test]
fn cli_refuses_what_the_model_cannot_represent() {
    for (cmd, set, knob) in [
        ("simulate", "stats.per_register=true", "stats.per_register"),
        ("estimate", "reconv.counters=true", "reconv.counters"),
        ("simulate", "reconv.counters=true", "reconv.counters"),
    ] {
        let mut args = vec![cmd, "--workload", "hotspot", "--activity-source", "model"];
        args.extend(["--set", set]);
        if cmd == "estimate" {
            args.extend(["--tech", "40nm", "--quiet"]);
        }
        let e = common::refused(&args);
        assert!(e.contains(knob) && e.contains("allowed"), "{args:?}: {e}");
    }
    let e = common::refused(&[
        "simulate",
        "--trace",
        "no/such/dir",
        "--activity-source",
        "model",
    ]);
    assert!(e.contains("--activity-source") && e.contains("sim"), "{e}");
    let e = common::refused(&[
        "estimate",
        "--workload",
        "hotspot",
        "--activity-source",
        "nope",
    ]);
    assert!(e.contains("sim") && e.contains("model"), "{e}");
}
