//! gpuenergy — what a GPU microarchitecture idea costs and saves in energy and area.
//!
//! The library half of the root package:
//! - [`study`]: the estimate pipeline as a library call (simulate, build the chip model, cost,
//!   collect a report), shared by every command that costs a configuration;
//! - [`report`]: renderers of reports (table, CSV, JSON, SVG plots) and the shared output
//!   formats;
//! - [`correlate`]: timing correlation against reference cycles (reference-file parsing,
//!   per-launch cycles, MAPE and Pearson's r);
//! - [`costing`]: the costing side of the built-in techniques, registered once, and the records
//!   a study keeps of them; [`rfcost`], [`issuecost`], [`dwfcost`]: the register-file
//!   techniques' §8 accounting, the issue stage's and the DWF scheduler's hardware;
//! - [`sweep`]: design-space sweeps (sweep files, expansion and sharding, the content-keyed
//!   result store, local and Slurm runs, the merged table);
//! - [`program`]: user programs (program files, the one-launch shorthand, CUDA via nvcc) as
//!   workloads;
//! - [`cli`]: argument types and command implementations, one module per subcommand.

#![warn(missing_docs)]

pub mod activity_cache;
pub mod amodel;
pub mod cli;
pub mod compare;
pub mod correlate;
pub mod costing;
pub mod diag;
pub mod digest;
pub mod dwfcost;
pub mod issuecost;
pub mod optimize;
pub mod program;
pub mod provenance;
pub mod recorded_config;
pub mod refcompare;
pub mod report;
pub mod rfcost;
pub mod sample;
pub mod schedcfg;
pub mod spanned_file;
pub mod study;
pub mod study_config;
pub mod sweep;
pub mod technique;
