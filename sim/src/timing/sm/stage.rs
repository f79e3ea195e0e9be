//! The SM's calls into its issue-stage slot ([`IssueStageSlot`]): each pipeline step that an
//! issue stage may take over is entered here and goes to the stage the slot holds — the
//! in-order stage with its scoreboard (or a plug-in scoreboard), SOCGPU (`socgpu.rs`, which
//! also replaces fetch and decode) or LOOG (`loog.rs`, which also replaces the operand
//! collectors, the register-file reads and the dispatch). The slot is an enum, so the choice is
//! one match per step, with no call through a trait object for a built-in stage. What the
//! stages share is in `issued.rs`.

use super::Sm;
use crate::stream::KernelStream;
use crate::timing::execunits::Wb;
use crate::timing::frontend::BRANCH_WB_TAG;
use crate::timing::memsys::MemSys;
use crate::timing::ooo::{SmLoog, SmSocgpu};
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
        match self.issue.stage {
            IssueStageSlot::Socgpu(_) => self.issue_socgpu(t, cfg_issue, id_oc),
            IssueStageSlot::Loog(_) => self.issue_loog(t),
            _ => self.issue_in_order(t, cfg_issue, id_oc),
        }
    }

    /// Fetch and decode of cycle `t` (memory-side time `t_fs`): up to `throughput` warps,
    /// `width` instructions each, into the I-buffers (SOCGPU: into its per-warp buffers).
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
        match self.issue.stage {
            IssueStageSlot::Socgpu(_) => self.fetch_socgpu(t, t_fs, width, throughput, stream, mem),
            _ => self.fetch_in_order(t, t_fs, width, throughput, stream, mem),
        }
    }

    /// Dispatch stage of cycle `t` (`oc_ex`: collector-to-unit ports per pipe class).
    #[inline]
    pub fn dispatch(&mut self, t: u64, oc_ex: &PerPipe<u32>) {
        match self.issue.stage {
            IssueStageSlot::Loog(_) => self.dispatch_loog(t),
            _ => self.dispatch_collectors(t, oc_ex),
        }
    }

    /// Register-file read arbitration of cycle `t`.
    #[inline]
    pub fn rf_arbitrate(&mut self, t: u64) {
        match self.issue.stage {
            IssueStageSlot::Loog(_) => self.loog_rf_read(t),
            _ => self.rf_arbitrate_collectors(t),
        }
    }

    /// Start of the writeback stage of cycle `t`: LOOG's frees, RAT visits and broadcasts
    /// (issue-stage §3.2 steps 2, 7); nothing for the other stages.
    #[inline]
    pub(super) fn stage_begin_writeback(&mut self, t: u64) {
        if let IssueStageSlot::Loog(o) = &mut self.issue.stage {
            if o.begin_cycle(t) || o.busy() {
                self.progress = true;
            }
        }
    }

    /// Is the register-file write of register `r` by the result tagged `tag` of warp `w` made?
    /// Always, except under LOOG when a younger writer renamed the register (WAW elimination).
    #[inline]
    pub(super) fn rf_write_kept(&self, w: usize, r: u16, tag: u16) -> bool {
        match &self.issue.stage {
            IssueStageSlot::Loog(o) => o.rf_write_kept(w, r, tag),
            _ => true,
        }
    }

    /// Result `wb` has been written: the issue stage's dependence tracking lets its consumers
    /// go — the scoreboard releases its destinations (and a branch held for its write-back
    /// releases the warp's fetch), SOCGPU's entry leaves its buffer (§2.4), LOOG's producer
    /// broadcasts (§3.2).
    #[inline]
    pub(super) fn stage_result_written(&mut self, wb: &Wb) {
        let warp = wb.warp as usize;
        match &mut self.issue.stage {
            IssueStageSlot::Socgpu(o) => {
                o.ibs[warp].writeback(wb.tag as usize, &mut o.stats);
            }
            IssueStageSlot::Loog(o) => o.result_done(wb.tag, self.now),
            stage => {
                for &r in &wb.dst[..wb.n_dst as usize] {
                    stage.release(warp, r);
                    self.issue.sb_blocked.remove(warp);
                    self.issue.sb_act.writes += 1;
                }
                if wb.tag == BRANCH_WB_TAG && self.front.wb_release {
                    // reconv.stack_update_at = "writeback": the branch's stack update is done
                    self.warps.w_fetch_ready[warp] = 0;
                    self.front.fetch_dirty = true;
                    self.front.candidate(warp);
                }
            }
        }
    }

    /// The issue stage's own next event after cycle `t`, earlier than `ev`: SOCGPU entries
    /// that become ready by time alone and warps whose fetch delay ends while they may fetch.
    pub(super) fn stage_next_event(&self, t: u64, mut ev: u64) -> u64 {
        if let IssueStageSlot::Socgpu(o) = &self.issue.stage {
            if let Some(e) = o.next_ready(t) {
                ev = ev.min(e);
            }
            for w in 0..self.warps.w_valid.len() {
                let r = self.warps.w_fetch_ready[w];
                if r > t && r < ev && self.socgpu_fetch_eligible(o, w) {
                    ev = r;
                }
            }
        }
        ev
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
    pub(super) fn put_stage(&mut self, s: IssueStageSlot) {
        self.issue.stage = s;
    }

    /// The SOCGPU state taken out of the slot (put it back with [`Sm::put_stage`]); `None`
    /// and the slot untouched when it holds another stage.
    #[inline]
    pub(super) fn take_socgpu(&mut self) -> Option<Box<SmSocgpu>> {
        match self.take_stage() {
            IssueStageSlot::Socgpu(o) => Some(o),
            other => {
                self.issue.stage = other;
                None
            }
        }
    }

    /// The LOOG state taken out of the slot (put it back with [`Sm::put_stage`]); `None` and
    /// the slot untouched when it holds another stage.
    #[inline]
    pub(super) fn take_loog(&mut self) -> Option<Box<SmLoog>> {
        match self.take_stage() {
            IssueStageSlot::Loog(o) => Some(o),
            other => {
                self.issue.stage = other;
                None
            }
        }
    }
}
