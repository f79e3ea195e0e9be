//! Logic leakage per gate at `finfet7` against `asap7`: the ratio the analytical logic model
//! gives, and the ratio expected from each node's threshold, swing and threshold current.
//!
//! Per gate equivalent the model charges `2·w_fin·I_off·Vdd` ([`models::logic::leakage`]); in the
//! subthreshold limit `I_off ≈ I_0·10^(−Vth_eff/S)`, so
//!
//! ```text
//! leak_a / leak_b ≈ 10^(Vth_eff,b/S_b − Vth_eff,a/S_a)     (decades below threshold: Vth and swing)
//!                 × I_0,a / I_0,b                          (current at threshold)
//!                 × (w_fin,a·Vdd_a) / (w_fin,b·Vdd_b)      (device width and supply)
//! ```
//!
//! The test states that expectation from the device data alone, prints each factor, and checks
//! the modelled ratio of a real block (a 4×32 crossbar) against it within 15 % (the error of the
//! subthreshold approximation of the smooth law at both nodes). It also pins the direction of
//! each factor: the `finfet7` off state lies fewer decades below threshold (weaker swing, larger
//! DIBL) and below a larger threshold current (the source's high ON current at a small
//! overdrive); its narrower fin and lower supply take part of it back.

use models::logic::leakage::{derive, GeLeakage};
use models::logic::{analytical_cost, LogicKind};
use techlib::{Conditions, Flavour, TechPoint};

fn point(node: &str, flavour: Flavour, t_k: f64) -> TechPoint {
    techlib::node(node)
        .unwrap()
        .at(&Conditions::new(flavour).with_temperature(t_k))
        .unwrap()
}

/// The expected ratio `a/b` and its three factors.
fn expected(a: &GeLeakage, b: &GeLeakage) -> (f64, f64, f64, f64) {
    let swing = 10f64.powf(b.decades_below_threshold - a.decades_below_threshold);
    let threshold = a.threshold_current_a_per_m / b.threshold_current_a_per_m;
    let width_supply = (a.w_min_m * a.vdd_v) / (b.w_min_m * b.vdd_v);
    (
        swing * threshold * width_supply,
        swing,
        threshold,
        width_supply,
    )
}

#[test]
fn finfet7_logic_leaks_what_its_threshold_and_swing_predict_against_asap7() {
    let kind = LogicKind::Crossbar;
    let p = kind.default_params();
    for (fl, t) in [
        (Flavour::Lvt, 300.0),
        (Flavour::Rvt, 300.0),
        (Flavour::Lvt, 350.0),
        (Flavour::Rvt, 350.0),
    ] {
        let (ta, tb) = (point("finfet7", fl, t), point("asap7", fl, t));
        let (a, b) = (derive(&ta), derive(&tb));
        let (exp, swing, threshold, width_supply) = expected(&a, &b);
        let model =
            analytical_cost(kind, &p, &ta).leakage_w / analytical_cost(kind, &p, &tb).leakage_w;
        println!(
            "{fl:?} {t} K: finfet7 Vth_eff {:.3} V / S {:.1} mV/dec = {:.2} decades; asap7 {:.3} V / {:.1} mV/dec = {:.2} decades",
            a.vth_eff_v,
            a.swing_v_per_decade * 1e3,
            a.decades_below_threshold,
            b.vth_eff_v,
            b.swing_v_per_decade * 1e3,
            b.decades_below_threshold
        );
        println!(
            "  expected {exp:.0}x = swing {swing:.1}x * threshold current {threshold:.2}x * width and supply {width_supply:.3}x; model (crossbar) {model:.0}x ({:+.1} %)",
            (model / exp - 1.0) * 100.0
        );
        assert!(
            (model / exp - 1.0).abs() < 0.15,
            "{fl:?} {t} K: model {model}, expected {exp}"
        );
        // finfet7's off state lies fewer decades below a larger threshold current
        assert!(swing > 1.0 && threshold > 1.0, "{fl:?} {t} K");
        assert!(a.swing_v_per_decade > b.swing_v_per_decade);
        assert!(a.dibl_v_per_v > b.dibl_v_per_v);
    }
}
