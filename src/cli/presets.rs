//! `gpuenergy presets`: the built-in GPU presets (simulator §1), and `--import`, which converts
//! a GPGPU-Sim / Accel-Sim configuration into a gpuenergy TOML file
//! (`sim::config::gpgpusim`).

use crate::report::{format_parser, import, listing, Format, TABLE_JSON};
use anyhow::{Context, Result};
use sim::config::gpgpusim::{self, OptionSource};
use sim::config::GpuConfig;
use std::path::{Path, PathBuf};

/// Arguments of `gpuenergy presets`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// table: one summary line per preset; json: every resolved field of every preset.
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
    /// Print only this preset, as the full TOML file a user can edit and pass with --config.
    #[arg(long)]
    pub dump: Option<String>,
    /// Print the reference of every key --config and --set accept: meaning, allowed values
    /// and unit, the gtx480 value and where the other presets differ (table: the Markdown page
    /// docs/config-keys.md; json: one record per key).
    #[arg(long, conflicts_with_all = ["dump", "import"])]
    pub keys: bool,
    /// Convert this GPGPU-Sim configuration (gpgpusim.config) into a TOML file (--out) that
    /// --config loads; lists the options mapped and the options not modelled.
    #[arg(
        long,
        value_name = "GPGPUSIM_CONFIG",
        conflicts_with = "dump",
        requires = "out"
    )]
    pub import: Option<PathBuf>,
    /// Accel-Sim trace.config read after the --import file (its options override).
    #[arg(long, value_name = "TRACE_CONFIG", requires = "import")]
    pub trace_config: Option<PathBuf>,
    /// TOML file written by --import.
    #[arg(long, requires = "import")]
    pub out: Option<PathBuf>,
    /// Preset that supplies every key the imported files do not set (default: the closest
    /// built-in preset).
    #[arg(long, requires = "import")]
    pub base: Option<String>,
}

/// Runs `gpuenergy presets` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    if let Some(config) = &args.import {
        let out = args
            .out
            .as_deref()
            .expect("clap requires --out with --import");
        return run_import(
            config,
            args.trace_config.as_deref(),
            args.base.as_deref(),
            out,
            args.format,
        );
    }
    if args.keys {
        match args.format {
            Format::Json => println!("{}", crate::report::keys::keys_json()?),
            Format::Table => print!("{}", crate::report::keys::keys_markdown()?),
            Format::Csv => return Err(crate::report::no_csv("presets --keys")),
        }
        return Ok(());
    }
    if let Some(name) = &args.dump {
        let cfg = crate::study_config::StudyConfig::preset(name)?;
        print!("{}", cfg.to_full_toml_string());
        return Ok(());
    }
    let cfgs: Vec<GpuConfig> = GpuConfig::preset_names()
        .iter()
        .map(|n| GpuConfig::preset(n))
        .collect::<Result<_, _>>()?;
    let run = crate::provenance::RunInfo::for_command();
    match args.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&crate::report::json_with_run(
                &run,
                listing::presets_json(&cfgs),
                "presets"
            ))?
        ),
        Format::Table => print!(
            "{}",
            crate::report::with_header(&run, &listing::presets_table(&cfgs))
        ),
        Format::Csv => return Err(crate::report::no_csv("presets")),
    }
    Ok(())
}

/// The machine name of an imported configuration: the directory of a file named
/// `gpgpusim.config` (GPGPU-Sim keeps one per directory, e.g. `SM6_TITANX`), else the file stem.
fn machine_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "imported".into());
    if path.file_name().is_some_and(|f| f == "gpgpusim.config") {
        if let Some(dir) = path
            .canonicalize()
            .ok()
            .and_then(|p| p.parent().and_then(|d| d.file_name()).map(|d| d.to_owned()))
        {
            return dir.to_string_lossy().into_owned();
        }
    }
    stem
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// True when `a` and `b` name the same file (compared after resolving links and `..`; a
/// path that does not exist yet is compared as written).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// `gpuenergy presets --import`: reads the option files, writes the TOML, prints the mapping.
fn run_import(
    config: &Path,
    trace: Option<&Path>,
    base: Option<&str>,
    out: &Path,
    format: Format,
) -> Result<()> {
    if format == Format::Csv {
        return Err(crate::report::no_csv("presets --import"));
    }
    for input in std::iter::once(config).chain(trace) {
        if same_file(input, out) {
            anyhow::bail!(
                "--out {} is the --import/--trace-config input {}: the import would overwrite \
                 what it reads; write the TOML to another file",
                out.display(),
                input.display()
            );
        }
    }
    let config_text = read(config)?;
    let trace_text = trace.map(read).transpose()?;
    let config_name = config.display().to_string();
    let trace_name = trace.map(|t| t.display().to_string());
    let mut sources = vec![OptionSource {
        file: &config_name,
        text: &config_text,
    }];
    if let (Some(file), Some(text)) = (&trace_name, &trace_text) {
        sources.push(OptionSource { file, text });
    }
    let imported = gpgpusim::import(&sources, base, &machine_name(config))?;
    let run = crate::provenance::RunInfo::for_command();
    let header = run.toml_header(
        "presets --import",
        &format!("the configuration imported from {config_name}"),
    );
    std::fs::write(out, header + &imported.to_toml())
        .with_context(|| format!("cannot write {}", out.display()))?;
    let base_cfg = GpuConfig::preset(&imported.base)?;
    match format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&crate::report::json_with_run(
                &run,
                import::import_json(&imported, &base_cfg, &out.display().to_string()),
                "import"
            ))?
        ),
        _ => print!(
            "{}",
            crate::report::with_header(
                &run,
                &import::import_table(&imported, &base_cfg, &out.display().to_string())
            )
        ),
    }
    Ok(())
}
