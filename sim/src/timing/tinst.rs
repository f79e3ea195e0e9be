//! The timing model's compact instruction record and the pool holding per-lane addresses.
//!
//! A [`WarpInst`] carries 32 per-lane addresses (256 bytes) for every instruction, although
//! only memory instructions have them and only the LD/ST unit reads them. The pipeline copies
//! an instruction into the I-buffer and into an operand collector, and the issue and dispatch
//! stages scan those structures every cycle, so the timing model keeps a [`TInst`] (everything
//! but the addresses, 40 bytes) in them and parks the addresses in an [`AddrPool`] slot from
//! fetch until the LD/ST unit accepts the instruction.

use crate::inst::{Family, MemInfo, MemSpace, OpClass, Reg, WarpInst, MAX_DST, MAX_SRC};

/// The memory part of a [`TInst`]: space, access width and the pool slot of its addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemRef {
    /// State space accessed (global, shared, local, const, …).
    pub space: MemSpace,
    /// Bytes accessed per thread (1, 2, 4, 8, 16).
    pub width_bytes: u8,
    /// Slot in the SM's [`AddrPool`].
    pub slot: u32,
}

/// A warp instruction as the timing pipeline holds it (fields as in [`WarpInst`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TInst {
    /// Byte offset of the instruction within its kernel.
    pub pc: u32,
    /// Lanes that execute (bit i = lane i); 0 is legal.
    pub active_mask: u32,
    /// Reconvergence PC when this is a divergent branch.
    pub reconv_pc: Option<u32>,
    /// Pipeline family.
    pub family: Family,
    /// Operation class within the family.
    pub op: OpClass,
    /// Number of valid entries in `dst`.
    pub n_dst: u8,
    /// Number of valid entries in `src`.
    pub n_src: u8,
    /// Destination registers (architectural; predicates from `PRED_BASE` up).
    pub dst: [Reg; MAX_DST],
    /// Source registers (architectural; predicates from `PRED_BASE` up).
    pub src: [Reg; MAX_SRC],
    /// Present exactly for memory instructions with a data access.
    pub mem: Option<MemRef>,
    /// Issue-stage tag carried to write-back: the entry of the out-of-order issue stage that
    /// holds the instruction (0 for the in-order issue stage, which does not read it).
    pub tag: u16,
}

impl TInst {
    /// A no-operation placeholder.
    pub const NOP: TInst = TInst {
        pc: 0,
        active_mask: 0,
        reconv_pc: None,
        family: Family::Int,
        op: OpClass::Nop,
        n_dst: 0,
        n_src: 0,
        dst: [0; MAX_DST],
        src: [0; MAX_SRC],
        mem: None,
        tag: 0,
    };

    /// The compact copy of `i`; its addresses, if any, go into `pool`.
    pub fn from_inst(i: &WarpInst, pool: &mut AddrPool) -> TInst {
        TInst {
            pc: i.pc,
            active_mask: i.active_mask,
            reconv_pc: i.reconv_pc,
            family: i.family,
            op: i.op,
            n_dst: i.n_dst,
            n_src: i.n_src,
            dst: i.dst,
            src: i.src,
            mem: i.mem.as_ref().map(|m| MemRef {
                space: m.space,
                width_bytes: m.width_bytes,
                slot: pool.put(m),
            }),
            tag: 0,
        }
    }

    /// Destination registers actually named.
    #[inline]
    pub fn dsts(&self) -> &[Reg] {
        &self.dst[..self.n_dst as usize]
    }

    /// A load or atomic from global or local memory: a result that comes back after the
    /// memory latency (the in-order scoreboard's long-latency class, and the loads whose
    /// consumers an out-of-order issue stage may defer).
    #[inline]
    pub fn is_long_latency_mem(&self) -> bool {
        self.family == Family::Mem
            && matches!(self.op, OpClass::Load | OpClass::Atomic)
            && matches!(
                self.mem.map(|m| m.space),
                Some(MemSpace::Global | MemSpace::Local | MemSpace::Texture)
            )
    }

    /// Source registers actually named.
    #[inline]
    pub fn srcs(&self) -> &[Reg] {
        &self.src[..self.n_src as usize]
    }
}

/// Slots of [`MemInfo`] for instructions between fetch and LD/ST acceptance, with a free list.
#[derive(Default)]
pub struct AddrPool {
    slots: Vec<MemInfo>,
    free: Vec<u32>,
}

impl AddrPool {
    /// Stores `m`; returns its slot.
    pub fn put(&mut self, m: &MemInfo) -> u32 {
        match self.free.pop() {
            Some(s) => {
                self.slots[s as usize] = *m;
                s
            }
            None => {
                self.slots.push(*m);
                self.slots.len() as u32 - 1
            }
        }
    }

    /// The addresses in `slot`.
    #[inline]
    pub fn get(&self, slot: u32) -> &MemInfo {
        &self.slots[slot as usize]
    }

    /// Frees `slot` for reuse.
    pub fn release(&mut self, slot: u32) {
        self.free.push(slot);
    }

    /// Slots in use.
    pub fn in_use(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inst::WARP_SIZE;

    #[test]
    fn round_trip_keeps_fields_and_reuses_slots() {
        let mut pool = AddrPool::default();
        let mut w = WarpInst::new(24, Family::Mem, OpClass::Load, 0b1011);
        w.n_dst = 1;
        w.dst[0] = 7;
        w.n_src = 2;
        w.src[..2].copy_from_slice(&[3, 4]);
        let mut addrs = [0u64; WARP_SIZE];
        addrs[0] = 0x1000;
        addrs[3] = 0x100c;
        w.mem = Some(MemInfo {
            space: MemSpace::Global,
            width_bytes: 4,
            addrs,
        });
        let t = TInst::from_inst(&w, &mut pool);
        assert_eq!(
            (t.pc, t.active_mask, t.dsts(), t.srcs()),
            (24, 0b1011, &[7][..], &[3, 4][..])
        );
        let m = t.mem.unwrap();
        assert_eq!(pool.get(m.slot).addrs[3], 0x100c);
        assert_eq!(pool.in_use(), 1);
        pool.release(m.slot);
        assert_eq!(pool.in_use(), 0);
        let t2 = TInst::from_inst(&w, &mut pool);
        assert_eq!(t2.mem.unwrap().slot, m.slot);
        let plain = TInst::from_inst(&WarpInst::new(8, Family::Int, OpClass::Add, 1), &mut pool);
        assert!(plain.mem.is_none());
        assert_eq!(pool.in_use(), 1);
    }
}
