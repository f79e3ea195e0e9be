//! The state of the reference-mode model: instructions in flight, the CTAs and static warps of
//! a core, its issue policy, and the launch-wide model parameters.

use super::stats::{DwfOccupancy, RefMemStats};
use crate::config::reconv::{DwfPolicy, ReconvMode};
use crate::config::{CacheConfig, GpuConfig};
use crate::emu::pool::ExecOut;
use crate::inst::{WarpInst, WARP_SIZE};
use crate::timing::cache::TagArray;
use crate::timing::dwf::formation::{Former, Tid};
use crate::timing::dwf::majority::Majority;
use crate::timing::dwf::refactivity::Recorder;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// An instruction in flight: the threads it unlocks at write-back.
pub(super) struct InFlight {
    pub(super) cta: u32,
    /// PDOM: the static warp; other modes: `None`.
    pub(super) warp: Option<u32>,
    /// Threads continuing (not exited, not at a barrier), with their next PC.
    pub(super) next: Vec<(u32, u32)>,
    /// Threads that executed `bar.sync` in this instruction (non-PDOM modes).
    pub(super) bar: Vec<u32>,
    /// A memory instruction (for the W0 split).
    pub(super) mem: bool,
}

pub(super) struct CtaSlot {
    pub(super) id: u32,
    pub(super) base_tid: u32,
    pub(super) nwarps: u32,
    /// PDOM: static warp locked (an instruction in flight).
    pub(super) locked: Vec<bool>,
    pub(super) inflight: u32,
    /// MIMD and NREC: per static warp, the ready thread groups `(pc, threads)` in arrival
    /// order (MIMD merges a group into a waiting one of the same warp and PC; NREC never
    /// merges).
    pub(super) ready: Vec<VecDeque<(u32, Vec<u32>)>>,
    /// Non-PDOM modes: thread waits at a barrier and its `bar.sync` has written back, so a
    /// release makes it ready at once (a thread still in flight waits for its write-back).
    pub(super) parked: Vec<bool>,
    /// Per thread: the cycle of its last issue (its CTA's launch before the first), its
    /// maximum wait and its dynamic instructions (fairness).
    pub(super) last_issue: Vec<u64>,
    pub(super) max_wait: Vec<u64>,
    pub(super) insts: Vec<u64>,
}

impl CtaSlot {
    /// Thread `th` issues at cycle `t`.
    #[inline]
    pub(super) fn issued(&mut self, th: u32, t: u64) {
        let i = th as usize;
        if i < self.insts.len() {
            self.max_wait[i] = self.max_wait[i].max(t.saturating_sub(self.last_issue[i]));
            self.last_issue[i] = t;
            self.insts[i] += 1;
        }
    }
}

/// Issue policy state of one core.
pub(super) enum Policy {
    Majority(Box<Majority>),
    /// DTime, DPC, DPdPri: the live pool warps (the selection logic is not costed).
    List(DwfPolicy, Vec<u32>),
}

pub(super) struct Core {
    /// Core index.
    pub(super) idx: usize,
    /// Cycles the core held a CTA, and warps resident over them (activity record).
    pub(super) active_cycles: u64,
    pub(super) resident_warp_cycles: u64,
    pub(super) ctas: Vec<CtaSlot>,
    pub(super) threads_used: u32,
    pub(super) warps_used: u32,
    pub(super) shmem_used: u32,
    pub(super) events: BinaryHeap<Reverse<(u64, u64)>>,
    pub(super) flights: Vec<Option<InFlight>>,
    pub(super) free_flights: Vec<usize>,
    pub(super) seq: u64,
    pub(super) l1: TagArray,
    pub(super) port_free: u64,
    pub(super) busy_until: u64,
    pub(super) rr: usize,
    /// Issue time of the lines in `slot_lines`.
    pub(super) slot_t: u64,
    /// Lines the memory instructions of the current issue slot touched: `(line, store,
    /// data ready)`; a line reached by several thread groups of one slot is one access.
    pub(super) slot_lines: Vec<(u64, bool, u64)>,
    pub(super) former: Option<Former>,
    pub(super) policy: Option<Policy>,
    /// Write-back groups waiting for pool entries: `(pc, threads)`.
    pub(super) wb_wait: VecDeque<(u32, Vec<Tid>)>,
    /// Instructions in flight, and how many of them are memory instructions (W0 split).
    pub(super) flights_live: u32,
    pub(super) mem_flights: u32,
    /// Occupancy samples (DWF).
    pub(super) occupancy: DwfOccupancy,
}

impl Core {
    /// Core `idx` of a launch on `cfg`, empty, with its data cache of geometry `l1g` and, under
    /// DWF, its warp former and issue policy (`sc`: pipeline cycles per scheduler cycle).
    pub(super) fn new(idx: usize, cfg: &GpuConfig, l1g: &CacheConfig, sc: u64) -> Core {
        let mode = cfg.reconv.mode;
        let d = &cfg.dwf;
        let w = WARP_SIZE as u32;
        Core {
            idx,
            active_cycles: 0,
            resident_warp_cycles: 0,
            ctas: Vec::new(),
            threads_used: 0,
            warps_used: 0,
            shmem_used: 0,
            events: BinaryHeap::new(),
            flights: Vec::new(),
            free_flights: Vec::new(),
            seq: 0,
            l1: TagArray::new(l1g),
            port_free: 0,
            busy_until: 0,
            rr: 0,
            slot_t: u64::MAX,
            slot_lines: Vec::new(),
            flights_live: 0,
            mem_flights: 0,
            occupancy: DwfOccupancy::default(),
            former: (mode == ReconvMode::Dwf).then(|| {
                Former::new(
                    w,
                    d.pool_entries,
                    d.pc_lut_entries,
                    d.pc_lut_ways,
                    d.lane_aware,
                    d.swizzle,
                    d.infinite_resources,
                )
            }),
            policy: (mode == ReconvMode::Dwf).then(|| match d.policy {
                DwfPolicy::Dmaj | DwfPolicy::Dmin => Policy::Majority(Box::new(Majority::new(
                    d.policy == DwfPolicy::Dmin,
                    d.heap_entries,
                    d.mheap_lut_entries,
                    d.mheap_lut_ways,
                    sc as u32,
                    d.infinite_resources,
                ))),
                p => Policy::List(p, Vec::new()),
            }),
            wb_wait: VecDeque::new(),
        }
    }

    /// The CTA slot and warp index of the core's `pos`-th static warp (CTAs in slot order).
    pub(super) fn static_warp(&self, pos: usize) -> (usize, usize) {
        let (mut ci, mut wi) = (0usize, pos);
        while wi >= self.ctas[ci].nwarps as usize {
            wi -= self.ctas[ci].nwarps as usize;
            ci += 1;
        }
        (ci, wi)
    }
}

pub(super) struct Model<'c, 'r> {
    pub(super) cfg: &'c GpuConfig,
    /// The activity recorder, and the last group it saw: `(core, cycle, pc)`.
    pub(super) act: Option<&'r mut Recorder>,
    pub(super) last_group: (usize, u64, u32),
    pub(super) mode: ReconvMode,
    pub(super) w: u32,
    pub(super) sc: u64,
    pub(super) line_bytes: u64,
    pub(super) miss_port_cycles: u64,
    pub(super) out: ExecOut,
    pub(super) rec: WarpInst,
    /// Memory counters of this launch.
    pub(super) mem: RefMemStats,
}
