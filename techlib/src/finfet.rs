//! FinFET devices and cells: the drive law per fin at any supply, temperature and back-gate
//! state.
//!
//! Per fin, `I(Vgs, Vds) = K(T) · S(Vgs, Vds)` with the drive law of [`crate::law`] whose
//! threshold moves with temperature (`Vth(T) = Vth(300 K) + dVth/dT · (T − 300 K)`) and whose
//! drive constant follows phonon-limited mobility (`K ∝ (T/300 K)^−μ`). `K(300 K)` is set so
//! that the on-current at the reference supply equals the measured one.
//!
//! Currents are converted to per-metre values with the fin's effective width (`2·H_fin` for the
//! double-gate fin of `finfet7`, whose top gate is removed). With the back gate held off (GND for an NMOS, Vdd for a
//! PMOS) only the front channel conducts (`bg_off_channel_fraction` of the drive), the front
//! channel's threshold rises by `bg_off_vth_shift_v`, and the front gate sees
//! `bg_off_cap_fraction` of the gate capacitance.
//!
//! Leakage needs no separate table: the off-current is the same law at `Vgs = 0`, which gives
//! subthreshold slope, DIBL and temperature dependence consistently with the drive.

use crate::cell::{CellKind, SramCell};
use crate::device::Device;
use crate::law::DriveLaw;
use crate::names::{BackGate, Flavour, NodeKind};
use crate::schema::{FinFlavour, NodeFile};
use std::collections::BTreeMap;

/// Checks a FinFET node file; returns a message on error.
pub fn validate(f: &NodeFile) -> Result<(), String> {
    let fin = f.fin.as_ref().ok_or("a finfet node needs a [fin] table")?;
    if !(fin.height_nm > 0.0 && fin.gate_length_nm > 0.0 && fin.effective_width_nm > 0.0) {
        return Err(
            "fin.height_nm, fin.gate_length_nm and fin.effective_width_nm must be positive".into(),
        );
    }
    if f.fin_flavours.is_empty() {
        return Err("a finfet node needs at least one [fin_flavours.<name>] table".into());
    }
    if f.operating_points.is_empty() {
        return Err("a finfet node needs at least one [operating_points.<name>] table".into());
    }
    match &f.nominal_operating_point {
        Some(n) if f.operating_points.contains_key(n) => {}
        Some(n) => {
            return Err(format!(
                "nominal_operating_point = \"{n}\" is not one of [operating_points]"
            ))
        }
        None => return Err("nominal_operating_point is missing".into()),
    }
    for (k, fl) in &f.fin_flavours {
        if Flavour::parse(k).is_none() {
            return Err(format!("fin_flavours.{k}: unknown flavour name"));
        }
        for (name, v) in [
            ("alpha", fl.alpha),
            ("ekv_m", fl.ekv_m),
            ("i_on_ref_a_per_fin", fl.i_on_ref_a_per_fin),
            ("i_on_ref_vdd_v", fl.i_on_ref_vdd_v),
            ("n2p_drv_rt", fl.n2p_drv_rt),
            ("c_g_ideal_f_per_fin", fl.c_g_ideal_f_per_fin),
            ("bg_off_channel_fraction", fl.bg_off_channel_fraction),
            ("bg_off_cap_fraction", fl.bg_off_cap_fraction),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!(
                    "fin_flavours.{k}.{name} = {v}: expected a positive number"
                ));
            }
        }
        if !(fl.dibl_v_per_v >= 0.0 && fl.bg_off_vth_shift_v >= 0.0) {
            return Err(format!(
                "fin_flavours.{k}: dibl_v_per_v and bg_off_vth_shift_v must be >= 0"
            ));
        }
    }
    for (k, c) in &f.cells {
        if c.fins_access.is_none() || c.area_um2.is_none() {
            return Err(format!(
                "cells.{k}: a finfet cell needs fins_access, fins_pmos, fins_nmos and area_um2"
            ));
        }
    }
    Ok(())
}

/// Supply of the nominal operating point.
pub fn nominal_vdd_v(f: &NodeFile) -> Option<f64> {
    f.nominal_operating_point
        .as_ref()
        .and_then(|n| f.operating_points.get(n))
        .map(|o| o.vdd_v)
}

/// Effective (gated) width of one fin, m.
pub fn fin_width_m(f: &NodeFile) -> f64 {
    f.fin.as_ref().map_or(0.0, |g| g.effective_width_nm * 1e-9)
}

/// The drive law of a flavour at temperature and back-gate state.
pub fn law(fl: &FinFlavour, t_k: f64, bg: BackGate) -> DriveLaw {
    let mut vth = fl.vth_v + fl.vth_temp_coeff_v_per_k * (t_k - 300.0);
    if bg == BackGate::Grounded {
        vth += fl.bg_off_vth_shift_v;
    }
    DriveLaw {
        vth_v: vth,
        alpha: fl.alpha,
        ekv_m: fl.ekv_m,
        dibl_v_per_v: fl.dibl_v_per_v,
        temperature_k: t_k,
    }
}

/// Drive constant per fin, A/V^α, at temperature and back-gate state.
pub fn k_per_fin(fl: &FinFlavour, t_k: f64, bg: BackGate) -> f64 {
    let k300 = fl.i_on_ref_a_per_fin / law(fl, 300.0, BackGate::Tied).on_shape(fl.i_on_ref_vdd_v);
    let frac = if bg == BackGate::Grounded {
        fl.bg_off_channel_fraction
    } else {
        1.0
    };
    k300 * (t_k / 300.0).powf(-fl.mobility_temp_exponent) * frac
}

/// The device of `flavour` (checked) at `vdd_v`, `t_k` and back-gate state.
pub fn device(f: &NodeFile, flavour: Flavour, vdd_v: f64, t_k: f64, bg: BackGate) -> Device {
    let fl = &f.fin_flavours[flavour.key()];
    let fin = f.fin.as_ref().expect("validated");
    let w = fin_width_m(f);
    let law = law(fl, t_k, bg);
    let k_fin = k_per_fin(fl, t_k, bg);
    let cap = if bg == BackGate::Grounded {
        fl.bg_off_cap_fraction
    } else {
        1.0
    };
    let i_on_n = k_fin * law.on_shape(vdd_v) / w;
    let i_off_n = k_fin * law.off_shape(vdd_v) / w;
    let i_g =
        fl.i_g_on_a_per_fin * cap * (vdd_v / fl.i_on_ref_vdd_v).powf(fl.gate_leakage_v_exponent)
            / w;
    let eot_m = fl.eot_nm * 1e-9;
    Device {
        node_kind: NodeKind::Finfet,
        flavour,
        vdd_v,
        nominal_vdd_v: nominal_vdd_v(f).unwrap_or(vdd_v),
        temperature_k: t_k,
        back_gate: bg,
        c_g_ideal_f_per_m: fl.c_g_ideal_f_per_fin * cap / w,
        c_fringe_f_per_m: fl.c_fringe_f_per_fin * cap / w,
        c_overlap_f_per_m: 0.2 * fl.c_g_ideal_f_per_fin * cap / w,
        c_junc_f_per_m2: 0.0,
        c_junc_sw_f_per_m: fl.c_drain_f_per_fin / w,
        l_phy_m: fin.gate_length_nm * 1e-9,
        l_elec_m: (fin.gate_length_nm + 2.0 * fin.underlap_per_side_nm) * 1e-9,
        nmos_effective_resistance_multiplier: law.on_shape(vdd_v) / law.eff_shape(vdd_v),
        vth_v: law.vth_v,
        vdsat_v: law.vdsat_v(vdd_v),
        i_on_n_a_per_m: i_on_n,
        i_on_p_a_per_m: i_on_n / fl.n2p_drv_rt,
        i_off_n_a_per_m: i_off_n,
        i_off_p_a_per_m: i_off_n / fl.n2p_drv_rt,
        i_g_on_n_a_per_m: i_g,
        i_g_on_p_a_per_m: i_g,
        c_ox_f_per_m2: 3.9 * crate::wire::EPSILON_0_F_PER_M / eot_m,
        t_ox_m: eot_m,
        n2p_drv_rt: fl.n2p_drv_rt,
        long_channel_leakage_reduction: 1.0,
        mobility_n_m2_per_vs: fl.mobility_n_cm2_per_vs
            * 1e-4
            * (t_k / 300.0).powf(-fl.mobility_temp_exponent),
        gmp_to_gmn_multiplier: 1.0 / fl.n2p_drv_rt,
        vpp_v: 0.0,
        fin_width_m: Some(w),
        law,
        k_n_a_per_m: k_fin / w,
        gate_leakage_v_exponent: fl.gate_leakage_v_exponent,
    }
}

/// SRAM cells (6T reference, 8T) of a FinFET node, widths = fins × fin width.
pub fn cells(f: &NodeFile, w_fin_m: f64) -> BTreeMap<String, SramCell> {
    let mut out = BTreeMap::new();
    for (key, c) in &f.cells {
        let kind = if key == "sram8t" {
            CellKind::Eight
        } else {
            CellKind::Six
        };
        let fins = [
            c.fins_access.unwrap_or(0.0),
            c.fins_pmos.unwrap_or(0.0),
            c.fins_nmos.unwrap_or(0.0),
            c.fins_read_access.unwrap_or(0.0),
            c.fins_read_driver.unwrap_or(0.0),
        ];
        out.insert(
            key.clone(),
            SramCell {
                kind,
                w_access_m: fins[0] * w_fin_m,
                w_pmos_m: fins[1] * w_fin_m,
                w_nmos_m: fins[2] * w_fin_m,
                w_read_access_m: fins[3] * w_fin_m,
                w_read_driver_m: fins[4] * w_fin_m,
                area_m2: c.area_um2.unwrap_or(0.0) * 1e-12,
                aspect_ratio: c.aspect_ratio,
                fins: Some(fins),
                snm_points: c
                    .snm_points
                    .iter()
                    .filter(|p| p.len() == 3)
                    .map(|p| (p[0], p[1] != 0.0, p[2]))
                    .collect(),
            },
        );
    }
    out
}
