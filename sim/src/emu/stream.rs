//! [`KernelStream`] over the emulator: execution-driven instruction supply for the timing model.
//! Each `next_inst` executes one instruction of the chosen warp and returns its record.

use super::exec::{self, Ctx, Outcome};
use super::launch::{prepare, Prepared};
use super::warp::Cta;
use super::Emulator;
use crate::inst::WarpInst;
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
}

impl<'a> EmuStream<'a> {
    /// Checks `launch`, builds its parameter buffer and places `.global` variables on first use.
    pub fn new(emu: &'a mut Emulator, launch: &Launch) -> Result<Self, SimError> {
        let p = prepare(emu, launch)?;
        let n = p.info.num_ctas() as usize;
        let mut ctas = Vec::new();
        ctas.resize_with(n, || None);
        Ok(EmuStream {
            emu,
            kernel: launch.kernel.clone(),
            p,
            ctas,
            produced: 0,
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
        };
        let o = exec::step::<true>(&mut ctx, c, warp as usize, out)?;
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

    fn end_cta(&mut self, cta: u32) -> Result<(), SimError> {
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
