//! The TOML schema of spec simulator.md §6.3 as serde structs.
//!
//! Every table and every key is documented with its meaning; tags in brackets name the source of
//! the preset values (see the spec): `[G]` marks a gpuenergy choice that is a knob.

use serde::{Deserialize, Serialize};

/// The whole machine and simulation configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuConfig {
    pub sim: SimSection,
    pub gpu: GpuSection,
    pub sm: SmSection,
    pub frontend: FrontendSection,
    pub sched: SchedSection,
    pub rf: RfSection,
    pub opcoll: OpcollSection,
    pub units: UnitsSection,
    pub latency: LatencySection,
    pub compat: CompatSection,
    pub icache: CacheConfig,
    pub l1d: L1dConfig,
    pub const_cache: CacheConfig,
    pub tex_cache: CacheConfig,
    pub l2: L2Config,
    pub shmem: ShmemSection,
    pub mem: MemSection,
    pub icnt: IcntSection,
    pub dram: DramSection,
    pub trace: TraceSection,
    pub stats: StatsSection,
    pub hooks: HooksSection,
}

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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Frontend {
    Ptx,
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
    pub core_mhz: f64,
    pub icnt_mhz: f64,
    pub l2_mhz: f64,
    /// DRAM command clock.
    pub dram_mhz: f64,
    pub warp_size: u32,
    /// Core cycles between kernels.
    pub kernel_launch_latency: u64,
    /// Core cycles from CTA placement until its warps may fetch.
    pub cta_launch_latency: u64,
}

/// `[sm]`: per-SM resources (occupancy limits, analytical-model.md §2.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmSection {
    pub max_threads: u32,
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

/// `[sched]`: warp schedulers (§2.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchedSection {
    /// Schedulers per SM; warp slot w belongs to scheduler w mod n_per_sm.
    pub n_per_sm: u32,
    /// Instructions one scheduler may issue per cycle (over all its warps).
    pub issue_per_sched: u32,
    /// Instructions one warp may issue per cycle.
    pub max_issue_per_warp: u32,
    /// A second instruction of the same warp in one cycle must go to a different unit class.
    pub dual_issue_diff_units: bool,
    /// Keep pending-read counters and stall on WAR hazards (issue-stage.md §1.2).
    pub war_scoreboard: bool,
    pub policy: SchedPolicy,
    /// Group size g of the fetch-group policy.
    pub fetch_group_size: u32,
    pub two_level: TwoLevelSection,
    pub ooo: OooSection,
}

/// Inter-warp scheduling policy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum SchedPolicy {
    Lrr,
    Gto,
    Oldest,
    Youngest,
    FetchGroup,
    TwoLevel,
    /// A policy registered in code under this name (`plugin:<name>`).
    Plugin(String),
}

impl SchedPolicy {
    pub fn parse(s: &str) -> Option<SchedPolicy> {
        Some(match s {
            "lrr" => SchedPolicy::Lrr,
            "gto" => SchedPolicy::Gto,
            "oldest" => SchedPolicy::Oldest,
            "youngest" => SchedPolicy::Youngest,
            "fetch_group" => SchedPolicy::FetchGroup,
            "two_level" | "two-level" => SchedPolicy::TwoLevel,
            _ => match s.strip_prefix("plugin:") {
                Some(n) if !n.is_empty() => SchedPolicy::Plugin(n.to_string()),
                _ => return None,
            },
        })
    }
}

impl TryFrom<String> for SchedPolicy {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        SchedPolicy::parse(&s).ok_or_else(|| {
            format!(
                "unknown scheduler policy '{s}' (expected lrr, gto, oldest, youngest, \
                 fetch_group, two_level or plugin:<name>)"
            )
        })
    }
}

impl From<SchedPolicy> for String {
    fn from(p: SchedPolicy) -> String {
        match p {
            SchedPolicy::Lrr => "lrr".into(),
            SchedPolicy::Gto => "gto".into(),
            SchedPolicy::Oldest => "oldest".into(),
            SchedPolicy::Youngest => "youngest".into(),
            SchedPolicy::FetchGroup => "fetch_group".into(),
            SchedPolicy::TwoLevel => "two_level".into(),
            SchedPolicy::Plugin(n) => format!("plugin:{n}"),
        }
    }
}

/// `[sched.two_level]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TwoLevelSection {
    /// Active-set size per scheduler (A) [C2 commented line: 6].
    pub active_per_sched: u32,
    pub inner: InnerPolicy,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InnerPolicy {
    Lrr,
    Gto,
}

/// `[sched.ooo]`: out-of-order issue variant (issue-stage.md); the baseline is `none`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OooSection {
    pub mode: OooMode,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OooMode {
    None,
    Socgpu,
    Loog,
}

/// `[rf]`: banked register file (§2.4, register-file.md §2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RfSection {
    pub n_banks: u32,
    /// Ports per bank; each does one read or one write per cycle.
    pub ports_per_bank: u32,
    /// Bytes of one entry (one register of one warp): 32 lanes × 4 B = 128.
    pub entry_bytes: u32,
    pub bank_map: BankMap,
    pub port_occupancy: PortOccupancy,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BankMap {
    /// bank = (reg + warp) mod B (GPGPU-Sim `register_bank`).
    RegPlusWarp,
    /// bank = reg mod B.
    RegOnly,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PortOccupancy {
    FullLatency,
    Pipelined,
}

/// Per collector-unit class counts (`{sp,sfu,mem,dp,int,gen}`); `gen` units serve every class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerCuClass {
    pub sp: u32,
    pub sfu: u32,
    pub mem: u32,
    pub dp: u32,
    pub int: u32,
    pub gen: u32,
}

/// `[opcoll]`: operand collector units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpcollSection {
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
    pub n_sfu: u32,
    pub n_dp: u32,
    /// Separate INT units (0: INT runs on the SP clusters' INT pipes).
    pub n_int: u32,
    pub n_ldst: u32,
    pub sp_lanes: u32,
    pub sfu_lanes: u32,
    pub dp_lanes: u32,
    pub ldst_lanes: u32,
    /// Where f64 runs when `n_dp` = 0 (or by choice).
    pub dp_on: DpOn,
    pub int_on: IntOn,
    pub lane_map: LaneMap,
    /// Lanes of one sub-cluster (folding and shifting granularity).
    pub sub_cluster_lanes: u32,
    pub width: PipeWidths,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DpOn {
    Dp,
    Sfu,
    Sp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntOn {
    Sp,
    Int,
}

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
    pub sp: u32,
    pub dp: u32,
    pub int: u32,
    pub sfu: u32,
    pub mem: u32,
}

/// `[units.width]`: pipeline-register widths ID_OC, OC_EX and EX_WB.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PipeWidths {
    pub id_oc: PerPipe,
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
    pub int: IntLatency,
    pub fp: FpLatency,
    pub dp: FpLatency,
    /// sqrt, rsqrt, rcp, sin, cos, ex2, lg2.
    pub sfu: LatII,
    pub trace: TraceLatency,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntLatency {
    pub add: LatII,
    pub max: LatII,
    pub mul: LatII,
    pub mad: LatII,
    pub div: LatII,
    pub shfl: LatII,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FpLatency {
    pub add: LatII,
    pub max: LatII,
    pub mul: LatII,
    pub mad: LatII,
    pub div: LatII,
}

/// `[latency.trace]`: per-unit latencies used in trace mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceLatency {
    pub int: LatII,
    pub sp: LatII,
    pub dp: LatII,
    pub sfu: LatII,
    pub fp16_ii_halved: bool,
}

/// `[compat]`: GPGPU-Sim compatibility switches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompatSection {
    /// 0: classes per §3.1.4. n > 0: MOV, CVT, LOGIC, SETP, control and NOP take latency n, II 1.
    pub unlisted_opcode_latency: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Replacement {
    Lru,
    Fifo,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WritePolicy {
    /// Read only.
    Ro,
    Wb,
    Wt,
    LocalWbGlobalWt,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllocPolicy {
    OnMiss,
    OnFill,
    Streaming,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteAlloc {
    None,
    Allocate,
    LazyFetchOnRead,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetIndex {
    Linear,
    Hash,
    Ipoly,
}

macro_rules! cache_struct {
    ($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $extra:ident : $ty:ty),* }) => {
        $(#[$m])*
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            pub sets: u32,
            pub line_bytes: u32,
            pub assoc: u32,
            /// Sector size; equal to `line_bytes` for a non-sector cache.
            pub sector_bytes: u32,
            pub replacement: Replacement,
            pub write_policy: WritePolicy,
            pub alloc: AllocPolicy,
            pub write_alloc: WriteAlloc,
            pub set_index: SetIndex,
            pub mshr_entries: u32,
            /// Requests one MSHR entry may merge.
            pub mshr_merge: u32,
            pub miss_queue: u32,
            /// Hit latency in cycles of the cache's clock domain.
            pub latency: u32,
            pub banks: u32,
            $($(#[$fm])* pub $extra: $ty,)*
        }
        impl $name {
            /// Data capacity in bytes (sets × line × assoc).
            pub fn size_bytes(&self) -> u64 {
                self.sets as u64 * self.line_bytes as u64 * self.assoc as u64
            }
            /// The keys common to every cache.
            pub fn geometry(&self) -> CacheConfig {
                CacheConfig {
                    sets: self.sets,
                    line_bytes: self.line_bytes,
                    assoc: self.assoc,
                    sector_bytes: self.sector_bytes,
                    replacement: self.replacement,
                    write_policy: self.write_policy,
                    alloc: self.alloc,
                    write_alloc: self.write_alloc,
                    set_index: self.set_index,
                    mshr_entries: self.mshr_entries,
                    mshr_merge: self.mshr_merge,
                    miss_queue: self.miss_queue,
                    latency: self.latency,
                    banks: self.banks,
                }
            }
        }
    };
}

cache_struct!(
    /// `[icache]`, `[const_cache]`, `[tex_cache]`: a set-associative cache (§2.7).
    CacheConfig {}
);
cache_struct!(
    /// `[l1d]`: L1 data cache.
    L1dConfig {
        /// Global loads bypass L1 (Kepler, Pascal).
        skip_global: bool
    }
);
cache_struct!(
    /// `[l2]`: one L2 slice (one per memory sub-partition).
    L2Config {
        /// Cycles in the ROP FIFO before the tag access (L2 clock).
        rop_latency: u32,
        /// Extra L2 cycles of an atomic operation [G: 4].
        atomic_latency: u32
    }
);

/// `[shmem]`: shared memory banks (§2.6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShmemSection {
    pub banks: u32,
    pub bank_bytes: u32,
    pub latency: u32,
    /// Identical words broadcast (count once toward the conflict degree).
    pub broadcast: bool,
}

/// `[mem]`: memory partitions and address map (§2.7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemSection {
    pub n_channels: u32,
    pub subparts_per_channel: u32,
    pub channel_interleave_bytes: u32,
    /// Channel-local address bit map, MSB first: R row, B bank, C column, S byte, 0 unused.
    pub addr_map: String,
}

/// `[icnt]`: simplified crossbar interconnect (§2.8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IcntSection {
    pub flit_bytes: u32,
    /// Fixed traversal latency in icnt cycles [G: 4].
    pub latency: u32,
    pub in_buffer_flits: u32,
    pub ejection_buffer: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DramModel {
    Simple,
    Full,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DramScheduler {
    Frfcfs,
    Fifo,
}

/// `[dram.timing]`, in DRAM cycles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DramTiming {
    pub ccd: u32,
    pub ccdl: u32,
    pub rrd: u32,
    pub rcd: u32,
    pub ras: u32,
    pub rp: u32,
    pub rc: u32,
    pub cl: u32,
    pub wl: u32,
    pub cdlr: u32,
    pub wr: u32,
    pub rtpl: u32,
}

/// `[dram]`: one GDDR channel (§2.8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DramSection {
    pub model: DramModel,
    pub chips_per_channel: u32,
    pub bus_bytes_per_chip: u32,
    pub burst_length: u32,
    /// Data transfers per command clock (4 = QDR).
    pub data_cmd_ratio: u32,
    pub n_banks: u32,
    pub n_bank_groups: u32,
    /// The spec's queue policy. The timing model's reservation-based memory side serves
    /// requests in the order SMs send them under either value (FR-FCFS reordering within the
    /// scheduler queue is not modelled); row-buffer hits still shorten accesses.
    pub scheduler: DramScheduler,
    pub sched_queue: u32,
    pub return_queue: u32,
    /// Fixed latency added to every reply, DRAM cycles.
    pub latency: u32,
    pub timing: DramTiming,
}

/// `[trace]`: Accel-Sim trace reader options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceSection {
    pub expand_wide_regs: bool,
    pub ldc_as_alu: bool,
    pub max_cta_buffer_mb: u32,
    pub reader_buffer_kb: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BusyDefinition {
    /// Busy while an instruction dispatched at d is in [d, d + latency).
    InFlight,
    /// Busy only in the cycle an instruction is accepted.
    Accept,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StatsOutput {
    Json,
    Jsonl,
}

/// `[stats]`: what the Activity record collects (§5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatsSection {
    /// Per-epoch deltas every this many cycles (0 = off).
    pub epoch_cycles: u64,
    /// Collect per-register access counts and inter-access histograms (§5.4).
    pub per_register: bool,
    /// (sm, cta, warp) of the pilot warp whose per-register counts are kept separately.
    pub pilot_warp: [u32; 3],
    pub busy_definition: BusyDefinition,
    /// Idle-period lengths 1..=this get an exact bin; longer ones a log2 bin [§5.5: 64].
    pub idle_hist_exact_max: u32,
    /// Log2 bins up to 2^this; longer runs go to the overflow bin [§5.5: 24].
    pub idle_hist_log2_max: u32,
    pub timeline_dump: bool,
    pub output: StatsOutput,
}

/// `[hooks]`: names of hook implementations registered in code ("" = baseline/identity).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HooksSection {
    pub unit_gate: String,
    pub scheduler_plugin: String,
    pub exec_transform: String,
    pub regfile_model: String,
}

impl GpuConfig {
    pub fn core_hz(&self) -> f64 {
        self.gpu.core_mhz * 1e6
    }
    pub fn icnt_hz(&self) -> f64 {
        self.gpu.icnt_mhz * 1e6
    }
    pub fn l2_hz(&self) -> f64 {
        self.gpu.l2_mhz * 1e6
    }
    pub fn dram_hz(&self) -> f64 {
        self.gpu.dram_mhz * 1e6
    }
    /// Register-file capacity per SM in bytes (n_registers × 4).
    pub fn rf_bytes(&self) -> u64 {
        self.sm.n_registers as u64 * 4
    }
    /// RF entries per SM (one entry = one register of one warp).
    pub fn rf_entries(&self) -> u64 {
        self.rf_bytes() / self.rf.entry_bytes.max(1) as u64
    }
    /// Rows of bank `b` (banks get ⌈E/B⌉ or ⌊E/B⌋ rows when B does not divide E).
    pub fn rf_bank_rows(&self, b: u32) -> u64 {
        let e = self.rf_entries();
        let nb = self.rf.n_banks.max(1) as u64;
        e / nb + u64::from((b as u64) < e % nb)
    }
    /// Memory sub-partitions = L2 slices.
    pub fn n_l2_slices(&self) -> u32 {
        self.mem.n_channels * self.mem.subparts_per_channel
    }
    /// Total L2 capacity in bytes.
    pub fn l2_total_bytes(&self) -> u64 {
        self.l2.size_bytes() * self.n_l2_slices() as u64
    }
    /// Bytes moved by one DRAM burst (bus width × burst length).
    pub fn dram_burst_bytes(&self) -> u32 {
        self.dram.chips_per_channel * self.dram.bus_bytes_per_chip * self.dram.burst_length
    }
    /// Peak DRAM bandwidth in bytes/s: channels × chips × bytes per chip × ratio × f_DRAM.
    pub fn dram_peak_bw_bytes_per_s(&self) -> f64 {
        self.mem.n_channels as f64
            * self.dram.chips_per_channel as f64
            * self.dram.bus_bytes_per_chip as f64
            * self.dram.data_cmd_ratio as f64
            * self.dram_hz()
    }
    /// Schedulers per sub-core.
    pub fn scheds_per_subcore(&self) -> u32 {
        (self.sched.n_per_sm / self.sm.n_subcores.max(1)).max(1)
    }
}
