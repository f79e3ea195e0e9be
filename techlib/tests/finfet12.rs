//! finfet12 against its data (HSPICE simulations of the PTM-MG 16 nm HP cards, constants of
//! `techlib::finfet12_fit`): the fitted scalars recorded in data/finfet12.toml, the node's FO4
//! delay and currents against the data, and its place among the other nodes.
//!
//! `cargo test --release -p techlib --test finfet12 -- --nocapture` prints the errors and the
//! comparison table.

use techlib::finfet12_fit::{self, FO4_DELAY_25C, NMOS_IV_25C, T25_K};
use techlib::{
    node, CellKind, Conditions, Flavour, Projection, ResolvedPoint, TechPoint, WireType,
};

fn at(name: &str, fl: Flavour, vdd: f64, t_k: f64) -> TechPoint {
    node(name)
        .unwrap()
        .at(&Conditions::new(fl).with_vdd(vdd).with_temperature(t_k))
        .unwrap()
}

#[test]
fn recorded_scalars_match_the_fit() {
    let fit = finfet12_fit::fit();
    println!("{}", fit.report());
    let n = node("finfet12").unwrap();
    let f = n.file();
    let l = &f.fin_flavours["lvt"];
    let close = |a: f64, b: f64, what: &str| {
        assert!((a / b - 1.0).abs() < 1e-4, "{what}: file {a} vs fit {b}");
    };
    close(l.vth_v, fit.vth300_v, "vth_v");
    close(l.alpha, fit.law25.alpha, "alpha");
    close(l.ekv_m, fit.law25.ekv_m, "ekv_m");
    close(l.dibl_v_per_v, fit.law25.dibl_v_per_v, "dibl");
    close(l.i_on_ref_a_per_fin, fit.i_on_ref_a_per_fin, "i_on_ref");
    close(l.n2p_drv_rt, fit.n2p_drv_rt, "n2p");
    close(
        l.vth_temp_coeff_v_per_k,
        fit.vth_temp_coeff_v_per_k,
        "dVth/dT",
    );
    close(
        l.mobility_temp_exponent,
        fit.mobility_temp_exponent,
        "mobility exponent",
    );
    close(l.c_g_ideal_f_per_fin, fit.c_g_ideal_f_per_fin, "c_g_ideal");
    close(l.c_fringe_f_per_fin, fit.c_fringe_f_per_fin, "c_fringe");
    close(l.c_drain_f_per_fin, fit.c_drain_f_per_fin, "c_drain");
    close(f.fits["lvt_vth"].value, l.vth_v, "fits.lvt_vth");
    close(f.fits["lvt_alpha"].value, l.alpha, "fits.lvt_alpha");
    close(f.fits["lvt_ekv_m"].value, l.ekv_m, "fits.lvt_ekv_m");
    close(f.fits["lvt_dibl"].value, l.dibl_v_per_v, "fits.lvt_dibl");
    close(
        f.fits["lvt_i_on_ref"].value,
        l.i_on_ref_a_per_fin,
        "fits.lvt_i_on_ref",
    );
    close(
        f.fits["lvt_vth_temp_coeff"].value,
        l.vth_temp_coeff_v_per_k,
        "fits.lvt_vth_temp_coeff",
    );
    close(
        f.fits["lvt_mobility_temp_exponent"].value,
        l.mobility_temp_exponent,
        "fits.lvt_mobility_temp_exponent",
    );
    close(
        f.fits["lvt_n2p_drv_rt"].value,
        l.n2p_drv_rt,
        "fits.lvt_n2p_drv_rt",
    );
    close(
        f.fits["lvt_c_fringe_per_fin"].value,
        l.c_fringe_f_per_fin,
        "fits.lvt_c_fringe_per_fin",
    );
    assert!(fit.max_err_iv25 < 0.03 && fit.max_err_iv90 < 0.03 && fit.max_err_fo4 < 0.03);
    assert!(fit.c_fringe_f_per_fin > 0.0);
}

#[test]
fn node_reproduces_the_fo4_stage_and_the_currents() {
    let mut e_fo4 = 0.0f64;
    for &(v, t) in &FO4_DELAY_25C {
        let model = at("finfet12", Flavour::Lvt, v, T25_K).fo4_delay_s();
        e_fo4 = e_fo4.max((model / t - 1.0).abs());
    }
    let p = at("finfet12", Flavour::Lvt, 0.75, T25_K);
    let d = p.device();
    let w = d.fin_width_m.unwrap();
    let ion = d.i_on_n_a_per_m * w;
    let ioff = d.i_off_n_a_per_m * w;
    let e_on = ion / NMOS_IV_25C[0].1 - 1.0;
    let e_off = ioff / NMOS_IV_25C[4].1 - 1.0;
    println!(
        "finfet12 FO4 max |rel err| {:.2} %; Ion {:.3e} A/fin ({:+.2} %), Ioff {:.3e} A/fin ({:+.2} %)",
        e_fo4 * 100.0,
        ion,
        e_on * 100.0,
        ioff,
        e_off * 100.0
    );
    assert!(e_fo4 < 0.03, "FO4 error {e_fo4}");
    assert!(e_on.abs() < 0.03 && e_off.abs() < 0.03);
}

#[test]
fn names_and_defaults_resolve() {
    let r = ResolvedPoint::resolve("finfet12", None, None, None, None).unwrap();
    assert_eq!(r.node_name(), "finfet12");
    assert_eq!(
        ResolvedPoint::named("12nm").unwrap().node_name(),
        "finfet12"
    );
    let n = node("finfet12").unwrap();
    assert_eq!(techlib::default_flavour(&n), "lvt");
    let p = n.at(&Conditions::new(Flavour::Lvt)).unwrap();
    assert!((p.vdd_v() - 0.80).abs() < 1e-12);
    assert!(n.at(&Conditions::new(Flavour::Rvt)).is_err());
}

/// Planar 22 nm (ITRS hp), finfet12, finfet7 (lvt) and asap7 (rvt, lvt) side by side, each at its
/// nominal supply and 300 K; the orderings the physics fixes (leakage per width, cell area,
/// local-wire resistance) are asserted.
#[test]
fn sits_between_planar22_and_the_7nm_nodes() {
    let rows: [(&str, Flavour); 5] = [
        ("planar22", Flavour::Hp),
        ("finfet12", Flavour::Lvt),
        ("finfet7", Flavour::Lvt),
        ("asap7", Flavour::Rvt),
        ("asap7", Flavour::Lvt),
    ];
    println!(
        "{:9} {:4} {:>6} {:>8} {:>12} {:>14} {:>10} {:>14}",
        "node", "fl", "Vdd V", "FO4 ps", "Ion uA/um", "Ioff nA/um", "6T um2", "R_local ohm/um"
    );
    let mut fig = Vec::new();
    for (name, fl) in rows {
        let n = node(name).unwrap();
        let p = n.at(&Conditions::new(fl).with_temperature(300.0)).unwrap();
        let d = p.device();
        let cell = p.sram_cell(CellKind::Six).unwrap().area_m2 * 1e12;
        let r = p
            .wire(WireType::Local, Projection::Conservative)
            .unwrap()
            .r_ohm_per_m()
            * 1e-6;
        println!(
            "{name:9} {:4} {:6.2} {:8.2} {:12.1} {:14.3} {:10.4} {:14.1}",
            fl.key(),
            p.vdd_v(),
            p.fo4_delay_s() * 1e12,
            d.i_on_n_a_per_m * 1e-6 * 1e6,
            d.i_off_n_a_per_m * 1e-6 * 1e9,
            cell,
            r
        );
        fig.push((p.fo4_delay_s(), d.i_off_n_a_per_m, cell, r));
    }
    let (p22, f12, f7, a7r) = (fig[0], fig[1], fig[2], fig[3]);
    // FO4 is not ordered by node here: each source counts different parasitics (planar22's ITRS
    // hp projection 1.8 ps and finfet7's TCAD chain have none, finfet12's HSPICE stage has the
    // device's own, asap7's liberty delays include the cells' layout). At one supply the
    // finfet12 device is still faster than the 7 nm PDK cells are:
    let fo4_12 = at("finfet12", Flavour::Lvt, 0.70, 300.0).fo4_delay_s();
    assert!(fo4_12 < a7r.0, "FO4 finfet12 {fo4_12} vs asap7 {}", a7r.0);
    // Leakage per width: the FinFET's better electrostatics leak less than ITRS planar hp; the
    // 7 nm PDK devices leak less still.
    assert!(f12.1 < p22.1 && a7r.1 < f12.1);
    // Cell area shrinks with the node.
    assert!(f12.2 < p22.2 && f7.2 < f12.2 && a7r.2 < f12.2);
    // Local wires: 16FF's 64 nm metal pitch is wider than ITRS 22 nm's 55 nm and the 7 nm
    // nodes' 36 nm, so its resistance per length sits between.
    assert!(
        p22.3 > f12.3 && f7.3 > f12.3 && a7r.3 > f12.3,
        "{p22:?} {f12:?}"
    );
}
