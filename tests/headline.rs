//! The default run (`estimate --tech finfet7`, GTX480) held against what explains it: its
//! register file is costed on the devices and the SRAM model that reproduce the published 7 nm
//! register-file row, and the whole difference from that row is the junction temperature.
//!
//! The row (`techlib::compare7::MRF_LEAK_A_PER_BIT`: a 256 KB 8T register file at 0.45 V leaking
//! 33.8 mW, cells and periphery) was measured at 300 K; every command costs at 350 K unless told
//! otherwise (`--temperature`). At 300 K the estimate's register-file leaf, per bit, must land
//! within 10 % of the row; at 350 K its leakage per bit must exceed the row by what the device
//! law's off-current gives between the two temperatures (within 10 %), and by nothing else.

use gpuenergy::study::Study;
use models::gpu::Node;
use sim::config::GpuConfig;
use techlib::compare7::MRF_LEAK_A_PER_BIT;

fn find<'a>(root: &'a Node, name: &str) -> &'a Node {
    let mut hit = None;
    root.walk(0, &mut |_, n| {
        if hit.is_none() && n.name == name && n.children.is_empty() {
            hit = Some(n);
        }
    });
    hit.unwrap_or_else(|| panic!("no leaf '{name}'"))
}

/// Leakage current per bit of the estimate's register-file arrays at `t_k`, A.
fn rf_leak_a_per_bit(t_k: f64) -> (f64, f64) {
    let cfg = GpuConfig::preset("gtx480").unwrap();
    let bits = cfg.sm.n_registers as f64 * 32.0 * cfg.gpu.n_sm as f64;
    let tech = gpuenergy::study::tech_choice("finfet7", None, None, None, t_k).unwrap();
    let vdd = tech.at().unwrap().vdd_v();
    let r = Study::new(cfg, tech, None)
        .static_only(true)
        .run(&[])
        .unwrap();
    let leak_w = find(&r.area, "register file").totals().leakage_w;
    (leak_w / vdd / bits, vdd)
}

#[test]
fn the_default_register_file_reproduces_the_published_row_at_its_temperature() {
    let (at300, vdd) = rf_leak_a_per_bit(300.0);
    let (at350, _) = rf_leak_a_per_bit(350.0);
    assert!(
        (vdd - 0.45).abs() < 1e-9,
        "the default point is the row's supply"
    );
    let err = at300 / MRF_LEAK_A_PER_BIT - 1.0;
    println!(
        "register file at 0.45 V: {:.1} nA per bit at 300 K ({:+.1} % against the row's {:.1}), {:.1} at 350 K",
        at300 * 1e9,
        err * 100.0,
        MRF_LEAK_A_PER_BIT * 1e9,
        at350 * 1e9
    );
    assert!(err.abs() < 0.10, "{err}");
    // the rest is temperature: the device law's off-current between 300 and 350 K
    let ioff = |t: f64| {
        techlib::node("finfet7")
            .unwrap()
            .at(&techlib::Conditions::new(techlib::Flavour::Lvt)
                .with_vdd(0.45)
                .with_temperature(t))
            .unwrap()
            .i_off_a_per_m()
    };
    let law = ioff(350.0) / ioff(300.0);
    let model = at350 / at300;
    println!("350 K / 300 K: register file {model:.2}x, device off-current {law:.2}x");
    assert!((model / law - 1.0).abs() < 0.10, "{model} vs {law}");
}
