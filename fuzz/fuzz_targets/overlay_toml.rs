//! Fuzz target: a calibration overlay (`models::overlay::Overlay::from_toml_str`); one that
//! loads must hold finite coefficients.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = std::str::from_utf8(data) {
        if let Ok(o) = models::overlay::Overlay::from_toml_str(t, std::path::Path::new("o.toml")) {
            for k in o.kinds.values() {
                for (q, f) in k.quantities() {
                    assert!(f.coefficients.iter().all(|c| c.is_finite()), "{q}");
                }
            }
        }
    }
});
