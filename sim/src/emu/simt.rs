//! Per-warp PDOM reconvergence stack (control-flow §3).
//!
//! Entries are `{next_pc, mask, rpc}`; the top of stack (TOS) holds the PC the warp executes next
//! and its active lanes. The update rule after an instruction (§3.2):
//! 1. exited lanes leave the TOS mask and every entry below;
//! 2. no lanes left → pop;
//! 3. one target `p` → pop if `p == TOS.rpc` (reconvergence), else `TOS.next_pc = p`;
//! 4. k ≥ 2 targets with `r = rpc(I)` → if `r != TOS.rpc` the TOS becomes the reconvergence entry
//!    (`next_pc = r`), otherwise it is popped (the entry below already waits at `r`); then each
//!    group is pushed in the configured order, skipping a group already at `r`;
//! 5. cascade: pop while `TOS.next_pc == TOS.rpc`.
//!
//! Calls and returns [X]: a uniform CALL pushes a call-kind entry `{callee, mask, rpc = NULL}`
//! after setting the caller's entry to the return PC; RET pops the call-kind entry and the
//! cascade runs. Reconvergence is never tested against a call-kind entry.
//!
//! The trait through which the timing model and the emulator reach a reconvergence mechanism
//! is [`crate::timing::policy::Reconvergence`]; this stack is its built-in implementation.
//!
//! PCs here are opaque `u32`s (the emulator uses instruction indices); [`RPC_NONE`] (the maximum
//! value) is the "reconverge only at exit" marker. Bit i of a mask is lane i.

/// "No reconvergence point" (ipdom = EXIT): the maximum PC, so `next_pc < rpc` always holds.
pub const RPC_NONE: u32 = u32::MAX;

/// Kind of a stack entry (control-flow §3.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EntryKind {
    /// A path or reconvergence entry.
    #[default]
    Normal,
    /// A function-call entry: popped by RET, never by reconvergence.
    Call,
}

/// One stack entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// PC the lanes execute next.
    pub pc: u32,
    /// Lanes of the entry (bit i = lane i).
    pub mask: u32,
    /// Reconvergence PC at which the entry is popped ([`RPC_NONE`] for exit).
    pub rpc: u32,
    /// Normal or call entry.
    pub kind: EntryKind,
}

/// Push order of diverged groups (knob `push_order`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PushOrder {
    /// Fall-through pushed first, taken last: the taken path runs first (default).
    #[default]
    TakenOnTop,
    /// Taken pushed first, fall-through last.
    FallthroughOnTop,
}

/// Counters of stack activity (control-flow §6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StackStats {
    /// Entries pushed.
    pub pushes: u64,
    /// Entries popped, for any reason.
    pub pops: u64,
    /// Branches whose active lanes split over two or more targets.
    pub divergent_branches: u64,
    /// Pops because the top entry reached its reconvergence PC.
    pub reconvergence_pops: u64,
    /// Pops in the cascade that follows a pop (`next_pc == rpc` on the new TOS).
    pub cascade_pops: u64,
    /// Deepest the stack has been.
    pub max_depth: u32,
}

impl StackStats {
    /// Adds `o` (sums; maximum of the depths).
    pub fn merge(&mut self, o: &StackStats) {
        self.pushes += o.pushes;
        self.pops += o.pops;
        self.divergent_branches += o.divergent_branches;
        self.reconvergence_pops += o.reconvergence_pops;
        self.cascade_pops += o.cascade_pops;
        self.max_depth = self.max_depth.max(o.max_depth);
    }
}

/// A PDOM reconvergence stack.
#[derive(Clone, Debug, Default)]
pub struct SimtStack {
    entries: Vec<Entry>,
    /// Counters of this stack's activity.
    pub stats: StackStats,
}

impl SimtStack {
    /// A stack with the single launch entry `{pc, mask, rpc = RPC_NONE}`.
    pub fn new(pc: u32, mask: u32) -> Self {
        let mut entries = Vec::with_capacity(8);
        if mask != 0 {
            entries.push(Entry {
                pc,
                mask,
                rpc: RPC_NONE,
                kind: EntryKind::Normal,
            });
        }
        SimtStack {
            entries,
            stats: StackStats {
                max_depth: entries_len(mask),
                ..Default::default()
            },
        }
    }

    /// Replaces every entry with the single entry `{pc, mask, rpc = RPC_NONE}` (the counters
    /// are kept). The thread-pool stream uses it to run one instruction for a chosen set of a
    /// warp's lanes at one PC.
    pub fn reset(&mut self, pc: u32, mask: u32) {
        self.entries.clear();
        if mask != 0 {
            self.entries.push(Entry {
                pc,
                mask,
                rpc: RPC_NONE,
                kind: EntryKind::Normal,
            });
        }
    }

    /// Entries from bottom to top.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The top-of-stack entry: the next PC and the active lanes; `None` when empty.
    #[inline]
    pub fn top(&self) -> Option<&Entry> {
        self.entries.last()
    }

    /// True when the stack is empty (every lane has exited).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of entries.
    pub fn depth(&self) -> usize {
        self.entries.len()
    }

    /// Entries of the innermost activation: from the topmost call entry (inclusive) up, or all
    /// entries when there is no call entry. Real hardware spills the entries of outer
    /// activations to memory, so the depth bound applies to this count.
    pub fn frame_depth(&self) -> usize {
        match self.entries.iter().rposition(|e| e.kind == EntryKind::Call) {
            Some(c) => self.entries.len() - c,
            None => self.entries.len(),
        }
    }

    #[inline]
    fn cascade(&mut self) {
        while let Some(t) = self.entries.last() {
            if t.kind == EntryKind::Normal && t.pc == t.rpc {
                self.entries.pop();
                self.stats.pops += 1;
                self.stats.cascade_pops += 1;
            } else {
                break;
            }
        }
    }

    /// Removes exited lanes from every entry (step 1); pops the TOS if it has no lanes left.
    /// Returns true when the TOS was popped.
    fn remove_lanes(&mut self, exited: u32) -> bool {
        if exited == 0 {
            return false;
        }
        for e in &mut self.entries {
            e.mask &= !exited;
        }
        if self.entries.last().is_some_and(|t| t.mask == 0) {
            self.entries.pop();
            self.stats.pops += 1;
            // Entries below whose lanes all exited can never run: drop them as they surface.
            while self.entries.last().is_some_and(|t| t.mask == 0) {
                self.entries.pop();
                self.stats.pops += 1;
            }
            return true;
        }
        false
    }

    /// Non-divergent update: every remaining lane of the TOS goes to `next` (steps 3 and 5), after
    /// removing the `exited` lanes.
    #[inline]
    pub fn advance(&mut self, next: u32, exited: u32) {
        if self.remove_lanes(exited) {
            self.cascade();
            return;
        }
        let Some(t) = self.entries.last_mut() else {
            return;
        };
        if t.kind == EntryKind::Normal && next == t.rpc {
            self.entries.pop();
            self.stats.pops += 1;
            self.stats.reconvergence_pops += 1;
        } else {
            t.pc = next;
        }
        self.cascade();
    }

    /// Update after a two-way branch: lanes in `taken` go to `target`, lanes in `fall` go to
    /// `fall_pc`; `rpc` is the branch's reconvergence point. `taken | fall` must equal the TOS
    /// mask. Returns true when the branch diverged.
    pub fn branch(
        &mut self,
        taken: u32,
        target: u32,
        fall: u32,
        fall_pc: u32,
        rpc: u32,
        order: PushOrder,
    ) -> bool {
        if taken == 0 || fall == 0 || target == fall_pc {
            let next = if taken != 0 { target } else { fall_pc };
            self.advance(next, 0);
            return false;
        }
        let groups = match order {
            // Pushed in this order; the last one ends on top.
            PushOrder::TakenOnTop => [(fall_pc, fall), (target, taken)],
            PushOrder::FallthroughOnTop => [(target, taken), (fall_pc, fall)],
        };
        self.diverge(&groups, rpc);
        true
    }

    /// Divergent update (step 4) with the groups in push order (the last ends on top), then the
    /// cascade (step 5). Works for any number of groups ≥ 2.
    pub fn diverge(&mut self, groups: &[(u32, u32)], rpc: u32) {
        self.stats.divergent_branches += 1;
        let Some(t) = self.entries.last_mut() else {
            return;
        };
        if t.kind == EntryKind::Call || rpc != t.rpc {
            t.pc = rpc;
        } else {
            self.entries.pop();
            self.stats.pops += 1;
        }
        for &(pc, mask) in groups {
            if pc == rpc || mask == 0 {
                continue;
            }
            self.entries.push(Entry {
                pc,
                mask,
                rpc,
                kind: EntryKind::Normal,
            });
            self.stats.pushes += 1;
        }
        self.stats.max_depth = self.stats.max_depth.max(self.entries.len() as u32);
        self.cascade();
    }

    /// A uniform CALL to `callee` whose return lands at `return_pc` [X]: with `call_entries`
    /// the caller's entry waits at `return_pc` and a call-kind entry `{callee, mask, NULL}` is
    /// pushed; without, the call is a plain jump (the TOS moves to `callee`).
    pub fn call(&mut self, callee: u32, return_pc: u32, call_entries: bool) {
        let Some(t) = self.entries.last_mut() else {
            return;
        };
        if !call_entries {
            t.pc = callee;
            return;
        }
        let mask = t.mask;
        t.pc = return_pc;
        self.entries.push(Entry {
            pc: callee,
            mask,
            rpc: RPC_NONE,
            kind: EntryKind::Call,
        });
        self.stats.pushes += 1;
        self.stats.max_depth = self.stats.max_depth.max(self.entries.len() as u32);
    }

    /// RET: with a call-kind TOS, pop it (the caller's entry already waits at the return PC)
    /// and run the cascade; returns false when the TOS is not a call entry (a RET at kernel
    /// level, which the caller treats as exit).
    pub fn ret(&mut self) -> bool {
        if self.entries.last().map(|t| t.kind) != Some(EntryKind::Call) {
            return false;
        }
        self.entries.pop();
        self.stats.pops += 1;
        self.cascade();
        true
    }
}

fn entries_len(mask: u32) -> u32 {
    u32::from(mask != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mask from the spec's notation: the leftmost character is lane 0.
    fn m(s: &str) -> u32 {
        s.chars()
            .enumerate()
            .map(|(i, c)| if c == '1' { 1 << i } else { 0 })
            .sum()
    }

    fn e(pc: u32, mask: &str, rpc: u32) -> Entry {
        Entry {
            pc,
            mask: m(mask),
            rpc,
            kind: EntryKind::Normal,
        }
    }

    // control-flow §3.3 (a): [F] Fig. 3.1, taken_on_top.
    #[test]
    fn worked_example_a_taken_on_top() {
        const B: u32 = 1;
        const C: u32 = 2;
        const D: u32 = 3;
        const E: u32 = 4;
        const OUTER: u32 = 9;
        let mut s = SimtStack {
            entries: vec![e(B, "1110", OUTER)],
            stats: Default::default(),
        };
        // B: lane 0 → C (taken), lanes 1-2 → D (fall-through); rpc(B) = E.
        assert!(s.branch(m("1000"), C, m("0110"), D, E, PushOrder::TakenOnTop));
        assert_eq!(
            s.entries(),
            &[e(E, "1110", OUTER), e(D, "0110", E), e(C, "1000", E)]
        );
        // Path C runs; its next PC is E: pop.
        s.advance(E, 0);
        assert_eq!(s.entries(), &[e(E, "1110", OUTER), e(D, "0110", E)]);
        // Path D runs; its next PC is E: pop.
        s.advance(E, 0);
        assert_eq!(s.entries(), &[e(E, "1110", OUTER)]);
        assert_eq!(s.stats.reconvergence_pops, 2);
    }

    // control-flow §3.3 (b): [S] Fig. 3.2, fallthrough_on_top, warp size 4.
    #[test]
    fn worked_example_b_fallthrough_on_top() {
        const F: u32 = 0;
        const G: u32 = 1;
        const H: u32 = 2;
        const I: u32 = 3;
        const J: u32 = 4;
        let mut s = SimtStack::new(F, m("1111"));
        assert_eq!(s.entries(), &[e(F, "1111", RPC_NONE)]);
        // F: lanes 0, 2 → I (taken); lanes 1, 3 → G (fall-through); rpc(F) = J.
        assert!(s.branch(m("1010"), I, m("0101"), G, J, PushOrder::FallthroughOnTop));
        assert_eq!(
            s.entries(),
            &[e(J, "1111", RPC_NONE), e(I, "1010", J), e(G, "0101", J)]
        );
        // G runs (mask 0101), falls through to H.
        assert_eq!(s.top().unwrap().mask, m("0101"));
        s.advance(H, 0);
        assert_eq!(
            s.entries(),
            &[e(J, "1111", RPC_NONE), e(I, "1010", J), e(H, "0101", J)]
        );
        // H: uniform branch to J = rpc: pop.
        assert!(!s.branch(m("0101"), J, 0, I, J, PushOrder::FallthroughOnTop));
        assert_eq!(s.entries(), &[e(J, "1111", RPC_NONE), e(I, "1010", J)]);
        // I runs with mask 1010; its next PC is J: pop.
        assert_eq!(s.top().unwrap().mask, m("1010"));
        s.advance(J, 0);
        assert_eq!(s.entries(), &[e(J, "1111", RPC_NONE)]);
    }

    // Depth bound: a 4-lane warp in which every lane ends on its own path needs at most 2w
    // entries; repeated two-way splits reach depth 1 + 2·3 = 7 ≤ 8.
    #[test]
    fn depth_bound_four_way_divergence() {
        let mut s = SimtStack::new(0, m("1111"));
        // Split {0,1} vs {2,3} at pc 0 (rpc 100), then {0} vs {1} (rpc 50), then back out.
        s.branch(m("1100"), 10, m("0011"), 1, 100, PushOrder::TakenOnTop);
        s.branch(m("1000"), 20, m("0100"), 11, 50, PushOrder::TakenOnTop);
        assert_eq!(s.depth(), 5);
        s.advance(50, 0);
        s.advance(50, 0);
        assert_eq!(s.depth(), 3);
        s.advance(100, 0); // lanes 0,1 reach the outer rpc
        assert_eq!(s.depth(), 2);
        s.branch(m("0010"), 60, m("0001"), 2, 100, PushOrder::TakenOnTop);
        assert!(s.stats.max_depth <= 8);
        s.advance(100, 0);
        s.advance(100, 0);
        assert_eq!(s.entries(), &[e(100, "1111", RPC_NONE)]);
    }

    #[test]
    fn exit_removes_lanes_everywhere() {
        let mut s = SimtStack::new(0, m("1111"));
        s.branch(m("1100"), 10, m("0011"), 1, 20, PushOrder::TakenOnTop);
        // Lanes 0 and 1 exit on the taken path.
        s.advance(11, m("1100"));
        assert_eq!(s.entries(), &[e(20, "0011", RPC_NONE), e(1, "0011", 20)]);
        s.advance(20, 0);
        assert_eq!(s.entries(), &[e(20, "0011", RPC_NONE)]);
        s.advance(21, m("0011"));
        assert!(s.is_empty());
    }

    #[test]
    fn rpc_equal_to_tos_rpc_pops_before_push_and_cascade() {
        // A branch inside a divergent region whose reconvergence point equals the enclosing one.
        let mut s = SimtStack {
            entries: vec![e(30, "1111", RPC_NONE), e(5, "0111", 30)],
            stats: Default::default(),
        };
        s.branch(m("0100"), 7, m("0011"), 6, 30, PushOrder::TakenOnTop);
        assert_eq!(
            s.entries(),
            &[e(30, "1111", RPC_NONE), e(6, "0011", 30), e(7, "0100", 30)]
        );
        // A group already at the rpc is not pushed.
        let mut s2 = SimtStack {
            entries: vec![e(5, "1111", RPC_NONE)],
            stats: Default::default(),
        };
        s2.branch(m("1100"), 9, m("0011"), 6, 9, PushOrder::TakenOnTop);
        assert_eq!(s2.entries(), &[e(9, "1111", RPC_NONE), e(6, "0011", 9)]);
    }

    #[test]
    fn call_entries_are_never_reconvergence_points() {
        // Inside a diverged path (rpc 20), call a function at 100; its body reaches PC 20
        // (equal to the enclosing rpc) without popping, returns, and the caller resumes at 6.
        let mut s = SimtStack::new(0, m("1111"));
        s.branch(m("1100"), 5, m("0011"), 1, 20, PushOrder::TakenOnTop);
        s.call(100, 6, true);
        assert_eq!(s.depth(), 4);
        assert_eq!(s.top().unwrap().kind, EntryKind::Call);
        s.advance(20, 0);
        assert_eq!(s.depth(), 4, "a call entry is not popped at an rpc");
        assert!(s.ret());
        assert_eq!(s.entries().last().unwrap(), &e(6, "1100", 20));
        s.advance(20, 0);
        assert_eq!(s.entries(), &[e(20, "1111", RPC_NONE), e(1, "0011", 20)]);
        assert!(!s.ret(), "no call entry to return from");
        // Without call entries a call is a jump.
        let mut j = SimtStack::new(0, m("1111"));
        j.call(100, 1, false);
        assert_eq!(j.entries(), &[e(100, "1111", RPC_NONE)]);
    }
}
