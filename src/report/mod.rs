//! Renderers of a [`Report`](crate::study::Report) and the output formats every command shares.
//!
//! - [`breakdown`]: SM area and power shares per group next to published breakdowns;
//! - [`breakeven`]: the table, JSON and sweep plots of the sleep-transistor model (`breakeven`);
//! - [`table`]: fixed-width text for a terminal, with a provenance column and its legend;
//! - [`csv`]: one row per estimate node and workload;
//! - [`json`]: the report as pretty-printed JSON (every node with its `"source"`);
//! - [`plot`]: SVG charts (plotters' pure-Rust backend), of estimates and of calibration fits;
//! - [`calibration`]: the table and JSON of a calibration fit;
//! - [`component`]: the table and JSON of one logic component and of its overlay's scaling;
//! - [`correlate`]: the table, CSV, JSON and scatter plot of a timing correlation;
//! - [`listing`]: the tables and JSON of the preset and workload listings;
//! - [`import`]: the text and JSON of a GPGPU-Sim configuration import (`presets --import`);
//! - [`rfstats`]: the register-file characterisation (`rfstats`) and its table, CSV and plots;
//! - [`run`]: the text of a functional run of a workload or a user kernel;
//! - [`simulate`]: the table and JSON summaries of a cycle-level simulation;
//! - [`sram`]: the table, JSON and CSV of one SRAM array and the rows of a batch run;
//! - [`synth`]: the component list and the results table of synthesis runs;
//! - [`techs`]: the table and JSON of the technology nodes and their flavours.
//!
//! Commands parse arguments and print what these functions return; none formats numbers itself
//! for the estimate report.

pub mod breakdown;
pub mod breakeven;
pub mod calibration;
pub mod compare;
pub mod component;
pub mod correlate;
pub mod csv;
pub mod diag;
pub mod import;
pub mod json;
pub mod keys;
pub mod listing;
pub mod plot;
pub mod rfstats;
pub mod run;
pub mod simulate;
pub mod sram;
pub mod sweep;
pub mod synth;
pub mod table;
pub mod techs;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::ValueEnum;

/// Output format of a command (`--format`).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Fixed-width text.
    Table,
    /// Pretty-printed JSON.
    Json,
    /// Comma-separated values with a header row.
    Csv,
}

/// Table or JSON: the formats of the listing and single-result commands.
pub const TABLE_JSON: &[Format] = &[Format::Table, Format::Json];

/// A `--format` parser that accepts only `allowed`; clap names the allowed values when another
/// is given (and exits with status 2).
pub fn format_parser(allowed: &'static [Format]) -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(allowed.iter().filter_map(|f| f.to_possible_value()))
        .try_map(|s| Format::from_str(&s, false))
}

/// The error of a command without CSV output asked for CSV (its `--format` parser already
/// refuses it; this covers callers that build the arguments in code).
pub fn no_csv(command: &str) -> anyhow::Error {
    anyhow::anyhow!("gpuenergy {command} has no CSV output; --format takes table or json")
}

/// A table with its provenance: the [`RunInfo`](crate::provenance::RunInfo) header line, then
/// the table's own text.
pub fn with_header(run: &crate::provenance::RunInfo, table: &str) -> String {
    format!("{}\n{table}", run.header_line())
}

/// A CSV with its provenance: the columns of [`crate::provenance::CSV_COLUMNS`] appended to the
/// header row and their values to every other row (one record per line).
pub fn csv_with_run(run: &crate::provenance::RunInfo, csv: &str) -> String {
    let fields = run.csv_fields();
    let mut out = String::with_capacity(csv.len() + 64 * csv.lines().count());
    for (i, line) in csv.lines().enumerate() {
        out.push_str(line);
        out.push(',');
        out.push_str(if i == 0 {
            crate::provenance::CSV_COLUMNS
        } else {
            &fields
        });
        out.push('\n');
    }
    out
}

/// A JSON document with its provenance: an object gets a `run` key; any other value becomes
/// `{"run": …, key: value}`.
pub fn json_with_run(
    run: &crate::provenance::RunInfo,
    value: serde_json::Value,
    key: &str,
) -> serde_json::Value {
    match value {
        serde_json::Value::Object(mut o) => {
            o.insert("run".into(), run.json());
            serde_json::Value::Object(o)
        }
        other => {
            let mut o = serde_json::Map::new();
            o.insert("run".into(), run.json());
            o.insert(key.into(), other);
            serde_json::Value::Object(o)
        }
    }
}

/// A structure's JSON with its provenance first: `{"run": …, <the structure's own fields in
/// their order>}` (`value` must serialise as a map or struct).
pub fn json_struct_with_run<T: serde::Serialize>(
    run: &crate::provenance::RunInfo,
    value: &T,
) -> serde_json::Result<String> {
    /// The document: the provenance, then the structure's fields.
    #[derive(serde::Serialize)]
    struct Doc<'a, T: serde::Serialize> {
        run: &'a crate::provenance::RunInfo,
        #[serde(flatten)]
        value: &'a T,
    }
    serde_json::to_string_pretty(&Doc { run, value })
}

/// Draws a plot's title and, under it in a smaller font, its subtitle (what produced the plot:
/// [`RunInfo::plot_subtitle`](crate::provenance::RunInfo::plot_subtitle)); either is shortened
/// with `…` to the canvas width, which callers size to hold both. Returns the area below them.
pub(crate) fn titled<'a>(
    area: &plot::SvgArea<'a>,
    title: &str,
    subtitle: &str,
) -> anyhow::Result<plot::SvgArea<'a>> {
    let width = area.dim_in_pixel().0;
    let fit = |text: &str, font: f64| -> String {
        let mut text = text.to_string();
        while plot::text_width_px(&text, font) + 24 > width && text.chars().count() > 4 {
            let keep = text.chars().count() - 2;
            text = text.chars().take(keep).collect::<String>() + "…";
        }
        text
    };
    let body = area.titled(
        &fit(title, plot::TITLE_FONT),
        ("sans-serif", plot::TITLE_FONT),
    )?;
    Ok(body.titled(
        &fit(subtitle, plot::SUBTITLE_FONT),
        ("sans-serif", plot::SUBTITLE_FONT),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provenance_goes_into_every_format() {
        let mut run = crate::provenance::RunInfo::new();
        run.config_name = "gtx480".into();
        run.config_hash = "0123456789abcdef".into();
        run.node = "finfet7".into();
        let csv = csv_with_run(&run, "a,b\n1,2\n3,4\n");
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("a,b,version,config_name"));
        assert!(lines[2].starts_with("3,4,") && lines[2].contains("finfet7"));
        let n = lines[0].split(',').count();
        assert!(lines.iter().all(|l| l.split(',').count() == n));
        let j = json_with_run(&run, serde_json::json!([1, 2]), "rows");
        assert_eq!(j["rows"][1], 2);
        assert_eq!(j["run"]["config_hash"], "0123456789abcdef");
        let t = with_header(&run, "x\n");
        assert!(t.starts_with("gpuenergy ") && t.ends_with("\nx\n"));
    }

    #[test]
    fn restricted_parser_names_the_allowed_values() {
        let cmd = clap::Command::new("t").arg(
            clap::Arg::new("format")
                .long("format")
                .value_parser(format_parser(TABLE_JSON)),
        );
        let m = cmd
            .clone()
            .try_get_matches_from(["t", "--format", "json"])
            .unwrap();
        assert_eq!(m.get_one::<Format>("format"), Some(&Format::Json));
        let e = cmd
            .try_get_matches_from(["t", "--format", "csv"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("table") && e.contains("json"), "{e}");
    }
}
