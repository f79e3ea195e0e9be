//! Fuzz target: a value change dump (`calibration::vcd::Vcd::parse`) and the per-signal
//! activities computed from it.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let t = String::from_utf8_lossy(data);
    if let Ok(v) = calibration::vcd::Vcd::parse(&t, std::path::Path::new("f.vcd")) {
        for scope in v.scopes() {
            let _ = v.activities(&scope, 4.0);
        }
    }
});
