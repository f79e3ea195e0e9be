//! The normalised record of one synthesis run: what `gpuenergy synth` writes per run
//! (`record.json`) and what `gpuenergy calibrate` fits. All quantities SI.

use crate::error::{CalError, ParseError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// One synthesised component at one size, flavour and corner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SynthRecord {
    /// Component kind (`alu32`, `crossbar`, ...).
    pub component: String,
    /// Size parameters as given to `chparam`.
    pub params: BTreeMap<String, u32>,
    /// Device flavour of the library (`rvt`, `lvt`, `slvt`).
    pub flavour: String,
    /// Process corner (`tt`, `ff`, `ss`).
    pub corner: String,
    /// Nominal supply of the library, V.
    pub vdd_v: f64,
    /// Tools that produced the numbers (`yosys+opensta`, `dc`, `genus`).
    pub source: String,
    /// Clock period of the power analysis, s.
    pub clock_period_s: f64,
    /// Operations the component completes per cycle.
    pub ops_per_cycle: f64,
    /// Total cell area, m².
    pub area_m2: f64,
    /// Number of cell instances.
    pub cell_count: u64,
    /// Leakage power, W.
    pub leakage_w: f64,
    /// Internal power, W.
    pub internal_w: f64,
    /// Switching power, W.
    pub switching_w: f64,
    /// Total power, W.
    pub total_w: f64,
    /// Dynamic energy per operation: (internal + switching) × period / ops per cycle, J.
    pub energy_per_op_j: f64,
    /// Data arrival time of the worst register-to-register or I/O path, s.
    pub critical_path_s: Option<f64>,
    /// Mean toggle density (per cycle) of the data inputs in the stimulus, if simulated.
    pub mean_input_activity: Option<f64>,
    /// Area per cell type, m² (count × liberty area).
    #[serde(default)]
    pub area_by_cell_m2: BTreeMap<String, f64>,
}

/// The allowed interval of one numeric field of a record.
#[derive(Debug, Clone, Copy)]
pub struct FieldRange {
    /// Field name as in `record.json`.
    pub name: &'static str,
    /// Whether zero is allowed (otherwise the value must be strictly positive).
    pub zero_ok: bool,
    /// Largest allowed value (inclusive).
    pub max: f64,
}

impl FieldRange {
    /// `Ok` when `v` is finite and within the range; otherwise a message naming the field, the
    /// value and the allowed range.
    pub fn check(&self, v: f64) -> Result<(), String> {
        let low_ok = if self.zero_ok { v >= 0.0 } else { v > 0.0 };
        if v.is_finite() && low_ok && v <= self.max {
            return Ok(());
        }
        Err(format!(
            "{} = {} is out of range: allowed {} to {}",
            self.name,
            num(v),
            if self.zero_ok { "0" } else { "above 0" },
            num(self.max)
        ))
    }
}

/// A number as a message shows it: plain between 1e-3 and 1e6, in exponent form otherwise.
pub fn num(v: f64) -> String {
    if v == 0.0 || !v.is_finite() || (1e-3..1e6).contains(&v.abs()) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

const fn range(name: &'static str, zero_ok: bool, max: f64) -> FieldRange {
    FieldRange { name, zero_ok, max }
}

/// The ranges of the scalar fields of a record, in the order [`SynthRecord::check`] tests them.
/// The upper bounds are far above any synthesised block (the largest committed record is
/// 2.2e-9 m², 5e-6 W of leakage, 7e-12 J per operation) and below what a unit slip or a
/// corrupt number gives: a supply of 5 V, a clock period of 1 s, 1e6 operations per cycle,
/// 1e-3 m² (1000 mm², above the reticle limit), 10 W of leakage, 1e-6 J per operation and
/// 100 W of any power component.
pub const FIELD_RANGES: [FieldRange; 9] = [
    range("vdd_v", false, 5.0),
    range("clock_period_s", false, 1.0),
    range("ops_per_cycle", false, 1e6),
    range("area_m2", false, 1e-3),
    range("leakage_w", false, 10.0),
    range("energy_per_op_j", true, 1e-6),
    range("internal_w", true, 100.0),
    range("switching_w", true, 100.0),
    range("total_w", true, 100.0),
];

/// Range of `critical_path_s` when present: positive, at most 1 ms.
pub const CRITICAL_PATH_RANGE: FieldRange = range("critical_path_s", false, 1e-3);

/// Range of `mean_input_activity` when present: toggles per cycle, 0 to 2 (a clock's rate).
pub const ACTIVITY_RANGE: FieldRange = range("mean_input_activity", true, 2.0);

/// The 1-based line of the key a [`SynthRecord::check`] message starts with (its last dotted
/// part: `params.W` is the key `W`), quoted as JSON writes it or bare as TOML does, or 0 when
/// the text does not hold it.
pub fn key_line(text: &str, msg: &str) -> usize {
    let field = msg
        .split([' ', '='])
        .next()
        .unwrap_or("")
        .rsplit('.')
        .next()
        .unwrap_or("");
    if field.is_empty() {
        return 0;
    }
    let quoted = format!("\"{field}\"");
    let bare = |l: &str| {
        l.trim_start()
            .strip_prefix(field)
            .is_some_and(|r| r.trim_start().starts_with('='))
    };
    text.lines()
        .position(|l| l.contains(&quoted) || bare(l))
        .map_or(0, |i| i + 1)
}

/// Largest `cell_count` of a record (1e9 cells).
pub const MAX_CELL_COUNT: u64 = 1_000_000_000;

/// Largest size parameter of a record (`WIDTH`, `N`, `ENTRIES`, ...): 65536.
pub const MAX_PARAM: u32 = 65_536;

impl SynthRecord {
    /// Read a record from JSON, checking its numbers are finite and non-negative.
    pub fn load(path: &Path) -> Result<SynthRecord, CalError> {
        let text = crate::error::read_text(path)?;
        Self::from_json(&text, path)
    }

    /// Parse a record from JSON text and check it ([`SynthRecord::check`]); an empty or
    /// truncated file is a parse error naming the file and line.
    pub fn from_json(text: &str, path: &Path) -> Result<SynthRecord, CalError> {
        if text.trim().is_empty() {
            return Err(ParseError::new(path, 0, "empty file; expected a synthesis record").into());
        }
        let r: SynthRecord = serde_json::from_str(text).map_err(|e| {
            let what = if e.is_eof() {
                "truncated synthesis record"
            } else {
                "not a synthesis record"
            };
            ParseError::new(path, e.line(), format!("{what}: {e}"))
        })?;
        r.check()
            .map_err(|m| ParseError::new(path, key_line(text, &m), m))?;
        Ok(r)
    }

    /// The physical checks a record must pass before it is fitted; each field has a range
    /// ([`FIELD_RANGES`]) and the message names the field, the value and the allowed range.
    /// Supply, clock period, operations per cycle, area and leakage must be positive (a zero is
    /// a missing report, not a measurement); energies and powers non-negative; the critical
    /// path, when present, positive; activity and per-cell areas non-negative; no per-cell
    /// area above the total; every number finite and below the bound no synthesised component
    /// reaches (a larger value is a corrupt or misscaled report).
    pub fn check(&self) -> Result<(), String> {
        if self.component.trim().is_empty() {
            return Err("component is empty; expected a component kind".into());
        }
        for (name, text) in [("flavour", &self.flavour), ("corner", &self.corner)] {
            if text.trim().is_empty() {
                return Err(format!("{name} is empty; expected a library {name} name"));
            }
        }
        let values = [
            self.vdd_v,
            self.clock_period_s,
            self.ops_per_cycle,
            self.area_m2,
            self.leakage_w,
            self.energy_per_op_j,
            self.internal_w,
            self.switching_w,
            self.total_w,
        ];
        for (r, v) in FIELD_RANGES.iter().zip(values) {
            r.check(v)?;
        }
        if let Some(v) = self.critical_path_s {
            CRITICAL_PATH_RANGE.check(v)?;
        }
        if let Some(v) = self.mean_input_activity {
            ACTIVITY_RANGE.check(v)?;
        }
        if self.cell_count > MAX_CELL_COUNT {
            return Err(format!(
                "cell_count {} is out of range: allowed 0 to {MAX_CELL_COUNT}",
                self.cell_count
            ));
        }
        for (c, v) in &self.area_by_cell_m2 {
            if !(v.is_finite() && *v >= 0.0 && *v <= self.area_m2 * (1.0 + 1e-9)) {
                return Err(format!(
                    "area_by_cell_m2.{c} = {} is out of range: allowed 0 to the record's \
                     area_m2 ({})",
                    num(*v),
                    num(self.area_m2)
                ));
            }
        }
        for (p, v) in &self.params {
            if !(1..=MAX_PARAM).contains(v) {
                return Err(format!(
                    "params.{p} = {v} is out of range: allowed 1 to {MAX_PARAM}"
                ));
            }
        }
        Ok(())
    }

    /// Pretty JSON (deterministic key order).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("record serialises") + "\n"
    }

    /// A short id: `component[N=4,W=32]`.
    pub fn label(&self) -> String {
        let p: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!("{}[{}]", self.component, p.join(","))
    }
}
