//! Analytical scheduling model (analytical-model §2): the kernel launch-limit checker, the
//! co-resident blocks per multiprocessor `N_slot` with its limiter, the functional-unit time
//! `fu(c)`, the relative kernel time `T(g, b)` with the block scheduler quantised into waves, the
//! bottleneck throughput, and the §6 hooks (per-unit busy fraction, idle-interval estimate,
//! unused state-buffer capacity).
//!
//! The method follows H. Kim, *Modeling the GPU Instruction Scheduling Performance using
//! Microbenchmarks* (GPUDIAG), bachelor thesis, Seoul National University, 2023, with the register
//! term of `N_slot` carrying the factor b (registers are allocated per warp) and latency kept
//! apart from the issue interval. Every quantity is in cycles, warps, bytes or warp-registers as
//! its identifier says; the model is closed form and allocation free on its hot paths, so an
//! optimiser can call it millions of times per second (`cargo bench -p models --bench sched`).
//!
//! ```
//! use models::sched::{Buffers, Limits, SchedModel, Unit};
//! let m = SchedModel {
//!     w: 32,
//!     n_mp: 1,
//!     limits: Limits::unbounded(1),
//!     buf: Buffers { n1: Some(8), n1_single_warp_exempt: false, n2: 48, s: 49152, s_min: 1,
//!                    r: vec![1024], r_min: vec![4] },
//!     units: vec![Unit::new("sp", 1.0, 4, Some(2), 1)],
//! };
//! assert_eq!(m.n_slot(8, 0, &[16]).0, 6);
//! ```

use std::fmt;

/// Launch limits of §2.1 (`L(T/B)`, `L(T/G)`, `L(S/B)`, `L(R_i/T)`, `L(R_i/B)`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// Threads per block, `L(T/B)`.
    pub t_per_b: u32,
    /// Threads per grid, `L(T/G)`.
    pub t_per_g: u64,
    /// Shared-memory bytes per block, `L(S/B)`.
    pub s_per_b: u32,
    /// Type-i registers per thread, `L(R_i/T)`.
    pub r_per_t: Vec<u32>,
    /// Type-i warp-registers per block, `L(R_i/B)`.
    pub r_per_b: Vec<u32>,
}

impl Limits {
    /// Limits that never bind, for `n_types` register types (tests and examples).
    pub fn unbounded(n_types: usize) -> Self {
        Limits {
            t_per_b: u32::MAX,
            t_per_g: u64::MAX,
            s_per_b: u32::MAX,
            r_per_t: vec![u32::MAX; n_types],
            r_per_b: vec![u32::MAX; n_types],
        }
    }
}

/// State buffers of one multiprocessor (§1, §2.2).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Buffers {
    /// Barrier-buffer entries `N1` (blocks that can hold sync state); `None` = unbounded.
    pub n1: Option<u32>,
    /// Blocks of one warp take no barrier slot (the N1 term drops out when b = 1).
    pub n1_single_warp_exempt: bool,
    /// Warp-slot buffer entries `N2` (resident warps per MP).
    pub n2: u32,
    /// Shared-memory bytes per MP, `S`.
    pub s: u32,
    /// Shared-memory allocation granularity in bytes, `s_min` (≥ 1).
    pub s_min: u32,
    /// Type-i register capacity per MP in warp-registers, `R_i`.
    pub r: Vec<u32>,
    /// Type-i register allocation granularity (registers per thread), `r_i,min` (≥ 1).
    pub r_min: Vec<u32>,
}

/// One functional unit class (or issue-throttling pseudo-unit) of §2.3.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Unit {
    /// Name, e.g. "sp_fp", "sfu", "issue".
    pub name: String,
    /// Issue interval `t_u` for one warp instruction, cycles.
    pub t: f64,
    /// Dependent-use latency `lat_u`, cycles.
    pub lat: u32,
    /// Replicas per partition `m_u`; `None` = unbounded (the unit never throttles).
    pub m: Option<u32>,
    /// Partitions `s_u` (sub-cores); each serves only its own warps.
    pub s: u32,
}

impl Unit {
    /// A unit with the given issue interval (cycles), latency, replicas and partitions.
    pub fn new(name: &str, t: f64, lat: u32, m: Option<u32>, s: u32) -> Self {
        Unit {
            name: name.to_string(),
            t,
            lat,
            m,
            s: s.max(1),
        }
    }

    /// Warp instructions per cycle the unit class sustains over all partitions,
    /// `m_u · s_u / t_u` (∞ for an unbounded unit).
    pub fn throughput_per_cycle(&self) -> f64 {
        match self.m {
            None => f64::INFINITY,
            Some(m) => m as f64 * self.s as f64 / self.t,
        }
    }
}

/// The operand-delivery path of one multiprocessor, the source of two issue-throttling
/// pseudo-units of §2.3 [G] that a unit table alone misses:
///
/// - **register-file ports** (`rf`): every register read and every write-back takes one port
///   of one bank for `port_cycles_per_access` cycles. Over many warps the accesses spread
///   over the banks (registers map to banks with a per-warp offset), so the pseudo-unit is the
///   aggregate port pool: `t = port_cycles_per_access`, `m = banks_per_partition ·
///   ports_per_bank`, `s = partitions`, with `n_u` = accesses (reads + writes) per instruction.
///   With one bank and one port it is exact; with many banks it is the bandwidth bound that
///   conflicts can only raise.
/// - **operand collectors** (`oc`): an instruction holds one collector of its class from issue
///   until it dispatches to its unit: the serialised reads of
///   its busiest bank, then dispatch once the last operand arrived. The pseudo-unit is
///   `t = occupancy`, `m = collectors per partition`, `s = partitions`, `n_u = 1`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OperandPath {
    /// Register-file banks per partition.
    pub banks_per_partition: u32,
    /// Ports per bank (shared by reads and writes).
    pub ports_per_bank: u32,
    /// Cycles one access holds its port.
    pub port_cycles_per_access: u32,
    /// Partitions (sub-cores) owning a disjoint set of banks and collectors.
    pub partitions: u32,
    /// Collector units per partition of the class the instructions use.
    pub collectors_per_partition: u32,
}

impl OperandPath {
    /// The register-file port pseudo-unit `rf` (its `n_u` is accesses per instruction).
    pub fn rf_unit(&self) -> Unit {
        Unit::new(
            "rf",
            self.port_cycles_per_access.max(1) as f64,
            0,
            Some((self.banks_per_partition * self.ports_per_bank).max(1)),
            self.partitions,
        )
    }

    /// Cycles an instruction whose busiest bank holds `reads_on_busiest_bank` of its reads
    /// keeps its collector: `⌈k/ports⌉·port_cycles + 1` (the serialised grants from the cycle
    /// after issue, then dispatch the cycle the last operand arrives, the collector free for
    /// the next issue in that cycle); an instruction without register reads: 1.
    pub fn collector_cycles(&self, reads_on_busiest_bank: u32) -> f64 {
        let pc = self.port_cycles_per_access.max(1);
        (reads_on_busiest_bank.div_ceil(self.ports_per_bank.max(1)) * pc + 1) as f64
    }

    /// The collector pseudo-unit `oc` for instructions with `reads_on_busiest_bank` reads on
    /// their busiest bank (`n_u = 1` per instruction that takes a collector).
    pub fn collector_unit(&self, reads_on_busiest_bank: u32) -> Unit {
        Unit::new(
            "oc",
            self.collector_cycles(reads_on_busiest_bank),
            0,
            Some(self.collectors_per_partition.max(1)),
            self.partitions,
        )
    }

    /// Extra cycles the operand reads add to one link of a dependent chain over an
    /// instruction whose reads all go to different banks: `(⌈k/ports⌉ − 1)·port_cycles`.
    pub fn chain_read_cycles(&self, reads_on_busiest_bank: u32) -> u32 {
        reads_on_busiest_bank
            .div_ceil(self.ports_per_bank.max(1))
            .saturating_sub(1)
            * self.port_cycles_per_access.max(1)
    }
}

/// A kernel's launch shape for the limit check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelShape {
    /// Blocks per grid `G`.
    pub blocks: u64,
    /// Threads per block `B`.
    pub threads_per_block: u32,
    /// Shared-memory bytes per block `s`.
    pub shared_bytes: u32,
    /// Type-i registers per thread `r_i`.
    pub regs_per_thread: Vec<u32>,
}

/// The launch limit a kernel violates (§2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Limit {
    /// `B > L(T/B)`.
    ThreadsPerBlock,
    /// `B·G > L(T/G)`.
    ThreadsPerGrid,
    /// `⌈s, s_min⌉ > L(S/B)`.
    SharedPerBlock,
    /// `r_i > L(R_i/T)` for register type i.
    RegsPerThread(usize),
    /// `b·⌈r_i, r_i,min⌉ > L(R_i/B)` for register type i.
    RegsPerBlock(usize),
}

/// A failed launch and the limit it violated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchFail {
    /// The violated limit.
    pub limit: Limit,
}

impl fmt::Display for LaunchFail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.limit {
            Limit::ThreadsPerBlock => "threads per block L(T/B)".to_string(),
            Limit::ThreadsPerGrid => "threads per grid L(T/G)".to_string(),
            Limit::SharedPerBlock => "shared bytes per block L(S/B)".to_string(),
            Limit::RegsPerThread(i) => format!("type-{i} registers per thread L(R{i}/T)"),
            Limit::RegsPerBlock(i) => format!("type-{i} warp-registers per block L(R{i}/B)"),
        };
        write!(f, "launch fails: {s} exceeded")
    }
}

/// The state buffer that bounds `N_slot` (§2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Limiter {
    /// Barrier buffer `N1`.
    Barrier,
    /// Warp-slot buffer `⌊N2/b⌋`.
    WarpSlot,
    /// Shared memory `⌊S/⌈s, s_min⌉⌋`.
    Shmem,
    /// Register file of type i.
    Regfile(usize),
}

impl fmt::Display for Limiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limiter::Barrier => f.write_str("barrier"),
            Limiter::WarpSlot => f.write_str("warp_slot"),
            Limiter::Shmem => f.write_str("shmem"),
            Limiter::Regfile(i) => write!(f, "regfile{i}"),
        }
    }
}

/// `⌈a, u⌉`: `a` rounded up to a multiple of `u` (u = 0 is read as 1).
pub fn round_up(a: u32, u: u32) -> u64 {
    let u = u.max(1) as u64;
    (a as u64).div_ceil(u) * u
}

/// The analytical model of one GPU (§2.7).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SchedModel {
    /// Warp size `w`, threads.
    pub w: u32,
    /// Identical multiprocessors `n_mp`.
    pub n_mp: u32,
    /// Launch limits.
    pub limits: Limits,
    /// State buffers per MP.
    pub buf: Buffers,
    /// Functional units and pseudo-units.
    pub units: Vec<Unit>,
}

impl SchedModel {
    /// Warps per block `b = ⌈B/w⌉`.
    pub fn warps_per_block(&self, threads_per_block: u32) -> u32 {
        threads_per_block.div_ceil(self.w.max(1))
    }

    /// The launch-limit check of §2.1; the error names the first violated limit in the order
    /// threads/block, threads/grid, shared/block, then per register type regs/thread and
    /// regs/block.
    pub fn check_launch(&self, k: &KernelShape) -> Result<(), LaunchFail> {
        let fail = |limit| Err(LaunchFail { limit });
        let l = &self.limits;
        if k.threads_per_block > l.t_per_b {
            return fail(Limit::ThreadsPerBlock);
        }
        if (k.threads_per_block as u128) * (k.blocks as u128) > l.t_per_g as u128 {
            return fail(Limit::ThreadsPerGrid);
        }
        if round_up(k.shared_bytes, self.buf.s_min) > l.s_per_b as u64 {
            return fail(Limit::SharedPerBlock);
        }
        let b = self.warps_per_block(k.threads_per_block) as u64;
        for (i, &r) in k.regs_per_thread.iter().enumerate() {
            if r > l.r_per_t.get(i).copied().unwrap_or(u32::MAX) {
                return fail(Limit::RegsPerThread(i));
            }
            let rmin = self.buf.r_min.get(i).copied().unwrap_or(1);
            if b * round_up(r, rmin) > l.r_per_b.get(i).copied().unwrap_or(u32::MAX) as u64 {
                return fail(Limit::RegsPerBlock(i));
            }
        }
        Ok(())
    }

    /// Co-resident blocks per MP and the limiter (§2.2, corrected form): the minimum of `N1`,
    /// `⌊N2/b⌋`, `⌊S/⌈s, s_min⌉⌋` (absent when s = 0) and, per register type,
    /// `⌊R_i/(⌈r_i, r_i,min⌉·b)⌋` (absent when r_i = 0). Rounding is applied before the
    /// division. Ties go to the earlier term in that order. With `n1_single_warp_exempt` the
    /// N1 term drops out for b = 1. `b = 0` gives `(0, WarpSlot)`.
    pub fn n_slot(&self, b: u32, s: u32, r: &[u32]) -> (u32, Limiter) {
        if b == 0 {
            return (0, Limiter::WarpSlot);
        }
        let mut best = (u64::MAX, Limiter::WarpSlot);
        let mut take = |n: u64, lim: Limiter| {
            if n < best.0 {
                best = (n, lim);
            }
        };
        if let Some(n1) = self.buf.n1 {
            if !(self.buf.n1_single_warp_exempt && b == 1) {
                take(n1 as u64, Limiter::Barrier);
            }
        }
        take((self.buf.n2 / b) as u64, Limiter::WarpSlot);
        if s > 0 {
            take(
                self.buf.s as u64 / round_up(s, self.buf.s_min),
                Limiter::Shmem,
            );
        }
        for (i, &ri) in r.iter().enumerate() {
            if ri == 0 {
                continue;
            }
            let cap = self.buf.r.get(i).copied().unwrap_or(u32::MAX) as u64;
            let rmin = self.buf.r_min.get(i).copied().unwrap_or(1);
            take(cap / (round_up(ri, rmin) * b as u64), Limiter::Regfile(i));
        }
        (best.0.min(u32::MAX as u64) as u32, best.1)
    }

    /// `fu(c)` of §2.3 for a body that uses each unit in `used` once per period per warp
    /// (`n_u = 1`); `p1_cycles` is the measured single-warp period P1. `fu(0) = 0`.
    pub fn fu(&self, c: u32, used: &[usize], p1_cycles: f64) -> f64 {
        self.fu_counts(c, used.iter().map(|&u| (u, 1.0)), p1_cycles)
    }

    /// `fu(c)` with per-unit uses per period: `used` yields (unit index, n_u), and unit u's
    /// interval becomes `n_u·t_u` (§2.3 generalisation):
    /// `fu(c) = max(1, max_u n_u·t_u/(m_u·P1)·⌈c/s_u⌉)`, `fu(0) = 0`; unbounded units and
    /// indices out of range drop out.
    pub fn fu_counts(
        &self,
        c: u32,
        used: impl IntoIterator<Item = (usize, f64)>,
        p1_cycles: f64,
    ) -> f64 {
        if c == 0 {
            return 0.0;
        }
        let mut f = 1.0f64;
        for (ui, n) in used {
            let Some(u) = self.units.get(ui) else {
                continue;
            };
            let Some(m) = u.m else { continue };
            let per_part = c.div_ceil(u.s.max(1)) as f64;
            f = f.max(n * u.t / (m.max(1) as f64 * p1_cycles) * per_part);
        }
        f
    }

    /// `P(c) = P1·fu(c)`: cycles per repetition of a block of c warps running alone (§2.3).
    pub fn period_cycles(&self, c: u32, used: &[(usize, f64)], p1_cycles: f64) -> f64 {
        p1_cycles * self.fu_counts(c, used.iter().copied(), p1_cycles)
    }

    /// Relative kernel time of §2.4,
    /// `T(g, b) = ⌊g/N_slot⌋·fu(b·N_slot) + fu(b·(g mod N_slot))` with g blocks per MP;
    /// `N_slot = 0` (nothing fits) gives +∞.
    pub fn t_rel(&self, g: u32, b: u32, n_slot: u32, fu: impl Fn(u32) -> f64) -> f64 {
        if n_slot == 0 {
            return f64::INFINITY;
        }
        (g / n_slot) as f64 * fu(b * n_slot) + fu(b * (g % n_slot))
    }

    /// Blocks per MP under an even spread, `g = ⌈G/n_mp⌉`.
    pub fn blocks_per_mp(&self, grid_blocks: u64) -> u32 {
        grid_blocks
            .div_ceil(self.n_mp.max(1) as u64)
            .min(u32::MAX as u64) as u32
    }

    /// Bottleneck throughput `thr_bot = min_u m_u·s_u/(n_u·t_u)` over the used units, in warp
    /// instructions per cycle per MP (§2.5, with `n_u = 1`); +∞ when no used unit is bounded.
    pub fn thr_bot(&self, used: &[usize]) -> f64 {
        self.thr_bot_counts(used.iter().map(|&u| (u, 1.0)))
    }

    /// As [`SchedModel::thr_bot`] with per-unit uses per period `n_u`, in periods per cycle.
    pub fn thr_bot_counts(&self, used: impl IntoIterator<Item = (usize, f64)>) -> f64 {
        used.into_iter()
            .filter_map(|(ui, n)| self.units.get(ui).map(|u| u.throughput_per_cycle() / n))
            .fold(f64::INFINITY, f64::min)
    }

    /// `n_bot = max_c c/fu(c)` over `c = 1 … c_max` (§2.5).
    pub fn n_bot(&self, c_max: u32, fu: impl Fn(u32) -> f64) -> f64 {
        (1..=c_max.max(1))
            .map(|c| c as f64 / fu(c))
            .fold(0.0, f64::max)
    }

    /// Predicted single-warp period of a dependent chain (§2.3 "Predicted P1"):
    /// `Σ lat(op_j) + k·issue_overhead` over the chain's units.
    pub fn p1_pred(&self, chain: &[usize], issue_overhead_cycles: f64) -> f64 {
        chain
            .iter()
            .filter_map(|&u| self.units.get(u))
            .map(|u| u.lat as f64 + issue_overhead_cycles)
            .sum()
    }

    /// §6 per-unit busy fraction in steady state for c warps on one MP:
    /// `util_u(c) = n_u·⌈c/s_u⌉·t_u/(m_u·P(c))`, capped at 1; 0 for an unbounded unit.
    pub fn util(&self, unit: usize, n_u: f64, c: u32, period_cycles: f64) -> f64 {
        let Some(u) = self.units.get(unit) else {
            return 0.0;
        };
        let Some(m) = u.m else { return 0.0 };
        if period_cycles <= 0.0 {
            return 0.0;
        }
        (n_u * c.div_ceil(u.s.max(1)) as f64 * u.t / (m.max(1) as f64 * period_cycles)).min(1.0)
    }

    /// §6 idle-interval estimate of a unit, cycles: the gap between uses
    /// `P(c)/(n_u·⌈c/s_u⌉)` minus the unit's occupancy per use `t_u/m_u`, floored at 0.
    /// `None` when the unit is not used (`n_u = 0` or c = 0).
    pub fn idle_interval_cycles(
        &self,
        unit: usize,
        n_u: f64,
        c: u32,
        period_cycles: f64,
    ) -> Option<f64> {
        let u = self.units.get(unit)?;
        if n_u <= 0.0 || c == 0 {
            return None;
        }
        let uses = n_u * c.div_ceil(u.s.max(1)) as f64;
        let occ = match u.m {
            Some(m) => u.t / m.max(1) as f64,
            None => 0.0,
        };
        Some((period_cycles / uses - occ).max(0.0))
    }

    /// §6 unused state-buffer capacity at the achieved occupancy of a kernel with b warps per
    /// block, s shared bytes and r_i registers per thread.
    pub fn unused_capacity(&self, b: u32, s: u32, r: &[u32]) -> UnusedCapacity {
        let (n, _) = self.n_slot(b, s, r);
        let n = n as u64;
        let shmem_bytes =
            (self.buf.s as u64).saturating_sub(n * round_up(s, self.buf.s_min)) as u32;
        let regs_warp = self
            .buf
            .r
            .iter()
            .enumerate()
            .map(|(i, &cap)| {
                let ri = r.get(i).copied().unwrap_or(0);
                let rmin = self.buf.r_min.get(i).copied().unwrap_or(1);
                (cap as u64).saturating_sub(n * b as u64 * round_up(ri, rmin)) as u32
            })
            .collect();
        UnusedCapacity {
            shmem_bytes,
            regs_warp,
            warp_slots: (self.buf.n2 as u64).saturating_sub(n * b as u64) as u32,
        }
    }
}

/// Unused state-buffer capacity at the achieved occupancy (§6).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct UnusedCapacity {
    /// `S − N_slot·⌈s, s_min⌉`, bytes.
    pub shmem_bytes: u32,
    /// `R_i − N_slot·b·⌈r_i, r_i,min⌉` per register type, warp-registers.
    pub regs_warp: Vec<u32>,
    /// `N2 − N_slot·b`, warp slots.
    pub warp_slots: u32,
}

#[cfg(test)]
mod tests;
