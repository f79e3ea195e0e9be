//! Small enums naming flavours, kinds, back-gate states and operating points.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Planar (ITRS bulk) or FinFET node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// Bulk planar CMOS described by the ITRS tables.
    Planar,
    /// FinFET described by a per-fin drive law.
    Finfet,
}

impl NodeKind {
    /// Key in the node files (`kind = "planar"` or `"finfet"`).
    pub fn key(self) -> &'static str {
        match self {
            NodeKind::Planar => "planar",
            NodeKind::Finfet => "finfet",
        }
    }
}

impl fmt::Display for NodeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// Device flavour: ITRS device types at planar nodes, threshold flavours at FinFET nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flavour {
    /// ITRS high performance.
    Hp,
    /// ITRS low standby power.
    Lstp,
    /// ITRS low operating power.
    Lop,
    /// ITRS low-power DRAM process.
    LpDram,
    /// ITRS commodity DRAM process.
    CommDram,
    /// Low threshold (FinFET).
    Lvt,
    /// Regular threshold (FinFET).
    Rvt,
    /// Super-low threshold (FinFET).
    Slvt,
}

impl Flavour {
    /// Every flavour, in declaration (and sort) order.
    pub const ALL: [Flavour; 8] = [
        Flavour::Hp,
        Flavour::Lstp,
        Flavour::Lop,
        Flavour::LpDram,
        Flavour::CommDram,
        Flavour::Lvt,
        Flavour::Rvt,
        Flavour::Slvt,
    ];

    /// Key in the node files and on the command line.
    pub fn key(self) -> &'static str {
        match self {
            Flavour::Hp => "hp",
            Flavour::Lstp => "lstp",
            Flavour::Lop => "lop",
            Flavour::LpDram => "lp_dram",
            Flavour::CommDram => "comm_dram",
            Flavour::Lvt => "lvt",
            Flavour::Rvt => "rvt",
            Flavour::Slvt => "slvt",
        }
    }

    /// Parses a flavour name: the keys above, also CACTI's spellings (`itrs-hp`, `lp-dram`).
    pub fn parse(name: &str) -> Option<Flavour> {
        let n = name.trim().to_ascii_lowercase().replace('-', "_");
        let n = n.strip_prefix("itrs_").unwrap_or(&n);
        Flavour::ALL.into_iter().find(|f| f.key() == n)
    }
}

impl fmt::Display for Flavour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// State of the back gate of an independent-gate (double-gate) FinFET.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "snake_case")]
pub enum BackGate {
    /// Back gate tied to the front gate (at Vdd when the device is on): both channels conduct.
    /// The only state of planar devices.
    #[default]
    Tied,
    /// Back gate held off (GND for an NMOS, Vdd for a PMOS): only the front channel conducts,
    /// about half the gate capacitance, higher Vth, lower leakage, much lower drive.
    Grounded,
}

impl BackGate {
    /// Lower-case name, as serialised (`tied`, `grounded`).
    pub fn key(self) -> &'static str {
        match self {
            BackGate::Tied => "tied",
            BackGate::Grounded => "grounded",
        }
    }
}

/// A named supply point of a node (e.g. `stv` 0.45 V, `ntv` 0.30 V).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OperatingPoint {
    /// Name as the node file keys it (`stv`, `ntv`, `nominal`, ...).
    pub name: String,
    /// Supply, V.
    pub vdd_v: f64,
    /// One-line description from the node file.
    pub description: String,
}
