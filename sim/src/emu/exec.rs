//! Executes one warp instruction: guard, operand fetch, ALU or memory operation, masked
//! write-back, PDOM stack update, and (when `REC`) the dynamic [`WarpInst`] record.

#![allow(clippy::needless_range_loop)]

use super::alu::{self, Lanes};
use super::memop;
use super::memory::GlobalMem;
use super::simt::PushOrder;
use super::warp::{Cta, Warp};
use crate::inst::{MemInfo, WarpInst, WARP_SIZE};
use crate::ptx::isa::{flags, AddrBase, Op, Opnd, SReg};
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

/// Runs warp `wi` functionally (no records) for up to `budget` instructions, stopping early at a
/// barrier or when the warp finishes. Returns the last outcome and the instructions executed.
pub fn run_warp(
    ctx: &mut Ctx,
    cta: &mut Cta,
    wi: usize,
    budget: u32,
    scratch: &mut WarpInst,
) -> Result<(Outcome, u32), SimError> {
    let mut n = 0u32;
    while n < budget {
        let o = step::<false>(ctx, cta, wi, scratch)?;
        match o {
            Outcome::Executed => n += 1,
            Outcome::Idle => return Ok((o, n)),
            _ => return Ok((o, n + 1)),
        }
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
    let Cta {
        warps,
        shared,
        local,
        local_bytes,
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
            if warp.stack.depth() > ctx.max_depth {
                return Err(runtime(
                    ctx,
                    pc,
                    format!(
                        "SIMT stack deeper than {} entries (reconv.max_depth; default 2 x warp \
                         size)",
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
        }
        Op::Ret | Op::Exit => warp.stack.advance(next, mask),
        Op::Bar => {
            warp.stack.advance(next, 0);
            warp.at_barrier = true;
            outcome = Outcome::Barrier;
        }
        Op::Membar | Op::Nop => warp.stack.advance(next, 0),
        Op::Trap => {
            if mask != 0 {
                return Err(runtime(
                    ctx,
                    pc,
                    "trap executed (__trap() or a failed device assert)".into(),
                ));
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
                let a = fetch(warp, inst.src[0], ctx, (&coords, sm));
                let b = fetch(warp, inst.src[1], ctx, (&coords, sm));
                let c = if inst.nsrc > 2 {
                    fetch(warp, inst.src[2], ctx, (&coords, sm))
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
            warp.stack.advance(next, 0);
        }
        Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } | Op::Red { .. } => {
            if mask != 0 {
                let base: Lanes = match inst.addr.base {
                    AddrBase::None => [0; 32],
                    AddrBase::R32(r) => fetch(warp, Opnd::R32(r), ctx, (&coords, sm)),
                    AddrBase::R64(r) => fetch(warp, Opnd::R64(r), ctx, (&coords, sm)),
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
                    let sp = memop::resolve_generic(&mut addrs, mask)
                        .map_err(|msg| runtime(ctx, pc, msg))?;
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
                    *local_bytes,
                    pc,
                    (&coords, sm),
                )?;
                if REC {
                    if let Some(mi) = out.mem.as_mut() {
                        for l in 0..WARP_SIZE {
                            mi.addrs[l] = if mask >> l & 1 != 0 { addrs[l] } else { 0 };
                        }
                    }
                }
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
