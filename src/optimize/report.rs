//! The optimiser's output: the JSON document (schema in the README's `optimize` section) and
//! the table.

use super::evaluate::{Metrics, Objective};
use super::pareto::Point;
use super::space::Space;
use super::Outcome;
use serde::Serialize;
use std::collections::BTreeMap;

/// How much work the search took.
#[derive(Clone, Debug, Serialize)]
pub struct Effort {
    /// Designs evaluated (each over every workload).
    pub designs: usize,
    /// Workload runs costed (simulated or read from the cache).
    pub workload_runs: usize,
    /// Activity records read from the cache.
    pub cache_hits: usize,
    /// Activity records simulated.
    pub cache_misses: usize,
    /// Designs per second of wall time.
    pub designs_per_s: f64,
    /// Workload runs per second of wall time.
    pub runs_per_s: f64,
}

/// Kernel sampling in a search (`--sample`): every design times the launches the baseline
/// chose for each workload.
#[derive(Clone, Debug, Serialize)]
pub struct OptimizeSample {
    /// `kernels` or `auto`.
    pub mode: String,
    /// The target of `auto` (fraction of cycles and of total energy); absent for `kernels`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_error: Option<f64>,
    /// The baseline's runs.
    pub baseline: Option<super::evaluate::SampleErrors>,
    /// The chosen design's runs.
    pub chosen: Option<super::evaluate::SampleErrors>,
}

impl OptimizeSample {
    fn lines(&self) -> String {
        let one = |who: &str, e: &Option<super::evaluate::SampleErrors>| match e {
            Some(e) => format!(
                "  {who:<9} {} of {} launches timed ({} workloads fell back to full simulation); \
                 estimated error, largest over the workloads: cycles {:.2} %, energy {:.2} %\n",
                e.timed_launches,
                e.launches,
                e.full_workloads,
                100.0 * e.cycles_error,
                100.0 * e.energy_error
            ),
            None => format!("  {who:<9} not sampled\n"),
        };
        let target = self
            .target_error
            .map_or_else(String::new, |t| format!(", target {:.2} %", 100.0 * t));
        format!(
            "sampling: {}{target}; every design times the baseline's launches\n{}{}",
            self.mode,
            one("baseline", &self.baseline),
            one("chosen", &self.chosen)
        )
    }
}

/// The whole answer.
#[derive(Clone, Debug, Serialize)]
pub struct OptimizeReport {
    /// Technology label.
    pub tech: String,
    /// GPU configuration name.
    pub gpu: String,
    /// Workload size tier.
    pub size: String,
    /// The workloads.
    pub workloads: Vec<String>,
    /// The quantity minimised.
    pub objective: Objective,
    /// The groups searched.
    pub space: Vec<String>,
    /// Discrete combinations of the space.
    pub combinations: usize,
    /// Chosen knobs: each group's option and every key it sets.
    pub chosen: BTreeMap<String, String>,
    /// The chosen design's name.
    pub chosen_name: String,
    /// The baseline.
    pub baseline: Metrics,
    /// The chosen design as the additive model predicts it.
    pub predicted: Metrics,
    /// The chosen design as simulated.
    pub verified: Metrics,
    /// The area budget, mm².
    pub budget_mm2: f64,
    /// The budget as given (`2%`, `1.5mm2`) and its base (`sm`, `chip`, `rf`).
    pub budget_spec: String,
    /// Slowdown cap.
    pub max_slowdown: f64,
    /// Verified saving of the objective against the baseline (fraction).
    pub saving_vs_baseline: f64,
    /// Verified saving of the objective against each single option at its searched value.
    pub saving_vs_single: BTreeMap<String, f64>,
    /// Each single option's numbers.
    pub singles: Vec<super::Evaluated>,
    /// The verification iterations.
    pub iterations: Vec<super::Iteration>,
    /// Why the search stopped.
    pub stop: String,
    /// Ctrl-C ended the search early.
    pub interrupted: bool,
    /// Wall time, s.
    pub elapsed_s: f64,
    /// The Pareto front (objective vs added area) of every design simulated.
    pub pareto: Vec<Point>,
    /// Work done.
    pub effort: Effort,
    /// Kernel sampling and its estimated errors; absent with `--sample off`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample: Option<OptimizeSample>,
}

/// The knob → value map of the chosen design.
pub fn chosen(space: &Space, o: &Outcome) -> BTreeMap<String, String> {
    space.knobs(&o.chosen).into_iter().collect()
}

/// Savings of `verified` against the baseline and each single option.
pub fn savings(objective: Objective, o: &Outcome) -> (f64, BTreeMap<String, f64>) {
    let v = objective.of(&o.verified);
    let s = |x: f64| if x > 0.0 { 1.0 - v / x } else { 0.0 };
    let per = o
        .singles
        .iter()
        .map(|e| (e.name.clone(), s(objective.of(&e.metrics))))
        .collect();
    (s(objective.of(&o.baseline)), per)
}

fn row(name: &str, m: &Metrics, b: &Metrics) -> String {
    let ch = |x: f64, y: f64| if y > 0.0 { (x / y - 1.0) * 100.0 } else { 0.0 };
    format!(
        "{:<10} {:>12.4e} {:>+8.2}% {:>12.4e} {:>+8.2}% {:>10.4} {:>9.4} {:>+8.2}%\n",
        name,
        m.energy_j,
        ch(m.energy_j, b.energy_j),
        m.edp_js,
        ch(m.edp_js, b.edp_js),
        m.area_mm2,
        m.added_area_mm2,
        m.slowdown * 100.0
    )
}

/// The table.
pub fn table(r: &OptimizeReport) -> String {
    let mut s = String::new();
    s += &format!(
        "optimize: {} on {} ({} workloads, size {}), objective {}, space {} ({} combinations)\n",
        r.gpu,
        r.tech,
        r.workloads.len(),
        r.size,
        r.objective.name(),
        r.space.join(","),
        r.combinations
    );
    s += &format!(
        "area budget {} = {:.4} mm², slowdown cap {:.2} %\n\n",
        r.budget_spec,
        r.budget_mm2,
        r.max_slowdown * 100.0
    );
    s += &format!("chosen: {}\n", r.chosen_name);
    for (k, v) in &r.chosen {
        s += &format!("  {k:<28} {v}\n");
    }
    s += &format!(
        "\n{:<10} {:>12} {:>9} {:>12} {:>9} {:>10} {:>9} {:>9}\n",
        "", "energy J", "ΔE", "EDP J·s", "ΔEDP", "area mm²", "added", "slowdown"
    );
    s += &row("baseline", &r.baseline, &r.baseline);
    s += &row("predicted", &r.predicted, &r.baseline);
    s += &row("verified", &r.verified, &r.baseline);
    s += &format!(
        "\nsaving ({}) vs baseline: {:.2} %\n",
        r.objective.name(),
        r.saving_vs_baseline * 100.0
    );
    for (k, v) in &r.saving_vs_single {
        s += &format!("  vs {k:<44} {:>+7.2} %\n", v * 100.0);
    }
    s += &format!("\niterations ({}):\n", r.iterations.len());
    for (i, it) in r.iterations.iter().enumerate() {
        let v = it
            .verified
            .map_or("-".to_string(), |m| format!("{:.4e} J", m.energy_j));
        s += &format!(
            "  {:>2}. {:<50} predicted {:.4e} J, verified {}, {}, {}\n",
            i + 1,
            it.name,
            it.predicted.energy_j,
            v,
            if it.feasible {
                "feasible"
            } else {
                "infeasible"
            },
            it.note
        );
    }
    s += &format!("stopped: {}\n", r.stop);
    if let Some(smp) = &r.sample {
        s += &format!("\n{}", smp.lines());
    }
    s += &format!("\nPareto front ({} points):\n", r.pareto.len());
    for p in &r.pareto {
        s += &format!(
            "  {:>9.4} mm²  {:.4e}  {}\n",
            p.added_area_mm2, p.objective, p.name
        );
    }
    s += &format!(
        "\n{} designs, {} workload runs ({} simulated, {} from the cache) in {:.1} s: {:.2} \
         designs/s, {:.1} runs/s{}\n",
        r.effort.designs,
        r.effort.workload_runs,
        r.effort.cache_misses,
        r.effort.cache_hits,
        r.elapsed_s,
        r.effort.designs_per_s,
        r.effort.runs_per_s,
        if r.interrupted {
            " (interrupted: best verified design so far)"
        } else {
            ""
        }
    );
    s
}
