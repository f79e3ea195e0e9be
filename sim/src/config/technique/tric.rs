//! `[tric]`: tri-modal register control of the Warped Register File (register-file spec §3,
//! §12). TRIC keeps every register-file entry OFF, DROWSY, WAKING or ON and wakes the entries
//! an instruction needs when it takes a collector unit. The energy-accounting switches of
//! `[energy]` are not the machine's: they are `models::rf::EnergySection`, read from the same
//! file by the root crate's study configuration.
//!
//! Every key has a serde default, and the table is skipped when serialising a configuration
//! that leaves it at its default, so presets and user files without it load and hash exactly
//! as before. With `tric.enabled = false` the timing model and every counter it had before are
//! unchanged. `SECTION` registers the table with the generic configuration code
//! (`config::technique::SECTIONS`).
//!
//! Wake latency source (`tric.wake_latency_mode`): the simulator reads only the integer
//! `tric.wake_latency`. With `"derived"` the caller computes L = ⌈t_wake(V_drowsy → Vdd) /
//! t_clk⌉ from the device model and writes it into `tric.wake_latency` before simulating, as
//! `pg.timing = "Physical"` does for `pg.bet`/`pg.wakeup`.

use serde::{Deserialize, Serialize};

use super::{TechniqueSection, MAX_LOOKAHEAD};
use crate::config::ranges::{r, MAX_LATENCY_CYCLES};

/// TRIC's registration with the generic configuration code: its table, the outer bounds of its
/// numeric keys, its checks, its switch and the keys only the cost models read.
pub(crate) const SECTION: TechniqueSection = TechniqueSection {
    name: "tric",
    table: |c| toml::Table::try_from(&c.tric).expect("tric serialises"),
    ranges: &[
        r("tric.drowsy_margin_mv", 0.0, 2000.0, "mV"),
        r("tric.off_residual", 0.0, 1.0, "(fraction)"),
        r("tric.*", 0.0, MAX_LATENCY_CYCLES, "cycles"),
    ],
    check: |c, bad| c.tric.check(bad),
    enabled: |c| c.tric.enabled,
    plain_rf_only: Some(
        "'tric.enabled' = true with the partitioned RF, an MRF baseline or the RF cache \
         ('prf.enabled', 'rfc.enabled', '[mrf]'): TRIC is modelled on the plain \
         monolithic RF only",
    ),
    reset_cost_only_keys: |c| c.tric.reset_cost_only_keys(),
    source: ("sim/src/config/technique/tric.rs", include_str!("tric.rs")),
};

/// Largest explicit `tric.lookahead_timeout`, cycles.
pub const MAX_LOOKAHEAD_TIMEOUT: u32 = 4096;

/// `tric.granularity`: what one TRIC switch powers (register-file spec §3.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TricGranularity {
    /// `"entry"`: one switch per warp-register (all 32 lanes wake together).
    #[default]
    Entry,
    /// `"entry_lane"`: one switch per 32-bit lane of an entry; only the instruction's active
    /// lanes wake, inactive lanes stay DROWSY.
    EntryLane,
}

/// `tric.alloc_scope`: which entries are allocated (DROWSY) rather than OFF (spec §3.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TricAllocScope {
    /// `"kernel_static"`: the kernel's maximum resident CTAs × warps per CTA × registers per
    /// thread, fixed at launch.
    #[default]
    KernelStatic,
    /// `"per_cta"`: a CTA slot's entries go OFF→DROWSY when a CTA launches into it and →OFF
    /// when that CTA completes.
    PerCta,
}

/// `tric.wake_latency_mode`: where `tric.wake_latency` comes from (spec §3.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WakeLatencyMode {
    /// `"fixed"`: the configured `tric.wake_latency`.
    #[default]
    Fixed,
    /// `"derived"`: the caller fills `tric.wake_latency` from the device model.
    Derived,
}

/// `tric.dest_policy`: when a destination entry is woken (spec §3.3 rule 3, §3.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DestPolicy {
    /// `"conservative"`: ON from the collector allocation until the writeback.
    #[default]
    Conservative,
    /// `"just_in_time"`: woken L cycles before a fixed-latency writeback; a variable-latency
    /// result wakes it on arrival and its writeback waits L − 1 cycles.
    JustInTime,
}

/// `tric.switch_energy_model`: energy of a switch transition (spec §3.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwitchEnergyModel {
    /// `"none"`: transitions cost nothing (the source gives no switch sizing).
    #[default]
    None,
    /// `"model"`: the gating model supplies the energy per transition.
    Model,
}

/// `[tric]`: tri-modal register control.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TricSection {
    /// `tric.enabled`: run the TRIC state machine.
    pub enabled: bool,
    /// `tric.granularity`.
    pub granularity: TricGranularity,
    /// `tric.alloc_scope`.
    pub alloc_scope: TricAllocScope,
    /// `tric.wake_latency`: cycles L from a wake request of a DROWSY entry until it is ON
    /// (1…64; the source evaluates 1, 2, 3).
    pub wake_latency: u32,
    /// `tric.wake_latency_mode`.
    pub wake_latency_mode: WakeLatencyMode,
    /// `tric.lookahead`: cycles k of scheduler look-ahead (0 = none, 1…16): every scheduler
    /// sends the source registers of the instructions it predicts for the next k cycles to
    /// TRIC, which wakes them early (spec §3.5).
    pub lookahead: u32,
    /// `tric.lookahead_timeout`: cycles after which an entry woken by a wrong prediction goes
    /// back to DROWSY; 0 means k + L.
    pub lookahead_timeout: u32,
    /// `tric.dest_policy`.
    pub dest_policy: DestPolicy,
    /// `tric.drowsy_margin_mv`: drowsy supply above the cell's data-retention voltage, mV
    /// (read by the leakage model for ρ_DROWSY).
    pub drowsy_margin_mv: f64,
    /// `tric.off_residual`: leakage of an OFF entry as a fraction of ON (read by the leakage
    /// model).
    pub off_residual: f64,
    /// `tric.off_wake_latency`: cycles to wake an OFF entry when allocation changes; 0 means
    /// `tric.wake_latency`.
    pub off_wake_latency: u32,
    /// `tric.switch_energy_model` (read by the energy accounting).
    pub switch_energy_model: SwitchEnergyModel,
    /// `tric.gate_periphery_if_bank_off`: drop the periphery leakage of a bank whose entries
    /// are all OFF (§8.2): the timing model records each bank's all-OFF cycles
    /// (`PartResidency::bank_off_cycles`) and the leakage model removes the bank's share of
    /// the periphery for them. Needs `tric.enabled`.
    pub gate_periphery_if_bank_off: bool,
}

impl Default for TricSection {
    fn default() -> Self {
        TricSection {
            enabled: false,
            granularity: TricGranularity::Entry,
            alloc_scope: TricAllocScope::KernelStatic,
            wake_latency: 3,
            wake_latency_mode: WakeLatencyMode::Fixed,
            lookahead: 0,
            lookahead_timeout: 0,
            dest_policy: DestPolicy::Conservative,
            drowsy_margin_mv: 250.0,
            off_residual: 0.0,
            off_wake_latency: 0,
            switch_energy_model: SwitchEnergyModel::None,
            gate_periphery_if_bank_off: false,
        }
    }
}

impl TricSection {
    /// All keys at their defaults (the table is then not serialised).
    pub fn is_default(&self) -> bool {
        *self == TricSection::default()
    }

    /// Resets the keys only the cost models read (`drowsy_margin_mv`, `wake_latency_mode`,
    /// `off_residual`; the simulator sees the derived `wake_latency`) to their defaults.
    pub fn reset_cost_only_keys(&mut self) {
        let d = TricSection::default();
        self.drowsy_margin_mv = d.drowsy_margin_mv;
        self.wake_latency_mode = d.wake_latency_mode;
        self.off_residual = d.off_residual;
    }

    /// Cycles after which an entry woken by a look-ahead prediction that no instruction
    /// claimed goes back to DROWSY: `tric.lookahead_timeout`, or k + L when it is 0 (spec §3.5).
    pub fn lookahead_timeout_cycles(&self) -> u32 {
        if self.lookahead_timeout == 0 {
            self.lookahead + self.wake_latency
        } else {
            self.lookahead_timeout
        }
    }

    /// Cycles to wake an OFF entry.
    pub fn off_wake_cycles(&self) -> u32 {
        if self.off_wake_latency == 0 {
            self.wake_latency
        } else {
            self.off_wake_latency
        }
    }

    /// Range and combination checks; each message names the key.
    pub fn check(&self, bad: &mut Vec<String>) {
        if !(1..=64).contains(&self.wake_latency) {
            bad.push(format!(
                "'tric.wake_latency' = {}: must be in 1..=64 cycles",
                self.wake_latency
            ));
        }
        if self.off_wake_latency > 64 {
            bad.push(format!(
                "'tric.off_wake_latency' = {}: must be in 0..=64 cycles (0 = tric.wake_latency)",
                self.off_wake_latency
            ));
        }
        if !(self.drowsy_margin_mv.is_finite() && self.drowsy_margin_mv >= 0.0) {
            bad.push(format!(
                "'tric.drowsy_margin_mv' = {}: must be a non-negative number of millivolts",
                self.drowsy_margin_mv
            ));
        }
        if !(0.0..=1.0).contains(&self.off_residual) {
            bad.push(format!(
                "'tric.off_residual' = {}: must be a fraction in 0..=1",
                self.off_residual
            ));
        }
        if self.lookahead > MAX_LOOKAHEAD {
            bad.push(format!(
                "'tric.lookahead' = {}: must be in 0..={MAX_LOOKAHEAD} cycles (0 = no look-ahead)",
                self.lookahead
            ));
        }
        if self.lookahead_timeout > MAX_LOOKAHEAD_TIMEOUT {
            bad.push(format!(
                "'tric.lookahead_timeout' = {}: must be in 0..={MAX_LOOKAHEAD_TIMEOUT} cycles \
                 (0 = tric.lookahead + tric.wake_latency)",
                self.lookahead_timeout
            ));
        }
        if self.gate_periphery_if_bank_off && !self.enabled {
            bad.push(
                "'tric.gate_periphery_if_bank_off' = true needs 'tric.enabled' = true: only TRIC \
                 turns entries OFF (allowed: false, or true with TRIC on)"
                    .to_string(),
            );
        }
        if self.lookahead_timeout != 0 && self.lookahead == 0 {
            bad.push(format!(
                "'tric.lookahead_timeout' = {}: only meaningful with 'tric.lookahead' > 0 (use 0)",
                self.lookahead_timeout
            ));
        }
    }
}
