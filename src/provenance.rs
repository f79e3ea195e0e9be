//! What produced an output: the tool and its version, the command line, the GPU configuration
//! (its name, where it came from, its hash, the `--set` overrides and the techniques applied),
//! the technology point (node, device flavour, supply, temperature, core clock), the workload
//! size and the workloads. Every report carries one [`RunInfo`]: as the `run` object of its
//! JSON, as columns of its CSV and as the header line of its table, so that a number copied out
//! of any format can be traced back to the run that made it.

use serde::Serialize;

/// Where an output came from. Filled in two places: the study (configuration, technology
/// point, size, workloads, activity source) and the command line (`command_line`,
/// `config_source`, `overrides`, `techniques`), which the library cannot know.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RunInfo {
    /// Always `gpuenergy`.
    pub tool: String,
    /// The tool's version (`Cargo.toml`).
    pub version: String,
    /// The command line, program name first (`gpuenergy`); empty when a library call made the
    /// output.
    pub command_line: Vec<String>,
    /// Name of the GPU configuration (`gpu.name`).
    pub config_name: String,
    /// Where the configuration came from: `preset NAME`, or the configuration file's path.
    pub config_source: String,
    /// FNV-1a hash of the configuration as simulated (overrides and techniques applied), hex.
    pub config_hash: String,
    /// `--set KEY=VALUE` overrides, as given.
    pub overrides: Vec<String>,
    /// Techniques applied to the configuration, in order (none: the preset's baseline).
    pub techniques: Vec<String>,
    /// Technology node.
    pub node: String,
    /// Device flavour of the logic.
    pub flavour: String,
    /// Operating supply, V.
    pub vdd_v: f64,
    /// Junction temperature, K.
    pub temperature_k: f64,
    /// Core clock at this technology point, Hz.
    pub core_clock_hz: f64,
    /// Workload size tier (`test`, `bench`; `program` for user programs only).
    pub size: String,
    /// Workloads (or Activity files) costed, in order.
    pub workloads: Vec<String>,
    /// Where the activity came from: `sim`, `model`, `reference` or `none` (static estimate).
    pub activity_source: String,
}

/// Header of the provenance columns of a CSV ([`RunInfo::csv_fields`]).
pub const CSV_COLUMNS: &str = "version,config_name,config_hash,techniques,overrides,node,flavour,\
vdd_v,temperature_k,core_clock_mhz,size,activity_source";

impl RunInfo {
    /// A record with the tool and version set and everything else empty.
    pub fn new() -> RunInfo {
        RunInfo {
            tool: "gpuenergy".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            ..Default::default()
        }
    }

    /// This process's command line with the program name written `gpuenergy`.
    pub fn this_command_line() -> Vec<String> {
        let mut v: Vec<String> = std::env::args().collect();
        if let Some(first) = v.first_mut() {
            *first = "gpuenergy".into();
        }
        v
    }

    /// Sets what only the command line knows: the command line itself, where the configuration
    /// came from, the overrides and the techniques (`a+b` is split at `+`).
    pub fn with_command(
        mut self,
        config_source: String,
        technique: Option<&str>,
        overrides: &[String],
    ) -> RunInfo {
        self.command_line = Self::this_command_line();
        self.config_source = config_source;
        self.techniques = technique
            .map(|t| t.split('+').map(str::to_string).collect())
            .unwrap_or_default();
        self.overrides = overrides.to_vec();
        self
    }

    /// One line for the top of a table: tool and version, configuration and hash, techniques
    /// and overrides, technology point, clock and size.
    pub fn header_line(&self) -> String {
        let mut s = format!(
            "{} {} | {} ({}, config {})",
            self.tool,
            self.version,
            self.config_name,
            if self.config_source.is_empty() {
                "library call"
            } else {
                &self.config_source
            },
            short_hash(&self.config_hash)
        );
        if !self.techniques.is_empty() {
            s += &format!(" + {}", self.techniques.join("+"));
        }
        if !self.overrides.is_empty() {
            s += &format!(" --set {}", self.overrides.join(" --set "));
        }
        s += &format!(
            " | {} {} {:.3} V {:.0} K {:.0} MHz | size {}",
            self.node,
            self.flavour,
            self.vdd_v,
            self.temperature_k,
            self.core_clock_hz / 1e6,
            self.size
        );
        s
    }

    /// The values of [`CSV_COLUMNS`], comma-separated and quoted where needed (lists joined
    /// with `+` for techniques and `;` for overrides).
    pub fn csv_fields(&self) -> String {
        let field = csv_field;
        [
            field(&self.version),
            field(&self.config_name),
            field(&self.config_hash),
            field(&self.techniques.join("+")),
            field(&self.overrides.join(";")),
            field(&self.node),
            field(&self.flavour),
            format!("{}", self.vdd_v),
            format!("{}", self.temperature_k),
            format!("{}", self.core_clock_hz / 1e6),
            field(&self.size),
            field(&self.activity_source),
        ]
        .join(",")
    }
}

/// Quotes a CSV field that holds a comma, quote or newline (RFC 4180); the one quoting rule of
/// every CSV the tool writes (`report::csv::field`).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The first 12 hex digits of a configuration hash (the whole hash is in JSON and CSV).
fn short_hash(h: &str) -> &str {
    &h[..h.len().min(12)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_and_csv_name_every_field() {
        let mut r = RunInfo::new();
        r.config_name = "gtx480".into();
        r.config_source = "preset gtx480".into();
        r.config_hash = "0123456789abcdef".into();
        r.techniques = vec!["gates".into(), "coord-blackout".into()];
        r.overrides = vec!["pg.bet=19".into()];
        r.node = "finfet7".into();
        r.flavour = "lvt".into();
        r.vdd_v = 0.45;
        r.temperature_k = 350.0;
        r.core_clock_hz = 7e8;
        r.size = "test".into();
        r.activity_source = "sim".into();
        let h = r.header_line();
        for want in [
            "gpuenergy",
            "gtx480",
            "preset gtx480",
            "0123456789ab",
            "gates+coord-blackout",
            "pg.bet=19",
            "finfet7 lvt 0.450 V 350 K 700 MHz",
            "size test",
        ] {
            assert!(h.contains(want), "{want} missing from {h}");
        }
        let cols = CSV_COLUMNS.split(',').count();
        assert_eq!(r.csv_fields().split(',').count(), cols);
        assert!(r.csv_fields().contains(",700,"));
    }
}
