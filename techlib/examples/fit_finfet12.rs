//! Fits the `finfet12` LVT drive law, temperature coefficients and capacitances to the
//! PTM-MG 16 nm HP simulation data of `techlib::finfet12_fit` and prints every fitted scalar of
//! `data/finfet12.toml` with its fit error.
//!
//! `cargo run --release -p techlib --example fit_finfet12`

fn main() {
    print!("{}", techlib::finfet12_fit::fit().report());
}
