//! One module per subcommand; each has an `Args` (clap) and a `run`.
pub mod calibrate;
pub mod component;
pub mod correlate;
pub mod estimate;
pub mod presets;
pub mod progress;
pub mod run;
pub mod simulate;
pub mod sram;
pub mod synth;
pub mod techs;
pub mod trace;
pub mod workloads;
