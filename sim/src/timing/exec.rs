//! Execution classes: which unit an instruction needs, its latency and initiation interval
//! (simulator §1.2, §2.5, §3.1.4), and the passes a unit narrower than a warp needs
//! ([`warp_passes`]).

use crate::config::{DpOn, GpuConfig, IntOn, LaneMap, LatII};
use crate::inst::WARP_SIZE;
use crate::inst::{Family, OpClass, WarpInst};

/// Pipeline class of an instruction after `dp_on`/`int_on` mapping; indexes ID_OC/OC_EX widths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PipeClass {
    /// An SP cluster (`units.n_sp`): its INT or FP pipe, per [`ExecClass::sp_pipe`].
    Sp,
    /// A double-precision unit (`units.n_dp`).
    Dp,
    /// A separate INT unit (`units.n_int`, with `units.int_on = "int"`).
    Int,
    /// A special-function unit (`units.n_sfu`): transcendentals, every DIV, and f64 where
    /// `units.dp_on` puts it.
    Sfu,
    /// The LD/ST unit (`units.n_ldst`): ld, st, atom, red, membar.
    Mem,
    /// A tensor core (`units.n_tensor`): `wmma.mma`, `mma.sync` (SASS HMMA).
    Tensor,
    /// `bar.sync`: needs only an issue slot.
    None,
}

impl PipeClass {
    /// The classes that own execution units, in [`PipeClass::index`] order (`None` excluded).
    pub const ALL: [PipeClass; 6] = [
        PipeClass::Sp,
        PipeClass::Dp,
        PipeClass::Int,
        PipeClass::Sfu,
        PipeClass::Mem,
        PipeClass::Tensor,
    ];
    /// Dense index: Sp 0, Dp 1, Int 2, Sfu 3, Mem 4, None 5, Tensor 6 (the classes before
    /// tensor cores keep their indices, which the out-of-order issue stages' per-class
    /// counters use).
    pub fn index(self) -> usize {
        match self {
            PipeClass::Sp => 0,
            PipeClass::Dp => 1,
            PipeClass::Int => 2,
            PipeClass::Sfu => 3,
            PipeClass::Mem => 4,
            PipeClass::None => 5,
            PipeClass::Tensor => 6,
        }
    }
}

/// Which pipe of an SP cluster an op occupies (timelines are per pipe).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpPipe {
    /// The integer pipe: INT ops and control flow.
    Int,
    /// The floating-point pipe: FP32 ops, and f64 ops where `units.dp_on = "sp"`.
    Fp,
}

/// Upper-case op-class name used in `exec.*.<class>` counters.
pub fn op_name(op: OpClass) -> &'static str {
    match op {
        OpClass::Add => "ADD",
        OpClass::Max => "MAX",
        OpClass::Mul => "MUL",
        OpClass::Mad => "MAD",
        OpClass::Div => "DIV",
        OpClass::Shfl => "SHFL",
        OpClass::Cvt => "CVT",
        OpClass::Mov => "MOV",
        OpClass::Logic => "LOGIC",
        OpClass::Setp => "SETP",
        OpClass::Sin => "SIN",
        OpClass::Cos => "COS",
        OpClass::Ex2 => "EX2",
        OpClass::Lg2 => "LG2",
        OpClass::Rsqrt => "RSQRT",
        OpClass::Rcp => "RCP",
        OpClass::Sqrt => "SQRT",
        OpClass::Load => "LOAD",
        OpClass::Store => "STORE",
        OpClass::Atomic => "ATOMIC",
        OpClass::Reduction => "REDUCTION",
        OpClass::Membar => "MEMBAR",
        OpClass::Branch => "BRANCH",
        OpClass::Exit => "EXIT",
        OpClass::Barrier => "BARRIER",
        OpClass::Nop => "NOP",
        OpClass::MmaF16Macs1024 => "MMA_F16_1024",
        OpClass::MmaF16Macs2048 => "MMA_F16_2048",
        OpClass::MmaF16Macs4096 => "MMA_F16_4096",
        OpClass::MmaBf16Macs1024 => "MMA_BF16_1024",
        OpClass::MmaBf16Macs2048 => "MMA_BF16_2048",
        OpClass::MmaBf16Macs4096 => "MMA_BF16_4096",
    }
}

pub use crate::inst::{ALL_OPS, N_OPS};

/// Decoded timing class of one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExecClass {
    /// Unit class the instruction needs.
    pub pipe: PipeClass,
    /// For `Sp`/`Int` pipes: the INT or FP pipe of the cluster.
    pub sp_pipe: SpPipe,
    /// Latency in core cycles from dispatch to result (≥ 1; 1 for `Mem` and `None`, whose time
    /// the LD/ST unit and the barrier logic model).
    pub latency: u32,
    /// Initiation interval in core cycles: the unit accepts its next instruction this much later
    /// (≥ 1).
    pub ii: u32,
}

fn is_sfu_op(op: OpClass) -> bool {
    matches!(
        op,
        OpClass::Sin
            | OpClass::Cos
            | OpClass::Ex2
            | OpClass::Lg2
            | OpClass::Rsqrt
            | OpClass::Rcp
            | OpClass::Sqrt
    )
}

fn int_lat(cfg: &GpuConfig, op: OpClass) -> LatII {
    let l = &cfg.latency.int;
    match op {
        OpClass::Max => l.max,
        OpClass::Mul => l.mul,
        OpClass::Mad => l.mad,
        OpClass::Div => l.div,
        OpClass::Shfl => l.shfl,
        _ => l.add,
    }
}

fn fp_lat(l: &crate::config::FpLatency, op: OpClass) -> LatII {
    match op {
        OpClass::Max => l.max,
        OpClass::Mul => l.mul,
        OpClass::Mad => l.mad,
        OpClass::Div => l.div,
        _ => l.add,
    }
}

/// Passes a unit of class `pipe` makes over its lanes to serve one warp instruction.
///
/// A unit of L lanes executes the 32 threads of a warp in P = ⌈32/L⌉ passes, one pass per
/// core cycle: lane p serves threads p, p + L, p + 2L, …. With `units.lane_map =
/// "DoublePumped16"` (Fermi) the lanes of an SP cluster run at twice the core clock, so the
/// cluster completes two passes per core cycle: P = ⌈16/L⌉, and a 16-lane cluster serves a warp
/// per core cycle (simulator §1.1 "2 × 16, double-pumped, 1 warp/cycle each", §2.5 "Lane map").
/// The double pumping applies to the units whose width is `units.sp_lanes` (SP clusters and
/// separate INT units); SFU, DP and LD/ST lanes run at the core clock (the GTX480 SFU's table
/// II of 8 is exactly ⌈32/4⌉ for its 4 lanes). `bar.sync` needs no lanes: 1.
///
/// For the LD/ST unit P is the number of address-generation cycles before its first request
/// (see `LdstUnit::accept`). `units.*_lanes` is validated to 1..=32 when a configuration
/// loads; a value of 0 is read as 1 here so that no caller divides by zero.
pub fn warp_passes(cfg: &GpuConfig, pipe: PipeClass) -> u32 {
    let u = &cfg.units;
    let warp = WARP_SIZE as u32;
    let (lanes, threads_per_lane_cycle) = match pipe {
        PipeClass::Sp | PipeClass::Int => (
            u.sp_lanes,
            match u.lane_map {
                LaneMap::Identity => 1,
                LaneMap::DoublePumped16 => 2,
            },
        ),
        PipeClass::Sfu => (u.sfu_lanes, 1),
        PipeClass::Dp => (u.dp_lanes, 1),
        PipeClass::Mem => (u.ldst_lanes, 1),
        // a tensor core's passes count multiply-accumulates, not lanes (`tensor_class`)
        PipeClass::Tensor | PipeClass::None => return 1,
    };
    warp.div_ceil(lanes.max(1) * threads_per_lane_cycle)
}

/// The class of a tensor-core product of operation class `op` (which names its
/// multiply-accumulates, [`OpClass::mma`]): P = ⌈MACs / `units.tensor_macs_per_cycle`⌉ passes
/// through one tensor core, so with `latency.tensor` = [L, II] the core accepts its next
/// product after max(II, P) cycles and the result is ready L + (P − II)⁺ cycles after accept —
/// the rule [`classify_op`] applies to a unit narrower than a warp, with MACs for lanes.
pub fn tensor_class(cfg: &GpuConfig, op: OpClass) -> ExecClass {
    let macs = op.mma().map_or(0, |(m, _)| m);
    let passes = macs.div_ceil(cfg.units.tensor_macs_per_cycle.max(1)).max(1);
    let [lat, ii] = cfg.latency.tensor;
    let (lat, ii) = (lat.max(1), ii.max(1));
    ExecClass {
        pipe: PipeClass::Tensor,
        sp_pipe: SpPipe::Fp,
        latency: lat + passes.saturating_sub(ii),
        ii: ii.max(passes),
    }
}

/// Classifies `inst` for the configured machine (PTX mode latencies).
pub fn classify(cfg: &GpuConfig, inst: &WarpInst) -> ExecClass {
    classify_op(cfg, inst.family, inst.op)
}

/// Classifies an instruction of `family` and operation class `op`.
///
/// The latency table (`[latency]`, simulator §1.2) gives (latency, II) for a unit as the preset
/// describes it. The unit's lane count then bounds the initiation interval: with P passes per
/// warp ([`warp_passes`]) the unit accepts its next instruction after II_eff = max(II, P)
/// cycles, and the result is the last pass's, `latency + (P − II)⁺` cycles after accept. A
/// table whose II already states the lane limit (GTX480 SFU: 4 lanes, II 8) is unchanged; a
/// unit of 32 lanes (or a double-pumped 16-lane SP cluster) has P = 1 and is unchanged. The
/// LD/ST class keeps (1, 1): the LD/ST unit models its own passes (address generation,
/// one request per cycle).
pub fn classify_op(cfg: &GpuConfig, family: Family, op: OpClass) -> ExecClass {
    let int_pipe = match cfg.units.int_on {
        IntOn::Sp => PipeClass::Sp,
        IntOn::Int if cfg.units.n_int > 0 => PipeClass::Int,
        IntOn::Int => PipeClass::Sp,
    };
    let dp_pipe = match cfg.units.dp_on {
        DpOn::Dp if cfg.units.n_dp > 0 => PipeClass::Dp,
        DpOn::Dp | DpOn::Sfu => PipeClass::Sfu,
        DpOn::Sp => PipeClass::Sp,
    };
    let unlisted = cfg.compat.unlisted_opcode_latency;
    let (pipe, sp_pipe, [lat, ii]) = match family {
        Family::Bar => (PipeClass::None, SpPipe::Int, [1, 1]),
        Family::Mem => (PipeClass::Mem, SpPipe::Int, [1, 1]),
        Family::Ctrl => (int_pipe, SpPipe::Int, cfg.latency.int.add),
        Family::Sfu => (PipeClass::Sfu, SpPipe::Fp, cfg.latency.sfu),
        Family::Int if op == OpClass::Div => (PipeClass::Sfu, SpPipe::Int, cfg.latency.int.div),
        Family::Int => (int_pipe, SpPipe::Int, int_lat(cfg, op)),
        Family::Fp if op == OpClass::Div => (PipeClass::Sfu, SpPipe::Fp, cfg.latency.fp.div),
        Family::Fp if is_sfu_op(op) => (PipeClass::Sfu, SpPipe::Fp, cfg.latency.sfu),
        Family::Fp => (PipeClass::Sp, SpPipe::Fp, fp_lat(&cfg.latency.fp, op)),
        Family::Dp if op == OpClass::Div => (PipeClass::Sfu, SpPipe::Fp, cfg.latency.dp.div),
        Family::Dp => (dp_pipe, SpPipe::Fp, fp_lat(&cfg.latency.dp, op)),
        Family::Tensor => return tensor_class(cfg, op),
    };
    let (lat, ii) = if unlisted > 0
        && matches!(
            op,
            OpClass::Mov
                | OpClass::Cvt
                | OpClass::Logic
                | OpClass::Setp
                | OpClass::Branch
                | OpClass::Exit
                | OpClass::Nop
        )
        && !matches!(family, Family::Mem | Family::Bar)
    {
        (unlisted, 1)
    } else {
        (lat, ii)
    };
    let (lat, ii) = (lat.max(1), ii.max(1));
    let (lat, ii) = match pipe {
        PipeClass::Mem | PipeClass::None => (lat, ii),
        _ => {
            let passes = warp_passes(cfg, pipe);
            (lat + passes.saturating_sub(ii), ii.max(passes))
        }
    };
    ExecClass {
        pipe,
        sp_pipe,
        latency: lat,
        ii,
    }
}
