//! Trace-driven timing simulation: every kernel of an Accel-Sim trace folder through the same
//! timing model that runs PTX workloads.

use super::header::{read_kernel_list, ListEntry};
use super::reader::{TraceKernel, TraceOptions};
use crate::activity::Activity;
use crate::config::GpuConfig;
use crate::timing::{Simulation, Source};
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

/// A callback told `(i, n, path)` before kernel `i` of `n` runs.
type OnKernel<'f> = Box<dyn FnMut(usize, usize, &Path) + 'f>;

/// Every kernel listed in `dir/kernelslist.g` (or the list file `dir`), simulated in order as
/// the launches of one program: a [`Source`] for [`Simulation::run`], returning a [`TraceRun`].
pub struct TraceFolder<'p, 'f> {
    dir: &'p Path,
    on_kernel: Option<OnKernel<'f>>,
}

impl<'p, 'f> TraceFolder<'p, 'f> {
    /// The trace folder (or kernel-list file) `dir`.
    pub fn new(dir: &'p Path) -> Self {
        TraceFolder {
            dir,
            on_kernel: None,
        }
    }

    /// Calls `f(i, n, path)` before kernel `i` of `n` (for progress output).
    pub fn on_kernel(mut self, f: impl FnMut(usize, usize, &Path) + 'f) -> Self {
        self.on_kernel = Some(Box::new(f));
        self
    }
}

impl<'a> Source<'a> for TraceFolder<'_, '_> {
    type Output = TraceRun;
    fn simulate(mut self, mut sim: Simulation<'a>) -> Result<TraceRun, SimError> {
        let policies = sim.resolve_fixed_flow("a trace")?;
        let cfg = sim.config().clone();
        let list = read_kernel_list(self.dir)?;
        let kernels: Vec<_> = list
            .iter()
            .filter_map(|e| match e {
                ListEntry::Kernel(p) => Some(p.clone()),
                ListEntry::MemcpyHtoD { .. } => None,
            })
            .collect();
        let opts = options(&cfg);
        let mut activity = Activity::new(&cfg.gpu.name, &cfg.hash_hex());
        let mut warnings = Vec::new();
        let mut i = 0;
        for e in &list {
            let p = match e {
                ListEntry::MemcpyHtoD { addr, bytes } => {
                    sim.memcpy_h2d(*addr, *bytes);
                    continue;
                }
                ListEntry::Kernel(p) => p,
            };
            if let Some(f) = self.on_kernel.as_mut() {
                f(i, kernels.len(), p);
            }
            let mut k = TraceKernel::open(p, &opts)?;
            let ka = sim.launch(&policies, &mut k, i as u64, None)?;
            activity.add_launch(ka);
            warnings.extend(k.warnings().iter().cloned());
            i += 1;
        }
        Ok(TraceRun {
            activity,
            warnings,
            kernels: kernels.len(),
        })
    }
}
