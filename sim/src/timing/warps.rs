//! Warp and CTA state of one SM (simulator §2.9), kept as a structure of arrays indexed
//! by warp slot: residency, CTA membership, dynamic age, stream and exit status, barrier waits,
//! fetch delays, instructions in flight and outstanding memory requests.

use super::warpset::WarpSet;

/// One CTA slot of an SM. CTA slot c owns warp slots `c·n_warps .. (c+1)·n_warps`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CtaSlot {
    pub valid: bool,
    pub cta_id: u32,
    pub first_slot: u32,
    pub n_warps: u32,
    pub warps_done: u32,
    pub exited: u32,
    pub bar_arrived: u32,
    pub regs: u64,
}

/// Per-warp state of the SM's warp slots and the CTA slots that own them.
pub(crate) struct WarpState {
    pub w_valid: Vec<bool>,
    pub w_cta: Vec<u32>,
    pub w_idx: Vec<u32>,
    pub w_age: Vec<u64>,
    pub w_stream_done: Vec<bool>,
    pub w_exited: Vec<bool>,
    pub w_fetch_bar: Vec<bool>,
    /// Warps waiting at a CTA barrier.
    pub at_bar: WarpSet,
    /// Warps that issued a memory barrier; they wait while `mem_out_nz` holds them.
    pub membar: WarpSet,
    /// Warps with memory requests outstanding (`w_mem_out > 0`).
    pub mem_out_nz: WarpSet,
    pub w_fetch_ready: Vec<u64>,
    pub w_ifetch_line: Vec<u64>,
    pub w_inflight: Vec<u32>,
    pub w_mem_out: Vec<u32>,
    pub w_launch: Vec<u64>,
    pub n_resident_warps: u32,
    pub n_resident_ctas: u32,
    pub allocated_regs: u64,
    pub ctas: Vec<CtaSlot>,
    /// Warps waiting at a barrier.
    pub n_at_bar: u64,
    /// A warp may have finished (exited with nothing in flight): retirement has work.
    pub retire_pending: bool,
}

impl WarpState {
    /// Empty state for `nw` warp slots.
    pub fn new(nw: usize) -> Self {
        WarpState {
            w_valid: vec![false; nw],
            w_cta: vec![0; nw],
            w_idx: vec![0; nw],
            w_age: vec![0; nw],
            w_stream_done: vec![false; nw],
            w_exited: vec![false; nw],
            w_fetch_bar: vec![false; nw],
            at_bar: WarpSet::default(),
            membar: WarpSet::default(),
            mem_out_nz: WarpSet::default(),
            w_fetch_ready: vec![0; nw],
            w_ifetch_line: vec![u64::MAX; nw],
            w_inflight: vec![0; nw],
            w_mem_out: vec![0; nw],
            w_launch: vec![0; nw],
            n_resident_warps: 0,
            n_resident_ctas: 0,
            allocated_regs: 0,
            ctas: Vec::new(),
            n_at_bar: 0,
            retire_pending: false,
        }
    }

    /// The warp waits at a CTA barrier, or at a memory barrier with requests outstanding.
    #[inline]
    pub fn waits_barrier(&self, w: usize) -> bool {
        self.at_bar.has(w) || (self.membar.has(w) && self.mem_out_nz.has(w))
    }

    /// A memory acknowledgement of warp `w` arrived.
    #[inline]
    pub fn mem_ack(&mut self, w: usize) {
        self.w_mem_out[w] -= 1;
        if self.w_mem_out[w] == 0 {
            self.mem_out_nz.remove(w);
        }
        self.retire_pending |= self.w_exited[w] && self.w_mem_out[w] == 0;
    }

    /// A memory request of warp `w` went out that will be acknowledged.
    #[inline]
    pub fn mem_sent(&mut self, w: usize) {
        self.w_mem_out[w] += 1;
        self.mem_out_nz.insert(w);
    }
}
