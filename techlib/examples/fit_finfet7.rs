//! Fits the `finfet7` LVT drive law to the reference data and prints every fitted scalar of
//! `data/finfet7.toml` with its fit error.
//!
//! `cargo run --release -p techlib --example fit_finfet7 [path/to/finfet7-and-sram-data.md]`

use techlib::finfet7_fit;

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| finfet7_fit::default_reference_path().display().to_string());
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    match finfet7_fit::fit_from_reference(&text) {
        Ok(r) => print!("{}", r.report()),
        Err(e) => {
            eprintln!("error: {path}: {e}");
            std::process::exit(2);
        }
    }
}
