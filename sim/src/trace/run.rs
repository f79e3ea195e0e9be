//! Trace-driven timing simulation: every kernel of an Accel-Sim trace folder through the same
//! timing model that runs PTX workloads.

use super::header::{read_kernel_list, ListEntry};
use super::reader::{TraceKernel, TraceOptions};
use crate::activity::Activity;
use crate::config::GpuConfig;
use crate::timing::simulate_launch;
use crate::SimError;
use std::path::Path;

/// Result of simulating a trace folder.
pub struct TraceRun {
    /// Activity record of every simulated kernel together.
    pub activity: Activity,
    /// Reader warnings (e.g. a warp without a final EXIT), at most a hundred per kernel.
    pub warnings: Vec<String>,
    /// Kernels simulated.
    pub kernels: usize,
}

/// The `[trace]` options of `cfg` as reader options.
pub fn options(cfg: &GpuConfig) -> TraceOptions {
    TraceOptions {
        expand_wide_regs: cfg.trace.expand_wide_regs,
        ldc_as_alu: cfg.trace.ldc_as_alu,
        reader_buffer_kb: cfg.trace.reader_buffer_kb,
    }
}

/// Simulates every kernel listed in `dir/kernelslist.g` (or the list file `dir`) in order.
/// `on_kernel(i, n, path)` is called before each kernel (for progress output).
pub fn simulate_trace(
    cfg: &GpuConfig,
    dir: &Path,
    mut on_kernel: impl FnMut(usize, usize, &Path),
) -> Result<TraceRun, SimError> {
    let list = read_kernel_list(dir)?;
    let kernels: Vec<_> = list
        .iter()
        .filter_map(|e| match e {
            ListEntry::Kernel(p) => Some(p.clone()),
            ListEntry::MemcpyHtoD { .. } => None,
        })
        .collect();
    let opts = options(cfg);
    let mut activity = Activity::new(&cfg.gpu.name, &cfg.hash_hex());
    let mut warnings = Vec::new();
    for (i, p) in kernels.iter().enumerate() {
        on_kernel(i, kernels.len(), p);
        let mut k = TraceKernel::open(p, &opts)?;
        let ka = simulate_launch(cfg, &mut k, i as u64, None)?;
        activity.add_launch(ka);
        warnings.extend(k.warnings().iter().cloned());
    }
    Ok(TraceRun {
        activity,
        warnings,
        kernels: kernels.len(),
    })
}
