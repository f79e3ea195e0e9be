//! Symbols and operands of one kernel while decoding: register and variable tables, modifier
//! classification, and resolution of operand syntax to [`Opnd`]/[`Addr`] with type checks.

use super::isa::*;
use super::parser::{InitVal, Pos, RawInst, RawOpnd};
use crate::SimError;
use std::collections::HashMap;

/// Register class of a virtual register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegClass {
    /// 32-bit general register (`.b32`, `.u32`, `.s32`, `.f32` and narrower).
    R32,
    /// 64-bit value held in an aligned register pair.
    R64,
    /// Predicate register.
    Pred,
}

/// Where a named variable lives, as seen from one kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarLoc {
    /// Byte offset in the CTA's shared window.
    Shared(u64),
    /// Byte offset in the thread's private window.
    Local(u64),
    /// Byte offset in the module's constant bank.
    Const(u64),
    /// Byte offset in the parameter buffer, and the parameter's type.
    Param(u64, Ty),
    /// Index of a module-scope `.global` variable.
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
pub(super) struct Mods {
    pub(super) types: Vec<Ty>,
    pub(super) space: Option<Space>,
    pub(super) rnd: Option<Rnd>,
    pub(super) rnd_int: bool,
    pub(super) ftz: bool,
    pub(super) sat: bool,
    pub(super) approx: bool,
    pub(super) full: bool,
    pub(super) cmp: Option<Cmp>,
    pub(super) bop: Option<BoolOp>,
    pub(super) aop: Option<AtomOp>,
    pub(super) vec: u8,
    pub(super) lo: bool,
    pub(super) hi: bool,
    pub(super) wide: bool,
    pub(super) uni: bool,
    pub(super) to: bool,
    pub(super) level: bool,
    pub(super) other: Vec<String>,
}

/// A `setp`/`set` comparison modifier (`eq`, …, the unsigned `lo`/`ls`/`hi`/`hs`, the
/// unordered `equ`, …, `num`, `nan`).
pub(super) fn parse_cmp(s: &str) -> Option<Cmp> {
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
    pub(super) fn err<T>(&self, pos: Pos, msg: impl Into<String>) -> Result<T, SimError> {
        Err(SimError::Parse {
            file: self.file.to_string(),
            line: pos.line as usize,
            col: pos.col as usize,
            msg: msg.into(),
        })
    }

    pub(super) fn mods(&self, ri: &RawInst) -> Result<Mods, SimError> {
        let mut m = Mods::default();
        let atomic = matches!(ri.opcode.as_str(), "atom" | "red" | "redux");
        let setp = ri.opcode == "setp";
        let mul_like = matches!(ri.opcode.as_str(), "mul" | "mad" | "mul24" | "mad24");
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
                    "and" => Some(AtomOp::And),
                    "or" => Some(AtomOp::Or),
                    "xor" => Some(AtomOp::Xor),
                    "inc" => Some(AtomOp::Inc),
                    "dec" => Some(AtomOp::Dec),
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
                // memory-consistency qualifiers: the emulator executes every access in program
                // order at issue, which is at least as strong as each of them
                "nc" | "volatile" | "relaxed" | "acquire" | "release" | "acq_rel" | "sc"
                | "weak" | "mmio" | "ca" | "cg" | "cs" | "lu" | "cv" | "wb" | "wt" | "sync"
                | "aligned" => m.other.push(s.to_string()),
                _ if opcode_modifier(&ri.opcode, s) => m.other.push(s.to_string()),
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

    pub(super) fn reg(&self, name: &str, pos: Pos) -> Result<(u16, RegClass, Ty), SimError> {
        match self.regs.get(name) {
            Some(r) => Ok(*r),
            None => self.err(pos, format!("undeclared register '{name}'")),
        }
    }

    pub(super) fn pred(&self, name: &str, pos: Pos) -> Result<u16, SimError> {
        let (id, cls, _) = self.reg(name, pos)?;
        if cls != RegClass::Pred {
            return self.err(pos, format!("expected a .pred register, found '{name}'"));
        }
        Ok(id)
    }

    /// A register operand used with type `ty` (ALU operands must match the register width).
    pub(super) fn gpr(
        &self,
        name: &str,
        ty: Ty,
        pos: Pos,
        any_width: bool,
    ) -> Result<Opnd, SimError> {
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

    /// A source register read as type `ty`, which may be wider than the type (a 64-bit
    /// register read as a 32-bit value gives its low half, as nvcc's `cvt.s64.s32 %rd, %rd`
    /// and `st.u32 [a], %rd` assume) but not narrower.
    pub(super) fn gpr_src_wide(&self, name: &str, ty: Ty, pos: Pos) -> Result<Opnd, SimError> {
        match self.regs.get(name) {
            Some((id, RegClass::R64, _)) if ty.bits() <= 32 => Ok(Opnd::R64(*id)),
            _ => self.gpr(name, ty, pos, ty.bits() < 32),
        }
    }

    pub(super) fn sreg(name: &str) -> Option<SReg> {
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
            ("%lanemask_eq", 255) => SReg::LaneMask(LaneMaskKind::Eq),
            ("%lanemask_lt", 255) => SReg::LaneMask(LaneMaskKind::Lt),
            ("%lanemask_le", 255) => SReg::LaneMask(LaneMaskKind::Le),
            ("%lanemask_gt", 255) => SReg::LaneMask(LaneMaskKind::Gt),
            ("%lanemask_ge", 255) => SReg::LaneMask(LaneMaskKind::Ge),
            ("%globaltimer", 255) => SReg::GlobalTimer(TimerPart::Full),
            ("%globaltimer_lo", 255) => SReg::GlobalTimer(TimerPart::Lo),
            ("%globaltimer_hi", 255) => SReg::GlobalTimer(TimerPart::Hi),
            (b, 255) if b.starts_with("%envreg") => {
                let k: u8 = b["%envreg".len()..].parse().ok()?;
                if k > 31 || b.len() > "%envreg".len() + 2 || b[7..].starts_with('0') && k > 0 {
                    return None;
                }
                SReg::EnvReg(k)
            }
            _ => return None,
        })
    }

    pub(super) fn imm_bits(&self, v: InitVal, ty: Ty, pos: Pos) -> Result<u64, SimError> {
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
    pub(super) fn src(&self, o: &(RawOpnd, Pos), ty: Ty) -> Result<Opnd, SimError> {
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
                if n.starts_with("%pm") {
                    return self.err(
                        pos,
                        format!(
                            "special register '{n}' is not supported (performance counters \
                             have no value in the model)"
                        ),
                    );
                }
                if n == "WARP_SZ" && !self.vars.contains_key(n) {
                    // the warp-size constant of PTX (cooperative groups emit it)
                    return Ok(Opnd::Imm(crate::inst::WARP_SIZE as u64));
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

    pub(super) fn var_addr(&self, n: &str, off: i64, pos: Pos) -> Result<Opnd, SimError> {
        match self.vars.get(n) {
            Some(VarLoc::Shared(a)) | Some(VarLoc::Local(a)) | Some(VarLoc::Const(a)) => {
                Ok(Opnd::Imm((*a as i64 + off) as u64))
            }
            Some(VarLoc::Global(i)) => Ok(Opnd::GlobalAddr(*i, off)),
            // a kernel parameter's address is its offset in the parameter buffer: the address
            // `ld.param` reads through a register (`mov.b64 %rd, p; ld.param.u32 r, [%rd+4]`)
            Some(VarLoc::Param(a, _)) => Ok(Opnd::Imm((*a as i64 + off) as u64)),
            None => self.err(pos, format!("undeclared register or variable '{n}'")),
        }
    }

    pub(super) fn dst(&self, o: &(RawOpnd, Pos), ty: Ty) -> Result<Opnd, SimError> {
        match &o.0 {
            RawOpnd::Name(n) if ty == Ty::Pred => Ok(Opnd::Pred(self.pred(n, o.1)?, false)),
            RawOpnd::Name(n) => self.gpr(n, ty, o.1, false),
            _ => self.err(o.1, "expected a destination register"),
        }
    }

    pub(super) fn addr(&self, o: &(RawOpnd, Pos), space: Space) -> Result<Addr, SimError> {
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
            // a register base in .param holds a parameter's address (its offset in the
            // parameter buffer, from `mov.b64 %rd, param`)
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
        if space == Space::Generic {
            return self.err(
                pos,
                format!("a generic access to variable '{b}' needs its state space (.shared, ...)"),
            );
        }
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

pub(super) fn one_type(s: &Scope, ri: &RawInst, m: &Mods) -> Result<Ty, SimError> {
    if m.types.len() != 1 {
        return s.err(
            ri.pos,
            format!("'{}' needs exactly one type modifier", ri.opcode),
        );
    }
    Ok(m.types[0])
}

pub(super) fn nops(s: &Scope, ri: &RawInst, n: usize) -> Result<(), SimError> {
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

/// Modifiers that only some opcodes take: the warp-level, bit-field and float-test ones.
fn opcode_modifier(opcode: &str, m: &str) -> bool {
    match opcode {
        "shfl" => matches!(m, "up" | "down" | "bfly" | "idx"),
        "vote" => matches!(m, "all" | "any" | "ballot"),
        "match" => matches!(m, "all" | "any"),
        "bar" | "barrier" => m == "warp",
        "bfind" => m == "shiftamt",
        "prmt" => matches!(m, "f4e" | "b4e" | "rc8" | "ecl" | "ecr" | "rc16"),
        "shf" => matches!(m, "l" | "r" | "wrap" | "clamp"),
        "bmsk" => matches!(m, "wrap" | "clamp"),
        "testp" => matches!(
            m,
            "finite" | "infinite" | "number" | "notanumber" | "normal" | "subnormal"
        ),
        _ => false,
    }
}
