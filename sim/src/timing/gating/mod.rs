//! Power gating of execution pipes (power-gating §1–§5): the per-SM bank of domain
//! controllers ([`controller::PgBank`]) and the gating-aware GATES scheduler
//! ([`gates::Gates`]). The SM reaches the bank through `GatingSlot::Pg` (installed when
//! `pg.policy` is not `"None"`), and the scheduler through the `WarpScheduler` trait.

pub mod controller;
pub mod gates;

pub use controller::{DomType, DomainSpec, GateDecision, PgBank, PgState};
pub use gates::{Gates, GatesCore};

use crate::timing::policy::{GatingPolicy, UnitState};

/// The controller bank as the SM's gating slot holds it: the bank and the map from the SM's
/// pipe indices to domains (`usize::MAX`: the pipe is never gated).
pub struct PgGating {
    /// The controllers.
    pub bank: PgBank,
    /// Per pipe index: its domain.
    pub pipe_dom: Vec<usize>,
    /// Per unit index: its `[INT-or-only, FP]` domains.
    pub unit_dom: Vec<[usize; 2]>,
    /// Per domain: its unit index.
    pub dom_unit: Vec<usize>,
    /// Per type, per cluster index of [`DomainSpec::cluster`]: the unit index.
    pub cluster_unit: [Vec<usize>; 3],
    /// Lane-group domains (`pg.granularity = "LaneGroup"`).
    pub lane_groups: bool,
    /// Longest wait of a ready instruction (first hazard-free cycle to issue).
    pub max_ready_wait: u64,
    /// Per warp slot: first cycle its head was found hazard-free (`u64::MAX`: not yet).
    pub ready_since: Vec<u64>,
    /// `pg.wake_consumes_slot`: a wake request raised at issue takes the issue slot.
    pub wake_consumes_slot: bool,
    /// The last candidate the issue stage rejected raised a wake request.
    pub wake_raised: bool,
    /// Per type `[INT, FP]`: the lane domains at cluster positions `C/2…C−1` that eager
    /// gating drives while the type folds (power-gating §6; empty without folding or at
    /// SP-cluster granularity).
    pub eager_doms: [Vec<usize>; 2],
}

impl GatingPolicy for PgGating {
    #[inline]
    fn available(&self, pipe: usize, _cycle: u64) -> UnitState {
        match self.pipe_dom.get(pipe) {
            Some(&u) if u != usize::MAX && !self.bank.is_on(u) => UnitState::Gated {
                wake_in: self.bank.wakeup_cycles(),
            },
            _ => UnitState::Ready,
        }
    }
    fn needs_cycle_hook(&self) -> bool {
        true
    }
}
