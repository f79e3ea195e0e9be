//! Fuzz target: a PTX module (`sim::ptx::Module::parse`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = std::str::from_utf8(data) {
        let _ = sim::ptx::Module::parse(t, "f.ptx");
    }
});
