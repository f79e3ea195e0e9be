//! Assigns meaning to parsed instructions: opcode and modifiers → [`Op`], operand names →
//! virtual registers, immediates, special registers and variable addresses; labels → instruction
//! indices. Everything the PTX subset does not cover is rejected with its position.

use super::isa::*;
use super::parser::{InitVal, RawInst, RawOpnd, Stmt};
use super::scope::{nops, one_type, Scope};
pub use super::scope::{RegClass, VarLoc};
use crate::SimError;
use std::collections::HashMap;

/// Decodes one instruction. Branch targets are resolved through `scope.labels`.
///
/// Longer than 200 lines on purpose: after the extension decoders (`decode_more`,
/// `decode_ext`) have had their turn, this is the opcode table of the original subset, one `match`
/// arm per PTX opcode mapping its modifiers and operands to an [`Op`]; each arm is a few lines
/// and reads on its own, and splitting the table by family would only move the arms apart.
pub fn decode(s: &Scope, ri: &RawInst) -> Result<Inst, SimError> {
    if let Some(inst) = super::tensor::decode_tensor(s, ri)? {
        return Ok(inst);
    }
    if let Some(inst) = super::decode_more::decode_more(s, ri)? {
        return Ok(inst);
    }
    if let Some(inst) = super::texture::decode_tex(s, ri)? {
        return Ok(inst);
    }
    let m = s.mods(ri)?;
    let line = ri.pos.line;
    let ops = &ri.operands;
    let mut inst = Inst::new(Op::Ret, line);
    if let Some((g, neg, gp)) = &ri.guard {
        inst.guard = Some((s.pred(g, *gp)?, *neg));
    }
    if m.ftz {
        inst.flags |= flags::FTZ;
    }
    if m.sat {
        inst.flags |= flags::SAT;
    }
    if m.approx {
        inst.flags |= flags::APPROX;
    }
    let set_dst = |inst: &mut Inst, d: &[Opnd]| {
        inst.ndst = d.len() as u8;
        inst.dst[..d.len()].copy_from_slice(d);
    };
    let set_src = |inst: &mut Inst, d: &[Opnd]| {
        inst.nsrc = d.len() as u8;
        inst.src[..d.len()].copy_from_slice(d);
    };
    let float_only = |t: Ty, what: &str| -> Result<(), SimError> {
        if t != Ty::F32 {
            return s.err(ri.pos, format!("'{what}' is supported only for .f32"));
        }
        Ok(())
    };
    let op = ri.opcode.as_str();
    let mut m = m;
    if m.types.contains(&Ty::F16) {
        // half precision: conversions, and data movement as 16 untyped bits
        match op {
            "cvt" => {}
            "mov" | "ld" | "st" => {
                for t in m.types.iter_mut().filter(|t| **t == Ty::F16) {
                    *t = Ty::B16;
                }
            }
            _ => {
                return s.err(
                    ri.pos,
                    format!(
                        "'{op}' on .f16 is not supported (only cvt, mov, ld, st, add, sub, \
                         mul, fma, neg, abs, min, max and setp)"
                    ),
                )
            }
        }
    }
    let directed_ok = (matches!(op, "add" | "sub" | "mul" | "fma")
        && m.types.len() == 1
        && m.types[0].is_float()
        && m.types[0] != Ty::F16
        && !(op == "fma" && m.types[0] == Ty::F64))
        || (op == "div" && m.types == [Ty::F64]);
    if let Some(r @ (Rnd::Rz | Rnd::Rm | Rnd::Rp)) = m.rnd {
        if directed_ok && !m.rnd_int {
            inst.flags |= match r {
                Rnd::Rz => 1,
                Rnd::Rm => 2,
                _ => 3,
            } << flags::RND_SHIFT;
        }
    }
    if m.rnd.is_some_and(|r| r != Rnd::Rn) && op != "cvt" && !directed_ok {
        return s.err(
            ri.pos,
            format!(
                "rounding modes other than .rn are supported only on cvt, on float add, sub, \
                 mul and fma (f32 fma) and on div.f64, not on '{op}'"
            ),
        );
    }
    match op {
        "add" | "sub" | "min" | "max" | "and" | "or" | "xor" | "div" | "rem" => {
            let t = one_type(s, ri, &m)?;
            nops(s, ri, 3)?;
            inst.op = match op {
                "add" => Op::Add(t),
                "sub" => Op::Sub(t),
                "min" => Op::Min(t),
                "max" => Op::Max(t),
                "and" => Op::And(t),
                "or" => Op::Or(t),
                "xor" => Op::Xor(t),
                "div" => Op::Div(t),
                _ => Op::Rem(t),
            };
            let bitop = matches!(op, "and" | "or" | "xor");
            if bitop
                && (t.is_float()
                    || !(t == Ty::Pred || matches!(t, Ty::B16 | Ty::B32 | Ty::B64 | Ty::B8)))
            {
                return s.err(ri.pos, format!("'{op}' needs a .b or .pred type"));
            }
            if !bitop && t == Ty::Pred {
                return s.err(ri.pos, format!("'{op}' cannot operate on .pred"));
            }
            if op == "rem" && t.is_float() {
                return s.err(ri.pos, "rem is integer-only");
            }
            if t == Ty::F64 && m.approx {
                return s.err(ri.pos, ".approx is not supported for .f64");
            }
            if op == "div" && t == Ty::F32 && !(m.approx || m.full || m.rnd.is_some()) {
                return s.err(ri.pos, "div.f32 needs .approx, .full or .rn");
            }
            if op == "div" && t == Ty::F32 && m.full {
                inst.flags |= flags::APPROX;
            }
            set_dst(&mut inst, &[s.dst(&ops[0], t)?]);
            set_src(&mut inst, &[s.src(&ops[1], t)?, s.src(&ops[2], t)?]);
        }
        "mul" | "mad" | "fma" => {
            let t = one_type(s, ri, &m)?;
            let n = if op == "mul" { 3 } else { 4 };
            nops(s, ri, n)?;
            let (dt, opk) = if t.is_float() {
                if m.lo || m.hi || m.wide {
                    return s.err(
                        ri.pos,
                        format!(
                            "'{op}' on .{} cannot take .lo/.hi/.wide",
                            if t == Ty::F32 { "f32" } else { "f64" }
                        ),
                    );
                }
                if op == "fma" && m.rnd.is_none() {
                    return s.err(ri.pos, "fma needs a rounding modifier (.rn)");
                }
                (t, if op == "mul" { Op::FMul(t) } else { Op::Fma(t) })
            } else {
                if op == "fma" || t == Ty::Pred {
                    return s.err(ri.pos, format!("'{op}' needs a float type here"));
                }
                let k = (m.lo, m.hi, m.wide);
                let wide_t = match t {
                    Ty::U16 => Ty::U32,
                    Ty::S16 => Ty::S32,
                    Ty::U32 => Ty::U64,
                    Ty::S32 => Ty::S64,
                    _ => t,
                };
                match (k, op) {
                    ((true, false, false), "mul") => (t, Op::MulLo(t)),
                    ((false, true, false), "mul") => (t, Op::MulHi(t)),
                    ((false, false, true), "mul") => {
                        if wide_t == t {
                            return s.err(ri.pos, "mul.wide needs a 16- or 32-bit type");
                        }
                        (wide_t, Op::MulWide(t))
                    }
                    ((true, false, false), _) => (t, Op::MadLo(t)),
                    ((false, true, false), _) => (t, Op::MadHi(t)),
                    ((false, false, true), _) => {
                        if wide_t == t {
                            return s.err(ri.pos, "mad.wide needs a 16- or 32-bit type");
                        }
                        (wide_t, Op::MadWide(t))
                    }
                    _ => {
                        return s.err(
                            ri.pos,
                            format!("integer '{op}' needs exactly one of .lo, .hi, .wide"),
                        )
                    }
                }
            };
            inst.op = opk;
            set_dst(&mut inst, &[s.dst(&ops[0], dt)?]);
            if n == 3 {
                set_src(&mut inst, &[s.src(&ops[1], t)?, s.src(&ops[2], t)?]);
            } else {
                set_src(
                    &mut inst,
                    &[s.src(&ops[1], t)?, s.src(&ops[2], t)?, s.src(&ops[3], dt)?],
                );
            }
        }
        "abs" | "neg" | "not" | "popc" | "clz" | "brev" | "sqrt" | "rsqrt" | "rcp" | "sin"
        | "cos" | "ex2" | "lg2" => {
            let t = one_type(s, ri, &m)?;
            nops(s, ri, 2)?;
            inst.op = match op {
                "abs" => Op::Abs(t),
                "neg" => Op::Neg(t),
                "not" => Op::Not(t),
                "popc" => Op::Popc(t),
                "clz" => Op::Clz(t),
                "brev" => Op::Brev(t),
                "sqrt" => Op::Sqrt(t),
                "rsqrt" => Op::Rsqrt(t),
                "rcp" => Op::Rcp(t),
                "sin" => Op::Sin(t),
                "cos" => Op::Cos(t),
                "ex2" => Op::Ex2(t),
                _ => Op::Lg2(t),
            };
            match op {
                "popc" | "clz" | "brev" | "not"
                    if t.is_float()
                        || (t != Ty::Pred
                            && !matches!(t, Ty::B8 | Ty::B16 | Ty::B32 | Ty::B64))
                        || (op != "not" && t == Ty::Pred) =>
                {
                    return s.err(ri.pos, format!("'{op}' needs a .b type"));
                }
                "abs" | "neg" if t == Ty::Pred || (t.is_int() && !t.is_signed()) => {
                    return s.err(ri.pos, format!("'{op}' needs a signed or float type"));
                }
                "sqrt" | "rcp" | "rsqrt" if t == Ty::F64 => {
                    // f64: sqrt.rn, rcp.rn, rcp.approx.ftz, rsqrt.approx (correctly rounded
                    // here; the approximations are at least as accurate as the hardware's)
                    if op == "rsqrt" && !m.approx {
                        return s.err(ri.pos, "'rsqrt.f64' needs .approx");
                    }
                    if op != "rsqrt" && !(m.approx || m.rnd.is_some()) {
                        return s.err(ri.pos, format!("'{op}.f64' needs .rn or .approx"));
                    }
                }
                "sqrt" | "rcp" => {
                    float_only(t, op)?;
                    if !(m.approx || m.rnd.is_some()) {
                        return s.err(ri.pos, format!("'{op}.f32' needs .approx or .rn"));
                    }
                }
                "rsqrt" | "sin" | "cos" | "ex2" | "lg2" => {
                    float_only(t, op)?;
                    if !m.approx {
                        return s.err(ri.pos, format!("'{op}.f32' needs .approx"));
                    }
                }
                _ => {}
            }
            let dt = if matches!(op, "popc" | "clz") {
                Ty::U32
            } else {
                t
            };
            set_dst(&mut inst, &[s.dst(&ops[0], dt)?]);
            set_src(&mut inst, &[s.src(&ops[1], t)?]);
        }
        "shl" | "shr" => {
            let t = one_type(s, ri, &m)?;
            nops(s, ri, 3)?;
            if t.is_float()
                || t == Ty::Pred
                || (op == "shl" && !matches!(t, Ty::B16 | Ty::B32 | Ty::B64))
            {
                return s.err(ri.pos, format!("'{op}' needs an integer type"));
            }
            inst.op = if op == "shl" { Op::Shl(t) } else { Op::Shr(t) };
            set_dst(&mut inst, &[s.dst(&ops[0], t)?]);
            set_src(&mut inst, &[s.src(&ops[1], t)?, s.src(&ops[2], Ty::U32)?]);
        }
        "mov" | "cvta" => {
            let t = one_type(s, ri, &m)?;
            nops(s, ri, 2)?;
            if op == "cvta" {
                if !matches!(t, Ty::U32 | Ty::U64) {
                    return s.err(ri.pos, "cvta needs .u32 or .u64");
                }
                if !matches!(m.space, Some(Space::Global | Space::Shared | Space::Local)) {
                    return s.err(ri.pos, "cvta needs .global, .shared or .local");
                }
            }
            let vec_of = |o: &RawOpnd| match o {
                RawOpnd::Vec(v) => Some(v.clone()),
                _ => None,
            };
            if op == "mov" && (vec_of(&ops[0].0).is_some() || vec_of(&ops[1].0).is_some()) {
                // pack / unpack of a wide value into 2 or 4 narrower registers
                let unpack = vec_of(&ops[0].0).is_some();
                let (parts, ppos) = if unpack {
                    (vec_of(&ops[0].0).unwrap_or_default(), ops[0].1)
                } else {
                    (vec_of(&ops[1].0).unwrap_or_default(), ops[1].1)
                };
                let n = parts.len();
                if !matches!(t, Ty::B32 | Ty::B64 | Ty::U32 | Ty::U64 | Ty::S64 | Ty::F64)
                    || !(n == 2 || (n == 4 && t.bits() == 64))
                {
                    return s.err(
                        ppos,
                        "mov packs a .b32 from 2 or a .b64 from 2 or 4 registers",
                    );
                }
                let part_ty = match t.bits() / n as u32 {
                    32 => Ty::B32,
                    _ => Ty::B16,
                };
                let regs = parts
                    .iter()
                    .map(|r| {
                        if r == "_" {
                            Ok(Opnd::None)
                        } else {
                            s.gpr(r, part_ty, ppos, true)
                        }
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                if unpack {
                    inst.op = Op::Unpack { ty: t, n: n as u8 };
                    set_dst(&mut inst, &regs);
                    set_src(&mut inst, &[s.src(&ops[1], t)?]);
                } else {
                    if regs.contains(&Opnd::None) {
                        return s.err(ppos, "'_' is not a value");
                    }
                    inst.op = Op::Pack { ty: t, n: n as u8 };
                    set_dst(&mut inst, &[s.dst(&ops[0], t)?]);
                    set_src(&mut inst, &regs);
                }
                return Ok(inst);
            }
            inst.op = match m.space {
                Some(sp @ (Space::Shared | Space::Local)) if op == "cvta" && t == Ty::U64 => {
                    Op::Cvta {
                        to: m.to,
                        space: sp,
                    }
                }
                _ => Op::Mov(t),
            };
            set_dst(&mut inst, &[s.dst(&ops[0], t)?]);
            set_src(&mut inst, &[s.src(&ops[1], t)?]);
        }
        "selp" => {
            let t = one_type(s, ri, &m)?;
            nops(s, ri, 4)?;
            inst.op = Op::Selp(t);
            set_dst(&mut inst, &[s.dst(&ops[0], t)?]);
            set_src(
                &mut inst,
                &[
                    s.src(&ops[1], t)?,
                    s.src(&ops[2], t)?,
                    s.src(&ops[3], Ty::Pred)?,
                ],
            );
        }
        "setp" => {
            let t = one_type(s, ri, &m)?;
            let Some(cmp) = m.cmp else {
                return s.err(ri.pos, "setp needs a comparison (.eq, .lt, ...)");
            };
            if t == Ty::Pred {
                return s.err(ri.pos, "setp cannot compare predicates");
            }
            let n = if m.bop.is_some() { 4 } else { 3 };
            nops(s, ri, n)?;
            inst.op = Op::Setp(cmp, m.bop, t);
            match &ops[0].0 {
                RawOpnd::PredPair(p, q) => set_dst(
                    &mut inst,
                    &[
                        Opnd::Pred(s.pred(p, ops[0].1)?, false),
                        Opnd::Pred(s.pred(q, ops[0].1)?, false),
                    ],
                ),
                _ => set_dst(&mut inst, &[s.dst(&ops[0], Ty::Pred)?]),
            }
            let mut v = vec![s.src(&ops[1], t)?, s.src(&ops[2], t)?];
            if n == 4 {
                v.push(s.src(&ops[3], Ty::Pred)?);
            }
            set_src(&mut inst, &v);
        }
        "cvt" => {
            if m.types.len() != 2 {
                return s.err(ri.pos, "cvt needs a destination and a source type");
            }
            let (dt, st) = (m.types[0], m.types[1]);
            if dt == Ty::Pred || st == Ty::Pred {
                return s.err(ri.pos, "cvt cannot convert predicates");
            }
            nops(s, ri, 2)?;
            let rnd = m.rnd.unwrap_or(Rnd::None);
            if st.is_float() && dt.is_int() && !m.rnd_int && m.rnd.is_some() {
                return s.err(ri.pos, "float-to-integer cvt takes .rni/.rzi/.rmi/.rpi");
            }
            if st.is_float() && dt.is_int() && m.rnd.is_none() {
                return s.err(
                    ri.pos,
                    "float-to-integer cvt needs .rni, .rzi, .rmi or .rpi",
                );
            }
            if st.is_int() && dt.is_float() && (m.rnd_int || m.rnd.is_none()) {
                return s.err(ri.pos, "integer-to-float cvt needs .rn, .rz, .rm or .rp");
            }
            let narrowing = st.is_float() && dt.is_float() && dt.bits() < st.bits();
            if narrowing && m.rnd.is_none() {
                return s.err(ri.pos, "a narrowing float cvt needs a rounding modifier");
            }
            if st.is_float() && dt.is_float() && m.rnd.is_some() && !m.rnd_int && !narrowing {
                return s.err(
                    ri.pos,
                    "float-to-float cvt of this pair takes only integer rounding (.rni ...)",
                );
            }
            inst.op = Op::Cvt {
                dst: dt,
                src: st,
                rnd,
            };
            let d = s.gpr(
                match &ops[0].0 {
                    RawOpnd::Name(n) => n,
                    _ => return s.err(ops[0].1, "expected a destination register"),
                },
                dt,
                ops[0].1,
                dt.bits() < 32,
            )?;
            let sv = match &ops[1].0 {
                RawOpnd::Name(n) if s.regs.contains_key(n) => s.gpr_src_wide(n, st, ops[1].1)?,
                _ => s.src(&ops[1], st)?,
            };
            if st.is_float() && dt.is_float() && m.rnd_int {
                inst.flags |= flags::RINT;
            }
            set_dst(&mut inst, &[d]);
            set_src(&mut inst, &[sv]);
        }
        "ld" | "st" => {
            let t = one_type(s, ri, &m)?;
            let space = m.space.unwrap_or(Space::Generic);
            nops(s, ri, 2)?;
            if t == Ty::Pred {
                return s.err(ri.pos, "cannot load or store .pred");
            }
            let vec = if m.vec == 0 { 1 } else { m.vec };
            if t.bytes() * vec as u32 > 16 {
                return s.err(ri.pos, "vector access wider than 16 bytes");
            }
            if op == "st" && matches!(space, Space::Const | Space::Param) {
                return s.err(
                    ri.pos,
                    format!("st.{} is not allowed", format!("{space:?}").to_lowercase()),
                );
            }
            let (data, adr) = if op == "ld" {
                (&ops[0], &ops[1])
            } else {
                (&ops[1], &ops[0])
            };
            let regs: Vec<Opnd> = match (&data.0, vec) {
                (RawOpnd::Vec(v), n) if v.len() == n as usize && n > 1 => v
                    .iter()
                    .map(|r| s.gpr(r, t, data.1, t.bits() < 32))
                    .collect::<Result<_, _>>()?,
                (RawOpnd::Vec(_), _) => {
                    return s.err(data.1, format!("expected {vec} registers in the vector"))
                }
                (_, n) if n > 1 => {
                    return s.err(data.1, "a vector access needs a {..} register list")
                }
                (RawOpnd::Name(r), _) if s.regs.contains_key(r) && op == "st" => {
                    vec![s.gpr_src_wide(r, t, data.1)?]
                }
                (RawOpnd::Name(r), _) if s.regs.contains_key(r) => {
                    vec![s.gpr(r, t, data.1, t.bits() < 32 || op == "ld")?]
                }
                _ if op == "st" => vec![s.src(data, t)?],
                _ => return s.err(data.1, "expected a destination register"),
            };
            inst.addr = s.addr(adr, space)?;
            if op == "ld" {
                inst.op = Op::Ld { space, ty: t, vec };
                set_dst(&mut inst, &regs);
            } else {
                inst.op = Op::St { space, ty: t, vec };
                set_src(&mut inst, &regs);
            }
        }
        "atom" | "red" => {
            let t = one_type(s, ri, &m)?;
            let space = m.space.unwrap_or(Space::Generic);
            let Some(aop) = m.aop else {
                return s.err(
                    ri.pos,
                    format!("'{op}' needs an operation (.add, .min, .max, .exch, .cas)"),
                );
            };
            if !matches!(space, Space::Global | Space::Shared | Space::Generic) {
                return s.err(ri.pos, "atomics need .global, .shared or a generic address");
            }
            let ok = matches!(
                (aop, t),
                (
                    AtomOp::Add | AtomOp::Min | AtomOp::Max | AtomOp::Exch | AtomOp::Cas,
                    Ty::U32 | Ty::S32
                ) | (AtomOp::Inc | AtomOp::Dec, Ty::U32)
                    | (AtomOp::And | AtomOp::Or | AtomOp::Xor, Ty::B32 | Ty::B64)
                    | (AtomOp::Exch | AtomOp::Cas, Ty::B32 | Ty::B64 | Ty::U64)
                    | (AtomOp::Add, Ty::F32 | Ty::F64 | Ty::U64)
                    | (AtomOp::Min | AtomOp::Max, Ty::U64 | Ty::S64)
            );
            if !ok {
                return s.err(
                    ri.pos,
                    format!("'{op}' with this operation and type is not in the PTX subset"),
                );
            }
            if op == "red" {
                if aop == AtomOp::Cas || aop == AtomOp::Exch {
                    return s.err(ri.pos, "red supports add, min, max, and, or, xor, inc, dec");
                }
                nops(s, ri, 2)?;
                inst.op = Op::Red {
                    space,
                    op: aop,
                    ty: t,
                };
                inst.addr = s.addr(&ops[0], space)?;
                set_src(&mut inst, &[s.src(&ops[1], t)?]);
            } else {
                let n = if aop == AtomOp::Cas { 4 } else { 3 };
                nops(s, ri, n)?;
                inst.op = Op::Atom {
                    space,
                    op: aop,
                    ty: t,
                };
                set_dst(&mut inst, &[s.dst(&ops[0], t)?]);
                inst.addr = s.addr(&ops[1], space)?;
                if n == 4 {
                    set_src(&mut inst, &[s.src(&ops[2], t)?, s.src(&ops[3], t)?]);
                } else {
                    set_src(&mut inst, &[s.src(&ops[2], t)?]);
                }
            }
        }
        "bra" => {
            nops(s, ri, 1)?;
            let name = match &ops[0].0 {
                RawOpnd::Name(n) => n,
                _ => return s.err(ops[0].1, "expected a label"),
            };
            let Some(&t) = s.labels.get(name) else {
                return s.err(ops[0].1, format!("undefined label '{name}'"));
            };
            inst.op = Op::Bra { uni: m.uni };
            inst.target = t;
        }
        "ret" | "exit" => {
            nops(s, ri, 0)?;
            inst.op = if op == "ret" { Op::Ret } else { Op::Exit };
        }
        "bar" | "barrier" if m.other.iter().any(|x| x == "warp") => {
            // bar.warp.sync membermask: the SIMT stack keeps a warp's lanes together already
            nops(s, ri, 1)?;
            inst.op = Op::Nop;
            set_src(&mut inst, &[s.src(&ops[0], Ty::B32)?]);
        }
        "bar" | "barrier" => {
            if !m.other.iter().any(|x| x == "sync") && !ri.mods.is_empty() {
                return s.err(ri.pos, "only bar.sync is supported");
            }
            if ops.len() != 1 || !matches!(ops[0].0, RawOpnd::Imm(InitVal::Int(0))) {
                return s.err(ri.pos, "only 'bar.sync 0' (the whole CTA) is supported");
            }
            inst.op = Op::Bar;
        }
        "membar" | "fence" => {
            nops(s, ri, 0)?;
            if !m.level {
                return s.err(ri.pos, "membar needs .cta, .gl or .sys");
            }
            inst.op = Op::Membar;
        }
        _ => {
            if let Some(inst) = super::decode_ext::decode_ext(s, ri, &m, inst)? {
                return Ok(inst);
            }
            return s.err(ri.pos, format!("unknown or unsupported instruction '{op}'"));
        }
    }
    // Reject stray type-independent modifiers on instructions that cannot take them.
    if m.vec != 0 && !matches!(inst.op, Op::Ld { .. } | Op::St { .. }) {
        return s.err(ri.pos, format!("'{op}' cannot take a vector modifier"));
    }
    if m.uni && !matches!(inst.op, Op::Bra { .. }) {
        return s.err(ri.pos, format!("'{op}' cannot take .uni"));
    }
    if m.space.is_some()
        && !matches!(
            inst.op,
            Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } | Op::Red { .. }
        )
        && op != "cvta"
    {
        return s.err(ri.pos, format!("'{op}' cannot take a state space"));
    }
    Ok(inst)
}

/// Collects labels → index of the next instruction; errors on duplicates.
pub fn collect_labels(file: &str, body: &[Stmt]) -> Result<HashMap<String, u32>, SimError> {
    let mut labels = HashMap::new();
    let mut n = 0u32;
    for st in body {
        match st {
            Stmt::Label(l, p) => {
                if labels.insert(l.clone(), n).is_some() {
                    return Err(SimError::Parse {
                        file: file.to_string(),
                        line: p.line as usize,
                        col: p.col as usize,
                        msg: format!("label '{l}' defined twice"),
                    });
                }
            }
            Stmt::Inst(_) => n += 1,
        }
    }
    Ok(labels)
}
