//! The issue-stage tables of docs/techniques.md: SOCGPU's window and depth, LOOG.

use super::markdown::*;
use super::runs::*;
use anyhow::Result;
use gpuenergy::compare::{Comparison, Variant};
use gpuenergy::study::workloads_named;
use sim::workloads::Size;
use std::fmt::Write;

/// SOCGPU's two-entry window: geometric-mean speed-up against the in-order stage on gtx1080ti,
/// every workload at test size, with and without a refill at one free entry.
pub(super) fn socgpu_window() -> Result<String> {
    let list = workloads_named("all")?;
    let configs = vec![
        variant("gtx1080ti", "none", &[])?,
        variant("gtx1080ti", "none", &[("frontend.fetch_width", "1")])?,
        variant("gtx1080ti", "socgpu", &[("sched.ooo.ib_depth", "2")])?,
        variant(
            "gtx1080ti",
            "socgpu",
            &[("sched.ooo.ib_depth", "2"), ("frontend.fetch_width", "1")],
        )?,
        variant("gtx1080ti", "socgpu", &[("sched.ooo.ib_depth", "4")])?,
    ];
    let cycles = simulate_cycles(&configs, &list, Size::Test)?;
    let rows: Vec<Vec<String>> = configs
        .iter()
        .zip(&cycles)
        .skip(1)
        .map(|(c, cyc)| {
            let s: Vec<f64> = cycles[0]
                .iter()
                .zip(cyc)
                .map(|(b, v)| *b as f64 / *v as f64)
                .collect();
            vec![format!("`{}`", c.name), format!("{:.3}", geomean(&s))]
        })
        .collect();
    let g = |i: usize| {
        let s: Vec<f64> = cycles[0]
            .iter()
            .zip(&cycles[i])
            .map(|(b, v)| *b as f64 / *v as f64)
            .collect();
        geomean(&s)
    };
    let mut s = table(
        &[
            "gtx1080ti, 20 workloads, test size",
            "speed-up against `none` (geometric mean)",
        ],
        &rows,
    );
    let _ = writeln!(
        s,
        "\nThe refill at one free entry recovers {:.0} % of the loss of N = 2.",
        100.0 * (g(3) - g(2)) / (1.0 - g(2))
    );
    Ok(s)
}

/// The policies of the power-gating study.
/// The nine built-in versions of Rodinia benchmarks that the SOCGPU section compares.
pub(super) const RODINIA_NINE: &str =
    "backprop,bfs,gaussian,hotspot,kmeans,lavamd,lud,pathfinder,srad";

/// Speed-up of each variant over the baseline per workload (baseline cycles / variant cycles).
pub(super) fn speedups(c: &Comparison, v: usize) -> Vec<f64> {
    c.variants[v]
        .per_workload
        .iter()
        .map(|(w, r)| c.baseline_runs[w].cycles as f64 / r.cycles as f64)
        .collect()
}

/// The mean over workloads of a variant's chip-energy change.
pub(super) fn mean_energy_change(c: &Comparison, v: usize) -> f64 {
    let p = &c.variants[v].per_workload;
    p.values().map(|r| r.energy_change).sum::<f64>() / p.len() as f64
}

/// SOCGPU's buffer depth at bench size: gtx1080ti at 16 nm, the nine Rodinia workloads,
/// N = 2, 4, 8, 16 and 64 against the in-order stage.
pub(super) fn socgpu_bench(size: Size) -> Result<String> {
    let depths = ["2", "4", "8", "16", "64"];
    let b = variant("gtx1080ti", "none", &[])?;
    let vs: Vec<Variant> = depths
        .iter()
        .map(|n| variant("gtx1080ti", "socgpu", &[("sched.ooo.ib_depth", n)]))
        .collect::<Result<_>>()?;
    let (c, _runs) = compare_runs("16nm", size, &b, &vs, RODINIA_NINE)?;
    let mut header = vec!["N".to_string()];
    header.extend(depths.iter().map(|d| d.to_string()));
    let h: Vec<&str> = header.iter().map(String::as_str).collect();
    let row = |label: &str, f: &dyn Fn(usize) -> String| {
        let mut r = vec![label.to_string()];
        r.extend((0..depths.len()).map(f));
        r
    };
    let mut rows = vec![
        row("speed-up (geometric mean)", &|v| {
            format!("{:.3}", geomean(&speedups(&c, v)))
        }),
        row("chip energy (mean change)", &|v| {
            spct(mean_energy_change(&c, v), 1)
        }),
        row("added area per SM", &|v| {
            let a = &c.variants[v].aggregate.area;
            format!(
                "{:+.4} mm² ({})",
                a.added_area_per_sm_mm2,
                spct(a.added_area_sm_share, 1)
            )
        }),
    ];
    for (i, w) in c.baseline_runs.keys().enumerate() {
        rows.push(row(&format!("speed-up, {w}"), &|v| {
            format!("{:.3}", speedups(&c, v)[i])
        }));
    }
    Ok(table(&h, &rows))
}

/// LOOG at bench size on gtx1080ti: per workload the speed-up of LOOG, of LOOG with 64
/// collector units per slice and with the load consumers tried last, and the area LOOG adds
/// per SM.
pub(super) fn loog_bench(size: Size) -> Result<String> {
    let workloads = "kmeans,pathfinder,sgemm";
    let preset = "gtx1080ti";
    let b = variant(preset, "none", &[])?;
    let vs = vec![
        variant(preset, "loog", &[])?,
        variant(preset, "loog", &[("sched.ooo.loog_n_cu", "64")])?,
        variant(
            preset,
            "loog",
            &[("sched.ooo.loog_defer_load_consumers", "true")],
        )?,
    ];
    let (c, _runs) = compare_runs("16nm", size, &b, &vs, workloads)?;
    let mut header = vec![format!("{preset}, speed-up")];
    header.extend(c.variants.iter().map(|v| format!("`{}`", v.name)));
    let h: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut rows: Vec<Vec<String>> = c
        .baseline_runs
        .keys()
        .enumerate()
        .map(|(i, w)| {
            let mut r = vec![w.clone()];
            r.extend((0..c.variants.len()).map(|v| format!("{:.3}", speedups(&c, v)[i])));
            r
        })
        .collect();
    let mut g = vec!["geometric mean".to_string()];
    g.extend((0..c.variants.len()).map(|v| format!("{:.3}", geomean(&speedups(&c, v)))));
    rows.push(g);
    let mut a = vec!["added area per SM".to_string()];
    a.extend(c.variants.iter().map(|v| {
        let a = &v.aggregate.area;
        format!(
            "{:.3} mm² ({})",
            a.added_area_per_sm_mm2,
            pct(Some(a.added_area_sm_share), 1)
        )
    }));
    rows.push(a);
    Ok(table(&h, &rows))
}
