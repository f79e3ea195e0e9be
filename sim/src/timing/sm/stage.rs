//! The SM's calls into its issue-stage slot ([`IssueStageSlot`]): each pipeline step that an
//! issue stage may take over ([`StageStep`]: issue, fetch, dispatch, register-file reads; and
//! the start of writeback, a result's write-back and the next event) is entered here. Where
//! the slot's stage takes the step over, the stage is taken out of the slot and runs it on the
//! SM through [`IssueHost`](crate::timing::ooo::host::IssueHost) (`host.rs`); otherwise the
//! SM's own step runs (the in-order issue of `issue.rs`, the fetch of `memory.rs`, the
//! collectors of `backend.rs`). The slot is an enum, so the choice is one match per step, with
//! no call through a trait object for a built-in stage. What the issue paths share is in
//! `issued.rs`.

use super::Sm;
use crate::stream::KernelStream;
use crate::timing::execunits::Wb;
use crate::timing::frontend::BRANCH_WB_TAG;
use crate::timing::memsys::MemSys;
use crate::timing::ooo::host::StageStep;
use crate::timing::perclass::PerPipe;
use crate::timing::policy::{InOrderScoreboard, IssueStage};
use crate::timing::slots::IssueStageSlot;
use crate::SimError;

impl Sm {
    /// Issue stage of cycle `t` for all schedulers (`cfg_issue`: instructions per scheduler
    /// and per warp, and whether a warp's second instruction must go to another unit;
    /// `id_oc`: issue ports per pipe class).
    #[inline]
    pub fn issue(&mut self, t: u64, cfg_issue: (u32, u32, bool), id_oc: &PerPipe<u32>) {
        if self.issue.stage.takes_over(StageStep::Issue) {
            let mut stage = self.take_stage();
            stage.issue(self, t, cfg_issue, id_oc);
            self.put_stage(stage);
        } else {
            self.issue_in_order(t, cfg_issue, id_oc);
        }
    }

    /// Fetch and decode of cycle `t` (memory-side time `t_fs`): up to `throughput` warps,
    /// `width` instructions each, into the I-buffers (or the issue stage's own buffers).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn fetch(
        &mut self,
        t: u64,
        t_fs: u64,
        width: u32,
        throughput: u32,
        stream: &mut dyn KernelStream,
        mem: &mut MemSys,
    ) -> Result<(), SimError> {
        if self.issue.stage.takes_over(StageStep::Fetch) {
            let mut stage = self.take_stage();
            let r = stage.fetch(self, t, t_fs, width, throughput, stream, mem);
            self.put_stage(stage);
            r
        } else {
            self.fetch_in_order(t, t_fs, width, throughput, stream, mem)
        }
    }

    /// Dispatch stage of cycle `t` (`oc_ex`: collector-to-unit ports per pipe class).
    #[inline]
    pub fn dispatch(&mut self, t: u64, oc_ex: &PerPipe<u32>) {
        if self.issue.stage.takes_over(StageStep::Dispatch) {
            let mut stage = self.take_stage();
            stage.dispatch(self, t);
            self.put_stage(stage);
        } else {
            self.dispatch_collectors(t, oc_ex);
        }
    }

    /// Register-file read arbitration of cycle `t`.
    #[inline]
    pub fn rf_arbitrate(&mut self, t: u64) {
        if self.issue.stage.takes_over(StageStep::RfRead) {
            let mut stage = self.take_stage();
            stage.rf_read(self, t);
            self.put_stage(stage);
        } else {
            self.rf_arbitrate_collectors(t);
        }
    }

    /// Start of the writeback stage of cycle `t`: the issue stage's own frees and broadcasts.
    #[inline]
    pub(super) fn stage_begin_writeback(&mut self, t: u64) {
        if self.issue.stage.begin_writeback(t) {
            self.progress = true;
        }
    }

    /// Is the register-file write of register `r` by the result tagged `tag` of warp `w` made?
    /// Always, except where the issue stage renamed the register to a younger writer.
    #[inline]
    pub(super) fn rf_write_kept(&self, w: usize, r: u16, tag: u16) -> bool {
        self.issue.stage.rf_write_kept(w, r, tag)
    }

    /// Result `wb` has been written: the issue stage's dependence tracking lets its consumers
    /// go — a stage with its own tracking in its own way; the scoreboard releases the
    /// destinations (and a branch held for its write-back releases the warp's fetch).
    #[inline]
    pub(super) fn stage_result_written(&mut self, wb: &Wb) {
        let warp = wb.warp as usize;
        if self.issue.stage.result_written(warp, wb.tag, self.now) {
            return;
        }
        for &r in &wb.dst[..wb.n_dst as usize] {
            self.issue.stage.release(warp, r);
            self.issue.sb_blocked.remove(warp);
            self.issue.sb_act.writes += 1;
        }
        if wb.tag == BRANCH_WB_TAG && self.front.wb_release() {
            // reconv.stack_update_at = "writeback": the branch's stack update is done
            self.warps.w_fetch_ready[warp] = 0;
            self.front.mark_fetch_dirty();
            self.front.candidate(warp);
        }
    }

    /// The issue stage's own next event after cycle `t`, if earlier than `ev`.
    #[inline]
    pub(super) fn stage_next_event(&self, t: u64, ev: u64) -> u64 {
        self.issue.stage.next_event(self, t, ev)
    }

    /// Takes the slot's stage out for a step that works on it beside the rest of the SM,
    /// leaving an empty in-order scoreboard until [`Sm::put_stage`] puts it back.
    #[inline]
    fn take_stage(&mut self) -> IssueStageSlot {
        std::mem::replace(
            &mut self.issue.stage,
            IssueStageSlot::InOrder(InOrderScoreboard::new(false)),
        )
    }

    /// Puts back the stage [`Sm::take_stage`] took.
    #[inline]
    fn put_stage(&mut self, s: IssueStageSlot) {
        self.issue.stage = s;
    }
}
