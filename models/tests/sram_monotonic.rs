//! Monotonicity and bounds of the SRAM model over its whole input space (proptest): node
//! (planar 22–90 nm and finfet7), device flavour, capacity, block, ports, banks and cell.
//!
//! * for a given organisation (the structure), area, read energy and leakage never fall when
//!   capacity grows (fixed block, ports, banks, node) or when a port is added, and area and
//!   leakage never fall when the same capacity is split into more banks;
//! * for the optimised design, the same orderings hold within the slack of the organisation
//!   search ([`SEARCH_SLACK`]): the search picks one discrete organisation per configuration by
//!   energy × delay² among those within 20 % of the fastest (CACTI's rule), and a larger array
//!   can land on a slower, leaner organisation than a smaller one;
//! * periphery plus routing area stays below [`ROUTING_BOUND`] × cell area for arrays of more
//!   than 1 KB with at least [`MIN_ROWS_PER_BANK`] blocks per bank (see the constant for why);
//! * every output is finite and non-negative;
//! * area does not depend on the operating supply (one physical design per run).

use models::sram::{
    calib, evaluate, evaluate_one, evaluate_sliced, sram_tech, sram_tech_designed_at, BackGate,
    CellKind, Flavour, SramResult, SramSpec, SramTech,
};
use proptest::prelude::*;

mod common;
use common::treq;

const NODES: [&str; 6] = [
    "planar22", "planar32", "planar45", "planar65", "planar90", "finfet7",
];

/// Port mixes (rw, read, write), from one port to 4R2W.
const PORTS: [(u32, u32, u32); 8] = [
    (1, 0, 0),
    (2, 0, 0),
    (1, 1, 0),
    (0, 1, 1),
    (0, 2, 1),
    (0, 3, 1),
    (0, 4, 2),
    (1, 2, 1),
];

/// Bound on (periphery + routing area) / cell area for arrays above 1 KB whose banks hold at
/// least [`MIN_ROWS_PER_BANK`] blocks.
///
/// Every bank carries its own decoders, sense amplifiers and write drivers per port and
/// bank-edge latches for every wire of its bundle (address plus `ports × block` data bits), and
/// the tree between banks is as wide as that bundle. The non-cell area therefore grows with
/// ports × block width × banks while the cell area grows with capacity, and a bank of a few
/// blocks is all periphery whatever the model (hence the rows-per-bank floor: below it there is
/// no array to speak of). With at least 64 blocks per bank the worst case of the domain is a
/// 4R2W finfet7 array with 256-byte blocks in 16 KB banks, whose 4,000-wire bundle is far
/// wider than the bank: about 100× its cell area. CACTI itself reaches 65× on its 32 KB,
/// 8-bank, 128-byte-block array at 90 nm. The bound catches a runaway term, not the physics of
/// bus-dominated arrays.
pub const ROUTING_BOUND: f64 = 150.0;

/// Blocks per bank below which an array is all periphery (excluded from the bound).
pub const MIN_ROWS_PER_BANK: u64 = 64;

fn tech(node: usize, fl: usize, vdd_scale: f64, bg_gnd: bool) -> SramTech {
    let finfet = NODES[node].starts_with("finfet");
    let flavour = if finfet {
        [Flavour::Lvt, Flavour::Rvt][fl % 2]
    } else {
        [Flavour::Hp, Flavour::Lstp, Flavour::Lop][fl % 3]
    };
    let nominal = sram_tech(&treq(
        NODES[node],
        flavour,
        None,
        Some(if finfet { 300.0 } else { 350.0 }),
        BackGate::Vdd,
    ))
    .expect("tech");
    if vdd_scale == 1.0 && !bg_gnd {
        return nominal;
    }
    sram_tech(&treq(
        NODES[node],
        flavour,
        Some(nominal.periph.vdd_v * vdd_scale),
        Some(if finfet { 300.0 } else { 350.0 }),
        if bg_gnd && finfet {
            BackGate::Gnd
        } else {
            BackGate::Vdd
        },
    ))
    .expect("tech")
}

fn spec(cap: u64, block: u64, ports: (u32, u32, u32), banks: u32, eight: bool) -> SramSpec {
    SramSpec {
        capacity_bytes: cap,
        block_bytes: block,
        rw_ports: ports.0,
        read_ports: ports.1,
        write_ports: ports.2,
        banks,
        cell: if eight {
            CellKind::EightT
        } else {
            CellKind::SixT
        },
        ..SramSpec::new(cap, block)
    }
}

fn sane(r: &SramResult) -> bool {
    let b = &r.breakdown;
    let mut v = vec![
        r.area_m2,
        r.height_m,
        r.width_m,
        r.access_time_s,
        r.cycle_time_s,
        r.read_energy_j,
        r.write_energy_j,
        r.leakage_w,
        r.leakage_bank_w,
        r.gate_leakage_bank_w,
    ];
    for c in [
        b.decoder,
        b.wordline,
        b.bitline,
        b.sense_amp,
        b.mux,
        b.routing,
        b.cells,
    ] {
        v.extend([
            c.area_m2,
            c.read_energy_j,
            c.write_energy_j,
            c.leakage_w,
            c.gate_leakage_w,
            c.delay_s,
        ]);
    }
    v.iter().all(|x| x.is_finite() && *x >= 0.0)
}

/// Largest fraction by which the optimised design of a larger (more ported, more banked) array
/// may undercut the smaller one in area, read energy or leakage: the organisation search's
/// granularity (module doc). Measured worst cases over the input space are about half of it.
pub const SEARCH_SLACK: f64 = 0.5;

/// `b` is no cheaper than `a` in area, read energy and leakage, within relative `slack`;
/// `energy` false skips read energy.
fn no_cheaper_by(a: &SramResult, b: &SramResult, slack: f64, energy: bool) -> Result<(), String> {
    let ge = |x: f64, y: f64| x >= y * (1.0 - slack);
    let mut bad = Vec::new();
    if !ge(b.area_m2, a.area_m2) {
        bad.push(format!("area {:.4e} < {:.4e}", b.area_m2, a.area_m2));
    }
    if energy && !ge(b.read_energy_j, a.read_energy_j) {
        bad.push(format!(
            "read energy {:.4e} < {:.4e}",
            b.read_energy_j, a.read_energy_j
        ));
    }
    if !ge(b.leakage_w, a.leakage_w) {
        bad.push(format!("leakage {:.4e} < {:.4e}", b.leakage_w, a.leakage_w));
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(bad.join(", "))
    }
}

fn no_cheaper(a: &SramResult, b: &SramResult) -> Result<(), String> {
    no_cheaper_by(a, b, SEARCH_SLACK, true)
}

/// Strict ordering (relative slack 1e-9) for a fixed organisation.
fn structurally_no_cheaper(a: &SramResult, b: &SramResult, energy: bool) -> Result<(), String> {
    no_cheaper_by(a, b, 1e-9, energy)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn cost_grows_with_capacity(
        node in 0usize..6, fl in 0usize..3, cap_log in 10u32..22, blk_log in 2u32..9,
        ports in 0usize..8, banks_log in 0u32..6, eight in any::<bool>(),
    ) {
        let t = tech(node, fl, 1.0, false);
        let banks = 1u32 << banks_log;
        let block = 1u64 << blk_log;
        let cap = (1u64 << cap_log).max(banks as u64 * block);
        let small = evaluate(&spec(cap, block, PORTS[ports], banks, eight), &t).unwrap();
        let big = evaluate(&spec(2 * cap, block, PORTS[ports], banks, eight), &t).unwrap();
        prop_assert!(sane(&small) && sane(&big));
        let r = no_cheaper(&small, &big);
        prop_assert!(r.is_ok(), "{cap} B -> {} B: {}", 2 * cap, r.unwrap_err());
    }

    #[test]
    fn cost_grows_with_ports(
        node in 0usize..6, fl in 0usize..3, cap_log in 10u32..22, blk_log in 2u32..9,
        ports in 0usize..8, add_read in any::<bool>(), banks_log in 0u32..6, eight in any::<bool>(),
    ) {
        let t = tech(node, fl, 1.0, false);
        let banks = 1u32 << banks_log;
        let block = 1u64 << blk_log;
        let cap = (1u64 << cap_log).max(banks as u64 * block);
        let p = PORTS[ports];
        let more = if add_read { (p.0, p.1 + 1, p.2) } else { (p.0, p.1, p.2 + 1) };
        let a = evaluate(&spec(cap, block, p, banks, eight), &t).unwrap();
        let b = evaluate(&spec(cap, block, more, banks, eight), &t).unwrap();
        prop_assert!(sane(&a) && sane(&b));
        let r = no_cheaper(&a, &b);
        prop_assert!(r.is_ok(), "{p:?} -> {more:?}: {}", r.unwrap_err());
    }

    #[test]
    fn cost_grows_with_banks(
        node in 0usize..6, fl in 0usize..3, cap_log in 10u32..22, blk_log in 2u32..9,
        ports in 0usize..8, banks_log in 0u32..5, eight in any::<bool>(),
    ) {
        let t = tech(node, fl, 1.0, false);
        let banks = 1u32 << banks_log;
        let block = 1u64 << blk_log;
        let cap = (1u64 << cap_log).max(2 * banks as u64 * block);
        let a = evaluate(&spec(cap, block, PORTS[ports], banks, eight), &t).unwrap();
        let b = evaluate(&spec(cap, block, PORTS[ports], 2 * banks, eight), &t).unwrap();
        prop_assert!(sane(&a) && sane(&b));
        // smaller banks are cheaper to access: read energy is not ordered in the bank count
        let r = no_cheaper_by(&a, &b, SEARCH_SLACK, false);
        prop_assert!(r.is_ok(), "{banks} -> {} banks: {}", 2 * banks, r.unwrap_err());
    }

    #[test]
    fn structure_grows_with_capacity_ports_and_banks(
        node in 0usize..6, fl in 0usize..3, cap_log in 10u32..22, blk_log in 2u32..9,
        ports in 0usize..8, add_read in any::<bool>(), banks_log in 0u32..5, eight in any::<bool>(),
    ) {
        let t = tech(node, fl, 1.0, false);
        let c = calib::for_tech(&t);
        let banks = 1u32 << banks_log;
        let block = 1u64 << blk_log;
        let cap = (1u64 << cap_log).max(2 * banks as u64 * block);
        let p = PORTS[ports];
        let s = spec(cap, block, p, banks, eight);
        let a = evaluate(&s, &t).unwrap();
        let o = a.organisation;
        // capacity: the same organisation with twice the rows
        let mut o2 = o;
        o2.rows *= 2;
        let big = evaluate_one(&spec(2 * cap, block, p, banks, eight), &t, &c, &o2).unwrap();
        let r = structurally_no_cheaper(&a, &big, true);
        prop_assert!(r.is_ok(), "capacity, {o:?}: {}", r.unwrap_err());
        // ports: the same organisation with one more port
        let more = if add_read { (p.0, p.1 + 1, p.2) } else { (p.0, p.1, p.2 + 1) };
        let b = evaluate_one(&spec(cap, block, more, banks, eight), &t, &c, &o).unwrap();
        let r = structurally_no_cheaper(&a, &b, true);
        prop_assert!(r.is_ok(), "{p:?} -> {more:?}, {o:?}: {}", r.unwrap_err());
        // banks: twice the banks of half the rows each (a smaller bank may be cheaper to
        // access, so only area and leakage are ordered)
        if o.rows >= 2 {
            let mut oh = o;
            oh.rows = o.rows.div_ceil(2);
            let b = evaluate_one(&spec(cap, block, p, 2 * banks, eight), &t, &c, &oh).unwrap();
            let r = structurally_no_cheaper(&a, &b, false);
            prop_assert!(r.is_ok(), "{banks} -> {} banks, {o:?}: {}", 2 * banks, r.unwrap_err());
        }
    }

    #[test]
    fn periphery_and_routing_are_bounded_by_the_cells(
        node in 0usize..6, fl in 0usize..3, cap_log in 11u32..22, blk_log in 2u32..9,
        ports in 0usize..8, banks_log in 0u32..6, eight in any::<bool>(),
    ) {
        let t = tech(node, fl, 1.0, false);
        let banks = 1u32 << banks_log;
        let block = 1u64 << blk_log;
        let cap = (1u64 << cap_log).max(banks as u64 * block * MIN_ROWS_PER_BANK).max(banks as u64 * 2048);
        let r = evaluate(&spec(cap, block, PORTS[ports], banks, eight), &t).unwrap();
        prop_assert!(sane(&r));
        let cells = r.breakdown.cells.area_m2;
        let ratio = (r.area_m2 - cells) / cells;
        prop_assert!(ratio <= ROUTING_BOUND, "non-cell / cell area {ratio:.1}");
    }

    #[test]
    fn area_does_not_depend_on_the_operating_supply(
        node in 0usize..6, fl in 0usize..3, cap_log in 10u32..22, blk_log in 2u32..9,
        ports in 0usize..8, banks_log in 0u32..6, eight in any::<bool>(),
        scale in 0.6f64..1.1, bg_gnd in any::<bool>(), lanes_log in 0u32..3,
    ) {
        let nominal = tech(node, fl, 1.0, false);
        let other = tech(node, fl, scale, bg_gnd);
        let banks = 1u32 << banks_log;
        let lanes = 1u32 << lanes_log;
        let block = (1u64 << blk_log).max(lanes as u64);
        let cap = (1u64 << cap_log).max(banks as u64 * block);
        let s = spec(cap, block, PORTS[ports], banks, eight);
        let a = evaluate_sliced(&s, lanes, &nominal).unwrap();
        let b = evaluate_sliced(&s, lanes, &other).unwrap();
        prop_assert!(sane(&a) && sane(&b));
        prop_assert_eq!(a.area_m2, b.area_m2);
        prop_assert_eq!(a.organisation, b.organisation);
    }
}

#[test]
fn an_explicit_design_supply_changes_only_the_design() {
    let req = treq(
        "finfet7",
        Flavour::Lvt,
        Some(0.3),
        Some(300.0),
        BackGate::Vdd,
    );
    let s = spec(64 * 1024, 128, (0, 1, 1), 8, true);
    let nominal = sram_tech(&req).unwrap();
    let at_op = sram_tech_designed_at(&req, Some(0.3)).unwrap();
    assert!((nominal.design_vdd_v() - nominal.nominal_vdd_v).abs() < 1e-12);
    assert!((at_op.design_vdd_v() - 0.3).abs() < 1e-12);
    let a = evaluate(&s, &nominal).unwrap();
    let b = evaluate(&s, &at_op).unwrap();
    assert!(sane(&a) && sane(&b));
    assert!(sram_tech_designed_at(&req, Some(-1.0)).is_err());
    assert!(sram_tech_designed_at(&req, Some(f64::NAN)).is_err());
}
