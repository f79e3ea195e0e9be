//! Every node the technology library resolves builds an SRAM technology: interpolated planar
//! sizes (`40nm`, `28nm`, CACTI's `0.065`), the extrapolated `planar16`, `finfet7` and `asap7`.
//! Interpolated nodes lie between their tabulated neighbours in area, read energy and leakage
//! (compared at one organisation: the one the search picks at the interpolated node, since the
//! search may legitimately pick a different one at a neighbour).

use models::sram::{
    calib, evaluate, evaluate_one, sram_tech, BackGate, Flavour, SramSpec, TechRequest,
};

fn req(node: &str, flavour: Flavour) -> TechRequest {
    let f = format!("{flavour:?}").to_ascii_lowercase();
    let point = techlib::ResolvedPoint::resolve(node, Some(&f), None, None, Some(350.0)).unwrap();
    TechRequest {
        point,
        back_gate: BackGate::Vdd,
    }
}

const ARRAYS: [(u64, u64); 3] = [(16 << 10, 32), (64 << 10, 64), (1 << 20, 64)];

/// (area m², read energy J, leakage W) of the [`ARRAYS`] at `node`, each at the organisation
/// the search picks at `org_node`.
fn costs(node: &str, org_node: &str, flavour: Flavour) -> Vec<(u64, [f64; 3])> {
    let tech = sram_tech(&req(node, flavour)).unwrap_or_else(|e| panic!("{node}: {e}"));
    let org_tech = sram_tech(&req(org_node, flavour)).expect("org node");
    ARRAYS
        .iter()
        .map(|&(cap, blk)| {
            let spec = SramSpec::new(cap, blk);
            let org = evaluate(&spec, &org_tech).expect("search").organisation;
            let r = evaluate_one(&spec, &tech, &calib::planar(), &org)
                .unwrap_or_else(|e| panic!("{node} {cap} B: {e}"));
            (cap, [r.area_m2, r.read_energy_j, r.leakage_w])
        })
        .collect()
}

#[test]
fn interpolated_nodes_lie_between_their_neighbours() {
    for (mid, lo, hi) in [
        ("40nm", "32nm", "45nm"),
        ("28nm", "22nm", "32nm"),
        ("0.055", "0.045", "0.065"),
    ] {
        for flavour in [Flavour::Hp, Flavour::Lstp, Flavour::Lop] {
            let m = costs(mid, mid, flavour);
            let a = costs(lo, mid, flavour);
            let b = costs(hi, mid, flavour);
            for i in 0..m.len() {
                for (k, what) in ["area", "read energy", "leakage"].iter().enumerate() {
                    let (x, y, z) = (m[i].1[k], a[i].1[k], b[i].1[k]);
                    let (min, max) = (y.min(z), y.max(z));
                    println!(
                        "{mid} {flavour:?} {} B {what}: {x:.4e} (neighbours {y:.4e}, {z:.4e})",
                        m[i].0
                    );
                    assert!(
                        x.is_finite() && x > 0.0 && x >= min && x <= max,
                        "{mid} {flavour:?} {} B {what} {x:e} not within [{min:e}, {max:e}]",
                        m[i].0
                    );
                }
            }
        }
    }
}

#[test]
fn every_library_node_builds() {
    for (node, flavour) in [
        ("planar90", Flavour::Hp),
        ("0.065", Flavour::Lop),
        ("40nm", Flavour::Hp),
        ("28nm", Flavour::Lstp),
        ("planar16", Flavour::Hp),
        ("finfet7", Flavour::Lvt),
        ("7nm", Flavour::Rvt),
        ("asap7", Flavour::Rvt),
        ("asap7", Flavour::Slvt),
    ] {
        let tech = sram_tech(&req(node, flavour)).unwrap_or_else(|e| panic!("{node}: {e}"));
        let r = evaluate(&SramSpec::new(32 << 10, 64), &tech).expect("model");
        assert!(r.area_m2 > 0.0 && r.read_energy_j > 0.0 && r.leakage_w > 0.0);
        assert!(r.access_time_s > 0.0 && r.access_time_s < 1e-6);
    }
    assert_eq!(
        techlib::ResolvedPoint::named("45nm").unwrap().node_name(),
        "planar45"
    );
    assert_eq!(
        techlib::ResolvedPoint::named("0.045").unwrap().node_name(),
        "planar45"
    );
    assert_eq!(
        techlib::ResolvedPoint::named("7nm").unwrap().node_name(),
        "finfet7"
    );
    assert!(techlib::ResolvedPoint::named("3nm").is_err());
    assert!(techlib::ResolvedPoint::named("planar40").is_err());
}
