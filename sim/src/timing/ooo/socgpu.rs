//! SOCGPU: per-warp out-of-order issue without renaming (issue-stage §2; Huerta, "SOCGPU:
//! out-of-order issue for GPUs", UPC 2022).
//!
//! Each warp has an instruction buffer of N entries ([`WarpIb`]). An instruction stays in its
//! entry from decode until write-back. At insert (phase 1) it is compared with every valid
//! entry, all of which are older: a WAR/WAW conflict (its destination among the entry's
//! sources or destinations), a RAW conflict (a source among the entry's destinations), or a
//! control instruction (barrier, branch, return) on either side sets its row bit for that
//! entry in the [`DepMatrix`]. An entry is a candidate (phase 2) when it is valid and not
//! issued (a1), its row is all zeros (a2), and the SIMT condition a3 holds; the local policy
//! picks one candidate per warp. At write-back (phase 3) the entry's column is cleared, which
//! releases its dependants, and the seniority of every younger entry drops by one.
//!
//! Because no register is renamed, a younger instruction never writes a register an older
//! one still reads or writes (WAR/WAW) and never reads a register an older one has yet to
//! write (RAW): all three order it after the older entry until that entry's write-back.
//!
//! Here also: the dependence matrix ([`depmatrix`]), one SM's SOCGPU state ([`SmSocgpu`]: a buffer per warp slot, the
//! fetch state the buffers add, the knobs and the counters) and its [`IssueStage`]
//! implementation, which the SOCGPU path (`socgpu/path.rs`) drives.

pub(crate) mod path;

pub use self::depmatrix::DepMatrix;
use self::depmatrix::MAX_ENTRIES;
use super::inst_bytes;
pub use crate::activity::SocgpuHwInputs;
use crate::activity::{KernelActivity, SocgpuStats};
use crate::config::{GpuConfig, IbRefill, OooDual, OooMemOrder};
use crate::inst::Reg;
use crate::timing::policy::{Hazard, IssueStage};
use crate::timing::tinst::TInst;

/// Local (intra-warp) selection policy among a warp's candidates (issue-stage §2.3): the
/// configuration's `sched.ooo.local_policy`.
pub use crate::config::OooLocalPolicy as LocalPolicy;

/// One decoded instruction as the buffer holds it (issue-stage §2.1).
#[derive(Clone, Copy, Debug)]
pub struct IbEntry {
    /// The instruction (its `tag` is set to the entry's physical index at insert).
    pub inst: TInst,
    /// Barrier, branch or return (all three order against everything).
    pub ctl: bool,
    /// A memory instruction (for `sched.ooo.mem_order = "same_warp_in_order"`).
    pub mem: bool,
    /// Expected not-taken next PC (`pc + instruction size`).
    pub nt_next_pc: u32,
    /// The warp's next instruction in program order is not at `nt_next_pc`: issuing this entry
    /// changes the warp's control flow (a taken branch, or a SIMT-stack push or pop), which
    /// triggers the flush of §2.5.
    pub redirect: bool,
    /// PC of the warp's next instruction in program order (`u32::MAX` while unknown or at the
    /// end): issuing the entry pops the reconvergence stack's entries of that PC (§2.3 a3).
    pub next_pc: u32,
    /// First cycle the entry may issue (decode done and its I-cache line present).
    pub ready_at: u64,
    /// Collectors the instruction may take (0 for one that takes none).
    pub cu_mask: u64,
}

/// What a flush did (issue-stage §2.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlushOutcome {
    /// Valid non-issued entries removed at once.
    pub discarded: u32,
    /// Issued entries younger than the trigger, marked squashed (removed at their write-back).
    pub squashed: u32,
}

/// SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): one well-mixed value from a key.
#[inline]
fn mix(key: u64) -> u64 {
    let mut z = key.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Does `r` appear among `set`?
#[inline]
fn has(set: &[Reg], r: Reg) -> bool {
    set.contains(&r)
}

/// One warp's SOCGPU instruction buffer with its dependence matrix, seniority ranks and
/// ready counters.
#[derive(Clone, Debug)]
pub struct WarpIb {
    n: usize,
    entries: Vec<IbEntry>,
    valid: u64,
    issued: u64,
    squashed: u64,
    dm: DepMatrix,
    /// Entries whose `ready_at` may still lie ahead (set at insert and when it is moved;
    /// cleared lazily by [`WarpIb::settle`]).
    late: u64,
    /// Entries marked `redirect` (condition a3 applies to them).
    redirect: u64,
    seniority: Vec<u8>,
    ready_ctr: Vec<u32>,
    ctr_max: u32,
    mem_in_order: bool,
    /// Not-taken next PC of the last issued entry (the flush detector's register).
    pub last_issued_nt_pc: u32,
    /// Reconvergence PCs of the warp's SIMT stack as the issued entries left it (§2.3 a3:
    /// `TOS.rpc` is the last; empty: the base entry, rpc = +∞). A divergent branch pushes its
    /// reconvergence PC when it issues; an entry whose next instruction in program order is at
    /// the top's PC pops it (every level that reconverges there) when it issues. Both kinds
    /// issue only as the oldest entry (a control entry orders against all; the entry before
    /// the reconvergence point fails a3 otherwise), so the stack changes in program order.
    rpcs: Vec<u32>,
    rng_key: u64,
    rng_ctr: u64,
}

impl WarpIb {
    /// An empty buffer of `n` entries (1 ≤ n ≤ 64) with `ctr_bits`-bit ready counters;
    /// `mem_in_order` orders memory instructions among themselves; `rng_key` seeds the
    /// Random policy's stream.
    pub fn new(n: usize, ctr_bits: u32, mem_in_order: bool, rng_key: u64) -> WarpIb {
        assert!((1..=MAX_ENTRIES).contains(&n));
        let blank = IbEntry {
            inst: TInst::NOP,
            ctl: false,
            mem: false,
            nt_next_pc: 0,
            redirect: false,
            next_pc: u32::MAX,
            ready_at: u64::MAX,
            cu_mask: 0,
        };
        WarpIb {
            n,
            entries: vec![blank; n],
            valid: 0,
            issued: 0,
            squashed: 0,
            dm: DepMatrix::new(n),
            late: 0,
            redirect: 0,
            seniority: vec![0; n],
            ready_ctr: vec![0; n],
            ctr_max: if ctr_bits >= 32 {
                u32::MAX
            } else {
                (1u32 << ctr_bits) - 1
            },
            mem_in_order,
            last_issued_nt_pc: 0,
            rpcs: Vec::new(),
            rng_key,
            rng_ctr: 0,
        }
    }

    /// Empties the buffer (a new warp in the slot).
    pub fn clear(&mut self) {
        self.valid = 0;
        self.issued = 0;
        self.squashed = 0;
        self.late = 0;
        self.redirect = 0;
        for a in 0..self.n {
            self.dm.write_row(a, 0);
        }
        self.last_issued_nt_pc = 0;
        self.rpcs.clear();
    }

    /// Entries of the buffer.
    pub fn depth(&self) -> usize {
        self.n
    }

    /// Mask of valid entries.
    pub fn valid_mask(&self) -> u64 {
        self.valid
    }

    /// Mask of valid entries not yet issued.
    pub fn unissued_mask(&self) -> u64 {
        self.valid & !self.issued
    }

    /// Number of valid entries.
    pub fn n_valid(&self) -> u32 {
        self.valid.count_ones()
    }

    /// Number of free entries.
    pub fn free_entries(&self) -> u32 {
        self.n as u32 - self.n_valid()
    }

    /// Entry `a` (valid or not).
    pub fn entry(&self, a: usize) -> &IbEntry {
        &self.entries[a]
    }

    /// Records the PC of the warp's next instruction in program order after entry `a`.
    pub fn set_next_pc(&mut self, a: usize, pc: u32) {
        self.entries[a].next_pc = pc;
    }

    /// Marks entry `a` as redirecting the warp (condition a3, the flush of §2.5).
    pub fn set_redirect(&mut self, a: usize) {
        self.entries[a].redirect = true;
        self.redirect |= 1u64 << a;
    }

    /// Moves the first cycle entry `a` may issue to `ready_at` (its I-cache line is missing,
    /// `u64::MAX`, or arrived).
    pub fn set_ready_at(&mut self, a: usize, ready_at: u64) {
        self.entries[a].ready_at = ready_at;
        self.late |= 1u64 << a;
    }

    /// Forgets the entries that are ready by cycle `t` from the set still to be checked
    /// against time (the ready check's result does not change).
    pub fn settle(&mut self, t: u64) {
        let mut bits = self.late;
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.entries[a].ready_at <= t {
                self.late &= !(1u64 << a);
            }
        }
    }

    /// The earliest `ready_at` after `t` among the entries not yet issued, if any.
    pub fn next_ready(&self, t: u64) -> Option<u64> {
        let mut bits = self.late & self.valid & !self.issued;
        let mut ev = u64::MAX;
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let r = self.entries[a].ready_at;
            if r > t {
                ev = ev.min(r);
            }
        }
        (ev != u64::MAX).then_some(ev)
    }

    /// The dependence matrix.
    pub fn dm(&self) -> &DepMatrix {
        &self.dm
    }

    /// Seniority of entry `a` (0 = the oldest valid entry).
    pub fn seniority(&self, a: usize) -> u8 {
        self.seniority[a]
    }

    /// Ready counter of entry `a`.
    pub fn ready_ctr(&self, a: usize) -> u32 {
        self.ready_ctr[a]
    }

    /// Is entry `a` marked squashed?
    pub fn is_squashed(&self, a: usize) -> bool {
        self.squashed >> a & 1 == 1
    }

    /// The dependence row of a new instruction `e` against the valid entries (§2.2), and the
    /// number of entries it was compared with.
    pub fn dependence_row(&self, e: &IbEntry) -> (u64, u32) {
        let mut row = 0u64;
        let mut bits = self.valid;
        let mut n = 0;
        let (a_src, a_dst) = (e.inst.srcs(), e.inst.dsts());
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            n += 1;
            let pe = &self.entries[p];
            let (p_src, p_dst) = (pe.inst.srcs(), pe.inst.dsts());
            let dep = e.ctl
                || pe.ctl
                || a_dst.iter().any(|&d| has(p_src, d) || has(p_dst, d))
                || a_src.iter().any(|&s| has(p_dst, s))
                || (self.mem_in_order && e.mem && pe.mem);
            if dep {
                row |= 1 << p;
            }
        }
        (row, n)
    }

    /// Inserts `e` into the lowest free entry (§2.2); returns its index, or `None` when the
    /// buffer is full.
    pub fn insert(&mut self, e: IbEntry, st: &mut SocgpuStats) -> Option<usize> {
        let free = !self.valid & low_mask(self.n);
        if free == 0 {
            return None;
        }
        let a = free.trailing_zeros() as usize;
        self.insert_at(a, e, st);
        Some(a)
    }

    /// Inserts `e` into free entry `a` with its dependence row against every valid entry.
    pub fn insert_at(&mut self, a: usize, mut e: IbEntry, st: &mut SocgpuStats) {
        assert!(
            a < self.n && self.valid >> a & 1 == 0,
            "entry {a} is not free"
        );
        let (row, n_cmp) = self.dependence_row(&e);
        e.inst.tag = a as u16;
        self.entries[a] = e;
        self.dm.write_row(a, row);
        self.seniority[a] = self.n_valid() as u8;
        self.ready_ctr[a] = 0;
        self.valid |= 1 << a;
        self.issued &= !(1 << a);
        self.squashed &= !(1 << a);
        self.late |= 1 << a;
        if e.redirect {
            self.redirect |= 1 << a;
        } else {
            self.redirect &= !(1 << a);
        }
        st.ib_inserts += 1;
        st.dm_row_writes += 1;
        st.dm_comparisons += n_cmp as u64;
        st.ctl_insts += u64::from(e.ctl);
    }

    /// The candidates at cycle `t` (§2.3): valid and not issued (a1), no dependence (a2), and
    /// a3: the entry is the oldest valid one, or issuing it does not redirect the warp and its
    /// not-taken next PC lies before the reconvergence PC on top of the SIMT stack.
    pub fn candidates(&self, t: u64) -> u64 {
        // a1 and a2 for every entry at once (the rows' NOR outputs)
        let mut c = self.valid & !self.issued & self.dm.no_dependence_mask();
        // decode and I-cache readiness, checked only for entries that may still wait
        let mut bits = c & self.late;
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.entries[a].ready_at > t {
                c &= !(1u64 << a);
            }
        }
        // a3 for the redirecting entries
        let mut bits = c & self.redirect;
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.seniority[a] != 0 {
                c &= !(1u64 << a);
            }
        }
        // a3 against TOS.rpc, inside a divergent region
        if let Some(&rpc) = self.rpcs.last() {
            let mut bits = c;
            while bits != 0 {
                let a = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.seniority[a] != 0 && self.entries[a].nt_next_pc >= rpc {
                    c &= !(1u64 << a);
                }
            }
        }
        c
    }

    /// One cycle of the ready counters: every candidate's counter goes up by one
    /// (saturating); returns the number of increments.
    pub fn tick_ready(&mut self, cands: u64) -> u64 {
        let mut bits = cands;
        let mut k = 0;
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.ready_ctr[a] < self.ctr_max {
                self.ready_ctr[a] += 1;
                k += 1;
            }
        }
        k
    }

    /// The local policy's pick among `cands` (ties toward the lowest physical index).
    pub fn select(&mut self, cands: u64, policy: LocalPolicy) -> Option<usize> {
        if cands == 0 {
            return None;
        }
        let lowest = cands.trailing_zeros() as usize;
        let pick_by = |key: &dyn Fn(usize) -> u32, largest: bool| {
            let mut best = lowest;
            let mut bits = cands & (cands - 1);
            while bits != 0 {
                let a = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let better = if largest {
                    key(a) > key(best)
                } else {
                    key(a) < key(best)
                };
                if better {
                    best = a;
                }
            }
            best
        };
        Some(match policy {
            LocalPolicy::First => lowest,
            LocalPolicy::Older => pick_by(&|a| self.seniority[a] as u32, false),
            LocalPolicy::Younger => pick_by(&|a| self.seniority[a] as u32, true),
            LocalPolicy::MostReady => pick_by(&|a| self.ready_ctr[a], true),
            LocalPolicy::LeastReady => pick_by(&|a| self.ready_ctr[a], false),
            LocalPolicy::Random => {
                self.rng_ctr += 1;
                let r = mix(self.rng_key ^ mix(self.rng_ctr));
                let k = (r % cands.count_ones() as u64) as u32;
                let mut bits = cands;
                for _ in 0..k {
                    bits &= bits - 1;
                }
                bits.trailing_zeros() as usize
            }
        })
    }

    /// Entry `a` issued: it stays valid until its write-back; the flush detector's register
    /// takes its not-taken next PC.
    pub fn mark_issued(&mut self, a: usize) {
        debug_assert!(self.valid >> a & 1 == 1 && self.issued >> a & 1 == 0);
        self.issued |= 1 << a;
        let e = &self.entries[a];
        self.last_issued_nt_pc = e.nt_next_pc;
        while self.rpcs.last() == Some(&e.next_pc) {
            self.rpcs.pop();
        }
        if let Some(r) = e.inst.reconv_pc {
            self.rpcs.push(r);
        }
    }

    /// The flush of §2.5 after entry `trigger` issued and changed the warp's control flow:
    /// every valid non-issued entry is removed, issued entries younger than the trigger are
    /// marked squashed; the trigger and older entries complete normally.
    pub fn flush(&mut self, trigger: usize, st: &mut SocgpuStats) -> FlushOutcome {
        let mut out = FlushOutcome::default();
        // ranks before any removal: younger than the trigger = larger seniority
        let ts = self.seniority[trigger];
        let mut bits = self.valid & self.issued & !self.squashed & !(1u64 << trigger);
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.seniority[a] > ts {
                self.squashed |= 1 << a;
                out.squashed += 1;
            }
        }
        let mut bits = self.valid & !self.issued;
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.remove(a, st);
            out.discarded += 1;
        }
        st.flushes += 1;
        st.flush_discarded += out.discarded as u64;
        st.ib_squash += out.squashed as u64;
        out
    }

    /// Entry `a` wrote back (§2.4): i1 clear valid, i2 clear its column; the seniority of
    /// every younger entry drops by one. Returns true when the entry was squashed (its result
    /// has no architectural effect).
    pub fn writeback(&mut self, a: usize, st: &mut SocgpuStats) -> bool {
        debug_assert!(self.valid >> a & 1 == 1, "write-back of a free entry {a}");
        let sq = self.squashed >> a & 1 == 1;
        self.remove(a, st);
        sq
    }

    /// Frees entry `a`: clears its row and column and densifies the ranks of the younger
    /// entries.
    fn remove(&mut self, a: usize, st: &mut SocgpuStats) {
        let s = self.seniority[a];
        self.valid &= !(1 << a);
        self.issued &= !(1 << a);
        self.squashed &= !(1 << a);
        self.late &= !(1 << a);
        self.redirect &= !(1 << a);
        self.dm.clear_entry(a);
        st.dm_column_clears += 1;
        let mut bits = self.valid;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.seniority[b] > s {
                self.seniority[b] -= 1;
                st.seniority_updates += 1;
            }
        }
    }
}

/// Mask of the low `n` bits.
#[inline]
fn low_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
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
        let bits = SocgpuHwInputs::ready_ctr_bits_of(cfg);
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

/// SOCGPU as the SM's issue stage: dependences live in each warp's dependence matrix, set at
/// insertion and cleared at write-back (`socgpu/path.rs`), so the scoreboard calls find nothing
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

pub mod depmatrix {
    //! The dependence matrix of one warp's SOCGPU instruction buffer (issue-stage §2.1, §2.2,
    //! §2.4; Huerta, "SOCGPU", UPC 2022): an N×N bit matrix over the buffer's physical entries in
    //! which row A has a 1 in column P iff entry A must wait for entry P to write back. It replaces
    //! both scoreboards of the in-order baseline: an entry has no pending dependence when its row
    //! is all zeros (the NOR of the row), and a write-back clears the producer's whole column.
    //!
    //! Rows are stored as one 64-bit word each, so N ≤ 64 (the spec's design space is 2…64).

    /// Largest buffer depth a [`DepMatrix`] holds.
    pub const MAX_ENTRIES: usize = 64;

    /// N×N dependence bits, one `u64` row per entry (bit P of row A = A depends on P), with the
    /// rows' NOR outputs kept as one mask (bit A set iff row A is all zeros), so that the ready
    /// check of every entry is one word operation.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct DepMatrix {
        rows: Vec<u64>,
        zero: u64,
    }

    impl DepMatrix {
        /// An all-zero matrix of `n` entries (1 ≤ n ≤ [`MAX_ENTRIES`]).
        pub fn new(n: usize) -> DepMatrix {
            assert!(
                (1..=MAX_ENTRIES).contains(&n),
                "dependence matrix of {n} entries"
            );
            DepMatrix {
                rows: vec![0; n],
                zero: low_mask(n),
            }
        }

        /// Entries (rows) of the matrix.
        pub fn len(&self) -> usize {
            self.rows.len()
        }

        /// Always false: a matrix has at least one entry.
        pub fn is_empty(&self) -> bool {
            self.rows.is_empty()
        }

        /// Writes row `a` (the insert-time write port); the diagonal bit is forced to 0.
        #[inline]
        pub fn write_row(&mut self, a: usize, row: u64) {
            let r = row & !(1u64 << a);
            self.rows[a] = r;
            if r == 0 {
                self.zero |= 1u64 << a;
            } else {
                self.zero &= !(1u64 << a);
            }
        }

        /// The NOR outputs of all rows: bit A set iff entry A depends on no entry.
        #[inline]
        pub fn no_dependence_mask(&self) -> u64 {
            self.zero
        }

        /// Row `a`: the entries `a` depends on.
        #[inline]
        pub fn row(&self, a: usize) -> u64 {
            self.rows[a]
        }

        /// Does entry `a` depend on entry `p`?
        #[inline]
        pub fn get(&self, a: usize, p: usize) -> bool {
            self.rows[a] >> p & 1 == 1
        }

        /// The no-dependence signal of entry `a`: the NOR of its row.
        #[inline]
        pub fn no_dependence(&self, a: usize) -> bool {
            self.rows[a] == 0
        }

        /// Clears column `p` (entry `p` wrote back: every dependant is released).
        #[inline]
        pub fn clear_column(&mut self, p: usize) {
            let bit = 1u64 << p;
            // only rows not yet all zeros can hold the column's bit
            let mut bits = !self.zero & low_mask(self.rows.len());
            while bits != 0 {
                let a = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let r = &mut self.rows[a];
                if *r & bit != 0 {
                    *r &= !bit;
                    if *r == 0 {
                        self.zero |= 1u64 << a;
                    }
                }
            }
        }

        /// Clears row `a` and column `a` (the entry is removed).
        #[inline]
        pub fn clear_entry(&mut self, a: usize) {
            self.rows[a] = 0;
            self.zero |= 1u64 << a;
            self.clear_column(a);
        }
    }

    /// Mask of the low `n` bits.
    #[inline]
    fn low_mask(n: usize) -> u64 {
        if n >= 64 {
            u64::MAX
        } else {
            (1u64 << n) - 1
        }
    }
}
