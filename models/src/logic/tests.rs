//! Unit tests of the logic component models: analytical costs, parameter errors, overlay use
//! at and away from its reference point, monotonicity in size and supply.

use super::*;
use crate::overlay::{KindFit, OverlayReference};
use proptest::prelude::*;

fn asap7(fl: Flavour, vdd: f64) -> TechPoint {
    techlib::node("asap7")
        .unwrap()
        .at(&Conditions::new(fl).with_vdd(vdd).with_temperature(298.15))
        .unwrap()
}

#[test]
fn every_kind_is_positive_and_finite() {
    let t = asap7(Flavour::Rvt, 0.7);
    for k in LogicKind::ALL {
        let c = model(k, &BTreeMap::new(), &t, None).unwrap();
        for v in [c.area_m2, c.leakage_w, c.energy_per_op_j, c.delay_s] {
            assert!(v.is_finite() && v > 0.0, "{k}: {c:?}");
        }
        assert_eq!(LogicKind::parse(k.name()), Some(k));
    }
}

#[test]
fn unknown_and_zero_params_are_errors() {
    let t = asap7(Flavour::Rvt, 0.7);
    let e = model(LogicKind::Crossbar, &params(&[("X", 3)]), &t, None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("'X'") && e.contains("N, WIDTH"), "{e}");
    assert!(model(LogicKind::Crossbar, &params(&[("N", 0)]), &t, None).is_err());
}

fn overlay() -> Overlay {
    let fit = |terms: &[&str], c: &[f64]| QuantityFit {
        form: "crossbar".into(),
        terms: terms.iter().map(|s| s.to_string()).collect(),
        coefficients: c.to_vec(),
        n_points: 5,
        fit_mape_pct: 1.0,
        cv_mape_pct: 2.0,
    };
    let mut kinds = BTreeMap::new();
    kinds.insert(
        "crossbar".to_string(),
        KindFit {
            area_m2: Some(fit(&["N^2*WIDTH", "1"], &[1e-14, 1e-13])),
            leakage_w: Some(fit(&["N^2*WIDTH"], &[1e-11])),
            energy_per_op_j: Some(fit(&["N^2*WIDTH"], &[1e-16])),
            delay_s: Some(fit(&["clog2(N)", "1"], &[2e-11, 5e-11])),
        },
    );
    Overlay {
        node: "asap7".into(),
        reference: OverlayReference {
            flavour: "rvt".into(),
            corner: "tt".into(),
            vdd_v: 0.7,
            temperature_c: 25.0,
            clock_period_s: 1e-9,
            source: "test".into(),
        },
        kinds,
    }
}

#[test]
fn overlay_is_used_at_reference_and_scaled_elsewhere() {
    let ov = overlay();
    let p = params(&[("N", 4), ("WIDTH", 8)]);
    let r = model(
        LogicKind::Crossbar,
        &p,
        &asap7(Flavour::Rvt, 0.7),
        Some(&ov),
    )
    .unwrap();
    assert!((r.area_m2 - (1e-14 * 128.0 + 1e-13)).abs() < 1e-20);
    assert!((r.energy_per_op_j - 1e-16 * 128.0).abs() < 1e-22);
    assert_eq!(r.calibrated, [true; 4]);
    let lo = model(
        LogicKind::Crossbar,
        &p,
        &asap7(Flavour::Rvt, 0.63),
        Some(&ov),
    )
    .unwrap();
    assert!(lo.energy_per_op_j < r.energy_per_op_j);
    assert_eq!(lo.area_m2, r.area_m2);
    let lvt = model(
        LogicKind::Crossbar,
        &p,
        &asap7(Flavour::Lvt, 0.7),
        Some(&ov),
    )
    .unwrap();
    assert!(
        lvt.leakage_w > r.leakage_w,
        "LVT must leak more: {} vs {}",
        lvt.leakage_w,
        r.leakage_w
    );
    // Kinds without a fit stay analytical.
    let a = model(
        LogicKind::Cam,
        &BTreeMap::new(),
        &asap7(Flavour::Rvt, 0.7),
        Some(&ov),
    )
    .unwrap();
    assert_eq!(a.calibrated, [false; 4]);
}

#[test]
fn overlay_for_other_node_is_mapped_through_node_scaling() {
    let ov = overlay();
    let p = params(&[("N", 4), ("WIDTH", 8)]);
    let at = |node: &str, fl: Flavour| {
        techlib::node(node)
            .unwrap()
            .at(&Conditions::new(fl).with_temperature(350.0))
            .unwrap()
    };
    let base = model(
        LogicKind::Crossbar,
        &p,
        &asap7(Flavour::Rvt, 0.7),
        Some(&ov),
    )
    .unwrap();
    for (node, fl) in [
        ("finfet7", Flavour::Lvt),
        ("planar45", Flavour::Hp),
        ("40nm", Flavour::Hp),
    ] {
        let t = at(node, fl);
        let s = overlay_scaling(&ov, &t).unwrap();
        assert!(s.cross_node);
        let c = model(LogicKind::Crossbar, &p, &t, Some(&ov)).unwrap();
        assert_eq!(c.calibrated, [true; 4]);
        assert!((c.leakage_w / base.leakage_w / s.leakage - 1.0).abs() < 1e-9);
        assert!((c.energy_per_op_j / base.energy_per_op_j / s.dynamic_energy - 1.0).abs() < 1e-9);
        assert!((c.area_m2 / base.area_m2 / s.area - 1.0).abs() < 1e-9);
        assert!((c.delay_s / base.delay_s / s.delay - 1.0).abs() < 1e-9);
    }
    // an overlay for a node techlib does not know is an error naming it
    let mut bad = overlay();
    bad.node = "nosuchnode".into();
    let e = model(
        LogicKind::Crossbar,
        &p,
        &asap7(Flavour::Rvt, 0.7),
        Some(&bad),
    )
    .unwrap_err();
    assert!(e.to_string().contains("nosuchnode"), "{e}");
}

proptest! {
    #[test]
    fn monotonic_in_size(k in 0usize..18, a in 1u32..64, b in 1u32..64) {
        let kind = LogicKind::ALL[k];
        let t = asap7(Flavour::Rvt, 0.7);
        let (lo, hi) = (a.min(b), a.max(b));
        let mk = |v: u32| -> BTreeMap<String, u32> {
            // Storage ports and controller timing constants are configuration, not size.
            let mut p = kind.default_params();
            for (n, x) in p.iter_mut() {
                if !["RPORTS", "WPORTS", "BET", "WAKE"].contains(&n.as_str()) {
                    *x = if n == "TBITS" { v.min(12) } else { v };
                }
            }
            p
        };
        let cl = model(kind, &mk(lo), &t, None).unwrap();
        let ch = model(kind, &mk(hi), &t, None).unwrap();
        prop_assert!(ch.area_m2 >= cl.area_m2);
        prop_assert!(ch.leakage_w >= cl.leakage_w);
        prop_assert!(ch.energy_per_op_j >= cl.energy_per_op_j);
    }

    #[test]
    fn energy_rises_with_vdd(v in 0.55f64..0.8) {
        let p = BTreeMap::new();
        let e1 = model(LogicKind::Alu32, &p, &asap7(Flavour::Rvt, v), None).unwrap().energy_per_op_j;
        let e2 = model(LogicKind::Alu32, &p, &asap7(Flavour::Rvt, v + 0.05), None).unwrap().energy_per_op_j;
        prop_assert!(e2 > e1);
    }
}
