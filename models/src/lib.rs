//! `models` — the analytical power/area engine: CACTI-class SRAM arrays, parametric logic
//! components, gating physics and chip composition into an `Estimate`.

#![warn(missing_docs)]

pub mod energy_section;
pub mod gating;
pub mod gpu;
pub mod issue;
pub mod issue_bits;
pub mod logic;
/// Calibration overlays of the logic models (`logic/overlay.rs`), at the path every caller names.
pub use logic::overlay;
pub mod rf;
pub mod sched;
pub mod sram;
pub mod technique;
