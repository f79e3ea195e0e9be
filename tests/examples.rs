//! The runnable studies in `examples/`: every one builds (cargo builds examples with the test
//! suite, and this test builds them again in its own profile so a stale binary is never run),
//! runs on its default workloads at the test size, prints its table with a row per design it
//! studies, and writes SVG plots with described axes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The folder of the example binaries of this test's profile, after building them.
fn examples_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        // target/<profile>/deps/examples-<hash>
        let profile_dir = exe.parent().unwrap().parent().unwrap().to_path_buf();
        let release = profile_dir.file_name().is_some_and(|n| n == "release");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["build", "--examples", "--quiet"]);
        if release {
            cmd.arg("--release");
        }
        let st = cmd.status().expect("cargo runs");
        assert!(st.success(), "building the examples failed");
        profile_dir.join("examples")
    })
}

/// Runs example `name` with its plots going to a fresh folder; returns stdout and the folder.
fn run(name: &str, extra: &[&str]) -> (String, PathBuf) {
    let out = std::env::temp_dir().join(format!("gpuenergy-example-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new(examples_dir().join(name))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("--out")
        .arg(&out)
        .args(extra)
        .output()
        .expect("example runs");
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "example {name} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    (stdout, out)
}

/// Every file `plot: PATH` the example printed exists, is an SVG and describes both axes with a
/// unit or a category name.
fn check_plots(stdout: &str, out: &Path, at_least: usize) {
    let plots: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("plot: "))
        .collect();
    assert!(
        plots.len() >= at_least,
        "expected {at_least} plots:\n{stdout}"
    );
    for p in plots {
        let p = Path::new(p);
        assert!(p.starts_with(out), "{} outside --out", p.display());
        let svg = std::fs::read_to_string(p).unwrap();
        assert!(svg.starts_with("<svg"), "{} is not an SVG", p.display());
        assert!(
            svg.contains("(%)") || svg.contains('('),
            "{} has no unit",
            p.display()
        );
    }
    let _ = std::fs::remove_dir_all(out);
}

/// The table row that starts with `first`, split on runs of two or more spaces.
fn row<'a>(stdout: &'a str, first: &str) -> Vec<&'a str> {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(first))
        .unwrap_or_else(|| panic!("no row '{first}' in:\n{stdout}"));
    line.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

/// A cell like "+12.3 %" as a fraction.
fn pct(cell: &str) -> f64 {
    cell.trim_end_matches('%').trim().parse::<f64>().unwrap() / 100.0
}

#[test]
fn warped_gates_saves_static_energy_of_both_classes() {
    let (s, out) = run("warped_gates", &["--workload", "hotspot"]);
    for t in ["conv-pg", "gates", "warped-gates"] {
        let r = row(&s, t);
        assert_eq!(r.len(), 7, "{r:?}");
        let (int, fp) = (pct(r[2]), pct(r[3]));
        assert!(int > 0.0 && int < 1.0 && fp > 0.0 && fp < 1.0, "{r:?}");
    }
    check_plots(&s, &out, 3);
}

#[test]
fn partitioned_rf_reports_savings_split_and_area() {
    let (s, out) = run("partitioned_rf", &["--workload", "hotspot"]);
    let r = row(&s, "partitioned-rf");
    let split: Vec<f64> = r[4].split('/').map(|x| x.parse().unwrap()).collect();
    assert_eq!(split.len(), 3);
    assert!((split.iter().sum::<f64>() - 100.0).abs() <= 2.0, "{r:?}");
    assert!(r[6].parse::<f64>().unwrap() > 0.0);
    assert_eq!(row(&s, "mrf-ntv")[4], "—");
    check_plots(&s, &out, 1);
}

#[test]
fn ooo_issue_costs_every_design() {
    let (s, out) = run("ooo_issue", &["--workload", "hotspot"]);
    for d in [
        "socgpu [sched.ooo.ib_depth=2]",
        "socgpu [sched.ooo.ib_depth=8]",
        "loog",
    ] {
        let r = row(&s, d);
        assert!(r[1].parse::<f64>().unwrap() > 0.0, "{r:?}");
        assert_ne!(r[2], "—");
    }
    // a deeper buffer adds more area
    let a2: f64 = row(&s, "socgpu [sched.ooo.ib_depth=2]")[2].parse().unwrap();
    let a8: f64 = row(&s, "socgpu [sched.ooo.ib_depth=8]")[2].parse().unwrap();
    assert!(a8 > a2);
    check_plots(&s, &out, 1);
}

#[test]
fn sweep_nodes_derives_gating_timing_per_node() {
    let (s, out) = run("sweep_nodes", &[]);
    for n in ["planar45", "planar16", "finfet7 stv", "finfet7 ntv"] {
        let r = row(&s, n);
        let bet: u32 = r[2].parse().unwrap();
        let w: u32 = r[3].parse().unwrap();
        assert!(bet >= 1 && w >= 1, "{r:?}");
    }
    // near threshold the FO4 ratio slows the clock
    let stv: f64 = row(&s, "finfet7 stv")[1].parse().unwrap();
    let ntv: f64 = row(&s, "finfet7 ntv")[1].parse().unwrap();
    assert!(ntv < stv);
    check_plots(&s, &out, 1);
}

#[test]
fn calibrate_asap7_fits_the_committed_records() {
    let (s, out) = run("calibrate_asap7", &[]);
    assert!(s.contains("synthesis records from"));
    let (_, priced) = s
        .split_once("analytical vs calibrated")
        .expect("the side-by-side table");
    for c in ["alu32", "crossbar", "dep_matrix", "pg_controller"] {
        let r = row(priced, c);
        assert_eq!(r.len(), 7, "{r:?}");
        for v in &r[1..] {
            assert!(v.parse::<f64>().unwrap() >= 0.0);
        }
    }
    assert!(out.join("overlay.toml").is_file());
    check_plots(&s, &out, 4);
}

#[test]
fn optimize_budget_never_worsens_with_a_larger_budget() {
    let (s, out) = run("optimize_budget", &[]);
    let budgets = ["0.5 %", "1 %", "2 %", "5 %", "10 %"];
    let mut best = 0.0f64; // energy change of the best design so far (baseline = 0)
    for b in budgets {
        let r = row(&s, b);
        let e = if r[2].starts_with("none fits") {
            0.0
        } else {
            let added: f64 = r[4].parse().unwrap();
            let budget: f64 = r[1].parse().unwrap();
            assert!(added <= budget * (1.0 + 1e-9), "{r:?}");
            pct(r[3])
        };
        assert!(e <= best + 1e-12, "budget {b}: {e} after {best}\n{s}");
        best = e;
    }
    check_plots(&s, &out, 1);
}
