//! Calibration anchor of the issue-stage cost model (issue-stage spec §4): synthesises the
//! per-warp baseline issue logic (`issue_base`: I-buffer + scoreboards) and SOCGPU's
//! (`issue_socgpu`: I-buffer + dependence matrix + comparators + selection) at their default
//! sizes with the ASAP7 flow at the GTX1080Ti-like clock (1480 MHz), and prints synthesised
//! against modelled (`models::issue`, logic calibrated with the overlay fitted from the
//! committed goldens) area, leakage and power, with their ratios. Nothing is fitted to these
//! two points. Runs with the live flow only (`GPUENERGY_LIBERTY_DIR`, yosys, OpenSTA,
//! iverilog; see `live_flow.rs`), on demand: it is ignored by default (see the test).

use calibration::fit::fit_records;
use calibration::flow::{self, registry, FlowOptions};
use models::gpu::TechCostSource;
use models::issue::{baseline_cost, socgpu_cost, BaselineIssue, DesignCost, SocgpuIssue};
use std::collections::BTreeMap;
use std::path::Path;

/// Events per cycle of each design's testbench stimulus (`+stim`, see the registry's stimulus
/// text): the rates the modelled power is evaluated at.
fn baseline_rates(c: &str) -> f64 {
    match c {
        // a fetch half the time, the head issued when free (at most the fetch rate), a
        // write-back two times in three (at most the issue rate), a check every cycle
        "ib_writes" | "ib_reads" | "sb_updates" => 0.5,
        "sb_lookups" => 1.0,
        _ => 0.0,
    }
}

fn socgpu_rates(n: f64) -> impl Fn(&str) -> f64 {
    move |c: &str| match c {
        // an insert, an issue and a write-back each attempted half the time; the buffer holds
        // about half its entries, each compared at insert, each a NOR evaluation every cycle
        "ib_inserts" | "ib_reads" | "dm_row_writes" | "dm_column_clears" | "issued" => 0.5,
        "dm_comparisons" => 0.5 * n / 2.0,
        "dm_nor_evals" => n / 2.0,
        "seniority_updates" => 0.5 * n / 4.0,
        "selections" => 1.0,
        _ => 0.0,
    }
}

fn modelled_power_w(d: &DesignCost, rates: &dyn Fn(&str) -> f64, clock_hz: f64) -> f64 {
    d.added_leakage_w() + d.added_dynamic_j(rates) * clock_hz
}

/// A measurement (about a quarter of an hour of synthesis), run on demand:
/// `GPUENERGY_LIBERTY_DIR=../shared/asap7 cargo test --release -p calibration --test issue_anchor
/// -- --ignored --nocapture`. The RTL's behaviour is checked by its testbenches in every run.
#[test]
#[ignore = "measurement: synthesises both issue blocks (slow); needs GPUENERGY_LIBERTY_DIR, yosys, OpenSTA"]
fn issue_logic_synthesised_vs_modelled() {
    let dir = std::env::var_os("GPUENERGY_LIBERTY_DIR").expect(
        "GPUENERGY_LIBERTY_DIR must name the ASAP7 liberty directory (e.g. ../shared/asap7)",
    );
    flow::check_tools(true).expect("yosys, OpenSTA and iverilog are needed");
    let clock_hz = 1480e6;
    let out = std::env::temp_dir().join(format!("gpuenergy-anchor-{}", std::process::id()));
    let mut opts = FlowOptions::new(Path::new(&dir));
    opts.out_dir = out.clone();
    opts.clock_period_s = 1.0 / clock_hz;
    let lib = flow::library::prepare(&opts.liberty_dir, "rvt", "tt", &out.join(".lib")).unwrap();

    // the logic models calibrated from the committed goldens (fit from data, not from these
    // two points), at the synthesis point
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/asap7-rvt-tt");
    let recs = calibration::collect::collect(&goldens).unwrap();
    let overlay = fit_records("asap7", &recs).unwrap().overlay;
    let choice = techlib::ResolvedPoint::resolve(
        "asap7",
        Some("rvt"),
        Some(overlay.reference.vdd_v),
        None,
        Some(overlay.reference.temperature_c + 273.15),
    )
    .unwrap();
    let src = TechCostSource::new(&choice, Some(overlay)).unwrap();
    let base = BaselineIssue::default();
    let soc = SocgpuIssue::default();
    let mb = baseline_cost(&base, &src).unwrap();
    let ms = socgpu_cost(&soc, &base, &src).unwrap();

    // both blocks synthesised at once
    let recs: Vec<calibration::SynthRecord> = std::thread::scope(|sc| {
        let jobs: Vec<_> = ["issue_base", "issue_socgpu"]
            .into_iter()
            .map(|name| {
                let (lib, opts) = (&lib, &opts);
                sc.spawn(move || {
                    let spec = registry::spec(name, &BTreeMap::new()).unwrap();
                    flow::run(&spec, lib, opts).unwrap()
                })
            })
            .collect();
        jobs.into_iter().map(|j| j.join().unwrap()).collect()
    });
    let mut rows = Vec::new();
    for ((name, model, rates), rec) in [
        (
            "issue_base",
            &mb,
            Box::new(baseline_rates) as Box<dyn Fn(&str) -> f64>,
        ),
        (
            "issue_socgpu",
            &ms,
            Box::new(socgpu_rates(soc.ib_depth as f64)) as Box<dyn Fn(&str) -> f64>,
        ),
    ]
    .into_iter()
    .zip(&recs)
    {
        let area = model.added_area_m2();
        let leak = model.added_leakage_w();
        let power = modelled_power_w(model, rates.as_ref(), clock_hz);
        println!(
            "{name}: area synth {:.3} um2 model {:.3} um2 (model/synth {:.3}); leakage synth \
             {:.3e} W model {:.3e} W ({:.3}); power at 1480 MHz synth {:.3e} W model {:.3e} W \
             ({:.3}); {} cells",
            rec.area_m2 * 1e12,
            area * 1e12,
            area / rec.area_m2,
            rec.leakage_w,
            leak,
            leak / rec.leakage_w,
            rec.total_w,
            power,
            power / rec.total_w,
            rec.cell_count
        );
        for s in &model.added {
            println!(
                "  {:<32} {:<58} {:>10.3} um2",
                s.name,
                s.model,
                s.area_m2 * 1e12
            );
        }
        rows.push((name, area / rec.area_m2, leak / rec.leakage_w, rec.area_m2));
    }
    // SOCGPU's logic over the baseline's, synthesised and modelled
    let synth_growth = rows[1].3 / rows[0].3;
    let model_growth = ms.added_area_m2() / mb.added_area_m2();
    println!("area SOCGPU/baseline: synth {synth_growth:.3}, model {model_growth:.3}");
    let _ = std::fs::remove_dir_all(&out);
    // The composed model sums component models fitted on other blocks (and analytical
    // comparators): within a factor of 3 of synthesis is what such a composition can promise.
    for (name, a, l, _) in &rows {
        assert!(
            (1.0 / 3.0..=3.0).contains(a),
            "{name}: area model/synth {a}"
        );
        assert!((0.1..=10.0).contains(l), "{name}: leakage model/synth {l}");
    }
}
