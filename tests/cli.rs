//! End-to-end tests of the `gpuenergy` command line: the main job, machine-readable output,
//! and bad input (a message naming the problem, exit status 2, no panic).

mod common;
use common::gpuenergy;

fn json(args: &[&str]) -> serde_json::Value {
    let out = gpuenergy(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn fails_with(args: &[&str], needle: &str) {
    let out = gpuenergy(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected '{needle}' in: {err}"
    );
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
}

#[test]
fn estimate_one_workload_json_is_consistent() {
    let v = json(&[
        "estimate",
        "--tech",
        "finfet7",
        "--workload",
        "hotspot",
        "--format",
        "json",
    ]);
    let w = &v["workloads"][0];
    assert_eq!(w["workload"], "hotspot");
    let energy = w["energy_j"].as_f64().unwrap();
    let dynamic = w["dynamic_j"].as_f64().unwrap();
    let leakage = w["leakage_j"].as_f64().unwrap();
    let runtime = w["runtime_s"].as_f64().unwrap();
    assert!(energy > 0.0 && dynamic > 0.0 && leakage > 0.0 && runtime > 0.0);
    assert!((energy - dynamic - leakage).abs() <= 1e-9 * energy);
    let power = w["average_power_w"].as_f64().unwrap();
    assert!((power - energy / runtime).abs() <= 1e-9 * power);
    assert!(v["area_m2"].as_f64().unwrap() > 0.0);
}

#[test]
fn estimate_static_and_ntv() {
    let stv = json(&[
        "estimate", "--tech", "finfet7", "--static", "--format", "json",
    ]);
    let ntv = json(&[
        "estimate", "--tech", "finfet7", "--op", "ntv", "--static", "--format", "json",
    ]);
    assert_eq!(stv["vdd_v"].as_f64().unwrap(), 0.45);
    assert_eq!(ntv["vdd_v"].as_f64().unwrap(), 0.30);
    assert!(ntv["leakage_w"].as_f64().unwrap() < stv["leakage_w"].as_f64().unwrap());
}

#[test]
fn saved_activity_costs_like_a_simulation() {
    let dir = std::env::temp_dir().join(format!("gpuenergy-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let act = dir.join("act.json");
    let out = gpuenergy(&[
        "simulate",
        "--workload",
        "srad",
        "--out",
        act.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let a = json(&[
        "estimate",
        "--tech",
        "planar45",
        "--activity",
        act.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let b = json(&[
        "estimate",
        "--tech",
        "planar45",
        "--workload",
        "srad",
        "--format",
        "json",
    ]);
    let ea = a["workloads"][0]["energy_j"].as_f64().unwrap();
    let eb = b["workloads"][0]["energy_j"].as_f64().unwrap();
    assert_eq!(
        ea, eb,
        "costing the saved Activity must equal costing the simulation"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_reported_with_exit_status_2() {
    fails_with(&["estimate", "--tech", "planar3", "--static"], "planar3");
    fails_with(
        &["estimate", "--tech", "finfet7", "--op", "xtv", "--static"],
        "xtv",
    );
    fails_with(&["estimate", "--workload", "nosuch"], "nosuch");
    fails_with(&["estimate", "--temperature=-4", "--static"], "temperature");
    fails_with(
        &["estimate", "--activity", "/nonexistent/act.json"],
        "act.json",
    );
    fails_with(
        &["sram", "--tech", "planar45", "--size", "0", "--block", "8"],
        "capacity",
    );
    fails_with(
        &[
            "sram", "--tech", "planar45", "--size", "1KiB", "--block", "2KiB",
        ],
        "block",
    );
    fails_with(
        &["sram", "--tech", "nonode", "--size", "1KiB", "--block", "8"],
        "nonode",
    );
    // Banks that do not hold a whole number of blocks.
    for (size, block, banks) in [
        ("64KiB", "64", "3"),
        ("1KiB", "8", "5"),
        ("96KiB", "128", "7"),
    ] {
        fails_with(
            &[
                "sram", "--tech", "planar45", "--size", size, "--block", block, "--banks", banks,
            ],
            "not a whole number",
        );
    }
    fails_with(&["run", "--workload", "nosuch"], "nosuch");
    fails_with(
        &["simulate", "--preset", "gtx9999", "--workload", "srad"],
        "gtx9999",
    );
}

#[test]
fn bad_csv_row_names_the_line() {
    let dir = std::env::temp_dir().join(format!("gpuenergy-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("rows.csv");
    std::fs::write(
        &f,
        "tech_um,size_bytes,block_bytes,rw_ports,read_ports,write_ports,banks,cell_type\n\
         0.045,65536,64,1,0,0,1,itrs-hp\n\
         0.045,abc,64,1,0,0,1,itrs-hp\n",
    )
    .unwrap();
    fails_with(&["sram", "--batch", f.to_str().unwrap()], "3");
    std::fs::write(
        &f,
        "tech_um,size_bytes,block_bytes,rw_ports,read_ports,write_ports,banks,cell_type\n\
         0.045,65536,64,1,0,0,3,itrs-hp\n",
    )
    .unwrap();
    fails_with(&["sram", "--batch", f.to_str().unwrap()], "line 2, columns");
    // A good batch written with --out carries the run metadata's CSV columns on every row.
    std::fs::write(
        &f,
        "tech_um,size_bytes,block_bytes,rw_ports,read_ports,write_ports,banks,cell_type\n\
         0.045,16384,64,1,0,0,1,itrs-hp\n",
    )
    .unwrap();
    let out = dir.join("out.csv");
    let o = gpuenergy(&[
        "sram",
        "--batch",
        f.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let mut rows = csv::Reader::from_reader(text.as_bytes());
    let head = rows.headers().unwrap().clone();
    let version = head
        .iter()
        .position(|h| h == "version")
        .expect("version column");
    assert!(head.iter().any(|h| h == "config_hash"), "{text}");
    for r in rows.records() {
        assert_eq!(&r.unwrap()[version], env!("CARGO_PKG_VERSION"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn listings_are_machine_readable() {
    // Each listing carries the run metadata: the JSON `run` object, the table's first line.
    let t = json(&["techs", "--format", "json"]);
    assert!(t["nodes"].to_string().contains("finfet7"));
    assert_eq!(t["run"]["tool"], "gpuenergy");
    let p = json(&["presets", "--format", "json"]);
    assert!(p["presets"].to_string().contains("gtx480"));
    assert_eq!(p["run"]["tool"], "gpuenergy");
    for cmd in ["techs", "presets"] {
        let out = gpuenergy(&[cmd]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with("gpuenergy "), "{cmd}: {text}");
    }
    let w = json(&["workloads", "--format", "json"]);
    let arr = w.as_array().unwrap();
    assert!(arr.len() >= 18);
    for x in arr {
        assert!(x["name"].is_string() && x["suite"].is_string() && x["character"].is_string());
    }
}

#[test]
fn trace_then_simulate_the_trace() {
    let dir = std::env::temp_dir().join(format!("gpuenergy-trace-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = gpuenergy(&[
        "trace",
        "--workload",
        "histo",
        "--out",
        dir.to_str().unwrap(),
        "--check",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.join("kernelslist.g").exists());
    let v = json(&[
        "simulate",
        "--trace",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(v["cycles"].as_u64().unwrap() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn estimate_json_names_the_source_of_every_node() {
    let v = json(&[
        "estimate", "--tech", "planar45", "--static", "--format", "json",
    ]);
    fn walk(n: &serde_json::Value, kinds: &mut Vec<String>) {
        let kind = n["source"]["kind"].as_str();
        assert!(kind.is_some(), "node without source: {}", n["name"]);
        kinds.push(kind.unwrap_or_default().to_string());
        for c in n["children"].as_array().into_iter().flatten() {
            walk(c, kinds);
        }
    }
    let mut kinds = Vec::new();
    walk(&v["area"], &mut kinds);
    for k in ["analytical", "sram_model", "published", "wire", "mixed"] {
        assert!(kinds.iter().any(|x| x == k), "no {k} node in {kinds:?}");
    }
}

#[test]
fn formats_outside_a_commands_set_are_refused_with_the_allowed_ones() {
    fails_with(&["presets", "--format", "csv"], "table, json");
    fails_with(
        &["estimate", "--static", "--format", "xml"],
        "table, json, csv",
    );
    fails_with(
        &["component", "--kind", "alu32", "--format", "csv"],
        "table, json",
    );
}

/// The estimate knobs of idle SMs, the design supply and the breakdown check: bad values are
/// clear errors with exit 2; good ones run and report what they changed.
#[test]
fn estimate_idle_sms_design_vdd_and_breakdown_check() {
    fails_with(
        &[
            "estimate",
            "--tech",
            "40nm",
            "--static",
            "--design-vdd",
            "0",
        ],
        "--design-vdd must be a positive voltage",
    );
    fails_with(
        &[
            "estimate",
            "--tech",
            "40nm",
            "--static",
            "--design-vdd",
            "x",
        ],
        "--design-vdd",
    );
    fails_with(
        &[
            "estimate",
            "--tech",
            "40nm",
            "--static",
            "--idle-sms",
            "off",
        ],
        "gated",
    );
    fails_with(
        &[
            "sram", "--tech", "40nm", "--size", "128KiB", "--block", "128", "--lanes", "3",
        ],
        "lanes must divide the block",
    );
    fails_with(
        &[
            "sram",
            "--tech",
            "40nm",
            "--size",
            "128KiB",
            "--block",
            "128",
            "--design-vdd",
            "9",
        ],
        "design_vdd_v = 9 is out of the supported range",
    );
    let v = json(&[
        "estimate",
        "--tech",
        "40nm",
        "--workload",
        "histo",
        "--format",
        "json",
    ]);
    let u = &v["workloads"][0]["estimate"]["sm_use"];
    assert_eq!(u["sms"], 15);
    assert!(u["busy_sms"].as_u64().unwrap() >= 1);
    assert_eq!(u["idle_sms"], "gated");
    let out = gpuenergy(&[
        "estimate",
        "--tech",
        "40nm",
        "--workload",
        "histo",
        "--breakdown-check",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("breakdown check") && text.contains("register file"),
        "{text}"
    );
    // The sources whose shares could be read print theirs next to ours, with the scope.
    assert!(
        text.contains("gebhart_rfc")
            && text.contains("shares of chip power")
            && text.contains("shares of core area")
            && text.contains("(register file/register file)"),
        "{text}"
    );
}

#[test]
fn component_and_synth_lists_show_parameters() {
    let out = gpuenergy(&["component", "--kind", "list"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("crossbar") && text.contains("N=4 WIDTH=32"),
        "{text}"
    );
    assert!(
        text.contains("fadd32") && text.contains("(no size parameters)"),
        "{text}"
    );
    // no liberty directory is needed to list
    let out = gpuenergy(&["synth", "--component", "list"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("WIDTH=32 (sweep "), "{text}");
    // but synthesis needs one
    fails_with(
        &["synth", "--component", "alu32"],
        "--liberty-dir is required",
    );
}

/// Every command that takes a technology point defaults to the same junction temperature
/// (`study::DEFAULT_TEMPERATURE_K`, 350 K): `sram` at a FinFET node, `breakeven` and
/// `estimate` give with no `--temperature` what they give with `--temperature 350`, and not
/// what they give at 300 K.
#[test]
fn every_command_defaults_to_one_temperature() {
    let sram = [
        "sram", "--tech", "finfet7", "--size", "32KiB", "--block", "128",
    ];
    let with = |base: &[&str], t: Option<&str>| {
        let mut a: Vec<&str> = base.to_vec();
        if let Some(t) = t {
            a.extend(["--temperature", t]);
        }
        a.extend(["--format", "json"]);
        let mut v = json(&a);
        // the command line itself differs; everything it produced must not
        if let Some(run) = v.get_mut("run").and_then(|r| r.as_object_mut()) {
            run.remove("command_line");
        }
        v
    };
    for base in [
        &sram[..],
        &["breakeven", "--tech", "40nm"][..],
        &["estimate", "--tech", "finfet7", "--static"][..],
    ] {
        let d = with(base, None);
        assert_eq!(d, with(base, Some("350")), "{base:?}");
        assert_ne!(d, with(base, Some("300")), "{base:?}");
    }
    // the former spelling of breakeven's flag still works
    // the command line in `run` differs; the answer must not
    let answer = |a: &[&str]| {
        let mut v = json(a);
        v["run"]["command_line"] = serde_json::Value::Null;
        v
    };
    assert_eq!(
        answer(&[
            "breakeven",
            "--tech",
            "40nm",
            "--temp-k",
            "300",
            "--format",
            "json"
        ]),
        answer(&[
            "breakeven",
            "--tech",
            "40nm",
            "--temperature",
            "300",
            "--format",
            "json"
        ])
    );
}

#[test]
fn negative_values_reach_their_checks_without_an_equals_sign() {
    // a negative number is the option's value, refused by the option's own check (exit 2),
    // not taken for an unknown flag
    for args in [
        &["breakeven", "--temperature", "-20"][..],
        &[
            "sram",
            "--tech",
            "planar45",
            "--size",
            "64KiB",
            "--temperature",
            "-20",
        ][..],
        &["estimate", "--static", "--vdd", "-0.5"][..],
        &["optimize", "--area-budget", "-2%", "--workload", "hotspot"][..],
    ] {
        let out = gpuenergy(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}

#[test]
fn a_missing_file_is_reported_once() {
    let out = gpuenergy(&["estimate", "--config", "/nonexistent/gpu.toml"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("/nonexistent/gpu.toml"), "{err}");
    assert_eq!(err.matches("os error 2").count(), 1, "{err}");
}

/// The shared option group: `--scheduler` on every command with a GPU configuration is the
/// `sched.policy` override (the same numbers as `--set`, named in the provenance), an unknown
/// name exits 2 listing the known ones; `component` takes `--device` and `--op` as `estimate`
/// does, and still accepts `--flavour`.
#[test]
fn scheduler_device_and_op_are_one_option_group() {
    let by_flag = json(&[
        "estimate",
        "--workload",
        "hotspot",
        "--scheduler",
        "gto",
        "--format",
        "json",
    ]);
    let by_set = json(&[
        "estimate",
        "--workload",
        "hotspot",
        "--set",
        "sched.policy=gto",
        "--format",
        "json",
    ]);
    assert_eq!(by_flag["workloads"], by_set["workloads"]);
    assert_eq!(by_flag["run"]["config_hash"], by_set["run"]["config_hash"]);
    assert_eq!(
        by_flag["run"]["overrides"],
        serde_json::json!(["sched.policy=gto"])
    );
    let lrr = json(&[
        "estimate",
        "--workload",
        "hotspot",
        "--scheduler",
        "lrr",
        "--format",
        "json",
    ]);
    assert_ne!(lrr["run"]["config_hash"], by_flag["run"]["config_hash"]);
    fails_with(
        &["estimate", "--workload", "hotspot", "--scheduler", "fifo"],
        "unknown scheduler 'fifo'",
    );
    // compare takes it too, for the baseline and every variant alike
    let cmp = |sched: &[&str]| {
        let mut a = vec!["compare", "--technique", "tric", "--workload", "hotspot"];
        a.extend_from_slice(sched);
        a.extend_from_slice(&["--format", "json"]);
        json(&a)
    };
    let (tl_flag, tl_set) = (
        cmp(&["--scheduler", "two-level"]),
        cmp(&["--set", "sched.policy=two-level"]),
    );
    assert_eq!(tl_flag["records"], tl_set["records"]);
    assert_eq!(
        tl_flag["run"]["overrides"],
        serde_json::json!(["sched.policy=two-level"])
    );
    assert_ne!(tl_flag["records"], cmp(&[])["records"]);
    fails_with(
        &["compare", "--technique", "tric", "--scheduler", "fifo"],
        "unknown scheduler 'fifo'",
    );
    let dev = json(&[
        "component",
        "--kind",
        "alu32",
        "--tech",
        "finfet7",
        "--device",
        "lvt",
        "--op",
        "ntv",
        "--format",
        "json",
    ]);
    let fl = json(&[
        "component",
        "--kind",
        "alu32",
        "--tech",
        "finfet7",
        "--flavour",
        "lvt",
        "--vdd",
        "0.30",
        "--format",
        "json",
    ]);
    // the same device and supply: everything but the command line agrees
    let without_command = |mut v: serde_json::Value| {
        v["run"]["command_line"] = serde_json::Value::Null;
        v
    };
    assert_eq!(without_command(dev.clone()), without_command(fl));
    let stv = json(&[
        "component",
        "--kind",
        "alu32",
        "--tech",
        "finfet7",
        "--device",
        "lvt",
        "--format",
        "json",
    ]);
    assert_ne!(dev, stv);
}

/// `component --explain` derives the analytical leakage from the device data: the block's
/// leakage in the derivation is the one the component reports, and each step is in the JSON.
#[test]
fn component_explain_derives_the_reported_leakage() {
    for tech in ["finfet7", "asap7", "planar45"] {
        let v = json(&[
            "component",
            "--kind",
            "crossbar",
            "--tech",
            tech,
            "--explain",
            "--format",
            "json",
        ]);
        let d = &v["leakage_derivation"];
        let uw = d["leakage_uw"].as_f64().unwrap();
        let reported = v["leakage_uw"].as_f64().unwrap();
        assert!(
            (uw / reported - 1.0).abs() < 1e-9,
            "{tech}: {uw} vs {reported}"
        );
        let ge = d["leakage_per_ge_nw"].as_f64().unwrap() * d["gate_equivalents"].as_f64().unwrap();
        assert!((ge * 1e-3 / reported - 1.0).abs() < 1e-9);
        assert_eq!(d["i_off_from_law"].as_bool().unwrap(), tech != "planar45");
        if tech == "planar45" {
            // the off-current is tabulated there: no law terms
            assert!(d["vth_eff_v"].is_null() && d["decades_below_threshold"].is_null());
            continue;
        }
        let vth_eff = d["vth_v"].as_f64().unwrap()
            - d["dibl_mv_per_v"].as_f64().unwrap() * 1e-3 * d["vdd_v"].as_f64().unwrap();
        assert!((vth_eff - d["vth_eff_v"].as_f64().unwrap()).abs() < 1e-12);
    }
    let plain = json(&["component", "--kind", "crossbar", "--format", "json"]);
    assert!(plain["leakage_derivation"].is_null());
    let table = gpuenergy(&[
        "component",
        "--kind",
        "crossbar",
        "--tech",
        "finfet7",
        "--explain",
    ]);
    let text = String::from_utf8_lossy(&table.stdout);
    for step in [
        "threshold",
        "swing",
        "off state",
        "threshold current",
        "off current",
        "per gate",
        "block",
    ] {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(step)),
            "{step}:\n{text}"
        );
    }
}

/// Commands that run one workload say so when given a list, instead of calling the list an
/// unknown workload.
#[test]
fn one_workload_commands_refuse_a_list_by_saying_so() {
    for w in ["cutcp,histo", "all"] {
        fails_with(&["simulate", "--workload", w], "runs one workload");
    }
}

/// The files commands write carry the run metadata as every other output does: the node file
/// `calibrate --write-node` rewrites opens with the run header (one, however often it is
/// rewritten) and keeps its content. (`synth`'s `record.json` carries the `run` object:
/// `report::synth` unit test, and the synthesis test of `tests/progress.rs` where the tools
/// are installed.)
#[test]
fn written_files_carry_the_run_metadata() {
    let lib = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/asap7");
    if !lib.is_dir() {
        eprintln!("skipped: {} not present", lib.display());
        return;
    }
    let dir = std::env::temp_dir().join(format!("gpuenergy-node-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let node = dir.join("asap7.toml");
    let original = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("techlib/data/asap7.toml"),
    )
    .unwrap();
    std::fs::write(&node, &original).unwrap();
    for _ in 0..2 {
        let o = gpuenergy(&[
            "calibrate",
            "--liberty-dir",
            lib.to_str().unwrap(),
            "--tech",
            "asap7",
            "--write-node",
            node.to_str().unwrap(),
            "-q",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let text = std::fs::read_to_string(&node).unwrap();
    let head: Vec<&str> = text.lines().take(3).collect();
    assert!(
        head[0].starts_with(&format!(
            "# Written by gpuenergy {} calibrate:",
            env!("CARGO_PKG_VERSION")
        )),
        "{text}"
    );
    assert!(
        head[1].starts_with("# Command: gpuenergy calibrate "),
        "{head:?}"
    );
    assert!(head[2].starts_with("# Run: gpuenergy ") && head[2].contains("asap7"));
    assert_eq!(text.matches("# Written by gpuenergy").count(), 1, "{text}");
    // the rest is the node file, the fitted lines aside
    assert_eq!(text.lines().count() - 3, original.lines().count(), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
