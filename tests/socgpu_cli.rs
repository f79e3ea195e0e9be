//! `--technique socgpu` on the command line (issue-stage §2): `simulate` prints the SOCGPU
//! counters and keeps the workload's result, `techniques` lists it, and a bad
//! `sched.ooo.ib_depth` is refused with exit status 2 naming the key.

mod common;
use common::{ok, refused};

#[test]
fn simulate_prints_the_socgpu_counters() {
    let out = ok(&[
        "simulate",
        "--preset",
        "gtx1080ti",
        "--workload",
        "histo",
        "--technique",
        "socgpu",
        "--set",
        "sched.ooo.ib_depth=4",
        "--check",
        "-q",
    ]);
    assert!(out.contains("SOCGPU issue (IB depth 4)"), "{out}");
    assert!(
        out.contains("flushes") && out.contains("DM row writes"),
        "{out}"
    );
    assert!(out.contains("check: passed"), "{out}");
    let t = ok(&["techniques"]);
    assert!(
        t.contains("socgpu") && t.contains("sched.ooo.mode=socgpu"),
        "{t}"
    );
}

#[test]
fn a_zero_ib_depth_is_refused_naming_the_key() {
    let err = refused(&[
        "simulate",
        "--preset",
        "gtx1080ti",
        "--workload",
        "histo",
        "--technique",
        "socgpu",
        "--set",
        "sched.ooo.ib_depth=0",
    ]);
    assert!(
        err.contains("sched.ooo.ib_depth") && err.contains("1..=64"),
        "{err}"
    );
}
