//! Golden-file tests of the report parsers.
//!
//! `yosys_stat.*` and `opensta_*.rpt` are real outputs of Yosys 0.23 and OpenSTA 2.0.17 (the
//! fadd32 component on ASAP7 RVT TT). The Design Compiler (`dc_*.rpt`) and Genus (`genus_*.rpt`)
//! samples were written by hand following those tools' documented report layouts (no licensed
//! tool was run); their numbers mirror the OpenSTA run so the expected values are consistent.
//! Each `NAME` has `NAME.expected.json`, the normalised [`ParsedReport`] in SI units; set
//! `GPUENERGY_BLESS=1` to rewrite the expectations after a deliberate change (then review them).

use calibration::parsers::{parse_report, ParsedReport};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens_parsers")
}

const FILES: [(&str, &str); 9] = [
    ("yosys_stat.txt", "yosys-stat"),
    ("yosys_stat.json", "yosys-stat-json"),
    ("opensta_power.rpt", "opensta-power"),
    ("opensta_checks.rpt", "opensta-checks"),
    ("dc_area.rpt", "dc-area"),
    ("dc_power.rpt", "dc-power"),
    ("genus_area.rpt", "genus-area"),
    ("genus_power.rpt", "genus-power"),
    ("genus_power_legacy.rpt", "genus-power"),
];

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()),
        _ => false,
    }
}

#[test]
fn every_golden_parses_to_its_expectation() {
    let bless = std::env::var_os("GPUENERGY_BLESS").is_some();
    for (name, format) in FILES {
        let path = dir().join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let got = parse_report(&text, &path)
            .unwrap()
            .unwrap_or_else(|| panic!("{name}: not recognised"));
        assert_eq!(got.format, format, "{name}: detected as {}", got.format);
        let exp_path = dir().join(format!("{name}.expected.json"));
        if bless {
            std::fs::write(
                &exp_path,
                serde_json::to_string_pretty(&got).unwrap() + "\n",
            )
            .unwrap();
            continue;
        }
        let exp: ParsedReport =
            serde_json::from_str(&std::fs::read_to_string(&exp_path).unwrap()).unwrap();
        assert_eq!(got.design, exp.design, "{name}");
        assert_eq!(got.cell_count, exp.cell_count, "{name}");
        assert_eq!(got.cells, exp.cells, "{name}");
        for (f, a, b) in [
            ("area", got.area_m2, exp.area_m2),
            ("leakage", got.leakage_w, exp.leakage_w),
            ("internal", got.internal_w, exp.internal_w),
            ("switching", got.switching_w, exp.switching_w),
            ("total", got.total_w, exp.total_w),
            ("path", got.critical_path_s, exp.critical_path_s),
            ("slack", got.slack_s, exp.slack_s),
        ] {
            assert!(close(a, b), "{name}: {f} {a:?} != expected {b:?}");
        }
    }
}

#[test]
fn tools_agree_on_the_same_design() {
    // The hand-written DC/Genus samples carry the OpenSTA/Yosys numbers: all parsers must land on
    // the same SI values (to the reports' printed precision).
    let p = |n: &str| {
        let path = dir().join(n);
        parse_report(&std::fs::read_to_string(&path).unwrap(), &path)
            .unwrap()
            .unwrap()
    };
    let area = p("yosys_stat.txt").area_m2.unwrap();
    for n in ["dc_area.rpt", "genus_area.rpt"] {
        let a = p(n).area_m2.unwrap();
        assert!((a - area).abs() / area < 1e-4, "{n}: {a} vs {area}");
    }
    let sta = p("opensta_power.rpt");
    for n in ["dc_power.rpt", "genus_power.rpt", "genus_power_legacy.rpt"] {
        let r = p(n);
        let l = r.leakage_w.unwrap();
        assert!(
            (l - sta.leakage_w.unwrap()).abs() / l < 1e-3,
            "{n} leakage {l}"
        );
        let d = r.dynamic_w().unwrap();
        assert!(
            (d - sta.dynamic_w().unwrap()).abs() / d < 1e-3,
            "{n} dynamic {d}"
        );
    }
    assert!((p("yosys_stat.json").cell_count.unwrap() as f64 - 1303.0).abs() < 0.5);
}

/// Corrupt one line of a golden and check the parser names that line.
fn corrupt(name: &str, find: &str, replace: &str) -> String {
    let path = dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(find), "{name} lacks '{find}'");
    let bad = text.replacen(find, replace, 1);
    let line = 1 + text[..text.find(find).unwrap()].matches('\n').count();
    let e = parse_report(&bad, Path::new(name)).unwrap_err();
    assert_eq!(e.line, line, "{name}: {e}");
    e.to_string()
}

#[test]
fn malformed_reports_name_the_line() {
    let e = corrupt(
        "yosys_stat.txt",
        "1303\n     A2O1A1Ixp33",
        "lots\n     A2O1A1Ixp33",
    );
    assert!(
        e.contains("yosys_stat.txt:") && e.contains("number of cells"),
        "{e}"
    );
    corrupt(
        "opensta_power.rpt",
        "Total                1.813941e-03",
        "Total                1.8x3941e-03",
    );
    corrupt(
        "opensta_checks.rpt",
        "  3.4147   data arrival time",
        "  3.41.47   data arrival time",
    );
    corrupt("dc_area.rpt", "110.443515", "110.4435.15");
    let e = corrupt("dc_power.rpt", "197.6976 nW", "197.6976 kW");
    assert!(e.contains("unknown power unit"), "{e}");
    corrupt(
        "genus_power.rpt",
        "Subtotal     1.97698e-07",
        "Subtotal     1.9x698e-07",
    );
    corrupt("genus_area.rpt", "1303    110.444", "1303    110.4.44");
}

#[test]
fn truncated_reports_are_errors() {
    for (name, keep) in [
        ("opensta_power.rpt", 4),
        ("dc_power.rpt", 20),
        ("genus_power.rpt", 14),
    ] {
        let path = dir().join(name);
        let text: String = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .take(keep)
            .collect::<Vec<_>>()
            .join("\n");
        match parse_report(&text, Path::new(name)) {
            Err(e) => assert!(e.to_string().starts_with(name), "{e}"),
            Ok(r) => panic!("{name} truncated to {keep} lines parsed as {r:?}"),
        }
    }
}
