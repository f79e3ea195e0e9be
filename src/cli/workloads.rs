//! `gpuenergy workloads` (not implemented yet).

/// Arguments of `gpuenergy workloads`.
#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("'gpuenergy workloads' is not implemented yet")
}
