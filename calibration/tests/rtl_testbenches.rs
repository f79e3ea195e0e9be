//! Every calibration component's testbench passes in iverilog, its stimulus
//! mode writes a VCD, and yosys synthesises it generically.
//!
//! When iverilog, vvp or yosys are not on `PATH` at build time these tests are ignored (the
//! crate's build script decides); with `CI` set they run, and a missing tool fails them.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use calibration::rtl::{self, sim, ComponentSpec, Params};

fn tools_present(tools: &[&str]) -> bool {
    let missing: Vec<&str> = tools
        .iter()
        .copied()
        .filter(|t| !sim::tool_available(t))
        .collect();
    assert!(
        missing.is_empty(),
        "{} not installed (with CI set, or since the build found them: `touch calibration/build.rs` \
         after installing or removing a tool)",
        missing.join(", ")
    );
    true
}

fn workdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpuenergy-rtl-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn params(pairs: &[(&str, u32)]) -> Params {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// Run `jobs` on two worker threads; returns the failures (job label and
/// message) in job order.
fn run_parallel<J: Sync, F>(jobs: &[J], f: F) -> Vec<String>
where
    F: Fn(&J) -> Result<String, String> + Sync,
{
    let next = Mutex::new(0usize);
    let results: Mutex<BTreeMap<usize, Result<String, String>>> = Mutex::new(BTreeMap::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    let i = *n;
                    *n += 1;
                    i
                };
                if i >= jobs.len() {
                    break;
                }
                let r = f(&jobs[i]);
                results.lock().unwrap().insert(i, r);
            });
        }
    });
    let mut failures = Vec::new();
    for (_, r) in results.into_inner().unwrap() {
        match r {
            Ok(line) => println!("{line}"),
            Err(e) => failures.push(e),
        }
    }
    failures
}

/// Extra (non-default) sizes checked for each component, to exercise the
/// parameterisation.
fn extra_sizes(name: &str) -> Vec<Params> {
    match name {
        "alu32" => vec![params(&[("WIDTH", 16)])],
        "imul32" => vec![params(&[("WIDTH", 16)])],
        "sfu_lane" => vec![params(&[("TBITS", 6)])],
        "flop_array" | "latch_array" => {
            vec![params(&[
                ("ENTRIES", 8),
                ("WIDTH", 16),
                ("RPORTS", 3),
                ("WPORTS", 2),
            ])]
        }
        "cam" => vec![params(&[("ENTRIES", 64), ("WIDTH", 12)])],
        "crossbar" => vec![params(&[("N", 3), ("WIDTH", 8)])],
        "arb_rr" => vec![params(&[("N", 5)])],
        "arb_fixed" => vec![params(&[("N", 13)])],
        "dep_matrix" => vec![params(&[("N", 4)])],
        "scoreboard" => vec![params(&[("NREGS", 32), ("NSRC", 5), ("RCW", 1)])],
        "pg_controller" => vec![params(&[("BET", 3), ("WAKE", 1)])],
        "swap_cam" => vec![params(&[("N", 1)])],
        "pilot_counters" => vec![params(&[("NREGS", 5), ("WIDTH", 3)])],
        "epoch_counter" => vec![params(&[("W", 5), ("EW", 3), ("EPOCH", 7), ("IW", 2)])],
        "tric_ctrl" => vec![params(&[("N", 5), ("HW", 1), ("LW", 3)])],
        _ => vec![],
    }
}

#[test]
#[cfg_attr(not(synth_tools), ignore = "needs iverilog, vvp and yosys on PATH")]
fn every_component_testbench_passes() {
    if !tools_present(&["iverilog", "vvp"]) {
        return;
    }
    let dir = workdir("check");
    let mut jobs: Vec<(&'static ComponentSpec, Params)> = Vec::new();
    for c in rtl::components() {
        jobs.push((c, Params::new()));
        for p in extra_sizes(c.name) {
            jobs.push((c, p));
        }
    }
    let failures = run_parallel(&jobs, |(c, p)| {
        let tag = p
            .iter()
            .map(|(k, v)| format!("{k}{v}"))
            .collect::<Vec<_>>()
            .join("_");
        let wd = dir.join(format!(
            "{}{}",
            c.name,
            if tag.is_empty() {
                String::new()
            } else {
                format!("_{tag}")
            }
        ));
        match sim::run_check(c, p, &wd, 1) {
            Ok(o) if o.checks > 0 => Ok(format!("{} {:?}: {}", c.name, p, o.summary)),
            Ok(o) => Err(format!(
                "{} {:?}: no checks counted in '{}'",
                c.name, p, o.summary
            )),
            Err(e) => Err(format!("{} {:?}: {e}", c.name, p)),
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "testbench failures:\n{}",
        failures.join("\n")
    );
}

#[test]
#[cfg_attr(not(synth_tools), ignore = "needs iverilog, vvp and yosys on PATH")]
fn stimulus_mode_writes_a_vcd_for_every_component() {
    if !tools_present(&["iverilog", "vvp"]) {
        return;
    }
    let dir = workdir("stim");
    let jobs: Vec<&'static ComponentSpec> = rtl::components().iter().collect();
    let failures = run_parallel(&jobs, |c| {
        let vcd = dir.join(format!("{}.vcd", c.name));
        sim::run_stimulus(c, &Params::new(), 200, 3, &vcd)
            .map_err(|e| format!("{}: {e}", c.name))?;
        let text = std::fs::read_to_string(&vcd).map_err(|e| format!("{}: {e}", vcd.display()))?;
        let header_ok = text.contains("$enddefinitions") && text.contains("$scope module dut $end");
        let changes = text.lines().filter(|l| l.starts_with('#')).count();
        if !header_ok || changes < 100 {
            return Err(format!(
                "{}: VCD has header {header_ok}, {changes} time steps",
                c.name
            ));
        }
        Ok(format!("{}: VCD with {changes} time steps", c.name))
    });
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "stimulus failures:\n{}",
        failures.join("\n")
    );
}

#[test]
#[cfg_attr(not(synth_tools), ignore = "needs iverilog, vvp and yosys on PATH")]
fn yosys_synthesises_every_component() {
    if !tools_present(&["yosys"]) {
        return;
    }
    // Default sizes, except sfu_lane whose default table (TBITS=10) takes
    // most of a minute to elaborate: its smallest sweep point is used.
    let jobs: Vec<(&'static ComponentSpec, Params)> = rtl::components()
        .iter()
        .map(|c| {
            let p = if c.name == "sfu_lane" {
                params(&[("TBITS", c.params[0].sweep[0])])
            } else {
                Params::new()
            };
            (c, p)
        })
        .collect();
    let failures = run_parallel(&jobs, |(c, p)| match sim::yosys_generic_synth(c, p) {
        Ok(cells) if cells > 0 => Ok(format!("{} {:?}: {cells} generic cells", c.name, p)),
        Ok(_) => Err(format!("{}: zero cells", c.name)),
        Err(e) => Err(format!("{}: {e}", c.name)),
    });
    assert!(
        failures.is_empty(),
        "yosys failures:\n{}",
        failures.join("\n")
    );
}

/// The checks can fail: a vector file with one wrong expected sum, and the
/// flop-array testbench run against the latch array (one cycle more write
/// latency) must both be reported as failures.
#[test]
#[cfg_attr(not(synth_tools), ignore = "needs iverilog, vvp and yosys on PATH")]
fn testbenches_detect_wrong_results() {
    if !tools_present(&["iverilog", "vvp"]) {
        return;
    }
    let dir = workdir("mutation");
    // (1) corrupted expected value
    let fadd = rtl::component("fadd32").unwrap();
    let image = dir.join("fadd32.vvp");
    sim::compile_testbench(fadd, &Params::new(), &image).unwrap();
    let (text, n) = rtl::vectors::render(rtl::VectorKind::Fadd32, 1, 10);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let victim = &mut lines[n / 2];
    let last = victim.pop().unwrap();
    victim.push(if last == '0' { '1' } else { '0' });
    let bad = dir.join("bad.hex");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let out = std::process::Command::new("vvp")
        .arg("-n")
        .arg(&image)
        .arg(format!("+vec={}", bad.display()))
        .arg(format!("+n={n}"))
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "corrupted vectors passed:\n{log}");
    assert!(log.contains("FAIL fadd32: 1 of"), "{log}");

    // (2) behavioural difference: latch array under the flop-array testbench
    let latch_src = std::fs::read_to_string(rtl::rtl_dir().join("latch_array.v")).unwrap();
    let renamed = dir.join("latch_as_flop.v");
    std::fs::write(
        &renamed,
        latch_src.replace("module latch_array", "module flop_array"),
    )
    .unwrap();
    let image = dir.join("mix.vvp");
    let st = std::process::Command::new("iverilog")
        .args(["-g2005", "-o"])
        .arg(&image)
        .arg(rtl::rtl_dir().join("tb/timescale.v"))
        .arg(&renamed)
        .arg(rtl::rtl_dir().join("tb/flop_array_tb.v"))
        .status()
        .unwrap();
    assert!(st.success());
    let out = std::process::Command::new("vvp")
        .arg("-n")
        .arg(&image)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(
        !out.status.success() && log.contains("FAIL flop_array"),
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
