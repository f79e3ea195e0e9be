//! The SM pipeline's tables of the simulator §6.3 schema: `[rf]` (banked register file),
//! `[opcoll]` (operand collectors), `[units]` (execution units) and `[latency]`.

use serde::{Deserialize, Serialize};

/// `[rf]`: banked register file (§2.4, register-file §2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RfSection {
    /// `rf.n_banks`: register-file banks per SM.
    pub n_banks: u32,
    /// Ports per bank; each does one read or one write per cycle.
    pub ports_per_bank: u32,
    /// Bytes of one entry (one register of one warp): 32 lanes × 4 B = 128.
    pub entry_bytes: u32,
    /// `rf.bank_map`: how a register of a warp maps to a bank.
    pub bank_map: BankMap,
    /// `rf.port_occupancy`: bank-port busy time of a multi-cycle access (register-file spec
    /// §2.3).
    pub port_occupancy: PortOccupancy,
    /// `rf.latency`: cycles from the grant of a register-file read or write until its data is
    /// delivered (1 = the operand is in the collector the next cycle). The register-file
    /// organisation's route may give a different latency per access. Written only when not 1.
    #[serde(default = "one_u32", skip_serializing_if = "is_one_u32")]
    pub latency: u32,
}

fn one_u32() -> u32 {
    1
}

fn is_one_u32(v: &u32) -> bool {
    *v == 1
}

/// Register-to-bank mapping (`rf.bank_map`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BankMap {
    /// bank = (reg + warp) mod B (GPGPU-Sim `register_bank`).
    RegPlusWarp,
    /// bank = reg mod B.
    RegOnly,
}

/// Bank-port occupancy of a multi-cycle register-file access (`rf.port_occupancy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PortOccupancy {
    /// `"full_latency"`: the port is busy for the whole access latency.
    FullLatency,
    /// `"pipelined"`: the port is busy one cycle; data arrives after the latency.
    Pipelined,
}

/// Per collector-unit class counts (`{sp,sfu,mem,dp,int,gen}`); `gen` units serve every class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerCuClass {
    /// Collector units of the SP class.
    pub sp: u32,
    /// Collector units of the SFU class.
    pub sfu: u32,
    /// Collector units of the memory class.
    pub mem: u32,
    /// Collector units of the double-precision class.
    pub dp: u32,
    /// Collector units of the integer class.
    pub int: u32,
    /// General collector units, usable by every class.
    pub gen: u32,
}

/// `[opcoll]`: operand collector units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpcollSection {
    /// `opcoll.units`: collector units per class.
    pub units: PerCuClass,
    /// Issues into the collector class per cycle.
    pub in_ports: PerCuClass,
    /// Dispatches out of the collector class per cycle.
    pub out_ports: PerCuClass,
}

/// `[units]`: execution units (§2.5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitsSection {
    /// SP clusters; each holds an INT and an FP pipe.
    pub n_sp: u32,
    /// `units.n_sfu`: special-function units.
    pub n_sfu: u32,
    /// `units.n_dp`: double-precision units (0: f64 runs where `units.dp_on` says).
    pub n_dp: u32,
    /// Separate INT units (0: INT runs on the SP clusters' INT pipes).
    pub n_int: u32,
    /// `units.n_ldst`: load/store units.
    pub n_ldst: u32,
    /// `units.sp_lanes`: lanes of one SP cluster.
    pub sp_lanes: u32,
    /// `units.sfu_lanes`: lanes of one SFU.
    pub sfu_lanes: u32,
    /// `units.dp_lanes`: lanes of one DP unit.
    pub dp_lanes: u32,
    /// `units.ldst_lanes`: lanes of one load/store unit.
    pub ldst_lanes: u32,
    /// Where f64 runs when `n_dp` = 0 (or by choice).
    pub dp_on: DpOn,
    /// `units.int_on`: where integer instructions run.
    pub int_on: IntOn,
    /// `units.lane_map`: which physical lane serves which thread.
    pub lane_map: LaneMap,
    /// Lanes of one sub-cluster (folding and shifting granularity).
    pub sub_cluster_lanes: u32,
    /// `[units.width]`: pipeline-register widths.
    pub width: PipeWidths,
    /// `units.n_tensor`: tensor cores per SM, spread over the sub-cores like the other units;
    /// they run `wmma.mma` and `mma.sync` (`Family::Tensor`). 0 (every preset so far): the
    /// machine has none, and a kernel with a tensor instruction is refused naming this key.
    /// For reference, the NVIDIA Tesla V100 white paper (2017) gives 8 tensor cores per Volta
    /// SM (640 on 80 SMs), 2 per sub-core; the A100 white paper (2020) 4 per Ampere SM. Written
    /// only when not 0.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub n_tensor: u32,
    /// `units.tensor_macs_per_cycle`: multiply-accumulates one tensor core completes per core
    /// cycle (f16 and bf16 inputs alike). A warp-wide product of M·N·K MACs occupies its core
    /// for ⌈M·N·K / this⌉ cycles (`timing/exec.rs`, `tensor_class`). 64 by default: the V100
    /// white paper's "each Tensor Core performs 64 floating point FMA mixed-precision
    /// operations per clock" (a Volta m16n16k16 of 4096 MACs: 64 cycles on one core); the A100
    /// white paper gives 256 dense f16 FMA per clock per Ampere tensor core. Written only when
    /// not 64.
    #[serde(
        default = "default_tensor_macs",
        skip_serializing_if = "is_default_tensor_macs"
    )]
    pub tensor_macs_per_cycle: u32,
}

pub(crate) fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

fn default_tensor_macs() -> u32 {
    64
}

fn is_default_tensor_macs(v: &u32) -> bool {
    *v == default_tensor_macs()
}

/// Unit that runs double-precision instructions (`units.dp_on`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DpOn {
    /// On the DP units.
    Dp,
    /// On the SFUs.
    Sfu,
    /// On the SP clusters.
    Sp,
}

/// Unit that runs integer instructions (`units.int_on`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntOn {
    /// On the SP clusters' INT pipes.
    Sp,
    /// On the separate INT units.
    Int,
}

/// Thread-to-lane mapping of a unit (`units.lane_map`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LaneMap {
    /// Lane p serves thread p.
    Identity,
    /// Fermi: 16 physical lanes, lane p serves threads p and p + 16.
    DoublePumped16,
}

/// Per pipeline-class widths `(sp, dp, int, sfu, mem)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerPipe {
    /// Slots for the SP class.
    pub sp: u32,
    /// Slots for the double-precision class.
    pub dp: u32,
    /// Slots for the integer class.
    pub int: u32,
    /// Slots for the SFU class.
    pub sfu: u32,
    /// Slots for the memory class.
    pub mem: u32,
}

/// `[units.width]`: pipeline-register widths ID_OC, OC_EX and EX_WB.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PipeWidths {
    /// `units.width.id_oc`: issue-to-operand-collector register slots per class.
    pub id_oc: PerPipe,
    /// `units.width.oc_ex`: operand-collector-to-execute register slots per class.
    pub oc_ex: PerPipe,
    /// Results written back per cycle.
    pub ex_wb: u32,
}

/// `[latency, ii]` of one opcode class.
pub type LatII = [u32; 2];

/// `[latency]`: per-class latency and initiation interval in core cycles (§1.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LatencySection {
    /// `latency.int`: integer opcodes.
    pub int: IntLatency,
    /// `latency.fp`: single-precision opcodes.
    pub fp: FpLatency,
    /// `latency.dp`: double-precision opcodes.
    pub dp: FpLatency,
    /// `[latency, ii]` in core cycles of sqrt, rsqrt, rcp, sin, cos, ex2 and lg2.
    pub sfu: LatII,
    /// `latency.tensor`: `[latency, ii]` in core cycles of a tensor-core product beyond its
    /// multiply-accumulate passes: a product of P = ⌈M·N·K / units.tensor_macs_per_cycle⌉
    /// passes is accepted again after max(ii, P) cycles and delivers its result
    /// latency + (P − ii)⁺ cycles after it was accepted (the rule `units.*_lanes` passes
    /// follow). `[1, 1]` by default: the passes alone. Written only when not `[1, 1]`.
    #[serde(
        default = "default_tensor_lat",
        skip_serializing_if = "is_default_tensor_lat"
    )]
    pub tensor: LatII,
    /// `[latency.trace]`: per-unit latencies for trace mode. Not read: traces use the classes
    /// above.
    pub trace: TraceLatency,
}

fn default_tensor_lat() -> LatII {
    [1, 1]
}

fn is_default_tensor_lat(v: &LatII) -> bool {
    *v == default_tensor_lat()
}

/// `[latency.int]`: integer `[latency, ii]` pairs in core cycles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntLatency {
    /// `[latency, ii]` in core cycles of add and every integer operation without a key of
    /// its own.
    pub add: LatII,
    /// `[latency, ii]` in core cycles of min and max.
    pub max: LatII,
    /// `[latency, ii]` in core cycles of mul.
    pub mul: LatII,
    /// `[latency, ii]` in core cycles of mad.
    pub mad: LatII,
    /// `[latency, ii]` in core cycles of div and rem.
    pub div: LatII,
    /// `[latency, ii]` in core cycles of shfl.
    pub shfl: LatII,
}

/// `[latency.fp]` and `[latency.dp]`: floating-point `[latency, ii]` pairs in core cycles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FpLatency {
    /// `[latency, ii]` in core cycles of add and every operation without a key of its own.
    pub add: LatII,
    /// `[latency, ii]` in core cycles of min and max.
    pub max: LatII,
    /// `[latency, ii]` in core cycles of mul.
    pub mul: LatII,
    /// `[latency, ii]` in core cycles of mad and fma.
    pub mad: LatII,
    /// `[latency, ii]` in core cycles of div.
    pub div: LatII,
}

/// `[latency.trace]`: per-unit latencies used in trace mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceLatency {
    /// `[latency, ii]` in core cycles of SASS integer instructions.
    pub int: LatII,
    /// `[latency, ii]` in core cycles of SASS single-precision instructions.
    pub sp: LatII,
    /// `[latency, ii]` in core cycles of SASS double-precision instructions.
    pub dp: LatII,
    /// `[latency, ii]` in core cycles of SASS MUFU instructions.
    pub sfu: LatII,
    /// FP16 pair instructions (HADD2, HFMA2, HMUL2) take half the SP II. Not modelled
    /// (`UNREAD_KEYS`).
    pub fp16_ii_halved: bool,
}
