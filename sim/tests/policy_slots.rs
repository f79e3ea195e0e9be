//! Every policy slot of the SM is reachable through the [`Simulation`] builder: an issue stage,
//! a register-file organisation and a reconvergence mechanism that delegate to the built-in
//! ones give the built-in results through the trait-object path, and a gating policy that turns
//! idle pipes off and on again on demand changes a workload's timing without changing what it
//! executes.

use sim::config::GpuConfig;
use sim::emu::simt::{Entry, SimtStack, StackStats};
use sim::emu::{PushOrder, Reconvergence};
use sim::timing::tinst::TInst;
use sim::timing::{
    GatingPolicy, Hazard, InOrderScoreboard, IssueStage, MonolithicRf, PolicyRegistry, Program,
    RegisterFileOrg, Simulation, TimingGpu, UnitState,
};
use sim::workloads::{self, Size};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

fn counter() -> Arc<AtomicU64> {
    Arc::new(AtomicU64::new(0))
}

/// The in-order scoreboard behind the trait, counting hazard checks.
struct CountingScoreboard(InOrderScoreboard, Arc<AtomicU64>);

impl IssueStage for CountingScoreboard {
    fn reset(&mut self, n: usize) {
        self.0.reset(n)
    }
    fn check(&self, w: usize, i: &TInst) -> Result<(), Hazard> {
        self.1.fetch_add(1, Ordering::Relaxed);
        self.0.check(w, i)
    }
    fn reserve(&mut self, w: usize, i: &TInst, longop: bool) {
        self.0.reserve(w, i, longop)
    }
    fn release(&mut self, w: usize, reg: u16) {
        self.0.release(w, reg)
    }
    fn sources_read(&mut self, w: usize, i: &TInst) {
        self.0.sources_read(w, i)
    }
    fn reads_longop(&self, w: usize, i: &TInst) -> bool {
        self.0.reads_longop(w, i)
    }
    fn any_pending(&self, w: usize) -> bool {
        self.0.any_pending(w)
    }
    fn failure_sticky(&self) -> bool {
        self.0.failure_sticky()
    }
}

/// The monolithic register file behind the trait, counting bank look-ups.
struct CountingRf(MonolithicRf, Arc<AtomicU64>);

impl RegisterFileOrg for CountingRf {
    fn bank(&self, w: u32, sched: u32, reg: u16) -> u32 {
        self.1.fetch_add(1, Ordering::Relaxed);
        self.0.bank(w, sched, reg)
    }
}

/// The PDOM stack behind the trait, counting updates.
struct CountingStack(SimtStack, Arc<AtomicU64>);

impl Reconvergence for CountingStack {
    fn top(&self) -> Option<Entry> {
        self.0.top().copied()
    }
    fn depth(&self) -> usize {
        self.0.depth()
    }
    fn advance(&mut self, next: u32, exited: u32) {
        self.1.fetch_add(1, Ordering::Relaxed);
        self.0.advance(next, exited)
    }
    fn branch(
        &mut self,
        taken: u32,
        target: u32,
        fall: u32,
        fall_pc: u32,
        rpc: u32,
        order: PushOrder,
    ) -> bool {
        self.1.fetch_add(1, Ordering::Relaxed);
        self.0.branch(taken, target, fall, fall_pc, rpc, order)
    }
    fn stats(&self) -> StackStats {
        self.0.stats
    }
}

/// Every pipe is off until an instruction asks for it; it is usable `WAKE` cycles after the
/// request, and turns off again after `IDLE_OFF` cycles without accepting an instruction.
/// Counts end-of-cycle calls.
struct WakeOnDemand {
    on_at: Vec<u64>,
    idle: Vec<u64>,
    cycles: Arc<AtomicU64>,
}

const WAKE: u32 = 20;
const IDLE_OFF: u64 = 10;

impl GatingPolicy for WakeOnDemand {
    fn available(&self, pipe: usize, cycle: u64) -> UnitState {
        match self.on_at.get(pipe) {
            Some(&t) if t <= cycle => UnitState::Ready,
            _ => UnitState::Gated { wake_in: WAKE },
        }
    }
    fn request_wake(&mut self, pipe: usize, cycle: u64) {
        if self.on_at.len() <= pipe {
            self.on_at.resize(pipe + 1, u64::MAX);
        }
        if self.on_at[pipe] == u64::MAX {
            self.on_at[pipe] = cycle + WAKE as u64;
        }
    }
    fn needs_cycle_hook(&self) -> bool {
        true
    }
    fn on_cycle(&mut self, pipe: usize, cycle: u64, busy: bool, accepted: bool) {
        self.cycles.fetch_add(1, Ordering::Relaxed);
        if self.idle.len() <= pipe {
            self.idle.resize(pipe + 1, 0);
        }
        let on = self.on_at.get(pipe).is_some_and(|&t| t <= cycle);
        if busy || accepted || !on {
            self.idle[pipe] = 0;
        } else {
            self.idle[pipe] += 1;
            if self.idle[pipe] >= IDLE_OFF {
                self.on_at[pipe] = u64::MAX;
                self.idle[pipe] = 0;
            }
        }
    }
}

/// Runs `workload` (test size, results checked) under `sim`; returns the activity.
fn run(sim: Simulation<'static>, workload: &str) -> sim::activity::Activity {
    let w = workloads::find(workload).unwrap();
    let (rep, act) = sim
        .run(Program(|gpu: &mut TimingGpu| w.run(Size::Test, gpu, true)))
        .unwrap();
    let check = rep.unwrap().check.unwrap();
    assert!(check.passed, "{workload}: {}", check.detail);
    act
}

#[test]
fn delegating_plugins_reproduce_the_builtin_results() {
    let cfg = GpuConfig::preset("gtx480").unwrap();
    let (checks, banks, updates) = (counter(), counter(), counter());
    let mut reg = PolicyRegistry::new();
    let c = checks.clone();
    reg.register_issue_stage("counting", move |cfg| {
        Box::new(CountingScoreboard(
            InOrderScoreboard::new(cfg.sched.war_scoreboard),
            c.clone(),
        ))
    })
    .unwrap();
    let b = banks.clone();
    reg.register_register_file("counting", move |cfg| {
        Box::new(CountingRf(MonolithicRf::new(cfg), b.clone()))
    })
    .unwrap();
    let u = updates.clone();
    reg.register_reconvergence("counting", move |pc, mask| {
        Box::new(CountingStack(SimtStack::new(pc, mask), u.clone()))
    })
    .unwrap();
    for workload in ["bfs", "histo"] {
        let builtin = run(Simulation::new(&cfg), workload);
        let plugged = run(
            Simulation::new(&cfg)
                .registry(&reg)
                .issue_stage("counting")
                .register_file("counting")
                .reconvergence("counting"),
            workload,
        );
        assert_eq!(
            builtin.to_json(),
            plugged.to_json(),
            "{workload}: same policies behind the traits, same record"
        );
    }
    assert!(checks.load(Ordering::Relaxed) > 0, "issue stage reached");
    assert!(banks.load(Ordering::Relaxed) > 0, "register file reached");
    assert!(updates.load(Ordering::Relaxed) > 0, "reconvergence reached");
}

#[test]
fn gating_policy_changes_the_timing_but_not_the_work() {
    let cfg = GpuConfig::preset("gtx480").unwrap();
    let cycles = counter();
    let mut reg = PolicyRegistry::new();
    let c = cycles.clone();
    reg.register_gating("wake_on_demand", move |_cfg| {
        Box::new(WakeOnDemand {
            on_at: Vec::new(),
            idle: Vec::new(),
            cycles: c.clone(),
        })
    })
    .unwrap();
    let base = run(Simulation::new(&cfg), "histo");
    let gated = run(
        Simulation::new(&cfg)
            .registry(&reg)
            .gating("wake_on_demand"),
        "histo",
    );
    let (a, g) = (&base.aggregate, &gated.aggregate);
    assert_eq!(a.warp_insts, g.warp_insts);
    println!("histo: {} cycles ungated, {} gated", a.cycles, g.cycles);
    assert!(g.cycles > a.cycles, "{} vs {}", g.cycles, a.cycles);
    assert!(g.stalls.unit_gated > 0 && a.stalls.unit_gated == 0);
    assert!(
        cycles.load(Ordering::Relaxed) > 0,
        "end-of-cycle hook called"
    );
}

#[test]
fn unknown_policy_names_are_errors_listing_the_registered_ones() {
    let cfg = GpuConfig::preset("gtx480").unwrap();
    let mut reg = PolicyRegistry::new();
    reg.register_gating("mine", |_cfg| Box::new(sim::timing::NoGating))
        .unwrap();
    let w = workloads::find("histo").unwrap();
    let Err(err) = Simulation::new(&cfg)
        .registry(&reg)
        .gating("theirs")
        .run(Program(|gpu: &mut TimingGpu| w.run(Size::Test, gpu, false)))
    else {
        panic!("unknown gating name accepted");
    };
    let err = err.to_string();
    assert!(
        err.contains("'theirs'") && err.contains("mine") && err.contains("none"),
        "{err}"
    );
    for bad in ["", "a b", "x:y"] {
        assert!(reg
            .register_gating(bad, |_cfg| Box::new(sim::timing::NoGating))
            .is_err());
    }
    let Err(err) = Simulation::new(&cfg)
        .scheduler("nonesuch")
        .run(Program(|gpu: &mut TimingGpu| w.run(Size::Test, gpu, false)))
    else {
        panic!("unknown scheduler accepted");
    };
    let err = err.to_string();
    assert!(
        err.contains("nonesuch") && err.contains("two_level"),
        "{err}"
    );
}

#[test]
fn a_registered_issue_stage_is_refused_beside_an_out_of_order_mode() {
    // the registered stage takes the slot SOCGPU or LOOG would take: naming both is an error
    let mut cfg = GpuConfig::preset("gtx480").unwrap();
    let mut reg = PolicyRegistry::new();
    reg.register_issue_stage("mine", |cfg| {
        Box::new(InOrderScoreboard::new(cfg.sched.war_scoreboard))
    })
    .unwrap();
    let w = workloads::find("histo").unwrap();
    for (mode, name) in [
        (sim::config::OooMode::Socgpu, "socgpu"),
        (sim::config::OooMode::Loog, "loog"),
    ] {
        cfg.sched.ooo.mode = mode;
        let Err(err) = Simulation::new(&cfg)
            .registry(&reg)
            .issue_stage("mine")
            .run(Program(|gpu: &mut TimingGpu| w.run(Size::Test, gpu, false)))
        else {
            panic!("issue stage 'mine' accepted with sched.ooo.mode = {name}");
        };
        let err = err.to_string();
        assert!(
            err.contains("'mine'") && err.contains(name) && err.contains("\"none\""),
            "{err}"
        );
    }
    cfg.sched.ooo.mode = sim::config::OooMode::None;
    run(
        Simulation::new(&cfg).registry(&reg).issue_stage("mine"),
        "histo",
    );
}
