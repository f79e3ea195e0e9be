//! Reference-mode model of thread scheduling under divergence (control-flow spec §3.4, §4,
//! §5): one model that runs the PDOM baseline, NREC, MIMD and dynamic warp formation (DWF) with
//! its five issue policies under the same scheduler-level timing, so that their cycle counts
//! compare like for like.
//!
//! Timing (control-flow spec §4.1, after W. Fung, *Dynamic Warp Formation*, MASc thesis, UBC
//! 2008): a SIMD pipeline of `n = dwf.simd_width` lanes, so a warp of `w` threads issues over
//! a *scheduler cycle* of `w/n` pipeline cycles, and each core issues at most one warp per
//! scheduler cycle. Each thread has at most one instruction in flight: it is locked from issue
//! until its write-back. An instruction writes back `w/n` cycles plus its latency after issue:
//! the `[latency]` table for arithmetic (via `timing::exec::classify`), `shmem.latency` for
//! shared memory, and for global and local memory the per-core data cache (`[l1d]`: a hit
//! costs `l1d.latency`; a miss adds `dram.latency` and occupies the core's share of the DRAM
//! bandwidth for one line). Stores complete after the hit latency and take bandwidth per line.
//! Cores do not contend with each other (no interconnect model): this is a scheduler study
//! model, not the cycle-level pipeline of `timing::sm`.
//!
//! A load line that hits a line whose fill is still in flight completes when the fill arrives
//! (it merges with the outstanding miss). The memory stage coalesces per issue slot: a line
//! that several thread groups of one slot touch (MIMD and DWF slots may hold several) is one
//! access. A thread that executes `bar.sync` continues, once the barrier releases, at the later
//! of the release and its own write-back, as a PDOM warp does.
//!
//! Modes (`reconv.mode`):
//! - `pdom`: static warps under their PDOM stacks, round-robin issue;
//! - `nrec`: a warp splits at divergence into warps that are never merged again; the scheduler
//!   visits static warps in PDOM's round-robin order and issues the oldest ready split warp of
//!   the first one that has one;
//! - `mimd`: each scheduler cycle up to `w` ready threads issue, at any PCs. The ready threads
//!   of a static warp at one PC form one group (a group arriving at a PC where one waits joins
//!   it), and the lanes fill with whole groups of consecutive static warps in PDOM's
//!   round-robin order, the last group split if it does not fit (its warp comes first next
//!   cycle). So where no warp diverges MIMD and NREC issue the same warps in the same cycles as
//!   PDOM;
//! - `dwf`: threads reaching write-back are formed into pool warps (§5.3) and a pool warp is
//!   chosen by `dwf.policy` (§5.4, §5.5 for DMaj/DMin with the port-budget model).
//!
//! Functional results are the emulator's in every mode (the thread-pool stream executes each
//! instruction with the emulator's semantics).

use super::formation::{FormationStats, Former, Inserted, Tid};
use super::majority::{Majority, MajorityStats};
use super::refactivity::{self, Recorder};
use crate::activity::{merge_formation, merge_majority, Activity, KernelActivity};
use crate::config::reconv::{DwfPolicy, ReconvMode};
use crate::config::GpuConfig;
use crate::emu::pool::{ExecOut, ThreadPool};
use crate::emu::Emulator;
use crate::inst::{Family, MemSpace, OpClass, WarpInst, WARP_SIZE};
use crate::stream::{DevPtr, Gpu};
use crate::timing::cache::{LineState, Probe, TagArray};
use crate::{Launch, SimError};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Counters of a reference-mode run (control-flow spec §6), summed over launches.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RefStats {
    /// Pipeline (core) cycles, summed over launches.
    pub cycles: u64,
    /// Warps issued.
    pub warp_issues: u64,
    /// Thread instructions issued.
    pub thread_insts: u64,
    /// Scheduler cycles × cores.
    pub sched_cycles: u64,
    /// Issue slots by active lanes: W0, W1–4, …, W29–32.
    pub simd_buckets: [u64; 9],
    /// Register-bank conflict stall cycles (non-lane-aware DWF).
    pub bank_conflict_stall_cycles: u64,
    /// Warp-formation counters (DWF).
    pub formation: Option<FormationStats>,
    /// Majority-hardware counters (DWF with DMaj or DMin).
    pub majority: Option<MajorityStats>,
    /// Memory-side counters (every mode).
    #[serde(default)]
    pub mem: RefMemStats,
    /// The W0 issue slots split by cause (control-flow spec §6); `mem + idle + stall + empty`
    /// equals `simd_buckets[0]`.
    #[serde(default)]
    pub w0: W0Split,
    /// Per-cycle occupancy histograms of the DWF structures (control-flow spec §6).
    #[serde(default)]
    pub occupancy: Option<DwfOccupancy>,
    /// Per-thread fairness (control-flow spec §6).
    #[serde(default)]
    pub fairness: ThreadFairness,
}

/// Fairness across threads (control-flow spec §6): how long a thread can wait between two of
/// its instructions and how evenly instructions spread over threads. The wait of a thread is
/// the interval between two consecutive issues of it (its own latency, barrier and scheduling
/// waits included; from its CTA's launch for the first), and its maximum over the thread's
/// life is its maximum wait.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ThreadFairness {
    /// Threads that retired.
    pub threads: u64,
    /// The longest maximum wait of any thread, cycles.
    pub max_wait_cycles: u64,
    /// Sum over threads of their maximum wait, cycles (the mean is this over `threads`).
    pub sum_max_wait_cycles: u64,
    /// Threads by maximum wait: bin `k` holds waits in `[2^(k−1), 2^k)` cycles (bin 0: 0).
    pub max_wait_log2_hist: Vec<u64>,
    /// Fewest dynamic instructions of a thread.
    pub insts_min: u64,
    /// Most dynamic instructions of a thread.
    pub insts_max: u64,
    /// Sum of the threads' dynamic instructions (the mean is this over `threads`).
    pub insts_sum: u64,
}

impl ThreadFairness {
    fn retire(&mut self, max_wait: u64, insts: u64) {
        if self.threads == 0 {
            self.insts_min = insts;
        }
        self.threads += 1;
        self.max_wait_cycles = self.max_wait_cycles.max(max_wait);
        self.sum_max_wait_cycles += max_wait;
        let k = (64 - max_wait.leading_zeros()) as usize;
        if self.max_wait_log2_hist.len() <= k {
            self.max_wait_log2_hist.resize(k + 1, 0);
        }
        self.max_wait_log2_hist[k] += 1;
        self.insts_min = self.insts_min.min(insts);
        self.insts_max = self.insts_max.max(insts);
        self.insts_sum += insts;
    }

    /// Mean over threads of the maximum wait, cycles.
    pub fn mean_max_wait_cycles(&self) -> f64 {
        self.sum_max_wait_cycles as f64 / self.threads.max(1) as f64
    }

    /// Mean dynamic instructions per thread.
    pub fn mean_insts(&self) -> f64 {
        self.insts_sum as f64 / self.threads.max(1) as f64
    }
}

/// Why a scheduler cycle issued no thread (control-flow spec §6, the W0 bucket), sampled per
/// core and scheduler cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct W0Split {
    /// W0.Mem: instructions are in flight and every one of them is a memory instruction, so
    /// every thread that is not ready waits on memory.
    pub mem: u64,
    /// W0.Idle: threads are resident, none is ready and some in-flight instruction is not a
    /// memory one (arithmetic latency), or none is in flight (barrier waits, formation).
    pub idle: u64,
    /// Stall: the issue port is held by the previous issue's register-bank conflict stall
    /// (non-lane-aware DWF). The model has no write-back port, so contention between
    /// write-back and the memory return path cannot leave a slot empty here; this is the only
    /// stall that does.
    pub stall: u64,
    /// The core holds no CTA (launch tails, grids smaller than the GPU): outside the spec's
    /// three causes, kept apart so that they describe only cores with work.
    #[serde(default)]
    pub empty: u64,
}

/// Occupancy histograms of the DWF structures, one sample per core and scheduler cycle:
/// element `k` counts the cycles with exactly `k` live entries (control-flow spec §6; they
/// drive the sizing study and the sub-bank gating analysis).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DwfOccupancy {
    /// Live warp-pool entries.
    pub pool: Vec<u64>,
    /// Live max-heap entries (DMaj and DMin; empty for the list policies).
    pub heap: Vec<u64>,
    /// Valid PC-warp LUT entries.
    pub lut: Vec<u64>,
}

impl DwfOccupancy {
    fn add(h: &mut Vec<u64>, k: usize, n: u64) {
        if h.len() <= k {
            h.resize(k + 1, 0);
        }
        h[k] += n;
    }

    fn merge(&mut self, o: &DwfOccupancy) {
        for (a, b) in [
            (&mut self.pool, &o.pool),
            (&mut self.heap, &o.heap),
            (&mut self.lut, &o.lut),
        ] {
            for (k, &n) in b.iter().enumerate() {
                Self::add(a, k, n);
            }
        }
    }

    /// The cumulative distribution of histogram `h`: element `k` is the share of samples with
    /// at most `k` live entries.
    pub fn cdf(h: &[u64]) -> Vec<f64> {
        let total: u64 = h.iter().sum();
        let mut acc = 0u64;
        h.iter()
            .map(|&n| {
                acc += n;
                if total == 0 {
                    0.0
                } else {
                    acc as f64 / total as f64
                }
            })
            .collect()
    }

    /// Mean live entries of histogram `h`.
    pub fn mean(h: &[u64]) -> f64 {
        let total: u64 = h.iter().sum();
        if total == 0 {
            return 0.0;
        }
        h.iter()
            .enumerate()
            .map(|(k, &n)| k as f64 * n as f64)
            .sum::<f64>()
            / total as f64
    }
}

/// Memory-side counters of a reference-mode run: how the issued thread groups coalesce and
/// what they cost at the data cache and the core's DRAM share. They explain cycle differences
/// between modes that issue the same thread instructions in different groups.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RefMemStats {
    /// Global/local memory instructions executed (one per coalesced thread group).
    pub mem_insts: u64,
    /// Distinct cache lines those instructions touched (summed per instruction).
    pub mem_lines: u64,
    /// Load lines that hit a line whose data had already arrived.
    pub load_line_hits: u64,
    /// Load lines that hit a line whose fill was still in flight.
    pub load_line_hits_pending: u64,
    /// Load lines that missed (one DRAM line read each).
    pub load_line_misses: u64,
    /// Store and atomic lines (one DRAM line transfer each).
    pub store_lines: u64,
    /// Lines of a thread group that another group of the same issue slot had already
    /// accessed (coalesced with it; MIMD and DWF slots may hold several groups).
    pub slot_shared_lines: u64,
    /// Pipeline cycles the DRAM share was occupied (line transfers × cycles per line).
    pub dram_busy_cycles: u64,
}

impl RefStats {
    /// Mean active lanes per issued warp over `w` lanes.
    pub fn simd_efficiency(&self, w: u32) -> f64 {
        if self.warp_issues == 0 {
            0.0
        } else {
            self.thread_insts as f64 / (self.warp_issues as f64 * w as f64)
        }
    }
}

/// A [`Gpu`] that runs every launch on the reference-mode model of `cfg.reconv.mode`; memory
/// and host copies are the emulator's.
pub struct RefGpu {
    /// The functional emulator (device memory, functional state).
    pub emu: Emulator,
    cfg: GpuConfig,
    /// Counters summed over the launches so far.
    pub stats: RefStats,
    /// Cycles of each launch, in order, with the kernel name.
    pub launches: Vec<(String, u64)>,
    recorder: Recorder,
    activity: Activity,
}

impl RefGpu {
    /// A device for `cfg` (its `reconv.mode` and `[dwf]` choose the scheduling).
    pub fn new(cfg: &GpuConfig) -> Result<Self, SimError> {
        if cfg.gpu.warp_size as usize != WARP_SIZE {
            return Err(SimError::Other(format!(
                "'gpu.warp_size' = {}: the reference-mode model needs {WARP_SIZE}",
                cfg.gpu.warp_size
            )));
        }
        let mut emu = Emulator::new();
        emu.configure(cfg);
        let mut activity = Activity::new(&cfg.gpu.name, &cfg.hash_hex());
        activity.provenance = Some(refactivity::provenance());
        Ok(RefGpu {
            emu,
            cfg: cfg.clone(),
            stats: RefStats::default(),
            launches: Vec::new(),
            recorder: Recorder::new(cfg)?,
            activity,
        })
    }

    /// The activity record of the launches so far ([`refactivity`]).
    pub fn activity(&self) -> &Activity {
        &self.activity
    }

    /// Consumes the device and returns its activity record.
    pub fn into_activity(self) -> Activity {
        self.activity
    }
}

impl Gpu for RefGpu {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.emu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.recorder.host_copy(&self.cfg, dst, data.len() as u64);
        self.emu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.emu.copy_from_device(src, out)
    }
    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        let (c, k) = run_launch(
            &self.cfg,
            &mut self.emu,
            launch,
            &mut self.stats,
            Some(&mut self.recorder),
        )?;
        if let Some(k) = k {
            self.activity.add_launch(k);
        }
        self.stats.cycles += c;
        self.launches.push((launch.kernel.name.clone(), c));
        Ok(())
    }
}

/// An instruction in flight: the threads it unlocks at write-back.
struct InFlight {
    cta: u32,
    /// PDOM: the static warp; other modes: `None`.
    warp: Option<u32>,
    /// Threads continuing (not exited, not at a barrier), with their next PC.
    next: Vec<(u32, u32)>,
    /// Threads that executed `bar.sync` in this instruction (non-PDOM modes).
    bar: Vec<u32>,
    /// A memory instruction (for the W0 split).
    mem: bool,
}

struct CtaSlot {
    id: u32,
    base_tid: u32,
    nwarps: u32,
    /// PDOM: static warp locked (an instruction in flight).
    locked: Vec<bool>,
    inflight: u32,
    /// MIMD and NREC: per static warp, the ready thread groups `(pc, threads)` in arrival
    /// order (MIMD merges a group into a waiting one of the same warp and PC; NREC never
    /// merges).
    ready: Vec<VecDeque<(u32, Vec<u32>)>>,
    /// Non-PDOM modes: thread waits at a barrier and its `bar.sync` has written back, so a
    /// release makes it ready at once (a thread still in flight waits for its write-back).
    parked: Vec<bool>,
    /// Per thread: the cycle of its last issue (its CTA's launch before the first), its
    /// maximum wait and its dynamic instructions (fairness).
    last_issue: Vec<u64>,
    max_wait: Vec<u64>,
    insts: Vec<u64>,
}

impl CtaSlot {
    /// Thread `th` issues at cycle `t`.
    #[inline]
    fn issued(&mut self, th: u32, t: u64) {
        let i = th as usize;
        if i < self.insts.len() {
            self.max_wait[i] = self.max_wait[i].max(t.saturating_sub(self.last_issue[i]));
            self.last_issue[i] = t;
            self.insts[i] += 1;
        }
    }
}

/// Issue policy state of one core.
enum Policy {
    Majority(Box<Majority>),
    /// DTime, DPC, DPdPri: the live pool warps (the selection logic is not costed).
    List(DwfPolicy, Vec<u32>),
}

struct Core {
    /// Core index.
    idx: usize,
    /// Cycles the core held a CTA, and warps resident over them (activity record).
    active_cycles: u64,
    resident_warp_cycles: u64,
    ctas: Vec<CtaSlot>,
    threads_used: u32,
    warps_used: u32,
    shmem_used: u32,
    events: BinaryHeap<Reverse<(u64, u64)>>,
    flights: Vec<Option<InFlight>>,
    free_flights: Vec<usize>,
    seq: u64,
    l1: TagArray,
    port_free: u64,
    busy_until: u64,
    rr: usize,
    /// Issue time of the lines in `slot_lines`.
    slot_t: u64,
    /// Lines the memory instructions of the current issue slot touched: `(line, store,
    /// data ready)`; a line reached by several thread groups of one slot is one access.
    slot_lines: Vec<(u64, bool, u64)>,
    former: Option<Former>,
    policy: Option<Policy>,
    /// Write-back groups waiting for pool entries: `(pc, threads)`.
    wb_wait: VecDeque<(u32, Vec<Tid>)>,
    /// Instructions in flight, and how many of them are memory instructions (W0 split).
    flights_live: u32,
    mem_flights: u32,
    /// Occupancy samples (DWF).
    occupancy: DwfOccupancy,
}

impl Core {
    /// The CTA slot and warp index of the core's `pos`-th static warp (CTAs in slot order).
    fn static_warp(&self, pos: usize) -> (usize, usize) {
        let (mut ci, mut wi) = (0usize, pos);
        while wi >= self.ctas[ci].nwarps as usize {
            wi -= self.ctas[ci].nwarps as usize;
            ci += 1;
        }
        (ci, wi)
    }
}

struct Model<'c, 'r> {
    cfg: &'c GpuConfig,
    /// The activity recorder, and the last group it saw: `(core, cycle, pc)`.
    act: Option<&'r mut Recorder>,
    last_group: (usize, u64, u32),
    mode: ReconvMode,
    w: u32,
    sc: u64,
    line_bytes: u64,
    miss_port_cycles: u64,
    out: ExecOut,
    rec: WarpInst,
    /// Memory counters of this launch.
    mem: RefMemStats,
}

/// Runs one launch; returns its cycles (and with a recorder, its activity record) and adds its
/// counters to `stats`.
pub fn run_launch(
    cfg: &GpuConfig,
    emu: &mut Emulator,
    launch: &Launch,
    stats: &mut RefStats,
    mut act: Option<&mut Recorder>,
) -> Result<(u64, Option<KernelActivity>), SimError> {
    let mode = cfg.reconv.mode;
    let d = &cfg.dwf;
    let w = WARP_SIZE as u32;
    let sc = (w / d.simd_width.max(1)).max(1) as u64;
    let mut pool = ThreadPool::new(emu, launch)?;
    let info = pool.info().clone();
    let tpc = info.threads_per_cta();
    let wpc = info.warps_per_cta();
    let l1g = cfg.l1d.geometry();
    let line_bytes = l1g.line_bytes as u64;
    // the core's share of DRAM bandwidth, bytes per core cycle
    let dr = &cfg.dram;
    let bw = (cfg.mem.n_channels * dr.chips_per_channel * dr.bus_bytes_per_chip) as f64
        * dr.data_cmd_ratio as f64
        * (cfg.gpu.dram_mhz / cfg.gpu.core_mhz)
        / cfg.gpu.n_sm.max(1) as f64;
    let miss_port_cycles = ((line_bytes as f64 / bw.max(1e-9)).ceil() as u64).max(1);
    if let Some(r) = act.as_deref_mut() {
        r.begin(cfg, &info.name);
    }
    let mut m = Model {
        cfg,
        act,
        last_group: (usize::MAX, 0, 0),
        mode,
        w,
        sc,
        line_bytes,
        miss_port_cycles,
        out: ExecOut::default(),
        rec: WarpInst::new(0, Family::Int, OpClass::Nop, 0),
        mem: RefMemStats::default(),
    };
    let n_sm = cfg.gpu.n_sm.max(1) as usize;
    let mut cores: Vec<Core> = (0..n_sm)
        .enumerate()
        .map(|(idx, _)| Core {
            idx,
            active_cycles: 0,
            resident_warp_cycles: 0,
            ctas: Vec::new(),
            threads_used: 0,
            warps_used: 0,
            shmem_used: 0,
            events: BinaryHeap::new(),
            flights: Vec::new(),
            free_flights: Vec::new(),
            seq: 0,
            l1: TagArray::new(&l1g),
            port_free: 0,
            busy_until: 0,
            rr: 0,
            slot_t: u64::MAX,
            slot_lines: Vec::new(),
            flights_live: 0,
            mem_flights: 0,
            occupancy: DwfOccupancy::default(),
            former: (mode == ReconvMode::Dwf).then(|| {
                Former::new(
                    w,
                    d.pool_entries,
                    d.pc_lut_entries,
                    d.pc_lut_ways,
                    d.lane_aware,
                    d.swizzle,
                    d.infinite_resources,
                )
            }),
            policy: (mode == ReconvMode::Dwf).then(|| match d.policy {
                DwfPolicy::Dmaj | DwfPolicy::Dmin => Policy::Majority(Box::new(Majority::new(
                    d.policy == DwfPolicy::Dmin,
                    d.heap_entries,
                    d.mheap_lut_entries,
                    d.mheap_lut_ways,
                    sc as u32,
                    d.infinite_resources,
                ))),
                p => Policy::List(p, Vec::new()),
            }),
            wb_wait: VecDeque::new(),
        })
        .collect();
    let ncta = info.num_ctas();
    let mut next_cta = 0u32;
    let mut t = 0u64;
    let mut idle_rounds = 0u64;
    loop {
        // CTA placement: as many as the core's threads, warps, CTA slots and shared memory allow
        for (ci, core) in cores.iter_mut().enumerate() {
            while next_cta < ncta
                && (core.ctas.len() as u32) < cfg.sm.max_ctas.max(1)
                && core.threads_used + wpc * w <= cfg.sm.max_threads.max(wpc * w)
                && core.warps_used + wpc <= cfg.sm.max_warps.max(wpc)
                && core.shmem_used + info.shared_bytes <= cfg.sm.shmem_bytes.max(info.shared_bytes)
            {
                pool.begin_cta(next_cta, ci as u32, core.warps_used)?;
                // thread ids of a CTA start at a warp boundary so static warps keep their slots
                let base = core.ctas.iter().map(|c| c.base_tid + c.nwarps * w).max();
                core.ctas.push(CtaSlot {
                    id: next_cta,
                    base_tid: base.unwrap_or(0),
                    nwarps: wpc,
                    locked: vec![false; wpc as usize],
                    inflight: 0,
                    ready: vec![VecDeque::new(); wpc as usize],
                    parked: vec![false; tpc as usize],
                    last_issue: vec![t; tpc as usize],
                    max_wait: vec![0; tpc as usize],
                    insts: vec![0; tpc as usize],
                });
                core.threads_used += wpc * w;
                core.warps_used += wpc;
                core.shmem_used += info.shared_bytes;
                if mode != ReconvMode::Pdom {
                    let c = core.ctas.last().expect("just pushed");
                    let (id, base) = (c.id, c.base_tid);
                    for wi in 0..wpc {
                        let ts: Vec<u32> = (wi * w..((wi + 1) * w).min(tpc)).collect();
                        m.make_ready(core, id, base, 0, ts, &mut pool, stats)?;
                    }
                }
                next_cta += 1;
            }
        }
        let mut any_live = next_cta < ncta;
        let mut progressed = false;
        for core in cores.iter_mut() {
            if !core.ctas.is_empty() {
                core.active_cycles += sc;
                core.resident_warp_cycles += core.warps_used as u64 * sc;
            }
            progressed |= m.core_cycle(core, t, &mut pool, stats)?;
            // retire finished CTAs
            let mut k = 0;
            while k < core.ctas.len() {
                let c = &core.ctas[k];
                if c.inflight == 0 && pool.live_threads(c.id) == 0 {
                    pool.end_cta(c.id)?;
                    for (&mw, &n) in c.max_wait.iter().zip(&c.insts) {
                        stats.fairness.retire(mw, n);
                    }
                    core.threads_used -= c.nwarps * w;
                    core.warps_used -= c.nwarps;
                    core.shmem_used -= info.shared_bytes;
                    core.ctas.remove(k);
                    progressed = true;
                } else {
                    k += 1;
                }
            }
            any_live |= !core.ctas.is_empty();
        }
        stats.sched_cycles += n_sm as u64;
        if !any_live {
            break;
        }
        t += sc;
        idle_rounds = if progressed { 0 } else { idle_rounds + 1 };
        if idle_rounds > 1_000_000 {
            return Err(SimError::Other(format!(
                "reference-mode model ({}): no progress for 10^6 scheduler cycles at cycle {t} \
                 in kernel '{}'",
                mode.as_str(),
                info.name
            )));
        }
        if cfg.sim.max_cycles > 0 && t > cfg.sim.max_cycles {
            return Err(SimError::Other(format!(
                "reference-mode model: kernel '{}' passed sim.max_cycles = {}",
                info.name, cfg.sim.max_cycles
            )));
        }
    }
    // this launch's DWF counters (for its activity record)
    let mut launch_dwf: Option<crate::activity::DwfCounts> = None;
    for core in &cores {
        if let Some(f) = &core.former {
            let d = launch_dwf.get_or_insert_with(|| crate::activity::DwfCounts {
                formation: FormationStats {
                    tid_bank_writes: vec![0; w as usize],
                    ..Default::default()
                },
                majority: None,
            });
            merge_formation(&mut d.formation, &f.stats);
            if let Some(Policy::Majority(mj)) = &core.policy {
                let s = d.majority.get_or_insert_with(Default::default);
                merge_majority(s, &mj.stats);
            }
        }
    }
    for core in &cores {
        if core.former.is_some() {
            stats
                .occupancy
                .get_or_insert_with(Default::default)
                .merge(&core.occupancy);
        }
        if let Some(f) = &core.former {
            let s = stats.formation.get_or_insert_with(|| FormationStats {
                tid_bank_writes: vec![0; w as usize],
                ..Default::default()
            });
            merge_formation(s, &f.stats);
        }
        if let Some(Policy::Majority(mj)) = &core.policy {
            let s = stats.majority.get_or_insert_with(Default::default);
            merge_majority(s, &mj.stats);
        }
    }
    merge_mem(&mut stats.mem, &m.mem);
    let cycles = t + sc;
    let k = match m.act {
        Some(r) => {
            let active: Vec<u64> = cores.iter().map(|c| c.active_cycles).collect();
            let resident: Vec<u64> = cores.iter().map(|c| c.resident_warp_cycles).collect();
            let occ = crate::timing::occupancy(cfg, &info).ok();
            r.end(
                cfg,
                cycles,
                &active,
                &resident,
                info.regs_per_thread,
                occ.as_ref().map(|o| (o.max_ctas, o.limiter)),
            )
            .map(|mut k| {
                k.dwf = launch_dwf;
                k
            })
        }
        None => None,
    };
    Ok((cycles, k))
}

fn merge_mem(a: &mut RefMemStats, b: &RefMemStats) {
    a.mem_insts += b.mem_insts;
    a.mem_lines += b.mem_lines;
    a.load_line_hits += b.load_line_hits;
    a.load_line_hits_pending += b.load_line_hits_pending;
    a.load_line_misses += b.load_line_misses;
    a.store_lines += b.store_lines;
    a.slot_shared_lines += b.slot_shared_lines;
    a.dram_busy_cycles += b.dram_busy_cycles;
}

fn bucket(lanes: u32) -> usize {
    if lanes == 0 {
        0
    } else {
        ((lanes - 1) / 4 + 1).min(8) as usize
    }
}

impl Model<'_, '_> {
    /// Threads of CTA `cta` (thread ids `ts`, all at `pc`, or each at its own PC for
    /// `pc == u32::MAX`) become ready to issue.
    #[allow(clippy::too_many_arguments)]
    fn make_ready(
        &mut self,
        core: &mut Core,
        cta: u32,
        base: u32,
        pc: u32,
        ts: Vec<u32>,
        pool: &mut ThreadPool,
        _stats: &mut RefStats,
    ) -> Result<(), SimError> {
        if ts.is_empty() {
            return Ok(());
        }
        match self.mode {
            ReconvMode::Pdom => {}
            ReconvMode::Nrec | ReconvMode::Mimd => {
                let merge = self.mode == ReconvMode::Mimd;
                let Some(c) = core.ctas.iter_mut().find(|c| c.id == cta) else {
                    return Ok(());
                };
                let mut ts = ts;
                ts.sort_unstable();
                for chunk in ts.chunk_by(|a, b| a / WARP_SIZE as u32 == b / WARP_SIZE as u32) {
                    let q = &mut c.ready[(chunk[0] / WARP_SIZE as u32) as usize];
                    match q.iter_mut().find(|g| merge && g.0 == pc) {
                        Some(g) => {
                            g.1.extend_from_slice(chunk);
                            g.1.sort_unstable();
                        }
                        None => q.push_back((pc, chunk.to_vec())),
                    }
                }
            }
            ReconvMode::Dwf => {
                let tids: Vec<Tid> = ts
                    .into_iter()
                    .map(|t| Tid {
                        cta,
                        thread: t,
                        core_tid: base + t,
                    })
                    .collect();
                core.wb_wait.push_back((pc, tids));
                self.drain_wb(core);
            }
        }
        let _ = pool;
        Ok(())
    }

    /// Forms warps from the waiting write-back groups while the pool has room (§5.3 step 3).
    fn drain_wb(&mut self, core: &mut Core) {
        let (Some(f), Some(p)) = (core.former.as_mut(), core.policy.as_mut()) else {
            return;
        };
        let mut ins: Vec<Inserted> = Vec::new();
        while let Some((pc, tids)) = core.wb_wait.front() {
            if f.free_entries() < Former::entries_needed(1) {
                break;
            }
            f.insert_group(*pc, tids, &mut ins);
            core.wb_wait.pop_front();
        }
        for i in ins {
            match p {
                Policy::Majority(mj) => mj.insert(i, f),
                Policy::List(_, l) => {
                    if !l.contains(&i.wid) {
                        l.push(i.wid);
                    }
                }
            }
        }
    }

    /// Latency from issue to write-back of the instruction just executed (in `self.out` /
    /// `self.rec`), with its memory accesses charged to the core's cache and DRAM share.
    fn latency(&mut self, core: &mut Core, t: u64, inst: &WarpInst, addrs: &[u64]) -> u64 {
        let cfg = self.cfg;
        let base = self.sc;
        if inst.family != Family::Mem {
            let c = crate::timing::exec::classify(cfg, inst);
            return base + c.latency as u64;
        }
        let space = inst.mem.as_ref().map(|m| m.space);
        match space {
            Some(MemSpace::Shared) => base + cfg.shmem.latency as u64,
            Some(MemSpace::Const) | Some(MemSpace::Param) | None => base + cfg.l1d.latency as u64,
            Some(MemSpace::Global) | Some(MemSpace::Local) => {
                let hit = cfg.l1d.latency as u64;
                let mut lines: Vec<u64> = addrs.iter().map(|a| a / self.line_bytes).collect();
                lines.sort_unstable();
                lines.dedup();
                let store = inst.op == OpClass::Store;
                let mut done = t + base + hit;
                self.mem.mem_insts += 1;
                self.mem.mem_lines += lines.len() as u64;
                if core.slot_t != t {
                    core.slot_t = t;
                    core.slot_lines.clear();
                }
                let writes = store || inst.op == OpClass::Atomic;
                for &l in &lines {
                    // a line another thread group of this issue slot already accessed
                    if let Some(&(_, _, r)) = core
                        .slot_lines
                        .iter()
                        .find(|e| e.0 == l && e.1 == writes && inst.op != OpClass::Atomic)
                    {
                        self.mem.slot_shared_lines += 1;
                        if !store {
                            done = done.max(r);
                        }
                        continue;
                    }
                    let addr_line = core.l1.line_of(l * self.line_bytes);
                    let full = core.l1.full_mask();
                    let probe = if !store && inst.op != OpClass::Atomic {
                        core.l1.probe(addr_line, full)
                    } else {
                        Probe::Miss
                    };
                    if let Probe::Hit { ready_at, .. } = probe {
                        // a line whose fill is still in flight delivers its data when the
                        // fill arrives (the access merges with the outstanding miss)
                        if ready_at > t + base + hit {
                            self.mem.load_line_hits_pending += 1;
                            done = done.max(ready_at);
                        } else {
                            self.mem.load_line_hits += 1;
                        }
                        core.slot_lines
                            .push((l, false, ready_at.max(t + base + hit)));
                        continue;
                    }
                    let start = core.port_free.max(t + base);
                    core.port_free = start + self.miss_port_cycles;
                    self.mem.dram_busy_cycles += self.miss_port_cycles;
                    if store || inst.op == OpClass::Atomic {
                        self.mem.store_lines += 1;
                    } else {
                        self.mem.load_line_misses += 1;
                    }
                    if store {
                        core.slot_lines.push((l, true, 0));
                        continue;
                    }
                    let ready = core.port_free + hit + cfg.dram.latency as u64;
                    core.slot_lines.push((l, writes, ready));
                    if inst.op == OpClass::Load {
                        if let Some((way, _)) =
                            core.l1.allocate(addr_line, LineState::Reserved, ready)
                        {
                            core.l1.fill(way, full, ready);
                        }
                    }
                    done = done.max(ready);
                }
                done - t
            }
        }
    }

    fn push_flight(&mut self, core: &mut Core, done: u64, f: InFlight) {
        core.flights_live += 1;
        core.mem_flights += u32::from(f.mem);
        let i = match core.free_flights.pop() {
            Some(i) => {
                core.flights[i] = Some(f);
                i
            }
            None => {
                core.flights.push(Some(f));
                core.flights.len() - 1
            }
        };
        core.seq += 1;
        core.events
            .push(Reverse((done, (core.seq << 20) | (i as u64 & 0xF_FFFF))));
    }

    /// One scheduler cycle of a core at pipeline cycle `t`: write-backs, then one issue.
    fn core_cycle(
        &mut self,
        core: &mut Core,
        t: u64,
        pool: &mut ThreadPool,
        stats: &mut RefStats,
    ) -> Result<bool, SimError> {
        let mut progressed = false;
        if let (Some(Policy::Majority(mj)), Some(f)) = (core.policy.as_mut(), core.former.as_mut())
        {
            mj.begin_cycle(f);
        }
        // write-back
        while let Some(&Reverse((done, key))) = core.events.peek() {
            if done > t {
                break;
            }
            core.events.pop();
            progressed = true;
            let i = (key & 0xF_FFFF) as usize;
            let fl = core.flights[i].take().expect("flight");
            core.free_flights.push(i);
            core.flights_live -= 1;
            core.mem_flights -= u32::from(fl.mem);
            let Some(k) = core.ctas.iter().position(|c| c.id == fl.cta) else {
                continue;
            };
            core.ctas[k].inflight -= 1;
            let base = core.ctas[k].base_tid;
            if let Some(wi) = fl.warp {
                core.ctas[k].locked[wi as usize] = false;
                continue;
            }
            // group the continuing threads by next PC
            let mut groups: Vec<(u32, Vec<u32>)> = Vec::new();
            for (th, np) in fl.next {
                match groups.iter_mut().find(|g| g.0 == np) {
                    Some(g) => g.1.push(th),
                    None => groups.push((np, vec![th])),
                }
            }
            for (pc, ts) in groups {
                self.make_ready(core, fl.cta, base, pc, ts, pool, stats)?;
            }
            // threads of this instruction that executed `bar.sync`: released while in flight
            // they continue now, otherwise they park until the release
            let mut go = Vec::new();
            for th in fl.bar {
                if pool.thread(fl.cta, th).is_some_and(|s| s.at_barrier) {
                    core.ctas[k].parked[th as usize] = true;
                } else {
                    go.push(th);
                }
            }
            self.ready_released(core, fl.cta, go, pool, stats)?;
        }
        if !core.wb_wait.is_empty() {
            self.drain_wb(core);
            if let Some(f) = core.former.as_mut() {
                if !core.wb_wait.is_empty() {
                    f.stats.pool_full_stall += 1;
                }
            }
        }
        // issue
        let held = t < core.busy_until;
        let lanes = if held {
            0
        } else {
            self.issue(core, t, pool, stats)?
        };
        if let (Some(Policy::Majority(mj)), true) = (core.policy.as_mut(), true) {
            mj.end_cycle();
        }
        stats.simd_buckets[bucket(lanes)] += 1;
        if lanes == 0 {
            if held {
                stats.w0.stall += 1;
            } else if core.ctas.is_empty() {
                stats.w0.empty += 1;
            } else if core.flights_live > 0 && core.mem_flights == core.flights_live {
                stats.w0.mem += 1;
            } else {
                stats.w0.idle += 1;
            }
        }
        if let Some(f) = core.former.as_ref() {
            let o = &mut core.occupancy;
            DwfOccupancy::add(&mut o.pool, f.occupied_entries(), 1);
            DwfOccupancy::add(&mut o.lut, f.lut_entries(), 1);
            if let Some(Policy::Majority(mj)) = core.policy.as_ref() {
                DwfOccupancy::add(&mut o.heap, mj.live_pcs(), 1);
            }
        }
        Ok(progressed || lanes > 0)
    }

    /// Issues at most one warp; returns the threads issued.
    fn issue(
        &mut self,
        core: &mut Core,
        t: u64,
        pool: &mut ThreadPool,
        stats: &mut RefStats,
    ) -> Result<u32, SimError> {
        match self.mode {
            ReconvMode::Pdom => {
                let total: usize = core.ctas.iter().map(|c| c.nwarps as usize).sum();
                for k in 0..total {
                    let pos = (core.rr + 1 + k) % total.max(1);
                    let (ci, wi) = core.static_warp(pos);
                    let id = core.ctas[ci].id;
                    if core.ctas[ci].locked[wi] {
                        continue;
                    }
                    // threads issued: the lanes of the top entry (predicated-off lanes
                    // included, as in the other modes)
                    let (n, mask) = match pool.static_top(id, wi as u32) {
                        Some((_, mask, false)) => (mask.count_ones(), mask),
                        _ => continue,
                    };
                    let mut rec = std::mem::replace(
                        &mut self.rec,
                        WarpInst::new(0, Family::Int, OpClass::Nop, 0),
                    );
                    if !pool.step_static(id, wi as u32, t, &mut rec)? {
                        self.rec = rec;
                        continue;
                    }
                    core.rr = pos;
                    if let Some(r) = self.act.as_deref_mut() {
                        let lanes = rec.active_mask.count_ones() as u64;
                        r.group(self.cfg, core.idx, &rec, lanes, None, pos as u32, true)?;
                    }
                    let addrs: Vec<u64> = rec.mem.as_ref().map_or(Vec::new(), |m| {
                        (0..WARP_SIZE)
                            .filter(|&l| rec.active_mask >> l & 1 != 0)
                            .map(|l| m.addrs[l])
                            .collect()
                    });
                    let lat = self.latency(core, t, &rec, &addrs);
                    let mem = rec.family == Family::Mem;
                    self.rec = rec;
                    core.ctas[ci].locked[wi] = true;
                    core.ctas[ci].inflight += 1;
                    for l in 0..WARP_SIZE as u32 {
                        if mask >> l & 1 != 0 {
                            core.ctas[ci].issued(wi as u32 * WARP_SIZE as u32 + l, t);
                        }
                    }
                    self.push_flight(
                        core,
                        t + lat,
                        InFlight {
                            cta: id,
                            warp: Some(wi as u32),
                            next: Vec::new(),
                            bar: Vec::new(),
                            mem,
                        },
                    );
                    stats.warp_issues += 1;
                    stats.thread_insts += n as u64;
                    core.busy_until = t + self.sc;
                    return Ok(n.max(1));
                }
                Ok(0)
            }
            ReconvMode::Nrec | ReconvMode::Mimd => {
                // static warps in PDOM's round-robin order from the one after the last issued:
                // NREC issues the oldest ready split warp of the first warp that has one; MIMD
                // fills the w lanes with the ready thread groups of consecutive warps (a group
                // that does not fit is split, and its warp comes first next time)
                let total: usize = core.ctas.iter().map(|c| c.nwarps as usize).sum();
                let mut room = if self.mode == ReconvMode::Mimd {
                    self.w as usize
                } else {
                    usize::MAX
                };
                let mut take: Vec<(u32, u32, Vec<u32>)> = Vec::new();
                for k in 0..total {
                    if room == 0 || (self.mode == ReconvMode::Nrec && !take.is_empty()) {
                        break;
                    }
                    let pos = (core.rr + 1 + k) % total.max(1);
                    let (ci, wi) = core.static_warp(pos);
                    let id = core.ctas[ci].id;
                    let q = &mut core.ctas[ci].ready[wi];
                    if q.is_empty() {
                        continue;
                    }
                    while room > 0 {
                        let Some(g) = q.front_mut() else {
                            break;
                        };
                        let pc = g.0;
                        let ts = if g.1.len() <= room {
                            q.pop_front().expect("front").1
                        } else {
                            g.1.drain(..room).collect()
                        };
                        room = room.saturating_sub(ts.len());
                        take.push((id, pc, ts));
                        if self.mode == ReconvMode::Nrec {
                            break;
                        }
                    }
                    core.rr = if q.is_empty() || self.mode == ReconvMode::Nrec {
                        pos
                    } else {
                        (pos + total - 1) % total
                    };
                }
                let n: u32 = take.iter().map(|g| g.2.len() as u32).sum();
                for (cta, pc, ts) in take {
                    self.exec_group(core, t, pool, cta, pc, &ts, stats)?;
                }
                if n > 0 {
                    stats.warp_issues += 1;
                    stats.thread_insts += n as u64;
                    core.busy_until = t + self.sc;
                }
                Ok(n)
            }
            ReconvMode::Dwf => {
                let (Some(f), Some(p)) = (core.former.as_mut(), core.policy.as_mut()) else {
                    return Ok(0);
                };
                let wid = match p {
                    Policy::Majority(mj) => mj.pick(f),
                    Policy::List(pol, l) => {
                        let key = |w: u32| -> (u32, u32, u64) {
                            let pw = &f.pool[w as usize];
                            let pri = if *pol == DwfPolicy::Dpdpri {
                                pw.slots
                                    .iter()
                                    .flatten()
                                    .map(|t| {
                                        pool.thread(t.cta, t.thread).map_or(0, |s| s.passed_rpcs)
                                    })
                                    .max()
                                    .unwrap_or(0)
                            } else {
                                0
                            };
                            match pol {
                                DwfPolicy::Dtime => (0, 0, pw.created),
                                _ => (pri, pw.pc, pw.created),
                            }
                        };
                        let best = (0..l.len()).min_by_key(|&k| key(l[k]));
                        best.map(|k| l.swap_remove(k))
                    }
                };
                let Some(wid) = wid else {
                    return Ok(0);
                };
                let conflict = if self.cfg.dwf.lane_aware {
                    0
                } else {
                    f.bank_conflict(wid)
                };
                let (pc, tids) = f.issue(wid);
                let n = tids.len() as u32;
                // execute per CTA (a pool warp may hold threads of several resident CTAs)
                let mut by_cta: Vec<(u32, Vec<u32>)> = Vec::new();
                for t in &tids {
                    match by_cta.iter_mut().find(|g| g.0 == t.cta) {
                        Some(g) => g.1.push(t.thread),
                        None => by_cta.push((t.cta, vec![t.thread])),
                    }
                }
                let stall = if conflict > 1 { conflict as u64 } else { 0 };
                stats.bank_conflict_stall_cycles += stall;
                for (cta, ts) in by_cta {
                    self.exec_group(core, t + stall, pool, cta, pc, &ts, stats)?;
                }
                stats.warp_issues += 1;
                stats.thread_insts += n as u64;
                core.busy_until = t + self.sc + stall;
                Ok(n)
            }
        }
    }

    /// Threads `ts` of CTA `cta`, released from a barrier, become ready at their recorded PCs
    /// (grouped by static warp and PC); with the threads parked at the barrier whose release
    /// the pool reports.
    fn ready_released(
        &mut self,
        core: &mut Core,
        cta: u32,
        mut ts: Vec<u32>,
        pool: &mut ThreadPool,
        stats: &mut RefStats,
    ) -> Result<(), SimError> {
        let Some(k) = core.ctas.iter().position(|c| c.id == cta) else {
            return Ok(());
        };
        for th in pool.take_released(cta) {
            // a released thread still in flight continues at its own write-back
            if std::mem::take(&mut core.ctas[k].parked[th as usize]) {
                ts.push(th);
            }
        }
        if ts.is_empty() {
            return Ok(());
        }
        let base = core.ctas[k].base_tid;
        let mut groups: Vec<(u32, u32, Vec<u32>)> = Vec::new();
        for th in ts {
            let pc = pool.thread(cta, th).map_or(0, |s| s.pc);
            let sw = th / WARP_SIZE as u32;
            match groups.iter_mut().find(|g| g.0 == sw && g.1 == pc) {
                Some(g) => g.2.push(th),
                None => groups.push((sw, pc, vec![th])),
            }
        }
        for (_, pc, ts) in groups {
            self.make_ready(core, cta, base, pc, ts, pool, stats)?;
        }
        Ok(())
    }

    /// Executes the instruction at `pc` for threads `ts` of CTA `cta` and schedules their
    /// write-back.
    #[allow(clippy::too_many_arguments)]
    fn exec_group(
        &mut self,
        core: &mut Core,
        t: u64,
        pool: &mut ThreadPool,
        cta: u32,
        pc: u32,
        ts: &[u32],
        stats: &mut RefStats,
    ) -> Result<(), SimError> {
        let mut out = std::mem::take(&mut self.out);
        pool.exec(cta, pc, ts, t, &mut out)?;
        if let Some(r) = self.act.as_deref_mut() {
            let key = (core.idx, t, pc);
            let new_inst = self.last_group != key;
            self.last_group = key;
            let slot = (t / self.sc) as u32;
            let addrs = out.space.is_some().then_some(out.addrs.as_slice());
            r.group(
                self.cfg,
                core.idx,
                &out.inst,
                out.active as u64,
                addrs,
                slot,
                new_inst,
            )?;
        }
        let addrs = std::mem::take(&mut out.addrs);
        let lat = self.latency(core, t, &out.inst, &addrs);
        let mem = out.inst.family == Family::Mem;
        out.addrs = addrs;
        let next = std::mem::take(&mut out.next);
        let bar = std::mem::take(&mut out.barrier);
        self.out = out;
        if let Some(c) = core.ctas.iter_mut().find(|c| c.id == cta) {
            c.inflight += 1;
            for &th in ts {
                c.issued(th, t);
            }
        }
        self.push_flight(
            core,
            t + lat,
            InFlight {
                cta,
                warp: None,
                next,
                bar,
                mem,
            },
        );
        // a barrier this instruction completed releases the parked threads now
        self.ready_released(core, cta, Vec::new(), pool, stats)
    }
}
