//! Transistor parameters at one operating condition, in SI units, with the derived quantities
//! (on-resistance, effective current, gate and drain capacitance, leakage at other drain biases)
//! as methods.
//!
//! The field set is CACTI's device description, so a CACTI-class array model can use it
//! unchanged. Currents and capacitances are per metre of transistor width. For a FinFET node the
//! width is the effective width of whole fins: [`Device::fin_width_m`] is the width of one fin,
//! and every per-metre value times that width is the per-fin value (helpers `*_per_fin`).

use crate::law::DriveLaw;
use crate::{BackGate, Flavour, NodeKind};
use serde::{Deserialize, Serialize};

/// One device flavour at one supply, temperature and back-gate state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Device {
    /// Planar or FinFET: which device model produced the values.
    pub node_kind: NodeKind,
    /// Device flavour (ITRS device type or FinFET threshold flavour).
    pub flavour: Flavour,
    /// Supply this device is evaluated at, V.
    pub vdd_v: f64,
    /// The flavour's nominal supply (ITRS table, or the node's nominal operating point), V.
    pub nominal_vdd_v: f64,
    /// Temperature this device is evaluated at, K.
    pub temperature_k: f64,
    /// Back-gate state (always `Tied` for planar devices).
    pub back_gate: BackGate,
    /// Ideal (intrinsic) gate capacitance per width, F/m.
    pub c_g_ideal_f_per_m: f64,
    /// Fringe gate capacitance per width, F/m.
    pub c_fringe_f_per_m: f64,
    /// Gate–drain overlap capacitance per width, F/m (0.2 × ideal, as CACTI assumes).
    pub c_overlap_f_per_m: f64,
    /// Bottom junction capacitance per diffusion area, F/m².
    pub c_junc_f_per_m2: f64,
    /// Sidewall junction capacitance per diffusion perimeter, F/m.
    pub c_junc_sw_f_per_m: f64,
    /// Physical gate length, m.
    pub l_phy_m: f64,
    /// Electrical (effective) channel length, m; at FinFET nodes the gate length plus both underlaps.
    pub l_elec_m: f64,
    /// `R_on = multiplier · Vdd / I_on` (CACTI's effective-resistance convention), at this supply.
    pub nmos_effective_resistance_multiplier: f64,
    /// Threshold at this temperature and back-gate state (zero drain bias for FinFETs), V.
    pub vth_v: f64,
    /// Drain saturation voltage at this supply, V.
    pub vdsat_v: f64,
    /// NMOS on-current per width at `vdd_v`, A/m.
    pub i_on_n_a_per_m: f64,
    /// PMOS on-current per width at `vdd_v`, A/m.
    pub i_on_p_a_per_m: f64,
    /// NMOS subthreshold off-current per width at `vdd_v` and `temperature_k`, A/m.
    pub i_off_n_a_per_m: f64,
    /// PMOS off-current per width (taken equal to NMOS, as the ITRS tables give only NMOS), A/m.
    pub i_off_p_a_per_m: f64,
    /// NMOS gate-tunnelling current of an on device per width, A/m.
    pub i_g_on_n_a_per_m: f64,
    /// PMOS gate leakage per width (taken equal to NMOS), A/m.
    pub i_g_on_p_a_per_m: f64,
    /// Gate-oxide capacitance per area, F/m² (from the EOT at FinFET nodes).
    pub c_ox_f_per_m2: f64,
    /// Gate-oxide thickness (equivalent oxide thickness at FinFET nodes), m.
    pub t_ox_m: f64,
    /// NMOS/PMOS drive ratio (PMOS width needed for equal drive).
    pub n2p_drv_rt: f64,
    /// Leakage multiplier of long-channel devices (ITRS `lch_lk_rdc`).
    pub long_channel_leakage_reduction: f64,
    /// Electron mobility at this temperature, m²/(V·s).
    pub mobility_n_m2_per_vs: f64,
    /// PMOS/NMOS transconductance ratio (CACTI's `gmp_to_gmn_multiplier`; sizes the sense amplifier's gain).
    pub gmp_to_gmn_multiplier: f64,
    /// Boosted wordline supply (DRAM types), V; 0 when not used.
    pub vpp_v: f64,
    /// FinFET: effective width of one fin, m. `None` for planar devices.
    pub fin_width_m: Option<f64>,
    /// The drive law at this temperature and back-gate state.
    pub law: DriveLaw,
    /// Drive constant of the NMOS: `I = k · law.shape(Vgs, Vds)`, A/m/V^α.
    pub k_n_a_per_m: f64,
    /// Gate-leakage supply exponent: I_g ∝ (V/V_nominal)^k.
    pub gate_leakage_v_exponent: f64,
}

impl Device {
    /// NMOS drain current per width at any bias, A/m.
    pub fn ids_n_a_per_m(&self, vgs_v: f64, vds_v: f64) -> f64 {
        self.k_n_a_per_m * self.law.shape(vgs_v, vds_v)
    }

    /// PMOS drain current magnitude per width at any bias magnitude, A/m.
    pub fn ids_p_a_per_m(&self, vsg_v: f64, vsd_v: f64) -> f64 {
        self.ids_n_a_per_m(vsg_v, vsd_v) * self.i_on_p_a_per_m / self.i_on_n_a_per_m
    }

    /// NMOS effective switching current per width at `vdd_v` (Na et al.), A/m.
    pub fn i_eff_n_a_per_m(&self) -> f64 {
        self.k_n_a_per_m * self.law.eff_shape(self.vdd_v)
    }

    /// PMOS effective switching current per width, A/m.
    pub fn i_eff_p_a_per_m(&self) -> f64 {
        self.i_eff_n_a_per_m() * self.i_on_p_a_per_m / self.i_on_n_a_per_m
    }

    /// NMOS subthreshold leakage per width with the gate off and `vds_v` across it (stacks,
    /// retention supplies), scaled from `i_off_n_a_per_m` by the drive law's DIBL and drain
    /// factors, A/m.
    pub fn i_off_n_at_vds_a_per_m(&self, vds_v: f64) -> f64 {
        let base = self.law.off_shape(self.vdd_v);
        if base <= 0.0 {
            return 0.0;
        }
        self.i_off_n_a_per_m * self.law.off_shape(vds_v.max(0.0)) / base
    }

    /// Gate leakage of an on NMOS per width with `v` across the oxide, A/m.
    pub fn i_g_on_n_at_a_per_m(&self, v: f64) -> f64 {
        if self.vdd_v <= 0.0 {
            return 0.0;
        }
        self.i_g_on_n_a_per_m * (v.max(0.0) / self.vdd_v).powf(self.gate_leakage_v_exponent)
    }

    /// NMOS on-resistance times width, Ω·m (divide by width in metres for ohms).
    pub fn r_nch_on_ohm_m(&self) -> f64 {
        self.nmos_effective_resistance_multiplier * self.vdd_v / self.i_on_n_a_per_m
    }

    /// PMOS on-resistance times width, Ω·m.
    pub fn r_pch_on_ohm_m(&self) -> f64 {
        self.r_nch_on_ohm_m() * self.i_on_n_a_per_m / self.i_on_p_a_per_m
    }

    /// Gate input capacitance per width, F/m: `C_g_ideal + C_overlap + 3·C_fringe` (CACTI's
    /// convention: the fringe field couples to source, drain and the poly extension).
    pub fn c_gate_f_per_m(&self) -> f64 {
        self.c_g_ideal_f_per_m + self.c_overlap_f_per_m + 3.0 * self.c_fringe_f_per_m
    }

    /// Drain capacitance per width of a wide transistor whose diffusion extends `diff_len_m` from
    /// the gate: bottom junction (`C_junc · diff_len`) + the far sidewall edge (`C_junc_sw`, the
    /// two short sidewalls are negligible for a wide device) + gate–drain overlap, F/m.
    /// FinFET nodes store their per-fin drain capacitance in the sidewall term (no bottom junction).
    pub fn c_drain_f_per_m(&self, diff_len_m: f64) -> f64 {
        self.c_junc_f_per_m2 * diff_len_m + self.c_junc_sw_f_per_m + self.c_overlap_f_per_m
    }

    /// Leakage power of an off NMOS per width at `vdd_v`, W/m.
    pub fn leakage_power_n_w_per_m(&self) -> f64 {
        self.i_off_n_a_per_m * self.vdd_v
    }

    /// Switching energy of one gate input per width, `C_gate · V²`, J/m.
    pub fn gate_switch_energy_j_per_m(&self) -> f64 {
        self.c_gate_f_per_m() * self.vdd_v * self.vdd_v
    }

    /// Intrinsic time constant `C_gate · V / I_on`, s.
    pub fn intrinsic_delay_s(&self) -> f64 {
        self.c_gate_f_per_m() * self.vdd_v / self.i_on_n_a_per_m
    }

    /// On/off current ratio of the NMOS.
    pub fn on_off_ratio(&self) -> f64 {
        self.i_on_n_a_per_m / self.i_off_n_a_per_m
    }

    /// Subthreshold swing at this temperature, V/decade.
    pub fn subthreshold_swing_v_per_decade(&self) -> f64 {
        self.law.subthreshold_swing_v_per_decade()
    }

    /// Width of `fins` fins (FinFET), or `None` for planar devices, m.
    pub fn width_of_fins_m(&self, fins: f64) -> Option<f64> {
        self.fin_width_m.map(|w| w * fins)
    }

    /// NMOS on-current per fin, A (FinFET only).
    pub fn i_on_n_a_per_fin(&self) -> Option<f64> {
        self.fin_width_m.map(|w| w * self.i_on_n_a_per_m)
    }

    /// NMOS off-current per fin, A (FinFET only).
    pub fn i_off_n_a_per_fin(&self) -> Option<f64> {
        self.fin_width_m.map(|w| w * self.i_off_n_a_per_m)
    }

    /// Gate capacitance per fin, F (FinFET only).
    pub fn c_gate_f_per_fin(&self) -> Option<f64> {
        self.fin_width_m.map(|w| w * self.c_gate_f_per_m())
    }

    /// Fanout-of-4 inverter delay at this supply, s.
    ///
    /// The inverter has an NMOS of unit width and a PMOS `n2p_drv_rt` times wider (equal rise and
    /// fall drive). It drives four copies of itself plus its own drain capacitance; each edge
    /// takes `C_load · Vdd / (2 I_eff)` (charge to the 50 % point at the effective switching
    /// current), and the FO4 delay is the mean of the rise and fall edges.
    pub fn fo4_delay_s(&self, diff_len_m: f64) -> f64 {
        let w_n = 1.0;
        let w_p = self.n2p_drv_rt;
        let c_in = (w_n + w_p) * self.c_gate_f_per_m();
        let c_self = (w_n + w_p) * self.c_drain_f_per_m(diff_len_m);
        let c_load = 4.0 * c_in + c_self;
        let t_fall = c_load * self.vdd_v / (2.0 * w_n * self.i_eff_n_a_per_m());
        let t_rise = c_load * self.vdd_v / (2.0 * w_p * self.i_eff_p_a_per_m());
        0.5 * (t_fall + t_rise)
    }
}
