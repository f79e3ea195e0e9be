//! Hardware cost of the issue-stage and reconvergence designs: the in-order baseline's per-warp
//! instruction buffer and scoreboards, SOCGPU's per-warp out-of-order instruction buffer with
//! its dependence matrix (issue-stage spec §2, §4), LOOG's collector-unit reservation stations
//! per issue slice (§3, §4) and dynamic warp formation's per-core scheduler (control-flow spec
//! §5, §5.7).
//!
//! The in-order baseline and DWF in two layers, and each out-of-order design in its own module
//! ([`socgpu`], [`loog`]) holding both layers for its structures and its costing in an estimate
//! (an [`IssueStageCost`], [`stage`], registered once in [`STAGES`]):
//! - [`bits`] (the crate's [`crate::issue_bits`], below the chip model, which sizes the
//!   baseline's leaves with it): the plain input structs and the bit-count formulas of issue-stage §4 and
//!   control-flow §5.7, exactly as written there (state bits per structure, comparator counts,
//!   wires);
//! - [`cost`]: each structure mapped onto the component models (issue-stage §4's mapping: the
//!   instruction buffer, dependence matrix, seniority, counters, small RATs, collector units and
//!   RRS entries are flop arrays ([`crate::logic::LogicKind::FlopArray`]); the dependence
//!   matrix is the [`crate::logic::LogicKind::DepMatrix`] block; insert comparators and the
//!   LSU/WAR checks are comparator arrays ([`crate::logic::LogicKind::EqCmp`] for equality,
//!   an adder for a magnitude compare); a large RAT and DWF's tables are SRAM arrays with the
//!   port counts of the specs; a broadcast is a bus energy term). Every structure gets its area,
//!   leakage and energy per event at the cost source's technology point, so the numbers follow
//!   the node, the supply and the geometry (no per-node constants). Logic costs are calibrated
//!   when the cost source carries a synthesis overlay, analytical otherwise.
//!
//! Deltas are added − removed, per warp, replicated by warps per SM and SMs (issue-stage §4:
//! `ΔA_GPU = (A_warp,SOCGPU − A_warp,base) × W × S`); the SIMT stack is identical in both
//! designs and left out of every delta (it is reported as its own line item).

pub use crate::issue_bits as bits;
pub mod cost;
pub mod loog;
pub mod socgpu;
pub mod stage;

pub use bits::{BaselineIssue, DwfScheduler, InstFields};
pub use cost::{baseline_cost, dwf_cost, DesignCost, EventCost, IssueCostError, StructureCost};
pub use loog::{loog_cost, loog_slice, LoogCost, LoogSlice};
pub use socgpu::{socgpu_cost, SelectPolicy, SocgpuCost, SocgpuIssue};
pub use stage::IssueStageCost;

/// The costings of the out-of-order issue stages, each asked in turn whether a configuration
/// selects it (the registry the estimate's issue-stage costing reads; a configuration that
/// selects none is costed as the in-order baseline).
pub static STAGES: &[&dyn IssueStageCost] = &[&SocgpuCost, &LoogCost];

#[cfg(test)]
mod tests;
