//! `gpuenergy calibrate` (not implemented yet).

/// Arguments of `gpuenergy calibrate`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("'gpuenergy calibrate' is not implemented yet")
}
