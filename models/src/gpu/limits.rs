//! Size limits of a GPU configuration: bounds on the keys whose values decide how much memory
//! the simulator and the chip model allocate (SM count, per-SM storage, cache geometry, memory
//! partitions), checked before anything is built.
//!
//! Each bound sits one to two orders of magnitude above the largest shipped GPU (2024: at most
//! 148 SMs per die, 64 Ki registers and 228 KiB of shared memory per SM, 50–60 MiB of L2), so a
//! study of a larger design fits, while a slip such as `n_sm = 1000000000` or a cache of 2³²
//! sets is refused with the key and the bound instead of exhausting memory.

use sim::config::GpuConfig;

/// Most SMs on one chip.
pub const MAX_SMS: u64 = 4096;
/// Most 32-bit registers per SM.
pub const MAX_REGISTERS_PER_SM: u64 = 1 << 20;
/// Most shared memory per SM, bytes.
pub const MAX_SHMEM_BYTES: u64 = 16 << 20;
/// Most data bytes of one per-SM cache (instruction, L1 data, constant, texture).
pub const MAX_SM_CACHE_BYTES: u64 = 64 << 20;
/// Most data bytes of one L2 slice.
pub const MAX_L2_SLICE_BYTES: u64 = 256 << 20;
/// Most lines (sets × ways) of any one cache.
pub const MAX_CACHE_LINES: u64 = 1 << 21;
/// Most cache lines summed over every SM's caches (`gpu.n_sm` × the per-SM caches' lines):
/// the simulator keeps a tag entry per line.
pub const MAX_CHIP_SM_CACHE_LINES: u64 = 1 << 24;
/// Most DRAM channels (memory partitions).
pub const MAX_CHANNELS: u64 = 1024;
/// Most L2 slices per channel.
pub const MAX_SUBPARTS_PER_CHANNEL: u64 = 64;

/// A configuration key over its bound.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("configuration key {key} = {value} is above the supported bound {bound} ({why})")]
pub struct SizeLimitError {
    /// The key (`gpu.n_sm`, `l1d.sets × l1d.assoc`, ...).
    pub key: String,
    /// Its value.
    pub value: u64,
    /// The largest value allowed.
    pub bound: u64,
    /// What the bound protects.
    pub why: &'static str,
}

/// Checks every size key of `cfg` against its bound (see the module header); the first key
/// over names itself and its bound.
pub fn check_sizes(cfg: &GpuConfig) -> Result<(), SizeLimitError> {
    let over = |key: &str, value: u64, bound: u64, why: &'static str| {
        if value > bound {
            Err(SizeLimitError {
                key: key.to_string(),
                value,
                bound,
                why,
            })
        } else {
            Ok(())
        }
    };
    const MEM: &str = "the simulator and the chip model allocate per unit";
    over("gpu.n_sm", cfg.gpu.n_sm as u64, MAX_SMS, MEM)?;
    over(
        "sm.n_registers",
        cfg.sm.n_registers as u64,
        MAX_REGISTERS_PER_SM,
        MEM,
    )?;
    over(
        "sm.shmem_bytes",
        cfg.sm.shmem_bytes as u64,
        MAX_SHMEM_BYTES,
        MEM,
    )?;
    over(
        "mem.n_channels",
        cfg.mem.n_channels as u64,
        MAX_CHANNELS,
        MEM,
    )?;
    over(
        "mem.subparts_per_channel",
        cfg.mem.subparts_per_channel as u64,
        MAX_SUBPARTS_PER_CHANNEL,
        MEM,
    )?;
    let l2 = cfg.l2.geometry();
    let caches = [
        ("icache", cfg.icache.geometry(), MAX_SM_CACHE_BYTES),
        ("l1d", cfg.l1d.geometry(), MAX_SM_CACHE_BYTES),
        (
            "const_cache",
            cfg.const_cache.geometry(),
            MAX_SM_CACHE_BYTES,
        ),
        ("tex_cache", cfg.tex_cache.geometry(), MAX_SM_CACHE_BYTES),
        ("l2", l2, MAX_L2_SLICE_BYTES),
    ];
    let mut sm_lines = 0u64;
    for (name, c, max_bytes) in &caches {
        let lines = c.sets as u64 * c.assoc as u64;
        over(
            &format!("{name}.sets × {name}.assoc"),
            lines,
            MAX_CACHE_LINES,
            "the simulator keeps a tag entry per line",
        )?;
        over(
            &format!("{name}.sets × {name}.line_bytes × {name}.assoc"),
            lines * c.line_bytes as u64,
            *max_bytes,
            "the SRAM model sizes the array",
        )?;
        if *name != "l2" {
            sm_lines += lines;
        }
    }
    over(
        "gpu.n_sm × (lines of the per-SM caches)",
        cfg.gpu.n_sm as u64 * sm_lines,
        MAX_CHIP_SM_CACHE_LINES,
        "the simulator keeps a tag entry per line of every SM",
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_fit_and_each_oversized_key_is_named() {
        for p in ["gtx480", "gtx780", "gtx1080ti"] {
            check_sizes(&GpuConfig::preset(p).unwrap()).unwrap();
        }
        let base = GpuConfig::preset("gtx480").unwrap();
        let mut c = base.clone();
        c.gpu.n_sm = 1_000_000;
        let e = check_sizes(&c).unwrap_err().to_string();
        assert!(
            e.contains("gpu.n_sm = 1000000") && e.contains("4096"),
            "{e}"
        );
        let mut c = base.clone();
        c.l1d.sets = 1 << 30;
        let e = check_sizes(&c).unwrap_err();
        assert_eq!(e.key, "l1d.sets × l1d.assoc");
        let mut c = base.clone();
        c.sm.shmem_bytes = u32::MAX;
        assert_eq!(check_sizes(&c).unwrap_err().key, "sm.shmem_bytes");
        let mut c = base.clone();
        c.gpu.n_sm = 4096;
        c.l1d.sets = 1 << 12;
        assert!(check_sizes(&c).unwrap_err().key.starts_with("gpu.n_sm ×"));
    }
}
