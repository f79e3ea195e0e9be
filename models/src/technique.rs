//! The costing side of a technique: given one run's Activity and the technology point, a
//! technique's costing returns the estimate leaves of the hardware it adds, with their
//! [`Source`](crate::gpu::Source), and says which baseline components they replace — as typed
//! [`Edit`]s on the components the tree builder tags ([`Part`]), never by a node's display name.
//!
//! A study keeps the costings in a [`Registry`] and runs every one of them, in registration
//! order, on each run's estimate ([`Registry::cost`]): the built-in techniques (power gating,
//! the register-file techniques, the issue stage, the DWF scheduler) are registered exactly as a
//! plug-in is, and the study's core names none of them.

use crate::gpu::{ChipModel, Estimate, Node, Part, TechCostSource};
use crate::overlay::Overlay;
use sim::config::GpuConfig;
use techlib::ResolvedPoint;

/// What every costing is given besides the run: the machine, the energy-accounting switches,
/// the technology point (as chosen and as evaluated) and the chip model built there.
#[derive(Clone, Copy)]
pub struct CostContext<'a> {
    /// The configuration the run was simulated on.
    pub cfg: &'a GpuConfig,
    /// The energy-accounting switches (`[energy]` of the configuration file).
    pub energy: &'a crate::energy_section::EnergySection,
    /// The technology point as chosen (node, flavour, supply, temperature).
    pub tech: &'a ResolvedPoint,
    /// The same point evaluated: devices, wires, SRAM technology, logic overlay.
    pub source: &'a TechCostSource,
    /// The chip model at that point (core clock, SM count, component costs).
    pub chip: &'a ChipModel,
    /// The logic calibration overlay, when the study has one.
    pub overlay: Option<&'a Overlay>,
}

/// Builds the nodes that replace one node ([`Edit::Replace`]).
pub type ReplaceFn = Box<dyn FnMut(&Node) -> Vec<Node>>;

/// Adjusts all matching nodes at once ([`Edit::Adjust`]).
pub type AdjustFn = Box<dyn FnMut(&mut [&mut Node])>;

/// One change a technique's costing makes to the baseline estimate tree.
pub enum Edit {
    /// Each node tagged `part` gives way, in place, to the nodes `with` builds from it (the
    /// replaced node's instances, source and powered share carry over however `with` says).
    Replace {
        /// The baseline component replaced.
        part: Part,
        /// The replacement of one such node, given that node.
        with: ReplaceFn,
    },
    /// Every node tagged `part` is removed (its job is done by structures the technique adds).
    Remove(Part),
    /// `nodes` are appended to the children of every node tagged `parent`.
    Append {
        /// The group that receives the nodes.
        parent: Part,
        /// The nodes added.
        nodes: Vec<Node>,
    },
    /// `f` adjusts all nodes tagged with one of `parts` at once (e.g. scales their leakage and
    /// adds a gating overhead split by leakage share).
    Adjust {
        /// The components adjusted.
        parts: Vec<Part>,
        /// The adjustment, given every matching node in tree order.
        f: AdjustFn,
    },
}

/// What a technique's costing gives for one run: its edits of the estimate tree and its own
/// record (the figures a report shows beside the tree).
pub struct Costing<R> {
    /// The tree edits, applied in order.
    pub edits: Vec<Edit>,
    /// The technique's record of the run.
    pub record: R,
}

/// What a technique's costing puts into the static tree of a chip (its area and leakage
/// without a run: `estimate --static`).
pub enum StaticCosting {
    /// The configuration does not use the technique.
    Unused,
    /// The edits that put its structures into the tree: their area and their leakage power
    /// with every block powered (`leakage_w`), no energy.
    Edits(Vec<Edit>),
    /// Its structures cannot be costed without a run; says why.
    NeedsRun(String),
}

/// Why the static costings of a registry gave no tree.
#[derive(Debug)]
pub enum StaticError<E> {
    /// A costing failed.
    Costing(E),
    /// The costing keyed `technique` cannot cost its structures without a run, for `reason`.
    NeedsRun {
        /// The costing's key.
        technique: &'static str,
        /// Why.
        reason: String,
    },
}

/// The costing side of one technique (or family of techniques that share hardware). `R` is the
/// record type a study stores, `E` its error type.
pub trait TechniqueCost<R, E>: Send + Sync {
    /// The name its record carries in a study's output (`"rf"`, `"issue"`, …).
    fn key(&self) -> &'static str;

    /// Costs run `k` on `estimate` (the tree so far: the baseline with the edits of the costings
    /// registered before this one). `Ok(None)` when the configuration does not use the
    /// technique.
    fn cost(
        &self,
        ctx: &CostContext<'_>,
        estimate: &Estimate,
        k: &sim::activity::KernelActivity,
    ) -> Result<Option<Costing<R>>, E>;

    /// Completes `record` once the edits are applied, for figures that depend on the edited
    /// tree (an SM's area with the technique's structures in it). Default: nothing to do.
    fn finish(&self, record: &mut R, estimate: &Estimate) {
        let _ = (record, estimate);
    }

    /// The technique's structures in the static tree `estimate` of the chip (no run; the
    /// tree so far, edited by the costings registered before this one): the same leaves with
    /// the same area and leakage power as in a run's tree, without energy.
    ///
    /// Default, for a costing that gives its structures only from a run: its [`cost`] of a
    /// run with no counts ([`sim::activity::KernelActivity::empty`]) says whether the
    /// configuration uses it ([`StaticCosting::Unused`]); if it does, the structures cannot be
    /// costed without a run ([`StaticCosting::NeedsRun`]).
    ///
    /// [`cost`]: TechniqueCost::cost
    fn cost_static(&self, ctx: &CostContext<'_>, estimate: &Estimate) -> Result<StaticCosting, E> {
        let k = sim::activity::KernelActivity::empty("static");
        Ok(match self.cost(ctx, estimate, &k)? {
            None => StaticCosting::Unused,
            Some(_) => StaticCosting::NeedsRun(
                "its costing gives its structures only from a run's counters".into(),
            ),
        })
    }
}

/// The costings of a study, in the order they run.
pub struct Registry<R, E> {
    costings: Vec<Box<dyn TechniqueCost<R, E>>>,
}

impl<R, E> Default for Registry<R, E> {
    fn default() -> Self {
        Registry {
            costings: Vec::new(),
        }
    }
}

impl<R, E> Registry<R, E> {
    /// Adds `c` after the costings already registered.
    pub fn register(&mut self, c: Box<dyn TechniqueCost<R, E>>) -> &mut Self {
        self.costings.push(c);
        self
    }

    /// The keys of the registered costings, in order.
    pub fn keys(&self) -> Vec<&'static str> {
        self.costings.iter().map(|c| c.key()).collect()
    }

    /// Runs every costing on `e` in order, applying each one's edits before the next runs, and
    /// returns the records of those that applied, keyed.
    pub fn cost(
        &self,
        ctx: &CostContext<'_>,
        e: &mut Estimate,
        k: &sim::activity::KernelActivity,
    ) -> Result<Vec<(&'static str, R)>, E> {
        let mut out = Vec::new();
        for c in &self.costings {
            if let Some(mut costing) = c.cost(ctx, e, k)? {
                apply(e, costing.edits);
                c.finish(&mut costing.record, e);
                out.push((c.key(), costing.record));
            }
        }
        Ok(out)
    }

    /// Runs every costing's [`TechniqueCost::cost_static`] on the static tree `e` in order,
    /// applying each one's edits before the next runs; returns the keys of those that applied.
    pub fn cost_static(
        &self,
        ctx: &CostContext<'_>,
        e: &mut Estimate,
    ) -> Result<Vec<&'static str>, StaticError<E>> {
        let mut out = Vec::new();
        for c in &self.costings {
            match c.cost_static(ctx, e).map_err(StaticError::Costing)? {
                StaticCosting::Unused => {}
                StaticCosting::Edits(edits) => {
                    apply(e, edits);
                    out.push(c.key());
                }
                StaticCosting::NeedsRun(reason) => {
                    return Err(StaticError::NeedsRun {
                        technique: c.key(),
                        reason,
                    })
                }
            }
        }
        Ok(out)
    }
}

/// Applies `edits` to `e` in order, then rolls the group sums up (no-op without edits).
pub fn apply(e: &mut Estimate, edits: Vec<Edit>) {
    if edits.is_empty() {
        return;
    }
    for edit in edits {
        match edit {
            Edit::Replace { part, mut with } => replace(&mut e.root, part, &mut *with),
            Edit::Remove(part) => remove(&mut e.root, part),
            Edit::Append { parent, nodes } => append(&mut e.root, parent, &nodes),
            Edit::Adjust { parts, mut f } => {
                let mut hits = Vec::new();
                collect(&mut e.root, &parts, &mut hits);
                f(&mut hits);
            }
        }
    }
    e.root.roll_up();
}

fn replace(n: &mut Node, part: Part, with: &mut dyn FnMut(&Node) -> Vec<Node>) {
    let mut i = 0;
    while i < n.children.len() {
        if n.children[i].part == part {
            let old = n.children.remove(i);
            let new = with(&old);
            let k = new.len();
            for (j, c) in new.into_iter().enumerate() {
                n.children.insert(i + j, c);
            }
            i += k;
        } else {
            replace(&mut n.children[i], part, with);
            i += 1;
        }
    }
}

fn remove(n: &mut Node, part: Part) {
    n.children.retain(|c| c.part != part);
    for c in &mut n.children {
        remove(c, part);
    }
}

fn append(n: &mut Node, parent: Part, nodes: &[Node]) {
    for c in &mut n.children {
        append(c, parent, nodes);
    }
    if n.part == parent {
        n.children.extend(nodes.iter().cloned());
    }
}

fn collect<'a>(n: &'a mut Node, parts: &[Part], out: &mut Vec<&'a mut Node>) {
    if parts.contains(&n.part) {
        out.push(n);
        return;
    }
    for c in &mut n.children {
        collect(c, parts, out);
    }
}

/// A knob of the machine that a technique derives from the technology point before a run
/// (the simulator sees only the derived integer), registered once (the register-file
/// techniques' in [`crate::rf::DERIVED_TIMINGS`]);
/// `Study::timed_config` and the commands that note the value reach it only through this
/// trait.
pub trait DerivedTiming: Sync {
    /// Whether `cfg` asks for the derivation.
    fn wanted(&self, cfg: &GpuConfig) -> bool;

    /// Derives the knob of `cfg` at technology point `point` with `chip` (its supply and core
    /// clock) and writes it into `cfg`; returns one line describing the value at technology
    /// label `tech`, or `None` when nothing was derived. An error names the knob.
    fn derive(
        &self,
        point: &techlib::ResolvedPoint,
        chip: &ChipModel,
        cfg: &mut GpuConfig,
        tech: &str,
    ) -> Result<Option<String>, String>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::Node;

    fn leaf(name: &str, part: Part, area_m2: f64) -> Node {
        Node {
            name: name.into(),
            instances: 1,
            area_m2,
            ..Node::default()
        }
        .tagged(part)
    }

    fn estimate() -> Estimate {
        let rf = Node::group(
            "register file",
            vec![
                leaf("register file", Part::RegisterFile, 4.0),
                leaf("operand collectors", Part::OperandCollectors, 1.0),
            ],
        )
        .tagged(Part::RegisterFileGroup);
        let issue = Node::group(
            "issue",
            vec![
                leaf("warp scheduler", Part::Other, 1.0),
                leaf("scoreboard", Part::Scoreboard, 2.0),
            ],
        )
        .tagged(Part::Issue);
        let sms = Node::group("SMs (1)", vec![rf, issue]).tagged(Part::Sms);
        Estimate {
            label: "t".into(),
            tech: "t".into(),
            vdd_v: 1.0,
            temperature_k: 300.0,
            core_clock_hz: 1e9,
            runtime_s: 1.0,
            sm_use: Default::default(),
            root: Node::group("chip", vec![sms]),
        }
    }

    #[test]
    fn edits_find_components_by_part_and_roll_up() {
        let mut e = estimate();
        assert_eq!(e.root.area_m2, 8.0);
        apply(
            &mut e,
            vec![
                Edit::Replace {
                    part: Part::RegisterFile,
                    with: Box::new(|old: &Node| {
                        vec![
                            leaf("FRF", Part::Other, old.area_m2 / 4.0),
                            leaf("SRF", Part::Other, old.area_m2 / 2.0),
                        ]
                    }),
                },
                Edit::Remove(Part::Scoreboard),
                Edit::Append {
                    parent: Part::Issue,
                    nodes: vec![leaf("dependence matrix", Part::Other, 0.5)],
                },
                Edit::Adjust {
                    parts: vec![Part::OperandCollectors],
                    f: Box::new(|ns: &mut [&mut Node]| {
                        for n in ns.iter_mut() {
                            n.area_m2 *= 2.0;
                        }
                    }),
                },
            ],
        );
        let names: Vec<String> = {
            let mut v = Vec::new();
            e.root.walk(0, &mut |_, n| v.push(n.name.clone()));
            v
        };
        assert!(names.contains(&"FRF".to_string()) && names.contains(&"SRF".to_string()));
        assert!(!names.contains(&"scoreboard".to_string()));
        // the group keeps its name; the register-file leaf went
        assert!(e.root.find_part(Part::RegisterFile).is_none());
        let rf = e.root.find_part(Part::RegisterFileGroup).unwrap();
        assert_eq!(
            rf.children[0].name, "FRF",
            "replacement sits where the leaf was"
        );
        // 1 + 2 (RF) + 2 (collectors, doubled) + 1 (scheduler) + 0.5 (added)
        assert_eq!(e.root.area_m2, 6.5);
        e.validate().unwrap();
    }

    struct Fixed(&'static str, bool);
    impl TechniqueCost<f64, String> for Fixed {
        fn key(&self) -> &'static str {
            self.0
        }
        fn cost(
            &self,
            _: &CostContext<'_>,
            e: &Estimate,
            _: &sim::activity::KernelActivity,
        ) -> Result<Option<Costing<f64>>, String> {
            if !self.1 {
                return Ok(None);
            }
            Ok(Some(Costing {
                edits: vec![Edit::Remove(Part::Scoreboard)],
                record: e.root.area_m2,
            }))
        }
    }

    #[test]
    fn registry_runs_costings_in_order_on_the_edited_tree() {
        let mut r: Registry<f64, String> = Registry::default();
        r.register(Box::new(Fixed("a", true)))
            .register(Box::new(Fixed("off", false)))
            .register(Box::new(Fixed("b", true)));
        assert_eq!(r.keys(), ["a", "off", "b"]);
        let mut e = estimate();
        let k = sim::activity::KernelActivity::empty("t");
        let cfg = sim::config::GpuConfig::preset("gtx480").unwrap();
        let tech = techlib::ResolvedPoint::named("planar45").unwrap();
        let source = TechCostSource::new(&tech, None).unwrap();
        let chip = ChipModel::build(&cfg, &source).unwrap();
        let energy = crate::energy_section::EnergySection::default();
        let ctx = CostContext {
            cfg: &cfg,
            energy: &energy,
            tech: &tech,
            source: &source,
            chip: &chip,
            overlay: None,
        };
        let recs = r.cost(&ctx, &mut e, &k).unwrap();
        // "b" sees the tree after "a" removed the scoreboard; "off" leaves no record
        assert_eq!(recs, vec![("a", 8.0), ("b", 6.0)]);
        // without a static form of its own, a costing that applies refuses a static tree,
        // one that does not apply is left out
        let mut e = estimate();
        match r.cost_static(&ctx, &mut e) {
            Err(StaticError::NeedsRun { technique, .. }) => assert_eq!(technique, "a"),
            other => panic!("{:?}", other.map_err(|_| ())),
        }
        let mut off: Registry<f64, String> = Registry::default();
        off.register(Box::new(Fixed("off", false)));
        let mut e = estimate();
        assert_eq!(off.cost_static(&ctx, &mut e).unwrap(), Vec::<&str>::new());
        assert_eq!(e.root.area_m2, 8.0);
    }
}
