//! The dynamic warp instruction: the one record that both front ends (the PTX emulator and the
//! Accel-Sim trace reader) produce and the timing model consumes (simulator §3).
//!
//! The record is fixed-size and allocation-free so that streams of tens of millions of
//! instructions cost no heap traffic: memory addresses live inline, one per lane.

use serde::{Deserialize, Serialize};

/// Maximum destination registers one instruction may name (64-bit pairs, `.v2`/`.v4` loads).
pub const MAX_DST: usize = 4;
/// Maximum source registers one instruction may name (SASS lines carry up to 5).
pub const MAX_SRC: usize = 5;
/// Threads per warp.
pub const WARP_SIZE: usize = 32;

/// Execution family of an instruction: which pipeline it occupies (spec §3.1.4, §3.2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Family {
    /// Integer pipe of an SP cluster.
    Int,
    /// Single-precision FP pipe of an SP cluster.
    Fp,
    /// Double-precision unit (or wherever `dp_on` maps it).
    Dp,
    /// Special-function unit (transcendentals and every DIV/REM).
    Sfu,
    /// Load/store unit (ld, st, atom, red, membar).
    Mem,
    /// Control flow (bra, ret, exit); runs on the INT pipe.
    Ctrl,
    /// CTA barrier (`bar.sync`, SASS `BAR`).
    Bar,
    /// Tensor core: warp-wide matrix multiply-accumulate (`wmma.mma`, `mma.sync`; SASS
    /// `HMMA`). Its fragment loads and stores (`wmma.load`/`wmma.store`, `ldmatrix`) are
    /// [`Family::Mem`].
    Tensor,
}

/// Operation class within a family; selects latency/II (spec §1.2) and the `exec.*.<class>`
/// counters (spec §5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum OpClass {
    /// Add, subtract, absolute value, negate (`add`/`sub`/`abs`/`neg`; FADD, IADD3, DADD, ...).
    Add,
    /// Minimum and maximum (`min`/`max`; FMNMX, IMNMX, DMNMX).
    Max,
    /// Multiply (`mul`; FMUL, IMUL, DMUL).
    Mul,
    /// Multiply-add (`mad`/`fma`; FFMA, IMAD, DFMA).
    Mad,
    /// Divide and remainder (`div`/`rem`; MUFU.DIV).
    Div,
    /// Warp shuffle (SASS SHFL).
    Shfl,
    /// Type conversion (`cvt`; F2F, F2I, I2F, I2I).
    Cvt,
    /// Move and select (`mov`/`selp`; MOV, SEL, S2R, ...).
    Mov,
    /// Bitwise logic, shifts and bit counts (`and`/`or`/`shl`/`popc`; LOP3, SHF, POPC, ...).
    Logic,
    /// Compare to a predicate (`setp`; FSETP, ISETP, DSETP).
    Setp,
    /// Sine (`sin`; MUFU.SIN).
    Sin,
    /// Cosine (`cos`; MUFU.COS).
    Cos,
    /// Base-2 exponential (`ex2`; MUFU.EX2).
    Ex2,
    /// Base-2 logarithm (`lg2`; MUFU.LG2).
    Lg2,
    /// Reciprocal square root (`rsqrt`; MUFU.RSQ).
    Rsqrt,
    /// Reciprocal (`rcp`; MUFU.RCP).
    Rcp,
    /// Square root (`sqrt`; MUFU.SQRT).
    Sqrt,
    /// Memory load (`ld`; LDG, LDS, LDL, LDC, LD).
    Load,
    /// Memory store (`st`; STG, STS, STL, ST).
    Store,
    /// Atomic read-modify-write with a result (`atom`; ATOM, ATOMG, ATOMS).
    Atomic,
    /// Reduction: read-modify-write without a result (`red`; RED).
    Reduction,
    /// Memory fence (`membar`; MEMBAR).
    Membar,
    /// Branch (`bra`; BRA, SSY, BSYNC, CALL, ...).
    Branch,
    /// End of the thread (`exit`/`ret`; EXIT, RET, KILL).
    Exit,
    /// CTA barrier (`bar.sync`; BAR).
    Barrier,
    /// No operation (NOP, DEPBAR, WARPSYNC, ...).
    Nop,
    /// Tensor-core product of 1024 multiply-accumulates on f16 inputs (m16n8k8; HMMA.1688).
    MmaF16Macs1024,
    /// Tensor-core product of 2048 MACs on f16 inputs (m16n8k16; HMMA.16816).
    MmaF16Macs2048,
    /// Tensor-core product of 4096 MACs on f16 inputs (`wmma` m16n16k16, m32n8k16, m8n32k16).
    MmaF16Macs4096,
    /// Tensor-core product of 1024 MACs on bf16 inputs.
    MmaBf16Macs1024,
    /// Tensor-core product of 2048 MACs on bf16 inputs (m16n8k16).
    MmaBf16Macs2048,
    /// Tensor-core product of 4096 MACs on bf16 inputs (`wmma` m16n16k16, ...).
    MmaBf16Macs4096,
}

impl OpClass {
    /// A tensor-core product's multiply-accumulates (M·N·K, for a full warp) and whether its
    /// inputs are bf16 (else f16); `None` for every other class.
    pub fn mma(self) -> Option<(u32, bool)> {
        Some(match self {
            OpClass::MmaF16Macs1024 => (1024, false),
            OpClass::MmaF16Macs2048 => (2048, false),
            OpClass::MmaF16Macs4096 => (4096, false),
            OpClass::MmaBf16Macs1024 => (1024, true),
            OpClass::MmaBf16Macs2048 => (2048, true),
            OpClass::MmaBf16Macs4096 => (4096, true),
            _ => return None,
        })
    }

    /// The tensor-core class of a product of `macs` multiply-accumulates (1024, 2048 or
    /// 4096) on bf16 (`bf16`) or f16 inputs; `None` for another count.
    pub fn of_mma(macs: u64, bf16: bool) -> Option<OpClass> {
        Some(match (macs, bf16) {
            (1024, false) => OpClass::MmaF16Macs1024,
            (2048, false) => OpClass::MmaF16Macs2048,
            (4096, false) => OpClass::MmaF16Macs4096,
            (1024, true) => OpClass::MmaBf16Macs1024,
            (2048, true) => OpClass::MmaBf16Macs2048,
            (4096, true) => OpClass::MmaBf16Macs4096,
            _ => return None,
        })
    }
}

/// Number of `OpClass` variants (for dense per-class counters).
pub const N_OPS: usize = 32;

/// All op classes in index order.
pub const ALL_OPS: [OpClass; N_OPS] = [
    OpClass::Add,
    OpClass::Max,
    OpClass::Mul,
    OpClass::Mad,
    OpClass::Div,
    OpClass::Shfl,
    OpClass::Cvt,
    OpClass::Mov,
    OpClass::Logic,
    OpClass::Setp,
    OpClass::Sin,
    OpClass::Cos,
    OpClass::Ex2,
    OpClass::Lg2,
    OpClass::Rsqrt,
    OpClass::Rcp,
    OpClass::Sqrt,
    OpClass::Load,
    OpClass::Store,
    OpClass::Atomic,
    OpClass::Reduction,
    OpClass::Membar,
    OpClass::Branch,
    OpClass::Exit,
    OpClass::Barrier,
    OpClass::Nop,
    OpClass::MmaF16Macs1024,
    OpClass::MmaF16Macs2048,
    OpClass::MmaF16Macs4096,
    OpClass::MmaBf16Macs1024,
    OpClass::MmaBf16Macs2048,
    OpClass::MmaBf16Macs4096,
];

/// Memory state space of a memory instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum MemSpace {
    /// Device memory (`.global`; LDG/STG).
    Global,
    /// Per-CTA shared memory (`.shared`; LDS/STS).
    Shared,
    /// Per-thread local memory (`.local`; LDL/STL).
    Local,
    /// Constant memory (`.const`; LDC).
    Const,
    /// Kernel parameters (`.param`), read through the constant path.
    Param,
    /// Texels of a texture fetch (`tex`; TEX): one texel per lane, read through the texture
    /// cache or, with a unified L1 (`l1d.unified_kb`), through the L1D.
    Texture,
}

/// A register operand: architectural register number after allocation (spec §3.1.5).
/// `R0..R254` are general registers; predicates are `PRED_BASE + p`. `RZ` (255) never appears.
pub type Reg = u16;
/// First predicate register number (P0).
pub const PRED_BASE: Reg = 256;
/// Predicate registers per thread (P0…P15). nvcc's PTX at `-O3` keeps up to 16 predicates live
/// at once (Rodinia's nw and myocyte); each is one 32-bit lane mask in the warp state.
pub const PRED_REGS: usize = 16;

/// Memory part of a memory instruction: one address per lane (0 for inactive lanes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemInfo {
    /// State space accessed.
    pub space: MemSpace,
    /// Bytes accessed per thread (1, 2, 4, 8, 16).
    pub width_bytes: u8,
    /// Per-lane byte address; lanes outside `WarpInst::active_mask` hold 0. For
    /// [`MemSpace::Local`], the address within the thread's own local memory (the same for
    /// every thread); the timing model places it in device memory
    /// (`timing::localmem::LocalLayout`).
    pub addrs: [u64; WARP_SIZE],
}

/// One dynamic warp instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpInst {
    /// Byte offset of the instruction within its kernel (PTX: 8 bytes per instruction; SASS: 16).
    pub pc: u32,
    /// Pipeline family.
    pub family: Family,
    /// Operation class within the family.
    pub op: OpClass,
    /// Lanes that execute: active in the SIMT stack **and** guard true (bit i = lane i).
    /// A mask of 0 is legal: issued with every lane predicated off.
    pub active_mask: u32,
    /// Reconvergence PC when this is a divergent branch, else `None`.
    pub reconv_pc: Option<u32>,
    /// Number of destination registers in `dst`.
    pub n_dst: u8,
    /// Destination registers; the first `n_dst` are valid.
    pub dst: [Reg; MAX_DST],
    /// Number of source registers in `src`.
    pub n_src: u8,
    /// Source registers; the first `n_src` are valid.
    pub src: [Reg; MAX_SRC],
    /// Present exactly for memory instructions with a data access (not membar).
    pub mem: Option<MemInfo>,
}

impl WarpInst {
    /// A record with no operands and no memory part.
    pub fn new(pc: u32, family: Family, op: OpClass, active_mask: u32) -> Self {
        WarpInst {
            pc,
            family,
            op,
            active_mask,
            reconv_pc: None,
            n_dst: 0,
            dst: [0; MAX_DST],
            n_src: 0,
            src: [0; MAX_SRC],
            mem: None,
        }
    }

    /// Destination registers actually named.
    pub fn dsts(&self) -> &[Reg] {
        &self.dst[..self.n_dst as usize]
    }

    /// Source registers actually named.
    pub fn srcs(&self) -> &[Reg] {
        &self.src[..self.n_src as usize]
    }

    /// Number of lanes that execute.
    pub fn lanes(&self) -> u32 {
        self.active_mask.count_ones()
    }
}
