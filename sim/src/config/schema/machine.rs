//! `[sim]` (run control), `[gpu]` (chip-level parameters), `[sm]` (per-SM resources) and
//! `[frontend]` (fetch, decode and the I-buffer) of the simulator §6.3 schema.

use serde::{Deserialize, Serialize};

/// `[sim]`: run control.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimSection {
    /// Seed of every counter-based random stream (keyed by (seed, component id)).
    pub seed: u64,
    /// Host threads for intra-simulation parallelism (1 = serial, the default).
    pub threads: u32,
    /// Stop cleanly after this many core cycles (0 = no limit); output is marked truncated.
    pub max_cycles: u64,
    /// Stop cleanly after this many warp instructions (0 = no limit).
    pub max_warp_insts: u64,
    /// Front end: execution-driven PTX or Accel-Sim traces.
    pub frontend: Frontend,
    /// Trace directory (`kernelslist.g`) for `frontend = "trace"`; empty otherwise.
    pub trace_path: String,
    /// Names of kernels to simulate with timing (empty = all).
    pub kernels: Vec<String>,
    /// Launch even when a CTA does not fit (occupancy 0 becomes 1).
    pub ignore_resource_limits: bool,
    /// Jump over cycles in which nothing can progress (§2.1); results are identical either way.
    pub cycle_skipping: bool,
}

/// `sim.frontend`: where the instruction stream comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Frontend {
    /// `"ptx"`: execution-driven; PTX kernels are emulated functionally.
    Ptx,
    /// `"trace"`: Accel-Sim SASS traces read from `sim.trace_path`.
    Trace,
}

/// `[gpu]`: chip-level parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuSection {
    /// Preset or user name of the machine.
    pub name: String,
    /// Streaming multiprocessors.
    pub n_sm: u32,
    /// `gpu.core_mhz`: SM (core) clock in MHz.
    pub core_mhz: f64,
    /// `gpu.icnt_mhz`: interconnect clock in MHz.
    pub icnt_mhz: f64,
    /// `gpu.l2_mhz`: L2 clock in MHz.
    pub l2_mhz: f64,
    /// DRAM command clock.
    pub dram_mhz: f64,
    /// `gpu.warp_size`: threads per warp (must be 32).
    pub warp_size: u32,
    /// Core cycles between kernels.
    pub kernel_launch_latency: u64,
    /// Core cycles from CTA placement until its warps may fetch.
    pub cta_launch_latency: u64,
}

/// `[sm]`: per-SM resources (occupancy limits, analytical-model §2.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmSection {
    /// `sm.max_threads`: resident threads per SM.
    pub max_threads: u32,
    /// `sm.max_warps`: resident warps per SM (at most 256).
    pub max_warps: u32,
    /// CTA slots (N1 of the analytical model).
    pub max_ctas: u32,
    /// 32-bit registers per SM (one RF entry holds one register of one warp: 32 of them).
    pub n_registers: u32,
    /// regs/thread are rounded up to a multiple of this [Cdef: 4].
    pub reg_alloc_granularity: u32,
    /// Shared memory per SM, bytes.
    pub shmem_bytes: u32,
    /// Largest shared-memory allocation of one CTA, bytes.
    pub shmem_per_cta: u32,
    /// `sm.max_barriers_per_cta`: named barriers one CTA may use. Not modelled (`UNREAD_KEYS`).
    pub max_barriers_per_cta: u32,
    /// Sub-cores (1 = none): schedulers, RF banks and SP units are split evenly.
    pub n_subcores: u32,
    /// With fewer than max_cta·n_sm blocks, use max_cta = ceil(blocks / n_sm).
    pub balance_ctas: bool,
}

/// `[frontend]`: fetch, decode and the I-buffer (§2.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrontendSection {
    /// Consecutive instructions per fetch.
    pub fetch_width: u32,
    /// Fetches per SM per cycle, each for a different warp.
    pub fetch_throughput: u32,
    /// I-buffer entries per warp.
    pub ibuffer_entries: u32,
    /// Every fetch hits.
    pub perfect_icache: bool,
}
