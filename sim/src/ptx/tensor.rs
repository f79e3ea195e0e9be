//! The tensor-core instructions of the PTX front end (PTX ISA 7.x–9.x, "Warp-level Matrix
//! Instructions"): `wmma.load`, `wmma.store` and `wmma.mma` on the shapes m16n16k16, m32n8k16
//! and m8n32k16 with `.f16`/`.bf16` inputs and `.f16`/`.f32` accumulators; `mma.sync.aligned`
//! m16n8k8 and m16n8k16 `.row.col` with `.f16`/`.bf16` inputs; and
//! `ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].b16`.
//!
//! A tensor instruction names up to 32 registers in its matrix fragments (`{%f1, ..., %f8}`),
//! more than an instruction's operand slots hold. The parser therefore expands it
//! ([`expand`]): the instruction itself (the *head*, [`Op::Tensor`]) keeps its address and
//! stride, and is followed by *carriers* ([`Op::Operands`]) that name the fragment registers,
//! sources first, then destinations, four to a carrier, each with the head's guard. Register
//! allocation and liveness see the carriers as ordinary instructions, which is exact: every
//! source is read (at a carrier before the first destination carrier) before any destination is
//! written, as the emulator, which executes the head and its carriers as one instruction
//! (`emu/tensor.rs`), does. Labels sit between PTX instructions, never inside a group.
//!
//! What nvcc emits beyond these forms (integer and sub-byte `wmma`, `.tf32`, `.f64`, `m8n8k4`,
//! `.satfinite`, `stmatrix`, `wgmma`) is refused by name.

use super::ast::{RawInst, RawOpnd};
use super::isa::{Inst, Op, Opnd, Space};
use super::scope::Scope;
use crate::SimError;

/// Opcode of an instruction carrying source fragment registers.
pub const SRC_OPCODE: &str = "%tensor.src";
/// Opcode of an instruction carrying destination fragment registers.
pub const DST_OPCODE: &str = "%tensor.dst";
/// Registers one carrier names.
pub const PER_CARRIER: usize = 4;

/// Element type of a matrix fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MmaTy {
    /// IEEE-754 half precision, two to a 32-bit register (the first in the low half).
    F16,
    /// bfloat16 (the high half of an f32), two to a 32-bit register.
    Bf16,
    /// IEEE-754 single precision, one to a register.
    F32,
}

impl MmaTy {
    /// Bytes of one element in memory.
    pub fn bytes(self) -> u32 {
        match self {
            MmaTy::F16 | MmaTy::Bf16 => 2,
            MmaTy::F32 => 4,
        }
    }

    /// Elements one 32-bit register holds.
    pub fn per_reg(self) -> usize {
        match self {
            MmaTy::F16 | MmaTy::Bf16 => 2,
            MmaTy::F32 => 1,
        }
    }

    fn of(s: &str) -> Option<MmaTy> {
        Some(match s {
            "f16" => MmaTy::F16,
            "bf16" => MmaTy::Bf16,
            "f32" => MmaTy::F32,
            _ => return None,
        })
    }
}

/// Matrix shape M×N×K of a multiply (A is M×K, B is K×N, C and D are M×N).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `wmma` m16n16k16.
    M16n16k16,
    /// `wmma` m32n8k16.
    M32n8k16,
    /// `wmma` m8n32k16.
    M8n32k16,
    /// `mma` m16n8k8.
    M16n8k8,
    /// `mma` m16n8k16.
    M16n8k16,
}

impl Shape {
    /// (M, N, K).
    pub fn mnk(self) -> (usize, usize, usize) {
        match self {
            Shape::M16n16k16 => (16, 16, 16),
            Shape::M32n8k16 => (32, 8, 16),
            Shape::M8n32k16 => (8, 32, 16),
            Shape::M16n8k8 => (16, 8, 8),
            Shape::M16n8k16 => (16, 8, 16),
        }
    }

    fn of(s: &str) -> Option<Shape> {
        Some(match s {
            "m16n16k16" => Shape::M16n16k16,
            "m32n8k16" => Shape::M32n8k16,
            "m8n32k16" => Shape::M8n32k16,
            "m16n8k8" => Shape::M16n8k8,
            "m16n8k16" => Shape::M16n8k16,
            _ => return None,
        })
    }

    /// Multiply-accumulates of one warp-wide product: M·N·K.
    pub fn macs(self) -> u64 {
        let (m, n, k) = self.mnk();
        (m * n * k) as u64
    }
}

/// Which matrix a fragment holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Frag {
    /// The M×K multiplicand.
    A,
    /// The K×N multiplicand.
    B,
    /// The M×N accumulator (C read, D written).
    C,
}

impl Frag {
    /// (rows, columns) of the matrix in `shape`.
    pub fn dims(self, shape: Shape) -> (usize, usize) {
        let (m, n, k) = shape.mnk();
        match self {
            Frag::A => (m, k),
            Frag::B => (k, n),
            Frag::C => (m, n),
        }
    }
}

/// A decoded tensor instruction ([`Op::Tensor`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TensorOp {
    /// `wmma.load.{a,b,c}.sync.aligned.{row,col}.SHAPE[.space].TY d, [a][, stride]`.
    WmmaLoad {
        /// Matrix loaded.
        frag: Frag,
        /// `.col`: column-major in memory.
        col: bool,
        /// Shape.
        shape: Shape,
        /// Element type.
        ty: MmaTy,
        /// State space of the address.
        space: Space,
    },
    /// `wmma.store.d.sync.aligned.{row,col}.SHAPE[.space].TY [a], d[, stride]`.
    WmmaStore {
        /// `.col`: column-major in memory.
        col: bool,
        /// Shape.
        shape: Shape,
        /// Element type.
        ty: MmaTy,
        /// State space of the address.
        space: Space,
    },
    /// `wmma.mma.sync.aligned.ALAYOUT.BLAYOUT.SHAPE.DTYPE.CTYPE d, a, b, c` (f16 inputs) or
    /// `....f32.bf16.bf16.f32`; `mma.sync.aligned.SHAPE.row.col.DTYPE.ATYPE.BTYPE.CTYPE`.
    Mma {
        /// `wmma.mma` (the fragment layout of [`crate::emu`]'s choice) rather than `mma.sync`
        /// (the PTX ISA's documented layout).
        wmma: bool,
        /// A's fragment was loaded column-major (`wmma` only).
        acol: bool,
        /// B's fragment was loaded column-major (`wmma` only).
        bcol: bool,
        /// Shape.
        shape: Shape,
        /// Type of A and B.
        ab: MmaTy,
        /// Type of C.
        c: MmaTy,
        /// Type of D.
        d: MmaTy,
    },
    /// `ldmatrix.sync.aligned.m8n8.xNUM[.trans][.shared].b16 d, [a]`.
    Ldmatrix {
        /// Matrices loaded (1, 2 or 4), one destination register each.
        num: u8,
        /// `.trans`: each matrix transposed.
        trans: bool,
        /// State space of the address.
        space: Space,
    },
}

impl TensorOp {
    /// 32-bit registers in a fragment of matrix `f` of element type `ty` (PTX ISA, "Matrix
    /// fragments for WMMA" and "for mma.m16n8k*").
    pub fn frag_regs(wmma: bool, f: Frag, shape: Shape, ty: MmaTy) -> usize {
        let (r, c) = f.dims(shape);
        match (wmma, f, ty) {
            // f16 multiplicands of wmma are 8 registers in every shape (elements repeat)
            (true, Frag::A | Frag::B, MmaTy::F16) => 8,
            // the accumulators of wmma: 8 f32 or 4 f16x2 registers
            (true, Frag::C, MmaTy::F32) => 8,
            (true, Frag::C, _) => 4,
            // every other fragment holds each element once
            _ => r * c / (32 * ty.per_reg()),
        }
    }

    /// Registers of the source fragments (in operand order: A, B, C; or D of a store) and of
    /// the destination fragment.
    pub fn fragment_regs(&self) -> (usize, usize) {
        match *self {
            TensorOp::WmmaLoad {
                frag, shape, ty, ..
            } => (0, Self::frag_regs(true, frag, shape, ty)),
            TensorOp::WmmaStore { shape, ty, .. } => (Self::frag_regs(true, Frag::C, shape, ty), 0),
            TensorOp::Mma {
                wmma,
                shape,
                ab,
                c,
                d,
                ..
            } => (
                Self::frag_regs(wmma, Frag::A, shape, ab)
                    + Self::frag_regs(wmma, Frag::B, shape, ab)
                    + Self::frag_regs(wmma, Frag::C, shape, c),
                Self::frag_regs(wmma, Frag::C, shape, d),
            ),
            TensorOp::Ldmatrix { num, .. } => (0, num as usize),
        }
    }

    /// Carrier instructions that follow the head.
    pub fn carriers(&self) -> usize {
        let (s, d) = self.fragment_regs();
        s.div_ceil(PER_CARRIER) + d.div_ceil(PER_CARRIER)
    }

    /// Multiply-accumulates the instruction performs for a full warp (0 for loads and stores).
    pub fn macs(&self) -> u64 {
        match *self {
            TensorOp::Mma { shape, .. } => shape.macs(),
            _ => 0,
        }
    }

    /// The state space and element bytes of a load or store, `None` for a multiply.
    pub fn memory(&self) -> Option<(Space, u32)> {
        match *self {
            TensorOp::WmmaLoad { space, ty, .. } | TensorOp::WmmaStore { space, ty, .. } => {
                Some((space, ty.bytes()))
            }
            TensorOp::Ldmatrix { space, .. } => Some((space, 2)),
            TensorOp::Mma { .. } => None,
        }
    }

    /// Decodes the modifiers of `opcode` (without the dot), or says what is wrong.
    pub fn from_mods(opcode: &str, mods: &[String]) -> Result<TensorOp, String> {
        let m: Vec<&str> = mods.iter().map(|s| s.as_str()).collect();
        match opcode {
            "wmma" => wmma(&m),
            "mma" => mma(&m),
            "ldmatrix" => ldmatrix(&m),
            _ => Err(format!("'{opcode}' is not a tensor instruction")),
        }
    }
}

/// Accepts the modifiers `m` when each is one of `allowed`, in any order.
fn only(m: &[&str], allowed: &[&str], what: &str) -> Result<(), String> {
    for x in m {
        if !allowed.contains(x) {
            return Err(format!(
                "unsupported modifier '.{x}' for {what} (supported: {})",
                allowed
                    .iter()
                    .map(|a| format!(".{a}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
    }
    Ok(())
}

fn space_of(m: &[&str]) -> Space {
    if m.contains(&"global") {
        Space::Global
    } else if m.contains(&"shared") {
        Space::Shared
    } else {
        Space::Generic
    }
}

fn need_sync_aligned(m: &[&str], what: &str) -> Result<(), String> {
    if !m.contains(&"sync") || !m.contains(&"aligned") {
        return Err(format!("{what} needs .sync.aligned"));
    }
    Ok(())
}

fn wmma_shape(m: &[&str]) -> Result<Shape, String> {
    match m.iter().filter_map(|s| Shape::of(s)).collect::<Vec<_>>()[..] {
        [s @ (Shape::M16n16k16 | Shape::M32n8k16 | Shape::M8n32k16)] => Ok(s),
        _ => Err("wmma needs one shape of .m16n16k16, .m32n8k16, .m8n32k16".into()),
    }
}

fn layouts(m: &[&str]) -> Vec<bool> {
    m.iter()
        .filter_map(|s| match *s {
            "row" => Some(false),
            "col" => Some(true),
            _ => None,
        })
        .collect()
}

fn types(m: &[&str]) -> Vec<MmaTy> {
    m.iter().filter_map(|s| MmaTy::of(s)).collect()
}

fn wmma(m: &[&str]) -> Result<TensorOp, String> {
    let Some((&verb, rest)) = m.split_first() else {
        return Err("wmma needs .load, .store or .mma".into());
    };
    const SHAPES: [&str; 3] = ["m16n16k16", "m32n8k16", "m8n32k16"];
    match verb {
        "load" | "store" => {
            let Some((&which, rest)) = rest.split_first() else {
                return Err(format!("wmma.{verb} needs a matrix (.a, .b, .c or .d)"));
            };
            let frag = match (verb, which) {
                ("load", "a") => Frag::A,
                ("load", "b") => Frag::B,
                ("load", "c") | ("store", "d") => Frag::C,
                _ => {
                    return Err(format!(
                        "wmma.{verb} takes {} (found .{which})",
                        if verb == "load" { ".a, .b or .c" } else { ".d" }
                    ))
                }
            };
            let mut allowed = vec![
                "sync", "aligned", "row", "col", "global", "shared", "f16", "f32", "bf16",
            ];
            allowed.extend(SHAPES);
            only(rest, &allowed, &format!("wmma.{verb}"))?;
            need_sync_aligned(rest, &format!("wmma.{verb}"))?;
            let shape = wmma_shape(rest)?;
            let col = match layouts(rest)[..] {
                [c] => c,
                _ => return Err(format!("wmma.{verb} needs one layout, .row or .col")),
            };
            let ty = match (frag, &types(rest)[..]) {
                (Frag::A | Frag::B, [t @ (MmaTy::F16 | MmaTy::Bf16)]) => *t,
                (Frag::C, [t @ (MmaTy::F16 | MmaTy::F32)]) => *t,
                _ => {
                    return Err(format!(
                        "wmma.{verb}.{which} needs one type of {}",
                        if frag == Frag::C {
                            ".f16 .f32"
                        } else {
                            ".f16 .bf16"
                        }
                    ))
                }
            };
            let space = space_of(rest);
            Ok(if verb == "load" {
                TensorOp::WmmaLoad {
                    frag,
                    col,
                    shape,
                    ty,
                    space,
                }
            } else {
                TensorOp::WmmaStore {
                    col,
                    shape,
                    ty,
                    space,
                }
            })
        }
        "mma" => {
            let mut allowed = vec!["sync", "aligned", "row", "col", "f16", "f32", "bf16"];
            allowed.extend(SHAPES);
            only(rest, &allowed, "wmma.mma")?;
            need_sync_aligned(rest, "wmma.mma")?;
            let shape = wmma_shape(rest)?;
            let (acol, bcol) = match layouts(rest)[..] {
                [a, b] => (a, b),
                _ => return Err("wmma.mma needs two layouts (A's and B's), .row or .col".into()),
            };
            use MmaTy::*;
            let (ab, d, c) = match types(rest)[..] {
                [F32, Bf16, Bf16, F32] => (Bf16, F32, F32),
                [d @ (F16 | F32), c @ (F16 | F32)] => (F16, d, c),
                _ => {
                    return Err("wmma.mma takes .DTYPE.CTYPE of .f16/.f32 (f16 inputs) or \
                                .f32.bf16.bf16.f32"
                        .into())
                }
            };
            Ok(TensorOp::Mma {
                wmma: true,
                acol,
                bcol,
                shape,
                ab,
                c,
                d,
            })
        }
        _ => Err(format!(
            "wmma.{verb} is not supported (.load, .store, .mma)"
        )),
    }
}

fn mma(m: &[&str]) -> Result<TensorOp, String> {
    only(
        m,
        &[
            "sync", "aligned", "m16n8k8", "m16n8k16", "row", "col", "f16", "f32", "bf16",
        ],
        "mma (supported: mma.sync.aligned.{m16n8k8,m16n8k16}.row.col with .f16/.bf16 inputs)",
    )?;
    need_sync_aligned(m, "mma")?;
    let shape = match m.iter().filter_map(|s| Shape::of(s)).collect::<Vec<_>>()[..] {
        [s @ (Shape::M16n8k8 | Shape::M16n8k16)] => s,
        _ => return Err("mma needs one shape of .m16n8k8, .m16n8k16".into()),
    };
    if layouts(m)[..] != [false, true] {
        return Err("mma.m16n8k* needs .row.col".into());
    }
    use MmaTy::*;
    let (d, ab, c) = match types(m)[..] {
        [d @ (F16 | F32), F16, F16, c @ (F16 | F32)] => (d, F16, c),
        [F32, Bf16, Bf16, F32] => (F32, Bf16, F32),
        _ => return Err("mma takes .DTYPE.f16.f16.CTYPE (.f16/.f32) or .f32.bf16.bf16.f32".into()),
    };
    Ok(TensorOp::Mma {
        wmma: false,
        acol: false,
        bcol: true,
        shape,
        ab,
        c,
        d,
    })
}

fn ldmatrix(m: &[&str]) -> Result<TensorOp, String> {
    only(
        m,
        &[
            "sync", "aligned", "m8n8", "x1", "x2", "x4", "trans", "shared", "b16",
        ],
        "ldmatrix",
    )?;
    need_sync_aligned(m, "ldmatrix")?;
    if !m.contains(&"m8n8") || !m.contains(&"b16") {
        return Err("ldmatrix needs .m8n8 and .b16".into());
    }
    let num = match m
        .iter()
        .filter(|s| matches!(**s, "x1" | "x2" | "x4"))
        .collect::<Vec<_>>()[..]
    {
        [&"x1"] => 1,
        [&"x2"] => 2,
        [&"x4"] => 4,
        _ => return Err("ldmatrix needs one of .x1, .x2, .x4".into()),
    };
    Ok(TensorOp::Ldmatrix {
        num,
        trans: m.contains(&"trans"),
        space: space_of(m),
    })
}

/// Positions of the fragment operands of `op`: (destination, sources in order), indices into
/// the instruction's operand list; and the number of other operands allowed (min, max).
fn operand_roles(op: &TensorOp) -> (Option<usize>, Vec<usize>, (usize, usize)) {
    match op {
        TensorOp::WmmaLoad { .. } => (Some(0), vec![], (1, 2)),
        TensorOp::WmmaStore { .. } => (None, vec![1], (1, 2)),
        TensorOp::Mma { .. } => (Some(0), vec![1, 2, 3], (0, 0)),
        TensorOp::Ldmatrix { .. } => (Some(0), vec![], (1, 1)),
    }
}

/// Expands a tensor instruction into its head and carriers (see the module documentation);
/// any other instruction comes back alone. Errors (position, message) name the operand
/// whose register count does not fit the instruction's fragments.
pub fn expand(ri: RawInst) -> Result<Vec<RawInst>, (super::ast::Pos, String)> {
    if !matches!(ri.opcode.as_str(), "wmma" | "mma" | "ldmatrix") {
        return Ok(vec![ri]);
    }
    let op = TensorOp::from_mods(&ri.opcode, &ri.mods)
        .map_err(|m| (ri.pos, format!("'{}': {m}", ri.opcode)))?;
    let (dst_at, src_at, (lo, hi)) = operand_roles(&op);
    let n_frag = dst_at.iter().count() + src_at.len();
    let n = ri.operands.len();
    if n < n_frag + lo || n > n_frag + hi {
        let want = if lo == hi {
            format!("{}", n_frag + lo)
        } else {
            format!("{} or {}", n_frag + lo, n_frag + hi)
        };
        return Err((
            ri.pos,
            format!("'{}' expects {want} operands, found {n}", ri.opcode),
        ));
    }
    let names = |i: usize| -> Vec<(String, super::ast::Pos)> {
        let (o, p) = &ri.operands[i];
        match o {
            RawOpnd::Vec(v) => v.iter().map(|s| (s.clone(), *p)).collect(),
            RawOpnd::Name(s) => vec![(s.clone(), *p)],
            _ => vec![],
        }
    };
    let (nsrc, ndst) = op.fragment_regs();
    let sizes: Vec<usize> = match op {
        TensorOp::Mma {
            wmma, shape, ab, c, ..
        } => vec![
            TensorOp::frag_regs(wmma, Frag::A, shape, ab),
            TensorOp::frag_regs(wmma, Frag::B, shape, ab),
            TensorOp::frag_regs(wmma, Frag::C, shape, c),
        ],
        _ => vec![nsrc],
    };
    let mut srcs = Vec::new();
    for (k, &i) in src_at.iter().enumerate() {
        let v = names(i);
        if v.len() != sizes[k] {
            return Err((
                ri.operands[i].1,
                format!(
                    "'{}': operand {} must be a vector of {} registers, found {}",
                    ri.opcode,
                    i + 1,
                    sizes[k],
                    v.len()
                ),
            ));
        }
        srcs.extend(v);
    }
    let mut dsts = Vec::new();
    if let Some(i) = dst_at {
        dsts = names(i);
        if dsts.len() != ndst {
            return Err((
                ri.operands[i].1,
                format!(
                    "'{}': operand {} must be a vector of {ndst} registers, found {}",
                    ri.opcode,
                    i + 1,
                    dsts.len()
                ),
            ));
        }
    }
    let mut head = ri.clone();
    head.operands = ri
        .operands
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != dst_at && !src_at.contains(i))
        .map(|(_, o)| o.clone())
        .collect();
    let mut out = vec![head];
    for (opcode, regs) in [(SRC_OPCODE, srcs), (DST_OPCODE, dsts)] {
        for chunk in regs.chunks(PER_CARRIER) {
            out.push(RawInst {
                guard: ri.guard.clone(),
                opcode: opcode.to_string(),
                mods: vec![],
                operands: chunk
                    .iter()
                    .map(|(n, p)| (RawOpnd::Name(n.clone()), *p))
                    .collect(),
                pos: ri.pos,
            });
        }
    }
    Ok(out)
}

/// Decodes a tensor head or carrier; `None` for any other instruction.
pub(super) fn decode_tensor(s: &Scope, ri: &RawInst) -> Result<Option<Inst>, SimError> {
    let op = ri.opcode.as_str();
    let carrier = op == SRC_OPCODE || op == DST_OPCODE;
    if !carrier && !matches!(op, "wmma" | "mma" | "ldmatrix") {
        return Ok(None);
    }
    let mut inst = Inst::new(Op::Operands, ri.pos.line);
    if let Some((g, neg, gp)) = &ri.guard {
        inst.guard = Some((s.pred(g, *gp)?, *neg));
    }
    if carrier {
        let mut regs = [Opnd::None; 4];
        for (k, (o, p)) in ri.operands.iter().enumerate().take(PER_CARRIER) {
            let RawOpnd::Name(n) = o else {
                return s.err(*p, "a matrix fragment names registers");
            };
            regs[k] = s.gpr(n, super::isa::Ty::B32, *p, false)?;
        }
        let n = ri.operands.len().min(PER_CARRIER);
        if op == SRC_OPCODE {
            inst.nsrc = n as u8;
            inst.src[..n].copy_from_slice(&regs[..n]);
        } else {
            inst.ndst = n as u8;
            inst.dst[..n].copy_from_slice(&regs[..n]);
        }
        return Ok(Some(inst));
    }
    let t = TensorOp::from_mods(op, &ri.mods).or_else(|m| s.err(ri.pos, format!("'{op}': {m}")))?;
    inst.op = Op::Tensor(t);
    // the head keeps the address and the stride (the parser took the fragments out)
    if let Some((space, _)) = t.memory() {
        let Some(a) = ri.operands.first() else {
            return s.err(ri.pos, format!("'{op}' needs an address"));
        };
        if !matches!(a.0, RawOpnd::Addr(..)) {
            return s.err(a.1, format!("'{op}' needs an address [a]"));
        }
        inst.addr = s.addr(a, space)?;
        if let Some(st) = ri.operands.get(1) {
            inst.nsrc = 1;
            inst.src[0] = s.src(st, super::isa::Ty::U32)?;
        }
    }
    Ok(Some(inst))
}

/// The fragment registers of the tensor head at `pc` of `insts`, read from its carriers:
/// (sources in operand order, destinations), as the registers the carriers name (virtual
/// before allocation, architectural after).
pub fn group_registers(insts: &[Inst], pc: usize) -> (Vec<u16>, Vec<u16>) {
    let mut srcs = Vec::new();
    let mut dsts = Vec::new();
    let Some(Op::Tensor(t)) = insts.get(pc).map(|i| i.op) else {
        return (srcs, dsts);
    };
    let reg = |o: &Opnd| match *o {
        Opnd::R32(r) => Some(r),
        _ => None,
    };
    for c in insts.iter().skip(pc + 1).take(t.carriers()) {
        if c.op != Op::Operands {
            break;
        }
        srcs.extend(c.srcs().iter().filter_map(reg));
        dsts.extend(c.dsts().iter().filter_map(reg));
    }
    (srcs, dsts)
}
