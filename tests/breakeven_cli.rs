//! `gpuenergy breakeven`: the sleep-transistor model's command (power-gating §1.7) — every
//! quantity printed, sweeps and plots written, and bad input refused with exit status 2 and a
//! message naming the flag and its allowed values.

mod common;
use common::{ok, refused};

#[test]
fn table_shows_every_quantity_with_units() {
    let t = ok(&["breakeven", "--tech", "40nm"]);
    for want in [
        "BET",
        "cycles",
        "W_sw",
        " um",
        "um2",
        "pJ",
        "ns",
        "IR drop",
        "mV",
        "%",
        "C_vr",
        "pF",
        "r ",
        "P_leak",
        "I_act",
        "controller",
    ] {
        assert!(t.contains(want), "missing '{want}' in:\n{t}");
    }
    let t = ok(&[
        "breakeven",
        "--tech",
        "finfet7",
        "--op",
        "ntv",
        "--domain",
        "lane-group:1",
    ]);
    assert!(t.contains("fins"), "{t}");
}

#[test]
fn json_point_and_sweeps() {
    let text = ok(&[
        "breakeven",
        "--tech",
        "finfet7",
        "--sweep-vdd",
        "--sweep-scale",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let p = &v["point"];
    assert!(p["bet_cycles"].as_u64().unwrap() >= 1, "{p}");
    assert!(p["wakeup_cycles"].as_u64().unwrap() >= 1, "{p}");
    assert!(p["n_fins"].as_u64().unwrap() >= 1, "{p}");
    assert_eq!(v["sweep_vdd"].as_array().unwrap().len(), 10);
    let s = v["sweep_scale"].as_array().unwrap();
    assert_eq!(s.len(), 7);
    // BET never falls and W never rises as the switch grows.
    for w in s.windows(2) {
        assert!(w[1]["bet_cycles"].as_u64() >= w[0]["bet_cycles"].as_u64());
        assert!(w[1]["wakeup_cycles"].as_u64() <= w[0]["wakeup_cycles"].as_u64());
    }
}

#[test]
fn decay_rail_and_footer_switch() {
    let full = ok(&["breakeven", "--tech", "45nm", "--format", "json"]);
    let decay = ok(&[
        "breakeven",
        "--tech",
        "45nm",
        "--rail",
        "decay",
        "--switch",
        "footer",
        "--format",
        "json",
    ]);
    let f: serde_json::Value = serde_json::from_str(&full).unwrap();
    let d: serde_json::Value = serde_json::from_str(&decay).unwrap();
    assert!(d["point"]["decay_tau_ns"].as_f64().unwrap() > 0.0);
    assert!(f["point"]["decay_tau_ns"].is_null());
    // A decaying rail costs less for short gatings, so BET is no larger.
    assert!(d["point"]["bet_cycles"].as_u64() <= f["point"]["bet_cycles"].as_u64());
    assert_eq!(d["point"]["switch"], "footer");
}

#[test]
fn plot_writes_both_sweeps() {
    let dir = std::env::temp_dir().join(format!("gpuenergy-breakeven-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    ok(&["breakeven", "--tech", "40nm", "--plot", d]);
    for f in ["breakeven_vs_vdd.svg", "breakeven_vs_scale.svg"] {
        let svg = std::fs::read_to_string(dir.join(f)).unwrap();
        assert!(svg.contains("<svg") && svg.contains("BET"), "{f}");
        assert!(svg.contains("(cycles)"), "{f}: axis label with units");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused_with_the_flag_and_allowed_values() {
    let e = refused(&["breakeven", "--tech", "40nm", "--domain", "tensor"]);
    assert!(
        e.contains("--domain") && e.contains("sp-cluster") && e.contains("sfu"),
        "{e}"
    );
    let e = refused(&["breakeven", "--tech", "40nm", "--domain", "lane-group:3"]);
    assert!(e.contains("1, 2 or 4"), "{e}");
    let e = refused(&["breakeven", "--tech", "40nm", "--switch-scale", "0.5"]);
    assert!(e.contains("--switch-scale") && e.contains(">= 1"), "{e}");
    let e = refused(&["breakeven", "--tech", "finfet7", "--vdd", "0.1"]);
    assert!(e.contains("--vdd") && e.contains("minimum"), "{e}");
    let e = refused(&["breakeven", "--tech", "40nm", "--switch", "sideways"]);
    assert!(e.contains("header") && e.contains("footer"), "{e}");
    let e = refused(&["breakeven", "--tech", "40nm", "--rail", "leaky"]);
    assert!(e.contains("full-collapse") && e.contains("decay"), "{e}");
    let e = refused(&["breakeven", "--tech", "40nm", "--op", "ntv"]);
    assert!(e.contains("--op ntv"), "{e}");
    let e = refused(&["breakeven", "--tech", "nonode"]);
    assert!(e.contains("nonode"), "{e}");
    refused(&["breakeven", "--tech", "40nm", "--clock-mhz", "100000"]);
    refused(&["breakeven", "--tech", "40nm", "--temp-k", "10"]);
}
