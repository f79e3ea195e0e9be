//! `gpuenergy run`: functional execution of a built-in workload or of a user's PTX kernel on the
//! SIMT emulator, with the dynamic warp-instruction count, wall time and emulation rate.

use crate::report;
use anyhow::{bail, Context, Result};
use sim::emu::Emulator;
use sim::workloads::{self, Size};
use sim::{DevPtr, Gpu, Launch, ParamValue, SimError};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const AFTER_HELP: &str = "\
Built-in workload:
  gpuenergy run --workload hotspot --size test --check

User kernel (--ptx, or --cuda k.cu compiled with nvcc for --arch, default sm_75):
  gpuenergy run --ptx k.ptx --kernel saxpy --grid 16 --block 256 \\
      --param u32:4096 --param f32:2.0 --param buf:x.bin --param buf:16384 --dump 1:y.bin

User program (README \"User programs\"):
  gpuenergy run --program my.toml --check

Kernel parameters (--param, one per kernel parameter, in declaration order):
  u8:N  u16:N  u32:N  s32:N  u64:N  f32:X  f64:X
                                    scalar values (N may be decimal or 0x hex)
  buf:BYTES                         allocate BYTES of zeroed device memory, pass its address (.u64)
  buf:FILE                          allocate and upload the file's bytes, pass its address
                                    (a value that is not a plain number is a file name)
Buffers are numbered 0, 1, ... in the order they appear; --dump INDEX:FILE writes buffer INDEX
back to FILE after the kernel has run (repeatable). --grid and --block take X[,Y[,Z]].

Watchdog: a launch that executes more than --max-warp-insts warp instructions (default
1000000000; 0 = no limit) is stopped as a runaway kernel.

Exit status: 0 on success; 1 when --max-warp-insts stopped a launch; 2 on any other error, or
when --check finds a mismatch.";

/// Default of `--max-warp-insts`: warp instructions one functional launch may execute. The
/// largest launch of the built-in suite at `--size bench` (sgemm's single launch) executes
/// 48.5 M, about 1/20 of it, so only a kernel that does not terminate reaches it; at the
/// emulator's 6-16 M warp instructions/s that takes one to three minutes.
pub const DEFAULT_MAX_WARP_INSTS: u64 = 1_000_000_000;

/// `--max-warp-insts` as the emulator's limit (`0` = none).
pub fn warp_inst_limit(n: u64) -> Option<u64> {
    (n > 0).then_some(n)
}

/// Arguments of `gpuenergy run`.
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Built-in workload to run (see `gpuenergy workloads`).
    #[arg(long, conflicts_with_all = ["ptx", "cuda", "programs"])]
    pub workload: Option<String>,
    /// Input size tier of the workload: test (default) or bench.
    #[arg(long)]
    pub size: Option<String>,
    /// Compare the workload's results with its CPU reference (a program's with its
    /// [[checks]]); exit 2 on mismatch.
    #[arg(long)]
    pub check: bool,
    /// A user program: --program FILE (run on the emulator; its `to_host` copies with a
    /// `file` are written, --check runs its [[checks]]), or one launch with --ptx/--cuda.
    #[command(flatten)]
    pub program: super::program::ProgramArgs,
    /// INDEX:FILE: write buffer INDEX back to FILE after the run (repeatable).
    #[arg(long = "dump")]
    pub dumps: Vec<String>,
    /// Watchdog: stop a launch after this many warp instructions (exit status 1); 0 = no limit.
    #[arg(long = "max-warp-insts", default_value_t = DEFAULT_MAX_WARP_INSTS)]
    pub max_warp_insts: u64,
}

/// Parses `X[,Y[,Z]]`.
pub fn parse_dim3(s: &str, what: &str) -> Result<[u32; 3]> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        bail!("--{what} '{s}': expected X[,Y[,Z]]");
    }
    let mut d = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = p
            .parse::<u32>()
            .ok()
            .filter(|&v| v > 0)
            .with_context(|| format!("--{what} '{s}': '{p}' is not a positive integer"))?;
    }
    // The launch limits of CUDA (CUDA C++ Programming Guide, "Technical Specifications per
    // Compute Capability"): a grid of at most 2^31 - 1 x 65535 x 65535 CTAs, a CTA of at most
    // 1024 x 1024 x 64 threads and 1024 in all.
    let (max, total): ([u32; 3], Option<u64>) = if what == "block" {
        ([1024, 1024, 64], Some(1024))
    } else {
        ([i32::MAX as u32, 65535, 65535], None)
    };
    for (i, axis) in ["x", "y", "z"].iter().enumerate() {
        if d[i] > max[i] {
            bail!(
                "--{what} '{s}': {axis} = {} is above the CUDA limit {}",
                d[i],
                max[i]
            );
        }
    }
    if let Some(t) = total {
        let n = d.iter().map(|&v| v as u64).product::<u64>();
        if n > t {
            bail!("--{what} '{s}': {n} threads in a CTA, above the CUDA limit {t}");
        }
    }
    Ok(d)
}

pub use crate::program::shorthand::{parse_param, ParamArg};

/// Parses `INDEX:FILE`.
pub fn parse_dump(s: &str) -> Result<(usize, PathBuf)> {
    let (i, f) = s
        .split_once(':')
        .with_context(|| format!("--dump '{s}': expected INDEX:FILE"))?;
    let i = i
        .parse::<usize>()
        .with_context(|| format!("--dump '{s}': '{i}' is not a buffer index"))?;
    if f.is_empty() {
        bail!("--dump '{s}': missing file name");
    }
    Ok((i, PathBuf::from(f)))
}

/// The functional emulator of `run`: it models no machine, so a cooperative launch is checked
/// for co-residency against the GTX480 preset (the tool's default machine), whose core clock
/// is also the emulator's default for `%globaltimer`.
fn functional_emulator() -> Result<Emulator> {
    let mut emu = Emulator::new();
    let cfg = sim::config::GpuConfig::preset("gtx480")?;
    emu.coop_check = Some(sim::timing::cooperative_check(&cfg));
    Ok(emu)
}

/// The emulator with the wall time spent inside kernel launches accumulated, so the rate excludes
/// host-side input generation and checking.
struct Timed {
    emu: Emulator,
    in_launch: Duration,
}

impl Gpu for Timed {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.emu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.emu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.emu.copy_from_device(src, out)
    }
    fn set_stack_limit(&mut self, bytes: u32) -> Result<(), SimError> {
        self.emu.set_stack_limit(bytes)
    }
    fn create_texture(&mut self, desc: &sim::texture::TextureDesc) -> Result<u64, SimError> {
        self.emu.create_texture(desc)
    }
    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        let t = Instant::now();
        let r = self.emu.launch(launch);
        self.in_launch += t.elapsed();
        // the kernel's device printf output, as CUDA prints it after the launch
        for line in self.emu.take_printf_output() {
            print!("{line}");
        }
        r
    }
}

/// Runs `gpuenergy run` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    if let Some(name) = &args.workload {
        return run_workload(name, &args);
    }
    let p = &args.program;
    if !args.dumps.is_empty() && p.ptx.is_none() && p.cuda.is_none() {
        bail!(
            "--dump applies to --ptx/--cuda (a program file writes files with its to_host copies)"
        );
    }
    if args.size.is_some() {
        bail!("--size applies to --workload only (a program has fixed sizes)");
    }
    match (p.programs.as_slice(), p.ptx.is_some() || p.cuda.is_some()) {
        ([], false) => {
            p.shorthand_source()?;
            bail!("give --workload NAME, --program FILE, or --ptx/--cuda FILE --kernel NAME (see --help)")
        }
        ([f], false) => run_program(f, &args),
        ([], true) => {
            if args.check {
                bail!("--check applies to --workload and --program");
            }
            run_user_kernel(&args)
        }
        _ => bail!("run takes one program: one --program, or --ptx/--cuda"),
    }
}

fn run_program(file: &std::path::Path, args: &Args) -> Result<()> {
    use sim::workloads::Workload;
    let mut prog = crate::program::UserProgram::load(file)?;
    for n in &prog.notes {
        eprintln!("{n}");
    }
    if args.check && prog.checks.is_empty() {
        bail!("--check: {} has no [[checks]]", file.display());
    }
    prog.write_outputs = true;
    let mut gpu = Timed {
        emu: functional_emulator()?,
        in_launch: Duration::ZERO,
    };
    gpu.emu.max_warp_insts_per_launch = warp_inst_limit(args.max_warp_insts);
    let t = Instant::now();
    let rep = prog
        .run(Size::Test, &mut gpu, args.check)
        .with_context(|| format!("program '{}' ({})", prog.name, prog.file))?;
    let secs = t.elapsed().as_secs_f64();
    let check = rep.check.as_ref().map(|c| (c.passed, c.detail.as_str()));
    print!(
        "{}",
        report::run::program(
            &prog.name,
            &prog.file,
            rep.launches as u64,
            gpu.emu.warp_insts(),
            secs,
            gpu.in_launch.as_secs_f64(),
            check,
        )
    );
    if let Some(c) = rep.check.filter(|c| !c.passed) {
        bail!("program '{}' failed its checks: {}", prog.name, c.detail);
    }
    Ok(())
}

fn run_workload(name: &str, args: &Args) -> Result<()> {
    let Some(w) = workloads::find(name) else {
        let names: Vec<&str> = workloads::all().iter().map(|w| w.info().name).collect();
        bail!("unknown workload '{name}'; available: {}", names.join(", "));
    };
    let size: Size = args.size.as_deref().unwrap_or("test").parse()?;
    let mut gpu = Timed {
        emu: functional_emulator()?,
        in_launch: Duration::ZERO,
    };
    gpu.emu.max_warp_insts_per_launch = warp_inst_limit(args.max_warp_insts);
    let t = Instant::now();
    let rep = w
        .run(size, &mut gpu, args.check)
        .with_context(|| format!("workload '{name}' ({size})"))?;
    let secs = t.elapsed().as_secs_f64();
    let check = rep.check.as_ref().map(|c| (c.passed, c.detail.as_str()));
    print!(
        "{}",
        report::run::workload(
            name,
            size,
            rep.launches as u64,
            gpu.emu.warp_insts(),
            secs,
            gpu.in_launch.as_secs_f64(),
            check,
        )
    );
    if let Some(c) = rep.check.filter(|c| !c.passed) {
        bail!("workload '{name}' failed its check: {}", c.detail);
    }
    Ok(())
}

fn run_user_kernel(args: &Args) -> Result<()> {
    let p = &args.program;
    let src = p
        .shorthand_source()?
        .expect("run_user_kernel is called with --ptx or --cuda");
    if let Some(n) = &src.note {
        eprintln!("{n}");
    }
    let Some(kname) = p.kernel.as_deref() else {
        bail!(
            "--kernel NAME is needed with --ptx/--cuda; kernels: {}",
            src.module.kernel_names().join(", ")
        );
    };
    let modules = [(src.label.clone(), src.module.clone())];
    let kernel = crate::program::file::find_kernel(&modules, kname)
        .map_err(|e| anyhow::anyhow!("{}: {e}", src.label))?;
    let grid = parse_dim3(p.grid.as_deref().unwrap_or("1"), "grid")?;
    let block = parse_dim3(p.block.as_deref().unwrap_or("32"), "block")?;
    let dumps: Vec<(usize, PathBuf)> = args
        .dumps
        .iter()
        .map(|d| parse_dump(d))
        .collect::<Result<_>>()?;
    let mut emu = functional_emulator()?;
    emu.max_warp_insts_per_launch = warp_inst_limit(args.max_warp_insts);
    let mut params = Vec::new();
    let mut buffers: Vec<(DevPtr, u64)> = Vec::new();
    for p in &p.params {
        match parse_param(p)? {
            ParamArg::Scalar(v) => params.push(v),
            ParamArg::Zeroed(n) => {
                let a = emu.alloc(n)?;
                buffers.push((a, n));
                params.push(ParamValue::U64(a));
            }
            ParamArg::File(f) => {
                let data = std::fs::read(&f)
                    .with_context(|| format!("--param {p}: cannot read {}", f.display()))?;
                let a = emu.alloc(data.len() as u64)?;
                emu.copy_to_device(a, &data)?;
                buffers.push((a, data.len() as u64));
                params.push(ParamValue::U64(a));
            }
        }
    }
    for (i, _) in &dumps {
        if *i >= buffers.len() {
            bail!("--dump {i}: there are only {} buffers", buffers.len());
        }
    }
    let launch = Launch {
        kernel: kernel.clone(),
        grid,
        block,
        params,
        shared_bytes: p.shared.unwrap_or(0),
        cooperative: p.cooperative,
    };
    let t = Instant::now();
    let r = emu.launch(&launch);
    let secs = t.elapsed().as_secs_f64();
    // the kernel's device printf output, as CUDA prints it after the launch
    for line in emu.take_printf_output() {
        print!("{line}");
    }
    r?;
    print!(
        "{}",
        report::run::user_kernel(&kernel, emu.warp_insts(), secs)
    );
    for (i, f) in dumps {
        let (a, n) = buffers[i];
        let mut out = vec![0u8; n as usize];
        emu.copy_from_device(a, &mut out)?;
        std::fs::write(&f, &out).with_context(|| format!("cannot write {}", f.display()))?;
        print!("{}", report::run::dump(i, n, &f));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn param_syntax() {
        assert_eq!(
            parse_param("u32:0x10").unwrap(),
            ParamArg::Scalar(ParamValue::U32(16))
        );
        assert_eq!(
            parse_param("s32:-5").unwrap(),
            ParamArg::Scalar(ParamValue::S32(-5))
        );
        assert_eq!(
            parse_param("f32:0.5").unwrap(),
            ParamArg::Scalar(ParamValue::F32(0.5))
        );
        assert_eq!(parse_param("buf:4096").unwrap(), ParamArg::Zeroed(4096));
        assert_eq!(
            parse_param("buf:x.bin").unwrap(),
            ParamArg::File(PathBuf::from("x.bin"))
        );
        assert!(parse_param("u32:-1").is_err());
        assert!(parse_param("i32:1").is_err());
        assert!(parse_param("u32").is_err());
        assert_eq!(
            parse_param("u8:255").unwrap(),
            ParamArg::Scalar(ParamValue::U8(255))
        );
        assert_eq!(
            parse_param("u16:0x10").unwrap(),
            ParamArg::Scalar(ParamValue::U16(16))
        );
        assert_eq!(
            parse_param("f64:0.25").unwrap(),
            ParamArg::Scalar(ParamValue::F64(0.25))
        );
        assert!(parse_param("u8:256").is_err());
        assert!(parse_param("u16:70000").is_err());
        assert!(parse_param("f64:x").is_err());
        assert_eq!(parse_dim3("16,2", "grid").unwrap(), [16, 2, 1]);
        assert!(parse_dim3("0", "grid").is_err());
        assert!(parse_dim3("1,2,3,4", "grid").is_err());
        assert_eq!(
            parse_dim3("2147483647", "grid").unwrap()[0],
            i32::MAX as u32
        );
        let e = parse_dim3("1,65536", "grid").unwrap_err().to_string();
        assert!(e.contains("y = 65536") && e.contains("65535"), "{e}");
        assert!(parse_dim3("1024", "block").is_ok());
        let e = parse_dim3("32,32,2", "block").unwrap_err().to_string();
        assert!(e.contains("2048 threads") && e.contains("1024"), "{e}");
        assert!(parse_dim3("1,1,65", "block").is_err());
        assert_eq!(parse_dump("1:y.bin").unwrap(), (1, PathBuf::from("y.bin")));
        assert!(parse_dump("y.bin").is_err());
    }
}
