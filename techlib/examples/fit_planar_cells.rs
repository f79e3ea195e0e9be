//! Planar 6T cell leakage vs Table 2.1 and the drowsy anchor.
//! `cargo run --release -p techlib --example fit_planar_cells`
fn main() {
    let rows = match techlib::table21::fit() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    println!("node      Vdd   table nA  model nA  unscaled err  fitted scale  recorded");
    for r in &rows {
        println!(
            "{:9} {:.2}  {:8.2}  {:8.2}  {:+11.1} %  {:12.6}  {}",
            r.node,
            r.vdd_v,
            r.table_a * 1e9,
            r.model_a * 1e9,
            r.unscaled_error * 100.0,
            r.scale,
            r.recorded_scale.map_or("-".into(), |s| format!("{s:.6}"))
        );
    }
    match techlib::table21::drowsy_ratio() {
        Ok(d) => {
            for (n, r) in d {
                println!("drowsy anchor {n}: leakage power at DRV+250 mV / full = {r:.4} (must be < 0.10)");
            }
        }
        Err(e) => eprintln!("error: {e}"),
    }
}
