//! `calibration` — synthesis-backed calibration: Verilog components, the yosys + OpenSTA flow,
//! report parsers, fitting and calibration overlays.
//!
//! - [`parsers`]: Yosys, OpenSTA, Design Compiler and Genus reports → [`parsers::ParsedReport`].
//! - [`liberty`]: find, merge and read liberty files.
//! - [`vcd`]: switching activity from simulation dumps.
//! - [`flow`]: drive iverilog, yosys and OpenSTA for one component and size → [`record::SynthRecord`].
//! - [`fit`]: non-negative least squares of the `models::logic` forms, leave-one-out CV, overlays.
//! - [`board`]: the board-power model's two global scalars fitted to measured board power.
//! - [`collect`]: gather records and raw reports from a directory.
//! - [`progress`]: the callback through which long steps report progress.

#![warn(missing_docs)]

pub mod board;
pub mod collect;
pub mod error;
pub mod fit;
pub mod flow;
pub mod liberty;
pub mod parsers;
pub mod progress;
pub mod record;
pub mod rtl;
pub mod techfit;
pub mod vcd;

pub use error::{CalError, ParseError};
pub use record::SynthRecord;
