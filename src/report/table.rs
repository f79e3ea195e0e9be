//! Fixed-width text tables of estimates: per component area, dynamic and leakage power, share
//! of energy and the source of the numbers (with a legend line naming each source), then per
//! workload runtime, energy, average power and energy-delay product.

use crate::study::Report;
use models::gpu::{CvMape, Estimate, IdleSms, Node, Source};
use std::fmt::Write as _;

/// Short marker of a source for the table's and the CSV's `source` column. Percentages are the
/// source's recorded errors: `a` area, `r` read energy, `l` leakage, `e` energy per operation;
/// for a calibrated quantity `-` marks one the analytical model supplies and `?` one fitted to
/// too few points to cross-validate.
pub fn source_marker(s: &Source) -> String {
    let pct = |v: CvMape| match v {
        CvMape::Pct(v) => format!("{v:.1}"),
        CvMape::NotCrossValidated => "?".to_string(),
        CvMape::Analytical => "-".to_string(),
    };
    match s {
        Source::Analytical => "analytical".into(),
        Source::SramModel { accuracy: None } => "sram unmeasured".into(),
        Source::SramModel { accuracy: Some(a) } => format!(
            "sram a{:.1} r{:.1} l{:.1}",
            a.area_mape_pct, a.read_energy_mape_pct, a.leakage_mape_pct
        ),
        Source::Calibrated { cv_mape_pct: m, .. } => format!(
            "cal a{} l{} e{}",
            pct(m.area_m2),
            pct(m.leakage_w),
            pct(m.energy_per_op_j)
        ),
        Source::Published { .. } => "published".into(),
        Source::Wire => "wire".into(),
        Source::Mixed => "mixed".into(),
    }
}

/// What stands behind an "unmeasured" SRAM figure at a FinFET node: the largest error of the
/// scalars fitted to the two 7 nm register-file rows, as the fit recorded it.
fn finfet_sram_note() -> String {
    let s = models::sram::calib::finfet_scalars();
    let worst = [
        s.mrf_energy_err_pct,
        s.mrf_leakage_err_pct,
        s.srf_energy_err_pct,
        s.srf_leakage_err_pct,
    ]
    .into_iter()
    .map(f64::abs)
    .fold(0.0, f64::max);
    format!(
        " (no CACTI 7 reference at FinFET nodes; there the energy and leakage scales are fitted \
         to two 7 nm register-file rows, worst error {worst:.1} %: docs/accuracy.md)"
    )
}

/// One legend line for the sources that occur in `root`, in a fixed order.
pub fn source_legend(root: &Node) -> String {
    let mut seen: [Option<String>; 6] = Default::default();
    root.walk(0, &mut |_, n| {
        let (i, text) = match &n.source {
            Source::Analytical => (
                0,
                "analytical = logic gate-equivalent model, uncalibrated (accuracy unknown)".into(),
            ),
            Source::SramModel { accuracy } => (
                1,
                format!(
                    "sram = CACTI-class SRAM model, mean error vs CACTI 7 in % (a area, r read \
                     energy, l leakage) or unmeasured{}",
                    if accuracy.is_none() {
                        finfet_sram_note()
                    } else {
                        String::new()
                    }
                ),
            ),
            Source::Calibrated { overlay, .. } => (
                2,
                format!(
                    "cal = calibration overlay {overlay}, cross-validated MAPE in % (a area, \
                     l leakage, e energy/op; - = analytical, ? = not cross-validated)"
                ),
            ),
            Source::Published { source } => (3, format!("published = {source}")),
            Source::Wire => (4, "wire = wire RC and clock-pin capacitance".into()),
            Source::Mixed => (5, "mixed = several sources".into()),
        };
        seen[i].get_or_insert(text);
    });
    let parts: Vec<String> = seen.into_iter().flatten().collect();
    format!("source: {}", parts.join("; "))
}

/// Per-component table of one estimate: area (mm²), dynamic and leakage power (mW), share of
/// energy (of leakage power without a run) and source, then the run's totals.
pub fn estimate_table(e: &Estimate) -> String {
    let tot = e.totals();
    let t = e.runtime_s;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} — {} at {:.3} V, {:.0} K{}",
        e.label,
        e.tech,
        e.vdd_v,
        e.temperature_k,
        if t > 0.0 {
            format!(", runtime {:.3} us", t * 1e6)
        } else {
            String::new()
        }
    );
    // with a run: power averaged over it (energy / runtime; a gated block leaks only while
    // powered), the CSV's avg_dynamic_mw and avg_leakage_mw; without one: the leakage with
    // every block powered, the CSV's leakage_mw
    let (dyn_head, leak_head) = if t > 0.0 {
        ("avg dyn mW", "avg leak mW")
    } else {
        ("dyn mW", "leak mW")
    };
    let _ = writeln!(
        s,
        "{:<40} {:>10} {:>12} {:>12} {:>7} source",
        "component", "area mm2", dyn_head, leak_head, "share"
    );
    let denom = if t > 0.0 {
        tot.energy_j()
    } else {
        tot.leakage_w
    };
    e.root.walk(0, &mut |d, n| {
        let nt = n.totals();
        let (dyn_mw, leak_mw) = if t > 0.0 {
            (nt.dynamic_j / t * 1e3, nt.leakage_j / t * 1e3)
        } else {
            (0.0, nt.leakage_w * 1e3)
        };
        let share = if denom > 0.0 {
            100.0 * if t > 0.0 { nt.energy_j() } else { nt.leakage_w } / denom
        } else {
            0.0
        };
        let name = format!("{}{}", "  ".repeat(d), n.name);
        let _ = writeln!(
            s,
            "{:<40} {:>10.4} {:>12.3} {:>12.3} {:>6.1}% {}",
            name,
            nt.area_m2 * 1e6,
            dyn_mw,
            leak_mw,
            share,
            source_marker(&n.source)
        );
    });
    let _ = writeln!(s, "{}", source_legend(&e.root));
    if t > 0.0 {
        let _ = writeln!(
            s,
            "energy {:.4} mJ, average power {:.3} W, EDP {:.4e} J·s",
            e.energy_j() * 1e3,
            e.average_power_w(),
            e.edp_js()
        );
    }
    s
}

/// Adds `b`'s energies into `a` (same tree shape; area is not summed).
fn add_tree(a: &mut Node, b: &Node) {
    a.dynamic_j += b.dynamic_j;
    a.leakage_j += b.leakage_j;
    a.gating_overhead_j += b.gating_overhead_j;
    for (x, y) in a.children.iter_mut().zip(&b.children) {
        add_tree(x, y);
    }
}

/// The estimate report as text: without workloads the static (area and leakage) breakdown and
/// the chip totals; with workloads the component breakdown summed over them (energy over the
/// total run time), one line per workload, and the chip area.
pub fn render(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}", r.run.header_line());
    if r.workloads.is_empty() {
        let e = r.static_estimate(format!(
            "{} — area and leakage only (no simulation)",
            r.run.config_name
        ));
        s.push_str(&estimate_table(&e));
        let _ = writeln!(
            s,
            "chip: {:.2} mm2, leakage {:.3} W (every block powered{})",
            r.area_m2 * 1e6,
            r.leakage_w,
            structures_note(r)
        );
        return s;
    }
    if r.activity_source == crate::amodel::SOURCE_NAME {
        let _ = writeln!(
            s,
            "{}\n  cycles and energies are estimates of the analytical model; see docs/estimate.md, \
             \"Analytical activity source\", for its measured error\n",
            crate::amodel::TABLE_NOTE
        );
    }
    if r.activity_source == "reference" {
        let _ = writeln!(
            s,
            "activity: the reference-mode model of the control-flow spec (scheduler-level \
             timing, one warp per scheduler cycle; memory counted functionally), not the \
             cycle-level simulator\n"
        );
    }
    let mut total = r.workloads[0].estimate.clone();
    total.label = if r.workloads.len() == 1 {
        r.workloads[0].workload.clone()
    } else {
        format!("{} workloads, summed", r.workloads.len())
    };
    for w in &r.workloads[1..] {
        add_tree(&mut total.root, &w.estimate.root);
        total.runtime_s += w.estimate.runtime_s;
    }
    s.push_str(&estimate_table(&total));
    s.push('\n');
    let _ = writeln!(
        s,
        "{:<16} {:>12} {:>8} {:>14} {:>12} {:>12} {:>10} {:>12}",
        "workload",
        "cycles",
        "SMs busy",
        "runtime us",
        "energy uJ",
        "avg power W",
        "leak %",
        "EDP J*s"
    );
    for w in &r.workloads {
        let u = &w.estimate.sm_use;
        let _ = writeln!(
            s,
            "{:<16} {:>12} {:>8} {:>14.3} {:>12.3} {:>12.3} {:>9.1}% {:>12.4e}",
            w.workload,
            w.cycles,
            format!("{}/{}", u.busy_sms, u.sms),
            w.runtime_s * 1e6,
            w.energy_j * 1e6,
            w.average_power_w,
            if w.energy_j > 0.0 {
                100.0 * w.leakage_j / w.energy_j
            } else {
                0.0
            },
            w.edp_js
        );
    }
    for w in &r.workloads {
        if let Some(sample) = &w.sample {
            let _ = writeln!(s, "{}", sample.line(&w.workload));
        }
    }
    for w in r.workloads.iter().filter(|w| w.truncated) {
        let _ = writeln!(
            s,
            "note: {} is TRUNCATED: a launch was stopped early (sim.max_cycles or \
             sim.max_warp_insts), so its counts and energies cover only part of the run",
            w.workload
        );
    }
    let idle_j: f64 = r
        .workloads
        .iter()
        .map(|w| w.estimate.sm_use.idle_sm_leakage_j)
        .sum();
    let powered: f64 = r
        .workloads
        .iter()
        .map(|w| w.estimate.sm_use.powered_sm_s)
        .sum();
    let available: f64 = r
        .workloads
        .iter()
        .map(|w| w.estimate.sm_use.sms as f64 * w.runtime_s)
        .sum();
    let busy_pct = if available > 0.0 {
        100.0 * powered / available
    } else {
        0.0
    };
    match r.workloads[0].estimate.sm_use.idle_sms {
        IdleSms::Gated => {
            let _ = writeln!(
                s,
                "SMs held work {busy_pct:.1}% of SM-time; idle SMs power-gated: their leakage \
                 ({:.3} uJ) is not counted (--idle-sms leaking counts it)",
                idle_j * 1e6
            );
        }
        IdleSms::Leaking => {
            let _ = writeln!(
                s,
                "SMs held work {busy_pct:.1}% of SM-time; idle SMs leak: {:.3} uJ of the leakage \
                 is theirs (--idle-sms gated leaves it out)",
                idle_j * 1e6
            );
        }
    }
    let _ = writeln!(
        s,
        "chip area {:.2} mm2, leakage {:.3} W with every block powered{} ({}, {})",
        r.area_m2 * 1e6,
        r.leakage_w,
        structures_note(r),
        r.run.config_name,
        r.tech
    );
    if let Some(b) = &r.board {
        s.push_str(&board_table(b));
    }
    s
}

/// The board model's power per run, term by term (`estimate --board-power`).
fn board_table(b: &crate::study::board::BoardSection) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\nboard power, W (k = {:.3} on the chip's dynamic power, constant {:.1} W, regulators {:.0} % efficient)",
        b.scalars.dynamic_scale,
        b.scalars.constant_w,
        b.scalars.vr_efficiency * 100.0
    );
    let _ = writeln!(
        s,
        "{:<16} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "workload",
        "k*chip dyn",
        "chip leak",
        "DRAM dyn",
        "DRAM bg",
        "VR loss",
        "constant",
        "board"
    );
    for w in &b.runs {
        let p = &w.power;
        let _ = writeln!(
            s,
            "{:<16} {:>10.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1}",
            w.workload,
            p.scaled_chip_dynamic_w,
            p.chip_leakage_w,
            p.dram_dynamic_w,
            p.dram_background_w,
            p.vr_loss_w,
            p.constant_w,
            p.board_power_w
        );
    }
    let _ = writeln!(s, "scalars: {}", b.scalars.source);
    if !b.note.is_empty() {
        let _ = writeln!(s, "note: {}", b.note);
    }
    s
}

/// What the chip's area and leakage include beyond the baseline chip: `, including the
/// technique's KEY[, KEY…] structures` (the keys of the costings that added them), or nothing.
fn structures_note(r: &Report) -> String {
    if r.technique_structures.is_empty() {
        String::new()
    } else {
        format!(
            ", including the technique's {} structures",
            r.technique_structures.join(", ")
        )
    }
}
