//! The user-program flags every command that runs workloads shares (`--program`, and the
//! one-launch shorthand `--ptx`/`--cuda FILE --kernel NAME --grid --block --param --shared`
//! with `--arch`), and the workload list they make together with `--workload`.
//!
//! Commands that take a list of workloads (`estimate`, `compare`, `optimize`, `rfstats`) run
//! the built-in workloads `--workload` names (default `all` when no program is given, none
//! when one is) followed by every `--program` and the shorthand's launch. Commands that run one
//! workload (`simulate`, `trace`, `run`) take exactly one of them. `--size` applies to built-in
//! workloads only: a program has fixed sizes and ignores it.

use super::run::{parse_dim3, parse_param};
use crate::program::{Source, UserProgram};
use anyhow::{bail, Result};
use sim::workloads::Workload;
use std::path::PathBuf;

/// The text of [`HELP`] as a literal, for `concat!` with a command's own examples.
macro_rules! program_help {
    () => {
        "\
User programs (README \"User programs\"):
  --program FILE        a program file (TOML): PTX/CUDA sources, buffers, launches, host<->device
                        copies, checks; results are labelled with its `name`
  --ptx FILE | --cuda FILE.cu  --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]] \\
      --param TYPE:VALUE ... [--shared BYTES]
                        one launch of one kernel; --param as for `gpuenergy run` (u32, s32, u64,
                        f32 scalars; buf:BYTES a zeroed buffer, buf:FILE a buffer holding the
                        file); results are labelled with the kernel's name
  --cuda compiles with nvcc (PATH, $CUDA_HOME/bin or `pip install nvidia-cuda-nvcc`) for --arch
  (default sm_75) and caches the PTX by content in $GPUENERGY_CACHE_DIR, $XDG_CACHE_HOME/gpuenergy
  or ~/.cache/gpuenergy. Commands that take several workloads run the --workload list (default:
  all, or none when a program is given) and then the programs; --size applies to built-in
  workloads only (a program has fixed sizes and ignores it)."
    };
}
pub(crate) use program_help;

/// What `--help` says after the flags of a command that takes user programs.
pub const HELP: &str = program_help!();

/// The user-program flags (module doc).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ProgramArgs {
    /// A program file (TOML: sources, buffers, launches, copies, checks). Repeatable where the
    /// command takes several workloads.
    #[arg(long = "program", value_name = "FILE")]
    pub programs: Vec<PathBuf>,
    /// One-launch shorthand: the PTX file of the kernel.
    #[arg(long, value_name = "FILE", conflicts_with = "cuda")]
    pub ptx: Option<PathBuf>,
    /// One-launch shorthand: a CUDA source, compiled to PTX with nvcc (cached by content).
    #[arg(long, value_name = "FILE.cu")]
    pub cuda: Option<PathBuf>,
    /// PTX target of --cuda: sm_75 (default), sm_80, sm_90, … (a program file names its own
    /// `arch`).
    #[arg(long, value_name = "sm_NN")]
    pub arch: Option<String>,
    /// One-launch shorthand: the kernel (.entry) name.
    #[arg(long)]
    pub kernel: Option<String>,
    /// One-launch shorthand: grid shape X[,Y[,Z]] (default 1).
    #[arg(long)]
    pub grid: Option<String>,
    /// One-launch shorthand: CTA shape X[,Y[,Z]] (default 32).
    #[arg(long)]
    pub block: Option<String>,
    /// One-launch shorthand: a kernel parameter TYPE:VALUE (u8, u16, u32, s32, u64, f32, f64,
    /// buf); repeat in declaration order.
    #[arg(long = "param", value_name = "TYPE:VALUE")]
    pub params: Vec<String>,
    /// One-launch shorthand: dynamic shared memory per CTA, bytes (default 0).
    #[arg(long)]
    pub shared: Option<u32>,
    /// One-launch shorthand: a cooperative launch (cudaLaunchCooperativeKernel: the whole grid
    /// co-resident, grid-wide synchronisation with cooperative groups' this_grid().sync()).
    #[arg(long)]
    pub cooperative: bool,
}

impl ProgramArgs {
    /// True when a program or the shorthand is given.
    pub fn given(&self) -> bool {
        !self.programs.is_empty() || self.ptx.is_some() || self.cuda.is_some()
    }

    /// How many workloads the flags name.
    pub fn count(&self) -> usize {
        self.programs.len() + usize::from(self.ptx.is_some() || self.cuda.is_some())
    }

    /// The shorthand's source: `--ptx` read, or `--cuda` compiled.
    pub fn shorthand_source(&self) -> Result<Option<Source>> {
        let shorthand_only = [
            (self.kernel.is_some(), "--kernel"),
            (self.grid.is_some(), "--grid"),
            (self.block.is_some(), "--block"),
            (!self.params.is_empty(), "--param"),
            (self.shared.is_some(), "--shared"),
            (self.cooperative, "--cooperative"),
        ];
        if self.ptx.is_none() && self.cuda.is_none() {
            if let Some((_, f)) = shorthand_only.iter().find(|(p, _)| *p) {
                bail!("{f} belongs to the one-launch shorthand: give --ptx FILE or --cuda FILE.cu");
            }
            if self.arch.is_some() {
                bail!("--arch applies to --cuda (a program file names its own 'arch')");
            }
            return Ok(None);
        }
        if self.ptx.is_some() && self.arch.is_some() {
            bail!("--arch applies to --cuda, not to --ptx");
        }
        Ok(Some(match (&self.ptx, &self.cuda) {
            (Some(p), _) => Source::ptx(p)?,
            (None, Some(c)) => Source::cuda(
                c,
                self.arch
                    .as_deref()
                    .unwrap_or(crate::program::nvcc::DEFAULT_ARCH),
            )?,
            (None, None) => unreachable!("checked above"),
        }))
    }

    /// Loads every program the flags name (program files first, then the shorthand), writing
    /// the loading notes (compilations, cache hits) to stderr unless `quiet`.
    pub fn load(&self, quiet: bool) -> Result<Vec<&'static UserProgram>> {
        let mut out: Vec<&'static UserProgram> = Vec::new();
        for p in &self.programs {
            out.push(UserProgram::load(p)?.leak());
        }
        if let Some(src) = self.shorthand_source()? {
            let Some(kernel) = &self.kernel else {
                bail!(
                    "--kernel NAME is needed with --ptx/--cuda; kernels: {}",
                    src.module.kernel_names().join(", ")
                );
            };
            let grid = parse_dim3(self.grid.as_deref().unwrap_or("1"), "grid")?;
            let block = parse_dim3(self.block.as_deref().unwrap_or("32"), "block")?;
            let params = self
                .params
                .iter()
                .map(|p| parse_param(p))
                .collect::<Result<Vec<_>>>()?;
            let mut flags = format!(
                "one-launch {kernel} grid {grid:?} block {block:?} shared {} params {:?}",
                self.shared.unwrap_or(0),
                self.params
            );
            if self.cooperative {
                flags.push_str(" cooperative");
            }
            out.push(
                UserProgram::one_launch(
                    src,
                    kernel,
                    grid,
                    block,
                    self.shared.unwrap_or(0),
                    self.cooperative,
                    &params,
                    &flags,
                )?
                .leak(),
            );
        }
        for (i, p) in out.iter().enumerate() {
            if out[..i].iter().any(|q| q.name == p.name) {
                bail!(
                    "two programs are named '{}' ({} and {}); results are labelled by name, \
                     rename one",
                    p.name,
                    out[..i]
                        .iter()
                        .find(|q| q.name == p.name)
                        .map_or("", |q| q.file.as_str()),
                    p.file
                );
            }
            for n in &p.notes {
                super::progress::note(quiet, n.clone());
            }
        }
        Ok(out)
    }

    /// The workloads of a command that takes several (module doc): `workload` (a name, a
    /// comma-separated list or `all`; `None` means `all` without programs, none with them),
    /// then the programs.
    pub fn workloads(
        &self,
        workload: Option<&str>,
        quiet: bool,
    ) -> Result<Vec<&'static dyn Workload>> {
        let mut list: Vec<&'static dyn Workload> = match (workload, self.given()) {
            (Some(w), _) => crate::study::workloads_named(w)?,
            (None, false) => crate::study::workloads_named("all")?,
            (None, true) => Vec::new(),
        };
        for p in self.load(quiet)? {
            list.push(p);
        }
        Ok(list)
    }

    /// The one workload of a command that runs one: the built-in `workload`, or the one
    /// program the flags name.
    pub fn one(
        &self,
        workload: Option<&str>,
        quiet: bool,
    ) -> Result<Option<&'static dyn Workload>> {
        match (workload, self.count()) {
            (Some(_), n) if n > 0 => {
                bail!("give --workload or a program (--program, --ptx, --cuda), not both")
            }
            (Some(w), _) if w == "all" || w.contains(',') => bail!(
                "--workload '{w}': this command runs one workload (its detailed counters); \
                 give one name, or use `estimate`/`compare`, which take a comma list or `all`"
            ),
            (Some(w), _) => Ok(Some(sim::workloads::find(w).ok_or_else(|| {
                let names: Vec<&str> = sim::workloads::all()
                    .iter()
                    .map(|w| w.info().name)
                    .collect();
                anyhow::anyhow!("unknown workload '{w}'; known: {}", names.join(", "))
            })?)),
            (None, 0) => {
                self.shorthand_source()?;
                Ok(None)
            }
            (None, 1) => Ok(Some(self.load(quiet)?.remove(0))),
            (None, _) => {
                bail!("this command runs one program: give one --program (or --ptx/--cuda)")
            }
        }
    }
}

/// The size shown for `w` at tier `size`: the tier for a built-in workload, `program` for a
/// user program (whose sizes are its own).
pub fn size_label(w: &dyn Workload, size: sim::workloads::Size) -> &'static str {
    if w.info().suite == "program" {
        "program"
    } else {
        size.as_str()
    }
}
