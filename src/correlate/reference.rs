//! The reference file of a correlation (format in the [`super`] module documentation): its
//! columns, rows and parser, with messages naming the file, line and column at fault.

use super::CorrelateError;
use serde::Serialize;
use sim::config::{GpuConfig, PRESET_NAMES};
use sim::workloads::{self, Size};
use std::path::Path;

/// Fewest reference cycles a row may give: one cycle (below it a run did not happen, and a
/// relative error against it is meaningless).
pub const MIN_REFERENCE_CYCLES: f64 = 1.0;
/// Most reference cycles a row may give: 1e15 (six days of a 2 GHz core), beyond any
/// simulated or measured kernel; larger numbers are corrupt, and their squares would overflow
/// the statistics.
pub const MAX_REFERENCE_CYCLES: f64 = 1e15;

/// Columns every reference file has.
pub const REQUIRED_COLUMNS: [&str; 4] = ["workload", "size", "kernel", "reference_cycles"];

/// Columns a reference file may have.
pub const OPTIONAL_COLUMNS: [&str; 2] = ["preset", "source"];

/// Which cycles of a workload a reference row gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelSel {
    /// The whole workload (every timed launch and the launch latencies between them).
    All,
    /// One timed launch, 0-based.
    Launch(usize),
}

impl std::fmt::Display for KernelSel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KernelSel::All => f.write_str("all"),
            KernelSel::Launch(i) => write!(f, "{i}"),
        }
    }
}

impl Serialize for KernelSel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            KernelSel::All => s.serialize_str("all"),
            KernelSel::Launch(i) => s.serialize_u64(*i as u64),
        }
    }
}

/// One row of a reference file.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceRow {
    /// 1-based line of the file.
    pub line: u64,
    /// Built-in workload name.
    pub workload: String,
    /// Input size tier.
    pub size: Size,
    /// Whole workload or one launch.
    pub kernel: KernelSel,
    /// Reference core cycles (positive).
    pub reference_cycles: f64,
    /// Preset of this row, overriding the command's configuration.
    pub preset: Option<String>,
    /// Where the number comes from.
    pub source: Option<String>,
}

/// A parsed reference file.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceFile {
    /// The file's name as given.
    pub file: String,
    /// The comment lines before the header, without the `#` and surrounding blanks.
    pub description: Vec<String>,
    /// The rows, in file order.
    pub rows: Vec<ReferenceRow>,
}

/// Reads and checks a reference file (format in the [`super`] module documentation).
pub fn read_reference(path: &Path) -> Result<ReferenceFile, CorrelateError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| CorrelateError::Read {
        file: file.clone(),
        error,
    })?;
    parse_reference(&text, &file)
}

/// The built-in workload names, comma-separated.
fn known_workloads() -> String {
    workloads::all()
        .iter()
        .map(|w| w.info().name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses the text of a reference file named `file` (for messages).
pub fn parse_reference(text: &str, file: &str) -> Result<ReferenceFile, CorrelateError> {
    // A byte-order mark (spreadsheet exports) is not part of the first column's name.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file_err = |line: u64, message: String| CorrelateError::File {
        file: file.to_string(),
        line,
        message,
    };
    // The description: comment lines before the first other non-blank line.
    let description: Vec<String> = text
        .lines()
        .take_while(|l| skipped_line(l))
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim().to_string())
        .collect();
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .comment(Some(b'#'))
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut records = rdr.records();
    let header = match records.next() {
        None => return Err(file_err(1, "empty file: expected a header row".into())),
        Some(Err(e)) => return Err(file_err(csv_line(&e), format!("malformed CSV: {e}"))),
        Some(Ok(h)) => h,
    };
    let header_line = record_line(text, header.position());
    let allowed = || {
        format!(
            "required {}; optional {}",
            REQUIRED_COLUMNS.join(", "),
            OPTIONAL_COLUMNS.join(", ")
        )
    };
    let mut columns: Vec<&str> = Vec::new();
    for name in header.iter() {
        if !REQUIRED_COLUMNS.contains(&name) && !OPTIONAL_COLUMNS.contains(&name) {
            return Err(file_err(
                header_line,
                format!("header: unknown column '{name}' ({})", allowed()),
            ));
        }
        if columns.contains(&name) {
            return Err(file_err(
                header_line,
                format!("header: column '{name}' appears twice"),
            ));
        }
        columns.push(name);
    }
    for name in REQUIRED_COLUMNS {
        if !columns.contains(&name) {
            return Err(file_err(
                header_line,
                format!("header: missing column '{name}' ({})", allowed()),
            ));
        }
    }
    let col = |name: &str| columns.iter().position(|c| *c == name);
    let (i_workload, i_size, i_kernel, i_cycles) = (
        col("workload").expect("checked"),
        col("size").expect("checked"),
        col("kernel").expect("checked"),
        col("reference_cycles").expect("checked"),
    );
    let (i_preset, i_source) = (col("preset"), col("source"));
    let mut rows = Vec::new();
    for rec in records {
        let rec = rec.map_err(|e| file_err(csv_line(&e), format!("malformed CSV: {e}")))?;
        let line = record_line(text, rec.position());
        if rec.len() != columns.len() {
            return Err(file_err(
                line,
                format!(
                    "{} fields, but the header has {} ({})",
                    rec.len(),
                    columns.len(),
                    columns.join(",")
                ),
            ));
        }
        let field_err = |column: &str, message: String| CorrelateError::Field {
            file: file.to_string(),
            line,
            column: column.to_string(),
            message,
        };
        let workload = &rec[i_workload];
        if workloads::find(workload).is_none() {
            return Err(field_err(
                "workload",
                format!(
                    "unknown workload '{workload}'; known: {}",
                    known_workloads()
                ),
            ));
        }
        let size = match &rec[i_size] {
            "test" => Size::Test,
            "bench" => Size::Bench,
            s => {
                return Err(field_err(
                    "size",
                    format!("unknown size '{s}' (allowed: test, bench)"),
                ))
            }
        };
        let kernel = match &rec[i_kernel] {
            "all" => KernelSel::All,
            s => KernelSel::Launch(s.parse::<usize>().map_err(|_| {
                field_err(
                    "kernel",
                    format!("'{s}' is neither a 0-based launch index nor 'all'"),
                )
            })?),
        };
        let s = &rec[i_cycles];
        let reference_cycles = match s.parse::<f64>() {
            Ok(v) if (MIN_REFERENCE_CYCLES..=MAX_REFERENCE_CYCLES).contains(&v) => v,
            Ok(_) => {
                return Err(field_err(
                    "reference_cycles",
                    format!(
                        "'{s}' is out of range: cycles must be a finite number from \
                         {MIN_REFERENCE_CYCLES} to {MAX_REFERENCE_CYCLES:e}"
                    ),
                ))
            }
            Err(_) => {
                return Err(field_err(
                    "reference_cycles",
                    format!("'{s}' is not a number (write cycles without separators)"),
                ))
            }
        };
        let optional = |i: Option<usize>| {
            i.map(|i| rec[i].to_string())
                .filter(|s: &String| !s.is_empty())
        };
        let preset = optional(i_preset);
        if let Some(p) = &preset {
            if let Err(e) = row_config(p, file) {
                return Err(field_err("preset", e));
            }
        }
        rows.push(ReferenceRow {
            line,
            workload: workload.to_string(),
            size,
            kernel,
            reference_cycles,
            preset,
            source: optional(i_source),
        });
    }
    if rows.is_empty() {
        return Err(file_err(
            header_line,
            "no reference rows after the header".into(),
        ));
    }
    Ok(ReferenceFile {
        file: file.to_string(),
        description,
        rows,
    })
}

/// Whether the CSV reader passes over `line`: an empty line or a comment (`#` first).
fn skipped_line(line: &str) -> bool {
    line.trim_end_matches('\r').is_empty() || line.starts_with('#')
}

/// The 1-based line a record starts on. The reader's position is where it began reading, which
/// is before any comment and empty lines it passed over; those are skipped here.
fn record_line(text: &str, pos: Option<&csv::Position>) -> u64 {
    let Some(pos) = pos else { return 0 };
    let mut line = pos.line();
    let start = usize::try_from(pos.byte()).unwrap_or(usize::MAX);
    let Some(rest) = text.get(start..) else {
        return line;
    };
    for l in rest.split('\n') {
        if !skipped_line(l) {
            break;
        }
        line += 1;
    }
    line
}

/// The line a CSV error occurred on (0 when the reader does not say).
fn csv_line(e: &csv::Error) -> u64 {
    e.position().map_or(0, |p| p.line())
}

/// The configuration a row's `preset` names: a built-in preset, or (a value ending in `.toml`)
/// a configuration file, relative to the folder of the reference file `file`.
pub(super) fn row_config(p: &str, file: &str) -> Result<GpuConfig, String> {
    if p.ends_with(".toml") {
        let dir = Path::new(file).parent().unwrap_or(Path::new(""));
        let path = dir.join(p);
        // the machine of a study configuration file (its `[energy]`/`[opt]` play no part here)
        let cfg = crate::study_config::StudyConfig::from_toml_file(&path)
            .map_err(|e| format!("configuration file '{}': {e}", path.display()))?
            .machine;
        models::gpu::limits::check_sizes(&cfg)
            .map_err(|e| format!("configuration file '{}': {e}", path.display()))?;
        Ok(cfg)
    } else {
        GpuConfig::preset(p).map_err(|_| {
            format!(
                "unknown preset '{p}' (allowed: {}, or a configuration file ending in .toml)",
                PRESET_NAMES.join(", ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "\
# Hand-made reference
# second comment line

workload,size,kernel,reference_cycles,preset,source
hotspot,test,all,13069,gtx1080ti,Accel-Sim
# a comment between rows
sgemm , bench , 0 , 4.5e4 ,,
";

    #[test]
    fn parses_rows_comments_and_line_numbers() {
        let f = parse_reference(GOOD, "ref.csv").unwrap();
        let bom = parse_reference(&format!("\u{feff}{GOOD}"), "ref.csv").unwrap();
        assert_eq!(bom, f, "a byte-order mark is ignored");
        assert_eq!(
            f.description,
            ["Hand-made reference", "second comment line"]
        );
        assert_eq!(f.rows.len(), 2);
        let a = &f.rows[0];
        assert_eq!(a.line, 5);
        assert_eq!(a.workload, "hotspot");
        assert_eq!(a.size, Size::Test);
        assert_eq!(a.kernel, KernelSel::All);
        assert_eq!(a.reference_cycles, 13069.0);
        assert_eq!(a.preset.as_deref(), Some("gtx1080ti"));
        assert_eq!(a.source.as_deref(), Some("Accel-Sim"));
        let b = &f.rows[1];
        assert_eq!(b.line, 7, "comment lines count in line numbers");
        assert_eq!(b.size, Size::Bench);
        assert_eq!(b.kernel, KernelSel::Launch(0));
        assert_eq!(b.reference_cycles, 45000.0);
        assert_eq!(b.preset, None);
        assert_eq!(b.source, None);
    }

    fn err(text: &str) -> String {
        parse_reference(text, "r.csv").unwrap_err().to_string()
    }

    #[test]
    fn bad_files_name_file_line_and_column() {
        let h = "workload,size,kernel,reference_cycles\n";
        let e = err("");
        assert!(e.starts_with("r.csv:1:") && e.contains("header"), "{e}");
        let e = err("# only a comment\n");
        assert!(e.contains("header"), "{e}");
        let e = err("workload,size,kernel\nhotspot,test,all\n");
        assert!(
            e.starts_with("r.csv:1:") && e.contains("missing column 'reference_cycles'"),
            "{e}"
        );
        let e = err("# about\n\nworkload,size\nhotspot,test\n");
        assert!(
            e.starts_with("r.csv:3:") && e.contains("missing column"),
            "{e}"
        );
        let e = err(&format!("# c\n{h}\n# c\n\nhotspot,test,all,x\n"));
        assert!(e.starts_with("r.csv:6: column 'reference_cycles'"), "{e}");
        let e = err("workload,size,kernel,reference_cycles,cycles\n");
        assert!(
            e.contains("unknown column 'cycles'") && e.contains("source"),
            "{e}"
        );
        let e = err("workload,size,size,kernel,reference_cycles\n");
        assert!(e.contains("'size' appears twice"), "{e}");
        let e = err(h);
        assert!(e.contains("no reference rows"), "{e}");
        let e = err(&format!("{h}nosuch,test,all,100\n"));
        assert!(
            e.starts_with("r.csv:2: column 'workload'")
                && e.contains("'nosuch'")
                && e.contains("hotspot"),
            "{e}"
        );
        let e = err(&format!("{h}hotspot,huge,all,100\n"));
        assert!(
            e.starts_with("r.csv:2: column 'size'") && e.contains("test, bench"),
            "{e}"
        );
        let e = err(&format!("{h}hotspot,test,-1,100\n"));
        assert!(e.starts_with("r.csv:2: column 'kernel'"), "{e}");
        for bad in ["0", "-5", "inf", "NaN", "0.5", "1e-300", "1e300", "2e15"] {
            let e = err(&format!("# c\n{h}hotspot,test,all,{bad}\n"));
            assert!(
                e.starts_with("r.csv:3: column 'reference_cycles'") && e.contains("from 1 to 1e15"),
                "{bad}: {e}"
            );
        }
        let e = err(&format!("{h}hotspot,test,all,lots\n"));
        assert!(
            e.starts_with("r.csv:2: column 'reference_cycles'") && e.contains("not a number"),
            "{e}"
        );
        let e = err(&format!("{h}hotspot,test,all\n"));
        assert!(e.starts_with("r.csv:2:") && e.contains("3 fields"), "{e}");
        let e = err("workload,size,kernel,reference_cycles,preset\nhotspot,test,all,9,gtx9\n");
        assert!(
            e.starts_with("r.csv:2: column 'preset'") && e.contains("gtx1080ti"),
            "{e}"
        );
    }
}
