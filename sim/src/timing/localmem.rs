//! Local memory as the hardware lays it out in device memory: the address the memory system
//! sees for a thread's local byte.
//!
//! A front end records a `.local` access (local arrays, call stacks, register spills) at its
//! byte offset `a` within the thread's own local area, the same offset for every thread; the
//! emulator keeps each thread's local bytes apart for the values. The memory system needs the
//! device address, and NVIDIA hardware interleaves local memory so that the same 32-bit local
//! word of consecutive threads is contiguous: "local memory is however organized such that
//! consecutive 32-bit words are accessed by consecutive thread IDs. Accesses are therefore fully
//! coalesced as long as all threads in a warp access the same relative address" (CUDA C++
//! Programming Guide, *Device Memory Accesses*, "Local Memory"). GPGPU-Sim's
//! `shader_core_ctx::translate_local_memaddr` (its legacy mapping, also applied by Accel-Sim's
//! trace-driven mode) implements the same rule; this module follows its behaviour.
//!
//! **Layout.** Local memory is laid out for every thread slot of the GPU, as the driver sizes
//! it for the maximum number of resident threads: `T = gpu.n_sm × sm.max_warps × 32` slots, the
//! slot of lane `l` of warp slot `w` on SM `s` being `s × sm.max_warps × 32 + w × 32 + l` (a
//! warp slot holds 32 consecutive thread slots, so one warp's lanes are one aligned 128-byte
//! run of each word). Byte `a` of slot `t` is at
//!
//! `LOCAL_BASE + (a / 4) × 4T + 4t + a % 4`.
//!
//! A warp that accesses the same 4-byte local word therefore touches 32 × 4 = 128 contiguous,
//! 128-byte-aligned bytes, and distinct warps, CTAs and SMs touch distinct lines.
//!
//! **Wide accesses.** An access of 8 or 16 bytes covers 2 or 4 consecutive local words, which
//! lie 4T bytes apart: it is split into one 4-byte piece per word (GPGPU-Sim's rule), so a
//! warp's 8-byte access touches two 128-byte runs. An access narrower than a word stays within
//! its word; one that crosses a word boundary (not naturally aligned, which the emulator
//! refuses but a trace may hold) is split at the boundary.
//!
//! The base lies just above the largest global allocation the emulator hands out
//! (`emu::memory::GLOBAL_BASE + MAX_GLOBAL_BYTES`), so local lines never alias global ones.

use crate::config::GpuConfig;
use crate::emu::memory::{GLOBAL_BASE, MAX_GLOBAL_BYTES};
use crate::inst::WARP_SIZE;

/// Device address of local memory's first byte (thread slot 0, local word 0).
pub const LOCAL_BASE: u64 = GLOBAL_BASE + MAX_GLOBAL_BYTES;

/// Bytes of a local-memory interleaving word.
pub const WORD_BYTES: u64 = 4;

/// Most pieces one lane's access splits into (16 bytes not word-aligned: 5 words).
pub const MAX_PIECES: usize = 5;

/// The interleaved layout of local memory over a GPU's thread slots (module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalLayout {
    /// Thread slots of one SM: `sm.max_warps × 32`.
    slots_per_sm: u64,
    /// Bytes between consecutive local words of one thread: `4 × T`.
    word_stride: u64,
}

impl LocalLayout {
    /// The layout for `cfg`'s SMs and warp slots.
    pub fn new(cfg: &GpuConfig) -> Self {
        let slots_per_sm = cfg.sm.max_warps.max(1) as u64 * WARP_SIZE as u64;
        let slots = cfg.gpu.n_sm.max(1) as u64 * slots_per_sm;
        LocalLayout {
            slots_per_sm,
            word_stride: WORD_BYTES * slots,
        }
    }

    /// Thread slots the local space is laid out for (`T`).
    pub fn thread_slots(&self) -> u64 {
        self.word_stride / WORD_BYTES
    }

    /// Thread slot of lane 0 of warp slot `warp_slot` on SM `sm`.
    pub fn warp_first_slot(&self, sm: usize, warp_slot: usize) -> u64 {
        sm as u64 * self.slots_per_sm + (warp_slot * WARP_SIZE) as u64
    }

    /// Device address of local byte `a` of thread slot `slot`.
    #[inline]
    pub fn addr(&self, slot: u64, a: u64) -> u64 {
        let word = a / WORD_BYTES;
        LOCAL_BASE
            .wrapping_add(word.wrapping_mul(self.word_stride))
            .wrapping_add(slot.wrapping_mul(WORD_BYTES))
            .wrapping_add(a % WORD_BYTES)
    }

    /// The pieces (device address, bytes) of thread slot `slot`'s access of `width` bytes at
    /// local byte `a`, one per local word it covers, in word order; returns how many were
    /// written to `out` (at least 1).
    #[inline]
    pub fn pieces(
        &self,
        slot: u64,
        a: u64,
        width: u64,
        out: &mut [(u64, u64); MAX_PIECES],
    ) -> usize {
        let width = width.max(1);
        let end = a.saturating_add(width);
        let mut at = a;
        let mut n = 0;
        while at < end && n < MAX_PIECES {
            let word_end = (at / WORD_BYTES + 1) * WORD_BYTES;
            let upto = word_end.min(end);
            out[n] = (self.addr(slot, at), upto - at);
            n += 1;
            at = upto;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> LocalLayout {
        let mut cfg = crate::config::GpuConfig::preset("v100").unwrap();
        cfg.gpu.n_sm = 2;
        cfg.sm.max_warps = 4;
        LocalLayout::new(&cfg)
    }

    #[test]
    fn same_word_of_a_warp_is_128_contiguous_bytes() {
        let l = layout();
        assert_eq!(l.thread_slots(), 2 * 4 * 32);
        let s0 = l.warp_first_slot(1, 2);
        assert_eq!(s0, 4 * 32 + 2 * 32);
        let first = l.addr(s0, 12);
        assert_eq!(first % 128, 0);
        for lane in 0..32 {
            assert_eq!(l.addr(s0 + lane, 12), first + 4 * lane);
        }
        // the next word of the same thread is one full stride (4T bytes) further
        assert_eq!(l.addr(s0, 16), first + 4 * 256);
        // byte offsets within a word stay in the thread's word
        assert_eq!(l.addr(s0 + 3, 14), first + 12 + 2);
    }

    #[test]
    fn wide_and_unaligned_accesses_split_per_word() {
        let l = layout();
        let mut p = [(0, 0); MAX_PIECES];
        let n = l.pieces(5, 8, 8, &mut p);
        assert_eq!(n, 2);
        assert_eq!(p[0], (l.addr(5, 8), 4));
        assert_eq!(p[1], (l.addr(5, 12), 4));
        assert_eq!(p[1].0 - p[0].0, 4 * 256);
        assert_eq!(l.pieces(5, 0, 16, &mut p), 4);
        assert_eq!(l.pieces(5, 2, 16, &mut p), 5);
        assert_eq!(p[0], (l.addr(5, 2), 2));
        assert_eq!(p[4], (l.addr(5, 16), 2));
        assert_eq!(l.pieces(5, 1, 1, &mut p), 1);
        assert_eq!(p[0], (l.addr(5, 1), 1));
        assert_eq!(l.pieces(5, 3, 2, &mut p), 2);
    }
}
