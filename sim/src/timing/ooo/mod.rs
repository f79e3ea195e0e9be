//! Out-of-order issue stages (issue-stage §2, §3): SOCGPU's per-warp instruction buffers with
//! their dependence matrices ([`socgpu`], [`depmatrix`]) and the per-SM state the SM's SOCGPU
//! issue path (`sm/socgpu.rs`) drives; LOOG's collector units as reservation stations with the
//! RAT, the RRS and the UUID order ([`loog`]), driven by `sm/loog.rs`. Both are issue stages
//! ([`IssueStage`]) held in the SM's issue-stage slot (`timing/slots.rs`); their dependence
//! tracking is their own, so the scoreboard calls of the trait find nothing to do. The
//! in-order baseline does not use this module.

pub mod depmatrix;
pub mod loog;
pub mod socgpu;

pub use depmatrix::DepMatrix;
pub use loog::{
    AllocStall, Cu, LoogHwInputs, LoogParams, LsqKind, LsqMem, Operand, RfArbiter, SmLoog,
};
pub use socgpu::{FlushOutcome, IbEntry, LocalPolicy, SocgpuHwInputs, WarpIb};

use crate::activity::{KernelActivity, SocgpuStats};
use crate::config::{GpuConfig, IbRefill, LoogRfArbiter, OooDual, OooMemOrder, OooMode};
use crate::timing::policy::{Hazard, IssueStage};
use crate::timing::tinst::TInst;

/// ⌈log2 n⌉ (0 for n ≤ 1).
pub fn ceil_log2(n: u32) -> u32 {
    if n <= 1 {
        0
    } else {
        32 - (n - 1).leading_zeros()
    }
}

/// Ready-counter width C of a configuration: `sched.ooo.ready_ctr_bits`, or ⌈log2 N⌉ + 2
/// when that is 0 (issue-stage §2.1 [G]).
pub fn ready_ctr_bits(cfg: &GpuConfig) -> u32 {
    let o = &cfg.sched.ooo;
    if o.ready_ctr_bits == 0 {
        ceil_log2(o.ib_depth) + 2
    } else {
        o.ready_ctr_bits
    }
}

/// The §4 inputs of a SOCGPU configuration (`None` when `sched.ooo.mode` is not "socgpu").
pub fn socgpu_hw_inputs(cfg: &GpuConfig) -> Option<SocgpuHwInputs> {
    if cfg.sched.ooo.mode != OooMode::Socgpu {
        return None;
    }
    let n = cfg.sched.ooo.ib_depth;
    let policy = cfg.sched.ooo.local_policy;
    Some(SocgpuHwInputs {
        ib_depth: n,
        warps_per_sm: cfg.sm.max_warps,
        n_sm: cfg.gpu.n_sm,
        seniority_bits: ceil_log2(n),
        ready_ctr_bits: if policy.uses_ready_ctr() {
            ready_ctr_bits(cfg)
        } else {
            0
        },
        dm_bits: n * n.saturating_sub(1),
        baseline_ib_entries: cfg.frontend.ibuffer_entries,
        policy,
    })
}

/// The LOOG knobs of a configuration (issue-stage §3.3), whatever its mode.
pub fn loog_params(cfg: &GpuConfig) -> LoogParams {
    let o = &cfg.sched.ooo;
    LoogParams {
        slices: cfg.loog_slices(),
        n_cu: cfg.loog_n_cu(),
        n_rrs: cfg.loog_rrs_entries(),
        wb_buffers: o.loog_wb_buffers,
        uuid_bits: o.loog_uuid_bits,
        arbiter: match o.loog_rf_arbiter {
            LoogRfArbiter::Id => RfArbiter::Id,
            LoogRfArbiter::Rr => RfArbiter::Rr,
            LoogRfArbiter::RrAlloc => RfArbiter::RrAlloc,
        },
        rf_read_ports: o.loog_rf_read_ports,
        rrs_dispatch_needs_free_slot: o.loog_rrs_dispatch_needs_free_slot,
        ready_first: o.loog_ready_first,
        defer_load_consumers: o.loog_defer_load_consumers,
        lsq: o.loog_lsq.then_some((o.loog_lq_entries, o.loog_sq_entries)),
    }
}

/// The §4 inputs of a LOOG configuration (`None` when `sched.ooo.mode` is not "loog"): one
/// LOOG instance per issue slice; T = `gpu.warp_size`, D = 32-bit registers, A = the 255
/// general registers plus 7 predicates the RAT renames, 3 operands per CU (rs1..rs3).
pub fn loog_hw_inputs(cfg: &GpuConfig) -> Option<LoogHwInputs> {
    if cfg.sched.ooo.mode != OooMode::Loog {
        return None;
    }
    let p = loog_params(cfg);
    Some(LoogHwInputs {
        slices_per_sm: p.slices,
        n_sm: cfg.gpu.n_sm,
        n_cu: p.n_cu,
        n_rrs: p.n_rrs,
        n_id: p.n_id(),
        id_bits: ceil_log2(p.n_id()),
        warps_per_slice: cfg.sm.max_warps.div_ceil(p.slices),
        threads_per_warp: cfg.gpu.warp_size,
        data_bits: 32,
        uuid_bits: p.uuid_bits,
        arch_regs: 255 + 7,
        operands_per_cu: 3,
        wb_buffers: p.wb_buffers,
        rf_read_ports: p.rf_read_ports,
    })
}

/// Bytes of one instruction for the not-taken next PC: 8 for PTX, 16 for SASS traces.
pub fn inst_bytes(cfg: &GpuConfig) -> u32 {
    match cfg.sim.frontend {
        crate::config::Frontend::Ptx => 8,
        _ => 16,
    }
}

/// One SM's SOCGPU state: a buffer per warp slot, the fetch state the buffers add, the knobs
/// and the counters.
pub(crate) struct SmSocgpu {
    pub ibs: Vec<WarpIb>,
    /// Per warp: the next instruction in program order, read from the stream to learn whether
    /// the last inserted entry redirects the warp, and not yet inserted.
    pub held: Vec<Option<TInst>>,
    /// Per warp: the held instruction reads the cycle counter.
    pub held_clock: Vec<bool>,
    /// Per warp: fetch is stopped behind a redirecting entry until it issues (§2.5).
    pub redirect_wait: Vec<bool>,
    /// Per warp: entries whose I-cache line is still missing.
    pub miss_mask: Vec<u64>,
    pub policy: LocalPolicy,
    pub dual: OooDual,
    pub refill_when_empty: bool,
    pub inst_bytes: u32,
    pub fetch_width: u32,
    pub stats: SocgpuStats,
    /// Per warp: this cycle's candidates (scratch of the issue stage).
    pub cands: Vec<u64>,
    /// The last evaluated issue cycle's per-warp ready-check outcome, `(valid entries,
    /// candidates)` for each live warp: the counters a cycle in which the SM sleeps (nothing
    /// changes) would add again.
    pub idle: Vec<(u8, u8)>,
}

impl SmSocgpu {
    /// The state of SM `sm` with `nw` warp slots under `cfg`.
    pub fn new(cfg: &GpuConfig, sm: u32, nw: usize) -> SmSocgpu {
        let o = &cfg.sched.ooo;
        let n = o.ib_depth as usize;
        let bits = ready_ctr_bits(cfg);
        let mem_in_order = o.mem_order == OooMemOrder::SameWarpInOrder;
        let ibs = (0..nw)
            .map(|w| {
                let key = cfg.sim.seed ^ (((sm as u64) << 32) | w as u64).rotate_left(17);
                WarpIb::new(n, bits, mem_in_order, key)
            })
            .collect();
        SmSocgpu {
            ibs,
            held: vec![None; nw],
            held_clock: vec![false; nw],
            redirect_wait: vec![false; nw],
            miss_mask: vec![0; nw],
            policy: o.local_policy,
            dual: o.dual,
            refill_when_empty: o.ib_refill == IbRefill::WhenEmpty,
            inst_bytes: inst_bytes(cfg),
            fetch_width: cfg.frontend.fetch_width.max(1),
            stats: SocgpuStats::new(o.ib_depth),
            cands: Vec::with_capacity(nw),
            idle: Vec::with_capacity(nw),
        }
    }

    /// The ready-check counters of `k` cycles whose issue stage saw the state of the last
    /// evaluated one (the SM slept: nothing changed and nothing issued), as that cycle added
    /// them: occupancy, NOR evaluations and candidate-set sizes per live warp.
    pub fn replay_idle(&mut self, k: u64) {
        if k == 0 {
            return;
        }
        for &(nv, c) in &self.idle {
            self.stats.occupancy_hist[nv as usize] += k;
            self.stats.dm_nor_evals += nv as u64 * k;
            if nv > 0 {
                self.stats.candidate_hist[c as usize] += k;
            }
        }
    }

    /// May an SM under this state sleep through cycles in which nothing changes? Only when
    /// the local policy keeps no per-cycle state: the ready counters move every cycle and the
    /// Random policy draws at every selection.
    pub fn may_sleep(&self) -> bool {
        matches!(
            self.policy,
            LocalPolicy::First | LocalPolicy::Older | LocalPolicy::Younger
        )
    }

    /// The earliest cycle after `t` at which an entry becomes ready by time alone (decode
    /// done, or its I-cache line present), if any.
    pub fn next_ready(&self, t: u64) -> Option<u64> {
        self.ibs.iter().filter_map(|ib| ib.next_ready(t)).min()
    }

    /// Clears warp slot `w` for a newly launched warp.
    pub fn reset_warp(&mut self, w: usize) {
        self.ibs[w].clear();
        self.held[w] = None;
        self.held_clock[w] = false;
        self.redirect_wait[w] = false;
        self.miss_mask[w] = 0;
    }

    /// May warp `w`'s buffer take another fetch (the refill rule of §2.1)?
    #[inline]
    pub fn has_room(&self, w: usize) -> bool {
        let ib = &self.ibs[w];
        if self.refill_when_empty {
            ib.n_valid() == 0
        } else {
            ib.free_entries() >= self.fetch_width.min(ib.depth() as u32)
        }
    }
}

/// The scoreboard calls of [`IssueStage`] for a stage that tracks dependences its own way: no
/// hazard to check, nothing to reserve, release or count down, no long-latency producer.
macro_rules! no_scoreboard {
    () => {
        fn check(&self, _w: usize, _inst: &TInst) -> Result<(), Hazard> {
            Ok(())
        }
        fn reserve(&mut self, _w: usize, _inst: &TInst, _longop: bool) {}
        fn release(&mut self, _w: usize, _reg: u16) {}
        fn sources_read(&mut self, _w: usize, _inst: &TInst) {}
        fn reads_longop(&self, _w: usize, _inst: &TInst) -> bool {
            false
        }
    };
}

/// SOCGPU as the SM's issue stage: dependences live in each warp's dependence matrix, set at
/// insertion and cleared at write-back (`sm/socgpu.rs`), so the scoreboard calls find nothing
/// to do; the stage's own part is its per-warp state, its sleep rule and its counters.
impl IssueStage for SmSocgpu {
    /// Built for the SM's warp slots ([`SmSocgpu::new`]); nothing to resize.
    fn reset(&mut self, _n_warps: usize) {}
    no_scoreboard!();
    /// Entries of warp `w` issued and not yet written back.
    fn any_pending(&self, w: usize) -> bool {
        let ib = &self.ibs[w];
        ib.valid_mask() & !ib.unissued_mask() != 0
    }
    fn on_warp_launch(&mut self, w: usize) {
        self.reset_warp(w);
    }
    fn replay_idle(&mut self, cycles: u64) {
        SmSocgpu::replay_idle(self, cycles);
    }
    fn may_sleep(&self) -> bool {
        SmSocgpu::may_sleep(self)
    }
    fn record(&self, k: &mut KernelActivity) {
        match k.socgpu.as_mut() {
            Some(x) => x.merge(&self.stats),
            None => k.socgpu = Some(self.stats.clone()),
        }
    }
}

/// LOOG as the SM's issue stage: registers are renamed through the RAT and results
/// broadcast to the waiting collector units (`sm/loog.rs`), so there is no scoreboard to
/// check; the stage steps every cycle.
impl IssueStage for SmLoog {
    /// Built for the SM's warp slots ([`SmLoog::new`]); nothing to resize.
    fn reset(&mut self, _n_warps: usize) {}
    no_scoreboard!();
    /// Nothing is reserved: a renamed register has its producer, not a pending bit.
    fn any_pending(&self, _w: usize) -> bool {
        false
    }
    fn on_warp_launch(&mut self, w: usize) {
        self.reset_warp(w);
    }
    fn may_sleep(&self) -> bool {
        false
    }
    fn record(&self, k: &mut KernelActivity) {
        match k.loog.as_mut() {
            Some(x) => x.merge(&self.stats),
            None => k.loog = Some(self.stats.clone()),
        }
    }
}
