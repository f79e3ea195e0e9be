//! `gpuenergy` command-line entry point. Every error goes to stderr with its context and exits
//! with status 2, except a launch stopped by the functional watchdog (`--max-warp-insts`),
//! which exits 1; nothing panics on bad input.

use clap::{Parser, Subcommand};
use gpuenergy::cli;
use std::process::ExitCode;

/// gpuenergy — what a GPU microarchitecture idea costs and saves in energy and area.
#[derive(Parser, Debug)]
#[command(name = "gpuenergy", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Energy and area breakdown of a GPU running kernels at a technology node (the main job).
    Estimate(cli::estimate::Args),
    /// CACTI-class model of one SRAM array, or a batch of them from CSV.
    Sram(cli::sram::Args),
    /// List technology nodes, device flavours and operating points.
    Techs(cli::techs::Args),
    /// List the built-in GPU presets.
    Presets(cli::presets::Args),
    /// List the built-in workloads.
    Workloads(cli::workloads::Args),
    /// Run a workload or a user kernel functionally (optionally checking it against its reference).
    Run(cli::run::Args),
    /// Write a workload as Accel-Sim SASS traces.
    Trace(cli::trace::Args),
    /// Cycle-level simulation: cycles, IPC, stalls and the Activity record.
    Simulate(cli::simulate::Args),
    /// Synthesise a component with yosys + OpenSTA against liberty files.
    Synth(cli::synth::Args),
    /// Fit component models to synthesis reports and write a calibration overlay.
    Calibrate(cli::calibrate::Args),
    /// Modelled area, leakage and energy per operation of one logic component.
    Component(cli::component::Args),
    /// Compare simulated cycles with reference cycles from a CSV file: errors, MAPE, Pearson r.
    Correlate(cli::correlate::Args),
    /// Microbenchmarks on the simulator: recover the scheduling model's parameters (limits,
    /// functional units, SM count, policy, state buffers) and cross-check the analytical model.
    Diag(cli::diag::Args),
    /// List the named techniques (power gating, schedulers, folding), their knobs and which compose.
    Techniques(cli::techniques::Args),
    /// Techniques side by side: a baseline and variants on the same workloads (perf overhead, energy, EDP).
    Compare(cli::compare::Args),
    /// Register-file characterisation of workloads: allocated fraction, inter-access distance,
    /// active lanes, top-N register shares, pilot representativeness.
    Rfstats(cli::rfstats::Args),
    /// Sleep-transistor physics of a gating domain: switch size, IR drop, event energy,
    /// break-even time and wakeup delay at a technology point.
    Breakeven(cli::breakeven::Args),
    /// Choose techniques and knobs that minimise energy (EDP, ED²P) under an area budget and a
    /// slowdown cap: single-option simulations, a MILP, verification by full simulation.
    Optimize(cli::optimize::Args),
    /// Design-space sweeps: plan, run locally in parallel (resumable), merge into one table,
    /// status, and Slurm job arrays.
    Sweep(cli::sweep::Args),
}

/// Restores the default SIGPIPE action so that `gpuenergy … | head` ends quietly instead of
/// failing on a closed pipe (Rust ignores SIGPIPE by default).
fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to SIG_DFL at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    default_sigpipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Estimate(a) => cli::estimate::run(a),
        Command::Sram(a) => cli::sram::run(a),
        Command::Techs(a) => cli::techs::run(a),
        Command::Presets(a) => cli::presets::run(a),
        Command::Workloads(a) => cli::workloads::run(a),
        Command::Run(a) => cli::run::run(a),
        Command::Trace(a) => cli::trace::run(a),
        Command::Simulate(a) => cli::simulate::run(a),
        Command::Synth(a) => cli::synth::run(a),
        Command::Calibrate(a) => cli::calibrate::run(a),
        Command::Component(a) => cli::component::run(a),
        Command::Correlate(a) => cli::correlate::run(a),
        Command::Diag(a) => cli::diag::run(a),
        Command::Techniques(a) => cli::techniques::run(a),
        Command::Compare(a) => cli::compare::run(a),
        Command::Breakeven(a) => cli::breakeven::run(a),
        Command::Rfstats(a) => cli::rfstats::run(a),
        Command::Optimize(a) => cli::optimize::run(a),
        Command::Sweep(a) => cli::sweep::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", cli::error_text(&e));
            // The functional watchdog (`--max-warp-insts`) exits 1: the input was valid, the
            // kernel ran past its limit. Every other error is bad input: 2.
            let watchdog = e.chain().any(|c| {
                matches!(
                    c.downcast_ref::<sim::SimError>(),
                    Some(sim::SimError::WarpInstLimit { .. })
                )
            });
            ExitCode::from(if watchdog { 1 } else { 2 })
        }
    }
}
