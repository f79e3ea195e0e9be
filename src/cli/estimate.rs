//! `gpuenergy estimate` (not implemented yet).

/// Arguments of `gpuenergy estimate`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("'gpuenergy estimate' is not implemented yet")
}
