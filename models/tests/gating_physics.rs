//! Physical properties of the sleep-transistor model at the built-in nodes (power-gating §1.7):
//! the direction of every trade-off, finite non-negative figures everywhere, whole fins at
//! FinFET nodes, and the derived BET/W of an SP cluster at every node (printed by
//! `cargo test --release -p models --test gating_physics -- --nocapture`).

use models::gating::breakeven::{breakeven, sweep_scale, Breakeven, BreakevenQuery, SCALE_SWEEP};
use models::gating::domain::{DomainKind, LaneUnit};
use techlib::NodeKind;

const NODES: [&str; 10] = [
    "planar90", "planar65", "planar45", "40nm", "planar32", "28nm", "planar22", "planar16",
    "finfet7", "asap7",
];

/// The node's operating points among nominal, STV and NTV.
fn ops(node: &str) -> Vec<Option<&'static str>> {
    let n = techlib::node(node).unwrap();
    let mut v = vec![None];
    for op in ["stv", "ntv"] {
        if n.operating_points().iter().any(|o| o.name == op) {
            v.push(Some(op));
        }
    }
    v
}

fn domains() -> Vec<(DomainKind, LaneUnit)> {
    vec![
        (DomainKind::SpCluster, LaneUnit::Int),
        (DomainKind::SpCluster, LaneUnit::Fp),
        (DomainKind::LaneGroup(1), LaneUnit::Int),
        (DomainKind::LaneGroup(2), LaneUnit::Fp),
        (DomainKind::LaneGroup(4), LaneUnit::Int),
        (DomainKind::Sfu, LaneUnit::Int),
    ]
}

fn query(node: &str, op: Option<&str>, kind: DomainKind, unit: LaneUnit) -> BreakevenQuery {
    let mut q =
        BreakevenQuery::new(techlib::ResolvedPoint::resolve(node, None, None, op, None).unwrap());
    q.domain.kind = kind;
    q.domain.unit = unit;
    q
}

fn check_finite(b: &Breakeven, what: &str) {
    let s = &b.sleep;
    let d = &b.domain;
    for (name, x) in [
        ("bet_exact_cycles", s.bet_exact_cycles),
        ("residual_leak_frac", s.residual_leak_frac),
        ("event_energy_j", s.event_energy_j),
        ("switch_width_m", s.switch_width_m),
        ("ir_drop_v", s.ir_drop_v),
        ("delay_penalty_frac", s.delay_penalty_frac),
        ("area_m2", s.area_m2),
        ("rail_capacitance_f", s.rail_capacitance_f),
        ("t_wake_s", s.t_wake_s),
        ("p_leak_w", d.p_leak_w),
        ("i_act_a", d.i_act_a),
        ("c_blk_f", d.c_blk_f),
        (
            "controller.energy_per_toggle_j",
            b.controller.energy_per_toggle_j,
        ),
        ("controller.leakage_w", b.controller.leakage_w),
        ("clock_hz", b.clock_hz),
    ] {
        assert!(x.is_finite() && x >= 0.0, "{what}: {name} = {x}");
    }
    assert!(s.bet_cycles >= 1 && s.wakeup_cycles >= 1, "{what}: {s:?}");
    assert!(s.residual_leak_frac < 1.0, "{what}");
}

#[test]
fn finite_everywhere_and_whole_fins() {
    for node in NODES {
        let finfet = techlib::node(node).unwrap().kind() == NodeKind::Finfet;
        for op in ops(node) {
            for (kind, unit) in domains() {
                let what = format!("{node} {op:?} {} {}", kind.name(), unit.name());
                let b = breakeven(&query(node, op, kind, unit), None)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                check_finite(&b, &what);
                if finfet {
                    let n = b.sleep.n_fins.expect("FinFET switch counts fins");
                    let w_fin = b.inputs.device.fin_width_m.unwrap();
                    assert!(n >= 1, "{what}");
                    assert!(
                        (b.sleep.switch_width_m - n as f64 * w_fin).abs() < 1e-12 * n as f64,
                        "{what}: {} m is not {n} fins",
                        b.sleep.switch_width_m
                    );
                    assert!(b.sleep.switch_width_m + 1e-15 >= b.sleep.switch_width_min_m);
                } else {
                    assert!(b.sleep.n_fins.is_none(), "{what}");
                }
            }
        }
    }
}

#[test]
fn bet_falls_as_leakage_rises_with_temperature() {
    for node in ["40nm", "planar22", "finfet7", "asap7"] {
        let cool = BreakevenQuery::new(
            techlib::ResolvedPoint::resolve(node, None, None, None, Some(300.0)).unwrap(),
        );
        let mut hot = cool.clone();
        hot.point = hot.point.with_temperature_k(390.0).unwrap();
        let (c, h) = (
            breakeven(&cool, None).unwrap(),
            breakeven(&hot, None).unwrap(),
        );
        assert!(h.domain.p_leak_w > c.domain.p_leak_w, "{node}");
        assert!(
            h.sleep.bet_exact_cycles < c.sleep.bet_exact_cycles,
            "{node}: BET {} at 390 K vs {} at 300 K",
            h.sleep.bet_exact_cycles,
            c.sleep.bet_exact_cycles
        );
    }
}

#[test]
fn bet_falls_with_a_lower_vt_logic_flavour() {
    for (node, high, low) in [("finfet7", "rvt", "lvt"), ("asap7", "lvt", "slvt")] {
        let mut a = BreakevenQuery::new(
            techlib::ResolvedPoint::resolve(node, Some(high), None, None, None).unwrap(),
        );
        a.switch_flavour = Some("rvt".into());
        let mut b = a.clone();
        b.point = b.point.with_flavour(low).unwrap();
        // Same clock for both, so only the logic's leakage and drive differ.
        a.clock = models::gating::breakeven::ClockChoice::Fixed { clock_hz: 300e6 };
        b.clock = a.clock;
        let (x, y) = (breakeven(&a, None).unwrap(), breakeven(&b, None).unwrap());
        assert!(y.domain.p_leak_w > x.domain.p_leak_w, "{node}");
        assert!(
            y.sleep.bet_exact_cycles < x.sleep.bet_exact_cycles,
            "{node}: BET {low} {} vs {high} {}",
            y.sleep.bet_exact_cycles,
            x.sleep.bet_exact_cycles
        );
    }
}

#[test]
fn switch_scale_trades_bet_against_wakeup() {
    for node in ["40nm", "finfet7", "planar90"] {
        for (kind, unit) in [
            (DomainKind::SpCluster, LaneUnit::Int),
            (DomainKind::LaneGroup(1), LaneUnit::Fp),
        ] {
            let q = query(node, None, kind, unit);
            let v = sweep_scale(&q, None, &SCALE_SWEEP).unwrap();
            for w in v.windows(2) {
                let (a, b) = (&w[0].sleep, &w[1].sleep);
                let what = format!("{node} {}", kind.name());
                assert!(b.bet_exact_cycles >= a.bet_exact_cycles, "{what}: BET");
                assert!(b.bet_cycles >= a.bet_cycles, "{what}: BET cycles");
                assert!(b.t_wake_s <= a.t_wake_s, "{what}: t_wake");
                assert!(b.wakeup_cycles <= a.wakeup_cycles, "{what}: W");
                assert!(b.residual_leak_frac >= a.residual_leak_frac, "{what}: r");
                assert!(b.switch_area_m2 >= a.switch_area_m2, "{what}: switch area");
                assert!(b.ir_drop_v <= a.ir_drop_v, "{what}: IR drop");
            }
            // t_wake tends to κ·c_d'·ΔV/I_sat' (the switch's own drain load) from above.
            let last = v.last().unwrap();
            let d = &last.inputs.device;
            let limit = last.inputs.knobs.kappa * d.c_drain_f_per_m * last.sleep.rail_swing_v
                / d.i_sat_a_per_m;
            assert!(last.sleep.t_wake_s > limit, "{node}");
        }
    }
}

#[test]
fn finer_domains_have_smaller_blocks() {
    for node in ["40nm", "finfet7"] {
        let c = breakeven(
            &query(node, None, DomainKind::SpCluster, LaneUnit::Int),
            None,
        )
        .unwrap();
        let l = breakeven(
            &query(node, None, DomainKind::LaneGroup(1), LaneUnit::Int),
            None,
        )
        .unwrap();
        assert!((c.domain.c_blk_f / l.domain.c_blk_f - 16.0).abs() < 1e-9);
        assert!((c.domain.p_leak_w / l.domain.p_leak_w - 16.0).abs() < 1e-9);
        assert!(l.sleep.switch_width_m < c.sleep.switch_width_m);
    }
}

#[test]
fn bad_supply_and_domain_are_refused() {
    let q = BreakevenQuery::new(
        techlib::ResolvedPoint::resolve("40nm", None, Some(0.05), None, None).unwrap(),
    );
    let e = breakeven(&q, None).unwrap_err().to_string();
    assert!(e.contains("--vdd") && e.contains("minimum"), "{e}");
    let e = DomainKind::parse("lane-group:3").unwrap_err().to_string();
    assert!(e.contains("1, 2 or 4"), "{e}");
    assert!(DomainKind::parse("tensor").is_err());
    assert!(
        techlib::ResolvedPoint::resolve("40nm", None, None, Some("ntv"), None).is_err(),
        "planar nodes have no ntv point"
    );
}

/// BET and W of the INT SP cluster at every node (nominal, STV, NTV where defined), 350 K,
/// 700 MHz at the nominal point. Printed for the README; asserts nothing beyond finiteness.
#[test]
fn study_every_node() {
    println!(
        "{:<9} {:<4} {:>6} {:>7} {:>8} {:>7} {:>7} {:>9} {:>9} {:>9} {:>8} {:>4} {:>3} {:>9} {:>9} {:>9}",
        "node", "op", "Vdd V", "f MHz", "Pleak mW", "Iact A", "Cblk pF", "W_sw um", "E_ev pJ",
        "Pl*tclk pJ", "r", "BET", "W", "twake ns", "area um2", "vt_eff V"
    );
    for node in NODES {
        for op in ops(node) {
            for (kind, unit) in [
                (DomainKind::SpCluster, LaneUnit::Int),
                (DomainKind::LaneGroup(1), LaneUnit::Int),
            ] {
                let b = breakeven(&query(node, op, kind, unit), None).unwrap();
                let s = &b.sleep;
                println!(
                    "{:<9} {:<4} {:>6.3} {:>7.1} {:>8.3} {:>7.4} {:>7.2} {:>9.1} {:>9.3} {:>9.3} {:>8.1e} {:>4} {:>3} {:>9.4} {:>9.1} {:>9.3}  {} {}/{}",
                    node,
                    op.unwrap_or("nom"),
                    b.vdd_v,
                    b.clock_hz * 1e-6,
                    b.domain.p_leak_w * 1e3,
                    b.domain.i_act_a,
                    b.domain.c_blk_f * 1e12,
                    s.switch_width_m * 1e6,
                    s.event_energy_j * 1e12,
                    b.domain.p_leak_w * b.inputs.t_clk_s * 1e12,
                    s.residual_leak_frac,
                    s.bet_cycles,
                    s.wakeup_cycles,
                    s.t_wake_s * 1e9,
                    s.area_m2 * 1e12,
                    b.inputs.vt_logic_v,
                    kind.name(),
                    b.logic_flavour,
                    b.switch_flavour,
                );
            }
        }
    }
}

/// The switch's per-width figures are the device's own: ρ_on = V_dsat/(2·I_on) of the PMOS for
/// a header and of the NMOS for a footer (alpha-power linear region), area 4 F per metre of
/// width at planar nodes, one fin pitch × gate pitch per fin at FinFET nodes.
#[test]
fn switch_device_figures_follow_the_device() {
    use models::gating::sleep::{SwitchDevice, SwitchKind};
    use techlib::{Conditions, Flavour};
    let n = techlib::node("40nm").unwrap();
    let p = n
        .at(&Conditions::new(Flavour::Lstp).with_temperature(350.0))
        .unwrap();
    let d = p.device();
    let h = SwitchDevice::from_device(&p, SwitchKind::Header, None);
    let f = SwitchDevice::from_device(&p, SwitchKind::Footer, None);
    assert!((h.rho_on_ohm_m - d.vdsat_v / (2.0 * d.i_on_p_a_per_m)).abs() < 1e-12);
    assert!((f.rho_on_ohm_m - d.vdsat_v / (2.0 * d.i_on_n_a_per_m)).abs() < 1e-12);
    assert!(
        h.rho_on_ohm_m > f.rho_on_ohm_m,
        "PMOS conducts less than NMOS"
    );
    assert!((h.area_m2_per_m - 4.0 * p.feature_size_m).abs() < 1e-18);
    let n7 = techlib::node("finfet7").unwrap();
    let p7 = n7.at(&Conditions::new(Flavour::Rvt)).unwrap();
    let fin = n7.file().fin.as_ref().unwrap();
    let g = (fin.pitch_nm * 1e-9, fin.contacted_gate_pitch_nm * 1e-9);
    let s7 = SwitchDevice::from_device(&p7, SwitchKind::Header, Some(g));
    let w_fin = p7.device().fin_width_m.unwrap();
    assert!((s7.area_m2_per_m * w_fin - g.0 * g.1).abs() < 1e-24);
}

/// The default switch is the node's highest-threshold flavour: lstp planar, rvt at FinFET.
#[test]
fn switch_is_the_highest_threshold_flavour() {
    use models::gating::breakeven::highest_vt_flavour;
    use techlib::Flavour;
    for (node, want) in [
        ("40nm", Flavour::Lstp),
        ("planar90", Flavour::Lstp),
        ("finfet7", Flavour::Rvt),
        ("asap7", Flavour::Rvt),
    ] {
        let n = techlib::node(node).unwrap();
        assert_eq!(highest_vt_flavour(&n, 350.0).unwrap(), want, "{node}");
    }
}
