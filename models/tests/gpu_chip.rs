//! The chip model on the built-in presets: a static (area/leakage) estimate that is finite,
//! non-negative and whose tree sums to its totals.

use models::gpu::{ChipModel, TechCostSource};
use sim::config::GpuConfig;
use std::collections::BTreeMap;

#[test]
fn gtx480_static_estimate_is_sane() {
    for node in ["45nm", "finfet7"] {
        let src = TechCostSource::new(&techlib::ResolvedPoint::named(node).unwrap(), None).unwrap();
        let cfg = GpuConfig::preset("gtx480").unwrap();
        let chip = ChipModel::build(&cfg, &src).unwrap();
        let root = chip.static_estimate("static");
        root.check_finite_nonnegative().unwrap();
        let t = root.totals();
        println!(
            "{node}: area {:.1} mm2, leakage {:.2} W",
            t.area_m2 * 1e6,
            t.leakage_w
        );
        let mut lines = Vec::new();
        root.walk(0, &mut |d, n| {
            let nt = n.totals();
            lines.push(format!(
                "{}{} {:.3} mm2 {:.2} mW",
                "  ".repeat(d),
                n.name,
                nt.area_m2 * 1e6,
                nt.leakage_w * 1e3
            ))
        });
        println!("{}", lines.join("\n"));
        assert!(t.area_m2 > 0.0 && t.leakage_w > 0.0);
    }
}

/// The register file is its banks plus the wires it traverses: with the capacity fixed, more
/// (smaller) banks cost less per access in the arrays, the bank-to-collector buses are charged
/// to the operand crossbar per operand and to the file per write, and the file's area is the
/// sum of its bank arrays (no tree between banks inside it).
#[test]
fn register_file_is_banks_plus_the_routing_they_traverse() {
    let src = TechCostSource::new(&techlib::ResolvedPoint::named("40nm").unwrap(), None).unwrap();
    let mut last_read_j = f64::INFINITY;
    let mut reads_j = Vec::new();
    for banks in [4, 8, 16, 32] {
        let mut cfg = GpuConfig::preset("gtx480").unwrap();
        cfg.rf.n_banks = banks;
        let chip = ChipModel::build(&cfg, &src).unwrap();
        let rf = chip.sm_storage["register file"];
        let (_, xbar) = chip.sm_logic["operand crossbar"];
        println!(
            "{banks} banks: array read {:.2} pJ, write {:.2} pJ, area {:.4} mm2; crossbar {:.2} pJ per operand",
            rf.read_j * 1e12,
            rf.write_j * 1e12,
            rf.area_m2 * 1e6,
            xbar.read_j * 1e12
        );
        // Smaller banks cost less per access, within the slack of the organisation search (it
        // picks by energy × delay² among organisations within 20 % of the fastest, so a smaller
        // array may land on a faster, hungrier organisation: 32 banks of 32 rows here).
        assert!(
            rf.read_j < 1.2 * last_read_j,
            "{banks} banks: smaller banks cost less per access"
        );
        assert!(
            rf.write_j > rf.read_j,
            "a write also drives the column's write bus"
        );
        last_read_j = rf.read_j;
        reads_j.push(rf.read_j);
        // The wire share of the crossbar: the crossbar's logic alone costs less.
        let mut alone = BTreeMap::new();
        alone.insert("N".to_string(), banks.clamp(16, 32));
        alone.insert("WIDTH".to_string(), 1024);
        let logic =
            models::logic::model(models::logic::LogicKind::Crossbar, &alone, &src.point, None);
        let l = logic.expect("crossbar logic model");
        assert!(
            xbar.read_j > l.energy_per_op_j,
            "{banks} banks: wires add energy"
        );
    }
    assert!(
        reads_j[2] < 0.5 * reads_j[0],
        "16 banks well below 4: {reads_j:?}"
    );
}
