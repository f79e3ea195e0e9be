//! One streaming multiprocessor: warp state (structure of arrays), fetch/decode/I-buffer, issue
//! through the scheduler and scoreboard traits, operand collectors over the banked RF, execution
//! units with latency and initiation interval, writeback, barriers (spec simulator.md §2.2–2.5,
//! §2.9). The LD/ST path is in `smmem.rs`.
//!
//! Each core cycle evaluates the stages in reverse order: writeback, execute and LD/ST, dispatch,
//! RF arbitration, issue, fetch/decode.

use super::cache::TagArray;
use super::divisor::Divisor;
use super::exec::{classify_op, ExecClass, PipeClass, SpPipe, N_OPS};
use super::policy::{
    make_scheduler, GatingPolicy, InOrderScoreboard, IssueStage, IssueStageSlot, MonolithicRf,
    NoGating, RegisterFileOrg, RegisterFileSlot, UnitState, WarpScheduler, WarpView, N_REGS,
};
use super::smmem::LdstUnit;
use super::tinst::{AddrPool, TInst};
use super::warpset::WarpSet;
use crate::activity::LaneTimelines;
use crate::activity::{OpcollActivity, OpsLanes, SchedActivity, SmActivity, StallCounts, Timeline};
use crate::config::{BusyDefinition, GpuConfig, LaneMap};
use crate::inst::{Family, MemSpace, OpClass, WarpInst, PRED_BASE};
use std::collections::VecDeque;

/// Every instruction family (for the execution-class table).
const ALL_FAMILIES: [Family; 7] = [
    Family::Int,
    Family::Fp,
    Family::Dp,
    Family::Sfu,
    Family::Mem,
    Family::Ctrl,
    Family::Bar,
];
const N_FAMILIES: usize = ALL_FAMILIES.len();

/// Stall reasons in attribution order (§2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stall {
    NoWarp,
    IbufferEmpty,
    Barrier,
    Scoreboard,
    CuFull,
    PipeBusy,
    UnitGated,
}

fn add_stall(s: &mut StallCounts, r: Stall, n: u64) {
    match r {
        Stall::NoWarp => s.no_warp += n,
        Stall::IbufferEmpty => s.ibuffer_empty += n,
        Stall::Barrier => s.barrier += n,
        Stall::Scoreboard => s.scoreboard += n,
        Stall::CuFull => s.cu_full += n,
        Stall::PipeBusy => s.pipe_busy += n,
        Stall::UnitGated => s.unit_gated += n,
    }
}

/// A collector unit holding one issued instruction.
#[derive(Clone)]
pub(crate) struct Cu {
    pub busy: bool,
    /// Collector class index (0 sp, 1 sfu, 2 mem, 3 dp, 4 int, 5 gen).
    pub class: usize,
    pub subcore: u32,
    pub warp: u16,
    pub seq: u64,
    pub inst: TInst,
    pub ec: ExecClass,
    /// Pending reads: (bank, reg); `n_reads` valid, `n_done` granted.
    pub reads: [(u16, u16); 5],
    pub n_reads: u8,
    pub granted: u8,
    /// Cycle the last operand is available (u64::MAX while reads are pending).
    pub ready_at: u64,
}

/// A result waiting for writeback.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Wb {
    pub ready: u64,
    pub seq: u64,
    pub warp: u16,
    pub n_dst: u8,
    pub dst: [u16; 4],
    pub lanes: u8,
}

/// An execution unit instance (SP cluster, SFU, DP, INT or LD/ST).
pub(crate) struct Unit {
    pub class: PipeClass,
    pub subcore: u32,
    pub next_accept: u64,
    /// Index into `pipes` of its INT pipe (SP/INT units) or its only pipe.
    pub pipe_int: usize,
    /// Index of the FP pipe (SP units), else same as `pipe_int`.
    pub pipe_fp: usize,
}

/// Timeline and op counters of one pipe.
pub(crate) struct Pipe {
    pub unit: String,
    pub name: &'static str,
    pub lanes: u32,
    pub ops: [OpsLanes; N_OPS],
    pub busy: Timeline,
    pub lane_tl: LaneTimelines,
    pub double_pumped: bool,
    /// Busy interval [start, end) of every lane not yet applied to `lane_tl`: consecutive
    /// dispatches that keep all lanes busy and overlap or touch are merged here, which marks
    /// the same union of busy cycles as marking each dispatch on each lane.
    pub lanes_pending: Option<(u64, u64)>,
}

impl Pipe {
    /// Marks the lanes active in `mask` busy for [t, t + len) (`t` non-decreasing).
    #[inline]
    pub fn lanes_busy(&mut self, t: u64, len: u64, mask: u32) {
        let n = self.lane_tl.len();
        if n == 0 || len == 0 {
            return;
        }
        let mut m = mask;
        if self.double_pumped {
            m = (m | (m >> 16)) & 0xffff;
        }
        let all = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
        if m & all == all {
            match self.lanes_pending {
                Some((_, ref mut end)) if t <= *end => *end = (*end).max(t + len),
                _ => {
                    self.flush_lanes();
                    self.lanes_pending = Some((t, t + len));
                }
            }
            return;
        }
        self.flush_lanes();
        let mut bits = m & all;
        while bits != 0 {
            let l = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.lane_tl.busy(l, t, len);
        }
    }

    /// Applies the pending all-lanes interval to every lane.
    pub fn flush_lanes(&mut self) {
        if let Some((start, end)) = self.lanes_pending.take() {
            for l in 0..self.lane_tl.len() {
                self.lane_tl.busy(l, start, end - start);
            }
        }
    }
}

pub(crate) struct CtaSlot {
    pub valid: bool,
    pub cta_id: u32,
    pub first_slot: u32,
    pub n_warps: u32,
    pub warps_done: u32,
    pub exited: u32,
    pub bar_arrived: u32,
    pub regs: u64,
}

pub(crate) struct Sm {
    pub id: u32,
    pub cfg_busy_accept: bool,
    // ---- warp state (SoA) ----
    pub w_valid: Vec<bool>,
    pub w_cta: Vec<u32>,
    pub w_idx: Vec<u32>,
    pub w_age: Vec<u64>,
    pub w_stream_done: Vec<bool>,
    pub w_exited: Vec<bool>,
    pub w_fetch_bar: Vec<bool>,
    /// Warps waiting at a CTA barrier.
    pub at_bar: WarpSet,
    /// Warps that issued a memory barrier; they wait while `mem_out_nz` holds them.
    pub membar: WarpSet,
    /// Warps with memory requests outstanding (`w_mem_out > 0`).
    pub mem_out_nz: WarpSet,
    pub w_fetch_ready: Vec<u64>,
    pub w_ifetch_line: Vec<u64>,
    pub w_inflight: Vec<u32>,
    pub w_mem_out: Vec<u32>,
    pub w_launch: Vec<u64>,
    pub ibuf: Vec<[TInst; 8]>,
    /// Per I-buffer entry: the collectors its instruction may take ([`Sm::cu_mask`]), 0 for
    /// one that takes none. Read by the issue stage without touching the entry itself.
    pub ib_cu: Vec<[u64; 8]>,
    /// Per warp: `ib_cu` of its I-buffer head while the buffer holds an entry (a dense copy
    /// for the issue stage's collector check).
    pub w_head_cu: Vec<u64>,
    /// First cycle the warp's I-buffer entries may issue (decode done, I-cache fill arrived);
    /// a warp fetches only into an empty I-buffer, so its entries share one time.
    pub w_ib_ready: Vec<u64>,
    /// The latest finite `w_ib_ready` assigned (always the assigning cycle + 1).
    pub ib_ready_last: u64,
    /// Per-lane addresses of fetched memory instructions until the LD/ST unit accepts them.
    pub addr_pool: AddrPool,
    /// The stream writes each fetched instruction here before it is compacted into `ibuf`.
    pub fetch_tmp: WarpInst,
    pub ib_head: Vec<u8>,
    pub ib_len: Vec<u8>,
    pub ib_cap: u8,
    pub n_resident_warps: u32,
    pub n_resident_ctas: u32,
    pub allocated_regs: u64,
    // ---- CTAs ----
    pub ctas: Vec<CtaSlot>,
    // ---- issue ----
    /// The issue stage's policies. Their constant properties are read once, into `flags`,
    /// when they are installed ([`Sm::new`]); whoever replaces one must call
    /// [`Sm::refresh_policy_flags`].
    scoreboard: IssueStageSlot,
    scheds: Vec<Box<dyn WarpScheduler>>,
    flags: PolicyFlags,
    /// The number of schedulers, as a divisor (warp slot → scheduler, rotation).
    pub n_sched: Divisor,
    pub sched_warps: Vec<Vec<u16>>,
    pub last_stall: Vec<Option<Stall>>,
    /// Per scheduler: this cycle's views of its live warps. For schedulers that read only slot
    /// and age ([`WarpScheduler::uses_warp_state`] false) they are rebuilt only when the live
    /// set changes.
    views: Vec<Vec<WarpView>>,
    views_stale: Vec<bool>,
    /// Per scheduler: its last priority order, and whether it still holds (the views were not
    /// rebuilt and nothing issued since), for schedulers whose
    /// [`WarpScheduler::order_reusable`] is true.
    orders: Vec<Vec<u16>>,
    order_valid: Vec<bool>,
    /// Per scheduler: its views were rebuilt since it last saw them.
    views_new: Vec<bool>,
    // ---- operand collectors / RF ----
    pub rf: RegisterFileSlot,
    pub cus: Vec<Cu>,
    pub cu_class_ports: [u32; 6],
    pub cu_class_out: [u32; 6],
    pub bank_req: Vec<u64>,
    /// Bit set over banks: `bank_req[b] != 0`.
    pub banks_pending: Vec<u64>,
    pub bank_rr: Vec<u32>,
    pub bank_wr_used: Vec<u32>,
    /// Some `bank_wr_used` entry is non-zero.
    pub bank_wr_any: bool,
    pub ports_per_bank: u32,
    pub seq: u64,
    // ---- execution ----
    pub units: Vec<Unit>,
    /// Per pipe class ([`PipeClass::index`]): some unit of the class exists.
    class_has_unit: [bool; 6],
    /// Per sub-core, per pipe class: some unit of the class belongs to the sub-core.
    subcore_has_unit: Vec<[bool; 6]>,
    pub pipes: Vec<Pipe>,
    gating: Box<dyn GatingPolicy>,
    /// Results in flight, in (ready, seq) order (see [`Sm::wb_push`]).
    pub wb_queue: VecDeque<Wb>,
    pub wb_waiting: Vec<Wb>,
    pub ldst: LdstUnit,
    // ---- front end ----
    pub icache: TagArray,
    pub perfect_icache: bool,
    pub icache_pending: Vec<u64>,
    pub fetch_last: u32,
    // ---- per-register stats ----
    pub reg_last: Vec<u64>,
    pub reg_stats: Option<crate::activity::RegisterStats>,
    pub pilot_slot: Option<u16>,
    // ---- counters ----
    pub act: SmActivity,
    pub fam: crate::activity::FamilyCounts,
    pub progress: bool,
    /// The cycle being simulated: the engine sets it before the SM's stages run and before a
    /// CTA launch.
    pub now: u64,
    /// First cycle whose time integrals ([`Sm::account_integrals`]) are not yet counted: the
    /// integrands are counted lazily, up to `now`, just before one of them changes
    /// ([`Sm::flush_integrals`]).
    integ_from: u64,
    /// Cycles whose issue-stage counters repeat the last evaluation, not yet counted
    /// ([`Sm::replay_issue`]); counted before the next evaluation changes what is repeated.
    pub replay_pending: u64,
    /// warp_evals and scoreboard reads of the last evaluated cycle (replayed for skipped ones).
    pub last_evals: Vec<u64>,
    pub last_sb_reads: u64,
    /// Index into `act.opcoll` of each collector class (usize::MAX if absent).
    pub oc_idx: [usize; 6],
    /// Busy collectors per class.
    pub cu_busy: [u64; 6],
    /// Collectors (bit i = `cus[i]`) that are free.
    pub cu_free: u64,
    /// Collectors holding an instruction whose operands have all been read (`ready_at` set).
    pub cu_ready: u64,
    /// Collectors of each class.
    pub cu_of_class: [u64; 6],
    /// Per scheduler: the collectors of its sub-core (all ones with one sub-core).
    pub cu_of_sched: Vec<u64>,
    /// Warps waiting at a barrier.
    pub n_at_bar: u64,
    /// The scheduler looks at `head_longop` (two-level).
    pub need_longop: bool,
    /// Something the issue stage reads changed since its last evaluation (see [`Sm::issue`]).
    pub issue_dirty: bool,
    /// First cycle at which a decoded I-buffer entry becomes ready after the last evaluation
    /// of the issue stage, which found nothing to issue.
    pub issue_wake: u64,
    /// Per scheduler: it had live warps at the last evaluation.
    pub last_active: Vec<bool>,
    /// A warp may have finished (exited with nothing in flight): `retire` has work.
    pub retire_pending: bool,
    /// Per scheduler: its live warps (valid, not exited), ascending slot; rebuilt when
    /// `live_dirty` after a launch, exit or retirement.
    pub sched_live: Vec<Vec<u16>>,
    pub live_dirty: bool,
    /// The head of the warp failed the scoreboard check and, the issue stage being sticky
    /// ([`IssueStage::failure_sticky`]), fails until a release or source read of that warp.
    pub sb_blocked: WarpSet,
    /// The head of the warp passed the scoreboard check; with a sticky issue stage it keeps
    /// passing until the warp issues (only its own reservations add hazards).
    pub sb_ok: WarpSet,
    /// Warps whose I-buffer holds instructions (`ib_len > 0`).
    pub ib_nonempty: WarpSet,
    /// Warps whose decoded entries may not be ready yet (`w_ib_ready` may lie ahead); a warp
    /// outside the set has `w_ib_ready` at or before the current cycle. Refreshed by the issue
    /// stage.
    pub ib_wait: WarpSet,
    /// Execution class of every (family, operation class), indexed
    /// `family as usize * N_OPS + op as usize` (the configuration's [`classify_op`]).
    pub ec_table: Vec<ExecClass>,
    /// A warp may have become able to fetch since the fetch stage last found none.
    pub fetch_dirty: bool,
    /// First cycle a warp's fetch delay ends after the fetch stage last found none.
    pub fetch_wake: u64,
    /// Bit set over warp slots: every warp that is [`Sm::fetch_eligible`] has its bit set
    /// (bits of warps found ineligible are cleared lazily by the fetch stage).
    pub fetch_cand: WarpSet,
    pub fetch_scan: Vec<u16>,
    /// Issue log (cycle, warp slot, pc) when tracing is on.
    pub trace: Option<Vec<IssueEvent>>,
}

/// One issued instruction, for tests and debugging (`simulate_stream_traced`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IssueEvent {
    pub cycle: u64,
    pub sm: u32,
    pub warp_slot: u32,
    pub pc: u32,
}

/// Constant properties of the SM's policies, read once instead of through a virtual call per
/// cycle, warp or collector.
#[derive(Clone, Debug, Default)]
struct PolicyFlags {
    /// [`GatingPolicy::time_invariant`] and every scheduler's
    /// [`WarpScheduler::stable_when_idle`].
    stable: bool,
    /// [`GatingPolicy::always_ready`].
    gate_free: bool,
    /// [`IssueStage::failure_sticky`].
    sb_sticky: bool,
    /// Per scheduler: [`WarpScheduler::uses_warp_state`].
    uses_state: Vec<bool>,
    /// Per scheduler: [`WarpScheduler::order_reusable`].
    reusable: Vec<bool>,
}

/// Word masks of warps the issue stage rejects without a look at their instruction.
#[derive(Clone, Copy, Default)]
struct QuickRejects {
    bar: [u64; WarpSet::WORDS],
    empty: [u64; WarpSet::WORDS],
}

const CU_CLASSES: [&str; 6] = ["sp", "sfu", "mem", "dp", "int", "gen"];

fn cu_class_of(p: PipeClass) -> usize {
    match p {
        PipeClass::Sp => 0,
        PipeClass::Sfu => 1,
        PipeClass::Mem => 2,
        PipeClass::Dp => 3,
        PipeClass::Int => 4,
        PipeClass::None => 5,
    }
}

impl Sm {
    pub fn new(id: u32, cfg: &GpuConfig, start: u64) -> Sm {
        let nw = cfg.sm.max_warps as usize;
        let ns = cfg.sched.n_per_sm as usize;
        let nsub = cfg.sm.n_subcores.max(1);
        let e = cfg.stats.idle_hist_exact_max;
        let m = cfg.stats.idle_hist_log2_max;
        let u = &cfg.units;
        let mut units = Vec::new();
        let mut pipes = Vec::new();
        let dp16 = u.lane_map == LaneMap::DoublePumped16;
        let mut add_pipe = |unit: String, name: &'static str, lanes: u32, per_lane: bool| {
            pipes.push(Pipe {
                unit,
                name,
                lanes,
                ops: [OpsLanes::default(); N_OPS],
                busy: Timeline::new(start, e, m),
                lane_tl: LaneTimelines::new(if per_lane { lanes as usize } else { 0 }, start, e, m),
                double_pumped: per_lane && dp16,
                lanes_pending: None,
            });
            pipes.len() - 1
        };
        for i in 0..u.n_sp {
            let pi = add_pipe(format!("sp{i}"), "int", u.sp_lanes, true);
            let pf = add_pipe(format!("sp{i}"), "fp", u.sp_lanes, true);
            units.push(Unit {
                class: PipeClass::Sp,
                subcore: i % nsub,
                next_accept: 0,
                pipe_int: pi,
                pipe_fp: pf,
            });
        }
        for (n, class, name, lanes) in [
            (u.n_int, PipeClass::Int, "int", u.sp_lanes),
            (u.n_sfu, PipeClass::Sfu, "sfu", u.sfu_lanes),
            (u.n_dp, PipeClass::Dp, "dp", u.dp_lanes),
            (u.n_ldst, PipeClass::Mem, "ldst", u.ldst_lanes),
        ] {
            for i in 0..n {
                let p = add_pipe(format!("{name}{i}"), name, lanes, false);
                units.push(Unit {
                    class,
                    subcore: i % nsub,
                    next_accept: 0,
                    pipe_int: p,
                    pipe_fp: p,
                });
            }
        }
        let o = &cfg.opcoll;
        let counts = [
            o.units.sp,
            o.units.sfu,
            o.units.mem,
            o.units.dp,
            o.units.int,
            o.units.gen,
        ];
        let inp = [
            o.in_ports.sp,
            o.in_ports.sfu,
            o.in_ports.mem,
            o.in_ports.dp,
            o.in_ports.int,
            o.in_ports.gen,
        ];
        let outp = [
            o.out_ports.sp,
            o.out_ports.sfu,
            o.out_ports.mem,
            o.out_ports.dp,
            o.out_ports.int,
            o.out_ports.gen,
        ];
        let mut cus = Vec::new();
        for (class, &n) in counts.iter().enumerate() {
            for i in 0..n {
                cus.push(Cu {
                    busy: false,
                    class,
                    subcore: i % nsub,
                    warp: 0,
                    seq: 0,
                    inst: TInst::NOP,
                    ec: ExecClass {
                        pipe: PipeClass::None,
                        sp_pipe: SpPipe::Int,
                        latency: 1,
                        ii: 1,
                    },
                    reads: [(0, 0); 5],
                    n_reads: 0,
                    granted: 0,
                    ready_at: u64::MAX,
                });
            }
        }
        assert!(cus.len() <= 64, "at most 64 collector units per SM");
        let mut ec_table = vec![
            ExecClass {
                pipe: PipeClass::None,
                sp_pipe: SpPipe::Int,
                latency: 1,
                ii: 1,
            };
            N_FAMILIES * N_OPS
        ];
        for f in ALL_FAMILIES {
            for op in super::exec::ALL_OPS {
                ec_table[f as usize * N_OPS + op as usize] = classify_op(cfg, f, op);
            }
        }
        let cu_free = if cus.len() == 64 {
            u64::MAX
        } else {
            (1u64 << cus.len()) - 1
        };
        let mut cu_of_class = [0u64; 6];
        let mut cu_of_subcore = vec![0u64; nsub as usize];
        for (i, c) in cus.iter().enumerate() {
            cu_of_class[c.class] |= 1 << i;
            cu_of_subcore[c.subcore as usize] |= 1 << i;
        }
        let sps = cfg.scheds_per_subcore();
        let cu_of_sched = (0..ns as u32)
            .map(|s| {
                if nsub > 1 {
                    cu_of_subcore.get((s / sps) as usize).copied().unwrap_or(0)
                } else {
                    u64::MAX
                }
            })
            .collect();
        let nb = cfg.rf.n_banks as usize;
        let mut scoreboard =
            IssueStageSlot::InOrder(InOrderScoreboard::new(cfg.sched.war_scoreboard));
        scoreboard.reset(nw);
        let act = SmActivity {
            sched: vec![SchedActivity::default(); ns],
            rf: crate::activity::RfActivity {
                reads: vec![0; nb],
                writes: vec![0; nb],
                read_lanes: vec![0; nb],
                write_lanes: vec![0; nb],
                conflict_rr: vec![0; nb],
                conflict_wr: vec![0; nb],
                pred_reads: 0,
                pred_writes: 0,
            },
            opcoll: (0..6)
                .filter(|&c| counts[c] > 0)
                .map(|c| OpcollActivity {
                    class: CU_CLASSES[c].to_string(),
                    units: counts[c],
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let mut oc_idx = [usize::MAX; 6];
        for (i, c) in (0..6).filter(|&c| counts[c] > 0).enumerate() {
            oc_idx[c] = i;
        }
        let per_reg = cfg.stats.per_register;
        let mut sm = Sm {
            cus,
            id,
            cfg_busy_accept: cfg.stats.busy_definition == BusyDefinition::Accept,
            w_valid: vec![false; nw],
            w_cta: vec![0; nw],
            w_idx: vec![0; nw],
            w_age: vec![0; nw],
            w_stream_done: vec![false; nw],
            w_exited: vec![false; nw],
            w_fetch_bar: vec![false; nw],
            at_bar: WarpSet::default(),
            membar: WarpSet::default(),
            mem_out_nz: WarpSet::default(),
            w_fetch_ready: vec![0; nw],
            w_ifetch_line: vec![u64::MAX; nw],
            w_inflight: vec![0; nw],
            w_mem_out: vec![0; nw],
            w_launch: vec![0; nw],
            ibuf: vec![[TInst::NOP; 8]; nw],
            ib_cu: vec![[0; 8]; nw],
            w_head_cu: vec![0; nw],
            w_ib_ready: vec![0; nw],
            ib_ready_last: 0,
            addr_pool: AddrPool::default(),
            fetch_tmp: WarpInst::new(0, Family::Int, OpClass::Nop, 0),
            ib_head: vec![0; nw],
            ib_len: vec![0; nw],
            ib_cap: cfg.frontend.ibuffer_entries.clamp(1, 8) as u8,
            n_resident_warps: 0,
            n_resident_ctas: 0,
            allocated_regs: 0,
            ctas: Vec::new(),
            scoreboard,
            scheds: (0..ns).map(|_| make_scheduler(cfg)).collect(),
            n_sched: Divisor::new(ns as u64),
            sched_warps: (0..ns)
                .map(|s| (s..nw).step_by(ns).map(|w| w as u16).collect())
                .collect(),
            last_stall: vec![Some(Stall::NoWarp); ns],
            views: vec![Vec::new(); ns],
            views_stale: vec![true; ns],
            orders: vec![Vec::with_capacity(nw); ns],
            order_valid: vec![false; ns],
            views_new: vec![true; ns],
            rf: RegisterFileSlot::Monolithic(MonolithicRf::new(cfg)),
            cu_class_ports: inp,
            cu_class_out: outp,
            bank_req: vec![0; nb],
            banks_pending: vec![0; nb.div_ceil(64)],
            bank_rr: vec![0; nb],
            bank_wr_used: vec![0; nb],
            bank_wr_any: false,
            ports_per_bank: cfg.rf.ports_per_bank,
            seq: 0,
            class_has_unit: {
                let mut has = [false; 6];
                for u in &units {
                    has[u.class.index()] = true;
                }
                has
            },
            subcore_has_unit: {
                let mut has = vec![[false; 6]; nsub as usize];
                for u in &units {
                    if let Some(h) = has.get_mut(u.subcore as usize) {
                        h[u.class.index()] = true;
                    }
                }
                has
            },
            units,
            pipes,
            gating: Box::new(NoGating),
            wb_queue: VecDeque::new(),
            wb_waiting: Vec::new(),
            ldst: LdstUnit::new(cfg),
            icache: TagArray::new(&cfg.icache),
            perfect_icache: cfg.frontend.perfect_icache,
            icache_pending: Vec::new(),
            fetch_last: nw as u32 - 1,
            reg_last: if per_reg {
                vec![u64::MAX; nw * N_REGS]
            } else {
                Vec::new()
            },
            reg_stats: if per_reg {
                Some(crate::activity::RegisterStats {
                    reads: vec![0; N_REGS],
                    writes: vec![0; N_REGS],
                    pilot_reads: vec![0; N_REGS],
                    pilot_writes: vec![0; N_REGS],
                    ..Default::default()
                })
            } else {
                None
            },
            pilot_slot: None,
            act,
            fam: Default::default(),
            progress: false,
            now: start,
            integ_from: start,
            replay_pending: 0,
            last_evals: vec![0; ns],
            last_sb_reads: 0,
            oc_idx,
            cu_busy: [0; 6],
            cu_free,
            cu_ready: 0,
            cu_of_class,
            cu_of_sched,
            n_at_bar: 0,
            need_longop: matches!(cfg.sched.policy, crate::config::SchedPolicy::TwoLevel),
            issue_dirty: true,
            issue_wake: 0,
            last_active: vec![false; ns],
            retire_pending: false,
            sched_live: vec![Vec::new(); ns],
            live_dirty: true,
            sb_blocked: WarpSet::default(),
            sb_ok: WarpSet::default(),
            ib_nonempty: WarpSet::default(),
            ib_wait: WarpSet::default(),
            ec_table,
            fetch_dirty: true,
            fetch_wake: 0,
            fetch_cand: WarpSet::default(),
            fetch_scan: Vec::with_capacity(nw),
            trace: None,
            flags: PolicyFlags::default(),
        };
        sm.refresh_policy_flags();
        sm
    }

    /// Reads the constant properties of the installed policies into `flags`.
    fn refresh_policy_flags(&mut self) {
        self.flags = PolicyFlags {
            stable: self.gating.time_invariant()
                && self.scheds.iter().all(|s| s.stable_when_idle()),
            gate_free: self.gating.always_ready(),
            sb_sticky: self.scoreboard.failure_sticky(),
            uses_state: self.scheds.iter().map(|s| s.uses_warp_state()).collect(),
            reusable: self.scheds.iter().map(|s| s.order_reusable()).collect(),
        };
    }

    #[inline]
    pub fn sched_of(&self, w: usize) -> usize {
        self.n_sched.rem(w as u64) as usize
    }

    /// Execution class of an instruction: barriers and memory barriers take no pipe (they
    /// complete at issue); everything else per the (family, op) table.
    #[inline]
    pub fn exec_class(&self, family: Family, op: OpClass) -> ExecClass {
        if family == Family::Bar || (family == Family::Mem && op == OpClass::Membar) {
            ExecClass {
                pipe: PipeClass::None,
                sp_pipe: SpPipe::Int,
                latency: 1,
                ii: 1,
            }
        } else {
            self.ec_table[family as usize * N_OPS + op as usize]
        }
    }

    /// The collectors an instruction of pipe class `pipe` issued by scheduler `s` may take:
    /// those of its class (the generic class when the configuration has none of it) in the
    /// scheduler's sub-core. 0 for an instruction that takes no collector.
    #[inline]
    pub fn cu_mask(&self, pipe: PipeClass, s: usize) -> u64 {
        if pipe == PipeClass::None {
            return 0;
        }
        let want = cu_class_of(pipe);
        let class = if self.cu_of_class[want] != 0 { want } else { 5 };
        self.cu_of_class[class] & self.cu_of_sched[s]
    }

    /// Records a register access for the per-register statistics (§5.4).
    #[inline]
    pub fn reg_access(&mut self, w: usize, reg: u16, t: u64, write: bool) {
        let Some(rs) = self.reg_stats.as_mut() else {
            return;
        };
        let r = reg as usize;
        if r >= N_REGS {
            return;
        }
        if write {
            rs.writes[r] += 1;
        } else {
            rs.reads[r] += 1;
        }
        if self.pilot_slot == Some(w as u16) {
            if write {
                rs.pilot_writes[r] += 1;
            } else {
                rs.pilot_reads[r] += 1;
            }
        }
        let k = w * N_REGS + r;
        let last = self.reg_last[k];
        if last == u64::MAX {
            rs.first_access_after_alloc.add(t - self.w_launch[w]);
        } else {
            rs.inter_access.add(t - last);
        }
        self.reg_last[k] = t;
    }

    // ------------------------------------------------------------------ writeback
    pub fn writeback(&mut self, t: u64, ex_wb: u32) {
        if self.bank_wr_any {
            self.bank_wr_used.fill(0);
            self.bank_wr_any = false;
        }
        while let Some(w) = self.wb_queue.front() {
            if w.ready > t {
                break;
            }
            let w = *w;
            self.wb_queue.pop_front();
            self.wb_waiting.push(w);
        }
        if self.wb_waiting.is_empty() {
            return;
        }
        // Already in (ready, seq) order: the queue yields that order, and every result it yields
        // now is later than those still waiting (they were ready at an earlier writeback; a
        // result is never ready before the cycle it was queued in, and sequence numbers grow).
        debug_assert!(self.wb_waiting.windows(2).all(|p| p[0] < p[1]));
        let mut done = 0;
        let mut i = 0;
        while i < self.wb_waiting.len() && done < ex_wb {
            let w = self.wb_waiting[i];
            let warp = w.warp as usize;
            let sched = self.sched_of(warp) as u32;
            // all-or-nothing: every general destination needs a write port on its bank
            let mut ok = true;
            for &r in &w.dst[..w.n_dst as usize] {
                if r < PRED_BASE {
                    let b = self.rf.bank(warp as u32, sched, r) as usize;
                    if self.bank_wr_used[b] >= self.ports_per_bank {
                        ok = false;
                    }
                }
            }
            if !ok {
                i += 1;
                continue;
            }
            for &r in &w.dst[..w.n_dst as usize] {
                if r < PRED_BASE {
                    let b = self.rf.bank(warp as u32, sched, r) as usize;
                    self.bank_wr_used[b] += 1;
                    self.bank_wr_any = true;
                    self.act.rf.writes[b] += 1;
                    self.act.rf.write_lanes[b] += w.lanes as u64;
                } else {
                    self.act.rf.pred_writes += 1;
                }
                self.scoreboard.release(warp, r);
                self.sb_blocked.remove(warp);
                self.act.scoreboard.writes += 1;
                self.reg_access(warp, r, t, true);
            }
            self.w_inflight[warp] -= 1;
            self.issue_dirty = true;
            // an exited warp may now be finished
            self.retire_pending |= self.w_exited[warp] && self.w_inflight[warp] == 0;
            self.wb_waiting.remove(i);
            done += 1;
            self.progress = true;
        }
    }

    // ------------------------------------------------------------------ dispatch
    /// Dispatches CUs whose operands are all available into free units, oldest first.
    pub fn dispatch(&mut self, t: u64, oc_ex: &[u32; 6]) {
        if self.cu_ready == 0 {
            return;
        }
        let gate_free = self.flags.gate_free;
        let mut used_class = [0u32; 6];
        let mut used_out = [0u32; 6];
        // Pipe classes of ready collectors with no unit able to accept now cannot go this cycle
        // (the selection below would block such a class at its first candidate); re-checked
        // for a class after each dispatch to it.
        let mut classes = 0u32;
        let mut bits = self.cu_ready;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            classes |= 1 << self.cus[i].ec.pipe.index();
        }
        for (pc, used) in used_class.iter_mut().enumerate() {
            if classes >> pc & 1 == 1 && !self.unit_free(pc, t, gate_free) {
                *used = u32::MAX - 1;
            }
        }
        let mut last_pc: Option<usize> = None;
        loop {
            if let Some(pc) = last_pc.take() {
                if used_class[pc] < u32::MAX - 1 && !self.unit_free(pc, t, gate_free) {
                    used_class[pc] = u32::MAX - 1;
                }
            }
            // oldest ready CU not yet tried this cycle
            let mut best: Option<usize> = None;
            let mut bits = self.cu_ready;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let c = &self.cus[i];
                if c.busy && c.ready_at <= t && best.is_none_or(|b| c.seq < self.cus[b].seq) {
                    let pc = c.ec.pipe.index();
                    if used_class[pc] < oc_ex[pc].max(1)
                        && used_out[c.class] < self.cu_class_out[c.class].max(1)
                    {
                        best = Some(i);
                    }
                }
            }
            let Some(ci) = best else { break };
            let (pipe, sub, ii, lat) = {
                let c = &self.cus[ci];
                (c.ec.pipe, c.subcore, c.ec.ii, c.ec.latency)
            };
            let pc = pipe.index();
            // unit choice: lowest-index non-gated free unit of the class (own sub-core first)
            let nsub_units = self
                .subcore_has_unit
                .get(sub as usize)
                .is_some_and(|h| h[pc]);
            let mut chosen = None;
            for (ui, u) in self.units.iter().enumerate() {
                if u.class != pipe || (nsub_units && u.subcore != sub) || u.next_accept > t {
                    continue;
                }
                if pipe == PipeClass::Mem && !self.ldst.can_accept() {
                    continue;
                }
                if !gate_free && self.gating.available(u.pipe_int, t) != UnitState::Ready {
                    continue;
                }
                chosen = Some(ui);
                break;
            }
            let Some(ui) = chosen else {
                // this CU cannot go this cycle: block its class so younger CUs of other classes
                // may still dispatch
                used_class[pc] = u32::MAX - 1;
                continue;
            };
            used_class[pc] += 1;
            last_pc = Some(pc);
            let cls = self.cus[ci].class;
            used_out[cls] += 1;
            self.progress = true;
            let (cu_warp, cu_seq, cu_ec) = {
                let c = &self.cus[ci];
                (c.warp, c.seq, c.ec)
            };
            let (mask, op, n_dst, dsts) = {
                let i = &self.cus[ci].inst;
                (i.active_mask, i.op, i.n_dst, i.dst)
            };
            self.cus[ci].busy = false;
            self.cus[ci].ready_at = u64::MAX;
            self.cu_free |= 1 << ci;
            self.cu_ready &= !(1 << ci);
            self.issue_dirty = true;
            self.act.opcoll[self.oc_idx[cls]].dispatches += 1;
            self.flush_integrals();
            self.cu_busy[cls] -= 1;
            let warp = cu_warp as usize;
            self.scoreboard.sources_read(warp, &self.cus[ci].inst);
            self.sb_blocked.remove(warp);
            let lanes = mask.count_ones() as u64;
            let unit = &mut self.units[ui];
            unit.next_accept = t + ii as u64;
            let p = if cu_ec.sp_pipe == SpPipe::Fp {
                unit.pipe_fp
            } else {
                unit.pipe_int
            };
            let opi = op as usize;
            self.pipes[p].ops[opi].ops += 1;
            self.pipes[p].ops[opi].lanes += lanes;
            if pipe == PipeClass::Mem {
                let inst = self.cus[ci].inst;
                let addrs = inst.mem.map(|m| self.addr_pool.get(m.slot));
                let busy = self.ldst.accept(t, warp as u16, &inst, addrs, cu_seq);
                if let Some(m) = inst.mem {
                    self.addr_pool.release(m.slot);
                }
                self.pipes[p].busy.busy(t, busy);
                continue;
            }
            let busy_len = if self.cfg_busy_accept { 1 } else { lat as u64 };
            let pp = &mut self.pipes[p];
            pp.busy.busy(t, busy_len);
            pp.lanes_busy(t, busy_len, mask);
            self.seq += 1;
            let mut dst = [0u16; 4];
            let n = n_dst as usize;
            dst[..n].copy_from_slice(&dsts[..n]);
            self.wb_push(Wb {
                ready: t + lat as u64,
                seq: self.seq,
                warp: cu_warp,
                n_dst: n as u8,
                dst,
                lanes: lanes as u8,
            });
        }
    }

    /// Queues a result for writeback. The queue stays sorted by (ready, seq): sequence numbers
    /// grow, so the new result goes after every queued one that is ready no later; results
    /// mostly arrive in ready order (one latency per class), so the search from the back is
    /// short.
    pub fn wb_push(&mut self, w: Wb) {
        let q = &mut self.wb_queue;
        let mut i = q.len();
        while i > 0 && q[i - 1].ready > w.ready {
            i -= 1;
        }
        debug_assert!(i == 0 || q[i - 1] < w);
        q.insert(i, w);
    }

    /// Some unit of pipe class `pc` (a [`PipeClass::index`]) can accept an instruction at `t`.
    fn unit_free(&self, pc: usize, t: u64, gate_free: bool) -> bool {
        self.units.iter().any(|u| {
            u.class.index() == pc
                && u.next_accept <= t
                && (u.class != PipeClass::Mem || self.ldst.can_accept())
                && (gate_free || self.gating.available(u.pipe_int, t) == UnitState::Ready)
        })
    }

    // ------------------------------------------------------------------ RF arbitration
    pub fn rf_arbitrate(&mut self, t: u64) {
        let ports = self.ports_per_bank;
        let n_cu = self.cus.len() as u32;
        for wi in 0..self.banks_pending.len() {
            let mut pending = self.banks_pending[wi];
            while pending != 0 {
                let b = wi * 64 + pending.trailing_zeros() as usize;
                pending &= pending - 1;
                self.arbitrate_bank(b, t, ports, n_cu);
            }
        }
    }

    /// Grants bank `b`'s read ports to requesting collectors, round-robin from after the last
    /// one granted; a write this cycle takes ports first.
    fn arbitrate_bank(&mut self, b: usize, t: u64, ports: u32, n_cu: u32) {
        let mut req = self.bank_req[b];
        let free = ports.saturating_sub(self.bank_wr_used[b]);
        let mut granted = 0;
        // round-robin over CUs starting after the last CU granted on this bank
        let start = if self.bank_rr[b] + 1 >= n_cu {
            0
        } else {
            self.bank_rr[b] + 1
        };
        let snap = req;
        let low = if start == 0 { 0 } else { (1u64 << start) - 1 };
        for part in [snap & !low, snap & low] {
            let mut bits = part;
            while bits != 0 {
                let ci = bits.trailing_zeros();
                bits &= bits - 1;
                if granted < free {
                    granted += 1;
                    self.progress = true;
                    self.bank_rr[b] = ci;
                    let lanes;
                    let (warp, reg, still) = {
                        let c = &mut self.cus[ci as usize];
                        lanes = c.inst.active_mask.count_ones() as u64;
                        let mut reg = 0;
                        let mut still = false;
                        let mut taken = false;
                        for j in 0..c.n_reads as usize {
                            let (bk, r) = c.reads[j];
                            if bk as usize == b && !taken && bk != u16::MAX {
                                reg = r;
                                c.reads[j].0 = u16::MAX;
                                taken = true;
                            } else if bk as usize == b {
                                still = true;
                            }
                        }
                        c.granted += 1;
                        if c.granted == c.n_reads {
                            c.ready_at = t + 1;
                            self.cu_ready |= 1 << ci;
                        }
                        (c.warp as usize, reg, still)
                    };
                    if !still {
                        req &= !(1u64 << ci);
                    }
                    self.act.rf.reads[b] += 1;
                    self.act.rf.read_lanes[b] += lanes;
                    let cls = self.cus[ci as usize].class;
                    self.act.opcoll[self.oc_idx[cls]].operands += 1;
                    self.reg_access(warp, reg, t, false);
                } else {
                    // eligible but not granted
                    if self.bank_wr_used[b] > 0 && granted == 0 {
                        self.act.rf.conflict_wr[b] += 1;
                    } else {
                        self.act.rf.conflict_rr[b] += 1;
                    }
                }
            }
        }
        self.bank_req[b] = req;
        if req == 0 {
            self.banks_pending[b / 64] &= !(1u64 << (b % 64));
        }
    }

    // ------------------------------------------------------------------ issue
    /// Issue stage for all schedulers. Returns nothing; counters go to `act`.
    pub fn issue(&mut self, t: u64, cfg_issue: (u32, u32, bool), id_oc: &[u32; 6]) {
        if !self.issue_dirty && t < self.issue_wake && self.flags.stable {
            // Nothing the stage reads changed since it last found nothing to issue: the
            // outcome, and every counter, would repeat.
            self.replay_pending += 1;
            return;
        }
        self.flush_replay();
        if self.live_dirty {
            self.live_dirty = false;
            for s in 0..self.scheds.len() {
                let mut live = std::mem::take(&mut self.sched_live[s]);
                live.clear();
                live.extend(self.sched_warps[s].iter().copied().filter(|&w| {
                    let w = w as usize;
                    self.w_valid[w] && !self.w_exited[w]
                }));
                self.sched_live[s] = live;
                self.views_stale[s] = true;
            }
        }
        // decoded entries that have become ready
        let waiting = self.ib_wait;
        for w in waiting.iter() {
            if self.w_ib_ready[w] <= t {
                self.ib_wait.remove(w);
            }
        }
        let (per_sched, per_warp, diff_units) = cfg_issue;
        let mut any_issued = false;
        let mut used_idoc = [0u32; 6];
        let mut used_in = [0u32; 6];
        let sb0 = self.act.scoreboard.reads;
        // Schedulers share the collectors and ID_OC slots; the first claim rotates every cycle
        // so that no scheduler is starved [G].
        let n_s = self.scheds.len();
        for si in 0..n_s {
            let s = self.n_sched.rem(si as u64 + self.n_sched.rem(t)) as usize;
            // views of this scheduler's live warps (ascending slot)
            let mut views = std::mem::take(&mut self.views[s]);
            if self.views_stale[s] || self.flags.uses_state[s] {
                self.views_stale[s] = false;
                self.order_valid[s] = false;
                self.views_new[s] = true;
                views.clear();
                for k in 0..self.sched_live[s].len() {
                    let w = self.sched_live[s][k] as usize;
                    let empty = self.ib_len[w] == 0 || self.w_ib_ready[w] > t;
                    let head_longop = self.need_longop && !empty && {
                        let h = &self.ibuf[w][self.ib_head[w] as usize];
                        self.scoreboard.reads_longop(w, h)
                    };
                    let waiting = self.waits_barrier(w);
                    views.push(WarpView {
                        slot: w as u16,
                        age: self.w_age[w],
                        ready: !empty && !waiting,
                        waiting,
                        ibuffer_empty: empty,
                        head_longop,
                        finished: false,
                    });
                }
            }
            self.views[s] = views;
            let sa = &mut self.act.sched[s];
            self.last_active[s] = !self.views[s].is_empty();
            if self.views[s].is_empty() {
                self.last_evals[s] = 0;
                sa.issued[0] += 1;
                sa.stall.no_warp += 1;
                self.last_stall[s] = Some(Stall::NoWarp);
                continue;
            }
            sa.active_cycles += 1;
            let mut order = std::mem::take(&mut self.orders[s]);
            if self.views_new[s] {
                self.views_new[s] = false;
                self.scheds[s].order(&self.views[s], &mut order);
                self.order_valid[s] = true;
            } else if !(self.order_valid[s] && self.flags.reusable[s]) {
                self.scheds[s].order_unchanged(&self.views[s], &mut order);
                self.order_valid[s] = true;
            }
            let mut issued = 0u32;
            let mut first_stall: Option<Stall> = None;
            // warps looked at, and scoreboard reads of the quick rejections below
            let mut evals = 0u64;
            let mut sb_reads = 0u64;
            // The usual rejections of a stalled warp, as `try_issue` makes them, without the
            // call: waiting at a barrier, I-buffer empty or not decoded yet, scoreboard known
            // to fail. Recomputed after an issue, which may release a barrier.
            let mut quick = self.quick_rejects();
            for &slot in order.iter() {
                if issued >= per_sched {
                    break;
                }
                let w = slot as usize;
                evals += 1;
                let (wi, bit) = (w >> 6, 1u64 << (w & 63));
                if (quick.bar[wi] | quick.empty[wi] | self.sb_blocked.0[wi]) & bit != 0 {
                    let r = if quick.bar[wi] & bit != 0 {
                        Stall::Barrier
                    } else if quick.empty[wi] & bit != 0 {
                        Stall::IbufferEmpty
                    } else {
                        self.membar.remove(w);
                        sb_reads += 1;
                        Stall::Scoreboard
                    };
                    first_stall.get_or_insert(r);
                    continue;
                }
                if self.sb_ok.0[wi] & bit != 0 && {
                    let m = self.w_head_cu[w];
                    m != 0 && self.cu_free & m == 0
                } {
                    // passed the scoreboard before, and every collector it may take is busy
                    self.membar.remove(w);
                    sb_reads += 1;
                    first_stall.get_or_insert(Stall::CuFull);
                    continue;
                }
                let mut n_w = 0u32;
                let mut first_pipe = PipeClass::None;
                while n_w < per_warp && issued < per_sched {
                    match self.try_issue(
                        t,
                        w,
                        s,
                        id_oc,
                        &mut used_idoc,
                        &mut used_in,
                        diff_units,
                        n_w,
                        first_pipe,
                    ) {
                        Ok(p) => {
                            first_pipe = p;
                            n_w += 1;
                            issued += 1;
                        }
                        Err(r) => {
                            if n_w == 0 && first_stall.is_none() {
                                first_stall = Some(r);
                            }
                            break;
                        }
                    }
                }
                if n_w > 0 {
                    self.scheds[s].issued(slot);
                    self.order_valid[s] = false;
                    self.progress = true;
                    quick = self.quick_rejects();
                }
            }
            self.orders[s] = order;
            self.act.scoreboard.reads += sb_reads;
            let sa = &mut self.act.sched[s];
            sa.warp_evals += evals;
            self.last_evals[s] = evals;
            sa.issued[(issued as usize).min(2)] += 1;
            if issued == 0 {
                let r = first_stall.unwrap_or(Stall::NoWarp);
                add_stall(&mut sa.stall, r, 1);
                self.last_stall[s] = Some(r);
            } else {
                any_issued = true;
                self.last_stall[s] = None;
            }
        }
        self.last_sb_reads = self.act.scoreboard.reads - sb0;
        // An issue changes the state; otherwise the stage is clean until an event marks it
        // dirty or a decoded entry becomes ready.
        self.issue_dirty = any_issued;
        if !any_issued {
            // Entries become ready one cycle after they are decoded or their I-cache line
            // arrives, so only the latest such time can lie ahead.
            self.issue_wake = if self.ib_ready_last > t {
                self.ib_ready_last
            } else {
                u64::MAX
            };
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn try_issue(
        &mut self,
        t: u64,
        w: usize,
        s: usize,
        id_oc: &[u32; 6],
        used_idoc: &mut [u32; 6],
        used_in: &mut [u32; 6],
        diff_units: bool,
        n_w: u32,
        first_pipe: PipeClass,
    ) -> Result<PipeClass, Stall> {
        // A warp waiting at a barrier has stopped fetching, so its empty I-buffer is a
        // consequence of the barrier: the barrier is charged first.
        if self.waits_barrier(w) {
            return Err(Stall::Barrier);
        }
        if self.ib_len[w] == 0 || self.w_ib_ready[w] > t {
            return Err(Stall::IbufferEmpty);
        }
        self.membar.remove(w);
        let hslot = self.ib_head[w] as usize;
        // small copies of the head's fields; the record itself is copied once, into the CU
        let (family, op, mask, pc, n_dst, divergent, space) = {
            let i = &self.ibuf[w][hslot];
            (
                i.family,
                i.op,
                i.active_mask,
                i.pc,
                i.n_dst,
                i.reconv_pc.is_some(),
                i.mem.map(|m| m.space),
            )
        };
        let (srcs, n_src) = {
            let i = &self.ibuf[w][hslot];
            (i.src, i.n_src as usize)
        };
        self.act.scoreboard.reads += 1;
        if self.sb_blocked.has(w) {
            return Err(Stall::Scoreboard);
        }
        if !self.sb_ok.has(w) {
            if self.scoreboard.check(w, &self.ibuf[w][hslot]).is_err() {
                self.sb_blocked.put(w, self.flags.sb_sticky);
                return Err(Stall::Scoreboard);
            }
            self.sb_ok.put(w, self.flags.sb_sticky);
        }
        let is_membar = family == Family::Mem && op == OpClass::Membar;
        let ec = self.exec_class(family, op);
        if n_w > 0 && diff_units && ec.pipe == first_pipe {
            return Err(Stall::PipeBusy);
        }
        let mut cu_idx = None;
        if ec.pipe != PipeClass::None {
            let pc = ec.pipe.index();
            let want = cu_class_of(ec.pipe);
            let class = if self.cu_of_class[want] != 0 { want } else { 5 };
            let free = self.cu_free & self.ib_cu[w][hslot];
            // the lowest-index free collector of the class (and sub-core)
            let found = (free != 0).then(|| free.trailing_zeros() as usize);
            match found {
                None => return Err(Stall::CuFull),
                Some(i) => {
                    if used_in[class] >= self.cu_class_ports[class].max(1) {
                        return Err(Stall::CuFull);
                    }
                    if used_idoc[pc] >= id_oc[pc].max(1) {
                        return Err(Stall::PipeBusy);
                    }
                    let gate_free = self.flags.gate_free;
                    let any_ready = if gate_free {
                        self.class_has_unit[ec.pipe.index()]
                    } else {
                        self.units.iter().any(|u| {
                            u.class == ec.pipe
                                && self.gating.available(u.pipe_int, t) == UnitState::Ready
                        })
                    };
                    if !any_ready {
                        return Err(Stall::UnitGated);
                    }
                    used_in[class] += 1;
                    used_idoc[pc] += 1;
                    cu_idx = Some(i);
                }
            }
        }
        // ---- issue ----
        let h = self.ib_head[w] as usize;
        self.sb_ok.remove(w);
        self.ib_head[w] = if h + 1 == self.ib_cap as usize {
            0
        } else {
            (h + 1) as u8
        };
        self.ib_len[w] -= 1;
        if self.ib_len[w] > 0 {
            self.w_head_cu[w] = self.ib_cu[w][self.ib_head[w] as usize];
        }
        if self.ib_len[w] == 0 {
            self.ib_nonempty.remove(w);
            self.fetch_dirty = true;
            self.fetch_candidate(w);
        }
        self.act.ibuffer.reads += 1;
        if self.ib_len[w] == 0 && self.w_stream_done[w] {
            self.mark_exited(w);
        }
        let lanes = mask.count_ones() as u64;
        if let Some(tr) = self.trace.as_mut() {
            tr.push(IssueEvent {
                cycle: t,
                sm: self.id,
                warp_slot: w as u32,
                pc,
            });
        }
        self.act.warp_insts += 1;
        self.act.thread_insts += lanes;
        self.fam_count(family, lanes);
        if divergent {
            self.act.simt.divergent_branches += 1;
            self.act.simt.pushes += 1;
            self.act.simt.pops += 1;
        }
        for &r in &srcs[..n_src] {
            if r >= PRED_BASE {
                self.act.rf.pred_reads += 1;
            }
        }
        match family {
            Family::Bar => {
                self.act.bar.arrivals += 1;
                self.at_bar.insert(w);
                self.flush_integrals();
                self.n_at_bar += 1;
                let c = self.w_cta[w] as usize;
                self.ctas[c].bar_arrived += 1;
                self.check_barrier(c);
                return Ok(PipeClass::None);
            }
            _ if is_membar => {
                self.membar.insert(w);
                return Ok(PipeClass::None);
            }
            _ => {}
        }
        let longop = family == Family::Mem
            && matches!(op, OpClass::Load | OpClass::Atomic)
            && matches!(space, Some(MemSpace::Global | MemSpace::Local));
        self.scoreboard.reserve(w, &self.ibuf[w][hslot], longop);
        self.act.scoreboard.writes += n_dst as u64;
        self.w_inflight[w] += 1;
        let ci = cu_idx.expect("cu");
        let sched = s as u32;
        let mut reads = [(0u16, 0u16); 5];
        let mut n = 0usize;
        for &r in &srcs[..n_src] {
            if r >= PRED_BASE || reads[..n].iter().any(|x| x.1 == r) {
                continue;
            }
            let b = self.rf.bank(w as u32, sched, r);
            reads[n] = (b as u16, r);
            n += 1;
        }
        self.seq += 1;
        let c = &mut self.cus[ci];
        c.busy = true;
        c.warp = w as u16;
        c.seq = self.seq;
        c.inst = self.ibuf[w][hslot];
        c.ec = ec;
        c.reads = reads;
        c.n_reads = n as u8;
        c.granted = 0;
        c.ready_at = if n == 0 { t + 1 } else { u64::MAX };
        self.cu_free &= !(1 << ci);
        if n == 0 {
            self.cu_ready |= 1 << ci;
        }
        for &(b, _) in &reads[..n] {
            self.bank_req[b as usize] |= 1u64 << ci;
            self.banks_pending[b as usize / 64] |= 1u64 << (b % 64);
        }
        let cls = c.class;
        self.act.opcoll[self.oc_idx[cls]].allocs += 1;
        self.flush_integrals();
        self.cu_busy[cls] += 1;
        Ok(ec.pipe)
    }

    /// The warp waits at a CTA barrier, or at a memory barrier with requests outstanding.
    #[inline]
    pub fn waits_barrier(&self, w: usize) -> bool {
        self.at_bar.has(w) || (self.membar.has(w) && self.mem_out_nz.has(w))
    }

    /// Per warp: waiting at a barrier, and (otherwise) unable to issue for want of a ready
    /// I-buffer entry (`ib_wait` must be current).
    #[inline]
    fn quick_rejects(&self) -> QuickRejects {
        let mut q = QuickRejects::default();
        for i in 0..WarpSet::WORDS {
            q.bar[i] = self.at_bar.0[i] | (self.membar.0[i] & self.mem_out_nz.0[i]);
            q.empty[i] = !self.ib_nonempty.0[i] | self.ib_wait.0[i];
        }
        q
    }

    fn fam_count(&mut self, f: Family, lanes: u64) {
        let c = match f {
            Family::Int => &mut self.fam.int,
            Family::Fp => &mut self.fam.fp,
            Family::Dp => &mut self.fam.dp,
            Family::Sfu => &mut self.fam.sfu,
            Family::Mem => &mut self.fam.mem,
            Family::Ctrl => &mut self.fam.ctrl,
            Family::Bar => &mut self.fam.bar,
        };
        c.warp_insts += 1;
        c.thread_insts += lanes;
    }

    /// The warp has no more instructions to issue.
    pub fn mark_exited(&mut self, w: usize) {
        if self.w_exited[w] {
            return;
        }
        self.w_exited[w] = true;
        self.issue_dirty = true;
        self.live_dirty = true;
        self.retire_pending = true;
        let c = self.w_cta[w] as usize;
        self.ctas[c].exited += 1;
        self.check_barrier(c);
    }

    /// Releases the CTA's barrier when every non-exited warp has arrived.
    pub fn check_barrier(&mut self, c: usize) {
        let cta = &self.ctas[c];
        if cta.bar_arrived == 0 {
            return;
        }
        let waiting_needed = cta.n_warps - cta.exited;
        // warps that arrived and then exited do not exist: arrivals are only by live warps
        if cta.bar_arrived >= waiting_needed {
            let first = cta.first_slot as usize;
            let n = cta.n_warps as usize;
            for w in first..first + n {
                if self.at_bar.has(w) {
                    self.flush_integrals();
                    self.n_at_bar -= 1;
                }
                self.at_bar.remove(w);
                self.w_fetch_bar[w] = false;
                self.fetch_dirty = true;
                self.fetch_candidate(w);
            }
            self.ctas[c].bar_arrived = 0;
            self.act.bar.releases += 1;
            self.issue_dirty = true;
            self.progress = true;
        }
    }

    /// Counts the time integrals of cycles `integ_from .. now` (the integrands have held their
    /// values since `integ_from`): called before an integrand changes in cycle `now`, whose
    /// own count is then taken with the value it has at the end of the cycle.
    #[inline]
    pub fn flush_integrals(&mut self) {
        let k = self.now - self.integ_from;
        if k > 0 {
            self.account_integrals(k);
            self.integ_from = self.now;
        }
    }

    /// Counts the pending repeated issue-stage cycles (see `replay_pending`).
    #[inline]
    pub fn flush_replay(&mut self) {
        if self.replay_pending > 0 {
            self.replay_issue(self.replay_pending);
            self.replay_pending = 0;
        }
    }

    /// Time integrals of the SM's state (resident warps, registers, barrier waits, collector
    /// occupancy) for `k` cycles.
    fn account_integrals(&mut self, k: u64) {
        if self.n_resident_ctas > 0 {
            self.act.active_cycles += k;
        }
        self.act.resident_warp_cycles += self.n_resident_warps as u64 * k;
        self.act.allocated_reg_cycles += self.allocated_regs * k;
        self.act.bar.wait_cycles += self.n_at_bar * k;
        for c in 0..6 {
            if self.oc_idx[c] != usize::MAX {
                self.act.opcoll[self.oc_idx[c]].occupied_cycles += self.cu_busy[c] * k;
            }
        }
    }

    /// Scheduler counters of `k` cycles in which the issue stage would have re-evaluated an
    /// unchanged state: the last evaluated cycle's outcome, `k` times.
    pub fn replay_issue(&mut self, k: u64) {
        {
            self.act.scoreboard.reads += self.last_sb_reads * k;
            for s in 0..self.scheds.len() {
                let sa = &mut self.act.sched[s];
                sa.issued[0] += k;
                if self.last_active[s] {
                    sa.active_cycles += k;
                }
                sa.warp_evals += self.last_evals[s] * k;
                if let Some(r) = self.last_stall[s] {
                    add_stall(&mut sa.stall, r, k);
                }
            }
        }
    }
}
