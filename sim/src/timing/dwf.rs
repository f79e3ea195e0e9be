//! Hardware inputs of the dynamic-warp-formation (DWF) thread scheduler for costing
//! (control-flow spec §5.2, §5.7): the field widths, entry counts, bit counts, ports and
//! organisation of every DWF structure, and of the per-warp PDOM stack it is compared with.
//!
//! The formulas are those of Fung's DWF thesis (W. Fung, *Dynamic Warp Formation*, MASc
//! thesis, UBC 2008, Table 5.2 and §5.4): with `w` the warp width, `tb` the thread-id width,
//! `P` the PC width, `E_p` pool entries and `ib = ⌈log2 E_p⌉`,
//! - warp update registers `2·(w·tb + P + w)` flops;
//! - PC-warp LUT `E_l·(P + w + ib)`, set-associative;
//! - warp pool `E_p·(w·tb + P + sd)`, as `w` TID banks of `E_p × tb` (1R1W) plus one
//!   PC/scheduler-data bank of `E_p × (P + sd)` (1R2W), `sd = ib + 1`;
//! - allocator `E_p·ib`; MHeap LUT `E_m·(P + ⌈log2 E_h⌉ + 1)`;
//! - max-heap `E_h·(P + cnt + 2(ib+1) + ⌈log2 E_m⌉ + 1)`; Majority entry `P + cnt + 2(ib+1)`;
//! - PDOM stack per warp `2w·(2P + w + 1)` plus a `⌈log2(2w+1)⌉` top-of-stack pointer.
//!
//! The submodules simulate the scheduler itself: [`formation`] (warp pool, allocator, PC-warp
//! LUT, §5.3), [`majority`] (Majority entry, max-heap, MHeap LUT and their port budget, §5.5)
//! and [`refmodel`] (the reference-mode model that runs PDOM, NREC, MIMD and DWF under one
//! scheduler-level timing, §3.4, §4).
//!
//! Every width is a parameter (`[dwf]`), because the source's own table is not fully
//! consistent in the scheduler-data and MHeap-LUT widths. `models` turns these into area and
//! energy; the simulator computes no cost.

use crate::config::GpuConfig;

pub mod formation;
pub mod majority;
pub mod refactivity;
pub mod refmodel;

/// How a structure is built (what `models` maps it onto).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DwfOrg {
    /// Flip-flops (too small for the SRAM model); no decoder.
    Flops,
    /// A plain SRAM array.
    Sram,
    /// A set-associative array with CAM-style tag compare, `ways` ways.
    SetAssoc {
        /// Associativity.
        ways: u32,
    },
}

/// One array of a DWF structure (a structure may consist of several identical arrays).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DwfArray {
    /// Structure name (`"warp_update_regs"`, `"pc_warp_lut"`, `"pool_tid_bank"`, ...).
    pub name: &'static str,
    /// Identical arrays of this kind per core (e.g. `w` TID banks).
    pub count: u32,
    /// Entries (rows) per array.
    pub entries: u32,
    /// Bits per entry.
    pub width_bits: u32,
    /// Read ports.
    pub read_ports: u32,
    /// Write ports.
    pub write_ports: u32,
    /// Organisation.
    pub org: DwfOrg,
}

impl DwfArray {
    /// Bits of all arrays of this kind in one core.
    pub fn total_bits(&self) -> u64 {
        self.count as u64 * self.entries as u64 * self.width_bits as u64
    }
}

/// What `models` needs to cost DWF for one configuration (control-flow spec §5.7).
#[derive(Clone, Debug, PartialEq)]
pub struct DwfHwInputs {
    /// Shader cores (each carries one DWF scheduler).
    pub cores: u32,
    /// Warp width `w`.
    pub warp_size: u32,
    /// SIMD pipeline width `n` (register-file banks of lane-aware DWF).
    pub simd_width: u32,
    /// Threads per core.
    pub threads_per_core: u32,
    /// Thread-id width `tb`, bits.
    pub tid_bits: u32,
    /// PC width `P`, bits.
    pub pc_bits: u32,
    /// Pool index width `ib = ⌈log2 E_p⌉`, bits.
    pub idx_bits: u32,
    /// Thread-count width `cnt`, bits.
    pub cnt_bits: u32,
    /// Pool scheduler-data width `sd = ib + 1` (the Majority `Next` pointer with its valid bit).
    pub sched_data_bits: u32,
    /// Every array of the DWF scheduler of one core.
    pub arrays: Vec<DwfArray>,
    /// The per-warp PDOM stack of the baseline, for comparison (one array per warp).
    pub pdom_stack: DwfArray,
    /// Width of the PDOM stack's top-of-stack pointer, bits.
    pub pdom_tos_bits: u32,
    /// Warps per core that each carry a PDOM stack.
    pub warps_per_core: u32,
    /// Register-file registers per core for the decoder-overhead comparison (32-bit, 2R1W).
    pub rf_regs_per_core: u32,
    /// Die area the chip-level overhead is reported against, m².
    pub die_area_m2: f64,
}

impl DwfHwInputs {
    /// Bits of the DWF scheduler of one core (every array, flops included).
    pub fn scheduler_bits(&self) -> u64 {
        self.arrays.iter().map(DwfArray::total_bits).sum()
    }
}

/// ⌈log2 x⌉ for x ≥ 1 (0 for x ≤ 1).
fn clog2(x: u64) -> u32 {
    if x <= 1 {
        0
    } else {
        64 - (x - 1).leading_zeros()
    }
}

/// The DWF structures' sizes, widths, ports and organisation for `cfg` (control-flow spec §5.7).
pub fn dwf_hw_inputs(cfg: &GpuConfig) -> DwfHwInputs {
    let d = &cfg.dwf;
    let w = cfg.gpu.warp_size;
    let threads = cfg.sm.max_threads;
    let p = d.pc_bits;
    let tb = if d.tid_bits == 0 {
        clog2(threads as u64)
    } else {
        d.tid_bits
    };
    let cnt = if d.cnt_bits == 0 {
        clog2(threads as u64 + 1)
    } else {
        d.cnt_bits
    };
    let ib = clog2(d.pool_entries as u64);
    let sd = ib + 1;
    let arr = |name, count, entries, width_bits, read_ports, write_ports, org| DwfArray {
        name,
        count,
        entries,
        width_bits,
        read_ports,
        write_ports,
        org,
    };
    let arrays = vec![
        arr(
            "warp_update_regs",
            1,
            2,
            w * tb + p + w,
            1,
            1,
            DwfOrg::Flops,
        ),
        arr(
            "pc_warp_lut",
            1,
            d.pc_lut_entries,
            p + w + ib,
            2,
            2,
            DwfOrg::SetAssoc {
                ways: d.pc_lut_ways,
            },
        ),
        arr("pool_tid_bank", w, d.pool_entries, tb, 1, 1, DwfOrg::Sram),
        arr(
            "pool_pc_bank",
            1,
            d.pool_entries,
            p + sd,
            1,
            2,
            DwfOrg::Sram,
        ),
        arr("allocator", 1, d.pool_entries, ib, 1, 1, DwfOrg::Sram),
        arr(
            "mheap_lut",
            1,
            d.mheap_lut_entries,
            p + clog2(d.heap_entries as u64) + 1,
            2,
            2,
            DwfOrg::SetAssoc {
                ways: d.mheap_lut_ways,
            },
        ),
        arr(
            "max_heap",
            1,
            d.heap_entries,
            p + cnt + 2 * (ib + 1) + clog2(d.mheap_lut_entries as u64) + 1,
            2,
            2,
            DwfOrg::Sram,
        ),
        arr(
            "majority_entry",
            1,
            1,
            p + cnt + 2 * (ib + 1),
            1,
            1,
            DwfOrg::Flops,
        ),
    ];
    let depth = cfg.reconv.depth_bound(w);
    DwfHwInputs {
        cores: cfg.gpu.n_sm,
        warp_size: w,
        simd_width: d.simd_width,
        threads_per_core: threads,
        tid_bits: tb,
        pc_bits: p,
        idx_bits: ib,
        cnt_bits: cnt,
        sched_data_bits: sd,
        arrays,
        pdom_stack: arr("pdom_stack", 1, depth, 2 * p + w + 1, 1, 1, DwfOrg::Sram),
        pdom_tos_bits: clog2(depth as u64 + 1),
        warps_per_core: threads.div_ceil(w),
        rf_regs_per_core: d.rf_regs_per_core,
        die_area_m2: d.die_area_mm2 as f64 * 1e-6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // control-flow spec §5.7 with the [F] widths: w = 32, tb = 10, P = 24, E_p = 128 (ib = 7),
    // E_l = 64, E_m = 128, E_h = 64, cnt = 10.
    #[test]
    fn bit_counts_follow_the_formulas_at_the_source_defaults() {
        let mut cfg = GpuConfig::preset("gtx480").unwrap();
        cfg.sm.max_threads = 768;
        let h = dwf_hw_inputs(&cfg);
        assert_eq!(
            (h.tid_bits, h.pc_bits, h.idx_bits, h.cnt_bits),
            (10, 24, 7, 10)
        );
        let bits = |n: &str| h.arrays.iter().find(|a| a.name == n).unwrap().total_bits();
        assert_eq!(bits("warp_update_regs"), 2 * (32 * 10 + 24 + 32));
        assert_eq!(bits("pc_warp_lut"), 64 * (24 + 32 + 7));
        assert_eq!(
            bits("pool_tid_bank") + bits("pool_pc_bank"),
            128 * (32 * 10 + 24 + 8)
        );
        assert_eq!(bits("allocator"), 128 * 7);
        assert_eq!(bits("mheap_lut"), 128 * (24 + 6 + 1));
        assert_eq!(bits("max_heap"), 64 * (24 + 10 + 2 * 8 + 7 + 1));
        assert_eq!(bits("majority_entry"), (24 + 10 + 2 * 8) as u64);
        assert_eq!(h.pdom_stack.total_bits(), 64 * (2 * 24 + 32 + 1));
        assert_eq!(h.pdom_tos_bits, 7);
        assert_eq!(h.warps_per_core, 24);
        // The pool banks: w TID banks with one write port each, a 2-write-port PC bank.
        let tid = h.arrays.iter().find(|a| a.name == "pool_tid_bank").unwrap();
        assert_eq!((tid.count, tid.write_ports), (32, 1));
        // Widths derived from the thread count when set to 0.
        cfg.dwf.tid_bits = 0;
        cfg.dwf.cnt_bits = 0;
        cfg.sm.max_threads = 1536;
        let h2 = dwf_hw_inputs(&cfg);
        assert_eq!((h2.tid_bits, h2.cnt_bits), (11, 11));
        assert!(h2.scheduler_bits() > h.scheduler_bits());
    }
}
