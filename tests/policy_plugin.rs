//! A warp scheduler defined outside the simulator crate, registered by name and selected with
//! `sched.policy = "plugin:toy"`: the policy extension point is reachable from a library, and an
//! unregistered plug-in name is an error that lists the registered ones.

use sim::config::{GpuConfig, SchedPolicy};
use sim::timing::{PolicyRegistry, Program, Simulation, TimingGpu, WarpScheduler, WarpView};
use sim::workloads::{self, Size};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Youngest slot first: the warps in descending slot order every cycle (the reverse of the
/// slot order loose round-robin starts from), counting its calls.
struct YoungestSlotFirst {
    calls: Arc<AtomicU64>,
}

impl WarpScheduler for YoungestSlotFirst {
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        order.clear();
        order.extend(warps.iter().rev().map(|w| w.slot));
    }
    fn issued(&mut self, _slot: u16) {}
    fn stable_when_idle(&self) -> bool {
        true
    }
    fn uses_warp_state(&self) -> bool {
        false
    }
}

/// Runs `workload` at the test size through the builder; returns (warp insts, cycles).
fn run(cfg: &GpuConfig, reg: &PolicyRegistry, workload: &str) -> Result<(u64, u64), sim::SimError> {
    let w = workloads::find(workload).expect("built-in workload");
    let (report, act) = Simulation::new(cfg)
        .registry(reg)
        .run(Program(|gpu: &mut TimingGpu| w.run(Size::Test, gpu, true)))?;
    let report = report?;
    let check = report.check.expect("checked run");
    assert!(check.passed, "{workload}: {}", check.detail);
    Ok((act.aggregate.warp_insts, act.aggregate.cycles))
}

#[test]
fn registered_scheduler_runs_a_workload() {
    let calls = Arc::new(AtomicU64::new(0));
    let mut reg = PolicyRegistry::new();
    let c = calls.clone();
    reg.register_scheduler("toy", move |_cfg| {
        Box::new(YoungestSlotFirst { calls: c.clone() })
    })
    .expect("a new name registers");
    assert!(reg.scheduler_names().contains(&"plugin:toy".to_string()));

    let mut gto = GpuConfig::preset("gtx480").unwrap();
    gto.sched.policy = SchedPolicy::Gto;
    let mut toy = gto.clone();
    toy.sched.policy = SchedPolicy::Plugin("toy".into());

    for workload in ["hotspot", "sgemm"] {
        let before = calls.load(Ordering::Relaxed);
        let (gto_insts, gto_cycles) = run(&gto, &reg, workload).unwrap();
        assert_eq!(
            calls.load(Ordering::Relaxed),
            before,
            "GTO does not call the toy"
        );
        let (toy_insts, toy_cycles) = run(&toy, &reg, workload).unwrap();
        let n = calls.load(Ordering::Relaxed) - before;
        println!(
            "{workload}: gto {gto_cycles} cycles, toy {toy_cycles} cycles, {gto_insts} warp insts, \
             {n} toy order calls"
        );
        assert_eq!(
            toy_insts, gto_insts,
            "{workload}: same program, same instructions"
        );
        assert!(n > 0, "{workload}: the toy scheduler ordered the warps");
        assert_ne!(
            toy_cycles, gto_cycles,
            "{workload}: another order, other cycles"
        );
    }

    // the builder's override selects it too, by its bare name
    let w = workloads::find("hotspot").unwrap();
    let before = calls.load(Ordering::Relaxed);
    let (_, act) = Simulation::new(&gto)
        .registry(&reg)
        .scheduler("toy")
        .run(Program(|gpu: &mut TimingGpu| w.run(Size::Test, gpu, false)))
        .unwrap();
    assert!(calls.load(Ordering::Relaxed) > before);
    assert!(act.aggregate.warp_insts > 0);
}

#[test]
fn unregistered_plugin_is_an_error_naming_the_registered_ones() {
    let mut reg = PolicyRegistry::new();
    reg.register_scheduler("toy", |_cfg| {
        Box::new(YoungestSlotFirst {
            calls: Arc::new(AtomicU64::new(0)),
        })
    })
    .unwrap();
    let mut cfg = GpuConfig::preset("gtx480").unwrap();
    cfg.sched.policy = SchedPolicy::Plugin("missing".into());
    let err = run(&cfg, &reg, "hotspot").unwrap_err().to_string();
    assert!(err.contains("plugin:missing"), "{err}");
    assert!(
        err.contains("plugin:toy"),
        "lists the registered names: {err}"
    );

    // a configuration file naming it loads (the name is resolved when a simulation starts)
    let toml = "base = \"gtx480\"\n[sched]\npolicy = \"plugin:missing\"\n";
    let path = std::env::temp_dir().join(format!("policy-plugin-{}.toml", std::process::id()));
    std::fs::write(&path, toml).unwrap();
    let loaded = GpuConfig::from_toml_file(&path);
    let _ = std::fs::remove_file(&path);
    let loaded = loaded.unwrap();
    let err = run(&loaded, &PolicyRegistry::new(), "hotspot")
        .unwrap_err()
        .to_string();
    assert!(err.contains("registered: none"), "{err}");

    // and a built-in name cannot be taken by a registration of another kind
    assert!(reg
        .register_issue_stage("in_order", |_cfg| {
            Box::new(sim::timing::InOrderScoreboard::new(false))
        })
        .is_err());
}
