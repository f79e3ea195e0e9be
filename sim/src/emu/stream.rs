//! [`KernelStream`] over the emulator: execution-driven instruction supply for the timing model.
//! Each `next_inst` executes one instruction of the chosen warp and returns its record.

use super::exec::{self, Ctx, Outcome};
use super::launch::{prepare, Prepared};
use super::warp::Cta;
use super::Emulator;
use crate::inst::WarpInst;
use crate::ptx::isa::{AddrBase, Op, Opnd, SReg, TimerPart};
use crate::stream::{KernelInfo, KernelStream, Step};
use crate::{Launch, SimError};
use std::sync::Arc;

/// Instruction stream of one launch.
pub struct EmuStream<'a> {
    emu: &'a mut Emulator,
    kernel: Arc<crate::ptx::Kernel>,
    p: Prepared,
    /// Open CTAs by linear id.
    ctas: Vec<Option<Box<Cta>>>,
    /// Warp instructions produced by this stream.
    pub produced: u64,
    /// Per instruction index: `Some((destination, what))` for a `mov` from `%clock`,
    /// `%clock64` or `%globaltimer` (the reads [`KernelStream::issue_clock`] can rewrite).
    clock_movs: Vec<Option<(Opnd, ClockRead)>>,
    /// The last instruction produced was such a clock read.
    last_clock: bool,
    /// Clock reads are kept pending ([`KernelStream::track_clock_reads`]).
    track_clock: bool,
    /// Clock reads produced and not yet rewritten, oldest first: (CTA, warp), instruction
    /// index, destination, 64-bit, lanes written.
    pending_clock: Vec<PendingClock>,
}

/// Which clock a read takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClockRead {
    /// `%clock`: the low 32 bits of the cycle.
    Clock32,
    /// `%clock64`: the cycle.
    Clock64,
    /// `%globaltimer` or one of its halves: nanoseconds at the core clock.
    Timer(TimerPart),
}

impl ClockRead {
    /// The value the read gives at core cycle `cycle`.
    fn value(self, cycle: u64, core_mhz: f64) -> u64 {
        match self {
            ClockRead::Clock32 => cycle & 0xFFFF_FFFF,
            ClockRead::Clock64 => cycle,
            ClockRead::Timer(p) => p.of(exec::timer_ns(cycle, core_mhz)),
        }
    }
}

/// A clock read whose destination waits for its issue cycle.
#[derive(Clone, Copy, Debug)]
struct PendingClock {
    key: (u32, u32),
    idx: usize,
    dst: Opnd,
    what: ClockRead,
    mask: u32,
}

/// The registers `[lo, hi)` an operand names (a 64-bit operand is an aligned pair).
fn reg_span(o: Opnd) -> Option<(u16, u16)> {
    match o {
        Opnd::R32(r) => Some((r, r + 1)),
        Opnd::R64(r) => Some((r, r + 2)),
        _ => None,
    }
}

impl<'a> EmuStream<'a> {
    /// Checks `launch`, builds its parameter buffer and places `.global` variables on first use.
    pub fn new(emu: &'a mut Emulator, launch: &Launch) -> Result<Self, SimError> {
        let p = prepare(emu, launch)?;
        let n = p.info.num_ctas() as usize;
        let mut ctas = Vec::new();
        ctas.resize_with(n, || None);
        let clock_movs = launch
            .kernel
            .code
            .insts
            .iter()
            .map(|i| {
                let what = match (i.op, i.src[0]) {
                    (Op::Mov(_), Opnd::Sreg(SReg::Clock)) => ClockRead::Clock32,
                    (Op::Mov(_), Opnd::Sreg(SReg::Clock64)) => ClockRead::Clock64,
                    (Op::Mov(_), Opnd::Sreg(SReg::GlobalTimer(p))) => ClockRead::Timer(p),
                    _ => return None,
                };
                (i.nsrc >= 1 && i.ndst >= 1).then_some((i.dst[0], what))
            })
            .collect();
        Ok(EmuStream {
            emu,
            kernel: launch.kernel.clone(),
            p,
            ctas,
            produced: 0,
            clock_movs,
            last_clock: false,
            track_clock: false,
            pending_clock: Vec::new(),
        })
    }

    fn err(&self, msg: String) -> SimError {
        SimError::Launch {
            kernel: self.kernel.name.clone(),
            msg,
        }
    }
}

impl KernelStream for EmuStream<'_> {
    fn info(&self) -> &KernelInfo {
        &self.p.info
    }

    fn begin_cta(&mut self, cta: u32, sm: u32, first_warp_slot: u32) -> Result<(), SimError> {
        let n = self.ctas.len();
        match self.ctas.get(cta as usize) {
            None => return Err(self.err(format!("begin_cta({cta}): the grid has {n} CTAs"))),
            Some(Some(_)) => return Err(self.err(format!("begin_cta({cta}): CTA already open"))),
            Some(None) => {}
        }
        let info = &self.p.info;
        let c = Cta::new(
            &self.kernel.code,
            cta,
            info.cta_coords(cta),
            info.block,
            info.shared_bytes,
            sm,
            first_warp_slot,
            self.emu.reconvergence.as_ref(),
            self.emu.stack_limit_bytes,
        );
        self.ctas[cta as usize] = Some(Box::new(c));
        Ok(())
    }

    fn next_inst(
        &mut self,
        cta: u32,
        warp: u32,
        cycle: u64,
        out: &mut WarpInst,
    ) -> Result<Step, SimError> {
        let Some(Some(c)) = self.ctas.get_mut(cta as usize) else {
            return Err(SimError::Launch {
                kernel: self.kernel.name.clone(),
                msg: format!("next_inst on CTA {cta}, which is not open"),
            });
        };
        let Some(w) = c.warps.get(warp as usize) else {
            let n = c.warps.len();
            return Err(SimError::Launch {
                kernel: self.kernel.name.clone(),
                msg: format!("next_inst on warp {warp} of CTA {cta}, which has {n} warps"),
            });
        };
        if w.done {
            return Ok(Step::Done);
        }
        if let Some(lim) = self.emu.max_warp_insts_per_launch {
            if self.produced >= lim {
                return Err(SimError::WarpInstLimit {
                    kernel: self.kernel.name.clone(),
                    executed: self.produced,
                    limit: lim,
                });
            }
        }
        if w.at_barrier {
            return Err(SimError::Launch {
                kernel: self.kernel.name.clone(),
                msg: format!("warp {warp} of CTA {cta} stepped while waiting at a barrier"),
            });
        }
        let module = &self.kernel.module;
        let mut ctx = Ctx {
            code: &self.kernel.code,
            mem: &mut self.emu.mem,
            params: &self.p.params,
            const_bank: &module.const_bank,
            global_syms: &self.p.global_syms,
            ntid: self.p.info.block,
            nctaid: self.p.info.grid,
            nwarpid: self.emu.warp_slots,
            cycle,
            order: self.emu.push_order,
            max_depth: self.emu.max_stack_depth,
            stack_limit: self.emu.stack_limit_bytes,
            dev: &mut self.emu.dev,
            grid_ws: self.p.grid_ws,
            core_mhz: self.emu.core_mhz,
            writes: 0,
        };
        let o = exec::step::<true>(&mut ctx, c, warp as usize, out)?;
        self.last_clock = false;
        if o != Outcome::Idle {
            // the record's PC is 8 bytes per instruction
            let idx = out.pc as usize / 8;
            if let Some(&Some((dst, what))) = self.clock_movs.get(idx) {
                self.last_clock = true;
                if self.track_clock {
                    self.pending_clock.push(PendingClock {
                        key: (cta, warp),
                        idx,
                        dst,
                        what,
                        mask: out.active_mask,
                    });
                }
            }
        }
        match o {
            Outcome::Idle => return Ok(Step::Done),
            Outcome::Executed => {}
            Outcome::Barrier => {
                c.arrived += 1;
                c.try_release_barrier();
            }
            Outcome::Finished => {
                c.live -= 1;
                c.try_release_barrier();
            }
        }
        self.produced += 1;
        self.emu.warp_insts += 1;
        Ok(Step::Inst)
    }

    fn reads_clock(&self) -> bool {
        self.last_clock
    }

    fn track_clock_reads(&mut self) {
        self.track_clock = true;
    }

    fn next_uses_clock_read(&self, cta: u32, warp: u32) -> Option<u32> {
        let key = (cta, warp);
        if !self.pending_clock.iter().any(|p| p.key == key) {
            return None;
        }
        let c = self.ctas.get(cta as usize)?.as_ref()?;
        let w = c.warps.get(warp as usize)?;
        if w.done {
            return None;
        }
        let pc = w.stack.top()?.pc as usize;
        let inst = self.kernel.code.insts.get(pc)?;
        let base = match inst.addr.base {
            AddrBase::R32(r) => Opnd::R32(r),
            AddrBase::R64(r) => Opnd::R64(r),
            _ => Opnd::None,
        };
        // a tensor instruction's fragment registers are named by the carriers after it
        let group = match inst.op {
            Op::Tensor(t) => {
                let insts = &self.kernel.code.insts;
                &insts[(pc + 1).min(insts.len())..(pc + 1 + t.carriers()).min(insts.len())]
            }
            _ => &[],
        };
        let used = inst.src[..inst.nsrc as usize]
            .iter()
            .chain(&inst.dst[..inst.ndst as usize])
            .chain(std::iter::once(&base))
            .chain(group.iter().flat_map(|c| c.srcs().iter().chain(c.dsts())))
            .filter_map(|&o| reg_span(o));
        for (lo, hi) in used {
            let hit = self
                .pending_clock
                .iter()
                .any(|p| p.key == key && reg_span(p.dst).is_some_and(|(a, b)| lo < b && a < hi));
            if hit {
                return Some(pc as u32 * 8);
            }
        }
        None
    }

    fn issue_clock(&mut self, cta: u32, warp: u32, pc: u32, cycle: u64) -> Result<(), SimError> {
        let (key, idx) = ((cta, warp), pc as usize / 8);
        let Some(k) = self
            .pending_clock
            .iter()
            .position(|p| p.key == key && p.idx == idx)
        else {
            return Ok(());
        };
        let p = self.pending_clock.remove(k);
        let Some(Some(c)) = self.ctas.get_mut(cta as usize) else {
            return Err(self.err(format!("issue_clock on CTA {cta}, which is not open")));
        };
        let Some(w) = c.warps.get_mut(warp as usize) else {
            return Err(self.err(format!("issue_clock on warp {warp} of CTA {cta}")));
        };
        let v = p.what.value(cycle, self.emu.core_mhz);
        exec::write(w, p.dst, &[v; 32], p.mask);
        Ok(())
    }

    fn end_cta(&mut self, cta: u32) -> Result<(), SimError> {
        self.pending_clock.retain(|p| p.key.0 != cta);
        let n = self.ctas.len();
        match self.ctas.get_mut(cta as usize) {
            Some(slot @ Some(_)) => {
                let live = slot.as_ref().map_or(0, |c| c.live);
                if live > 0 {
                    return Err(self.err(format!(
                        "end_cta({cta}) while {live} warps are still running"
                    )));
                }
                if let Some(c) = slot.take() {
                    self.emu.stack_stats.merge(&c.stack_stats());
                }
                Ok(())
            }
            _ => Err(self.err(format!("end_cta({cta}): CTA not open (grid has {n} CTAs)"))),
        }
    }
}
