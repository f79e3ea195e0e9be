//! Decoding of the instructions beyond the original PTX subset that compilers emit for real
//! code (PTX ISA 7.x-9.x): warp-level operations (`shfl.sync`, `vote.sync`, `activemask`,
//! `match.sync`, `redux.sync`), bit-field and byte operations (`bfe`, `bfi`, `bfind`, `prmt`,
//! `shf`, `lop3`), `copysign`, `testp`, `mul24`/`mad24`, and the no-effect or aborting
//! instructions (`nanosleep`, `prefetch`, `trap`). What the timing model cannot represent
//! (texture gathers and queries, surfaces, the tensor-core `stmatrix`/`movmatrix`/`wgmma`, `cp.async`, cluster and TMA instructions)
//! is refused here with a message naming it, so that only the kernel using it is refused.

use super::isa::*;
use super::parser::{RawInst, RawOpnd};
use super::scope::{nops, one_type, Mods, Scope};
use crate::SimError;

/// Instructions whose meaning the timing model does not represent, with the reason.
pub(super) fn unsupported(op: &str) -> Option<&'static str> {
    Some(match op {
        "tld4" | "txq" | "suld" | "sust" | "sured" | "suq" | "istypep" => {
            "texture gathers and queries and surface instructions are not supported (texture \
             fetches, tex, are)"
        }
        "stmatrix" | "movmatrix" | "wgmma" => {
            "these tensor-core matrix instructions are not modelled (wmma, mma.sync and \
             ldmatrix are)"
        }
        "cp" | "cp.async" => "asynchronous copies (cp.async) are not modelled",
        "mbarrier"
        | "cp.reduce.async"
        | "elect"
        | "setmaxnreg"
        | "griddepcontrol"
        | "multimem"
        | "tensormap"
        | "clusterlaunchcontrol" => {
            "cluster, TMA and asynchronous-barrier instructions are not modelled"
        }
        "call" => {
            "calls of device functions are not supported (a .func that nvcc did not inline: \
             printf, assert, virtual calls or libdevice slow paths)"
        }
        "alloca" | "stacksave" | "stackrestore" => "dynamic stack allocation is not supported",
        "getctarank" | "mapa" => "distributed shared memory (clusters) is not modelled",
        "pmevent" | "brkpt" => "performance-monitor and breakpoint instructions are not supported",
        "brx" => "indirect branches (brx.idx) are not supported",
        "discard" | "applypriority" | "createpolicy" => {
            "cache-policy instructions are not supported"
        }
        _ => return None,
    })
}

/// Named destination and optional predicate of `d|p` forms.
fn dst_and_pred(
    s: &Scope,
    o: &(RawOpnd, super::parser::Pos),
    ty: Ty,
) -> Result<(Opnd, Option<Opnd>), SimError> {
    match &o.0 {
        RawOpnd::PredPair(d, p) => Ok((
            s.gpr(d, ty, o.1, false)?,
            Some(Opnd::Pred(s.pred(p, o.1)?, false)),
        )),
        _ => Ok((s.dst(o, ty)?, None)),
    }
}

fn set_dst(inst: &mut Inst, d: &[Opnd]) {
    inst.ndst = d.len() as u8;
    inst.dst[..d.len()].copy_from_slice(d);
}

fn set_src(inst: &mut Inst, d: &[Opnd]) {
    inst.nsrc = d.len() as u8;
    inst.src[..d.len()].copy_from_slice(d);
}

/// The common operand shape `op d, a[, b, ...]`: checks the count, then decodes the
/// destination as `dt` and each source as its type in `sts`.
fn dst_srcs(s: &Scope, ri: &RawInst, inst: &mut Inst, dt: Ty, sts: &[Ty]) -> Result<(), SimError> {
    nops(s, ri, 1 + sts.len())?;
    let ops = &ri.operands;
    set_dst(inst, &[s.dst(&ops[0], dt)?]);
    let srcs = sts
        .iter()
        .enumerate()
        .map(|(k, &t)| s.src(&ops[k + 1], t))
        .collect::<Result<Vec<_>, _>>()?;
    set_src(inst, &srcs);
    Ok(())
}

fn has(m: &Mods, k: &str) -> bool {
    m.other.iter().any(|x| x == k)
}

/// The value of the first modifier of `table` that the instruction carries.
fn pick<T: Copy>(m: &Mods, table: &[(&str, T)]) -> Option<T> {
    table.iter().find(|(k, _)| has(m, k)).map(|&(_, v)| v)
}

/// Decodes `ri` if it is one of this module's instructions: `Ok(Some(inst))`, `Ok(None)` when
/// the opcode is not one of them, an error when it is one but malformed or unsupported.
///
/// Longer than 200 lines on purpose: one `match` arm per opcode this module adds (warp-level,
/// bit-field and byte operations, `copysign`, `testp`, `mul24`/`mad24`), each a few lines through
/// the shared operand helpers; the table reads best in one place.
pub(super) fn decode_ext(
    s: &Scope,
    ri: &RawInst,
    m: &Mods,
    mut inst: Inst,
) -> Result<Option<Inst>, SimError> {
    let op = ri.opcode.as_str();
    let ops = &ri.operands;
    if let Some(why) = unsupported(op) {
        return s.err(ri.pos, format!("'{op}': {why}"));
    }
    if m.space.is_some() && op != "prefetch" {
        return s.err(ri.pos, format!("'{op}' cannot take a state space"));
    }
    if m.vec != 0 {
        return s.err(ri.pos, format!("'{op}' cannot take a vector modifier"));
    }
    if m.uni && op != "vote" {
        return s.err(ri.pos, format!("'{op}' cannot take .uni"));
    }
    match op {
        "shfl" => {
            let mode = pick(
                m,
                &[
                    ("up", ShflMode::Up),
                    ("down", ShflMode::Down),
                    ("bfly", ShflMode::Bfly),
                    ("idx", ShflMode::Idx),
                ],
            );
            let Some(mode) = mode else {
                return s.err(ri.pos, "shfl needs .up, .down, .bfly or .idx");
            };
            let t = one_type(s, ri, m)?;
            if t != Ty::B32 {
                return s.err(ri.pos, "shfl needs .b32");
            }
            // the pre-Volta form without .sync has no member mask: every active lane takes part
            let sync = has(m, "sync");
            nops(s, ri, if sync { 5 } else { 4 })?;
            let (d, p) = dst_and_pred(s, &ops[0], Ty::B32)?;
            inst.op = Op::Warp(WarpOp::Shfl(mode));
            match p {
                Some(p) => set_dst(&mut inst, &[d, p]),
                None => set_dst(&mut inst, &[d]),
            }
            let mask = if sync {
                s.src(&ops[4], Ty::B32)?
            } else {
                Opnd::Imm(u32::MAX as u64)
            };
            set_src(
                &mut inst,
                &[
                    s.src(&ops[1], Ty::B32)?,
                    s.src(&ops[2], Ty::B32)?,
                    s.src(&ops[3], Ty::B32)?,
                    mask,
                ],
            );
        }
        "vote" => {
            let mode = pick(
                m,
                &[
                    ("all", VoteMode::All),
                    ("any", VoteMode::Any),
                    ("ballot", VoteMode::Ballot),
                ],
            )
            .or(m.uni.then_some(VoteMode::Uni));
            let Some(mode) = mode else {
                return s.err(ri.pos, "vote needs .all, .any, .uni or .ballot");
            };
            let t = one_type(s, ri, m)?;
            let want = if mode == VoteMode::Ballot {
                Ty::B32
            } else {
                Ty::Pred
            };
            if t != want {
                return s.err(
                    ri.pos,
                    format!(
                        "vote.{} needs .{}",
                        format!("{mode:?}").to_lowercase(),
                        if want == Ty::B32 { "b32" } else { "pred" }
                    ),
                );
            }
            let sync = has(m, "sync");
            nops(s, ri, if sync { 3 } else { 2 })?;
            inst.op = Op::Warp(WarpOp::Vote(mode));
            set_dst(&mut inst, &[s.dst(&ops[0], want)?]);
            let mask = if sync {
                s.src(&ops[2], Ty::B32)?
            } else {
                Opnd::Imm(u32::MAX as u64)
            };
            set_src(&mut inst, &[s.src(&ops[1], Ty::Pred)?, mask]);
        }
        "activemask" => {
            let t = one_type(s, ri, m)?;
            if t != Ty::B32 {
                return s.err(ri.pos, "activemask needs .b32");
            }
            nops(s, ri, 1)?;
            inst.op = Op::Warp(WarpOp::ActiveMask);
            set_dst(&mut inst, &[s.dst(&ops[0], Ty::B32)?]);
        }
        "match" => {
            let all = has(m, "all");
            if !all && !has(m, "any") {
                return s.err(ri.pos, "match needs .any or .all");
            }
            let t = one_type(s, ri, m)?;
            if !matches!(t, Ty::B32 | Ty::B64) {
                return s.err(ri.pos, "match needs .b32 or .b64");
            }
            nops(s, ri, 3)?;
            let (d, p) = dst_and_pred(s, &ops[0], Ty::B32)?;
            if p.is_some() && !all {
                return s.err(ops[0].1, "only match.all has a predicate destination");
            }
            inst.op = Op::Warp(WarpOp::Match { all, ty: t });
            match p {
                Some(p) => set_dst(&mut inst, &[d, p]),
                None => set_dst(&mut inst, &[d]),
            }
            set_src(&mut inst, &[s.src(&ops[1], t)?, s.src(&ops[2], Ty::B32)?]);
        }
        "redux" => {
            let t = one_type(s, ri, m)?;
            let rop = match m.aop {
                Some(AtomOp::Add) => ReduxOp::Add,
                Some(AtomOp::Min) => ReduxOp::Min,
                Some(AtomOp::Max) => ReduxOp::Max,
                Some(AtomOp::And) => ReduxOp::And,
                Some(AtomOp::Or) => ReduxOp::Or,
                Some(AtomOp::Xor) => ReduxOp::Xor,
                _ => return s.err(ri.pos, "redux needs .add, .min, .max, .and, .or or .xor"),
            };
            let arith = matches!(rop, ReduxOp::Add | ReduxOp::Min | ReduxOp::Max);
            if (arith && !matches!(t, Ty::U32 | Ty::S32)) || (!arith && t != Ty::B32) {
                return s.err(
                    ri.pos,
                    "redux takes .u32/.s32 for add, min, max and .b32 for and, or, xor",
                );
            }
            inst.op = Op::Warp(WarpOp::Redux(rop, t));
            dst_srcs(s, ri, &mut inst, t, &[t, Ty::B32])?;
        }
        "nanosleep" | "prefetch" | "prefetchu" => {
            inst.op = Op::Nop;
            if op == "nanosleep" {
                nops(s, ri, 1)?;
                set_src(&mut inst, &[s.src(&ops[0], Ty::U32)?]);
            }
        }
        "trap" => {
            nops(s, ri, 0)?;
            inst.op = Op::Trap(TrapKind::User);
        }
        "bfe" => {
            let t = one_type(s, ri, m)?;
            if !matches!(t, Ty::U32 | Ty::S32 | Ty::U64 | Ty::S64) {
                return s.err(ri.pos, "bfe needs .u32, .s32, .u64 or .s64");
            }
            inst.op = Op::Bfe(t);
            dst_srcs(s, ri, &mut inst, t, &[t, Ty::U32, Ty::U32])?;
        }
        "bfi" => {
            let t = one_type(s, ri, m)?;
            if !matches!(t, Ty::B32 | Ty::B64) {
                return s.err(ri.pos, "bfi needs .b32 or .b64");
            }
            inst.op = Op::Bfi(t);
            dst_srcs(s, ri, &mut inst, t, &[t, t, Ty::U32, Ty::U32])?;
        }
        "bfind" => {
            let t = one_type(s, ri, m)?;
            if !matches!(t, Ty::U32 | Ty::S32 | Ty::U64 | Ty::S64) {
                return s.err(ri.pos, "bfind needs .u32, .s32, .u64 or .s64");
            }
            inst.op = Op::Bfind {
                ty: t,
                shiftamt: has(m, "shiftamt"),
            };
            dst_srcs(s, ri, &mut inst, Ty::U32, &[t])?;
        }
        "prmt" => {
            let t = one_type(s, ri, m)?;
            if t != Ty::B32 {
                return s.err(ri.pos, "prmt needs .b32");
            }
            let mode = pick(
                m,
                &[
                    ("f4e", PrmtMode::F4e),
                    ("b4e", PrmtMode::B4e),
                    ("rc8", PrmtMode::Rc8),
                    ("ecl", PrmtMode::Ecl),
                    ("ecr", PrmtMode::Ecr),
                    ("rc16", PrmtMode::Rc16),
                ],
            )
            .unwrap_or(PrmtMode::Generic);
            inst.op = Op::Prmt(mode);
            dst_srcs(s, ri, &mut inst, t, &[t, t, t])?;
        }
        "shf" => {
            let t = one_type(s, ri, m)?;
            let left = has(m, "l");
            if t != Ty::B32 || left == has(m, "r") || has(m, "wrap") == has(m, "clamp") {
                return s.err(ri.pos, "shf needs .l or .r, .wrap or .clamp, and .b32");
            }
            inst.op = Op::Shf {
                left,
                wrap: has(m, "wrap"),
            };
            dst_srcs(s, ri, &mut inst, t, &[t, t, Ty::U32])?;
        }
        "bmsk" => {
            let t = one_type(s, ri, m)?;
            if t != Ty::B32 || has(m, "wrap") == has(m, "clamp") {
                return s.err(ri.pos, "bmsk needs .clamp or .wrap and .b32");
            }
            inst.op = Op::Bmsk {
                wrap: has(m, "wrap"),
            };
            dst_srcs(s, ri, &mut inst, t, &[Ty::U32, Ty::U32])?;
        }
        "lop3" => {
            let t = one_type(s, ri, m)?;
            if t != Ty::B32 {
                return s.err(ri.pos, "lop3 needs .b32");
            }
            nops(s, ri, 5)?;
            inst.op = Op::Lop3;
            set_dst(&mut inst, &[s.dst(&ops[0], t)?]);
            let lut = s.src(&ops[4], Ty::B32)?;
            if !matches!(lut, Opnd::Imm(v) if v <= 0xff) {
                return s.err(ops[4].1, "lop3 needs an immediate truth table 0..255");
            }
            set_src(
                &mut inst,
                &[
                    s.src(&ops[1], t)?,
                    s.src(&ops[2], t)?,
                    s.src(&ops[3], t)?,
                    lut,
                ],
            );
        }
        "copysign" => {
            let t = one_type(s, ri, m)?;
            if !t.is_float() {
                return s.err(ri.pos, "copysign needs .f32 or .f64");
            }
            inst.op = Op::Copysign(t);
            dst_srcs(s, ri, &mut inst, t, &[t, t])?;
        }
        "testp" => {
            let t = one_type(s, ri, m)?;
            let k = pick(
                m,
                &[
                    ("finite", TestpOp::Finite),
                    ("infinite", TestpOp::Infinite),
                    ("number", TestpOp::Number),
                    ("notanumber", TestpOp::NotANumber),
                    ("normal", TestpOp::Normal),
                    ("subnormal", TestpOp::Subnormal),
                ],
            );
            let Some(k) = k else {
                return s.err(ri.pos, "testp needs a property (.finite, .infinite, ...)");
            };
            if !t.is_float() {
                return s.err(ri.pos, "testp needs .f32 or .f64");
            }
            inst.op = Op::Testp(k, t);
            dst_srcs(s, ri, &mut inst, Ty::Pred, &[t])?;
        }
        "mul24" | "mad24" => {
            let t = one_type(s, ri, m)?;
            if !matches!(t, Ty::U32 | Ty::S32) || m.lo == m.hi {
                return s.err(ri.pos, format!("{op} needs .lo or .hi and .u32 or .s32"));
            }
            let mad = op == "mad24";
            nops(s, ri, if mad { 4 } else { 3 })?;
            inst.op = Op::Mul24 {
                signed: t == Ty::S32,
                hi: m.hi,
                mad,
            };
            set_dst(&mut inst, &[s.dst(&ops[0], t)?]);
            let mut v = vec![s.src(&ops[1], t)?, s.src(&ops[2], t)?];
            if mad {
                v.push(s.src(&ops[3], t)?);
            }
            set_src(&mut inst, &v);
        }
        _ => return Ok(None),
    }
    Ok(Some(inst))
}
