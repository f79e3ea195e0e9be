//! The drive law shared by every device: a smooth alpha-power law.
//!
//! Drain current per unit width (or per fin) is `I = K · S(Vgs, Vds)` with the shape
//!
//! ```text
//! S(Vgs, Vds) = [ m·v_T · ln(1 + exp((Vgs − Vth + η·Vds) / (m·v_T))) ]^α · (1 − exp(−Vds / v_T))
//! ```
//!
//! * Above threshold the logarithm tends to the overdrive and `S → (Vgs − Vth + ηVds)^α`, the
//!   Sakurai–Newton alpha-power law (α between 1, fully velocity-saturated, and 2, long channel).
//! * Below threshold `S → (m v_T)^α · exp(α (Vgs − Vth + ηVds)/(m v_T))`: exponential subthreshold
//!   conduction with ideality `n = m/α` (swing `n·v_T·ln 10` per decade) and drain-induced barrier
//!   lowering `η` (V of threshold per V of drain bias).
//! * The last factor makes the current vanish at zero drain bias (diffusion current of a MOSFET).
//!
//! The smooth `ln(1 + e^x)` interpolation is the EKV form; with α = 2 and η = 0 it is the
//! interpolation of the source's own whole-range fit. `v_T = kT/q`.
//!
//! The effective switching current of an inverter is the average of the two bias points a
//! switching transistor passes through (Na et al., IEDM 2002):
//! `I_eff = [I(Vgs = V, Vds = V/2) + I(Vgs = V/2, Vds = V)] / 2`.

use serde::{Deserialize, Serialize};

/// Boltzmann constant over the electron charge, V/K.
pub const K_OVER_Q_V_PER_K: f64 = 8.617_333_262e-5;

/// Thermal voltage kT/q at `temperature_k`.
pub fn thermal_voltage_v(temperature_k: f64) -> f64 {
    K_OVER_Q_V_PER_K * temperature_k
}

/// `ln(1 + e^x)` without overflow.
pub fn softplus(x: f64) -> f64 {
    if x > 30.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

/// Parameters of the drive law at one temperature and back-gate state.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DriveLaw {
    /// Threshold at zero drain bias, V.
    pub vth_v: f64,
    /// Velocity-saturation index α.
    pub alpha: f64,
    /// EKV smoothing factor m (subthreshold ideality n = m/α).
    pub ekv_m: f64,
    /// DIBL coefficient η, V/V.
    pub dibl_v_per_v: f64,
    /// Device temperature, K.
    pub temperature_k: f64,
}

impl DriveLaw {
    /// Thermal voltage at the law's temperature.
    pub fn thermal_voltage_v(&self) -> f64 {
        thermal_voltage_v(self.temperature_k)
    }

    /// Subthreshold ideality factor n = m/α.
    pub fn subthreshold_n(&self) -> f64 {
        self.ekv_m / self.alpha
    }

    /// Subthreshold swing, V per decade of current.
    pub fn subthreshold_swing_v_per_decade(&self) -> f64 {
        self.subthreshold_n() * self.thermal_voltage_v() * std::f64::consts::LN_10
    }

    /// Smooth gate overdrive `m v_T ln(1 + exp((Vgs − Vth + ηVds)/(m v_T)))`, V.
    pub fn overdrive_v(&self, vgs_v: f64, vds_v: f64) -> f64 {
        let mvt = self.ekv_m * self.thermal_voltage_v();
        mvt * softplus((vgs_v - self.vth_v + self.dibl_v_per_v * vds_v) / mvt)
    }

    /// The current shape S(Vgs, Vds) in V^α (multiply by a drive constant for amperes).
    pub fn shape(&self, vgs_v: f64, vds_v: f64) -> f64 {
        let vds = vds_v.max(0.0);
        self.overdrive_v(vgs_v, vds).powf(self.alpha)
            * (1.0 - (-vds / self.thermal_voltage_v()).exp())
    }

    /// Shape of the on-current, S(V, V).
    pub fn on_shape(&self, vdd_v: f64) -> f64 {
        self.shape(vdd_v, vdd_v)
    }

    /// Shape of the off-current, S(0, V).
    pub fn off_shape(&self, vdd_v: f64) -> f64 {
        self.shape(0.0, vdd_v)
    }

    /// Shape of the effective switching current (Na et al.).
    pub fn eff_shape(&self, vdd_v: f64) -> f64 {
        0.5 * (self.shape(vdd_v, 0.5 * vdd_v) + self.shape(0.5 * vdd_v, vdd_v))
    }

    /// Saturation voltage estimate `(α/2)·overdrive` (alpha-power law), V.
    pub fn vdsat_v(&self, vdd_v: f64) -> f64 {
        0.5 * self.alpha * self.overdrive_v(vdd_v, vdd_v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn law() -> DriveLaw {
        DriveLaw {
            vth_v: 0.3,
            alpha: 1.3,
            ekv_m: 1.95,
            dibl_v_per_v: 0.1,
            temperature_k: 300.0,
        }
    }

    #[test]
    fn strong_inversion_is_alpha_power() {
        let l = law();
        let s1 = l.shape(1.2, 1.2);
        let expected = (1.2f64 - 0.3 + 0.12).powf(1.3);
        assert!((s1 / expected - 1.0).abs() < 1e-3);
    }

    #[test]
    fn subthreshold_swing_and_dibl() {
        let l = law();
        // one decade per swing in weak inversion
        let s = l.subthreshold_swing_v_per_decade();
        let r = l.shape(-0.3, 1.0) / l.shape(-0.3 - s, 1.0);
        assert!((r - 10.0).abs() < 0.05, "{r}");
        assert!(l.shape(0.0, 1.0) > l.shape(0.0, 0.5));
        assert_eq!(l.shape(0.0, 0.0), 0.0);
    }
}
