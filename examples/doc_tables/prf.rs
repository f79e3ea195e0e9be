//! The partitioned register file at bench size (docs/techniques.md).

use super::markdown::*;
use super::runs::*;
use anyhow::{anyhow, bail, Result};
use gpuenergy::compare::{self, Comparison, Variant};
use sim::activity::{Activity, KernelActivity};
use sim::workloads::Size;
use std::fmt::Write;

/// Register accesses of a kernel record by structure: (FRF_high, all).
pub(super) fn prf_accesses(k: &KernelActivity) -> (u64, u64) {
    use sim::activity::rfevents::Part;
    let Some(p) = k.rf.as_ref().and_then(|r| r.prf.as_ref()) else {
        return (0, 0);
    };
    let a = &p.events.accesses;
    let all = a.iter().map(|x| x[0] + x[1]).sum();
    let fast = a[Part::FrfHigh.index()];
    (fast[0] + fast[1], all)
}

/// The partitioned register file at bench size on gtx780 at finfet7, cutcp, hotspot, lavamd
/// and sgemm, against `mrf-stv`: where the accesses go (the pilot's phase, then the swapped
/// mapping; the FRF share this predicts from the profiled shares and the one measured) and
/// where the time goes (the SRF's latency, its port held for the whole access, the swaps).
pub(super) fn prf_bench(size: Size) -> Result<String> {
    let workloads = "cutcp,hotspot,lavamd,sgemm";
    let b = variant("gtx780", "mrf-stv", &[])?;
    // the per-register statistics are counters only: the run's timing is the plain one's
    let mut with_stats = variant(
        "gtx780",
        "partitioned-rf",
        &[("stats.per_register", "true")],
    )?;
    with_stats.name = "partitioned-rf".into();
    let vs = vec![
        with_stats,
        variant(
            "gtx780",
            "partitioned-rf",
            &[("rf.port_occupancy", "pipelined")],
        )?,
        variant("gtx780", "partitioned-rf", &[("prf.lat_srf", "1")])?,
    ];
    let (c, runs) = compare_runs("finfet7", size, &b, &vs, workloads)?;
    let names: Vec<String> = c.baseline_runs.keys().cloned().collect();
    let mut s = accesses(&runs, &vs[0], &names)?;
    s.push_str(&time(&c, &names));
    s.push_str(&bank_load(&runs, &b, &vs[0], &names)?);
    s.push_str(&stalls(&runs, &b, &vs[0], &names)?);
    Ok(s)
}

/// Where the accesses go: the pilot's share of the run, the accesses after the table is
/// filled, the static and profiled top-n shares, and the FRF share they predict against the
/// one measured (each workload's kernels weighted by their accesses).
fn accesses(runs: &Runs, prf: &Variant, names: &[String]) -> Result<String> {
    let mut rows: Vec<Vec<String>> = Vec::new();
    for w in names {
        let act = runs.get(prf, w)?;
        let cfg = &prf.config.machine;
        let ch = gpuenergy::report::rfstats::characterise(w, cfg, &act)?;
        let (mut predicted, mut measured, mut all, mut after, mut pilot_cycles, mut sm_cycles) =
            (0.0, 0u64, 0u64, 0u64, 0u64, 0u64);
        let (mut static_n, mut pilot_n) = (0.0, 0.0);
        for k in &act.kernels {
            let regs = ch
                .kernels
                .iter()
                .skip(1)
                .find(|r| r.kernel == k.name)
                .ok_or_else(|| anyhow!("{w}: no register statistics of kernel {}", k.name))?;
            let (fast, n) = prf_accesses(k);
            let p = k.rf.as_ref().and_then(|r| r.prf.as_ref());
            let lookups = p.map_or(0, |p| p.events.swap_lookups);
            let share_after = if n > 0 {
                lookups as f64 / n as f64
            } else {
                0.0
            };
            let pilot = regs.pilot.as_ref().map_or(0.0, |p| p.pilot_top_n_share);
            predicted +=
                n as f64 * (regs.static_first_n_share * (1.0 - share_after) + pilot * share_after);
            static_n += n as f64 * regs.static_first_n_share;
            pilot_n += n as f64 * pilot;
            measured += fast;
            all += n;
            after += lookups;
            pilot_cycles += p.map_or(0, |p| p.pilot_cycles);
            sm_cycles += p.map_or(0, |p| p.sm_cycles);
        }
        let all_f = all.max(1) as f64;
        rows.push(vec![
            w.clone(),
            pct(Some(pilot_cycles as f64 / sm_cycles.max(1) as f64), 1),
            pct(Some(after as f64 / all_f), 1),
            pct(Some(static_n / all_f), 1),
            pct(Some(pilot_n / all_f), 1),
            pct(Some(predicted / all_f), 1),
            pct(Some(measured as f64 / all_f), 1),
        ]);
    }
    Ok(table(
        &[
            "workload",
            "pilot, % of SM-cycles",
            "accesses after the fill",
            "static-n",
            "pilot-n",
            "FRF predicted",
            "FRF measured",
        ],
        &rows,
    ))
}

/// Where the time goes: each configuration's cycles against `mrf-stv`, with the register
/// file's and the chip's energy change.
fn time(c: &Comparison, names: &[String]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\nCycles against `mrf-stv`, and the register file's and the chip's energy change:\n"
    );
    let mut rows = Vec::new();
    for w in names {
        let mut r = vec![w.clone(), c.baseline_runs[w].cycles.to_string()];
        for v in &c.variants {
            let x = &v.per_workload[w];
            r.push(format!("{} ({})", x.cycles, spct(x.perf_overhead, 1)));
        }
        rows.push(r);
    }
    let mut mean = vec!["mean".to_string(), String::new()];
    mean.extend(
        c.variants
            .iter()
            .map(|v| spct(v.aggregate.perf_overhead, 1)),
    );
    rows.push(mean);
    let total_rf = |v: &compare::VariantResult| {
        v.aggregate
            .rf
            .as_ref()
            .map_or("—".to_string(), |r| spct(r.savings.total.mean, 1))
    };
    let mut rf = vec![
        "register file total saving (mean)".to_string(),
        String::new(),
    ];
    rf.extend(c.variants.iter().map(total_rf));
    rows.push(rf);
    let mut chip = vec!["chip energy (change of the sum)".to_string(), String::new()];
    chip.extend(
        c.variants
            .iter()
            .map(|v| spct(v.aggregate.energy_change, 1)),
    );
    rows.push(chip);
    let mut header = vec!["workload".to_string(), "`mrf-stv`".to_string()];
    header.extend(c.variants.iter().map(|v| format!("`{}`", v.name)));
    let h: Vec<&str> = header.iter().map(String::as_str).collect();
    s.push_str(&table(&h, &rows));
    s
}

/// The banks' load: port-cycles over bank-cycles, every SM.
fn bank_load(runs: &Runs, plain: &Variant, prf: &Variant, names: &[String]) -> Result<String> {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\nThe banks' load: port-cycles asked of the banks (an access holds its port one \
         cycle, an SRF access `prf.lat_srf` cycles under `full_latency`) over the bank-cycles \
         of all SMs, at the plain register file's (`mrf-stv`) cycles and at the partitioned \
         run's own:\n"
    );
    let mut rows = Vec::new();
    let cfg = &prf.config.machine;
    for w in names {
        use sim::activity::rfevents::Part;
        let base = runs.get(plain, w)?;
        let prf = runs.get(prf, w)?;
        let lat = match cfg.prf.lat_srf {
            sim::config::prf::LatSrf::Cycles(n) => n as f64,
            sim::config::prf::LatSrf::Derived => bail!("prf.lat_srf is derived"),
        };
        let bank_cycles = |cycles: u64| cfg.gpu.n_sm as f64 * cfg.rf.n_banks as f64 * cycles as f64;
        let parts = |a: &Activity| -> [u64; 5] {
            let mut v = [0u64; 5];
            if let Some(p) = a.aggregate.rf.as_ref().and_then(|r| r.prf.as_ref()) {
                for part in Part::ALL {
                    let [r, w] = p.events.accesses[part.index()];
                    v[part.index()] = r + w;
                }
            }
            v
        };
        // the same instructions make the same accesses in both runs; the plain register
        // file holds each for one cycle
        let pp = parts(&prf);
        let plain: u64 = pp.iter().sum();
        let srf = pp[Part::Srf.index()] as f64;
        let all: u64 = pp.iter().sum();
        let asked = (all as f64 - srf) + lat * srf;
        rows.push(vec![
            w.clone(),
            pct(Some(srf / all.max(1) as f64), 0),
            pct(Some(plain as f64 / bank_cycles(base.aggregate.cycles)), 0),
            pct(Some(asked / bank_cycles(base.aggregate.cycles)), 0),
            pct(Some(asked / bank_cycles(prf.aggregate.cycles)), 0),
        ]);
    }
    s.push_str(&table(
        &[
            "workload",
            "SRF share of accesses",
            "`mrf-stv`'s load",
            "partitioned, at `mrf-stv`'s cycles",
            "partitioned, at its own cycles",
        ],
        &rows,
    ));
    Ok(s)
}

/// The stalls behind it: collector-allocation and scoreboard stalls, `mrf-stv` against the
/// partitioned register file.
fn stalls(runs: &Runs, b: &Variant, prf: &Variant, names: &[String]) -> Result<String> {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\nStalls, scheduler-cycles (`mrf-stv` → `partitioned-rf`):\n"
    );
    let mut rows = Vec::new();
    for w in names {
        let base = runs.get(b, w)?.aggregate.stalls;
        let prf = runs.get(prf, w)?.aggregate.stalls;
        rows.push(vec![
            w.clone(),
            format!("{} → {}", base.cu_full, prf.cu_full),
            format!("{} → {}", base.scoreboard, prf.scoreboard),
        ]);
    }
    s.push_str(&table(&["workload", "`cu_full`", "`scoreboard`"], &rows));
    Ok(s)
}
