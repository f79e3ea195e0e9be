//! Progress of a long launch: the timing model calls its hook every few thousand simulated
//! cycles with the GIL released; [`ProgressSlot`] forwards those calls to a Python callable
//! (the package's progress bar) at most every [`INTERVAL`], re-acquiring the GIL only then.

use pyo3::prelude::*;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

    /// The hook to install on the timing GPU.
    pub(crate) fn hook(&self) -> Box<dyn FnMut(u64, u64) + Send> {
        let slot = self.0.clone();
        let mut last = Instant::now();
        Box::new(move |cycles, insts| {
            if last.elapsed() < INTERVAL {
                return;
            }
            last = Instant::now();
            let f = slot.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(f) = f.as_ref() {
                Python::attach(|py| {
                    // a failing progress display never stops the simulation
                    let _ = f.call1(py, (cycles, insts));
                });
            }
        })
    }
}
