//! CSV of estimates: one row per node of each workload's tree (the static tree when nothing
//! ran), with the node's path, depth, instances, area, energies, leakage power and source.

use super::table::source_marker;
use crate::study::Report;
use models::gpu::Estimate;
use std::fmt::Write as _;

/// Header of [`estimate_rows`].
pub const HEADER: &str = "label,component,depth,instances,area_mm2,dynamic_mj,leakage_mj,gating_overhead_mj,leakage_mw,source\n";

/// Header of [`render`]: [`HEADER`] plus `truncated` (the run was stopped early, so its counts
/// and energies cover only part of it).
pub const REPORT_HEADER: &str = "label,component,depth,instances,area_mm2,dynamic_mj,leakage_mj,gating_overhead_mj,leakage_mw,source,truncated\n";

/// Quotes a field that holds a comma, quote or newline (RFC 4180).
pub fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

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

/// The report as CSV: the header, then every workload's rows (the static tree, labelled
/// `static`, when no workload ran), each ending with the run's `truncated` flag.
pub fn render(r: &Report) -> String {
    let mut out = String::from(REPORT_HEADER);
    let mut push = |e: &Estimate, truncated: bool| {
        let mut rows = String::new();
        estimate_rows(e, &mut rows);
        for line in rows.lines() {
            let _ = writeln!(out, "{line},{truncated}");
        }
    };
    if r.workloads.is_empty() {
        push(&r.static_estimate("static".into()), false);
    }
    for w in &r.workloads {
        push(&w.estimate, w.truncated);
    }
    out
}
