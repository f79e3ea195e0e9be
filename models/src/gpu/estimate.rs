//! `Estimate`: a tree of costed components (ARCHITECTURE.md, "models"), with totals and renderers.
//!
//! Leaves are hardware blocks and carry their own area and energies; inner nodes group them
//! (SM, memory system, chip) and carry the sums of their children ([`Node::roll_up`]), so that a
//! serialised tree states every group's totals. [`Node::totals`] sums the leaves, and
//! [`Estimate::validate`] checks that every carried group value equals that sum.
//! Every node also records the [`Source`] of its numbers and what is known of that source's
//! accuracy. Rendering (tables, CSV, plots) is the front end's job; this module is data.

use serde::{Deserialize, Serialize};

/// Measured error of the SRAM model against CACTI 7 for one class of node: mean absolute
/// percentage error over the model's comparison set, per quantity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SramAccuracy {
    /// Array area.
    pub area_mape_pct: f64,
    /// Dynamic energy of one read.
    pub read_energy_mape_pct: f64,
    /// Leakage power.
    pub leakage_mape_pct: f64,
}

/// What is known of one calibrated quantity's accuracy.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum CvMape {
    /// Leave-one-out cross-validated mean absolute percentage error of the overlay's fit, %.
    Pct(f64),
    /// Fitted, but to too few synthesis points to cross-validate (the overlay records no finite
    /// CV error): accuracy unknown. Serialised as `"not cross-validated"`.
    NotCrossValidated,
    /// Not in the overlay: the analytical model supplies this quantity. Serialised as
    /// `"analytical"`.
    #[default]
    Analytical,
}

impl CvMape {
    /// From an overlay's recorded CV error (non-finite: not cross-validated).
    pub fn from_recorded(cv_mape_pct: f64) -> CvMape {
        if cv_mape_pct.is_finite() {
            CvMape::Pct(cv_mape_pct)
        } else {
            CvMape::NotCrossValidated
        }
    }
}

impl Serialize for CvMape {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            CvMape::Pct(v) => s.serialize_f64(*v),
            CvMape::NotCrossValidated => s.serialize_str("not cross-validated"),
            CvMape::Analytical => s.serialize_str("analytical"),
        }
    }
}

impl<'de> Deserialize<'de> for CvMape {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CvMape, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Pct(f64),
            Word(String),
        }
        match Either::deserialize(d)? {
            Either::Pct(v) => Ok(CvMape::Pct(v)),
            Either::Word(w) if w == "not cross-validated" => Ok(CvMape::NotCrossValidated),
            Either::Word(w) if w == "analytical" => Ok(CvMape::Analytical),
            Either::Word(w) => Err(serde::de::Error::custom(format!(
                "cv_mape_pct must be a number, \"not cross-validated\" or \"analytical\", got \"{w}\""
            ))),
        }
    }
}

/// The accuracy of a calibrated logic cost per quantity the chip model uses.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QuantityMape {
    /// Accuracy of the area.
    #[serde(default)]
    pub area_m2: CvMape,
    /// Accuracy of the leakage power.
    #[serde(default)]
    pub leakage_w: CvMape,
    /// Accuracy of the energy per operation.
    #[serde(default)]
    pub energy_per_op_j: CvMape,
}

/// Where a node's numbers come from, and how accurate that source is known to be.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    /// Gate-equivalent counts × the node's device numbers (`crate::logic::analytical`): not
    /// calibrated against synthesis; accuracy unknown.
    Analytical,
    /// The CACTI-class SRAM model (`crate::sram`), with its measured error against CACTI 7
    /// where one is recorded (`None`: unmeasured).
    SramModel {
        /// Measured error against CACTI 7; `None` (serialised `"unmeasured"`) where none is recorded.
        #[serde(with = "accuracy_or_unmeasured")]
        accuracy: Option<SramAccuracy>,
    },
    /// A calibration overlay's fit to synthesis results, with its cross-validated error.
    Calibrated {
        /// Which overlay (its file, or its node and reference point).
        overlay: String,
        /// Cross-validated error of each quantity the overlay supplies.
        cv_mape_pct: QuantityMape,
    },
    /// Published device figures (DRAM energy per bit and per activate).
    Published {
        /// The publications the figures come from.
        source: String,
    },
    /// Wire RC of the node and clock-pin capacitance (clock distribution).
    Wire,
    /// Several of the above: a group whose children differ, or a leaf that combines models
    /// (the interconnect: crossbar logic plus global wires). Also the value of a group node
    /// before [`Node::derive_sources`] has run.
    #[default]
    Mixed,
}

/// `Option<SramAccuracy>` as the accuracy figures or the string `"unmeasured"`.
mod accuracy_or_unmeasured {
    use super::SramAccuracy;
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(a: &Option<SramAccuracy>, s: S) -> Result<S::Ok, S::Error> {
        match a {
            Some(a) => a.serialize(s),
            None => s.serialize_str("unmeasured"),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<SramAccuracy>, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Figures(SramAccuracy),
            Word(String),
        }
        match Either::deserialize(d)? {
            Either::Figures(a) => Ok(Some(a)),
            Either::Word(w) if w == "unmeasured" => Ok(None),
            Either::Word(w) => Err(D::Error::custom(format!(
                "SRAM accuracy must be its figures or \"unmeasured\", got \"{w}\""
            ))),
        }
    }
}

impl Source {
    /// The source of a group: its children's common source, or [`Source::Mixed`].
    pub fn common<'a>(mut sources: impl Iterator<Item = &'a Source>) -> Source {
        let Some(first) = sources.next() else {
            return Source::Mixed;
        };
        if sources.all(|s| s == first) {
            first.clone()
        } else {
            Source::Mixed
        }
    }
}

/// Which of the chip's components a node of the estimate tree is, for the components a
/// technique's costing may replace, remove, extend or adjust ([`crate::technique::Edit`]): the
/// tree builder ([`crate::gpu::ChipModel::tree`]) tags them, so no costing code finds a node by
/// its display name. Every other node is [`Part::Other`]. Not serialised (the name is).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Part {
    /// Any component no technique addresses.
    #[default]
    Other,
    /// The group of all SMs.
    Sms,
    /// An SM's front-end group (instruction cache, fetch/decode, I-buffer).
    FrontEnd,
    /// The instruction buffer leaf.
    InstructionBuffer,
    /// An SM's issue group (warp scheduler, scoreboard).
    Issue,
    /// The scoreboard leaf.
    Scoreboard,
    /// An SM's register-file group (register file, operand collectors, crossbar).
    RegisterFileGroup,
    /// The register-file array leaf.
    RegisterFile,
    /// The operand-collector leaf.
    OperandCollectors,
    /// An SM's execution group (the unit classes below; a gated configuration's power-gating
    /// switches and controllers are appended to it).
    Execution,
    /// Execution units of the integer class (SP integer ALUs and multipliers).
    IntUnits,
    /// Execution units of the single-precision floating-point class.
    FpUnits,
    /// Special-function units.
    SfuUnits,
    /// The tensor cores' leaf (`units.n_tensor` cores of dot-product slices).
    TensorCores,
    /// The off-chip DRAM (access energy only; the board model adds its background power).
    Dram,
}

/// One component (or group of components) of the chip.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Component or group name.
    pub name: String,
    /// Which component this is, for the components techniques address ([`Part`]).
    #[serde(skip)]
    pub part: Part,
    /// Where this node's numbers come from (derived from the children for a group).
    #[serde(default)]
    pub source: Source,
    /// Instances on the chip that this node's numbers cover (already multiplied in).
    pub instances: u32,
    /// Silicon area of all instances.
    pub area_m2: f64,
    /// Switching energy over the run.
    pub dynamic_j: f64,
    /// Leakage energy over the run (per gating state when gating is modelled).
    pub leakage_j: f64,
    /// Energy spent entering and leaving gated states.
    pub gating_overhead_j: f64,
    /// Leakage power when fully powered (useful without activity).
    pub leakage_w: f64,
    /// Sub-components; empty for a leaf.
    pub children: Vec<Node>,
}

/// Sums of a subtree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// Silicon area, m².
    pub area_m2: f64,
    /// Switching energy over the run, J.
    pub dynamic_j: f64,
    /// Leakage energy over the run, J.
    pub leakage_j: f64,
    /// Energy spent entering and leaving gated states, J.
    pub gating_overhead_j: f64,
    /// Leakage power when fully powered, W.
    pub leakage_w: f64,
}

impl Totals {
    /// Total energy: dynamic + leakage + gating overhead, J.
    pub fn energy_j(&self) -> f64 {
        self.dynamic_j + self.leakage_j + self.gating_overhead_j
    }
}

impl Node {
    /// This node tagged as component `part`.
    pub fn tagged(mut self, part: Part) -> Node {
        self.part = part;
        self
    }

    /// The first node at or below this one (depth first) tagged `part`.
    pub fn find_part(&self, part: Part) -> Option<&Node> {
        if self.part == part {
            return Some(self);
        }
        self.children.iter().find_map(|c| c.find_part(part))
    }

    /// A group node carrying the sums of its children (see [`Node::roll_up`]).
    pub fn group(name: impl Into<String>, children: Vec<Node>) -> Node {
        let mut g = Node {
            name: name.into(),
            source: Source::common(children.iter().map(|c| &c.source)),
            instances: 1,
            children,
            ..Node::default()
        };
        g.roll_up();
        g
    }

    /// Sets every group node at and below this one to the sums of its children's values
    /// (bottom up); leaves keep theirs. Call after changing any leaf of a built tree.
    pub fn roll_up(&mut self) {
        if self.children.is_empty() {
            return;
        }
        for c in &mut self.children {
            c.roll_up();
        }
        let t = self.totals();
        self.area_m2 = t.area_m2;
        self.dynamic_j = t.dynamic_j;
        self.leakage_j = t.leakage_j;
        self.gating_overhead_j = t.gating_overhead_j;
        self.leakage_w = t.leakage_w;
    }

    /// Sets the source of every inner node below and including this one to the common source
    /// of its children (see [`Source::common`]); leaves keep theirs.
    pub fn derive_sources(&mut self) {
        if self.children.is_empty() {
            return;
        }
        for c in &mut self.children {
            c.derive_sources();
        }
        self.source = Source::common(self.children.iter().map(|c| &c.source));
    }

    /// Totals of this node: a leaf's own values, or the sums over a group's leaves (a group's
    /// carried values are not added in; [`Node::validate`] checks they agree).
    pub fn totals(&self) -> Totals {
        if self.children.is_empty() {
            return self.own();
        }
        let mut t = Totals::default();
        for c in &self.children {
            let ct = c.totals();
            t.area_m2 += ct.area_m2;
            t.dynamic_j += ct.dynamic_j;
            t.leakage_j += ct.leakage_j;
            t.gating_overhead_j += ct.gating_overhead_j;
            t.leakage_w += ct.leakage_w;
        }
        t
    }

    /// Depth-first visit with depth.
    pub fn walk<'a>(&'a self, depth: usize, f: &mut impl FnMut(usize, &'a Node)) {
        f(depth, self);
        for c in &self.children {
            c.walk(depth + 1, f);
        }
    }

    /// The values this node carries (a group's are its children's sums once rolled up).
    pub fn own(&self) -> Totals {
        Totals {
            area_m2: self.area_m2,
            dynamic_j: self.dynamic_j,
            leakage_j: self.leakage_j,
            gating_overhead_j: self.gating_overhead_j,
            leakage_w: self.leakage_w,
        }
    }

    /// Checks the invariants of the tree below and including this node, depth first, and
    /// names the first node (by its `/`-separated path from this node) and quantity that breaks
    /// one:
    /// - every carried quantity is finite (no NaN, no infinity) and not negative;
    /// - every group's carried quantity equals the sum of its children's within a relative
    ///   tolerance of [`SUM_REL_TOL`] (of the larger of the two; an absolute floor of
    ///   `f64::MIN_POSITIVE` lets zero equal zero);
    /// - every node's share of this node's totals (area, energy, leakage power) lies in [0, 1]
    ///   (within the same tolerance).
    pub fn validate(&self) -> Result<(), EstimateError> {
        let root = self.totals();
        // Three passes, so that the first message names the root cause: a bad number first,
        // then a stale group, then a share (which follows from the other two).
        for pass in [Pass::Numbers, Pass::Sums, Pass::Shares] {
            self.validate_at(&mut Vec::new(), &root, pass)?;
        }
        Ok(())
    }

    fn validate_at(
        &self,
        path: &mut Vec<String>,
        root: &Totals,
        pass: Pass,
    ) -> Result<(), EstimateError> {
        path.push(self.name.clone());
        let at = |path: &[String]| path.join("/");
        let quantities = |t: &Totals| {
            [
                ("area_m2", t.area_m2),
                ("dynamic_j", t.dynamic_j),
                ("leakage_j", t.leakage_j),
                ("gating_overhead_j", t.gating_overhead_j),
                ("leakage_w", t.leakage_w),
            ]
        };
        let own = self.own();
        match pass {
            Pass::Numbers => {
                for (quantity, value) in quantities(&own) {
                    if !value.is_finite() {
                        return Err(EstimateError::NotFinite {
                            path: at(path),
                            quantity,
                            value,
                        });
                    }
                    if value < 0.0 {
                        return Err(EstimateError::Negative {
                            path: at(path),
                            quantity,
                            value,
                        });
                    }
                }
            }
            Pass::Sums if !self.children.is_empty() => {
                let mut sum = Totals::default();
                for c in &self.children {
                    let o = c.own();
                    sum.area_m2 += o.area_m2;
                    sum.dynamic_j += o.dynamic_j;
                    sum.leakage_j += o.leakage_j;
                    sum.gating_overhead_j += o.gating_overhead_j;
                    sum.leakage_w += o.leakage_w;
                }
                for ((quantity, carried), (_, children_sum)) in
                    quantities(&own).into_iter().zip(quantities(&sum))
                {
                    let scale = carried.abs().max(children_sum.abs()).max(f64::MIN_POSITIVE);
                    if (carried - children_sum).abs() > SUM_REL_TOL * scale {
                        return Err(EstimateError::GroupSum {
                            path: at(path),
                            quantity,
                            carried,
                            children_sum,
                        });
                    }
                }
            }
            Pass::Sums => {}
            Pass::Shares => {
                let t = self.totals();
                for (quantity, part, whole) in [
                    ("area share", t.area_m2, root.area_m2),
                    ("energy share", t.energy_j(), root.energy_j()),
                    ("leakage power share", t.leakage_w, root.leakage_w),
                ] {
                    if whole > 0.0 {
                        let share = part / whole;
                        if !(-SUM_REL_TOL..=1.0 + SUM_REL_TOL).contains(&share) {
                            return Err(EstimateError::Share {
                                path: at(path),
                                quantity,
                                share,
                            });
                        }
                    }
                }
            }
        }
        for c in &self.children {
            c.validate_at(path, root, pass)?;
        }
        path.pop();
        Ok(())
    }

    /// Every number in the tree is finite and non-negative; the error names the first node and
    /// quantity (depth first) that is not. [`Node::validate`] checks this and more.
    pub fn check_finite_nonnegative(&self) -> Result<(), NonFiniteError> {
        match self.validate_at(&mut Vec::new(), &Totals::default(), Pass::Numbers) {
            Ok(()) => Ok(()),
            Err(EstimateError::NotFinite {
                path,
                quantity,
                value,
            })
            | Err(EstimateError::Negative {
                path,
                quantity,
                value,
            }) => Err(NonFiniteError {
                node: path.rsplit('/').next().unwrap_or_default().to_string(),
                quantity,
                value,
            }),
            Err(_) => Ok(()),
        }
    }
}

/// The passes of [`Node::validate`].
#[derive(Clone, Copy)]
enum Pass {
    Numbers,
    Sums,
    Shares,
}

/// Relative tolerance of the group-sum and share checks of [`Node::validate`]: summing a few
/// hundred doubles in a different order moves the result by far less than this.
pub const SUM_REL_TOL: f64 = 1e-9;

/// A broken invariant of an estimate, naming the node by its path from the root
/// (`chip/SMs (15)/issue/warp scheduler`) and the quantity.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EstimateError {
    /// A NaN or infinite value.
    #[error("estimate node '{path}': {quantity} is {value}, not a finite number")]
    NotFinite {
        /// Path of the node.
        path: String,
        /// The quantity (`area_m2`, `dynamic_j`, ...).
        quantity: &'static str,
        /// Its value.
        value: f64,
    },
    /// A negative area, energy or power.
    #[error("estimate node '{path}': {quantity} is {value}, negative")]
    Negative {
        /// Path of the node.
        path: String,
        /// The quantity.
        quantity: &'static str,
        /// Its value.
        value: f64,
    },
    /// A group's carried value differs from the sum of its children.
    #[error(
        "estimate node '{path}': {quantity} carried as {carried:e} but its children sum to \
         {children_sum:e} (relative tolerance {SUM_REL_TOL:e})"
    )]
    GroupSum {
        /// Path of the group.
        path: String,
        /// The quantity.
        quantity: &'static str,
        /// The group's value.
        carried: f64,
        /// The sum of its children's values.
        children_sum: f64,
    },
    /// A node's share of the whole outside [0, 1].
    #[error("estimate node '{path}': {quantity} {share} outside [0, 1]")]
    Share {
        /// Path of the node.
        path: String,
        /// Which share.
        quantity: &'static str,
        /// Its value.
        share: f64,
    },
    /// A run-level figure of the estimate (supply, clock, run time, SM use) is invalid.
    #[error("estimate '{label}': {quantity} is {value}, {why}")]
    Run {
        /// The estimate's label.
        label: String,
        /// The figure.
        quantity: &'static str,
        /// Its value.
        value: f64,
        /// What it must be.
        why: &'static str,
    },
}

/// A number in an estimate tree that is negative, infinite or NaN.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{node}: {quantity} = {value}")]
pub struct NonFiniteError {
    /// Name of the node.
    pub node: String,
    /// Which quantity (`area_m2`, `dynamic_j`, ...).
    pub quantity: &'static str,
    /// Its value.
    pub value: f64,
}

/// The breakdown of one run (one workload, or a saved Activity) at one technology point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// What ran ("hotspot", "activity.json", or "storage only").
    pub label: String,
    /// Label of the technology point costed at (`<node> <flavour>`, e.g. `finfet7 lvt`).
    pub tech: String,
    /// Supply, V.
    pub vdd_v: f64,
    /// Temperature, K.
    pub temperature_k: f64,
    /// Core clock at this supply, Hz.
    pub core_clock_hz: f64,
    /// Simulated run time; 0 for a static (area/leakage-only) estimate.
    pub runtime_s: f64,
    /// How many SMs had work, and what the leakage of SMs without work was (see [`SmUse`]).
    #[serde(default)]
    pub sm_use: SmUse,
    /// The component tree; its root is the whole chip.
    pub root: Node,
}

/// Whether an SM with no resident CTA leaks.
///
/// Real GPUs power-gate SMs that have no work (a whole SM is one gating domain, switched at
/// kernel and CTA granularity, far above any break-even time), so by default an SM's leakage is
/// charged only over the cycles in which it had at least one resident CTA
/// (`SmActivity::active_cycles`). The sleep switch's residual leakage while gated is not
/// included. `Leaking` charges every SM for the whole run, as an ungated chip would.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IdleSms {
    /// SMs without a resident CTA are power-gated: no leakage while idle.
    #[default]
    Gated,
    /// Every SM leaks for the whole run.
    Leaking,
}

/// SM utilisation of one run and the leakage it decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SmUse {
    /// SMs in the chip.
    pub sms: u32,
    /// SMs that held at least one CTA at some point of the run.
    pub busy_sms: u32,
    /// Σ over SMs of the time each had at least one resident CTA, s.
    pub powered_sm_s: f64,
    /// Policy for SMs without work.
    pub idle_sms: IdleSms,
    /// Leakage energy of the SMs' components over their idle time, J: not in the totals when
    /// `idle_sms` is `Gated` (the gated SMs' leakage avoided), in them when `Leaking`.
    pub idle_sm_leakage_j: f64,
}

impl Estimate {
    /// Totals of the whole tree.
    pub fn totals(&self) -> Totals {
        self.root.totals()
    }
    /// Total energy over the run.
    pub fn energy_j(&self) -> f64 {
        self.totals().energy_j()
    }
    /// Average power over the run; the leakage power when there is no run.
    pub fn average_power_w(&self) -> f64 {
        if self.runtime_s > 0.0 {
            self.energy_j() / self.runtime_s
        } else {
            self.totals().leakage_w
        }
    }
    /// Energy-delay product.
    pub fn edp_js(&self) -> f64 {
        self.energy_j() * self.runtime_s
    }

    /// Checks the estimate before anything prints it: the tree's invariants
    /// ([`Node::validate`]), a finite positive supply, temperature and clock, a finite
    /// non-negative run time and idle-SM leakage, and no more busy SMs than SMs.
    pub fn validate(&self) -> Result<(), EstimateError> {
        let run = |quantity: &'static str, value: f64, why: &'static str| EstimateError::Run {
            label: self.label.clone(),
            quantity,
            value,
            why,
        };
        for (quantity, value) in [
            ("vdd_v", self.vdd_v),
            ("temperature_k", self.temperature_k),
            ("core_clock_hz", self.core_clock_hz),
        ] {
            if !(value.is_finite() && value > 0.0) {
                return Err(run(quantity, value, "must be finite and positive"));
            }
        }
        for (quantity, value) in [
            ("runtime_s", self.runtime_s),
            ("powered_sm_s", self.sm_use.powered_sm_s),
            ("idle_sm_leakage_j", self.sm_use.idle_sm_leakage_j),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(run(quantity, value, "must be finite and not negative"));
            }
        }
        if self.sm_use.busy_sms > self.sm_use.sms {
            return Err(run(
                "busy_sms",
                self.sm_use.busy_sms as f64,
                "more than the chip's SMs",
            ));
        }
        self.root.validate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(name: &str, a: f64, d: f64, l: f64) -> Node {
        Node {
            name: name.into(),
            instances: 1,
            area_m2: a,
            dynamic_j: d,
            leakage_j: l,
            leakage_w: l,
            source: Source::Analytical,
            ..Node::default()
        }
    }

    #[test]
    fn totals_sum_the_tree() {
        let root = Node::group(
            "chip",
            vec![
                Node::group(
                    "sm",
                    vec![leaf("rf", 1.0, 2.0, 3.0), leaf("alu", 0.5, 1.0, 0.25)],
                ),
                leaf("l2", 2.0, 0.5, 1.0),
            ],
        );
        let t = root.totals();
        assert_eq!(t.area_m2, 3.5);
        assert_eq!(t.dynamic_j, 3.5);
        assert_eq!(t.leakage_j, 4.25);
        assert!(root.check_finite_nonnegative().is_ok());
        let mut bad = root.clone();
        bad.children[1].dynamic_j = f64::NAN;
        assert!(bad.check_finite_nonnegative().is_err());
    }

    fn sample() -> Node {
        Node::group(
            "chip",
            vec![
                Node::group(
                    "sm",
                    vec![leaf("rf", 1.0, 2.0, 3.0), leaf("alu", 0.5, 1.0, 0.25)],
                ),
                leaf("l2", 2.0, 0.5, 1.0),
            ],
        )
    }

    #[test]
    fn groups_carry_their_childrens_sums() {
        let root = sample();
        assert_eq!(root.area_m2, 3.5);
        assert_eq!(root.dynamic_j, 3.5);
        assert_eq!(root.children[0].leakage_w, 3.25);
        assert_eq!(root.totals(), root.own());
        root.validate().unwrap();
        let json: serde_json::Value = serde_json::to_value(&root).unwrap();
        assert_eq!(json["area_m2"], 3.5);
        assert_eq!(json["children"][0]["dynamic_j"], 3.0);
    }

    #[test]
    fn validate_names_the_node_path_and_quantity() {
        let mut nan = sample();
        nan.children[0].children[1].dynamic_j = f64::NAN;
        let e = nan.validate().unwrap_err();
        assert!(matches!(e, EstimateError::NotFinite { .. }), "{e}");
        assert!(e.to_string().contains("'chip/sm/alu': dynamic_j"), "{e}");

        let mut inf = sample();
        inf.children[1].area_m2 = f64::INFINITY;
        assert!(matches!(
            inf.validate(),
            Err(EstimateError::NotFinite {
                quantity: "area_m2",
                ..
            })
        ));

        let mut neg = sample();
        neg.children[1].leakage_w = -1.0;
        neg.roll_up();
        let e = neg.validate().unwrap_err();
        assert!(e.to_string().contains("'chip/l2': leakage_w is -1"), "{e}");

        // A leaf changed without rolling the groups up again: the stale sum is caught.
        let mut stale = sample();
        stale.children[0].children[0].area_m2 = 2.0;
        let e = stale.validate().unwrap_err();
        assert!(
            matches!(&e, EstimateError::GroupSum { path, quantity: "area_m2", .. } if path == "chip/sm"),
            "{e}"
        );
        stale.roll_up();
        stale.validate().unwrap();

        // Within the tolerance a reordered sum passes.
        let mut close = sample();
        close.area_m2 *= 1.0 + 1e-12;
        close.validate().unwrap();
    }

    #[test]
    fn estimate_validate_checks_the_run_figures() {
        let e = Estimate {
            label: "k".into(),
            tech: "planar45 hp".into(),
            vdd_v: 1.0,
            temperature_k: 350.0,
            core_clock_hz: 1e9,
            runtime_s: 1e-6,
            sm_use: SmUse::default(),
            root: sample(),
        };
        e.validate().unwrap();
        let mut bad = e.clone();
        bad.core_clock_hz = 0.0;
        assert!(bad
            .validate()
            .unwrap_err()
            .to_string()
            .contains("core_clock_hz"));
        let mut bad = e.clone();
        bad.runtime_s = f64::NAN;
        assert!(bad
            .validate()
            .unwrap_err()
            .to_string()
            .contains("runtime_s"));
        let mut bad = e;
        bad.sm_use.busy_sms = 3;
        assert!(bad.validate().unwrap_err().to_string().contains("busy_sms"));
    }

    #[test]
    fn group_sources_are_derived() {
        let mut sram = leaf("l2", 2.0, 0.5, 1.0);
        sram.source = Source::SramModel { accuracy: None };
        let mut root = Node::group(
            "chip",
            vec![
                Node::group(
                    "sm",
                    vec![leaf("alu", 1.0, 2.0, 3.0), leaf("mul", 0.5, 1.0, 0.25)],
                ),
                sram,
            ],
        );
        assert_eq!(root.children[0].source, Source::Analytical);
        assert_eq!(root.source, Source::Mixed);
        root.children[1].source = Source::Analytical;
        root.source = Source::Wire;
        root.derive_sources();
        assert_eq!(root.source, Source::Analytical);
        let json = serde_json::to_string(&Source::SramModel { accuracy: None }).unwrap();
        assert_eq!(json, r#"{"kind":"sram_model","accuracy":"unmeasured"}"#);
        let back: Source = serde_json::from_str(&json).unwrap();
        assert_eq!(back, Source::SramModel { accuracy: None });
    }
}
