//! The built-in warp schedulers (simulator §2.3): loose round-robin, greedy-then-oldest,
//! oldest/youngest first, fetch groups and the two-level scheduler (`timing/slots.rs` builds
//! the one a configuration names).

use super::{WarpScheduler, WarpView};
use crate::config::InnerPolicy;

/// LRR: scan from the warp after the last issuer (by slot), wrapping round.
#[derive(Default)]
pub struct Lrr {
    last: Option<u16>,
}

impl WarpScheduler for Lrr {
    fn uses_warp_state(&self) -> bool {
        false
    }
    fn order_reusable(&self) -> bool {
        true
    }
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        order.clear();
        // warps are in ascending slot order
        let start = match self.last {
            Some(l) => warps.iter().position(|w| w.slot > l).unwrap_or(0),
            None => 0,
        };
        for i in 0..warps.len() {
            order.push(warps[(start + i) % warps.len()].slot);
        }
    }
    fn issued(&mut self, slot: u16) {
        self.last = Some(slot);
    }
    fn stable_when_idle(&self) -> bool {
        true
    }
}

/// GTO: the last issuer first, then the other warps by ascending age.
#[derive(Default)]
pub struct Gto {
    last: Option<u16>,
    /// The last views' (age, slot) pairs and their slots by ascending age (the warp set
    /// changes rarely, so the sort is reused).
    last_input: Vec<(u64, u16)>,
    by_age: Vec<u16>,
    /// Per slot: the last views marked the warp finished.
    finished: Vec<bool>,
    /// The last issuer the order was last written for (`None` before the first order).
    written_for: Option<Option<u16>>,
}

impl Gto {
    /// The order from the sorted slots: the last issuer first when it is among them and not
    /// finished, then the others by age.
    fn write_order(&self, order: &mut Vec<u16>) {
        order.clear();
        if let Some(l) = self.last {
            if let Some(p) = self.by_age.iter().position(|&s| s == l) {
                if !self.finished[l as usize] {
                    order.push(l);
                    order.extend_from_slice(&self.by_age[..p]);
                    order.extend_from_slice(&self.by_age[p + 1..]);
                    return;
                }
            }
        }
        order.extend_from_slice(&self.by_age);
    }
}

impl WarpScheduler for Gto {
    fn uses_warp_state(&self) -> bool {
        false
    }
    fn order_reusable(&self) -> bool {
        true
    }
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        let same = warps.len() == self.last_input.len()
            && warps
                .iter()
                .zip(&self.last_input)
                .all(|(w, &(a, sl))| w.age == a && w.slot == sl);
        if !same {
            self.last_input.clear();
            self.last_input
                .extend(warps.iter().map(|w| (w.age, w.slot)));
            let mut sorted = self.last_input.clone();
            sorted.sort_unstable();
            self.by_age.clear();
            self.by_age.extend(sorted.iter().map(|x| x.1));
        }
        for w in warps {
            let i = w.slot as usize;
            if i >= self.finished.len() {
                self.finished.resize(i + 1, false);
            }
            self.finished[i] = w.finished;
        }
        self.write_order(order);
        self.written_for = Some(self.last);
    }
    fn order_unchanged(&mut self, _warps: &[WarpView], order: &mut Vec<u16>) {
        // the greedy warp issued again: the order it was written for still holds
        if self.written_for != Some(self.last) {
            self.write_order(order);
            self.written_for = Some(self.last);
        }
    }
    fn issued(&mut self, slot: u16) {
        self.last = Some(slot);
    }
    fn stable_when_idle(&self) -> bool {
        true
    }
}

/// Oldest (ascending age) or youngest (descending age) first.
pub struct ByAge {
    /// Youngest (highest age) first instead of oldest (`sched.policy = "youngest"`).
    pub youngest_first: bool,
    by_age: Vec<(u64, u16)>,
}

impl ByAge {
    /// Oldest first, or youngest first with `youngest_first`.
    pub fn new(youngest_first: bool) -> Self {
        ByAge {
            youngest_first,
            by_age: Vec::new(),
        }
    }
}

impl WarpScheduler for ByAge {
    fn uses_warp_state(&self) -> bool {
        false
    }
    fn order_reusable(&self) -> bool {
        true
    }
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        self.by_age.clear();
        self.by_age.extend(warps.iter().map(|w| (w.age, w.slot)));
        if !self.by_age.is_sorted() {
            self.by_age.sort_unstable();
        }
        if self.youngest_first {
            self.by_age.reverse();
        }
        order.clear();
        order.extend(self.by_age.iter().map(|x| x.1));
    }
    fn issued(&mut self, _slot: u16) {}
    fn stable_when_idle(&self) -> bool {
        true
    }
}

/// Fetch-group(g): warps split into age groups of g; the current group is served LRR and
/// priority rotates to the next group when no warp of the current group issued.
pub struct FetchGroup {
    /// Group size in warps (`sched.fetch_group_size`, at least 1).
    pub g: usize,
    current: usize,
    last: Option<u16>,
    issued_this_cycle: bool,
    by_age: Vec<(u64, u16)>,
}

impl FetchGroup {
    /// Groups of `g` warps (at least 1), starting at the first group with nothing issued yet.
    pub fn new(g: usize) -> Self {
        FetchGroup {
            g: g.max(1),
            current: 0,
            last: None,
            issued_this_cycle: true,
            by_age: Vec::new(),
        }
    }
}

impl WarpScheduler for FetchGroup {
    fn uses_warp_state(&self) -> bool {
        false
    }
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        self.by_age.clear();
        self.by_age.extend(warps.iter().map(|w| (w.age, w.slot)));
        if !self.by_age.is_sorted() {
            self.by_age.sort_unstable();
        }
        order.clear();
        let n = self.by_age.len();
        if n == 0 {
            return;
        }
        let groups = n.div_ceil(self.g);
        if !self.issued_this_cycle {
            self.current = (self.current + 1) % groups;
        }
        self.issued_this_cycle = false;
        self.current %= groups;
        for gi in 0..groups {
            let grp = (self.current + gi) % groups;
            let lo = grp * self.g;
            let hi = (lo + self.g).min(n);
            let members = &self.by_age[lo..hi];
            let start = match self.last {
                Some(l) => members
                    .iter()
                    .position(|x| x.1 == l)
                    .map(|p| p + 1)
                    .unwrap_or(0),
                None => 0,
            };
            for i in 0..members.len() {
                order.push(members[(start + i) % members.len()].1);
            }
        }
    }
    fn issued(&mut self, slot: u16) {
        self.last = Some(slot);
        self.issued_this_cycle = true;
    }
}

/// Two-level(A, inner): an active set of at most A warps, refilled from a pending FIFO.
/// Each cycle: (1) demote active warps that wait at a barrier/membar, are finished, have an empty
/// I-buffer or a `longop` head source to the FIFO tail; (2) promote from the FIFO head, skipping
/// such warps, while fewer than A are active; (3) order the active set by the inner policy.
pub struct TwoLevel {
    /// Size A of the active set (`sched.two_level.active_per_sched`).
    pub active_max: usize,
    /// Policy ordering the active set (`sched.two_level.inner`: LRR or GTO).
    pub inner: Box<dyn WarpScheduler>,
    active: Vec<u16>,
    pending: std::collections::VecDeque<u16>,
    scratch: Vec<WarpView>,
    /// Per slot: 1 + the position of its view in the last `order` call's input, 0 if absent.
    view_of: Vec<u32>,
    /// Per slot: in the active set or the pending FIFO.
    member: Vec<bool>,
    /// (age, slot) of the warps new to the scheduler this cycle.
    new: Vec<(u64, u16)>,
    /// The active set in ascending slot order.
    sorted: Vec<u16>,
}

impl TwoLevel {
    /// An empty two-level scheduler of `active_max` active warps ordered by `inner`.
    pub fn new(active_max: usize, inner: InnerPolicy) -> Self {
        TwoLevel {
            active_max,
            inner: match inner {
                InnerPolicy::Lrr => Box::new(Lrr::default()),
                InnerPolicy::Gto => Box::new(Gto::default()),
            },
            active: Vec::new(),
            pending: Default::default(),
            scratch: Vec::new(),
            view_of: Vec::new(),
            member: Vec::new(),
            new: Vec::new(),
            sorted: Vec::new(),
        }
    }

    /// The active set, in activation order.
    pub fn active(&self) -> &[u16] {
        &self.active
    }
}

fn demote(w: &WarpView) -> bool {
    w.waiting || w.finished || w.ibuffer_empty || w.head_longop
}

impl WarpScheduler for TwoLevel {
    fn order(&mut self, warps: &[WarpView], order: &mut Vec<u16>) {
        // Per-slot index of the views (0 = absent, else position + 1) and FIFO/active membership,
        // so each step below is linear in the number of warps.
        let n_slots = warps.iter().map(|w| w.slot as usize + 1).max().unwrap_or(0);
        self.view_of.clear();
        self.view_of.resize(n_slots, 0);
        for (i, w) in warps.iter().enumerate() {
            self.view_of[w.slot as usize] = i as u32 + 1;
        }
        let view_of = &self.view_of;
        let find = |s: u16| match view_of.get(s as usize) {
            Some(&i) if i > 0 => Some(&warps[i as usize - 1]),
            _ => None,
        };
        // Warps that left the scheduler are dropped; new warps join the FIFO in age order.
        self.active.retain(|s| find(*s).is_some());
        self.pending.retain(|s| find(*s).is_some());
        self.member.clear();
        self.member.resize(n_slots, false);
        for &s in self.active.iter().chain(self.pending.iter()) {
            self.member[s as usize] = true;
        }
        self.new.clear();
        let member = &self.member;
        self.new.extend(
            warps
                .iter()
                .filter(|w| !member[w.slot as usize])
                .map(|w| (w.age, w.slot)),
        );
        self.new.sort_unstable();
        self.pending.extend(self.new.iter().map(|x| x.1));
        // 1. demote
        let mut i = 0;
        while i < self.active.len() {
            let s = self.active[i];
            if find(s).map(demote).unwrap_or(true) {
                self.active.remove(i);
                self.pending.push_back(s);
            } else {
                i += 1;
            }
        }
        // 2. promote from the FIFO head, skipping ineligible warps
        let mut k = 0;
        while self.active.len() < self.active_max && k < self.pending.len() {
            let s = self.pending[k];
            if find(s).map(|w| !demote(w)).unwrap_or(false) {
                self.pending.remove(k);
                self.active.push(s);
            } else {
                k += 1;
            }
        }
        // 3. inner order over the active set (views in ascending slot order)
        self.scratch.clear();
        self.sorted.clear();
        self.sorted.extend_from_slice(&self.active);
        self.sorted.sort_unstable();
        for &s in &self.sorted {
            if let Some(w) = find(s) {
                self.scratch.push(*w);
            }
        }
        self.inner.order(&self.scratch, order);
    }
    fn issued(&mut self, slot: u16) {
        self.inner.issued(slot);
    }
    /// After one `order` call, a second with the same views demotes nothing (every active
    /// warp passed the demotion test) and promotes nothing (the FIFO warps left were either
    /// ineligible or the set was full), so the state is a fixed point until a view changes or
    /// a warp issues — provided the inner policy is stable too.
    fn stable_when_idle(&self) -> bool {
        self.inner.stable_when_idle()
    }
    fn active_slots(&self) -> Option<&[u16]> {
        Some(&self.active)
    }
}
