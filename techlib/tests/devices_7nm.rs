//! The two 7 nm FinFET nodes compared at equal flavour and temperature, and `finfet7`'s
//! off-current checked against the source's register-file leakage rows (see
//! `techlib::compare7` for the explanation of every number).
//!
//! `cargo test --release -p techlib --test devices_7nm -- --nocapture` prints the table.

use techlib::compare7::{
    cell8t_hold_current_a, dibl_ratio, figures, DeviceFigures, MRF_LEAK_A_PER_BIT,
    SRF_LEAK_A_PER_BIT,
};
use techlib::Flavour;

/// Liberty `INVxp33` state-averaged leakage at TT 0.70 V 25 °C (asap7sc7p5t INVBUF 220122), W.
const ASAP7_INVXP33_LEAK_W: [(Flavour, f64); 3] = [
    (Flavour::Rvt, 17.0562e-12),
    (Flavour::Lvt, 167.699e-12),
    (Flavour::Slvt, 1701.22e-12),
];

fn row(f: &DeviceFigures) -> String {
    format!(
        "{:<8} {:<5} {:>5.2} V {:>6.1} K  Vth {:.3} V  S {:>5.1} mV/dec  DIBL {:>5.1} mV/V  Ion {:>6.0} uA/um  Ioff {:>9.3} nA/um {:>8.3} nA/fin  Ion/Ioff {:>9.0}  INV leak {:>9.4} nW",
        f.node,
        f.flavour,
        f.vdd_v,
        f.temperature_k,
        f.vth_v,
        f.swing_v_per_decade * 1e3,
        f.dibl_v_per_v * 1e3,
        f.i_on_a_per_m,
        f.i_off_a_per_m * 1e3,
        f.i_off_a_per_fin() * 1e9,
        f.on_off_ratio(),
        f.inverter_leakage_w() * 1e9
    )
}

#[test]
fn asap7_matches_its_liberty_inverter_leakage() {
    for (fl, leak) in ASAP7_INVXP33_LEAK_W {
        let f = figures("asap7", fl, 298.15).unwrap();
        println!("{}", row(&f));
        // vth_v is stored to 0.1 mV, which is 0.2 % of current
        let e = f.inverter_leakage_w() / leak - 1.0;
        assert!(e.abs() < 0.01, "{fl:?}: {e}");
        // a physical swing: at or above the thermionic limit
        assert!(
            f.swing_v_per_decade >= 0.0591,
            "{fl:?} swing {}",
            f.swing_v_per_decade
        );
    }
}

#[test]
fn finfet7_against_asap7_at_equal_flavour_and_temperature() {
    for (fl, t) in [
        (Flavour::Lvt, 298.15),
        (Flavour::Rvt, 298.15),
        (Flavour::Lvt, 350.0),
    ] {
        let a = figures("finfet7", fl, t).unwrap();
        let b = figures("asap7", fl, t).unwrap();
        println!("{}\n{}", row(&a), row(&b));
        let per_um = a.i_off_a_per_m / b.i_off_a_per_m;
        let per_fin = a.i_off_a_per_fin() / b.i_off_a_per_fin();
        let per_gate = a.inverter_leakage_w() / b.inverter_leakage_w();
        println!(
            "  {fl:?} {t} K: finfet7/asap7 Ioff per um {per_um:.0}x, per fin {per_fin:.0}x, per inverter {per_gate:.0}x; swing {:.1} vs {:.1} mV/dec",
            a.swing_v_per_decade * 1e3,
            b.swing_v_per_decade * 1e3
        );
        // The explanation in compare7: the short-channel finfet7 device has the weaker swing
        // and the larger DIBL, and conducts more per um at threshold.
        assert!(a.swing_v_per_decade > 1.3 * b.swing_v_per_decade);
        assert!(a.dibl_v_per_v > b.dibl_v_per_v);
        assert!(a.on_off_ratio() < b.on_off_ratio() / 10.0);
        assert!(per_um > 10.0);
    }
}

#[test]
fn finfet7_leakage_against_the_register_file_rows() {
    let model = dibl_ratio(Flavour::Lvt, 300.0).unwrap();
    let data = SRF_LEAK_A_PER_BIT / MRF_LEAK_A_PER_BIT;
    println!(
        "leakage current per bit SRF(0.30 V)/MRF(0.45 V): data {data:.3}, device law {model:.3} ({:+.1} %)",
        (model / data - 1.0) * 100.0
    );
    assert!((model / data - 1.0).abs() < 0.2);
    for fl in [Flavour::Lvt, Flavour::Rvt] {
        let cell = cell8t_hold_current_a(fl, 300.0).unwrap();
        println!(
            "8T cell hold current with {fl:?} fins: {:.1} nA per bit; MRF row (cells + periphery) {:.1} nA per bit",
            cell * 1e9,
            MRF_LEAK_A_PER_BIT * 1e9
        );
    }
    // LVT cells alone would exceed the whole row; RVT cells fit inside it.
    assert!(cell8t_hold_current_a(Flavour::Lvt, 300.0).unwrap() > MRF_LEAK_A_PER_BIT);
    assert!(cell8t_hold_current_a(Flavour::Rvt, 300.0).unwrap() < MRF_LEAK_A_PER_BIT);
}
