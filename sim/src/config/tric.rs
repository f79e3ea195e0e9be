//! `[tric]`, `[coma]` and `[metrics]`: the Warped Register File (register-file spec §3, §4,
//! §9, §12). TRIC (tri-modal register control) keeps every register-file entry OFF, DROWSY,
//! WAKING or ON and wakes the entries an instruction needs when it takes a collector unit; COMA
//! (coordinated mask-aware access) drives only the active lanes' wordline segments of an
//! access. The energy-accounting switches of `[energy]` are not the machine's: they are
//! `models::rf::EnergySection`, read from the same file by the root crate's study
//! configuration.
//!
//! Every key has a serde default, and each table is skipped when serialising a configuration
//! that leaves it at its default, so presets and user files without these tables load and hash
//! exactly as before. With `tric.enabled = false` and `coma.enabled = false` the timing model
//! and every counter it had before are unchanged.
//!
//! Wake latency source (`tric.wake_latency_mode`): the simulator reads only the integer
//! `tric.wake_latency`. With `"derived"` the caller computes L = ⌈t_wake(V_drowsy → Vdd) /
//! t_clk⌉ from the device model and writes it into `tric.wake_latency` before simulating, as
//! `pg.timing = "Physical"` does for `pg.bet`/`pg.wakeup`.

use serde::{Deserialize, Serialize};

/// Largest `tric.lookahead` k: the schedulers predict at most this many instructions ahead.
pub const MAX_LOOKAHEAD: u32 = 16;

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

/// `coma.lane_org`: how the lanes of an entry are laid out (spec §4.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LaneOrg {
    /// `"wide_128B"`: one 128-B row with a divided wordline, `coma.lanes_per_segment` lanes
    /// per segment.
    #[default]
    #[serde(rename = "wide_128B")]
    Wide128B,
    /// `"cluster4_16B"`: lane quads with 16-B register files; a quad is driven if any of its
    /// four lanes is active.
    #[serde(rename = "cluster4_16B")]
    Cluster4x16B,
    /// `"per_lane_32banks"`: 32 banks of 4 B; only active lanes' banks are accessed.
    #[serde(rename = "per_lane_32banks")]
    PerLane32Banks,
}

/// `coma.fixed_fraction`: a number in 0..=1 or `"model"`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FixedFraction {
    /// The share of the access energy that is not lane-gated.
    Value(f64),
    /// `"model"`: the SRAM model sets it.
    Word(ModelWord),
}

/// The word `model`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ModelWord {
    /// Derived by the model.
    #[serde(rename = "model")]
    Model,
}

/// `[coma]`: coordinated mask-aware register access.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ComaSection {
    /// `coma.enabled`: drive only the active lanes' segments of each access.
    pub enabled: bool,
    /// `coma.lanes_per_segment`: lanes of one divided-wordline segment (divides 32).
    pub lanes_per_segment: u32,
    /// `coma.fixed_fraction` (read by the energy accounting; the simulator counts driven
    /// lanes).
    pub fixed_fraction: FixedFraction,
    /// `coma.lane_org`.
    pub lane_org: LaneOrg,
}

impl Default for ComaSection {
    fn default() -> Self {
        ComaSection {
            enabled: false,
            lanes_per_segment: 1,
            fixed_fraction: FixedFraction::Value(0.0),
            lane_org: LaneOrg::Wide128B,
        }
    }
}

impl ComaSection {
    /// All keys at their defaults (the table is then not serialised).
    pub fn is_default(&self) -> bool {
        *self == ComaSection::default()
    }

    /// Lanes one gated segment spans: `lanes_per_segment` for the divided wordline, 4 for
    /// lane quads, 1 for per-lane banks.
    pub fn segment_lanes(&self) -> u32 {
        match self.lane_org {
            LaneOrg::Wide128B => self.lanes_per_segment,
            LaneOrg::Cluster4x16B => 4,
            LaneOrg::PerLane32Banks => 1,
        }
    }

    /// Range checks; each message names the key.
    pub fn check(&self, bad: &mut Vec<String>) {
        if !matches!(self.lanes_per_segment, 1 | 2 | 4 | 8 | 16 | 32) {
            bad.push(format!(
                "'coma.lanes_per_segment' = {}: allowed 1, 2, 4, 8, 16 or 32 (a divisor of the \
                 32 lanes)",
                self.lanes_per_segment
            ));
        }
        if let FixedFraction::Value(f) = self.fixed_fraction {
            if !(0.0..=1.0).contains(&f) {
                bad.push(format!(
                    "'coma.fixed_fraction' = {f}: must be a fraction in 0..=1 or \"model\""
                ));
            }
        }
    }
}

/// `[metrics]`: definitions of the register-file characterisation metrics (register-file spec
/// §9 "Characterisation"), read by the per-register recorder (`stats.per_register`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MetricsSection {
    /// `metrics.interaccess_cutoff`: register inter-access distances above this many cycles
    /// are left out of the cut-off histogram and mean (the source's methodology; the full
    /// histogram is kept as well).
    pub interaccess_cutoff: u64,
}

impl Default for MetricsSection {
    fn default() -> Self {
        MetricsSection {
            interaccess_cutoff: 3000,
        }
    }
}

impl MetricsSection {
    /// All keys at their defaults (the table is then not serialised).
    pub fn is_default(&self) -> bool {
        *self == MetricsSection::default()
    }

    /// Range checks; each message names the key.
    pub fn check(&self, bad: &mut Vec<String>) {
        if self.interaccess_cutoff == 0 {
            bad.push(
                "'metrics.interaccess_cutoff' = 0: must be a positive number of cycles".into(),
            );
        }
    }
}
