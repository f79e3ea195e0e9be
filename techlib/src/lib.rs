//! `techlib` — technology nodes as data: devices, wires, SRAM cells and operating points, with
//! the physics (drive, delay, leakage vs Vdd and temperature) as methods.
//!
//! # Nodes
//!
//! | name | kind | source |
//! |---|---|---|
//! | `planar90` … `planar22` | planar | ITRS device/cell/wire tables (the numbers behind CACTI 7), transcribed into `data/planar*.toml` |
//! | `planar16` | planar | **extrapolated** log-linearly in feature size from 22 and 32 nm (the ITRS 16 nm table is marked invalid) |
//! | `40nm`, `28nm`, `0.065` … | planar | linear interpolation between the neighbouring tabulated nodes, as CACTI does (bare numbers below 1 are µm) |
//! | `finfet12` | finfet | 12 nm-class bulk FinFET (TSMC 12FFN-like, 0.80 V): drive law, temperature coefficients and capacitance fitted to HSPICE simulations of the PTM-MG 16 nm HP cards (`data/finfet12.toml`, `finfet12_fit`) |
//! | `finfet7` | finfet | 7 nm double-gate FinFET fitted to the published FO4-chain delay curve and 8T-cell ON currents (`data/finfet7.toml`, every fitted scalar recorded) |
//! | `asap7` | finfet | ASAP7 PDK: thresholds, drive law and swing fitted to its liberty files (inverter leakage and FO4, corners 0.63/0.70/0.77 V; RVT/LVT/SLVT) |
//!
//! The two 7 nm nodes describe different devices (a 7 nm-gate TCAD device at 0.45 V against the
//! 21 nm-gate ASAP7 device at 0.70 V); [`compare7`] sets their figures side by side and explains
//! with numbers why `finfet7` leaks about 100× more per gate.
//!
//! # Use
//!
//! ```
//! use techlib::{node, Conditions, Flavour, CellKind, WireType, Projection};
//! let n = node("45nm").unwrap();
//! let p = n.at(&Conditions::new(Flavour::Hp).with_temperature(350.0)).unwrap();
//! let d = p.device();
//! assert!(d.i_on_n_a_per_m > 0.0 && d.i_off_n_a_per_m > 0.0);
//! let cell = p.sram_cell(CellKind::Six).unwrap();
//! let r = p.wire(WireType::SemiGlobal, Projection::Conservative).unwrap().r_ohm_per_m();
//! assert!(cell.area_m2 > 0.0 && r > 0.0 && p.fo4_delay_s() > 0.0);
//!
//! let f = node("finfet7").unwrap();
//! let ntv = f.at(&Conditions::new(Flavour::Lvt).with_operating_point("ntv")).unwrap();
//! assert!(ntv.fo4_delay_s() > 0.0);
//! ```
//!
//! # Source-table quirks kept as CACTI has them
//!
//! The ITRS off-current tables are not monotonic in temperature in two places (90 nm lop at
//! 350–370 K, about 10× high; 22 nm lstp at 360 K, low), and at 22 nm the lop off-current
//! overtakes hp above about 335 K. The values are kept because CACTI uses them (the CACTI training
//! set shows the 90 nm lop leakage jump); the property tests list these exceptions explicitly.
//!
//! All quantities are SI with the unit in the name. Device currents and capacitances are per
//! metre of width; at FinFET nodes the width is whole fins (`Device::fin_width_m` per fin), so a
//! CACTI-class model can size FinFETs as `fins × fin_width_m`.

#![warn(missing_docs)]

pub mod blend;
pub mod builtin;
pub mod cell;
pub mod compare7;
pub mod device;
pub mod error;
pub mod finfet;
pub mod finfet12_fit;
pub mod finfet7_fit;
pub mod fit;
pub mod law;
pub mod names;
pub mod node;
pub mod planar;
pub mod plausible;
pub mod point;
pub mod schema;
pub mod table21;
pub mod wire;

pub use cell::{CellKind, DramCell, SramCell};
pub use device::Device;
pub use error::TechError;
pub use law::DriveLaw;
pub use names::{BackGate, Flavour, NodeKind, OperatingPoint};
pub use node::{Conditions, Node, TechPoint};
pub use point::{default_flavour, FlavourDefault, ResolvedPoint, DEFAULT_TEMPERATURE_K};
pub use schema::{NodeFile, Scalars};
pub use wire::{Projection, Wire, WireType};

/// The technology-node handle other crates name (`techlib::TechNode` in the design notes).
pub type TechNode = Node;

/// Looks a node up: a built-in name (`planar45`, `finfet7`, `asap7`), a planar feature size
/// (`45nm` = planar45, `40nm` interpolated, `0.065` in µm as CACTI writes it), case-insensitive.
/// Planar sizes from 16 to 90 nm are accepted.
pub fn node(name: &str) -> Result<Node, TechError> {
    let file = builtin::resolve(name)?;
    let label = file.name.clone();
    Node::from_file(file, &label)
}

/// Names of the built-in nodes.
pub fn node_names() -> Vec<&'static str> {
    builtin::NODE_NAMES.to_vec()
}

/// All built-in nodes, in [`node_names`] order.
pub fn builtin_nodes() -> Result<Vec<Node>, TechError> {
    node_names().into_iter().map(node).collect()
}
