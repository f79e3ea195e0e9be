//! Fits the SRAM model's calibration factors, prints them with the fit error, and (with
//! `--write`) writes them and the measured accuracy to `models/data/sram_calib.toml`.
//!
//! ```text
//! cargo run --release -p models --example sram_fit            # fit and print
//! cargo run --release -p models --example sram_fit -- --write # also rewrite models/data/sram_calib.toml
//! cargo run --release -p models --example sram_fit -- --iters 300
//! cargo run --release -p models --example sram_fit -- --port-holdout 2R1W  # extrapolation in ports
//! ```
//!
//! `--finfet-only` keeps the embedded planar factors (re-measuring their accuracy) and refits
//! only the FinFET scalars.
//!
//! `--port-holdout CLASS` only fits the planar factors without the rows of one port class and
//! prints the error on that class (how well the structural port model extrapolates); it writes
//! nothing.
//!
//! Planar factors are fitted to the CACTI 7 results in `../shared/reference/cacti7_train.csv`
//! (Nelder–Mead in log space from the current factors, the organisation search running at every
//! step), once on all rows and once on the training split only; the second set is measured on
//! the held-out rows it never saw. The FinFET scalars are fitted on top of the all-rows planar
//! factors to the MRF/SRF register-file rows of finfet7-and-sram-data.md §4.

use models::sram::{calib, fit, reference};

const CSV: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/reference/cacti7_train.csv"
);
const OUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sram_calib.toml");

fn print_acc(label: &str, a: &models::sram::SramAccuracy) {
    println!(
        "{label} ({} rows): MAPE area {:.2}%, read energy {:.2}%, leakage {:.2}%, access time {:.2}%",
        a.rows, a.area_mape_pct, a.read_energy_mape_pct, a.leakage_mape_pct, a.access_time_mape_pct
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
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
    let train = reference::training(&rows);
    let held = reference::held_out(&rows);
    let mut cache = reference::TechCache::default();

    if let Some(class) = std::env::args()
        .skip_while(|a| a != "--port-holdout")
        .nth(1)
    {
        // only this diagnostic: fit without one port class, measure on it
        let (out, kept): (Vec<_>, Vec<_>) = rows
            .iter()
            .cloned()
            .partition(|r| reference::port_class(&r.config) == class);
        if out.is_empty() {
            return Err(Box::from(format!(
                "--port-holdout {class}: no rows of that port class"
            )));
        }
        let pf = fit::fit_planar(&kept, &calib::planar(), iters)?;
        let k = reference::accuracy(&reference::run_rows(&kept, &pf.calib, &mut cache)?);
        let a = reference::accuracy(&reference::run_rows(&out, &pf.calib, &mut cache)?);
        print_acc(
            &format!("fit without the {class} rows, on the other rows"),
            &k,
        );
        print_acc(&format!("fit without the {class} rows, on them"), &a);
        return Ok(());
    }

    if std::env::args().any(|a| a == "--finfet-only") {
        // keep the embedded planar factors: re-measure their accuracy, refit the FinFET scalars
        let pc = calib::planar();
        let ptc = calib::planar_train();
        let all = reference::accuracy(&reference::run_rows(&rows, &pc, &mut cache)?);
        let ho = reference::accuracy(&reference::run_rows(&held, &ptc, &mut cache)?);
        print_acc("embedded factors, all rows", &all);
        print_acc("embedded training-split factors, held-out rows", &ho);
        let f = fit::fit_finfet(&pc)?;
        println!("finfet scalars: {:#?}", f.scalars);
        if write {
            std::fs::write(OUT, fit::calib_toml(&pc, &ptc, &f.scalars, &all, &ho))
                .map_err(|e| format!("{OUT}: {e}"))?;
            println!("wrote {OUT}");
        }
        return Ok(());
    }

    let p = fit::fit_planar(&rows, &calib::planar(), iters)?;
    println!(
        "planar factors, all rows ({} model evaluations of {} rows):",
        p.evaluations,
        rows.len()
    );
    println!("{:#?}", p.calib);
    let all_res = reference::run_rows(&rows, &p.calib, &mut cache)?;
    let all = reference::accuracy(&all_res);
    print_acc("fit error, all rows", &all);
    print!("{}", reference::group_table(&rows, &all_res));

    let pt = fit::fit_planar(&train, &calib::planar_train(), iters)?;
    let tr = reference::accuracy(&reference::run_rows(&train, &pt.calib, &mut cache)?);
    let ho = reference::accuracy(&reference::run_rows(&held, &pt.calib, &mut cache)?);
    print_acc("training-split fit, on its training rows", &tr);
    print_acc("training-split fit, on the held-out rows", &ho);

    let f = fit::fit_finfet(&p.calib)?;
    println!("finfet scalars: {:#?}", f.scalars);
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
        std::fs::write(
            OUT,
            fit::calib_toml(&p.calib, &pt.calib, &f.scalars, &all, &ho),
        )
        .map_err(|e| format!("{OUT}: {e}"))?;
        println!("wrote {OUT}");
    }
    Ok(())
}
