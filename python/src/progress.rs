//! Progress of a long launch: the timing model calls its hook every few thousand simulated
//! cycles with the GIL released; [`ProgressSlot`] forwards those calls to a Python callable
//! (the package's progress bar) at most every [`INTERVAL`], re-acquiring the GIL only then.
//! A run of several launches (a host program estimated) counts from its start: the hook adds
//! the launches finished before the running one ([`RunSoFar`]).

use pyo3::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The cycles and warp instructions of the launches a run has finished, which its progress
/// adds to the running launch's own.
#[derive(Clone, Default)]
pub(crate) struct RunSoFar(Arc<[AtomicU64; 2]>);

impl RunSoFar {
    /// Records the run's totals before its next launch.
    pub(crate) fn set(&self, cycles: u64, warp_insts: u64) {
        self.0[0].store(cycles, Ordering::Relaxed);
        self.0[1].store(warp_insts, Ordering::Relaxed);
    }

    fn get(&self) -> (u64, u64) {
        (
            self.0[0].load(Ordering::Relaxed),
            self.0[1].load(Ordering::Relaxed),
        )
    }
}

/// Least time between two calls of the Python callable.
const INTERVAL: Duration = Duration::from_millis(100);

/// The Python callable of the launch running now, if any.
#[derive(Clone, Default)]
pub(crate) struct ProgressSlot(Arc<Mutex<Option<Py<PyAny>>>>);

/// Clears the slot when the launch ends.
pub(crate) struct Armed(Arc<Mutex<Option<Py<PyAny>>>>);

impl Drop for Armed {
    fn drop(&mut self) {
        let old = self.0.lock().unwrap_or_else(|p| p.into_inner()).take();
        drop(old);
    }
}

impl ProgressSlot {
    /// Calls `f(cycles, warp_insts)` during the launches until the returned guard drops.
    pub(crate) fn set(&self, f: Option<Py<PyAny>>) -> Armed {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = f;
        Armed(self.0.clone())
    }

    /// The hook to install on the timing GPU: `f(cycles, warp_insts)` of the running launch.
    pub(crate) fn hook(&self) -> Box<dyn FnMut(u64, u64) + Send> {
        self.hook_after(None)
    }

    /// The hook of a run of several launches: `f(cycles, warp_insts)` of the run so far, those
    /// of `before` (the launches finished) plus the running launch's.
    pub(crate) fn hook_after(&self, before: Option<RunSoFar>) -> Box<dyn FnMut(u64, u64) + Send> {
        let slot = self.0.clone();
        let mut last = Instant::now();
        Box::new(move |cycles, insts| {
            if last.elapsed() < INTERVAL {
                return;
            }
            last = Instant::now();
            let (c0, i0) = before.as_ref().map_or((0, 0), RunSoFar::get);
            let f = slot.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(f) = f.as_ref() {
                Python::attach(|py| {
                    // a failing progress display never stops the simulation
                    let _ = f.call1(py, (c0 + cycles, i0 + insts));
                });
            }
        })
    }
}
