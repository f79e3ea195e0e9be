//! Fuzz target: a GPGPU-Sim option file imported onto the closest preset
//! (`sim::config::gpgpusim::import`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let t = String::from_utf8_lossy(data);
    let src = [sim::config::gpgpusim::OptionSource {
        file: "gpgpusim.config",
        text: &t,
    }];
    let _ = sim::config::gpgpusim::import(&src, None, "fuzz");
});
