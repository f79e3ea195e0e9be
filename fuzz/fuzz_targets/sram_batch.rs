//! Fuzz target: the batch CSV of `gpuenergy sram --batch` (`gpuenergy::cli::sram::run`, which
//! reads a file, so the input goes through a scratch file; output to another).
#![no_main]
use clap::Parser;
use libfuzzer_sys::fuzz_target;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: gpuenergy::cli::sram::Args,
}

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir();
    let pid = std::process::id();
    let input = dir.join(format!("gpuenergy-fuzz-{pid}-batch.csv"));
    let output = dir.join(format!("gpuenergy-fuzz-{pid}-batch.out.csv"));
    if std::fs::write(&input, data).is_err() {
        return;
    }
    let cli = Cli::parse_from([
        "sram".as_ref(),
        "--batch".as_ref(),
        input.as_os_str(),
        "--out".as_ref(),
        output.as_os_str(),
    ]);
    let _ = gpuenergy::cli::sram::run(cli.args);
});
