//! `gpuenergy sram` (not implemented yet).

/// Arguments of `gpuenergy sram`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("'gpuenergy sram' is not implemented yet")
}
