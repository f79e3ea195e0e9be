//! The discrete choice as a mixed-integer linear programme, solved with `good_lp`'s pure-Rust
//! `microlp` backend.
//!
//! # Formulation
//! One binary `x[g][o]` per option `o` of group `g`, one-hot per group (`Σ_o x[g][o] = 1`).
//! Each option carries its single-group change against the baseline, measured by simulating
//! the baseline with only that option on (and its continuous knob at its searched value):
//! objective change `Δf[g][o]` (normalised by the baseline's objective), added area `a[g][o]`
//! and slowdown `s[g][o]`. The model assumes the changes add:
//!
//! ```text
//! minimise   Σ Δf[g][o]·x[g][o]
//! subject to Σ_o x[g][o] = 1                       for every group g
//!            Σ a[g][o]·x[g][o] ≤ A_budget           (area)
//!            Σ s[g][o]·x[g][o] ≤ S_max              (slowdown)
//!            x[a] + x[b] ≤ 1                        for every conflicting pair (a, b)
//!            Σ_{g} x[g][p_g] ≤ G − 1                 for every excluded combination p
//! ```
//!
//! The last family ("no-good" cuts) removes combinations already simulated, so that the
//! driver ([`super::optimize`]) can ask for the best combination it has not verified yet;
//! the interactions the additive model misses are learned by verifying that combination.
//!
//! **Learned pair corrections.** When a verified combination has exactly two options `a` and
//! `b` on, what the additive model missed (verified − predicted objective, area and slowdown)
//! is that pair's interaction `I[a,b]`. It enters every later MILP through a binary
//! `y[a,b] = x[a]·x[b]` (linearised: `y ≥ x[a] + x[b] − 1`, `y ≤ x[a]`, `y ≤ x[b]`) with
//! `I[a,b]` added to the objective and to the area and slowdown rows, so that combinations
//! sharing the pair are predicted with it.

use good_lp::{
    constraint, microlp, variable, Expression, ResolutionError, Solution, SolverModel, Variable,
};

/// One option's single-group changes against the baseline.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Column {
    /// Objective change, as a fraction of the baseline's objective.
    pub objective: f64,
    /// Added area, mm².
    pub area_mm2: f64,
    /// Slowdown (fraction).
    pub slowdown: f64,
}

/// A MILP instance.
#[derive(Clone, Debug, Default)]
pub struct Instance {
    /// Per group, per option (option 0 = off, all zeros).
    pub groups: Vec<Vec<Column>>,
    /// Pairs of options `(group, option)` that cannot both be on.
    pub conflicts: Vec<super::space::OptionPair>,
    /// Combinations (one option per group) that may not be chosen.
    pub excluded: Vec<Vec<usize>>,
    /// Options `(group, option)` that may not be chosen (their evaluation failed).
    pub forbidden: Vec<(usize, usize)>,
    /// Learned pair interactions (module doc): what the pair adds beyond its two columns.
    pub interactions: Vec<(super::space::OptionPair, Column)>,
    /// Area budget, mm².
    pub area_cap_mm2: f64,
    /// Slowdown cap.
    pub slowdown_cap: f64,
}

/// The chosen options, one per group, and the predicted objective change; `None` when the
/// instance has no feasible combination.
pub fn solve(inst: &Instance) -> Result<Option<(Vec<usize>, f64)>, String> {
    let mut vars = good_lp::ProblemVariables::new();
    let x: Vec<Vec<Variable>> = inst
        .groups
        .iter()
        .map(|g| g.iter().map(|_| vars.add(variable().binary())).collect())
        .collect();
    let sum = |f: &dyn Fn(&Column) -> f64| -> Expression {
        let mut e = Expression::from(0.0);
        for (g, cols) in inst.groups.iter().enumerate() {
            for (o, c) in cols.iter().enumerate() {
                e += f(c) * x[g][o];
            }
        }
        e
    };
    let y: Vec<Variable> = inst
        .interactions
        .iter()
        .map(|_| vars.add(variable().binary()))
        .collect();
    let pairs = |f: &dyn Fn(&Column) -> f64| -> Expression {
        let mut e = Expression::from(0.0);
        for (v, (_, c)) in y.iter().zip(&inst.interactions) {
            e += f(c) * *v;
        }
        e
    };
    let objective = sum(&|c| c.objective) + pairs(&|c| c.objective);
    let mut model = vars.minimise(objective).using(microlp);
    for (v, &((ga, oa), (gb, ob))) in y.iter().zip(inst.interactions.iter().map(|i| &i.0)) {
        model = model.with(constraint!(*v >= x[ga][oa] + x[gb][ob] - 1.0));
        model = model.with(constraint!(*v <= x[ga][oa]));
        model = model.with(constraint!(*v <= x[gb][ob]));
    }
    for xs in &x {
        let one: Expression = xs.iter().copied().sum();
        model = model.with(constraint!(one == 1.0));
    }
    // a tiny slack keeps options exactly at a cap feasible despite rounding
    let area = sum(&|c| c.area_mm2) + pairs(&|c| c.area_mm2);
    model = model.with(constraint!(
        area <= inst.area_cap_mm2 * (1.0 + 1e-9) + 1e-12
    ));
    let slow = sum(&|c| c.slowdown) + pairs(&|c| c.slowdown);
    model = model.with(constraint!(slow <= inst.slowdown_cap + 1e-9));
    for &((ga, oa), (gb, ob)) in &inst.conflicts {
        model = model.with(constraint!(x[ga][oa] + x[gb][ob] <= 1.0));
    }
    for &(g, o) in &inst.forbidden {
        model = model.with(constraint!(x[g][o] == 0.0));
    }
    for p in &inst.excluded {
        let e: Expression = p.iter().enumerate().map(|(g, &o)| x[g][o]).sum();
        model = model.with(constraint!(e <= (p.len() as f64) - 1.0));
    }
    match model.solve() {
        Ok(sol) => {
            let pick: Vec<usize> = x
                .iter()
                .map(|xs| {
                    let mut best = 0;
                    for (o, v) in xs.iter().enumerate() {
                        if sol.value(*v) > sol.value(xs[best]) {
                            best = o;
                        }
                    }
                    best
                })
                .collect();
            let f = pick
                .iter()
                .enumerate()
                .map(|(g, &o)| inst.groups[g][o].objective)
                .sum::<f64>()
                + inst
                    .interactions
                    .iter()
                    .filter(|(((ga, oa), (gb, ob)), _)| pick[*ga] == *oa && pick[*gb] == *ob)
                    .map(|(_, c)| c.objective)
                    .sum::<f64>();
            Ok(Some((pick, f)))
        }
        Err(ResolutionError::Infeasible) => Ok(None),
        Err(e) => Err(format!("MILP solver: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(objective: f64, area_mm2: f64, slowdown: f64) -> Column {
        Column {
            objective,
            area_mm2,
            slowdown,
        }
    }

    #[test]
    fn picks_the_best_additive_combination_within_the_caps() {
        let mut inst = Instance {
            groups: vec![
                vec![
                    col(0.0, 0.0, 0.0),
                    col(-0.10, 1.0, 0.01),
                    col(-0.2, 3.0, 0.0),
                ],
                vec![col(0.0, 0.0, 0.0), col(-0.05, 1.0, 0.0)],
            ],
            area_cap_mm2: 2.0,
            slowdown_cap: 0.05,
            ..Default::default()
        };
        assert_eq!(solve(&inst).unwrap().unwrap().0, vec![1, 1]);
        inst.area_cap_mm2 = 4.0;
        assert_eq!(solve(&inst).unwrap().unwrap().0, vec![2, 1]);
        inst.conflicts.push(((0, 2), (1, 1)));
        assert_eq!(solve(&inst).unwrap().unwrap().0, vec![2, 0]);
        inst.excluded.push(vec![2, 0]);
        assert_eq!(solve(&inst).unwrap().unwrap().0, vec![1, 1]);
        inst.area_cap_mm2 = 0.0;
        assert_eq!(solve(&inst).unwrap().unwrap().0, vec![0, 0]);
        inst.excluded.push(vec![0, 0]);
        assert!(solve(&inst).unwrap().is_none());
    }

    #[test]
    fn a_learned_pair_interaction_changes_the_choice() {
        // additively (1, 1) is best (−0.15); the pair is learned to lose 0.12 together, so
        // (2, 0) at −0.12 wins; a pair interaction on area can also make it infeasible
        let mut inst = Instance {
            groups: vec![
                vec![
                    col(0.0, 0.0, 0.0),
                    col(-0.10, 1.0, 0.0),
                    col(-0.12, 1.0, 0.0),
                ],
                vec![col(0.0, 0.0, 0.0), col(-0.05, 1.0, 0.0)],
            ],
            area_cap_mm2: 2.0,
            slowdown_cap: 0.05,
            ..Default::default()
        };
        assert_eq!(solve(&inst).unwrap().unwrap().0, vec![2, 1]);
        inst.interactions
            .push((((0, 2), (1, 1)), col(0.12, 0.0, 0.0)));
        let (pick, f) = solve(&inst).unwrap().unwrap();
        assert_eq!(pick, vec![1, 1]);
        assert!((f + 0.15).abs() < 1e-12, "{f}");
        inst.interactions
            .push((((0, 1), (1, 1)), col(0.0, 0.5, 0.0)));
        let (pick, f) = solve(&inst).unwrap().unwrap();
        assert_eq!(pick, vec![2, 0]);
        assert!((f + 0.12).abs() < 1e-12, "{f}");
    }
}
