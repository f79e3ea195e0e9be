//! Reconvergence of diverged lanes (control-flow spec §3): the trait a per-warp mechanism
//! implements, and the slot through which the emulator calls the built-in PDOM stack
//! ([`crate::emu::SimtStack`]) directly and any registered mechanism through the trait.
//!
//! The mechanism runs where control flow is resolved: in the functional front end, which
//! updates it for every instruction it produces. The timing model sees its effect in each
//! instruction's active mask and reconvergence PC, and models *when* the update becomes visible
//! to fetch with `reconv.stack_update_at` and `reconv.issue_flush` (`timing/sm/memory.rs`).

use crate::emu::{Entry, PushOrder, SimtStack, StackStats};

/// A per-warp reconvergence mechanism: what the functional front end asks of the warp's control
/// state. The PDOM stack ([`SimtStack`]) is the built-in one; others (e.g. dynamic warp
/// formation, thread-frontier schemes) implement this trait and are registered by name in
/// [`crate::timing::PolicyRegistry`].
pub trait Reconvergence: Send {
    /// The PC the warp executes next and its active lanes; `None` when the warp has finished.
    fn top(&self) -> Option<Entry>;
    /// Entries held (bounded by the emulator, which stops a warp whose depth exceeds twice
    /// the warp size).
    fn depth(&self) -> usize;
    /// Non-divergent update: every remaining lane goes to `next`, after removing the `exited`
    /// lanes.
    fn advance(&mut self, next: u32, exited: u32);
    /// Update after a two-way branch (see [`SimtStack::branch`]); returns whether it diverged.
    fn branch(
        &mut self,
        taken: u32,
        target: u32,
        fall: u32,
        fall_pc: u32,
        rpc: u32,
        order: PushOrder,
    ) -> bool;
    /// Counters of the mechanism's activity.
    fn stats(&self) -> StackStats;
}

impl Reconvergence for SimtStack {
    fn top(&self) -> Option<Entry> {
        SimtStack::top(self).copied()
    }
    fn depth(&self) -> usize {
        SimtStack::depth(self)
    }
    fn advance(&mut self, next: u32, exited: u32) {
        SimtStack::advance(self, next, exited)
    }
    fn branch(
        &mut self,
        taken: u32,
        target: u32,
        fall: u32,
        fall_pc: u32,
        rpc: u32,
        order: PushOrder,
    ) -> bool {
        SimtStack::branch(self, taken, target, fall, fall_pc, rpc, order)
    }
    fn stats(&self) -> StackStats {
        self.stats
    }
}

/// Builds a warp's reconvergence state from its launch PC and lane mask.
pub type ReconvergenceFactory =
    std::sync::Arc<dyn Fn(u32, u32) -> Box<dyn Reconvergence> + Send + Sync>;

/// A warp's control state: the built-in PDOM stack called directly (it runs for every
/// instruction), any other mechanism through its trait.
pub enum ReconvergenceSlot {
    /// The built-in immediate-post-dominator (PDOM) SIMT stack.
    Pdom(SimtStack),
    /// A registered reconvergence mechanism.
    Other(Box<dyn Reconvergence>),
}

impl ReconvergenceSlot {
    /// The state for a warp launched at `pc` with lanes `mask`: `factory`'s when given, else a
    /// PDOM stack.
    pub fn new(pc: u32, mask: u32, factory: Option<&ReconvergenceFactory>) -> Self {
        match factory {
            Some(f) => ReconvergenceSlot::Other(f(pc, mask)),
            None => ReconvergenceSlot::Pdom(SimtStack::new(pc, mask)),
        }
    }
    /// The PC the warp executes next and its active lanes; `None` when the warp has finished.
    #[inline]
    pub fn top(&self) -> Option<Entry> {
        match self {
            ReconvergenceSlot::Pdom(s) => s.top().copied(),
            ReconvergenceSlot::Other(r) => r.top(),
        }
    }
    /// Entries held (stack depth for the PDOM stack).
    #[inline]
    pub fn depth(&self) -> usize {
        match self {
            ReconvergenceSlot::Pdom(s) => s.depth(),
            ReconvergenceSlot::Other(r) => r.depth(),
        }
    }
    /// Entries of the innermost activation of a recursive call ([`SimtStack::frame_depth`]);
    /// the whole depth for a mechanism other than the PDOM stack.
    #[inline]
    pub fn frame_depth(&self) -> usize {
        match self {
            ReconvergenceSlot::Pdom(s) => s.frame_depth(),
            ReconvergenceSlot::Other(r) => r.depth(),
        }
    }
    /// True when the warp has finished (no entry left).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.depth() == 0
    }
    /// Non-divergent update: the `exited` lanes leave and every remaining lane goes to `next`.
    #[inline]
    pub fn advance(&mut self, next: u32, exited: u32) {
        match self {
            ReconvergenceSlot::Pdom(s) => s.advance(next, exited),
            ReconvergenceSlot::Other(r) => r.advance(next, exited),
        }
    }
    /// Update after a two-way branch (see [`SimtStack::branch`]); returns whether it diverged.
    #[inline]
    pub fn branch(
        &mut self,
        taken: u32,
        target: u32,
        fall: u32,
        fall_pc: u32,
        rpc: u32,
        order: PushOrder,
    ) -> bool {
        match self {
            ReconvergenceSlot::Pdom(s) => s.branch(taken, target, fall, fall_pc, rpc, order),
            ReconvergenceSlot::Other(r) => r.branch(taken, target, fall, fall_pc, rpc, order),
        }
    }
    /// Counters of the mechanism's activity.
    pub fn stats(&self) -> StackStats {
        match self {
            ReconvergenceSlot::Pdom(s) => s.stats,
            ReconvergenceSlot::Other(r) => r.stats(),
        }
    }
}

/// The emulator's name for a warp's control state.
pub type WarpControl = ReconvergenceSlot;
