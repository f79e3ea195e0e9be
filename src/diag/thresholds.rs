//! Acceptance thresholds and method constants of the suite, read from `diag.toml` (embedded;
//! a user file of the same schema replaces it). Every key is required and documented there
//! with its justification.

/// `[diag]`: per-parameter tolerances and method constants.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct DiagTable {
    /// Relative tolerance of fu(c), n_bot and throughputs.
    pub tol_fu: f64,
    /// Largest |P1 − overhead − latency| that counts as the configured latency, cycles.
    pub tol_latency_cycles: f64,
    /// num_mp: a block time above this multiple of the running average marks a shared MP.
    pub num_mp_jump_ratio: f64,
    /// c2x: the first c with fu(2c) ≥ this ratio × fu(c).
    pub c2x_ratio: f64,
    /// N_slot deadline as a multiple of the longest successful sync.
    pub deadline_multiple: f64,
    /// Smallest N_slot deadline, cycles.
    pub deadline_floor_cycles: u64,
    /// Watchdog as a multiple of the deadline.
    pub watchdog_multiple: f64,
    /// The N_slot boundary is confirmed with the deadline times this.
    pub confirm_multiple: f64,
}

/// `[crosscheck]`: acceptance of the §5 simulator-vs-model comparison.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct CrossTable {
    /// Smallest Kendall τ.
    pub min_kendall_tau: f64,
    /// Smallest Pearson r.
    pub min_pearson_r: f64,
    /// Largest mean absolute percentage error, %.
    pub max_mape_pct: f64,
    /// Largest single-point error, %.
    pub max_abs_err_pct: f64,
}

/// `[issue_stage]`: acceptance of the §5.5 issue-stage variant comparison.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct IssueTable {
    /// Largest relative difference of a dependent chain's P1 and fu(c) from the baseline's.
    pub tol_dependent: f64,
    /// Largest relative difference of a divergent body's time from the sum of its paths'.
    pub tol_pdom_sum: f64,
}

/// The whole file.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    /// `[diag]`.
    pub diag: DiagTable,
    /// `[crosscheck]`.
    pub crosscheck: CrossTable,
    /// `[issue_stage]`.
    pub issue_stage: IssueTable,
}

/// The embedded default file.
pub const DEFAULT_TOML: &str = include_str!("diag.toml");

impl Thresholds {
    /// Parses a thresholds file; the error names the file, the line and the key.
    pub fn from_toml(text: &str, file: &str) -> Result<Thresholds, String> {
        let t: Thresholds = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].lines().count().max(1))
                .unwrap_or(0);
            format!("{file}:{line}: {}", e.message())
        })?;
        let d = &t.diag;
        let pos = [
            ("diag.tol_fu", d.tol_fu),
            ("diag.tol_latency_cycles", d.tol_latency_cycles),
            ("diag.num_mp_jump_ratio", d.num_mp_jump_ratio - 1.0),
            ("diag.c2x_ratio", d.c2x_ratio - 1.0),
            ("diag.deadline_multiple", d.deadline_multiple - 1.0),
            ("diag.watchdog_multiple", d.watchdog_multiple - 1.0),
            ("diag.confirm_multiple", d.confirm_multiple - 1.0),
        ];
        for (k, v) in pos {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!(
                    "{file}: '{k}' out of range: tolerances must be > 0 and ratios > 1"
                ));
            }
        }
        Ok(t)
    }

    /// The embedded defaults.
    pub fn default_embedded() -> Thresholds {
        Thresholds::from_toml(DEFAULT_TOML, "diag.toml").expect("embedded diag.toml is valid")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_file_parses_and_bad_keys_are_named() {
        let t = Thresholds::default_embedded();
        assert!(t.diag.tol_fu > 0.0);
        let bad = DEFAULT_TOML.replace("tol_fu = 0.05", "tol_fu = -1");
        assert!(Thresholds::from_toml(&bad, "x.toml")
            .unwrap_err()
            .contains("diag.tol_fu"));
        let typo = DEFAULT_TOML.replace("tol_fu =", "tol_fuu =");
        let e = Thresholds::from_toml(&typo, "x.toml").unwrap_err();
        assert!(e.starts_with("x.toml:"), "{e}");
    }
}
