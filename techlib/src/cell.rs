//! Memory cells: SRAM (6T, 8T), CAM and DRAM cell geometry in SI units, and standby leakage of
//! an SRAM cell from the device model.

use crate::device::Device;
use serde::{Deserialize, Serialize};

/// SRAM cell topology.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum CellKind {
    /// Six-transistor cell (planar nodes; the larger, upsized 6T reference at FinFET nodes).
    Six,
    /// Eight-transistor cell with a decoupled read port (2 extra NMOS: read access + read driver).
    Eight,
}

impl CellKind {
    /// Key in the node files.
    pub fn key(self) -> &'static str {
        match self {
            CellKind::Six => "sram",
            CellKind::Eight => "sram8t",
        }
    }
    /// Name for messages.
    pub fn label(self) -> &'static str {
        match self {
            CellKind::Six => "6T",
            CellKind::Eight => "8T",
        }
    }
}

/// Geometry of an SRAM or CAM cell at one node. Widths are total widths of one transistor
/// (fins × fin width at FinFET nodes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SramCell {
    /// Topology: 6T or 8T (CAM cells are `Six`).
    pub kind: CellKind,
    /// Access (pass-gate) transistor width, m.
    pub w_access_m: f64,
    /// Pull-up PMOS width, m.
    pub w_pmos_m: f64,
    /// Pull-down NMOS width, m.
    pub w_nmos_m: f64,
    /// Read-port access transistor width (8T only; 0 for 6T), m.
    pub w_read_access_m: f64,
    /// Read-port driver transistor width (8T only; 0 for 6T), m.
    pub w_read_driver_m: f64,
    /// Cell area, m².
    pub area_m2: f64,
    /// Height / width of the cell.
    pub aspect_ratio: f64,
    /// Fin counts (access, pmos, nmos, read access, read driver) at FinFET nodes.
    pub fins: Option<[f64; 5]>,
    /// Measured static noise margins `(vdd_v, back_gate_on, snm_v)` where the source gives them.
    pub snm_points: Vec<(f64, bool, f64)>,
}

impl SramCell {
    /// Cell width (along the wordline), m.
    pub fn width_m(&self) -> f64 {
        (self.area_m2 / self.aspect_ratio).sqrt()
    }

    /// Cell height (along the bitline), m.
    pub fn height_m(&self) -> f64 {
        (self.area_m2 * self.aspect_ratio).sqrt()
    }

    /// Area in units of F², given the feature size.
    pub fn area_f2(&self, feature_size_m: f64) -> f64 {
        self.area_m2 / (feature_size_m * feature_size_m)
    }

    /// Subthreshold part of the standby current drawn from Vdd with the bitlines precharged and
    /// the wordline(s) off, A.
    ///
    /// Holding a 0 on one side: the off pull-up on that side, the off pull-down on the other side
    /// and the off access transistor between the precharged bitline and the 0 node each see the
    /// full supply. In an 8T cell the read-port access transistor also sees it (read bitline
    /// precharged, read driver on in the worst case). `pmos` is the device used for the pull-ups
    /// (in the FinFET 8T cells of the source their back gates are tied to Vdd, i.e. off).
    pub fn subthreshold_leakage_a(&self, nmos: &Device, pmos: &Device) -> f64 {
        nmos.i_off_n_a_per_m * (self.w_access_m + self.w_nmos_m + self.w_read_access_m)
            + pmos.i_off_p_a_per_m * self.w_pmos_m
    }

    /// Gate-tunnelling part of the standby current: the on pull-down and the on pull-up each
    /// have the full supply across their oxide, A.
    pub fn gate_leakage_a(&self, nmos: &Device, pmos: &Device) -> f64 {
        nmos.i_g_on_n_a_per_m * self.w_nmos_m + pmos.i_g_on_p_a_per_m * self.w_pmos_m
    }

    /// Total standby current of one cell (subthreshold + gate), A.
    pub fn standby_current_a(&self, nmos: &Device, pmos: &Device) -> f64 {
        self.subthreshold_leakage_a(nmos, pmos) + self.gate_leakage_a(nmos, pmos)
    }

    /// Standby leakage power of one cell at the device supply, W.
    pub fn standby_power_w(&self, nmos: &Device, pmos: &Device) -> f64 {
        self.standby_current_a(nmos, pmos) * nmos.vdd_v
    }

    /// Static noise margin at `vdd_v` and back-gate state, by linear interpolation in Vdd between
    /// the measured points of the same back-gate state (clamped at the ends). `None` without data.
    pub fn snm_v(&self, vdd_v: f64, back_gate_on: bool) -> Option<f64> {
        let mut pts: Vec<(f64, f64)> = self
            .snm_points
            .iter()
            .filter(|p| p.1 == back_gate_on)
            .map(|p| (p.0, p.2))
            .collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        match pts.len() {
            0 => None,
            1 => Some(pts[0].1),
            _ => {
                if vdd_v <= pts[0].0 {
                    return Some(pts[0].1);
                }
                for w in pts.windows(2) {
                    if vdd_v <= w[1].0 {
                        let t = (vdd_v - w[0].0) / (w[1].0 - w[0].0);
                        return Some(w[0].1 + t * (w[1].1 - w[0].1));
                    }
                }
                pts.last().map(|p| p.1)
            }
        }
    }
}

/// A DRAM cell (ITRS DRAM tables), SI units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DramCell {
    /// Cell storage supply, V (0 where the DRAM table leaves it empty).
    pub vdd_cell_v: f64,
    /// Access-transistor width, m.
    pub w_access_m: f64,
    /// Cell area, m².
    pub area_m2: f64,
    /// Height / width of the cell.
    pub aspect_ratio: f64,
    /// Access-transistor on-current per width, A/m.
    pub i_on_a_per_m: f64,
    /// Supply of the DRAM process as the cell table gives it, V.
    pub vdd_v: f64,
    /// Storage capacitance of one cell, F.
    pub c_cell_f: f64,
    /// Access-transistor off-current per width at worst-case channel length and temperature, A/m.
    pub i_off_worst_case_a_per_m: f64,
}
