//! `gpuenergy trace` (not implemented yet).

/// Arguments of `gpuenergy trace`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("'gpuenergy trace' is not implemented yet")
}
