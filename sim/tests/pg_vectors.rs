//! Power-gating §8.1–§8.5 deterministic vectors.
//!
//! The toy vectors (issue width 1, latency 4, II 1, an explicit active list) run through a small
//! test driver with the toy's issue model: each cycle it applies the GATES `hp` switch
//! ([`GatesCore::switch`], the code the `Gates` scheduler runs), orders the active list (two-level:
//! list order; GATES: stably sorted by [`GatesCore::rank`]), and asks the SAME controller bank
//! the SM uses ([`PgBank::decide`], [`PgBank::dispatched`], [`PgBank::end_cycle`]) whether each
//! candidate issues, raises a wake request or is blocked. Only the issue model (one slot, one
//! domain per type, no operand collectors) is the toy's own.

use sim::config::pg::{AdaptiveSection, GatesSection, PgPolicy, PgSection};
use sim::timing::gating::{DomType, DomainSpec, GateDecision, GatesCore, PgBank};
use sim::timing::{GatingView, HeadType};

#[derive(Clone, Copy)]
struct Inst {
    ty: DomType,
    /// Cycle it enters the active set (counts in ACTV from then).
    arrive: u64,
    /// Cycle it becomes ready.
    ready: u64,
    lat: u64,
    issued: Option<u64>,
}

fn inst(ty: DomType, arrive: u64, ready: u64, lat: u64) -> Inst {
    Inst {
        ty,
        arrive,
        ready,
        lat,
        issued: None,
    }
}

fn head(t: DomType) -> HeadType {
    match t {
        DomType::Int => HeadType::Int,
        DomType::Fp => HeadType::Fp,
        DomType::Sfu => HeadType::Sfu,
    }
}

struct Toy {
    bank: PgBank,
    gates: Option<GatesCore>,
    list: Vec<Inst>,
    width: usize,
    /// Per domain: one character per simulated cycle (`B`, `.`, `u`, `c`, `w`).
    timeline: Vec<String>,
    /// Per cycle: `hp` after the switch (GATES only).
    hp: Vec<HeadType>,
}

fn cfg(policy: PgPolicy, d: u32) -> PgSection {
    PgSection {
        policy,
        idle_detect: d,
        bet: 14,
        wakeup: 3,
        ..PgSection::default()
    }
}

impl Toy {
    fn new(pg: &PgSection, types: &[DomType], gates: bool, list: Vec<Inst>) -> Toy {
        let specs: Vec<DomainSpec> = types
            .iter()
            .enumerate()
            .map(|(i, &ty)| DomainSpec {
                ty,
                unit: format!("sp{i}"),
                first_lane: 0,
                lanes: 16,
                cluster: types[..i].iter().filter(|&&x| x == ty).count(),
            })
            .collect();
        Toy {
            bank: PgBank::new(pg, 0, &specs),
            gates: gates.then(|| GatesCore::new(&GatesSection::default())),
            list,
            width: 1,
            timeline: vec![String::new(); types.len()],
            hp: Vec::new(),
        }
    }

    fn actv(&self, t: u64) -> [u32; 2] {
        let mut a = [0u32; 2];
        for i in &self.list {
            if i.arrive <= t && i.issued.is_none() {
                match i.ty {
                    DomType::Int => a[0] += 1,
                    DomType::Fp => a[1] += 1,
                    DomType::Sfu => {}
                }
            }
        }
        a
    }

    fn step(&mut self, t: u64) {
        // §1.2 step 2
        let actv = self.actv(t);
        if let Some(g) = self.gates.as_mut() {
            let v = GatingView {
                cycle: t,
                blackout: self.bank.is_blackout(),
                all_in_blackout: [
                    self.bank.all_in_blackout(DomType::Int),
                    self.bank.all_in_blackout(DomType::Fp),
                ],
            };
            g.switch(actv, &v);
            self.hp.push(g.hp);
        }
        // §1.2 step 3, start-of-cycle states
        let mut order: Vec<usize> = (0..self.list.len())
            .filter(|&i| self.list[i].arrive <= t && self.list[i].issued.is_none())
            .collect();
        if let Some(g) = &self.gates {
            order.sort_by_key(|&i| g.rank(head(self.list[i].ty)));
        }
        for &i in &order {
            if self.list[i].ready <= t {
                self.bank.note_ready(self.list[i].ty);
            }
        }
        let mut used = vec![false; self.bank.len()];
        let mut slots = self.width;
        for i in order {
            if slots == 0 {
                break;
            }
            let x = self.list[i];
            if x.ready > t {
                continue;
            }
            let (dec, dom) = self.bank.decide(x.ty, |u| !used[u]);
            if dec == GateDecision::Issue {
                let u = dom.unwrap();
                used[u] = true;
                self.bank.dispatched(u, t, x.lat);
                self.list[i].issued = Some(t);
                slots -= 1;
            } else if dec == GateDecision::WakeRequested && self.bank.config().wake_consumes_slot {
                slots -= 1;
            }
        }
        // §1.2 steps 4–5
        let before: Vec<_> = (0..self.bank.len())
            .map(|u| self.bank.stats(u).clone())
            .collect();
        self.bank.end_cycle(t, self.actv(t));
        for (u, b) in before.iter().enumerate() {
            let a = self.bank.stats(u);
            let c = if a.idle_detect_busy > b.idle_detect_busy {
                'B'
            } else if a.idle_detect_idle > b.idle_detect_idle {
                '.'
            } else if a.uncompensated > b.uncompensated {
                'u'
            } else if a.compensated > b.compensated {
                'c'
            } else {
                'w'
            };
            self.timeline[u].push(c);
        }
    }

    fn run(&mut self, from: u64, to: u64) {
        for t in from..=to {
            self.step(t);
        }
    }

    fn issue_cycles(&self, ty: DomType) -> Vec<u64> {
        self.list
            .iter()
            .filter(|i| i.ty == ty)
            .map(|i| i.issued.unwrap_or(0))
            .collect()
    }
}

/// Idle runs (maximal non-`B` runs) of a timeline.
fn idle_runs(tl: &str) -> Vec<usize> {
    tl.split('B')
        .filter(|s| !s.is_empty())
        .map(|s| s.len())
        .collect()
}

/// The §8.1 active list: `INT1 INT2 FP1 INT3 FP2 INT4 INT5 INT6 INT7 FP3 FP4 INT8`.
fn list_8_1() -> Vec<Inst> {
    use DomType::{Fp as F, Int as I};
    [I, I, F, I, F, I, I, I, I, F, F, I]
        .iter()
        .map(|&t| inst(t, 1, 1, 4))
        .collect()
}

/// Busy pattern: `B` busy, `.` idle.
fn busy_pattern(tl: &str) -> String {
    tl.chars()
        .map(|c| if c == 'B' { 'B' } else { '.' })
        .collect()
}

/// §8.1: two-level vs GATES idle runs (no PG: a static D no idle run reaches).
#[test]
fn vector_8_1_two_level_vs_gates() {
    let nopg = cfg(PgPolicy::Conventional, 1_000_000);
    let types = [DomType::Int, DomType::Fp];
    let mut tl = Toy::new(&nopg, &types, false, list_8_1());
    tl.run(1, 15);
    let mut all: Vec<u64> = tl.list.iter().map(|i| i.issued.unwrap()).collect();
    assert_eq!(
        all,
        (1..=12).collect::<Vec<_>>(),
        "two-level issues in list order"
    );
    assert_eq!(busy_pattern(&tl.timeline[0]), "BBBBBBBBBBBBBBB");
    assert_eq!(idle_runs(&tl.timeline[0]), Vec::<usize>::new());
    assert_eq!(busy_pattern(&tl.timeline[1]), "..BBBBBB.BBBBB.");
    assert_eq!(idle_runs(&tl.timeline[1]), vec![2, 1, 1]);

    let mut g = Toy::new(&nopg, &types, true, list_8_1());
    g.run(1, 15);
    assert_eq!(g.issue_cycles(DomType::Int), (1..=8).collect::<Vec<_>>());
    assert_eq!(g.issue_cycles(DomType::Fp), (9..=12).collect::<Vec<_>>());
    // hp switches to FP at cycle 9 (index 8), when ACTV[INT] reaches 0
    assert!(g.hp[..8].iter().all(|&h| h == HeadType::Int));
    assert_eq!(g.hp[8], HeadType::Fp);
    assert_eq!(busy_pattern(&g.timeline[0]), "BBBBBBBBBBB....");
    assert_eq!(idle_runs(&g.timeline[0]), vec![4]);
    assert_eq!(busy_pattern(&g.timeline[1]), "........BBBBBBB");
    assert_eq!(idle_runs(&g.timeline[1]), vec![8]);
    all = g.list.iter().map(|i| i.issued.unwrap()).collect();
    all.sort();
    assert_eq!(all, (1..=12).collect::<Vec<_>>());
    // the controller's own idle-run histogram agrees (runs cut off by the window count)
    let s = g.bank.finish();
    assert_eq!(s[0].idle_run_count[3], 1);
    assert_eq!(s[1].idle_run_count[7], 1);
}

/// §8.2: the same toy under GATES + Conventional (D=5, BET=14, W=3).
#[test]
fn vector_8_2_gates_conventional() {
    let pg = cfg(PgPolicy::Conventional, 5);
    let mut g = Toy::new(&pg, &[DomType::Int, DomType::Fp], true, list_8_1());
    g.run(1, 15);
    assert_eq!(g.timeline[1], ".....uuuwwwBBBB");
    assert_eq!(g.issue_cycles(DomType::Fp), vec![12, 13, 14, 15]);
    assert_eq!(g.issue_cycles(DomType::Int), (1..=8).collect::<Vec<_>>());
    assert!(
        !g.timeline[0].contains(['u', 'c', 'w']),
        "INT is never gated"
    );
    let s = g.bank.finish();
    assert_eq!(s[1].events, 1);
    assert_eq!(s[1].g_hist.get(&3), Some(&1));
    assert_eq!(s[1].events_g_le_bet, 1);
    assert_eq!(s[1].wakeups, 1);
    assert_eq!(s[0].events, 0);
}

/// One §8.3 case: domain busy through cycle 0, one L=1 instruction wanted at `d`; returns the
/// timeline from cycle 1 through the issue, the issue cycle and the final record.
fn single(pg: &PgSection, d: u64) -> (String, u64, sim::activity::DomainStats) {
    let mut toy = Toy::new(
        pg,
        &[DomType::Int],
        false,
        vec![inst(DomType::Int, d, d, 1)],
    );
    toy.bank.dispatched(0, 0, 1);
    toy.bank.end_cycle(0, [0, 0]);
    let mut t = 1;
    while toy.list[0].issued.is_none() {
        toy.step(t);
        t += 1;
        assert!(t < 200);
    }
    let issue = toy.list[0].issued.unwrap();
    let tl = toy.timeline[0].clone();
    let s = toy.bank.finish().remove(0);
    (tl, issue, s)
}

/// One §8.3 row: name, configuration, d, timeline, issue cycle, G (None: no event), critical.
type Case = (&'static str, PgSection, u64, String, u64, Option<u64>, bool);

/// §8.3: all six single-domain timelines, and the energy line of Conv d=12.
#[test]
fn vector_8_3_single_domain_timelines() {
    let conv = cfg(PgPolicy::Conventional, 5);
    let naive = cfg(PgPolicy::NaiveBlackout, 5);
    let u14 = "u".repeat(14);
    let cases: Vec<Case> = vec![
        ("Conv d=6", conv.clone(), 6, ".....B".into(), 6, None, false),
        (
            "Conv d=7",
            conv.clone(),
            7,
            ".....uwwwB".into(),
            10,
            Some(1),
            false,
        ),
        (
            "Conv d=12",
            conv.clone(),
            12,
            ".....uuuuuuwwwB".into(),
            15,
            Some(6),
            false,
        ),
        (
            "Naive d=12",
            naive.clone(),
            12,
            format!(".....{u14}wwwB"),
            23,
            Some(14),
            true,
        ),
        (
            "Naive d=25",
            naive.clone(),
            25,
            format!(".....{u14}cccccwwwB"),
            28,
            Some(19),
            false,
        ),
        (
            "Conv d=25",
            conv.clone(),
            25,
            format!(".....{u14}cccccwwwB"),
            28,
            Some(19),
            false,
        ),
        (
            "Conv Gt d=7",
            PgSection {
                gate_compare: sim::config::pg::GateCompare::Gt,
                ..conv.clone()
            },
            7,
            "......B".into(),
            7,
            None,
            false,
        ),
    ];
    for (name, pg, d, tl, issue, g, critical) in cases {
        let (got_tl, got_issue, s) = single(&pg, d);
        assert_eq!(got_tl, tl, "{name}: timeline");
        assert_eq!(got_issue, issue, "{name}: issue cycle");
        match g {
            None => assert_eq!(s.events, 0, "{name}: no event"),
            Some(g) => {
                assert_eq!(s.events, 1, "{name}");
                assert_eq!(s.g_hist.get(&g), Some(&1), "{name}: G");
            }
        }
        assert_eq!(s.critical_wakeups, u64::from(critical), "{name}: critical");
        assert_eq!(s.state_cycles(), s.cycles, "{name}: states sum to T");
    }
    // Energy line of Conv d=12 (units P_leak·t_clk): the event nets G − BET = −8; cycles
    // 1–14 leak 8 (5 idle-detect + 3 wakeup), the overhead is 14.
    let (_, _, s) = single(&conv, 12);
    assert_eq!(s.gated_cycles as i64 - 14 * s.events as i64, -8);
    assert_eq!(s.idle_detect_idle + s.wakeup, 8);
    assert_eq!(14 * s.events, 14);
    // Naive d=12: the instruction was blocked in cycles 12–19, so the wake is a blocked one.
    let (_, _, s) = single(&naive, 12);
    assert_eq!(s.blocked_demand_cycles, 8);
    assert_eq!(s.blocked_wakeups, 1);
}

/// §8.4 (a), (b): coordinated blackout with INT clusters A and B.
#[test]
fn vector_8_4_coordinated_blackout() {
    let pg = cfg(PgPolicy::CoordinatedBlackout, 5);
    // A idle from cycle 1; B busy through cycle 8; one INT instruction in the active set,
    // unready, from cycle 9, ready at 20 (latency 4).
    let mut toy = Toy::new(
        &pg,
        &[DomType::Int, DomType::Int],
        false,
        vec![inst(DomType::Int, 9, 20, 4)],
    );
    toy.bank.dispatched(0, 0, 1);
    toy.bank.dispatched(1, 0, 9);
    toy.bank.end_cycle(0, [0, 0]);
    toy.run(1, 30);
    let a = &toy.timeline[0];
    let b = &toy.timeline[1];
    assert_eq!(&a[..5], ".....");
    assert_eq!(&a[5..6], "u", "A gates at cycle 6 by its own idle detect");
    assert!(!a[5..].contains(['.', 'w', 'B']), "A is never woken: {a}");
    assert_eq!(&b[..8], "BBBBBBBB");
    // (b) cycles 9–19: B stays in Idle_detect although idle for more than D
    assert_eq!(&b[8..19], "...........");
    // cycle 20: the instruction issues on B; B busy 20–23
    assert_eq!(toy.list[0].issued, Some(20));
    assert_eq!(&b[19..23], "BBBB");
    // cycle 24: ACTV = 0 and A still gated: B gates at once
    assert_eq!(&b[23..24], "u");

    // (a) ACTV[INT] = 0 from cycle 9: B gates at cycle 9
    let mut toy = Toy::new(&pg, &[DomType::Int, DomType::Int], false, vec![]);
    toy.bank.dispatched(0, 0, 1);
    toy.bank.dispatched(1, 0, 9);
    toy.bank.end_cycle(0, [0, 0]);
    toy.run(1, 12);
    assert_eq!(&toy.timeline[0][5..6], "u");
    assert_eq!(&toy.timeline[1][..9], "BBBBBBBBu");
}

/// §8.4 (c): hp = INT, both INT clusters gated with bk > 0, ACTV[FP] > 0: hp becomes FP in
/// the same cycle.
#[test]
fn vector_8_4c_gates_swap_rule_2() {
    let pg = cfg(PgPolicy::CoordinatedBlackout, 5);
    // an INT instruction waits unready (ACTV[INT] = 1, so rule 1 does not apply)
    let mut toy = Toy::new(
        &pg,
        &[DomType::Int, DomType::Int, DomType::Fp],
        true,
        vec![inst(DomType::Int, 1, 1000, 4)],
    );
    toy.bank.end_cycle(0, [1, 0]);
    toy.run(1, 8);
    assert!(toy.bank.all_in_blackout(DomType::Int));
    assert_eq!(toy.gates.as_ref().unwrap().hp, HeadType::Int);
    // an FP instruction enters the active set
    toy.list.push(inst(DomType::Fp, 9, 1000, 4));
    toy.step(9);
    assert_eq!(toy.hp.last(), Some(&HeadType::Fp));
    // with swap_needs_other and ACTV[FP] = 0, no swap
    let mut core = GatesCore::new(&GatesSection::default());
    let v = GatingView {
        cycle: 5,
        blackout: true,
        all_in_blackout: [true, false],
    };
    core.switch([1, 0], &v);
    assert_eq!(core.hp, HeadType::Int);
    core.switch([1, 1], &v);
    assert_eq!(core.hp, HeadType::Fp);
}

/// §8.5: adaptive D (THR 5, bounds 5–10, ConsecutiveQuiet).
#[test]
fn vector_8_5_adaptive_d() {
    let a = AdaptiveSection {
        enabled: true,
        ..AdaptiveSection::default()
    };
    let run = |cws: &[u64]| -> Vec<u32> {
        let (mut d, mut quiet, mut v) = (5u32, 0u32, false);
        cws.iter()
            .enumerate()
            .map(|(k, &c)| {
                let mut cw = c;
                PgBank::epoch_update(&a, k as u64, &mut d, &mut cw, &mut quiet, &mut v);
                assert_eq!(cw, 0);
                d
            })
            .collect()
    };
    assert_eq!(
        run(&[6, 6, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0]),
        vec![6, 7, 7, 7, 7, 6, 7, 7, 7, 7, 6, 6, 6, 6, 5]
    );
    // cw = 5 is quiet
    assert_eq!(run(&[5, 5, 5, 5]), vec![5, 5, 5, 5]);
    assert_eq!(
        run(&[9; 12]),
        vec![6, 7, 8, 9, 10, 10, 10, 10, 10, 10, 10, 10]
    );
}

/// Adaptive D inside the bank: critical wakeups under Naive blackout raise D[INT] at the end of
/// the epoch, and the per-epoch traces are recorded.
#[test]
fn adaptive_d_in_the_bank() {
    let mut pg = cfg(PgPolicy::NaiveBlackout, 5);
    pg.adaptive.enabled = true;
    pg.adaptive.epoch = 100;
    pg.adaptive.critical_threshold = 0;
    let mut toy = Toy::new(
        &pg,
        &[DomType::Int],
        false,
        vec![inst(DomType::Int, 10, 10, 1)],
    );
    // idle from cycle 0: gated 5–18 (blackout), the request at 10 is blocked until 19, wake
    // 19–21, issue 22; the wake at g == BET is critical
    toy.run(0, 250);
    assert_eq!(toy.list[0].issued, Some(22));
    let s = toy.bank.finish().remove(0);
    assert_eq!(s.critical_wakeups, 1);
    assert_eq!(s.epoch_critical, vec![1, 0]);
    assert_eq!(s.epoch_d, vec![6, 6]);
    assert_eq!(s.state_cycles(), s.cycles);
}

/// Every §1.3 invariant on a random-ish demand pattern for every policy and switch setting:
/// states sum to T, events − wakeups ∈ {0, 1}, the instructions all issue.
#[test]
fn controller_invariants_over_switches() {
    use sim::config::pg::*;
    let mut seed = 12345u64;
    let mut rnd = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed >> 33
    };
    let mut list = Vec::new();
    let mut t = 1;
    for _ in 0..300 {
        t += rnd() % 30;
        let ty = if rnd() % 2 == 0 {
            DomType::Int
        } else {
            DomType::Fp
        };
        list.push(inst(ty, t, t + rnd() % 5, 1 + rnd() % 6));
    }
    for policy in [
        PgPolicy::Conventional,
        PgPolicy::NaiveBlackout,
        PgPolicy::CoordinatedBlackout,
    ] {
        for (gc, wrc, ic, wcs) in [
            (GateCompare::Ge, WakeRequestCycle::CountsAsWakeup, 0, false),
            (GateCompare::Gt, WakeRequestCycle::CountsAsGated, 3, true),
        ] {
            for gates in [false, true] {
                let mut pg = cfg(policy, 3);
                pg.gate_compare = gc;
                pg.wake_request_cycle = wrc;
                pg.initial_idle_cnt = ic;
                pg.wake_consumes_slot = wcs;
                pg.adaptive.enabled = true;
                pg.adaptive.epoch = 500;
                let types = [DomType::Int, DomType::Int, DomType::Fp, DomType::Fp];
                let mut toy = Toy::new(&pg, &types, gates, list.clone());
                toy.width = 2;
                toy.run(0, t + 400);
                assert!(toy.list.iter().all(|i| i.issued.is_some()), "{policy:?}");
                for s in toy.bank.finish() {
                    assert_eq!(s.state_cycles(), s.cycles);
                    assert_eq!(s.busy + s.idle, s.cycles);
                    assert!(s.events - s.wakeups <= 1, "{policy:?}");
                    assert!(s.events >= s.wakeups);
                    if policy != PgPolicy::Conventional {
                        // under blackout G ≥ BET, except an event left open at the end
                        let short: u64 = s.g_hist.range(..14).map(|(_, n)| n).sum();
                        assert!(short <= 1, "{policy:?}: {:?}", s.g_hist);
                    } else {
                        assert_eq!(s.critical_wakeups, 0);
                    }
                    let runs: u64 = s.idle_run_cycles.iter().sum();
                    assert_eq!(runs, s.idle, "idle runs cover the idle cycles");
                    assert_eq!(s.region_cycles.iter().sum::<u64>(), s.idle);
                }
            }
        }
    }
}

/// §3 property: under GATES an INT and an FP instruction issue in the same cycle only if
/// exactly one `hp`-type candidate was selectable, no LD/ST or SFU candidate was, and an
/// `other`-type candidate was. Toy: two INT and two FP domains (never gated), issue width 2,
/// LD/ST candidates that need no gated domain, random arrivals and readiness; the GATES order
/// is the one the scheduler uses.
#[test]
fn gates_dual_type_issue_property() {
    #[derive(Clone, Copy, PartialEq)]
    enum K {
        T(DomType),
        Ldst,
    }
    let mut seed = 777u64;
    let mut rnd = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed >> 33
    };
    let pg = cfg(PgPolicy::Conventional, 1_000_000);
    let types = [DomType::Int, DomType::Int, DomType::Fp, DomType::Fp];
    let specs: Vec<DomainSpec> = types
        .iter()
        .enumerate()
        .map(|(i, &ty)| DomainSpec {
            ty,
            unit: format!("sp{i}"),
            first_lane: 0,
            lanes: 16,
            cluster: i % 2,
        })
        .collect();
    let mut total_dual = 0;
    for trial in 0..20 {
        let mut bank = PgBank::new(&pg, 0, &specs);
        let mut core = GatesCore::new(&GatesSection::default());
        // (kind, arrive, ready, issued)
        let mut list: Vec<(K, u64, u64, Option<u64>)> = Vec::new();
        let mut t = 0;
        for _ in 0..200 {
            t += rnd() % 3;
            let k = match rnd() % 5 {
                0 | 1 => K::T(DomType::Int),
                2 | 3 => K::T(DomType::Fp),
                _ => K::Ldst,
            };
            list.push((k, t, t + rnd() % 8, None));
        }
        let mut dual = 0;
        for t in 0..t + 100 {
            let mut actv = [0u32; 2];
            for x in &list {
                if x.1 <= t && x.3.is_none() {
                    match x.0 {
                        K::T(DomType::Int) => actv[0] += 1,
                        K::T(DomType::Fp) => actv[1] += 1,
                        _ => {}
                    }
                }
            }
            let v = GatingView {
                cycle: t,
                blackout: false,
                all_in_blackout: [false; 2],
            };
            core.switch(actv, &v);
            let hp = core.hp;
            let kind_head = |k: K| match k {
                K::T(d) => head(d),
                K::Ldst => HeadType::Ldst,
            };
            let mut order: Vec<usize> = (0..list.len())
                .filter(|&i| list[i].1 <= t && list[i].3.is_none())
                .collect();
            order.sort_by_key(|&i| core.rank(kind_head(list[i].0)));
            // selectable at the start of the cycle (no domain is ever gated here)
            let sel: Vec<HeadType> = order
                .iter()
                .filter(|&&i| list[i].2 <= t)
                .map(|&i| kind_head(list[i].0))
                .collect();
            let n_hp = sel.iter().filter(|&&h| h == hp).count();
            let n_mem = sel
                .iter()
                .filter(|&&h| h == HeadType::Ldst || h == HeadType::Sfu)
                .count();
            let n_other = sel
                .iter()
                .filter(|&&h| (h == HeadType::Int || h == HeadType::Fp) && h != hp)
                .count();
            let mut used = [false; 4];
            let mut issued = Vec::new();
            for i in order {
                if issued.len() == 2 {
                    break;
                }
                if list[i].2 > t {
                    continue;
                }
                match list[i].0 {
                    K::Ldst => {
                        list[i].3 = Some(t);
                        issued.push(HeadType::Ldst);
                    }
                    K::T(d) => {
                        let (dec, dom) = bank.decide(d, |u| !used[u]);
                        if dec == GateDecision::Issue {
                            let u = dom.unwrap();
                            used[u] = true;
                            bank.dispatched(u, t, 4);
                            list[i].3 = Some(t);
                            issued.push(head(d));
                        }
                    }
                }
            }
            bank.end_cycle(t, actv);
            if issued.contains(&HeadType::Int) && issued.contains(&HeadType::Fp) {
                dual += 1;
                assert_eq!(n_hp, 1, "trial {trial} cycle {t}");
                assert_eq!(n_mem, 0, "trial {trial} cycle {t}");
                assert!(n_other >= 1, "trial {trial} cycle {t}");
            }
        }
        assert!(list.iter().all(|x| x.3.is_some()));
        total_dual += dual;
    }
    assert!(total_dual > 0, "the property was exercised");
}

/// Toy with the domains of `types`, each busy in cycle 0 except those in `idle0`, then run
/// through cycle `to`.
fn toy_from(
    pg: &PgSection,
    types: &[DomType],
    gates: bool,
    list: Vec<Inst>,
    busy0: &[(usize, u64)],
) -> Toy {
    let mut toy = Toy::new(pg, types, gates, list);
    for &(u, lat) in busy0 {
        toy.bank.dispatched(u, 0, lat);
    }
    toy.bank.end_cycle(0, [0, 0]);
    toy
}

#[test]
fn switch_cluster_select_round_robin() {
    use sim::config::pg::ClusterSelect;
    let list: Vec<Inst> = (1..=4).map(|t| inst(DomType::Int, t, t, 1)).collect();
    let mut pg = cfg(PgPolicy::Conventional, 100);
    let mut lo = toy_from(&pg, &[DomType::Int, DomType::Int], false, list.clone(), &[]);
    lo.run(1, 6);
    assert_eq!(lo.bank.stats(0).busy, 4);
    assert_eq!(lo.bank.stats(1).busy, 0);
    pg.cluster_select = ClusterSelect::RoundRobin;
    let mut rr = toy_from(&pg, &[DomType::Int, DomType::Int], false, list, &[]);
    rr.run(1, 6);
    assert_eq!(rr.bank.stats(0).busy, 2);
    assert_eq!(rr.bank.stats(1).busy, 2);
}

#[test]
fn switch_wake_rule() {
    use sim::config::pg::WakeRule;
    // A (0) busy 0..99, B (1) gates at 6; two INT instructions at 10, width 2
    let list = vec![inst(DomType::Int, 10, 10, 1), inst(DomType::Int, 10, 10, 1)];
    let mut pg = cfg(PgPolicy::Conventional, 5);
    let mut acc = toy_from(
        &pg,
        &[DomType::Int, DomType::Int],
        false,
        list.clone(),
        &[(0, 100), (1, 1)],
    );
    acc.width = 2;
    acc.run(1, 20);
    assert_eq!(acc.bank.stats(1).wakeups, 1, "NoOnDomainAccepts wakes B");
    assert_eq!(
        acc.list[1].issued,
        Some(11),
        "the second issues on A next cycle"
    );
    pg.wake_rule = WakeRule::NoOnDomainExists;
    let mut ex = toy_from(
        &pg,
        &[DomType::Int, DomType::Int],
        false,
        list,
        &[(0, 100), (1, 1)],
    );
    ex.width = 2;
    ex.run(1, 20);
    assert_eq!(
        ex.bank.stats(1).wakeups,
        0,
        "NoOnDomainExists leaves B gated"
    );
    assert_eq!(ex.list[1].issued, Some(11));
}

#[test]
fn switch_charge_open_event_and_idle_run_includes_wakeup() {
    let mut pg = cfg(PgPolicy::Conventional, 5);
    let mut t = toy_from(&pg, &[DomType::Int], false, vec![], &[(0, 1)]);
    t.run(1, 30);
    assert_eq!(t.bank.finish()[0].events, 1);
    pg.charge_open_event = false;
    let mut t = toy_from(&pg, &[DomType::Int], false, vec![], &[(0, 1)]);
    t.run(1, 30);
    assert_eq!(t.bank.finish()[0].events, 0);
    // Conv d=12: the idle run 1–14 includes the wakeup cycles 12–14 by default
    let pg = cfg(PgPolicy::Conventional, 5);
    let (_, _, s) = single(&pg, 12);
    assert_eq!(s.idle_run_count[13], 1);
    let pg2 = PgSection {
        idle_run_includes_wakeup: false,
        ..pg
    };
    let (_, _, s) = single(&pg2, 12);
    assert_eq!(
        s.idle_run_count[10], 1,
        "run 1–11 without the wakeup cycles"
    );
    assert_eq!(s.idle_run_cycles.iter().sum::<u64>() + s.wakeup, s.idle);
}

#[test]
fn switch_wake_request_cycle_and_initial_idle_cnt() {
    use sim::config::pg::WakeRequestCycle;
    let pg = PgSection {
        wake_request_cycle: WakeRequestCycle::CountsAsGated,
        ..cfg(PgPolicy::Conventional, 5)
    };
    let (tl, issue, s) = single(&pg, 7);
    assert_eq!(tl, ".....uuwwwB");
    assert_eq!(issue, 11);
    assert_eq!(s.g_hist.get(&2), Some(&1));
    let pg = PgSection {
        initial_idle_cnt: 3,
        ..cfg(PgPolicy::Conventional, 5)
    };
    let mut t = Toy::new(&pg, &[DomType::Int], false, vec![]);
    t.run(0, 4);
    assert_eq!(
        t.timeline[0], "..uuu",
        "idle from cycle 0 with idle_cnt 3: gated at 2"
    );
}

#[test]
fn switch_idle_clear_on_busy_or_ready() {
    use sim::config::pg::IdleClear;
    // §8.2 with the literal reading: the deprioritised ready FP instructions keep the FP
    // domain's counter clear, so it never gates and FP1–4 issue at 9–12 without a wake
    let pg = PgSection {
        idle_clear: IdleClear::OnBusyOrReady,
        ..cfg(PgPolicy::Conventional, 5)
    };
    let mut g = Toy::new(&pg, &[DomType::Int, DomType::Fp], true, list_8_1());
    g.run(1, 15);
    assert_eq!(g.timeline[1], "........BBBBBBB");
    assert_eq!(g.issue_cycles(DomType::Fp), vec![9, 10, 11, 12]);
}

#[test]
fn switch_suppressed_counter() {
    use sim::config::pg::SuppressedCounter;
    // A idle from 1, gates at 6; B busy through 3, idle from 4; ACTV[INT] = 1 from 1
    for (mode, at19) in [
        (SuppressedCounter::Keep, 16),
        (SuppressedCounter::Hold, 3),
        (SuppressedCounter::Reset, 0),
    ] {
        let mut pg = cfg(PgPolicy::CoordinatedBlackout, 5);
        pg.coordinated.suppressed_counter = mode;
        let mut t = toy_from(
            &pg,
            &[DomType::Int, DomType::Int],
            false,
            vec![inst(DomType::Int, 1, 1000, 4)],
            &[(0, 1), (1, 4)],
        );
        t.run(1, 19);
        assert_eq!(&t.timeline[0][5..6], "u");
        assert!(!t.timeline[1].contains('u'), "{mode:?}: B suppressed");
        assert_eq!(t.bank.idle_cnt(1), at19, "{mode:?}");
    }
}

#[test]
fn switch_trigger_in_blackout_only() {
    use sim::config::pg::CoordTrigger;
    // §8.4 setup, the waiting instruction ready only at 30
    let list = vec![inst(DomType::Int, 9, 30, 4)];
    let mut pg = cfg(PgPolicy::CoordinatedBlackout, 5);
    let mut any = toy_from(
        &pg,
        &[DomType::Int, DomType::Int],
        false,
        list.clone(),
        &[(0, 1), (1, 9)],
    );
    any.run(1, 40);
    assert_eq!(any.list[0].issued, Some(30), "AnyGated: B stays ON");
    pg.coordinated.trigger = CoordTrigger::InBlackoutOnly;
    let mut ibo = toy_from(
        &pg,
        &[DomType::Int, DomType::Int],
        false,
        list,
        &[(0, 1), (1, 9)],
    );
    ibo.run(1, 40);
    // A's blackout ends at 20 (g = 14 at its start): B falls back to idle detect and gates
    assert_eq!(&ibo.timeline[1][19..20], "u");
    // at 30 B is in blackout and A (Compensated) is woken: issue at 33
    assert_eq!(ibo.list[0].issued, Some(33));
}

#[test]
fn switch_generalization_keep_one_on() {
    use sim::config::pg::CoordGeneralization;
    // three INT clusters: A idle from 1 gates at 6; B, C busy through 6 then idle;
    // ACTV[INT] = 1 throughout
    let list = vec![inst(DomType::Int, 1, 1000, 4)];
    let types = [DomType::Int, DomType::Int, DomType::Int];
    let mut pg = cfg(PgPolicy::CoordinatedBlackout, 5);
    let mut all = toy_from(&pg, &types, false, list.clone(), &[(0, 1), (1, 7), (2, 7)]);
    all.run(1, 30);
    assert!(!all.timeline[1].contains('u') && !all.timeline[2].contains('u'));
    pg.coordinated.generalization = CoordGeneralization::KeepOneOn;
    let mut k1 = toy_from(&pg, &types, false, list, &[(0, 1), (1, 7), (2, 7)]);
    k1.run(1, 30);
    // B and C use idle detect while two are ON: both gate at 12 (idle 7–11)
    assert_eq!(&k1.timeline[1][11..12], "u");
    assert_eq!(&k1.timeline[2][11..12], "u");
}

#[test]
fn switch_decrement_modes() {
    use sim::config::pg::DecrementMode;
    let run = |mode: DecrementMode, cws: &[u64]| -> Vec<u32> {
        let a = AdaptiveSection {
            enabled: true,
            decrement_mode: mode,
            ..AdaptiveSection::default()
        };
        let (mut d, mut quiet, mut v) = (5u32, 0u32, false);
        cws.iter()
            .enumerate()
            .map(|(k, &c)| {
                let mut cw = c;
                PgBank::epoch_update(&a, k as u64, &mut d, &mut cw, &mut quiet, &mut v);
                d
            })
            .collect()
    };
    let cws = [6, 0, 0, 6, 0, 0, 0, 0];
    assert_eq!(
        run(DecrementMode::ConsecutiveQuiet, &cws),
        vec![6, 6, 6, 7, 7, 7, 7, 6]
    );
    assert_eq!(
        run(DecrementMode::CumulativeQuiet, &cws),
        vec![6, 6, 6, 7, 7, 6, 6, 6]
    );
    assert_eq!(
        run(DecrementMode::AlignedWindow, &[6, 0, 0, 0, 0, 0, 0, 0]),
        vec![6, 6, 6, 6, 6, 6, 6, 5]
    );
    // unbounded: only D ≥ 0
    let a = AdaptiveSection {
        enabled: true,
        bounded: false,
        ..AdaptiveSection::default()
    };
    let (mut d, mut q, mut v) = (0u32, 0u32, false);
    for k in 0..8 {
        let mut cw = 0;
        PgBank::epoch_update(&a, k, &mut d, &mut cw, &mut q, &mut v);
    }
    assert_eq!(d, 0);
}

#[test]
fn switch_adaptive_scope() {
    use sim::config::pg::AdaptiveScope;
    for (scope, d_b) in [(AdaptiveScope::PerType, 6), (AdaptiveScope::PerDomain, 5)] {
        let mut pg = cfg(PgPolicy::NaiveBlackout, 5);
        pg.adaptive.enabled = true;
        pg.adaptive.epoch = 100;
        pg.adaptive.critical_threshold = 0;
        pg.adaptive.scope = scope;
        // both gate at 5 (idle from 0); the instruction at 10 wakes A at 19 (critical)
        let mut t = Toy::new(
            &pg,
            &[DomType::Int, DomType::Int],
            false,
            vec![inst(DomType::Int, 10, 10, 1)],
        );
        t.run(0, 150);
        assert_eq!(t.bank.stats(0).critical_wakeups, 1);
        assert_eq!(t.bank.d(0), 6, "{scope:?}");
        assert_eq!(t.bank.d(1), d_b, "{scope:?}");
    }
}

/// `n` one-lane INT domains of cluster 0 of `sp0` (lane-group granularity, size 1).
fn one_lane_domains(n: u32) -> Vec<DomainSpec> {
    (0..n)
        .map(|l| DomainSpec {
            ty: DomType::Int,
            unit: "sp0".into(),
            first_lane: l,
            lanes: 1,
            cluster: 0,
        })
        .collect()
}

/// Lane-group domains (`pg.granularity = "LaneGroup"`, size 1): an instruction needs every
/// lane its mask touches; idle lanes gate on their own; an instruction needing a gated lane
/// requests a wake of exactly the needed gated lanes and issues when all of them are ON.
#[test]
fn lane_group_domains() {
    let pg = cfg(PgPolicy::Conventional, 5);
    // one 4-lane INT pipe as four 1-lane domains of cluster 0
    let specs = one_lane_domains(4);
    let mut bank = PgBank::new(&pg, 0, &specs);
    // cycles 0..9: instructions on lanes 0 and 1 only (mask 0b0011), latency 1
    for t in 0..10 {
        let (dec, c) = bank.decide_lanes(DomType::Int, 0b0011, |_| true);
        assert_eq!(dec, GateDecision::Issue);
        bank.dispatched_lanes(DomType::Int, c.unwrap(), 0b0011, t, 1);
        bank.end_cycle(t, [1, 0]);
    }
    assert!(bank.is_on(0) && bank.is_on(1));
    assert!(
        bank.is_gated(2) && bank.is_gated(3),
        "idle lanes gated at cycle 5"
    );
    // cycle 10: a full-mask instruction: lanes 2 and 3 are woken, not issued
    let (dec, _) = bank.decide_lanes(DomType::Int, 0b1111, |_| true);
    assert_eq!(dec, GateDecision::WakeRequested);
    bank.end_cycle(10, [1, 0]);
    assert_eq!(bank.state(2), sim::timing::gating::PgState::Wakeup);
    assert_eq!(bank.state(3), sim::timing::gating::PgState::Wakeup);
    assert!(bank.is_on(0), "lanes 0 and 1 stay ON");
    for t in 11..13 {
        // the lanes 0–1 instruction still issues while 2–3 wake
        let (dec, _) = bank.decide_lanes(DomType::Int, 0b0001, |_| true);
        assert_eq!(dec, GateDecision::Issue);
        let (dec, _) = bank.decide_lanes(DomType::Int, 0b1111, |_| true);
        assert_eq!(dec, GateDecision::Blocked, "waiting for the wakeup");
        bank.end_cycle(t, [1, 0]);
    }
    let (dec, c) = bank.decide_lanes(DomType::Int, 0b1111, |_| true);
    assert_eq!(
        (dec, c),
        (GateDecision::Issue, Some(0)),
        "issue at 13 = 10 + W"
    );
    let s = bank.finish();
    assert_eq!(s[2].events, 1);
    assert_eq!(s[2].g_hist.get(&5), Some(&1), "gated 5–9");
    assert_eq!(s[0].events, 0);
}

/// Lane wakes out of phase (the srad bench deadlock under folding, power-gating §6): three
/// 1-lane domains fall idle at cycles 1, 4 and 7 (D = 5, W = 3) and from cycle 7 an
/// instruction needing all three asks every cycle. Each lane is then ON for D + 1 = 6 cycles
/// out of every 9 and the three take turns, so without holding no cycle has all three ON and
/// the instruction never issues; with `set_hold_waited_lanes` (on for lane groups) the ON
/// lanes it needs do not gate while the others wake, and it issues once they are up.
#[test]
fn out_of_phase_lane_wakes_converge_when_the_waited_lanes_are_held() {
    let pg = cfg(PgPolicy::Conventional, 5);
    let specs = one_lane_domains(3);
    let run = |hold: bool| -> Option<u64> {
        let mut bank = PgBank::new(&pg, 0, &specs);
        bank.set_hold_waited_lanes(hold);
        for t in 0..500u64 {
            if t < 7 {
                // every lane busy at 0, lane 1 again at 3, lane 2 at 6: idle from 1, 4, 7
                if t % 3 == 0 {
                    let m = if t == 0 { 0b111 } else { 1u32 << (t / 3) };
                    assert_eq!(
                        bank.decide_lanes(DomType::Int, m, |_| true).0,
                        GateDecision::Issue
                    );
                    bank.dispatched_lanes(DomType::Int, 0, m, t, 1);
                }
            } else if bank.decide_lanes(DomType::Int, 0b111, |_| true).0 == GateDecision::Issue {
                return Some(t);
            }
            bank.end_cycle(t, [1, 0]);
        }
        None
    };
    assert_eq!(run(false), None, "the out-of-phase lanes never are all ON");
    // lane 0 gated at 6 is woken at 7 (ON from 10) while lanes 1, 2 are held ON
    assert_eq!(run(true), Some(10));
}

/// The idle-detect override (eager gating, §6): D = 1 gates after one observed idle cycle,
/// D = 0 in the first idle cycle; clearing it restores the static D.
#[test]
fn idle_detect_override() {
    let pg = cfg(PgPolicy::Conventional, 5);
    for (d, tl) in [(Some(1), ".uuu"), (Some(0), "uuuu"), (None, "....")] {
        let mut t = toy_from(&pg, &[DomType::Int], false, vec![], &[(0, 1)]);
        t.bank.set_idle_detect_override(0, d);
        t.run(1, 4);
        assert_eq!(t.timeline[0], tl, "{d:?}");
        assert_eq!(t.bank.d(0), d.map(u64::from).unwrap_or(5));
    }
}

/// Per-type policies (`fold.lane_pg_policy` for the lane domains, `pg.policy` for the SFUs):
/// the same demand on two INT lane domains and one SFU domain, with the lanes under
/// Conventional and under Naive Blackout. A wake raised in the lanes' Uncompensated state is
/// honoured under Conventional and blocked under Naive Blackout, which changes the lanes'
/// records only; the SFU domain, Conventional in both, keeps its record bit for bit.
#[test]
fn a_lane_policy_changes_only_the_lane_domains() {
    let pg = cfg(PgPolicy::Conventional, 2);
    let mut specs = one_lane_domains(2);
    specs.push(DomainSpec {
        ty: DomType::Sfu,
        unit: "sfu0".into(),
        first_lane: 0,
        lanes: 4,
        cluster: 0,
    });
    let run = |lanes: PgPolicy| {
        let mut bank = PgBank::new(&pg, 0, &specs);
        bank.set_type_policy(DomType::Int, lanes);
        assert_eq!(bank.type_policy(DomType::Sfu), PgPolicy::Conventional);
        let mut decisions = Vec::new();
        for t in 0..40u64 {
            // demand for both lanes and the SFU at cycles 8 and 30: every domain has been
            // gated for a few cycles (fewer than BET = 14 at cycle 8)
            if t == 8 || t == 30 {
                let (d, c) = bank.decide_lanes(DomType::Int, 0b11, |_| true);
                if d == GateDecision::Issue {
                    bank.dispatched_lanes(DomType::Int, c.unwrap(), 0b11, t, 4);
                }
                let (s, u) = bank.decide(DomType::Sfu, |_| true);
                if s == GateDecision::Issue {
                    bank.dispatched(u.unwrap(), t, 4);
                }
                decisions.push((d, s));
            }
            bank.end_cycle(t, [0, 0]);
        }
        (decisions, bank.finish())
    };
    let (dc, conv) = run(PgPolicy::Conventional);
    let (dn, naive) = run(PgPolicy::NaiveBlackout);
    // the SFU domain's requests and record are the same
    assert_eq!(
        dc.iter().map(|x| x.1).collect::<Vec<_>>(),
        dn.iter().map(|x| x.1).collect::<Vec<_>>()
    );
    assert_eq!(conv[2], naive[2]);
    assert_eq!(conv[2].wakeups, 2);
    // the lanes: Conventional wakes at cycle 8, Naive Blackout blocks (g = 6 < BET)
    assert_eq!(dc[0].0, GateDecision::WakeRequested);
    assert_eq!(dn[0].0, GateDecision::Blocked);
    for l in 0..2 {
        assert_ne!(conv[l], naive[l], "lane {l}");
        assert_eq!(conv[l].wakeups, 2, "woken at cycles 8 and 30");
        assert_eq!(naive[l].wakeups, 1, "woken at cycle 30 only, after BET");
        assert_eq!(naive[l].blocked_demand_cycles, 1);
        assert_eq!(conv[l].blocked_demand_cycles, 0);
    }
}
