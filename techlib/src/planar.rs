//! Planar (ITRS bulk) devices: from table values at the nominal supply to any supply and
//! temperature.
//!
//! At the flavour's nominal Vdd every CACTI parameter is the ITRS table value (temperature
//! tables interpolated linearly between their 10 K rows, exactly as CACTI does). Away from the
//! nominal supply the drive law of [`crate::law`] carries the table values along:
//!
//! * `I_on(V) = I_on,table · S(V, V) / S(Vdd, Vdd)` (alpha-power law; on-current is taken
//!   temperature independent, as in CACTI's tables);
//! * `I_off(V, T) = I_off,table(T) · S(0, V) / S(0, Vdd)` at temperature T — DIBL and the drain
//!   factor, i.e. `exp(η (V − Vdd)/(n v_T)) · (1 − e^{−V/v_T}) / (1 − e^{−Vdd/v_T})`;
//! * `I_gate(V) = I_gate,table(T) · (V / Vdd)^k`;
//! * the effective-resistance multiplier follows `I_on/I_eff`, Vdsat the alpha-power law.
//!
//! The law's exponents (α, n, η, k) are not in the ITRS tables; they are generic bulk
//! short-channel values from `data/planar_model.toml` (or a node file's own `[drive_model]`).

use crate::cell::{CellKind, SramCell};
use crate::device::Device;
use crate::law::DriveLaw;
use crate::names::{BackGate, Flavour, NodeKind};
use crate::schema::NodeFile;
use std::collections::BTreeMap;

/// Checks a planar node file; returns a message on error.
pub fn validate(f: &NodeFile) -> Result<(), String> {
    if f.flavours.is_empty() {
        return Err("a planar node needs at least one [flavours.<name>] table".into());
    }
    let n = f.table_temperatures_k.len();
    if n == 0 {
        return Err("table_temperatures_k is missing".into());
    }
    if f.table_temperatures_k.windows(2).any(|w| w[1] <= w[0]) {
        return Err("table_temperatures_k must be strictly increasing".into());
    }
    if f.drive_model.is_none() {
        return Err("[drive_model] is missing".into());
    }
    for (k, fl) in &f.flavours {
        if Flavour::parse(k).is_none() {
            return Err(format!("flavours.{k}: unknown flavour name"));
        }
        if fl.i_off_n_a_per_um.len() != n || fl.i_g_on_n_a_per_um.len() != n {
            return Err(format!(
                "flavours.{k}: i_off_n_a_per_um and i_g_on_n_a_per_um need {n} entries (one per table temperature)"
            ));
        }
        for (name, v) in [
            ("vdd_v", fl.vdd_v),
            ("i_on_n_a_per_um", fl.i_on_n_a_per_um),
            ("i_on_p_a_per_um", fl.i_on_p_a_per_um),
            ("c_g_ideal_f_per_um", fl.c_g_ideal_f_per_um),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!(
                    "flavours.{k}.{name} = {v}: expected a positive number"
                ));
            }
        }
        if fl
            .i_off_n_a_per_um
            .iter()
            .any(|x| !(x.is_finite() && *x >= 0.0))
        {
            return Err(format!(
                "flavours.{k}.i_off_n_a_per_um: expected non-negative numbers"
            ));
        }
    }
    if !f.cells.contains_key("sram") {
        return Err("[cells.sram] is missing".into());
    }
    Ok(())
}

/// Temperature span of the node's tables.
pub fn temperature_range_k(f: &NodeFile) -> (f64, f64) {
    let t = &f.table_temperatures_k;
    (t[0], t[t.len() - 1])
}

/// Linear interpolation in a temperature table (clamped to its ends).
pub fn table_at(temps_k: &[f64], values: &[f64], t_k: f64) -> f64 {
    if t_k <= temps_k[0] {
        return values[0];
    }
    for i in 1..temps_k.len() {
        if t_k <= temps_k[i] {
            let w = (t_k - temps_k[i - 1]) / (temps_k[i] - temps_k[i - 1]);
            return values[i - 1] + w * (values[i] - values[i - 1]);
        }
    }
    values[values.len() - 1]
}

/// The device of `flavour` at `vdd_v` and `t_k` (flavour and ranges already checked).
pub fn device(f: &NodeFile, flavour: Flavour, vdd_v: f64, t_k: f64) -> Device {
    let fl = &f.flavours[flavour.key()];
    let dm = f.drive_model.as_ref().expect("validated");
    let law = DriveLaw {
        vth_v: fl.vth_v,
        alpha: dm.alpha,
        ekv_m: dm.subthreshold_n * dm.alpha,
        dibl_v_per_v: dm.dibl_v_per_v,
        temperature_k: t_k,
    };
    let vnom = fl.vdd_v;
    let on_ratio = law.on_shape(vdd_v) / law.on_shape(vnom);
    let off_ratio = law.off_shape(vdd_v) / law.off_shape(vnom);
    let eff_ratio =
        (law.on_shape(vdd_v) / law.eff_shape(vdd_v)) / (law.on_shape(vnom) / law.eff_shape(vnom));
    let temps = &f.table_temperatures_k;
    let i_on_n = fl.i_on_n_a_per_um * 1e6 * on_ratio;
    let i_on_p = fl.i_on_p_a_per_um * 1e6 * on_ratio;
    let i_off_n = table_at(temps, &fl.i_off_n_a_per_um, t_k) * 1e6 * off_ratio;
    let i_g = table_at(temps, &fl.i_g_on_n_a_per_um, t_k)
        * 1e6
        * (vdd_v / vnom).powf(dm.gate_leakage_v_exponent);
    let vdsat = fl.vdsat_v
        * (law.overdrive_v(vdd_v, vdd_v) / law.overdrive_v(vnom, vnom)).powf(0.5 * dm.alpha);
    Device {
        node_kind: NodeKind::Planar,
        flavour,
        vdd_v,
        nominal_vdd_v: vnom,
        temperature_k: t_k,
        back_gate: BackGate::Tied,
        c_g_ideal_f_per_m: fl.c_g_ideal_f_per_um * 1e6,
        c_fringe_f_per_m: fl.c_fringe_f_per_um * 1e6,
        c_overlap_f_per_m: 0.2 * fl.c_g_ideal_f_per_um * 1e6,
        c_junc_f_per_m2: fl.c_junc_f_per_um2 * 1e12,
        c_junc_sw_f_per_m: fl.c_junc_sw_f_per_um * 1e6,
        l_phy_m: fl.l_phy_um * 1e-6,
        l_elec_m: fl.l_elec_um * 1e-6,
        nmos_effective_resistance_multiplier: fl.nmos_effective_resistance_multiplier * eff_ratio,
        vth_v: fl.vth_v,
        vdsat_v: vdsat,
        i_on_n_a_per_m: i_on_n,
        i_on_p_a_per_m: i_on_p,
        i_off_n_a_per_m: i_off_n,
        i_off_p_a_per_m: i_off_n,
        i_g_on_n_a_per_m: i_g,
        i_g_on_p_a_per_m: i_g,
        c_ox_f_per_m2: fl.c_ox_f_per_um2 * 1e12,
        t_ox_m: fl.t_ox_um * 1e-6,
        n2p_drv_rt: fl.n2p_drv_rt,
        long_channel_leakage_reduction: fl.lch_lk_rdc,
        mobility_n_m2_per_vs: fl.mobility_n_um2_per_vs * 1e-12,
        gmp_to_gmn_multiplier: fl.gmp_to_gmn_multiplier,
        vpp_v: fl.vpp_v,
        fin_width_m: None,
        law,
        k_n_a_per_m: i_on_n / law.on_shape(vdd_v),
        gate_leakage_v_exponent: dm.gate_leakage_v_exponent,
    }
}

/// SRAM (6T) and CAM cells of a planar node at feature size `f_m`.
pub fn cells(f: &NodeFile, f_m: f64) -> BTreeMap<String, SramCell> {
    let mut out = BTreeMap::new();
    for (key, c) in &f.cells {
        let (Some(wa), Some(wp), Some(wn), Some(a)) =
            (c.w_access_f, c.w_pmos_f, c.w_nmos_f, c.area_f2)
        else {
            continue;
        };
        out.insert(
            key.clone(),
            SramCell {
                kind: CellKind::Six,
                w_access_m: wa * f_m,
                w_pmos_m: wp * f_m,
                w_nmos_m: wn * f_m,
                w_read_access_m: 0.0,
                w_read_driver_m: 0.0,
                area_m2: a * f_m * f_m,
                aspect_ratio: c.aspect_ratio,
                fins: None,
                snm_points: Vec::new(),
            },
        );
    }
    out
}
