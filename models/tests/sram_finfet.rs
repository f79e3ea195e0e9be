//! finfet7 register files: the MRF (256 KB, 24 banks, 128-B entries, 8T, STV 0.45 V) and SRF
//! (224 KB, NTV 0.30 V) rows of finfet7-and-sram-data.md §4 from the lane-sliced structural
//! model (planar structural factors plus the three fitted FinFET scalars) within 15 % (and the
//! structure alone, before the energy scalar, within 20 % of the MRF energy), the recorded
//! fit errors equal to what the model gives, the back-gate modes behaving physically, and the
//! fast-RF configuration (32 KB, STV) printed in both back-gate modes.

use models::sram::calib::finfet_scalars;
use models::sram::fit::{rf_spec, rf_tech, RF_LANES, RF_POINTS};
use models::sram::{evaluate_sliced, sram_tech, BackGate, Flavour, SramSpec};

mod common;
use common::treq;

#[test]
fn register_files_match_the_calibration_rows() {
    let s = finfet_scalars();
    println!(
        "fitted: energy scale {:.4} (MRF error of the structure alone {:+.1}%), leakage scale {:.4}, level shift {:.3e} J/bit",
        s.energy_scale, s.mrf_energy_structural_err_pct, s.leakage_scale, s.level_shift_j_per_bit
    );
    assert!(s.mrf_energy_structural_err_pct.abs() <= 20.0);
    let recorded = [
        (s.mrf_energy_err_pct, s.mrf_leakage_err_pct),
        (s.srf_energy_err_pct, s.srf_leakage_err_pct),
    ];
    for (p, rec) in RF_POINTS.iter().zip(recorded) {
        let tech = rf_tech(p).expect("finfet7 tech");
        let r = evaluate_sliced(&rf_spec(p), RF_LANES, &tech).expect("model");
        let e_pj = r.read_energy_j * 1e12;
        let l_mw = r.leakage_w * 1e3;
        let e_err = 100.0 * (e_pj / p.access_pj - 1.0);
        let l_err = 100.0 * (l_mw / p.leakage_mw - 1.0);
        println!(
            "{}: access {e_pj:.3} pJ (ref {}, {e_err:+.1}%), leakage {l_mw:.2} mW (ref {}, {l_err:+.1}%), access time {:.3} ns, area {:.4} mm2",
            p.label,
            p.access_pj,
            p.leakage_mw,
            r.access_time_s * 1e9,
            r.area_m2 * 1e6
        );
        assert!(e_err.abs() <= 15.0, "{} energy {e_pj}", p.label);
        assert!(l_err.abs() <= 15.0, "{} leakage {l_mw}", p.label);
        assert!(
            (e_err - rec.0).abs() < 0.1,
            "recorded {} energy error stale",
            p.label
        );
        assert!(
            (l_err - rec.1).abs() < 0.1,
            "recorded {} leakage error stale",
            p.label
        );
    }
}

fn fast_rf(bg: BackGate) -> models::sram::SramResult {
    let spec = SramSpec {
        capacity_bytes: 32 * 1024,
        ..rf_spec(&RF_POINTS[0])
    };
    let req = treq("finfet7", Flavour::Lvt, Some(0.45), Some(300.0), bg);
    evaluate_sliced(&spec, RF_LANES, &sram_tech(&req).unwrap()).unwrap()
}

#[test]
fn grounded_back_gates_cut_leakage_and_slow_the_array() {
    let tied = fast_rf(BackGate::Vdd);
    let low = fast_rf(BackGate::Gnd);
    for (name, r) in [("BG = Vdd", &tied), ("BG = Gnd", &low)] {
        println!(
            "fast RF 32 KB STV {name}: access {:.3} pJ, leakage {:.3} mW, access time {:.3} ns, area {:.4} mm2",
            r.read_energy_j * 1e12,
            r.leakage_w * 1e3,
            r.access_time_s * 1e9,
            r.area_m2 * 1e6
        );
    }
    assert!(low.leakage_w < 0.5 * tied.leakage_w);
    assert!(low.access_time_s > 1.5 * tied.access_time_s);
    assert!(low.read_energy_j < tied.read_energy_j);
    // one physical design: the back-gate mode does not change the layout
    assert_eq!(low.area_m2, tied.area_m2);
}

#[test]
fn smaller_register_files_cost_less_per_access() {
    let tech = rf_tech(&RF_POINTS[0]).unwrap();
    let mut last = f64::INFINITY;
    for kb in [256u64, 128, 64, 32] {
        let spec = SramSpec {
            capacity_bytes: kb * 1024,
            ..rf_spec(&RF_POINTS[0])
        };
        let r = evaluate_sliced(&spec, RF_LANES, &tech).unwrap();
        println!(
            "{kb} KB: {:.3} pJ, {:.2} mW, {:.4} mm2",
            r.read_energy_j * 1e12,
            r.leakage_w * 1e3,
            r.area_m2 * 1e6
        );
        assert!(r.read_energy_j < last);
        last = r.read_energy_j;
    }
}
