//! `gpuenergy simulate` (not implemented yet).

/// Arguments of `gpuenergy simulate`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("'gpuenergy simulate' is not implemented yet")
}
