//! What a saved Activity says about the configuration it was recorded on, when it is costed
//! on another: the mismatch error, and the keys that differ when the record names a built-in
//! preset and carries that preset's hash.

use sim::activity::Activity;
use sim::config::GpuConfig;
use std::path::PathBuf;

/// An Activity recorded on another configuration than the one being costed.
#[derive(Debug, thiserror::Error)]
#[error(
    "activity file {} was recorded on configuration '{activity_gpu}' (hash {activity_hash}), \
     but the configuration being costed is '{config_gpu}' (hash {config_hash}){differs}; give \
     the --preset/--config/--set it was simulated with, or --recost to cost it on this \
     configuration on purpose",
    path.display()
)]
pub struct ConfigMismatch {
    /// The Activity file.
    pub path: PathBuf,
    /// `config_name` recorded in the Activity.
    pub activity_gpu: String,
    /// `config_hash` recorded in the Activity.
    pub activity_hash: String,
    /// `gpu.name` of the configuration being costed.
    pub config_gpu: String,
    /// Hash of the configuration being costed.
    pub config_hash: String,
    /// The keys that differ, when the record's configuration is known (a preset by name
    /// and hash), as `; keys that differ: k (recorded → costed), …`; otherwise a note that
    /// the record does not hold its configuration's keys.
    pub differs: String,
}

/// The keys in which `cfg` differs from the configuration an Activity was recorded on, for
/// the mismatch message: known when the record names a built-in preset and carries that
/// preset's hash (a record of a `--config` file or `--set` run holds only the hash).
pub(crate) fn recorded_config_differences(act: &Activity, cfg: &GpuConfig) -> String {
    let recorded = GpuConfig::preset(&act.config_name)
        .ok()
        .filter(|p| p.hash_hex() == act.config_hash);
    let Some(recorded) = recorded else {
        return "; the record holds only its configuration's hash, so the keys that differ \
                cannot be listed"
            .to_string();
    };
    let diff = sim::config::gpgpusim::differing_keys(&recorded, cfg);
    let shown: Vec<String> = diff
        .iter()
        .take(8)
        .map(|(k, a, b)| format!("{k} ({a} -> {b})"))
        .collect();
    let more = if diff.len() > shown.len() {
        format!(" and {} more", diff.len() - shown.len())
    } else {
        String::new()
    };
    format!(
        "; keys that differ (recorded -> costed): {}{more}",
        shown.join(", ")
    )
}
