//! `gpuenergy techniques` lists the Warped Register File techniques, `simulate` prints the
//! register-file section when TRIC or COMA is on (and not otherwise), and bad `[tric]`/`[coma]`
//! values are refused naming the key.

mod common;
use common::{ok, refused};

#[test]
fn techniques_list_tric_coma_and_warped_rf() {
    let t = ok(&["techniques"]);
    for name in ["tric", "coma", "warped-rf"] {
        assert!(t.contains(name), "{name} missing:\n{t}");
    }
    assert!(t.contains("tric.enabled=true coma.enabled=true"), "{t}");
}

#[test]
fn simulate_prints_the_register_file_section() {
    let out = ok(&[
        "simulate",
        "--workload",
        "hotspot",
        "--technique",
        "warped-rf+two-level",
        "--set",
        "tric.wake_latency=2",
        "--quiet",
    ]);
    assert!(out.contains("register file (all SMs):"), "{out}");
    assert!(
        out.contains("DROWSY") && out.contains("wake events"),
        "{out}"
    );
    assert!(out.contains("driven-lane fraction"), "{out}");
    let plain = ok(&["simulate", "--workload", "hotspot", "--quiet"]);
    assert!(!plain.contains("register file (all SMs):"), "{plain}");
}

#[test]
fn bad_register_file_knobs_are_refused_naming_the_key() {
    let e = refused(&[
        "simulate",
        "--workload",
        "hotspot",
        "--set",
        "tric.wake_latency=0",
        "--quiet",
    ]);
    assert!(e.contains("tric.wake_latency"), "{e}");
    let e = refused(&[
        "simulate",
        "--workload",
        "hotspot",
        "--set",
        "coma.lane_org=wide",
        "--quiet",
    ]);
    assert!(e.contains("coma.lane_org"), "{e}");
    let e = refused(&[
        "simulate",
        "--workload",
        "hotspot",
        "--set",
        "tric.lookahead=99",
        "--quiet",
    ]);
    assert!(e.contains("tric.lookahead"), "{e}");
}
