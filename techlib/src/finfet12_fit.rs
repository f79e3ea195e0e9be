//! The `finfet12` calibration: from simulated device data of a public 16 nm FinFET model to the
//! fitted scalars recorded in `data/finfet12.toml`.
//!
//! **Source.** HSPICE (L-2016.03) runs of the ASU Predictive Technology Model for multi-gate
//! devices, PTM-MG 16 nm HP cards (BSIM-CMG 105.03, bulk FinFET, Lg 20 nm, Hfin 26 nm, Tfin 12 nm,
//! EOT 0.8 nm, nominal 0.85 V), published with their input decks in the public repository
//! `SmlCoke/Lab_Project`: the device tables of `DIC/Lab1/report/template.tex` (2-fin NMOS/PMOS,
//! Vds = 0.75 V, 25 °C and 90 °C: on- and off-current, the constant-current threshold
//! `I = 0.3 µA·W/L` and the two subthreshold points `I = 0.4 / 0.04 µA·W/L`,
//! W = 2·(2·Hfin + Tfin) = 128 nm, L = 20 nm) and the FO4 stage of the inverter chain of
//! `DIC/Lab2/Task4` (a 15-fin inverter driving a 60-fin one, 1:1 NMOS:PMOS fins, 25 °C, supply
//! swept 0.50–1.50 V; column `tp3` of `task4.mt0`). The numbers below are copied from those
//! files; per-fin currents are the 2-fin currents halved.
//!
//! Steps (each value is printed by the `fit_finfet12` example and checked by the tests):
//! 1. Drive law at 25 °C (Vth, α, m, η) with the drive constant `K` and the FO4 scale `A` in
//!    closed form: Nelder–Mead ([`crate::fit::nelder_mead`]) on the squared log errors of the five
//!    NMOS current points `I = K·S(Vgs, 0.75 V)` and of the FO4 delays `T = A·V/S_eff(V)`
//!    on 0.50–1.00 V.
//! 2. Temperature: with α, m and η held, the 90 °C current points give `Vth(90 °C)` and
//!    `K(90 °C)` (the same closed-form K, a one-dimensional Nelder–Mead over Vth); hence
//!    `dVth/dT` and the mobility exponent `K ∝ T^−μ`. The 300 K values the node file stores
//!    follow from these.
//! 3. PMOS: the PMOS/NMOS on-current ratio at 0.75 V gives `n2p_drv_rt`.
//! 4. Capacitance per fin: for the FO4 stage (1:1 fins) the mean of the rise and fall edges is
//!    `T = (1 + n2p)·C_load·V/(4·K·S_eff)` with `C_load = 4·2·C_in + 2·C_d` per NMOS fin; with the
//!    inverter's parasitic delay equal to its input capacitance (`C_d = C_in`, logical-effort
//!    p_inv = 1, as for `finfet7`), `C_in = 2·A·K/(5·(1 + n2p))`. The same expression holds for the
//!    library's FO4 (PMOS `n2p` times wider, equal edges), so the node reproduces the stage delay.
//!    The fringe term is what `C_in` leaves over `1.2·C_g_ideal` (CACTI's
//!    `C_g_ideal + C_overlap + 3·C_fringe`), `C_g_ideal = ε_ox·Lg·W_fin/t_inv`.

use crate::fit::nelder_mead;
use crate::law::DriveLaw;
use std::fmt::Write as _;

/// Temperature of the 25 °C data, K.
pub const T25_K: f64 = 298.15;
/// Temperature of the 90 °C data, K.
pub const T90_K: f64 = 363.15;
/// Drain bias of the DC current points, V.
pub const DC_VDS_V: f64 = 0.75;
/// Effective width of one fin, `2·Hfin + Tfin` (PTM-MG 16 nm: 26 nm, 12 nm), m.
pub const FIN_WIDTH_M: f64 = 64e-9;
/// NMOS drain current per fin at `Vds = 0.75 V`, 25 °C: `(Vgs V, A)`. On-current 144.5 µA,
/// the two subthreshold points (0.1875 V, 0.1055 V), the threshold point (0.1758 V) and the
/// off-current 9.412 nA, each of the 2-fin device.
pub const NMOS_IV_25C: [(f64, f64); 5] = [
    (0.75, 72.25e-6),
    (0.1875, 1.28e-6),
    (0.1758, 0.96e-6),
    (0.1055, 0.128e-6),
    (0.0, 4.706e-9),
];
/// As [`NMOS_IV_25C`] at 90 °C: on-current 157.3 µA, subthreshold points 0.1381 V and
/// 0.04102 V, threshold point 0.1246 V, off-current 89.76 nA (2 fins).
pub const NMOS_IV_90C: [(f64, f64); 5] = [
    (0.75, 78.65e-6),
    (0.1381, 1.28e-6),
    (0.1246, 0.96e-6),
    (0.04102, 0.128e-6),
    (0.0, 44.88e-9),
];
/// PMOS on-current per fin at |Vgs| = |Vds| = 0.75 V, 25 °C (126.9 µA for 2 fins), A.
pub const PMOS_ION_25C_A: f64 = 63.45e-6;
/// PMOS off-current per fin at |Vds| = 0.75 V, 25 °C (8.594 nA for 2 fins), A.
pub const PMOS_IOFF_25C_A: f64 = 4.297e-9;
/// FO4 stage delay (mean of rise and fall) at 25 °C: `(Vdd V, s)`, every third point of the
/// 0.02 V sweep between 0.50 and 1.00 V.
pub const FO4_DELAY_25C: [(f64, f64); 11] = [
    (0.50, 10.17e-12),
    (0.54, 9.078e-12),
    (0.60, 7.944e-12),
    (0.64, 7.401e-12),
    (0.70, 6.774e-12),
    (0.76, 6.319e-12),
    (0.80, 6.069e-12),
    (0.84, 5.864e-12),
    (0.90, 5.605e-12),
    (0.96, 5.398e-12),
    (1.00, 5.281e-12),
];
/// Supply at which the node file states its reference on-current, V (the data's supply).
pub const I_ON_REF_VDD_V: f64 = 0.75;
/// Gate length, m (PTM-MG 16 nm HP card).
pub const GATE_LENGTH_M: f64 = 20e-9;
/// Inversion-layer oxide thickness used for the ideal gate capacitance: the card's physical
/// oxide thickness `TOXP` (1.35 nm; its `EOT` of 0.8 nm is the electrical thickness that
/// BSIM-CMG corrects for the inversion charge centroid), m.
pub const T_INV_M: f64 = 1.35e-9;

fn law_at(p: &[f64], t_k: f64) -> DriveLaw {
    DriveLaw {
        vth_v: p[0],
        alpha: p[1],
        ekv_m: p[2],
        dibl_v_per_v: p[3],
        temperature_k: t_k,
    }
}

fn in_bounds(p: &[f64]) -> bool {
    (-0.2..0.6).contains(&p[0])
        && (0.8..2.5).contains(&p[1])
        && (0.8..6.0).contains(&p[2])
        && (0.0..0.4).contains(&p[3])
}

/// Closed-form `ln K`: mean of `ln I − ln S` over the current points.
fn ln_k(law: &DriveLaw, iv: &[(f64, f64)]) -> f64 {
    iv.iter()
        .map(|&(vg, i)| i.ln() - law.shape(vg, DC_VDS_V).ln())
        .sum::<f64>()
        / iv.len() as f64
}

/// Closed-form `ln A`: mean of `ln T − ln(V/S_eff)` over the delay points.
fn ln_a(law: &DriveLaw, pts: &[(f64, f64)]) -> f64 {
    pts.iter()
        .map(|&(v, t)| t.ln() - (v / law.eff_shape(v)).ln())
        .sum::<f64>()
        / pts.len() as f64
}

fn iv_cost(law: &DriveLaw, iv: &[(f64, f64)]) -> f64 {
    let k = ln_k(law, iv);
    iv.iter()
        .map(|&(vg, i)| (i.ln() - law.shape(vg, DC_VDS_V).ln() - k).powi(2))
        .sum()
}

fn delay_cost(law: &DriveLaw, pts: &[(f64, f64)]) -> f64 {
    let a = ln_a(law, pts);
    pts.iter()
        .map(|&(v, t)| (t.ln() - (v / law.eff_shape(v)).ln() - a).powi(2))
        .sum()
}

/// Everything the calibration produces.
#[derive(Debug, Clone)]
pub struct Finfet12Fit {
    /// The fitted law at 25 °C.
    pub law25: DriveLaw,
    /// Drive constant per fin at 25 °C, A/V^α.
    pub k25_a_per_fin: f64,
    /// FO4 scale `A` of `T = A·V/S_eff(V)` at 25 °C.
    pub fo4_scale: f64,
    /// Threshold at 90 °C (α, m, η held), V.
    pub vth90_v: f64,
    /// Drive constant per fin at 90 °C, A/V^α.
    pub k90_a_per_fin: f64,
    /// Threshold temperature coefficient, V/K.
    pub vth_temp_coeff_v_per_k: f64,
    /// Mobility exponent μ of `K ∝ T^−μ`.
    pub mobility_temp_exponent: f64,
    /// Threshold at 300 K (what the node file stores), V.
    pub vth300_v: f64,
    /// On-current per fin at 300 K and [`I_ON_REF_VDD_V`], A.
    pub i_on_ref_a_per_fin: f64,
    /// NMOS/PMOS on-current ratio at 0.75 V.
    pub n2p_drv_rt: f64,
    /// Ideal gate capacitance per fin, `ε_ox·Lg·W_fin/t_inv`, F.
    pub c_g_ideal_f_per_fin: f64,
    /// Input capacitance per fin (step 4), F.
    pub c_in_f_per_fin: f64,
    /// Fringe gate capacitance per fin, F.
    pub c_fringe_f_per_fin: f64,
    /// Stored drain capacitance per fin (`C_in` less the overlap the device adds), F.
    pub c_drain_f_per_fin: f64,
    /// Max |relative error| of the 25 °C current points.
    pub max_err_iv25: f64,
    /// Max |relative error| of the 90 °C current points.
    pub max_err_iv90: f64,
    /// Max |relative error| of the FO4 delays.
    pub max_err_fo4: f64,
}

/// Runs the calibration on the data constants of this module.
pub fn fit() -> Finfet12Fit {
    let iv = &NMOS_IV_25C[..];
    let pts = &FO4_DELAY_25C[..];
    let cost = |p: &[f64]| {
        if !in_bounds(p) {
            return 1e9;
        }
        let l = law_at(p, T25_K);
        iv_cost(&l, iv) + delay_cost(&l, pts)
    };
    let starts = [
        [0.25, 1.3, 2.0, 0.05],
        [0.20, 1.1, 1.6, 0.10],
        [0.30, 1.6, 2.4, 0.02],
        [0.15, 1.2, 1.5, 0.15],
    ];
    let p = crate::fit::multistart(&cost, &starts, 4000);
    let law25 = law_at(&p, T25_K);
    let k25 = ln_k(&law25, iv).exp();
    let fo4_scale = ln_a(&law25, pts).exp();

    // Step 2: the 90 °C threshold and drive constant, shape parameters held.
    let iv90 = &NMOS_IV_90C[..];
    let cost90 = |q: &[f64]| {
        let mut l = law25;
        l.vth_v = q[0];
        l.temperature_k = T90_K;
        iv_cost(&l, iv90)
    };
    let (q, _) = nelder_mead(&cost90, &[law25.vth_v], 0.1, 2000);
    let mut law90 = law25;
    law90.vth_v = q[0];
    law90.temperature_k = T90_K;
    let k90 = ln_k(&law90, iv90).exp();
    let dvth_dt = (law90.vth_v - law25.vth_v) / (T90_K - T25_K);
    let mu = -(k90 / k25).ln() / (T90_K / T25_K).ln();

    // 300 K values.
    let vth300 = law25.vth_v + dvth_dt * (300.0 - T25_K);
    let k300 = k25 * (300.0 / T25_K).powf(-mu);
    let mut law300 = law25;
    law300.vth_v = vth300;
    law300.temperature_k = 300.0;
    let i_on_ref = k300 * law300.on_shape(I_ON_REF_VDD_V);

    // Steps 3 and 4.
    let n2p = NMOS_IV_25C[0].1 / PMOS_ION_25C_A;
    let c_in = 2.0 * fo4_scale * k25 / (5.0 * (1.0 + n2p));
    let c_g_ideal = 3.9 * crate::wire::EPSILON_0_F_PER_M / T_INV_M * GATE_LENGTH_M * FIN_WIDTH_M;
    let c_fringe = (c_in - 1.2 * c_g_ideal) / 3.0;

    let rel = |model: f64, data: f64| (model / data - 1.0).abs();
    let max_err_iv25 = iv
        .iter()
        .map(|&(vg, i)| rel(k25 * law25.shape(vg, DC_VDS_V), i))
        .fold(0.0, f64::max);
    let max_err_iv90 = iv90
        .iter()
        .map(|&(vg, i)| rel(k90 * law90.shape(vg, DC_VDS_V), i))
        .fold(0.0, f64::max);
    let max_err_fo4 = pts
        .iter()
        .map(|&(v, t)| rel(fo4_scale * v / law25.eff_shape(v), t))
        .fold(0.0, f64::max);
    Finfet12Fit {
        law25,
        k25_a_per_fin: k25,
        fo4_scale,
        vth90_v: law90.vth_v,
        k90_a_per_fin: k90,
        vth_temp_coeff_v_per_k: dvth_dt,
        mobility_temp_exponent: mu,
        vth300_v: vth300,
        i_on_ref_a_per_fin: i_on_ref,
        n2p_drv_rt: n2p,
        c_g_ideal_f_per_fin: c_g_ideal,
        c_in_f_per_fin: c_in,
        c_fringe_f_per_fin: c_fringe,
        c_drain_f_per_fin: c_in - 0.2 * c_g_ideal,
        max_err_iv25,
        max_err_iv90,
        max_err_fo4,
    }
}

impl Finfet12Fit {
    /// Human-readable report of every fitted scalar and its error.
    pub fn report(&self) -> String {
        let l = &self.law25;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "finfet12 LVT calibration (PTM-MG 16 nm HP, HSPICE: {} current points at 25 C, {} at 90 C, {} FO4 delays)",
            NMOS_IV_25C.len(),
            NMOS_IV_90C.len(),
            FO4_DELAY_25C.len()
        );
        let _ = writeln!(s, "  vth_v (25 C)           = {:.6}", l.vth_v);
        let _ = writeln!(s, "  alpha                  = {:.6}", l.alpha);
        let _ = writeln!(
            s,
            "  ekv_m                  = {:.6}  (subthreshold n = {:.3}, swing {:.1} mV/dec at 300 K)",
            l.ekv_m,
            l.ekv_m / l.alpha,
            l.ekv_m / l.alpha * crate::law::thermal_voltage_v(300.0) * std::f64::consts::LN_10 * 1e3
        );
        let _ = writeln!(s, "  dibl_v_per_v           = {:.6}", l.dibl_v_per_v);
        let _ = writeln!(
            s,
            "  K (25 C)               = {:.6e} A/V^alpha per fin",
            self.k25_a_per_fin
        );
        let _ = writeln!(s, "  FO4 scale A            = {:.6e}", self.fo4_scale);
        let _ = writeln!(s, "  vth_v (90 C)           = {:.6}", self.vth90_v);
        let _ = writeln!(s, "  K (90 C)               = {:.6e}", self.k90_a_per_fin);
        let _ = writeln!(
            s,
            "  vth_temp_coeff_v_per_k = {:.6e}",
            self.vth_temp_coeff_v_per_k
        );
        let _ = writeln!(
            s,
            "  mobility_temp_exponent = {:.6}",
            self.mobility_temp_exponent
        );
        let _ = writeln!(s, "  vth_v (300 K)          = {:.6}", self.vth300_v);
        let _ = writeln!(
            s,
            "  i_on_ref_a_per_fin     = {:.6e}  (300 K, {I_ON_REF_VDD_V} V)",
            self.i_on_ref_a_per_fin
        );
        let _ = writeln!(s, "  n2p_drv_rt             = {:.6}", self.n2p_drv_rt);
        let _ = writeln!(
            s,
            "  c_g_ideal_f_per_fin    = {:.6e}",
            self.c_g_ideal_f_per_fin
        );
        let _ = writeln!(
            s,
            "  C_in per fin           = {:.6e} F",
            self.c_in_f_per_fin
        );
        let _ = writeln!(
            s,
            "  c_fringe_f_per_fin     = {:.6e}",
            self.c_fringe_f_per_fin
        );
        let _ = writeln!(
            s,
            "  c_drain_f_per_fin      = {:.6e}",
            self.c_drain_f_per_fin
        );
        let _ = writeln!(s, "fit errors (max |rel err|):");
        let _ = writeln!(
            s,
            "  NMOS currents 25 C: {:.2} %",
            self.max_err_iv25 * 100.0
        );
        let _ = writeln!(
            s,
            "  NMOS currents 90 C: {:.2} %",
            self.max_err_iv90 * 100.0
        );
        let _ = writeln!(
            s,
            "  FO4 delay 0.50-1.00 V: {:.2} %",
            self.max_err_fo4 * 100.0
        );
        let ioff = self.k25_a_per_fin * self.law25.off_shape(DC_VDS_V);
        let _ = writeln!(
            s,
            "  off-current 25 C: model {:.4e} A/fin, data {:.4e} ({:+.2} %); PMOS data {:.4e} A/fin (not fitted)",
            ioff,
            NMOS_IV_25C[4].1,
            (ioff / NMOS_IV_25C[4].1 - 1.0) * 100.0,
            PMOS_IOFF_25C_A
        );
        s
    }
}
