use models::rf::structures::{evaluate, RfDesign};
#[test]
fn smoke() {
    let s = evaluate(&RfDesign::kepler_ch6(), None).unwrap();
    for a in [
        Some(&s.mrf_stv),
        s.mrf_ntv.as_ref(),
        s.frf_high.as_ref(),
        s.frf_low.as_ref(),
        s.srf.as_ref(),
    ]
    .into_iter()
    .flatten()
    {
        println!(
            "{} {} E {:.3} pJ arr {:.3} per {:.3} mW A {:.4} t {:.3} ns cyc {} rows {:?} dec {:.3}",
            a.name,
            a.entries,
            a.read_energy_j * 1e12,
            a.array_leakage_w * 1e3,
            a.periph_leakage_w * 1e3,
            a.area_m2 * 1e6,
            a.access_time_s * 1e9,
            a.access_cycles,
            a.bank_rows,
            a.decoder_read_energy_j * 1e12
        );
    }
    println!("{:?}", s.back_gate);
    println!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{}",
        s.mask_table, s.swap_cam, s.pilot_counters, s.epoch_counter, s.sort_energy_j
    );
    let f = evaluate(&RfDesign::fermi_ch5("40nm"), None).unwrap();
    let a = &f.mrf_stv;
    println!(
        "{} {} E {:.3} pJ arr {:.3} per {:.3} mW A {:.4} t {:.3} ns cyc {} rows {:?} V {}",
        a.name,
        a.entries,
        a.read_energy_j * 1e12,
        a.array_leakage_w * 1e3,
        a.periph_leakage_w * 1e3,
        a.area_m2 * 1e6,
        a.access_time_s * 1e9,
        a.access_cycles,
        a.bank_rows,
        a.vdd_v
    );
}
