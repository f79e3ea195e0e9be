//! Diagnostics of the SRAM model against the CACTI 7 reference rows: the per-group error table
//! ([`models::sram::reference::group_table`]) with the embedded factors, or with unity factors
//! (`--unity`, the structure alone), and with `--rows` one line per row (signed errors and the
//! chosen organisation).
//!
//! ```text
//! cargo run --release -p models --example sram_diag [-- --unity] [-- --rows]
//! ```

use models::sram::{calib, reference};

const CSV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/reference/cacti7_train.csv"
);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(CSV).map_err(|e| format!("{CSV}: {e}"))?;
    let rows = reference::parse_cacti_csv(&text).map_err(|e| format!("{CSV}: {e}"))?;
    let c = if std::env::args().any(|a| a == "--unity") {
        calib::Calib {
            ecc_bits_per_data_bit: calib::planar().ecc_bits_per_data_bit,
            ..calib::Calib::default()
        }
    } else {
        calib::planar()
    };
    let mut cache = reference::TechCache::default();
    let res = reference::run_rows(&rows, &c, &mut cache)?;
    let (a, e, l, t) = reference::mapes(&res);
    println!("MAPE: area {a:.2}%  read energy {e:.2}%  leakage {l:.2}%  access time {t:.2}%");
    print!("{}", reference::group_table(&rows, &res));
    if std::env::args().any(|a| a == "--rows") {
        println!("line aspect(model h/w / CACTI h/w) node size block rw r w banks flavour | area read leak access (model/CACTI-1, %) | org | shares read: dec wl bl sa mux route | leak: cells dec bl sa mux route | area: cells route");
        for (row, (r, _)) in rows.iter().zip(&res) {
            let s = reference::signed_error(r, &row.cacti);
            let c = &row.config;
            let o = &r.organisation;
            let b = &r.breakdown;
            let re = r.read_energy_j.max(1e-30);
            let lk = r.leakage_w.max(1e-30);
            println!(
                "{} {:.2} {} {} {} {} {} {} {} {} | {:+.0} {:+.0} {:+.0} {:+.0} | {}x{} spd{} mux{} {}r{}c | {:.2} {:.2} {:.2} {:.2} {:.2} {:.2} | {:.2} {:.2} {:.2} {:.2} {:.2} {:.2} | {:.2} {:.2}",
                row.line, (r.height_m / r.width_m) / (row.cacti.height_mm / row.cacti.width_mm), c.tech_um, c.size_bytes, c.block_bytes, c.rw_ports, c.read_ports,
                c.write_ports, c.banks, c.cell_type,
                100.0 * s[0], 100.0 * s[1], 100.0 * s[2], 100.0 * s[3],
                o.ndwl, o.ndbl, o.nspd, o.mux_bl, o.rows, o.cols,
                b.decoder.read_energy_j / re, b.wordline.read_energy_j / re,
                b.bitline.read_energy_j / re, b.sense_amp.read_energy_j / re,
                b.mux.read_energy_j / re, b.routing.read_energy_j / re,
                b.cells.leakage_w / lk, b.decoder.leakage_w / lk, b.bitline.leakage_w / lk,
                b.sense_amp.leakage_w / lk, b.mux.leakage_w / lk, b.routing.leakage_w / lk,
                b.cells.area_m2 / r.area_m2, b.routing.area_m2 / r.area_m2,
            );
        }
    }
    Ok(())
}
