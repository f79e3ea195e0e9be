//! Synthetic kernel streams: hand-built instruction sequences for microbenchmarks and checks of
//! the timing model against analytical expectations (analytical-model §3).

use crate::inst::{Family, MemInfo, MemSpace, OpClass, Reg, WarpInst, MAX_DST, MAX_SRC};
use crate::stream::{Dim3, KernelInfo, KernelStream, Step};
use crate::SimError;
use std::collections::BTreeMap;

/// Per-warp program generator: `(cta, warp) -> instructions` (an `exit` is appended).
pub type ProgramFn = dyn Fn(u32, u32) -> Vec<WarpInst> + Send + Sync;

/// A [`KernelStream`] whose warps replay generated programs.
pub struct SynthStream {
    info: KernelInfo,
    program: Box<ProgramFn>,
    open: BTreeMap<(u32, u32), (Vec<WarpInst>, usize)>,
    /// (cta, sm, first_warp_slot) of every `begin_cta`, in call order.
    pub placements: Vec<(u32, u32, u32)>,
    /// CTA ids of every `end_cta`, in call order.
    pub ended: Vec<u32>,
}

impl SynthStream {
    /// Kernel `name` of `grid` CTAs of `block` threads, with `regs_per_thread` registers per
    /// thread and `shared_bytes` bytes of shared memory per CTA; warp w of CTA c runs
    /// `program(c, w)`.
    pub fn new(
        name: &str,
        grid: Dim3,
        block: Dim3,
        regs_per_thread: u32,
        shared_bytes: u32,
        program: Box<ProgramFn>,
    ) -> Self {
        SynthStream {
            info: KernelInfo {
                name: name.to_string(),
                grid,
                block,
                shared_bytes,
                regs_per_thread,
            },
            program,
            open: BTreeMap::new(),
            placements: Vec::new(),
            ended: Vec::new(),
        }
    }
}

impl KernelStream for SynthStream {
    fn info(&self) -> &KernelInfo {
        &self.info
    }
    fn begin_cta(&mut self, cta: u32, sm: u32, first_warp_slot: u32) -> Result<(), SimError> {
        self.placements.push((cta, sm, first_warp_slot));
        let threads = self.info.threads_per_cta();
        for w in 0..self.info.warps_per_cta() {
            let mut p = (self.program)(cta, w);
            let live = (threads - w * 32).min(32);
            let mask = if live == 32 {
                u32::MAX
            } else {
                (1u32 << live) - 1
            };
            let mut e = WarpInst::new(0, Family::Ctrl, OpClass::Exit, mask);
            e.pc = p.last().map(|i| i.pc + 8).unwrap_or(0);
            p.push(e);
            self.open.insert((cta, w), (p, 0));
        }
        Ok(())
    }
    fn next_inst(
        &mut self,
        cta: u32,
        warp: u32,
        _cycle: u64,
        out: &mut WarpInst,
    ) -> Result<Step, SimError> {
        let Some((p, i)) = self.open.get_mut(&(cta, warp)) else {
            return Err(SimError::Other(format!(
                "next_inst on CTA {cta} warp {warp} not begun"
            )));
        };
        if *i >= p.len() {
            return Ok(Step::Done);
        }
        *out = p[*i];
        *i += 1;
        Ok(Step::Inst)
    }
    fn end_cta(&mut self, cta: u32) -> Result<(), SimError> {
        self.open.retain(|k, _| k.0 != cta);
        self.ended.push(cta);
        Ok(())
    }
}

/// An ALU instruction `dst = op(srcs)` at `pc`, all 32 lanes active.
pub fn alu(pc: u32, family: Family, op: OpClass, dst: &[Reg], src: &[Reg]) -> WarpInst {
    let mut i = WarpInst::new(pc, family, op, u32::MAX);
    i.n_dst = dst.len().min(MAX_DST) as u8;
    i.dst[..i.n_dst as usize].copy_from_slice(&dst[..i.n_dst as usize]);
    i.n_src = src.len().min(MAX_SRC) as u8;
    i.src[..i.n_src as usize].copy_from_slice(&src[..i.n_src as usize]);
    i
}

/// A memory instruction with per-lane addresses `addr(lane)`.
#[allow(clippy::too_many_arguments)]
pub fn mem(
    pc: u32,
    op: OpClass,
    space: MemSpace,
    width: u8,
    dst: &[Reg],
    src: &[Reg],
    mask: u32,
    addr: impl Fn(u32) -> u64,
) -> WarpInst {
    let mut i = alu(pc, Family::Mem, op, dst, src);
    i.active_mask = mask;
    let mut addrs = [0u64; 32];
    for (l, a) in addrs.iter_mut().enumerate() {
        if mask >> l & 1 == 1 {
            *a = addr(l as u32);
        }
    }
    i.mem = Some(MemInfo {
        space,
        width_bytes: width,
        addrs,
    });
    i
}

/// A `bar.sync` at `pc`.
pub fn barrier(pc: u32) -> WarpInst {
    WarpInst::new(pc, Family::Bar, OpClass::Barrier, u32::MAX)
}
