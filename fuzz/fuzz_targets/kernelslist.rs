//! Fuzz target: an Accel-Sim `kernelslist.g` (`sim::trace::read_kernel_list`, which reads a
//! file, so the input goes through a scratch file).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let p = std::env::temp_dir().join(format!(
        "gpuenergy-fuzz-{}-kernelslist.g",
        std::process::id()
    ));
    if std::fs::write(&p, data).is_ok() {
        let _ = sim::trace::read_kernel_list(&p);
    }
});
