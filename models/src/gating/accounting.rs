//! Energy accounting of power gating for one domain over one run (power-gating §1.6), and the
//! control-logic energy accounted beside it.
//!
//! ```text
//! C_gated     = Σ_events G_e            C_wake = Σ wakeup cycles (truncated at kernel end)
//! E_leak,PG   = P_leak·t_clk·[T_PG − (1 − r)·C_gated − (wakeup_cycles_leak ? 0 : C_wake)]
//! E_ovh       = Σ_events E_event(G_e)  (Fixed mode: N_events·BET·P_leak·t_clk)
//! E_leak,base = P_leak·t_clk·T_base
//! static_savings = 1 − (E_leak,PG + E_ovh)/E_leak,base
//! ```
//!
//! `pg_overhead_norm = N_events·BET/T_base` and `net_gain = (C_gated − BET·N_events)/T_PG`
//! (power-gating §9). Slowdowns are charged because `T_PG ≠ T_base`. The control logic
//! (counters, compare, state machine) is accounted separately: energy per toggle × toggles plus
//! leakage × run time (`T_PG·t_clk`), from [`super::domain::ControllerCost`].
//!
//! The input is a models-side record ([`GatingRun`]); the simulator's per-domain statistics map
//! onto it (gated-length histogram, wakeup cycles, events, run lengths).

use super::sleep::EventEnergy;
use super::GatingError;
use serde::Serialize;

/// How each event's overhead is charged.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum Timing {
    /// `pg.timing = "Fixed"`: every event costs `BET·P_leak·t_clk`; `r` is the configured
    /// `pg.residual_leak_r`.
    Fixed,
    /// `pg.timing = "Physical"`: every event costs `E_event(G_e)` of the sleep-transistor model
    /// (constant under `FullCollapse`, a function of G under `Decay`, integrated over the G
    /// histogram).
    Physical(EventEnergy),
}

/// One domain's gating over one run, as the accounting needs it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GatingRun {
    /// Cycles of the run with power gating, `T_PG`.
    pub t_pg_cycles: u64,
    /// Cycles of the same workload on the baseline (no PG, no folding), `T_base`.
    pub t_base_cycles: u64,
    /// Histogram of closed events' gated lengths: `(G, number of events with that G)`.
    pub gated_lengths: Vec<(u64, u64)>,
    /// Gated length of an event still open at the end of the run, if any (always counted in
    /// `C_gated`; its event energy is charged only when `charge_open_event`).
    pub open_event_gated_cycles: Option<u64>,
    /// `pg.charge_open_event`.
    pub charge_open_event: bool,
    /// Wakeup cycles of the run, `C_wake` (truncated at the end of the run).
    pub wakeup_cycles_total: u64,
    /// `pg.wakeup_cycles_leak`.
    pub wakeup_cycles_leak: bool,
    /// Leakage power of the powered domain, W.
    pub p_leak_w: f64,
    /// Clock period, s.
    pub t_clk_s: f64,
    /// Residual gated leakage fraction r.
    pub residual_leak_frac: f64,
    /// Break-even time, cycles.
    pub bet_cycles: u64,
    /// Fixed or physical event overhead.
    pub timing: Timing,
    /// Cycles in which the controller's counters or state change.
    pub controller_toggles: u64,
    /// Controller energy per toggle, J.
    pub controller_energy_per_toggle_j: f64,
    /// Controller leakage, W.
    pub controller_leakage_w: f64,
}

/// The accounting's results (joules; fractions as fractions).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GatingEnergy {
    /// Σ G_e, cycles.
    pub gated_cycles: u64,
    /// Events charged, N_events.
    pub events_charged: u64,
    /// Leakage energy with gating, `E_leak,PG`, J.
    pub leakage_pg_j: f64,
    /// Leakage energy of the baseline run, `E_leak,base`, J.
    pub leakage_base_j: f64,
    /// Event overhead `E_ovh = Σ E_event(G_e)`, J.
    pub overhead_j: f64,
    /// `1 − (E_leak,PG + E_ovh)/E_leak,base`.
    pub static_savings_frac: f64,
    /// `N_events·BET/T_base`.
    pub pg_overhead_norm: f64,
    /// `(C_gated − BET·N_events)/T_PG` (may be negative).
    pub net_gain_frac: f64,
    /// Control-logic energy: toggles × energy per toggle + leakage × `T_PG·t_clk`, J.
    pub control_j: f64,
    /// `E_leak,base − E_leak,PG − E_ovh − control` (may be negative), J.
    pub net_saving_j: f64,
}

/// Accounts one run (power-gating §1.6); errors name the offending field.
pub fn account(run: &GatingRun) -> Result<GatingEnergy, GatingError> {
    let finite_nn = |knob: &str, v: f64| {
        if v.is_finite() && v >= 0.0 {
            Ok(v)
        } else {
            Err(GatingError::input(knob, v, "a finite number >= 0"))
        }
    };
    if run.t_base_cycles == 0 {
        return Err(GatingError::input("t_base_cycles", 0.0, "at least 1 cycle"));
    }
    finite_nn("p_leak_w", run.p_leak_w)?;
    finite_nn("t_clk_s", run.t_clk_s)?;
    finite_nn(
        "controller_energy_per_toggle_j",
        run.controller_energy_per_toggle_j,
    )?;
    finite_nn("controller_leakage_w", run.controller_leakage_w)?;
    let r = run.residual_leak_frac;
    if !(r.is_finite() && (0.0..=1.0).contains(&r)) {
        return Err(GatingError::input(
            "residual_leak_frac (pg.residual_leak_r)",
            r,
            "a fraction in [0, 1]",
        ));
    }
    let closed_gated: u64 = run.gated_lengths.iter().map(|&(g, n)| g * n).sum();
    let closed_events: u64 = run.gated_lengths.iter().map(|&(_, n)| n).sum();
    let open = run.open_event_gated_cycles;
    let c_gated = closed_gated + open.unwrap_or(0);
    let c_wake = run.wakeup_cycles_total;
    let not_leaking = c_gated as f64 * (1.0 - r)
        + if run.wakeup_cycles_leak {
            0.0
        } else {
            c_wake as f64
        };
    if not_leaking > run.t_pg_cycles as f64 + 1e-9 {
        return Err(GatingError::input(
            "gated_lengths / wakeup_cycles_total",
            c_gated as f64,
            "gated (and non-leaking wakeup) cycles that fit in t_pg_cycles",
        ));
    }
    let unit_j = run.p_leak_w * run.t_clk_s;
    let leakage_pg = unit_j * (run.t_pg_cycles as f64 - not_leaking);
    let leakage_base = unit_j * run.t_base_cycles as f64;
    let charged_open = open.filter(|_| run.charge_open_event);
    let events = closed_events + u64::from(charged_open.is_some());
    let overhead = match run.timing {
        Timing::Fixed => events as f64 * run.bet_cycles as f64 * unit_j,
        Timing::Physical(e) => {
            run.gated_lengths
                .iter()
                .map(|&(g, n)| n as f64 * e.energy_j(g))
                .sum::<f64>()
                + charged_open.map_or(0.0, |g| e.energy_j(g))
        }
    };
    let static_savings = if leakage_base > 0.0 {
        1.0 - (leakage_pg + overhead) / leakage_base
    } else {
        0.0
    };
    let control = run.controller_toggles as f64 * run.controller_energy_per_toggle_j
        + run.controller_leakage_w * run.t_pg_cycles as f64 * run.t_clk_s;
    let net_gain = if run.t_pg_cycles > 0 {
        (c_gated as f64 - run.bet_cycles as f64 * events as f64) / run.t_pg_cycles as f64
    } else {
        0.0
    };
    Ok(GatingEnergy {
        gated_cycles: c_gated,
        events_charged: events,
        leakage_pg_j: leakage_pg,
        leakage_base_j: leakage_base,
        overhead_j: overhead,
        static_savings_frac: static_savings,
        pg_overhead_norm: events as f64 * run.bet_cycles as f64 / run.t_base_cycles as f64,
        net_gain_frac: net_gain,
        control_j: control,
        net_saving_j: leakage_base - leakage_pg - overhead - control,
    })
}
