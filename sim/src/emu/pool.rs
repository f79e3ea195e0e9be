//! Thread-pool instruction supply over the emulator: per-thread control state (PC, done flag,
//! barrier wait, reconvergence points passed) for the reference modes of the control-flow spec
//! (§3.4 MIMD and NREC, §4–§5 dynamic warp formation), which regroup threads across static
//! warps.
//!
//! [`ThreadPool::exec`] executes ONE instruction at one PC for an arbitrary set of threads of a
//! CTA. The threads keep their registers where the emulator keeps them (lane `t mod 32` of
//! static warp `t div 32`), so the functional semantics are the emulator's own: for each static
//! warp that holds some of the threads, its PDOM stack is reset to the single entry
//! `{pc, lanes}` and [`exec::step`] runs the instruction for those lanes; the per-lane next PC
//! follows from the instruction (a branch sends its guard-true lanes to the target and the
//! others to the next instruction; `exit`/`ret` retire their guard-true lanes; a call of a
//! recursive function sends its lanes to the callee and its return each lane to the return
//! address in the lane's register, so threads at different recursion depths run apart). `bar.sync` is
//! kept per thread: a thread that executes it waits until every live thread of its CTA has
//! arrived. [`ThreadPool::step_static`] runs a static warp under its own PDOM stack (the
//! baseline), exactly as the timing model's stream does.

use super::exec::{self, Ctx, Outcome};
use super::launch::{prepare, Prepared};
use super::warp::Cta;
use super::{Emulator, SimtStack, WarpControl};
use crate::inst::{MemSpace, WarpInst, WARP_SIZE};
use crate::ptx::isa::Op;
use crate::ptx::RECONV_EXIT;
use crate::stream::KernelInfo;
use crate::{Launch, SimError};
use std::sync::Arc;

/// Control state of one thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreadState {
    /// Instruction index the thread executes next.
    pub pc: u32,
    /// The thread has exited.
    pub done: bool,
    /// Waiting at `bar.sync`.
    pub at_barrier: bool,
    /// Times the thread's next PC was a static reconvergence point (the DPdPri key, §5.4).
    pub passed_rpcs: u32,
    /// Instructions the thread has executed.
    pub insts: u64,
}

/// One open CTA: the emulator's state plus per-thread control state.
struct PoolCta {
    cta: Cta,
    threads: Vec<ThreadState>,
    /// Threads not yet exited.
    live: u32,
    /// Threads waiting at the barrier.
    arrived: u32,
    /// Threads released from a barrier since the last [`ThreadPool::take_released`].
    released: Vec<u32>,
}

/// What one [`ThreadPool::exec`] did.
#[derive(Clone, Debug)]
pub struct ExecOut {
    /// The instruction's record (PC, class, operands) with `active_mask` of the last static
    /// warp touched; use [`ExecOut::active`] for the thread count.
    pub inst: WarpInst,
    /// Threads whose guard was true.
    pub active: u32,
    /// Per-thread addresses of a memory instruction (guard-true threads only).
    pub addrs: Vec<u64>,
    /// Memory space of a memory instruction.
    pub space: Option<MemSpace>,
    /// `(thread, next PC)` of every thread that continues and is not waiting at a barrier.
    pub next: Vec<(u32, u32)>,
    /// Threads that exited.
    pub exited: Vec<u32>,
    /// Threads that now wait at a barrier.
    pub barrier: Vec<u32>,
}

impl Default for ExecOut {
    fn default() -> Self {
        ExecOut {
            inst: WarpInst::new(0, crate::inst::Family::Int, crate::inst::OpClass::Nop, 0),
            active: 0,
            addrs: Vec::new(),
            space: None,
            next: Vec::new(),
            exited: Vec::new(),
            barrier: Vec::new(),
        }
    }
}

/// Thread-level instruction supply of one launch.
pub struct ThreadPool<'a> {
    emu: &'a mut Emulator,
    kernel: Arc<crate::ptx::Kernel>,
    p: Prepared,
    ctas: Vec<Option<Box<PoolCta>>>,
    /// Per instruction index: some branch reconverges there.
    is_rpc: Vec<bool>,
    /// Scratch: lanes per static warp of the current `exec`.
    lanes: Vec<u32>,
    /// Thread instructions executed.
    pub thread_insts: u64,
}

impl<'a> ThreadPool<'a> {
    /// Checks `launch` and prepares its parameters (as the emulator's own stream does).
    pub fn new(emu: &'a mut Emulator, launch: &Launch) -> Result<Self, SimError> {
        if launch.cooperative {
            return Err(SimError::Launch {
                kernel: launch.kernel.name.clone(),
                msg: "the thread-pool reference model (DWF, MIMD, NREC) does not run \
                      cooperative launches (grid-wide synchronisation); use the cycle-level \
                      model (reconv.mode = \"pdom\")"
                    .into(),
            });
        }
        let p = prepare(emu, launch)?;
        let n = p.info.num_ctas() as usize;
        let mut ctas = Vec::new();
        ctas.resize_with(n, || None);
        let code = &launch.kernel.code;
        let mut is_rpc = vec![false; code.insts.len() + 1];
        for &r in &code.reconv {
            if r != RECONV_EXIT && (r as usize) < is_rpc.len() {
                is_rpc[r as usize] = true;
            }
        }
        Ok(ThreadPool {
            emu,
            kernel: launch.kernel.clone(),
            p,
            ctas,
            is_rpc,
            lanes: Vec::new(),
            thread_insts: 0,
        })
    }

    /// Static facts of the launch.
    pub fn info(&self) -> &KernelInfo {
        &self.p.info
    }

    /// The kernel's decoded code.
    pub fn code(&self) -> &crate::ptx::KernelCode {
        &self.kernel.code
    }

    fn err(&self, msg: String) -> SimError {
        SimError::Launch {
            kernel: self.kernel.name.clone(),
            msg,
        }
    }

    fn open(&mut self, cta: u32) -> Result<&mut PoolCta, SimError> {
        let name = self.kernel.name.clone();
        match self.ctas.get_mut(cta as usize) {
            Some(Some(c)) => Ok(c),
            _ => Err(SimError::Launch {
                kernel: name,
                msg: format!("CTA {cta} is not open"),
            }),
        }
    }

    /// Opens CTA `cta` on SM `sm`: registers zeroed, every thread at PC 0.
    pub fn begin_cta(&mut self, cta: u32, sm: u32, first_warp_slot: u32) -> Result<(), SimError> {
        match self.ctas.get(cta as usize) {
            None => return Err(self.err(format!("begin_cta({cta}): no such CTA"))),
            Some(Some(_)) => return Err(self.err(format!("begin_cta({cta}): already open"))),
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
            None,
            self.emu.stack_limit_bytes,
        );
        let n = info.threads_per_cta();
        self.ctas[cta as usize] = Some(Box::new(PoolCta {
            cta: c,
            threads: vec![ThreadState::default(); n as usize],
            live: n,
            arrived: 0,
            released: Vec::new(),
        }));
        Ok(())
    }

    /// Closes CTA `cta`; every thread must have exited.
    pub fn end_cta(&mut self, cta: u32) -> Result<(), SimError> {
        let live = self.open(cta)?.live;
        if live > 0 {
            return Err(self.err(format!("end_cta({cta}) with {live} threads live")));
        }
        self.ctas[cta as usize] = None;
        Ok(())
    }

    /// Control state of thread `t` of CTA `cta`.
    pub fn thread(&self, cta: u32, t: u32) -> Option<&ThreadState> {
        self.ctas
            .get(cta as usize)?
            .as_ref()?
            .threads
            .get(t as usize)
    }

    /// Threads of CTA `cta` not yet exited (0 when it is not open).
    pub fn live_threads(&self, cta: u32) -> u32 {
        self.ctas
            .get(cta as usize)
            .and_then(|c| c.as_ref())
            .map_or(0, |c| c.live)
    }

    /// Threads released from a barrier of CTA `cta` since the last call (they continue at
    /// their recorded PC).
    pub fn take_released(&mut self, cta: u32) -> Vec<u32> {
        match self.ctas.get_mut(cta as usize) {
            Some(Some(c)) => std::mem::take(&mut c.released),
            _ => Vec::new(),
        }
    }

    /// Static warp `w` of CTA `cta` under its own PDOM stack: `(pc, active lanes)` of its top
    /// entry, `None` when done; and whether it waits at a barrier.
    pub fn static_top(&self, cta: u32, w: u32) -> Option<(u32, u32, bool)> {
        let c = self.ctas.get(cta as usize)?.as_ref()?;
        let wp = c.cta.warps.get(w as usize)?;
        if wp.done {
            return None;
        }
        wp.stack.top().map(|e| (e.pc, e.mask, wp.at_barrier))
    }

    /// Executes the next instruction of static warp `w` of CTA `cta` under its PDOM stack
    /// (the baseline); the record goes to `out`. Returns `Ok(false)` when the warp had
    /// finished. Barrier arrival and release are counted per warp, as in the emulator.
    pub fn step_static(
        &mut self,
        cta: u32,
        w: u32,
        cycle: u64,
        out: &mut WarpInst,
    ) -> Result<bool, SimError> {
        let emu = &mut *self.emu;
        let module = &self.kernel.module;
        let Some(Some(pc)) = self.ctas.get_mut(cta as usize) else {
            return Err(SimError::Launch {
                kernel: self.kernel.name.clone(),
                msg: format!("CTA {cta} is not open"),
            });
        };
        let mut ctx = Ctx {
            code: &self.kernel.code,
            mem: &mut emu.mem,
            params: &self.p.params,
            const_bank: &module.const_bank,
            global_syms: &self.p.global_syms,
            ntid: self.p.info.block,
            nctaid: self.p.info.grid,
            nwarpid: emu.warp_slots,
            cycle,
            order: emu.push_order,
            max_depth: emu.max_stack_depth,
            stack_limit: emu.stack_limit_bytes,
            dev: &mut emu.dev,
            grid_ws: 0,
            core_mhz: emu.core_mhz,
            writes: 0,
        };
        let c = &mut pc.cta;
        if c.warps.get(w as usize).is_none_or(|x| x.done) {
            return Ok(false);
        }
        let o = exec::step::<true>(&mut ctx, c, w as usize, out)?;
        let n = out.active_mask.count_ones() as u64;
        self.thread_insts += n;
        match o {
            Outcome::Idle => return Ok(false),
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
        if o == Outcome::Finished {
            // every lane of the warp has exited
            let base = w as usize * WARP_SIZE;
            let end = (base + WARP_SIZE).min(pc.threads.len());
            for t in &mut pc.threads[base..end] {
                if !t.done {
                    t.done = true;
                    pc.live -= 1;
                }
            }
        }
        emu.warp_insts += 1;
        Ok(true)
    }

    /// Executes the instruction at `pc` for `threads` (thread indices within CTA `cta`, each
    /// at `pc`, none exited or waiting). Results go to `out` (cleared first).
    pub fn exec(
        &mut self,
        cta: u32,
        pc: u32,
        threads: &[u32],
        cycle: u64,
        out: &mut ExecOut,
    ) -> Result<(), SimError> {
        out.active = 0;
        out.addrs.clear();
        out.space = None;
        out.next.clear();
        out.exited.clear();
        out.barrier.clear();
        let code = self.kernel.code.clone();
        let Some(inst) = code.insts.get(pc as usize) else {
            return Err(self.err(format!(
                "execution ran past the last instruction (pc {pc}; missing ret or exit)"
            )));
        };
        let emu = &mut *self.emu;
        let module = &self.kernel.module;
        let kname = &self.kernel.name;
        let Some(Some(pcta)) = self.ctas.get_mut(cta as usize) else {
            return Err(SimError::Launch {
                kernel: kname.clone(),
                msg: format!("CTA {cta} is not open"),
            });
        };
        let nw = pcta.cta.warps.len();
        self.lanes.clear();
        self.lanes.resize(nw, 0);
        for &t in threads {
            let st = pcta.threads.get(t as usize);
            if st.is_none_or(|s| s.done || s.at_barrier || s.pc != pc) {
                return Err(SimError::Launch {
                    kernel: kname.clone(),
                    msg: format!("thread {t} of CTA {cta} is not ready at pc {pc}"),
                });
            }
            self.lanes[t as usize / WARP_SIZE] |= 1 << (t as usize % WARP_SIZE);
        }
        let mut ctx = Ctx {
            code: &code,
            mem: &mut emu.mem,
            params: &self.p.params,
            const_bank: &module.const_bank,
            global_syms: &self.p.global_syms,
            ntid: self.p.info.block,
            nctaid: self.p.info.grid,
            nwarpid: emu.warp_slots,
            cycle,
            order: emu.push_order,
            max_depth: emu.max_stack_depth,
            stack_limit: emu.stack_limit_bytes,
            dev: &mut emu.dev,
            grid_ws: 0,
            core_mhz: emu.core_mhz,
            writes: 0,
        };
        // a tensor instruction's carriers are part of it (`ptx/tensor.rs`)
        let next_seq = pc
            + 1
            + match inst.op {
                Op::Tensor(t) => t.carriers() as u32,
                _ => 0,
            };
        for wi in 0..nw {
            let m = self.lanes[wi];
            if m == 0 {
                continue;
            }
            {
                let warp = &mut pcta.cta.warps[wi];
                match &mut warp.stack {
                    WarpControl::Pdom(s) => s.reset(pc, m),
                    other => *other = WarpControl::Pdom(SimtStack::new(pc, m)),
                }
                warp.done = false;
                warp.at_barrier = false;
            }
            exec::step::<true>(&mut ctx, &mut pcta.cta, wi, &mut out.inst)?;
            let warp = &mut pcta.cta.warps[wi];
            warp.done = false;
            warp.at_barrier = false;
            let act = out.inst.active_mask & m;
            out.active += act.count_ones();
            if let Some(mi) = out.inst.mem.as_ref() {
                out.space = Some(mi.space);
                for l in 0..WARP_SIZE {
                    if act >> l & 1 != 0 {
                        out.addrs.push(mi.addrs[l]);
                    }
                }
            }
            for l in 0..WARP_SIZE {
                if m >> l & 1 == 0 {
                    continue;
                }
                let t = (wi * WARP_SIZE + l) as u32;
                let on = act >> l & 1 != 0;
                let st = &mut pcta.threads[t as usize];
                st.insts += 1;
                let np = match inst.op {
                    Op::Bra { .. } | Op::Call { .. } if on => inst.target,
                    // a recursive function returns to the address its thread holds
                    Op::Return { .. } if on => match inst.src[0] {
                        crate::ptx::isa::Opnd::R32(r) => {
                            pcta.cta.warps[wi].regs[r as usize * WARP_SIZE + l] / 8
                        }
                        _ => next_seq,
                    },
                    Op::Ret | Op::Exit if on => {
                        st.done = true;
                        pcta.live -= 1;
                        out.exited.push(t);
                        continue;
                    }
                    Op::Bar | Op::BarRed(_) => {
                        st.pc = next_seq;
                        st.at_barrier = true;
                        pcta.arrived += 1;
                        out.barrier.push(t);
                        continue;
                    }
                    _ => next_seq,
                };
                st.pc = np;
                if self.is_rpc.get(np as usize).copied().unwrap_or(false) {
                    st.passed_rpcs += 1;
                }
                out.next.push((t, np));
            }
        }
        self.thread_insts += threads.len() as u64;
        emu.warp_insts += 1;
        // barrier release: every live thread has arrived
        if pcta.arrived > 0 && pcta.arrived >= pcta.live {
            pcta.arrived = 0;
            pcta.cta.deliver_bar_red();
            for (t, st) in pcta.threads.iter_mut().enumerate() {
                if st.at_barrier {
                    st.at_barrier = false;
                    pcta.released.push(t as u32);
                }
            }
        }
        Ok(())
    }
}
