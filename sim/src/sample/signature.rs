//! A launch's signature: what a functional run measures of it (no timing), exact and
//! independent of the machine — the launch shape, the instruction mix per family with its
//! lanes, the tensor multiply-accumulates, the global-memory traffic in 32-byte sectors per
//! warp access and the footprint in distinct 128-byte lines.

use crate::activity::{FamilyCounts, TensorStats};
use crate::emu::launch::InstObserver;
use crate::inst::{MemSpace, WarpInst, WARP_SIZE};
use crate::stream::Dim3;
use crate::Launch;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// Bytes of a DRAM/L2 sector, the unit of the traffic count.
const SECTOR_BYTES: u64 = 32;
/// Bytes of a cache line, the unit of the footprint.
const LINE_BYTES: u64 = 128;

/// The signature of one launch.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LaunchSignature {
    /// Kernel name.
    pub kernel: String,
    /// Grid in CTAs.
    pub grid: Dim3,
    /// CTA shape in threads.
    pub block: Dim3,
    /// Dynamic shared memory per CTA, bytes.
    pub shared_bytes: u32,
    /// Warp instructions executed.
    pub warp_insts: u64,
    /// Thread instructions executed (active lanes summed).
    pub thread_insts: u64,
    /// Warp and thread instructions per family, counted as the timing model counts issues.
    pub by_family: FamilyCounts,
    /// Tensor multiply-accumulates per input type.
    pub tensor: TensorStats,
    /// Distinct 32-byte sectors of each global (or generic resolved to global) warp access,
    /// summed over the accesses: the coalesced traffic.
    pub global_sectors: u64,
    /// Distinct 128-byte lines of global memory the launch touches.
    pub footprint_lines: u64,
    /// Shared-memory warp accesses.
    pub shared_accesses: u64,
}

impl LaunchSignature {
    /// CTAs of the launch.
    pub fn ctas(&self) -> u64 {
        self.grid.iter().map(|&g| g as u64).product()
    }

    /// The components compared between launches of one shape, each an extensive count:
    /// CTAs, warp and thread instructions, the warp instructions of each family, the global
    /// sectors, the footprint and the shared accesses.
    pub fn components(&self) -> [u64; 14] {
        let f = &self.by_family;
        [
            self.ctas(),
            self.warp_insts,
            self.thread_insts,
            f.int.warp_insts,
            f.fp.warp_insts,
            f.dp.warp_insts,
            f.sfu.warp_insts,
            f.mem.warp_insts,
            f.ctrl.warp_insts,
            f.bar.warp_insts,
            f.tensor.warp_insts,
            self.global_sectors,
            self.footprint_lines,
            self.shared_accesses,
        ]
    }

    /// Whether `o` is a launch of the same kernel with the same CTA shape and shared memory
    /// (the grid may differ; its size is a component of [`LaunchSignature::distance`]).
    pub fn same_shape(&self, o: &LaunchSignature) -> bool {
        self.kernel == o.kernel && self.block == o.block && self.shared_bytes == o.shared_bytes
    }

    /// The relative distance between two signatures: the largest, over
    /// [`LaunchSignature::components`], of |a − b| / max(a, b) (0 where both are 0).
    pub fn distance(&self, o: &LaunchSignature) -> f64 {
        self.components()
            .iter()
            .zip(o.components())
            .map(|(&a, b)| {
                let m = a.max(b);
                if m == 0 {
                    0.0
                } else {
                    a.abs_diff(b) as f64 / m as f64
                }
            })
            .fold(0.0, f64::max)
    }
}

/// The observer that builds a signature during a functional launch.
pub struct SignatureCounter {
    sig: LaunchSignature,
    lines: HashSet<u64>,
}

impl SignatureCounter {
    /// A counter for `launch`, all counts zero.
    pub fn new(launch: &Launch) -> Self {
        SignatureCounter {
            sig: LaunchSignature {
                kernel: launch.kernel.name.clone(),
                grid: launch.grid,
                block: launch.block,
                shared_bytes: launch.shared_bytes,
                ..Default::default()
            },
            lines: HashSet::new(),
        }
    }

    /// The finished signature.
    pub fn finish(mut self) -> LaunchSignature {
        self.sig.footprint_lines = self.lines.len() as u64;
        self.sig
    }
}

impl InstObserver for SignatureCounter {
    const RECORDS: bool = true;

    fn observe(&mut self, inst: &WarpInst) {
        let lanes = inst.active_mask.count_ones() as u64;
        let s = &mut self.sig;
        s.warp_insts += 1;
        s.thread_insts += lanes;
        let f = s.by_family.of_mut(inst.family);
        f.warp_insts += 1;
        f.thread_insts += lanes;
        if inst.family == crate::inst::Family::Tensor {
            s.tensor.count(inst.op, inst.active_mask);
        }
        let Some(m) = inst.mem.as_ref() else {
            return;
        };
        match m.space {
            MemSpace::Global => {
                let mut sectors = [u64::MAX; WARP_SIZE];
                let mut n = 0;
                // lanes of one line are usually neighbours: the set sees each run once
                let mut last_line = u64::MAX;
                for lane in 0..WARP_SIZE {
                    if inst.active_mask & (1 << lane) == 0 {
                        continue;
                    }
                    let a = m.addrs[lane];
                    let last = a + (m.width_bytes.max(1) as u64 - 1);
                    for sector in [a / SECTOR_BYTES, last / SECTOR_BYTES] {
                        if !sectors[..n].contains(&sector) && n < WARP_SIZE {
                            sectors[n] = sector;
                            n += 1;
                        }
                    }
                    let line = a / LINE_BYTES;
                    if line != last_line {
                        self.lines.insert(line);
                        last_line = line;
                    }
                }
                s.global_sectors += n as u64;
            }
            MemSpace::Shared => s.shared_accesses += 1,
            _ => {}
        }
    }
}
