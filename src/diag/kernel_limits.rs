//! kernel_limits (analytical-model §4.1): the launch limits `L(T/B)`, `L(T/G)`, `L(S/B)`,
//! `L(R/T)` and `L(R/B)` found by binary search for the first launch failure, one quantity at a
//! time with the others minimal, and `L(R/B) = max_B r(B)·B/w` over the feasible block sizes.
//!
//! A launch is tried through [`harness::check`] (the simulator's launch checks without running
//! the kernel), and the boundary of each search is confirmed by running the kernel: the last
//! passing value must run to completion. `L(T/G)` is the exception: a grid of 2³² blocks is
//! never run.

use super::configured;
use super::harness::{self, RunSpec};
use super::kernels::nslot_kernel;
use super::{Param, Suite};
use sim::config::GpuConfig;
use std::sync::Arc;

/// The recovered limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Threads per block.
    pub t_per_b: u32,
    /// Threads per grid (blocks of one thread).
    pub t_per_g: u64,
    /// Shared bytes per block.
    pub s_per_b: u32,
    /// Registers per thread.
    pub r_per_t: u32,
    /// Warp-registers per block.
    pub r_per_b: u32,
    /// Largest registers per thread that launch with b warps, for each b = 1 … L(T/B)/w that
    /// was searched, as (b, r).
    pub r_of_b: Vec<(u32, u32)>,
    /// Warp size used to convert (threads per warp, from the launch of B = 1…).
    pub w: u32,
}

impl Found {
    /// Largest warps per block, `L(T/B)/w`.
    pub fn max_warps(&self) -> u32 {
        self.t_per_b / self.w
    }
}

/// Largest x in [lo, hi] with `ok(x)`, given `ok(lo)` and monotone `ok` (true then false).
pub fn last_true(mut lo: u64, mut hi: u64, mut ok: impl FnMut(u64) -> bool) -> u64 {
    if ok(hi) {
        return hi;
    }
    // invariant: ok(lo), !ok(hi)
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

fn kernel_with_regs(base: &Arc<sim::ptx::Kernel>, r: u32) -> Option<Arc<sim::ptx::Kernel>> {
    base.with_regs_per_thread(r.max(base.code.regs_per_thread))
        .ok()
}

/// Runs the test and appends its parameters.
pub fn run(cfg: &GpuConfig, suite: Suite, out: &mut Vec<Param>) -> Result<Found, String> {
    let base = harness::kernel(&nslot_kernel(0), "measure_nslot").map_err(|e| e.to_string())?;
    let r0 = base.code.regs_per_thread;
    let ok_shape = |k: &Arc<sim::ptx::Kernel>, blocks: u32, threads: u32| {
        harness::check(cfg, k, blocks, threads).is_ok()
    };
    // warp size: %warpid steps by one per 32 threads is not observable without timing; the
    // register limit per block is: r(B) is constant over B within one warp
    let t_per_b = last_true(1, 1 << 16, |b| ok_shape(&base, 1, b as u32)) as u32;
    let t_per_g = last_true(1, 1 << 40, |g| {
        g <= u32::MAX as u64 && ok_shape(&base, g as u32, 1)
    });
    let s_per_b = last_true(0, 1 << 20, |s| {
        harness::kernel(&nslot_kernel(s as u32), "measure_nslot")
            .map(|k| ok_shape(&k, 1, 1))
            .unwrap_or(false)
    }) as u32;
    let r_per_t = last_true(r0 as u64, 1 << 16, |r| {
        kernel_with_regs(&base, r as u32).is_some_and(|k| ok_shape(&k, 1, 1))
    }) as u32;
    // warp size from behaviour: the largest B whose r(B) equals r(1)
    let r1 = r_per_t;
    let w = last_true(1, t_per_b as u64, |b| {
        kernel_with_regs(&base, r1).is_some_and(|k| ok_shape(&k, 1, b as u32))
    }) as u32;
    let w = w.max(1);
    let bs: Vec<u32> = match suite {
        Suite::Quick => {
            // the powers of two up to 32 and the largest block (num_mp needs it)
            let mut v: Vec<u32> = [1u32, 2, 3, 4, 8, 16, 32, t_per_b / w]
                .into_iter()
                .filter(|&b| b >= 1 && b * w <= t_per_b)
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        }
        Suite::Full => (1..=t_per_b / w).collect(),
    };
    let r_of_b: Vec<(u32, u32)> = bs
        .iter()
        .map(|&b| {
            let r = last_true(r0 as u64, r_per_t as u64, |r| {
                kernel_with_regs(&base, r as u32).is_some_and(|k| ok_shape(&k, 1, b * w))
            }) as u32;
            (b, r)
        })
        .collect();
    let r_per_b = r_of_b.iter().map(|&(b, r)| r * b).max().unwrap_or(0);
    // confirm each boundary by running: the last passing shape runs to completion
    let confirm = |k: &Arc<sim::ptx::Kernel>, threads: u32| -> Result<(), String> {
        let spec = RunSpec {
            kernel: k,
            blocks: 1,
            threads,
            budget_cycles: 1 << 20,
            extra: vec![],
            twice: false,
        };
        let r = harness::run(cfg, &spec, 1 << 22)?;
        if r.timed_out() {
            return Err(format!(
                "kernel_limits: a launch at the limit ({threads} threads) did not finish"
            ));
        }
        Ok(())
    };
    confirm(&base, t_per_b)?;
    let ks = harness::kernel(&nslot_kernel(s_per_b), "measure_nslot").map_err(|e| e.to_string())?;
    confirm(&ks, 1)?;
    if let Some(k) = kernel_with_regs(&base, r_per_t) {
        confirm(&k, 1)?;
    }
    let m = configured::machine(cfg);
    let l = &m.limits;
    out.push(Param::discrete(
        "kernel_limits.warp_size",
        m.w as f64,
        Some(w as f64),
    ));
    out.push(Param::discrete(
        "kernel_limits.threads_per_block",
        l.t_per_b as f64,
        Some(t_per_b as f64),
    ));
    out.push(
        Param::discrete(
            "kernel_limits.threads_per_grid",
            l.t_per_g as f64,
            Some(t_per_g as f64),
        )
        .with_note("blocks of one thread: the simulator limits the grid in blocks"),
    );
    out.push(Param::discrete(
        "kernel_limits.shared_bytes_per_block",
        l.s_per_b as f64,
        Some(s_per_b as f64),
    ));
    out.push(
        Param::discrete(
            "kernel_limits.regs_per_thread",
            l.r_per_t[0] as f64,
            Some(r_per_t as f64),
        )
        .with_note("no per-thread limit: one warp must fit the register file"),
    );
    out.push(Param::discrete(
        "kernel_limits.warp_regs_per_block",
        l.r_per_b[0] as f64,
        Some(r_per_b as f64),
    ));
    Ok(Found {
        t_per_b,
        t_per_g,
        s_per_b,
        r_per_t,
        r_per_b,
        r_of_b,
        w,
    })
}

#[cfg(test)]
mod tests {
    use super::last_true;

    #[test]
    fn last_true_finds_the_boundary() {
        assert_eq!(last_true(1, 1 << 16, |x| x <= 1024), 1024);
        assert_eq!(last_true(0, 100, |_| true), 100);
        assert_eq!(last_true(5, 100, |x| x <= 5), 5);
    }
}
