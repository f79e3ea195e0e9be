//! Occupancy: how many CTAs of a kernel fit on one SM (simulator §2.9,
//! analytical-model §2.2).
//!
//! `max_cta = min(slots, ⌊threads/T⌋, ⌊warps/(T/32)⌋, ⌊regs/(T·R4)⌋, ⌊shmem/S⌋)` with T the
//! thread count padded to whole warps, R4 regs/thread rounded up to `reg_alloc_granularity`, and
//! the shared-memory term dropped when S = 0. The register term carries the factor T (registers
//! are allocated per warp), as in the corrected analytical form.

use crate::config::GpuConfig;
use crate::stream::KernelInfo;
use crate::SimError;

/// Resident-CTA limit and the binding resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OccupancyLimit {
    /// CTAs of the kernel that can be resident on one SM at once.
    pub max_ctas: u32,
    /// "cta_slots", "threads", "warps", "registers" or "shared_memory".
    pub limiter: &'static str,
    /// Registers one CTA allocates (T · R4).
    pub regs_per_cta: u32,
    /// Warps of one CTA (threads rounded up to whole warps).
    pub warps_per_cta: u32,
}

/// The co-residency check of cooperative launches on `cfg` (installed as
/// [`crate::emu::Emulator::coop_check`]): every CTA of the grid must be resident at once, at
/// most [`occupancy`]'s CTAs per SM on each of `gpu.n_sm` SMs (CUDA's
/// `cudaErrorCooperativeLaunchTooLarge` otherwise).
pub fn cooperative_check(cfg: &GpuConfig) -> crate::emu::CoopCheck {
    let cfg = cfg.clone();
    Box::new(move |k: &KernelInfo| {
        let occ = occupancy(&cfg, k).map_err(|e| e.to_string())?;
        // without CTA balancing: the hardware limit, not the spread of a small grid
        let mut raw = cfg.clone();
        raw.sm.balance_ctas = false;
        let per_sm = occupancy(&raw, k).map_or(occ.max_ctas, |o| o.max_ctas);
        let fit = per_sm as u64 * cfg.gpu.n_sm as u64;
        let n = k.num_ctas() as u64;
        if n > fit {
            return Err(format!(
                "a grid of {n} CTAs does not fit co-resident on {} ({per_sm} CTAs per SM, \
                 limited by {}, on {} SMs: at most {fit})",
                cfg.gpu.name, occ.limiter, cfg.gpu.n_sm
            ));
        }
        Ok(())
    })
}

/// Computes the occupancy limit; 0 CTAs is an error unless `sim.ignore_resource_limits`
/// (then 1). Also rejects a CTA whose shared memory exceeds `sm.shmem_per_cta`.
pub fn occupancy(cfg: &GpuConfig, k: &KernelInfo) -> Result<OccupancyLimit, SimError> {
    let err = |msg: String| SimError::Launch {
        kernel: k.name.clone(),
        msg,
    };
    let threads = k.threads_per_cta();
    if threads == 0 {
        return Err(err("CTA has no threads".into()));
    }
    let warps = k.warps_per_cta();
    let t_pad = warps * cfg.gpu.warp_size;
    let g = cfg.sm.reg_alloc_granularity.max(1);
    let r4 = k.regs_per_thread.div_ceil(g) * g;
    let regs_per_cta = t_pad.saturating_mul(r4);
    let s = k.shared_bytes;
    if s > cfg.sm.shmem_per_cta && !cfg.sim.ignore_resource_limits {
        return Err(err(format!(
            "{s} B of shared memory per CTA exceeds sm.shmem_per_cta = {}",
            cfg.sm.shmem_per_cta
        )));
    }
    let mut terms: Vec<(u32, &'static str)> = vec![
        (cfg.sm.max_ctas, "cta_slots"),
        (cfg.sm.max_threads / t_pad, "threads"),
        (cfg.sm.max_warps / warps, "warps"),
    ];
    if let Some(n) = cfg.sm.n_registers.checked_div(regs_per_cta) {
        terms.push((n, "registers"));
    }
    if let Some(n) = cfg.sm.shmem_bytes.checked_div(s) {
        terms.push((n, "shared_memory"));
    }
    let &(mut n, limiter) = terms.iter().min_by_key(|x| x.0).expect("terms");
    if n == 0 {
        if cfg.sim.ignore_resource_limits {
            n = 1;
        } else {
            return Err(err(format!(
                "a CTA of {threads} threads, {} regs/thread, {s} B shared does not fit on an SM \
                 (limit: {limiter})",
                k.regs_per_thread
            )));
        }
    }
    if cfg.sm.balance_ctas {
        let blocks = k.num_ctas();
        if blocks < n * cfg.gpu.n_sm {
            n = blocks.div_ceil(cfg.gpu.n_sm).max(1);
        }
    }
    Ok(OccupancyLimit {
        max_ctas: n,
        limiter,
        regs_per_cta,
        warps_per_cta: warps,
    })
}
