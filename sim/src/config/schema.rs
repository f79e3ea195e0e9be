//! The TOML schema of simulator §6.3 as serde structs.
//!
//! Every table and every key is documented with its meaning; tags in brackets name the source of
//! the preset values (see the spec): `[G]` marks a gpuenergy choice that is a knob.
//!
//! Longer than 600 lines on purpose: one struct per TOML table with every key documented beside
//! its field, so the schema reads in one place.

use serde::{Deserialize, Serialize};

pub use super::pg::{GatesSection, PgSection};

/// The whole machine and simulation configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuConfig {
    /// `[sim]`: run control.
    pub sim: SimSection,
    /// `[gpu]`: chip-level parameters.
    pub gpu: GpuSection,
    /// `[sm]`: per-SM resources.
    pub sm: SmSection,
    /// `[frontend]`: fetch, decode and the I-buffer.
    pub frontend: FrontendSection,
    /// `[sched]`: warp schedulers.
    pub sched: SchedSection,
    /// `[rf]`: banked register file.
    pub rf: RfSection,
    /// `[opcoll]`: operand collector units.
    pub opcoll: OpcollSection,
    /// `[units]`: execution units.
    pub units: UnitsSection,
    /// `[fold]`: warp folding (power-gating §6); defaults when absent (and not written then).
    #[serde(default, skip_serializing_if = "super::fold::FoldSection::is_default")]
    pub fold: super::fold::FoldSection,
    /// `[origami]`: Origami mask grouping and lane shifting (power-gating §7); defaults when
    /// absent (and not written then).
    #[serde(
        default,
        skip_serializing_if = "super::fold::OrigamiSection::is_default"
    )]
    pub origami: super::fold::OrigamiSection,
    /// `[physical]`: sleep-transistor model knobs for `pg.timing = "Physical"` (power-gating
    /// §1.7); defaults when absent (and not written then).
    #[serde(
        default,
        skip_serializing_if = "super::physical::PhysicalSection::is_default"
    )]
    pub physical: super::physical::PhysicalSection,
    /// `[latency]`: per-class latency and initiation interval.
    pub latency: LatencySection,
    /// `[compat]`: GPGPU-Sim compatibility switches.
    pub compat: CompatSection,
    /// `[icache]`: instruction cache.
    pub icache: CacheConfig,
    /// `[l1d]`: L1 data cache.
    pub l1d: L1dConfig,
    /// `[const_cache]`: constant cache.
    pub const_cache: CacheConfig,
    /// `[tex_cache]`: texture cache.
    pub tex_cache: CacheConfig,
    /// `[l2]`: one L2 slice.
    pub l2: L2Config,
    /// `[shmem]`: shared-memory banks.
    pub shmem: ShmemSection,
    /// `[mem]`: memory partitions and address map.
    pub mem: MemSection,
    /// `[icnt]`: SM-to-L2 crossbar.
    pub icnt: IcntSection,
    /// `[dram]`: one DRAM channel.
    pub dram: DramSection,
    /// `[trace]`: Accel-Sim trace reader options.
    pub trace: TraceSection,
    /// `[stats]`: what the Activity record collects.
    pub stats: StatsSection,
    /// `[hooks]`: names of hook implementations registered in code.
    pub hooks: HooksSection,
    /// `[pg]`: power gating of execution pipes (power-gating §10); absent = no gating.
    #[serde(default, skip_serializing_if = "PgSection::is_default")]
    pub pg: PgSection,
    /// `[prf]`: partitioned register file (register-file §5); defaults when absent (not written then).
    #[serde(default, skip_serializing_if = "super::prf::PrfSection::is_default")]
    pub prf: super::prf::PrfSection,
    /// `[afrf]`: adaptive FRF (register-file §6); defaults when absent (not written then).
    #[serde(default, skip_serializing_if = "super::prf::AfrfSection::is_default")]
    pub afrf: super::prf::AfrfSection,
    /// `[mrf]`: monolithic-RF baseline (register-file §7.1, §7.2); defaults when absent.
    #[serde(default, skip_serializing_if = "super::prf::MrfSection::is_default")]
    pub mrf: super::prf::MrfSection,
    /// `[rfc]`: register-file cache baseline (register-file §7.4); defaults when absent.
    #[serde(default, skip_serializing_if = "super::prf::RfcSection::is_default")]
    pub rfc: super::prf::RfcSection,
    /// `[tric]`: tri-modal register control (register-file spec §3); defaults when absent
    /// (and not written then).
    #[serde(default, skip_serializing_if = "super::tric::TricSection::is_default")]
    pub tric: super::tric::TricSection,
    /// `[coma]`: mask-aware register access (register-file spec §4); defaults when absent
    /// (and not written then).
    #[serde(default, skip_serializing_if = "super::tric::ComaSection::is_default")]
    pub coma: super::tric::ComaSection,
    /// `[energy]`: register-file energy-accounting switches read by `models` and the CLI
    /// (register-file spec §8); defaults when absent (and not written then).
    #[serde(
        default,
        skip_serializing_if = "super::tric::EnergySection::is_default"
    )]
    pub energy: super::tric::EnergySection,
    /// `[metrics]`: register-file characterisation definitions (register-file spec §9);
    /// defaults when absent (and not written then).
    #[serde(
        default,
        skip_serializing_if = "super::tric::MetricsSection::is_default"
    )]
    pub metrics: super::tric::MetricsSection,
    /// `[reconv]`: PDOM reconvergence stack knobs (control-flow spec §3); defaults when absent
    /// (and not written then).
    #[serde(
        default,
        skip_serializing_if = "super::reconv::ReconvSection::is_default"
    )]
    pub reconv: super::reconv::ReconvSection,
    /// `[dwf]`: dynamic-warp-formation structure sizes for costing (control-flow spec §5.6,
    /// §5.7); defaults when absent (and not written then).
    #[serde(default, skip_serializing_if = "super::reconv::DwfSection::is_default")]
    pub dwf: super::reconv::DwfSection,
    /// `[opt]`: defaults of `gpuenergy optimize` (register-file spec §10, §12); never read by
    /// the simulator; defaults when absent (and not written then).
    #[serde(default, skip_serializing_if = "super::opt::OptSection::is_default")]
    pub opt: super::opt::OptSection,
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
    /// Keep pending-read counters and stall on WAR hazards (issue-stage §1.2).
    pub war_scoreboard: bool,
    /// `sched.policy`: inter-warp scheduling policy.
    pub policy: SchedPolicy,
    /// Group size g of the fetch-group policy.
    pub fetch_group_size: u32,
    /// `[sched.two_level]`: parameters of the two-level policy.
    pub two_level: TwoLevelSection,
    /// `[sched.ooo]`: out-of-order issue variant.
    pub ooo: OooSection,
    /// `[sched.gates]`: parameters of the GATES policy (power-gating §3).
    #[serde(default, skip_serializing_if = "GatesSection::is_default")]
    pub gates: GatesSection,
}

/// Inter-warp scheduling policy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum SchedPolicy {
    /// `"lrr"`: loose round-robin, starting after the warp that issued last.
    Lrr,
    /// `"gto"`: greedy-then-oldest: the last issuer first, then the other warps by ascending age.
    Gto,
    /// `"oldest"`: warps by ascending age (the oldest first).
    Oldest,
    /// `"youngest"`: warps by descending age (the youngest first).
    Youngest,
    /// `"fetch_group"`: age groups of `sched.fetch_group_size` warps, the current one served LRR.
    FetchGroup,
    /// `"two_level"`: an active set per scheduler, refilled from a pending FIFO.
    TwoLevel,
    /// `"gates"`: GATES, the gating-aware two-level scheduler (power-gating §3): the two-level
    /// order stably sorted by head type `[hp, LDST, SFU, other(hp)]`.
    Gates,
    /// `"origami"`: the Origami scheduler (power-gating §7): GATES picks the type, then the
    /// warps whose head is in the preferred mask group (Full or Partial, re-chosen every
    /// `fold.n_phase` cycles with a forced switch after `origami.force_switch_phases`), then the
    /// two-level order. Needs `fold.enabled = true`.
    Origami,
    /// A policy registered in code under this name (`plugin:<name>`).
    Plugin(String),
}

impl SchedPolicy {
    /// Parses a `sched.policy` value; `None` for an unknown name or an empty plugin name.
    pub fn parse(s: &str) -> Option<SchedPolicy> {
        Some(match s {
            "lrr" => SchedPolicy::Lrr,
            "gto" => SchedPolicy::Gto,
            "oldest" => SchedPolicy::Oldest,
            "youngest" => SchedPolicy::Youngest,
            "fetch_group" => SchedPolicy::FetchGroup,
            "two_level" | "two-level" => SchedPolicy::TwoLevel,
            "gates" => SchedPolicy::Gates,
            "origami" => SchedPolicy::Origami,
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
                 fetch_group, two_level, gates, origami or plugin:<name>)"
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
            SchedPolicy::Gates => "gates".into(),
            SchedPolicy::Origami => "origami".into(),
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
    /// `sched.two_level.inner`: policy within the active set.
    pub inner: InnerPolicy,
}

/// Policy within the active set of the two-level scheduler (`sched.two_level.inner`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InnerPolicy {
    /// `"lrr"`: loose round-robin.
    Lrr,
    /// `"gto"`: greedy-then-oldest.
    Gto,
}

/// `[sched.ooo]`: out-of-order issue variant (issue-stage); the baseline is `none`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OooSection {
    /// `sched.ooo.mode`: issue-stage variant.
    pub mode: OooMode,
    /// `sched.ooo.ib_depth`: SOCGPU instruction-buffer entries per warp, N (issue-stage §2.1;
    /// 1..=64, default 8).
    #[serde(
        default = "default_ib_depth",
        skip_serializing_if = "is_default_ib_depth"
    )]
    pub ib_depth: u32,
    /// `sched.ooo.local_policy`: SOCGPU intra-warp selection among the candidates (§2.3).
    #[serde(default, skip_serializing_if = "is_default")]
    pub local_policy: OooLocalPolicy,
    /// `sched.ooo.ready_ctr_bits`: width C of the MostReady/LeastReady counters; 0 selects
    /// the default ⌈log2 N⌉ + 2 [G].
    #[serde(default, skip_serializing_if = "is_default")]
    pub ready_ctr_bits: u32,
    /// `sched.ooo.ib_refill`: when a warp's SOCGPU buffer may fetch again [G].
    #[serde(default, skip_serializing_if = "is_default")]
    pub ib_refill: IbRefill,
    /// `sched.ooo.mem_order`: memory ordering among one warp's SOCGPU entries [G].
    #[serde(default, skip_serializing_if = "is_default")]
    pub mem_order: OooMemOrder,
    /// `sched.ooo.dual`: SOCGPU second issue of a warp in one cycle (§2.7); in effect only with
    /// `sched.max_issue_per_warp` ≥ 2.
    #[serde(default, skip_serializing_if = "is_default")]
    pub dual: OooDual,
    /// `sched.ooo.loog_n_cu`: LOOG collector units (reservation stations) per issue slice,
    /// N_cu (issue-stage §3.3; 1..=64); 0 selects the RTL's default
    /// `min(16, warps per slice × sched.issue_per_sched)`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub loog_n_cu: u32,
    /// `sched.ooo.loog_rrs_factor`: result-reservation-station entries per slice as a multiple
    /// of N_cu, R = ⌈N_cu × factor⌉ (§3.3: 1.5, 2 or 2.5); 0 = no RRS (the default).
    #[serde(default, skip_serializing_if = "is_default")]
    pub loog_rrs_factor: f64,
    /// `sched.ooo.loog_wb_buffers`: write-back broadcast buffers per slice, 1 (the default)
    /// or 2 (only with more than 12 CUs, §3.3).
    #[serde(default = "default_one", skip_serializing_if = "is_default_one")]
    pub loog_wb_buffers: u32,
    /// `sched.ooo.loog_uuid_bits`: width U of the per-warp UUID counter (§3.1; 8 as in the
    /// thesis, the default, or 20 as in the RTL; 4..=32).
    #[serde(
        default = "default_uuid_bits",
        skip_serializing_if = "is_default_uuid_bits"
    )]
    pub loog_uuid_bits: u32,
    /// `sched.ooo.loog_rf_arbiter`: the slice's register-file read arbiter (§3.2 step 3).
    #[serde(default, skip_serializing_if = "is_default")]
    pub loog_rf_arbiter: LoogRfArbiter,
    /// `sched.ooo.loog_rf_read_ports`: CUs of one slice granted the register file at once,
    /// each reading one operand per cycle from its operand's bank (§3 [G]: the Vortex RF has
    /// one read port; 1, the default, up to the slice's bank ports).
    #[serde(default = "default_one", skip_serializing_if = "is_default_one")]
    pub loog_rf_read_ports: u32,
    /// `sched.ooo.loog_rrs_dispatch_needs_free_slot`: with an RRS, a dispatch that writes back
    /// also needs a free RRS entry in that cycle (§3.2 step 5; on by default, as the RTL).
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub loog_rrs_dispatch_needs_free_slot: bool,
    /// `sched.ooo.loog_ready_first`: the allocation stage tries, in the inter-warp policy's
    /// order, first the warps whose I-buffer head reads no register renamed to a producer
    /// still waiting in a CU (undispatched), then the others (§3.2 step 1 [G]: the source's
    /// round-robin arbiter does not say; without it a greedy or age-ordered policy lets one
    /// warp's dependent chain fill every CU). On by default; off: the policy's order alone.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub loog_ready_first: bool,
    /// `sched.ooo.loog_defer_load_consumers`: with `loog_ready_first`, a head that reads the
    /// result of a global or local load still in flight (dispatched, result not yet back) also
    /// goes after the others [G]. Off by default (the ready-first order defers only heads
    /// whose producer has not dispatched). A load's consumers would otherwise hold their CUs
    /// for the whole memory latency while other warps have work that can go.
    #[serde(default, skip_serializing_if = "is_false")]
    pub loog_defer_load_consumers: bool,
    /// `sched.ooo.loog_lsq`: LOOG's memory queues (§3.2 "Original LOOG memory queues"; off by
    /// default, when the LD/ST-unit instructions of a warp dispatch in order). On: loads and
    /// stores reserve load-/store-queue entries at allocation, and a ready memory instruction
    /// may pass older ones of its warp except an older store whose address is unresolved, an
    /// older store whose address range overlaps its own (a store also waits for an older
    /// overlapping load), and an older memory barrier.
    #[serde(default, skip_serializing_if = "is_false")]
    pub loog_lsq: bool,
    /// `sched.ooo.loog_lq_entries`: load-queue entries per issue slice with `loog_lsq`
    /// (1..=64; 8 by default [G]: the source does not size them).
    #[serde(
        default = "default_lsq_entries",
        skip_serializing_if = "is_default_lsq_entries"
    )]
    pub loog_lq_entries: u32,
    /// `sched.ooo.loog_sq_entries`: store-queue entries per issue slice with `loog_lsq`
    /// (1..=64; 8 by default [G]).
    #[serde(
        default = "default_lsq_entries",
        skip_serializing_if = "is_default_lsq_entries"
    )]
    pub loog_sq_entries: u32,
}

fn default_lsq_entries() -> u32 {
    8
}

fn is_default_lsq_entries(v: &u32) -> bool {
    *v == default_lsq_entries()
}

fn is_false(v: &bool) -> bool {
    !*v
}

fn default_one() -> u32 {
    1
}

fn is_default_one(v: &u32) -> bool {
    *v == 1
}

fn default_uuid_bits() -> u32 {
    8
}

fn is_default_uuid_bits(v: &u32) -> bool {
    *v == default_uuid_bits()
}

fn default_true() -> bool {
    true
}

fn is_true(v: &bool) -> bool {
    *v
}

/// LOOG register-file read arbiter (`sched.ooo.loog_rf_arbiter`, issue-stage §3.2 step 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoogRfArbiter {
    /// `"id"`: the lowest-index requesting CU (the default).
    #[default]
    Id,
    /// `"rr"`: round-robin from after the last granted CU.
    Rr,
    /// `"rr_alloc"`: round-robin grants, and CUs allocated round-robin instead of
    /// lowest-index-free.
    RrAlloc,
}

fn default_ib_depth() -> u32 {
    8
}

// The SOCGPU keys are serialised only when they leave their defaults, so that configurations
// without them hash as before.
fn is_default_ib_depth(v: &u32) -> bool {
    *v == default_ib_depth()
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// SOCGPU local selection policy (`sched.ooo.local_policy`, issue-stage §2.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OooLocalPolicy {
    /// `"first"`: the lowest physical index (the default).
    #[default]
    First,
    /// `"older"`: the smallest seniority.
    Older,
    /// `"younger"`: the largest seniority.
    Younger,
    /// `"most_ready"`: the largest ready counter.
    MostReady,
    /// `"least_ready"`: the smallest ready counter.
    LeastReady,
    /// `"random"`: uniform, from a seeded stream per warp.
    Random,
}

impl OooLocalPolicy {
    /// True for the policies that keep per-entry ready counters.
    pub fn uses_ready_ctr(self) -> bool {
        matches!(self, OooLocalPolicy::MostReady | OooLocalPolicy::LeastReady)
    }
}

/// When a warp's SOCGPU buffer is refilled (`sched.ooo.ib_refill`, issue-stage §2.1 [G]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IbRefill {
    /// `"when_empty"`: only an empty buffer fetches.
    WhenEmpty,
    /// `"when_free_ge_fetch_width"`: a buffer with at least `frontend.fetch_width` free
    /// entries (all of them when N is smaller) fetches (the default).
    #[default]
    WhenFreeGeFetchWidth,
}

/// Memory ordering of one warp's SOCGPU entries (`sched.ooo.mem_order`, §2.2 [G]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OooMemOrder {
    /// `"none"`: no load/store ordering beyond register dependences (as the source).
    #[default]
    None,
    /// `"same_warp_in_order"`: a memory instruction also depends on every older memory entry.
    SameWarpInOrder,
}

/// SOCGPU dual issue (`sched.ooo.dual`, issue-stage §2.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OooDual {
    /// `"off"`: single issue per warp.
    Off,
    /// `"plain"`: the local policy's second choice, tried once (the default).
    #[default]
    Plain,
    /// `"smart"`: the local policy re-run over the candidates of another, free unit.
    Smart,
}

/// Issue-stage variant (`sched.ooo.mode`); all three are simulated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OooMode {
    /// `"none"`: the in-order baseline with a scoreboard.
    None,
    /// `"socgpu"`: per-warp out-of-order issue from an instruction buffer with a dependence matrix.
    Socgpu,
    /// `"loog"`: collector units used as reservation stations.
    Loog,
}

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
    /// sqrt, rsqrt, rcp, sin, cos, ex2, lg2.
    pub sfu: LatII,
    /// `[latency.trace]`: per-unit latencies for trace mode. Not read: traces use the classes
    /// above.
    pub trace: TraceLatency,
}

/// `[latency.int]`: integer `[latency, ii]` pairs in core cycles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntLatency {
    /// add and every integer operation without a key of its own.
    pub add: LatII,
    /// min and max.
    pub max: LatII,
    /// mul.
    pub mul: LatII,
    /// mad.
    pub mad: LatII,
    /// div and rem.
    pub div: LatII,
    /// shfl.
    pub shfl: LatII,
}

/// `[latency.fp]` and `[latency.dp]`: floating-point `[latency, ii]` pairs in core cycles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FpLatency {
    /// add and every operation without a key of its own.
    pub add: LatII,
    /// min and max.
    pub max: LatII,
    /// mul.
    pub mul: LatII,
    /// mad and fma.
    pub mad: LatII,
    /// div.
    pub div: LatII,
}

/// `[latency.trace]`: per-unit latencies used in trace mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceLatency {
    /// SASS integer instructions.
    pub int: LatII,
    /// SASS single-precision instructions.
    pub sp: LatII,
    /// SASS double-precision instructions.
    pub dp: LatII,
    /// SASS MUFU instructions.
    pub sfu: LatII,
    /// FP16 pair instructions (HADD2, HFMA2, HMUL2) take half the SP II. Not modelled
    /// (`UNREAD_KEYS`).
    pub fp16_ii_halved: bool,
}

/// `[compat]`: GPGPU-Sim compatibility switches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompatSection {
    /// 0: classes per §3.1.4. n > 0: MOV, CVT, LOGIC, SETP, control and NOP take latency n, II 1.
    pub unlisted_opcode_latency: u32,
    /// `compat.launch_latency_first`: `gpu.kernel_launch_latency` also precedes the first launch
    /// of a program, as GPGPU-Sim counts it for every kernel; false (default) places it only
    /// between launches (simulator §2.9).
    #[serde(default)]
    pub launch_latency_first: bool,
    /// `compat.perfect_const_cache`: every constant and parameter access hits and the LD/ST unit
    /// serves all of an instruction's distinct addresses in one cycle with no hit latency, as
    /// GPGPU-Sim's `-gpgpu_perfect_inst_const_cache` does for its constant cache (the I-cache
    /// half of that switch is `frontend.perfect_icache`). Default false.
    #[serde(default)]
    pub perfect_const_cache: bool,
}

/// Line replacement policy (`replacement`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Replacement {
    /// Least recently used.
    Lru,
    /// First in, first out.
    Fifo,
}

/// Write policy of a cache (`write_policy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WritePolicy {
    /// Read only.
    Ro,
    /// Write-back.
    Wb,
    /// Write-through.
    Wt,
    /// Write-back for local memory, write-through for global.
    LocalWbGlobalWt,
}

/// When a missing line is allocated (`alloc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllocPolicy {
    /// Reserve a line when the miss is sent.
    OnMiss,
    /// Allocate the line when the fill returns.
    OnFill,
    /// Allocate on fill, with MSHRs = sets × ways × 4 (streaming L1).
    Streaming,
}

/// What a write miss allocates (`write_alloc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteAlloc {
    /// No allocation; the write goes on to the next level.
    None,
    /// Allocate and fetch the line.
    Allocate,
    /// Allocate without fetching, keep byte masks, fetch on a partial read.
    LazyFetchOnRead,
}

/// Set-index function (`set_index`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetIndex {
    /// Line address modulo the number of sets.
    Linear,
    /// `(line ^ (line >> log2 sets)) mod sets`.
    Hash,
    /// An XOR fold of the line address.
    Ipoly,
}

macro_rules! cache_struct {
    ($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $extra:ident : $ty:ty),* }) => {
        $(#[$m])*
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// `sets`: number of sets.
            pub sets: u32,
            /// `line_bytes`: line size in bytes.
            pub line_bytes: u32,
            /// `assoc`: ways per set.
            pub assoc: u32,
            /// Sector size; equal to `line_bytes` for a non-sector cache.
            pub sector_bytes: u32,
            /// `replacement`: line replacement policy.
            pub replacement: Replacement,
            /// `write_policy`: write policy.
            pub write_policy: WritePolicy,
            /// `alloc`: when a missing line is allocated.
            pub alloc: AllocPolicy,
            /// `write_alloc`: what a write miss allocates. Not modelled (`UNREAD_KEYS`).
            pub write_alloc: WriteAlloc,
            /// `set_index`: set-index function.
            pub set_index: SetIndex,
            /// `mshr_entries`: miss status holding registers (outstanding line misses).
            pub mshr_entries: u32,
            /// Requests one MSHR entry may merge.
            pub mshr_merge: u32,
            /// `miss_queue`: misses waiting to go to the next level. Not modelled (`UNREAD_KEYS`).
            pub miss_queue: u32,
            /// Hit latency in cycles of the cache's clock domain.
            pub latency: u32,
            /// `banks`: data banks.
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
    /// `shmem.banks`: banks.
    pub banks: u32,
    /// `shmem.bank_bytes`: width of one bank in bytes.
    pub bank_bytes: u32,
    /// `shmem.latency`: core cycles from the last conflict pass until the data returns.
    pub latency: u32,
    /// Identical words broadcast (count once toward the conflict degree).
    pub broadcast: bool,
}

/// `[mem]`: memory partitions and address map (§2.7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemSection {
    /// `mem.n_channels`: DRAM channels (memory partitions).
    pub n_channels: u32,
    /// `mem.subparts_per_channel`: sub-partitions (L2 slices) per channel.
    pub subparts_per_channel: u32,
    /// `mem.channel_interleave_bytes`: bytes of one address chunk mapped to one channel.
    pub channel_interleave_bytes: u32,
    /// Channel-local address bit map, MSB first: R row, B bank, C column, S byte, 0 unused.
    pub addr_map: String,
    /// `mem.memcpy_fills_l2`: host-to-device copies are written through the L2, leaving the
    /// copied sectors valid for the next launch (GPGPU-Sim `-gpgpu_perf_sim_memcpy`). Default
    /// false.
    #[serde(default)]
    pub memcpy_fills_l2: bool,
    /// `mem.flush_l2_between_launches`: every launch starts with an empty L2. Default false: a
    /// launch finds the L2 as the previous launch of the same program left it.
    #[serde(default)]
    pub flush_l2_between_launches: bool,
}

/// `[icnt]`: simplified crossbar interconnect (§2.8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IcntSection {
    /// `icnt.flit_bytes`: bytes per flit.
    pub flit_bytes: u32,
    /// Fixed traversal latency in icnt cycles [G: 4].
    pub latency: u32,
    /// `icnt.in_buffer_flits`: flits of one input buffer (credit-based). Not modelled
    /// (`UNREAD_KEYS`).
    pub in_buffer_flits: u32,
    /// `icnt.ejection_buffer`: entries of one ejection buffer. Not modelled (`UNREAD_KEYS`).
    pub ejection_buffer: u32,
}

/// DRAM timing model (`dram.model`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DramModel {
    /// Bank and bus timing of one channel.
    Simple,
    /// Adds per-chip constraint counters.
    Full,
}

/// DRAM request scheduler (`dram.scheduler`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DramScheduler {
    /// First-ready FCFS: the oldest row hit, else the oldest request.
    Frfcfs,
    /// First come, first served.
    Fifo,
}

/// `[dram.timing]`, in DRAM cycles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DramTiming {
    /// tCCD: column command to column command.
    pub ccd: u32,
    /// tCCDL: column to column within one bank group.
    pub ccdl: u32,
    /// tRRD: activate to activate in another bank.
    pub rrd: u32,
    /// tRCD: activate to column command.
    pub rcd: u32,
    /// tRAS: activate to precharge.
    pub ras: u32,
    /// tRP: precharge to activate.
    pub rp: u32,
    /// tRC: activate to activate in the same bank.
    pub rc: u32,
    /// CL: read command to data.
    pub cl: u32,
    /// WL: write command to data.
    pub wl: u32,
    /// tCDLR: last write data to read command.
    pub cdlr: u32,
    /// tWR: write recovery, last write data to precharge.
    pub wr: u32,
    /// tRTPL: read to precharge. Not modelled (`UNREAD_KEYS`).
    pub rtpl: u32,
}

/// `[dram]`: one GDDR channel (§2.8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DramSection {
    /// `dram.model`: timing model.
    pub model: DramModel,
    /// `dram.chips_per_channel`: DRAM chips on one channel.
    pub chips_per_channel: u32,
    /// `dram.bus_bytes_per_chip`: data-bus width of one chip in bytes.
    pub bus_bytes_per_chip: u32,
    /// `dram.burst_length`: data transfers per burst.
    pub burst_length: u32,
    /// Data transfers per command clock (4 = QDR).
    pub data_cmd_ratio: u32,
    /// `dram.n_banks`: banks per chip.
    pub n_banks: u32,
    /// `dram.n_bank_groups`: bank groups per chip. Not modelled (`UNREAD_KEYS`).
    pub n_bank_groups: u32,
    /// The spec's queue policy. The timing model's reservation-based memory side serves
    /// requests in the order SMs send them under either value (FR-FCFS reordering within the
    /// scheduler queue is not modelled); row-buffer hits still shorten accesses.
    pub scheduler: DramScheduler,
    /// `dram.sched_queue`: entries of the scheduler queue.
    pub sched_queue: u32,
    /// `dram.return_queue`: entries of the reply queue. Not modelled (`UNREAD_KEYS`).
    pub return_queue: u32,
    /// `dram.latency`: fixed latency added to every DRAM access, in core cycles (GPGPU-Sim's
    /// `-dram_latency`, counted on the core clock).
    pub latency: u32,
    /// `[dram.timing]`: command timing constraints.
    pub timing: DramTiming,
}

/// `[trace]`: Accel-Sim trace reader options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceSection {
    /// `trace.expand_wide_regs`: Rn of an 8- or 16-byte memory op or of a DP op stands for
    /// Rn … Rn+w/4−1.
    pub expand_wide_regs: bool,
    /// `trace.ldc_as_alu`: treat `LDC` as an ALU instruction, as Accel-Sim does.
    pub ldc_as_alu: bool,
    /// `trace.max_cta_buffer_mb`: RAM in MiB for decompressed traces. Not modelled
    /// (`UNREAD_KEYS`): a
    /// compressed trace is always decompressed to a spill file.
    pub max_cta_buffer_mb: u32,
    /// `trace.reader_buffer_kb`: buffer of each warp's trace reader in KiB.
    pub reader_buffer_kb: u32,
}

/// When a pipe counts as busy (`stats.busy_definition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BusyDefinition {
    /// Busy while an instruction dispatched at d is in [d, d + latency).
    InFlight,
    /// Busy only in the cycle an instruction is accepted.
    Accept,
}

/// Format of the Activity output (`stats.output`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StatsOutput {
    /// One JSON document.
    Json,
    /// JSON lines.
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
    /// `stats.busy_definition`: when a pipe counts as busy.
    pub busy_definition: BusyDefinition,
    /// Idle-period lengths 1..=this get an exact bin; longer ones a log2 bin [§5.5: 64].
    pub idle_hist_exact_max: u32,
    /// Log2 bins up to 2^this; longer runs go to the overflow bin [§5.5: 24].
    pub idle_hist_log2_max: u32,
    /// `stats.timeline_dump`: stream run-length busy intervals per pipe.
    pub timeline_dump: bool,
    /// `stats.output`: output format.
    pub output: StatsOutput,
}

/// `[hooks]`: names of hook implementations registered in code ("" = baseline/identity).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HooksSection {
    /// `hooks.unit_gate`: unit power-gating hook.
    pub unit_gate: String,
    /// `hooks.scheduler_plugin`: warp scheduler plug-in.
    pub scheduler_plugin: String,
    /// `hooks.exec_transform`: execution transform hook.
    pub exec_transform: String,
    /// `hooks.regfile_model`: register-file model.
    pub regfile_model: String,
}

impl GpuConfig {
    /// Core clock in Hz.
    pub fn core_hz(&self) -> f64 {
        self.gpu.core_mhz * 1e6
    }
    /// Interconnect clock in Hz.
    pub fn icnt_hz(&self) -> f64 {
        self.gpu.icnt_mhz * 1e6
    }
    /// L2 clock in Hz.
    pub fn l2_hz(&self) -> f64 {
        self.gpu.l2_mhz * 1e6
    }
    /// DRAM command clock in Hz.
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
