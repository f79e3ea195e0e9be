//! Assigns meaning to parsed instructions: opcode and modifiers → [`Op`], operand names →
//! virtual registers, immediates, special registers and variable addresses; labels → instruction
//! indices. Everything the PTX subset does not cover is rejected with its position.

use super::isa::*;
use super::parser::{InitVal, Pos, RawInst, RawOpnd, Stmt};
use crate::SimError;
use std::collections::HashMap;

/// Register class of a virtual register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegClass {
    R32,
    R64,
    Pred,
}

/// Where a named variable lives, as seen from one kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarLoc {
    Shared(u64),
    Local(u64),
    Const(u64),
    Param(u64, Ty),
    Global(u16),
}

/// Symbols visible to a kernel while decoding.
pub struct Scope<'a> {
    pub file: &'a str,
    /// Register name → (virtual id, class, declared type). GPRs and predicates are numbered
    /// separately.
    pub regs: HashMap<String, (u16, RegClass, Ty)>,
    pub vars: HashMap<String, VarLoc>,
    pub labels: HashMap<String, u32>,
}

#[derive(Default)]
struct Mods {
    types: Vec<Ty>,
    space: Option<Space>,
    rnd: Option<Rnd>,
    rnd_int: bool,
    ftz: bool,
    sat: bool,
    approx: bool,
    full: bool,
    cmp: Option<Cmp>,
    bop: Option<BoolOp>,
    aop: Option<AtomOp>,
    vec: u8,
    lo: bool,
    hi: bool,
    wide: bool,
    uni: bool,
    to: bool,
    level: bool,
    other: Vec<String>,
}

fn parse_cmp(s: &str) -> Option<Cmp> {
    Some(match s {
        "eq" => Cmp::Eq,
        "ne" => Cmp::Ne,
        "lt" => Cmp::Lt,
        "le" => Cmp::Le,
        "gt" => Cmp::Gt,
        "ge" => Cmp::Ge,
        "lo" => Cmp::Lo,
        "ls" => Cmp::Ls,
        "hi" => Cmp::Hi,
        "hs" => Cmp::Hs,
        "equ" => Cmp::Equ,
        "neu" => Cmp::Neu,
        "ltu" => Cmp::Ltu,
        "leu" => Cmp::Leu,
        "gtu" => Cmp::Gtu,
        "geu" => Cmp::Geu,
        "num" => Cmp::Num,
        "nan" => Cmp::Nan,
        _ => return None,
    })
}

impl<'a> Scope<'a> {
    fn err<T>(&self, pos: Pos, msg: impl Into<String>) -> Result<T, SimError> {
        Err(SimError::Parse {
            file: self.file.to_string(),
            line: pos.line as usize,
            col: pos.col as usize,
            msg: msg.into(),
        })
    }

    fn mods(&self, ri: &RawInst) -> Result<Mods, SimError> {
        let mut m = Mods::default();
        let atomic = ri.opcode == "atom" || ri.opcode == "red";
        let setp = ri.opcode == "setp";
        let mul_like = matches!(ri.opcode.as_str(), "mul" | "mad");
        for s in &ri.mods {
            let s = s.as_str();
            if let Some(t) = Ty::from_name(s) {
                m.types.push(t);
                continue;
            }
            if setp && m.cmp.is_none() {
                if let Some(c) = parse_cmp(s) {
                    m.cmp = Some(c);
                    continue;
                }
            }
            if atomic {
                let a = match s {
                    "add" => Some(AtomOp::Add),
                    "min" => Some(AtomOp::Min),
                    "max" => Some(AtomOp::Max),
                    "exch" => Some(AtomOp::Exch),
                    "cas" => Some(AtomOp::Cas),
                    "inc" | "dec" | "and" | "or" | "xor" => {
                        return self.err(
                            ri.pos,
                            format!("atomic operation '.{s}' is not in the PTX subset"),
                        )
                    }
                    _ => None,
                };
                if let Some(a) = a {
                    m.aop = Some(a);
                    continue;
                }
            }
            match s {
                "global" => m.space = Some(Space::Global),
                "shared" => m.space = Some(Space::Shared),
                "local" => m.space = Some(Space::Local),
                "const" => m.space = Some(Space::Const),
                "param" => m.space = Some(Space::Param),
                "rn" => m.rnd = Some(Rnd::Rn),
                "rz" => m.rnd = Some(Rnd::Rz),
                "rm" => m.rnd = Some(Rnd::Rm),
                "rp" => m.rnd = Some(Rnd::Rp),
                "rni" | "rzi" | "rmi" | "rpi" => {
                    m.rnd = Some(match s {
                        "rni" => Rnd::Rn,
                        "rzi" => Rnd::Rz,
                        "rmi" => Rnd::Rm,
                        _ => Rnd::Rp,
                    });
                    m.rnd_int = true;
                }
                "ftz" => m.ftz = true,
                "sat" => m.sat = true,
                "approx" => m.approx = true,
                "full" => m.full = true,
                "and" if setp => m.bop = Some(BoolOp::And),
                "or" if setp => m.bop = Some(BoolOp::Or),
                "xor" if setp => m.bop = Some(BoolOp::Xor),
                "v2" => m.vec = 2,
                "v4" => m.vec = 4,
                "lo" if mul_like => m.lo = true,
                "hi" if mul_like => m.hi = true,
                "wide" if mul_like => m.wide = true,
                "uni" => m.uni = true,
                "to" => m.to = true,
                "cta" | "gl" | "sys" | "gpu" => m.level = true,
                "nc" | "volatile" | "relaxed" | "ca" | "cg" | "cs" | "lu" | "cv" | "wb" | "wt"
                | "sync" | "aligned" => m.other.push(s.to_string()),
                _ => {
                    return self.err(
                        ri.pos,
                        format!("unknown modifier '.{s}' for '{}'", ri.opcode),
                    )
                }
            }
        }
        Ok(m)
    }

    fn reg(&self, name: &str, pos: Pos) -> Result<(u16, RegClass, Ty), SimError> {
        match self.regs.get(name) {
            Some(r) => Ok(*r),
            None => self.err(pos, format!("undeclared register '{name}'")),
        }
    }

    fn pred(&self, name: &str, pos: Pos) -> Result<u16, SimError> {
        let (id, cls, _) = self.reg(name, pos)?;
        if cls != RegClass::Pred {
            return self.err(pos, format!("expected a .pred register, found '{name}'"));
        }
        Ok(id)
    }

    /// A register operand used with type `ty` (ALU operands must match the register width).
    fn gpr(&self, name: &str, ty: Ty, pos: Pos, any_width: bool) -> Result<Opnd, SimError> {
        let (id, cls, _) = self.reg(name, pos)?;
        match cls {
            RegClass::Pred => self.err(
                pos,
                format!("expected a data register for .{ty:?}, found predicate '{name}'")
                    .to_lowercase(),
            ),
            RegClass::R64 if ty.is_wide() || any_width => Ok(Opnd::R64(id)),
            RegClass::R32 if !ty.is_wide() || any_width => Ok(Opnd::R32(id)),
            _ => self.err(
                pos,
                format!(
                    "register '{name}' has the wrong width for a {}-bit operand",
                    ty.bits()
                ),
            ),
        }
    }

    fn sreg(name: &str) -> Option<SReg> {
        let (base, dim) = match name.split_once('.') {
            Some((b, d)) => (
                b,
                match d {
                    "x" => 0u8,
                    "y" => 1,
                    "z" => 2,
                    _ => return None,
                },
            ),
            None => (name, 255u8),
        };
        Some(match (base, dim) {
            ("%tid", d) if d < 3 => SReg::Tid(d),
            ("%ntid", d) if d < 3 => SReg::Ntid(d),
            ("%ctaid", d) if d < 3 => SReg::Ctaid(d),
            ("%nctaid", d) if d < 3 => SReg::Nctaid(d),
            ("%laneid", 255) => SReg::LaneId,
            ("%warpid", 255) => SReg::WarpId,
            ("%nwarpid", 255) => SReg::NWarpId,
            ("%smid", 255) => SReg::SmId,
            ("%clock", 255) => SReg::Clock,
            ("%clock64", 255) => SReg::Clock64,
            _ => return None,
        })
    }

    fn imm_bits(&self, v: InitVal, ty: Ty, pos: Pos) -> Result<u64, SimError> {
        Ok(match (v, ty) {
            (InitVal::Int(i), t) if t.is_int() || t == Ty::Pred => {
                let bits = t.bits().max(1);
                let lo = -(1i128 << (bits - 1));
                let hi = (1i128 << bits) - 1;
                if i < lo || i > hi {
                    return self.err(
                        pos,
                        format!(
                            "constant {i} does not fit in .{}",
                            format!("{ty:?}").to_lowercase()
                        ),
                    );
                }
                i as i64 as u64
            }
            (InitVal::Int(i), Ty::F32) => (i as f32).to_bits() as u64,
            (InitVal::Int(i), _) => (i as f64).to_bits(),
            (InitVal::Float(f), Ty::F32) => (f as f32).to_bits() as u64,
            (InitVal::Float(f), Ty::F64) => f.to_bits(),
            (InitVal::F32Bits(b), Ty::F32) => b as u64,
            (InitVal::F32Bits(b), Ty::F64) => (f32::from_bits(b) as f64).to_bits(),
            (InitVal::F64Bits(b), Ty::F64) => b,
            (InitVal::F64Bits(b), Ty::F32) => (f64::from_bits(b) as f32).to_bits() as u64,
            (InitVal::F32Bits(b), t) if t.bits() == 32 => b as u64,
            (InitVal::F64Bits(b), t) if t.bits() == 64 => b,
            _ => return self.err(pos, "expected an integer constant"),
        })
    }

    /// A value source of type `ty`.
    fn src(&self, o: &(RawOpnd, Pos), ty: Ty) -> Result<Opnd, SimError> {
        let (o, pos) = (&o.0, o.1);
        match o {
            RawOpnd::Name(n) => {
                if ty == Ty::Pred {
                    return Ok(Opnd::Pred(self.pred(n, pos)?, false));
                }
                if n.starts_with('%') && !self.regs.contains_key(n) {
                    if let Some(s) = Self::sreg(n) {
                        return Ok(Opnd::Sreg(s));
                    }
                }
                if self.regs.contains_key(n) {
                    return self.gpr(n, ty, pos, false);
                }
                self.var_addr(n, 0, pos)
            }
            RawOpnd::NameOff(n, off) => self.var_addr(n, *off, pos),
            RawOpnd::Not(n) => {
                if ty != Ty::Pred {
                    return self.err(pos, "'!' applies only to predicate operands");
                }
                Ok(Opnd::Pred(self.pred(n, pos)?, true))
            }
            RawOpnd::Imm(v) => Ok(Opnd::Imm(self.imm_bits(*v, ty, pos)?)),
            _ => self.err(pos, "expected a register or constant operand"),
        }
    }

    fn var_addr(&self, n: &str, off: i64, pos: Pos) -> Result<Opnd, SimError> {
        match self.vars.get(n) {
            Some(VarLoc::Shared(a)) | Some(VarLoc::Local(a)) | Some(VarLoc::Const(a)) => {
                Ok(Opnd::Imm((*a as i64 + off) as u64))
            }
            Some(VarLoc::Global(i)) => Ok(Opnd::GlobalAddr(*i, off)),
            Some(VarLoc::Param(..)) => self.err(
                pos,
                format!("the address of parameter '{n}' cannot be taken (use ld.param)"),
            ),
            None => self.err(pos, format!("undeclared register or variable '{n}'")),
        }
    }

    fn dst(&self, o: &(RawOpnd, Pos), ty: Ty) -> Result<Opnd, SimError> {
        match &o.0 {
            RawOpnd::Name(n) if ty == Ty::Pred => Ok(Opnd::Pred(self.pred(n, o.1)?, false)),
            RawOpnd::Name(n) => self.gpr(n, ty, o.1, false),
            _ => self.err(o.1, "expected a destination register"),
        }
    }

    fn addr(&self, o: &(RawOpnd, Pos), space: Space) -> Result<Addr, SimError> {
        let (o, pos) = (&o.0, o.1);
        let (base, off) = match o {
            RawOpnd::Addr(b, off) => (b, *off),
            _ => return self.err(pos, "expected a memory address in brackets"),
        };
        let Some(b) = base else {
            return Ok(Addr {
                base: AddrBase::None,
                off,
            });
        };
        if let Some((id, cls, _)) = self.regs.get(b.as_str()) {
            if space == Space::Param {
                return self.err(pos, "ld.param takes a parameter name, not a register");
            }
            return match cls {
                RegClass::R32 => Ok(Addr {
                    base: AddrBase::R32(*id),
                    off,
                }),
                RegClass::R64 => Ok(Addr {
                    base: AddrBase::R64(*id),
                    off,
                }),
                RegClass::Pred => self.err(pos, "a predicate cannot be an address"),
            };
        }
        let loc = match self.vars.get(b.as_str()) {
            Some(l) => *l,
            None => return self.err(pos, format!("undeclared register or variable '{b}'")),
        };
        let (ok, a) = match (loc, space) {
            (VarLoc::Shared(a), Space::Shared)
            | (VarLoc::Local(a), Space::Local)
            | (VarLoc::Const(a), Space::Const)
            | (VarLoc::Param(a, _), Space::Param) => (true, a),
            (VarLoc::Global(i), Space::Global) => {
                return Ok(Addr {
                    base: AddrBase::Global(i),
                    off,
                })
            }
            _ => (false, 0),
        };
        if !ok {
            return self.err(
                pos,
                format!(
                    "variable '{b}' is not in the .{} state space",
                    format!("{space:?}").to_lowercase()
                ),
            );
        }
        Ok(Addr {
            base: AddrBase::None,
            off: a as i64 + off,
        })
    }
}

fn one_type(s: &Scope, ri: &RawInst, m: &Mods) -> Result<Ty, SimError> {
    if m.types.len() != 1 {
        return s.err(
            ri.pos,
            format!("'{}' needs exactly one type modifier", ri.opcode),
        );
    }
    Ok(m.types[0])
}

fn nops(s: &Scope, ri: &RawInst, n: usize) -> Result<(), SimError> {
    if ri.operands.len() != n {
        return s.err(
            ri.pos,
            format!(
                "'{}' expects {n} operands, found {}",
                ri.opcode,
                ri.operands.len()
            ),
        );
    }
    Ok(())
}

fn space_of(s: &Scope, ri: &RawInst, m: &Mods) -> Result<Space, SimError> {
    m.space.map_or_else(
        || {
            s.err(
                ri.pos,
                format!(
                    "'{}' needs a state space (.global, .shared, ...)",
                    ri.opcode
                ),
            )
        },
        Ok,
    )
}

/// Decodes one instruction. Branch targets are resolved through `scope.labels`.
pub fn decode(s: &Scope, ri: &RawInst) -> Result<Inst, SimError> {
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
    if m.rnd.is_some_and(|r| r != Rnd::Rn) && op != "cvt" {
        return s.err(
            ri.pos,
            format!("rounding modes other than .rn are supported only on cvt, not on '{op}'"),
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
            inst.op = Op::Mov(t);
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
            if st == Ty::F64 && dt == Ty::F32 && m.rnd.is_none() {
                return s.err(ri.pos, "cvt.f32.f64 needs a rounding modifier");
            }
            if st.is_float()
                && dt.is_float()
                && m.rnd.is_some()
                && !m.rnd_int
                && !(st == Ty::F64 && dt == Ty::F32)
            {
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
                RawOpnd::Name(n) if s.regs.contains_key(n) => {
                    s.gpr(n, st, ops[1].1, st.bits() < 32)?
                }
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
            let space = space_of(s, ri, &m)?;
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
            if vec > 1 && space == Space::Param {
                return s.err(ri.pos, "vector ld.param is not supported");
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
            let space = space_of(s, ri, &m)?;
            let Some(aop) = m.aop else {
                return s.err(
                    ri.pos,
                    format!("'{op}' needs an operation (.add, .min, .max, .exch, .cas)"),
                );
            };
            if !matches!(space, Space::Global | Space::Shared) {
                return s.err(ri.pos, "atomics need .global or .shared");
            }
            let ok = matches!(
                (aop, t),
                (_, Ty::U32 | Ty::S32)
                    | (AtomOp::Exch | AtomOp::Cas, Ty::B32)
                    | (AtomOp::Add, Ty::F32 | Ty::U64)
            );
            if !ok {
                return s.err(
                    ri.pos,
                    format!("'{op}' with this operation and type is not in the PTX subset"),
                );
            }
            if op == "red" {
                if aop == AtomOp::Cas || aop == AtomOp::Exch {
                    return s.err(ri.pos, "red supports add, min, max");
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
