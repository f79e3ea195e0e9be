//! `gpuenergy presets`: the built-in GPU presets (simulator §1).

use crate::report::{format_parser, listing, Format, TABLE_JSON};
use anyhow::Result;
use sim::config::GpuConfig;

/// Arguments of `gpuenergy presets`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// table: one summary line per preset; json: every resolved field of every preset.
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
    /// Print only this preset, as the full TOML file a user can edit and pass with --config.
    #[arg(long)]
    pub dump: Option<String>,
}

/// Runs `gpuenergy presets` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    if let Some(name) = &args.dump {
        let cfg = GpuConfig::preset(name)?;
        print!("{}", cfg.to_toml_string());
        return Ok(());
    }
    let cfgs: Vec<GpuConfig> = GpuConfig::preset_names()
        .iter()
        .map(|n| GpuConfig::preset(n))
        .collect::<Result<_, _>>()?;
    match args.format {
        Format::Json => println!("{}", listing::presets_json(&cfgs)?),
        Format::Table => print!("{}", listing::presets_table(&cfgs)),
        Format::Csv => return Err(crate::report::no_csv("presets")),
    }
    Ok(())
}
