//! Errors of the technology library.

use thiserror::Error;

/// Everything that can go wrong when naming or evaluating a technology node.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum TechError {
    /// The node name is neither a built-in node nor a feature size in range.
    #[error("unknown technology node '{asked}': known nodes are {known}; a planar feature size such as '40nm', '28nm' or '0.065' (um) between {min_nm} and {max_nm} nm is interpolated")]
    UnknownNode {
        asked: String,
        known: String,
        min_nm: f64,
        max_nm: f64,
    },
    /// The flavour (device type) does not exist at this node.
    #[error("node '{node}' has no device flavour '{asked}': it has {known}")]
    UnknownFlavour {
        node: String,
        asked: String,
        known: String,
    },
    /// The operating point does not exist at this node.
    #[error("node '{node}' has no operating point '{asked}': it has {known}")]
    UnknownOperatingPoint {
        node: String,
        asked: String,
        known: String,
    },
    /// A cell kind (6T, 8T, CAM, DRAM) that this node does not define.
    #[error("node '{node}' has no {asked} cell: it has {known}")]
    UnknownCell {
        node: String,
        asked: String,
        known: String,
    },
    /// A wire type / projection that the node does not tabulate.
    #[error("node '{node}' has no {asked} wire: it has {known}")]
    UnknownWire {
        node: String,
        asked: String,
        known: String,
    },
    /// A condition out of the model's domain (e.g. negative Vdd, temperature out of range).
    #[error("node '{node}': {what}")]
    BadCondition { node: String, what: String },
    /// A node file (built-in or user overlay) that does not parse or is inconsistent.
    #[error("technology file '{file}': {what}")]
    BadFile { file: String, what: String },
}
