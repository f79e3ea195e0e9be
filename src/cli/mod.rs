//! One module per subcommand; each has an `Args` (clap) and a `run`.
pub mod breakeven;
pub mod calibrate;
pub mod calibrate_board;
pub mod compare;
pub mod component;
pub mod correlate;
pub mod diag;
pub mod estimate;
pub mod optimize;
pub mod presets;
pub mod program;
pub mod progress;
pub mod rfstats;
pub mod run;
pub mod simulate;
pub mod sram;
pub mod sweep;
pub mod synth;
pub mod techniques;
pub mod techs;
pub mod trace;
pub mod workloads;

use crate::study_config::StudyConfig;

/// `--technique`, `--scheduler` and `--set`, shared by every command that takes a GPU
/// configuration.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ConfigMods {
    /// A named technique, or several joined with '+' (e.g. gates+coord-blackout), applied to
    /// the configuration (see `gpuenergy techniques`).
    #[arg(long, value_name = "NAME[+NAME...]")]
    pub technique: Option<String>,
    /// Warp scheduler: lrr, gto, oldest, youngest, fetch_group, two-level (or another
    /// `sched.policy` value). Short for `--set sched.policy=NAME`, applied after the technique
    /// and before the `--set` pairs, so an explicit `--set sched.policy` still wins.
    #[arg(long, value_name = "NAME")]
    pub scheduler: Option<String>,
    /// Override one configuration key (repeatable), after the technique: e.g. `--set pg.bet=19
    /// --set sched.policy=gto`. Every key with its meaning, unit and range:
    /// docs/config-keys.md or `gpuenergy presets --keys`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

/// `--scheduler NAME` as the override `sched.policy=NAME` ahead of the `--set` pairs (so an
/// explicit `--set sched.policy` still wins); an unknown scheduler is an error listing the known
/// ones. Every command that takes `--scheduler` goes through here.
pub fn with_scheduler(scheduler: Option<&str>, set: &[String]) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::with_capacity(set.len() + 1);
    if let Some(s) = scheduler {
        if sim::config::SchedPolicy::parse(s).is_none() {
            anyhow::bail!(
                "--scheduler: unknown scheduler '{s}' (expected lrr, gto, oldest, youngest, \
                 fetch_group, two-level or another `sched.policy` value)"
            );
        }
        out.push(format!("sched.policy={s}"));
    }
    out.extend(set.iter().cloned());
    Ok(out)
}

impl ConfigMods {
    /// The overrides in the order they apply, as `KEY=VALUE`: `--scheduler` as its
    /// `sched.policy` key, then the `--set` pairs. An unknown scheduler is an error listing the
    /// known ones.
    pub fn overrides(&self) -> anyhow::Result<Vec<String>> {
        with_scheduler(self.scheduler.as_deref(), &self.set)
    }

    /// Whether the configuration is left as it is (no technique, scheduler or `--set`).
    pub fn is_empty(&self) -> bool {
        self.technique.is_none() && self.scheduler.is_none() && self.set.is_empty()
    }

    /// `cfg` with the technique, the scheduler and the `--set` pairs applied, validated.
    pub fn apply(&self, cfg: StudyConfig) -> anyhow::Result<StudyConfig> {
        let set = crate::technique::parse_sets(&self.overrides()?).map_err(anyhow::Error::msg)?;
        Ok(match &self.technique {
            Some(t) => crate::technique::resolve(t)?.apply(&cfg, &set)?,
            None => cfg.with_overrides(&set, "--set")?,
        })
    }
}

/// `--sample` and `--sample-error`: kernel sampling ([`crate::sample`]) on the commands that
/// simulate programs (`simulate`, `estimate`, `compare`, `optimize`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SampleArgs {
    /// Sample the launches: `off` simulates every launch; `kernels` clusters launches by their
    /// functional signature, times a few per cluster and extrapolates the rest, with an
    /// estimated error of cycles and energy; `auto` keeps kernel sampling when both estimates
    /// are within --sample-error, else simulates every launch.
    #[arg(long, value_enum, default_value = "off")]
    pub sample: crate::sample::SampleMode,
    /// Target of `--sample auto`: the largest estimated error of cycles and of total energy, as
    /// a percentage (`2%`) or a fraction (`0.02`); default 2 %.
    #[arg(long, value_name = "PERCENT", value_parser = crate::sample::parse_error)]
    pub sample_error: Option<f64>,
}

impl SampleArgs {
    /// The sampling settings; `--sample-error` without `--sample auto` is refused.
    pub fn sampling(&self) -> anyhow::Result<crate::sample::Sampling> {
        crate::sample::Sampling::checked(self.sample, self.sample_error, "--sample-error", |m| {
            format!("--sample {m}")
        })
        .map_err(anyhow::Error::msg)
    }
}

/// The technology point of a command that costs a run (`estimate`, `compare`).
#[derive(clap::Args, Debug, Clone)]
pub struct TechArgs {
    /// Technology node: finfet7, finfet12, asap7, planar90…planar16, or a feature size such as
    /// 40nm (12nm names finfet12).
    #[arg(long, default_value = "finfet7")]
    pub tech: String,
    /// Supply voltage in volts (overrides --op).
    #[arg(long, allow_negative_numbers = true)]
    pub vdd: Option<f64>,
    /// Named operating point (finfet7: stv = 0.45 V, ntv = 0.30 V; finfet12: low = 0.75 V,
    /// nominal = 0.80 V, high = 0.85 V). Default: stv on finfet7, the device's nominal supply
    /// elsewhere.
    #[arg(long)]
    pub op: Option<String>,
    /// Device flavour (hp, lstp, lop on planar nodes; lvt, rvt on finfet7; lvt on finfet12; rvt,
    /// lvt, slvt on asap7). Default: hp on planar nodes, lvt on FinFET nodes (finfet7, finfet12
    /// and asap7).
    #[arg(long)]
    pub device: Option<String>,
    /// Junction temperature in kelvin.
    #[arg(long, default_value_t = crate::study::DEFAULT_TEMPERATURE_K, allow_negative_numbers = true)]
    pub temperature: f64,
}

impl TechArgs {
    /// The technology choice these flags ask for (see [`estimate::tech_choice`]).
    pub fn choice(&self) -> anyhow::Result<techlib::ResolvedPoint> {
        estimate::tech_choice(
            &self.tech,
            self.vdd,
            self.op.as_deref(),
            self.device.as_deref(),
            self.temperature,
        )
    }
}

/// The built-in techniques that select an out-of-order issue stage (`sched.ooo.mode` other than
/// "none"), in the order of the registry ([`crate::technique::TECHNIQUES`]): the help texts
/// list issue-stage variants from here.
pub(crate) fn ooo_issue_techniques() -> Vec<&'static str> {
    crate::technique::TECHNIQUES
        .iter()
        .filter(|t| {
            t.sets
                .iter()
                .any(|&(k, v)| k == "sched.ooo.mode" && v != "none")
        })
        .map(|t| t.name)
        .collect()
}

/// The `--activity-source` help's list of the mechanisms only the simulator counts, the
/// out-of-order issue stages among them as the registry names them.
pub(crate) fn simulator_only_mechanisms() -> String {
    let ooo: Vec<String> = ooo_issue_techniques()
        .iter()
        .map(|n| n.to_uppercase())
        .collect();
    format!(
        "power gating, register-file techniques, {}, DWF/MIMD/NREC",
        ooo.join("/")
    )
}

/// The error and its causes on one line, each cause once: a cause whose text the message
/// already holds (an I/O error that the message quotes, then carries as its source) is not
/// repeated. `main` prints it after `error: `; the Python package raises it.
pub fn error_text(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !text.contains(&c) {
            text.push_str(": ");
            text.push_str(&c);
        }
    }
    text
}

/// Writes a listing to stdout; a closed pipe (e.g. `| head`) ends it quietly.
pub fn print_listing(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
