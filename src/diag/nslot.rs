//! The N_slot probe shared by warpslot_buffer, shmem_buffer and regfile_buffer
//! (analytical-model §3.2 `measure_nslot`, §4.5): for a block shape (b warps, s shared bytes,
//! r registers per thread), launch `G = N·n_mp + 1` synced blocks; the launch deadlocks (some
//! block returns TIMEOUT) exactly when an MP would need N + 1 resident blocks, i.e. when
//! N ≥ N_slot, so N_slot is the first N that times out. The first timing-out N is found by
//! doubling and bisection (the outcome is monotone in N).
//!
//! The deadline is adaptive: `deadline_multiple` × the longest successful sync seen by this
//! probe (at least `deadline_floor_cycles`), backed by the cycle watchdog at
//! `watchdog_multiple` × the deadline. A deadlock signal is only a TIMEOUT, never total
//! simulator cycles. The first timing-out N is confirmed with a deadline `confirm_multiple`
//! times longer; if that run succeeds the search goes on above it. The outcome does not depend on the I-cache, so each shape runs once.

use super::harness::{self, RunSpec};
use super::kernels::nslot_kernel;
use super::Thresholds;
use sim::config::GpuConfig;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A block shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Shape {
    /// Warps per block.
    pub b: u32,
    /// Shared bytes per block.
    pub s: u32,
    /// Registers per thread (0: the kernel's own allocation).
    pub r: u32,
}

/// The probe of one configuration.
pub struct Prober {
    cfg: GpuConfig,
    n_mp: u32,
    w: u32,
    deadline_multiple: f64,
    watchdog_multiple: f64,
    confirm_multiple: f64,
    /// Longest successful sync so far, cycles.
    longest_ok_cycles: AtomicU64,
    floor_cycles: u64,
}

impl Prober {
    /// A probe for `cfg` with `n_mp` recovered multiprocessors.
    pub fn new(cfg: &GpuConfig, n_mp: u32, th: &Thresholds) -> Result<Prober, String> {
        Ok(Prober {
            cfg: cfg.clone(),
            n_mp: n_mp.max(1),
            w: cfg.gpu.warp_size.max(1),
            deadline_multiple: th.diag.deadline_multiple,
            watchdog_multiple: th.diag.watchdog_multiple,
            confirm_multiple: th.diag.confirm_multiple,
            longest_ok_cycles: AtomicU64::new(0),
            floor_cycles: th.diag.deadline_floor_cycles,
        })
    }

    /// The kernel of `shape`.
    fn kernel(&self, shape: Shape) -> Result<Arc<sim::ptx::Kernel>, String> {
        let k =
            harness::kernel(&nslot_kernel(shape.s), "measure_nslot").map_err(|e| e.to_string())?;
        if shape.r > 0 {
            return k.with_regs_per_thread(shape.r).map_err(|e| e.to_string());
        }
        Ok(k)
    }

    /// Current deadline, cycles.
    fn deadline(&self) -> u64 {
        let l = self.longest_ok_cycles.load(Ordering::Relaxed) as f64;
        ((l * self.deadline_multiple) as u64).max(self.floor_cycles)
    }

    /// Launches `blocks` blocks of `shape`; true when it deadlocked (TIMEOUT).
    pub fn times_out(&self, shape: Shape, blocks: u32) -> Result<bool, String> {
        self.times_out_with(shape, blocks, self.deadline())
    }

    /// As [`Prober::times_out`] with the deadline `budget` cycles.
    fn times_out_with(&self, shape: Shape, blocks: u32, budget: u64) -> Result<bool, String> {
        let k = self.kernel(shape)?;
        let spec = RunSpec {
            kernel: &k,
            blocks,
            threads: shape.b * self.w,
            budget_cycles: budget,
            extra: vec![],
            twice: false,
        };
        let r = harness::run(
            &self.cfg,
            &spec,
            (budget as f64 * self.watchdog_multiple) as u64,
        )?;
        let to = r.timed_out();
        if !to {
            self.longest_ok_cycles
                .fetch_max(r.max_dt_cycles() as u64, Ordering::Relaxed);
        }
        Ok(to)
    }

    /// N_slot of `shape`: the first N for which `N·n_mp + 1` blocks deadlock. `Ok(0)` when
    /// the launch itself fails (nothing fits). `cap` bounds the search (a shape that never
    /// deadlocks up to it returns `cap + 1`... reported as not found by the caller).
    pub fn n_slot(&self, shape: Shape, cap: u32) -> Result<u32, String> {
        let k = self.kernel(shape)?;
        if harness::check(&self.cfg, &k, 1, shape.b * self.w).is_err() {
            return Ok(0);
        }
        let g = |n: u32| n.saturating_mul(self.n_mp).saturating_add(1);
        // warm the deadline with a grid that surely fits: one block per MP
        if self.longest_ok_cycles.load(Ordering::Relaxed) == 0 {
            self.times_out(shape, self.n_mp)?;
        }
        let mut lo = 0u32; // largest N known not to time out (0: none tried)
        let mut hi = 1u32;
        loop {
            if self.times_out(shape, g(hi))? {
                break;
            }
            lo = hi;
            if hi >= cap {
                return Ok(cap + 1);
            }
            hi = (hi * 2).min(cap);
        }
        loop {
            // first timing-out N in (lo, hi]
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if self.times_out(shape, g(mid))? {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            // confirm the boundary with a much longer deadline: a slow but successful sync
            // (more blocks spinning than any run before) is not a deadlock
            let long = (self.deadline() as f64 * self.confirm_multiple) as u64;
            if self.times_out_with(shape, g(hi), long)? {
                return Ok(hi);
            }
            lo = hi;
            hi = loop {
                let next = (hi * 2).min(cap);
                if next == hi {
                    return Ok(cap + 1);
                }
                if self.times_out(shape, g(next))? {
                    break next;
                }
                hi = next;
                lo = next;
            };
        }
    }
}
