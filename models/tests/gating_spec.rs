//! The deterministic vectors of power-gating §8.8 (physical sleep-transistor model) and §8.9
//! (energy accounting), fed directly with the spec's per-width inputs (no techlib).

use models::gating::accounting::{account, GatingRun, Timing};
use models::gating::sleep::{
    evaluate, min_switch_width_m, PhysicalKnobs, RailModel, SleepInputs, SwitchDevice,
};

const UM: f64 = 1e-6;
const PF: f64 = 1e-12;

/// §8.8: Vdd 0.7 V, t_clk 1 ns, P_leak 50 µW, C_blk 1.0 pF, W_sw 10 µm, c_d' 0.01 pF/µm,
/// c_g' 0.02 pF/µm, β_buf 0.25, V_drv 0.7 V, I_sat' 100 µA/µm, κ 2, I_off' 1 nA/µm, w_sync 1.
fn spec_inputs(rail: RailModel) -> SleepInputs {
    SleepInputs {
        vdd_v: 0.7,
        vt_logic_v: 0.35,
        t_clk_s: 1e-9,
        device: SwitchDevice {
            rho_on_ohm_m: 1000.0 * UM,
            i_sat_a_per_m: 100e-6 / UM,
            i_off_a_per_m: 1e-9 / UM,
            c_drain_f_per_m: 0.01 * PF / UM,
            c_gate_f_per_m: 0.02 * PF / UM,
            area_m2_per_m: 0.0,
            fin_width_m: None,
        },
        p_leak_w: 50e-6,
        i_act_a: 0.2e-3,
        c_blk_f: 1.0 * PF,
        v_drv_v: 0.7,
        e_ctrl_j: 0.0,
        control_area_m2: 0.0,
        switch_width_m: Some(10.0 * UM),
        knobs: PhysicalKnobs {
            rail,
            ..PhysicalKnobs::default()
        },
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs()
}

#[test]
fn full_collapse_vector_8_8() {
    let o = evaluate(&spec_inputs(RailModel::FullCollapse)).unwrap();
    assert!(close(o.rail_capacitance_f, 1.1 * PF, 1e-12), "{o:?}");
    assert!(close(o.residual_leak_frac, 1.4e-4, 1e-9), "{o:?}");
    assert!(close(o.rail_recharge_j, 0.539 * PF, 1e-9), "{o:?}");
    assert!(close(o.gate_drive_j, 0.1225 * PF, 1e-9), "{o:?}");
    assert!(close(o.event_energy_j, 0.6615 * PF, 1e-9), "{o:?}");
    assert!(close(o.bet_exact_cycles, 13.23, 1e-3), "{o:?}");
    assert_eq!(o.bet_cycles, 14);
    assert!(close(o.t_wake_s, 1.54e-9, 1e-9), "{o:?}");
    assert_eq!(o.wakeup_cycles, 3);
}

#[test]
fn decay_vector_8_8() {
    let o = evaluate(&spec_inputs(RailModel::Decay)).unwrap();
    assert!(close(o.decay_tau_s.unwrap(), 10.78e-9, 1e-9), "{o:?}");
    assert_eq!(o.bet_cycles, 9);
}

#[test]
fn sizing_vector_8_8() {
    let w = min_switch_width_m(1.3, 0.2e-3, 1000.0 * UM, 0.05, 0.7, 0.35);
    assert!(close(w, 14.857 * UM, 1e-4), "{w}");
    // Through the model: s = 1 without a given width gives W_min, and the drop meets p_max.
    let mut i = spec_inputs(RailModel::FullCollapse);
    i.switch_width_m = None;
    let o = evaluate(&i).unwrap();
    assert!(close(o.switch_width_m, 14.857 * UM, 1e-4), "{o:?}");
    assert!(close(o.delay_penalty_frac, 0.05, 1e-9), "{o:?}");
}

fn run_8_9(wakeup_cycles_leak: bool) -> GatingRun {
    GatingRun {
        t_pg_cycles: 1000,
        t_base_cycles: 1000,
        gated_lengths: vec![(250, 1)],
        open_event_gated_cycles: None,
        charge_open_event: true,
        wakeup_cycles_total: 3,
        wakeup_cycles_leak,
        p_leak_w: 1.0,
        t_clk_s: 1.0,
        residual_leak_frac: 0.0,
        bet_cycles: 14,
        timing: Timing::Fixed,
        controller_toggles: 0,
        controller_energy_per_toggle_j: 0.0,
        controller_leakage_w: 0.0,
    }
}

#[test]
fn accounting_vector_8_9() {
    let e = account(&run_8_9(true)).unwrap();
    assert!(close(e.leakage_pg_j, 750.0, 1e-12), "{e:?}");
    assert!(close(e.overhead_j, 14.0, 1e-12), "{e:?}");
    assert!(close(e.static_savings_frac, 0.236, 1e-12), "{e:?}");
    assert!(close(e.pg_overhead_norm, 0.014, 1e-12), "{e:?}");
    let e = account(&run_8_9(false)).unwrap();
    assert!(close(e.leakage_pg_j, 747.0, 1e-12), "{e:?}");
    assert!(close(e.overhead_j, 14.0, 1e-12), "{e:?}");
    assert!(close(e.static_savings_frac, 0.239, 1e-12), "{e:?}");
}

#[test]
fn physical_accounting_integrates_decay_over_the_histogram() {
    let o = evaluate(&spec_inputs(RailModel::Decay)).unwrap();
    let mut run = run_8_9(true);
    run.p_leak_w = 50e-6;
    run.t_clk_s = 1e-9;
    run.gated_lengths = vec![(3, 2), (250, 1)];
    run.residual_leak_frac = o.residual_leak_frac;
    run.bet_cycles = o.bet_cycles;
    run.timing = Timing::Physical(o.event);
    let e = account(&run).unwrap();
    let expect = 2.0 * o.event.energy_j(3) + o.event.energy_j(250);
    assert!(close(e.overhead_j, expect, 1e-12), "{e:?}");
    // Short events cost less than long ones under Decay.
    assert!(o.event.energy_j(3) < o.event.energy_j(250));
    // An open event counts its gated cycles; its energy only when charged.
    run.open_event_gated_cycles = Some(40);
    let charged = account(&run).unwrap();
    run.charge_open_event = false;
    let uncharged = account(&run).unwrap();
    assert_eq!(charged.gated_cycles, uncharged.gated_cycles);
    assert!(close(
        charged.overhead_j - uncharged.overhead_j,
        o.event.energy_j(40),
        1e-9
    ));
}

#[test]
fn accounting_refuses_bad_input() {
    let mut run = run_8_9(true);
    run.residual_leak_frac = 1.5;
    let e = account(&run).unwrap_err().to_string();
    assert!(e.contains("residual_leak"), "{e}");
    let mut run = run_8_9(true);
    run.gated_lengths = vec![(2000, 1)];
    assert!(account(&run).is_err());
}

#[test]
fn sleep_model_refuses_bad_input() {
    let mut i = spec_inputs(RailModel::FullCollapse);
    i.knobs.size_multiplier = 0.5;
    let e = evaluate(&i).unwrap_err().to_string();
    assert!(e.contains("size_multiplier") && e.contains(">= 1"), "{e}");
    let mut i = spec_inputs(RailModel::FullCollapse);
    i.p_leak_w = f64::NAN;
    assert!(evaluate(&i).is_err());
    let mut i = spec_inputs(RailModel::FullCollapse);
    i.device.i_off_a_per_m = 10.0; // r = 1.4
    let e = evaluate(&i).unwrap_err().to_string();
    assert!(e.contains("never breaks even"), "{e}");
}

#[test]
fn rush_cap_stages_the_wake() {
    let mut i = spec_inputs(RailModel::FullCollapse);
    i.knobs.i_rush_max_a = 0.3e-3; // full drive 1 mA → 4 steps
    let o = evaluate(&i).unwrap();
    assert_eq!(o.wake_steps, 4);
    assert!(close(o.t_wake_s, 4.0 * 1.54e-9, 1e-9), "{o:?}");
    assert_eq!(o.wakeup_cycles, 7 + 1);
}

#[test]
fn round_mode_rounds_to_nearest() {
    let mut i = spec_inputs(RailModel::FullCollapse);
    i.knobs.bet_rounding = models::gating::sleep::BetRounding::Round;
    assert_eq!(evaluate(&i).unwrap().bet_cycles, 13); // 13.23
}

/// Control logic: toggles × energy per toggle + leakage × T_PG·t_clk, outside static_savings.
#[test]
fn control_logic_energy_is_accounted_separately() {
    let mut run = run_8_9(true);
    run.controller_toggles = 300;
    run.controller_energy_per_toggle_j = 0.01;
    run.controller_leakage_w = 0.002;
    let e = account(&run).unwrap();
    assert!(
        close(e.control_j, 300.0 * 0.01 + 0.002 * 1000.0, 1e-12),
        "{e:?}"
    );
    assert!(close(e.static_savings_frac, 0.236, 1e-12), "{e:?}");
    assert!(
        close(e.net_saving_j, 1000.0 - 750.0 - 14.0 - 5.0, 1e-12),
        "{e:?}"
    );
    assert!(
        close(e.net_gain_frac, (250.0 - 14.0) / 1000.0, 1e-12),
        "{e:?}"
    );
}
