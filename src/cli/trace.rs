//! `gpuenergy trace`: write a workload as Accel-Sim SASS traces.

use anyhow::Context;
use sim::trace::gpu::TraceGpu;
use sim::workloads::{self, Size};
use std::path::PathBuf;

/// Arguments of `gpuenergy trace`.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "Runs a built-in workload functionally on the PTX emulator and writes every kernel \
launch as an Accel-Sim trace: OUT/kernelslist.g plus OUT/kernel-<n>.traceg (binary version 61, \
tracer version 3, addresses compressed base_stride/base_delta). `gpuenergy simulate --trace OUT` \
reads the folder back."
)]
pub struct Args {
    /// Workload name (see `gpuenergy workloads`).
    #[arg(long)]
    pub workload: String,
    /// Input size tier.
    #[arg(long, default_value = "test", value_parser = ["test", "bench"])]
    pub size: String,
    /// Output folder (created if needed).
    #[arg(long)]
    pub out: PathBuf,
    /// Also verify the workload's results against its CPU reference.
    #[arg(long)]
    pub check: bool,
}

/// Runs `gpuenergy trace` with parsed arguments.
pub fn run(args: Args) -> anyhow::Result<()> {
    let w = workloads::find(&args.workload).with_context(|| {
        let names: Vec<&str> = workloads::all().iter().map(|w| w.info().name).collect();
        format!(
            "unknown workload '{}'; known: {}",
            args.workload,
            names.join(", ")
        )
    })?;
    let size = if args.size == "bench" {
        Size::Bench
    } else {
        Size::Test
    };
    let mut gpu = TraceGpu::create(&args.out)?;
    let report = w.run(size, &mut gpu, args.check)?;
    let kernels = std::mem::take(&mut gpu.kernels);
    let list = gpu.finish()?;
    let lines: u64 = kernels.iter().map(|k| k.1).sum();
    println!(
        "{}: {} kernel launch(es), {} warp instructions traced into {}",
        args.workload,
        kernels.len(),
        lines,
        list.display()
    );
    if let Some(c) = report.check {
        println!(
            "check: {} ({})",
            if c.passed { "passed" } else { "FAILED" },
            c.detail
        );
        if !c.passed {
            anyhow::bail!(
                "workload '{}' does not match its CPU reference",
                args.workload
            );
        }
    }
    Ok(())
}
