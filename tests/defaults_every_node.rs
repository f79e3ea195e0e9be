//! Every subcommand that takes a technology node runs with its defaults (only `--tech NODE` and
//! the arguments it requires) at every built-in node, exits 0 and prints only finite,
//! non-negative numbers. Defaults such as the temperature must be valid inputs of every node.
//! (`calibrate` is left out: it needs synthesis reports or liberty files for its node.)

mod common;
use common::gpuenergy;

/// The built-in nodes, plus a feature size between two planar tables.
const NODES: [&str; 11] = [
    "planar90", "planar65", "planar45", "planar32", "planar22", "planar16", "40nm", "28nm",
    "finfet7", "finfet12", "asap7",
];

/// Runs `args`, asserts exit status 0, returns stdout.
fn ok(args: &[&str]) -> String {
    let out = gpuenergy(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{args:?} exited {:?}: {err}",
        out.status.code()
    );
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Every number in a JSON document, with its path.
fn numbers(v: &serde_json::Value, path: &str, out: &mut Vec<(String, f64)>) {
    match v {
        serde_json::Value::Number(n) => {
            out.push((path.to_string(), n.as_f64().unwrap_or(f64::NAN)))
        }
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                numbers(x, &format!("{path}[{i}]"), out);
            }
        }
        serde_json::Value::Object(o) => {
            for (k, x) in o {
                numbers(x, &format!("{path}.{k}"), out);
            }
        }
        _ => {}
    }
}

/// Runs a JSON-printing command and checks every number in its output.
fn check_json(args: &[&str]) {
    let text = ok(args);
    let v: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{args:?}: output is not JSON ({e}): {text}"));
    let mut nums = Vec::new();
    numbers(&v, "", &mut nums);
    assert!(!nums.is_empty(), "{args:?}: no numbers in the output");
    for (p, x) in nums {
        assert!(x.is_finite() && x >= 0.0, "{args:?}: {p} = {x}");
    }
}

/// Checks every number in a table (tokens that parse as floats, units stripped).
fn check_table(args: &[&str]) {
    let text = ok(args);
    let mut seen = 0;
    for tok in text.split_whitespace() {
        let t = tok
            .trim_end_matches(['%', ',', ')'])
            .trim_start_matches('(');
        if let Ok(x) = t.parse::<f64>() {
            seen += 1;
            assert!(x.is_finite() && x >= 0.0, "{args:?}: '{tok}' in:\n{text}");
        }
    }
    assert!(seen > 0, "{args:?}: no numbers in:\n{text}");
}

#[test]
fn component_defaults_at_every_node() {
    for n in NODES {
        check_json(&[
            "component",
            "--kind",
            "crossbar",
            "--tech",
            n,
            "--format",
            "json",
        ]);
        check_table(&["component", "--kind", "alu32", "--tech", n]);
    }
}

#[test]
fn sram_defaults_at_every_node() {
    for n in NODES {
        check_json(&[
            "sram", "--size", "4KiB", "--block", "32", "--tech", n, "--format", "json",
        ]);
    }
}

#[test]
fn techs_defaults_at_every_node() {
    for n in NODES {
        check_json(&["techs", "--node", n, "--format", "json"]);
        check_table(&["techs", "--node", n]);
    }
}

#[test]
fn estimate_defaults_at_every_node() {
    for n in NODES {
        check_json(&["estimate", "--tech", n, "--static", "--format", "json"]);
        check_json(&[
            "estimate",
            "--tech",
            n,
            "--workload",
            "hotspot",
            "--format",
            "json",
        ]);
    }
}

/// An overlay fitted at ASAP7 RVT, 0.70 V, 25 °C (coefficients of plausible size; only the
/// mapping is under test).
const ASAP7_OVERLAY: &str = r#"node = "asap7"
[reference]
flavour = "rvt"
corner = "tt"
vdd_v = 0.7
temperature_c = 25.0
clock_period_s = 1e-9
source = "test"
[kinds.crossbar.area_m2]
form = "crossbar"
terms = ["N^2*WIDTH"]
coefficients = [3.0e-14]
n_points = 8
fit_mape_pct = 2.0
cv_mape_pct = 3.0
[kinds.crossbar.leakage_w]
form = "crossbar"
terms = ["N^2*WIDTH"]
coefficients = [1.0e-10]
n_points = 8
fit_mape_pct = 2.0
cv_mape_pct = 3.0
[kinds.crossbar.energy_per_op_j]
form = "crossbar"
terms = ["N^2*WIDTH"]
coefficients = [1.0e-17]
n_points = 8
fit_mape_pct = 2.0
cv_mape_pct = 3.0
[kinds.crossbar.delay_s]
form = "crossbar"
terms = ["clog2(N)"]
coefficients = [2.0e-11]
n_points = 8
fit_mape_pct = 2.0
cv_mape_pct = 3.0
"#;

#[test]
fn component_maps_an_asap7_overlay_to_every_node() {
    let dir = std::env::temp_dir().join(format!("gpuenergy-defaults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("asap7_overlay.toml");
    std::fs::write(&path, ASAP7_OVERLAY).unwrap();
    let p = path.to_str().unwrap();
    for n in NODES {
        let args = [
            "component",
            "--kind",
            "crossbar",
            "--tech",
            n,
            "--calibration",
            p,
            "--format",
            "json",
        ];
        check_json(&args);
        let v: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
        let s = &v["scaling"];
        assert_eq!(s["cross_node"], serde_json::json!(n != "asap7"), "{n}: {s}");
        for f in ["area", "dynamic_energy", "leakage", "delay"] {
            let x = s[f].as_f64().unwrap_or(f64::NAN);
            assert!(x.is_finite() && x > 0.0, "{n}: scaling.{f} = {x}");
        }
        assert_eq!(v["source"]["leakage"], "calibrated", "{n}");
        check_table(&[
            "component",
            "--kind",
            "crossbar",
            "--tech",
            n,
            "--calibration",
            p,
        ]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn breakeven_defaults_at_every_node() {
    for n in NODES {
        check_json(&["breakeven", "--tech", n, "--format", "json"]);
        check_table(&["breakeven", "--tech", n]);
    }
}
