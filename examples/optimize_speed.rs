//! Speed of `gpuenergy optimize` on the standard problem (`--tech finfet7 --area-budget 2%
//! --space gating,rf` on the test suite): runs it twice on a fresh Activity cache — cold (every
//! design simulated) and warm (every Activity from the cache, so only costing) — and prints the
//! wall time and the designs and workload runs evaluated per second of each, the warm run being
//! the costing-only path the continuous searches use when the simulated integers do not change.
//!
//! `cargo run --release --example optimize_speed [-- EXTRA FLAGS]`, e.g. `-- --workload hotspot`.

use clap::Parser;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: gpuenergy::cli::optimize::Args,
}

fn main() -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("gpuenergy-optimize-speed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut argv: Vec<String> = [
        "optimize_speed",
        "--tech",
        "finfet7",
        "--area-budget",
        "2%",
        "--space",
        "gating,rf",
        "-q",
        "--cache-dir",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    argv.push(dir.display().to_string());
    argv.extend(std::env::args().skip(1));
    for pass in ["cold", "warm"] {
        let cli = Cli::parse_from(&argv);
        let t0 = std::time::Instant::now();
        let s = gpuenergy::cli::optimize::solve(&cli.args)?;
        let wall_s = t0.elapsed().as_secs_f64();
        let e = &s.report.effort;
        println!(
            "{pass}: {wall_s:.2} s wall, {} designs ({:.2}/s), {} workload runs ({:.1}/s; {} \
             simulated, {} from the cache); chosen {} (verified energy {:+.2} % vs baseline)",
            e.designs,
            e.designs as f64 / wall_s,
            e.workload_runs,
            e.workload_runs as f64 / wall_s,
            e.cache_misses,
            e.cache_hits,
            s.report.chosen_name,
            -s.report.saving_vs_baseline * 100.0
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
