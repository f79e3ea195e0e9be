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

#[test]
fn dwf_mimd_and_nrec_run_on_the_reference_model_and_keep_the_result() {
    for (tech, extra) in [
        ("dwf", "DWF formation: PC-warp LUT lookups"),
        ("mimd", "SIMD efficiency"),
        ("nrec", "SIMD efficiency"),
    ] {
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
        assert!(out.contains("reference-mode model"), "{tech}: {out}");
        assert!(out.contains("pdom in the same model"), "{tech}: {out}");
        assert!(out.contains(extra), "{tech}: {out}");
        assert!(out.contains("check: passed"), "{tech}: {out}");
    }
    let out = ok(&[
        "simulate",
        "--preset",
        "gf8800gtx_like",
        "--workload",
        "bfs",
        "--technique",
        "dwf",
        "--set",
        "dwf.policy=dpc",
        "--format",
        "json",
        "-q",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["mode"], "dwf");
    assert_eq!(v["dwf_policy"], "dpc");
    assert!(v["cycles"].as_u64().unwrap() > 0 && v["pdom_cycles"].as_u64().unwrap() > 0);
    assert!(v["formation"]["lut_lookups"].as_u64().unwrap() > 0, "{v}");
    let t = ok(&["techniques"]);
    for name in ["dwf", "mimd", "nrec"] {
        assert!(t.contains(&format!("reconv.mode={name}")), "{t}");
    }
}

#[test]
fn a_bad_dwf_policy_is_refused_naming_the_values() {
    let err = refused(&[
        "simulate",
        "--preset",
        "gf8800gtx_like",
        "--workload",
        "bfs",
        "--technique",
        "dwf",
        "--set",
        "dwf.policy=oldest",
    ]);
    assert!(err.contains("dwf.policy"), "{err}");
    for v in ["dmaj", "dtime", "dpc", "dmin", "dpdpri"] {
        assert!(err.contains(v), "{err}");
    }
    let err = refused(&["simulate", "--workload", "bfs", "--set", "reconv.mode=simt"]);
    assert!(err.contains("reconv.mode") && err.contains("mimd"), "{err}");
    // the analytical activity source has no thread regrouping
    let err = refused(&[
        "estimate",
        "--preset",
        "gf8800gtx_like",
        "--workload",
        "bfs",
        "--technique",
        "dwf",
        "--activity-source",
        "model",
    ]);
    assert!(err.contains("reconv.mode"), "{err}");
}

#[test]
fn dwf_on_a_trace_is_refused_naming_the_key() {
    let dir = std::env::temp_dir().join(format!("gpuenergy-dwf-cli-{}", std::process::id()));
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
    for tech in ["dwf", "mimd", "nrec"] {
        let err = refused(&[
            "simulate",
            "--trace",
            dir.to_str().unwrap(),
            "--technique",
            tech,
            "-q",
        ]);
        assert!(
            err.contains("'reconv.mode'") && err.contains("per-thread control flow"),
            "{tech}: {err}"
        );
    }
    // the reference-mode activity source runs PTX workloads only
    let err = refused(&[
        "simulate",
        "--trace",
        dir.to_str().unwrap(),
        "--activity-source",
        "reference",
        "-q",
    ]);
    assert!(
        err.contains("--activity-source reference") && err.contains("sim"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_runs_reference_modes_against_a_pdom_baseline() {
    let out = ok(&[
        "compare",
        "--preset",
        "gf8800gtx_like",
        "--workload",
        "bfs,nw",
        "--baseline",
        "pdom",
        "--technique",
        "dwf",
        "--technique",
        "mimd",
        "--format",
        "json",
        "-q",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for w in ["bfs", "nw"] {
        let r = &v["workloads"][w];
        let pdom = r["pdom"]["cycles"].as_u64().unwrap();
        let mimd = r["mimd"]["cycles"].as_u64().unwrap();
        let dwf = r["dwf"]["cycles"].as_u64().unwrap();
        assert_eq!(r["pdom"]["mode"], "pdom");
        assert!(mimd <= pdom && mimd <= dwf, "{w}: {r}");
    }
    assert!(v["geomean_speedup"]["dwf"].as_f64().unwrap() > 0.0, "{v}");
    for w in ["bfs", "nw"] {
        let r = &v["workloads"][w];
        assert!(r["pdom"].get("dwf_hardware").is_none(), "{w}: {r}");
        assert!(r["mimd"].get("dwf_hardware").is_none(), "{w}: {r}");
        let h = &r["dwf"]["dwf_hardware"];
        let f = |k: &str| h[k].as_f64().unwrap_or_else(|| panic!("{w}: {k} in {h}"));
        // the structures sum to the per-core area, the chip area is cores × the per-core area,
        // and the shares divide by the die and the core
        let st = h["structures"].as_array().unwrap();
        let names: Vec<&str> = st.iter().map(|x| x["name"].as_str().unwrap()).collect();
        for n in [
            "PC-warp LUT",
            "max-heap",
            "MHeap LUT",
            "RF decoder overhead",
        ] {
            assert!(names.contains(&n), "{w}: {n} missing from {names:?}");
        }
        let sum: f64 = st
            .iter()
            .map(|x| x["area_per_core_mm2"].as_f64().unwrap())
            .sum();
        assert!(
            (sum - f("area_per_core_mm2")).abs() <= 1e-12 * sum.max(1.0),
            "{h}"
        );
        assert!(f("area_per_core_mm2") > 0.0, "{h}");
        assert!(
            (f("area_chip_mm2") - 16.0 * f("area_per_core_mm2")).abs() < 1e-9,
            "{h}"
        );
        assert!(
            (f("die_share") - f("area_chip_mm2") / 470.0).abs() < 1e-12,
            "{h}"
        );
        assert!(f("core_share") > 0.0 && f("core_share") < 1.0, "{h}");
        // the run's counters switch the structures, and they leak over the run
        assert!(f("dynamic_j") > 0.0 && f("leakage_j") > 0.0, "{h}");
        assert!(f("pdom_stacks_per_core_mm2") > 0.0, "{h}");
    }
    // every run is costed: the baseline's change is 0, and a DWF run's energy includes its
    // structures
    for w in ["bfs", "nw"] {
        let r = &v["workloads"][w];
        assert_eq!(
            r["pdom"]["energy"]["energy_change"].as_f64(),
            Some(0.0),
            "{r}"
        );
        for run in ["dwf", "mimd"] {
            let e = &r[run]["energy"];
            let ej = e["energy_j"].as_f64().unwrap();
            let b = r["pdom"]["energy"]["energy_j"].as_f64().unwrap();
            assert!(ej > 0.0 && b > 0.0, "{w} {run}: {e}");
            let ch = e["energy_change"].as_f64().unwrap();
            assert!((ch - (ej / b - 1.0)).abs() < 1e-12, "{w} {run}: {e}");
        }
        let dwf_struct = r["dwf"]["dwf_hardware"]["dynamic_j"].as_f64().unwrap()
            + r["dwf"]["dwf_hardware"]["leakage_j"].as_f64().unwrap();
        assert!(
            r["dwf"]["energy"]["energy_j"].as_f64().unwrap() > dwf_struct,
            "{w}: {r}"
        );
        // the area the DWF run adds is the comparison's one area table's
        let da = r["dwf"]["area"]["added_area_mm2"].as_f64().unwrap();
        let hw = r["dwf"]["dwf_hardware"]["area_chip_mm2"].as_f64().unwrap();
        assert!(
            (da - hw).abs() < 1e-9 * hw.max(1.0),
            "{w}: area delta {da} vs {hw}"
        );
    }
    // a policy without the Majority hardware carries no heap
    let out = ok(&[
        "compare",
        "--preset",
        "gf8800gtx_like",
        "--workload",
        "nw",
        "--baseline",
        "pdom",
        "--technique",
        "dwf",
        "--set",
        "dwf.policy=dpc",
        "--format",
        "json",
        "-q",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let h = &v["workloads"]["nw"]["dwf"]["dwf_hardware"];
    let names: Vec<&str> = h["structures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert!(
        !names.contains(&"max-heap") && names.contains(&"warp pool PC bank"),
        "{h}"
    );
}

#[test]
fn estimate_runs_dwf_on_the_reference_model_with_its_structures_in_the_tree() {
    let est = |extra: &[&str]| {
        let mut a = vec![
            "estimate",
            "--preset",
            "gf8800gtx_like",
            "--tech",
            "90nm",
            "--workload",
            "nw",
            "-q",
        ];
        a.extend_from_slice(extra);
        ok(&a)
    };
    let out = est(&["--technique", "dwf"]);
    assert!(out.contains("reference-mode model"), "{out}");
    assert!(
        out.contains("DWF scheduler") && out.contains("max-heap"),
        "{out}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&est(&["--technique", "dwf", "--format", "json"])).unwrap();
    assert_eq!(v["activity_source"], "reference", "{v}");
    let w = &v["workloads"][0];
    let tree_has_dwf = w["estimate"]["root"].to_string().contains("DWF scheduler");
    assert!(tree_has_dwf, "{w}");
    assert!(w["dwf"]["area_per_core_mm2"].as_f64().unwrap() > 0.0, "{w}");
    // a PDOM estimate has no DWF structures
    let v: serde_json::Value = serde_json::from_str(&est(&["--format", "json"])).unwrap();
    assert_eq!(v["activity_source"], "sim", "{v}");
    assert!(v["workloads"][0].get("dwf").is_none());
}

#[test]
fn the_reference_model_refuses_mechanisms_it_does_not_run() {
    // --activity-source reference with power gating, an out-of-order issue stage or a
    // register-file technique would return the baseline's counts under the technique's name.
    for t in [
        "conv-pg",
        "loog",
        "socgpu",
        "tric",
        "partitioned-rf",
        "two-level",
    ] {
        let e = refused(&[
            "estimate",
            "--activity-source",
            "reference",
            "--technique",
            t,
            "--workload",
            "hotspot",
            "--size",
            "test",
            "--quiet",
        ]);
        assert!(e.contains("reference-mode model"), "{t}: {e}");
    }
    // A DWF combination with such a mechanism is refused where the configuration is built.
    let e = refused(&[
        "compare",
        "--technique",
        "dwf+gates",
        "--workload",
        "hotspot",
        "--size",
        "test",
        "-q",
    ]);
    assert!(
        e.contains("'pg.policy'") && e.contains("'sched.policy'"),
        "{e}"
    );
}
