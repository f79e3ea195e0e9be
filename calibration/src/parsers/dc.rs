//! Synopsys Design Compiler `report_area` and `report_power`.
//!
//! Both start with a banner `Report : area` / `Report : power` and `Design : NAME`.
//! `report_area` lists `Number of cells: N` and `Total cell area: A` (library area units, µm²;
//! `Total area` also includes wire-load net area and is often `undefined`, so the cell area is
//! used). `report_power` gives a summary with explicit units —
//! `Cell Internal Power = 5.79 mW`, `Net Switching Power = 2.31 mW`,
//! `Cell Leakage Power = 564.1 nW` — and a power-group table whose `Total` row repeats them with
//! units; the summary lines are read, and the table total when present.

use super::{nonneg_num, num, power_unit, ParsedReport, ReportParser, AREA_UNIT_M2};
use crate::error::ParseError;
use std::path::Path;

fn banner_design(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        l.trim()
            .strip_prefix("Design :")
            .map(|d| d.trim().to_string())
    })
}

fn is_report(text: &str, kind: &str) -> bool {
    text.lines().take(40).any(|l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        t.len() >= 3 && t[0] == "Report" && t[1] == ":" && t[2] == kind
    })
}

/// Design Compiler `report_area`.
pub struct DcArea;

impl ReportParser for DcArea {
    fn name(&self) -> &'static str {
        "dc-area"
    }

    fn detect(&self, text: &str) -> bool {
        is_report(text, "area")
    }

    fn parse(&self, text: &str, file: &Path) -> Result<ParsedReport, ParseError> {
        let mut out = ParsedReport {
            format: self.name().into(),
            design: banner_design(text),
            ..Default::default()
        };
        for (i, l) in text.lines().enumerate() {
            let ln = i + 1;
            let s = l.trim();
            if let Some(v) = s.strip_prefix("Number of cells:") {
                out.cell_count = Some(num(v, file, ln, "number of cells")? as u64);
            } else if let Some(v) = s.strip_prefix("Total cell area:") {
                out.area_m2 = Some(nonneg_num(v, file, ln, "total cell area")? * AREA_UNIT_M2);
            }
        }
        if out.area_m2.is_none() {
            return Err(ParseError::new(
                file,
                0,
                "no 'Total cell area:' line in the DC area report",
            ));
        }
        Ok(out)
    }
}

/// Design Compiler `report_power`.
pub struct DcPower;

/// Parse `= VALUE UNIT` after a summary label.
fn value_with_unit(rest: &str, file: &Path, ln: usize, what: &str) -> Result<f64, ParseError> {
    let rest = rest.trim().trim_start_matches('=').trim();
    let t: Vec<&str> = rest.split_whitespace().collect();
    if t.len() < 2 {
        return Err(ParseError::new(
            file,
            ln,
            format!("expected '{what} = VALUE UNIT'"),
        ));
    }
    let v = num(t[0], file, ln, what)?;
    let s = power_unit(t[1]).ok_or_else(|| {
        ParseError::new(
            file,
            ln,
            format!(
                "unknown power unit '{}' for {what} (expected W, mW, uW, nW or pW)",
                t[1]
            ),
        )
    })?;
    Ok(v * s)
}

impl ReportParser for DcPower {
    fn name(&self) -> &'static str {
        "dc-power"
    }

    fn detect(&self, text: &str) -> bool {
        is_report(text, "power")
    }

    fn parse(&self, text: &str, file: &Path) -> Result<ParsedReport, ParseError> {
        let mut out = ParsedReport {
            format: self.name().into(),
            design: banner_design(text),
            ..Default::default()
        };
        for (i, l) in text.lines().enumerate() {
            let ln = i + 1;
            let s = l.trim();
            if let Some(r) = s.strip_prefix("Cell Internal Power") {
                out.internal_w = Some(value_with_unit(r, file, ln, "Cell Internal Power")?);
            } else if let Some(r) = s.strip_prefix("Net Switching Power") {
                out.switching_w = Some(value_with_unit(r, file, ln, "Net Switching Power")?);
            } else if let Some(r) = s.strip_prefix("Cell Leakage Power") {
                out.leakage_w = Some(value_with_unit(r, file, ln, "Cell Leakage Power")?);
            } else if s.starts_with("Total") && !s.starts_with("Total Dynamic") {
                // Table total: "Total  I mW  S mW  L pW  T mW" — the last value/unit pair.
                let t: Vec<&str> = s.split_whitespace().collect();
                if t.len() >= 9 {
                    let (v, u) = (t[t.len() - 2], t[t.len() - 1]);
                    let scale = power_unit(u).ok_or_else(|| {
                        ParseError::new(
                            file,
                            ln,
                            format!("unknown power unit '{u}' in the Total row"),
                        )
                    })?;
                    out.total_w = Some(num(v, file, ln, "total power")? * scale);
                }
            }
        }
        let (Some(i), Some(s), Some(lk)) = (out.internal_w, out.switching_w, out.leakage_w) else {
            return Err(ParseError::new(
                file,
                0,
                "DC power report lacks one of 'Cell Internal Power', 'Net Switching Power', 'Cell Leakage Power'",
            ));
        };
        if out.total_w.is_none() {
            out.total_w = Some(i + s + lk);
        }
        Ok(out)
    }
}
