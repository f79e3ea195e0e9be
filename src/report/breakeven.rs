//! Renderers of `gpuenergy breakeven`: the table and JSON of the sleep-transistor model at one
//! point (power-gating §1.7) with friendly units (pJ, ns, µm, µm², fins, %, cycles), the tables
//! of the supply and switch-scale sweeps, and their SVG plots (BET and W against the swept
//! quantity, one panel each).

use anyhow::Context;
use models::gating::breakeven::Breakeven;
use plotters::prelude::*;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn src(calibrated: bool) -> &'static str {
    if calibrated {
        "calibrated"
    } else {
        "analytical"
    }
}

/// `W_sw` in µm, with the fin count at FinFET nodes.
fn width_text(b: &Breakeven) -> String {
    match b.sleep.n_fins {
        Some(n) => format!("{:.3} um ({n} fins)", b.sleep.switch_width_m * 1e6),
        None => format!("{:.3} um", b.sleep.switch_width_m * 1e6),
    }
}

/// The text of one point: a heading, then one line per quantity.
pub fn table(b: &Breakeven) -> String {
    let s = &b.sleep;
    let i = &b.inputs;
    let d = &i.device;
    let k = &i.knobs;
    let dom = &b.domain;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "breakeven: {} {}, {} switch ({} device), logic {}, {} rail",
        b.node,
        dom.spec.label(),
        k.switch.name(),
        b.switch_flavour,
        b.logic_flavour,
        k.rail.name()
    );
    let rows: Vec<(&str, String)> = vec![
        (
            "operating point",
            format!(
                "{:.3} V, {:.1} K, {:.1} MHz (t_clk {:.3} ns)",
                b.vdd_v,
                b.temperature_k,
                b.clock_hz * 1e-6,
                i.t_clk_s * 1e9
            ),
        ),
        (
            "thresholds",
            format!(
                "logic Vth {:.3} V (overdrive {:.3} V), switch Vth {:.3} V",
                b.vth_logic_v,
                i.vdd_v - i.vt_logic_v,
                b.vth_switch_v
            ),
        ),
        (
            "block leakage P_leak",
            format!("{:.4} mW ({})", dom.p_leak_w * 1e3, src(dom.calibrated)),
        ),
        (
            "block peak current I_act",
            format!(
                "{:.3} mA (peak power {:.3} mW)",
                dom.i_act_a * 1e3,
                dom.peak_power_w * 1e3
            ),
        ),
        ("block capacitance C_blk", format!("{:.3} pF", dom.c_blk_f * 1e12)),
        (
            "switch device, per um",
            format!(
                "rho_on {:.1} ohm*um, I_sat {:.1} uA, I_off {:.4} nA, c_d {:.3} fF, c_g {:.3} fF, area {:.4} um2",
                d.rho_on_ohm_m * 1e6,
                d.i_sat_a_per_m,
                d.i_off_a_per_m * 1e3,
                d.c_drain_f_per_m * 1e9,
                d.c_gate_f_per_m * 1e9,
                d.area_m2_per_m * 1e6
            ),
        ),
        (
            "switch width W_sw",
            format!(
                "{} (W_min {:.3} um x s {:.2})",
                width_text(b),
                s.switch_width_min_m * 1e6,
                k.size_multiplier
            ),
        ),
        (
            "on-resistance R_on",
            format!("{:.4} ohm", s.r_on_ohm),
        ),
        (
            "IR drop",
            format!(
                "{:.2} mV, delay penalty {:.2} % (p_max {:.1} %)",
                s.ir_drop_v * 1e3,
                s.delay_penalty_frac * 100.0,
                k.p_max_frac * 100.0
            ),
        ),
        (
            "rail capacitance C_vr",
            match s.decay_tau_s {
                Some(tau) => format!(
                    "{:.3} pF, swing {:.3} V, decay tau {:.3} ns",
                    s.rail_capacitance_f * 1e12,
                    s.rail_swing_v,
                    tau * 1e9
                ),
                None => format!(
                    "{:.3} pF, swing {:.3} V",
                    s.rail_capacitance_f * 1e12,
                    s.rail_swing_v
                ),
            },
        ),
        (
            "event energy E_event",
            format!(
                "{:.4} pJ (rail {:.4} pJ + gate drive {:.4} pJ)",
                s.event_energy_j * 1e12,
                s.rail_recharge_j * 1e12,
                s.gate_drive_j * 1e12
            ),
        ),
        (
            "leakage per cycle",
            format!("{:.4} pJ", dom.p_leak_w * i.t_clk_s * 1e12),
        ),
        (
            "residual leakage r",
            format!("{:.5} %", s.residual_leak_frac * 100.0),
        ),
        (
            "break-even time BET",
            format!(
                "{} cycles ({:.2} before rounding, {:.3} ns)",
                s.bet_cycles,
                s.bet_exact_cycles,
                s.bet_cycles as f64 * i.t_clk_s * 1e9
            ),
        ),
        (
            "wakeup W",
            format!(
                "{} cycles (t_wake {:.4} ns in {} step(s), + {} sync)",
                s.wakeup_cycles,
                s.t_wake_s * 1e9,
                s.wake_steps,
                k.w_sync_cycles
            ),
        ),
        (
            "area",
            format!(
                "{:.3} um2 (switch {:.3} um2 + controller {:.3} um2)",
                s.area_m2 * 1e12,
                s.switch_area_m2 * 1e12,
                b.controller.area_m2 * 1e12
            ),
        ),
        (
            "controller",
            format!(
                "{:.4} pJ per toggle, {:.4} uW leakage ({})",
                b.controller.energy_per_toggle_j * 1e12,
                b.controller.leakage_w * 1e6,
                src(b.controller.calibrated)
            ),
        ),
    ];
    for (name, value) in rows {
        let _ = writeln!(t, "  {name:<26} {value}");
    }
    t
}

/// The JSON object of one point, friendly units in every key.
pub fn json(b: &Breakeven) -> serde_json::Value {
    let s = &b.sleep;
    let i = &b.inputs;
    let d = &i.device;
    let k = &i.knobs;
    let mut v = serde_json::json!({
        "node": b.node,
        "domain": b.domain.spec.kind.name(),
        "unit": b.domain.spec.unit.name(),
        "lanes": b.domain.spec.lanes(),
        "switch": k.switch.name(),
        "rail": k.rail.name(),
        "logic_flavour": b.logic_flavour.key(),
        "switch_flavour": b.switch_flavour.key(),
        "vdd_v": b.vdd_v,
        "temperature_k": b.temperature_k,
        "clock_mhz": b.clock_hz * 1e-6,
        "t_clk_ns": i.t_clk_s * 1e9,
        "vth_logic_v": b.vth_logic_v,
        "logic_overdrive_v": i.vdd_v - i.vt_logic_v,
        "vth_switch_v": b.vth_switch_v,
    });
    v["block"] = serde_json::json!({
            "p_leak_mw": b.domain.p_leak_w * 1e3,
            "peak_power_mw": b.domain.peak_power_w * 1e3,
            "i_act_ma": b.domain.i_act_a * 1e3,
            "c_blk_pf": b.domain.c_blk_f * 1e12,
            "area_um2": b.domain.area_m2 * 1e12,
            "source": src(b.domain.calibrated),
    });
    v["switch_device_per_um"] = serde_json::json!({
            "rho_on_ohm_um": d.rho_on_ohm_m * 1e6,
            "i_sat_ua": d.i_sat_a_per_m,
            "i_off_na": d.i_off_a_per_m * 1e3,
            "c_drain_ff": d.c_drain_f_per_m * 1e9,
            "c_gate_ff": d.c_gate_f_per_m * 1e9,
            "area_um2": d.area_m2_per_m * 1e6,
    });
    v["knobs"] = serde_json::json!({
            "alpha": k.alpha,
            "p_max_pct": k.p_max_frac * 100.0,
            "size_multiplier": k.size_multiplier,
            "kappa": k.kappa,
            "beta_buf": k.beta_buf,
            "w_sync_cycles": k.w_sync_cycles,
            "v_floor_frac": k.v_floor_frac,
    });
    let results = serde_json::json!({
        "bet_cycles": s.bet_cycles,
        "bet_exact_cycles": s.bet_exact_cycles,
        "wakeup_cycles": s.wakeup_cycles,
        "residual_leak_pct": s.residual_leak_frac * 100.0,
        "event_energy_pj": s.event_energy_j * 1e12,
        "rail_recharge_pj": s.rail_recharge_j * 1e12,
        "gate_drive_pj": s.gate_drive_j * 1e12,
        "leakage_per_cycle_pj": b.domain.p_leak_w * i.t_clk_s * 1e12,
        "switch_width_um": s.switch_width_m * 1e6,
        "switch_width_min_um": s.switch_width_min_m * 1e6,
        "n_fins": s.n_fins,
        "r_on_ohm": s.r_on_ohm,
        "ir_drop_mv": s.ir_drop_v * 1e3,
        "delay_penalty_pct": s.delay_penalty_frac * 100.0,
        "rail_capacitance_pf": s.rail_capacitance_f * 1e12,
        "rail_swing_v": s.rail_swing_v,
        "decay_tau_ns": s.decay_tau_s.map(|t| t * 1e9),
        "t_wake_ns": s.t_wake_s * 1e9,
        "wake_steps": s.wake_steps,
        "area_um2": s.area_m2 * 1e12,
        "switch_area_um2": s.switch_area_m2 * 1e12,
    });
    if let (Some(o), serde_json::Value::Object(r)) = (v.as_object_mut(), results) {
        o.extend(r);
    }
    v["controller"] = serde_json::json!({
            "energy_per_toggle_pj": b.controller.energy_per_toggle_j * 1e12,
            "leakage_uw": b.controller.leakage_w * 1e6,
            "area_um2": b.controller.area_m2 * 1e12,
            "source": src(b.controller.calibrated),
    });
    v
}

/// What a sweep varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Swept {
    /// The supply.
    Vdd,
    /// The switch width multiplier s.
    Scale,
}

impl Swept {
    fn x(self, b: &Breakeven) -> f64 {
        match self {
            Swept::Vdd => b.vdd_v,
            Swept::Scale => b.inputs.knobs.size_multiplier,
        }
    }
    fn label(self) -> &'static str {
        match self {
            Swept::Vdd => "supply Vdd (V)",
            Swept::Scale => "switch width multiplier s (× W_min)",
        }
    }
    fn file(self) -> &'static str {
        match self {
            Swept::Vdd => "breakeven_vs_vdd.svg",
            Swept::Scale => "breakeven_vs_scale.svg",
        }
    }
}

/// One row per point of a sweep.
pub fn sweep_table(what: Swept, points: &[Breakeven]) -> String {
    let mut t = String::new();
    let head = match what {
        Swept::Vdd => "Vdd V",
        Swept::Scale => "s",
    };
    let _ = writeln!(
        t,
        "{head:>7} {:>9} {:>10} {:>11} {:>9} {:>14} {:>8} {:>9} {:>5} {:>4} {:>10} {:>11}",
        "f MHz",
        "P_leak mW",
        "E_event pJ",
        "r %",
        "W_sw um",
        "fins",
        "IR mV",
        "BET",
        "W",
        "t_wake ns",
        "area um2"
    );
    for b in points {
        let s = &b.sleep;
        let fins = s
            .n_fins
            .map(|n| n.to_string())
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            t,
            "{:>7.3} {:>9.1} {:>10.4} {:>11.4} {:>9.5} {:>14.3} {:>8} {:>9.2} {:>5} {:>4} {:>10.4} {:>11.3}",
            what.x(b),
            b.clock_hz * 1e-6,
            b.domain.p_leak_w * 1e3,
            s.event_energy_j * 1e12,
            s.residual_leak_frac * 100.0,
            s.switch_width_m * 1e6,
            fins,
            s.ir_drop_v * 1e3,
            s.bet_cycles,
            s.wakeup_cycles,
            s.t_wake_s * 1e9,
            s.area_m2 * 1e12,
        );
    }
    t
}

/// Writes the plot of a sweep into `dir`: BET (top panel) and W (bottom panel), in cycles,
/// against the swept quantity, under a title naming the node and domain and `run`'s subtitle.
/// Returns the file written.
pub fn write_sweep_plot(
    dir: &Path,
    what: Swept,
    points: &[Breakeven],
    run: &crate::provenance::RunInfo,
) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join(what.file());
    let xs: Vec<f64> = points.iter().map(|b| what.x(b)).collect();
    let (x_lo, x_hi) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    let pad = ((x_hi - x_lo) * 0.05).max(1e-3);
    let title = points
        .first()
        .map(|b| format!("{} {}", b.node, b.domain.spec.label()))
        .unwrap_or_default();
    {
        let root = SVGBackend::new(&path, (800, 760)).into_drawing_area();
        root.fill(&WHITE)?;
        let body = super::titled(
            &root,
            &format!("{title}: sleep-transistor sweep"),
            &run.plot_subtitle(),
        )?;
        let half = body.dim_in_pixel().1 / 2;
        let (top, bottom) = body.split_vertically(half);
        let panels: [(&DrawingArea<SVGBackend, _>, &str, Vec<f64>, RGBColor); 2] = [
            (
                &top,
                "break-even time BET (cycles)",
                points.iter().map(|b| b.sleep.bet_cycles as f64).collect(),
                RGBColor(31, 119, 180),
            ),
            (
                &bottom,
                "wakeup W (cycles)",
                points
                    .iter()
                    .map(|b| b.sleep.wakeup_cycles as f64)
                    .collect(),
                RGBColor(214, 39, 40),
            ),
        ];
        for (area, y_label, ys, colour) in panels {
            let y_hi = ys.iter().cloned().fold(1.0, f64::max) * 1.15;
            let mut chart = ChartBuilder::on(area)
                .caption(y_label, ("sans-serif", 18))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(60)
                .build_cartesian_2d((x_lo - pad)..(x_hi + pad), 0.0..y_hi)?;
            chart
                .configure_mesh()
                .max_light_lines(1)
                .x_desc(what.label())
                .y_desc(y_label)
                .draw()?;
            let pts: Vec<(f64, f64)> = xs.iter().cloned().zip(ys.iter().cloned()).collect();
            chart.draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))?;
            chart.draw_series(pts.iter().map(|&p| Circle::new(p, 4, colour.filled())))?;
        }
        root.present()?;
    }
    Ok(path)
}
