//! A unified L1 data cache and shared memory (Volta and later): one SRAM array of
//! `l1d.unified_kb` per SM, split at each launch between shared memory and the L1.
//!
//! The split follows the CUDA driver's default carve-out, as Accel-Sim's adaptive cache
//! configuration models it (`-gpgpu_adaptive_cache_config`, `-gpgpu_unified_l1d_size`,
//! `-gpgpu_shmem_option`; NVIDIA, *CUDA C++ Programming Guide*, "Shared Memory" of compute
//! capability 7.x): the shared memory a launch needs on one SM is its shared bytes per CTA ×
//! the CTAs resident on an SM (the occupancy limit, or fewer when the grid has fewer CTAs than
//! SMs × that limit); shared memory gets the smallest of `shmem.carveout_kb` that holds it, and
//! the L1 keeps the rest of the array with its sets and line size unchanged: `W_max ×
//! (1 − carve / unified)` ways, rounded to the nearest, where `W_max = unified / (sets ×
//! line)` fills the whole array. `l1d.assoc` is the L1 at the configuration's own split (what
//! the chip model costs); a launch runs with its carved ways.

use super::GpuConfig;

/// The split of a unified L1/shared array for one launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L1dCarveout {
    /// Shared memory the launch's resident CTAs need on one SM, bytes.
    pub shared_needed_bytes: u64,
    /// The carve-out given to shared memory, bytes (one of `shmem.carveout_kb`).
    pub shared_bytes: u64,
    /// The L1's ways in that split.
    pub l1d_assoc: u32,
}

impl L1dCarveout {
    /// The L1's capacity in that split, bytes.
    pub fn l1d_bytes(&self, cfg: &GpuConfig) -> u64 {
        self.l1d_assoc as u64 * cfg.l1d.sets as u64 * cfg.l1d.line_bytes as u64
    }
}

impl GpuConfig {
    /// This configuration with an L1 of `assoc` ways (a launch's carved L1).
    pub fn with_l1d_assoc(&self, assoc: u32) -> GpuConfig {
        let mut c = self.clone();
        c.l1d.assoc = assoc;
        c
    }

    /// The ways that fill the whole unified array (`W_max`), `None` without one.
    fn unified_max_ways(&self) -> Option<u64> {
        let unified = self.l1d.unified_kb as u64 * 1024;
        let set_row = self.l1d.sets as u64 * self.l1d.line_bytes as u64;
        (unified > 0 && set_row > 0).then(|| unified / set_row)
    }

    /// The split of the unified L1/shared array for a launch of CTAs with `shared_per_cta`
    /// bytes of shared memory, `resident_ctas` of them on an SM; `None` without a unified
    /// array (`l1d.unified_kb = 0`). A need above the largest carve-out (which validation
    /// keeps at or above `sm.shmem_bytes`, so occupancy never asks for it) takes the largest.
    pub fn l1d_carveout(&self, shared_per_cta: u32, resident_ctas: u32) -> Option<L1dCarveout> {
        let w_max = self.unified_max_ways()?;
        let unified = self.l1d.unified_kb as u64 * 1024;
        let need = shared_per_cta as u64 * resident_ctas as u64;
        let opts = &self.shmem.carveout_kb;
        let carve = opts
            .iter()
            .map(|&kb| kb as u64 * 1024)
            .find(|&b| b >= need)
            .or_else(|| opts.last().map(|&kb| kb as u64 * 1024))?;
        // W_max · (1 − carve/unified), to the nearest way: (2·W_max·(unified − carve) +
        // unified) / (2·unified) in integers
        let ways = (2 * w_max * (unified - carve.min(unified)) + unified) / (2 * unified);
        Some(L1dCarveout {
            shared_needed_bytes: need,
            shared_bytes: carve,
            l1d_assoc: ways.max(1) as u32,
        })
    }

    /// The keys of a unified array fit together: the array is whole sets × lines, the
    /// carve-outs ascend, each leaves the L1 at least one way, and the largest holds
    /// `sm.shmem_bytes` (so every launch the occupancy admits finds one); carve-outs without a
    /// unified array are refused.
    pub(crate) fn carveout_errors(&self, bad: &mut Vec<String>) {
        let u = self.l1d.unified_kb;
        let opts = &self.shmem.carveout_kb;
        if u == 0 {
            if !opts.is_empty() {
                bad.push(
                    "'shmem.carveout_kb' is set but 'l1d.unified_kb' = 0: carve-outs split a \
                     unified L1/shared array; set l1d.unified_kb or remove shmem.carveout_kb"
                        .into(),
                );
            }
            return;
        }
        let set_row = self.l1d.sets as u64 * self.l1d.line_bytes as u64;
        if set_row == 0 || !(u as u64 * 1024).is_multiple_of(set_row) {
            bad.push(format!(
                "'l1d.unified_kb' = {u}: must be a whole number of L1 ways (l1d.sets x \
                 l1d.line_bytes = {set_row} B each)"
            ));
            return;
        }
        if opts.is_empty() {
            bad.push(format!(
                "'l1d.unified_kb' = {u} needs 'shmem.carveout_kb', the shared-memory sizes \
                 (KB, ascending) the array can give, e.g. [0, 8, 16, 32, 64, 96]"
            ));
            return;
        }
        if opts.windows(2).any(|w| w[0] >= w[1]) {
            bad.push(format!(
                "'shmem.carveout_kb' = {opts:?}: must be strictly ascending"
            ));
        }
        let w_max = self.unified_max_ways().unwrap_or(0);
        for &kb in opts {
            let left = (u as u64).saturating_sub(kb as u64) * 1024;
            if kb >= u || (2 * w_max * left + u as u64 * 1024) / (2 * u as u64 * 1024) == 0 {
                bad.push(format!(
                    "'shmem.carveout_kb' holds {kb}: each carve-out must leave the L1 at least \
                     one way of the {u} KB array (l1d.sets x l1d.line_bytes = {set_row} B)"
                ));
            }
        }
        let top = *opts.last().unwrap_or(&0) as u64 * 1024;
        if top < self.sm.shmem_bytes as u64 {
            bad.push(format!(
                "'shmem.carveout_kb': the largest, {} KB, must hold 'sm.shmem_bytes' = {} B \
                 (the shared memory an SM may give its CTAs)",
                top / 1024,
                self.sm.shmem_bytes
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn volta() -> GpuConfig {
        let mut c = GpuConfig::preset("gtx1080ti").unwrap();
        c.l1d.sets = 4;
        c.l1d.line_bytes = 128;
        c.l1d.assoc = 64;
        c.l1d.unified_kb = 128;
        c.shmem.carveout_kb = vec![0, 8, 16, 32, 64, 96];
        c.sm.shmem_bytes = 96 * 1024;
        c
    }

    #[test]
    fn the_smallest_carveout_that_holds_the_resident_ctas_is_taken() {
        let c = volta();
        // no shared memory: the whole 128 KB array is L1, 256 ways of 4 x 128 B
        let k = c.l1d_carveout(0, 8).unwrap();
        assert_eq!((k.shared_bytes, k.l1d_assoc), (0, 256));
        assert_eq!(k.l1d_bytes(&c), 128 * 1024);
        // 2 CTAs x 20 KB = 40 KB: the 64 KB carve-out, 64 KB of L1 (128 ways)
        let k = c.l1d_carveout(20 * 1024, 2).unwrap();
        assert_eq!(
            (k.shared_needed_bytes, k.shared_bytes),
            (40 * 1024, 64 * 1024)
        );
        assert_eq!(k.l1d_assoc, 128);
        // exactly 8 KB: the 8 KB carve-out, 240 ways
        assert_eq!(c.l1d_carveout(4096, 2).unwrap().l1d_assoc, 240);
        // the most shared memory: 96 KB, the configuration's own 32 KB L1
        assert_eq!(c.l1d_carveout(48 * 1024, 2).unwrap().l1d_assoc, 64);
        // without a unified array nothing is carved
        let mut p = volta();
        p.l1d.unified_kb = 0;
        assert!(p.l1d_carveout(0, 1).is_none());
    }

    #[test]
    fn ways_round_to_the_nearest() {
        let mut c = volta();
        c.shmem.carveout_kb = vec![0, 5, 96];
        // 256 x (1 - 5/128) = 246.0: 246
        assert_eq!(c.l1d_carveout(5 * 1024, 1).unwrap().l1d_assoc, 246);
        c.shmem.carveout_kb = vec![0, 3, 96];
        // 256 x (1 - 3/128) = 250.0
        assert_eq!(c.l1d_carveout(1, 1).unwrap().l1d_assoc, 250);
        c.l1d.sets = 32; // W_max = 32: 32 x 125/128 = 31.25 -> 31
        assert_eq!(c.l1d_carveout(1, 1).unwrap().l1d_assoc, 31);
    }

    #[test]
    fn inconsistent_keys_are_named() {
        let errs = |c: &GpuConfig| {
            let mut b = Vec::new();
            c.carveout_errors(&mut b);
            b.join("; ")
        };
        assert_eq!(errs(&volta()), "");
        let mut c = volta();
        c.l1d.unified_kb = 0;
        assert!(errs(&c).contains("'shmem.carveout_kb' is set but 'l1d.unified_kb' = 0"));
        let mut c = volta();
        c.shmem.carveout_kb.clear();
        assert!(errs(&c).contains("needs 'shmem.carveout_kb'"));
        let mut c = volta();
        c.shmem.carveout_kb = vec![0, 32, 16, 96];
        assert!(errs(&c).contains("strictly ascending"));
        let mut c = volta();
        c.shmem.carveout_kb = vec![0, 128];
        assert!(errs(&c).contains("holds 128"));
        let mut c = volta();
        c.shmem.carveout_kb = vec![0, 64];
        assert!(errs(&c).contains("must hold 'sm.shmem_bytes'"));
        let mut c = volta();
        // 100 KB is 12.5 ways of 8 sets x 1 KB
        c.l1d.unified_kb = 100;
        c.l1d.line_bytes = 1024;
        c.l1d.sets = 8;
        assert!(errs(&c).contains("whole number of L1 ways"), "{}", errs(&c));
    }
}
