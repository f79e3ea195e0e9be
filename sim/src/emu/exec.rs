//! Executes one warp instruction: guard, operand fetch, ALU or memory operation, masked
//! write-back, PDOM stack update, and (when `REC`) the dynamic [`WarpInst`] record.

#![allow(clippy::needless_range_loop)]

use super::alu::{self, Lanes};
use super::memop;
use super::memory::GlobalMem;
use super::simt::PushOrder;
use super::warp::{Cta, Warp};
use crate::inst::{MemInfo, WarpInst, WARP_SIZE};
use crate::ptx::isa::{flags, AddrBase, Op, Opnd, SReg, TrapKind};
use crate::ptx::{KernelCode, RECONV_EXIT, RPC_EXIT};
use crate::SimError;

/// Default hardware PDOM stack depth: 2w entries (control-flow §3.1); deeper is a fatal
/// diagnostic.
pub const MAX_STACK_DEPTH: usize = 2 * WARP_SIZE;

/// Launch-wide execution context.
pub struct Ctx<'a> {
    /// The kernel's decoded code.
    pub code: &'a KernelCode,
    /// Device global memory.
    pub mem: &'a mut GlobalMem,
    /// The launch's parameter buffer.
    pub params: &'a [u8],
    /// The module's constant bank.
    pub const_bank: &'a [u8],
    /// Device address of each module-scope `.global` variable.
    pub global_syms: &'a [u64],
    /// `%ntid`: CTA size in threads (x, y, z).
    pub ntid: [u32; 3],
    /// `%nctaid`: grid size in CTAs (x, y, z).
    pub nctaid: [u32; 3],
    /// `%nwarpid`: warp slots per SM.
    pub nwarpid: u32,
    /// Current core cycle (`%clock`).
    pub cycle: u64,
    /// Push order of diverged groups on the PDOM stack.
    pub order: PushOrder,
    /// Stack depth bound (entries); deeper is a runtime error.
    pub max_depth: usize,
    /// Call-stack bytes per thread of a kernel that calls recursive functions (the stack
    /// limit, `cudaLimitStackSize`); the stack follows the kernel's static local bytes.
    pub stack_limit: u32,
    /// The device heap and `printf` output (device system calls).
    pub dev: &'a mut super::devcall::DeviceServices,
    /// Address of the launch's grid-synchronisation workspace (`%envreg1`/`%envreg2`); 0
    /// outside a cooperative launch.
    pub grid_ws: u64,
    /// Core clock of `%globaltimer`, MHz.
    pub core_mhz: f64,
    /// Instructions executed that may write memory (stores, atomics, reductions, system
    /// calls), counted for the functional run's deadlock detector.
    pub writes: u64,
}

/// `%globaltimer` at core cycle `cycle`: nanoseconds at `core_mhz`, truncated.
pub fn timer_ns(cycle: u64, core_mhz: f64) -> u64 {
    if core_mhz > 0.0 {
        (cycle as f64 * 1e3 / core_mhz) as u64
    } else {
        0
    }
}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// An instruction executed; the warp continues.
    Executed,
    /// `bar.sync` executed: the warp now waits at the barrier.
    Barrier,
    /// An instruction executed and the warp has no lanes left.
    Finished,
    /// The warp had already finished; nothing executed.
    Idle,
}

pub(super) fn runtime(ctx: &Ctx, pc: usize, msg: String) -> SimError {
    let line = ctx.code.insts.get(pc).map_or(0, |i| i.line);
    SimError::Runtime {
        kernel: ctx.code.name.clone(),
        pc: (pc * 8) as u32,
        msg: format!("{} (at {}:{line})", msg, ctx.code.file),
    }
}

/// Per-lane values of an operand.
#[inline(always)]
pub(super) fn fetch(w: &Warp, o: Opnd, ctx: &Ctx, cta: (&[u32; 3], u32)) -> Lanes {
    let mut out = [0u64; 32];
    fetch_into(w, o, ctx, cta, &mut out);
    out
}

/// Per-lane values of an operand, written into `out`.
#[inline(always)]
fn fetch_into(w: &Warp, o: Opnd, ctx: &Ctx, cta: (&[u32; 3], u32), out: &mut Lanes) {
    match o {
        Opnd::R32(r) => {
            let row: &[u32] = &w.regs[r as usize * WARP_SIZE..r as usize * WARP_SIZE + WARP_SIZE];
            for l in 0..WARP_SIZE {
                out[l] = row[l] as u64;
            }
        }
        Opnd::R64(r) => {
            let b = r as usize * WARP_SIZE;
            let rows: &[u32] = &w.regs[b..b + 2 * WARP_SIZE];
            for l in 0..WARP_SIZE {
                out[l] = rows[l] as u64 | ((rows[WARP_SIZE + l] as u64) << 32);
            }
        }
        Opnd::Imm(v) => *out = [v; 32],
        Opnd::Pred(p, neg) => {
            let m = w.preds[p as usize] ^ if neg { u32::MAX } else { 0 };
            for l in 0..WARP_SIZE {
                out[l] = ((m >> l) & 1) as u64;
            }
        }
        Opnd::GlobalAddr(i, off) => {
            *out = [ctx.global_syms[i as usize].wrapping_add(off as u64); 32]
        }
        Opnd::Sreg(s) => {
            let (coords, sm) = cta;
            *out = match s {
                SReg::Tid(d) => {
                    let t = &w.tid[d as usize];
                    let mut v = [0u64; 32];
                    for l in 0..WARP_SIZE {
                        v[l] = t[l] as u64;
                    }
                    v
                }
                SReg::Ntid(d) => [ctx.ntid[d as usize] as u64; 32],
                SReg::Ctaid(d) => [coords[d as usize] as u64; 32],
                SReg::Nctaid(d) => [ctx.nctaid[d as usize] as u64; 32],
                SReg::LaneId => {
                    let mut v = [0u64; 32];
                    for (l, x) in v.iter_mut().enumerate() {
                        *x = l as u64;
                    }
                    v
                }
                SReg::WarpId => [w.slot as u64; 32],
                SReg::NWarpId => [ctx.nwarpid as u64; 32],
                SReg::SmId => [sm as u64; 32],
                SReg::Clock => [ctx.cycle & 0xFFFF_FFFF; 32],
                SReg::Clock64 => [ctx.cycle; 32],
                SReg::LaneMask(k) => super::warpops::lanemask(k),
                SReg::EnvReg(k) => {
                    [match k {
                        1 => ctx.grid_ws >> 32,
                        2 => ctx.grid_ws & 0xFFFF_FFFF,
                        _ => 0,
                    }; 32]
                }
                SReg::GlobalTimer(part) => [part.of(timer_ns(ctx.cycle, ctx.core_mhz)); 32],
            }
        }
        Opnd::None => *out = [0; 32],
    }
}

/// Masked write-back.
#[inline(always)]
pub(super) fn write(w: &mut Warp, o: Opnd, v: &Lanes, mask: u32) {
    match o {
        Opnd::R32(r) => {
            let row: &mut [u32] =
                &mut w.regs[r as usize * WARP_SIZE..r as usize * WARP_SIZE + WARP_SIZE];
            if mask == u32::MAX {
                for l in 0..WARP_SIZE {
                    row[l] = v[l] as u32;
                }
            } else {
                // Branch-free select so the loop vectorises.
                for l in 0..WARP_SIZE {
                    let m = ((mask >> l) & 1).wrapping_neg();
                    row[l] = (row[l] & !m) | (v[l] as u32 & m);
                }
            }
        }
        Opnd::R64(r) => {
            let b = r as usize * WARP_SIZE;
            let rows: &mut [u32] = &mut w.regs[b..b + 2 * WARP_SIZE];
            let (lo, hi) = rows.split_at_mut(WARP_SIZE);
            for l in 0..WARP_SIZE {
                let m = ((mask >> l) & 1).wrapping_neg();
                lo[l] = (lo[l] & !m) | (v[l] as u32 & m);
                hi[l] = (hi[l] & !m) | ((v[l] >> 32) as u32 & m);
            }
        }
        Opnd::Pred(p, _) => {
            let mut bits = 0u32;
            for (l, x) in v.iter().enumerate() {
                bits |= ((*x & 1) as u32) << l;
            }
            let pr = &mut w.preds[p as usize];
            *pr = (*pr & !mask) | (bits & mask);
        }
        _ => {}
    }
}

/// Runs warp `wi` functionally for up to `budget` instructions (records written only for an
/// observer that reads them, [`super::launch::InstObserver`]), stopping early at a
/// barrier or when the warp finishes. Returns the last outcome and the instructions executed.
pub fn run_warp<O: super::launch::InstObserver>(
    ctx: &mut Ctx,
    cta: &mut Cta,
    wi: usize,
    budget: u32,
    scratch: &mut WarpInst,
    obs: &mut O,
) -> Result<(Outcome, u32), SimError> {
    let mut n = 0u32;
    while n < budget {
        let o = if O::RECORDS {
            let o = step::<true>(ctx, cta, wi, scratch)?;
            if o != Outcome::Idle {
                obs.observe(scratch);
            }
            o
        } else {
            step::<false>(ctx, cta, wi, scratch)?
        };
        match o {
            Outcome::Executed => n += 1,
            Outcome::Idle => return Ok((o, n)),
            _ => {
                ctx.cycle += 1;
                return Ok((o, n + 1));
            }
        }
        // the functional clock: one warp instruction per cycle
        ctx.cycle += 1;
    }
    Ok((Outcome::Executed, n))
}

/// Starts the record of an instruction from its static template, with `mask` active. The
/// per-lane addresses of a memory instruction are not copied: the memory path writes every
/// lane's address when any lane is active, and they are all 0 when none is.
#[inline(always)]
fn record_template(out: &mut WarpInst, tp: &WarpInst, mask: u32) {
    out.pc = tp.pc;
    out.family = tp.family;
    out.op = tp.op;
    out.active_mask = mask;
    out.reconv_pc = tp.reconv_pc;
    out.n_dst = tp.n_dst;
    out.dst = tp.dst;
    out.n_src = tp.n_src;
    out.src = tp.src;
    match (&tp.mem, &mut out.mem) {
        (None, o) => *o = None,
        (Some(m), Some(o)) => {
            o.space = m.space;
            o.width_bytes = m.width_bytes;
            if mask == 0 {
                o.addrs = [0; WARP_SIZE];
            }
        }
        (Some(m), o @ None) => {
            *o = Some(MemInfo {
                space: m.space,
                width_bytes: m.width_bytes,
                addrs: [0; WARP_SIZE],
            })
        }
    }
}

/// Executes the next instruction of warp `wi` of `cta`.
///
/// Longer than 200 lines on purpose: it is the emulator's one dispatch over every operation,
/// each arm a few lines that hand the work to a helper; one match keeps the order in which a
/// step reads the SIMT stack, executes and advances it visible in one place, and the hot loop
/// free of an extra call per instruction.
#[inline(always)]
pub fn step<const REC: bool>(
    ctx: &mut Ctx,
    cta: &mut Cta,
    wi: usize,
    out: &mut WarpInst,
) -> Result<Outcome, SimError> {
    let code = ctx.code;
    let coords = cta.coords;
    let sm = cta.sm;
    let cta_id = cta.id;
    let Cta {
        warps,
        shared,
        local,
        local_bytes,
        bar_red,
        ..
    } = cta;
    let warp = &mut warps[wi];
    let Some(top) = warp.stack.top() else {
        return Ok(Outcome::Idle);
    };
    let pc = top.pc as usize;
    let simt = top.mask;
    if pc >= code.insts.len() {
        return Err(runtime(
            ctx,
            pc,
            "execution ran past the last instruction (missing ret or exit)".into(),
        ));
    }
    let inst = &code.insts[pc];
    let mut mask = simt;
    if let Some((p, neg)) = inst.guard {
        let v = warp.preds[p as usize];
        mask &= if neg { !v } else { v };
    }
    if REC {
        record_template(out, &code.templates[pc], mask);
    }
    let next = pc as u32 + 1;
    let mut outcome = Outcome::Executed;
    match inst.op {
        Op::Bra { uni } => {
            bra_step::<REC>(ctx, warp, inst, pc, (simt, mask, next), uni, out)?;
        }
        Op::Ret | Op::Exit => warp.stack.advance(next, mask),
        Op::Call { .. } => {
            let lb = *local_bytes;
            super::callret::call_step(ctx, warp, inst, pc, (simt, mask), ((&coords, sm), lb))?;
        }
        Op::Return { .. } => super::callret::return_step(ctx, warp, inst, pc, mask, (&coords, sm))?,
        Op::Bar => {
            warp.stack.advance(next, 0);
            warp.at_barrier = true;
            outcome = Outcome::Barrier;
        }
        Op::BarRed(r) => {
            bar_red_arrive(warp, bar_red, inst, ctx, (&coords, sm), mask, r);
            warp.stack.advance(next, 0);
            warp.at_barrier = true;
            outcome = Outcome::Barrier;
        }
        Op::Carry {
            kind,
            ty,
            cin,
            cout,
        } => {
            if mask != 0 {
                carry_step(warp, inst, ctx, (&coords, sm), mask, (kind, ty, cin, cout));
            }
            warp.stack.advance(next, 0);
        }
        Op::Half { op, x2 } => {
            if mask != 0 {
                half_step(warp, inst, ctx, (&coords, sm), mask, op, x2);
            }
            warp.stack.advance(next, 0);
        }
        Op::Sys(call) => {
            if mask != 0 {
                ctx.writes += 1;
                let lm = (local.as_mut_slice(), *local_bytes as usize);
                sys_step(ctx, warp, inst, mask, call, (shared, lm), cta_id)
                    .map_err(|msg| runtime(ctx, pc, msg))?;
            }
            warp.stack.advance(next, 0);
        }
        Op::Tensor(t) => {
            let lm = (shared.as_mut_slice(), local.as_mut_slice(), *local_bytes);
            super::tensor::step::<REC>(ctx, warp, t, pc, mask, (&coords, sm), lm, out)?;
            // the carriers of its fragments are part of the instruction
            warp.stack.advance(next + t.carriers() as u32, 0);
        }
        Op::Operands => {
            return Err(runtime(
                ctx,
                pc,
                "internal: a tensor instruction's operands executed alone".into(),
            ))
        }
        Op::Membar | Op::Nop => warp.stack.advance(next, 0),
        Op::Trap(kind) => {
            if mask != 0 {
                let msg = trap_message(kind, warp, inst, ctx, (&coords, sm), mask);
                return Err(runtime(ctx, pc, msg));
            }
            warp.stack.advance(next, 0);
        }
        Op::Warp(wop) => {
            if mask != 0 {
                let mut s = [[0u64; 32]; 4];
                for k in 0..inst.nsrc as usize {
                    fetch_into(warp, inst.src[k], ctx, (&coords, sm), &mut s[k]);
                }
                let (r, p) =
                    super::warpops::eval(wop, mask, &s).map_err(|msg| runtime(ctx, pc, msg))?;
                write(warp, inst.dst[0], &r, mask);
                if inst.ndst > 1 {
                    write(warp, inst.dst[1], &p, mask);
                }
            }
            warp.stack.advance(next, 0);
        }
        Op::Cvta { to, space } => {
            if mask != 0 {
                use super::memory::{GENERIC_LOCAL_BASE, GENERIC_SHARED_BASE};
                let base = if space == crate::ptx::isa::Space::Shared {
                    GENERIC_SHARED_BASE
                } else {
                    GENERIC_LOCAL_BASE
                };
                let a = fetch(warp, inst.src[0], ctx, (&coords, sm));
                let mut r = [0u64; 32];
                for l in 0..WARP_SIZE {
                    r[l] = if to {
                        a[l].wrapping_sub(base)
                    } else {
                        a[l].wrapping_add(base)
                    };
                }
                write(warp, inst.dst[0], &r, mask);
            }
            warp.stack.advance(next, 0);
        }
        Op::Unpack { ty, n } => {
            if mask != 0 {
                let a = fetch(warp, inst.src[0], ctx, (&coords, sm));
                let w = ty.bits() / n as u32;
                for k in 0..n as usize {
                    let mut r = [0u64; 32];
                    for l in 0..WARP_SIZE {
                        r[l] = alu::trunc(a[l] >> (w as usize * k), w);
                    }
                    write(warp, inst.dst[k], &r, mask);
                }
            }
            warp.stack.advance(next, 0);
        }
        Op::Bfi(_) | Op::Lop3 | Op::Pack { .. } => {
            if mask != 0 {
                let mut s = [[0u64; 32]; 4];
                for k in 0..inst.nsrc as usize {
                    fetch_into(warp, inst.src[k], ctx, (&coords, sm), &mut s[k]);
                }
                let mut r = [0u64; 32];
                alu::eval4(inst, &s, &mut r);
                write(warp, inst.dst[0], &r, mask);
            }
            warp.stack.advance(next, 0);
        }
        Op::Setp(cmp, bop, t) => {
            if mask != 0 {
                setp_step(ctx, warp, inst, mask, (cmp, bop, t), (&coords, sm));
            }
            warp.stack.advance(next, 0);
        }
        Op::Tex(t) => {
            if mask != 0 {
                super::texture::tex_step::<REC>(ctx, warp, inst, t, mask, pc, (&coords, sm), out)?;
            }
            warp.stack.advance(next, 0);
        }
        Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } | Op::Red { .. } => {
            if mask != 0 {
                ctx.writes += !matches!(inst.op, Op::Ld { .. }) as u64;
                let lm = (shared.as_mut_slice(), local.as_mut_slice(), *local_bytes);
                mem_step::<REC>(ctx, warp, inst, mask, pc, (&coords, sm), lm, out)?;
            }
            warp.stack.advance(next, 0);
        }
        _ => {
            if mask != 0 {
                let mut s = [[0u64; 32]; 3];
                for k in 0..inst.nsrc as usize {
                    fetch_into(warp, inst.src[k], ctx, (&coords, sm), &mut s[k]);
                }
                let mut r = [0u64; 32];
                if !alu::eval(inst, &s, &mut r) {
                    return Err(runtime(
                        ctx,
                        pc,
                        format!("internal: no ALU semantics for {:?}", inst.op),
                    ));
                }
                write(warp, inst.dst[0], &r, mask);
            }
            warp.stack.advance(next, 0);
        }
    }
    if warp.stack.is_empty() {
        warp.done = true;
        outcome = Outcome::Finished;
    }
    Ok(outcome)
}

/// A branch: the taken lanes go to the target, the others fall through; a divergent branch
/// pushes onto the SIMT stack and the record carries its reconvergence PC.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn bra_step<const REC: bool>(
    ctx: &Ctx,
    warp: &mut Warp,
    inst: &crate::ptx::Inst,
    pc: usize,
    (simt, mask, next): (u32, u32, u32),
    uni: bool,
    out: &mut WarpInst,
) -> Result<(), SimError> {
    let code = ctx.code;
    let taken = mask;
    let fall = simt & !mask;
    if uni && taken != 0 && fall != 0 {
        return Err(runtime(
            ctx,
            pc,
            format!("bra.uni diverged (taken lanes {taken:#010x} of {simt:#010x})"),
        ));
    }
    let rpc = code.reconv[pc];
    let diverged = warp
        .stack
        .branch(taken, inst.target, fall, next, rpc, ctx.order);
    if warp.stack.depth() > ctx.max_depth && warp.stack.frame_depth() > ctx.max_depth {
        return Err(runtime(
            ctx,
            pc,
            format!(
                "SIMT stack deeper than {} entries (reconv.max_depth; default 2 x warp \
                 size; counted from the innermost call of a recursive function)",
                ctx.max_depth
            ),
        ));
    }
    if REC && diverged {
        out.reconv_pc = Some(if rpc == RECONV_EXIT {
            RPC_EXIT
        } else {
            rpc * 8
        });
    }
    Ok(())
}

/// A load, store or atomic of the lanes in `mask`: addresses, generic-space resolution (the
/// record carries the resolved space), the access, and the per-lane addresses of the record.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn mem_step<const REC: bool>(
    ctx: &mut Ctx,
    warp: &mut Warp,
    inst: &crate::ptx::Inst,
    mask: u32,
    pc: usize,
    (coords, sm): (&[u32; 3], u32),
    (shared, local, local_bytes): (&mut [u8], &mut [u8], u32),
    out: &mut WarpInst,
) -> Result<(), SimError> {
    let base: Lanes = match inst.addr.base {
        AddrBase::None => [0; 32],
        AddrBase::R32(r) => fetch(warp, Opnd::R32(r), ctx, (coords, sm)),
        AddrBase::R64(r) => fetch(warp, Opnd::R64(r), ctx, (coords, sm)),
        AddrBase::Global(i) => [ctx.global_syms[i as usize]; 32],
    };
    let off = inst.addr.off as u64;
    let mut addrs = [0u64; 32];
    for l in 0..WARP_SIZE {
        addrs[l] = base[l].wrapping_add(off);
    }
    let mut resolved_store;
    let mut resolved = inst;
    if is_generic(&inst.op) {
        resolved_store = *inst;
        let space = generic_space_mut(&mut resolved_store.op)
            .ok_or_else(|| runtime(ctx, pc, "internal: generic space".into()))?;
        let sp = memop::resolve_generic(&mut addrs, mask).map_err(|msg| runtime(ctx, pc, msg))?;
        *space = sp;
        if REC {
            if let Some(mi) = out.mem.as_mut() {
                mi.space = match sp {
                    crate::ptx::isa::Space::Shared => crate::inst::MemSpace::Shared,
                    crate::ptx::isa::Space::Local => crate::inst::MemSpace::Local,
                    _ => crate::inst::MemSpace::Global,
                };
            }
        }
        resolved = &resolved_store;
    }
    memop::execute(
        ctx,
        warp,
        resolved,
        mask,
        &addrs,
        shared,
        local,
        local_bytes,
        pc,
        (coords, sm),
    )?;
    if REC {
        if let Some(mi) = out.mem.as_mut() {
            for l in 0..WARP_SIZE {
                mi.addrs[l] = if mask >> l & 1 != 0 { addrs[l] } else { 0 };
            }
        }
    }
    Ok(())
}

/// `setp`: the comparison's predicate p (and its complement q, each combined with c) for the
/// lanes in `mask`.
#[inline(always)]
fn setp_step(
    ctx: &Ctx,
    warp: &mut Warp,
    inst: &crate::ptx::Inst,
    mask: u32,
    (cmp, bop, t): (
        crate::ptx::isa::Cmp,
        Option<crate::ptx::isa::BoolOp>,
        crate::ptx::Ty,
    ),
    cta: (&[u32; 3], u32),
) {
    let a = fetch(warp, inst.src[0], ctx, cta);
    let b = fetch(warp, inst.src[1], ctx, cta);
    let c = if inst.nsrc > 2 {
        fetch(warp, inst.src[2], ctx, cta)
    } else {
        [0; 32]
    };
    let (p, q) = alu::setp(cmp, bop, t, inst.flags & flags::FTZ != 0, &a, &b, &c);
    if let Opnd::Pred(d, _) = inst.dst[0] {
        let r = &mut warp.preds[d as usize];
        *r = (*r & !mask) | (p & mask);
    }
    if inst.ndst > 1 {
        if let Opnd::Pred(d, _) = inst.dst[1] {
            let r = &mut warp.preds[d as usize];
            *r = (*r & !mask) | (q & mask);
        }
    }
}

/// A warp arrives at `bar.red`: its lanes in `mask` add their predicate to the CTA's reduction
/// and wait for the result (delivered by [`Cta::deliver_bar_red`] at the release).
#[inline]
fn bar_red_arrive(
    warp: &mut Warp,
    acc: &mut super::warp::BarRedAcc,
    inst: &crate::ptx::Inst,
    ctx: &Ctx,
    cta: (&[u32; 3], u32),
    mask: u32,
    op: crate::ptx::isa::BarRedOp,
) {
    let p = fetch(warp, inst.src[0], ctx, cta);
    let mut bits = 0u32;
    for (l, v) in p.iter().enumerate() {
        bits |= ((*v & 1) as u32) << l;
    }
    acc.op = Some(op);
    acc.count += (bits & mask).count_ones();
    acc.threads += mask.count_ones();
    let lanes = warp.bar_red.map_or(0, |(_, m)| m) | mask;
    warp.bar_red = Some((inst.dst[0], lanes));
}

/// Extended-precision arithmetic through the warp's carry flags (`emu/alu_more.rs`).
#[inline]
fn carry_step(
    warp: &mut Warp,
    inst: &crate::ptx::Inst,
    ctx: &Ctx,
    cta: (&[u32; 3], u32),
    mask: u32,
    (kind, ty, cin, cout): (crate::ptx::isa::CarryKind, crate::ptx::Ty, bool, bool),
) {
    let mut s = [[0u64; 32]; 3];
    for k in 0..inst.nsrc as usize {
        fetch_into(warp, inst.src[k], ctx, cta, &mut s[k]);
    }
    let mut r = [0u64; 32];
    super::alu_more::carry_lanes(kind, ty, cin, cout, &s, mask, &mut warp.carry, &mut r);
    write(warp, inst.dst[0], &r, mask);
}

/// Half-precision arithmetic and comparison (`emu/alu_more.rs`); a comparison goes through the
/// f32 `setp` on the exactly widened halves.
#[inline]
fn half_step(
    warp: &mut Warp,
    inst: &crate::ptx::Inst,
    ctx: &Ctx,
    cta: (&[u32; 3], u32),
    mask: u32,
    op: crate::ptx::isa::HalfOp,
    x2: bool,
) {
    let mut s = [[0u64; 32]; 3];
    for k in 0..inst.nsrc as usize {
        fetch_into(warp, inst.src[k], ctx, cta, &mut s[k]);
    }
    let ftz = inst.flags & flags::FTZ != 0;
    if let crate::ptx::isa::HalfOp::Setp(cmp) = op {
        let f32_ty = crate::ptx::Ty::F32;
        let zero = [0u64; 32];
        let mut res = [0u32; 2];
        for (h, r) in res.iter_mut().enumerate().take(if x2 { 2 } else { 1 }) {
            let a = super::alu_more::half_as_f32(&s[0], h as u32, ftz);
            let b = super::alu_more::half_as_f32(&s[1], h as u32, ftz);
            *r = alu::setp(cmp, None, f32_ty, false, &a, &b, &zero).0;
        }
        let q = if x2 { res[1] } else { !res[0] };
        for (k, v) in [res[0], q].into_iter().enumerate().take(inst.ndst as usize) {
            if let Opnd::Pred(d, _) = inst.dst[k] {
                let pr = &mut warp.preds[d as usize];
                *pr = (*pr & !mask) | (v & mask);
            }
        }
        return;
    }
    let mut r = [0u64; 32];
    let sat = inst.flags & flags::SAT != 0;
    super::alu_more::half_lanes(op, x2, ftz, sat, &s, &mut r);
    write(warp, inst.dst[0], &r, mask);
}

/// The runtime error of a trap: the source's `trap`, or a check of an indirect call naming the
/// called address of the first lane that reached it.
#[cold]
#[inline(never)]
fn trap_message(
    kind: TrapKind,
    warp: &Warp,
    inst: &crate::ptx::Inst,
    ctx: &Ctx,
    cta: (&[u32; 3], u32),
    mask: u32,
) -> String {
    let lane = mask.trailing_zeros() as usize;
    let thread = warp.index as usize * WARP_SIZE + lane;
    let addr = || fetch(warp, inst.src[0], ctx, cta)[lane];
    match kind {
        TrapKind::User => "trap executed (__trap() or a failed device assert)".into(),
        TrapKind::NoFunction => format!(
            "indirect call to an address that is no function: {:#x} (thread {thread} of the \
             CTA; the functions whose address the module takes and that match the call's \
             prototype are the only targets)",
            addr()
        ),
    }
}

/// A device system call (`emu/devcall.rs`) for each lane of `mask` in lane order: arguments
/// from the thread's call-frame slots in local memory, the result into its return slot.
#[inline(never)]
fn sys_step(
    ctx: &mut Ctx,
    warp: &Warp,
    inst: &crate::ptx::Inst,
    mask: u32,
    call: crate::ptx::isa::SysCall,
    (shared, (local, lb)): (&[u8], (&mut [u8], usize)),
    cta_id: u32,
) -> Result<(), String> {
    use super::memory::{read_le, write_le, GENERIC_LOCAL_BASE, GENERIC_SHARED_BASE};
    use crate::ptx::isa::SysCall;
    let slot = |k: usize| match inst.src[k] {
        Opnd::Imm(v) => Some(v as usize),
        _ => None,
    };
    for l in 0..WARP_SIZE {
        if mask >> l & 1 == 0 {
            continue;
        }
        let thread = warp.index as usize * WARP_SIZE + l;
        let mine = local
            .get_mut(thread * lb..(thread + 1) * lb)
            .ok_or("internal: local memory")?;
        let arg = |mine: &[u8], k: usize, bytes: usize| -> Result<u64, String> {
            let o = slot(k).ok_or("internal: call-frame slot")?;
            let b = mine
                .get(o..o + bytes)
                .ok_or("call-frame slot outside local memory")?;
            Ok(read_le(b, bytes as u32))
        };
        // a generic address: the thread's local window, the CTA's shared window, or global
        let read = |mine: &[u8], mem: &GlobalMem, a: u64, out: &mut [u8]| -> Result<(), String> {
            let n = out.len();
            let mut win = |buf: &[u8], off: u64| {
                buf.get(off as usize..off as usize + n)
                    .map(|b| out.copy_from_slice(b))
            };
            let ok = if a >= GENERIC_LOCAL_BASE {
                win(mine, a - GENERIC_LOCAL_BASE).is_some()
            } else if a >= GENERIC_SHARED_BASE {
                win(shared, a - GENERIC_SHARED_BASE).is_some()
            } else {
                mem.read_bytes(a, out).is_ok()
            };
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "printf reads {n} bytes at {a:#x}, outside device memory"
                ))
            }
        };
        match call {
            SysCall::Vprintf => {
                let (fmt_p, args_p) = (arg(mine, 1, 8)?, arg(mine, 2, 8)?);
                let cstr = |mine: &[u8], mem: &GlobalMem, p: u64| -> Result<Vec<u8>, String> {
                    let mut v = Vec::new();
                    let mut b = [0u8; 1];
                    while v.len() < 1 << 16 {
                        read(mine, mem, p + v.len() as u64, &mut b)?;
                        if b[0] == 0 {
                            break;
                        }
                        v.push(b[0]);
                    }
                    Ok(v)
                };
                let mem: &GlobalMem = ctx.mem;
                let fmt = cstr(mine, mem, fmt_p)?;
                let mut rd = |at: u64, n: u32| -> Result<u64, String> {
                    let mut b = [0u8; 8];
                    read(mine, mem, args_p + at, &mut b[..n as usize])?;
                    Ok(u64::from_le_bytes(b))
                };
                let mut st = |p: u64| cstr(mine, mem, p);
                let (text, n) = super::devcall::format(&fmt, &mut rd, &mut st)?;
                ctx.dev.print(cta_id, thread as u32, text);
                let o = slot(0).ok_or("internal: return slot")?;
                let b = mine
                    .get_mut(o..o + 4)
                    .ok_or("return slot outside local memory")?;
                write_le(b, 4, n as u64);
            }
            SysCall::Malloc => {
                let bytes = arg(mine, 1, 8)?;
                let mem = &mut *ctx.mem;
                let p = ctx.dev.malloc(bytes, |b| mem.alloc(b, 256));
                let o = slot(0).ok_or("internal: return slot")?;
                let b = mine
                    .get_mut(o..o + 8)
                    .ok_or("return slot outside local memory")?;
                write_le(b, 8, p);
            }
            SysCall::Free => {
                let p = arg(mine, 1, 8)?;
                ctx.dev.free(p)?;
            }
            SysCall::SetConditional => {
                let (handle, value) = (arg(mine, 1, 8)?, arg(mine, 2, 4)?);
                ctx.mem
                    .write_bytes(handle, &(value as u32).to_le_bytes())
                    .map_err(|_| {
                        format!(
                            "cudaGraphSetConditional: handle {handle:#x} is not a conditional \
                             handle of the program (it addresses no device memory)"
                        )
                    })?;
            }
        }
    }
    Ok(())
}

/// True for a memory operation without a state space (a generic address).
#[inline(always)]
fn is_generic(op: &Op) -> bool {
    matches!(
        op,
        Op::Ld { space, .. } | Op::St { space, .. } | Op::Atom { space, .. } | Op::Red { space, .. }
            if *space == crate::ptx::isa::Space::Generic
    )
}

/// The state space of a memory operation when it is generic (to be resolved per execution).
#[inline(always)]
fn generic_space_mut(op: &mut Op) -> Option<&mut crate::ptx::isa::Space> {
    match op {
        Op::Ld { space, .. }
        | Op::St { space, .. }
        | Op::Atom { space, .. }
        | Op::Red { space, .. }
            if *space == crate::ptx::isa::Space::Generic =>
        {
            Some(space)
        }
        _ => None,
    }
}
