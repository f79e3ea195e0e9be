//! The SM's front end (simulator §2.2): instruction fetch state, the I-cache, decode into
//! the per-warp I-buffers, and the execution-class table used at decode. The fetch cycle itself
//! (`Sm::fetch`, in `sm/memory.rs`) drives this state together with the warp state and the
//! memory system.

use super::cache::{LineState, Probe, TagArray};
use super::divisor::ring_add;
use super::exec::{classify_op, ExecClass, PipeClass, SpPipe, ALL_OPS};
use super::perclass::PerOp;
use super::tinst::{AddrPool, TInst};
use super::warpset::WarpSet;
use crate::activity::{CacheReads, IbufferCounts};
use crate::config::reconv::StackUpdateAt;
use crate::config::GpuConfig;
use crate::inst::{Family, MemInfo, OpClass, WarpInst};

/// Byte address of instruction memory (kernel code) in the unified address space [G].
const CODE_BASE: u64 = 0xFFFF_0000_0000;

/// Tag of a branch whose completion releases its warp's fetch (`reconv.stack_update_at =
/// "writeback"`; the in-order issue path leaves every other tag 0).
pub(crate) const BRANCH_WB_TAG: u16 = u16::MAX;

/// True for a branch instruction (the only instructions that update the PDOM stack with a
/// target other than the next PC, apart from exits, which end the warp).
#[inline]
pub(crate) fn is_branch(family: Family, op: OpClass) -> bool {
    family == Family::Ctrl && op == OpClass::Branch
}

/// Every instruction family (for the execution-class table).
const ALL_FAMILIES: [Family; 8] = [
    Family::Int,
    Family::Fp,
    Family::Dp,
    Family::Sfu,
    Family::Mem,
    Family::Ctrl,
    Family::Bar,
    Family::Tensor,
];
const N_FAMILIES: usize = ALL_FAMILIES.len();

/// When a fetch group may run past a branch (`reconv.stack_update_at`, `reconv.issue_flush`;
/// control-flow spec §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BranchFetch {
    /// The front end knows the path at fetch: groups run on past branches (`"fetch"`).
    Oracle,
    /// A group ends at every branch; the next fetch follows the branch's stack update at
    /// issue (`"issue"`) or at write-back (`"writeback"`, with [`FrontEnd::wb_release`]).
    EndGroup,
    /// A group runs on sequentially past a branch that falls through; at a branch that
    /// redirects the warp it ends, and the sequentially fetched slots behind the branch are
    /// counted as flushed when the branch issues (`"issue"` with `reconv.issue_flush`).
    Flush,
}

/// Fetch, I-cache and I-buffer state of one SM, with their counters.
pub(crate) struct FrontEnd {
    ibuf: Vec<[TInst; 8]>,
    /// Per I-buffer entry: the collectors its instruction may take
    /// ([`super::opcoll::OperandCollectors::cu_mask`]), 0 for one that takes none. Read by the
    /// issue stage without touching the entry itself.
    ib_cu: Vec<[u64; 8]>,
    /// Per warp: `ib_cu` of its I-buffer head while the buffer holds an entry (a dense copy
    /// for the issue stage's collector check).
    w_head_cu: Vec<u64>,
    /// First cycle the warp's I-buffer entries may issue (decode done, I-cache fill arrived);
    /// a warp fetches only into an empty I-buffer, so its entries share one time.
    w_ib_ready: Vec<u64>,
    /// The latest finite `w_ib_ready` assigned (always the assigning cycle + 1).
    ib_ready_last: u64,
    /// Per-lane addresses of fetched memory instructions until the LD/ST unit accepts them.
    addr_pool: AddrPool,
    /// The stream writes each fetched instruction here before it is compacted into `ibuf`.
    fetch_tmp: WarpInst,
    ib_head: Vec<u8>,
    ib_len: Vec<u8>,
    ib_cap: u8,
    /// Warps whose I-buffer holds instructions (`ib_len > 0`).
    ib_nonempty: WarpSet,
    /// Warps whose decoded entries may not be ready yet (`w_ib_ready` may lie ahead); a warp
    /// outside the set has `w_ib_ready` at or before the current cycle. Refreshed by the issue
    /// stage.
    ib_wait: WarpSet,
    icache: TagArray,
    perfect_icache: bool,
    icache_pending: Vec<u64>,
    fetch_last: u32,
    /// A warp may have become able to fetch since the fetch stage last found none.
    fetch_dirty: bool,
    /// First cycle a warp's fetch delay ends after the fetch stage last found none.
    fetch_wake: u64,
    /// Bit set over warp slots: every warp that is eligible to fetch has its bit set (bits of
    /// warps found ineligible are cleared lazily by the fetch stage).
    fetch_cand: WarpSet,
    fetch_scan: Vec<u16>,
    /// Execution class of every (family, operation class), per family in [`Family`] order
    /// (the configuration's [`classify_op`]).
    ec_table: [PerOp<ExecClass>; N_FAMILIES],
    /// One per fetch tag lookup.
    icache_act: CacheReads,
    ibuffer_act: IbufferCounts,
    /// One per instruction written to an I-buffer.
    decoder_insts: u64,
    /// When a fetch group may run past a branch.
    branch_fetch: BranchFetch,
    /// `reconv.stack_update_at = "writeback"`: a warp that issued a branch fetches again only
    /// when the branch completes.
    wb_release: bool,
    /// Per warp: the instruction read one ahead behind a redirecting branch ([`BranchFetch::
    /// Flush`]); the warp's next fetch takes it before stepping the stream again.
    held: Vec<Option<Box<WarpInst>>>,
    /// Per warp: the held instruction reads the cycle counter
    /// ([`crate::stream::KernelStream::reads_clock`]).
    held_clock: Vec<bool>,
    /// Per warp: PCs of the clock reads fetched and not yet issued, oldest first. A clock
    /// read's value is the cycle it issues, as on hardware, not the fetch cycle at which the
    /// functional front end executed it.
    clock_unissued: Vec<Vec<u32>>,
    /// Per warp: (PC, issue cycle) of clock reads that issued, to be written into their
    /// destinations before the warp next steps the stream.
    clock_issued: Vec<Vec<(u32, u64)>>,
    /// Per warp: fetch stopped because the next instruction reads or writes the destination
    /// of an unissued clock read; it resumes once every such read has issued.
    clock_fence: Vec<bool>,
}

impl FrontEnd {
    /// An empty front end for `nw` warp slots.
    pub fn new(cfg: &GpuConfig, nw: usize) -> Self {
        let mut ec_table = [PerOp::splat(ExecClass {
            pipe: PipeClass::None,
            sp_pipe: SpPipe::Int,
            latency: 1,
            ii: 1,
        }); N_FAMILIES];
        for f in ALL_FAMILIES {
            for op in ALL_OPS {
                ec_table[f as usize][op] = classify_op(cfg, f, op);
            }
        }
        FrontEnd {
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
            ib_nonempty: WarpSet::default(),
            ib_wait: WarpSet::default(),
            icache: TagArray::new(&cfg.icache),
            perfect_icache: cfg.frontend.perfect_icache,
            icache_pending: Vec::new(),
            fetch_last: nw as u32 - 1,
            fetch_dirty: true,
            fetch_wake: 0,
            fetch_cand: WarpSet::default(),
            fetch_scan: Vec::with_capacity(nw),
            ec_table,
            icache_act: CacheReads::default(),
            ibuffer_act: IbufferCounts::default(),
            decoder_insts: 0,
            branch_fetch: match (cfg.reconv.stack_update_at, cfg.reconv.issue_flush) {
                (StackUpdateAt::Fetch, _) => BranchFetch::Oracle,
                (StackUpdateAt::Issue, true) => BranchFetch::Flush,
                _ => BranchFetch::EndGroup,
            },
            wb_release: cfg.reconv.stack_update_at == StackUpdateAt::Writeback,
            held: (0..nw).map(|_| None).collect(),
            held_clock: vec![false; nw],
            clock_unissued: vec![Vec::new(); nw],
            clock_issued: vec![Vec::new(); nw],
            clock_fence: vec![false; nw],
        }
    }

    /// Execution class of an instruction: barriers and memory barriers take no pipe (they
    /// complete at issue); everything else per the (family, op) table.
    #[inline]
    pub fn exec_class(&self, family: Family, op: OpClass) -> ExecClass {
        super::funccount::no_pipe_class(family, op)
            .unwrap_or_else(|| self.ec_table[family as usize][op])
    }

    /// The warp slot fetched last (the round-robin start of the next fetch).
    #[inline]
    pub fn fetch_last(&self) -> u32 {
        self.fetch_last
    }

    /// Warp `w` fetched this cycle.
    #[inline]
    pub fn set_fetch_last(&mut self, w: usize) {
        self.fetch_last = w as u32;
    }

    /// The buffer the stream writes a fetched instruction into.
    #[inline]
    pub fn fetch_buf(&mut self) -> &mut WarpInst {
        &mut self.fetch_tmp
    }

    /// The instruction in the fetch buffer as the timing model carries it, its addresses put
    /// into the address pool.
    #[inline]
    pub fn fetched(&mut self) -> TInst {
        TInst::from_inst(&self.fetch_tmp, &mut self.addr_pool)
    }

    /// The addresses of a memory instruction (its pool slot).
    #[inline]
    pub fn mem_info(&self, slot: u32) -> &MemInfo {
        self.addr_pool.get(slot)
    }

    /// The fetch stage may skip this cycle `t`: no warp became able to fetch since its last
    /// pass found none, and no fetch delay has ended.
    #[inline]
    pub fn fetch_idle(&self, t: u64) -> bool {
        !self.fetch_dirty && t < self.fetch_wake
    }

    /// A warp may have become able to fetch: the fetch stage runs its next pass.
    #[inline]
    pub fn mark_fetch_dirty(&mut self) {
        self.fetch_dirty = true;
    }

    /// First cycle a warp's fetch delay ends after the fetch stage last found none.
    #[inline]
    pub fn fetch_wake(&self) -> u64 {
        self.fetch_wake
    }

    /// Starts a fetch pass: the candidate warps in slot order, and the index in that list of
    /// the first one after the warp fetched last (round-robin order starts there). Hand the
    /// list back with [`FrontEnd::end_fetch_pass`].
    #[inline]
    pub fn begin_fetch_pass(&mut self) -> (Vec<u16>, usize) {
        let mut scan = std::mem::take(&mut self.fetch_scan);
        scan.clear();
        self.fetch_cand.push_slots(&mut scan);
        let last = self.fetch_last;
        let split = scan.partition_point(|&w| w as u32 <= last);
        (scan, split)
    }

    /// Ends a fetch pass begun by [`FrontEnd::begin_fetch_pass`]: whether it fetched, and when
    /// it fetched nothing, the first cycle a waiting warp's fetch delay ends (`u64::MAX` for
    /// none); the stage stays idle until then or until an event marks it dirty.
    #[inline]
    pub fn end_fetch_pass(&mut self, scan: Vec<u16>, fetched: bool, wake: u64) {
        self.fetch_dirty = fetched;
        if !fetched {
            self.fetch_wake = wake;
        }
        self.fetch_scan = scan;
    }

    /// Warp `w` was found unable to fetch: it leaves the candidate set until an event puts it
    /// back ([`FrontEnd::candidate`]).
    #[inline]
    pub fn drop_candidate(&mut self, w: usize) {
        self.fetch_cand.remove(w);
    }

    /// When a fetch group may run past a branch.
    #[inline]
    pub fn branch_fetch(&self) -> BranchFetch {
        self.branch_fetch
    }

    /// A warp that issued a branch fetches again only when the branch completes
    /// (`reconv.stack_update_at = "writeback"`).
    #[inline]
    pub fn wb_release(&self) -> bool {
        self.wb_release
    }

    /// Moves warp `w`'s held instruction (read one ahead behind a redirecting branch) into the
    /// fetch buffer: whether it reads the cycle counter, or `None` when none is held.
    #[inline]
    pub fn take_held(&mut self, w: usize) -> Option<bool> {
        let h = self.held[w].take()?;
        self.fetch_tmp = *h;
        Some(std::mem::take(&mut self.held_clock[w]))
    }

    /// Holds `inst` (read one ahead; `clock`: it reads the cycle counter) for warp `w`'s next
    /// fetch.
    #[inline]
    pub fn hold(&mut self, w: usize, inst: WarpInst, clock: bool) {
        self.held_clock[w] = clock;
        self.held[w] = Some(Box::new(inst));
    }

    /// A copy of the fetch buffer, as scratch space for reading one instruction ahead.
    #[inline]
    pub fn fetch_scratch(&self) -> WarpInst {
        self.fetch_tmp
    }

    /// Releases the address-pool slot of a memory instruction the LD/ST unit has taken.
    #[inline]
    pub fn release_addrs(&mut self, slot: u32) {
        self.addr_pool.release(slot);
    }

    /// The clock reads warp `w` issued since it last stepped the stream, as (PC, issue cycle),
    /// oldest first; `None` when there are none.
    #[inline]
    pub fn take_issued_clocks(&mut self, w: usize) -> Option<Vec<(u32, u64)>> {
        if self.clock_issued[w].is_empty() {
            None
        } else {
            Some(std::mem::take(&mut self.clock_issued[w]))
        }
    }

    /// Warp `w` has fetched clock reads that have not issued.
    #[inline]
    pub fn has_unissued_clocks(&self, w: usize) -> bool {
        !self.clock_unissued[w].is_empty()
    }

    /// Stops warp `w`'s fetch until its unissued clock reads issue.
    #[inline]
    pub fn fence_clock(&mut self, w: usize) {
        self.clock_fence[w] = true;
    }

    /// Warp `w` issued the instruction at `pc` at cycle `t`: if it is an unissued clock read,
    /// its value becomes `t`, and a fence waiting on it lifts once none is left (the warp is a
    /// fetch candidate again).
    #[inline]
    pub fn clock_read_issued(&mut self, w: usize, pc: u32, t: u64) {
        let q = &mut self.clock_unissued[w];
        if q.is_empty() {
            return;
        }
        let Some(k) = q.iter().position(|&p| p == pc) else {
            return;
        };
        q.remove(k);
        self.clock_issued[w].push((pc, t));
        if q.is_empty() && std::mem::take(&mut self.clock_fence[w]) {
            self.fetch_dirty = true;
            self.candidate(w);
        }
    }

    /// Warp `w`'s fetch is fenced until its unissued clock reads issue.
    #[inline]
    pub fn clock_fenced(&self, w: usize) -> bool {
        self.clock_fence[w]
    }

    /// Warp `w` fetched a clock read at `pc` that has not issued.
    #[inline]
    pub fn note_clock_unissued(&mut self, w: usize, pc: u32) {
        self.clock_unissued[w].push(pc);
    }

    /// Marks warp `w` as a fetch candidate (the set is a superset of the eligible warps).
    #[inline]
    pub fn candidate(&mut self, w: usize) {
        self.fetch_cand.insert(w);
    }

    /// Warp `w`'s I-buffer head (the buffer holds an entry).
    #[inline]
    pub fn head(&self, w: usize) -> &TInst {
        &self.ibuf[w][self.ib_head[w] as usize]
    }

    /// Sets the tag of warp `w`'s I-buffer head (the buffer holds an entry).
    #[inline]
    pub fn set_head_tag(&mut self, w: usize, tag: u16) {
        self.ibuf[w][self.ib_head[w] as usize].tag = tag;
    }

    /// The collectors warp `w`'s head may take ([`super::opcoll::OperandCollectors::cu_mask`];
    /// 0 for one that takes none; meaningful while the buffer holds an entry).
    #[inline]
    pub fn head_cu(&self, w: usize) -> u64 {
        self.w_head_cu[w]
    }

    /// Warp `w`'s I-buffer holds no entry.
    #[inline]
    pub fn is_empty(&self, w: usize) -> bool {
        self.ib_len[w] == 0
    }

    /// Warp `w`'s head may be looked at in cycle `t`: the buffer holds an entry, decoded, with
    /// its I-cache line present.
    #[inline]
    pub fn head_ready(&self, w: usize, t: u64) -> bool {
        self.ib_len[w] > 0 && self.w_ib_ready[w] <= t
    }

    /// Entries in warp `w`'s I-buffer.
    pub fn len(&self, w: usize) -> u8 {
        self.ib_len[w]
    }

    /// First cycle warp `w`'s I-buffer entries may issue (they share one).
    #[inline]
    pub fn ready_at(&self, w: usize) -> u64 {
        self.w_ib_ready[w]
    }

    /// The latest cycle at which decoded entries became or become ready.
    #[inline]
    pub fn ready_last(&self) -> u64 {
        self.ib_ready_last
    }

    /// Entries decoded in cycle `t` (into a buffer of the front end's or of an issue stage's
    /// own) become ready at `t + 1`.
    #[inline]
    pub fn note_decoded(&mut self, t: u64) {
        self.ib_ready_last = t + 1;
    }

    /// I-buffer entries per warp.
    #[inline]
    pub fn capacity(&self) -> u8 {
        self.ib_cap
    }

    /// Word `i` of the warps whose head cannot be looked at: an empty I-buffer, or entries that
    /// may not be ready yet.
    #[inline]
    pub fn not_ready_word(&self, i: usize) -> u64 {
        !self.ib_nonempty.0[i] | self.ib_wait.0[i]
    }

    /// Word `i` of the warps with an empty I-buffer.
    #[inline]
    pub fn empty_word(&self, i: usize) -> u64 {
        !self.ib_nonempty.0[i]
    }

    /// Appends `inst` (whose collectors are `cu`) to warp `w`'s I-buffer, decoded at cycle `t`.
    #[inline]
    pub fn push(&mut self, w: usize, inst: TInst, cu: u64, t: u64) {
        let slot = ring_add(
            self.ib_head[w] as usize,
            self.ib_len[w] as usize,
            self.ib_cap as usize,
        );
        self.ibuf[w][slot] = inst;
        self.ib_cu[w][slot] = cu;
        if self.ib_len[w] == 0 {
            self.w_head_cu[w] = cu;
        }
        self.w_ib_ready[w] = t + 1;
        self.ib_wait.insert(w);
        self.ib_ready_last = t + 1;
        self.ib_len[w] += 1;
        self.ib_nonempty.insert(w);
    }

    /// Warp `w`'s decoded entries wait for their I-cache line.
    #[inline]
    pub fn wait_for_line(&mut self, w: usize) {
        self.w_ib_ready[w] = u64::MAX;
        self.ib_wait.insert(w);
    }

    /// Warp `w`'s I-cache line arrived at cycle `t`: its entries are ready at `t + 1` and it
    /// may fetch again.
    #[inline]
    pub fn line_arrived(&mut self, w: usize, t: u64) {
        self.fetch_dirty = true;
        self.candidate(w);
        self.w_ib_ready[w] = t + 1;
        self.ib_wait.insert(w);
        self.ib_ready_last = t + 1;
    }

    /// Counts a fetch of `n` instructions from `first_pc` (decoded, written to a buffer, one
    /// I-cache tag lookup) and looks its line up: `None` on a hit, else the missing line and
    /// whether a request for it must go to memory (none is pending yet; it now is).
    pub fn fetch_lookup(&mut self, n: u32, first_pc: u32) -> Option<(u64, bool)> {
        self.decoder_insts += n as u64;
        self.ibuffer_act.writes += n as u64;
        self.icache_act.reads += 1;
        if self.perfect_icache {
            self.icache_act.hits += 1;
            return None;
        }
        let line = self.icache.line_of(CODE_BASE + first_pc as u64);
        let full = self.icache.full_mask();
        if let Probe::Hit { .. } = self.icache.probe(line, full) {
            self.icache_act.hits += 1;
            return None;
        }
        self.icache_act.misses += 1;
        let send = !self.icache_pending.contains(&line);
        if send {
            self.icache_pending.push(line);
        }
        Some((line, send))
    }

    /// Bytes of an I-cache line.
    #[inline]
    pub fn line_bytes(&self) -> u64 {
        self.icache.line_bytes()
    }

    /// I-cache line `line` arrived at cycle `t`: it is filled and no longer pending.
    pub fn fill_line(&mut self, line: u64, t: u64) {
        let full = self.icache.full_mask();
        if let Some((w, _)) = self.icache.allocate(line, LineState::Valid, t) {
            self.icache.fill(w, full, t);
        }
        self.icache_pending.retain(|&l| l != line);
    }

    /// Counts an I-buffer read by an issue stage with buffers of its own.
    #[inline]
    pub fn count_read(&mut self) {
        self.ibuffer_act.reads += 1;
    }

    /// Counts the `wrong` fetch slots of a group behind a redirecting branch: fetched, decoded
    /// and flushed.
    pub fn count_wrong_path(&mut self, wrong: u32) {
        let wrong = wrong as u64;
        self.ibuffer_act.flushes += 1;
        self.ibuffer_act.flushed_entries += wrong;
        self.ibuffer_act.writes += wrong;
        self.decoder_insts += wrong;
    }

    /// The front end's counters: I-cache lookups, instructions decoded, I-buffer accesses.
    pub fn counters(&self) -> (CacheReads, u64, IbufferCounts) {
        (self.icache_act, self.decoder_insts, self.ibuffer_act)
    }

    /// Takes warp `w`'s I-buffer head (the buffer holds one): the next entry becomes the head,
    /// or the emptied buffer makes the warp a fetch candidate. True when the buffer is empty.
    #[inline]
    pub fn pop_head(&mut self, w: usize) -> bool {
        let h = self.ib_head[w] as usize;
        self.ib_head[w] = if h + 1 == self.ib_cap as usize {
            0
        } else {
            (h + 1) as u8
        };
        self.ib_len[w] -= 1;
        let empty = self.ib_len[w] == 0;
        if empty {
            self.ib_nonempty.remove(w);
            self.fetch_dirty = true;
            self.candidate(w);
        } else {
            self.w_head_cu[w] = self.ib_cu[w][self.ib_head[w] as usize];
        }
        self.ibuffer_act.reads += 1;
        empty
    }

    /// Drops from `ib_wait` the warps whose decoded entries are ready at cycle `t`.
    #[inline]
    pub fn settle_waits(&mut self, t: u64) {
        let waiting = self.ib_wait;
        for w in waiting.iter() {
            if self.w_ib_ready[w] <= t {
                self.ib_wait.remove(w);
            }
        }
    }

    /// Clears warp `w`'s I-buffer for a newly launched warp (nothing decoded yet).
    pub fn reset_warp(&mut self, w: usize) {
        self.held[w] = None;
        self.held_clock[w] = false;
        self.clock_unissued[w].clear();
        self.clock_issued[w].clear();
        self.clock_fence[w] = false;
        self.ib_head[w] = 0;
        self.ib_len[w] = 0;
        self.ib_nonempty.remove(w);
        self.w_ib_ready[w] = u64::MAX;
        self.ib_wait.insert(w);
    }
}
