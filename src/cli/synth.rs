//! `gpuenergy synth` (not implemented yet).

/// Arguments of `gpuenergy synth`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("'gpuenergy synth' is not implemented yet")
}
