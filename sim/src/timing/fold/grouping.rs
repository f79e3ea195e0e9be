//! Origami mask grouping (power-gating §7, priority key 2).
//!
//! - When an instruction enters the I-buffer, an all-ones detector on the SIMT-stack top mask
//!   sets a 1-bit group: **Full** when `popcount == warp_size`, **Partial** otherwise (short tail
//!   warps included).
//! - Two counters hold `n_full` and `n_partial` over the active SP candidates.
//! - At each phase start (the §6 grid) the preferred group is `argmax(n_full, n_partial)`; a tie
//!   keeps the current group (`origami.group_tie`).
//! - Forced switch: when the same group has been preferred for `M` consecutive phases
//!   (`origami.force_switch_phases`), the next phase prefers the other group whatever the
//!   counts, and the run count restarts at 1.
//! - Preferred-group candidates go first; the other group is the fallback whenever the
//!   preferred group has nothing selectable, so neither group starves.
//!
//! Priority key 1 (the GATES type order) is applied on top: a stable sort by type of the order
//! [`order_by_group`] writes yields the spec's lexicographic order (type, group, base order).

use crate::config::fold::GroupTie;

/// The 1-bit mask group of an SP instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MaskGroup {
    /// Every thread of the warp active.
    Full,
    /// Fewer threads active.
    Partial,
}

impl MaskGroup {
    /// The all-ones detector: `Full` when all `warp_lanes` lanes of `mask` are active.
    pub fn of(mask: u32, warp_lanes: u32) -> MaskGroup {
        if (mask & super::low_bits(warp_lanes)).count_ones() == warp_lanes {
            MaskGroup::Full
        } else {
            MaskGroup::Partial
        }
    }

    /// The other group.
    pub fn other(self) -> MaskGroup {
        match self {
            MaskGroup::Full => MaskGroup::Partial,
            MaskGroup::Partial => MaskGroup::Full,
        }
    }
}

/// Counts of candidates (or of issued instructions) per group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupCounts {
    /// Full-mask instructions.
    pub n_full: u32,
    /// Partial-mask instructions.
    pub n_partial: u32,
}

impl GroupCounts {
    /// Counts the groups of `masks`.
    pub fn of_masks(masks: impl IntoIterator<Item = u32>, warp_lanes: u32) -> GroupCounts {
        Self::of_groups(masks.into_iter().map(|m| MaskGroup::of(m, warp_lanes)))
    }

    /// Counts the groups `groups`.
    pub fn of_groups(groups: impl IntoIterator<Item = MaskGroup>) -> GroupCounts {
        let mut c = GroupCounts::default();
        for g in groups {
            c.add(g);
        }
        c
    }

    /// Counts one instruction of group `g`.
    pub fn add(&mut self, g: MaskGroup) {
        match g {
            MaskGroup::Full => self.n_full += 1,
            MaskGroup::Partial => self.n_partial += 1,
        }
    }
}

/// The preferred group, chosen once per phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupSelector {
    force_switch_phases: u32,
    tie: GroupTie,
    preferred: MaskGroup,
    run: u32,
}

impl GroupSelector {
    /// A selector with `M = force_switch_phases` (0 is read as 1) and tie rule `tie`. Before
    /// the first phase the current group is Full with a run of 0 phases.
    pub fn new(force_switch_phases: u32, tie: GroupTie) -> Self {
        GroupSelector {
            force_switch_phases: force_switch_phases.max(1),
            tie,
            preferred: MaskGroup::Full,
            run: 0,
        }
    }

    /// The group preferred in the current phase.
    pub fn preferred(&self) -> MaskGroup {
        self.preferred
    }

    /// Consecutive phases the current group has been preferred.
    pub fn run_phases(&self) -> u32 {
        self.run
    }

    /// Chooses the preferred group at a phase start from the candidate counts.
    pub fn on_phase_start(&mut self, counts: GroupCounts) -> MaskGroup {
        let choice = if self.run >= self.force_switch_phases {
            self.preferred.other()
        } else {
            match counts.n_full.cmp(&counts.n_partial) {
                std::cmp::Ordering::Greater => MaskGroup::Full,
                std::cmp::Ordering::Less => MaskGroup::Partial,
                std::cmp::Ordering::Equal => match self.tie {
                    GroupTie::KeepCurrent => self.preferred,
                    GroupTie::Full => MaskGroup::Full,
                    GroupTie::Partial => MaskGroup::Partial,
                },
            }
        };
        self.run =
            if choice == self.preferred && self.run > 0 && self.run < self.force_switch_phases {
                self.run + 1
            } else {
                1
            };
        self.preferred = choice;
        choice
    }
}

/// Orders candidates for Origami: those of the `preferred` group first, then the others, each
/// part in `base` order (a stable partition). `group_of` gives a candidate's group, `None` for
/// a candidate that is not an SP instruction (it keeps its base position among the preferred
/// ones: the group key applies to SP candidates only).
pub fn order_by_group(
    base: &[u16],
    group_of: impl Fn(u16) -> Option<MaskGroup>,
    preferred: MaskGroup,
    out: &mut Vec<u16>,
) {
    out.clear();
    let first = |c: u16| group_of(c).is_none_or(|g| g == preferred);
    out.extend(base.iter().copied().filter(|&c| first(c)));
    out.extend(base.iter().copied().filter(|&c| !first(c)));
}
