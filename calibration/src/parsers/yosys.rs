//! Yosys `stat` reports: the text form (`stat -liberty LIB`) and the JSON form (`stat -json`).
//!
//! Text form (Yosys 0.2x): per module a `=== NAME ===` header, `Number of cells: N`, one
//! `CELL COUNT` line per cell type, and `Chip area for module '\NAME': A` when run with
//! `-liberty`; a hierarchical design ends with `Chip area for top module`. Newer Yosys prints cell
//! lines as `COUNT AREA CELL`; both are accepted. JSON form: `modules.{NAME}.num_cells`,
//! `num_cells_by_type` and, when present, `area`; `design.area` for the top. Yosys 0.23 omits area
//! from the JSON, in which case only the cell counts are returned.

use super::{nonneg_num, num, ParsedReport, ReportParser, AREA_UNIT_M2};
use crate::error::ParseError;
use std::collections::BTreeMap;
use std::path::Path;

/// Yosys `stat` text report.
pub struct YosysStat;

#[derive(Default)]
struct Block {
    name: String,
    cells: BTreeMap<String, u64>,
    count: Option<u64>,
    area: Option<f64>,
}

impl ReportParser for YosysStat {
    fn name(&self) -> &'static str {
        "yosys-stat"
    }

    fn detect(&self, text: &str) -> bool {
        text.contains("Number of cells") && text.lines().any(|l| l.trim_start().starts_with("=== "))
    }

    fn parse(&self, text: &str, file: &Path) -> Result<ParsedReport, ParseError> {
        let mut blocks: Vec<Block> = Vec::new();
        let mut top_area: Option<(String, f64)> = None;
        let mut in_cells = false;
        for (i, raw) in text.lines().enumerate() {
            let ln = i + 1;
            let l = raw.trim();
            if let Some(rest) = l.strip_prefix("=== ").and_then(|r| r.strip_suffix(" ===")) {
                blocks.push(Block {
                    name: rest.trim().to_string(),
                    ..Default::default()
                });
                in_cells = false;
                continue;
            }
            if l.starts_with("Chip area for top module") || l.starts_with("Chip area for module") {
                let (head, val) = l.rsplit_once(':').ok_or_else(|| {
                    ParseError::new(file, ln, "expected 'Chip area for module NAME: AREA'")
                })?;
                let a = nonneg_num(val, file, ln, "chip area")?;
                let name = head
                    .split('\'')
                    .nth(1)
                    .unwrap_or("")
                    .trim_start_matches('\\')
                    .to_string();
                if head.contains("top module") {
                    top_area = Some((name, a));
                } else if let Some(b) = blocks.last_mut() {
                    b.area = Some(a);
                } else {
                    return Err(ParseError::new(
                        file,
                        ln,
                        "chip area before any '=== module ===' header",
                    ));
                }
                in_cells = false;
                continue;
            }
            if let Some(v) = l.strip_prefix("Number of cells:") {
                let b = blocks.last_mut().ok_or_else(|| {
                    ParseError::new(
                        file,
                        ln,
                        "'Number of cells' before any '=== module ===' header",
                    )
                })?;
                let first = v.split_whitespace().next().unwrap_or("");
                b.count = Some(num(first, file, ln, "number of cells")? as u64);
                in_cells = true;
                continue;
            }
            // Yosys >= 0.3x: "   2769   281.802 cells" header line.
            if l.ends_with(" cells")
                && l.split_whitespace().count() == 3
                && blocks.last().is_some_and(|b| b.count.is_none())
            {
                let t: Vec<&str> = l.split_whitespace().collect();
                if let Ok(c) = t[0].parse::<u64>() {
                    let b = blocks.last_mut().expect("checked above");
                    b.count = Some(c);
                    in_cells = true;
                    continue;
                }
            }
            if in_cells {
                let t: Vec<&str> = l.split_whitespace().collect();
                match t.len() {
                    0 => in_cells = false,
                    2 if t[1].parse::<u64>().is_ok() => {
                        let b = blocks.last_mut().expect("in a block");
                        b.cells.insert(
                            t[0].trim_start_matches('$').to_string(),
                            t[1].parse().unwrap_or(0),
                        );
                    }
                    3 if t[0].parse::<u64>().is_ok() && t[1].parse::<f64>().is_ok() => {
                        let b = blocks.last_mut().expect("in a block");
                        b.cells.insert(t[2].to_string(), t[0].parse().unwrap_or(0));
                    }
                    _ => in_cells = false,
                }
            }
        }
        if blocks.is_empty() {
            return Err(ParseError::new(
                file,
                0,
                "no '=== MODULE ===' section: not a Yosys stat report",
            ));
        }
        // The flattened top is the last block that has an area (the last stat run), unless the
        // report names a top module.
        let (design, area) = match &top_area {
            Some((n, a)) => (n.clone(), Some(*a)),
            None => match blocks.iter().rev().find(|b| b.area.is_some()) {
                Some(b) => (b.name.trim_start_matches('\\').to_string(), b.area),
                None => (
                    blocks.last().map(|b| b.name.clone()).unwrap_or_default(),
                    None,
                ),
            },
        };
        let block = blocks
            .iter()
            .rev()
            .find(|b| b.name.trim_start_matches('\\') == design)
            .or(blocks.last())
            .expect("non-empty");
        if area.is_none() {
            return Err(ParseError::new(
                file,
                0,
                "no 'Chip area for module' line: run 'stat -liberty LIB' so the report has an area",
            ));
        }
        Ok(ParsedReport {
            format: self.name().into(),
            design: Some(design),
            area_m2: area.map(|a| a * AREA_UNIT_M2),
            cell_count: block.count,
            cells: block.cells.clone(),
            ..Default::default()
        })
    }
}

/// Yosys `stat -json` report.
pub struct YosysStatJson;

impl ReportParser for YosysStatJson {
    fn name(&self) -> &'static str {
        "yosys-stat-json"
    }

    fn detect(&self, text: &str) -> bool {
        let t = text.trim_start();
        t.starts_with('{') && text.contains("\"num_cells_by_type\"")
    }

    fn parse(&self, text: &str, file: &Path) -> Result<ParsedReport, ParseError> {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| ParseError::new(file, e.line(), format!("invalid JSON: {e}")))?;
        let modules = v
            .get("modules")
            .and_then(|m| m.as_object())
            .ok_or_else(|| ParseError::new(file, 0, "expected a 'modules' object"))?;
        if modules.is_empty() {
            return Err(ParseError::new(file, 0, "'modules' is empty"));
        }
        // With several modules, the top is the one with the most cells (flattened designs have one).
        let (name, m) = modules
            .iter()
            .max_by_key(|(_, m)| m.get("num_cells").and_then(|c| c.as_u64()).unwrap_or(0))
            .expect("non-empty");
        let line_of = |key: &str| {
            text.find(&format!("\"{key}\""))
                .map(|p| 1 + text[..p].matches('\n').count())
                .unwrap_or(0)
        };
        let count = m
            .get("num_cells")
            .map(|c| {
                c.as_u64().ok_or_else(|| {
                    ParseError::new(
                        file,
                        line_of("num_cells"),
                        "num_cells must be a non-negative integer",
                    )
                })
            })
            .transpose()?;
        let mut cells = BTreeMap::new();
        if let Some(by) = m.get("num_cells_by_type").and_then(|b| b.as_object()) {
            for (c, n) in by {
                let n = n.as_u64().ok_or_else(|| {
                    ParseError::new(
                        file,
                        line_of(c),
                        format!("count of cell '{c}' must be an integer"),
                    )
                })?;
                cells.insert(c.clone(), n);
            }
        }
        let area = v
            .get("design")
            .and_then(|d| d.get("area"))
            .or_else(|| m.get("area"))
            .map(|a| {
                a.as_f64()
                    .ok_or_else(|| ParseError::new(file, line_of("area"), "area must be a number"))
            })
            .transpose()?;
        Ok(ParsedReport {
            format: self.name().into(),
            design: Some(name.trim_start_matches('\\').to_string()),
            area_m2: area.map(|a| a * AREA_UNIT_M2),
            cell_count: count,
            cells,
            ..Default::default()
        })
    }
}
