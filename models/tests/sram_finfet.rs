//! finfet7 register files: the MRF (256 KB, 24 banks, 128-B entries, 8T, STV 0.45 V) and SRF
//! (224 KB, NTV 0.30 V) rows of finfet7-and-sram-data.md §4 within 10 %, and the back-gate modes
//! behaving physically.

use models::sram::fit::{rf_spec, rf_tech, RF_POINTS};
use models::sram::{evaluate, sram_tech, BackGate, Flavour, TechRequest};

#[test]
fn register_files_match_the_calibration_rows() {
    for p in &RF_POINTS {
        let tech = rf_tech(p).expect("finfet7 tech");
        let r = evaluate(&rf_spec(p), &tech).expect("model");
        let e_pj = r.read_energy_j * 1e12;
        let l_mw = r.leakage_w * 1e3;
        println!(
            "{}: access {e_pj:.3} pJ (ref {}), leakage {l_mw:.2} mW (ref {}), access time {:.3} ns",
            p.label,
            p.access_pj,
            p.leakage_mw,
            r.access_time_s * 1e9
        );
        assert!(
            (e_pj / p.access_pj - 1.0).abs() <= 0.10,
            "{} energy {e_pj}",
            p.label
        );
        assert!(
            (l_mw / p.leakage_mw - 1.0).abs() <= 0.10,
            "{} leakage {l_mw}",
            p.label
        );
    }
}

#[test]
fn grounded_back_gates_cut_leakage_and_slow_the_array() {
    let p = &RF_POINTS[0];
    let spec = rf_spec(p);
    let mut req = TechRequest {
        node: "finfet7".into(),
        flavour: Flavour::Lvt,
        vdd_v: Some(0.45),
        temperature_k: Some(300.0),
        back_gate: BackGate::Vdd,
    };
    let tied = evaluate(&spec, &sram_tech(&req).unwrap()).unwrap();
    req.back_gate = BackGate::Gnd;
    let low = evaluate(&spec, &sram_tech(&req).unwrap()).unwrap();
    println!(
        "tied: {:.3} ns {:.2} pJ {:.2} mW; grounded: {:.3} ns {:.2} pJ {:.3} mW",
        tied.access_time_s * 1e9,
        tied.read_energy_j * 1e12,
        tied.leakage_w * 1e3,
        low.access_time_s * 1e9,
        low.read_energy_j * 1e12,
        low.leakage_w * 1e3
    );
    assert!(low.leakage_w < 0.5 * tied.leakage_w);
    assert!(low.access_time_s > 1.5 * tied.access_time_s);
}
