//! GATES, the gating-aware two-level scheduler (power-gating §3; Abdel-Majeed, Warped-Gates).
//!
//! On top of the two-level active set, each cycle: count `ACTV[INT]`, `ACTV[FP]` (active warps
//! whose head is of that type, ready or not); apply at most one `hp` swap (rule 1:
//! `ACTV[hp] == 0 && ACTV[other] > 0`; rule 2: a blackout policy is active, every domain of
//! type `hp` is gated with `bk > 0`, and `ACTV[other] > 0` when `sched.gates.swap_needs_other`;
//! rule 3: `hp` unchanged for `sched.gates.max_hp_hold` cycles); then order the candidates by
//! the two-level order stably sorted by type priority `[hp, LDST, SFU, other(hp)]`. Trying the
//! candidates in that order and skipping the ones that cannot issue is exactly the per-slot
//! rule "take the first type in priority order that has a selectable candidate".

use crate::config::pg::{GatesSection, HpType};
use crate::config::InnerPolicy;
use crate::timing::policy::{GatingView, HeadType, TwoLevel, WarpScheduler, WarpView};

/// The `hp` register and the swap rules, independent of how candidates are stored (used by
/// [`Gates`] and by test drivers with their own issue model).
#[derive(Clone, Debug)]
pub struct GatesCore {
    /// Current high-priority type: `HeadType::Int` or `HeadType::Fp`.
    pub hp: HeadType,
    /// Cycle of the last `hp` change.
    pub since: u64,
    /// `sched.gates.swap_needs_other`.
    pub swap_needs_other: bool,
    /// `sched.gates.max_hp_hold` (0 = off).
    pub max_hp_hold: u64,
    /// Number of swaps so far.
    pub swaps: u64,
}

impl GatesCore {
    /// The register at kernel start.
    pub fn new(cfg: &GatesSection) -> Self {
        GatesCore {
            hp: match cfg.hp_init {
                HpType::INT => HeadType::Int,
                HpType::FP => HeadType::Fp,
            },
            since: 0,
            swap_needs_other: cfg.swap_needs_other,
            max_hp_hold: cfg.max_hp_hold,
            swaps: 0,
        }
    }

    /// The other of INT/FP.
    pub fn other(&self) -> HeadType {
        if self.hp == HeadType::Int {
            HeadType::Fp
        } else {
            HeadType::Int
        }
    }

    /// §1.2 step 2 at cycle `v.cycle` with `actv = [ACTV[INT], ACTV[FP]]`: at most one swap.
    pub fn switch(&mut self, actv: [u32; 2], v: &GatingView) {
        let (h, o) = if self.hp == HeadType::Int {
            (0, 1)
        } else {
            (1, 0)
        };
        let rule1 = actv[h] == 0 && actv[o] > 0;
        let rule2 = v.blackout && v.all_in_blackout[h] && (!self.swap_needs_other || actv[o] > 0);
        let rule3 = self.max_hp_hold > 0 && v.cycle.saturating_sub(self.since) >= self.max_hp_hold;
        if rule1 || rule2 || rule3 {
            self.hp = self.other();
            self.since = v.cycle;
            self.swaps += 1;
        }
    }

    /// Priority rank of a head type: `hp` 0, LDST (and types without a gated domain) 1, SFU 2,
    /// `other(hp)` 3.
    #[inline]
    pub fn rank(&self, t: HeadType) -> u8 {
        match t {
            HeadType::Int | HeadType::Fp => {
                if t == self.hp {
                    0
                } else {
                    3
                }
            }
            HeadType::Ldst | HeadType::Other => 1,
            HeadType::Sfu => 2,
        }
    }
}

/// `ACTV[INT]`, `ACTV[FP]` over `types`.
pub fn actv_of(types: impl Iterator<Item = HeadType>) -> [u32; 2] {
    let mut a = [0u32; 2];
    for t in types {
        match t {
            HeadType::Int => a[0] += 1,
            HeadType::Fp => a[1] += 1,
            _ => {}
        }
    }
    a
}

/// The GATES warp scheduler: a [`TwoLevel`] base order, re-sorted by type priority.
pub struct Gates {
    base: TwoLevel,
    core: GatesCore,
    view: GatingView,
    /// Head type per slot of the last views.
    types: Vec<HeadType>,
    keyed: Vec<(u8, u16)>,
    /// The last [`WarpScheduler::order`] call swapped `hp`.
    swapped_last: bool,
}

impl Gates {
    /// GATES over a two-level active set of `active_max` warps ordered by `inner`.
    pub fn new(active_max: usize, inner: InnerPolicy, cfg: &GatesSection) -> Self {
        Gates {
            base: TwoLevel::new(active_max, inner),
            core: GatesCore::new(cfg),
            view: GatingView::default(),
            types: Vec::new(),
            keyed: Vec::new(),
            swapped_last: false,
        }
    }

    /// The current high-priority type.
    pub fn hp(&self) -> HeadType {
        self.core.hp
    }
}

impl WarpScheduler for Gates {
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        self.base.order(warps, order);
        for w in warps {
            let i = w.slot as usize;
            if i >= self.types.len() {
                self.types.resize(i + 1, HeadType::Other);
            }
            self.types[i] = if w.ibuffer_empty {
                HeadType::Other
            } else {
                w.head_type
            };
        }
        let actv = actv_of(order.iter().map(|&s| self.types[s as usize]));
        let swaps = self.core.swaps;
        self.core.switch(actv, &self.view);
        self.swapped_last = self.core.swaps != swaps;
        self.keyed.clear();
        let core = &self.core;
        let types = &self.types;
        self.keyed
            .extend(order.iter().map(|&s| (core.rank(types[s as usize]), s)));
        // stable: keeps the two-level order within a type
        self.keyed.sort_by_key(|k| k.0);
        order.clear();
        order.extend(self.keyed.iter().map(|k| k.1));
    }
    fn issued(&mut self, slot: u16) {
        self.base.issued(slot);
    }
    fn uses_head_type(&self) -> bool {
        true
    }
    fn gating_view(&mut self, v: &GatingView) {
        self.view = *v;
    }
    /// With the views (hence `ACTV`) unchanged, a cycle whose `order` made no swap repeats
    /// while the gating view does: rules 1 and 2 read only `ACTV` and the view. Rule 3 fires
    /// `max_hp_hold` cycles after the last swap.
    fn gating_steady_until(&self, v: &GatingView, t: u64) -> u64 {
        let same = self.view.cycle == t
            && v.blackout == self.view.blackout
            && v.all_in_blackout == self.view.all_in_blackout;
        if self.swapped_last || !same {
            t + 1
        } else if self.core.max_hp_hold > 0 {
            (self.core.since + self.core.max_hp_hold).max(t + 1)
        } else {
            u64::MAX
        }
    }
    fn active_slots(&self) -> Option<&[u16]> {
        Some(self.base.active())
    }
}
