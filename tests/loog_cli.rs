//! `--technique loog` on the command line (issue-stage §3): `simulate` prints the LOOG counters
//! and keeps the workload's result, `estimate` and `compare` take it, `techniques` lists it,
//! and bad LOOG knobs are refused with exit status 2 naming the key.

mod common;
use common::{ok, refused};

#[test]
fn simulate_prints_the_loog_counters() {
    let out = ok(&[
        "simulate",
        "--preset",
        "gtx1080ti",
        "--workload",
        "histo",
        "--technique",
        "loog",
        "--set",
        "sched.ooo.loog_n_cu=8",
        "--check",
        "-q",
    ]);
    assert!(out.contains("LOOG issue (8 CUs per slice"), "{out}");
    assert!(
        out.contains("RAT reads") && out.contains("skipped by WAW elimination"),
        "{out}"
    );
    assert!(out.contains("check: passed"), "{out}");
    let t = ok(&["techniques"]);
    assert!(
        t.contains("loog") && t.contains("sched.ooo.mode=loog"),
        "{t}"
    );
}

#[test]
fn estimate_and_compare_take_loog() {
    let e = ok(&[
        "estimate",
        "--preset",
        "gtx1080ti",
        "--workload",
        "histo",
        "--technique",
        "loog",
        "-q",
    ]);
    assert!(!e.is_empty());
    let c = ok(&[
        "compare",
        "--preset",
        "gtx1080ti",
        "--workload",
        "histo",
        "--technique",
        "loog",
        "--format",
        "json",
    ]);
    assert!(c.contains("loog"), "{c}");
}

#[test]
fn bad_loog_knobs_are_refused_naming_the_key() {
    for (set, key) in [
        ("sched.ooo.loog_n_cu=65", "sched.ooo.loog_n_cu"),
        (
            "sched.ooo.loog_rf_read_ports=9",
            "sched.ooo.loog_rf_read_ports",
        ),
        ("sched.ooo.loog_rrs_factor=0.5", "sched.ooo.loog_rrs_factor"),
    ] {
        let err = refused(&[
            "simulate",
            "--preset",
            "gtx1080ti",
            "--workload",
            "histo",
            "--technique",
            "loog",
            "--set",
            set,
        ]);
        assert!(err.contains(key), "{set}: {err}");
    }
}
