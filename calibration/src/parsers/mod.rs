//! Parsers of synthesis and timing/power reports, each giving one normalised [`ParsedReport`]
//! in SI units.
//!
//! Supported: Yosys `stat` (text and `-json`), OpenSTA `report_power` and `report_checks`,
//! Synopsys Design Compiler `report_area` and `report_power`, Cadence Genus `report_area` and
//! `report_power`. Every parser implements [`ReportParser`]; [`parse_report`] picks the one whose
//! `detect` accepts the text. Malformed reports give a [`ParseError`] naming file and line.
//!
//! Area: liberty files carry no area unit; by universal convention (and in ASAP7) cell areas are
//! in µm², so every area in a report is read as µm² ([`AREA_UNIT_M2`]).

pub mod dc;
pub mod genus;
pub mod opensta;
pub mod yosys;

use crate::error::ParseError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Area unit of liberty-based reports: 1 µm² in m².
pub const AREA_UNIT_M2: f64 = 1e-12;

/// What one report told us (every field optional: an area report has no power).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ParsedReport {
    /// The parser that produced it (`yosys-stat`, `opensta-power`, ...).
    pub format: String,
    /// Design (top module) name, when the report names it.
    pub design: Option<String>,
    /// Total cell area, m².
    pub area_m2: Option<f64>,
    /// Number of cell instances.
    pub cell_count: Option<u64>,
    /// Instances per cell type (when listed).
    pub cells: BTreeMap<String, u64>,
    /// Leakage power, W.
    pub leakage_w: Option<f64>,
    /// Cell internal power, W.
    pub internal_w: Option<f64>,
    /// Net switching power, W.
    pub switching_w: Option<f64>,
    /// Total power, W.
    pub total_w: Option<f64>,
    /// Data arrival time of the worst path, s.
    pub critical_path_s: Option<f64>,
    /// Slack of the worst path, s.
    pub slack_s: Option<f64>,
}

impl ParsedReport {
    /// Fill the fields `self` lacks from `other` (reports of the same run).
    pub fn merge(&mut self, other: &ParsedReport) {
        macro_rules! fill {
            ($($f:ident),*) => {$( if self.$f.is_none() { self.$f = other.$f.clone(); } )*};
        }
        fill!(
            design,
            area_m2,
            cell_count,
            leakage_w,
            internal_w,
            switching_w,
            total_w,
            critical_path_s,
            slack_s
        );
        if self.cells.is_empty() {
            self.cells = other.cells.clone();
        }
        if !other.format.is_empty() && !self.format.split('+').any(|f| f == other.format) {
            if self.format.is_empty() {
                self.format = other.format.clone();
            } else {
                self.format = format!("{}+{}", self.format, other.format);
            }
        }
    }

    /// Dynamic power (internal + switching), W, when both are known or only the total and leakage.
    pub fn dynamic_w(&self) -> Option<f64> {
        match (
            self.internal_w,
            self.switching_w,
            self.total_w,
            self.leakage_w,
        ) {
            (Some(i), Some(s), _, _) => Some(i + s),
            (_, _, Some(t), Some(l)) => Some(t - l),
            _ => None,
        }
    }
}

/// A parser for one report format (extension point: add DC/Genus/PrimeTime variants here).
pub trait ReportParser {
    /// Short name (`yosys-stat`, `opensta-power`, `dc-area`, ...).
    fn name(&self) -> &'static str;
    /// Whether `text` looks like this format.
    fn detect(&self, text: &str) -> bool;
    /// Parse `text` (read from `file`, used only for error messages).
    fn parse(&self, text: &str, file: &Path) -> Result<ParsedReport, ParseError>;
}

/// Every built-in parser, most specific first.
pub fn parsers() -> Vec<Box<dyn ReportParser>> {
    vec![
        Box::new(yosys::YosysStatJson),
        Box::new(yosys::YosysStat),
        Box::new(opensta::OpenStaPower),
        Box::new(opensta::OpenStaChecks),
        Box::new(dc::DcArea),
        Box::new(dc::DcPower),
        Box::new(genus::GenusArea),
        Box::new(genus::GenusPower),
    ]
}

/// Parse a report of any supported format; `Ok(None)` when no parser recognises it. A parsed
/// report must hold only finite values, and a non-negative area and leakage (physical sizes);
/// anything else means a corrupt report, refused here even when the format's parser took it.
pub fn parse_report(text: &str, file: &Path) -> Result<Option<ParsedReport>, ParseError> {
    for p in parsers() {
        if p.detect(text) {
            let r = p.parse(text, file)?;
            check_values(&r, file)?;
            return Ok(Some(r));
        }
    }
    Ok(None)
}

/// The whole-file check of [`parse_report`]: finite values, non-negative area and leakage.
fn check_values(r: &ParsedReport, file: &Path) -> Result<(), ParseError> {
    let sizes = [("area", r.area_m2), ("leakage power", r.leakage_w)];
    for (what, v) in sizes {
        if let Some(v) = v.filter(|v| !v.is_finite() || *v < 0.0) {
            return Err(ParseError::new(
                file,
                0,
                format!("{what} {v} is not a finite non-negative number"),
            ));
        }
    }
    let others = [
        ("internal power", r.internal_w),
        ("switching power", r.switching_w),
        ("total power", r.total_w),
        ("critical path", r.critical_path_s),
        ("slack", r.slack_s),
    ];
    for (what, v) in others {
        if let Some(v) = v.filter(|v| !v.is_finite()) {
            return Err(ParseError::new(
                file,
                0,
                format!("{what} {v} is not a finite number"),
            ));
        }
    }
    Ok(())
}

/// [`num`] for a physical size (an area, a leakage power): negative values are refused too.
pub(crate) fn nonneg_num(
    tok: &str,
    file: &Path,
    line: usize,
    what: &str,
) -> Result<f64, ParseError> {
    let v = num(tok, file, line, what)?;
    if v < 0.0 {
        return Err(ParseError::new(
            file,
            line,
            format!("{what} must not be negative, found '{tok}'"),
        ));
    }
    Ok(v)
}

/// Parse a number, with an error naming file, line and the offending text.
pub(crate) fn num(tok: &str, file: &Path, line: usize, what: &str) -> Result<f64, ParseError> {
    let v: f64 = tok.trim().parse().map_err(|_| {
        ParseError::new(
            file,
            line,
            format!("expected a number for {what}, found '{tok}'"),
        )
    })?;
    if !v.is_finite() {
        return Err(ParseError::new(
            file,
            line,
            format!("{what} is not finite: '{tok}'"),
        ));
    }
    Ok(v)
}

/// Scale of a power unit word (`W`, `mW`, `uW`, `nW`, `pW`, `fW`), in watts; `1mW`-style prefixes allowed.
pub(crate) fn power_unit(u: &str) -> Option<f64> {
    let u = u
        .trim()
        .trim_start_matches(['1', '('])
        .trim_end_matches(')');
    Some(match u {
        "W" => 1.0,
        "mW" => 1e-3,
        "uW" | "µW" => 1e-6,
        "nW" => 1e-9,
        "pW" => 1e-12,
        "fW" => 1e-15,
        _ => return None,
    })
}

/// Scale of a time unit word (`s`, `ms`, `us`, `ns`, `ps`, `fs`), in seconds.
pub(crate) fn time_unit(u: &str) -> Option<f64> {
    let u = u.trim().trim_start_matches('1');
    Some(match u {
        "s" => 1.0,
        "ms" => 1e-3,
        "us" => 1e-6,
        "ns" => 1e-9,
        "ps" => 1e-12,
        "fs" => 1e-15,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(power_unit("mW"), Some(1e-3));
        assert_eq!(power_unit("1pW"), Some(1e-12));
        assert_eq!(time_unit("1ns"), Some(1e-9));
        assert_eq!(power_unit("kW"), None);
    }

    #[test]
    fn merge_fills() {
        let mut a = ParsedReport {
            format: "yosys-stat".into(),
            area_m2: Some(1.0),
            ..Default::default()
        };
        let b = ParsedReport {
            format: "opensta-power".into(),
            area_m2: Some(2.0),
            leakage_w: Some(3.0),
            ..Default::default()
        };
        a.merge(&b);
        assert_eq!(a.area_m2, Some(1.0));
        assert_eq!(a.leakage_w, Some(3.0));
        assert_eq!(a.format, "yosys-stat+opensta-power");
    }
}
