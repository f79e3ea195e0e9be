//! Fits the SRAM model's calibration factors and prints them with the fit error.
//!
//! ```text
//! cargo run --release -p models --example sram_fit            # fit and print
//! cargo run --release -p models --example sram_fit -- --write # also rewrite models/data/sram_calib.toml
//! ```
//!
//! Planar factors are fitted to the CACTI 7 results in `../shared/reference/cacti7_train.csv`
//! (Nelder–Mead in log space from the current factors, the organisation search running at every
//! step); FinFET factors to the MRF/SRF register-file rows of finfet7-and-sram-data.md §4.

use models::sram::{calib, fit, reference};

const CSV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/reference/cacti7_train.csv"
);
const OUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sram_calib.toml");

fn main() -> Result<(), String> {
    let write = std::env::args().any(|a| a == "--write");
    let iters: usize = std::env::args()
        .skip_while(|a| a != "--iters")
        .nth(1)
        .map(|s| {
            s.parse()
                .map_err(|_| format!("--iters {s}: expected a count"))
        })
        .transpose()?
        .unwrap_or(200);
    let text = std::fs::read_to_string(CSV).map_err(|e| format!("{CSV}: {e}"))?;
    let rows = reference::parse_cacti_csv(&text).map_err(|e| format!("{CSV}: {e}"))?;
    let start = calib::planar();
    let p = fit::fit_planar(&rows, &start, iters)?;
    println!(
        "planar factors ({} model evaluations of {} rows):",
        p.evaluations,
        rows.len()
    );
    println!("{:#?}", p.calib);
    let (a, e, l, t) = p.mapes;
    println!(
        "fit error (MAPE): area {a:.1}%, read energy {e:.1}%, leakage {l:.1}%, access time {t:.1}%"
    );
    let f = fit::fit_finfet()?;
    println!("finfet factors:");
    println!("{:#?}", f.calib);
    for (pt, e_pj, l_mw) in &f.points {
        println!(
            "  {}: access {e_pj:.3} pJ (ref {}, {:+.1}%), leakage {l_mw:.2} mW (ref {}, {:+.1}%)",
            pt.label,
            pt.access_pj,
            100.0 * (e_pj / pt.access_pj - 1.0),
            pt.leakage_mw,
            100.0 * (l_mw / pt.leakage_mw - 1.0)
        );
    }
    if write {
        let note_p = format!(
            "fitted to cacti7_train.csv ({} rows): MAPE area {a:.1}%, read energy {e:.1}%, leakage {l:.1}%, access {t:.1}%",
            rows.len()
        );
        let note_f = format!(
            "fitted to the MRF/SRF rows (finfet7-and-sram-data.md §4): {}",
            f.points
                .iter()
                .map(|(pt, e, l)| format!("{} {e:.2} pJ / {l:.1} mW", pt.label))
                .collect::<Vec<_>>()
                .join(", ")
        );
        std::fs::write(OUT, fit::calib_toml(&p.calib, &f.calib, &note_p, &note_f))
            .map_err(|e| format!("{OUT}: {e}"))?;
        println!("wrote {OUT}");
    }
    Ok(())
}
