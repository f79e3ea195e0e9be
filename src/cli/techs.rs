//! `gpuenergy techs` (not implemented yet).

/// Arguments of `gpuenergy techs`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("'gpuenergy techs' is not implemented yet")
}
