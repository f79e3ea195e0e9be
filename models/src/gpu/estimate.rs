//! `Estimate`: a tree of costed components (ARCHITECTURE.md, "models"), with totals and renderers.
//!
//! Every node carries its own area and energies; a node's totals are its own values plus its
//! children's. Leaves are hardware blocks; inner nodes group them (SM, memory system, chip).
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

/// One component (or group of components) of the chip.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Component or group name.
    pub name: String,
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
    /// A group node with no values of its own.
    pub fn group(name: impl Into<String>, children: Vec<Node>) -> Node {
        Node {
            name: name.into(),
            source: Source::common(children.iter().map(|c| &c.source)),
            instances: 1,
            children,
            ..Node::default()
        }
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

    /// Totals of this node and everything below it.
    pub fn totals(&self) -> Totals {
        let mut t = Totals {
            area_m2: self.area_m2,
            dynamic_j: self.dynamic_j,
            leakage_j: self.leakage_j,
            gating_overhead_j: self.gating_overhead_j,
            leakage_w: self.leakage_w,
        };
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

    /// Every number in the tree is finite and non-negative; the error names the first node and
    /// quantity (depth first) that is not.
    pub fn check_finite_nonnegative(&self) -> Result<(), NonFiniteError> {
        let mut bad = None;
        self.walk(0, &mut |_, n| {
            for (quantity, value) in [
                ("area_m2", n.area_m2),
                ("dynamic_j", n.dynamic_j),
                ("leakage_j", n.leakage_j),
                ("gating_overhead_j", n.gating_overhead_j),
                ("leakage_w", n.leakage_w),
            ] {
                if bad.is_none() && !(value.is_finite() && value >= 0.0) {
                    bad = Some(NonFiniteError {
                        node: n.name.clone(),
                        quantity,
                        value,
                    });
                }
            }
        });
        bad.map_or(Ok(()), Err)
    }
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
