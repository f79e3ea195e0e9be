//! TRIC's root-crate side (register-file spec §3.4): with `tric.wake_latency_mode = "derived"`
//! the wake latency the simulator takes, `tric.wake_latency`, is derived from the tri-modal
//! switch model at the study's technology point ([`TricWake`], a [`DerivedTiming`] registered
//! in `technique::DERIVED_TIMINGS`), and the commands note the value.

use super::DerivedTiming;
use models::gpu::ChipModel;
use models::rf::tric::DerivedWake;
use sim::config::tric::{TricGranularity, WakeLatencyMode};
use sim::config::GpuConfig;

/// TRIC's derived wake latency (`tric.wake_latency_mode = "derived"`).
pub struct TricWake;

impl TricWake {
    /// The TRIC wake latency L = ⌈t_wake(V_drowsy → Vdd)/t_clk⌉ of one switch (an entry of
    /// `rf.entry_bytes` with `tric.granularity = "entry"`, one 32-bit lane with `"entry_lane"`)
    /// of `cfg` at `tech`'s node, flavour and temperature, the chip's supply and core clock,
    /// and `V_drowsy` = DRV + `tric.drowsy_margin_mv`
    /// ([`models::rf::tric::derived_wake_latency`]). `None` in the `"fixed"` mode. An L outside
    /// 1..=64 cycles is an error naming the knob.
    pub fn latency(
        cfg: &GpuConfig,
        tech: &techlib::ResolvedPoint,
        chip: &ChipModel,
    ) -> Result<Option<DerivedWake>, String> {
        let t = &cfg.tric;
        if t.wake_latency_mode != WakeLatencyMode::Derived {
            return Ok(None);
        }
        let bits = match t.granularity {
            TricGranularity::Entry => cfg.rf.entry_bytes as u64 * 8,
            TricGranularity::EntryLane => 32,
        };
        let d = models::rf::tric::derived_wake_latency(
            tech.node(),
            Some(tech.flavour()),
            chip.vdd_v,
            t.drowsy_margin_mv * 1e-3,
            chip.core_clock_hz,
            bits,
            tech.temperature_k(),
        )
        .map_err(|e| format!("tric.wake_latency_mode = \"derived\": {e}"))?;
        if !(1..=64).contains(&d.wake_cycles) {
            return Err(format!(
                "tric.wake_latency_mode = \"derived\": t_wake = {:.3e} s gives L = {} cycles, \
                 outside 1..=64; use tric.wake_latency_mode = \"fixed\" or another \
                 tric.drowsy_margin_mv / clock",
                d.t_wake_s, d.wake_cycles
            ));
        }
        Ok(Some(d))
    }
}

/// One line describing a derived TRIC wake latency at technology `tech`.
fn note(d: &DerivedWake, tech: &str) -> String {
    format!(
        "tric.wake_latency derived: L = {} cycles (t_wake = {:.1} ps from V_drowsy = {:.3} V to \
         Vdd = {:.3} V at {:.0} MHz, {tech})",
        d.wake_cycles,
        d.t_wake_s * 1e12,
        d.v_drowsy_v,
        d.vdd_v,
        d.clock_hz * 1e-6
    )
}

impl DerivedTiming for TricWake {
    fn wanted(&self, cfg: &GpuConfig) -> bool {
        cfg.tric.wake_latency_mode == WakeLatencyMode::Derived
    }

    fn derive(
        &self,
        point: &techlib::ResolvedPoint,
        chip: &ChipModel,
        cfg: &mut GpuConfig,
        tech: &str,
    ) -> Result<Option<String>, String> {
        Ok(Self::latency(cfg, point, chip)?.map(|d| {
            cfg.tric.wake_latency = d.wake_cycles as u32;
            note(&d, tech)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::Study;

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
}
