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
        r.check().map_err(|m| ParseError::new(path, 0, m))?;
        Ok(r)
    }

    /// The physical checks a record must pass before it is fitted: a named component; a
    /// positive finite supply, clock period, operations per cycle, area and leakage (a zero is
    /// a missing report, not a measurement); finite non-negative energies and powers; a
    /// critical path, when present, positive and finite; activity and per-cell areas finite
    /// and non-negative. The message names the field and the value.
    pub fn check(&self) -> Result<(), String> {
        if self.component.trim().is_empty() {
            return Err("component is empty; expected a component kind".into());
        }
        for (name, v) in [
            ("vdd_v", self.vdd_v),
            ("clock_period_s", self.clock_period_s),
            ("ops_per_cycle", self.ops_per_cycle),
            ("area_m2", self.area_m2),
            ("leakage_w", self.leakage_w),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("{name} must be a positive finite number, got {v}"));
            }
        }
        for (name, v) in [
            ("energy_per_op_j", self.energy_per_op_j),
            ("internal_w", self.internal_w),
            ("switching_w", self.switching_w),
            ("total_w", self.total_w),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!(
                    "{name} must be a finite non-negative number, got {v}"
                ));
            }
        }
        if let Some(v) = self.critical_path_s {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!(
                    "critical_path_s must be a positive finite number, got {v}"
                ));
            }
        }
        if let Some(v) = self.mean_input_activity {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!(
                    "mean_input_activity must be a finite non-negative number, got {v}"
                ));
            }
        }
        if let Some((c, v)) = self
            .area_by_cell_m2
            .iter()
            .find(|(_, v)| !(v.is_finite() && **v >= 0.0))
        {
            return Err(format!(
                "area_by_cell_m2.{c} must be a finite non-negative number, got {v}"
            ));
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
