//! `gpuenergy presets` (not implemented yet).

/// Arguments of `gpuenergy presets`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("'gpuenergy presets' is not implemented yet")
}
