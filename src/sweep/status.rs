//! The state of a sweep folder: which points of its plan are finished, missing, corrupt or
//! failed, and each recorded shard's state with the points of it still to run. A shard that
//! recorded `running` but has points missing was stopped (killed, timed out, its node lost) or
//! is still running; a new run of it (or a resubmission) computes only the missing points.

use super::plan::{PlanRecord, PointLabel, Shard};
use super::store::{Lookup, ShardState, Store};
use rayon::prelude::*;

/// Every point of a plan with the state of its result file, in the plan's order.
pub fn scan(plan: &PlanRecord, store: &Store) -> Vec<(PointLabel, Lookup)> {
    plan.points
        .par_iter()
        .map(|p| (p.clone(), store.lookup(&p.key)))
        .collect()
}

/// One recorded shard.
#[derive(Clone, Debug)]
pub struct ShardStatus {
    /// The shard.
    pub shard: Shard,
    /// What it last recorded.
    pub recorded: ShardState,
    /// Its points now finished.
    pub done: usize,
    /// Its points in the plan.
    pub points: usize,
}

/// The state of a sweep folder.
#[derive(Clone, Debug)]
pub struct Status {
    /// The plan's sweep file.
    pub file: String,
    /// Points in the plan.
    pub points: usize,
    /// Finished points.
    pub done: usize,
    /// Points with no result file (with the recorded error when one failed).
    pub missing: Vec<(PointLabel, Option<String>)>,
    /// Points whose result file is corrupt, and why.
    pub corrupt: Vec<(PointLabel, String)>,
    /// The recorded shards.
    pub shards: Vec<ShardStatus>,
}

impl Status {
    /// Whether every point is finished and intact.
    pub fn complete(&self) -> bool {
        self.done == self.points
    }
}

/// The state of the sweep in `store`.
pub fn status(store: &Store) -> anyhow::Result<Status> {
    let plan = store.read_plan()?;
    let scanned = scan(&plan, store);
    let mut st = Status {
        file: plan.file.clone(),
        points: plan.points.len(),
        done: 0,
        missing: Vec::new(),
        corrupt: Vec::new(),
        shards: Vec::new(),
    };
    for (p, l) in &scanned {
        match l {
            Lookup::Done(_) => st.done += 1,
            Lookup::Missing => st.missing.push((p.clone(), store.failure(&p.key))),
            Lookup::Corrupt(why) => st.corrupt.push((p.clone(), why.clone())),
        }
    }
    for (shard, recorded) in store.shard_states() {
        let mine = scanned.iter().filter(|(p, _)| shard.has(p.index));
        let (points, done) = mine.fold((0, 0), |(n, d), (_, l)| {
            (n + 1, d + usize::from(matches!(l, Lookup::Done(_))))
        });
        st.shards.push(ShardStatus {
            shard,
            recorded,
            done,
            points,
        });
    }
    Ok(st)
}
