//! Running configurations as `gpuenergy compare` does, keeping each run's Activity.

use anyhow::{anyhow, Context, Result};
use gpuenergy::compare::{self, Comparison, Variant};
use gpuenergy::study::{workloads_named, Study};
use gpuenergy::study_config::StudyConfig;
use rayon::prelude::*;
use sim::activity::Activity;
use sim::workloads::{Size, Workload};
use std::fmt::Write;

/// The machine `preset` with technique `technique` and `set` applied: one configuration.
pub(super) fn variant(preset: &str, technique: &str, set: &[(&str, &str)]) -> Result<Variant> {
    let base = StudyConfig::preset(preset)?;
    let set: Vec<(String, String)> = set
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let (b, _) = compare::plan(&base, technique, &["none".to_string()], &set, None)?;
    let mut name = b.name.clone();
    for (k, v) in &set {
        let _ = write!(name, " [{k}={v}]");
    }
    Ok(Variant { name, ..b })
}

/// Runs `baseline` and `variants` on `workloads` as `gpuenergy compare` does, with the
/// Activity of every run kept in an in-memory cache (returned, for the counters a comparison
/// does not report).
pub(super) fn compare_runs(
    tech: &str,
    size: Size,
    baseline: &Variant,
    variants: &[Variant],
    workloads: &str,
) -> Result<(Comparison, Runs)> {
    let dir = std::env::temp_dir().join(format!("gpuenergy-doc-tables-{}", std::process::id()));
    let cache = std::sync::Arc::new(gpuenergy::activity_cache::ActivityCache::new(&dir));
    let list = workloads_named(workloads)?;
    let study = Study::new(
        baseline.config.clone(),
        techlib::ResolvedPoint::named(tech)?,
        None,
    )
    .size(size)
    .cache(cache.clone());
    let study_kept = study.clone();
    let label = format!("{size:?}").to_lowercase();
    let c = compare::run(
        &study,
        &label,
        baseline,
        variants,
        &list,
        &|n, total, what| {
            eprintln!("  [{n}/{total}] {what}");
        },
    )?;
    let runs = Runs {
        cache,
        dir,
        size: format!("{size:?}"),
        study: study_kept,
    };
    Ok((c, runs))
}

/// The Activities of a comparison's runs.
pub(super) struct Runs {
    cache: std::sync::Arc<gpuenergy::activity_cache::ActivityCache>,
    dir: std::path::PathBuf,
    size: String,
    study: Study,
}

impl Runs {
    /// The record of variant `v` on `workload`, looked up under the configuration the run
    /// simulated (its timings derived at the study's technology point).
    pub(super) fn get(&self, v: &Variant, workload: &str) -> Result<Activity> {
        let study = self.study.variant(v.config.clone());
        let chip = study.chip(&study.cost_source()?)?;
        let cfg = study.timed_config(&chip)?;
        self.cache
            .get(&cfg, workload, &self.size)
            .ok_or_else(|| anyhow!("no record of {} on {workload}", v.name))
    }
}

impl Drop for Runs {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Simulates (no costing) every configuration of `configs` on `list` at `size`, in parallel:
/// `cycles[config][workload]`.
pub(super) fn simulate_cycles(
    configs: &[Variant],
    list: &[&'static dyn Workload],
    size: Size,
) -> Result<Vec<Vec<u64>>> {
    let tech = techlib::ResolvedPoint::named("40nm")?;
    let jobs: Vec<(usize, usize)> = (0..configs.len())
        .flat_map(|c| (0..list.len()).map(move |w| (c, w)))
        .collect();
    let cycles: Vec<u64> = jobs
        .par_iter()
        .map(|&(c, w)| {
            let study = Study::new(configs[c].config.clone(), tech.clone(), None)
                .size(size)
                .parallel(false);
            let a = study
                .simulate(list[w])
                .with_context(|| format!("{} on {}", configs[c].name, list[w].info().name))?;
            Ok(a.aggregate.cycles)
        })
        .collect::<Result<_>>()?;
    Ok(cycles
        .chunks(list.len())
        .map(|c| c.to_vec())
        .collect::<Vec<_>>())
}
