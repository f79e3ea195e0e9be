//! Syntax tree of a PTX module as written: declarations, kernels, labels and raw instructions
//! (opcode, modifiers, guard, operands), each with its source position.

use super::isa::Ty;

/// Source position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// State space of a declared variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarSpace {
    Global,
    Const,
    Shared,
    Local,
}

/// One initialiser element.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InitVal {
    Int(i128),
    Float(f64),
    F32Bits(u32),
    F64Bits(u64),
}

/// A variable declaration (`.shared .align 4 .f32 tile[256];`).
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub space: VarSpace,
    pub align: u32,
    pub ty: Ty,
    pub name: String,
    /// Number of elements (1 for a scalar); `None` for `[]` without an initialiser (extern).
    pub elems: Option<u64>,
    pub is_extern: bool,
    pub init: Option<Vec<InitVal>>,
    pub pos: Pos,
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    pub name: String,
    pub ty: Ty,
    pub align: u32,
    pub pos: Pos,
}

/// A raw operand.
#[derive(Clone, Debug, PartialEq)]
pub enum RawOpnd {
    /// A name: register, label, variable or special register (with `.x/.y/.z` appended as
    /// `%tid.x`).
    Name(String),
    /// `!name`.
    Not(String),
    /// `p|q` (setp destinations).
    PredPair(String, String),
    /// Immediate.
    Imm(InitVal),
    /// `[base+off]`; `base` is `None` for `[imm]`.
    Addr(Option<String>, i64),
    /// `{a, b, ...}`.
    Vec(Vec<String>),
    /// `name+off` without brackets (an address expression).
    NameOff(String, i64),
}

/// A raw instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct RawInst {
    pub guard: Option<(String, bool, Pos)>,
    pub opcode: String,
    pub mods: Vec<String>,
    pub operands: Vec<(RawOpnd, Pos)>,
    pub pos: Pos,
}

/// Body statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Label(String, Pos),
    Inst(RawInst),
}

/// A parsed `.entry`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RawKernel {
    pub name: String,
    pub pos: Pos,
    pub params: Vec<ParamDecl>,
    /// Register declarations, expanded (`%r<3>` → `%r0 %r1 %r2`).
    pub regs: Vec<(String, Ty, Pos)>,
    pub vars: Vec<VarDecl>,
    pub body: Vec<Stmt>,
    pub maxntid: Option<[u32; 3]>,
    pub reqntid: Option<[u32; 3]>,
    pub minnctapersm: Option<u32>,
}

/// A parsed module.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RawModule {
    pub vars: Vec<VarDecl>,
    pub kernels: Vec<RawKernel>,
}
