//! finfet7 against the source data: FO4-chain delay vs Vdd, Table 6.2 ON-current ratios,
//! back-gate behaviour, and the fitted scalars recorded in data/finfet7.toml.
//!
//! `cargo test --release -p techlib --test finfet7 -- --nocapture` prints the errors.

use techlib::finfet7_fit::{self, TABLE_6_2_ION_A_PER_UM};
use techlib::{node, BackGate, CellKind, Conditions, Flavour, TechPoint};

fn reference_text() -> String {
    let p = finfet7_fit::default_reference_path();
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("reference data {}: {e}", p.display()))
}

fn lvt(vdd: f64, bg: BackGate) -> TechPoint {
    node("finfet7")
        .unwrap()
        .at(&Conditions::new(Flavour::Lvt)
            .with_vdd(vdd)
            .with_back_gate(bg))
        .unwrap()
}

#[test]
fn fo4_chain_delay_matches_the_40_points() {
    let pts = techlib::fit::parse_delay_block(&reference_text()).unwrap();
    assert_eq!(pts.len(), 40);
    let (mut e_op, mut e_15, mut e_all) = (0.0f64, 0.0f64, 0.0f64);
    for &(v, t) in &pts {
        let model = 40.0 * lvt(v, BackGate::Tied).fo4_delay_s();
        let e = (model / t - 1.0).abs();
        if v >= 0.25 - 1e-9 {
            e_op = e_op.max(e);
        }
        if v >= 0.15 - 1e-9 {
            e_15 = e_15.max(e);
        }
        e_all = e_all.max(e);
    }
    println!(
        "finfet7 FO4 chain delay max |rel err|: 0.25-0.45 V {:.2} %, 0.15-0.45 V {:.2} %, all 40 points {:.2} %",
        e_op * 100.0,
        e_15 * 100.0,
        e_all * 100.0
    );
    assert!(e_op < 0.05, "0.25-0.45 V error {e_op}");
    assert!(e_15 < 0.25, "0.15-0.45 V error {e_15}");
}

#[test]
fn table_6_2_on_current_ratios() {
    let [ntv, stv_on, stv_off] = TABLE_6_2_ION_A_PER_UM;
    let i_ntv = lvt(0.30, BackGate::Tied).i_on_a_per_m();
    let i_stv = lvt(0.45, BackGate::Tied).i_on_a_per_m();
    let i_off = lvt(0.45, BackGate::Grounded).i_on_a_per_m();
    let r1 = i_stv / i_ntv;
    let r2 = i_stv / i_off;
    println!(
        "Ion STV/NTV model {r1:.4} data {:.4} ({:+.2} %); STV tied/BG=0 model {r2:.4} data {:.4} ({:+.2} %); Ion STV {:.4e} A/um (data {stv_on:.4e})",
        stv_on / ntv,
        (r1 / (stv_on / ntv) - 1.0) * 100.0,
        stv_on / stv_off,
        (r2 / (stv_on / stv_off) - 1.0) * 100.0,
        i_stv * 1e-6
    );
    assert!((r1 / (stv_on / ntv) - 1.0).abs() < 0.10);
    assert!((r2 / (stv_on / stv_off) - 1.0).abs() < 0.10);
    // the calibration procedure asks for 1 %
    assert!((r1 / (stv_on / ntv) - 1.0).abs() < 0.01);
    assert!((r2 / (stv_on / stv_off) - 1.0).abs() < 0.01);
    assert!((i_stv * 1e-6 / stv_on - 1.0).abs() < 1e-6);
}

#[test]
fn back_gate_off_halves_capacitance_raises_vth_cuts_leakage_and_drive() {
    let on = lvt(0.45, BackGate::Tied);
    let off = lvt(0.45, BackGate::Grounded);
    let (d_on, d_off) = (on.device(), off.device());
    let cap_ratio = d_off.c_gate_f_per_m() / d_on.c_gate_f_per_m();
    assert!((cap_ratio - 0.5).abs() < 1e-9, "{cap_ratio}");
    assert!(d_off.vth_v > d_on.vth_v + 0.05);
    assert!(d_off.i_off_n_a_per_m < 0.2 * d_on.i_off_n_a_per_m);
    assert!(d_off.i_on_n_a_per_m < 0.15 * d_on.i_on_n_a_per_m);
    // delay degrades less than the drive because the capacitance halves too
    let drive_ratio = d_on.i_on_n_a_per_m / d_off.i_on_n_a_per_m;
    let delay_ratio = off.fo4_delay_s() / on.fo4_delay_s();
    println!("back gate off: drive /{drive_ratio:.2}, FO4 x{delay_ratio:.2}, Vth +{:.0} mV, leakage /{:.1}", (d_off.vth_v - d_on.vth_v) * 1e3, d_on.i_off_n_a_per_m / d_off.i_off_n_a_per_m);
    assert!(delay_ratio > 1.0 && delay_ratio < drive_ratio);
}

#[test]
fn recorded_scalars_match_the_fit() {
    let fit = finfet7_fit::fit_from_reference(&reference_text()).unwrap();
    println!("{}", fit.report());
    let n = node("finfet7").unwrap();
    let f = n.file();
    let l = &f.fin_flavours["lvt"];
    let close = |a: f64, b: f64, what: &str| {
        assert!((a / b - 1.0).abs() < 2e-4, "{what}: file {a} vs fit {b}");
    };
    close(l.vth_v, fit.delay.vth_v, "vth_v");
    close(l.alpha, fit.delay.alpha, "alpha");
    close(l.ekv_m, fit.delay.ekv_m, "ekv_m");
    close(l.dibl_v_per_v, fit.delay.dibl_v_per_v, "dibl");
    close(l.bg_off_vth_shift_v, fit.bg_off_vth_shift_v, "bg shift");
    close(l.c_fringe_f_per_fin, fit.c_fringe_f_per_fin, "c_fringe");
    close(l.c_drain_f_per_fin, fit.c_drain_f_per_fin, "c_drain");
    close(l.i_on_ref_a_per_fin, fit.i_on_ref_a_per_fin, "i_on_ref");
    let r = &f.fin_flavours["rvt"];
    close(r.vth_v, fit.rvt_vth_v, "rvt vth");
    close(
        r.i_on_ref_a_per_fin,
        fit.rvt_i_on_ref_a_per_fin,
        "rvt i_on_ref",
    );
    for (k, rec) in &f.fits {
        assert!(rec.value.is_finite(), "fits.{k}");
    }
    close(f.fits["lvt_vth"].value, l.vth_v, "fits.lvt_vth");
    close(
        f.fits["lvt_bg_off_vth_shift"].value,
        l.bg_off_vth_shift_v,
        "fits.lvt_bg_off_vth_shift",
    );
    close(
        f.fits["lvt_c_fringe_per_fin"].value,
        l.c_fringe_f_per_fin,
        "fits.lvt_c_fringe_per_fin",
    );
}

#[test]
fn per_fin_view_and_cells() {
    let p = lvt(0.45, BackGate::Tied);
    let d = p.device();
    let w = d.fin_width_m.unwrap();
    assert!((w - 28e-9).abs() < 1e-15);
    assert!((d.i_on_n_a_per_fin().unwrap() - 6.6416e-5).abs() < 1e-9);
    let c8 = p.sram_cell(CellKind::Eight).unwrap();
    assert_eq!(c8.fins.unwrap(), [1.0, 1.0, 1.0, 1.0, 1.0]);
    assert!(c8.w_read_access_m > 0.0);
    let c6 = p.sram_cell(CellKind::Six).unwrap();
    assert!(
        c6.area_m2 > c8.area_m2,
        "the 6T reference is the larger cell"
    );
    assert_eq!(c8.snm_v(0.30, true), Some(0.092));
    assert_eq!(c8.snm_v(0.45, false), Some(0.096));
    assert_eq!(c6.snm_v(0.45, true), Some(0.088));
    // 8T pull-ups have their back gate at Vdd: less leakage than with tied back gates
    let tied = c8.standby_current_a(d, d);
    let cell = p.cell_standby_current_a(CellKind::Eight).unwrap();
    assert!(cell < tied);
    let ntv = node("finfet7")
        .unwrap()
        .at(&Conditions::new(Flavour::Lvt).with_operating_point("ntv"))
        .unwrap();
    assert_eq!(ntv.vdd_v(), 0.30);
    let stv_cell = cell;
    let ntv_cell = ntv.cell_standby_current_a(CellKind::Eight).unwrap();
    println!(
        "8T cell standby current: STV {:.2} nA, NTV {:.2} nA (NTV/STV {:.3})",
        stv_cell * 1e9,
        ntv_cell * 1e9,
        ntv_cell / stv_cell
    );
    assert!(ntv_cell < stv_cell);
}
