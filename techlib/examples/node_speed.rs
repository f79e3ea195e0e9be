//! Time to resolve a node and evaluate it at one condition (prints a figure; not a test).
//! `cargo run --release -p techlib --example node_speed`
use std::time::Instant;
use techlib::{node, Conditions, Flavour};

fn main() {
    for name in ["planar45", "40nm", "planar16", "finfet7"] {
        let f = if name == "finfet7" {
            Flavour::Lvt
        } else {
            Flavour::Hp
        };
        let _ = node(name).and_then(|n| n.at(&Conditions::new(f)));
        let reps = 200;
        let t0 = Instant::now();
        for _ in 0..reps {
            let n = node(name).expect("node");
            let p = n
                .at(&Conditions::new(f).with_temperature(350.0))
                .expect("at");
            std::hint::black_box(p.fo4_delay_s());
        }
        let per = t0.elapsed().as_secs_f64() / reps as f64;
        let n = node(name).expect("node");
        let t1 = Instant::now();
        for i in 0..reps {
            let p = n
                .at(&Conditions::new(f).with_temperature(300.0 + (i % 100) as f64))
                .expect("at");
            std::hint::black_box(p.fo4_delay_s());
        }
        let per_at = t1.elapsed().as_secs_f64() / reps as f64;
        println!(
            "{name:9} node()+at(): {:8.1} us   at() alone: {:6.1} us",
            per * 1e6,
            per_at * 1e6
        );
    }
}
