//! Modelled area and leakage of the issue-stage and reconvergence designs at their default
//! sizes (issue-stage spec §4, control-flow spec §5.7) on the technology nodes named on the
//! command line (default: `16nm finfet7`): the baseline's and SOCGPU's per-warp logic for
//! N = 2…64, LOOG per GTX1080Ti-like sub-core over its N_cu grid with and without an RRS,
//! and DWF's per-core scheduler with the RF decoder overhead.
//!
//! `cargo run --release -p models --example issue_area -- 16nm finfet7`

use models::gpu::TechCostSource;
use models::issue::{
    baseline_cost, dwf_cost, loog_cost, socgpu_cost, BaselineIssue, DesignCost, DwfScheduler,
    LoogSlice, SocgpuIssue,
};

const UM2: f64 = 1e12;

fn structures(d: &DesignCost) {
    for s in d.added.iter() {
        println!(
            "    + {:<30} {:>9} b {:>12.2} um2 {:>11.3e} W  {}",
            s.name,
            s.bits,
            s.area_m2 * UM2,
            s.leakage_w,
            s.model
        );
    }
    for s in d.removed.iter() {
        println!(
            "    - {:<30} {:>9} b {:>12.2} um2 {:>11.3e} W  {}",
            s.name,
            s.bits,
            s.area_m2 * UM2,
            s.leakage_w,
            s.model
        );
    }
    for s in d.line_items.iter() {
        println!(
            "    ( {:<30} {:>9} b {:>12.2} um2 {:>11.3e} W  {} ) not in the delta",
            s.name,
            s.bits,
            s.area_m2 * UM2,
            s.leakage_w,
            s.model
        );
    }
}

fn main() {
    let mut nodes: Vec<String> = std::env::args().skip(1).collect();
    if nodes.is_empty() {
        nodes = vec!["16nm".into(), "finfet7".into()];
    }
    for node in &nodes {
        let src = match TechCostSource::new(&techlib::ResolvedPoint::named(node).unwrap(), None) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("node '{node}': {e}");
                std::process::exit(2);
            }
        };
        println!("== {} ({:.3} V)", src.label, src.vdd_v_value());
        let base = BaselineIssue::default();
        let b = baseline_cost(&base, &src).expect("baseline");
        println!(
            "baseline per warp: {:.2} um2, {:.3e} W",
            b.added_area_m2() * UM2,
            b.added_leakage_w()
        );
        structures(&b);
        println!("SOCGPU per warp (W = 64 warps/SM, S = 28 SMs):");
        println!(
            "  {:>3} {:>12} {:>12} {:>10} {:>12} {:>12} {:>12}",
            "N", "added um2", "delta um2", "delta b", "dA/SM mm2", "dA chip mm2", "dP chip W"
        );
        for n in [2, 4, 8, 16, 32, 64] {
            let s = SocgpuIssue {
                ib_depth: n,
                ..Default::default()
            };
            let c = socgpu_cost(&s, &base, &src).expect("socgpu");
            println!(
                "  {:>3} {:>12.2} {:>12.2} {:>10} {:>12.5} {:>12.4} {:>12.4}",
                n,
                c.added_area_m2() * UM2,
                c.delta_area_m2() * UM2,
                c.delta_bits(),
                c.delta_area_m2() * 64.0 * 1e6,
                c.delta_area_m2() * 64.0 * 28.0 * 1e6,
                c.delta_leakage_w() * 64.0 * 28.0
            );
            if n == 8 {
                structures(&c);
            }
        }
        let l0 = LoogSlice::gtx1080ti_subcore();
        println!(
            "LOOG per issue slice (W = {}, T = {}, D = {}, U = {}, A = {}; 4 slices/SM, 28 SMs):",
            l0.warps, l0.threads, l0.data_bits, l0.uuid_bits, l0.arch_regs
        );
        println!(
            "  {:>4} {:>5} {:>4} {:>10} {:>12} {:>12} {:>12}",
            "N_cu", "RRS", "WB", "delta b", "delta um2", "dA/SM mm2", "dA chip mm2"
        );
        for n_cu in [6, 8, 10, 12, 14, 16] {
            for rrs in [None, Some(2 * n_cu)] {
                let l = LoogSlice {
                    n_cu,
                    rrs,
                    n_wb: if n_cu > 12 { 2 } else { 1 },
                    ..l0
                };
                let c = loog_cost(&l, &src).expect("loog");
                println!(
                    "  {:>4} {:>5} {:>4} {:>10} {:>12.2} {:>12.5} {:>12.4}",
                    n_cu,
                    rrs.map_or("-".to_string(), |r| r.to_string()),
                    l.n_wb,
                    c.delta_bits(),
                    c.delta_area_m2() * UM2,
                    c.delta_area_m2() * 4.0 * 1e6,
                    c.delta_area_m2() * 4.0 * 28.0 * 1e6
                );
                if n_cu == 16 && rrs.is_none() {
                    structures(&c);
                }
            }
        }
        let d = DwfScheduler::default();
        match dwf_cost(&d, &src) {
            Ok(c) => {
                println!(
                    "DWF per core (control-flow §5.6 defaults; 16 cores): scheduler + RF decoders \
                     {:.2} um2, chip {:.4} mm2, {:.3e} W per core",
                    c.added_area_m2() * UM2,
                    c.added_area_m2() * 16.0 * 1e6,
                    c.added_leakage_w()
                );
                structures(&c);
            }
            Err(e) => println!("DWF: {e}"),
        }
    }
}
