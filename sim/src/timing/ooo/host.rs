//! What an issue stage that takes over pipeline steps of its SM (the out-of-order stages of this
//! folder) reaches in that SM: [`IssueHost`], a narrow view of the warp state, the front end,
//! the schedulers, the collectors, the register-file banks and the execution units, and the
//! steps every issue path shares (the I-buffer head pop, the counters of an issued instruction,
//! the completion of a barrier or membar at issue, the hand-over to a collector, the scheduler
//! pass). The SM implements it (`sm/host.rs`); a stage's path is generic over it, so the calls
//! are direct and inline (one implementation, no trait object).

use crate::inst::{Family, MemInfo, OpClass, Reg};
use crate::stream::{KernelStream, Step};
use crate::timing::exec::{ExecClass, PipeClass};
use crate::timing::memsys::MemSys;
use crate::timing::perclass::CuClass;
use crate::timing::ports::{IssuePorts, Stall};
use crate::timing::tinst::TInst;
use crate::SimError;

/// A pipeline step of the SM that an issue stage may take over (the SM runs its own step
/// otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StageStep {
    /// The issue stage (scheduler pass, hazard check, hand-over to the collectors).
    Issue,
    /// Fetch and decode into the instruction buffers.
    Fetch,
    /// Dispatch from the collectors to the units.
    Dispatch,
    /// The register-file read arbitration of the collectors.
    RfRead,
}

/// The SM as an issue stage that replaces some of its pipeline steps sees it. Warp slots are
/// `w`, schedulers `s`, cycles `t`.
pub(crate) trait IssueHost {
    // ---- warps and fetch ----

    /// Warp slots of the SM.
    fn n_warps(&self) -> usize;
    /// May warp `w` fetch as far as the SM is concerned: resident, not stopped at a barrier,
    /// no I-cache miss outstanding, not fenced by an unissued clock read.
    fn fetch_open(&self, w: usize) -> bool;
    /// Warp `w`'s stream has no instruction left.
    fn stream_done(&self, w: usize) -> bool;
    /// Marks warp `w`'s stream as having no instruction left.
    fn set_stream_done(&mut self, w: usize);
    /// Warp `w` stops fetching at a barrier it fetched, until the barrier releases.
    fn set_fetch_bar(&mut self, w: usize);
    /// First cycle warp `w` may fetch again.
    fn fetch_ready_at(&self, w: usize) -> u64;
    /// Warp `w`'s CTA id and warp index within the CTA (its stream's coordinates).
    fn stream_ids(&self, w: usize) -> (u32, u32);
    /// The warp slot fetched last (the round-robin start of the next fetch).
    fn fetch_last(&self) -> u32;
    /// Warp `w` fetched this cycle.
    fn set_fetch_last(&mut self, w: usize);
    /// The clock reads warp `w` issued get their cycles before it steps its stream again.
    fn write_issued_clocks(
        &mut self,
        w: usize,
        cta: u32,
        widx: u32,
        stream: &mut dyn KernelStream,
    ) -> Result<(), SimError>;
    /// Steps warp `w`'s stream into the fetch buffer unless a clock fence stops it: whether the
    /// instruction reads the cycle counter, `None` when fenced or done (the warp is marked).
    fn step_stream(
        &mut self,
        w: usize,
        at: (u32, u32, u64),
        stream: &mut dyn KernelStream,
    ) -> Result<Option<bool>, SimError>;
    /// Reads the stream's next instruction of (`cta`, `widx`) into the fetch buffer.
    fn read_next(
        &mut self,
        stream: &mut dyn KernelStream,
        cta: u32,
        widx: u32,
        t: u64,
    ) -> Result<Step, SimError>;
    /// The instruction in the fetch buffer as the timing model carries it (its addresses in
    /// the address pool).
    fn fetched(&mut self) -> TInst;
    /// `Some(next PC)` when warp `w`'s next instruction waits for one of its clock reads to
    /// issue (the warp's fetch is fenced until then).
    fn clock_fenced(
        &mut self,
        w: usize,
        cta: u32,
        widx: u32,
        stream: &dyn KernelStream,
    ) -> Option<u32>;
    /// Warp `w` fetched a clock read at `pc` that has not issued.
    fn note_clock_unissued(&mut self, w: usize, pc: u32);
    /// Counts decoded instructions of cycle `t`.
    fn note_decoded(&mut self, t: u64);
    /// Counts a fetch of `n` instructions of warp `w` from `first_pc` and looks the line up:
    /// true on a miss (the request goes to `mem` at `t_fs` unless one is pending).
    fn icache_lookup(
        &mut self,
        w: usize,
        n: u32,
        first_pc: u32,
        t_fs: u64,
        mem: &mut MemSys,
    ) -> bool;
    /// Warp `w` waits for an I-cache line.
    fn icache_pending(&self, w: usize) -> bool;
    /// Cycle at which warp `w`'s last fetched instructions are decoded and in its buffer.
    fn decoded_at(&self, w: usize) -> u64;
    /// Warp `w` has issued everything: it exits.
    fn mark_exited(&mut self, w: usize);

    // ---- the I-buffers ----

    /// Settles the I-buffer waits up to cycle `t`.
    fn settle_waits(&mut self, t: u64);
    /// Warp `w`'s I-buffer head is decoded and ready at cycle `t`.
    fn head_ready(&self, w: usize, t: u64) -> bool;
    /// Warp `w`'s I-buffer head.
    fn head(&self, w: usize) -> &TInst;
    /// Takes warp `w`'s I-buffer head (the instruction at `pc`) at cycle `t`.
    fn pop_ib_head(&mut self, w: usize, pc: u32, t: u64);
    /// Counts one read of an instruction buffer.
    fn count_ib_read(&mut self);
    /// The addresses of a memory instruction.
    fn mem_info(&self, slot: u32) -> &MemInfo;

    // ---- schedulers and issue ----

    /// Issue-stage cycles slept through since the last evaluation, counted now as repeats of
    /// it; the number of them.
    fn take_replay(&mut self) -> u64;
    /// Rebuilds the schedulers' live-warp lists if a launch or exit changed them.
    fn refresh_live(&mut self);
    /// Warp schedulers of the SM.
    fn n_scheds(&self) -> usize;
    /// Scheduler `s`'s live warps, ascending slot.
    fn sched_live(&self, s: usize) -> &[u16];
    /// The scheduler in position `si` of cycle `t`'s rotation.
    fn sched_at(&self, si: usize, t: u64) -> usize;
    /// Opens scheduler `s`'s cycle: `look(host, w)` says whether warp `w` has nothing to issue
    /// and whether it has an instruction the stage may try. `None` (counted as a no-warp
    /// stall) without a live warp; otherwise the scheduler's order of its warps.
    fn open_sched(
        &mut self,
        s: usize,
        look: impl FnMut(&Self, usize) -> (bool, bool),
    ) -> Option<Vec<u16>>;
    /// Closes scheduler `s`'s cycle with the warps looked at, the instructions issued and the
    /// first stall met.
    fn close_sched(
        &mut self,
        s: usize,
        order: Vec<u16>,
        evals: u64,
        issued: u32,
        first_stall: Option<Stall>,
    );
    /// Scheduler `s` issued from warp slot `slot`.
    fn sched_issued(&mut self, s: usize, slot: u16);
    /// Warp `w` waits at a barrier or membar.
    fn waits_barrier(&self, w: usize) -> bool;
    /// Warp `w` no longer waits at a membar.
    fn clear_membar(&mut self, w: usize);
    /// The stage read no scoreboard this cycle.
    fn clear_sb_reads(&mut self);
    /// The execution class of an instruction.
    fn exec_class(&self, family: Family, op: OpClass) -> ExecClass;
    /// The collectors an instruction of `pipe` from warp `w` may take.
    fn cu_mask(&self, pipe: PipeClass, w: usize) -> u64;
    /// The collector an instruction for `pipe` with collectors `cu_mask` would take against
    /// this cycle's `ports`, or the stall.
    fn free_collector(
        &self,
        ports: &IssuePorts,
        pipe: PipeClass,
        cu_mask: u64,
    ) -> Result<(usize, CuClass), Stall>;
    /// Warp `w` issued the instruction at `pc` at cycle `t` (a clock read gets its value).
    fn clock_read_issued(&mut self, w: usize, pc: u32, t: u64);
    /// Counts an issued instruction (`reg_lanes`: also the per-register lane histogram).
    fn count_issued(&mut self, w: usize, inst: &TInst, t: u64, reg_lanes: bool);
    /// Completes a barrier or membar at its issue; false for any other instruction.
    fn complete_at_issue(&mut self, w: usize, family: Family, op: OpClass) -> bool;
    /// Warp `w` has one more instruction in flight.
    fn add_inflight(&mut self, w: usize);
    /// Hands an instruction of warp `w`, scheduler `s`, to collector `ci` at cycle `t`.
    fn hand_to_collector(
        &mut self,
        ci: usize,
        w: usize,
        s: usize,
        inst: TInst,
        ec: ExecClass,
        t: u64,
    );
    /// Counts the SM's time integrals up to now, before one of them changes.
    fn flush_integrals(&mut self);
    /// Something changed this cycle.
    fn set_progress(&mut self);

    // ---- register file and units, for a stage with its own collectors ----

    /// Register-file banks.
    fn n_banks(&self) -> usize;
    /// One operand read of register `reg` of warp `w` (scheduler or slice `s`, `lanes` active
    /// lanes) at cycle `t` through its bank's ports, `granted[b]` reads already granted on bank
    /// `b` this cycle: true (counted, `granted` updated) when a port is free; a bank conflict
    /// otherwise.
    fn bank_read(
        &mut self,
        w: usize,
        s: usize,
        reg: Reg,
        lanes: u32,
        t: u64,
        granted: &mut [u32],
    ) -> bool;
    /// Warp `w` read register `reg` at cycle `t` (the per-register log).
    fn reg_read(&mut self, w: usize, reg: Reg, t: u64);
    /// The LD/ST unit can take a request.
    fn ldst_can_accept(&self) -> bool;
    /// A unit of execution class `ec` accepts an instruction at cycle `t`.
    fn unit_free(&self, ec: &ExecClass, t: u64, ldst_free: bool) -> bool;
    /// Sends instruction `inst` of warp `w` (scheduler or slice `s`) straight to a free unit
    /// of its class at cycle `t`, one cycle later than a collector's dispatch.
    fn to_unit(&mut self, s: u32, w: usize, inst: TInst, t: u64);
}
