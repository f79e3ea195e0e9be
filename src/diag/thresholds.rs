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

/// The allowed interval of one key (`low`..`high`, each end open or closed) and why.
struct KeyRange {
    key: &'static str,
    low: f64,
    low_open: bool,
    high: f64,
    high_open: bool,
    why: &'static str,
}

const fn range(
    key: &'static str,
    (low, low_open): (f64, bool),
    (high, high_open): (f64, bool),
    why: &'static str,
) -> KeyRange {
    KeyRange {
        key,
        low,
        low_open,
        high,
        high_open,
        why,
    }
}

const OPEN: bool = true;
const CLOSED: bool = false;

/// Every key's range, in the order of [`Thresholds::from_toml`]'s checks.
const RANGES: [KeyRange; 14] = [
    range(
        "diag.tol_fu",
        (0.0, OPEN),
        (1.0, CLOSED),
        "a relative tolerance",
    ),
    range(
        "diag.tol_latency_cycles",
        (0.0, OPEN),
        (10.0, CLOSED),
        "cycles of a recovered latency",
    ),
    range(
        "diag.num_mp_jump_ratio",
        (1.0, OPEN),
        (2.0, OPEN),
        "between one and two blocks' time",
    ),
    range(
        "diag.c2x_ratio",
        (1.0, OPEN),
        (2.0, CLOSED),
        "fu(2c)/fu(c) of a saturated unit is at most 2",
    ),
    range(
        "diag.deadline_multiple",
        (1.0, OPEN),
        (1000.0, CLOSED),
        "a ratio above 1",
    ),
    range(
        "diag.deadline_floor_cycles",
        (1.0, CLOSED),
        (1e9, CLOSED),
        "cycles; it must cover a one-block launch, which the run checks",
    ),
    range(
        "diag.watchdog_multiple",
        (1.0, OPEN),
        (1000.0, CLOSED),
        "a ratio above 1",
    ),
    range(
        "diag.confirm_multiple",
        (1.0, OPEN),
        (1000.0, CLOSED),
        "a ratio above 1",
    ),
    range(
        "crosscheck.min_kendall_tau",
        (-1.0, CLOSED),
        (1.0, CLOSED),
        "a rank correlation",
    ),
    range(
        "crosscheck.min_pearson_r",
        (-1.0, CLOSED),
        (1.0, CLOSED),
        "a correlation",
    ),
    range(
        "crosscheck.max_mape_pct",
        (0.0, CLOSED),
        (1000.0, CLOSED),
        "a percentage",
    ),
    range(
        "crosscheck.max_abs_err_pct",
        (0.0, CLOSED),
        (1000.0, CLOSED),
        "a percentage",
    ),
    range(
        "issue_stage.tol_dependent",
        (0.0, OPEN),
        (1.0, CLOSED),
        "a relative tolerance",
    ),
    range(
        "issue_stage.tol_pdom_sum",
        (0.0, OPEN),
        (1.0, CLOSED),
        "a relative tolerance",
    ),
];

/// The 1-based line of `key = ` in the table `[section]` of `text`, 0 when not found.
fn key_line(text: &str, section: &str, key: &str) -> usize {
    let mut in_section = false;
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.starts_with('[') {
            in_section = t == format!("[{section}]");
        } else if in_section
            && t.strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with('='))
        {
            return i + 1;
        }
    }
    0
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
        let (d, c, i) = (&t.diag, &t.crosscheck, &t.issue_stage);
        let values = [
            d.tol_fu,
            d.tol_latency_cycles,
            d.num_mp_jump_ratio,
            d.c2x_ratio,
            d.deadline_multiple,
            d.deadline_floor_cycles as f64,
            d.watchdog_multiple,
            d.confirm_multiple,
            c.min_kendall_tau,
            c.min_pearson_r,
            c.max_mape_pct,
            c.max_abs_err_pct,
            i.tol_dependent,
            i.tol_pdom_sum,
        ];
        for (r, v) in RANGES.iter().zip(values) {
            let low_ok = if r.low_open { v > r.low } else { v >= r.low };
            let high_ok = if r.high_open { v < r.high } else { v <= r.high };
            if !(v.is_finite() && low_ok && high_ok) {
                let (section, key) = r.key.split_once('.').expect("section.key");
                return Err(format!(
                    "{file}:{}: '{}' = {v} is out of range: allowed {}{}, {}{} ({})",
                    key_line(text, section, key),
                    r.key,
                    if r.low_open { "(" } else { "[" },
                    r.low,
                    r.high,
                    if r.high_open { ")" } else { "]" },
                    r.why
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
        // Every key has a range; an error names the file, the key's line, the key and the range.
        for (find, replace, key) in [
            (
                "min_pearson_r = 0.95",
                "min_pearson_r = 5.0",
                "crosscheck.min_pearson_r",
            ),
            (
                "min_kendall_tau = 0.8",
                "min_kendall_tau = -3",
                "crosscheck.min_kendall_tau",
            ),
            (
                "max_mape_pct = 10.0",
                "max_mape_pct = -1.0",
                "crosscheck.max_mape_pct",
            ),
            (
                "max_abs_err_pct = 33.0",
                "max_abs_err_pct = 1e300",
                "crosscheck.max_abs_err_pct",
            ),
            (
                "deadline_floor_cycles = 4000",
                "deadline_floor_cycles = 0",
                "diag.deadline_floor_cycles",
            ),
            ("c2x_ratio = 1.8", "c2x_ratio = 7.0", "diag.c2x_ratio"),
            (
                "num_mp_jump_ratio = 1.5",
                "num_mp_jump_ratio = 2.0",
                "diag.num_mp_jump_ratio",
            ),
            (
                "tol_latency_cycles = 0.5",
                "tol_latency_cycles = nan",
                "diag.tol_latency_cycles",
            ),
            (
                "deadline_multiple = 5.0",
                "deadline_multiple = 1e300",
                "diag.deadline_multiple",
            ),
            (
                "watchdog_multiple = 8.0",
                "watchdog_multiple = 1.0",
                "diag.watchdog_multiple",
            ),
            (
                "confirm_multiple = 10.0",
                "confirm_multiple = inf",
                "diag.confirm_multiple",
            ),
            (
                "tol_dependent = 0.05",
                "tol_dependent = 0",
                "issue_stage.tol_dependent",
            ),
            (
                "tol_pdom_sum = 0.15",
                "tol_pdom_sum = 2",
                "issue_stage.tol_pdom_sum",
            ),
        ] {
            let bad = DEFAULT_TOML.replace(find, replace);
            assert_ne!(bad, DEFAULT_TOML, "{find}");
            let e = Thresholds::from_toml(&bad, "x.toml").unwrap_err();
            let line = DEFAULT_TOML
                .lines()
                .position(|l| l.starts_with(find))
                .unwrap()
                + 1;
            assert!(
                e.starts_with(&format!("x.toml:{line}: '{key}'")) && e.contains("allowed"),
                "{e}"
            );
        }
        let typo = DEFAULT_TOML.replace("tol_fu =", "tol_fuu =");
        let e = Thresholds::from_toml(&typo, "x.toml").unwrap_err();
        assert!(e.starts_with("x.toml:"), "{e}");
    }
}
