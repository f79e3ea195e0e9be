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

#[cfg(test)]
mod tests {
    use super::*;

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
