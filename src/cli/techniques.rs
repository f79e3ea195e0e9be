//! `gpuenergy techniques`: the named techniques, the knobs each sets and what each composes
//! with ([`crate::technique`]).

use crate::report::{format_parser, listing, Format, TABLE_JSON};
use anyhow::Result;

/// Arguments of `gpuenergy techniques`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// table: one block per technique; json: an array of objects (name, summary, sets,
    /// defaults, composes_with).
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
}

/// Runs `gpuenergy techniques` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    let text = match args.format {
        Format::Json => listing::techniques_json()? + "\n",
        Format::Table => listing::techniques_table(),
        Format::Csv => return Err(crate::report::no_csv("techniques")),
    };
    super::print_listing(&text)
}
