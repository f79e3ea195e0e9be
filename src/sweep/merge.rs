//! Merging a sweep folder into one table: one row per point (a variant × workload × size) in
//! the plan's order, the point's dimensions then its numbers. Every point must be finished and
//! intact: a missing or corrupt result is an error that lists them (a corrupt file is never
//! merged). The table holds nothing that depends on which process computed a point, or when,
//! so the merge of a local run and of a Slurm array are byte-identical.

use super::plan::PointLabel;
use super::status::scan;
use super::store::{Lookup, Outcome, Store};
use serde::Serialize;

/// One row of the merged table.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The point's dimensions.
    #[serde(flatten)]
    pub point: PointLabel,
    /// Its numbers.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// The merged table.
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    /// Axis keys in order (the knob columns).
    pub axes: Vec<String>,
    /// Rows in the plan's order.
    pub rows: Vec<Row>,
}

/// How many points are listed in an incomplete-sweep error.
const LIST_MAX: usize = 10;

/// The merged table of the sweep in `store`; an error naming the missing and corrupt points
/// when the sweep is not complete.
pub fn merge(store: &Store) -> anyhow::Result<Table> {
    let plan = store.read_plan()?;
    let mut rows = Vec::new();
    let mut bad = Vec::new();
    for (p, l) in scan(&plan, store) {
        match l {
            Lookup::Done(outcome) => rows.push(Row { point: p, outcome }),
            Lookup::Missing => bad.push(format!(
                "point {} ({}): missing{}",
                p.index,
                p.key,
                store
                    .failure(&p.key)
                    .map(|e| format!(", failed: {}", e.lines().next().unwrap_or("")))
                    .unwrap_or_default()
            )),
            Lookup::Corrupt(why) => bad.push(format!(
                "point {} ({}): corrupt result file {} ({why}); not merged",
                p.index,
                p.key,
                store.point_path(&p.key).display()
            )),
        }
    }
    if !bad.is_empty() {
        let more = bad.len().saturating_sub(LIST_MAX);
        anyhow::bail!(
            "{}: {} of {} points are not finished:\n  {}{}\nrun `gpuenergy sweep run {} --out {}` \
             (or resubmit the Slurm array) to compute them",
            store.dir().display(),
            bad.len(),
            plan.points.len(),
            bad[..bad.len().min(LIST_MAX)].join("\n  "),
            if more > 0 {
                format!("\n  … and {more} more")
            } else {
                String::new()
            },
            plan.file,
            store.dir().display()
        );
    }
    Ok(Table {
        axes: plan.axes,
        rows,
    })
}
