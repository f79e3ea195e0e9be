//! Decoding of three instruction groups real code needs beyond [`super::decode_ext`]:
//! extended-precision integer arithmetic through the carry flag (`add.cc`, `addc`, `sub.cc`,
//! `subc`, `mad.{lo,hi}.cc`, `madc.{lo,hi}[.cc]`, PTX ISA "Extended-Precision Integer
//! Arithmetic Instructions"), half-precision arithmetic on `.f16` and `.f16x2` (`add`, `sub`,
//! `mul`, `fma`, `neg`, `abs`, `min`, `max`, `setp`), and `bar.red` (a CTA barrier with a
//! reduction of a predicate). [`decode_more`] runs before the general decoder because these
//! forms carry modifiers (`.cc`, `.f16x2`, `.red`) the general modifier parser rejects. It also
//! decodes the device system calls `inline.rs` makes of `vprintf`, `malloc` and `free` calls,
//! the checks it inserts in indirect calls (a trap naming the called address), and the call
//! and return of a recursive function that `subcall.rs` emits.

use super::isa::*;
use super::parser::{InitVal, RawInst, RawOpnd};
use super::scope::{nops, Scope};
use crate::SimError;

/// Opcodes that operate on `.f16`/`.f16x2` values here.
const HALF_OPS: [&str; 9] = [
    "add", "sub", "mul", "fma", "neg", "abs", "min", "max", "setp",
];

/// Decodes `ri` when it belongs to one of the groups above; `None` for anything else.
pub(super) fn decode_more(s: &Scope, ri: &RawInst) -> Result<Option<Inst>, SimError> {
    let op = ri.opcode.as_str();
    let has = |m: &str| ri.mods.iter().any(|x| x == m);
    let kind = if op == super::inline::SYSCALL_OPCODE {
        Group::Sys
    } else if op == super::inline::TRAP_OPCODE {
        Group::Trap
    } else if op == super::subcall::CALL_OPCODE || op == super::subcall::RETURN_OPCODE {
        Group::Sub
    } else if matches!(op, "addc" | "subc" | "madc") || has("cc") {
        Group::Carry
    } else if HALF_OPS.contains(&op) && (has("f16x2") || has("f16")) {
        Group::Half
    } else if matches!(op, "bar" | "barrier") && has("red") {
        Group::BarRed
    } else {
        return Ok(None);
    };
    let mut inst = Inst::new(Op::Nop, ri.pos.line);
    if let Some((g, neg, gp)) = &ri.guard {
        inst.guard = Some((s.pred(g, *gp)?, *neg));
    }
    match kind {
        Group::Carry => carry(s, ri, &mut inst)?,
        Group::Half => half(s, ri, &mut inst)?,
        Group::BarRed => bar_red(s, ri, &mut inst)?,
        Group::Sys => sys(s, ri, &mut inst)?,
        Group::Trap => check_trap(s, ri, &mut inst)?,
        Group::Sub => subroutine(s, ri, &mut inst)?,
    }
    Ok(Some(inst))
}

enum Group {
    Sys,
    Trap,
    Sub,
    Carry,
    Half,
    BarRed,
}

fn set(inst: &mut Inst, dst: &[Opnd], src: &[Opnd]) {
    inst.ndst = dst.len() as u8;
    inst.dst[..dst.len()].copy_from_slice(dst);
    inst.nsrc = src.len() as u8;
    inst.src[..src.len()].copy_from_slice(src);
}

/// `add.cc.u32 d, a, b`, `addc{.cc}.s64 d, a, b`, `mad.lo.cc.u32 d, a, b, c`,
/// `madc.hi{.cc}.u64 d, a, b, c`, ...: the integer types of 32 and 64 bits.
fn carry(s: &Scope, ri: &RawInst, inst: &mut Inst) -> Result<(), SimError> {
    let op = ri.opcode.as_str();
    let (base, cin) = match op {
        "addc" => ("add", true),
        "subc" => ("sub", true),
        "madc" => ("mad", true),
        _ => (op, false),
    };
    if !matches!(base, "add" | "sub" | "mad") {
        return s.err(
            ri.pos,
            format!("unknown modifier '.cc' for '{op}' (only add, sub and mad set the carry)"),
        );
    }
    let (mut ty, mut cout, mut lo, mut hi) = (None, false, false, false);
    for m in &ri.mods {
        match m.as_str() {
            "cc" => cout = true,
            "lo" if base == "mad" => lo = true,
            "hi" if base == "mad" => hi = true,
            t => match Ty::from_name(t) {
                Some(t @ (Ty::U32 | Ty::S32 | Ty::U64 | Ty::S64)) if ty.is_none() => ty = Some(t),
                _ => {
                    return s.err(
                        ri.pos,
                        format!(
                            "'{op}' takes .cc, {}and one of .u32, .s32, .u64, .s64; found '.{t}'",
                            if base == "mad" { ".lo or .hi, " } else { "" }
                        ),
                    )
                }
            },
        }
    }
    let Some(ty) = ty else {
        return s.err(
            ri.pos,
            format!("'{op}' needs a type (.u32, .s32, .u64, .s64)"),
        );
    };
    let kind = match base {
        "add" => CarryKind::Add,
        "sub" => CarryKind::Sub,
        _ if lo && !hi => CarryKind::MadLo,
        _ if hi && !lo => CarryKind::MadHi,
        _ => return s.err(ri.pos, format!("'{op}' needs exactly one of .lo, .hi")),
    };
    let ops = &ri.operands;
    let n = if base == "mad" { 4 } else { 3 };
    nops(s, ri, n)?;
    inst.op = Op::Carry {
        kind,
        ty,
        cin,
        cout,
    };
    let src: Vec<Opnd> = ops[1..n]
        .iter()
        .map(|o| s.src(o, ty))
        .collect::<Result<_, _>>()?;
    set(inst, &[s.dst(&ops[0], ty)?], &src);
    Ok(())
}

/// `add{.rnd}{.ftz}{.sat}.f16[x2] d, a, b` and the rest of [`HALF_OPS`].
fn half(s: &Scope, ri: &RawInst, inst: &mut Inst) -> Result<(), SimError> {
    let op = ri.opcode.as_str();
    let (mut x2, mut ty_seen, mut cmp) = (false, false, None);
    for m in &ri.mods {
        match m.as_str() {
            "f16" | "f16x2" if !ty_seen => {
                ty_seen = true;
                x2 = m == "f16x2";
            }
            "rn" if matches!(op, "add" | "sub" | "mul" | "fma") => {}
            "ftz" => inst.flags |= flags::FTZ,
            "sat" if matches!(op, "add" | "sub" | "mul" | "fma") => inst.flags |= flags::SAT,
            c if op == "setp" && cmp.is_none() => {
                cmp = Some(parse_cmp(c).ok_or(()).or_else(|_| {
                    s.err(
                        ri.pos,
                        format!("'setp' on .f16: unknown comparison or modifier '.{c}'"),
                    )
                })?);
            }
            other => {
                return s.err(
                    ri.pos,
                    format!(
                        "'{op}' on .f16/.f16x2 does not take '.{other}' (supported: .rn, .ftz, \
                         .sat on add, sub, mul, fma; a comparison on setp)"
                    ),
                )
            }
        }
    }
    // the register holding the value: 16 bits for .f16, 32 bits for .f16x2
    let rt = if x2 { Ty::B32 } else { Ty::B16 };
    let ops = &ri.operands;
    let hop = match op {
        "add" => HalfOp::Add,
        "sub" => HalfOp::Sub,
        "mul" => HalfOp::Mul,
        "fma" => HalfOp::Fma,
        "neg" => HalfOp::Neg,
        "abs" => HalfOp::Abs,
        "min" => HalfOp::Min,
        "max" => HalfOp::Max,
        _ => {
            let Some(c) = cmp else {
                return s.err(ri.pos, "setp needs a comparison (.eq, .lt, ...)");
            };
            HalfOp::Setp(c)
        }
    };
    inst.op = Op::Half { op: hop, x2 };
    let n = match hop {
        HalfOp::Neg | HalfOp::Abs => 2,
        HalfOp::Fma => 4,
        _ => 3,
    };
    nops(s, ri, n)?;
    let src: Vec<Opnd> = ops[1..n]
        .iter()
        .map(|o| s.src(o, rt))
        .collect::<Result<_, _>>()?;
    let dst: Vec<Opnd> = match (&ops[0].0, hop) {
        (RawOpnd::PredPair(p, q), HalfOp::Setp(_)) => vec![
            Opnd::Pred(s.pred(p, ops[0].1)?, false),
            Opnd::Pred(s.pred(q, ops[0].1)?, false),
        ],
        (_, HalfOp::Setp(_)) if x2 => {
            return s.err(ops[0].1, "setp.f16x2 writes two predicates ('p|q')");
        }
        (_, HalfOp::Setp(_)) => vec![s.dst(&ops[0], Ty::Pred)?],
        _ => vec![s.dst(&ops[0], rt)?],
    };
    set(inst, &dst, &src);
    Ok(())
}

/// A floating-point comparison of `setp.f16`: the comparisons of `setp` less the unsigned
/// integer ones (`lo`, `ls`, `hi`, `hs`).
fn parse_cmp(c: &str) -> Option<Cmp> {
    super::scope::parse_cmp(c).filter(|c| !matches!(c, Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs))
}

/// `bar.red.popc.u32 d, 0, {!}c` and `bar.red.{and,or}.pred p, 0, {!}c` (also spelled
/// `barrier.red`, with an optional `.aligned`). Only barrier 0 with the whole CTA is modelled,
/// as for `bar.sync`.
fn bar_red(s: &Scope, ri: &RawInst, inst: &mut Inst) -> Result<(), SimError> {
    let (mut red, mut ty) = (None, None);
    for m in &ri.mods {
        match m.as_str() {
            "red" | "aligned" | "sync" => {}
            "popc" if red.is_none() => red = Some(BarRedOp::Popc),
            "and" if red.is_none() => red = Some(BarRedOp::And),
            "or" if red.is_none() => red = Some(BarRedOp::Or),
            "u32" | "pred" if ty.is_none() => ty = Some(m.as_str()),
            other => {
                return s.err(
                    ri.pos,
                    format!(
                        "unknown modifier '.{other}' for 'bar.red' (bar.red.popc.u32, \
                         bar.red.and.pred, bar.red.or.pred)"
                    ),
                )
            }
        }
    }
    let (red, dty) = match (red, ty) {
        (Some(BarRedOp::Popc), Some("u32")) => (BarRedOp::Popc, Ty::U32),
        (Some(r @ (BarRedOp::And | BarRedOp::Or)), Some("pred")) => (r, Ty::Pred),
        _ => return s.err(ri.pos, "bar.red needs .popc.u32, .and.pred or .or.pred"),
    };
    let ops = &ri.operands;
    nops(s, ri, 3)?;
    if !matches!(ops[1].0, RawOpnd::Imm(InitVal::Int(0))) {
        return s.err(
            ops[1].1,
            "only barrier 0 with the whole CTA is supported ('bar.red.OP d, 0, p')",
        );
    }
    inst.op = Op::BarRed(red);
    set(inst, &[s.dst(&ops[0], dty)?], &[s.src(&ops[2], Ty::Pred)?]);
    Ok(())
}

/// The device system call the inliner made of a `call` of `vprintf`, `malloc` or `free`:
/// `src[0]` is the local offset of the return slot ([`Opnd::None`] for `free`), then those of
/// the arguments.
fn sys(s: &Scope, ri: &RawInst, inst: &mut Inst) -> Result<(), SimError> {
    let name = ri.mods.first().map(String::as_str).unwrap_or("");
    let Some(sc) = SysCall::of(name) else {
        return s.err(
            ri.pos,
            format!("internal: unknown device system call '{name}'"),
        );
    };
    let (nr, na) = sc.arity();
    let mut src = Vec::with_capacity(1 + na);
    if nr == 0 {
        src.push(Opnd::None);
    }
    for o in &ri.operands {
        src.push(s.src(o, Ty::U64)?);
    }
    if src.len() != 1 + na
        || src
            .iter()
            .skip(1 - nr.min(1))
            .any(|o| !matches!(o, Opnd::Imm(_)))
    {
        return s.err(
            ri.pos,
            format!("'call' of '{name}': its parameters must be call-frame .param variables"),
        );
    }
    inst.op = Op::Sys(sc);
    set(inst, &[], &src);
    Ok(())
}

/// The call and return of a recursive function that `subcall.rs` emits: `%call.F ra, sp,
/// need, label` and `%return.F ra`, F the function's index.
fn subroutine(s: &Scope, ri: &RawInst, inst: &mut Inst) -> Result<(), SimError> {
    let Some(func) = ri.mods.first().and_then(|m| m.parse::<u16>().ok()) else {
        return s.err(
            ri.pos,
            "internal: a subroutine call without a function index",
        );
    };
    if ri.opcode == super::subcall::CALL_OPCODE {
        nops(s, ri, 4)?;
        let RawOpnd::Name(l) = &ri.operands[3].0 else {
            return s.err(ri.pos, "internal: a subroutine call without its label");
        };
        let Some(&t) = s.labels.get(l) else {
            return s.err(ri.pos, format!("internal: undefined label '{l}'"));
        };
        inst.op = Op::Call { func };
        inst.target = t;
        set(
            inst,
            &[s.dst(&ri.operands[0], Ty::U32)?],
            &[
                s.src(&ri.operands[1], Ty::U64)?,
                s.src(&ri.operands[2], Ty::U64)?,
            ],
        );
    } else {
        nops(s, ri, 1)?;
        inst.op = Op::Return { func };
        set(inst, &[], &[s.src(&ri.operands[0], Ty::U32)?]);
    }
    Ok(())
}

/// A check the inliner inserted in an indirect call: `%trap.nofunction a`, where `a` is the
/// called address (a 64- or 32-bit register).
fn check_trap(s: &Scope, ri: &RawInst, inst: &mut Inst) -> Result<(), SimError> {
    let kind = match ri.mods.first().map(String::as_str) {
        Some("nofunction") => TrapKind::NoFunction,
        m => return s.err(ri.pos, format!("internal: unknown inserted check {m:?}")),
    };
    nops(s, ri, 1)?;
    inst.op = Op::Trap(kind);
    set(inst, &[], &[s.src(&ri.operands[0], Ty::U64)?]);
    Ok(())
}
