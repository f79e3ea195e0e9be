//! Liberty (`.lib`, optionally gzip-compressed) handling: finding a flavour/corner's files in a
//! directory, merging split libraries into one for Yosys, and reading cell areas, leakage, pin
//! capacitances and NLDM delay tables.
//!
//! Merging: `abc -liberty` reads a single file that must contain inverters and buffers, while
//! ASAP7 ships five groups (INVBUF, SIMPLE, AO, OA, SEQ) per flavour/corner. The merged library
//! is the header of the first file (library attributes, units, operating conditions) extended by
//! every `lu_table_template`/`power_lut_template` defined in any file's header and not already
//! present (the groups use different template names, e.g. `delay_template_7x7` in SEQ versus
//! `delay_template_7x7_x1` elsewhere), followed by the `cell` groups of all files.
//!
//! Longer than 600 lines on purpose: finding, merging and reading liberty files share one
//! group-syntax scanner and its unit handling.

use crate::error::{CalError, ParseError};
use flate2::read::GzDecoder;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Read a liberty file, decompressing `.gz`.
pub fn read_liberty(path: &Path) -> Result<String, CalError> {
    let io = |source| CalError::Io {
        path: path.to_path_buf(),
        error: source,
    };
    let bytes = std::fs::read(path).map_err(io)?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut s = String::new();
        GzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .map_err(io)?;
        Ok(s)
    } else {
        String::from_utf8(bytes).map_err(|_| {
            CalError::Parse(ParseError::new(path, 0, "liberty file is not UTF-8 text"))
        })
    }
}

fn is_liberty_name(n: &str) -> bool {
    n.ends_with(".lib") || n.ends_with(".lib.gz")
}

/// Liberty files of one flavour and corner in `dir`: names containing `_FLAVOUR_` and `_CORNER_`
/// (case-insensitive, as ASAP7 names them). If no file in the directory names any flavour
/// token, every liberty file there is used (a user's own single-corner library).
pub fn find_files(dir: &Path, flavour: &str, corner: &str) -> Result<Vec<PathBuf>, CalError> {
    let rd = std::fs::read_dir(dir).map_err(|source| CalError::Io {
        path: dir.to_path_buf(),
        error: source,
    })?;
    let mut all = Vec::new();
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if is_liberty_name(&name) {
            all.push((name, e.path()));
        }
    }
    all.sort();
    if all.is_empty() {
        return Err(CalError::Liberty(format!(
            "no liberty files (*.lib or *.lib.gz) in {}; point --liberty-dir at a standard-cell library (e.g. ../shared/asap7)",
            dir.display()
        )));
    }
    let fl = format!("_{}_", flavour.to_ascii_uppercase());
    let co = format!("_{}_", corner.to_ascii_uppercase());
    let tagged = |n: &str| {
        ["_RVT_", "_LVT_", "_SLVT_", "_HVT_"]
            .iter()
            .any(|t| n.to_ascii_uppercase().contains(t))
    };
    if !all.iter().any(|(n, _)| tagged(n)) {
        return Ok(all.into_iter().map(|(_, p)| p).collect());
    }
    let sel: Vec<PathBuf> = all
        .iter()
        .filter(|(n, _)| {
            let u = n.to_ascii_uppercase();
            u.contains(&fl) && u.contains(&co)
        })
        .map(|(_, p)| p.clone())
        .collect();
    if sel.is_empty() {
        return Err(CalError::Liberty(format!(
            "no liberty file in {} matches flavour '{flavour}' and corner '{corner}' (names containing '{fl}' and '{co}')",
            dir.display()
        )));
    }
    Ok(sel)
}

/// Split a liberty text into (header before the first cell, cell groups, closing text).
fn split_library(text: &str, file: &Path) -> Result<(String, String), CalError> {
    let start = text
        .find("\n  cell (")
        .or_else(|| text.find("\ncell ("))
        .or_else(|| find_cell_start(text))
        .ok_or_else(|| CalError::Liberty(format!("{}: no cell groups", file.display())))?;
    let head = &text[..start];
    let body = &text[start..];
    let end = body.trim_end().rfind('}').ok_or_else(|| {
        CalError::Parse(ParseError::new(
            file,
            0,
            "library group is not closed with '}'",
        ))
    })?;
    Ok((head.to_string(), body[..end].to_string()))
}

fn find_cell_start(text: &str) -> Option<usize> {
    let mut off: usize = 0;
    for l in text.split_inclusive('\n') {
        let t = l.trim_start();
        if t.starts_with("cell (") || t.starts_with("cell(") {
            return Some(off.saturating_sub(1));
        }
        off += l.len();
    }
    None
}

/// Top-level template groups (`lu_table_template`, `power_lut_template`, ...) of a header, by name.
fn header_templates(head: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = head.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        let is_tpl = t.starts_with("lu_table_template")
            || t.starts_with("power_lut_template")
            || t.starts_with("output_current_template");
        if is_tpl && t.contains('{') {
            let name = t
                .split('(')
                .nth(1)
                .and_then(|r| r.split(')').next())
                .unwrap_or("")
                .trim()
                .to_string();
            let mut depth = 0i32;
            let mut grp = String::new();
            while i < lines.len() {
                depth +=
                    lines[i].matches('{').count() as i32 - lines[i].matches('}').count() as i32;
                grp.push_str(lines[i]);
                grp.push('\n');
                i += 1;
                if depth <= 0 {
                    break;
                }
            }
            out.push((name, grp));
            continue;
        }
        i += 1;
    }
    out
}

/// Merge several liberty texts (with their paths for messages) into one library.
pub fn merge(libs: &[(PathBuf, String)]) -> Result<String, CalError> {
    let mut header: Option<String> = None;
    let mut have: Vec<String> = Vec::new();
    let mut extra = String::new();
    let mut cells = String::new();
    for (path, text) in libs {
        let (head, body) = split_library(text, path)?;
        let tpls = header_templates(&head);
        if header.is_none() {
            have = tpls.iter().map(|(n, _)| n.clone()).collect();
            header = Some(head);
        } else {
            for (n, g) in tpls {
                if !have.contains(&n) {
                    have.push(n);
                    extra.push_str(&g);
                }
            }
        }
        cells.push_str(&body);
        cells.push('\n');
    }
    let header = header.ok_or_else(|| CalError::Liberty("no liberty files to merge".into()))?;
    Ok(format!("{header}\n{extra}{cells}}}\n"))
}

/// Table groups captured for the cells named in `want_tables`.
const TABLES: [&str; 6] = [
    "cell_rise",
    "cell_fall",
    "rise_transition",
    "fall_transition",
    "rise_power",
    "fall_power",
];

/// An NLDM table: (group name, index_1, index_2, values row-major).
pub type NldmTable = (String, Vec<f64>, Vec<f64>, Vec<f64>);

/// A cell's `ff` or `latch` group: the internal state variables and their update rule.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SeqGroup {
    /// `ff` (edge-triggered) or `latch` (level-sensitive).
    pub latch: bool,
    /// State variable and its complement (`ff (IQ, IQN)`).
    pub iq: String,
    /// Complement state variable.
    pub iqn: String,
    /// `clocked_on` (ff) or `enable` (latch) expression.
    pub clock: String,
    /// `next_state` (ff) or `data_in` (latch) expression.
    pub data: String,
    /// Asynchronous `clear` expression, if any.
    pub clear: Option<String>,
    /// Asynchronous `preset` expression, if any.
    pub preset: Option<String>,
}

/// What the flow and the technology fit need to know about one cell.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CellInfo {
    /// Cell area (µm², liberty area unit).
    pub area: f64,
    /// `cell_leakage_power` in the library's leakage unit.
    pub leakage: Option<f64>,
    /// Input pin capacitances (library capacitance unit).
    pub input_caps: BTreeMap<String, f64>,
    /// Input pins, in file order.
    pub input_pins: Vec<String>,
    /// Whether the cell has a `ff` (flip-flop) group.
    pub is_ff: bool,
    /// Output function of the first output pin, if any.
    pub function: Option<String>,
    /// Output pins and their functions (`Q` → `IQ`).
    pub outputs: BTreeMap<String, String>,
    /// Latch group: (`enable`, `data_in`) expressions, when the cell is a latch.
    pub latch: Option<(String, String)>,
    /// `leakage_power` groups: (`when` condition or None for the default, value), related to
    /// the power pin (entries with `related_pg_pin` naming a ground pin are skipped).
    pub leakage_states: Vec<(Option<String>, f64)>,
    /// The `ff` or `latch` group, when the cell has one (for simulation models).
    pub seq: Option<SeqGroup>,
    /// NLDM tables of the wanted cells: (`cell_rise` | `cell_fall` | `rise_transition` |
    /// `fall_transition` | `rise_power` | `fall_power`, index_1, index_2, values row-major).
    pub delay_tables: Vec<NldmTable>,
}

impl CellInfo {
    /// Leakage in library units: `cell_leakage_power` when given, else the state-independent
    /// `leakage_power` group (no `when`), else the mean over the listed states.
    pub fn leakage_value(&self) -> Option<f64> {
        if self.leakage.is_some() {
            return self.leakage;
        }
        if let Some((_, v)) = self.leakage_states.iter().find(|(w, _)| w.is_none()) {
            return Some(*v);
        }
        if self.leakage_states.is_empty() {
            return None;
        }
        Some(
            self.leakage_states.iter().map(|(_, v)| v).sum::<f64>()
                / self.leakage_states.len() as f64,
        )
    }

    /// The table of `kind` (first timing/power arc that has one).
    pub fn table(&self, kind: &str) -> Option<(&[f64], &[f64], &[f64])> {
        self.delay_tables
            .iter()
            .find(|(k, _, _, v)| k == kind && !v.is_empty())
            .map(|(_, a, b, v)| (a.as_slice(), b.as_slice(), v.as_slice()))
    }
}

/// Library-level units and conditions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LibraryInfo {
    /// `time_unit` in seconds.
    pub time_unit_s: f64,
    /// `leakage_power_unit` in watts.
    pub leakage_unit_w: f64,
    /// Capacitance unit in farads.
    pub cap_unit_f: f64,
    /// `nom_voltage`.
    pub nom_voltage_v: f64,
    /// `nom_temperature`.
    pub nom_temperature_c: f64,
    /// Cells by name.
    pub cells: BTreeMap<String, CellInfo>,
}

fn parse_floats(s: &str) -> Vec<f64> {
    s.split(|c: char| c == ',' || c == '"' || c.is_whitespace() || c == '\\')
        .filter(|t| !t.is_empty())
        .filter_map(|t| t.parse().ok())
        .collect()
}

/// [`parse_floats`], refusing a NaN or infinite entry (Rust parses `nan` and `inf`, which no
/// characterisation produces): the error names the file, line and what the list is.
fn finite_floats(s: &str, file: &Path, ln: usize, what: &str) -> Result<Vec<f64>, CalError> {
    let v = parse_floats(s);
    if let Some(x) = v.iter().find(|x| !x.is_finite()) {
        return Err(CalError::Parse(ParseError::new(
            file,
            ln,
            format!("{what}: entry {x} is not a finite number"),
        )));
    }
    Ok(v)
}

/// A scalar attribute that must be a finite number; the error names file, line and attribute.
fn finite_value(val: &str, file: &Path, ln: usize, what: &str) -> Result<f64, CalError> {
    match val.trim_matches('"').trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(CalError::Parse(ParseError::new(
            file,
            ln,
            format!("{what} '{val}' is not a finite number"),
        ))),
    }
}

/// Largest leakage of one cell, W (1 mW: a thousand times a large cell's).
pub const MAX_CELL_LEAKAGE_W: f64 = 1e-3;
/// Largest cell area in library area units (µm² in every library read here): 1e6.
pub const MAX_CELL_AREA: f64 = 1e6;
/// Largest pin capacitance, F (1 nF).
pub const MAX_PIN_CAPACITANCE_F: f64 = 1e-9;
/// Largest magnitude of a delay or transition table entry, s (1 µs).
pub const MAX_TABLE_TIME_S: f64 = 1e-6;
/// Largest magnitude of an internal-power table entry, J per transition (1 nJ).
pub const MAX_TABLE_ENERGY_J: f64 = 1e-9;

/// A scalar attribute `what` with value `v` (library units, `unit` SI per unit) that must be
/// non-negative and at most `max_si` in SI; the error names file, line, attribute and range.
fn in_range(
    v: f64,
    unit: f64,
    max_si: f64,
    si_name: &str,
    file: &Path,
    ln: usize,
    what: &str,
) -> Result<f64, CalError> {
    if v >= 0.0 && v * unit <= max_si {
        return Ok(v);
    }
    Err(CalError::Parse(ParseError::new(
        file,
        ln,
        format!(
            "{what} {} is out of range: allowed 0 to {} library units ({max_si:e} {si_name})",
            crate::record::num(v),
            crate::record::num(max_si / unit)
        ),
    )))
}

/// A library unit (`time_unit`, `leakage_power_unit`, `capacitive_load_unit`) in SI: it scales
/// every value of its kind, so it must be finite and positive; the error names file, line and
/// attribute.
fn checked_unit(si: f64, val: &str, file: &Path, ln: usize, what: &str) -> Result<f64, CalError> {
    if si.is_finite() && (1e-18..=1.0).contains(&si) {
        Ok(si)
    } else {
        Err(CalError::Parse(ParseError::new(
            file,
            ln,
            format!(
                "{what} '{}' is not a unit between 1e-18 and 1 (SI): expected e.g. \"1ps\", \
                 \"1nW\", (1,ff)",
                val.trim()
            ),
        )))
    }
}

/// A unit such as `"1ps"`, `"10nW"` or `1ff` in SI; `NAN` (refused by [`checked_unit`]) when
/// the number or the unit is not one the reader knows, so an unknown unit is never taken as 1.
fn unit_scale(v: &str) -> f64 {
    let v = v.trim().trim_matches('"').trim();
    let split = v
        .find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E')
        .unwrap_or(v.len());
    let (n, u) = v.split_at(split);
    let n: f64 = if n.trim().is_empty() {
        1.0
    } else {
        match n.trim().parse() {
            Ok(n) => n,
            Err(_) => return f64::NAN,
        }
    };
    let p = match u.to_ascii_lowercase().as_str() {
        "s" | "w" | "f" | "v" | "a" => 1.0,
        "ms" | "mw" | "mf" | "ma" | "mv" => 1e-3,
        "us" | "uw" | "uf" | "ua" | "uv" => 1e-6,
        "ns" | "nw" | "nf" | "na" => 1e-9,
        "ps" | "pw" | "pf" | "pa" => 1e-12,
        "fs" | "fw" | "ff" | "fa" => 1e-15,
        _ => return f64::NAN,
    };
    n * p
}

/// Read units and per-cell data from a liberty text. `want_tables` limits the (costly) capture
/// of delay tables to the named cells.
pub fn library_info(
    text: &str,
    file: &Path,
    want_tables: &[&str],
) -> Result<LibraryInfo, CalError> {
    let mut r = LibReader {
        info: LibraryInfo {
            time_unit_s: 1e-9,
            leakage_unit_w: 1e-9,
            cap_unit_f: 1e-12,
            nom_voltage_v: 0.0,
            nom_temperature_c: 25.0,
            cells: BTreeMap::new(),
        },
        stack: Vec::new(),
        cur_cell: None,
        pin_dir: None,
        pin_cap: None,
        pin_name: String::new(),
        table: None,
        leak_group: None,
        file,
        want_tables,
    };
    let mut pending = String::new();
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        // Join backslash continuations.
        let l = raw.trim_end();
        if let Some(stripped) = l.strip_suffix('\\') {
            pending.push_str(stripped);
            pending.push(' ');
            continue;
        }
        let owned;
        let line: &str = if pending.is_empty() {
            l.trim()
        } else {
            pending.push_str(l);
            owned = std::mem::take(&mut pending);
            owned.trim()
        };
        let line = line.trim();
        if line.is_empty() || line.starts_with("/*") || line.starts_with('*') {
            continue;
        }
        if line.ends_with('{') {
            r.open(line);
            continue;
        }
        if line.starts_with('}') {
            r.close(ln)?;
            continue;
        }
        let (key, val) = match line.split_once(':') {
            Some((k, v)) if !k.contains('(') => (k.trim(), v.trim().trim_end_matches(';').trim()),
            _ => {
                // Complex attribute: name (args);
                r.complex_attribute(line, ln)?;
                continue;
            }
        };
        if r.stack.len() == 1 {
            r.library_attribute(key, val, ln)?;
            continue;
        }
        r.cell_attribute(key, val, ln)?;
    }
    if !r.stack.is_empty() {
        return Err(CalError::Parse(ParseError::new(
            file,
            text.lines().count(),
            "unclosed group at end of file",
        )));
    }
    Ok(r.info)
}

/// The state of [`library_info`] while it reads a liberty text line by line: the library so
/// far, the open groups, and the pin, table and leakage group being read.
struct LibReader<'a> {
    info: LibraryInfo,
    /// Group stack: (kind, name).
    stack: Vec<(String, String)>,
    cur_cell: Option<String>,
    pin_dir: Option<String>,
    pin_cap: Option<f64>,
    pin_name: String,
    /// A delay table of a wanted cell: kind, index_1, index_2, values text.
    table: Option<(String, Vec<f64>, Vec<f64>, String)>,
    /// A `leakage_power` group: `when`, value, related power pin.
    leak_group: Option<(Option<String>, Option<f64>, String)>,
    file: &'a Path,
    want_tables: &'a [&'a str],
}

impl LibReader<'_> {
    /// A group opens (`line` ends with `{`): a cell, a pin, a flip-flop or latch, a leakage
    /// group or a wanted delay table.
    fn open(&mut self, line: &str) {
        let kind = line.split('(').next().unwrap_or("").trim().to_string();
        let name = line
            .split('(')
            .nth(1)
            .and_then(|r| r.split(')').next())
            .unwrap_or("")
            .trim()
            .trim_matches('"')
            .to_string();
        if kind == "cell" && self.stack.len() == 1 {
            self.cur_cell = Some(name.clone());
            self.info.cells.insert(name.clone(), CellInfo::default());
        }
        if kind == "pin" {
            self.pin_dir = None;
            self.pin_cap = None;
            self.pin_name = name.clone();
        }
        if kind == "ff" || kind == "latch" {
            let raw = line
                .split_once('(')
                .and_then(|(_, r)| r.split_once(')'))
                .map(|(a, _)| a)
                .unwrap_or("");
            let mut vars = raw
                .split(',')
                .map(|v| v.trim().trim_matches('"').to_string());
            let seq = SeqGroup {
                latch: kind == "latch",
                iq: vars.next().unwrap_or_default(),
                iqn: vars.next().unwrap_or_default(),
                ..SeqGroup::default()
            };
            if let Some(c) = self
                .cur_cell
                .as_ref()
                .and_then(|c| self.info.cells.get_mut(c))
            {
                if kind == "ff" {
                    c.is_ff = true;
                } else {
                    c.latch = Some((String::new(), String::new()));
                }
                c.seq = Some(seq);
            }
        }
        if kind == "leakage_power" {
            self.leak_group = Some((None, None, String::new()));
        }
        if TABLES.contains(&kind.as_str())
            && self
                .cur_cell
                .as_deref()
                .is_some_and(|c| self.want_tables.contains(&c))
        {
            self.table = Some((kind.clone(), Vec::new(), Vec::new(), String::new()));
        }
        self.stack.push((kind, name));
    }

    /// A group closes at line `ln`: a pin's direction and capacitance, a leakage state or a
    /// delay table is stored.
    fn close(&mut self, ln: usize) -> Result<(), CalError> {
        let file = self.file;
        let Some((kind, _)) = self.stack.pop() else {
            return Err(CalError::Parse(ParseError::new(file, ln, "unbalanced '}'")));
        };
        match kind.as_str() {
            "cell" => self.cur_cell = None,
            "pin" => {
                if let (Some("input"), Some(cell)) = (self.pin_dir.as_deref(), &self.cur_cell) {
                    if let Some(ci) = self.info.cells.get_mut(cell) {
                        if !ci.input_pins.contains(&self.pin_name) {
                            ci.input_pins.push(self.pin_name.clone());
                        }
                    }
                }
                if let (Some(d), Some(c), Some(cell)) =
                    (&self.pin_dir, self.pin_cap, &self.cur_cell)
                {
                    if d == "input" {
                        if let Some(ci) = self.info.cells.get_mut(cell) {
                            ci.input_caps.insert(self.pin_name.clone(), c);
                        }
                    }
                }
            }
            "leakage_power" => {
                if let (Some((when, Some(v), pg)), Some(cell)) =
                    (self.leak_group.take(), &self.cur_cell)
                {
                    if !pg.contains("VSS") && !pg.contains("GND") {
                        if let Some(ci) = self.info.cells.get_mut(cell) {
                            ci.leakage_states.push((when, v));
                        }
                    }
                }
            }
            k if TABLES.contains(&k) => {
                if let (Some((k, i1, i2, vals)), Some(cell)) = (self.table.take(), &self.cur_cell) {
                    let what = format!("cell {cell}: {k} values");
                    let v = finite_floats(&vals, file, ln, &what)?;
                    // Delay and transition tables are times; power tables energies per
                    // transition (capacitance unit x 1 V²), which may be negative.
                    let (unit, max_si, si_name) = if k.ends_with("_power") {
                        (self.info.cap_unit_f, MAX_TABLE_ENERGY_J, "J")
                    } else {
                        (self.info.time_unit_s, MAX_TABLE_TIME_S, "s")
                    };
                    if let Some(x) = v.iter().find(|x| (*x * unit).abs() > max_si) {
                        return Err(CalError::Parse(ParseError::new(
                            file,
                            ln,
                            format!(
                                "{what}: entry {} is out of range: allowed magnitude up to {} \
                                 library units ({max_si:e} {si_name})",
                                crate::record::num(*x),
                                crate::record::num(max_si / unit)
                            ),
                        )));
                    }
                    if let Some(ci) = self.info.cells.get_mut(cell) {
                        ci.delay_tables.push((k, i1, i2, v));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A complex attribute `name (args);` at line `ln`: a delay table's indices and values, or
    /// the library's `capacitive_load_unit`.
    fn complex_attribute(&mut self, line: &str, ln: usize) -> Result<(), CalError> {
        let file = self.file;
        if let Some(t) = self.table.as_mut() {
            let arg = line
                .split_once('(')
                .map(|(_, r)| r.rsplit_once(')').map(|(a, _)| a).unwrap_or(r))
                .unwrap_or("");
            if line.starts_with("index_1") {
                t.1 = finite_floats(arg, file, ln, "index_1")?;
            } else if line.starts_with("index_2") {
                t.2 = finite_floats(arg, file, ln, "index_2")?;
            } else if line.starts_with("values") {
                t.3 = arg.to_string();
            }
        } else if self.stack.len() == 1 && line.starts_with("capacitive_load_unit") {
            let arg = line.split_once('(').map(|(_, r)| r).unwrap_or("");
            let parts: Vec<&str> = arg
                .trim_end_matches(';')
                .trim_end_matches(')')
                .split(',')
                .collect();
            if parts.len() == 2 {
                let n: f64 = parts[0].trim().parse().unwrap_or(f64::NAN);
                self.info.cap_unit_f = checked_unit(
                    n * unit_scale(&format!("1{}", parts[1].trim())),
                    arg,
                    file,
                    ln,
                    "capacitive_load_unit",
                )?;
            }
        }
        Ok(())
    }

    /// A library-level attribute `key: val` at line `ln`: units, nominal voltage and temperature.
    fn library_attribute(&mut self, key: &str, val: &str, ln: usize) -> Result<(), CalError> {
        let file = self.file;
        match key {
            "time_unit" => {
                self.info.time_unit_s = checked_unit(unit_scale(val), val, file, ln, "time_unit")?
            }
            "leakage_power_unit" => {
                self.info.leakage_unit_w =
                    checked_unit(unit_scale(val), val, file, ln, "leakage_power_unit")?
            }
            "nom_voltage" => {
                let v = finite_value(val, file, ln, "nom_voltage")?;
                if !(v > 0.0 && v <= 10.0) {
                    return Err(CalError::Parse(ParseError::new(
                        file,
                        ln,
                        format!("nom_voltage {v} is out of range: allowed above 0 to 10 V"),
                    )));
                }
                self.info.nom_voltage_v = v;
            }
            "nom_temperature" => {
                let t = finite_value(val, file, ln, "nom_temperature")?;
                if !(-273.15..=400.0).contains(&t) {
                    return Err(CalError::Parse(ParseError::new(
                        file,
                        ln,
                        format!("nom_temperature {t} is out of range: allowed -273.15 to 400 C"),
                    )));
                }
                self.info.nom_temperature_c = t
            }
            _ => {}
        }
        Ok(())
    }

    /// An attribute `key: val` inside a cell at line `ln`: leakage states, flip-flop and latch
    /// pins, area, leakage, pin direction, capacitance and function.
    fn cell_attribute(&mut self, key: &str, val: &str, ln: usize) -> Result<(), CalError> {
        let file = self.file;
        let Some(cell) = self.cur_cell.as_ref() else {
            return Ok(());
        };
        let in_cell_top = self.stack.len() == 2;
        let top_kind = self.stack.last().map(|s| s.0.as_str()).unwrap_or("");
        if top_kind == "leakage_power" {
            if let Some(g) = self.leak_group.as_mut() {
                match key {
                    "value" => {
                        let what = format!("cell {cell}: leakage_power value");
                        let v = finite_value(val, file, ln, &what)?;
                        g.1 = Some(in_range(
                            v,
                            self.info.leakage_unit_w,
                            MAX_CELL_LEAKAGE_W,
                            "W",
                            file,
                            ln,
                            &what,
                        )?)
                    }
                    "when" => g.0 = Some(val.trim_matches('"').to_string()),
                    "related_pg_pin" => g.2 = val.to_string(),
                    _ => {}
                }
            }
            return Ok(());
        }
        if top_kind == "latch" || top_kind == "ff" {
            let v = val.trim_matches('"').to_string();
            let ci = self.info.cells.get_mut(cell).expect("inserted");
            if let Some(l) = ci.latch.as_mut() {
                match key {
                    "enable" => l.0 = v.clone(),
                    "data_in" => l.1 = v.clone(),
                    _ => {}
                }
            }
            if let Some(sq) = ci.seq.as_mut() {
                match key {
                    "enable" | "clocked_on" => sq.clock = v,
                    "data_in" | "next_state" => sq.data = v,
                    "clear" => sq.clear = Some(v),
                    "preset" => sq.preset = Some(v),
                    _ => {}
                }
            }
            return Ok(());
        }
        match key {
            "area" if in_cell_top => {
                let what = format!("cell {cell}: area");
                let a = finite_value(val, file, ln, &what)?;
                let a = in_range(a, 1.0, MAX_CELL_AREA, "area units", file, ln, &what)?;
                self.info.cells.get_mut(cell).expect("inserted").area = a;
            }
            "cell_leakage_power" if in_cell_top => {
                let what = format!("cell {cell}: cell_leakage_power");
                let v = finite_value(val, file, ln, &what)?;
                let v = in_range(
                    v,
                    self.info.leakage_unit_w,
                    MAX_CELL_LEAKAGE_W,
                    "W",
                    file,
                    ln,
                    &what,
                )?;
                self.info.cells.get_mut(cell).expect("inserted").leakage = Some(v);
            }
            "direction" if self.stack.last().is_some_and(|s| s.0 == "pin") => {
                self.pin_dir = Some(val.to_string())
            }
            "capacitance" if self.stack.last().is_some_and(|s| s.0 == "pin") => {
                let what = format!("cell {cell}: pin {} capacitance", self.pin_name);
                let c = finite_value(val, file, ln, &what)?;
                self.pin_cap = Some(in_range(
                    c,
                    self.info.cap_unit_f,
                    MAX_PIN_CAPACITANCE_F,
                    "F",
                    file,
                    ln,
                    &what,
                )?)
            }
            "function" if self.stack.last().is_some_and(|s| s.0 == "pin") => {
                let ci = self.info.cells.get_mut(cell).expect("inserted");
                ci.outputs
                    .insert(self.pin_name.clone(), val.trim_matches('"').to_string());
                if ci.function.is_none() {
                    ci.function = Some(val.trim_matches('"').to_string());
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// Bilinear interpolation in an NLDM table (clamped to the table's range).
pub fn interp2(i1: &[f64], i2: &[f64], vals: &[f64], x1: f64, x2: f64) -> Option<f64> {
    if i1.is_empty() || i2.is_empty() || vals.len() != i1.len() * i2.len() {
        return None;
    }
    let locate = |idx: &[f64], x: f64| -> (usize, f64) {
        if idx.len() == 1 {
            return (0, 0.0);
        }
        let mut k = 0;
        while k + 2 < idx.len() && x > idx[k + 1] {
            k += 1;
        }
        let t = ((x - idx[k]) / (idx[k + 1] - idx[k])).clamp(0.0, 1.0);
        (k, t)
    };
    let (a, ta) = locate(i1, x1);
    let (b, tb) = locate(i2, x2);
    let n2 = i2.len();
    let v = |r: usize, c: usize| vals[r.min(i1.len() - 1) * n2 + c.min(n2 - 1)];
    let r0 = v(a, b) * (1.0 - tb) + v(a, b + 1) * tb;
    let r1 = v(a + 1, b) * (1.0 - tb) + v(a + 1, b + 1) * tb;
    Some(r0 * (1.0 - ta) + r1 * ta)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "library (a) {\n  time_unit : \"1ps\";\n  leakage_power_unit : \"1pW\";\n  capacitive_load_unit (1,ff);\n  lu_table_template (t1) {\n    index_1 (\"1, 2\");\n  }\n  cell (INVx1) {\n    area : 0.5;\n    cell_leakage_power : 10;\n    pin (A) {\n      direction : input;\n      capacitance : 0.6;\n    }\n    pin (Y) {\n      direction : output;\n      function : \"!A\";\n      timing () {\n        cell_rise (t1) {\n          index_1 (\"1, 2\");\n          index_2 (\"1, 3\");\n          values ( \\\n            \"1, 2\", \\\n            \"3, 4\" \\\n          );\n        }\n      }\n    }\n  }\n}\n";
    const B: &str = "library (b) {\n  lu_table_template (t2) {\n    index_1 (\"1, 2\");\n  }\n  lu_table_template (t1) {\n    index_1 (\"1, 2\");\n  }\n  cell (DFFx1) {\n    area : 2.0;\n    ff (IQ, IQN) {\n      next_state : \"D\";\n    }\n  }\n}\n";

    #[test]
    fn merge_keeps_all_templates_and_cells() {
        let m = merge(&[
            (PathBuf::from("a.lib"), A.into()),
            (PathBuf::from("b.lib"), B.into()),
        ])
        .unwrap();
        assert_eq!(m.matches("lu_table_template (t1)").count(), 1);
        assert_eq!(m.matches("lu_table_template (t2)").count(), 1);
        let info = library_info(&m, Path::new("m.lib"), &["INVx1"]).unwrap();
        assert_eq!(info.cells.len(), 2);
        assert!(info.cells["DFFx1"].is_ff);
        let ff = info.cells["DFFx1"].seq.as_ref().unwrap();
        assert_eq!((ff.iq.as_str(), ff.iqn.as_str()), ("IQ", "IQN"));
        assert_eq!(ff.data, "D");
        assert!(!ff.latch);
        assert_eq!(info.cells["INVx1"].input_pins, vec!["A".to_string()]);
        let inv = &info.cells["INVx1"];
        assert_eq!(inv.area, 0.5);
        assert_eq!(inv.leakage, Some(10.0));
        assert_eq!(inv.input_caps["A"], 0.6);
        assert_eq!(inv.function.as_deref(), Some("!A"));
        assert!((info.time_unit_s - 1e-12).abs() < 1e-24);
        assert!((info.cap_unit_f - 1e-15).abs() < 1e-27);
        let (_, i1, i2, v) = &inv.delay_tables[0];
        assert_eq!(v.len(), 4);
        assert_eq!(interp2(i1, i2, v, 1.5, 2.0), Some(2.5));
    }

    #[test]
    fn nan_and_infinite_values_are_errors_naming_the_line() {
        for (find, replace, needle) in [
            ("area : 0.5", "area : nan", "area"),
            (
                "cell_leakage_power : 10",
                "cell_leakage_power : NaN",
                "leakage",
            ),
            ("capacitance : 0.6", "capacitance : inf", "capacitance"),
            ("\"3, 4\"", "\"3, nan\"", "values"),
            ("index_2 (\"1, 3\")", "index_2 (\"1, inf\")", "index_2"),
            ("area : 0.5", "area : -0.5", "out of range"),
            // Negative or absurd magnitudes: every numeric attribute has a range.
            (
                "cell_leakage_power : 10",
                "cell_leakage_power : -10",
                "cell_leakage_power -10 is out of range: allowed 0 to",
            ),
            (
                "cell_leakage_power : 10",
                "cell_leakage_power : 1e300",
                "cell_leakage_power 1e300 is out of range",
            ),
            ("area : 0.5", "area : 1e30", "area 1e30 is out of range"),
            (
                "capacitance : 0.6",
                "capacitance : -0.6",
                "capacitance -0.6 is out of range",
            ),
            ("capacitance : 0.6", "capacitance : 1e12", "capacitance"),
            (
                "\"3, 4\"",
                "\"3, 4e300\"",
                "cell_rise values: entry 4e300 is out of range",
            ),
            (
                "time_unit : \"1ps\"",
                "time_unit : \"1e300ps\"",
                "time_unit",
            ),
            (
                "leakage_power_unit : \"1pW\"",
                "leakage_power_unit : \"0pW\"",
                "leakage_power_unit",
            ),
            (
                "library (a) {",
                "library (a) {\n  nom_voltage : 1e6;",
                "nom_voltage",
            ),
            (
                "library (a) {",
                "library (a) {\n  nom_temperature : -500;",
                "nom_temperature",
            ),
        ] {
            let text = A.replace(find, replace);
            assert_ne!(text, A, "{find}");
            let e = library_info(&text, Path::new("a.lib"), &["INVx1"])
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("a.lib:") && e.contains(needle), "{e}");
            let line: usize = e.split(':').nth(1).unwrap().parse().unwrap();
            assert!(line > 0, "{e}");
        }
        let e = library_info(
            "library (x) {\n  nom_voltage : nan;\n}\n",
            Path::new("x.lib"),
            &[],
        )
        .unwrap_err();
        assert!(e.to_string().contains("x.lib:2: nom_voltage"), "{e}");
    }

    #[test]
    fn unbalanced_is_an_error() {
        let e = library_info("library (x) {\n  cell (A) {\n", Path::new("x.lib"), &[]).unwrap_err();
        assert!(e.to_string().contains("x.lib:"), "{e}");
    }
}
