//! The register-file technique models and the chip model cost the same register file: the MRF
//! read energy of `models::rf` is the chip's register-file read energy plus its
//! bank-to-collector bus energy per operand, its write energy the chip's register-file write
//! (which carries the bus), and its area and leakage the chip's register-file leaf, at 40 nm
//! and at finfet7's STV point on the GTX480 configuration; the partition reproduces the MRF at
//! both ends (n = 0 at the SRF supply, n = 63 at STV).

use models::gpu::chip::rf_bus_energy_j;
use models::gpu::{ChipModel, TechCostSource};
use models::rf::structures::{evaluate, RfDesign};
use sim::config::GpuConfig;

fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs()),
        "{what}: {a:e} vs {b:e}"
    );
}

fn check(choice: techlib::ResolvedPoint, flavour: &str) {
    let cfg = GpuConfig::preset("gtx480").unwrap();
    let src = TechCostSource::new(&choice, None).unwrap();
    let chip = ChipModel::build(&cfg, &src).unwrap();
    let rf = chip.sm_storage["register file"];
    let bus = rf_bus_energy_j(&cfg, &src).unwrap().unwrap();
    let node = choice.node();
    let d = RfDesign::from_config(
        &cfg,
        &models::rf::EnergySection::default(),
        node,
        node.flavour(flavour).unwrap(),
        src.vdd_v_value(),
        choice.temperature_k(),
        chip.core_clock_hz,
    );
    let s = evaluate(&d, None).unwrap();
    let m = &s.mrf_stv;
    println!(
        "{} {flavour}: MRF read {:.3} pJ = chip RF read {:.3} pJ + bus {:.3} pJ",
        choice.node_name(),
        m.read_energy_j * 1e12,
        rf.read_j * 1e12,
        bus * 1e12
    );
    close(m.read_energy_j, rf.read_j + bus, "read = chip read + bus");
    close(m.bus_energy_j, bus, "bus");
    // `energy.write_equals_read = false`: the write is the chip's (which carries the bus)
    let sw = evaluate(
        &RfDesign {
            write_equals_read: false,
            ..d.clone()
        },
        None,
    )
    .unwrap();
    close(
        sw.mrf_stv.write_energy_j,
        rf.write_j,
        "write = chip write (bus included)",
    );
    close(m.area_m2, rf.area_m2, "area");
    close(m.leakage_w(), rf.leakage_w, "leakage");
}

#[test]
fn mrf_is_the_chips_register_file_at_40nm() {
    check(techlib::ResolvedPoint::named("40nm").unwrap(), "hp");
}

#[test]
fn mrf_is_the_chips_register_file_at_finfet7_stv() {
    let c =
        techlib::ResolvedPoint::resolve("finfet7", Some("lvt"), None, Some("stv"), None).unwrap();
    check(c, "lvt");
}
