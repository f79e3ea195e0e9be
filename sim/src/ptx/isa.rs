//! The pre-decoded instruction form that the emulator executes: a compact enum with the PTX type
//! folded in, operands resolved to architectural registers, immediates and symbol addresses, and
//! branch targets resolved to instruction indices. No string is looked at during execution.

/// A PTX scalar type (spec simulator.md §3.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    B8,
    B16,
    B32,
    B64,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F32,
    F64,
    Pred,
}

impl Ty {
    /// Parses a type suffix such as `u32`.
    pub fn from_name(s: &str) -> Option<Ty> {
        Some(match s {
            "b8" => Ty::B8,
            "b16" => Ty::B16,
            "b32" => Ty::B32,
            "b64" => Ty::B64,
            "u8" => Ty::U8,
            "u16" => Ty::U16,
            "u32" => Ty::U32,
            "u64" => Ty::U64,
            "s8" => Ty::S8,
            "s16" => Ty::S16,
            "s32" => Ty::S32,
            "s64" => Ty::S64,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            "pred" => Ty::Pred,
            _ => return None,
        })
    }

    /// Width in bits (a predicate counts as 1).
    pub fn bits(self) -> u32 {
        match self {
            Ty::B8 | Ty::U8 | Ty::S8 => 8,
            Ty::B16 | Ty::U16 | Ty::S16 => 16,
            Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32 => 32,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 => 64,
            Ty::Pred => 1,
        }
    }

    /// Width in bytes (memory accesses).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }

    /// Integer or bit type (not float, not predicate).
    pub fn is_int(self) -> bool {
        !self.is_float() && self != Ty::Pred
    }

    /// True when a register of this type occupies an aligned 64-bit register pair.
    pub fn is_wide(self) -> bool {
        self.bits() == 64
    }
}

/// Memory state space of a load/store/atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Global,
    Shared,
    Local,
    Const,
    Param,
}

/// Special (read-only) registers (spec §3.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SReg {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    LaneId,
    WarpId,
    NWarpId,
    SmId,
    Clock,
    Clock64,
}

/// Comparison of `setp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

/// Boolean combiner of `setp.CMP.BOOL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

/// Rounding modifier of `cvt` (integer rounding of float→int, or float rounding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rnd {
    /// No modifier given (exact conversions, or the default per type pair).
    None,
    /// Nearest even.
    Rn,
    /// Towards zero.
    Rz,
    /// Towards −∞.
    Rm,
    /// Towards +∞.
    Rp,
}

/// Atomic operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomOp {
    Add,
    Min,
    Max,
    Exch,
    Cas,
}

/// Decoded operation with its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Mov(Ty),
    Add(Ty),
    Sub(Ty),
    MulLo(Ty),
    MulHi(Ty),
    MulWide(Ty),
    MadLo(Ty),
    MadHi(Ty),
    MadWide(Ty),
    /// Float multiply (f32/f64).
    FMul(Ty),
    /// Fused multiply-add (`fma.rn`, `mad.f32`).
    Fma(Ty),
    Div(Ty),
    Rem(Ty),
    Min(Ty),
    Max(Ty),
    Abs(Ty),
    Neg(Ty),
    Popc(Ty),
    Clz(Ty),
    Brev(Ty),
    And(Ty),
    Or(Ty),
    Xor(Ty),
    Not(Ty),
    Shl(Ty),
    Shr(Ty),
    Sqrt(Ty),
    Rsqrt(Ty),
    Rcp(Ty),
    Sin(Ty),
    Cos(Ty),
    Ex2(Ty),
    Lg2(Ty),
    Setp(Cmp, Option<BoolOp>, Ty),
    Selp(Ty),
    /// `cvt.dst.src` with rounding and saturation.
    Cvt {
        dst: Ty,
        src: Ty,
        rnd: Rnd,
    },
    Ld {
        space: Space,
        ty: Ty,
        vec: u8,
    },
    St {
        space: Space,
        ty: Ty,
        vec: u8,
    },
    Atom {
        space: Space,
        op: AtomOp,
        ty: Ty,
    },
    Red {
        space: Space,
        op: AtomOp,
        ty: Ty,
    },
    Bra {
        uni: bool,
    },
    Ret,
    Exit,
    Bar,
    Membar,
}

/// Flags on an instruction.
pub mod flags {
    /// `.ftz`: flush subnormal inputs and results to zero (f32).
    pub const FTZ: u8 = 1;
    /// `.sat`: clamp (float to the interval 0..=1; int cvt to the destination range).
    pub const SAT: u8 = 2;
    /// `.approx` variants (`div.approx`, `rcp.approx`): computed as a·(1/b).
    pub const APPROX: u8 = 4;
    /// Float-to-float `cvt` with an integer rounding modifier (`.rni` ...): round to integral.
    pub const RINT: u8 = 8;
}

/// An operand after decoding. Register numbers are virtual before register allocation and
/// architectural after it (R for 32-bit, the even base of a pair for 64-bit, P for predicates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Opnd {
    #[default]
    None,
    /// 32-bit register (also holds 8/16-bit values).
    R32(u16),
    /// 64-bit value in an aligned register pair (low word at the base register).
    R64(u16),
    /// Predicate register, optionally negated (`!p`).
    Pred(u16, bool),
    /// Immediate bits (integers sign-extended to 64 bits, f32 as its bit pattern).
    Imm(u64),
    /// Special register.
    Sreg(SReg),
    /// Address of module-scope `.global` variable `idx` plus a byte offset, resolved at launch.
    GlobalAddr(u16, i64),
}

/// Base of a memory address `[base+off]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AddrBase {
    /// Constant address (a `.shared/.local/.const/.param` variable folded into `off`, or `[imm]`).
    #[default]
    None,
    R32(u16),
    R64(u16),
    /// Module-scope `.global` variable `idx`.
    Global(u16),
}

/// Memory address operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Addr {
    pub base: AddrBase,
    pub off: i64,
}

/// One decoded static instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inst {
    pub op: Op,
    /// Guard predicate and whether it is negated (`@!p`).
    pub guard: Option<(u16, bool)>,
    pub ndst: u8,
    /// Destinations: registers or predicates (setp `p|q` has two; `ld.v4` four).
    pub dst: [Opnd; 4],
    pub nsrc: u8,
    /// Value sources in PTX order (for `st`, the data; for `atom`, b and c).
    pub src: [Opnd; 4],
    /// Address of memory instructions.
    pub addr: Addr,
    /// Branch target (instruction index) of `bra`.
    pub target: u32,
    /// [`flags`] bits.
    pub flags: u8,
    /// Source line (for runtime error messages).
    pub line: u32,
}

impl Inst {
    pub fn new(op: Op, line: u32) -> Inst {
        Inst {
            op,
            guard: None,
            ndst: 0,
            dst: [Opnd::None; 4],
            nsrc: 0,
            src: [Opnd::None; 4],
            addr: Addr::default(),
            target: 0,
            flags: 0,
            line,
        }
    }

    pub fn dsts(&self) -> &[Opnd] {
        &self.dst[..self.ndst as usize]
    }

    pub fn srcs(&self) -> &[Opnd] {
        &self.src[..self.nsrc as usize]
    }

    /// True for `bra`, `ret`, `exit`: instructions that end a basic block.
    pub fn ends_block(&self) -> bool {
        matches!(self.op, Op::Bra { .. } | Op::Ret | Op::Exit)
    }

    /// True for memory instructions that carry a data address.
    pub fn is_mem(&self) -> bool {
        matches!(
            self.op,
            Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } | Op::Red { .. }
        )
    }
}
