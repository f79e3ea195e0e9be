//! `gpuenergy component` (not implemented yet).

/// Arguments of `gpuenergy component`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("'gpuenergy component' is not implemented yet")
}
