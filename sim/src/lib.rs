//! `sim` — the cycle-level GPU simulator.
//!
//! Front ends produce [`inst::WarpInst`] streams ([`stream::KernelStream`]); the timing model turns
//! them into cycles and the [`activity`] record. `sim` knows nothing of joules.

pub mod activity;
pub mod config;
pub mod emu;
pub mod inst;
pub mod ptx;
pub mod stream;
pub mod timing;
pub mod trace;
pub mod workloads;

pub use stream::{DevPtr, Dim3, Gpu, KernelInfo, KernelStream, ParamValue, Step};

/// Errors of the simulator crate. Every variant that concerns an input file names the file and,
/// where there is one, the line.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("{file}:{line}:{col}: {msg}")]
    Parse {
        file: String,
        line: usize,
        col: usize,
        msg: String,
    },
    #[error("{file}:{line}: {msg}")]
    Trace {
        file: String,
        line: usize,
        msg: String,
    },
    #[error("config {file}: {msg}")]
    Config { file: String, msg: String },
    #[error("launch of kernel '{kernel}': {msg}")]
    Launch { kernel: String, msg: String },
    #[error("runtime error in kernel '{kernel}' at pc {pc:#x}: {msg}")]
    Runtime {
        kernel: String,
        pc: u32,
        msg: String,
    },
    #[error("{0}")]
    Other(String),
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// One kernel launch as a host program states it (`Launch { kernel, grid, block, params,
/// shared_bytes }`). The kernel is a parsed PTX kernel shared by reference.
#[derive(Clone, Debug)]
pub struct Launch {
    pub kernel: std::sync::Arc<ptx::Kernel>,
    pub grid: Dim3,
    pub block: Dim3,
    pub params: Vec<ParamValue>,
    /// Dynamic shared memory in bytes (added to the kernel's static `.shared`).
    pub shared_bytes: u32,
}
