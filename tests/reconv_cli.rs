//! Reconvergence on the command line (control-flow spec §3, §5.8, §6): the `pdom` techniques
//! print the stack and SIMD-efficiency counters and keep the workload's result, the
//! `gf8800gtx_like` preset runs, a trace run reports that its stack is not replayed, and bad
//! `[reconv]` values are refused with exit status 2 naming the key.

mod common;
use common::{gpuenergy, ok, refused};

#[test]
fn pdom_techniques_print_the_counters_and_keep_the_result() {
    for tech in ["pdom", "pdom-flush", "pdom-wb"] {
        let out = ok(&[
            "simulate",
            "--preset",
            "gf8800gtx_like",
            "--workload",
            "bfs",
            "--technique",
            tech,
            "--check",
            "-q",
        ]);
        assert!(out.contains("Reconvergence stack: pushes"), "{tech}: {out}");
        assert!(out.contains("divergent branches"), "{tech}: {out}");
        assert!(
            out.contains("SIMD efficiency (issue slots): W0.Mem"),
            "{tech}: {out}"
        );
        assert!(out.contains("W29-32"), "{tech}: {out}");
        assert!(out.contains("check: passed"), "{tech}: {out}");
    }
    let t = ok(&["techniques"]);
    assert!(
        t.contains("pdom-flush") && t.contains("reconv.issue_flush=true"),
        "{t}"
    );
}

#[test]
fn simulate_json_carries_the_reconvergence_record() {
    let out = ok(&[
        "simulate",
        "--workload",
        "bfs",
        "--technique",
        "pdom",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = &v["reconvergence"];
    assert_eq!(r["stack_from_front_end"], true, "{v}");
    assert!(
        r["stack"]["divergent_branches"].as_u64().unwrap() > 0,
        "{v}"
    );
    assert_eq!(r["issued_lanes"].as_array().unwrap().len(), 9);
}

#[test]
fn a_trace_run_does_not_replay_the_stack() {
    let dir = std::env::temp_dir().join(format!("gpuenergy-reconv-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = gpuenergy(&[
        "trace",
        "--workload",
        "histo",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = ok(&[
        "simulate",
        "--trace",
        dir.to_str().unwrap(),
        "--technique",
        "pdom-flush",
        "-q",
    ]);
    assert!(s.contains("Reconvergence stack: not replayed"), "{s}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_reconv_values_are_refused_naming_the_key() {
    let err = refused(&[
        "simulate",
        "--workload",
        "bfs",
        "--set",
        "reconv.max_depth=1",
    ]);
    assert!(err.contains("reconv.max_depth"), "{err}");
    let err = refused(&[
        "simulate",
        "--workload",
        "bfs",
        "--set",
        "reconv.issue_flush=true",
    ]);
    assert!(
        err.contains("reconv.issue_flush") && err.contains("stack_update_at"),
        "{err}"
    );
    let err = refused(&[
        "simulate",
        "--workload",
        "bfs",
        "--set",
        "reconv.stack_update_at=decode",
    ]);
    assert!(
        err.contains("stack_update_at") || err.contains("decode"),
        "{err}"
    );
    let err = refused(&[
        "simulate",
        "--workload",
        "bfs",
        "--set",
        "reconv.call_entries=false",
    ]);
    assert!(err.contains("reconv.call_entries"), "{err}");
    let err = refused(&[
        "simulate",
        "--workload",
        "bfs",
        "--set",
        "dwf.pc_lut_ways=3",
    ]);
    assert!(err.contains("dwf.pc_lut_ways"), "{err}");
}
