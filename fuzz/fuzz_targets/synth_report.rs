//! Fuzz target: a synthesis report of any supported format — Yosys `stat` (text and JSON),
//! OpenSTA, Design Compiler, Genus (`calibration::parsers::parse_report`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let t = String::from_utf8_lossy(data);
    if let Ok(Some(r)) = calibration::parsers::parse_report(&t, std::path::Path::new("r.rpt")) {
        for v in [r.area_m2, r.leakage_w].into_iter().flatten() {
            assert!(v.is_finite() && v >= 0.0, "{v}");
        }
    }
});
