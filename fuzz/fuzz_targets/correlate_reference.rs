//! Fuzz target: a correlation reference CSV (`gpuenergy::correlate::parse_reference`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let t = String::from_utf8_lossy(data);
    let _ = gpuenergy::correlate::parse_reference(&t, "ref.csv");
});
