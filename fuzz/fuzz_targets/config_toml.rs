//! Fuzz target: a simulator configuration (`sim::config::GpuConfig::from_toml_str`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = std::str::from_utf8(data) {
        if let Ok(cfg) = sim::config::GpuConfig::from_toml_str(t, "fuzz.toml") {
            let _ = cfg.hash_hex();
        }
    }
});
