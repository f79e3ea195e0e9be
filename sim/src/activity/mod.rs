//! `Activity`: what happened during a simulation, as counts (simulator §5). The only
//! thing that crosses from simulation to costing; it never holds energy.
//!
//! Schema `gpuenergy.activity.v1`: one [`KernelActivity`] per kernel name (launches of the same
//! kernel are summed; `launches` says how many) and an `aggregate` over all of them. Counters are
//! `u64`; *lanes* = popcount of the access's active mask (a mask-0 issue counts as issued with 0
//! lanes). Per-SM records are in SM-id order; every vector indexed by a hardware instance (bank,
//! slice, channel, port) is in instance order. Field names are stable: new counters are added,
//! existing ones keep their meaning.

mod dwf;
mod gating;
mod hist;
mod loog;
mod merge;
mod reconv;
pub mod rfevents;
mod rfstats;
mod sample;
mod socgpu;
mod timeline;

pub(crate) use dwf::{merge_formation, merge_majority};
pub use dwf::{DwfCounts, FormationStats, MajorityStats};
pub use gating::{
    ActiveSetStats, DomainClass, DomainStats, FoldStats, GatingStats, ACTIVE_THREAD_BIN_LABELS,
    FOLD_TYPES, IDLE_RUN_BINS,
};
pub use hist::{IdleHist, Log2Hist};
pub use loog::{LoogHwInputs, LoogStats, LsqStats, LOOG_PERIOD_BINS, LOOG_UNIT_NAMES};
pub(crate) use merge::Merge;
pub use reconv::{simd_bucket, ReconvStats, StackCounters, SIMD_BUCKETS};
pub use rfevents::RfEvents;
pub use rfstats::{PartResidency, PrfRecord, RfPartCounts, RfStats, TricStats};
pub use sample::{ClusterSummary, PlannedLaunch, SampleSummary, ScaleTemplate};
pub use socgpu::{SocgpuHwInputs, SocgpuStats};
pub use timeline::{IdleStats, LaneTimelines, Timeline};

/// The counters of an out-of-order issue stage as the reports show them: each issue-stage
/// technique's record implements it, so that a report prints whichever one a kernel carries
/// ([`KernelActivity::issue_stage`]) without naming it.
pub trait IssueStageCounters {
    /// The key of its section in a JSON summary (the record's field name).
    fn json_key(&self) -> &'static str;

    /// The section in a JSON summary: the counters as serialised, with the derived figures
    /// (means, shares) added.
    fn summary_json(&self) -> serde_json::Value;

    /// The section of the text summary: a heading and one line per group of counters.
    fn summary_text(&self) -> String;

    /// Whether the section comes before the reconvergence section in a summary (the order the
    /// summaries have always had); default after it.
    fn precedes_reconvergence(&self) -> bool {
        false
    }
}

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Schema name written into every record.
pub const SCHEMA: &str = "gpuenergy.activity.v1";

/// A whole simulation: per kernel and aggregate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Activity {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// `gpu.name` of the configuration.
    pub config_name: String,
    /// `GpuConfig::hash_hex` of the resolved configuration.
    pub config_hash: String,
    /// Per kernel name, in order of first launch.
    pub kernels: Vec<KernelActivity>,
    /// Sum over `kernels` (`name` = "aggregate"); `cycles` sums the kernels' cycles (kernels run
    /// serially) plus nothing for launch gaps.
    pub aggregate: KernelActivity,
    /// Where the counts come from when they were not simulated: absent for the cycle-level
    /// simulator's records; set by the analytical activity source (`--activity-source
    /// model`), naming which counters are analytical, which functional and which absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Provenance>,
    /// Present when the run sampled its launches (`--sample kernels`): the clusters, the
    /// launches timed and extrapolated, and the error estimate. Absent for a full simulation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample: Option<SampleSummary>,
}

/// How a record that was not produced by the cycle-level simulator was obtained.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// The source, e.g. `"model"` for the analytical activity source.
    pub source: String,
    /// The method, with the sections it follows.
    pub method: String,
    /// Counters computed by the analytical model (timing-dependent quantities).
    pub analytical: Vec<String>,
    /// Counters counted exactly from a functional run (timing-independent quantities).
    pub functional: Vec<String>,
    /// Counters the method cannot estimate, left at 0 (or at the stated bound).
    pub absent: Vec<String>,
    /// The assumptions the numbers rest on.
    pub assumptions: Vec<String>,
}

/// Largest cycle count a record may hold: the bound of `sim.max_cycles` (10^15 cycles, about
/// 12 days at 1 GHz), beyond which a count is not from a run.
pub const MAX_RECORD_CYCLES: u64 = 1_000_000_000_000_000;

impl Activity {
    /// An empty record (no kernels, zero aggregate) for configuration `config_name` with hash
    /// `config_hash`.
    pub fn new(config_name: &str, config_hash: &str) -> Self {
        Activity {
            schema: SCHEMA.to_string(),
            config_name: config_name.to_string(),
            config_hash: config_hash.to_string(),
            kernels: Vec::new(),
            aggregate: KernelActivity::empty("aggregate"),
            provenance: None,
            sample: None,
        }
    }

    /// Adds one launch's record: summed into the kernel of the same name and the aggregate.
    pub fn add_launch(&mut self, k: KernelActivity) {
        self.aggregate.accumulate(&k);
        self.aggregate.name = "aggregate".to_string();
        match self.kernels.iter_mut().find(|x| x.name == k.name) {
            Some(x) => x.accumulate(&k),
            None => self.kernels.push(k),
        }
    }

    /// Compact JSON (records hold many histograms; pretty-printing multiplies the size).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("activity serialises")
    }

    /// A launch of the record was stopped early: `truncated` is set on the aggregate or on any
    /// kernel.
    pub fn is_truncated(&self) -> bool {
        self.aggregate.truncated || self.kernels.iter().any(|k| k.truncated)
    }

    /// Checks that the counts can describe a run, so that costing them cannot understate the
    /// energy: a record with no kernels or no SMs, kernels with different SM counts, more
    /// cycles than any run can take, instructions but no cycles, more thread instructions than
    /// 32 per warp instruction, per-SM counts that do not sum to their kernel's, an SM active
    /// longer than its kernel, or an aggregate that is not the sum of its kernels (a counter
    /// that overflowed, or an edited file) is an error naming `file` and the record.
    pub fn check_consistent(&self, file: &str) -> Result<(), crate::SimError> {
        let bad = |what: &str, msg: String| crate::SimError::Parse {
            file: file.to_string(),
            line: 1,
            col: 1,
            msg: format!("inconsistent counts in {what}: {msg}"),
        };
        if self.kernels.is_empty() {
            return Err(bad(
                "the record",
                "no kernels (a record of a run holds at least one launched kernel)".into(),
            ));
        }
        let n_sm = self.aggregate.sms.len();
        if n_sm == 0 {
            return Err(bad("the aggregate", "no SMs".into()));
        }
        for k in self.kernels.iter().chain(std::iter::once(&self.aggregate)) {
            let what = format!("kernel '{}'", k.name);
            if k.cycles == 0 && k.warp_insts > 0 {
                return Err(bad(
                    &what,
                    format!("{} warp instructions in 0 cycles", k.warp_insts),
                ));
            }
            if k.warp_insts
                .checked_mul(32)
                .is_none_or(|m| k.thread_insts > m)
            {
                return Err(bad(
                    &what,
                    format!(
                        "{} thread instructions for {} warp instructions (at most 32 each; a \
                         counter overflowed)",
                        k.thread_insts, k.warp_insts
                    ),
                ));
            }
            if k.sms.len() != n_sm {
                return Err(bad(
                    &what,
                    format!("{} SMs, but the aggregate has {n_sm}", k.sms.len()),
                ));
            }
            if k.cycles > MAX_RECORD_CYCLES {
                return Err(bad(
                    &what,
                    format!(
                        "{} cycles: more than {MAX_RECORD_CYCLES} (the largest run \
                         sim.max_cycles allows)",
                        k.cycles
                    ),
                ));
            }
            let per_sm = |f: fn(&SmActivity) -> u64| {
                k.sms.iter().try_fold(0u64, |acc, s| acc.checked_add(f(s)))
            };
            for (name, total, f) in [
                (
                    "warp_insts",
                    k.warp_insts,
                    (|s: &SmActivity| s.warp_insts) as fn(&SmActivity) -> u64,
                ),
                ("thread_insts", k.thread_insts, |s| s.thread_insts),
            ] {
                if per_sm(f) != Some(total) {
                    return Err(bad(
                        &what,
                        format!(
                            "{name} = {total}, but its SMs sum to {} (a counter overflowed, or \
                             the file was edited)",
                            per_sm(f).map_or("more than 2^64".to_string(), |v| v.to_string())
                        ),
                    ));
                }
            }
            if let Some((i, s)) = k
                .sms
                .iter()
                .enumerate()
                .find(|(_, s)| s.active_cycles > k.cycles)
            {
                return Err(bad(
                    &what,
                    format!(
                        "SM {i} active for {} cycles, longer than the kernel's {}",
                        s.active_cycles, k.cycles
                    ),
                ));
            }
        }
        if !self.kernels.is_empty() {
            let sum = |f: fn(&KernelActivity) -> u64| {
                self.kernels
                    .iter()
                    .try_fold(0u64, |acc, k| acc.checked_add(f(k)))
            };
            for (name, total, f) in [
                (
                    "cycles",
                    self.aggregate.cycles,
                    (|k: &KernelActivity| k.cycles) as fn(&KernelActivity) -> u64,
                ),
                ("warp_insts", self.aggregate.warp_insts, |k| k.warp_insts),
                ("thread_insts", self.aggregate.thread_insts, |k| {
                    k.thread_insts
                }),
            ] {
                match sum(f) {
                    Some(s) if s == total => {}
                    Some(s) => {
                        return Err(bad(
                            "the aggregate",
                            format!("{name} = {total}, but the kernels sum to {s}"),
                        ))
                    }
                    None => {
                        return Err(bad(
                            "the aggregate",
                            format!("the kernels' {name} overflow a 64-bit counter"),
                        ))
                    }
                }
            }
        }
        Ok(())
    }

    /// Parses a saved record and checks the schema name; `file` names it in errors.
    pub fn from_json(text: &str, file: &str) -> Result<Activity, crate::SimError> {
        let a: Activity = serde_json::from_str(text).map_err(|e| crate::SimError::Parse {
            file: file.to_string(),
            line: e.line(),
            col: e.column(),
            msg: format!("not a {SCHEMA} record: {e}"),
        })?;
        if a.schema != SCHEMA {
            return Err(crate::SimError::Parse {
                file: file.to_string(),
                line: 1,
                col: 1,
                msg: format!("schema '{}' (expected '{SCHEMA}')", a.schema),
            });
        }
        Ok(a)
    }
}

/// Counts of one kernel (all launches of it) or of the aggregate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelActivity {
    /// Kernel name (`"aggregate"` for the sum over kernels).
    pub name: String,
    /// Launches summed into this record.
    pub launches: u64,
    /// Set when `sim.max_cycles` or `sim.max_warp_insts` stopped a launch early.
    pub truncated: bool,
    /// GPU-wide cycles from the first CTA launch to the last CTA completion (summed over
    /// launches).
    pub cycles: u64,
    /// +1 per issued warp instruction.
    pub warp_insts: u64,
    /// +lanes per issued warp instruction.
    pub thread_insts: u64,
    /// `warp_insts`/`thread_insts` split by family.
    pub by_family: FamilyCounts,
    /// Scheduler-cycles that issued nothing, by first failing reason (§2.3), all SMs.
    pub stalls: StallCounts,
    /// Occupancy limits and resident-warp/register time integrals.
    pub occupancy: Occupancy,
    /// Per SM, in SM-id order.
    pub sms: Vec<SmActivity>,
    /// Per L2 slice (memory sub-partition), in slice order.
    pub l2: Vec<L2SliceActivity>,
    /// Per DRAM channel.
    pub dram: Vec<DramChannelActivity>,
    /// Interconnect packets and flits per port.
    pub icnt: IcntActivity,
    /// Present when `stats.per_register` is on (§5.4).
    pub per_register: Option<RegisterStats>,
    /// Power-gating controllers' record, present when `pg.policy` is not "None"
    /// (power-gating §9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gating: Option<GatingStats>,
    /// Register-file record for the energy accounting (register-file spec §8): access counts
    /// per structure and driven lanes, collector-unit use, per-state residency. Present with an
    /// organisation that gates its entries, with COMA, or when `rf.latency` is not 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rf: Option<RfStats>,
    /// SOCGPU issue-stage counters (issue-stage §5), present when `sched.ooo.mode` is
    /// "socgpu".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub socgpu: Option<SocgpuStats>,
    /// Reconvergence counters (control-flow spec §6), present when `reconv.counters` is on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reconv: Option<ReconvStats>,
    /// Dynamic-warp-formation structure counters (control-flow spec §6), present on records
    /// of DWF runs of the reference-mode model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dwf: Option<DwfCounts>,
    /// LOOG issue-stage counters (issue-stage §5), present when `sched.ooo.mode` is "loog".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loog: Option<LoogStats>,
    /// Tensor-core work (multiply-accumulates by input type), present when the kernel issued
    /// a tensor instruction with active lanes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tensor: Option<TensorStats>,
}

/// Warp and thread instructions per family.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FamilyCounts {
    /// Integer-pipe instructions (`Family::Int`).
    pub int: InstCount,
    /// Single-precision FP instructions (`Family::Fp`).
    pub fp: InstCount,
    /// Double-precision instructions (`Family::Dp`).
    pub dp: InstCount,
    /// Special-function-unit instructions (`Family::Sfu`: transcendentals, DIV/REM).
    pub sfu: InstCount,
    /// Memory instructions (`Family::Mem`: ld, st, atom, red, membar).
    pub mem: InstCount,
    /// Control-flow instructions (`Family::Ctrl`: bra, ret, exit).
    pub ctrl: InstCount,
    /// CTA barrier instructions (`Family::Bar`: `bar.sync`).
    pub bar: InstCount,
    /// Tensor-core instructions (`Family::Tensor`: `wmma.mma`, `mma.sync`; HMMA); written
    /// only when non-zero.
    #[serde(default, skip_serializing_if = "InstCount::is_zero")]
    pub tensor: InstCount,
}

impl FamilyCounts {
    /// The counts of family `f`.
    pub fn of_mut(&mut self, f: crate::inst::Family) -> &mut InstCount {
        use crate::inst::Family;
        match f {
            Family::Int => &mut self.int,
            Family::Fp => &mut self.fp,
            Family::Dp => &mut self.dp,
            Family::Sfu => &mut self.sfu,
            Family::Mem => &mut self.mem,
            Family::Ctrl => &mut self.ctrl,
            Family::Bar => &mut self.bar,
            Family::Tensor => &mut self.tensor,
        }
    }
}

/// Issued instructions of one family, counted per warp and per active thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstCount {
    /// +1 per issued warp instruction.
    pub warp_insts: u64,
    /// +lanes (active threads) per issued warp instruction.
    pub thread_insts: u64,
}

impl InstCount {
    /// No instruction counted.
    pub fn is_zero(&self) -> bool {
        self.warp_insts == 0 && self.thread_insts == 0
    }
}

/// The work of the tensor cores: scalar multiply-accumulates by input type. One MAC is one
/// product of two matrix elements added to an accumulator element, so a warp-wide
/// m16n16k16 product is 16·16·16 = 4096 MACs, an m16n8k16 2048, an m16n8k8 1024. Counted
/// for every issued tensor instruction whose lanes are active (a tensor instruction runs on
/// all 32 lanes or none; one with every lane predicated off counts none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensorStats {
    /// Multiply-accumulates on f16 inputs (f16 or f32 accumulators), in MACs.
    pub macs_f16: u64,
    /// Multiply-accumulates on bf16 inputs (f32 accumulators), in MACs.
    pub macs_bf16: u64,
}

impl TensorStats {
    /// Multiply-accumulates of every input type, in MACs.
    pub fn macs(&self) -> u64 {
        self.macs_f16 + self.macs_bf16
    }

    /// Counts the issue of an instruction of class `op` with lanes `active_mask` (a tensor
    /// product adds its MACs; any other instruction nothing).
    pub fn count(&mut self, op: crate::inst::OpClass, active_mask: u32) {
        if active_mask == 0 {
            return;
        }
        match op.mma() {
            Some((m, true)) => self.macs_bf16 += m as u64,
            Some((m, false)) => self.macs_f16 += m as u64,
            None => {}
        }
    }
}

/// Scheduler-cycles with no issue, charged to the first failing condition of the
/// highest-priority warp, in this order (spec §2.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StallCounts {
    /// No resident, non-exited warp on the scheduler.
    pub no_warp: u64,
    /// The warp's I-buffer is empty (fetch or I-cache miss pending).
    pub ibuffer_empty: u64,
    /// Waiting at a barrier or for a membar to drain.
    pub barrier: u64,
    /// Head instruction has a RAW/WAW (or WAR) hazard.
    pub scoreboard: u64,
    /// No free collector unit of the needed class (or no in-port).
    pub cu_full: u64,
    /// No free ID_OC slot for the target unit.
    pub pipe_busy: u64,
    /// The target unit is power-gated (a gating policy said not ready).
    pub unit_gated: u64,
}

/// Occupancy of the launch (analytical-model §2.2) and its time integral.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Occupancy {
    /// Resident CTAs per SM allowed by the limits (last launch for the aggregate).
    pub max_ctas_per_sm: u32,
    /// The binding limit: "cta_slots", "threads", "warps", "registers", "shared_memory".
    pub limiter: String,
    /// Σ over SMs and cycles of resident warps.
    pub resident_warp_cycles: u64,
    /// Σ over SMs and cycles of allocated registers (per thread × threads of resident CTAs).
    pub allocated_reg_cycles: u64,
    /// resident_warp_cycles / (cycles · max_warps · n_sm).
    pub mean_occupancy: f64,
    /// Under a unified L1/shared array (`l1d.unified_kb`): the shared-memory carve-out the
    /// launch ran with, bytes (last launch for the aggregate); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shmem_carveout_bytes: Option<u64>,
    /// Under a unified L1/shared array: the L1 data cache's capacity in that split, bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l1d_bytes: Option<u64>,
}

/// Per-SM counters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SmActivity {
    /// Cycles with ≥ 1 resident CTA.
    pub active_cycles: u64,
    /// +1 per warp instruction issued on this SM.
    pub warp_insts: u64,
    /// +lanes per warp instruction issued on this SM.
    pub thread_insts: u64,
    /// CTAs launched on this SM.
    pub ctas: u64,
    /// Σ over cycles of resident warps.
    pub resident_warp_cycles: u64,
    /// Σ over cycles of allocated registers.
    pub allocated_reg_cycles: u64,
    /// One per fetch tag lookup.
    pub icache: CacheReads,
    /// One per instruction written to an I-buffer.
    pub decoder_insts: u64,
    /// Instruction-buffer writes, reads and flushes.
    pub ibuffer: IbufferCounts,
    /// Per scheduler, in scheduler order.
    pub sched: Vec<SchedActivity>,
    /// Scoreboard checks and updates.
    pub scoreboard: ScoreboardCounts,
    /// SIMT-stack pushes and pops seen in the stream.
    pub simt: SimtCounts,
    /// CTA barrier arrivals, releases and waiting warp-cycles.
    pub bar: BarrierCounts,
    /// Register-file bank accesses, lanes and conflicts.
    pub rf: RfActivity,
    /// Per collector class present in the config, in the order sp, sfu, mem, dp, int, gen.
    pub opcoll: Vec<OpcollActivity>,
    /// Per pipe instance (sp0.int, sp0.fp, sp1.int, …, sfu0, dp0, ldst0).
    pub exec: Vec<PipeActivity>,
    /// L1 data cache requests and line traffic.
    pub l1d: L1dActivity,
    /// Shared-memory accesses and bank conflicts.
    pub smem: SmemCounts,
    /// Constant cache: one lookup per distinct address of a constant load.
    pub const_cache: CacheReads,
    /// Texture cache: one lookup per texture-cache line the texels of a texture fetch
    /// (`tex`) touch. Zero when texture fetches go through the L1D (a unified L1,
    /// `l1d.unified_kb`, counted in `l1d`); absent from the JSON when zero.
    #[serde(default, skip_serializing_if = "CacheReads::is_zero")]
    pub tex_cache: CacheReads,
    /// LD/ST unit instructions, requests and stalls.
    pub ldst: LdstCounts,
}

/// Tag lookups of a read-only cache (I-cache, constant cache) and their outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheReads {
    /// Tag lookups.
    pub reads: u64,
    /// Lookups that found the line.
    pub hits: u64,
    /// Lookups that missed and requested a fill.
    pub misses: u64,
}

impl CacheReads {
    /// No lookup counted.
    pub fn is_zero(&self) -> bool {
        *self == CacheReads::default()
    }
}

/// Per-warp instruction buffer (I-buffer) traffic, all warps of one SM.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IbufferCounts {
    /// Instructions written by fetch/decode.
    pub writes: u64,
    /// Instructions read out at issue.
    pub reads: u64,
    /// Whole-buffer flushes on a control-flow redirect (0 in this model: the front end resolves
    /// control flow before timing).
    pub flushes: u64,
    /// Valid entries discarded by those flushes.
    pub flushed_entries: u64,
}

/// One warp scheduler.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchedActivity {
    /// Cycles with ≥ 1 resident warp on this scheduler.
    pub active_cycles: u64,
    /// Cycles that issued 0, 1, 2 (or more) instructions; `issued[0]` counts every simulated
    /// cycle of the kernel window that issued nothing (skipped cycles included).
    pub issued: [u64; 3],
    /// Issue-less cycles of this scheduler by first failing reason.
    pub stall: StallCounts,
    /// Candidate warps examined.
    pub warp_evals: u64,
}

/// Scoreboard accesses of one SM (spec §5.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreboardCounts {
    /// One per candidate check.
    pub reads: u64,
    /// Reserve + release, one each per destination register.
    pub writes: u64,
}

/// SIMT stack activity as seen in the stream: the front end applies the stack; the timing model
/// counts a divergent branch (reconv_pc set) as one push, and its pops at reconvergence are not
/// visible, so `pops` counts divergent branches too (two paths merge once per push).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimtCounts {
    /// Stack pushes: one per divergent branch.
    pub pushes: u64,
    /// Stack pops at reconvergence: one per divergent branch (see above).
    pub pops: u64,
    /// Branches whose taken and fall-through masks are both non-empty (`reconv_pc` set).
    pub divergent_branches: u64,
}

/// CTA barrier (`bar.sync`) activity of one SM.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrierCounts {
    /// Warps arriving at a barrier (one per issued `bar.sync`).
    pub arrivals: u64,
    /// Barrier releases: one per CTA barrier whose last warp arrived.
    pub releases: u64,
    /// Warp-cycles spent waiting at a barrier.
    pub wait_cycles: u64,
}

/// Register file of one SM (§5.2). Vectors are indexed by bank.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RfActivity {
    /// One per granted entry (128 B) read on bank b.
    pub reads: Vec<u64>,
    /// One per destination-register entry (128 B) written back on bank b.
    pub writes: Vec<u64>,
    /// + lanes of each read / write.
    pub read_lanes: Vec<u64>,
    /// + lanes of each write on bank b.
    pub write_lanes: Vec<u64>,
    /// Cycles in which an eligible read was not granted because another read took the port.
    pub conflict_rr: Vec<u64>,
    /// Cycles in which an eligible read was not granted because a write took the port.
    pub conflict_wr: Vec<u64>,
    /// Predicate-file reads (guard or source predicates) and writes.
    pub pred_reads: u64,
    /// Predicate-register destinations written back.
    pub pred_writes: u64,
}

/// One collector-unit class.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpcollActivity {
    /// "sp", "sfu", "mem", "dp", "int" or "gen".
    pub class: String,
    /// Collector units of this class (per SM).
    pub units: u32,
    /// Instructions allocated a collector unit of this class.
    pub allocs: u64,
    /// Source operands collected (one per granted register read).
    pub operands: u64,
    /// Instructions dispatched from a unit of this class to an execution pipe.
    pub dispatches: u64,
    /// Σ over cycles of occupied units of this class.
    pub occupied_cycles: u64,
}

/// One execution pipe instance (§5.3, §5.5).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PipeActivity {
    /// Unit instance: "sp0", "sp1", …, "sfu0", "dp0", "int0", "ldst0".
    pub unit: String,
    /// "int", "fp", "sfu", "dp" or "ldst".
    pub pipe: String,
    /// Physical lanes of the pipe.
    pub lanes: u32,
    /// Operations and lanes by op class (upper-case names: ADD, MAX, MUL, MAD, DIV, SHFL, CVT,
    /// MOV, LOGIC, SETP, SIN, COS, EX2, LG2, RSQRT, RCP, SQRT, BRANCH, EXIT, NOP, LOAD, STORE,
    /// ATOMIC, REDUCTION, MEMBAR). For a double-pumped pipe, lanes count threads.
    pub ops: BTreeMap<String, OpsLanes>,
    /// Timeline of the whole pipe.
    pub busy: IdleStats,
    /// Per physical lane (after the lane map), SP pipes only.
    pub lane_idle: Vec<IdleStats>,
}

/// Operations of one op class on a pipe and the lanes they used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpsLanes {
    /// Warp operations dispatched.
    pub ops: u64,
    /// Σ active lanes of those operations.
    pub lanes: u64,
}

/// Outcome counts of one request kind at a cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcomes {
    /// Tag hit with the needed data present.
    pub hit: u64,
    /// Merged into a pending MSHR entry.
    pub hit_reserved: u64,
    /// Miss that allocated an MSHR entry and sent a fill request.
    pub miss: u64,
    /// Could not allocate (MSHR or miss queue full); retried later and counted again.
    pub res_fail: u64,
}

/// L1 data cache of one SM (spec §5.3); requests are 32-B sectors/segments after coalescing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct L1dActivity {
    /// One per request (coalesced segment).
    pub read: Outcomes,
    /// Write requests (one per coalesced segment), as hit or miss only.
    pub write: Outcomes,
    /// Requests that bypassed L1 (skip_global or no write-allocate path), not in read/write.
    pub bypass: u64,
    /// Lines filled from L2 (one per returned MSHR entry).
    pub fills: u64,
    /// Valid lines evicted to make room for a fill.
    pub evictions: u64,
    /// Dirty lines written back to L2 on eviction.
    pub writebacks: u64,
}

/// Shared memory of one SM.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SmemCounts {
    /// One per shared-memory warp instruction.
    pub accesses: u64,
    /// + active lanes per shared-memory warp instruction.
    pub lanes: u64,
    /// Σ (conflict degree − 1).
    pub conflict_extra_cycles: u64,
}

/// LD/ST unit of one SM.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LdstCounts {
    /// Memory warp instructions processed.
    pub insts: u64,
    /// Coalesced global/local requests (segments) generated.
    pub global_requests: u64,
    /// Cycles the unit could not send a request (downstream full).
    pub stall_cycles: u64,
}

/// One L2 slice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct L2SliceActivity {
    /// Read requests arriving at the slice (tag hit or miss; partial sector hits count as misses).
    pub read: HitMiss,
    /// Write requests (a miss allocates without fetching).
    pub write: HitMiss,
    /// Atomic and reduction requests.
    pub atomic: HitMiss,
    /// Fills from DRAM (one per line fetch of the missing sectors).
    pub fills: u64,
    /// Dirty lines written back to DRAM on eviction.
    pub writebacks: u64,
}

/// Hit and miss counts of one request kind at an L2 slice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HitMiss {
    /// Requests whose sectors were all present.
    pub hit: u64,
    /// Requests that needed a DRAM fill (or allocated a line, for writes).
    pub miss: u64,
}

/// One DRAM channel. Reads and writes are counted in bursts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DramChannelActivity {
    /// Read bursts.
    pub reads: u64,
    /// Write bursts.
    pub writes: u64,
    /// Row activations (ACT).
    pub activates: u64,
    /// Row precharges (PRE) on a row conflict.
    pub precharges: u64,
    /// Column accesses to an already open row.
    pub row_hits: u64,
    /// DRAM cycles the data bus carried data.
    pub bus_busy_cycles: u64,
    /// DRAM cycles of the kernel window (for utilisation = bus_busy_cycles / this).
    pub cycles: u64,
}

/// Interconnect, counted at injection. Ports: SMs 0..n_sm on the request net, slices
/// 0..n_slices on the reply net.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IcntActivity {
    /// Request packets injected per SM port (SM→L2).
    pub req_packets: Vec<u64>,
    /// Request flits per SM port: ⌈packet bytes / flit bytes⌉ (8-B header, plus data for writes
    /// and atomics).
    pub req_flits: Vec<u64>,
    /// Reply packets injected per L2-slice port (L2→SM).
    pub rep_packets: Vec<u64>,
    /// Reply flits per L2-slice port.
    pub rep_flits: Vec<u64>,
}

/// Per-register statistics (§5.4). Index = architectural register (0..256 general, 256..264
/// predicates), summed over warps and SMs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterStats {
    /// Reads counted at operand grant (two reads of one register by one instruction count once).
    pub reads: Vec<u64>,
    /// Writes counted at writeback.
    pub writes: Vec<u64>,
    /// Δ = t − t₀ between consecutive accesses to one (sm, warp slot, reg) key.
    pub inter_access: Log2Hist,
    /// Cycles from the warp's launch to the first access of each key.
    pub first_access_after_alloc: Log2Hist,
    /// The pilot warp's own reads and writes per register (`stats.pilot_warp`).
    pub pilot_reads: Vec<u64>,
    /// The pilot warp's writes per register.
    pub pilot_writes: Vec<u64>,
    /// `metrics.interaccess_cutoff` of the run, cycles (register-file spec §9).
    #[serde(default)]
    pub interaccess_cutoff: u64,
    /// The inter-access distances of `inter_access` that are ≤ `interaccess_cutoff`.
    #[serde(default)]
    pub inter_access_within_cutoff: Log2Hist,
    /// Issued warp instructions by active lanes, bins 1–4, 5–8, 9–12, 13–16, 17–24, 25–32
    /// ([`ACTIVE_LANE_BINS`]).
    #[serde(default)]
    pub active_lane_insts: Vec<u64>,
    /// Issued warp instructions with all 32 lanes active.
    #[serde(default)]
    pub full_warp_insts: u64,
    /// Issued warp instructions with no active lane (in no bin of `active_lane_insts`).
    #[serde(default)]
    pub masked_off_insts: u64,
    /// Per register: accesses (reads + writes) of the profiled pilot warps, one per SM and
    /// kernel launch, picked by the partitioned register file's rule (`prf.pilot_select`).
    #[serde(default)]
    pub profiled_pilot_counts: Vec<u64>,
    /// Pilot warps summed in `profiled_pilot_counts`.
    #[serde(default)]
    pub profiled_pilots: u64,
    /// Per register: accesses of the other warps of the pilots' CTAs.
    #[serde(default)]
    pub pilot_cta_counts: Vec<u64>,
    /// Warps summed in `pilot_cta_counts`.
    #[serde(default)]
    pub pilot_cta_warps: u64,
    /// Per register: accesses of the warps of every other CTA.
    #[serde(default)]
    pub other_cta_counts: Vec<u64>,
    /// Warps summed in `other_cta_counts`.
    #[serde(default)]
    pub other_cta_warps: u64,
}

/// Upper ends (inclusive) of the active-lane bins of [`RegisterStats::active_lane_insts`]
/// (register-file spec §9: 1–4, 5–8, 9–12, 13–16, 17–24, 25–32).
pub const ACTIVE_LANE_BINS: [u32; 6] = [4, 8, 12, 16, 24, 32];

impl KernelActivity {
    /// A record with no counts.
    pub fn empty(name: &str) -> Self {
        KernelActivity {
            name: name.to_string(),
            launches: 0,
            truncated: false,
            cycles: 0,
            warp_insts: 0,
            thread_insts: 0,
            by_family: FamilyCounts::default(),
            stalls: StallCounts::default(),
            occupancy: Occupancy::default(),
            sms: Vec::new(),
            l2: Vec::new(),
            dram: Vec::new(),
            icnt: IcntActivity::default(),
            per_register: None,
            gating: None,
            rf: None,
            socgpu: None,
            reconv: None,
            dwf: None,
            loog: None,
            tensor: None,
        }
    }

    /// The counters of the kernel's out-of-order issue stage, when it ran one.
    pub fn issue_stage(&self) -> Option<&dyn IssueStageCounters> {
        if let Some(g) = &self.socgpu {
            return Some(g);
        }
        self.loog.as_ref().map(|g| g as &dyn IssueStageCounters)
    }

    /// Adds `o`'s issue-stage counters to these (the part of [`Merge`] that depends on which
    /// out-of-order issue stage ran).
    pub(crate) fn merge_issue_stage(&mut self, o: &KernelActivity) {
        match (&mut self.socgpu, &o.socgpu) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.socgpu = Some(b.clone()),
            _ => {}
        }
        match (&mut self.loog, &o.loog) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.loog = Some(b.clone()),
            _ => {}
        }
    }

    /// warp_insts / cycles.
    pub fn ipc_warp(&self) -> f64 {
        if self.cycles == 0 {
            0.0
        } else {
            self.warp_insts as f64 / self.cycles as f64
        }
    }

    /// thread_insts / cycles.
    pub fn ipc_thread(&self) -> f64 {
        if self.cycles == 0 {
            0.0
        } else {
            self.thread_insts as f64 / self.cycles as f64
        }
    }
}
