//! Architectural state of warps and CTAs: registers laid out `[reg][lane]` as `u32` (a 64-bit
//! value occupies an aligned register pair, low word first), predicates as one 32-bit lane mask
//! per predicate register, the PDOM stack, barrier state, and the CTA's shared and local memory.

use super::{ReconvergenceFactory, WarpControl};
use crate::inst::{PRED_REGS, WARP_SIZE};
use crate::ptx::isa::{BarRedOp, Opnd};
use crate::ptx::KernelCode;

/// One warp.
pub struct Warp {
    /// `regs[r * 32 + lane]`.
    pub regs: Vec<u32>,
    /// Lane mask of each predicate register.
    pub preds: [u32; PRED_REGS],
    /// The carry flag `CC.CF` of each lane (extended-precision arithmetic).
    pub carry: u32,
    /// A `bar.red` this warp waits at: its destination and the lanes that receive the result.
    pub bar_red: Option<(Opnd, u32)>,
    /// Reconvergence state (the PDOM stack unless another mechanism is installed).
    pub stack: WarpControl,
    /// Index of the warp within its CTA.
    pub index: u32,
    /// Warp slot in the SM (`%warpid`).
    pub slot: u32,
    /// `%tid` of each lane (x, y, z).
    pub tid: [[u32; WARP_SIZE]; 3],
    /// Waiting at `bar.sync`.
    pub at_barrier: bool,
    /// All lanes have exited.
    pub done: bool,
}

/// One resident CTA.
pub struct Cta {
    /// Linear CTA id in the grid.
    pub id: u32,
    /// `%ctaid` (x, y, z).
    pub coords: [u32; 3],
    /// SM the CTA is placed on (`%smid`).
    pub sm: u32,
    /// Warps of the CTA, by index.
    pub warps: Vec<Warp>,
    /// Shared memory of the CTA (static and dynamic bytes).
    pub shared: Vec<u8>,
    /// Thread-private memory, `local_bytes` per thread, thread-major.
    pub local: Vec<u8>,
    /// Private `.local` bytes per thread (the call stack included).
    pub local_bytes: u32,
    /// Warps waiting at the barrier.
    pub arrived: u32,
    /// Warps not yet done.
    pub live: u32,
    /// The reduction of the `bar.red` the CTA's warps are arriving at.
    pub bar_red: BarRedAcc,
}

/// Running reduction of a `bar.red` over the threads that have arrived.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BarRedAcc {
    /// The reduction (`None` while no thread has arrived at a `bar.red`).
    pub op: Option<BarRedOp>,
    /// Arrived threads whose predicate is true.
    pub count: u32,
    /// Arrived threads.
    pub threads: u32,
}

impl Cta {
    /// Fresh CTA state: registers zeroed, every thread at PC 0; each warp's reconvergence
    /// state from `reconv` (PDOM stack when `None`). A kernel that calls recursive functions
    /// gets `stack_bytes` of call stack per thread after its static local bytes.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        code: &KernelCode,
        id: u32,
        coords: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        sm: u32,
        first_slot: u32,
        reconv: Option<&ReconvergenceFactory>,
        stack_bytes: u32,
    ) -> Cta {
        let local_bytes = if code.calls.is_some() {
            code.local_bytes.saturating_add(stack_bytes)
        } else {
            code.local_bytes
        };
        let threads = block[0] * block[1] * block[2];
        let nwarps = threads.div_ceil(WARP_SIZE as u32);
        let nregs = code.regs_per_thread as usize;
        let warps = (0..nwarps)
            .map(|w| {
                let mut tid = [[0u32; WARP_SIZE]; 3];
                let mut mask = 0u32;
                for lane in 0..WARP_SIZE as u32 {
                    let t = w * WARP_SIZE as u32 + lane;
                    if t < threads {
                        mask |= 1 << lane;
                        tid[0][lane as usize] = t % block[0];
                        tid[1][lane as usize] = (t / block[0]) % block[1];
                        tid[2][lane as usize] = t / (block[0] * block[1]);
                    }
                }
                Warp {
                    regs: vec![0; nregs * WARP_SIZE],
                    preds: [0; PRED_REGS],
                    carry: 0,
                    bar_red: None,
                    stack: WarpControl::new(0, mask, reconv),
                    index: w,
                    slot: first_slot + w,
                    tid,
                    at_barrier: false,
                    done: false,
                }
            })
            .collect();
        Cta {
            id,
            coords,
            sm,
            warps,
            shared: vec![0; shared_bytes as usize],
            local: vec![0; local_bytes as usize * (nwarps as usize * WARP_SIZE)],
            local_bytes,
            arrived: 0,
            live: nwarps,
            bar_red: BarRedAcc::default(),
        }
    }

    /// SIMT-stack counters of all warps of this CTA.
    pub fn stack_stats(&self) -> super::simt::StackStats {
        let mut t = super::simt::StackStats::default();
        for w in &self.warps {
            t.merge(&w.stack.stats());
        }
        t
    }

    /// Releases the barrier when every live warp has arrived. Returns true if released.
    pub fn try_release_barrier(&mut self) -> bool {
        if self.arrived > 0 && self.arrived >= self.live {
            for w in &mut self.warps {
                w.at_barrier = false;
            }
            self.arrived = 0;
            self.deliver_bar_red();
            true
        } else {
            false
        }
    }

    /// At the release of a barrier: gives every thread that arrived at a `bar.red` the
    /// reduction over all arrived threads (`.popc`: the count of true predicates; `.and`: all
    /// true; `.or`: any true), then clears the reduction.
    pub fn deliver_bar_red(&mut self) {
        let Some(op) = self.bar_red.op else {
            return;
        };
        let BarRedAcc { count, threads, .. } = self.bar_red;
        let v = match op {
            BarRedOp::Popc => count,
            BarRedOp::And => (count == threads) as u32,
            BarRedOp::Or => (count > 0) as u32,
        } as u64;
        for w in &mut self.warps {
            if let Some((d, m)) = w.bar_red.take() {
                super::exec::write(w, d, &[v; WARP_SIZE], m);
            }
        }
        self.bar_red = BarRedAcc::default();
    }
}
