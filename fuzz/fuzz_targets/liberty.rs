//! Fuzz target: a Liberty library (`calibration::liberty::library_info`), delay tables of every
//! cell requested.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let t = String::from_utf8_lossy(data);
    if let Ok(li) =
        calibration::liberty::library_info(&t, std::path::Path::new("f.lib"), &["INVx1", "DFFx1"])
    {
        assert!(li.time_unit_s.is_finite() && li.time_unit_s > 0.0);
        for c in li.cells.values() {
            assert!(c.area.is_finite() && c.area >= 0.0);
        }
    }
});
