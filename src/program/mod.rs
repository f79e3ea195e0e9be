//! User programs: a host program described by a program file ([`file`]), or the one-launch
//! shorthand of the command line (`--ptx`/`--cuda FILE --kernel NAME --grid --block --param
//! --shared`), loaded into a [`UserProgram`] that implements [`sim::workloads::Workload`], so
//! that `Study`, `compare`, `optimize`, `sweep`, `simulate`, `trace` and `rfstats` run it as
//! they run a built-in workload.
//!
//! - [`file`]: the program file's schema and its checks (errors name file, line and key);
//! - [`host`]: the host program that drives a [`sim::Gpu`] (allocations, initial contents,
//!   launches, host↔device copies through `Gpu::copy_to_device`/`copy_from_device`, so that
//!   they count in the Activity as a built-in workload's do) and the checks;
//! - [`npy`]: a strict `.npy` reader and writer;
//! - [`nvcc`]: CUDA sources compiled to PTX by NVIDIA's compiler, cached by content.
//!
//! A program is keyed by its content (the program file, every source, every data file it
//! reads): [`sim::workloads::Workload::identity`] returns `program:NAME:HASH`, which is what the
//! Activity cache and the sweep store key a run by. A program has fixed sizes: the `--size`
//! tier of the built-in workloads does not apply to it.

pub mod dtype;
pub mod file;
pub mod host;
mod init;
pub mod launch_args;
pub mod npy;
pub mod nvcc;
pub mod nvcc_find;
pub mod shorthand;

pub use file::{DType, FileError};

use crate::digest::{fnv1a, FNV_OFFSET};
use sim::ptx::{Kernel, Module, Ty};
use sim::workloads::WorkloadInfo;
use sim::ParamValue;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A number of a program file: integers are kept exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// An integer.
    Int(i128),
    /// A floating-point number.
    Float(f64),
}

impl Num {
    /// The value as a float.
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

/// Initial contents of a buffer (or the data of a host-to-device copy).
#[derive(Clone, Debug)]
pub enum Init {
    /// All zeros: the allocation itself (no host-to-device copy).
    Zeros,
    /// Every element the same value.
    Constant(Num),
    /// Element i is `start + i·step` (integers exact; floats computed in f64, then rounded).
    Range {
        /// Value of element 0.
        start: Num,
        /// Increment per element.
        step: Num,
    },
    /// Uniform values from SplitMix64 seeded with `seed`: integers in `[min, max]`, floats in
    /// `[min, max)` (computed in f64, then rounded to the dtype).
    Random {
        /// Generator seed.
        seed: u64,
        /// Lower bound.
        min: Num,
        /// Upper bound.
        max: Num,
    },
    /// A file's bytes (raw, or a `.npy` payload), read when the program was loaded.
    File {
        /// Where it came from.
        path: PathBuf,
        /// Its contents, exactly the buffer's size.
        data: Arc<Vec<u8>>,
    },
}

/// A device buffer of the program.
#[derive(Clone, Debug)]
pub struct Buffer {
    /// Its name (the key of `[buffers.NAME]`).
    pub name: String,
    /// Element type.
    pub dtype: DType,
    /// Elements.
    pub count: u64,
    /// Initial contents.
    pub init: Init,
}

impl Buffer {
    /// Size in bytes.
    pub fn bytes(&self) -> u64 {
        self.count * self.dtype.size()
    }
}

/// A launch argument.
#[derive(Clone, Debug)]
pub enum Arg {
    /// The device address of buffer i.
    Buffer(usize),
    /// Conditional handle i (a `cudaGraphConditionalHandle`, 64 bits: the device address of
    /// the 32-bit word that holds its value).
    Handle(usize),
    /// A scalar.
    Scalar(ParamValue),
    /// Texture object i (a `cudaTextureObject_t`, the handle the device gave it).
    Texture(usize),
}

/// A texture object of the program (`[textures.NAME]`), created over a buffer when the
/// program starts.
#[derive(Clone, Debug)]
pub struct Texture {
    /// Its name (the key of `[textures.NAME]`).
    pub name: String,
    /// The buffer its texels are.
    pub buffer: usize,
    /// Shape, format and sampler state (`base` is set to the buffer's address at the run).
    pub desc: sim::texture::TextureDesc,
}

/// One step of the host program.
#[derive(Clone, Debug)]
pub enum Step {
    /// Kernel launches.
    Launch {
        /// The kernel.
        kernel: Arc<Kernel>,
        /// Grid shape.
        grid: [u32; 3],
        /// CTA shape.
        block: [u32; 3],
        /// Dynamic shared memory per CTA, bytes.
        shared: u32,
        /// Arguments in parameter order.
        args: Vec<Arg>,
        /// Launches in a row.
        repeat: u32,
        /// A cooperative launch ([`sim::Launch::cooperative`]).
        cooperative: bool,
    },
    /// A host-to-device copy of a whole buffer.
    ToDevice {
        /// Buffer index.
        buffer: usize,
        /// What is copied.
        init: Init,
        /// Copies in a row.
        repeat: u32,
    },
    /// A device-to-host copy of a whole buffer.
    ToHost {
        /// Buffer index.
        buffer: usize,
        /// Name the contents are kept under for a check.
        snapshot: Option<String>,
        /// File the contents are written to by `run --program`.
        file: Option<PathBuf>,
        /// Copies in a row.
        repeat: u32,
    },
    /// A group of steps run `repeat` times.
    Group {
        /// The steps.
        steps: Vec<Step>,
        /// Times the group runs.
        repeat: u32,
    },
    /// A group of steps run under a conditional handle, as a CUDA-graph conditional node.
    Conditional {
        /// The steps (the node's body graph).
        steps: Vec<Step>,
        /// Conditional handle index.
        handle: usize,
        /// `while` or `if`.
        kind: CondKind,
    },
}

/// The kind of a conditional group ([`Step::Conditional`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CondKind {
    /// `while`: the body runs as long as the handle's value is nonzero, checked before the
    /// first iteration and after each (CUDA's `cudaGraphCondTypeWhile`).
    While {
        /// Iterations allowed; one more is a runtime error.
        max_iterations: u32,
        /// Where the guard is set (file, line and key), for that error.
        at: String,
    },
    /// `if`: the body runs once when the handle's value is nonzero (`cudaGraphCondTypeIf`).
    If,
}

/// A conditional handle of the program (`[conditionals]`): a 32-bit value in device memory,
/// set by kernels with `cudaGraphSetConditional` and read by the host program when a
/// conditional group is reached.
#[derive(Clone, Debug)]
pub struct Conditional {
    /// Its name (the key of `[conditionals]`).
    pub name: String,
    /// The value it holds when the program starts (`cudaGraphCondAssignDefault`).
    pub default: u32,
}

/// How a check compares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    /// Integers: every element equal.
    Exact,
    /// Floats: `|got − want| ≤ atol + rtol·|want|` (numpy's `allclose`); NaN fails.
    Close {
        /// Relative tolerance.
        rtol: f64,
        /// Absolute tolerance.
        atol: f64,
    },
}

/// A check of an output against a reference.
#[derive(Clone, Debug)]
pub struct Check {
    /// What is checked (the buffer's or the snapshot's name).
    pub label: String,
    /// Buffer index (its dtype and count).
    pub buffer: usize,
    /// The snapshot checked, or `None` for the buffer at the end of the program.
    pub snapshot: Option<String>,
    /// Reference elements (little-endian, the buffer's dtype).
    pub reference: Arc<Vec<u8>>,
    /// Comparison.
    pub tolerance: Tolerance,
}

/// A parsed PTX source of a program.
#[derive(Clone, Debug)]
pub struct Source {
    /// The file the kernels come from, for messages (a CUDA source's cached PTX).
    pub label: String,
    /// The module.
    pub module: Module,
    /// What identifies the source's content (its text; for CUDA also the PTX).
    pub content: Vec<u8>,
    /// A line for stderr about how the source was obtained (CUDA: compiled or from the cache).
    pub note: Option<String>,
}

impl Source {
    /// A PTX file.
    pub fn ptx(path: &Path) -> anyhow::Result<Source> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read PTX file {}: {e}", path.display()))?;
        let label = path.display().to_string();
        // a kernel the front end cannot take is refused when it is launched, not here
        let module = Module::parse_lenient(&text, &label)?;
        Ok(Source {
            label,
            module,
            content: text.into_bytes(),
            note: None,
        })
    }

    /// A CUDA file compiled for `arch` ([`nvcc::compile`]).
    pub fn cuda(path: &Path, arch: &str) -> anyhow::Result<Source> {
        let c = nvcc::compile(path, arch)?;
        let label = c.path.display().to_string();
        let module = Module::parse_lenient(&c.ptx, &label)
            .map_err(|e| anyhow::anyhow!("{} (compiled from {}): {e}", label, path.display()))?;
        let mut content = std::fs::read(path).unwrap_or_default();
        content.extend_from_slice(c.ptx.as_bytes());
        Ok(Source {
            label,
            module,
            content,
            note: Some(format!(
                "nvcc: {} for {arch} -> {} ({})",
                path.display(),
                c.path.display(),
                if c.cache_hit { "cache hit" } else { "compiled" }
            )),
        })
    }
}

/// A loaded host program: what it allocates, launches and copies, and how its outputs are
/// checked. Implements [`sim::workloads::Workload`] ([`host`]).
#[derive(Debug)]
pub struct UserProgram {
    /// Its name (labels results).
    pub name: String,
    /// The program file (or a description of the one-launch shorthand).
    pub file: String,
    /// `program:NAME:HASH` (module doc).
    pub identity: String,
    /// The workload description. `WorkloadInfo` holds `&'static str`s: the few strings of a
    /// loaded program are leaked once when it is loaded (a command loads a handful).
    pub info: WorkloadInfo,
    /// Buffers in name order (their allocation order).
    pub buffers: Vec<Buffer>,
    /// Steps in order.
    pub steps: Vec<Step>,
    /// Conditional handles in name order (allocated after the buffers).
    pub conditionals: Vec<Conditional>,
    /// Texture objects in name order (created after the conditionals).
    pub textures: Vec<Texture>,
    /// Checks.
    pub checks: Vec<Check>,
    /// Lines for stderr from loading (compilations, cache hits).
    pub notes: Vec<String>,
    /// Write the `file` of `to_host` copies when the program runs (only `run --program` does:
    /// other commands run a program several times, in parallel).
    pub write_outputs: bool,
    /// Call-stack bytes per thread for kernels that call recursive device functions
    /// (`stack_bytes`, like `cudaDeviceSetLimit(cudaLimitStackSize, n)`); `None`: the device's
    /// default ([`sim::emu::DEFAULT_STACK_LIMIT_BYTES`]).
    pub stack_bytes: Option<u32>,
}

/// Checks a program's name: 1–64 characters of `A-Z a-z 0-9 _ . -`, not `all` and not a
/// built-in workload's.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty()
        || name.len() > 64
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
    {
        return Err(format!(
            "'{name}' is not a program name: 1 to 64 characters of A-Z, a-z, 0-9, '_', '.', '-'"
        ));
    }
    if name == "all" || sim::workloads::find(name).is_some() {
        return Err(format!(
            "'{name}' is a built-in workload's name; results are labelled by name, choose \
             another"
        ));
    }
    Ok(())
}

/// Kernel launches the steps make (with repeats), saturating.
pub fn count_launches(steps: &[Step]) -> u64 {
    steps.iter().fold(0u64, |n, s| {
        n.saturating_add(match s {
            Step::Launch { repeat, .. } => *repeat as u64,
            Step::Group { steps, repeat } => count_launches(steps).saturating_mul(*repeat as u64),
            // a conditional body runs a number of times known only when the program runs:
            // counted once
            Step::Conditional { steps, .. } => count_launches(steps),
            _ => 0,
        })
    })
}

fn hash_init(h: u64, init: &Init) -> u64 {
    match init {
        Init::File { data, .. } => fnv1a(fnv1a(h, b"file\n"), data),
        _ => h,
    }
}

fn hash_steps(mut h: u64, steps: &[Step]) -> u64 {
    for s in steps {
        match s {
            Step::ToDevice { init, .. } => h = hash_init(h, init),
            Step::Group { steps, .. } | Step::Conditional { steps, .. } => h = hash_steps(h, steps),
            _ => {}
        }
    }
    h
}

impl UserProgram {
    /// Puts a program together: computes its content identity over `description` (the program
    /// file's text, or the shorthand's flags), the sources and every data file, and leaks its
    /// workload description (see [`UserProgram::info`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn assemble(
        name: String,
        file: String,
        description: &[u8],
        sources: Vec<Source>,
        buffers: Vec<Buffer>,
        steps: Vec<Step>,
        checks: Vec<Check>,
    ) -> UserProgram {
        let mut h = fnv1a(FNV_OFFSET, b"gpuenergy-program v1\n");
        h = fnv1a(h, description);
        for s in &sources {
            h = fnv1a(h, &(s.content.len() as u64).to_le_bytes());
            h = fnv1a(h, &s.content);
        }
        for b in &buffers {
            h = hash_init(h, &b.init);
        }
        h = hash_steps(h, &steps);
        for c in &checks {
            h = fnv1a(h, &c.reference);
        }
        let identity = format!("program:{name}:{h:016x}");
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        let info = WorkloadInfo {
            name: leak(name.clone()),
            suite: "program",
            character: "",
            description: leak(format!("user program {file}")),
        };
        UserProgram {
            name,
            file,
            identity,
            info,
            buffers,
            steps,
            conditionals: Vec::new(),
            textures: Vec::new(),
            checks,
            notes: sources.iter().filter_map(|s| s.note.clone()).collect(),
            write_outputs: false,
            stack_bytes: None,
        }
    }

    /// The one-launch shorthand: `source`'s kernel `kernel` launched once with `params` (the
    /// `--param` values: scalars, zeroed buffers of a byte count, buffers holding a file's
    /// bytes, each a `u8` buffer named `buf0`, `buf1`, … in order), cooperatively when
    /// `cooperative`. `flags` describes the command line (it is part of the identity).
    #[allow(clippy::too_many_arguments)]
    pub fn one_launch(
        source: Source,
        kernel: &str,
        grid: [u32; 3],
        block: [u32; 3],
        shared: u32,
        cooperative: bool,
        params: &[crate::program::shorthand::ParamArg],
        flags: &str,
    ) -> anyhow::Result<UserProgram> {
        use crate::program::shorthand::ParamArg;
        check_name(kernel).map_err(|e| anyhow::anyhow!("--kernel: {e}"))?;
        let modules = vec![(source.label.clone(), source.module.clone())];
        let k = file::find_kernel(&modules, kernel)
            .map_err(|e| anyhow::anyhow!("{}: {e}", source.label))?;
        file::check_dims(grid, false).map_err(|e| anyhow::anyhow!("--grid: {e}"))?;
        file::check_dims(block, true).map_err(|e| anyhow::anyhow!("--block: {e}"))?;
        file::check_block_for_kernel(&k, block).map_err(|e| anyhow::anyhow!("--block: {e}"))?;
        let decl = k.params();
        if params.len() != decl.len() {
            anyhow::bail!(
                "{} --param values given; kernel '{kernel}' declares {} parameters: {}",
                params.len(),
                decl.len(),
                decl.iter()
                    .map(|p| format!(".{} {}", format!("{:?}", p.ty).to_lowercase(), p.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let mut buffers = Vec::new();
        let mut args = Vec::new();
        for (i, (a, p)) in params.iter().zip(decl).enumerate() {
            let ty = format!(".{}", format!("{:?}", p.ty).to_lowercase());
            match a {
                ParamArg::Scalar(v) => {
                    let ok = matches!(
                        (v, p.ty),
                        (
                            ParamValue::U32(_) | ParamValue::S32(_),
                            Ty::U32 | Ty::S32 | Ty::B32
                        ) | (ParamValue::F32(_), Ty::F32 | Ty::B32)
                            | (ParamValue::U64(_), Ty::U64 | Ty::S64 | Ty::B64)
                    );
                    if !ok {
                        anyhow::bail!(
                            "--param {i}: parameter '{}' is declared {ty}; {v:?} does not match it",
                            p.name
                        );
                    }
                    args.push(Arg::Scalar(v.clone()));
                }
                ParamArg::Zeroed(_) | ParamArg::File(_) => {
                    if !matches!(p.ty, Ty::U64 | Ty::S64 | Ty::B64) {
                        anyhow::bail!(
                            "--param {i}: a buffer passes a 64-bit device pointer, but parameter \
                             '{}' is declared {ty}",
                            p.name
                        );
                    }
                    let (count, init) = match a {
                        ParamArg::Zeroed(n) => (*n, Init::Zeros),
                        ParamArg::File(f) => {
                            let data = std::fs::read(f).map_err(|e| {
                                anyhow::anyhow!("--param {i}: cannot read {}: {e}", f.display())
                            })?;
                            (
                                data.len() as u64,
                                Init::File {
                                    path: f.clone(),
                                    data: Arc::new(data),
                                },
                            )
                        }
                        ParamArg::Scalar(_) => unreachable!("matched above"),
                    };
                    if count == 0 || count > file::MAX_TOTAL_BYTES {
                        anyhow::bail!(
                            "--param {i}: a buffer holds 1 up to {} bytes, not {count}",
                            file::MAX_TOTAL_BYTES
                        );
                    }
                    args.push(Arg::Buffer(buffers.len()));
                    buffers.push(Buffer {
                        name: format!("buf{}", buffers.len()),
                        dtype: DType::U8,
                        count,
                        init,
                    });
                }
            }
        }
        let total: u64 = buffers.iter().map(Buffer::bytes).sum();
        if total > file::MAX_TOTAL_BYTES {
            anyhow::bail!(
                "the buffers need {total} bytes, more than the emulator's {}-byte global memory",
                file::MAX_TOTAL_BYTES
            );
        }
        let steps = vec![Step::Launch {
            kernel: k,
            grid,
            block,
            shared,
            args,
            repeat: 1,
            cooperative,
        }];
        let file = source.label.clone();
        Ok(UserProgram::assemble(
            kernel.to_string(),
            file,
            flags.as_bytes(),
            vec![source],
            buffers,
            steps,
            Vec::new(),
        ))
    }

    /// Kernel launches one run makes.
    pub fn launches(&self) -> u64 {
        count_launches(&self.steps)
    }

    /// The program as a `'static` workload (leaked: a command loads a handful, once).
    pub fn leak(self) -> &'static UserProgram {
        Box::leak(Box::new(self))
    }
}
