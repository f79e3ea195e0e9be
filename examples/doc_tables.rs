//! The tables of `docs/` that no single command prints: aggregates over several runs or
//! configurations (geometric means, per-workload columns side by side, phases of a run) and the
//! model's parameter tables. Each subcommand prints one set of markdown tables on stdout, and
//! `tests/doc_outputs.rs` checks the docs' copy against a fresh run, so the docs quote this
//! program's output and never a typed figure.
//!
//! `cargo run --release --example doc_tables -- NAME`, NAME one of:
//! - `model-vs-sim`: the analytical activity source against the cycle-level simulator
//!   (docs/estimate.md);
//! - `dram`: the DRAM energy parameters and the HBM2 background power (docs/estimate.md);
//! - `socgpu-window`: SOCGPU's two-entry window at test size (docs/techniques.md);
//! - `gating-bench BASELINE`: power gating at bench size against `none` or `two-level`
//!   (docs/techniques.md; minutes);
//! - `socgpu-bench`: SOCGPU's buffer depth at bench size (half an hour);
//! - `loog-bench`: LOOG at bench size (an hour);
//! - `prf-bench`: where the partitioned register file's accesses and time go at bench size
//!   (minutes);
//! - `sram-accuracy`: the SRAM model against CACTI 7 and the finfet7 register-file rows
//!   (docs/accuracy.md; what `models/tests/sram_cacti.rs` and `sram_finfet.rs` hold);
//! - `sram-capacity`: how its energy error moves with capacity (docs/techniques.md; what
//!   `models/tests/sram_capacity_scaling.rs` holds).
//!
//! - `diag-summary`: `gpuenergy diag`'s quick suite on five presets in one table
//!   (docs/simulator.md; minutes).
//!
//! The SRAM tables read the CACTI 7 reference grid beside the repository
//! (`../shared/reference/cacti7_train.csv`).

use anyhow::{anyhow, bail, Context, Result};
use gpuenergy::compare::{self, Comparison, Variant, WorkloadCompare};
use gpuenergy::study::{workloads_named, ActivitySource, Study};
use gpuenergy::study_config::StudyConfig;
use rayon::prelude::*;
use sim::activity::{Activity, KernelActivity};
use sim::workloads::{Size, Workload};
use std::fmt::Write;

fn main() -> Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--size test` runs a bench-size table at test size: a quick check of the program, not
    // the docs' figures
    let mut size = Size::Bench;
    if let Some(i) = args.iter().position(|a| a == "--size") {
        let v = args
            .get(i + 1)
            .ok_or_else(|| anyhow!("--size takes test or bench"))?;
        size = v.parse()?;
        args.drain(i..i + 2);
    }
    let out = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["model-vs-sim"] => model_vs_sim()?,
        ["dram"] => dram()?,
        ["socgpu-window"] => socgpu_window()?,
        ["gating-bench", baseline @ ("none" | "two-level")] => gating_bench(baseline, size)?,
        ["socgpu-bench"] => socgpu_bench(size)?,
        ["loog-bench"] => loog_bench(size)?,
        ["prf-bench"] => prf_bench(size)?,
        ["sram-accuracy"] => sram_accuracy()?,
        ["sram-capacity"] => sram_capacity()?,
        ["diag-summary"] => diag_summary()?,
        _ => bail!(
            "usage: doc_tables model-vs-sim | dram | socgpu-window | gating-bench none|two-level \
             | socgpu-bench | loog-bench | prf-bench | sram-accuracy | sram-capacity | diag-summary  [--size \
             test|bench: the bench tables' size]"
        ),
    };
    print!("{out}");
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// formatting

/// A markdown table: `header` then `rows`, every cell as given.
fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut s = format!("| {} |\n", header.join(" | "));
    let _ = writeln!(s, "|{}", "---|".repeat(header.len()));
    for r in rows {
        let _ = writeln!(s, "| {} |", r.join(" | "));
    }
    s
}

/// `x` (a fraction) as a signed percentage with `d` decimals.
fn spct(x: f64, d: usize) -> String {
    format!("{:+.d$} %", 100.0 * x)
}

/// `x` (a fraction) as a percentage with `d` decimals, or "—".
fn pct(x: Option<f64>, d: usize) -> String {
    x.filter(|v| v.is_finite())
        .map_or_else(|| "—".to_string(), |v| format!("{:.d$} %", 100.0 * v))
}

/// Geometric mean of positive values.
fn geomean(v: &[f64]) -> f64 {
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
}

// ---------------------------------------------------------------------------------------------
// running

/// The machine `preset` with technique `technique` and `set` applied: one configuration.
fn variant(preset: &str, technique: &str, set: &[(&str, &str)]) -> Result<Variant> {
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
fn compare_runs(
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
struct Runs {
    cache: std::sync::Arc<gpuenergy::activity_cache::ActivityCache>,
    dir: std::path::PathBuf,
    size: String,
    study: Study,
}

impl Runs {
    /// The record of variant `v` on `workload`, looked up under the configuration the run
    /// simulated (its timings derived at the study's technology point).
    fn get(&self, v: &Variant, workload: &str) -> Result<Activity> {
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
fn simulate_cycles(
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

// ---------------------------------------------------------------------------------------------
// docs/estimate.md

/// The analytical activity source against the cycle-level simulator: gtx480 at 40 nm, every
/// workload at test size, cycles and total energy.
fn model_vs_sim() -> Result<String> {
    let list = workloads_named("all")?;
    let study = Study::new(
        StudyConfig::preset("gtx480")?,
        techlib::ResolvedPoint::named("40nm")?,
        None,
    );
    let sim = study.run(&list)?;
    let model = study
        .clone()
        .activity_source(ActivitySource::Model)
        .run(&list)?;
    let err = |s: f64, m: f64| 100.0 * (m - s) / s;
    let mut rows = Vec::new();
    let (mut sc, mut mc, mut se, mut me) = (vec![], vec![], vec![], vec![]);
    for (s, m) in sim.workloads.iter().zip(&model.workloads) {
        rows.push(vec![
            s.workload.clone(),
            s.cycles.to_string(),
            m.cycles.to_string(),
            format!("{:.1}", err(s.cycles as f64, m.cycles as f64)),
            format!("{:.1}", s.energy_j * 1e6),
            format!("{:.1}", m.energy_j * 1e6),
            format!("{:.1}", err(s.energy_j, m.energy_j)),
        ]);
        sc.push(s.cycles as f64);
        mc.push(m.cycles as f64);
        se.push(s.energy_j);
        me.push(m.energy_j);
    }
    let mut s = table(
        &[
            "workload",
            "sim cycles",
            "model cycles",
            "cycles err %",
            "sim energy µJ",
            "model energy µJ",
            "energy err %",
        ],
        &rows,
    );
    let names: Vec<&str> = sim.workloads.iter().map(|w| w.workload.as_str()).collect();
    let summary = |what: &str, s: &[f64], m: &[f64]| {
        let (i, largest) = s
            .iter()
            .zip(m)
            .map(|(s, m)| ((m - s) / s).abs())
            .enumerate()
            .fold((0, 0.0), |b, (i, e)| if e > b.1 { (i, e) } else { b });
        format!(
            "{what}: MAPE {:.1} %, largest error {:.1} % ({}), Pearson r {:.3}, Kendall τ {:.3}",
            gpuenergy::correlate::mape_pct(s, m),
            100.0 * largest,
            names[i],
            gpuenergy::correlate::pearson_r(s, m).unwrap_or(f64::NAN),
            gpuenergy::diag::crosscheck::kendall_tau(s, m)
        )
    };
    let _ = writeln!(s, "\n- {}", summary("Cycles", &sc, &mc));
    let _ = writeln!(s, "- {}", summary("Total energy", &se, &me));
    Ok(s)
}

/// The DRAM energy parameters of each `dram.kind` and the HBM2 background power of the V100
/// preset's stacks.
fn dram() -> Result<String> {
    use models::gpu::dram::{
        DramBackground, DramParams, HBM2_8GB_CHANNEL, HBM2_ACCESS_J_PER_BIT,
        HBM2_ACTIVATION_J_PER_BIT,
    };
    let mut s = String::new();
    let kinds = [
        (
            "`gddr5` (default), `gddr5x`",
            DramParams::gddr5(64.0),
            "2 KiB page",
        ),
        ("`hbm2`", DramParams::hbm2(32.0), "1 KiB pseudo-channel row"),
    ];
    let rows: Vec<Vec<String>> = kinds
        .iter()
        .map(|(k, p, row)| {
            vec![
                k.to_string(),
                format!("{:.2} pJ", p.energy_per_bit_j * 1e12),
                format!("{:.3} nJ ({row})", p.energy_per_activate_j * 1e9),
            ]
        })
        .collect();
    s.push_str(&table(&["`dram.kind`", "per bit", "per activate"], &rows));
    // the activation share of O'Connor et al.'s HBM2 figure, over the activate energy
    let act_j = HBM2_8GB_CHANNEL.activate_energy_j();
    let bytes_per_activate = act_j / HBM2_ACTIVATION_J_PER_BIT / 8.0;
    let _ = writeln!(
        s,
        "\nHBM2: {:.2} pJ/bit in total, {:.2} of it activation (O'Connor et al.); an activate, \
         VDD × (IDD0 × tRC − IDD3N × tRAS − IDD2N × tRP), costs {:.3} nJ, which that \
         activation share reaches at {bytes_per_activate:.0} bytes read per activate.\n",
        HBM2_ACCESS_J_PER_BIT * 1e12,
        HBM2_ACTIVATION_J_PER_BIT * 1e12,
        act_j * 1e9
    );
    let v100 = StudyConfig::preset("v100")?.machine;
    let b = DramBackground::of_config(&v100).ok_or_else(|| anyhow!("v100 has no HBM2"))?;
    let one = DramBackground::hbm2(1.0 / 8.0, v100.gpu.dram_mhz * 1e6);
    let mw = |w: f64| format!("{:.1} mW", w * 1e3);
    let w = |w: f64| format!("{:.2} W", w);
    let rows = vec![
        vec![
            "refresh, VDD × (IDD5AB − IDD3N) × tRFC / tREFI".to_string(),
            mw(one.refresh_w),
            w(b.refresh_w),
        ],
        vec![
            "precharge standby, VDD × IDD2N × f / 1 GHz".to_string(),
            mw(one.standby_precharged_w),
            w(b.standby_precharged_w),
        ],
        vec![
            "active standby, VDD × IDD3N × f / 1 GHz".to_string(),
            mw(one.standby_active_w),
            w(b.standby_active_w),
        ],
        vec![
            "I/O command clock, 2 × C × VDDQ² × f".to_string(),
            mw(one.clock_io_w),
            w(b.clock_io_w),
        ],
        vec![
            "**total**, every bank precharged".to_string(),
            mw(one.background_w(0.0)),
            w(b.background_w(0.0)),
        ],
        vec![
            "**total**, a row open in every channel".to_string(),
            mw(one.background_w(1.0)),
            w(b.background_w(1.0)),
        ],
    ];
    let v100_col = format!(
        "V100, {} stacks at {} MHz",
        b.channels / 8.0,
        v100.gpu.dram_mhz
    );
    s.push_str(&table(&["component", "per channel", &v100_col], &rows));
    Ok(s)
}

// ---------------------------------------------------------------------------------------------
// docs/techniques.md

/// SOCGPU's two-entry window: geometric-mean speed-up against the in-order stage on gtx1080ti,
/// every workload at test size, with and without a refill at one free entry.
fn socgpu_window() -> Result<String> {
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
const GATING: [&str; 5] = [
    "conv-pg",
    "gates",
    "naive-blackout",
    "coord-blackout",
    "warped-gates",
];

/// Power gating at bench size on gtx480 at 40 nm, backprop, hotspot and pathfinder, against
/// `baseline`: the aggregate, the per-workload runtime and savings, and (against `none`) the
/// A/B/C split of the idle runs by count.
fn gating_bench(baseline: &str, size: Size) -> Result<String> {
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

/// The nine built-in versions of Rodinia benchmarks that the SOCGPU section compares.
const RODINIA_NINE: &str = "backprop,bfs,gaussian,hotspot,kmeans,lavamd,lud,pathfinder,srad";

/// Speed-up of each variant over the baseline per workload (baseline cycles / variant cycles).
fn speedups(c: &Comparison, v: usize) -> Vec<f64> {
    c.variants[v]
        .per_workload
        .iter()
        .map(|(w, r)| c.baseline_runs[w].cycles as f64 / r.cycles as f64)
        .collect()
}

/// The mean over workloads of a variant's chip-energy change.
fn mean_energy_change(c: &Comparison, v: usize) -> f64 {
    let p = &c.variants[v].per_workload;
    p.values().map(|r| r.energy_change).sum::<f64>() / p.len() as f64
}

/// SOCGPU's buffer depth at bench size: gtx1080ti at 16 nm, the nine Rodinia workloads,
/// N = 2, 4, 8, 16 and 64 against the in-order stage.
fn socgpu_bench(size: Size) -> Result<String> {
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
fn loog_bench(size: Size) -> Result<String> {
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

/// Register accesses of a kernel record by structure: (FRF_high, all).
fn prf_accesses(k: &KernelActivity) -> (u64, u64) {
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
fn prf_bench(size: Size) -> Result<String> {
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

    // where the accesses go
    let mut rows = Vec::new();
    for w in &names {
        let act = runs.get(&vs[0], w)?;
        let cfg = &vs[0].config.machine;
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
    let mut s = table(
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
    );

    // where the time goes
    let _ = writeln!(
        s,
        "\nCycles against `mrf-stv`, and the register file's and the chip's energy change:\n"
    );
    let mut rows = Vec::new();
    for w in &names {
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

    // the banks' load: port-cycles over bank-cycles, every SM
    let _ = writeln!(
        s,
        "\nThe banks' load: port-cycles asked of the banks (an access holds its port one \
         cycle, an SRF access `prf.lat_srf` cycles under `full_latency`) over the bank-cycles \
         of all SMs, at the plain register file's (`mrf-stv`) cycles and at the partitioned \
         run's own:\n"
    );
    let mut rows = Vec::new();
    for w in &names {
        use sim::activity::rfevents::Part;
        let base = runs.get(&b, w)?;
        let prf = runs.get(&vs[0], w)?;
        let cfg = &vs[0].config.machine;
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

    // the stalls behind it
    let _ = writeln!(
        s,
        "\nStalls, scheduler-cycles (`mrf-stv` → `partitioned-rf`):\n"
    );
    let mut rows = Vec::new();
    for w in &names {
        let base = runs.get(&b, w)?.aggregate.stalls;
        let prf = runs.get(&vs[0], w)?.aggregate.stalls;
        rows.push(vec![
            w.clone(),
            format!("{} → {}", base.cu_full, prf.cu_full),
            format!("{} → {}", base.scoreboard, prf.scoreboard),
        ]);
    }
    s.push_str(&table(&["workload", "`cu_full`", "`scoreboard`"], &rows));
    Ok(s)
}

// ---------------------------------------------------------------------------------------------
// the SRAM model against CACTI 7

/// The CACTI 7 reference grid (360 rows) beside the repository.
fn cacti_rows() -> Result<Vec<models::sram::reference::CactiRow>> {
    let path = "../shared/reference/cacti7_train.csv";
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    Ok(models::sram::reference::parse_cacti_csv(&text)?)
}

/// Mean absolute percentage errors against CACTI 7, every row and the held-out rows (with the
/// factors fitted without them), and the finfet7 register files against their two rows.
fn sram_accuracy() -> Result<String> {
    use models::sram::calib;
    use models::sram::fit::{rf_spec, rf_tech, RF_LANES, RF_POINTS};
    use models::sram::reference::{accuracy, held_out, run_rows, TechCache};
    let rows = cacti_rows()?;
    let mut cache = TechCache::default();
    let all = accuracy(&run_rows(&rows, &calib::planar(), &mut cache)?);
    let held = accuracy(&run_rows(
        &held_out(&rows),
        &calib::planar_train(),
        &mut cache,
    )?);
    let row = |what: &str, m: &models::sram::SramAccuracy| {
        vec![
            what.to_string(),
            m.rows.to_string(),
            format!("{:.1} %", m.area_mape_pct),
            format!("{:.1} %", m.read_energy_mape_pct),
            format!("{:.1} %", m.leakage_mape_pct),
            format!("{:.1} %", m.access_time_mape_pct),
        ]
    };
    let mut s = table(
        &[
            "SRAM model vs CACTI 7, MAPE",
            "rows",
            "area",
            "read energy",
            "leakage",
            "access time",
        ],
        &[
            row("every row", &all),
            row("held-out rows, factors fitted without them", &held),
        ],
    );
    let f = calib::finfet_scalars();
    let _ = writeln!(
        s,
        "\nfinfet7 register files: energy scale {:.3}, leakage scale {:.3}, level shift \
         {:.3e} J/bit, solved from the two rows; the structure alone gives the MRF {:+.1} % \
         energy.\n",
        f.energy_scale, f.leakage_scale, f.level_shift_j_per_bit, f.mrf_energy_structural_err_pct
    );
    let mut rows = Vec::new();
    for p in RF_POINTS.iter() {
        let r = models::sram::evaluate_sliced(&rf_spec(p), RF_LANES, &rf_tech(p)?)?;
        let (e, l) = (r.read_energy_j * 1e12, r.leakage_w * 1e3);
        rows.push(vec![
            p.label.to_string(),
            format!("{e:.2} pJ"),
            format!("{:.2} pJ", p.access_pj),
            format!("{:.1} mW", l),
            format!("{:.1} mW", p.leakage_mw),
        ]);
    }
    s.push_str(&table(
        &[
            "register file",
            "access, model",
            "access, row",
            "leakage, model",
            "leakage, row",
        ],
        &rows,
    ));
    Ok(s)
}

/// Least-squares slope of `y` against `x`.
fn slope(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    sxy / sxx
}

/// How the read-energy error against CACTI 7 moves with capacity: the slope of
/// `ln(E_model/E_CACTI)` against `ln C` over every row (the difference of the two models'
/// capacity exponents), the mean signed error per capacity and the slope per block size.
fn sram_capacity() -> Result<String> {
    use models::sram::calib;
    use models::sram::reference::{run_rows, TechCache};
    use std::collections::BTreeMap;
    let rows = cacti_rows()?;
    let res = run_rows(&rows, &calib::planar(), &mut TechCache::default())?;
    let mut all = (Vec::new(), Vec::new());
    let mut by_size: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    let mut by_block: BTreeMap<u64, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    for (row, (r, _)) in rows.iter().zip(&res) {
        let c = &row.config;
        let x = (c.size_bytes as f64).ln();
        let e = (r.read_energy_j * 1e9 / row.cacti.read_nj).ln();
        all.0.push(x);
        all.1.push(e);
        by_size.entry(c.size_bytes).or_default().push(e);
        let b = by_block.entry(c.block_bytes).or_default();
        b.0.push(x);
        b.1.push(e);
    }
    let mut s = format!(
        "d ln(E_model/E_CACTI) / d ln C over {} rows: {:+.4} (model exponent minus CACTI's)\n\n",
        all.0.len(),
        slope(&all.0, &all.1)
    );
    let rows: Vec<Vec<String>> = by_size
        .iter()
        .map(|(size, es)| {
            let m = (es.iter().sum::<f64>() / es.len() as f64).exp() - 1.0;
            vec![format!("{size} B"), es.len().to_string(), spct(m, 1)]
        })
        .collect();
    s.push_str(&table(&["capacity", "rows", "mean signed error"], &rows));
    let rows: Vec<Vec<String>> = by_block
        .iter()
        .map(|(block, (x, y))| {
            vec![
                format!("{block} B"),
                x.len().to_string(),
                format!("{:+.4}", slope(x, y)),
            ]
        })
        .collect();
    s.push('\n');
    s.push_str(&table(&["block", "rows", "slope"], &rows));
    Ok(s)
}

// ---------------------------------------------------------------------------------------------
// docs/simulator.md

/// `gpuenergy diag`'s quick suite on gtx480, gtx780, gtx1080ti, vortex_like and gf8800gtx_like:
/// per preset the discrete and continuous checks that pass, the policy label, and the
/// cross-check of the measured model (r, MAPE, Kendall τ, largest error, verdict) with the
/// per-wave diagnosis fit.
fn diag_summary() -> Result<String> {
    use gpuenergy::diag::{self, Kind, Suite, Thresholds};
    let presets = [
        "gtx480",
        "gtx780",
        "gtx1080ti",
        "vortex_like",
        "gf8800gtx_like",
    ];
    let th = Thresholds::default_embedded();
    let reports: Vec<diag::PresetReport> = presets
        .par_iter()
        .map(|p| {
            let cfg = sim::config::GpuConfig::preset(p)?;
            diag::run(p, &cfg, Suite::Quick, &th, &|_| {}).map_err(|e| anyhow!("{p}: {e}"))
        })
        .collect::<Result<_>>()?;
    let mut rows = Vec::new();
    for r in &reports {
        let count = |k: Kind| {
            let ps: Vec<_> = r.parameters.iter().filter(|p| p.kind == k).collect();
            let pass = ps.iter().filter(|p| p.pass == Some(true)).count();
            format!("{pass}/{}", ps.len())
        };
        let label = r
            .parameters
            .iter()
            .find(|p| p.name == "warpsched_policy.label")
            .map_or("—".to_string(), |p| {
                // "recovered X, predicted Y (configured Z; ..."
                let word = |key: &str| {
                    p.note
                        .split(key)
                        .nth(1)
                        .and_then(|t| t.split([',', ' ', ';', ')']).next())
                        .unwrap_or("?")
                        .to_string()
                };
                let verdict = if p.pass == Some(true) {
                    ""
                } else {
                    " — FAIL"
                };
                format!(
                    "{}, {}; {}{verdict}",
                    word("recovered "),
                    word("predicted "),
                    word("configured ")
                )
            });
        let cc = r
            .crosscheck
            .as_ref()
            .ok_or_else(|| anyhow!("{}: no cross-check", r.preset))?;
        let m = &cc.measured;
        let wave = m.wave_fit.as_ref().map_or("—".to_string(), |w| {
            format!("{:.1} %, C1 {:.0} cycles", w.mape_pct, w.per_wave_cycles)
        });
        rows.push(vec![
            r.preset.clone(),
            count(Kind::Discrete),
            count(Kind::Continuous),
            label,
            format!(
                "{:.3}, {:.1} %, {:.3}, {:.1} % — {}",
                m.pearson_r,
                m.mape_pct,
                m.kendall_tau,
                m.max_abs_err_pct,
                if m.pass { "PASS" } else { "FAIL" }
            ),
            wave,
        ]);
    }
    Ok(table(
        &[
            "preset",
            "discrete",
            "continuous within tolerance",
            "policy label (recovered, predicted; configured)",
            "cross-check, measured model: r, MAPE, τ, max err",
            "diagnosis fit a·T + C0 + C1·(waves − 1): MAPE, C1",
        ],
        &rows,
    ))
}
