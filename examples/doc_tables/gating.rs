//! The power-gating tables of docs/techniques.md.

use super::markdown::*;
use super::runs::*;
use anyhow::Result;
use gpuenergy::compare::{self, Variant, WorkloadCompare};
use sim::workloads::Size;
use std::fmt::Write;

pub(super) const GATING: [&str; 5] = [
    "conv-pg",
    "gates",
    "naive-blackout",
    "coord-blackout",
    "warped-gates",
];

/// Power gating at bench size on gtx480 at 40 nm, backprop, hotspot and pathfinder, against
/// `baseline`: the aggregate, the per-workload runtime and savings, and (against `none`) the
/// A/B/C split of the idle runs by count.
pub(super) fn gating_bench(baseline: &str, size: Size) -> Result<String> {
    let workloads = "backprop,hotspot,pathfinder";
    let b = variant("gtx480", baseline, &[])?;
    let vs: Vec<Variant> = GATING
        .iter()
        .map(|t| variant("gtx480", t, &[]))
        .collect::<Result<_>>()?;
    let (c, _runs) = compare_runs("40nm", size, &b, &vs, workloads)?;
    let rows: Vec<Vec<String>> = c
        .variants
        .iter()
        .map(|v| {
            let a = &v.aggregate;
            vec![
                v.name.clone(),
                spct(a.perf_overhead, 1),
                a.static_savings.int.map_or("—".into(), |x| spct(x, 1)),
                a.static_savings.fp.map_or("—".into(), |x| spct(x, 1)),
                a.events.to_string(),
                a.critical_wakeups.to_string(),
            ]
        })
        .collect();
    let mut s = table(
        &[
            "policy",
            "runtime",
            "INT saved",
            "FP saved",
            "events",
            "critical wakeups",
        ],
        &rows,
    );
    let names: Vec<String> = c.baseline_runs.keys().cloned().collect();
    let mut header = vec!["policy"];
    header.extend(names.iter().map(String::as_str));
    let per = |f: &dyn Fn(&WorkloadCompare) -> String| -> Vec<Vec<String>> {
        c.variants
            .iter()
            .map(|v| {
                let mut r = vec![v.name.clone()];
                r.extend(v.per_workload.values().map(f));
                r
            })
            .collect()
    };
    let _ = writeln!(
        s,
        "\nPer workload: runtime; INT and FP static energy saved (FP only where the workload \
         has FP work):\n"
    );
    s.push_str(&table(
        &header,
        &per(&|w| {
            let saved: Vec<String> = [w.static_savings.int, w.static_savings.fp]
                .into_iter()
                .flatten()
                .map(|x| pct(Some(x), 1))
                .collect();
            format!("{}; {}", spct(w.perf_overhead, 1), saved.join(", "))
        }),
    ));
    if baseline == "none" {
        let split = |r: &Option<compare::IdleRegions>, by_cycles: bool| {
            r.as_ref().map_or("—".to_string(), |r| {
                let v = if by_cycles { r.by_cycles } else { r.by_count };
                v.iter()
                    .map(|x| format!("{:.0}", 100.0 * x))
                    .collect::<Vec<_>>()
                    .join("/")
            })
        };
        for (what, by_cycles, int) in [
            ("INT units, by count", false, true),
            ("INT units, by cycles", true, true),
            ("FP units, by count", false, false),
        ] {
            let _ = writeln!(
                s,
                "\nIdle runs of the {what} (shares A/B/C, %; — where the workload has no work \
                 for the class):\n"
            );
            s.push_str(&table(
                &header,
                &per(&|w| {
                    if int {
                        split(&w.idle_regions.int, by_cycles)
                    } else if w.static_savings.fp.is_none() {
                        // no FP work: the units idle throughout, one run
                        "—".to_string()
                    } else {
                        split(&w.idle_regions.fp, by_cycles)
                    }
                }),
            ));
        }
    }
    Ok(s)
}
