//! The seam between the §8 accounting and the register-file techniques (register-file spec
//! §8.1–§8.3): a technique that changes what an access drives or what state an entry rests in
//! implements [`RfTechniqueTerms`] in its own module and is registered once, in
//! [`super::TECHNIQUES`]. The accounting and the root crate's costing iterate the registered
//! implementations; neither names one.
//!
//! A technique contributes, for one run:
//! - its §8.3 event terms ([`TermSpec`]): a label, and what counts it — events it reads from its
//!   own Activity record ([`RfTechniqueTerms::events`]) or the run's cycles. The accounting writes
//!   every registered technique's terms, zero for a technique the run does not use, so that
//!   the list of overhead terms has the same labels in the same order for every run;
//! - evaluated at the design ([`RfTechniqueTerms::model`]): the energy of one event of each term
//!   ([`EventEnergy`]), the leakage of each structure it adds, the estimate leaves of those
//!   structures ([`AddedPart`]: area, the terms that make their event energy, the leakage entry
//!   that makes their leakage), and the accounting knobs it sets — a lane-gated access
//!   ([`RfTechniqueModel::lane_gating`], §4.3) or entries in power states
//!   ([`RfTechniqueModel::states`], §8.2).
//!
//! The estimate leaves these parts become replace the baseline's register-file leaf
//! (`models::gpu::Part::RegisterFile`) together with the register file's own structures; their
//! source is the analytical model.
//!
//! Order: the terms, added leakages and added parts of the techniques that change an access
//! ([`RfTechniqueKind::Access`]) come before those that change an entry's power state
//! ([`RfTechniqueKind::PowerState`]), each group in registration order, as §8.3 writes
//! `E_ovh`; a record's list of technique names is in registration order.

use super::structures::{RfDesign, RfStructures};
use super::RfError;
use crate::overlay::Overlay;
use serde::Serialize;
use sim::activity::KernelActivity;
use sim::config::GpuConfig;

/// What part of the accounting a technique changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum RfTechniqueKind {
    /// What one access drives (its dynamic energy, §4.3, §8.1).
    Access,
    /// The power state entries rest in (their leakage, §8.2).
    PowerState,
}

/// What counts one event term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Counted {
    /// Events the technique reads from the run's Activity ([`RfTechniqueTerms::events`], by
    /// the term's label).
    Events,
    /// The run's cycles (a cost per cycle).
    Cycles,
}

/// One §8.3 event term of a technique.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TermSpec {
    /// The term's label in the overhead terms (and the key of its count and energy).
    pub label: &'static str,
    /// What counts it.
    pub counted: Counted,
}

/// The energy of one event (or one cycle) of a term, J.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EventEnergy {
    /// The term's label ([`TermSpec::label`]).
    pub label: &'static str,
    /// Energy of one event, J (of one cycle of one register file for a per-cycle term).
    pub energy_j: f64,
    /// Whether the energy is per register-file copy (a per-cycle cost of one SM's structure),
    /// so that a model of several copies ([`super::accounting::RfEnergyModel::replicated`])
    /// multiplies it; an event energy is per event and does not change.
    pub per_copy: bool,
}

/// One structure a technique adds, as an estimate leaf.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AddedPart {
    /// Its name, as its leaf.
    pub name: &'static str,
    /// Area of one register file's copy, m².
    pub area_m2: f64,
    /// The event terms whose energy is its dynamic energy.
    pub dyn_terms: &'static [&'static str],
    /// The added-leakage entry that is its leakage (`None`: it does not leak on its own).
    pub leakage: Option<&'static str>,
}

/// The accounting knobs of entries kept in power states (§8.2).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct StateKnobs {
    /// ρ of a DROWSY entry's array leakage.
    pub rho_drowsy: f64,
    /// ρ of an OFF entry's array leakage.
    pub off_residual: f64,
    /// A bank's periphery gated while every entry of the bank is OFF.
    pub gate_periphery_if_bank_off: bool,
}

/// A technique evaluated at one design: what it adds to the §8 model of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RfTechniqueModel {
    /// Its kind (the order of its contributions).
    pub kind: RfTechniqueKind,
    /// The energy per event (or cycle) of each of its terms.
    pub event_energy: Vec<EventEnergy>,
    /// Leakage of each structure it adds, W, labelled (per register file).
    pub added_leakage_w: Vec<(String, f64)>,
    /// The structures it adds, as estimate leaves.
    pub added: Vec<AddedPart>,
    /// A lane-gated access: the fraction `f_fixed` of an access's energy that the lane mask
    /// does not gate (§4.3); `None` when every access drives every lane.
    pub lane_gating: Option<f64>,
    /// Entries kept in power states: the leakage ratios; `None` when every entry stays ON.
    pub states: Option<StateKnobs>,
}

/// A register-file technique's side of the §8 accounting (module doc). Implemented once per
/// technique in its own module, registered in [`super::TECHNIQUES`].
pub trait RfTechniqueTerms: Send + Sync {
    /// Its name in a record's technique list.
    fn name(&self) -> &'static str;

    /// What it changes.
    fn kind(&self) -> RfTechniqueKind;

    /// Whether `cfg` runs it.
    fn enabled(&self, cfg: &GpuConfig) -> bool;

    /// The configuration key that turns it on (`section.enabled`), for messages that refuse
    /// it.
    fn enable_key(&self) -> &'static str;

    /// Refuses knobs of it that `cfg` sets inconsistently, before anything is costed (an
    /// error naming the knob). Default: nothing to check.
    fn check(&self, cfg: &GpuConfig) -> Result<(), RfError> {
        let _ = cfg;
        Ok(())
    }

    /// Its event terms, in order.
    fn terms(&self) -> &'static [TermSpec];

    /// The counts of its [`Counted::Events`] terms in run `k` (one kernel or the aggregate),
    /// labelled, read from its own Activity record (zero, or absent, when the run has none).
    fn events(&self, k: &KernelActivity) -> Vec<(&'static str, u64)>;

    /// Units of power-state residency per register-file entry in the run's record under `cfg`
    /// (an entry's lanes when states are kept per entry lane). Default 1.
    fn units_per_entry(&self, cfg: &GpuConfig, design: &RfDesign) -> u64 {
        let _ = (cfg, design);
        1
    }

    /// Evaluates it for `cfg` at `design`, whose structures are `s`; `overlay` calibrates
    /// its control logic.
    fn model(
        &self,
        cfg: &GpuConfig,
        design: &RfDesign,
        s: &RfStructures,
        overlay: Option<&Overlay>,
    ) -> Result<RfTechniqueModel, RfError>;
}

/// The registered techniques in accounting order (module doc): those of
/// [`RfTechniqueKind::Access`], then those of [`RfTechniqueKind::PowerState`], each in
/// registration order.
pub fn accounting_order() -> impl Iterator<Item = &'static dyn RfTechniqueTerms> {
    let of = |kind: RfTechniqueKind| {
        super::TECHNIQUES
            .iter()
            .copied()
            .filter(move |t| t.kind() == kind)
    };
    of(RfTechniqueKind::Access).chain(of(RfTechniqueKind::PowerState))
}
