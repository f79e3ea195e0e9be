//! The costing side of the built-in techniques, registered once: power gating (power-gating
//! §1.6, [`models::gating::cost`]), the register-file techniques ([`crate::rfcost`]), the issue
//! stage ([`crate::issuecost`]: the baseline's or an out-of-order stage's) and the DWF scheduler
//! ([`crate::dwfcost`]). Each implements [`models::technique::TechniqueCost`]; a study runs the
//! registry ([`builtin`], plus any plug-in registered after them) on every run's estimate and
//! keeps each costing's [`Record`] under its key, and each one's static side
//! ([`TechniqueCost::cost_static`]: its structures' area and leakage power without a run) on
//! the chip's static tree. Nothing else in the study names a technique.

use models::gating::cost::{cost_run, estimate_edits, hardware, ClassCost, CostPoint};
use models::gpu::Estimate;
use models::technique::{CostContext, Costing, StaticCosting, TechniqueCost};
use serde::Serialize;
use sim::activity::KernelActivity;

/// What one technique's costing records about a run, beside its edits of the tree.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Record {
    /// Power gating: per gated domain class (int, fp, sfu), the §1.6 accounting.
    Gating(Vec<ClassCost>),
    /// The register-file techniques' §8 accounting.
    Rf(crate::rfcost::RfCost),
    /// The issue stage's structures (issue-stage §4).
    Issue(crate::issuecost::IssueRun),
    /// The DWF scheduler's hardware (control-flow §5.7).
    Dwf(crate::dwfcost::DwfHardware),
    /// A plug-in's record, as JSON.
    Other(serde_json::Value),
}

/// Why a technique's costing failed (each message as the study reports it).
#[derive(Debug, thiserror::Error)]
pub enum CostingError {
    /// The power-gating model failed.
    #[error("power gating: {0}")]
    Gating(#[from] models::gating::GatingError),
    /// The register-file model failed.
    #[error("register file: {0}")]
    Rf(#[from] models::rf::RfError),
    /// The issue-stage (or DWF scheduler) model failed.
    #[error(transparent)]
    Issue(#[from] crate::issuecost::IssueError),
    /// A plug-in's costing failed.
    #[error("{technique}: {error}")]
    Other {
        /// The costing's key.
        technique: &'static str,
        /// What went wrong.
        error: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// The costings a study runs, in order.
pub type Registry = models::technique::Registry<Record, CostingError>;

/// The records of one run, in the order their costings ran; written as one JSON field per
/// record, named by its key.
#[derive(Clone, Debug, Default)]
pub struct Records(pub Vec<(&'static str, Record)>);

impl Records {
    /// The record under `key`, if its costing applied.
    pub fn get(&self, key: &str) -> Option<&Record> {
        self.0.iter().find(|(k, _)| *k == key).map(|(_, r)| r)
    }
}

impl Serialize for Records {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, r) in &self.0 {
            m.serialize_entry(k, r)?;
        }
        m.end()
    }
}

/// The built-in costings, in the order a study runs them: gating, register file, issue stage,
/// DWF scheduler (each sees the tree the ones before it edited).
pub fn builtin() -> Registry {
    let mut r = Registry::default();
    r.register(Box::new(GatingCost))
        .register(Box::new(RfCosting))
        .register(Box::new(IssueCosting))
        .register(Box::new(DwfCosting));
    r
}

/// Execution-unit power gating: the controllers' per-class record costed with the sleep
/// transistor and break-even model at the chip's clock; the classes' unit leaves keep their
/// ungated share of leakage and carry the event overhead, and every gated class's sleep
/// switches and controllers join the SMs' execution group as a leaf with their area, leakage
/// power and control energy ([`models::gating::cost::hardware`]).
struct GatingCost;

impl TechniqueCost<Record, CostingError> for GatingCost {
    fn key(&self) -> &'static str {
        "gating"
    }

    fn cost(
        &self,
        ctx: &CostContext<'_>,
        _: &Estimate,
        k: &KernelActivity,
    ) -> Result<Option<Costing<Record>>, CostingError> {
        let Some(g) = &k.gating else {
            return Ok(None);
        };
        let point = CostPoint::new(ctx.tech, ctx.chip.core_clock_hz, ctx.cfg);
        let classes = cost_run(g, &point, ctx.overlay, None)?;
        let hw = hardware(ctx.cfg, &point, ctx.overlay)?;
        Ok(Some(Costing {
            edits: estimate_edits(&classes, &hw, ctx.cfg.gpu.n_sm),
            record: Record::Gating(classes),
        }))
    }

    /// The sleep switches and controllers of every gated class (no run: no control energy).
    fn cost_static(
        &self,
        ctx: &CostContext<'_>,
        _: &Estimate,
    ) -> Result<StaticCosting, CostingError> {
        let point = CostPoint::new(ctx.tech, ctx.chip.core_clock_hz, ctx.cfg);
        let hw = hardware(ctx.cfg, &point, ctx.overlay)?;
        Ok(edits_or_unused(estimate_edits(&[], &hw, ctx.cfg.gpu.n_sm)))
    }
}

/// `edits` as a static costing: none means the configuration does not use the technique.
fn edits_or_unused(edits: Vec<models::technique::Edit>) -> StaticCosting {
    if edits.is_empty() {
        StaticCosting::Unused
    } else {
        StaticCosting::Edits(edits)
    }
}

/// The register-file techniques: the §8 accounting of [`crate::rfcost`] (register-file spec
/// §8, §9), run when a configuration turns one on.
struct RfCosting;

impl TechniqueCost<Record, CostingError> for RfCosting {
    fn key(&self) -> &'static str {
        "rf"
    }

    fn cost(
        &self,
        ctx: &CostContext<'_>,
        e: &Estimate,
        k: &KernelActivity,
    ) -> Result<Option<Costing<Record>>, CostingError> {
        let got = crate::rfcost::cost_with_edit(
            ctx.cfg,
            ctx.energy,
            ctx.tech,
            ctx.chip,
            k,
            ctx.overlay,
            e,
        )?;
        Ok(got.map(|(rf, edit)| Costing {
            edits: vec![edit],
            record: Record::Rf(rf),
        }))
    }

    /// The structures of the register-file techniques on, every entry powered.
    fn cost_static(
        &self,
        ctx: &CostContext<'_>,
        _: &Estimate,
    ) -> Result<StaticCosting, CostingError> {
        let edit =
            crate::rfcost::static_edit(ctx.cfg, ctx.energy, ctx.tech, ctx.chip, ctx.overlay)?;
        Ok(edits_or_unused(edit.into_iter().collect()))
    }
}

/// The issue stage: the baseline's I-buffer and scoreboards, or an out-of-order stage's
/// structures in their place ([`crate::issuecost`]). Always applies.
struct IssueCosting;

impl TechniqueCost<Record, CostingError> for IssueCosting {
    fn key(&self) -> &'static str {
        "issue"
    }

    fn cost(
        &self,
        ctx: &CostContext<'_>,
        e: &Estimate,
        k: &KernelActivity,
    ) -> Result<Option<Costing<Record>>, CostingError> {
        let (run, edits) = crate::issuecost::cost_with_edits(
            models::issue::STAGES,
            ctx.cfg,
            ctx.source,
            ctx.chip,
            k,
            e,
        )?;
        Ok(Some(Costing {
            edits,
            record: Record::Issue(run),
        }))
    }

    fn finish(&self, record: &mut Record, e: &Estimate) {
        if let Record::Issue(run) = record {
            crate::issuecost::finish(run, e);
        }
    }

    /// An out-of-order issue stage's structures in place of the leaves they replace: the
    /// edits of a run with no counts over no time (area and leakage power need no counts).
    fn cost_static(
        &self,
        ctx: &CostContext<'_>,
        e: &Estimate,
    ) -> Result<StaticCosting, CostingError> {
        let (_, edits) = crate::issuecost::cost_with_edits(
            models::issue::STAGES,
            ctx.cfg,
            ctx.source,
            ctx.chip,
            &KernelActivity::empty("static"),
            e,
        )?;
        Ok(edits_or_unused(edits))
    }
}

/// The DWF scheduler's hardware of a DWF run ([`crate::dwfcost`]).
struct DwfCosting;

impl TechniqueCost<Record, CostingError> for DwfCosting {
    fn key(&self) -> &'static str {
        "dwf"
    }

    fn cost(
        &self,
        ctx: &CostContext<'_>,
        e: &Estimate,
        k: &KernelActivity,
    ) -> Result<Option<Costing<Record>>, CostingError> {
        let got = crate::dwfcost::cost_with_edit(ctx.cfg, ctx.source, ctx.chip, k, e)
            .map_err(crate::issuecost::IssueError::from)?;
        Ok(got.map(|(h, edit)| Costing {
            edits: vec![edit],
            record: Record::Dwf(h),
        }))
    }

    /// The DWF scheduler's structures of a DWF configuration.
    fn cost_static(
        &self,
        ctx: &CostContext<'_>,
        e: &Estimate,
    ) -> Result<StaticCosting, CostingError> {
        let edit = crate::dwfcost::static_edit(ctx.cfg, ctx.source, ctx.chip, e)
            .map_err(crate::issuecost::IssueError::from)?;
        Ok(edits_or_unused(edit.into_iter().collect()))
    }
}
