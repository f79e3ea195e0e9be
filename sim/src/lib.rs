//! `sim` — the cycle-level GPU simulator.
//!
//! Front ends produce [`inst::WarpInst`] streams ([`stream::KernelStream`]); the timing model turns
//! them into cycles and the [`activity`] record. `sim` knows nothing of joules.

#![warn(missing_docs)]

pub mod activity;
pub mod config;
pub mod emu;
pub mod inst;
pub mod ptx;
pub mod sample;
pub mod stream;
pub mod texture;
pub mod timing;
pub mod trace;
pub mod workloads;

pub use stream::{DevPtr, Dim3, Gpu, KernelInfo, KernelStream, ParamValue, Step};

/// Errors of the simulator crate. Every variant that concerns an input file names the file and,
/// where there is one, the line.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A PTX error (syntax, types, undeclared names) at a source position.
    #[error("{file}:{line}:{col}: {msg}")]
    Parse {
        /// File name.
        file: String,
        /// Line, counted from 1.
        line: usize,
        /// Column, counted from 1.
        col: usize,
        /// What was expected or found.
        msg: String,
    },
    /// A malformed Accel-Sim trace.
    #[error("{file}:{line}: {msg}")]
    Trace {
        /// Trace file name.
        file: String,
        /// Line, counted from 1.
        line: usize,
        /// What is wrong.
        msg: String,
    },
    /// A configuration error (TOML syntax, unknown key or bad value); the message names the key.
    #[error("config {file}: {msg}")]
    Config {
        /// Configuration file name (or preset name).
        file: String,
        /// What is wrong, naming the key or line.
        msg: String,
    },
    /// A launch the kernel or the machine cannot take (grid, block, parameters, resources).
    #[error("launch of kernel '{kernel}': {msg}")]
    Launch {
        /// Kernel name.
        kernel: String,
        /// What does not fit or is missing.
        msg: String,
    },
    /// A functional error while emulating a kernel (for instance a bad address).
    #[error("runtime error in kernel '{kernel}' at pc {pc:#x}: {msg}")]
    Runtime {
        /// Kernel name.
        kernel: String,
        /// Byte PC of the faulting instruction.
        pc: u32,
        /// What went wrong.
        msg: String,
    },
    /// The functional watchdog stopped a launch: it executed more warp instructions than the
    /// per-launch limit allows (a runaway kernel, or a limit set too low).
    #[error(
        "kernel '{kernel}' stopped after {executed} warp instructions in one launch: over the \
         limit of {limit} (--max-warp-insts); a kernel that does not terminate, or raise the limit"
    )]
    WarpInstLimit {
        /// Kernel name.
        kernel: String,
        /// Warp instructions the launch had executed when it was stopped.
        executed: u64,
        /// The per-launch limit.
        limit: u64,
    },
    /// Any other error, fully described by its message.
    #[error("{0}")]
    Other(String),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file's path.
        path: String,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
}

/// One kernel launch as a host program states it (`Launch { kernel, grid, block, params,
/// shared_bytes, cooperative }`). The kernel is a parsed PTX kernel shared by reference.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The kernel to run.
    pub kernel: std::sync::Arc<ptx::Kernel>,
    /// Grid size in CTAs (x, y, z).
    pub grid: Dim3,
    /// CTA size in threads (x, y, z).
    pub block: Dim3,
    /// Parameter values in declaration order.
    pub params: Vec<ParamValue>,
    /// Dynamic shared memory in bytes (added to the kernel's static `.shared`).
    pub shared_bytes: u32,
    /// A cooperative launch (`cudaLaunchCooperativeKernel`): every CTA of the grid must be
    /// co-resident on the configured GPU, and the kernel gets a zeroed grid-synchronisation
    /// workspace whose address `%envreg1` (high word) and `%envreg2` (low word) hold, which
    /// `this_grid().sync()` of cooperative groups spins on. A functional run interleaves the
    /// CTAs of such a launch (`emu/launch.rs`).
    pub cooperative: bool,
}
