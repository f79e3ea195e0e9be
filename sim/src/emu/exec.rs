//! Executes one warp instruction: guard, operand fetch, ALU or memory operation, masked
//! write-back, PDOM stack update, and (when `REC`) the dynamic [`WarpInst`] record.

#![allow(clippy::needless_range_loop)]

use super::alu::{self, Lanes};
use super::memory::{window_load, window_store, Fault, GlobalMem};
use super::simt::PushOrder;
use super::warp::{Cta, Warp};
use crate::inst::{WarpInst, WARP_SIZE};
use crate::ptx::isa::{AddrBase, AtomOp, Inst, Op, Opnd, SReg, Space, Ty};
use crate::ptx::{KernelCode, RECONV_EXIT, RPC_EXIT};
use crate::SimError;

/// Launch-wide execution context.
pub struct Ctx<'a> {
    pub code: &'a KernelCode,
    pub mem: &'a mut GlobalMem,
    pub params: &'a [u8],
    pub const_bank: &'a [u8],
    /// Device address of each module-scope `.global` variable.
    pub global_syms: &'a [u64],
    pub ntid: [u32; 3],
    pub nctaid: [u32; 3],
    /// `%nwarpid`: warp slots per SM.
    pub nwarpid: u32,
    /// Current core cycle (`%clock`).
    pub cycle: u64,
    pub order: PushOrder,
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

fn runtime(ctx: &Ctx, pc: usize, msg: String) -> SimError {
    let line = ctx.code.insts.get(pc).map_or(0, |i| i.line);
    SimError::Runtime {
        kernel: ctx.code.name.clone(),
        pc: (pc * 8) as u32,
        msg: format!("{} (at {}:{line})", msg, ctx.code.file),
    }
}

/// Per-lane values of an operand.
#[inline(always)]
fn fetch(w: &Warp, o: Opnd, ctx: &Ctx, cta: (&[u32; 3], u32)) -> Lanes {
    match o {
        Opnd::R32(r) => {
            let row: &[u32] = &w.regs[r as usize * WARP_SIZE..r as usize * WARP_SIZE + WARP_SIZE];
            std::array::from_fn(|l| row[l] as u64)
        }
        Opnd::R64(r) => {
            let b = r as usize * WARP_SIZE;
            let lo: &[u32] = &w.regs[b..b + WARP_SIZE];
            let hi: &[u32] = &w.regs[b + WARP_SIZE..b + 2 * WARP_SIZE];
            std::array::from_fn(|l| lo[l] as u64 | ((hi[l] as u64) << 32))
        }
        Opnd::Imm(v) => [v; 32],
        Opnd::Pred(p, neg) => {
            let m = w.preds[p as usize] ^ if neg { u32::MAX } else { 0 };
            std::array::from_fn(|l| ((m >> l) & 1) as u64)
        }
        Opnd::GlobalAddr(i, off) => [ctx.global_syms[i as usize].wrapping_add(off as u64); 32],
        Opnd::Sreg(s) => {
            let (coords, sm) = cta;
            match s {
                SReg::Tid(d) => std::array::from_fn(|l| w.tid[d as usize][l] as u64),
                SReg::Ntid(d) => [ctx.ntid[d as usize] as u64; 32],
                SReg::Ctaid(d) => [coords[d as usize] as u64; 32],
                SReg::Nctaid(d) => [ctx.nctaid[d as usize] as u64; 32],
                SReg::LaneId => std::array::from_fn(|l| l as u64),
                SReg::WarpId => [w.slot as u64; 32],
                SReg::NWarpId => [ctx.nwarpid as u64; 32],
                SReg::SmId => [sm as u64; 32],
                SReg::Clock => [ctx.cycle & 0xFFFF_FFFF; 32],
                SReg::Clock64 => [ctx.cycle; 32],
            }
        }
        Opnd::None => [0; 32],
    }
}

/// Masked write-back.
#[inline(always)]
fn write(w: &mut Warp, o: Opnd, v: &Lanes, mask: u32) {
    match o {
        Opnd::R32(r) => {
            let row: &mut [u32] =
                &mut w.regs[r as usize * WARP_SIZE..r as usize * WARP_SIZE + WARP_SIZE];
            if mask == u32::MAX {
                for l in 0..WARP_SIZE {
                    row[l] = v[l] as u32;
                }
            } else {
                for l in 0..WARP_SIZE {
                    if mask >> l & 1 != 0 {
                        row[l] = v[l] as u32;
                    }
                }
            }
        }
        Opnd::R64(r) => {
            let b = r as usize * WARP_SIZE;
            let rows: &mut [u32] = &mut w.regs[b..b + 2 * WARP_SIZE];
            for l in 0..WARP_SIZE {
                if mask >> l & 1 != 0 {
                    rows[l] = v[l] as u32;
                    rows[WARP_SIZE + l] = (v[l] >> 32) as u32;
                }
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

/// Executes the next instruction of warp `wi` of `cta`.
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
        *out = code.templates[pc];
        out.active_mask = mask;
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
        Op::Membar => warp.stack.advance(next, 0),
        Op::Setp(cmp, bop, t) => {
            if mask != 0 {
                let a = fetch(warp, inst.src[0], ctx, (&coords, sm));
                let b = fetch(warp, inst.src[1], ctx, (&coords, sm));
                let c = if inst.nsrc > 2 {
                    fetch(warp, inst.src[2], ctx, (&coords, sm))
                } else {
                    [0; 32]
                };
                let (p, q) = alu::setp(cmp, bop, t, &a, &b, &c);
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
                mem_op::<REC>(
                    ctx,
                    warp,
                    inst,
                    mask,
                    shared,
                    local,
                    *local_bytes,
                    pc,
                    out,
                    (&coords, sm),
                )?;
            }
            warp.stack.advance(next, 0);
        }
        _ => {
            if mask != 0 {
                let mut s = [[0u64; 32]; 3];
                for k in 0..inst.nsrc as usize {
                    s[k] = fetch(warp, inst.src[k], ctx, (&coords, sm));
                }
                let r = alu::eval(inst, &s).ok_or_else(|| {
                    runtime(
                        ctx,
                        pc,
                        format!("internal: no ALU semantics for {:?}", inst.op),
                    )
                })?;
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

/// Extends a loaded value of type `t` to the destination register width.
#[inline(always)]
fn extend(v: u64, t: Ty, wide_dst: bool) -> u64 {
    if t.is_signed() && t.bits() < 64 {
        let x = alu::sext(v, t.bits()) as u64;
        if wide_dst {
            x
        } else {
            x & 0xFFFF_FFFF
        }
    } else {
        v
    }
}

#[allow(clippy::too_many_arguments)]
fn mem_op<const REC: bool>(
    ctx: &mut Ctx,
    warp: &mut Warp,
    inst: &Inst,
    mask: u32,
    shared: &mut [u8],
    local: &mut [u8],
    local_bytes: u32,
    pc: usize,
    out: &mut WarpInst,
    cta: (&[u32; 3], u32),
) -> Result<(), SimError> {
    let base: Lanes = match inst.addr.base {
        AddrBase::None => [0; 32],
        AddrBase::R32(r) => fetch(warp, Opnd::R32(r), ctx, cta),
        AddrBase::R64(r) => fetch(warp, Opnd::R64(r), ctx, cta),
        AddrBase::Global(i) => [ctx.global_syms[i as usize]; 32],
    };
    let off = inst.addr.off as u64;
    let (space, ty, vec) = match inst.op {
        Op::Ld { space, ty, vec } | Op::St { space, ty, vec } => (space, ty, vec as u32),
        Op::Atom { space, ty, .. } | Op::Red { space, ty, .. } => (space, ty, 1),
        _ => unreachable!("mem_op on a non-memory instruction"),
    };
    let bytes = ty.bytes();
    let warp_index = warp.index as usize;
    let fault = |ctx: &Ctx, f: Fault, a: u64, lane: usize| {
        let name = match space {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Const => "const",
            Space::Param => "param",
        };
        runtime(
            ctx,
            pc,
            format!("lane {lane}: {}", f.describe(name, a, bytes * vec)),
        )
    };
    let lb = local_bytes as usize;
    // Each lane's access, element by element.
    macro_rules! access {
        ($a:expr, $lane:expr, load) => {{
            let a: u64 = $a;
            match space {
                Space::Global => ctx.mem.load(a, bytes),
                Space::Shared => window_load(shared, a, bytes),
                Space::Local => {
                    let t = warp_index * WARP_SIZE + $lane;
                    if a.checked_add(bytes as u64).is_none_or(|e| e > lb as u64) {
                        Err(Fault::OutOfBounds)
                    } else {
                        window_load(&local[t * lb..(t + 1) * lb], a, bytes)
                    }
                }
                Space::Const => window_load(ctx.const_bank, a, bytes),
                Space::Param => window_load(ctx.params, a, bytes),
            }
        }};
        ($a:expr, $lane:expr, store, $v:expr) => {{
            let a: u64 = $a;
            match space {
                Space::Global => ctx.mem.store(a, bytes, $v),
                Space::Shared => window_store(shared, a, bytes, $v),
                Space::Local => {
                    let t = warp_index * WARP_SIZE + $lane;
                    if a.checked_add(bytes as u64).is_none_or(|e| e > lb as u64) {
                        Err(Fault::OutOfBounds)
                    } else {
                        window_store(&mut local[t * lb..(t + 1) * lb], a, bytes, $v)
                    }
                }
                _ => Err(Fault::OutOfBounds),
            }
        }};
    }
    let vec_align = (bytes * vec) as u64;
    match inst.op {
        Op::Ld { .. } => {
            let mut vals = [[0u64; 32]; 4];
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                let a = base[l].wrapping_add(off);
                if vec > 1 && !a.is_multiple_of(vec_align) {
                    return Err(fault(ctx, Fault::Misaligned, a, l));
                }
                for k in 0..vec as usize {
                    let ea = a.wrapping_add(k as u64 * bytes as u64);
                    let v = access!(ea, l, load).map_err(|f| fault(ctx, f, ea, l))?;
                    vals[k][l] = extend(v, ty, matches!(inst.dst[k], Opnd::R64(_)));
                }
                if REC {
                    if let Some(mi) = out.mem.as_mut() {
                        mi.addrs[l] = a;
                    }
                }
            }
            for k in 0..vec as usize {
                write(warp, inst.dst[k], &vals[k], mask);
            }
        }
        Op::St { .. } => {
            let mut data = [[0u64; 32]; 4];
            for k in 0..vec as usize {
                data[k] = fetch(warp, inst.src[k], ctx, cta);
            }
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                let a = base[l].wrapping_add(off);
                if vec > 1 && !a.is_multiple_of(vec_align) {
                    return Err(fault(ctx, Fault::Misaligned, a, l));
                }
                for (k, d) in data.iter().enumerate().take(vec as usize) {
                    let ea = a.wrapping_add(k as u64 * bytes as u64);
                    access!(ea, l, store, d[l]).map_err(|f| fault(ctx, f, ea, l))?;
                }
                if REC {
                    if let Some(mi) = out.mem.as_mut() {
                        mi.addrs[l] = a;
                    }
                }
            }
        }
        Op::Atom { op, .. } | Op::Red { op, .. } => {
            let b = fetch(warp, inst.src[0], ctx, cta);
            let c = if op == AtomOp::Cas {
                fetch(warp, inst.src[1], ctx, cta)
            } else {
                [0; 32]
            };
            let mut old = [0u64; 32];
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                let a = base[l].wrapping_add(off);
                let o = access!(a, l, load).map_err(|f| fault(ctx, f, a, l))?;
                let x = b[l];
                let new = match (op, ty) {
                    (AtomOp::Add, Ty::F32) => {
                        (f32::from_bits(o as u32) + f32::from_bits(x as u32)).to_bits() as u64
                    }
                    (AtomOp::Add, _) => alu::trunc(o.wrapping_add(x), ty.bits()),
                    (AtomOp::Min, Ty::S32) => {
                        (alu::sext(o, 32).min(alu::sext(x, 32)) as u64) & 0xFFFF_FFFF
                    }
                    (AtomOp::Max, Ty::S32) => {
                        (alu::sext(o, 32).max(alu::sext(x, 32)) as u64) & 0xFFFF_FFFF
                    }
                    (AtomOp::Min, _) => o.min(alu::trunc(x, ty.bits())),
                    (AtomOp::Max, _) => o.max(alu::trunc(x, ty.bits())),
                    (AtomOp::Exch, _) => x,
                    (AtomOp::Cas, _) => {
                        if o == alu::trunc(x, ty.bits()) {
                            c[l]
                        } else {
                            o
                        }
                    }
                };
                access!(a, l, store, new).map_err(|f| fault(ctx, f, a, l))?;
                old[l] = o;
                if REC {
                    if let Some(mi) = out.mem.as_mut() {
                        mi.addrs[l] = a;
                    }
                }
            }
            if matches!(inst.op, Op::Atom { .. }) {
                write(warp, inst.dst[0], &old, mask);
            }
        }
        _ => {}
    }
    Ok(())
}
