//! Whole-board power: what a meter at the board's input sees while a kernel repeats.
//!
//! A board meter (NVML on a V100, a shunt on a PCIe card) reads more than the chip the estimate
//! costs. The model adds, to the chip's own dynamic and leakage power, the parts of the board the
//! chip model leaves out, each a term of its own:
//!
//! ```text
//! P_board = (k·P_chip,dyn + P_chip,leak + P_dram,dyn + P_dram,bg) / η_vr + P_const
//! ```
//!
//! - `P_chip,dyn`: the chip's dynamic energy over the run time (the estimate tree without the
//!   off-chip DRAM), `P_chip,leak`: its leakage with every block powered — a board meter sees a
//!   chip whose SMs all hold work while the kernel repeats;
//! - `P_dram,dyn`: the DRAM's access energy over the run time (per bit and per activate), and
//!   `P_dram,bg`: the memory's background power (refresh, standby, idle PHY), which the chip
//!   estimate leaves out because it does not depend on the run;
//! - `η_vr`: the efficiency of the voltage regulators between the board's 12 V input and the chip
//!   and memory supplies, an assumption of this model ([`VR_EFFICIENCY`]);
//! - two global scalars fitted to measured board power by `calibration::board` and recorded with
//!   their fit error in `data/board_<preset>.toml`: `k` (`dynamic_scale`), how far the modelled
//!   dynamic power is from the measured one at this node, and `P_const` (`constant_w`), what
//!   draws power on the board whatever runs (clock generation, PCIe and NVLink PHYs, fans where
//!   there are any, the chip's always-on logic). Neither is fitted per kernel.

use serde::{Deserialize, Serialize};

/// Efficiency of the board's voltage regulators (12 V input to the ≈1 V chip and 1.2 V HBM2
/// supplies) at high load. An assumption, not fitted: multiphase buck regulators built from
/// integrated power stages reach 88–93 % between half and full load at these conversion ratios
/// (power-stage datasheets' efficiency curves, 12 V → 1.0–1.2 V); 0.90 is the middle of that
/// range.
pub const VR_EFFICIENCY: f64 = 0.90;

/// The modelled inputs of the board model for one run, W.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BoardTerms {
    /// The chip's dynamic power over the run (the estimate without the off-chip DRAM), W.
    pub chip_dynamic_w: f64,
    /// The chip's leakage with every block powered, W.
    pub chip_leakage_w: f64,
    /// The DRAM's access power over the run (per bit and per activate), W.
    pub dram_dynamic_w: f64,
    /// The memory's background power (refresh, standby, idle I/O), W.
    pub dram_background_w: f64,
}

/// The board model's global scalars and where they come from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardScalars {
    /// `k`: the factor on the chip's modelled dynamic power.
    pub dynamic_scale: f64,
    /// `P_const`: board power drawn whatever runs, W.
    pub constant_w: f64,
    /// `η_vr`: the voltage regulators' efficiency (not fitted, [`VR_EFFICIENCY`]).
    pub vr_efficiency: f64,
    /// How the scalars were obtained (the fit, its data and its error).
    pub source: String,
}

/// Board power of one run, term by term, W.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardPower {
    /// `k·P_chip,dyn`: the chip's modelled dynamic power (`BoardTerms::chip_dynamic_w`) times
    /// the fitted factor, W.
    pub scaled_chip_dynamic_w: f64,
    /// `P_chip,leak`, W.
    pub chip_leakage_w: f64,
    /// `P_dram,dyn`, W.
    pub dram_dynamic_w: f64,
    /// `P_dram,bg`, W.
    pub dram_background_w: f64,
    /// What the regulators lose: the four terms above times `1/η − 1`, W.
    pub vr_loss_w: f64,
    /// `P_const`, W.
    pub constant_w: f64,
    /// Their sum: the average board power over the run, W.
    pub board_power_w: f64,
}

impl BoardScalars {
    /// The board power of a run whose modelled terms are `t`.
    pub fn power(&self, t: &BoardTerms) -> BoardPower {
        let scaled_chip_dynamic_w = self.dynamic_scale * t.chip_dynamic_w;
        let load =
            scaled_chip_dynamic_w + t.chip_leakage_w + t.dram_dynamic_w + t.dram_background_w;
        let vr_loss_w = load * (1.0 / self.vr_efficiency - 1.0);
        BoardPower {
            scaled_chip_dynamic_w,
            chip_leakage_w: t.chip_leakage_w,
            dram_dynamic_w: t.dram_dynamic_w,
            dram_background_w: t.dram_background_w,
            vr_loss_w,
            constant_w: self.constant_w,
            board_power_w: load + vr_loss_w + self.constant_w,
        }
    }

    /// Reads a scalars file (`file` names it in errors): the four keys of [`BoardScalars`],
    /// each checked for a plausible value.
    pub fn from_toml(text: &str, file: &str) -> Result<BoardScalars, String> {
        let s: BoardScalars = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
        let check = |ok: bool, key: &str, allowed: &str, v: f64| {
            if ok {
                Ok(())
            } else {
                Err(format!("{file}: '{key}' = {v} is outside {allowed}"))
            }
        };
        check(
            s.dynamic_scale.is_finite() && (0.0..=100.0).contains(&s.dynamic_scale),
            "dynamic_scale",
            "0 to 100",
            s.dynamic_scale,
        )?;
        check(
            s.constant_w.is_finite() && (0.0..=10_000.0).contains(&s.constant_w),
            "constant_w",
            "0 to 10000 W",
            s.constant_w,
        )?;
        check(
            s.vr_efficiency.is_finite() && s.vr_efficiency > 0.0 && s.vr_efficiency <= 1.0,
            "vr_efficiency",
            "(0, 1]",
            s.vr_efficiency,
        )?;
        Ok(s)
    }

    /// The built-in fit for a preset, when the project has one (`v100`).
    pub fn builtin(preset: &str) -> Option<BoardScalars> {
        let text = match preset {
            "v100" => include_str!("../../data/board_v100.toml"),
            _ => return None,
        };
        Some(Self::from_toml(text, "models/data/board_v100.toml").expect("built-in board fit"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalars(k: f64, c: f64, eta: f64) -> BoardScalars {
        BoardScalars {
            dynamic_scale: k,
            constant_w: c,
            vr_efficiency: eta,
            source: "test".into(),
        }
    }

    #[test]
    fn terms_add_up_and_the_regulator_loss_scales_the_load() {
        let t = BoardTerms {
            chip_dynamic_w: 100.0,
            chip_leakage_w: 30.0,
            dram_dynamic_w: 20.0,
            dram_background_w: 10.0,
        };
        let p = scalars(1.5, 25.0, 0.8).power(&t);
        assert_eq!(p.scaled_chip_dynamic_w, 150.0);
        let load = 150.0 + 30.0 + 20.0 + 10.0;
        assert!((p.vr_loss_w - load * 0.25).abs() < 1e-9);
        assert!((p.board_power_w - (load / 0.8 + 25.0)).abs() < 1e-9);
    }

    #[test]
    fn a_bad_scalars_file_names_the_key() {
        let e = BoardScalars::from_toml(
            "dynamic_scale = 1.0\nconstant_w = 10.0\nvr_efficiency = 1.5\nsource = \"x\"\n",
            "b.toml",
        )
        .unwrap_err();
        assert!(e.contains("b.toml") && e.contains("vr_efficiency"), "{e}");
        let e = BoardScalars::from_toml("dynamic_scale = 1.0\n", "b.toml").unwrap_err();
        assert!(e.contains("b.toml"), "{e}");
    }
}
