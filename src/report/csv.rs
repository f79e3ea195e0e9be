//! CSV of estimates: one row per node of each workload's tree (the static tree when nothing
//! ran), with the node's path, depth, instances, area, energies, leakage power and source.

use super::table::source_marker;
use crate::study::Report;
use models::gpu::Estimate;
use std::fmt::Write as _;

/// Header of [`estimate_rows`].
pub const HEADER: &str = "label,component,depth,instances,area_mm2,dynamic_mj,leakage_mj,gating_overhead_mj,leakage_mw,source\n";

/// Header of [`render`]: one row per run × component (a tidy table for data frames):
/// `workload` (the run's label), the component columns of [`HEADER`] after `label`, the
/// component's power averaged over the run (`avg_dynamic_mw`, `avg_leakage_mw`: energy over
/// runtime, what the table's `avg dyn mW` and `avg leak mW` show; empty for a static estimate),
/// the run's `truncated` flag, `cycles` and `runtime_s`, then what produced it
/// ([`crate::provenance::CSV_COLUMNS`]). `leakage_mw` is the leakage with every block powered.
pub fn report_header() -> String {
    format!(
        "workload,component,depth,instances,area_mm2,dynamic_mj,leakage_mj,gating_overhead_mj,\
         leakage_mw,source,avg_dynamic_mw,avg_leakage_mw,truncated,cycles,runtime_s,{}\n",
        crate::provenance::CSV_COLUMNS
    )
}

/// Quotes a field that holds a comma, quote or newline (RFC 4180).
pub use crate::provenance::csv_field as field;

/// One row per node of `e` (depth first): label, path, depth, instances, area in mm²,
/// dynamic, leakage and gating energy in mJ, leakage power in mW, source marker.
pub fn estimate_rows(e: &Estimate, out: &mut String) {
    let mut path: Vec<String> = Vec::new();
    e.root.walk(0, &mut |d, n| {
        path.truncate(d);
        path.push(n.name.clone());
        let t = n.totals();
        let _ = writeln!(
            out,
            "{},{},{},{},{:.6e},{:.6e},{:.6e},{:.6e},{:.6e},{}",
            field(&e.label),
            field(&path.join("/")),
            d,
            n.instances,
            t.area_m2 * 1e6,
            t.dynamic_j * 1e3,
            t.leakage_j * 1e3,
            t.gating_overhead_j * 1e3,
            t.leakage_w * 1e3,
            field(&source_marker(&n.source))
        );
    });
}

/// The report as CSV ([`report_header`]): every workload's rows (the static tree, labelled
/// `static`, when no workload ran), each with the run's averages, flags, counts and provenance.
pub fn render(r: &Report) -> String {
    let mut out = report_header();
    let run = r.run.csv_fields();
    let mut push = |e: &Estimate, truncated: bool, cycles: Option<u64>| {
        let mut rows = String::new();
        estimate_rows(e, &mut rows);
        let mut avgs = Vec::new();
        e.root.walk(0, &mut |_, n| {
            let t = n.totals();
            avgs.push(if e.runtime_s > 0.0 {
                format!(
                    "{:.6e},{:.6e}",
                    t.dynamic_j / e.runtime_s * 1e3,
                    t.leakage_j / e.runtime_s * 1e3
                )
            } else {
                ",".to_string()
            });
        });
        for (line, avg) in rows.lines().zip(&avgs) {
            let _ = writeln!(
                out,
                "{line},{avg},{truncated},{},{},{run}",
                cycles.map(|c| c.to_string()).unwrap_or_default(),
                e.runtime_s
            );
        }
    };
    if r.workloads.is_empty() {
        push(&r.static_estimate("static".into()), false, None);
    }
    for w in &r.workloads {
        push(&w.estimate, w.truncated, Some(w.cycles));
    }
    out
}
