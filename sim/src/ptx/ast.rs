//! Syntax tree of a PTX module as written: declarations, kernels, labels and raw instructions
//! (opcode, modifiers, guard, operands), each with its source position.

use super::isa::Ty;

/// Source position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    /// Line, counted from 1.
    pub line: u32,
    /// Column, counted from 1.
    pub col: u32,
}

/// State space of a declared variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarSpace {
    /// `.global`.
    Global,
    /// `.const`.
    Const,
    /// `.shared`.
    Shared,
    /// `.local`.
    Local,
}

/// One initialiser element.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InitVal {
    /// Integer literal (decimal, hex or binary), sign applied.
    Int(i128),
    /// Decimal floating-point literal.
    Float(f64),
    /// `0fXXXXXXXX`: the bit pattern of an f32.
    F32Bits(u32),
    /// `0dXXXXXXXXXXXXXXXX`: the bit pattern of an f64.
    F64Bits(u64),
    /// The address of a symbol (`name`, `generic(name)`, `name+N`): the index of the symbol in
    /// the variable's [`VarDecl::syms`]. A function's address (a virtual-function or
    /// function-pointer table) is resolved when the module is built; the address of a variable
    /// is not, and the kernels that use such a variable are refused.
    Sym(u32),
}

/// A variable declaration (`.shared .align 4 .f32 tile[256];`).
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    /// State space.
    pub space: VarSpace,
    /// `.align` in bytes (0 when not given).
    pub align: u32,
    /// Element type.
    pub ty: Ty,
    /// Variable name.
    pub name: String,
    /// Number of elements (1 for a scalar); `None` for `[]` without an initialiser (extern).
    pub elems: Option<u64>,
    /// Declared `.extern`.
    pub is_extern: bool,
    /// `= {...}` initialiser elements, if any.
    pub init: Option<Vec<InitVal>>,
    /// The symbols [`InitVal::Sym`] elements name, with the byte offset added to each
    /// (`name+N`).
    pub syms: Vec<(String, i64)>,
    /// Where the declaration starts.
    pub pos: Pos,
}

/// What an indirect call may reach: the signature of `label: .callprototype (rets) _ (params);`
/// or the functions of `label: .calltargets f, g, ...;`.
#[derive(Clone, Debug, PartialEq)]
pub enum CallSig {
    /// A prototype: any function whose return and argument parameters have these sizes.
    Proto {
        /// Return parameters (names are `_`).
        rets: Vec<ParamDecl>,
        /// Argument parameters (names are `_`).
        params: Vec<ParamDecl>,
    },
    /// An explicit list of the functions the call may reach.
    Targets(Vec<String>),
}

/// A `.callprototype` or `.calltargets` declaration in a function or kernel body.
#[derive(Clone, Debug, PartialEq)]
pub struct CallProto {
    /// Its label, which an indirect `call` names last.
    pub name: String,
    /// What it declares.
    pub sig: CallSig,
    /// Where it is declared.
    pub pos: Pos,
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    /// Parameter name.
    pub name: String,
    /// Parameter type.
    pub ty: Ty,
    /// `.align` in bytes (the type size when not given).
    pub align: u32,
    /// Elements of an array parameter (`.param .align 8 .b8 p[24]`: a structure passed by
    /// value); `None` for a scalar.
    pub elems: Option<u32>,
    /// Where the parameter is declared.
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
    /// `[tex, {c0, c1, ...}]`: a texture operand (a texture object register or parameter)
    /// and its coordinate vector (`tex`, [`super::texture`]).
    TexAddr(String, Vec<String>),
}

/// A raw instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct RawInst {
    /// Guard `@p` / `@!p`: predicate name, whether negated, and its position.
    pub guard: Option<(String, bool, Pos)>,
    /// Opcode (`add`, `ld`, ...).
    pub opcode: String,
    /// Modifiers in order, without the dot (`["global", "f32"]`).
    pub mods: Vec<String>,
    /// Operands with their positions.
    pub operands: Vec<(RawOpnd, Pos)>,
    /// Position of the opcode.
    pub pos: Pos,
}

impl RawInst {
    /// Replaces every register, variable, label or parameter name the instruction mentions
    /// (guard included) by `f(name)` where that gives one.
    pub fn rename_names(&mut self, f: impl Fn(&str) -> Option<String>) {
        let fix = |n: &mut String| {
            if let Some(u) = f(n) {
                *n = u;
            }
        };
        if let Some((g, _, _)) = self.guard.as_mut() {
            fix(g);
        }
        for (o, _) in self.operands.iter_mut() {
            match o {
                RawOpnd::Name(n) | RawOpnd::Not(n) | RawOpnd::NameOff(n, _) => fix(n),
                RawOpnd::Addr(Some(n), _) => fix(n),
                RawOpnd::PredPair(a, b) => {
                    fix(a);
                    fix(b);
                }
                RawOpnd::Vec(v) => v.iter_mut().for_each(fix),
                RawOpnd::TexAddr(t, v) => {
                    fix(t);
                    v.iter_mut().for_each(fix);
                }
                RawOpnd::Addr(None, _) | RawOpnd::Imm(_) => {}
            }
        }
    }
}

/// Body statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// A label (`BB0_1:`) and its position.
    Label(String, Pos),
    /// An instruction.
    Inst(RawInst),
}

/// A parsed `.entry`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RawKernel {
    /// Kernel name.
    pub name: String,
    /// Position of the `.entry` directive.
    pub pos: Pos,
    /// Kernel parameters in order.
    pub params: Vec<ParamDecl>,
    /// Register declarations, expanded (`%r<3>` → `%r0 %r1 %r2`).
    pub regs: Vec<(String, Ty, Pos)>,
    /// `.shared` and `.local` variables declared in the body.
    pub vars: Vec<VarDecl>,
    /// Labels and instructions in order.
    pub body: Vec<Stmt>,
    /// `.maxntid`: largest CTA size the kernel allows (x, y, z).
    pub maxntid: Option<[u32; 3]>,
    /// `.reqntid`: the CTA size the kernel requires (x, y, z).
    pub reqntid: Option<[u32; 3]>,
    /// `.minnctapersm`: CTAs per SM the kernel asks to fit.
    pub minnctapersm: Option<u32>,
    /// Call-frame `.param` variables declared in the body (after block renaming): laid out as
    /// `.local` variables, and `ld.param`/`st.param` to them read and write local memory.
    pub frame_params: Vec<String>,
    /// `.callprototype` and `.calltargets` declarations of the body, which indirect calls name.
    pub protos: Vec<CallProto>,
}

/// A `.func` device function: its return and argument parameters and, unless it is only
/// declared (`.extern`: `vprintf`, `malloc`, `__assertfail`), its body; or the error that
/// kept its body from parsing.
#[derive(Clone, Debug, PartialEq)]
pub struct RawFunc {
    /// Function name.
    pub name: String,
    /// Where it is declared.
    pub pos: Pos,
    /// Return parameters (`(.param .b32 func_retval0)`).
    pub rets: Vec<ParamDecl>,
    /// Argument parameters.
    pub params: Vec<ParamDecl>,
    /// The body (registers, local variables, statements): `Ok(None)` for a declaration
    /// without one, `Err` (position, message) when its text is not accepted.
    pub body: Result<Option<RawKernel>, (Pos, String)>,
}

/// A kernel whose text the front end cannot take, with the first error found in it. The
/// module still loads; the error is reported when the kernel is asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct RefusedKernel {
    /// Kernel name.
    pub name: String,
    /// Where the first unsupported or malformed construct is.
    pub pos: Pos,
    /// What it is.
    pub msg: String,
}

impl RefusedKernel {
    /// The refusal from a front-end error (a `SimError::Parse`; any other error keeps its text
    /// at the kernel's position `at`).
    pub fn from_error(name: &str, e: crate::SimError, at: Pos) -> RefusedKernel {
        let (pos, msg) = match e {
            crate::SimError::Parse { line, col, msg, .. } => (
                Pos {
                    line: line as u32,
                    col: col as u32,
                },
                msg,
            ),
            other => (at, other.to_string()),
        };
        RefusedKernel {
            name: name.to_string(),
            pos,
            msg,
        }
    }

    /// The error as a strict parse reports it: file, line, column and reason.
    pub fn plain_error(&self, file: &str) -> crate::SimError {
        crate::SimError::Parse {
            file: file.to_string(),
            line: self.pos.line as usize,
            col: self.pos.col as usize,
            msg: self.msg.clone(),
        }
    }

    /// The error a request for this kernel returns: file, line, column, kernel and reason.
    pub fn error(&self, file: &str) -> crate::SimError {
        crate::SimError::Parse {
            file: file.to_string(),
            line: self.pos.line as usize,
            col: self.pos.col as usize,
            msg: format!("kernel '{}' is refused: {}", self.name, self.msg),
        }
    }
}

/// A parsed module.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RawModule {
    /// Module-scope variables (`.global`, `.const`, `.shared`, `.local`).
    pub vars: Vec<VarDecl>,
    /// Kernels in source order.
    pub kernels: Vec<RawKernel>,
    /// Kernels refused while parsing, in source order.
    pub refused: Vec<RefusedKernel>,
    /// The module's `.func` device functions, in source order.
    pub funcs: Vec<RawFunc>,
    /// Names of module-scope texture, surface and sampler references (skipped: a kernel that
    /// uses one is refused).
    pub textures: Vec<String>,
}
