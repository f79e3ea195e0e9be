//! Prints the device at nominal conditions of every built-in node (a quick look at the data).
//! `cargo run --release -p techlib --example techs_dump`
use techlib::{node, node_names, CellKind, Conditions};

fn main() {
    for name in node_names() {
        let n = node(name).expect("built-in node");
        let mut conds = Vec::new();
        for f in n.flavours() {
            conds.push(Conditions::new(f));
            for op in n.operating_points() {
                conds.push(Conditions::new(f).with_operating_point(&op.name));
            }
        }
        for c in conds {
            let f = c.flavour;
            let p = n.at(&c).expect("condition");
            let d = p.device();
            let cell = [CellKind::Six, CellKind::Eight]
                .iter()
                .filter_map(|&k| {
                    p.cell_standby_current_a(k)
                        .ok()
                        .map(|i| format!("{}: {:.2} nA", k.label(), i * 1e9))
                })
                .collect::<Vec<_>>()
                .join(", ");
            println!(
                "{name:9} {f:9} Vdd {:.2} V  Ion {:7.1} uA/um  Ioff {:9.3e} A/um  Cg {:.3} fF/um  FO4 {:6.2} ps  cells {cell}",
                d.vdd_v,
                d.i_on_n_a_per_m * 1e-6 * 1e6,
                d.i_off_n_a_per_m * 1e-6,
                d.c_gate_f_per_m() * 1e-6 * 1e15,
                p.fo4_delay_s() * 1e12
            );
        }
    }
}
