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

#[test]
fn derived_wake_latency_is_filled_and_printed() {
    let out = common::gpuenergy(&[
        "simulate",
        "--workload",
        "hotspot",
        "--technique",
        "tric",
        "--set",
        "tric.wake_latency_mode=derived",
        "--tech",
        "40nm",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("tric.wake_latency derived: L = "), "{err}");
    assert!(stdout.contains(" derived): "), "{stdout}");
    // a drowsy supply at or above the supply is refused naming the knob
    let e = refused(&[
        "simulate",
        "--workload",
        "hotspot",
        "--technique",
        "tric",
        "--set",
        "tric.wake_latency_mode=derived",
        "--set",
        "tric.drowsy_margin_mv=2000",
        "--tech",
        "40nm",
        "--quiet",
    ]);
    assert!(e.contains("tric.drowsy_margin_mv"), "{e}");
    // the look-ahead line of the register-file section
    let out = ok(&[
        "simulate",
        "--workload",
        "hotspot",
        "--technique",
        "tric",
        "--set",
        "tric.lookahead=2",
        "--quiet",
    ]);
    assert!(out.contains("look-ahead k = 2:"), "{out}");
}
