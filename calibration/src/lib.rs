//! `calibration` — synthesis-backed calibration: Verilog components, the yosys + OpenSTA flow,
//! report parsers, fitting and calibration overlays.

pub mod rtl;
