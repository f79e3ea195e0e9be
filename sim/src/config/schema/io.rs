//! The simulator's inputs and outputs in the simulator §6.3 schema: `[trace]` (the Accel-Sim
//! trace reader), `[stats]` (statistics output), `[hooks]` and `[metrics]` (definitions of the
//! per-register characterisation metrics).

use serde::{Deserialize, Serialize};

/// `[trace]`: Accel-Sim trace reader options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceSection {
    /// `trace.expand_wide_regs`: Rn of an 8- or 16-byte memory op or of a DP op stands for
    /// Rn … Rn+w/4−1.
    pub expand_wide_regs: bool,
    /// `trace.ldc_as_alu`: treat `LDC` as an ALU instruction, as Accel-Sim does.
    pub ldc_as_alu: bool,
    /// `trace.max_cta_buffer_mb`: RAM in MiB for decompressed traces. Not modelled
    /// (`UNREAD_KEYS`): a
    /// compressed trace is always decompressed to a spill file.
    pub max_cta_buffer_mb: u32,
    /// `trace.reader_buffer_kb`: buffer of each warp's trace reader in KiB.
    pub reader_buffer_kb: u32,
}

/// When a pipe counts as busy (`stats.busy_definition`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BusyDefinition {
    /// Busy while an instruction dispatched at d is in [d, d + latency).
    InFlight,
    /// Busy only in the cycle an instruction is accepted.
    Accept,
}

/// Format of the Activity output (`stats.output`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StatsOutput {
    /// One JSON document.
    Json,
    /// JSON lines.
    Jsonl,
}

/// `[stats]`: what the Activity record collects (§5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatsSection {
    /// Per-epoch deltas every this many cycles (0 = off).
    pub epoch_cycles: u64,
    /// Collect per-register access counts and inter-access histograms (§5.4).
    pub per_register: bool,
    /// (sm, cta, warp) of the pilot warp whose per-register counts are kept separately.
    pub pilot_warp: [u32; 3],
    /// `stats.busy_definition`: when a pipe counts as busy.
    pub busy_definition: BusyDefinition,
    /// Idle-period lengths 1..=this get an exact bin; longer ones a log2 bin [§5.5: 64].
    pub idle_hist_exact_max: u32,
    /// Log2 bins up to 2^this; longer runs go to the overflow bin [§5.5: 24].
    pub idle_hist_log2_max: u32,
    /// `stats.timeline_dump`: stream run-length busy intervals per pipe.
    pub timeline_dump: bool,
    /// `stats.output`: output format.
    pub output: StatsOutput,
}

/// `[hooks]`: names of hook implementations registered in code ("" = baseline/identity).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HooksSection {
    /// `hooks.unit_gate`: unit power-gating hook.
    pub unit_gate: String,
    /// `hooks.scheduler_plugin`: warp scheduler plug-in.
    pub scheduler_plugin: String,
    /// `hooks.exec_transform`: execution transform hook.
    pub exec_transform: String,
    /// `hooks.regfile_model`: register-file model.
    pub regfile_model: String,
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
