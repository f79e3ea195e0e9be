//! Planar nodes: Table 2.1 cell leakage, interpolation between nodes, CACTI's node names,
//! planar16 extrapolation, wires and errors.
//!
//! `cargo test --release -p techlib --test planar -- --nocapture` prints the comparisons.

use techlib::{node, node_names, CellKind, Conditions, Flavour, Projection, TechError, WireType};

#[test]
fn planar_cells_table_2_1() {
    let rows = techlib::table21::fit().unwrap();
    for r in &rows {
        let recorded = r.recorded_scale.expect("scale recorded in the node file");
        let scaled = r.model_a * recorded;
        let err = scaled / r.table_a - 1.0;
        println!(
            "{}: table {:.2} nA, model {:.2} nA (unscaled {:+.1} %), fitted scale {:.6}, recorded {:.6}, scaled model {:.2} nA ({:+.2} %)",
            r.node,
            r.table_a * 1e9,
            r.model_a * 1e9,
            r.unscaled_error * 100.0,
            r.scale,
            recorded,
            scaled * 1e9,
            err * 100.0
        );
        assert!(
            (recorded / r.scale - 1.0).abs() < 1e-4,
            "{}: recorded scale is stale",
            r.node
        );
        assert!(err.abs() < 0.15);
    }
    // leakage rises from 90 to 32 nm in the model too (the source: "nearly doubled")
    assert!(rows[2].model_a > rows[0].model_a);
    for (n, ratio) in techlib::table21::drowsy_ratio().unwrap() {
        println!("drowsy anchor {n}: P(DRV + 250 mV)/P(Vdd) = {ratio:.4}");
        assert!(ratio < techlib::table21::DROWSY_MAX_RATIO);
    }
}

#[test]
fn tabulated_values_are_exact_at_nominal() {
    let p = node("planar45")
        .unwrap()
        .at(&Conditions::new(Flavour::Hp).with_temperature(350.0))
        .unwrap();
    let d = p.device();
    assert!((d.i_on_n_a_per_m - 2.0466e-3 * 1e6).abs() < 1e-6);
    assert!((d.i_off_n_a_per_m - 5.69e-7 * 1e6).abs() < 1e-9);
    assert!((d.vdd_v - 1.0).abs() < 1e-12);
    assert!((d.c_g_ideal_f_per_m - 6.78e-16 * 1e6).abs() < 1e-18);
    // linear between 10 K rows
    let p = node("planar45")
        .unwrap()
        .at(&Conditions::new(Flavour::Hp).with_temperature(355.0))
        .unwrap();
    assert!((p.device().i_off_n_a_per_m - 0.5 * (5.69e-7 + 6.42e-7) * 1e6).abs() < 1e-9);
    let c = p.sram_cell(CellKind::Six).unwrap();
    assert!((c.area_m2 - 146.0 * 45e-9 * 45e-9).abs() < 1e-20);
    assert!((c.w_nmos_m - 2.08 * 45e-9).abs() < 1e-15);
    assert!(p.cam_cell().unwrap().area_m2 > c.area_m2);
}

#[test]
fn names_and_interpolation() {
    let a = node("planar45").unwrap();
    assert_eq!(node("45nm").unwrap(), a);
    assert_eq!(node("0.045").unwrap(), a);
    let hp = Conditions::new(Flavour::Hp).with_temperature(350.0);
    let at = |n: &str| node(n).unwrap().at(&hp).unwrap().device().i_on_n_a_per_m;
    let (i32, i40, i45) = (at("planar32"), at("40nm"), at("planar45"));
    // linear in feature size: 40 nm is 8/13 of the way from 32 to 45
    let expect = i32 + (i45 - i32) * 8.0 / 13.0;
    assert!((i40 / expect - 1.0).abs() < 1e-9, "{i40} vs {expect}");
    assert_eq!(node("40nm").unwrap().name(), "40nm");
    assert!((node("28nm").unwrap().feature_size_m() - 28e-9).abs() < 1e-18);
    // every node of the CACTI training set resolves, with hp/lstp/lop at 350 K
    let csv = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/reference/cacti7_train.csv"
    ))
    .expect("cacti7_train.csv");
    let mut sizes: Vec<String> = csv
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').next().map(str::to_string))
        .collect();
    sizes.sort();
    sizes.dedup();
    assert!(!sizes.is_empty());
    for s in &sizes {
        let n = node(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        for f in [Flavour::Hp, Flavour::Lstp, Flavour::Lop] {
            let p = n.at(&Conditions::new(f).with_temperature(350.0)).unwrap();
            assert!(p.device().i_on_n_a_per_m > 0.0);
            assert!(
                p.wire(WireType::SemiGlobal, Projection::Conservative)
                    .unwrap()
                    .r_ohm_per_m()
                    > 0.0
            );
        }
    }
    // interpolated wires interpolate R and C between the nodes
    let w = |n: &str| {
        node(n)
            .unwrap()
            .at(&hp)
            .unwrap()
            .wire(WireType::Local, Projection::Conservative)
            .unwrap()
    };
    let (r32, r40, r45) = (
        w("planar32").r_ohm_per_m(),
        w("40nm").r_ohm_per_m(),
        w("planar45").r_ohm_per_m(),
    );
    assert!((r40 - (r32 + (r45 - r32) * 8.0 / 13.0)).abs() / r40 < 1e-9);
}

#[test]
fn planar16_is_extrapolated_and_physical() {
    let n = node("planar16").unwrap();
    assert!(n.file().derivation.is_some());
    assert!(n.description().contains("extrapolated"));
    let p16 = n.at(&Conditions::new(Flavour::Hp)).unwrap();
    let p22 = node("planar22")
        .unwrap()
        .at(&Conditions::new(Flavour::Hp))
        .unwrap();
    let (d16, d22) = (p16.device(), p22.device());
    assert!(d16.l_phy_m < d22.l_phy_m && d16.l_phy_m > 0.0);
    assert!(d16.c_g_ideal_f_per_m < d22.c_g_ideal_f_per_m);
    // power law through 22 and 32 nm
    let d32 = node("planar32")
        .unwrap()
        .at(&Conditions::new(Flavour::Hp))
        .unwrap()
        .device()
        .l_phy_m;
    let expect = d22.l_phy_m * (d22.l_phy_m / d32).powf(0.6);
    assert!((d16.l_phy_m / expect - 1.0).abs() < 1e-9);
    assert!(node("20nm").is_ok());
    assert!(n.flavours().contains(&Flavour::Lop));
    assert!(
        !n.flavours().contains(&Flavour::LpDram),
        "lp_dram is absent at 22 nm"
    );
}

#[test]
fn wire_rc_is_physical() {
    let p = node("planar32")
        .unwrap()
        .at(&Conditions::new(Flavour::Hp))
        .unwrap();
    for proj in [Projection::Aggressive, Projection::Conservative] {
        let l = p.wire(WireType::Local, proj).unwrap();
        let g = p.wire(WireType::Global, proj).unwrap();
        assert!(l.r_ohm_per_m() > g.r_ohm_per_m());
        // 0.1-0.4 fF/um is the usual range for on-chip wires
        for w in [&l, &g] {
            let c = w.c_f_per_m() * 1e-6 * 1e15;
            assert!(c > 0.1 && c < 0.5, "{c} fF/um");
        }
    }
    // DRAM wires of the conservative projection are tabulated: 375 ohm/um at 32 nm
    let d = p.wire(WireType::Dram, Projection::Conservative).unwrap();
    assert!((d.r_ohm_per_m() - 375.0e6).abs() < 1.0);
    assert!(matches!(
        p.wire(WireType::Dram, Projection::Aggressive),
        Err(TechError::UnknownWire { .. })
    ));
}

#[test]
fn errors_name_what_was_asked_and_what_exists() {
    let e = node("planar7").unwrap_err().to_string();
    assert!(
        e.contains("planar7") && e.contains("planar45") && e.contains("finfet7"),
        "{e}"
    );
    let e = node("120nm").unwrap_err().to_string();
    assert!(e.contains("120nm") && e.contains("90"), "{e}");
    let n = node("planar45").unwrap();
    let e = n
        .at(&Conditions::new(Flavour::Lvt))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("lvt") && e.contains("hp") && e.contains("lstp") && e.contains("lop"),
        "{e}"
    );
    let e = n.flavour("ulp").unwrap_err().to_string();
    assert!(e.contains("ulp") && e.contains("hp"), "{e}");
    let f = node("finfet7").unwrap();
    let e = f
        .at(&Conditions::new(Flavour::Lvt).with_operating_point("ulv"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("ulv") && e.contains("stv") && e.contains("ntv"),
        "{e}"
    );
    let e = f.at(&Conditions::new(Flavour::Hp)).unwrap_err().to_string();
    assert!(e.contains("lvt") && e.contains("rvt"), "{e}");
    let e = n
        .at(&Conditions::new(Flavour::Hp).with_temperature(500.0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("500"), "{e}");
    let e = n
        .at(&Conditions::new(Flavour::Hp).with_vdd(-1.0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("-1"), "{e}");
    let e = node("finfet7")
        .unwrap()
        .at(&Conditions::new(Flavour::Lvt))
        .unwrap()
        .sram_cell(CellKind::Six)
        .map(|_| ());
    assert!(e.is_ok());
    let e = n
        .at(&Conditions::new(Flavour::Hp))
        .unwrap()
        .sram_cell(CellKind::Eight)
        .unwrap_err()
        .to_string();
    assert!(e.contains("8T") && e.contains("sram"), "{e}");
    assert_eq!(node_names().len(), 9);
}

#[test]
fn user_file_with_a_bad_field_names_the_file() {
    let text = include_str!("../data/planar45.toml").replace("vth_v =", "vth_volts =");
    let e = techlib::Node::from_toml_str(&text, "my45.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("my45.toml") && e.contains("vth_volts"), "{e}");
    let ok =
        techlib::Node::from_toml_str(include_str!("../data/finfet7.toml"), "copy.toml").unwrap();
    assert_eq!(ok.name(), "finfet7");
}
