//! Power-gating physics and energy (power-gating §1.4, §1.6, §1.7): the sleep-transistor model
//! that derives break-even time, wakeup delay, residual leakage, IR drop and area from device
//! physics ([`sleep`]); the gating domains and their leakage, peak current and rail capacitance
//! from the engine's lane models ([`domain`]); the composition of both at one technology point
//! ([`breakeven`]); and the per-domain energy accounting over a run ([`accounting`]).
//!
//! `models` hands `{bet_cycles, wakeup_cycles}` to the simulator and accounts the simulator's
//! per-domain gating statistics once they are mapped onto [`accounting::GatingRun`].
//!
//! ```
//! use models::gating::breakeven::{breakeven, BreakevenQuery};
//! let q = BreakevenQuery::new(techlib::ResolvedPoint::named("40nm").unwrap());
//! let b = breakeven(&q, None).unwrap();
//! assert!(b.sleep.bet_cycles >= 1 && b.sleep.wakeup_cycles >= 1);
//! ```

pub mod accounting;
pub mod breakeven;
pub mod cost;
pub mod domain;
pub mod sleep;

/// Errors of the gating models. Every message names the offending input and what is allowed.
#[derive(Debug, thiserror::Error)]
pub enum GatingError {
    /// An input out of range.
    #[error("{knob} = {value}: expected {allowed}")]
    Input {
        /// Which input or knob.
        knob: String,
        /// The value given.
        value: f64,
        /// What is allowed.
        allowed: String,
    },
    /// An unknown gating domain.
    #[error("unknown gating domain '{asked}' (--domain): allowed {allowed}")]
    Domain {
        /// The domain asked for.
        asked: String,
        /// The allowed spellings.
        allowed: String,
    },
    /// Gating can never repay its event energy at this point.
    #[error("power gating never breaks even here: {why}")]
    NeverBreaksEven {
        /// Why.
        why: String,
    },
    /// techlib could not evaluate the point (node, flavour, supply, temperature, clock).
    #[error(transparent)]
    Tech(#[from] techlib::TechError),
    /// A logic model refused a component.
    #[error(transparent)]
    Logic(#[from] crate::logic::ModelError),
}

impl GatingError {
    /// An [`GatingError::Input`] error.
    pub fn input(knob: &str, value: f64, allowed: &str) -> GatingError {
        GatingError::Input {
            knob: knob.to_string(),
            value,
            allowed: allowed.to_string(),
        }
    }
}
