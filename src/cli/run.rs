//! `gpuenergy run` (not implemented yet).

/// Arguments of `gpuenergy run`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("'gpuenergy run' is not implemented yet")
}
