//! The SM as an issue stage that takes over pipeline steps sees it ([`IssueHost`]): each method
//! is a read of a stage's state, a counter, or a step every issue path shares (`issued.rs`,
//! `memory.rs`, `backend.rs`), so that a stage in the issue-stage slot drives the SM without
//! reaching into its stages. The scheduler pass (`open_sched`, `close_sched`) is here: the
//! views of a scheduler's live warps that its policy orders, and the counters of a scheduler
//! cycle, for a stage that decides what makes a warp's view empty or ready.

use super::Sm;
use crate::inst::{Family, MemInfo, OpClass, Reg};
use crate::stream::{KernelStream, Step};
use crate::timing::exec::{ExecClass, PipeClass};
use crate::timing::memsys::MemSys;
use crate::timing::ooo::host::IssueHost;
use crate::timing::perclass::CuClass;
use crate::timing::policy::{RegisterFileOrg, WarpView};
use crate::timing::ports::{IssuePorts, Stall};
use crate::timing::tinst::TInst;
use crate::SimError;

impl IssueHost for Sm {
    #[inline]
    fn n_warps(&self) -> usize {
        self.warps.w_valid.len()
    }
    #[inline]
    fn fetch_open(&self, w: usize) -> bool {
        self.warps.w_valid[w]
            && !self.warps.w_fetch_bar[w]
            && self.warps.w_ifetch_line[w] == u64::MAX
            && !self.front.clock_fenced(w)
    }
    #[inline]
    fn stream_done(&self, w: usize) -> bool {
        self.warps.w_stream_done[w]
    }
    #[inline]
    fn set_stream_done(&mut self, w: usize) {
        self.warps.w_stream_done[w] = true;
    }
    #[inline]
    fn set_fetch_bar(&mut self, w: usize) {
        self.warps.w_fetch_bar[w] = true;
    }
    #[inline]
    fn fetch_ready_at(&self, w: usize) -> u64 {
        self.warps.w_fetch_ready[w]
    }
    #[inline]
    fn stream_ids(&self, w: usize) -> (u32, u32) {
        let cta = self.warps.ctas[self.warps.w_cta[w] as usize].cta_id;
        (cta, self.warps.w_idx[w])
    }
    #[inline]
    fn fetch_last(&self) -> u32 {
        self.front.fetch_last()
    }
    #[inline]
    fn set_fetch_last(&mut self, w: usize) {
        self.front.set_fetch_last(w);
    }
    #[inline]
    fn write_issued_clocks(
        &mut self,
        w: usize,
        cta: u32,
        widx: u32,
        stream: &mut dyn KernelStream,
    ) -> Result<(), SimError> {
        Sm::write_issued_clocks(self, w, cta, widx, stream)
    }
    #[inline]
    fn step_stream(
        &mut self,
        w: usize,
        at: (u32, u32, u64),
        stream: &mut dyn KernelStream,
    ) -> Result<Option<bool>, SimError> {
        Sm::step_stream(self, w, at, stream)
    }
    #[inline]
    fn read_next(
        &mut self,
        stream: &mut dyn KernelStream,
        cta: u32,
        widx: u32,
        t: u64,
    ) -> Result<Step, SimError> {
        let step = stream.next_inst(cta, widx, t, self.front.fetch_buf())?;
        if step == Step::Inst {
            self.check_has_unit()?;
        }
        Ok(step)
    }
    #[inline]
    fn fetched(&mut self) -> TInst {
        self.front.fetched()
    }
    #[inline]
    fn clock_fenced(
        &mut self,
        w: usize,
        cta: u32,
        widx: u32,
        stream: &dyn KernelStream,
    ) -> Option<u32> {
        Sm::clock_fenced(self, w, cta, widx, stream)
    }
    #[inline]
    fn note_clock_unissued(&mut self, w: usize, pc: u32) {
        self.front.note_clock_unissued(w, pc);
    }
    #[inline]
    fn note_decoded(&mut self, t: u64) {
        self.front.note_decoded(t);
    }
    #[inline]
    fn icache_lookup(
        &mut self,
        w: usize,
        n: u32,
        first_pc: u32,
        t_fs: u64,
        mem: &mut MemSys,
    ) -> bool {
        Sm::icache_lookup(self, w, n, first_pc, t_fs, mem)
    }
    #[inline]
    fn icache_pending(&self, w: usize) -> bool {
        self.warps.w_ifetch_line[w] != u64::MAX
    }
    #[inline]
    fn decoded_at(&self, w: usize) -> u64 {
        self.front.ready_at(w)
    }
    #[inline]
    fn mark_exited(&mut self, w: usize) {
        Sm::mark_exited(self, w);
    }

    #[inline]
    fn settle_waits(&mut self, t: u64) {
        self.front.settle_waits(t);
    }
    #[inline]
    fn head_ready(&self, w: usize, t: u64) -> bool {
        self.front.head_ready(w, t)
    }
    #[inline]
    fn head(&self, w: usize) -> &TInst {
        self.front.head(w)
    }
    #[inline]
    fn pop_ib_head(&mut self, w: usize, pc: u32, t: u64) {
        Sm::pop_ib_head(self, w, pc, t);
    }
    #[inline]
    fn count_ib_read(&mut self) {
        self.front.count_read();
    }
    #[inline]
    fn mem_info(&self, slot: u32) -> &MemInfo {
        self.front.mem_info(slot)
    }

    #[inline]
    fn take_replay(&mut self) -> u64 {
        let k = self.issue.replay_pending;
        self.issue.flush_replay();
        k
    }
    #[inline]
    fn refresh_live(&mut self) {
        Sm::refresh_live(self);
    }
    #[inline]
    fn n_scheds(&self) -> usize {
        self.issue.scheds.len()
    }
    #[inline]
    fn sched_live(&self, s: usize) -> &[u16] {
        &self.issue.sched_live[s]
    }
    #[inline]
    fn sched_at(&self, si: usize, t: u64) -> usize {
        Sm::sched_at(self, si, t)
    }

    /// Opens scheduler `s`'s cycle: builds the views of its live warps, `look(sm, w)` giving
    /// for warp slot `w` whether its buffer holds nothing to issue (`ibuffer_empty`) and
    /// whether it has an instruction the stage may try (ready unless the warp waits at a
    /// barrier). With no live warp the cycle is counted as a no-warp stall and `None` comes
    /// back; otherwise the cycle is counted active and the scheduler's order of the warps
    /// comes back (hand it to [`IssueHost::close_sched`]).
    fn open_sched(
        &mut self,
        s: usize,
        mut look: impl FnMut(&Sm, usize) -> (bool, bool),
    ) -> Option<Vec<u16>> {
        let mut views = std::mem::take(&mut self.issue.views[s]);
        views.clear();
        for k in 0..self.issue.sched_live[s].len() {
            let w = self.issue.sched_live[s][k] as usize;
            let waiting = self.warps.waits_barrier(w);
            let (empty, has_work) = look(self, w);
            views.push(WarpView {
                slot: w as u16,
                age: self.warps.w_age[w],
                ready: has_work && !waiting,
                waiting,
                ibuffer_empty: empty,
                head_longop: false,
                finished: false,
                ..Default::default()
            });
        }
        if views.is_empty() {
            self.issue.views[s] = views;
            self.issue.count_no_warp(s);
            return None;
        }
        self.issue.last_active[s] = true;
        self.issue.sched_act[s].active_cycles += 1;
        let mut order = std::mem::take(&mut self.issue.orders[s]);
        self.issue.scheds[s].order(&views, &mut order);
        self.issue.views[s] = views;
        Some(order)
    }

    /// Closes scheduler `s`'s cycle opened by [`IssueHost::open_sched`]: puts its order back
    /// and counts the warps looked at (`evals`), the instructions issued and, when none
    /// issued, the first stall reason met; the outcome is also kept as the last evaluated
    /// cycle's.
    #[inline]
    fn close_sched(
        &mut self,
        s: usize,
        order: Vec<u16>,
        evals: u64,
        issued: u32,
        first_stall: Option<Stall>,
    ) {
        self.issue.orders[s] = order;
        self.issue.count_sched_cycle(s, evals, issued, first_stall);
    }
    #[inline]
    fn sched_issued(&mut self, s: usize, slot: u16) {
        self.issue.scheds[s].issued(slot);
    }
    #[inline]
    fn waits_barrier(&self, w: usize) -> bool {
        self.warps.waits_barrier(w)
    }
    #[inline]
    fn clear_membar(&mut self, w: usize) {
        self.warps.membar.remove(w);
    }
    #[inline]
    fn clear_sb_reads(&mut self) {
        self.issue.last_sb_reads = 0;
    }
    #[inline]
    fn exec_class(&self, family: Family, op: OpClass) -> ExecClass {
        self.front.exec_class(family, op)
    }
    #[inline]
    fn cu_mask(&self, pipe: PipeClass, w: usize) -> u64 {
        self.oc.cu_mask(pipe, self.issue.sched_of(w))
    }
    #[inline]
    fn free_collector(
        &self,
        ports: &IssuePorts,
        pipe: PipeClass,
        cu_mask: u64,
    ) -> Result<(usize, CuClass), Stall> {
        self.oc.free_collector(ports, pipe, cu_mask)
    }
    #[inline]
    fn clock_read_issued(&mut self, w: usize, pc: u32, t: u64) {
        Sm::clock_read_issued(self, w, pc, t);
    }
    #[inline]
    fn count_issued(&mut self, w: usize, inst: &TInst, t: u64, reg_lanes: bool) {
        Sm::count_issued(self, w, inst, t, reg_lanes);
    }
    #[inline]
    fn complete_at_issue(&mut self, w: usize, family: Family, op: OpClass) -> bool {
        Sm::complete_at_issue(self, w, family, op)
    }
    #[inline]
    fn add_inflight(&mut self, w: usize) {
        self.warps.w_inflight[w] += 1;
    }
    #[inline]
    fn hand_to_collector(
        &mut self,
        ci: usize,
        w: usize,
        s: usize,
        inst: TInst,
        ec: ExecClass,
        t: u64,
    ) {
        Sm::hand_to_collector(self, ci, w, s, inst, ec, t);
    }
    #[inline]
    fn flush_integrals(&mut self) {
        Sm::flush_integrals(self);
    }
    #[inline]
    fn set_progress(&mut self) {
        self.progress = true;
    }

    #[inline]
    fn n_banks(&self) -> usize {
        self.oc.bank_wr_used.len()
    }
    #[inline]
    fn bank_read(
        &mut self,
        w: usize,
        s: usize,
        reg: Reg,
        lanes: u32,
        t: u64,
        granted: &mut [u32],
    ) -> bool {
        let oc = &mut self.oc;
        let b = oc.rf.bank(w as u32, s as u32, reg) as usize;
        let taken = oc.ports_taken(b, t) + granted[b];
        if taken >= oc.ports_per_bank {
            oc.rf_act.conflict_rr[b] += 1;
            return false;
        }
        granted[b] += 1;
        oc.rf_act.reads[b] += 1;
        oc.rf_act.read_lanes[b] += lanes as u64;
        true
    }
    #[inline]
    fn reg_read(&mut self, w: usize, reg: Reg, t: u64) {
        self.reg_access(w, reg, t, false);
    }
    #[inline]
    fn ldst_can_accept(&self) -> bool {
        self.ldst.can_accept()
    }
    #[inline]
    fn unit_free(&self, ec: &ExecClass, t: u64, ldst_free: bool) -> bool {
        self.exec.unit_free(ec.pipe, ec.sp_pipe, t, true, ldst_free)
    }
    #[inline]
    fn to_unit(&mut self, s: u32, w: usize, inst: TInst, t: u64) {
        self.dispatch_direct(s, w, inst, t);
    }
}
