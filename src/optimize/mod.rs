//! `optimize`: choose the techniques and their knobs that minimise energy (or EDP, ED²P) over
//! a workload suite under an area budget and a slowdown cap.
//!
//! # Method
//! 1. **Candidates.** The decision space ([`space`]) is a set of groups (gating, register
//!    file, issue stage), each a list of mutually exclusive options with "off" first. Every
//!    option is evaluated alone against the baseline by simulating every workload and costing
//!    it with the estimate pipeline of `compare` ([`evaluate::SimEvaluator`]); Activity
//!    records are cached on disk by a hash of the simulated configuration ([`cache`]), so a
//!    re-run, or a re-costing at a continuous value that leaves the simulated integers alone,
//!    simulates nothing.
//! 2. **Continuous knobs.** Inside each option with a continuous knob (switch scale `s`,
//!    V_SRF) a golden-section search ([`continuous`]) finds the best value under the caps.
//! 3. **MILP.** The discrete choice is a one-hot MILP over the options with additive
//!    single-option changes ([`milp`]), solved by `good_lp`'s `microlp`.
//! 4. **Verification.** The MILP's combination is simulated in full. The verified point is
//!    added to what is known (its combination is excluded from later MILPs by a no-good cut)
//!    and the largest disagreement seen between prediction and verification (objective,
//!    slowdown, area) widens the margins: later MILPs relax the caps by the slowdown and area
//!    margins. A verified combination of exactly two options teaches the MILP that pair's
//!    interaction (verified − additive), which corrects the prediction of every later
//!    combination that holds the pair (with three or more groups; with two, the pair is that
//!    one combination and its no-good cut already covers it) ([`milp`] "Learned pair
//!    corrections"). The search stops when the MILP's best unverified combination is not
//!    predicted to beat the best verified design by more than the objective margin (the
//!    largest prediction error seen so far; 0 while every prediction was exact), when no
//!    combination is left, or after the iteration limit. The answer is
//!    the best verified design that meets the caps, so it is never a prediction.
//!
//! Infeasibility: with a positive budget, when options exist that save but none of them meets
//! the caps, the result is an error naming the binding constraint (the area budget against the
//! cheapest saving option, or the slowdown cap against the least-stalling one). A budget of 0
//! returns the baseline.

/// The Activity cache of `optimize` ([`crate::activity_cache`]), at its historical path.
pub use crate::activity_cache as cache;
pub mod continuous;
pub mod evaluate;
pub mod milp;
pub mod pareto;
pub mod report;
pub mod space;

use continuous::Caps;
use evaluate::{EvalError, Evaluator, Metrics, Objective};
use rayon::prelude::*;
use serde::Serialize;
use space::{Design, Space};

/// What to optimise and under which caps.
#[derive(Clone, Copy, Debug)]
pub struct Problem {
    /// Minimised quantity.
    pub objective: Objective,
    /// Area everything added may take, mm².
    pub area_cap_mm2: f64,
    /// Largest slowdown (mean `T/T_baseline − 1`).
    pub slowdown_cap: f64,
    /// Prediction error (fraction of the baseline's objective) above which an iteration is
    /// reported as an interaction beyond the tolerance.
    pub tolerance: f64,
    /// Verification iterations at most.
    pub max_iterations: usize,
    /// Golden-section steps per continuous search at most.
    pub golden_iterations: u64,
}

impl Problem {
    /// `objective` under the caps, with the defaults: tolerance 1 %, 8 iterations, 12
    /// golden-section steps.
    pub fn new(objective: Objective, area_cap_mm2: f64, slowdown_cap: f64) -> Problem {
        Problem {
            objective,
            area_cap_mm2,
            slowdown_cap,
            tolerance: 0.01,
            max_iterations: 8,
            golden_iterations: 12,
        }
    }

    fn caps(&self) -> Caps {
        Caps {
            area_mm2: self.area_cap_mm2,
            slowdown: self.slowdown_cap,
        }
    }

    /// `m` meets the caps.
    pub fn feasible(&self, m: &Metrics) -> bool {
        m.added_area_mm2 <= self.area_cap_mm2 * (1.0 + 1e-9) + 1e-12
            && m.slowdown <= self.slowdown_cap + 1e-9
    }
}

/// Why the optimiser gave no design.
#[derive(Debug, thiserror::Error)]
pub enum OptError {
    /// An evaluation failed.
    #[error(transparent)]
    Eval(#[from] EvalError),
    /// No saving design meets the caps.
    #[error("infeasible: {0}")]
    Infeasible(String),
    /// The MILP solver failed.
    #[error("{0}")]
    Milp(String),
}

/// One evaluated design.
#[derive(Clone, Debug, Serialize)]
pub struct Evaluated {
    /// Its name.
    pub name: String,
    /// The design.
    pub design: Design,
    /// Its verified numbers.
    pub metrics: Metrics,
    /// It meets the caps.
    pub feasible: bool,
}

/// One verification iteration.
#[derive(Clone, Debug, Serialize)]
pub struct Iteration {
    /// The combination the MILP chose.
    pub name: String,
    /// Its design.
    pub design: Design,
    /// The additive prediction.
    pub predicted: Metrics,
    /// The full simulation (`None` when it could not be built or run).
    pub verified: Option<Metrics>,
    /// `|f_verified − f_predicted| / f_baseline`.
    pub objective_error: Option<f64>,
    /// The verified design meets the caps.
    pub feasible: bool,
    /// What happened.
    pub note: String,
}

/// The optimiser's answer.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// The baseline's numbers.
    pub baseline: Metrics,
    /// The chosen design.
    pub chosen: Design,
    /// Its name.
    pub chosen_name: String,
    /// Its predicted numbers (the additive model; equal to the verified ones for the baseline
    /// and single options, which were simulated as they are).
    pub predicted: Metrics,
    /// Its verified numbers.
    pub verified: Metrics,
    /// Each option alone at its searched continuous value.
    pub singles: Vec<Evaluated>,
    /// The verification iterations.
    pub iterations: Vec<Iteration>,
    /// Every design simulated (single options at every searched value included).
    pub evaluated: Vec<Evaluated>,
    /// The searched continuous value of each option (`[group][option]`).
    pub knob_values: Vec<Vec<Option<f64>>>,
    /// Why the search stopped.
    pub stop: String,
    /// Ctrl-C ended the search: the chosen design is the best verified so far.
    pub interrupted: bool,
}

/// One option alone: its design (knob at the searched value), its numbers (or why it could not
/// be evaluated) and every point its search evaluated.
type Single = (Design, Result<Metrics, String>, Vec<Evaluated>);

/// `a − b`, field by field.
fn difference(a: &Metrics, b: &Metrics) -> Metrics {
    Metrics {
        energy_j: a.energy_j - b.energy_j,
        edp_js: a.edp_js - b.edp_js,
        ed2p_js2: a.ed2p_js2 - b.ed2p_js2,
        runtime_s: a.runtime_s - b.runtime_s,
        area_mm2: a.area_mm2 - b.area_mm2,
        added_area_mm2: a.added_area_mm2 - b.added_area_mm2,
        slowdown: a.slowdown - b.slowdown,
    }
}

/// `m` with the learned interactions of every pair of options `pick` turns on added.
fn with_pairs(m: &Metrics, pick: &[usize], learned: &[(space::OptionPair, Metrics)]) -> Metrics {
    let mut out = *m;
    for (((ga, oa), (gb, ob)), r) in learned {
        if pick[*ga] == *oa && pick[*gb] == *ob {
            out.energy_j += r.energy_j;
            out.edp_js += r.edp_js;
            out.ed2p_js2 += r.ed2p_js2;
            out.runtime_s += r.runtime_s;
            out.area_mm2 += r.area_mm2;
            out.added_area_mm2 += r.added_area_mm2;
            out.slowdown += r.slowdown;
        }
    }
    out
}

fn additive(base: &Metrics, singles: &[&Metrics]) -> Metrics {
    let mut m = *base;
    for s in singles {
        m.energy_j += s.energy_j - base.energy_j;
        m.edp_js += s.edp_js - base.edp_js;
        m.ed2p_js2 += s.ed2p_js2 - base.ed2p_js2;
        m.runtime_s += s.runtime_s - base.runtime_s;
        m.area_mm2 += s.area_mm2 - base.area_mm2;
        m.added_area_mm2 += s.added_area_mm2;
        m.slowdown += s.slowdown;
    }
    m
}

/// Option `o` of group `g` alone on the baseline design (steps 1-2 of the module doc): its
/// continuous knob searched where it has one, else one evaluation; the design, its metrics (or
/// why it could not be evaluated) and every point evaluated.
fn single(
    space: &Space,
    ev: &dyn Evaluator,
    p: &Problem,
    base_design: &Design,
    base: &Metrics,
    g: usize,
    o: usize,
) -> Result<Single, EvalError> {
    let mut d = base_design.clone();
    d.pick[g] = o;
    match &space.groups[g].options[o].knob {
        Some(k) => {
            let s = continuous::search(
                ev,
                &d,
                g,
                k,
                p.objective,
                base,
                p.caps(),
                p.golden_iterations,
            )?;
            d.value[g] = Some(s.value);
            let pts = s
                .points
                .iter()
                .map(|(x, m)| {
                    let mut e = d.clone();
                    e.value[g] = Some(*x);
                    Evaluated {
                        name: space.name(&e),
                        design: e,
                        metrics: *m,
                        feasible: p.feasible(m),
                    }
                })
                .collect();
            Ok((d, s.metrics, pts))
        }
        None => match ev.evaluate(&d) {
            Err(EvalError::Interrupted) => Err(EvalError::Interrupted),
            r => {
                let r = r.map_err(|e| e.to_string());
                let pts = match &r {
                    Ok(m) => vec![Evaluated {
                        name: space.name(&d),
                        design: d.clone(),
                        metrics: *m,
                        feasible: p.feasible(m),
                    }],
                    Err(_) => Vec::new(),
                };
                Ok((d, r, pts))
            }
        },
    }
}

/// `v` for every option of every group of `space`.
fn per_option<T: Clone>(space: &Space, v: T) -> Vec<Vec<T>> {
    space
        .groups
        .iter()
        .map(|g| vec![v.clone(); g.options.len()])
        .collect()
}

/// The metrics of each option `pick` turns on, alone ([`single`]), where they were evaluated.
fn option_metrics<'a>(pick: &[usize], single_m: &'a [Vec<Option<Metrics>>]) -> Vec<&'a Metrics> {
    pick.iter()
        .enumerate()
        .filter(|(_, &o)| o > 0)
        .filter_map(|(g, &o)| single_m[g][o].as_ref())
        .collect()
}

/// After verifying design `d` at `m`: when it combines exactly two options, what the additive
/// model (`additive_only`) missed is the pair's interaction; it is learned and added to the
/// MILP `inst` (objective `f`, normalised).
fn learn_pair(
    d: &Design,
    m: &Metrics,
    additive_only: &Metrics,
    f: &dyn Fn(&Metrics) -> f64,
    learned: &mut Vec<(space::OptionPair, Metrics)>,
    inst: &mut milp::Instance,
) {
    let on: Vec<(usize, usize)> = d
        .pick
        .iter()
        .enumerate()
        .filter(|(_, &o)| o > 0)
        .map(|(g, &o)| (g, o))
        .collect();
    if let [a, b] = on[..] {
        // a two-option combination: what the additive model missed is the pair's
        let r = difference(m, additive_only);
        learned.push(((a, b), r));
        inst.interactions.push((
            (a, b),
            milp::Column {
                objective: f(m) - f(additive_only),
                area_mm2: r.added_area_mm2,
                slowdown: r.slowdown,
            },
        ));
    }
}

/// Runs the method of the module doc on `space` with `ev`; `conflicts` are the option pairs
/// that cannot be combined ([`Space::conflicts`]).
pub fn optimize(
    space: &Space,
    ev: &dyn Evaluator,
    p: &Problem,
    conflicts: &[space::OptionPair],
) -> Result<Outcome, OptError> {
    let n = space.groups.len();
    let base = ev.baseline()?;
    let fb = p.objective.of(&base).max(f64::MIN_POSITIVE);
    let f = |m: &Metrics| p.objective.of(m) / fb;
    let base_design = Design::baseline(n);
    let mut evaluated = vec![Evaluated {
        name: "baseline".into(),
        design: base_design.clone(),
        metrics: base,
        feasible: true,
    }];
    // 1-2: each option alone, its continuous knob searched
    let opts: Vec<(usize, usize)> = (0..n)
        .flat_map(|g| (1..space.groups[g].options.len()).map(move |o| (g, o)))
        .collect();
    let singles_raw: Vec<Result<Single, EvalError>> = opts
        .par_iter()
        .map(|&(g, o)| single(space, ev, p, &base_design, &base, g, o))
        .collect();
    let mut interrupted = false;
    let mut knob_values: Vec<Vec<Option<f64>>> = per_option(space, None);
    let mut inst = milp::Instance {
        groups: per_option(space, milp::Column::default()),
        conflicts: conflicts.to_vec(),
        excluded: vec![base_design.pick.clone()],
        forbidden: Vec::new(),
        interactions: Vec::new(),
        area_cap_mm2: p.area_cap_mm2,
        slowdown_cap: p.slowdown_cap,
    };
    let mut single_m: Vec<Vec<Option<Metrics>>> = per_option(space, None);
    let mut singles = Vec::new();
    let mut verified: Vec<(Design, Metrics)> = vec![(base_design.clone(), base)];
    for (&(g, o), r) in opts.iter().zip(singles_raw) {
        match r {
            Err(EvalError::Interrupted) => {
                interrupted = true;
                inst.forbidden.push((g, o));
            }
            Err(e) => return Err(e.into()),
            Ok((d, m, pts)) => {
                evaluated.extend(pts);
                knob_values[g][o] = d.value[g];
                match m {
                    Ok(m) => {
                        inst.groups[g][o] = milp::Column {
                            objective: f(&m) - 1.0,
                            area_mm2: m.added_area_mm2,
                            slowdown: m.slowdown,
                        };
                        single_m[g][o] = Some(m);
                        inst.excluded.push(d.pick.clone());
                        singles.push(Evaluated {
                            name: space.name(&d),
                            design: d.clone(),
                            metrics: m,
                            feasible: p.feasible(&m),
                        });
                        verified.push((d, m));
                    }
                    Err(_) => inst.forbidden.push((g, o)),
                }
            }
        }
    }
    // 3-4: MILP and verification
    let best_verified = |v: &[(Design, Metrics)]| -> (Design, Metrics) {
        let mut best = v[0].clone();
        for (d, m) in v {
            if p.feasible(m) && f(m) < f(&best.1) {
                best = (d.clone(), *m);
            }
        }
        best
    };
    let (mut obj_margin, mut slow_margin, mut area_margin) = (0.0_f64, 0.0_f64, 0.0_f64);
    // learned pair interactions: (pair, verified − additive metrics)
    let mut learned: Vec<(space::OptionPair, Metrics)> = Vec::new();
    let mut iterations = Vec::new();
    let mut stop = String::from("iteration limit reached");
    for _ in 0..p.max_iterations {
        if interrupted {
            stop = "interrupted".into();
            break;
        }
        let mut relaxed = inst.clone();
        relaxed.area_cap_mm2 += area_margin;
        relaxed.slowdown_cap += slow_margin;
        let Some((pick, _)) = milp::solve(&relaxed).map_err(OptError::Milp)? else {
            stop = "every feasible combination has been verified".into();
            break;
        };
        let d = Design {
            value: pick
                .iter()
                .enumerate()
                .map(|(g, &o)| knob_values[g][o])
                .collect(),
            pick: pick.clone(),
        };
        let parts = option_metrics(&pick, &single_m);
        let additive_only = additive(&base, &parts);
        let predicted = with_pairs(&additive_only, &pick, &learned);
        let (_, bm) = best_verified(&verified);
        if f(&predicted) >= f(&bm) - obj_margin {
            stop = format!(
                "the best unverified combination ({}) is not predicted to beat the best \
                 verified design by more than the margin {:.2} %",
                space.name(&d),
                obj_margin * 100.0
            );
            break;
        }
        inst.excluded.push(pick);
        match ev.evaluate(&d) {
            Err(EvalError::Interrupted) => {
                interrupted = true;
                stop = "interrupted".into();
                break;
            }
            Err(e) => iterations.push(Iteration {
                name: space.name(&d),
                design: d,
                predicted,
                verified: None,
                objective_error: None,
                feasible: false,
                note: format!("could not be evaluated: {e}"),
            }),
            Ok(m) => {
                let err = (f(&m) - f(&predicted)).abs();
                learn_pair(&d, &m, &additive_only, &f, &mut learned, &mut inst);
                obj_margin = obj_margin.max(err);
                slow_margin = slow_margin.max((m.slowdown - predicted.slowdown).abs());
                area_margin = area_margin.max((m.added_area_mm2 - predicted.added_area_mm2).abs());
                let feasible = p.feasible(&m);
                evaluated.push(Evaluated {
                    name: space.name(&d),
                    design: d.clone(),
                    metrics: m,
                    feasible,
                });
                iterations.push(Iteration {
                    name: space.name(&d),
                    design: d.clone(),
                    predicted,
                    verified: Some(m),
                    objective_error: Some(err),
                    feasible,
                    note: if err > p.tolerance {
                        "interaction beyond the tolerance: margins widened".into()
                    } else {
                        "prediction within the tolerance".into()
                    },
                });
                verified.push((d, m));
            }
        }
    }
    let (chosen, vm) = best_verified(&verified);
    let parts = option_metrics(&chosen.pick, &single_m);
    let predicted = additive(&base, &parts);
    if chosen == base_design && p.area_cap_mm2 > 0.0 && !interrupted {
        infeasibility(p, &singles, f)?;
    }
    Ok(Outcome {
        baseline: base,
        chosen_name: space.name(&chosen),
        chosen,
        predicted,
        verified: vm,
        singles,
        iterations,
        evaluated,
        knob_values,
        stop,
        interrupted,
    })
}

/// The error when options save but none meets the caps (module doc); `Ok` otherwise.
fn infeasibility(
    p: &Problem,
    singles: &[Evaluated],
    f: impl Fn(&Metrics) -> f64,
) -> Result<(), OptError> {
    let savers: Vec<&Evaluated> = singles.iter().filter(|s| f(&s.metrics) < 1.0).collect();
    if savers.is_empty() || savers.iter().any(|s| s.feasible) {
        return Ok(());
    }
    let area_ok = |m: &Metrics| m.added_area_mm2 <= p.area_cap_mm2 * (1.0 + 1e-9) + 1e-12;
    let slow_ok = |m: &Metrics| m.slowdown <= p.slowdown_cap + 1e-9;
    let cheapest = savers.iter().min_by(|a, b| {
        a.metrics
            .added_area_mm2
            .total_cmp(&b.metrics.added_area_mm2)
    });
    let least_slow = savers
        .iter()
        .min_by(|a, b| a.metrics.slowdown.total_cmp(&b.metrics.slowdown));
    let mut why = Vec::new();
    if !savers.iter().any(|s| area_ok(&s.metrics)) {
        if let Some(c) = cheapest {
            why.push(format!(
                "the area budget ({:.4} mm²) is below the cheapest option with any saving ({}: \
                 {:.4} mm² added)",
                p.area_cap_mm2, c.name, c.metrics.added_area_mm2
            ));
        }
    }
    if !savers.iter().any(|s| slow_ok(&s.metrics)) {
        if let Some(c) = least_slow {
            why.push(format!(
                "the slowdown cap ({:.2} %) is below the least-stalling option with any saving \
                 ({}: {:.2} % slower)",
                p.slowdown_cap * 100.0,
                c.name,
                c.metrics.slowdown * 100.0
            ));
        }
    }
    if why.is_empty() {
        why.push(
            "every option with a saving breaks the area budget or the slowdown cap (each \
             option meeting one breaks the other)"
                .into(),
        );
    }
    Err(OptError::Infeasible(why.join("; ")))
}

/// Evaluates every combination of `space` (each option's continuous knob at `knob_values`)
/// and returns the best design that meets the caps with its numbers, and every evaluation:
/// the reference the MILP search is checked against.
pub fn exhaustive(
    space: &Space,
    ev: &dyn Evaluator,
    p: &Problem,
    knob_values: &[Vec<Option<f64>>],
) -> Result<(Design, Metrics, Vec<Evaluated>), OptError> {
    let base = ev.baseline()?;
    let fb = p.objective.of(&base).max(f64::MIN_POSITIVE);
    let all: Vec<Result<Option<Evaluated>, EvalError>> = space
        .all_picks()
        .par_iter()
        .map(|pick| {
            let d = Design {
                value: pick
                    .iter()
                    .enumerate()
                    .map(|(g, &o)| knob_values[g][o])
                    .collect(),
                pick: pick.clone(),
            };
            match ev.evaluate(&d) {
                Ok(m) => Ok(Some(Evaluated {
                    name: space.name(&d),
                    feasible: p.feasible(&m),
                    design: d,
                    metrics: m,
                })),
                Err(EvalError::Config(_)) => Ok(None),
                Err(e) => Err(e),
            }
        })
        .collect();
    let mut out = Vec::new();
    for r in all {
        if let Some(e) = r? {
            out.push(e);
        }
    }
    let mut best = (Design::baseline(space.groups.len()), base);
    for e in &out {
        if e.feasible && p.objective.of(&e.metrics) / fb < p.objective.of(&best.1) / fb {
            best = (e.design.clone(), e.metrics);
        }
    }
    Ok((best.0, best.1, out))
}

#[cfg(test)]
mod tests {
    use super::evaluate::Synthetic;
    use super::space::{Choice, Group, Knob};
    use super::*;
    use proptest::prelude::*;
    use std::sync::atomic::AtomicUsize;

    fn opt(name: &str, knob: bool) -> Choice {
        Choice {
            name: name.into(),
            technique: None,
            sets: Vec::new(),
            knob: knob.then(|| Knob {
                key: format!("{name}.x"),
                lo: 1.0,
                hi: 4.0,
                step: 0.05,
            }),
        }
    }

    /// A space of `sizes[g]` options per group; group 0's options have a continuous knob.
    fn space(sizes: &[usize]) -> Space {
        Space {
            groups: sizes
                .iter()
                .enumerate()
                .map(|(g, &n)| Group {
                    name: format!("g{g}"),
                    options: (0..n)
                        .map(|o| opt(&format!("g{g}o{o}"), g == 0 && o > 0))
                        .collect(),
                })
                .collect(),
        }
    }

    /// Options from a seed: energy change −2..+0.5 % per option... scaled, area 0..3 mm²,
    /// slowdown 0..4 %.
    fn synthetic(sizes: &[usize], vals: &[(f64, f64, f64)], interaction: f64) -> Synthetic {
        let mut k = 0;
        let options = sizes
            .iter()
            .map(|&n| {
                (0..n)
                    .map(|o| {
                        if o == 0 {
                            (0.0, 0.0, 0.0)
                        } else {
                            let v = vals[k % vals.len()];
                            k += 1;
                            v
                        }
                    })
                    .collect()
            })
            .collect();
        Synthetic {
            base_energy_j: 100.0,
            options,
            interaction,
            knob: sizes
                .iter()
                .enumerate()
                .map(|(g, _)| (g == 0).then_some((2.0, 0.5, 0.1)))
                .collect(),
            count: AtomicUsize::new(0),
        }
    }

    fn solve(s: &Space, ev: &Synthetic, p: &Problem) -> Result<Outcome, OptError> {
        optimize(s, ev, p, &[])
    }

    fn vals() -> Vec<(f64, f64, f64)> {
        vec![
            (-8.0, 1.0, 0.01),
            (-12.0, 2.5, 0.03),
            (-3.0, 0.3, 0.0),
            (-15.0, 4.0, 0.08),
            (2.0, 0.5, 0.0),
            (-6.0, 1.5, 0.02),
            (-9.0, 0.8, 0.04),
        ]
    }

    #[test]
    fn the_search_equals_exhaustive_enumeration_on_small_spaces() {
        for sizes in [
            vec![4, 4],
            vec![3, 4, 4],
            vec![5, 3],
            vec![2, 2, 2, 2, 2, 2],
        ] {
            assert!(sizes.iter().product::<usize>() <= 64);
            for interaction in [0.0, 0.5, -0.5] {
                for cap in [0.5, 2.0, 5.0, 100.0] {
                    let s = space(&sizes);
                    let ev = synthetic(&sizes, &vals(), interaction);
                    let p = Problem::new(Objective::Energy, cap, 0.05);
                    let o = solve(&s, &ev, &p).unwrap();
                    let (_, m, all) = exhaustive(&s, &ev, &p, &o.knob_values).unwrap();
                    assert_eq!(all.len(), s.combinations());
                    assert!(
                        (o.verified.energy_j - m.energy_j).abs() < 1e-9,
                        "{sizes:?} i={interaction} cap={cap}: search {} ({}) vs exhaustive {}",
                        o.chosen_name,
                        o.verified.energy_j,
                        m.energy_j
                    );
                }
            }
        }
    }

    #[test]
    fn a_learned_pair_corrects_every_combination_that_shares_it() {
        let m = |e: f64, a: f64, s: f64| Metrics {
            energy_j: e,
            edp_js: e,
            ed2p_js2: e,
            runtime_s: 1.0,
            area_mm2: 100.0 + a,
            added_area_mm2: a,
            slowdown: s,
        };
        let base = m(100.0, 0.0, 0.0);
        let (a, b, c) = (m(90.0, 1.0, 0.01), m(92.0, 0.5, 0.0), m(99.0, 0.1, 0.0));
        // (g0 o1, g1 o1) verified at 83 J where the additive model said 82
        let pair = additive(&base, &[&a, &b]);
        let r = difference(&m(83.0, 1.5, 0.01), &pair);
        let learned = vec![(((0, 1), (1, 1)), r)];
        // the triple with the pair gets the pair's +1 J; one without it gets nothing
        let triple = with_pairs(&additive(&base, &[&a, &b, &c]), &[1, 1, 1], &learned);
        assert!((triple.energy_j - 82.0).abs() < 1e-12, "{triple:?}");
        assert!((triple.added_area_mm2 - 1.6).abs() < 1e-12);
        let other = with_pairs(&additive(&base, &[&a, &c]), &[1, 0, 1], &learned);
        assert!((other.energy_j - 89.0).abs() < 1e-12, "{other:?}");
    }

    #[test]
    fn a_zero_budget_returns_the_baseline() {
        let sizes = [4, 4];
        let s = space(&sizes);
        let ev = synthetic(&sizes, &vals(), 0.3);
        let o = solve(&s, &ev, &Problem::new(Objective::Energy, 0.0, 0.05)).unwrap();
        assert_eq!(o.chosen, Design::baseline(2));
        assert_eq!(o.verified, o.baseline);
    }

    #[test]
    fn a_huge_budget_without_a_cap_gives_the_unconstrained_optimum() {
        let sizes = [3, 4, 4];
        let s = space(&sizes);
        let ev = synthetic(&sizes, &vals(), 0.2);
        let p = Problem::new(Objective::Energy, 1e9, 1e9);
        let o = solve(&s, &ev, &p).unwrap();
        // every combination, knobs at their unconstrained optimum x = 2
        let mut best = f64::INFINITY;
        for pick in s.all_picks() {
            let d = Design {
                value: pick
                    .iter()
                    .enumerate()
                    .map(|(g, &o)| (g == 0 && o > 0).then_some(2.0))
                    .collect(),
                pick,
            };
            best = best.min(ev.evaluate(&d).unwrap().energy_j);
        }
        assert!(
            (o.verified.energy_j - best).abs() < 1e-6,
            "{} vs {best}",
            o.verified.energy_j
        );
        assert_eq!(o.chosen.value[0].map(|x| (x * 100.0).round()), Some(200.0));
    }

    #[test]
    fn infeasible_problems_name_the_binding_constraint() {
        let sizes = [4, 4];
        let s = space(&sizes);
        let ev = synthetic(&sizes, &vals(), 0.0);
        // every saving option adds at least 0.3 mm² (+0.1 per knob unit in group 0)
        let e = solve(&s, &ev, &Problem::new(Objective::Energy, 0.05, 0.05)).unwrap_err();
        assert!(matches!(e, OptError::Infeasible(_)));
        assert!(e.to_string().contains("area budget"), "{e}");
        // every option stalls
        let stall = vec![(-8.0, 1.0, 0.01), (-3.0, 0.5, 0.02)];
        let ev = synthetic(&sizes, &stall, 0.0);
        let e = solve(&s, &ev, &Problem::new(Objective::Energy, 100.0, 0.0)).unwrap_err();
        assert!(e.to_string().contains("slowdown cap"), "{e}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn tightening_the_budget_never_improves_the_objective(
            a in 0.0f64..6.0, b in 0.0f64..6.0, interaction in -0.5f64..0.5
        ) {
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            let sizes = [3, 4, 3];
            let s = space(&sizes);
            let ev = synthetic(&sizes, &vals(), interaction);
            let run = |cap: f64| match solve(&s, &ev, &Problem::new(Objective::Energy, cap, 0.05)) {
                Ok(o) => o.verified.energy_j,
                // no saving design fits: the baseline
                Err(OptError::Infeasible(_)) => ev.base_energy_j,
                Err(e) => panic!("{e}"),
            };
            prop_assert!(run(lo) >= run(hi) - 1e-9);
        }
    }
}
