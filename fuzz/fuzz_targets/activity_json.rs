//! Fuzz target: an activity record, as `estimate --activity` reads it
//! (`sim::activity::Activity::from_json`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = std::str::from_utf8(data) {
        let _ = sim::activity::Activity::from_json(t, "fuzz.json");
    }
});
