//! Memory-facing work of the SM cycle (simulator §2.2, §2.6, §2.7): instruction fetch
//! and decode through the I-cache into the I-buffers, the LD/ST unit's cycle (its requests are
//! the unit's own, in `ldstunit`; here its finished instructions enter the
//! writeback queue and its outstanding acknowledgements are counted per warp), and memory
//! replies (the unit's fills and acknowledgements, I-cache fills for the front end).

use super::Sm;
use crate::inst::Family;
use crate::stream::{KernelStream, Step};
use crate::timing::divisor::ring_add;
use crate::timing::execunits::Wb;
use crate::timing::frontend::{is_branch, BranchFetch};
use crate::timing::ldstunit::Reply;
use crate::timing::memsys::{MemSys, ReqKind};
use crate::timing::tinst::TInst;
use crate::SimError;

impl Sm {
    /// One LD/ST cycle (see [`LdstUnit::cycle`]).
    #[inline]
    pub fn ldst_cycle(&mut self, t: u64, t_fs: u64, mem: &mut MemSys) {
        if self.ldst.cycle(self.id as usize, t, t_fs, mem) {
            self.apply_ldst_events();
        }
    }

    /// Applies what the LD/ST unit did to the rest of the SM: finished instructions enter the
    /// writeback queue (numbered in the order they finished), new outstanding acknowledgements
    /// are counted per warp.
    fn apply_ldst_events(&mut self) {
        let ev = self.ldst.events_mut();
        self.progress |= ev.progress;
        for &w in &ev.acks {
            self.warps.mem_sent(w as usize);
            self.issue.dirty = true;
        }
        for d in &ev.done {
            self.seq += 1;
            self.exec.wb_push(Wb {
                ready: d.ready,
                seq: self.seq,
                warp: d.warp,
                tag: d.tag,
                n_dst: d.n_dst,
                dst: d.dst,
                lanes: d.lanes,
            });
        }
        ev.clear();
    }

    /// Handles memory replies that arrived by `t_fs` (core cycle `t`).
    pub fn replies(&mut self, t: u64, t_fs: u64, mem: &mut MemSys) {
        let sm = self.id as usize;
        while let Some(tk) = mem.pop_reply(sm, t_fs) {
            self.progress = true;
            match self.ldst.reply(tk, t) {
                Reply::Loads => self.apply_ldst_events(),
                Reply::StoreAck(warp) => {
                    self.warps.mem_ack(warp as usize);
                    self.issue.dirty = true;
                }
                Reply::IFetch(line) => {
                    self.front.fill_line(line, t);
                    for w in 0..self.warps.w_valid.len() {
                        if self.warps.w_valid[w] && self.warps.w_ifetch_line[w] == line {
                            self.warps.w_ifetch_line[w] = u64::MAX;
                            self.front.line_arrived(w, t);
                            self.issue.dirty = true;
                        }
                    }
                }
            }
        }
    }

    /// In-order fetch and decode: up to `throughput` warps with an empty I-buffer, round-robin
    /// after the last fetched warp; each fetch reads up to `width` instructions from the stream.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fetch_in_order(
        &mut self,
        t: u64,
        t_fs: u64,
        width: u32,
        throughput: u32,
        stream: &mut dyn KernelStream,
        mem: &mut MemSys,
    ) -> Result<(), SimError> {
        if self.front.fetch_idle(t) {
            // no warp became able to fetch since the last pass found none
            return Ok(());
        }
        let mut fetched = 0;
        // Candidates in round-robin order from after the last warp fetched: the warps after
        // `fetch_last`, then those up to it.
        let (scan, split) = self.front.begin_fetch_pass();
        let n_scan = scan.len();
        for k in 0..n_scan {
            if fetched >= throughput {
                break;
            }
            let w = scan[ring_add(split, k, n_scan)] as usize;
            if !self.fetch_eligible(w) {
                self.front.drop_candidate(w);
                continue;
            }
            if self.warps.w_fetch_ready[w] > t {
                continue;
            }
            // I-cache: the line of the next instruction must be present; the stream tells the
            // PC only when stepped, so the lookup uses the warp's next PC after stepping.
            let cta = self.warps.ctas[self.warps.w_cta[w] as usize].cta_id;
            let widx = self.warps.w_idx[w];
            self.write_issued_clocks(w, cta, widx, stream)?;
            let mut n = 0;
            let mut first_pc = 0;
            let group = width.min(self.front.capacity() as u32);
            while n < group {
                let clock = match self.front.take_held(w) {
                    Some(c) => c,
                    None => match self.step_stream(w, (cta, widx, t), stream)? {
                        Some(c) => c,
                        None => break,
                    },
                };
                let inst = self.front.fetched();
                let pipe = self.front.exec_class(inst.family, inst.op).pipe;
                let cu = self.oc.cu_mask(pipe, self.issue.sched_of(w));
                self.front.push(w, inst, cu, t);
                if n == 0 {
                    first_pc = inst.pc;
                }
                n += 1;
                if inst.family == Family::Bar {
                    self.warps.w_fetch_bar[w] = true;
                    break;
                }
                if clock {
                    self.front.note_clock_unissued(w, inst.pc);
                }
                if is_branch(inst.family, inst.op)
                    && self.front.branch_fetch() != BranchFetch::Oracle
                    && self.branch_ends_group(w, &inst, n, group, (cta, widx, t), stream)?
                {
                    break;
                }
            }
            self.front.set_fetch_last(w);
            fetched += 1;
            self.progress = true;
            self.issue.dirty = true;
            if n == 0 {
                if self.warps.w_stream_done[w] {
                    self.mark_exited(w);
                }
                continue;
            }
            if self.icache_lookup(w, n, first_pc, t_fs, mem) {
                // the decoded entries wait for the line
                self.front.wait_for_line(w);
            }
        }
        // With nothing fetched the stage stays idle until an event makes a warp eligible or a
        // fetch delay ends.
        let mut wake = u64::MAX;
        if fetched == 0 {
            for &w in &scan {
                let w = w as usize;
                if self.fetch_eligible(w) && self.warps.w_fetch_ready[w] > t {
                    wake = wake.min(self.warps.w_fetch_ready[w]);
                }
            }
        }
        self.front.end_fetch_pass(scan, fetched > 0, wake);
        Ok(())
    }

    /// Counts a fetch of `n` instructions of warp `w` from `first_pc` (decoded, written to its
    /// buffer, one I-cache tag lookup) and looks the line up: true on a miss, when the warp
    /// waits for the line and its request goes to memory at `t_fs` unless one is already
    /// pending. Shared by every fetch path.
    pub(super) fn icache_lookup(
        &mut self,
        w: usize,
        n: u32,
        first_pc: u32,
        t_fs: u64,
        mem: &mut MemSys,
    ) -> bool {
        let Some((line, send)) = self.front.fetch_lookup(n, first_pc) else {
            return false;
        };
        self.warps.w_ifetch_line[w] = line;
        if send {
            let tk = self.ldst.tok_ifetch(line);
            let lb = self.front.line_bytes();
            mem.send(self.id as usize, t_fs, ReqKind::Read, line * lb, lb, tk);
        }
        true
    }

    /// A branch was just fetched into warp `w`'s I-buffer as the `n`-th instruction of a group
    /// of up to `group`: does the group end here (control-flow spec §3.1)? With
    /// [`BranchFetch::EndGroup`] always. With [`BranchFetch::Flush`] the next instruction is
    /// read one ahead: one at the next sequential PC continues the group; any other (a taken or
    /// divergent branch) is held for the warp's next fetch, the group ends, and the slots the
    /// front end would have filled sequentially behind the branch count as fetched, decoded and
    /// flushed when the branch issues.
    fn branch_ends_group(
        &mut self,
        w: usize,
        inst: &TInst,
        n: u32,
        group: u32,
        (cta, widx, t): (u32, u32, u64),
        stream: &mut dyn KernelStream,
    ) -> Result<bool, SimError> {
        if self.front.branch_fetch() == BranchFetch::EndGroup {
            return Ok(true);
        }
        if n >= group {
            return Ok(true);
        }
        if let Some(pc) = self.clock_fenced(w, cta, widx, stream) {
            // the next instruction waits for a clock read: the group ends without reading it
            if pc != inst.pc.wrapping_add(stream.inst_bytes()) {
                self.front.count_wrong_path(group - n);
            }
            return Ok(true);
        }
        let mut next = self.front.fetch_scratch();
        match stream.next_inst(cta, widx, t, &mut next)? {
            Step::Done => {
                self.warps.w_stream_done[w] = true;
                Ok(true)
            }
            Step::Inst => {
                let sequential = next.pc == inst.pc.wrapping_add(stream.inst_bytes());
                self.front.hold(w, next, stream.reads_clock());
                if sequential {
                    return Ok(false);
                }
                self.front.count_wrong_path(group - n);
                Ok(true)
            }
        }
    }

    /// Before warp `w` (CTA `cta`, index `widx`) steps the stream again: the clock reads it
    /// issued get their issue cycles ([`KernelStream::issue_clock`]).
    pub(super) fn write_issued_clocks(
        &mut self,
        w: usize,
        cta: u32,
        widx: u32,
        stream: &mut dyn KernelStream,
    ) -> Result<(), SimError> {
        let Some(issued) = self.front.take_issued_clocks(w) else {
            return Ok(());
        };
        for (pc, at) in issued {
            stream.issue_clock(cta, widx, pc, at)?;
        }
        Ok(())
    }

    /// Steps warp `w`'s stream (CTA, warp index, cycle `at`) for its next instruction into
    /// the front end's fetch buffer, unless a clock fence stops its fetch: whether the instruction reads
    /// the cycle counter, or `None` when fenced or when the stream is done (the warp is marked
    /// so). Shared by every fetch path.
    pub(super) fn step_stream(
        &mut self,
        w: usize,
        (cta, widx, t): (u32, u32, u64),
        stream: &mut dyn KernelStream,
    ) -> Result<Option<bool>, SimError> {
        if self.clock_fenced(w, cta, widx, stream).is_some() {
            return Ok(None);
        }
        match stream.next_inst(cta, widx, t, self.front.fetch_buf())? {
            Step::Done => {
                self.warps.w_stream_done[w] = true;
                Ok(None)
            }
            Step::Inst => {
                self.check_has_unit()?;
                Ok(Some(stream.reads_clock()))
            }
        }
    }

    /// The instruction just fetched has a unit to run on: a tensor-core instruction on a
    /// machine without tensor cores is an error naming the key.
    #[inline]
    pub(super) fn check_has_unit(&mut self) -> Result<(), SimError> {
        let i = self.front.fetch_buf();
        if i.family == crate::inst::Family::Tensor
            && !self.exec.has_class(crate::timing::exec::PipeClass::Tensor)
        {
            return Err(SimError::Other(format!(
                "a tensor-core instruction (PC {:#x}) on a machine without tensor cores: set                  'units.n_tensor' to the tensor cores per SM (it is 0)",
                i.pc
            )));
        }
        Ok(())
    }

    /// May warp `w` step the stream now? Not while its next instruction uses the destination
    /// of one of its unissued clock reads: that stops its fetch (`clock_fence`) until they
    /// issue. `Some(next PC)` when fenced.
    pub(super) fn clock_fenced(
        &mut self,
        w: usize,
        cta: u32,
        widx: u32,
        stream: &dyn KernelStream,
    ) -> Option<u32> {
        if !self.front.has_unissued_clocks(w) {
            return None;
        }
        let pc = stream.next_uses_clock_read(cta, widx)?;
        self.front.fence_clock(w);
        Some(pc)
    }

    /// Warp `w` issued the instruction at `pc` at cycle `t`: if it is an unissued clock read,
    /// its value becomes `t`, and a fence waiting on it may lift.
    #[inline]
    pub(super) fn clock_read_issued(&mut self, w: usize, pc: u32, t: u64) {
        self.front.clock_read_issued(w, pc, t);
    }

    /// Warp `w` may fetch once its fetch delay has passed: resident, instructions left, empty
    /// I-buffer, not stopped at a barrier, no I-cache miss outstanding.
    #[inline]
    pub(crate) fn fetch_eligible(&self, w: usize) -> bool {
        self.warps.w_valid[w]
            && !self.warps.w_stream_done[w]
            && self.front.is_empty(w)
            && !self.warps.w_fetch_bar[w]
            && !self.front.clock_fenced(w)
            && self.warps.w_ifetch_line[w] == u64::MAX
    }

    /// Counters of `k` cycles in which the LD/ST unit would have retried its blocked request.
    pub fn replay_ldst(&mut self, k: u64) {
        self.ldst.replay(k);
    }
}
