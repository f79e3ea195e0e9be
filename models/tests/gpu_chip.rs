//! The chip model on the built-in presets: a static (area/leakage) estimate that is finite,
//! non-negative and whose tree sums to its totals.

use models::gpu::{ChipModel, TechChoice, TechCostSource};
use sim::config::GpuConfig;

#[test]
fn gtx480_static_estimate_is_sane() {
    for node in ["45nm", "finfet7"] {
        let src = TechCostSource::new(&TechChoice::new(node), None).unwrap();
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
