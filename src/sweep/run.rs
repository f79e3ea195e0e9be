//! Running a shard of a sweep: every point of the shard whose result file is missing or
//! corrupt is simulated and costed (one [`Study`] of the point's configuration at its
//! technology point, one workload), in parallel on rayon's pool, and saved under its key; a
//! point whose intact result file exists is not recomputed. The plan record and the shard's
//! state are written to the folder so that `merge` and `status` need only the folder.

use super::plan::{Plan, Point, Shard};
use super::store::{Lookup, Outcome, ShardState, Store};
use crate::study::Study;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Points in the shard.
    pub points: usize,
    /// Points found finished (not recomputed).
    pub found: usize,
    /// Points computed now.
    pub computed: usize,
    /// Corrupt result files found (each recomputed): `(key, why)`.
    pub corrupt: Vec<(String, String)>,
    /// Points that failed: `(key, error)`.
    pub failed: Vec<(String, String)>,
    /// Wall time of the computations, s.
    pub elapsed_s: f64,
}

impl Summary {
    /// Points computed per minute of wall time (0 when nothing was computed).
    pub fn points_per_min(&self) -> f64 {
        if self.computed == 0 || self.elapsed_s <= 0.0 {
            0.0
        } else {
            self.computed as f64 / self.elapsed_s * 60.0
        }
    }
}

/// One point simulated and costed; its outcome, costed run and Activity.
pub fn compute(
    plan: &Plan,
    p: &Point,
) -> anyhow::Result<(
    Outcome,
    crate::study::WorkloadResult,
    sim::activity::Activity,
)> {
    let v = &plan.variants[p.variant];
    let list = vec![plan.file.workload(&p.label.workload)?];
    let size: sim::workloads::Size = if p.label.size == super::plan::PROGRAM_SIZE {
        sim::workloads::Size::Test
    } else {
        p.label.size.parse()?
    };
    let study = Study::new(v.config.clone(), v.choice.clone(), plan.overlay.clone())
        .size(size)
        .parallel(false)
        .sampling(plan.file.sampling.clone());
    let (report, mut acts) = study.run_keep(&list)?;
    let (Some(r), Some(act)) = (report.workloads.into_iter().next(), acts.pop()) else {
        anyhow::bail!("the study of point {} returned no run", p.label.index);
    };
    let outcome = Outcome {
        tech: report.tech,
        vdd_v: report.vdd_v,
        cycles: r.cycles,
        warp_instructions: r.warp_instructions,
        truncated: r.truncated,
        runtime_s: r.runtime_s,
        energy_j: r.energy_j,
        dynamic_j: r.dynamic_j,
        leakage_j: r.leakage_j,
        average_power_w: r.average_power_w,
        edp_js: r.edp_js,
        area_mm2: report.area_m2 * 1e6,
        chip_leakage_w: report.leakage_w,
        sample_error: r.sample.as_ref().map(|s| super::store::SampleError {
            cycles: s.estimated_error.cycles,
            energy: s.estimated_error.energy.unwrap_or(0.0),
        }),
    };
    Ok((outcome, r, act))
}

/// Runs `shard` of `plan` into `store`. `progress(done, total, what)` is called after each
/// point of the shard, found or computed, from worker threads. A failed point is recorded in
/// the folder and the others go on; the summary lists it.
pub fn run(
    plan: &Plan,
    store: &Store,
    shard: Shard,
    progress: &(dyn Fn(usize, usize, &str) + Sync),
) -> anyhow::Result<Summary> {
    store.write_plan(&plan.record())?;
    let todo: Vec<&Point> = plan.shard(shard).collect();
    let mut state = ShardState {
        shard: shard.to_string(),
        state: "running".into(),
        points: todo.len(),
        found: 0,
        computed: 0,
        corrupt: 0,
        failed: 0,
        pid: std::process::id(),
    };
    store.write_shard(shard, &state)?;
    let t0 = Instant::now();
    let done = AtomicUsize::new(0);
    let found = AtomicUsize::new(0);
    let computed = AtomicUsize::new(0);
    let corrupt = Mutex::new(Vec::new());
    let failed = Mutex::new(Vec::new());
    todo.par_iter().for_each(|p| {
        let key = &p.label.key;
        let what = match store.lookup(key) {
            Lookup::Done(_) => {
                found.fetch_add(1, Ordering::Relaxed);
                format!("point {} found done", p.label.index)
            }
            other => {
                if let Lookup::Corrupt(why) = other {
                    if let Ok(mut c) = corrupt.lock() {
                        c.push((key.clone(), why));
                    }
                }
                let r = compute(plan, p).and_then(|(o, r, a)| store.save(&p.label, &o, &r, &a));
                match r {
                    Ok(()) => {
                        computed.fetch_add(1, Ordering::Relaxed);
                        format!("point {} computed", p.label.index)
                    }
                    Err(e) => {
                        let msg = format!("{e:#}");
                        let _ = store.record_failure(key, &msg);
                        if let Ok(mut f) = failed.lock() {
                            f.push((key.clone(), msg));
                        }
                        format!("point {} failed", p.label.index)
                    }
                }
            }
        };
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress(n, todo.len(), &what);
    });
    let mut summary = Summary {
        points: todo.len(),
        found: found.into_inner(),
        computed: computed.into_inner(),
        corrupt: corrupt.into_inner().unwrap_or_default(),
        failed: failed.into_inner().unwrap_or_default(),
        elapsed_s: t0.elapsed().as_secs_f64(),
    };
    summary.corrupt.sort();
    summary.failed.sort();
    state.state = if summary.failed.is_empty() {
        "done"
    } else {
        "failed"
    }
    .into();
    state.found = summary.found;
    state.computed = summary.computed;
    state.corrupt = summary.corrupt.len();
    state.failed = summary.failed.len();
    store.write_shard(shard, &state)?;
    Ok(summary)
}

/// The wall time, s, of computing the first point of each `(workload, size)` of `plan` once,
/// one after another (nothing is saved): what `sweep plan` bases its cost estimate on.
pub fn probe(plan: &Plan) -> anyhow::Result<Vec<(String, String, f64)>> {
    let mut out: Vec<(String, String, f64)> = Vec::new();
    for p in &plan.points {
        let (w, s) = (&p.label.workload, &p.label.size);
        if out.iter().any(|(pw, ps, _)| pw == w && ps == s) {
            continue;
        }
        let t0 = Instant::now();
        compute(plan, p)?;
        out.push((w.clone(), s.clone(), t0.elapsed().as_secs_f64()));
    }
    Ok(out)
}
