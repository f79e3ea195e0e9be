//! Off-chip DRAM access energy (GDDR5-class).
//!
//! Energy = bursts × burst bits × energy per bit (column access, on-die data movement and the
//! I/O interface) + activates × energy per activate (row open and precharge). DRAM is off the
//! GPU die: it adds energy, not die area, and its background (refresh, standby) power is not
//! modelled.
//!
//! Parameters, from published GDDR5 characterisations (device data, not fitted here):
//! - I/O + column energy ≈ 12 pJ/bit: O'Connor et al., "Fine-Grained DRAM", MICRO 2017, put a
//!   GDDR5 access at about 14 pJ/bit in total, of which row activation is about 2 pJ/bit at
//!   typical row locality; the remainder is charged per bit here, activation per activate.
//! - Activation ≈ 2 nJ per activate of a 2 KiB page (≈ 1 pJ/bit of the page): Vogelsang,
//!   "Understanding the Energy Consumption of Dynamic Random Access Memories", MICRO 2010.

use super::estimate::{Node, Source};
use sim::activity::KernelActivity;

/// Off-chip DRAM energy parameters: per bit moved and per row activate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DramParams {
    /// Bytes moved by one burst (chips × bytes per chip × burst length).
    pub burst_bytes: f64,
    /// Energy per bit transferred (column access, on-die data movement and I/O), J.
    pub energy_per_bit_j: f64,
    /// Energy per row activate (row open and precharge), J.
    pub energy_per_activate_j: f64,
    /// Where the per-bit and per-activate figures are published.
    pub source: &'static str,
}

/// The publications of the GDDR5 figures (see the module header).
pub const GDDR5_SOURCE: &str =
    "GDDR5 per bit: O'Connor et al., MICRO 2017; per activate: Vogelsang, MICRO 2010";

impl DramParams {
    /// GDDR5-class parameters for bursts of `burst_bytes`.
    pub fn gddr5(burst_bytes: f64) -> DramParams {
        DramParams {
            burst_bytes,
            energy_per_bit_j: 12e-12,
            energy_per_activate_j: 2e-9,
            source: GDDR5_SOURCE,
        }
    }

    /// Energy of the run's DRAM traffic as an estimate node (no area, no leakage).
    pub fn node(&self, k: &KernelActivity, _runtime_s: f64) -> Node {
        let bursts: u64 = k.dram.iter().map(|d| d.reads + d.writes).sum();
        let acts: u64 = k.dram.iter().map(|d| d.activates).sum();
        Node {
            name: "DRAM (off-chip)".into(),
            source: Source::Published {
                source: self.source.to_string(),
            },
            instances: k.dram.len() as u32,
            dynamic_j: bursts as f64 * self.burst_bytes * 8.0 * self.energy_per_bit_j
                + acts as f64 * self.energy_per_activate_j,
            ..Node::default()
        }
    }
}
