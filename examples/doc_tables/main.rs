//! The tables of `docs/` that no single command prints: aggregates over several runs or
//! configurations (geometric means, per-workload columns side by side, phases of a run) and the
//! model's parameter tables. Each subcommand prints one set of markdown tables on stdout, and
//! `tests/doc_outputs.rs` checks the docs' copy against a fresh run, so the docs quote this
//! program's output and never a typed figure.
//!
//! `cargo run --release --example doc_tables -- NAME`, NAME one of:
//! - `model-vs-sim`: the analytical activity source against the cycle-level simulator
//!   (docs/estimate.md);
//! - `dram`: the DRAM energy parameters and the HBM2 background power (docs/estimate.md);
//! - `socgpu-window`: SOCGPU's two-entry window at test size (docs/techniques.md);
//! - `gating-bench BASELINE`: power gating at bench size against `none` or `two-level`
//!   (docs/techniques.md; minutes);
//! - `socgpu-bench`: SOCGPU's buffer depth at bench size (half an hour);
//! - `loog-bench`: LOOG at bench size (an hour);
//! - `prf-bench`: where the partitioned register file's accesses and time go at bench size
//!   (minutes);
//! - `sram-accuracy`: the SRAM model against CACTI 7 and the finfet7 register-file rows
//!   (docs/accuracy.md; what `models/tests/sram_cacti.rs` and `sram_finfet.rs` hold);
//! - `sram-capacity`: how its energy error moves with capacity (docs/techniques.md; what
//!   `models/tests/sram_capacity_scaling.rs` holds).
//!
//! - `diag-summary`: `gpuenergy diag`'s quick suite on five presets in one table
//!   (docs/simulator.md; minutes);
//! - `sampling`: kernel sampling against full simulation (docs/estimate.md; a minute or two;
//!   runs the `gpuenergy` binary of the same build);
//! - `sampling-optimize`: `optimize` with and without kernel sampling on a program of many
//!   launches (docs/estimate.md; about a minute; the same binary).
//!
//! The SRAM tables read the CACTI 7 reference grid beside the repository
//! (`../shared/reference/cacti7_train.csv`).

mod diag;
mod estimate;
mod gating;
mod issue;
mod markdown;
mod prf;
mod runs;
mod sampling;
mod sram;

use anyhow::{anyhow, bail, Result};
use sim::workloads::Size;

fn main() -> Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--size test` runs a bench-size table at test size: a quick check of the program, not
    // the docs' figures
    let mut size = Size::Bench;
    if let Some(i) = args.iter().position(|a| a == "--size") {
        let v = args
            .get(i + 1)
            .ok_or_else(|| anyhow!("--size takes test or bench"))?;
        size = v.parse()?;
        args.drain(i..i + 2);
    }
    let out = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["model-vs-sim"] => estimate::model_vs_sim()?,
        ["dram"] => estimate::dram()?,
        ["socgpu-window"] => issue::socgpu_window()?,
        ["gating-bench", baseline @ ("none" | "two-level")] => gating::gating_bench(baseline, size)?,
        ["socgpu-bench"] => issue::socgpu_bench(size)?,
        ["loog-bench"] => issue::loog_bench(size)?,
        ["prf-bench"] => prf::prf_bench(size)?,
        ["sram-accuracy"] => sram::sram_accuracy()?,
        ["sram-capacity"] => sram::sram_capacity()?,
        ["diag-summary"] => diag::diag_summary()?,
        ["sampling"] => sampling::sampling()?,
        ["sampling-optimize"] => sampling::sampling_optimize()?,
        _ => bail!(
            "usage: doc_tables model-vs-sim | dram | socgpu-window | gating-bench none|two-level \
             | socgpu-bench | loog-bench | prf-bench | sram-accuracy | sram-capacity | diag-summary | sampling | sampling-optimize  [--size \
             test|bench: the bench tables' size]"
        ),
    };
    print!("{out}");
    Ok(())
}
