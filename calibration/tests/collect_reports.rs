//! `calibrate --reports` input from other tools: a directory with a `meta.toml` beside raw
//! Design Compiler / Genus reports becomes one normalised record.

use calibration::collect::collect;
use std::path::{Path, PathBuf};

fn goldens() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/goldens_parsers")
}

fn run_dir(name: &str, files: &[&str], meta: &str) -> PathBuf {
    let root =
        std::env::temp_dir().join(format!("gpuenergy-collect-{}-{name}", std::process::id()));
    let d = root.join("fadd32").join("default");
    std::fs::create_dir_all(&d).unwrap();
    for f in files {
        std::fs::copy(goldens().join(f), d.join(f)).unwrap();
    }
    std::fs::write(d.join("meta.toml"), meta).unwrap();
    root
}

const META: &str = "component = \"fadd32\"\nflavour = \"RVT\"\ncorner = \"TT\"\nvdd_v = 0.7\nclock_period_s = 1e-9\n";

#[test]
fn dc_and_genus_reports_become_records() {
    for (name, files) in [
        ("dc", ["dc_area.rpt", "dc_power.rpt"]),
        ("genus", ["genus_area.rpt", "genus_power.rpt"]),
    ] {
        let root = run_dir(name, &files, META);
        let recs = collect(&root).unwrap();
        assert_eq!(recs.len(), 1, "{name}");
        let r = &recs[0];
        assert_eq!(
            (r.component.as_str(), r.flavour.as_str(), r.corner.as_str()),
            ("fadd32", "rvt", "tt")
        );
        assert!(
            (r.area_m2 * 1e12 - 110.44).abs() < 0.01,
            "{name}: {}",
            r.area_m2
        );
        // 2.6568 mW dynamic at 1 ns, one op per cycle: 2.6568 pJ.
        assert!(
            (r.energy_per_op_j * 1e12 - 2.6568).abs() < 0.002,
            "{name}: {}",
            r.energy_per_op_j
        );
        assert!(r.source.contains(name), "{name}: {}", r.source);
        let _ = std::fs::remove_dir_all(&root);
    }
}

#[test]
fn bad_meta_names_file_and_line() {
    let root = run_dir(
        "bad",
        &["dc_area.rpt", "dc_power.rpt"],
        "component = \"fadd32\"\nflavour = \"rvt\"\ncorner = 3\n",
    );
    let e = collect(&root).unwrap_err().to_string();
    assert!(e.contains("meta.toml:3"), "{e}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn missing_power_report_is_an_error() {
    let root = run_dir("nopower", &["dc_area.rpt"], META);
    let e = collect(&root).unwrap_err().to_string();
    assert!(e.contains("no power report"), "{e}");
    let _ = std::fs::remove_dir_all(&root);
}

/// The prepared library's paths are absolute even when the cache directory is given relative to
/// the working directory: the tools run in each run's own directory.
#[test]
fn prepared_library_paths_are_absolute_for_a_relative_cache() {
    let lib_dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/asap7");
    if !lib_dir.is_dir() {
        panic!("{} missing (tests read ../shared/asap7)", lib_dir.display());
    }
    let rel = std::path::PathBuf::from(format!("target/tmp-relative-lib-{}", std::process::id()));
    let lib = calibration::flow::library::prepare(&lib_dir, "rvt", "tt", &rel).unwrap();
    assert!(lib.merged.is_absolute(), "{}", lib.merged.display());
    assert!(lib.files.iter().all(|f| f.is_absolute()));
    let _ = std::fs::remove_dir_all(&rel);
}
