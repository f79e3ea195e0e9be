//! Fuzz target: the CACTI-style SRAM reference CSV (`models::sram::reference::parse_cacti_csv`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let t = String::from_utf8_lossy(data);
    let _ = models::sram::reference::parse_cacti_csv(&t);
});
