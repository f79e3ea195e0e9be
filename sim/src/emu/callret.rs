//! Calls and returns of device functions that are not inlined (recursive ones, `ptx::subcall`):
//! the per-lane stack check and return address of a call, and the return to each lane's address.

// per-lane loops index several lane arrays at once
#![allow(clippy::needless_range_loop)]

use super::exec::{fetch, runtime, write, Ctx};
use super::warp::Warp;
use crate::inst::WARP_SIZE;
use crate::ptx::isa::Op;
use crate::SimError;

/// A call of a recursive function (`ptx/subcall.rs`) by every lane of the top entry: checks
/// that each lane's activation fits the stack (`src[0]` the lane's stack pointer, `src[1]` the
/// bytes it needs), writes the return address (byte PC of the next instruction) into
/// `dst[0]`, and pushes a call entry on the PDOM stack. A reconvergence mechanism other than
/// the PDOM stack does not model calls: the kernel stops with an error naming it.
#[inline(never)]
pub(super) fn call_step(
    ctx: &Ctx,
    warp: &mut Warp,
    inst: &crate::ptx::Inst,
    pc: usize,
    (simt, mask): (u32, u32),
    (cta, local_bytes): ((&[u32; 3], u32), u32),
) -> Result<(), SimError> {
    let Op::Call { func } = inst.op else {
        return Ok(());
    };
    let fname = || {
        ctx.code
            .calls
            .as_ref()
            .and_then(|c| c.funcs.get(func as usize))
            .map_or("?", |s| s.as_str())
    };
    if mask != simt {
        return Err(runtime(
            ctx,
            pc,
            format!("internal: the call of '{}' is predicated", fname()),
        ));
    }
    let sp = fetch(warp, inst.src[0], ctx, cta);
    let need = fetch(warp, inst.src[1], ctx, cta)[0];
    let base = u64::from(ctx.code.local_bytes);
    let end = u64::from(local_bytes);
    for l in 0..WARP_SIZE {
        if mask >> l & 1 == 0 {
            continue;
        }
        if sp[l].saturating_add(need) > end {
            let thread = warp.index as usize * WARP_SIZE + l;
            return Err(runtime(
                ctx,
                pc,
                format!(
                    "stack overflow: the call of device function '{}' needs {} bytes of stack \
                     per thread (thread {thread} of CTA ({}, {}, {})), beyond the stack limit \
                     of {} bytes (cudaLimitStackSize; the program file's 'stack_bytes' \
                     raises it)",
                    fname(),
                    sp[l].saturating_add(need).saturating_sub(base),
                    cta.0[0],
                    cta.0[1],
                    cta.0[2],
                    ctx.stack_limit
                ),
            ));
        }
    }
    let next = pc as u32 + 1;
    write(warp, inst.dst[0], &[u64::from(next) * 8; WARP_SIZE], mask);
    match &mut warp.stack {
        super::WarpControl::Pdom(s) => s.call(inst.target, next, true),
        super::WarpControl::Other(_) => {
            return Err(runtime(
                ctx,
                pc,
                format!(
                    "the call of recursive device function '{}' needs call and return \
                     entries on the reconvergence stack, which the installed reconvergence \
                     mechanism does not model (use the PDOM stack)",
                    fname()
                ),
            ))
        }
    }
    Ok(())
}

/// The return of a recursive function to the address in `src[0]` (a byte PC): on the PDOM
/// stack the call entry on top is popped, and the caller's entry below must wait at that
/// address. Without a call entry on top (the thread-pool stream runs one instruction on a
/// fresh single-entry stack and sets each thread's next PC from the register itself) the
/// entry moves to the first active lane's address.
#[inline(never)]
pub(super) fn return_step(
    ctx: &Ctx,
    warp: &mut Warp,
    inst: &crate::ptx::Inst,
    pc: usize,
    mask: u32,
    cta: (&[u32; 3], u32),
) -> Result<(), SimError> {
    let ra = fetch(warp, inst.src[0], ctx, cta);
    let lane = mask.trailing_zeros() as usize;
    let super::WarpControl::Pdom(s) = &mut warp.stack else {
        return Err(runtime(
            ctx,
            pc,
            "internal: a return without the PDOM stack".into(),
        ));
    };
    let e = s.entries();
    let is_call = e.last().map(|t| t.kind) == Some(super::EntryKind::Call);
    if !is_call {
        let to = if lane < WARP_SIZE {
            ra[lane] / 8
        } else {
            pc as u64 + 1
        };
        s.advance(to as u32, 0);
        return Ok(());
    }
    let back = e.len().checked_sub(2).map(|i| e[i].pc);
    for l in 0..WARP_SIZE {
        if mask >> l & 1 != 0 && back.map(|b| u64::from(b) * 8) != Some(ra[l]) {
            return Err(runtime(
                ctx,
                pc,
                format!(
                    "internal: return address {:#x} of lane {l} differs from the caller's                      entry ({back:?})",
                    ra[l]
                ),
            ));
        }
    }
    s.ret();
    Ok(())
}
