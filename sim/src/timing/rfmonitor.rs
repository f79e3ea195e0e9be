//! The register-file access counts of the timing model (register-file spec §4, §8): every
//! read and write by structure, with its latency and the lanes it drives, and COMA, the mask
//! table that makes an access drive only its active lanes' wordline segments.
//!
//! [`RfMonitor`] is what the operand collectors and the writeback stage call to count; it is
//! present only when the run records [`RfStats`] (COMA on, an organisation that gates its
//! entries, or an access latency other than 1), so a plain run never reaches this file. An
//! organisation that gates its entries adds its residency and record at the kernel's end
//! (`RegisterFileOrg::finish_record`).

use crate::activity::{PartResidency, RfPartCounts, RfStats};
use crate::config::GpuConfig;
use crate::timing::policy::{RfPart, N_REGS};

/// Driven lanes of an access with active mask `mask` when segments of `seg` lanes are gated
/// (32 lanes without COMA, `seg = 32`).
#[inline]
pub(crate) fn driven_lanes(mask: u32, seg: u32) -> u64 {
    match seg {
        32 => 32,
        1 => mask.count_ones() as u64,
        s => {
            let mut n = 0;
            let group = if s >= 32 { u32::MAX } else { (1u32 << s) - 1 };
            let mut i = 0;
            while i < 32 {
                if mask >> i & group != 0 {
                    n += s as u64;
                }
                i += s;
            }
            n
        }
    }
}

/// Per-SM register-file monitor: access counts by structure and driven lanes, and COMA's mask
/// table.
pub(crate) struct RfMonitor {
    /// Lanes of one gated segment (32 without COMA).
    seg: u32,
    /// Entries of the physical register file.
    n_entries: u64,
    coma: bool,
    /// COMA mask table: the active mask written at each collector's allocation.
    pub mask: Vec<u32>,
    pub parts: [RfPartCounts; 5],
    pub mask_reads: u64,
    pub mask_writes: u64,
    /// Per (warp slot, register): the active mask of the in-flight instruction writing it
    /// (the scoreboard's destination mask, which a writeback drives).
    dest_mask: Vec<u32>,
}

impl RfMonitor {
    /// The monitor of `cfg` for `n_cu` collector units, when the run records register-file
    /// statistics (`gated`: the organisation gates its entries).
    pub fn new(cfg: &GpuConfig, n_cu: usize, gated: bool) -> Option<Box<RfMonitor>> {
        if !(gated || Self::wanted(cfg)) {
            return None;
        }
        Some(Box::new(RfMonitor {
            seg: if cfg.coma.enabled {
                cfg.coma.segment_lanes()
            } else {
                32
            },
            coma: cfg.coma.enabled,
            n_entries: (cfg.sm.n_registers / cfg.gpu.warp_size.max(1)) as u64,
            mask: vec![u32::MAX; n_cu],
            parts: RfPart::ALL.map(|p| RfPartCounts {
                part: p.name().to_string(),
                ..Default::default()
            }),
            mask_reads: 0,
            mask_writes: 0,
            dest_mask: vec![u32::MAX; cfg.sm.max_warps as usize * N_REGS],
        }))
    }

    /// Whether a run of `cfg` records [`RfStats`] whatever its organisation: COMA on, or a
    /// multi-cycle access latency. (An organisation that gates its entries records them too;
    /// one with several structures adds its own configuration switch here, so that its runs
    /// record the per-structure counts.)
    pub fn wanted(cfg: &GpuConfig) -> bool {
        cfg.coma.enabled || cfg.rf.latency != 1
    }

    /// An instruction of warp `w` with active mask `mask` and destinations `dsts` takes
    /// collector `ci`: COMA writes the mask table, and each destination's in-flight mask is
    /// noted.
    pub fn alloc(&mut self, ci: usize, w: usize, mask: u32, dsts: &[u16]) {
        if self.coma {
            self.mask[ci] = mask;
            self.mask_writes += 1;
        }
        for &r in dsts {
            if (r as usize) < N_REGS {
                if let Some(m) = self.dest_mask.get_mut(w * N_REGS + r as usize) {
                    *m = mask;
                }
            }
        }
    }

    /// A read by collector `ci` granted on structure `part` with latency `lat`; returns the
    /// lanes it drives (COMA's mask table entry of the collector, all lanes without COMA).
    #[inline]
    pub fn read(&mut self, ci: usize, part: RfPart, lat: u32) -> u32 {
        let mask = self.mask[ci];
        let p = &mut self.parts[part.index()];
        p.reads += 1;
        p.read_latency_cycles += lat as u64;
        p.read_driven_lanes += driven_lanes(mask, self.seg);
        if self.coma {
            self.mask_reads += 1;
        }
        mask
    }

    /// The active mask of the in-flight write of (w, reg).
    #[inline]
    pub fn dest_mask(&self, w: usize, reg: u16) -> u32 {
        self.dest_mask
            .get(w * N_REGS + reg as usize)
            .copied()
            .unwrap_or(u32::MAX)
    }

    /// A write of (w, reg) granted on structure `part` with latency `lat`; it drives the
    /// destination's active mask, which it returns.
    #[inline]
    pub fn write(&mut self, w: usize, reg: u16, part: RfPart, lat: u32) -> u32 {
        let mask = self.dest_mask(w, reg);
        let p = &mut self.parts[part.index()];
        p.writes += 1;
        p.write_latency_cycles += lat as u64;
        p.write_driven_lanes += driven_lanes(mask, self.seg);
        mask
    }

    /// The record of this SM at the kernel's end `end`, every entry ON throughout (an
    /// organisation that gates its entries replaces the residency; collector and conflict
    /// counters are filled by the caller).
    pub fn finish(&mut self, end: u64) -> RfStats {
        let residency = PartResidency {
            part: RfPart::Mrf.name().to_string(),
            units: self.n_entries,
            on: self.n_entries * end,
            ..Default::default()
        };
        RfStats {
            coma: self.coma,
            segment_lanes: self.seg,
            parts: self.parts.to_vec(),
            mask_table_reads: self.mask_reads,
            mask_table_writes: self.mask_writes,
            residency: vec![residency],
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn driven_lanes_by_segment() {
        assert_eq!(driven_lanes(0b1, 32), 32);
        assert_eq!(driven_lanes(0b1011, 1), 3);
        assert_eq!(driven_lanes(0b1_0001, 4), 8);
        assert_eq!(driven_lanes(u32::MAX, 4), 32);
        assert_eq!(driven_lanes(u32::MAX, 1), 32);
    }
}
