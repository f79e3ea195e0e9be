//! `gpuenergy trace`: write a workload as Accel-Sim SASS traces.

use anyhow::Context;
use sim::trace::gpu::TraceGpu;
use sim::trace::TraceForm;
use sim::workloads::Size;
use std::path::PathBuf;

/// Arguments of `gpuenergy trace`.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "Runs a built-in workload functionally on the PTX emulator and writes every kernel \
launch as an Accel-Sim trace: OUT/kernelslist.g plus OUT/kernel-<n>.traceg (binary version 61, \
tracer version 3, addresses compressed base_stride/base_delta). `gpuenergy simulate --trace OUT` \
reads the folder back.

--form stock (the default) writes what the NVBit tracer writes, so stock Accel-Sim reads the \
folder: at most one destination register (the base register of a wide destination), at most four \
source registers, only R<n> registers (no predicates), header keys only of the tracer's kinds. \
Readers recover the other registers of a 64-/128-bit operand from the opcode width (DP ops, \
.64/.128 memory ops); predicate dependences and the high halves of 64-bit integer results are \
lost. --form rich lists every register, predicates as P<n>, and marks the header with \
`-gpuenergy explicit regs = 1`: lossless for gpuenergy's own reader, which stock Accel-Sim cannot parse.

Watchdog: a launch that executes more than --max-warp-insts warp instructions (default \
1000000000; 0 = no limit) is stopped as a runaway kernel. Exit status: 0 on success; 1 when \
--max-warp-insts stopped a launch; 2 on any other error.

A user program is traced the same way: --program FILE, or one launch with --ptx/--cuda.",
    after_help = super::program::HELP
)]
pub struct Args {
    /// Workload name (see `gpuenergy workloads`).
    #[arg(long)]
    pub workload: Option<String>,
    /// A user program instead: --program FILE, or one launch with --ptx/--cuda (see below).
    #[command(flatten)]
    pub program: super::program::ProgramArgs,
    /// Input size tier of a built-in workload (a program has fixed sizes and ignores it).
    #[arg(long, default_value = "test", value_parser = ["test", "bench"])]
    pub size: String,
    /// Output folder (created if needed).
    #[arg(long)]
    pub out: PathBuf,
    /// Also verify the workload's results against its CPU reference.
    #[arg(long)]
    pub check: bool,
    /// Register convention: stock (readable by stock Accel-Sim) or rich (every register and
    /// predicate listed; lossless for `gpuenergy simulate --trace`).
    #[arg(long, default_value = "stock", value_parser = ["stock", "rich"])]
    pub form: String,
    /// Watchdog: stop a launch after this many warp instructions (exit status 1); 0 = no limit.
    #[arg(long = "max-warp-insts", default_value_t = super::run::DEFAULT_MAX_WARP_INSTS)]
    pub max_warp_insts: u64,
}

/// Runs `gpuenergy trace` with parsed arguments.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Some(w) = args.program.one(args.workload.as_deref(), false)? else {
        anyhow::bail!(
            "give --workload NAME (see `gpuenergy workloads`), --program FILE or --ptx/--cuda \
             FILE --kernel NAME"
        );
    };
    let name = w.info().name;
    let size = if args.size == "bench" {
        Size::Bench
    } else {
        Size::Test
    };
    let form = TraceForm::from_name(&args.form)
        .with_context(|| format!("unknown --form '{}'; expected stock or rich", args.form))?;
    let mut gpu = TraceGpu::create(&args.out, form)?;
    gpu.set_max_warp_insts_per_launch(super::run::warp_inst_limit(args.max_warp_insts));
    let report = w.run(size, &mut gpu, args.check)?;
    let kernels = std::mem::take(&mut gpu.kernels);
    let list = gpu.finish()?;
    let lines: u64 = kernels.iter().map(|k| k.1).sum();
    println!(
        "{}: {} kernel launch(es), {} warp instructions traced into {} ({} form)",
        name,
        kernels.len(),
        lines,
        list.display(),
        form.name()
    );
    if let Some(c) = report.check {
        println!(
            "check: {} ({})",
            if c.passed { "passed" } else { "FAILED" },
            c.detail
        );
        if !c.passed {
            anyhow::bail!("workload '{name}' does not match its CPU reference");
        }
    }
    Ok(())
}
