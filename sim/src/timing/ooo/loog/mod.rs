//! LOOG: collector units used as reservation stations (issue-stage §3), the state of one SM.
//!
//! Per issue slice (one per warp scheduler, §3 [G]) an array of N_cu collector units (CUs)
//! holds allocated instructions until their operands are ready and they are dispatched; a
//! register alias table (RAT) per warp and architectural register names the in-flight producer
//! of each register (a CU, or an entry of the optional result reservation station, RRS), so
//! that the scoreboard disappears: a consumer either reads the register file or captures its
//! producer's result from the slice's write-back broadcast. A per-warp UUID counter orders the
//! instructions of one warp for the dispatch rule (LSU in order, the WAR guard) and the reorder
//! counters. The per-instruction flow and its latencies (§3.2):
//!
//! 1. allocate into the lowest-index free CU (cycle t; with `rr_alloc` round-robin);
//! 2. RAT visit at t + 1: each source copies `from_rf`/`src_id`, each destination renames;
//! 3. RF read: a granted CU reads its register-file operands one per cycle, each ready the
//!    cycle after its read (predicates come from the predicate file without a port);
//! 4. broadcast capture: an operand waiting on a producer becomes ready the cycle after the
//!    producer broadcasts;
//! 5. dispatch: a CU is ready one cycle after its last operand became valid (registered ready
//!    vector); per slice one ready CU per cycle, the lowest index whose unit accepts;
//! 6. a CU without a write-back (or any CU with an RRS) is freed the cycle after dispatch;
//! 7. write-back: at the result's end of packet the producer sets `rd_valid` and re-reads the
//!    RAT (a younger writer of the register eliminates the RF write, WAW elimination); the
//!    next cycle it broadcasts (one per slice per cycle) and, when it still owns the register,
//!    marks the RAT entry `from_rf`; it is freed the cycle after.
//!
//! The module is pure state and counting; the LOOG path (`path.rs`) drives it and
//! moves instructions to the execution units. Here: the structures, the knobs of a
//! configuration ([`loog_params`]), the allocation (step 1) and the [`IssueStage`]
//! implementation; the per-cycle steps 2–7 are in `path`, beside the path that drives them.

pub(crate) mod path;

pub use crate::activity::LoogHwInputs;
use crate::activity::{KernelActivity, LoogStats};
use crate::config::{GpuConfig, LoogRfArbiter};
use crate::inst::{Reg, MAX_DST, MAX_SRC};
use crate::timing::policy::{Hazard, IssueStage};
use crate::timing::tinst::TInst;

/// No producer: the register's value is in the register file (RAT `from_rf = 1`), or a CU
/// without a write-back.
pub const NO_ID: u16 = u16::MAX;

/// Registers a RAT row covers: the 255 general registers and the predicates above
/// [`PRED_BASE`]. A register id beyond it (never produced by the front ends) is never renamed.
pub const RAT_REGS: usize = 512;

/// The register-file read arbiter of a slice (`sched.ooo.loog_rf_arbiter`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RfArbiter {
    /// Lowest-index requesting CU.
    Id,
    /// Round-robin from after the last granted CU.
    Rr,
    /// Round-robin grants and round-robin CU allocation.
    RrAlloc,
}

/// The LOOG knobs of one SM (issue-stage §3.3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoogParams {
    /// Issue slices (warp schedulers) of the SM.
    pub slices: u32,
    /// CUs per slice, N_cu (1..=64).
    pub n_cu: u32,
    /// RRS entries per slice, R (0 = no RRS).
    pub n_rrs: u32,
    /// Write-back broadcast buffers per slice (1 or 2).
    pub wb_buffers: u32,
    /// UUID width U in bits (4..=32).
    pub uuid_bits: u32,
    /// Register-file read arbiter.
    pub arbiter: RfArbiter,
    /// CUs of a slice granted the register file at once.
    pub rf_read_ports: u32,
    /// With an RRS, a dispatch with a write-back also needs a free RRS entry.
    pub rrs_dispatch_needs_free_slot: bool,
    /// Allocation tries the warps whose I-buffer head has no source renamed to an in-flight
    /// producer before the others (`sched.ooo.loog_ready_first`, [`SmLoog::head_waits`]).
    pub ready_first: bool,
    /// With `ready_first`, a head reading the result of a global or local load in flight also
    /// goes after the others (`sched.ooo.loog_defer_load_consumers`).
    pub defer_load_consumers: bool,
    /// The memory queues, `(load-queue, store-queue)` entries per slice
    /// (`sched.ooo.loog_lsq`); `None`: LD/ST-unit instructions of a warp dispatch in order.
    pub lsq: Option<(u32, u32)>,
}

impl LoogParams {
    /// Producer ids per slice: N_cu without an RRS, R with one.
    pub fn n_id(&self) -> u32 {
        if self.n_rrs > 0 {
            self.n_rrs
        } else {
            self.n_cu
        }
    }
}

/// Why an instruction could not take a CU (§3.2 step 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocStall {
    /// Every CU of the slice is allocated (`no_cu_stall`).
    NoCu,
    /// The warp's UUID counter would overtake an in-flight instruction (`uuid_overflow_stall`).
    UuidOverflow,
    /// The instruction writes back and every RRS entry is allocated.
    NoRrs,
    /// A load (store) and every load-queue (store-queue) entry of the slice is taken.
    NoLsq,
}

/// What a memory instruction reserves in the memory queues (`sched.ooo.loog_lsq`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LsqKind {
    /// Not a load or store (arithmetic, a memory barrier, no data access).
    None,
    /// A load: one load-queue entry.
    Load,
    /// A store or an atomic: one store-queue entry.
    Store,
}

/// The memory access of a CU for the queues' checks: its kind, state space and the byte
/// range `[lo, hi)` its active lanes touch (`space` 0: unknown, overlapping everything).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LsqMem {
    /// Load, store or neither.
    pub kind: LsqKind,
    /// A memory barrier (nothing younger passes it).
    pub membar: bool,
    /// State space, 1 + `MemSpace` index; 0 unknown.
    pub space: u8,
    /// First byte accessed.
    pub lo: u64,
    /// One past the last byte accessed.
    pub hi: u64,
}

impl LsqMem {
    /// Nothing for the queues (a non-memory instruction).
    pub const NONE: LsqMem = LsqMem {
        kind: LsqKind::None,
        membar: false,
        space: 0,
        lo: 0,
        hi: 0,
    };

    /// The two accesses may touch a common byte (an unknown space or range always may).
    #[inline]
    pub fn overlaps(&self, o: &LsqMem) -> bool {
        if self.space == 0 || o.space == 0 {
            return true;
        }
        self.space == o.space && self.lo < o.hi && o.lo < self.hi
    }
}

/// One source operand of a CU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    /// Architectural register (a predicate from [`PRED_BASE`] up).
    pub reg: Reg,
    /// The value comes from the register file (RAT `from_rf` at the RAT visit).
    pub from_rf: bool,
    /// Producer id when `!from_rf`.
    pub src_id: u16,
    /// First cycle the operand's value is in the CU (`u64::MAX` while it is not).
    pub ready_at: u64,
}

impl Operand {
    const EMPTY: Operand = Operand {
        reg: 0,
        from_rf: true,
        src_id: NO_ID,
        ready_at: u64::MAX,
    };

    /// Still to be read from the register file (or, before the RAT visit, unknown).
    #[inline]
    pub fn needs_rf(&self) -> bool {
        self.from_rf && self.ready_at == u64::MAX
    }
}

/// One collector unit (reservation station).
#[derive(Clone, Copy, Debug)]
pub struct Cu {
    /// Allocated to an instruction.
    pub alloc: bool,
    /// Sent to its execution unit.
    pub dispatched: bool,
    /// Warp slot.
    pub warp: u16,
    /// The warp's UUID of the instruction.
    pub uuid: u32,
    /// A load, store, atomic or other LD/ST-unit instruction (the LSU-order rule).
    pub lsu: bool,
    /// Pipe class index of its unit (for the per-unit stall counters).
    pub unit: u8,
    /// Producer id (the CU itself, or its RRS entry) when it writes back, else [`NO_ID`].
    pub prod: u16,
    /// Cycle of the RAT visit (`u64::MAX` once done).
    pub rat_at: u64,
    /// Cycle of the allocation.
    pub alloc_at: u64,
    /// Cycle at which the CU is freed (`u64::MAX`: not scheduled).
    pub free_at: u64,
    /// Source operands (distinct registers).
    pub ops: [Operand; MAX_SRC],
    /// Valid entries of `ops`.
    pub n_ops: u8,
    /// The instruction (its `tag` names the slice and producer for write-back).
    pub inst: TInst,
    /// Its memory access for the queues (`sched.ooo.loog_lsq`).
    pub mem: LsqMem,
}

impl Cu {
    const FREE: Cu = Cu {
        alloc: false,
        dispatched: false,
        warp: 0,
        uuid: 0,
        lsu: false,
        unit: 0,
        prod: NO_ID,
        rat_at: u64::MAX,
        alloc_at: 0,
        free_at: u64::MAX,
        ops: [Operand::EMPTY; MAX_SRC],
        n_ops: 0,
        inst: TInst::NOP,
        mem: LsqMem::NONE,
    };

    /// Every operand is in the CU by cycle `t` − 1 (the ready vector is registered).
    #[inline]
    pub fn operands_ready(&self, t: u64) -> bool {
        self.rat_at == u64::MAX
            && self.ops[..self.n_ops as usize]
                .iter()
                .all(|o| o.ready_at < t)
    }
}

/// One producer of results: a CU's result storage, or an RRS entry.
#[derive(Clone, Copy, Debug)]
pub struct Producer {
    /// Allocated.
    pub alloc: bool,
    /// The result's end of packet arrived (`rd_valid`).
    pub rd_valid: bool,
    /// Waiting in the slice's broadcast queue.
    pub queued: bool,
    /// Its instruction was dispatched to its unit.
    pub dispatched: bool,
    /// A load or atomic from global or local memory (a long-latency result,
    /// [`TInst::is_long_latency_mem`]).
    pub long_load: bool,
    /// Warp slot.
    pub warp: u16,
    /// Destination registers.
    pub dst: [Reg; MAX_DST],
    /// Valid entries of `dst`.
    pub n_dst: u8,
    /// Cycle of the allocation.
    pub alloc_at: u64,
    /// Cycle at which the producer is freed (`u64::MAX`: not scheduled).
    pub free_at: u64,
}

impl Producer {
    const FREE: Producer = Producer {
        alloc: false,
        rd_valid: false,
        queued: false,
        dispatched: false,
        long_load: false,
        warp: 0,
        dst: [0; MAX_DST],
        n_dst: 0,
        alloc_at: 0,
        free_at: u64::MAX,
    };
}

/// One register-file operand read a granted CU asks for (§3.2 step 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RfRead {
    /// Slice index.
    pub slice: usize,
    /// CU index within the slice.
    pub cu: usize,
    /// Warp slot.
    pub warp: usize,
    /// Register read.
    pub reg: Reg,
    /// Active lanes of the instruction.
    pub lanes: u32,
}

/// One issue slice: its CUs, producers (the CUs' result storage or the RRS), broadcast queue
/// and arbiters.
#[derive(Clone, Debug)]
pub struct LoogSlice {
    /// The CU array.
    pub cus: Vec<Cu>,
    /// Producers: N_cu (one per CU) without an RRS, R with one.
    pub prods: Vec<Producer>,
    /// Producers whose result arrived, in arrival order, waiting to broadcast.
    pub bcast: std::collections::VecDeque<u16>,
    /// CUs holding a register-file read grant.
    pub grants: Vec<u16>,
    /// Last CU granted the register file (round-robin arbiters).
    pub rr_grant: u16,
    /// Last CU allocated (round-robin allocation).
    pub rr_alloc: u16,
    /// Allocated CUs.
    pub n_cus: u32,
    /// Allocated producers.
    pub n_prods: u32,
    /// Earliest scheduled `free_at` of a CU or producer (`u64::MAX`: none), so that a cycle
    /// without a release skips the scan.
    pub next_free_at: u64,
    /// CUs whose RAT visit is still to come (bit per CU index).
    pub rat_pending: u64,
    /// CUs past their RAT visit with an operand still to read from the register file (bit per
    /// CU index): the requesters of the register-file arbiter. After the RAT visit an operand
    /// only stops needing the register file (through its read), never starts to.
    pub rf_want: u64,
    /// Load- and store-queue entries taken (`sched.ooo.loog_lsq`).
    pub lq_used: u32,
    /// Store-queue entries taken.
    pub sq_used: u32,
}

/// The LOOG state of one SM: the slices, the per-warp RAT rows and UUID counters, the knobs
/// and the counters.
#[derive(Clone, Debug)]
pub struct SmLoog {
    /// The knobs.
    pub p: LoogParams,
    /// The slices, by scheduler index.
    pub slices: Vec<LoogSlice>,
    /// Per warp slot: its RAT row (producer id per register, [`NO_ID`] = `from_rf`).
    pub rat: Vec<Box<[u16; RAT_REGS]>>,
    /// Per warp slot: the next UUID.
    pub next_uuid: Vec<u32>,
    /// The counters (issue-stage §5).
    pub stats: LoogStats,
    /// Scratch of the SM's register-file read step: reads per bank this cycle.
    pub scratch_bank_rd: Vec<u32>,
    /// Scratch of the SM's register-file read step: the (warp, register) reads made.
    pub scratch_reads: Vec<(usize, u16)>,
    /// Scratch of the SM's allocation order: warps whose I-buffer head waits on a producer.
    pub scratch_late: Vec<u16>,
}

/// ⌊log2 n⌋ + 1 bins: bin k counts n in 2^(k−1)..2^k (bin 0: n = 0).
#[inline]
pub(super) fn log2_bin(n: u64, bins: usize) -> usize {
    ((64 - n.leading_zeros()) as usize).min(bins - 1)
}

/// `older(k, j)` for two UUIDs of one warp (issue-stage §3.1): k is older than j when it is
/// smaller and the two are not on opposite sides of a wrap (MSBs 00 vs 11), or when k is in the
/// top quarter and j in the bottom one.
#[inline]
pub fn older(k: u32, j: u32, bits: u32) -> bool {
    let msb = |x: u32| (x >> (bits - 2)) & 3;
    (k < j && !(msb(k) == 0 && msb(j) == 3)) || (msb(k) == 3 && msb(j) == 0)
}

/// Distance from UUID `k` to the younger `j` on the wrapping counter (values 1..=2^U − 1).
#[inline]
pub fn uuid_distance(k: u32, j: u32, bits: u32) -> u32 {
    let m = if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    };
    if j >= k {
        j - k
    } else {
        // the counter skips 0: from k up to m, then 1..=j
        (m - k) + j
    }
}

impl SmLoog {
    /// The state of an SM with `nw` warp slots.
    pub fn new(p: LoogParams, nw: usize) -> SmLoog {
        let slice = LoogSlice {
            cus: vec![Cu::FREE; p.n_cu as usize],
            prods: vec![Producer::FREE; p.n_id() as usize],
            bcast: Default::default(),
            grants: Vec::with_capacity(p.rf_read_ports as usize),
            rr_grant: p.n_cu as u16 - 1,
            rr_alloc: p.n_cu as u16 - 1,
            n_cus: 0,
            n_prods: 0,
            next_free_at: u64::MAX,
            rat_pending: 0,
            rf_want: 0,
            lq_used: 0,
            sq_used: 0,
        };
        SmLoog {
            p,
            slices: vec![slice; p.slices.max(1) as usize],
            rat: (0..nw).map(|_| Box::new([NO_ID; RAT_REGS])).collect(),
            next_uuid: vec![1; nw],
            stats: LoogStats {
                lsq: p.lsq.map(|_| Default::default()),
                ..LoogStats::new(p.n_cu, p.n_rrs, p.wb_buffers)
            },
            scratch_bank_rd: Vec::new(),
            scratch_reads: Vec::new(),
            scratch_late: Vec::new(),
        }
    }

    /// Clears warp slot `w` for a newly launched warp: RAT reset (all `from_rf`), UUID 1.
    pub fn reset_warp(&mut self, w: usize) {
        self.rat[w].fill(NO_ID);
        self.next_uuid[w] = 1;
    }

    /// The all-ones UUID (the counter wraps from it to 1).
    #[inline]
    fn uuid_max(&self) -> u32 {
        if self.p.uuid_bits >= 32 {
            u32::MAX
        } else {
            (1u32 << self.p.uuid_bits) - 1
        }
    }

    /// The RAT entry of warp `w`, register `r`: `None` = `from_rf`, else the producer id.
    #[inline]
    pub fn rat_lookup(&self, w: usize, r: Reg) -> Option<u16> {
        let id = *self.rat[w].get(r as usize)?;
        (id != NO_ID).then_some(id)
    }

    /// Warp `w` has an allocated CU not yet dispatched in slice `s`.
    pub fn warp_undispatched(&self, s: usize, w: usize) -> bool {
        self.slices[s]
            .cus
            .iter()
            .any(|c| c.alloc && !c.dispatched && c.warp as usize == w)
    }

    /// Allocated CUs of slice `s`.
    pub fn occupied(&self, s: usize) -> u32 {
        self.slices[s].n_cus
    }

    /// Can warp `w`'s next instruction (`wb`: it writes a register) take a CU of slice `s`?
    pub fn can_alloc(&self, s: usize, w: usize, wb: bool) -> Result<usize, AllocStall> {
        self.can_alloc_mem(s, w, wb, LsqKind::None)
    }

    /// [`SmLoog::can_alloc`] for an instruction that reserves `kind` in the memory queues (with
    /// `sched.ooo.loog_lsq`): a load (store) also needs a free load-queue (store-queue) entry.
    pub fn can_alloc_mem(
        &self,
        s: usize,
        w: usize,
        wb: bool,
        kind: LsqKind,
    ) -> Result<usize, AllocStall> {
        let sl = &self.slices[s];
        if let Some((lq, sq)) = self.p.lsq {
            let full = match kind {
                LsqKind::Load => sl.lq_used >= lq,
                LsqKind::Store => sl.sq_used >= sq,
                LsqKind::None => false,
            };
            if full && sl.cus.iter().any(|c| !c.alloc) {
                return Err(AllocStall::NoLsq);
            }
        }
        let n = sl.cus.len();
        let ci = if self.p.arbiter == RfArbiter::RrAlloc {
            (1..=n)
                .map(|k| (sl.rr_alloc as usize + k) % n)
                .find(|&i| !sl.cus[i].alloc)
        } else {
            sl.cus.iter().position(|c| !c.alloc)
        };
        let Some(ci) = ci else {
            return Err(AllocStall::NoCu);
        };
        // §3.2 step 8: the all-ones UUID waits while an instruction of the warp with MSBs 00
        // is in flight. That rule alone protects only the wrap: an instruction that stays
        // while 2^(U−2) or more younger ones of its warp pass it would be misordered by
        // `older`, so [G] every new UUID waits until `older` orders each in-flight instruction
        // of the warp before it (the same comparators; it includes the rule above).
        let (u, b) = (self.next_uuid[w], self.p.uuid_bits);
        if sl
            .cus
            .iter()
            .any(|c| c.alloc && c.warp as usize == w && !older(c.uuid, u, b))
        {
            return Err(AllocStall::UuidOverflow);
        }
        if wb && self.p.n_rrs > 0 && sl.prods.iter().all(|p| p.alloc) {
            return Err(AllocStall::NoRrs);
        }
        Ok(ci)
    }

    /// Does warp `w`'s I-buffer head `inst` (slice `s`) read a register whose producer is
    /// itself still waiting in a CU (its RAT entry names a producer not yet dispatched)? Such
    /// an instruction is at least two links down a dependence chain: it would hold its CU for
    /// the whole of its producer's wait plus its latency. Used only to order the allocation
    /// (issue-stage §3.2 step 1 [G], `sched.ooo.loog_ready_first`); a head whose producers are
    /// executing is not held back, so that it still captures their broadcast instead of
    /// reading the register file. Each source probed reads one RAT entry and its producer's
    /// `dispatched` bit (`head_probes`). The RAT is current: the renames of instructions
    /// allocated before this cycle were made at this cycle's RAT visits, and a slice allocates
    /// once per cycle. With `defer_load_consumers` a producer that is a global or local load
    /// whose result has not arrived (`rd_valid` clear) also counts as waiting: the same probe
    /// reads its load bit and `rd_valid` beside `dispatched`.
    pub fn head_waits(&mut self, s: usize, w: usize, inst: &TInst) -> bool {
        let mut waits = false;
        let defer = self.p.defer_load_consumers;
        for &r in inst.srcs() {
            self.stats.head_probes += 1;
            if let Some(id) = self.rat_lookup(w, r) {
                let p = &self.slices[s].prods[id as usize];
                waits |= !p.dispatched || (defer && p.long_load && !p.rd_valid);
            }
        }
        waits
    }

    /// Counts an allocation stall of a slice-cycle.
    pub fn count_stall(&mut self, why: AllocStall) {
        match why {
            AllocStall::NoCu => self.stats.no_cu_stall += 1,
            AllocStall::UuidOverflow => self.stats.uuid_overflow_stall += 1,
            AllocStall::NoRrs => self.stats.no_rrs_stall += 1,
            AllocStall::NoLsq => {
                if let Some(l) = self.stats.lsq.as_mut() {
                    l.full_stall += 1;
                }
            }
        }
    }

    /// Allocates warp `w`'s instruction `inst` (pipe class index `unit`, `lsu` for LD/ST-unit
    /// instructions) into CU `ci` of slice `s` at cycle `t` (after [`SmLoog::can_alloc`]
    /// returned `ci`). Its RAT visit is at t + 1. Returns the write-back tag (slice and
    /// producer) also written into the CU's copy of the instruction, or [`NO_ID`].
    #[allow(clippy::too_many_arguments)]
    pub fn alloc(
        &mut self,
        s: usize,
        ci: usize,
        w: usize,
        inst: TInst,
        unit: u8,
        lsu: bool,
        t: u64,
    ) -> u16 {
        let mem = if lsu {
            // an LD/ST-unit instruction of unknown access: it overlaps everything
            LsqMem {
                kind: match inst.op {
                    crate::inst::OpClass::Load => LsqKind::Load,
                    crate::inst::OpClass::Store | crate::inst::OpClass::Atomic => LsqKind::Store,
                    _ => LsqKind::None,
                },
                membar: inst.op == crate::inst::OpClass::Membar,
                ..LsqMem::NONE
            }
        } else {
            LsqMem::NONE
        };
        self.alloc_mem(s, ci, w, inst, unit, lsu, mem, t)
    }

    /// [`SmLoog::alloc`] with the instruction's memory access `mem` for the queues: with
    /// `sched.ooo.loog_lsq` a load or store takes its queue entry until its CU is freed.
    #[allow(clippy::too_many_arguments)]
    pub fn alloc_mem(
        &mut self,
        s: usize,
        ci: usize,
        w: usize,
        mut inst: TInst,
        unit: u8,
        lsu: bool,
        mem: LsqMem,
        t: u64,
    ) -> u16 {
        let n_id = self.p.n_id() as usize;
        let wb = inst.n_dst > 0;
        let uuid = self.next_uuid[w];
        self.next_uuid[w] = if uuid == self.uuid_max() { 1 } else { uuid + 1 };
        let sl = &mut self.slices[s];
        let prod = if !wb {
            NO_ID
        } else if self.p.n_rrs > 0 {
            let k = sl
                .prods
                .iter()
                .position(|p| !p.alloc)
                .expect("free RRS entry");
            self.stats.rrs_allocs += 1;
            k as u16
        } else {
            ci as u16
        };
        let tag = if prod == NO_ID {
            NO_ID
        } else {
            (s * n_id) as u16 + prod
        };
        inst.tag = tag;
        if prod != NO_ID {
            let mut dst = [0; MAX_DST];
            dst[..inst.n_dst as usize].copy_from_slice(inst.dsts());
            sl.n_prods += 1;
            sl.prods[prod as usize] = Producer {
                alloc: true,
                rd_valid: false,
                queued: false,
                dispatched: false,
                long_load: inst.is_long_latency_mem(),
                warp: w as u16,
                dst,
                n_dst: inst.n_dst,
                alloc_at: t,
                free_at: u64::MAX,
            };
        }
        let mut ops = [Operand::EMPTY; MAX_SRC];
        let mut n = 0usize;
        for &r in inst.srcs() {
            if ops[..n].iter().any(|o| o.reg == r) {
                continue;
            }
            ops[n] = Operand {
                reg: r,
                ..Operand::EMPTY
            };
            n += 1;
        }
        sl.n_cus += 1;
        sl.cus[ci] = Cu {
            alloc: true,
            dispatched: false,
            warp: w as u16,
            uuid,
            lsu,
            unit,
            prod,
            rat_at: t + 1,
            alloc_at: t,
            free_at: u64::MAX,
            ops,
            n_ops: n as u8,
            inst,
            mem,
        };
        if let (Some(_), Some(l)) = (self.p.lsq, self.stats.lsq.as_mut()) {
            match mem.kind {
                LsqKind::Load => {
                    sl.lq_used += 1;
                    l.lq_allocs += 1;
                }
                LsqKind::Store => {
                    sl.sq_used += 1;
                    l.sq_allocs += 1;
                }
                LsqKind::None => {}
            }
        }
        sl.rr_alloc = ci as u16;
        sl.rat_pending |= 1u64 << ci;
        self.stats.cu_allocs += 1;
        tag
    }
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

/// LOOG as the SM's issue stage: registers are renamed through the RAT and results
/// broadcast to the waiting collector units (`path.rs`), so there is no scoreboard to
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
