//! Physical plausibility of an operating condition: the lowest supply at which a node's
//! circuits still work, and the shortest clock period its gates allow.
//!
//! **Functional minimum supply.** Below some supply a static CMOS storage cell (SRAM bit,
//! latch) no longer holds its state. Where a node file states its cells' data-retention voltage
//! (`[variability] drv_mv`, the supply at which the nominal cell's static noise margin reaches
//! zero) together with the threshold spread (`vth_sigma_ler_mv`), the minimum is
//!
//! ```text
//! V_min = DRV + RETENTION_SIGMAS · σ_Vth
//! ```
//!
//! so that a cell whose threshold is [`RETENTION_SIGMAS`] standard deviations off nominal still
//! holds (the DRV-with-variation argument of Qin et al., "SRAM leakage suppression by minimizing
//! standby supply voltage", ISQED 2004). For `finfet7` that is 34.7 mV + 3 × 80 mV = 0.2747 V,
//! below its `ntv` point (0.30 V).
//!
//! Nodes without retention data (the planar ITRS nodes, ASAP7) are characterised above
//! threshold only (ITRS tables at the nominal supply; ASAP7 corners 0.63–0.77 V). For them the
//! minimum is the flavour's threshold voltage at the temperature, `V_min = Vth(T)` (margin zero):
//! near-threshold operation, `Vdd ≈ Vth` (Dreslinski et al., "Near-threshold computing",
//! Proc. IEEE 98(2), 2010), is the lowest regime admitted; subthreshold operation is not.
//!
//! **Shortest clock period.** A pipeline stage holds its logic plus the flip-flop overhead.
//! Hrishikesh et al. ("The optimal logic depth per pipeline stage is 6 to 8 FO4 inverter
//! delays", ISCA 2002) find 6 FO4 of useful logic the shortest useful stage, with about 1.8 FO4
//! of latch overhead; [`MIN_CYCLE_FO4`] = 8 FO4 is therefore the shortest cycle any clocked
//! design of the kind modelled here runs at, and a clock whose period is shorter than
//! `MIN_CYCLE_FO4 · FO4(Vdd, T)` is refused.
//!
//! These limits are applied where a user states a supply or a clock (the command line, the
//! study); [`crate::Node::at`] itself evaluates the device physics at any positive supply, so
//! that the device laws can be studied into subthreshold.

use crate::error::TechError;
use crate::names::Flavour;
use crate::node::{Conditions, Node, TechPoint};

/// Standard deviations of threshold spread a storage cell must tolerate at the minimum supply.
pub const RETENTION_SIGMAS: f64 = 3.0;

/// Shortest clock period in FO4 delays: 6 FO4 of logic and about 2 FO4 of flip-flop overhead
/// (Hrishikesh et al., ISCA 2002).
pub const MIN_CYCLE_FO4: f64 = 8.0;

/// A node's functional minimum supply at one flavour and temperature, and the rule behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct MinVdd {
    /// The minimum supply, V.
    pub vdd_v: f64,
    /// How it was derived, with the numbers (for messages).
    pub rule: String,
}

/// The functional minimum supply of `flavour` on `node` at `temperature_k` (see the module
/// header for the rule and its sources).
pub fn min_vdd(node: &Node, flavour: Flavour, temperature_k: f64) -> Result<MinVdd, TechError> {
    if let Some(v) = &node.file().variability {
        let sigma_mv = if v.vth_ler_is_3sigma {
            v.vth_sigma_ler_mv / 3.0
        } else {
            v.vth_sigma_ler_mv
        };
        if v.drv_mv.is_finite() && v.drv_mv > 0.0 && sigma_mv.is_finite() && sigma_mv >= 0.0 {
            let vdd_v = (v.drv_mv + RETENTION_SIGMAS * sigma_mv) * 1e-3;
            return Ok(MinVdd {
                vdd_v,
                rule: format!(
                    "cell data-retention voltage {} mV + {RETENTION_SIGMAS} x threshold spread \
                     {sigma_mv} mV",
                    v.drv_mv
                ),
            });
        }
    }
    let p = node.at(&Conditions::new(flavour).with_temperature(temperature_k))?;
    let vth_v = p.device().vth_v;
    Ok(MinVdd {
        vdd_v: vth_v,
        rule: format!(
            "the {flavour} threshold voltage at {temperature_k} K (near-threshold floor; the \
             node's tables are not characterised below threshold)"
        ),
    })
}

/// Refuses a supply below the functional minimum of `c`'s flavour and temperature on `node`;
/// `knob` names where the supply came from (`--vdd`, `--design-vdd`, `--op ntv`). Returns the
/// resolved supply.
pub fn check_supply(node: &Node, c: &Conditions, knob: &str) -> Result<f64, TechError> {
    let v = node.vdd_of(c)?;
    check_supply_v(node, c.flavour, c.temperature_k, v, knob)?;
    Ok(v)
}

/// As [`check_supply`] for an explicit supply `vdd_v`.
pub fn check_supply_v(
    node: &Node,
    flavour: Flavour,
    temperature_k: f64,
    vdd_v: f64,
    knob: &str,
) -> Result<(), TechError> {
    let min = min_vdd(node, flavour, temperature_k)?;
    // A supply equal to the minimum up to rounding of a printed value is accepted.
    if vdd_v.is_nan() || vdd_v < min.vdd_v - 1e-9 {
        return Err(TechError::BadCondition {
            node: node.name().to_string(),
            what: format!(
                "{knob} {vdd_v} V is below the functional minimum supply {:.4} V of {flavour} \
                 at {temperature_k} K ({}); allowed: {:.4} V and above",
                min.vdd_v, min.rule, min.vdd_v
            ),
        });
    }
    Ok(())
}

/// The shortest clock period the gates of `point` allow, s: [`MIN_CYCLE_FO4`] FO4 delays.
pub fn min_period_s(point: &TechPoint) -> f64 {
    MIN_CYCLE_FO4 * point.fo4_delay_s()
}

/// Refuses a clock `clock_hz` (named by `knob`) whose period is shorter than
/// [`min_period_s`] at `point`.
pub fn check_clock(
    point: &TechPoint,
    node_name: &str,
    clock_hz: f64,
    knob: &str,
) -> Result<(), TechError> {
    let min_period_s = min_period_s(point);
    let max_hz = 1.0 / min_period_s;
    if !(clock_hz.is_finite() && clock_hz > 0.0 && clock_hz <= max_hz * (1.0 + 1e-9)) {
        return Err(TechError::BadCondition {
            node: node_name.to_string(),
            what: format!(
                "{knob} {:.1} MHz is faster than the node allows at {:.3} V: a cycle needs at \
                 least {MIN_CYCLE_FO4} FO4 delays ({:.1} ps each), so at most {:.1} MHz",
                clock_hz * 1e-6,
                point.vdd_v(),
                point.fo4_delay_s() * 1e12,
                max_hz * 1e-6
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: &str) -> Node {
        crate::node(name).unwrap()
    }

    #[test]
    fn finfet7_minimum_is_retention_plus_three_sigma() {
        let n = node("finfet7");
        let m = min_vdd(&n, Flavour::Lvt, 300.0).unwrap();
        assert!((m.vdd_v - 0.2747).abs() < 1e-9, "{m:?}");
        // The node's own near-threshold point is above it.
        check_supply(
            &n,
            &Conditions::new(Flavour::Lvt).with_operating_point("ntv"),
            "--op ntv",
        )
        .unwrap();
        let e = check_supply_v(&n, Flavour::Lvt, 300.0, 0.2, "--vdd").unwrap_err();
        let e = e.to_string();
        assert!(e.contains("--vdd 0.2 V") && e.contains("0.2747"), "{e}");
    }

    #[test]
    fn planar_minimum_is_the_threshold() {
        let n = node("planar45");
        let m = min_vdd(&n, Flavour::Lstp, 300.0).unwrap();
        let vth = n
            .at(&Conditions::new(Flavour::Lstp).with_temperature(300.0))
            .unwrap()
            .device()
            .vth_v;
        assert_eq!(m.vdd_v, vth);
        assert!(m.vdd_v > 0.3 && m.vdd_v < 1.1, "{m:?}");
        check_supply(&n, &Conditions::new(Flavour::Lstp), "--vdd").unwrap();
        assert!(check_supply_v(&n, Flavour::Lstp, 300.0, 0.3, "--vdd").is_err());
    }

    #[test]
    fn clock_limit_is_eight_fo4() {
        let n = node("planar45");
        let p = n.at(&Conditions::new(Flavour::Hp)).unwrap();
        let max_hz = 1.0 / (8.0 * p.fo4_delay_s());
        check_clock(&p, "planar45", 0.99 * max_hz, "gpu.core_mhz").unwrap();
        let e = check_clock(&p, "planar45", 1.01 * max_hz, "gpu.core_mhz").unwrap_err();
        assert!(e.to_string().contains("8 FO4"), "{e}");
    }
}
