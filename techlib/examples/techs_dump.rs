//! Prints the device at nominal conditions of every built-in node (a quick look at the data).
//! `cargo run --release -p techlib --example techs_dump`
use techlib::{node, node_names, CellKind, Conditions};

fn main() {
    for name in node_names() {
        let n = node(name).expect("built-in node");
        for f in n.flavours() {
            let p = n.at(&Conditions::new(f)).expect("nominal");
            let d = p.device();
            let cell = p
                .cell_standby_current_a(CellKind::Six)
                .map(|i| format!("{:.2} nA", i * 1e9))
                .unwrap_or_else(|_| "-".into());
            println!(
                "{name:9} {f:9} Vdd {:.2} V  Ion {:7.1} uA/um  Ioff {:9.3e} A/um  Cg {:.3} fF/um  FO4 {:6.2} ps  6T cell {cell}",
                d.vdd_v,
                d.i_on_n_a_per_m * 1e-6 * 1e6,
                d.i_off_n_a_per_m * 1e-6,
                d.c_gate_f_per_m() * 1e-6 * 1e15,
                p.fo4_delay_s() * 1e12
            );
        }
    }
}
