//! TRIC's derived wake latency (register-file spec §3.4) through a study: at least one cycle,
//! written into the timed configuration, longer with a smaller drowsy margin and at a faster
//! clock (L = ⌈t_wake·f⌉), nothing in the fixed mode.

use gpuenergy::study::Study;
use models::rf::tric::TricWake;
use sim::config::tric::WakeLatencyMode;
use sim::config::GpuConfig;

#[test]
fn derived_tric_wake_latency_is_at_least_one_and_scales() {
    let mut cfg = GpuConfig::preset("gtx480").unwrap();
    cfg.tric.enabled = true;
    cfg.tric.wake_latency_mode = WakeLatencyMode::Derived;
    let study = |cfg: &GpuConfig| {
        Study::new(
            cfg.clone(),
            techlib::ResolvedPoint::named("40nm").unwrap(),
            None,
        )
    };
    let s = study(&cfg);
    let src = s.cost_source().unwrap();
    let mut chip = s.chip(&src).unwrap();
    let d = TricWake::latency(s.config(), s.tech(), &chip)
        .unwrap()
        .unwrap();
    assert!(d.wake_cycles >= 1 && d.t_wake_s > 0.0);
    let timed = s.timed_config(&chip).unwrap();
    assert_eq!(timed.tric.wake_latency as u64, d.wake_cycles);
    // a smaller margin leaves a larger swing to restore: a longer wake
    let mut low = cfg.clone();
    low.tric.drowsy_margin_mv = 0.0;
    let dl = TricWake::latency(&low, s.tech(), &chip).unwrap().unwrap();
    assert!(dl.t_wake_s > d.t_wake_s && dl.wake_cycles >= d.wake_cycles);
    // the same wake time at a faster clock is more cycles: L = ⌈t_wake·f⌉
    chip.core_clock_hz = 4.0 / d.t_wake_s;
    let df = TricWake::latency(s.config(), s.tech(), &chip)
        .unwrap()
        .unwrap();
    assert!(df.wake_cycles > d.wake_cycles, "{df:?} vs {d:?}");
    assert_eq!(
        df.wake_cycles,
        (df.t_wake_s * df.clock_hz - 1e-9).ceil() as u64
    );
    // fixed mode: nothing derived
    cfg.tric.wake_latency_mode = WakeLatencyMode::Fixed;
    assert!(TricWake::latency(&cfg, s.tech(), &chip).unwrap().is_none());
}
