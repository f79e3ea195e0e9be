//! The pre-decoded instruction form that the emulator executes: a compact enum with the PTX type
//! folded in, operands resolved to architectural registers, immediates and symbol addresses, and
//! branch targets resolved to instruction indices. No string is looked at during execution.

/// A PTX scalar type (simulator §3.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// `.b8`: untyped 8 bits.
    B8,
    /// `.b16`: untyped 16 bits.
    B16,
    /// `.b32`: untyped 32 bits.
    B32,
    /// `.b64`: untyped 64 bits.
    B64,
    /// `.u8`: unsigned 8-bit integer.
    U8,
    /// `.u16`: unsigned 16-bit integer.
    U16,
    /// `.u32`: unsigned 32-bit integer.
    U32,
    /// `.u64`: unsigned 64-bit integer.
    U64,
    /// `.s8`: signed 8-bit integer.
    S8,
    /// `.s16`: signed 16-bit integer.
    S16,
    /// `.s32`: signed 32-bit integer.
    S32,
    /// `.s64`: signed 64-bit integer.
    S64,
    /// `.f16`: IEEE-754 half precision (conversions, moves, loads and stores only).
    F16,
    /// `.f32`: IEEE-754 single precision.
    F32,
    /// `.f64`: IEEE-754 double precision.
    F64,
    /// `.pred`: 1-bit predicate.
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
            "f16" => Ty::F16,
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
            Ty::B16 | Ty::U16 | Ty::S16 | Ty::F16 => 16,
            Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32 => 32,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 => 64,
            Ty::Pred => 1,
        }
    }

    /// Width in bytes (memory accesses).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    /// True for the signed integer types `.s8` … `.s64`.
    pub fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }

    /// True for `.f16`, `.f32` and `.f64`.
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64)
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
    /// `.global`: device memory visible to every thread.
    Global,
    /// `.shared`: per-CTA on-chip memory.
    Shared,
    /// `.local`: per-thread private memory.
    Local,
    /// `.const`: read-only constant memory.
    Const,
    /// `.param`: kernel parameters.
    Param,
    /// No state space: a generic address, which selects global, shared or local memory by the
    /// window it falls in (`emu::memory::GENERIC_SHARED_BASE`, `GENERIC_LOCAL_BASE`).
    Generic,
}

/// Special (read-only) registers (spec §3.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SReg {
    /// `%tid.{x,y,z}`: thread index within the CTA (dimension 0..=2).
    Tid(u8),
    /// `%ntid.{x,y,z}`: CTA size in threads (dimension 0..=2).
    Ntid(u8),
    /// `%ctaid.{x,y,z}`: CTA index within the grid (dimension 0..=2).
    Ctaid(u8),
    /// `%nctaid.{x,y,z}`: grid size in CTAs (dimension 0..=2).
    Nctaid(u8),
    /// `%laneid`: lane of the thread within its warp (0..32).
    LaneId,
    /// `%warpid`: warp slot on the SM.
    WarpId,
    /// `%nwarpid`: warp slots per SM.
    NWarpId,
    /// `%smid`: index of the SM running the thread.
    SmId,
    /// `%clock`: the low 32 bits of the core cycle counter.
    Clock,
    /// `%clock64`: the 64-bit core cycle counter.
    Clock64,
    /// `%lanemask_eq`, `_lt`, `_le`, `_gt`, `_ge`: 32-bit masks of the lanes equal to, below,
    /// at or below, above, at or above the thread's lane.
    LaneMask(LaneMaskKind),
    /// `%envreg0`…`%envreg31`, the driver's environment registers. In a cooperative launch
    /// `%envreg1`/`%envreg2` hold the high/low word of the grid-synchronisation workspace's
    /// address (cooperative groups' `this_grid()`); every other read is 0, as is the
    /// workspace outside a cooperative launch (the kernel's own `trap` then fires).
    EnvReg(u8),
    /// `%globaltimer` (64-bit), `%globaltimer_lo` and `%globaltimer_hi` (its 32-bit halves):
    /// nanoseconds of simulated time, the core cycle converted with the configured core clock
    /// (`Emulator::core_mhz`), truncated to whole nanoseconds.
    GlobalTimer(TimerPart),
}

/// Which part of `%globaltimer` a read takes ([`SReg::GlobalTimer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimerPart {
    /// `%globaltimer`: all 64 bits.
    Full,
    /// `%globaltimer_lo`: bits 0–31.
    Lo,
    /// `%globaltimer_hi`: bits 32–63.
    Hi,
}

impl TimerPart {
    /// The part of a 64-bit timer value `ns` this read takes.
    pub fn of(self, ns: u64) -> u64 {
        match self {
            TimerPart::Full => ns,
            TimerPart::Lo => ns & 0xFFFF_FFFF,
            TimerPart::Hi => ns >> 32,
        }
    }
}

/// Which `%lanemask_*` register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaneMaskKind {
    /// `%lanemask_eq`: only the thread's own lane.
    Eq,
    /// `%lanemask_lt`: the lanes below it.
    Lt,
    /// `%lanemask_le`: the lanes at or below it.
    Le,
    /// `%lanemask_gt`: the lanes above it.
    Gt,
    /// `%lanemask_ge`: the lanes at or above it.
    Ge,
}

/// Source-lane rule of `shfl.sync` (PTX ISA, "shfl.sync").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShflMode {
    /// `.up`: lane − b.
    Up,
    /// `.down`: lane + b.
    Down,
    /// `.bfly`: lane XOR b.
    Bfly,
    /// `.idx`: lane b within the segment.
    Idx,
}

/// Reduction of `vote.sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VoteMode {
    /// `.all`: true when the predicate is true in every participating lane.
    All,
    /// `.any`: true when it is true in some participating lane.
    Any,
    /// `.uni`: true when it has the same value in every participating lane.
    Uni,
    /// `.ballot.b32`: the mask of participating lanes where it is true.
    Ballot,
}

/// Operation of `redux.sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduxOp {
    /// `.add`: wrapping sum.
    Add,
    /// `.min`: smallest (signed or unsigned by type).
    Min,
    /// `.max`: largest.
    Max,
    /// `.and`: bitwise AND.
    And,
    /// `.or`: bitwise OR.
    Or,
    /// `.xor`: bitwise XOR.
    Xor,
}

/// A warp-level operation: every participating lane reads values of the others (PTX ISA,
/// "Parallel Synchronization and Communication Instructions"). The participating lanes are the
/// active lanes whose guard is true; `membermask` must include each of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarpOp {
    /// `shfl.sync.MODE.b32 d[|p], a, b, c, membermask`.
    Shfl(ShflMode),
    /// `vote.sync.MODE d, {!}a, membermask`.
    Vote(VoteMode),
    /// `activemask.b32 d`: the mask of the lanes executing it.
    ActiveMask,
    /// `match.any.sync.TY d, a, membermask` (`all` false) or `match.all.sync.TY d[|p], a,
    /// membermask` (`all` true), over 32- or 64-bit values.
    Match {
        /// `.all` rather than `.any`.
        all: bool,
        /// Compared width: `.b32` or `.b64`.
        ty: Ty,
    },
    /// `redux.sync.OP.TY d, a, membermask`.
    Redux(ReduxOp, Ty),
}

/// Comparison of `setp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `eq`: equal (ordered for floats).
    Eq,
    /// `ne`: not equal (ordered for floats).
    Ne,
    /// `lt`: less than.
    Lt,
    /// `le`: less than or equal.
    Le,
    /// `gt`: greater than.
    Gt,
    /// `ge`: greater than or equal.
    Ge,
    /// `lo`: unsigned lower than.
    Lo,
    /// `ls`: unsigned lower or same.
    Ls,
    /// `hi`: unsigned higher than.
    Hi,
    /// `hs`: unsigned higher or same.
    Hs,
    /// `equ`: equal, or either operand NaN.
    Equ,
    /// `neu`: not equal, or either operand NaN.
    Neu,
    /// `ltu`: less than, or either operand NaN.
    Ltu,
    /// `leu`: less than or equal, or either operand NaN.
    Leu,
    /// `gtu`: greater than, or either operand NaN.
    Gtu,
    /// `geu`: greater than or equal, or either operand NaN.
    Geu,
    /// `num`: neither operand is NaN.
    Num,
    /// `nan`: either operand is NaN.
    Nan,
}

/// Boolean combiner of `setp.CMP.BOOL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    /// `.and`: comparison AND the source predicate.
    And,
    /// `.or`: comparison OR the source predicate.
    Or,
    /// `.xor`: comparison XOR the source predicate.
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
    /// `.add`: add the operand to memory.
    Add,
    /// `.min`: keep the smaller value.
    Min,
    /// `.max`: keep the larger value.
    Max,
    /// `.exch`: swap in the operand.
    Exch,
    /// `.cas`: compare-and-swap (store c where memory equals b).
    Cas,
    /// `.and`: bitwise AND.
    And,
    /// `.or`: bitwise OR.
    Or,
    /// `.xor`: bitwise XOR.
    Xor,
    /// `.inc`: (old >= b) ? 0 : old + 1 (unsigned 32-bit).
    Inc,
    /// `.dec`: (old == 0 || old > b) ? b : old − 1 (unsigned 32-bit).
    Dec,
}

/// Decoded operation with its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `mov`: copy a register, immediate, special register or address.
    Mov(Ty),
    /// `add`: a + b.
    Add(Ty),
    /// `sub`: a − b.
    Sub(Ty),
    /// `mul.lo`: low half of the integer product.
    MulLo(Ty),
    /// `mul.hi`: high half of the integer product.
    MulHi(Ty),
    /// `mul.wide`: full product of two n-bit integers as 2n bits.
    MulWide(Ty),
    /// `mad.lo`: low half of a·b, plus c.
    MadLo(Ty),
    /// `mad.hi`: high half of a·b, plus c.
    MadHi(Ty),
    /// `mad.wide`: 2n-bit a·b plus c.
    MadWide(Ty),
    /// Float multiply (f32/f64).
    FMul(Ty),
    /// Fused multiply-add (`fma.rn`, `mad.f32`).
    Fma(Ty),
    /// `div`: a / b (integers truncate; an integer division by zero gives all ones).
    Div(Ty),
    /// `rem`: integer remainder of a / b (−1 when b is 0).
    Rem(Ty),
    /// `min`: the smaller of a and b.
    Min(Ty),
    /// `max`: the larger of a and b.
    Max(Ty),
    /// `abs`: absolute value.
    Abs(Ty),
    /// `neg`: negation.
    Neg(Ty),
    /// `popc`: number of set bits.
    Popc(Ty),
    /// `clz`: leading zero bits.
    Clz(Ty),
    /// `brev`: bit reversal.
    Brev(Ty),
    /// `and`: bitwise AND (also of predicates).
    And(Ty),
    /// `or`: bitwise OR.
    Or(Ty),
    /// `xor`: bitwise exclusive OR.
    Xor(Ty),
    /// `not`: bitwise complement.
    Not(Ty),
    /// `shl`: shift left.
    Shl(Ty),
    /// `shr`: shift right (arithmetic for signed types, logical otherwise).
    Shr(Ty),
    /// `sqrt`: square root.
    Sqrt(Ty),
    /// `rsqrt`: reciprocal square root.
    Rsqrt(Ty),
    /// `rcp`: reciprocal.
    Rcp(Ty),
    /// `sin`: sine (radians).
    Sin(Ty),
    /// `cos`: cosine (radians).
    Cos(Ty),
    /// `ex2`: 2 to the power a.
    Ex2(Ty),
    /// `lg2`: base-2 logarithm.
    Lg2(Ty),
    /// `setp.CMP[.BOOL]`: compare a and b, optionally combine with a predicate; writes p (and q).
    Setp(Cmp, Option<BoolOp>, Ty),
    /// `selp`: a if the predicate c is true, else b.
    Selp(Ty),
    /// `cvt.dst.src` with rounding and saturation.
    Cvt {
        /// Destination type.
        dst: Ty,
        /// Source type.
        src: Ty,
        /// Rounding modifier.
        rnd: Rnd,
    },
    /// `ld.space[.vN].ty`: load into `vec` registers.
    Ld {
        /// State space read.
        space: Space,
        /// Element type.
        ty: Ty,
        /// Elements of a vector access (1, 2 or 4).
        vec: u8,
    },
    /// `st.space[.vN].ty`: store from `vec` registers.
    St {
        /// State space written.
        space: Space,
        /// Element type.
        ty: Ty,
        /// Elements of a vector access (1, 2 or 4).
        vec: u8,
    },
    /// `atom.space.op.ty`: read-modify-write that returns the old value.
    Atom {
        /// State space (global or shared).
        space: Space,
        /// The read-modify-write operation.
        op: AtomOp,
        /// Operand type.
        ty: Ty,
    },
    /// `red.space.op.ty`: read-modify-write with no result.
    Red {
        /// State space (global or shared).
        space: Space,
        /// The read-modify-write operation.
        op: AtomOp,
        /// Operand type.
        ty: Ty,
    },
    /// `bra[.uni]`: branch to `Inst::target`.
    Bra {
        /// `.uni`: the branch is declared non-divergent.
        uni: bool,
    },
    /// `ret`: return; in a kernel it ends the thread like `exit`.
    Ret,
    /// `exit`: end the thread.
    Exit,
    /// `bar.sync`: wait until every non-exited warp of the CTA has arrived.
    Bar,
    /// `membar`: memory fence.
    Membar,
    /// A warp-level (cross-lane) operation.
    Warp(WarpOp),
    /// `cvta[.to].shared|local.u64`: converts between a state-space address and the generic
    /// address of its window (global addresses are the same in both, a plain move).
    Cvta {
        /// `.to`: from generic to the state space.
        to: bool,
        /// `Space::Shared` or `Space::Local`.
        space: Space,
    },
    /// `mov.bN d, {a, b[, c, d]}`: packs the sources (each N/n bits, the first lowest) into d.
    Pack {
        /// Width of the packed value (.b32 or .b64).
        ty: Ty,
        /// Number of parts (2 or 4).
        n: u8,
    },
    /// `mov.bN {a, b[, c, d]}, s`: splits s into n parts of N/n bits, the lowest first.
    Unpack {
        /// Width of the packed value (.b32 or .b64).
        ty: Ty,
        /// Number of parts (2 or 4).
        n: u8,
    },
    /// An instruction with no architectural effect in this model (`bar.warp.sync`,
    /// `nanosleep`, `prefetch`): it is fetched, issued and counted.
    Nop,
    /// `trap`, or a check the front end inserted: aborts the kernel with a runtime error
    /// saying why ([`TrapKind`]).
    Trap(TrapKind),
    /// `bfe`: extract c bits of a from bit b, zero- or sign-extended by type.
    Bfe(Ty),
    /// `bfi`: insert the low d bits of a into b at bit c.
    Bfi(Ty),
    /// `bfind[.shiftamt]`: position of the most significant non-sign bit (0xffffffff if none).
    Bfind {
        /// Operand type (u32, s32, u64, s64).
        ty: Ty,
        /// `.shiftamt`: the left shift that brings that bit to the top instead.
        shiftamt: bool,
    },
    /// `prmt.b32[.mode]`: byte permute of {b, a} by the selector c.
    Prmt(PrmtMode),
    /// `shf.{l,r}.{wrap,clamp}.b32`: funnel shift of {b:a} by c.
    Shf {
        /// `.l` (left) rather than `.r`.
        left: bool,
        /// `.wrap` (shift amount mod 32) rather than `.clamp` (at most 32).
        wrap: bool,
    },
    /// `bmsk.{clamp,wrap}.b32 d, a, b`: a mask of b ones starting at bit a.
    Bmsk {
        /// `.wrap` (positions mod 32) rather than `.clamp` (at most 32).
        wrap: bool,
    },
    /// `lop3.b32 d, a, b, c, immLut`: any 3-input bitwise function by its truth table.
    Lop3,
    /// `copysign.fTY d, a, b`: b's magnitude with a's sign.
    Copysign(Ty),
    /// `mul24.{lo,hi}` / `mad24.{lo,hi}` on the low 24 bits of the operands (`mad` adds c).
    Mul24 {
        /// Signed (`.s32`) rather than unsigned.
        signed: bool,
        /// `.hi`: bits 16..48 of the 48-bit product rather than the low 32.
        hi: bool,
        /// `mad24`: adds the third operand.
        mad: bool,
    },
    /// `testp.OP.fTY p, a`: a property of a float (finite, infinite, number, NaN, normal,
    /// subnormal).
    Testp(TestpOp, Ty),
    /// Extended-precision integer arithmetic through the thread's carry flag (`CC.CF`):
    /// `add.cc`, `addc[.cc]`, `sub.cc`, `subc[.cc]`, `mad.{lo,hi}.cc`, `madc.{lo,hi}[.cc]`.
    Carry {
        /// The arithmetic.
        kind: CarryKind,
        /// Operand type (.u32, .s32, .u64, .s64).
        ty: Ty,
        /// Reads the carry flag (`addc`, `subc`, `madc`).
        cin: bool,
        /// Writes the carry flag (`.cc`).
        cout: bool,
    },
    /// Half-precision arithmetic on one `.f16` (in a 16-bit register) or two packed `.f16x2`
    /// halves (in a 32-bit register, the first element in the low half).
    Half {
        /// The operation.
        op: HalfOp,
        /// `.f16x2`: two halves, each computed independently.
        x2: bool,
    },
    /// A device system call (a `call` of an external `vprintf`, `malloc` or `free`): `src[0]`
    /// is the local offset of the return value's call-frame slot (or none), the further
    /// sources those of the arguments (`emu/devcall.rs`).
    Sys(SysCall),
    /// `bar.red.{popc.u32,and.pred,or.pred} d, 0, {!}c`: a CTA barrier that also reduces the
    /// predicate c over every thread that arrives and gives each the result.
    BarRed(BarRedOp),
    /// A call of the recursive device function `func` (an index into
    /// [`crate::ptx::CallStack::funcs`]), whose body starts at `Inst::target` (`ptx/subcall.rs`):
    /// `dst[0]` receives the return address (the byte PC of the next instruction), `src[0]` is
    /// the stack pointer (the local address of the callee's frame) and `src[1]` the stack bytes
    /// the activation needs above it, checked against the stack limit. On the PDOM stack it
    /// pushes a call entry.
    Call {
        /// Index of the called function.
        func: u16,
    },
    /// The return of recursive device function `func` to the return address in `src[0]` (a
    /// byte PC): pops the call entry of the PDOM stack.
    Return {
        /// Index of the function returning.
        func: u16,
    },
    /// A warp-wide tensor-core instruction (`wmma.*`, `mma.sync`, `ldmatrix`,
    /// [`super::tensor`]). Its matrix fragments do not fit an instruction's operand slots: the
    /// front end follows it with [`TensorOp::carriers`] instructions of [`Op::Operands`] that
    /// name the fragment registers, and the emulator executes the group as one instruction.
    /// `addr` is the matrix address of a load or store and `src[0]` its stride, when given.
    Tensor(super::tensor::TensorOp),
    /// The fragment registers of the preceding [`Op::Tensor`] (sources first, then
    /// destinations, four to an instruction): never executed on its own.
    Operands,
    /// `tex.{1d,2d,3d}.v4.dtype.ctype`: a texture fetch through a texture object
    /// ([`super::texture`]; the fetch is `emu/texture.rs`).
    Tex(super::texture::TexOp),
}

/// Why an [`Op::Trap`] aborts the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrapKind {
    /// A `trap` of the source (`__trap()`, a failed device `assert`).
    User,
    /// The end of an indirect call's comparison chain (`inline.rs`): the called address,
    /// `src[0]`, is the address of no function the call may reach.
    NoFunction,
}

/// A device system call ([`Op::Sys`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SysCall {
    /// `vprintf(fmt, args) -> i32`.
    Vprintf,
    /// `malloc(size) -> ptr`.
    Malloc,
    /// `free(ptr)`.
    Free,
    /// `cudaGraphSetConditional(handle, value)`: sets a CUDA-graph conditional handle of the
    /// running program. A handle is the device address of the 32-bit word that holds its value
    /// (`src/program/`), so the call stores `value` there.
    SetConditional,
}

impl SysCall {
    /// The call of external function `name`, if it is one of these.
    pub fn of(name: &str) -> Option<SysCall> {
        match name {
            "vprintf" => Some(SysCall::Vprintf),
            "malloc" => Some(SysCall::Malloc),
            "free" => Some(SysCall::Free),
            "cudaGraphSetConditional" => Some(SysCall::SetConditional),
            _ => None,
        }
    }

    /// (return parameters, argument parameters) of the call.
    pub fn arity(self) -> (usize, usize) {
        match self {
            SysCall::Vprintf => (1, 2),
            SysCall::Malloc => (1, 1),
            SysCall::Free => (0, 1),
            SysCall::SetConditional => (0, 2),
        }
    }
}

/// The arithmetic of an extended-precision instruction ([`Op::Carry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CarryKind {
    /// a + b (+ CF).
    Add,
    /// a − b (− CF); the flag holds the borrow.
    Sub,
    /// low half of a·b, + c (+ CF).
    MadLo,
    /// high half of a·b, + c (+ CF).
    MadHi,
}

/// A half-precision operation ([`Op::Half`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HalfOp {
    /// a + b.
    Add,
    /// a − b.
    Sub,
    /// a · b.
    Mul,
    /// a · b + c, rounded once.
    Fma,
    /// −a (the sign bit flipped).
    Neg,
    /// |a| (the sign bit cleared).
    Abs,
    /// The smaller of a and b (a NaN operand gives the other; two NaNs the canonical NaN).
    Min,
    /// The larger of a and b (NaNs as for `Min`).
    Max,
    /// `setp.CMP.f16[x2] p[|q], a, b`: compare; for `.f16x2` p is the low and q the high half.
    Setp(Cmp),
}

/// The reduction of `bar.red` ([`Op::BarRed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BarRedOp {
    /// `.popc.u32`: the number of threads whose predicate is true.
    Popc,
    /// `.and.pred`: true when the predicate is true in every thread.
    And,
    /// `.or.pred`: true when the predicate is true in some thread.
    Or,
}

/// Selector mode of `prmt` (PTX ISA, "prmt").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrmtMode {
    /// Default: four 4-bit selectors (bit 3 replicates the sign of the chosen byte).
    Generic,
    /// `.f4e`: forward 4 extract.
    F4e,
    /// `.b4e`: backward 4 extract.
    B4e,
    /// `.rc8`: replicate byte.
    Rc8,
    /// `.ecl`: edge clamp left.
    Ecl,
    /// `.ecr`: edge clamp right.
    Ecr,
    /// `.rc16`: replicate half-word.
    Rc16,
}

/// Property tested by `testp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TestpOp {
    /// `.finite`.
    Finite,
    /// `.infinite`.
    Infinite,
    /// `.number` (not NaN).
    Number,
    /// `.notanumber`.
    NotANumber,
    /// `.normal`.
    Normal,
    /// `.subnormal`.
    Subnormal,
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
    /// Directed rounding of a float `add`/`sub`/`mul`/`fma` (bits 4-5: 1 `.rz`, 2 `.rm`, 3
    /// `.rp`; 0 is round to nearest even).
    pub const RND_SHIFT: u8 = 4;
    /// Mask of the directed-rounding bits.
    pub const RND_MASK: u8 = 3 << RND_SHIFT;
}

/// An operand after decoding. Register numbers are virtual before register allocation and
/// architectural after it (R for 32-bit, the even base of a pair for 64-bit, P for predicates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Opnd {
    /// No operand.
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
    /// 32-bit register holding the address.
    R32(u16),
    /// 64-bit register pair holding the address.
    R64(u16),
    /// Module-scope `.global` variable `idx`.
    Global(u16),
}

/// Memory address operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Addr {
    /// Base register, variable or none.
    pub base: AddrBase,
    /// Byte offset added to the base.
    pub off: i64,
}

/// One decoded static instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inst {
    /// The operation and its type.
    pub op: Op,
    /// Guard predicate and whether it is negated (`@!p`).
    pub guard: Option<(u16, bool)>,
    /// Number of destinations in `dst`.
    pub ndst: u8,
    /// Destinations: registers or predicates (setp `p|q` has two; `ld.v4` four).
    pub dst: [Opnd; 4],
    /// Number of sources in `src`.
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
    /// An instruction of `op` with no guard, operands, address, target or flags.
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

    /// Destinations actually named.
    pub fn dsts(&self) -> &[Opnd] {
        &self.dst[..self.ndst as usize]
    }

    /// Sources actually named.
    pub fn srcs(&self) -> &[Opnd] {
        &self.src[..self.nsrc as usize]
    }

    /// True for `bra`, `ret`, `exit` and the call and return of a recursive function:
    /// instructions that end a basic block.
    pub fn ends_block(&self) -> bool {
        matches!(
            self.op,
            Op::Bra { .. } | Op::Ret | Op::Exit | Op::Call { .. } | Op::Return { .. }
        )
    }

    /// True for memory instructions that carry a data address.
    pub fn is_mem(&self) -> bool {
        matches!(
            self.op,
            Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } | Op::Red { .. }
        )
    }
}
