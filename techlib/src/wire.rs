//! Interconnect: wire geometry per type and projection, and resistance/capacitance per metre.
//!
//! Geometry follows the ITRS tables: width = pitch/2, spacing = pitch − width, thickness =
//! aspect ratio × width. Resistance (Ho's wire model, as used by CACTI):
//! `R/L = α_scatter · ρ / ((t − barrier − dishing)(w − 2·barrier))`.
//! Capacitance: two parallel plates to the layers above and below, two Miller-weighted sidewalls
//! and a constant fringe term,
//! `C/L = 2 ε0 ε_vert w / t_ild + 2 M ε0 ε_horiz t / s + C_fringe`.
//! DRAM-internal wires of the conservative projection are tabulated directly as R and C per µm.

use crate::schema::WireFile;
use serde::{Deserialize, Serialize};

/// Vacuum permittivity, F/m.
pub const EPSILON_0_F_PER_M: f64 = 8.854_187_812_8e-12;

/// Wire type (column of the ITRS wire table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireType {
    /// Local wires: the tightest pitch, for short connections within cells and gates.
    Local,
    /// Semi-global (intermediate-layer) wires.
    SemiGlobal,
    /// Global (top-layer) wires: the widest pitch, for long cross-chip routes.
    Global,
    /// DRAM-internal wires.
    Dram,
}

impl WireType {
    /// Every wire type, in declaration order.
    pub const ALL: [WireType; 4] = [
        WireType::Local,
        WireType::SemiGlobal,
        WireType::Global,
        WireType::Dram,
    ];

    /// Key in the node files.
    pub fn key(self) -> &'static str {
        match self {
            WireType::Local => "local",
            WireType::SemiGlobal => "semi_global",
            WireType::Global => "global",
            WireType::Dram => "dram",
        }
    }
}

/// ITRS interconnect projection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Projection {
    /// ITRS aggressive projection (optimistic interconnect scaling).
    Aggressive,
    /// CACTI's default.
    Conservative,
}

impl Projection {
    /// Both projections, in declaration order.
    pub const ALL: [Projection; 2] = [Projection::Aggressive, Projection::Conservative];

    /// Key in the node files.
    pub fn key(self) -> &'static str {
        match self {
            Projection::Aggressive => "aggressive",
            Projection::Conservative => "conservative",
        }
    }
}

/// One wire type at one node, SI units. R and C per metre are methods.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Wire {
    /// Which wire type this is.
    pub wire_type: WireType,
    /// Which projection the values come from.
    pub projection: Projection,
    /// Wire pitch (width + spacing), m.
    pub pitch_m: f64,
    /// Thickness of the diffusion barrier lining the conductor, m.
    pub barrier_thickness_m: f64,
    /// Thickness lost to dishing in chemical-mechanical polishing, m.
    pub dishing_thickness_m: f64,
    /// Resistivity multiplier for surface and grain-boundary scattering in narrow wires.
    pub alpha_scatter: f64,
    /// Metal thickness / width.
    pub aspect_ratio: f64,
    /// Miller factor on the sidewall coupling capacitance (switching neighbours).
    pub miller_value: f64,
    /// Relative permittivity between neighbouring wires of a layer.
    pub horiz_dielectric_constant: f64,
    /// Relative permittivity of the inter-layer dielectric.
    pub vert_dielectric_constant: f64,
    /// Inter-layer dielectric thickness to the layers above and below, m.
    pub ild_thickness_m: f64,
    /// Fringe capacitance per length, F/m.
    pub fringe_cap_f_per_m: f64,
    /// Bulk resistivity of the conductor, Ω·m.
    pub resistivity_ohm_m: f64,
    /// Tabulated resistance per metre (DRAM-internal wires), overriding the geometric model.
    pub tabulated_r_ohm_per_m: Option<f64>,
    /// Tabulated capacitance per metre (DRAM-internal wires).
    pub tabulated_c_f_per_m: Option<f64>,
}

impl Wire {
    /// Builds a wire from the file entry at feature size `f_m`. `None` when the table leaves the
    /// type empty (zero pitch and nothing tabulated).
    pub fn from_file(
        w: &WireFile,
        wire_type: WireType,
        projection: Projection,
        f_m: f64,
    ) -> Option<Wire> {
        let tab_r = (w.r_per_um_ohm > 0.0).then_some(w.r_per_um_ohm * 1e6);
        let tab_c = (w.c_per_um_f > 0.0).then_some(w.c_per_um_f * 1e6);
        if w.pitch_f <= 0.0 && tab_r.is_none() {
            return None;
        }
        Some(Wire {
            wire_type,
            projection,
            pitch_m: w.pitch_f * f_m,
            barrier_thickness_m: w.barrier_thickness_um * 1e-6,
            dishing_thickness_m: w.dishing_thickness_um * 1e-6,
            alpha_scatter: w.alpha_scatter,
            aspect_ratio: w.aspect_ratio,
            miller_value: w.miller_value,
            horiz_dielectric_constant: w.horiz_dielectric_constant,
            vert_dielectric_constant: w.vert_dielectric_constant,
            ild_thickness_m: w.ild_thickness_um * 1e-6,
            fringe_cap_f_per_m: w.fringe_cap_f_per_um * 1e6,
            resistivity_ohm_m: w.resistivity_uohm_m * 1e-6,
            tabulated_r_ohm_per_m: tab_r,
            tabulated_c_f_per_m: tab_c,
        })
    }

    /// Drawn width (half the pitch), m.
    pub fn width_m(&self) -> f64 {
        0.5 * self.pitch_m
    }

    /// Spacing to the neighbour, m.
    pub fn spacing_m(&self) -> f64 {
        self.pitch_m - self.width_m()
    }

    /// Metal thickness, m.
    pub fn thickness_m(&self) -> f64 {
        self.aspect_ratio * self.width_m()
    }

    /// Resistance per metre, Ω/m.
    pub fn r_ohm_per_m(&self) -> f64 {
        if let Some(r) = self.tabulated_r_ohm_per_m {
            return r;
        }
        let t = self.thickness_m() - self.barrier_thickness_m - self.dishing_thickness_m;
        let w = self.width_m() - 2.0 * self.barrier_thickness_m;
        self.alpha_scatter * self.resistivity_ohm_m / (t * w)
    }

    /// Capacitance per metre, F/m.
    pub fn c_f_per_m(&self) -> f64 {
        if let Some(c) = self.tabulated_c_f_per_m {
            return c;
        }
        let vertical = 2.0 * EPSILON_0_F_PER_M * self.vert_dielectric_constant * self.width_m()
            / self.ild_thickness_m;
        let sidewall = 2.0
            * EPSILON_0_F_PER_M
            * self.miller_value
            * self.horiz_dielectric_constant
            * self.thickness_m()
            / self.spacing_m();
        vertical + sidewall + self.fringe_cap_f_per_m
    }

    /// Distributed RC delay of an unrepeated wire of `length_m` (Elmore, 0.38·R·C·L²), s.
    pub fn unrepeated_delay_s(&self, length_m: f64) -> f64 {
        0.38 * self.r_ohm_per_m() * self.c_f_per_m() * length_m * length_m
    }

    /// Energy to switch `length_m` of wire through `vdd_v` (C·V²), J.
    pub fn switch_energy_j(&self, length_m: f64, vdd_v: f64) -> f64 {
        self.c_f_per_m() * length_m * vdd_v * vdd_v
    }
}
