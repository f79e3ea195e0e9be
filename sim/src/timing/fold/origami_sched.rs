//! The Origami warp scheduler (power-gating §7) as a [`WarpScheduler`] over a base scheduler.
//!
//! Priority keys, in order: (1) type, by the GATES rules (applied on top of this order by a
//! stable sort by type, which keeps the order below within each type); (2) mask group: the
//! candidates whose head is in the preferred group (Full or Partial) first, the other group as
//! the fallback; (3) the base order (the two-level list order).
//!
//! The scheduler needs two inputs besides the base order:
//! - the group bit the all-ones detector sets when a warp's head instruction enters the
//!   I-buffer (`None` for a head that is not an SP instruction). In the SM it comes from the
//!   warp views ([`WarpView::head_type`] and [`WarpView::head_mask`], filled because the
//!   scheduler [`WarpScheduler::uses_head_type`]); a driver without views sets it with
//!   [`OrigamiScheduler::set_head_group`];
//! - the cycle, at §1.2 step 1, so that the preferred group is re-chosen at every phase start
//!   of the §6 grid (`fold.n_phase`): in the SM through [`WarpScheduler::gating_view`], else
//!   [`OrigamiScheduler::begin_cycle`]. The counts `n_full` and `n_partial` are taken over the
//!   SP candidates of the base order at that point (the active set under the two-level base),
//!   and the group selector steps once per phase begun, skipped phases included.
//!
//! With a base that orders by type (GATES: contiguous blocks of one head type), the grouping
//! reorders candidates only inside each block of one type, so the type key stays first.

use super::grouping::{order_by_group, GroupCounts, GroupSelector, MaskGroup};
use crate::config::fold::OrigamiSection;
use crate::timing::policy::{GatingView, HeadType, WarpScheduler, WarpView};

/// Origami ordering on top of a base scheduler.
pub struct OrigamiScheduler {
    base: Box<dyn WarpScheduler>,
    grouping: bool,
    selector: GroupSelector,
    n_phase_cycles: u64,
    phase: Option<u64>,
    phases_to_start: u64,
    groups: Vec<Option<MaskGroup>>,
    /// Per slot: head type seen in the views (`None`: no view yet, one block for all).
    types: Vec<Option<HeadType>>,
    /// Lanes of a full warp (the all-ones detector's width).
    warp_lanes: u32,
    base_order: Vec<u16>,
    block: Vec<u16>,
}

impl OrigamiScheduler {
    /// Origami over `base` with the `[origami]` knobs and phases of `n_phase_cycles` cycles
    /// (`fold.n_phase`; 0 is read as 1).
    pub fn new(base: Box<dyn WarpScheduler>, cfg: &OrigamiSection, n_phase_cycles: u32) -> Self {
        OrigamiScheduler {
            base,
            grouping: cfg.grouping,
            selector: GroupSelector::new(cfg.force_switch_phases, cfg.group_tie),
            n_phase_cycles: n_phase_cycles.max(1) as u64,
            phase: None,
            phases_to_start: 0,
            groups: Vec::new(),
            types: Vec::new(),
            warp_lanes: 32,
            base_order: Vec::new(),
            block: Vec::new(),
        }
    }

    /// Origami over `base` that reads the group bit from the warp views, with warps of
    /// `warp_lanes` threads (the SM's configuration).
    pub fn from_views(
        base: Box<dyn WarpScheduler>,
        cfg: &OrigamiSection,
        n_phase_cycles: u32,
        warp_lanes: u32,
    ) -> Self {
        let mut s = Self::new(base, cfg, n_phase_cycles);
        s.warp_lanes = warp_lanes.clamp(1, 32);
        s
    }

    /// Records, from the views, each warp's head type and its group bit.
    fn read_views(&mut self, warps: &[WarpView]) {
        for w in warps {
            let i = w.slot as usize;
            if self.types.len() <= i {
                self.types.resize(i + 1, None);
            }
            let ty = if w.ibuffer_empty {
                HeadType::Other
            } else {
                w.head_type
            };
            self.types[i] = Some(ty);
            let g = matches!(ty, HeadType::Int | HeadType::Fp)
                .then(|| MaskGroup::of(w.head_mask, self.warp_lanes));
            self.set_head_group(w.slot, g);
        }
    }

    /// Records the group bit of the head instruction of warp `slot` (`None`: not an SP
    /// instruction, or no head).
    pub fn set_head_group(&mut self, slot: u16, group: Option<MaskGroup>) {
        let i = slot as usize;
        if self.groups.len() <= i {
            self.groups.resize(i + 1, None);
        }
        self.groups[i] = group;
    }

    /// The group of warp `slot`'s head, as last recorded.
    pub fn head_group(&self, slot: u16) -> Option<MaskGroup> {
        self.groups.get(slot as usize).copied().flatten()
    }

    /// Tells the scheduler the current cycle; a phase start (or several, after skipped cycles)
    /// makes the next [`WarpScheduler::order`] re-choose the preferred group.
    pub fn begin_cycle(&mut self, cycle: u64) {
        let k = cycle / self.n_phase_cycles;
        match self.phase {
            Some(p) if p >= k => {}
            Some(p) => self.phases_to_start += k - p,
            None => self.phases_to_start += 1,
        }
        self.phase = Some(self.phase.map_or(k, |p| p.max(k)));
    }

    /// The group preferred in the current phase.
    pub fn preferred(&self) -> MaskGroup {
        self.selector.preferred()
    }
}

impl WarpScheduler for OrigamiScheduler {
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        self.read_views(warps);
        self.base.order(warps, &mut self.base_order);
        if self.phases_to_start > 0 {
            let counts =
                GroupCounts::of_groups(self.base_order.iter().filter_map(|&s| self.head_group(s)));
            for _ in 0..self.phases_to_start {
                self.selector.on_phase_start(counts);
            }
            self.phases_to_start = 0;
        }
        if self.grouping {
            // group order inside each maximal run of one head type of the base order
            order.clear();
            let groups = &self.groups;
            let types = &self.types;
            let ty = |s: u16| types.get(s as usize).copied().flatten();
            let preferred = self.selector.preferred();
            let mut i = 0;
            while i < self.base_order.len() {
                let t0 = ty(self.base_order[i]);
                let mut j = i + 1;
                while j < self.base_order.len() && ty(self.base_order[j]) == t0 {
                    j += 1;
                }
                order_by_group(
                    &self.base_order[i..j],
                    |s| groups.get(s as usize).copied().flatten(),
                    preferred,
                    &mut self.block,
                );
                order.extend_from_slice(&self.block);
                i = j;
            }
        } else {
            order.clear();
            order.extend_from_slice(&self.base_order);
        }
    }

    fn issued(&mut self, slot: u16) {
        self.base.issued(slot);
    }

    fn uses_warp_state(&self) -> bool {
        self.base.uses_warp_state()
    }

    fn uses_head_type(&self) -> bool {
        true
    }

    fn gating_view(&mut self, v: &GatingView) {
        self.begin_cycle(v.cycle);
        self.base.gating_view(v);
    }

    fn active_slots(&self) -> Option<&[u16]> {
        self.base.active_slots()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timing::fold::parse_mask;
    use crate::timing::policy::TwoLevel;

    /// A base scheduler with a fixed order that records the issues it is told of.
    struct Fixed {
        order: Vec<u16>,
        issued: std::sync::Arc<std::sync::Mutex<Vec<u16>>>,
    }

    impl WarpScheduler for Fixed {
        fn order(&mut self, _: &[WarpView], order: &mut Vec<u16>) {
            order.clone_from(&self.order);
        }
        fn issued(&mut self, slot: u16) {
            self.issued.lock().unwrap().push(slot);
        }
    }

    /// The §8.6 arrival order as warps 0–5 of a fixed base order.
    fn arrival() -> (OrigamiScheduler, std::sync::Arc<std::sync::Mutex<Vec<u16>>>) {
        let issued = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let base = Fixed {
            order: (0..6).collect(),
            issued: issued.clone(),
        };
        let mut s = OrigamiScheduler::new(Box::new(base), &OrigamiSection::default(), 300);
        let masks = [
            "11010100", "01110100", "11111111", "00110101", "01110110", "11111111",
        ];
        for (slot, m) in masks.iter().enumerate() {
            let mask = parse_mask(m).unwrap().0;
            s.set_head_group(slot as u16, Some(MaskGroup::of(mask, 8)));
        }
        (s, issued)
    }

    fn order_of(s: &mut OrigamiScheduler) -> Vec<u16> {
        let mut o = Vec::new();
        s.order(&[], &mut o);
        o
    }

    #[test]
    fn partial_first_then_the_forced_switch_to_full() {
        let (mut s, issued) = arrival();
        s.begin_cycle(0);
        // n_partial 4 > n_full 2: Partial first, Full as the fallback (§8.6 issue order).
        assert_eq!(order_of(&mut s), [0, 1, 3, 4, 2, 5]);
        s.begin_cycle(1);
        assert_eq!(order_of(&mut s), [0, 1, 3, 4, 2, 5]);
        s.begin_cycle(300);
        assert_eq!(order_of(&mut s), [0, 1, 3, 4, 2, 5]);
        // Third phase: Partial preferred twice in a row (M = 2), so Full is forced.
        s.begin_cycle(600);
        assert_eq!(order_of(&mut s), [2, 5, 0, 1, 3, 4]);
        assert_eq!(s.preferred(), MaskGroup::Full);
        s.issued(2);
        assert_eq!(*issued.lock().unwrap(), [2]);
    }

    #[test]
    fn skipped_phases_step_the_selector_once_each() {
        let (mut s, _) = arrival();
        s.begin_cycle(0);
        assert_eq!(s.preferred(), MaskGroup::Full);
        order_of(&mut s);
        assert_eq!(s.preferred(), MaskGroup::Partial);
        // Phases 1, 2, 3 begin at once: P (run 2), F (forced), P.
        s.begin_cycle(950);
        order_of(&mut s);
        assert_eq!(s.preferred(), MaskGroup::Partial);
    }

    #[test]
    fn non_sp_heads_keep_their_place_and_grouping_can_be_off() {
        let (mut s, _) = arrival();
        s.set_head_group(2, None);
        s.begin_cycle(0);
        assert_eq!(order_of(&mut s), [0, 1, 2, 3, 4, 5]);
        let base = Box::new(TwoLevel::new(8, crate::config::InnerPolicy::Lrr));
        let off = OrigamiSection {
            grouping: false,
            ..OrigamiSection::default()
        };
        let mut s = OrigamiScheduler::new(base, &off, 300);
        let views: Vec<WarpView> = (0..3)
            .map(|i| WarpView {
                slot: i,
                age: i as u64,
                ready: true,
                ..WarpView::default()
            })
            .collect();
        s.set_head_group(0, Some(MaskGroup::Partial));
        s.set_head_group(1, Some(MaskGroup::Full));
        s.begin_cycle(0);
        let mut o = Vec::new();
        s.order(&views, &mut o);
        assert_eq!(o, [0, 1, 2]);
        assert!(s.uses_warp_state());
    }
}
