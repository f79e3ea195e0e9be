//! The continuous knobs inside one candidate: a golden-section search (argmin's
//! `GoldenSectionSearch`) of the objective over the knob's interval, the other groups off.
//!
//! The function searched is the candidate's objective over the baseline's, plus a penalty of
//! `1 + violation` for a value that breaks the area budget or the slowdown cap (violation in
//! units of the cap), so that the search settles on the best feasible value when the
//! unconstrained optimum is not feasible. Each value is snapped to the knob's grid and the
//! result of a grid point is remembered, so the search never evaluates one point twice; when a
//! value leaves the simulated integers (`pg.bet`, `pg.wakeup`, `prf.lat_srf`) unchanged the
//! evaluation is costing only (the Activity comes from the cache, [`super::cache`]). Golden
//! section assumes one minimum in the interval; both ends are evaluated as well and the best
//! of the three is kept, which covers a monotone objective whose optimum is an end.

use super::evaluate::{EvalError, Evaluator, Metrics, Objective};
use super::space::{Design, Knob};
use argmin::core::{CostFunction, Executor};
use argmin::solver::goldensectionsearch::GoldenSectionSearch;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// The caps a value must meet.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// Added area, mm².
    pub area_mm2: f64,
    /// Slowdown.
    pub slowdown: f64,
}

/// The penalised, normalised objective of `m` (module doc).
pub fn penalised(objective: Objective, base: &Metrics, m: &Metrics, caps: Caps) -> f64 {
    let f = objective.of(m) / objective.of(base).max(f64::MIN_POSITIVE);
    let over = |v: f64, cap: f64| {
        if v <= cap * (1.0 + 1e-9) + 1e-12 {
            0.0
        } else {
            1.0 + (v - cap) / cap.abs().max(1e-6)
        }
    };
    f + over(m.added_area_mm2, caps.area_mm2) + over(m.slowdown, caps.slowdown)
}

struct Line<'a> {
    ev: &'a dyn Evaluator,
    design: Design,
    group: usize,
    knob: &'a Knob,
    objective: Objective,
    base: Metrics,
    caps: Caps,
    seen: Mutex<BTreeMap<i64, Result<Metrics, String>>>,
    interrupted: Mutex<bool>,
}

impl Line<'_> {
    fn at(&self, x: f64) -> Result<Metrics, String> {
        let x = self.knob.snap(x);
        let k = (x / self.knob.step).round() as i64;
        if let Some(r) = self.seen.lock().map_err(|e| e.to_string())?.get(&k) {
            return r.clone();
        }
        let mut d = self.design.clone();
        d.value[self.group] = Some(x);
        let r = match self.ev.evaluate(&d) {
            Err(EvalError::Interrupted) => {
                *self.interrupted.lock().map_err(|e| e.to_string())? = true;
                Err("interrupted".to_string())
            }
            r => r.map_err(|e| e.to_string()),
        };
        self.seen
            .lock()
            .map_err(|e| e.to_string())?
            .insert(k, r.clone());
        r
    }

    fn value(&self, x: f64) -> f64 {
        match self.at(x) {
            Ok(m) => penalised(self.objective, &self.base, &m, self.caps),
            // a value the models refuse (a derived latency out of range) is infeasible
            Err(_) => f64::MAX / 4.0,
        }
    }
}

/// The line as argmin's problem (argmin takes its problem by value).
struct ByRef<'a, 'b>(&'a Line<'b>);

impl CostFunction for ByRef<'_, '_> {
    type Param = f64;
    type Output = f64;
    fn cost(&self, x: &f64) -> Result<f64, argmin::core::Error> {
        Ok(self.0.value(*x))
    }
}

/// The result of one search.
#[derive(Clone, Debug)]
pub struct Searched {
    /// The best value found (snapped).
    pub value: f64,
    /// Its metrics (`Err` with the reason when no value could be evaluated).
    pub metrics: Result<Metrics, String>,
    /// Every value evaluated and its metrics, in increasing value.
    pub points: Vec<(f64, Metrics)>,
}

/// Searches `knob` of group `group` in `design` (its other groups as given) for the best
/// penalised objective, at most `max_iters` golden-section steps. `Err(Interrupted)` after a
/// Ctrl-C.
#[allow(clippy::too_many_arguments)]
pub fn search(
    ev: &dyn Evaluator,
    design: &Design,
    group: usize,
    knob: &Knob,
    objective: Objective,
    base: &Metrics,
    caps: Caps,
    max_iters: u64,
) -> Result<Searched, EvalError> {
    let line = Line {
        ev,
        design: design.clone(),
        group,
        knob,
        objective,
        base: *base,
        caps,
        seen: Mutex::new(BTreeMap::new()),
        interrupted: Mutex::new(false),
    };
    let mut best_x = knob.lo;
    let mut best_f = line.value(knob.lo);
    let f_hi = line.value(knob.hi);
    if f_hi < best_f {
        best_x = knob.hi;
        best_f = f_hi;
    }
    if knob.hi > knob.lo {
        let solver = GoldenSectionSearch::new(knob.lo, knob.hi)
            .and_then(|s| s.with_tolerance(0.01))
            .map_err(|e| EvalError::Config(format!("{}: {e}", knob.key)))?;
        let init = knob.snap((knob.lo + knob.hi) / 2.0);
        let res = Executor::new(ByRef(&line), solver)
            .configure(|s| s.param(init).max_iters(max_iters))
            .run()
            .map_err(|e| EvalError::Config(format!("{}: {e}", knob.key)))?;
        if let Some(&x) = res.state().best_param.as_ref() {
            let f = line.value(x);
            if f < best_f {
                best_x = knob.snap(x);
                best_f = f;
            }
        }
    }
    if *line
        .interrupted
        .lock()
        .map_err(|e| EvalError::Config(e.to_string()))?
    {
        return Err(EvalError::Interrupted);
    }
    let _ = best_f;
    let seen = line
        .seen
        .into_inner()
        .map_err(|e| EvalError::Config(e.to_string()))?;
    let metrics = line_result(&seen, knob, best_x);
    let points = seen
        .iter()
        .filter_map(|(&k, r)| r.as_ref().ok().map(|m| (k as f64 * knob.step, *m)))
        .collect();
    Ok(Searched {
        value: best_x,
        metrics,
        points,
    })
}

fn line_result(
    seen: &BTreeMap<i64, Result<Metrics, String>>,
    knob: &Knob,
    x: f64,
) -> Result<Metrics, String> {
    let k = (knob.snap(x) / knob.step).round() as i64;
    seen.get(&k)
        .cloned()
        .unwrap_or_else(|| Err(format!("{} = {x}: not evaluated", knob.key)))
}
