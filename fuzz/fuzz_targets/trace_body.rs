//! Fuzz target: an Accel-Sim `.traceg` kernel trace read from memory — the header
//! (`sim::trace::header::read_header`), then every body line (`sim::trace::scan_body`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use sim::trace::line::LineOptions;

fuzz_target!(|data: &[u8]| {
    let mut cur = std::io::Cursor::new(data);
    let mut read = 0u64;
    if sim::trace::header::read_header(&mut cur, "k.traceg", &mut read).is_ok() {
        let rest = &data[(read as usize).min(data.len())..];
        let _ = sim::trace::scan_body(rest, "k.traceg", LineOptions::default());
    }
});
