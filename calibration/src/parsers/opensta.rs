//! OpenSTA reports: `report_power` (group table) and `report_checks` (worst path).
//!
//! `report_power` prints a table with rows `Sequential`, `Combinational`, `Macro`, `Pad` (newer
//! versions add `Clock`) and `Total`, columns Internal / Switching / Leakage / Total power, in
//! watts (newer versions write `(Watts)` in the header; other unit words in the header are
//! honoured). `report_checks` prints the worst path ending in `data arrival time` and
//! `slack (MET|VIOLATED)`, in OpenSTA's user time unit: the library's unless `set_cmd_units
//! -time` changed it. The report carries no unit, so a line `# time_unit: ns` (which `gpuenergy
//! synth` writes) sets it; without it the parser assumes ns.

use super::{nonneg_num, num, power_unit, time_unit, ParsedReport, ReportParser};
use crate::error::ParseError;
use std::path::Path;

/// OpenSTA `report_power`.
pub struct OpenStaPower;

impl ReportParser for OpenStaPower {
    fn name(&self) -> &'static str {
        "opensta-power"
    }

    fn detect(&self, text: &str) -> bool {
        text.lines().any(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            t.len() >= 5 && t[0] == "Group" && t[1] == "Internal" && t[2] == "Switching"
        })
    }

    fn parse(&self, text: &str, file: &Path) -> Result<ParsedReport, ParseError> {
        let mut scale = 1.0;
        let mut in_table = false;
        let mut out = ParsedReport {
            format: self.name().into(),
            ..Default::default()
        };
        for (i, l) in text.lines().enumerate() {
            let ln = i + 1;
            let t: Vec<&str> = l.split_whitespace().collect();
            if t.first() == Some(&"Group") && t.get(1) == Some(&"Internal") {
                in_table = true;
                continue;
            }
            if !in_table {
                continue;
            }
            if let Some(u) = l.find('(').and_then(|p| l[p + 1..].split(')').next()) {
                if t.first() == Some(&"Power") {
                    scale = match u {
                        "Watts" => 1.0,
                        other => power_unit(other).ok_or_else(|| {
                            ParseError::new(file, ln, format!("unknown power unit '{other}'"))
                        })?,
                    };
                }
            }
            if t.first() == Some(&"Total") {
                if t.len() < 5 {
                    return Err(ParseError::new(
                        file,
                        ln,
                        "expected 'Total INTERNAL SWITCHING LEAKAGE TOTAL' in the power table",
                    ));
                }
                out.internal_w = Some(num(t[1], file, ln, "internal power")? * scale);
                out.switching_w = Some(num(t[2], file, ln, "switching power")? * scale);
                out.leakage_w = Some(nonneg_num(t[3], file, ln, "leakage power")? * scale);
                out.total_w = Some(num(t[4], file, ln, "total power")? * scale);
                return Ok(out);
            }
        }
        Err(ParseError::new(
            file,
            text.lines().count(),
            "power table has no 'Total' row (report truncated?)",
        ))
    }
}

/// OpenSTA `report_checks` (full path format).
pub struct OpenStaChecks;

impl ReportParser for OpenStaChecks {
    fn name(&self) -> &'static str {
        "opensta-checks"
    }

    fn detect(&self, text: &str) -> bool {
        text.contains("Startpoint:")
            && text.contains("data arrival time")
            && !text.contains("Design Compiler")
            && !text.contains("Genus")
    }

    fn parse(&self, text: &str, file: &Path) -> Result<ParsedReport, ParseError> {
        let mut scale = 1e-9;
        let mut out = ParsedReport {
            format: self.name().into(),
            ..Default::default()
        };
        for (i, l) in text.lines().enumerate() {
            let ln = i + 1;
            let s = l.trim();
            if let Some(u) = s.strip_prefix("# time_unit:") {
                scale = time_unit(u).ok_or_else(|| {
                    ParseError::new(
                        file,
                        ln,
                        format!("unknown time unit '{}': use s, ms, us, ns or ps", u.trim()),
                    )
                })?;
                continue;
            }
            if out.critical_path_s.is_none() && s.ends_with("data arrival time") {
                let v = s.split_whitespace().next().unwrap_or("");
                // The first occurrence is the arrival line; the summary repeats it negated.
                out.critical_path_s = Some(num(v, file, ln, "data arrival time")?.abs() * scale);
            }
            if s.contains("slack (") && out.slack_s.is_none() {
                let v = s.split_whitespace().next().unwrap_or("");
                out.slack_s = Some(num(v, file, ln, "slack")? * scale);
            }
        }
        if out.critical_path_s.is_none() {
            return Err(ParseError::new(
                file,
                0,
                "no 'data arrival time' line: not a full report_checks path",
            ));
        }
        Ok(out)
    }
}
