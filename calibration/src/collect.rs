//! Gathering synthesis results from a directory tree for fitting.
//!
//! Two kinds of input, found recursively:
//! - normalised records: any `*.json` file that is a [`SynthRecord`] (what `gpuenergy synth`
//!   writes as `record.json`), optionally gzip-compressed (`*.json.gz`);
//! - raw reports of other tools: a directory holding a `meta.toml` that names the run —
//!   `component`, `params` (a table), `flavour`, `corner`, `vdd_v`, `clock_period_s`,
//!   `ops_per_cycle`, optional `source` — beside its report files (any of the formats of
//!   [`crate::parsers`], detected by content; e.g. DC `report_area` + `report_power`). The
//!   reports are merged into one record; area and power are required.
//!
//! A directory with both a `record.json` and a `meta.toml` uses the record.

use crate::error::{read_text, CalError, ParseError};
use crate::parsers::{parse_report, ParsedReport};
use crate::record::SynthRecord;
use flate2::read::GzDecoder;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// `meta.toml` of a raw-report directory.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunMeta {
    /// Component kind.
    pub component: String,
    /// Size parameters.
    #[serde(default)]
    pub params: BTreeMap<String, u32>,
    /// Device flavour.
    pub flavour: String,
    /// Corner.
    pub corner: String,
    /// Supply, V.
    pub vdd_v: f64,
    /// Clock period of the power analysis, s.
    pub clock_period_s: f64,
    /// Operations per cycle.
    #[serde(default = "one")]
    pub ops_per_cycle: f64,
    /// Tools.
    #[serde(default)]
    pub source: String,
}

fn one() -> f64 {
    1.0
}

fn read_maybe_gz(path: &Path) -> Result<String, CalError> {
    if path.extension().is_some_and(|e| e == "gz") {
        let bytes = std::fs::read(path).map_err(|source| CalError::Io {
            path: path.to_path_buf(),
            error: source,
        })?;
        let mut s = String::new();
        GzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .map_err(|source| CalError::Io {
                path: path.to_path_buf(),
                error: source,
            })?;
        Ok(s)
    } else {
        read_text(path)
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), CalError> {
    let rd = std::fs::read_dir(dir).map_err(|source| CalError::Io {
        path: dir.to_path_buf(),
        error: source,
    })?;
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out)?;
        } else {
            out.push(p);
        }
    }
    Ok(())
}

/// Build a record from a raw-report directory.
pub fn record_from_reports(dir: &Path) -> Result<SynthRecord, CalError> {
    let meta_path = dir.join("meta.toml");
    let text = read_text(&meta_path)?;
    let meta: RunMeta = toml::from_str(&text).map_err(|e| {
        let line = e
            .span()
            .map(|s| 1 + text[..s.start.min(text.len())].matches('\n').count())
            .unwrap_or(0);
        ParseError::new(&meta_path, line, e.message().to_string())
    })?;
    let mut merged = ParsedReport::default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|source| CalError::Io {
            path: dir.to_path_buf(),
            error: source,
        })?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "meta.toml"))
        .collect();
    files.sort();
    for f in files {
        let Ok(t) = read_maybe_gz(&f) else { continue };
        if let Some(r) = parse_report(&t, &f)? {
            merged.merge(&r);
        }
    }
    let area = merged.area_m2.ok_or_else(|| {
        CalError::Invalid(format!(
            "{}: no area report (report_area or yosys stat) among the files",
            dir.display()
        ))
    })?;
    let leak = merged.leakage_w.ok_or_else(|| {
        CalError::Invalid(format!(
            "{}: no power report (report_power) among the files",
            dir.display()
        ))
    })?;
    let dynamic = merged.dynamic_w().unwrap_or(0.0);
    let r = SynthRecord {
        component: meta.component,
        params: meta.params,
        flavour: meta.flavour.to_lowercase(),
        corner: meta.corner.to_lowercase(),
        vdd_v: meta.vdd_v,
        source: if meta.source.is_empty() {
            merged.format.clone()
        } else {
            meta.source
        },
        clock_period_s: meta.clock_period_s,
        ops_per_cycle: meta.ops_per_cycle,
        area_m2: area,
        cell_count: merged.cell_count.unwrap_or(0),
        leakage_w: leak,
        internal_w: merged.internal_w.unwrap_or(0.0),
        switching_w: merged.switching_w.unwrap_or(0.0),
        total_w: merged.total_w.unwrap_or(leak + dynamic),
        energy_per_op_j: dynamic * meta.clock_period_s / meta.ops_per_cycle.max(1e-12),
        critical_path_s: merged.critical_path_s,
        mean_input_activity: None,
        area_by_cell_m2: BTreeMap::new(),
    };
    r.check().map_err(|m| {
        ParseError::new(
            &meta_path,
            crate::record::key_line(&text, &m),
            format!("{m} (record of {})", dir.display()),
        )
    })?;
    Ok(r)
}

/// A record file or report directory left out of a record set, and why.
#[derive(Debug)]
pub struct Dropped {
    /// The file (record) or directory (raw reports).
    pub path: PathBuf,
    /// Why it was left out.
    pub error: CalError,
}

/// The records found under a directory and the inputs left out.
#[derive(Debug, Default)]
pub struct Collected {
    /// Valid records, sorted by component and parameters.
    pub records: Vec<SynthRecord>,
    /// Corrupt inputs, in path order: empty or truncated records, records or reports whose
    /// numbers fail [`SynthRecord::check`], and records of an unknown component kind.
    pub dropped: Vec<Dropped>,
}

/// Whether `name` is a record file whatever its content: `record.json` (what `gpuenergy synth`
/// writes), optionally gzip-compressed. Other `*.json` files are records only when they look
/// like one (other tools' JSON, e.g. yosys stat, is skipped).
fn is_record_file(name: &str) -> bool {
    name == "record.json" || name == "record.json.gz"
}

/// A record's component must be a known logic kind (a misspelling would fit a kind nothing
/// reads), and its size parameters the kind's own (an unknown name would be fitted as if
/// absent). `text` is the file's text when it is the record itself, for the line of the key.
fn check_kind(r: &SynthRecord, path: &Path, text: Option<&str>) -> Result<(), CalError> {
    let line = |key: &str| text.map_or(0, |t| crate::record::key_line(t, key));
    let Some(kind) = models::logic::LogicKind::parse(&r.component) else {
        return Err(ParseError::new(
            path,
            line("component"),
            format!(
                "component: unknown component kind '{}'; known: {}",
                r.component,
                models::logic::LogicKind::ALL
                    .iter()
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
        .into());
    };
    let known = kind.default_params();
    if let Some(p) = r.params.keys().find(|p| !known.contains_key(*p)) {
        return Err(ParseError::new(
            path,
            line(&format!("params.{p}")),
            format!(
                "params.{p}: '{p}' is not a size parameter of {kind}; allowed: {}",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.keys().cloned().collect::<Vec<_>>().join(", ")
                }
            ),
        )
        .into());
    }
    Ok(())
}

/// Every valid record under `dir`, and every corrupt input left out with its reason. Only a
/// missing or unreadable directory is an error.
pub fn collect_all(dir: &Path) -> Result<Collected, CalError> {
    collect_all_with_progress(dir, &mut crate::progress::ignore)
}

/// [`collect_all`], reporting a `read` [`crate::progress::Step`] per file examined (JSON
/// records and report directories' `meta.toml`).
pub fn collect_all_with_progress(
    dir: &Path,
    on_step: crate::progress::OnStep<'_>,
) -> Result<Collected, CalError> {
    if !dir.is_dir() {
        return Err(CalError::Invalid(format!(
            "{} is not a directory",
            dir.display()
        )));
    }
    let mut files = Vec::new();
    walk(dir, &mut files)?;
    let mut out = Collected::default();
    let mut dirs_with_record = std::collections::BTreeSet::new();
    let wanted = |f: &Path| {
        let name = f.file_name().unwrap_or_default().to_string_lossy();
        name.ends_with(".json") || name.ends_with(".json.gz") || name == "meta.toml"
    };
    let total = files.iter().filter(|f| wanted(f)).count();
    let mut done = 0;
    let mut step = |f: &Path, on_step: crate::progress::OnStep<'_>| {
        on_step(crate::progress::Step {
            stage: "read",
            item: &f.to_string_lossy(),
            done,
            total,
        });
        done += 1;
    };
    for f in &files {
        let name = f
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if !(name.ends_with(".json") || name.ends_with(".json.gz")) {
            continue;
        }
        step(f, on_step);
        let read = read_maybe_gz(f).and_then(|text| {
            if is_record_file(&name) || text.contains("\"energy_per_op_j\"") {
                let r = SynthRecord::from_json(&text, f)?;
                check_kind(&r, f, Some(&text))?;
                Ok(Some(r))
            } else {
                Ok(None)
            }
        });
        match read {
            Ok(None) => {}
            Ok(Some(r)) => {
                out.records.push(r);
                if let Some(p) = f.parent() {
                    dirs_with_record.insert(p.to_path_buf());
                }
            }
            Err(error) => {
                // A corrupt record still marks its directory: its reports are not a fallback.
                if let Some(p) = f.parent() {
                    dirs_with_record.insert(p.to_path_buf());
                }
                out.dropped.push(Dropped {
                    path: f.clone(),
                    error,
                });
            }
        }
    }
    for f in &files {
        if f.file_name().is_some_and(|n| n == "meta.toml") {
            step(f, on_step);
            let d = f.parent().unwrap_or(Path::new("."));
            if !dirs_with_record.contains(d) {
                match record_from_reports(d).and_then(|r| {
                    check_kind(&r, f, None)?;
                    Ok(r)
                }) {
                    Ok(r) => out.records.push(r),
                    Err(error) => out.dropped.push(Dropped {
                        path: d.to_path_buf(),
                        error,
                    }),
                }
            }
        }
    }
    out.records
        .sort_by(|a, b| (&a.component, &a.params).cmp(&(&b.component, &b.params)));
    out.dropped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// Every record under `dir` (sorted by component and parameters); the first corrupt input
/// (see [`collect_all`]) is an error.
pub fn collect(dir: &Path) -> Result<Vec<SynthRecord>, CalError> {
    let c = collect_all(dir)?;
    match c.dropped.into_iter().next() {
        Some(d) => Err(d.error),
        None => Ok(c.records),
    }
}
