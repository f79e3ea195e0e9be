//! Errors of the technology library.

use thiserror::Error;

/// Everything that can go wrong when naming or evaluating a technology node.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum TechError {
    /// The node name is neither a built-in node nor a feature size in range.
    #[error("unknown technology node '{asked}': known nodes are {known}; a planar feature size such as '40nm', '28nm' or '0.065' (um) between {min_nm} and {max_nm} nm is interpolated")]
    UnknownNode {
        /// The node name as given.
        asked: String,
        /// The built-in node names, comma-separated.
        known: String,
        /// Smallest planar feature size accepted, nm.
        min_nm: f64,
        /// Largest planar feature size accepted, nm.
        max_nm: f64,
    },
    /// The flavour (device type) does not exist at this node.
    #[error("node '{node}' has no device flavour '{asked}': it has {known}")]
    UnknownFlavour {
        /// Name of the node.
        node: String,
        /// The flavour name as given.
        asked: String,
        /// The node's flavours, comma-separated.
        known: String,
    },
    /// The operating point does not exist at this node.
    #[error("node '{node}' has no operating point '{asked}': it has {known}")]
    UnknownOperatingPoint {
        /// Name of the node.
        node: String,
        /// The operating-point name as given.
        asked: String,
        /// The node's operating points with their supplies, or why the node has none.
        known: String,
    },
    /// A cell kind (6T, 8T, CAM, DRAM) that this node does not define.
    #[error("node '{node}' has no {asked} cell: it has {known}")]
    UnknownCell {
        /// Name of the node.
        node: String,
        /// The cell asked for (`6T`, `8T`, `CAM`, `<process> DRAM`).
        asked: String,
        /// The cells the node defines, comma-separated.
        known: String,
    },
    /// A wire type / projection that the node does not tabulate.
    #[error("node '{node}' has no {asked} wire: it has {known}")]
    UnknownWire {
        /// Name of the node.
        node: String,
        /// The wire asked for, as `<projection> <type>`.
        asked: String,
        /// The node's tabulated wires, as `<projection> <type>`, comma-separated.
        known: String,
    },
    /// A condition out of the model's domain (e.g. negative Vdd, temperature out of range).
    #[error("node '{node}': {what}")]
    BadCondition {
        /// Name of the node.
        node: String,
        /// What is out of range, with the allowed range.
        what: String,
    },
    /// A knob of a technology point that is not in its domain (a supply or temperature that is
    /// not a positive number).
    #[error("{key} must be {allowed}, got {value}")]
    BadKnob {
        /// The knob, as the command line names it (`--vdd`, `--temperature`).
        key: &'static str,
        /// The value given.
        value: f64,
        /// The values allowed.
        allowed: &'static str,
    },
    /// A node file (built-in or user overlay) that does not parse or is inconsistent.
    #[error("technology file '{file}': {what}")]
    BadFile {
        /// The file: its path, or a built-in node's label (`planar45.toml`).
        file: String,
        /// What does not parse or is inconsistent.
        what: String,
    },
}
