//! One module per subcommand; each has an `Args` (clap) and a `run`.
pub mod breakeven;
pub mod calibrate;
pub mod compare;
pub mod component;
pub mod correlate;
pub mod estimate;
pub mod presets;
pub mod progress;
pub mod run;
pub mod simulate;
pub mod sram;
pub mod synth;
pub mod techniques;
pub mod techs;
pub mod trace;
pub mod workloads;

/// `--technique` and `--set`, shared by every command that takes a GPU configuration.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ConfigMods {
    /// A named technique, or several joined with '+' (e.g. gates+coord-blackout), applied to
    /// the configuration (see `gpuenergy techniques`).
    #[arg(long, value_name = "NAME[+NAME...]")]
    pub technique: Option<String>,
    /// Override one configuration key (repeatable), after the technique: e.g. `--set pg.bet=19
    /// --set sched.policy=gto`. Keys are those of `gpuenergy presets --dump gtx480`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

impl ConfigMods {
    /// `cfg` with the technique and the `--set` pairs applied, validated.
    pub fn apply(&self, cfg: sim::config::GpuConfig) -> anyhow::Result<sim::config::GpuConfig> {
        let set = crate::technique::parse_sets(&self.set).map_err(anyhow::Error::msg)?;
        Ok(match &self.technique {
            Some(t) => crate::technique::resolve(t)?.apply(&cfg, &set)?,
            None => cfg.with_overrides(&set, "--set")?,
        })
    }
}
