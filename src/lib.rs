//! gpuenergy — what a GPU microarchitecture idea costs and saves in energy and area.
//!
//! The library half of the root package: CLI argument types and command implementations live in
//! [`cli`], one module per subcommand.

pub mod cli;
pub mod plots;
