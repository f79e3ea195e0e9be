//! One module per subcommand; each has an `Args` (clap) and a `run`.
pub mod sram;
pub mod techs;
pub mod presets;
pub mod estimate;
pub mod workloads;
pub mod run;
pub mod trace;
pub mod simulate;
pub mod synth;
pub mod calibrate;
pub mod component;
