//! `gpuenergy workloads`: the built-in workload suite (simulator §4).

use crate::report::{format_parser, listing, Format, TABLE_JSON};
use anyhow::Result;

/// Arguments of `gpuenergy workloads`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// table: one line per workload; json: an array of objects (name, suite, tags, character,
    /// description).
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
}

/// Runs `gpuenergy workloads` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    let text = match args.format {
        Format::Json => listing::workloads_json()? + "\n",
        Format::Table => listing::workloads_table(),
        Format::Csv => return Err(crate::report::no_csv("workloads")),
    };
    super::print_listing(&text)
}
