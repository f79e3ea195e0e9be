//! Fitting of the global calibration factors ([`Calib`]) against reference results.
//!
//! Planar: the factors minimise `Σ_q r_q + 10·max(0, r_q − 1) + λ·Σ_k (ln k)²`,
//! `r_q = MAPE_q / bound_q`, over the CACTI 7 rows for the four checked quantities q (area, read
//! energy, leakage per bank, access time; bounds 10/10/10/15 %), by Nelder–Mead in log space with
//! the full model (organisation search included) evaluated at every step (the minimiser is
//! `techlib::fit::nelder_mead`). FinFET: see [`fit_finfet`].
//!
//! The last term is a weak prior centred on the physics (every factor 1), [`PRIOR_WEIGHT`]: a
//! factor whose term the reference totals barely constrain (the subarray decoder, wordline and
//! column-mux energy, a few percent of an access in CACTI's own breakdown) stays at what the
//! structure computes instead of drifting towards zero along a flat valley of the objective,
//! while a factor the data do pin moves as far as they require.

use super::calib::{with_finfet_scalars, Calib, FinfetScalars, SramAccuracy};
use super::reference::{mapes, run_rows, CactiRow, ReferenceError, TechCache};
use std::cell::RefCell;

/// Bounds of the accuracy test (percent): area, read energy, leakage, access time.
pub const MAPE_BOUNDS: [f64; 4] = [10.0, 10.0, 10.0, 15.0];

/// Weight λ of the prior `λ·Σ (ln k)²` on the planar factors. One unit of `(ln k)²` (a factor
/// of e) costs as much as 0.02 percentage points of one quantity's MAPE would (each percentage
/// point is 0.1 of the objective at a 10 % bound).
pub const PRIOR_WEIGHT: f64 = 0.002;

fn planar_from(x: &[f64], base: &Calib) -> Calib {
    Calib {
        periph_area: x[0].exp(),
        route_pitch: x[1].exp(),
        delay_array: x[2].exp(),
        delay_route: x[3].exp(),
        energy_array: x[4].exp(),
        energy_route: x[5].exp(),
        leakage_periph: x[6].exp(),
        energy_bitline: x[7].exp(),
        energy_top: x[8].exp(),
        energy_hp: x[9].exp(),
        energy_lstp: x[10].exp(),
        energy_lop: x[11].exp(),
        io: x[12].exp(),
        leakage_route: x[13].exp(),
        energy_addr_dist: x[14].exp(),
        route_pitch_top: x[15].exp(),
        leakage_cell: x[16].exp(),
        ..*base
    }
}

/// Result of a planar fit.
#[derive(Debug, Clone, Copy)]
pub struct PlanarFit {
    /// The fitted factors (those the fit does not touch copied from the start point).
    pub calib: Calib,
    /// MAPEs (percent) at the fitted factors: area, read energy, leakage, access time.
    pub mapes: (f64, f64, f64, f64),
    /// Objective evaluations the optimiser spent.
    pub evaluations: usize,
}

/// Fit the planar factors to `rows`, starting from `start`.
pub fn fit_planar(
    rows: &[CactiRow],
    start: &Calib,
    iters: usize,
) -> Result<PlanarFit, ReferenceError> {
    let cache = RefCell::new(TechCache::default());
    let evals = RefCell::new(0usize);
    let err: RefCell<Option<ReferenceError>> = RefCell::new(None);
    let objective = |x: &[f64]| -> f64 {
        *evals.borrow_mut() += 1;
        let c = planar_from(x, start);
        match run_rows(rows, &c, &mut cache.borrow_mut()) {
            Ok(res) => {
                let m = mapes(&res);
                let r = [
                    m.0 / MAPE_BOUNDS[0],
                    m.1 / MAPE_BOUNDS[1],
                    m.2 / MAPE_BOUNDS[2],
                    m.3 / MAPE_BOUNDS[3],
                ];
                // the sum of the bound-relative MAPEs, plus a hinge on any above its bound,
                // plus the prior
                r.iter().map(|q| q + 10.0 * (q - 1.0).max(0.0)).sum::<f64>()
                    + PRIOR_WEIGHT * x.iter().map(|v| v * v).sum::<f64>()
            }
            Err(e) => {
                err.borrow_mut().get_or_insert(e);
                f64::INFINITY
            }
        }
    };
    let x0 = [
        start.periph_area.ln(),
        start.route_pitch.ln(),
        start.delay_array.ln(),
        start.delay_route.ln(),
        start.energy_array.ln(),
        start.energy_route.ln(),
        start.leakage_periph.ln(),
        start.energy_bitline.ln(),
        start.energy_top.ln(),
        start.energy_hp.ln(),
        start.energy_lstp.ln(),
        start.energy_lop.ln(),
        start.io.ln(),
        start.leakage_route.ln(),
        start.energy_addr_dist.ln(),
        start.route_pitch_top.ln(),
        start.leakage_cell.ln(),
    ];
    // The minimiser builds its first simplex by scaling each coordinate by (1 + step) and
    // adding 0.01, so a factor near 1 (log near 0) would barely move: it works on
    // u = ln(factor) + 1, where every factor starts with a log-step of about `step`.
    let shifted = |u: &[f64]| -> f64 {
        let x: Vec<f64> = u.iter().map(|v| v - 1.0).collect();
        objective(&x)
    };
    // restart the simplex around the best point: the objective is piecewise smooth (the
    // organisation search switches discretely), so a fresh simplex escapes shallow traps;
    // stop once a restart no longer improves the objective
    let mut u: Vec<f64> = x0.iter().map(|v| v + 1.0).collect();
    let mut best = f64::INFINITY;
    for step in [0.5, 0.25, 0.1, 0.25, 0.1, 0.05] {
        let (un, fv) = techlib::fit::nelder_mead(&shifted, &u, step, iters);
        u = un;
        if fv > best - 1e-4 && step <= 0.1 {
            break;
        }
        best = best.min(fv);
    }
    let x: Vec<f64> = u.iter().map(|v| v - 1.0).collect();
    if let Some(e) = err.into_inner() {
        return Err(e);
    }
    let calib = planar_from(&x, start);
    let res = run_rows(rows, &calib, &mut cache.borrow_mut())?;
    Ok(PlanarFit {
        calib,
        mapes: mapes(&res),
        evaluations: evals.into_inner(),
    })
}

fn calib_section(name: &str, c: &Calib, note: &str) -> String {
    format!(
        "# {note}\n[{name}]\nperiph_area = {}\nroute_pitch = {}\nroute_pitch_top = {}\necc_bits_per_data_bit = {}\ndelay_array = {}\ndelay_route = {}\nenergy_array = {}\nenergy_bitline = {}\nenergy_route = {}\nenergy_addr_dist = {}\nenergy_top = {}\nenergy_hp = {}\nenergy_lstp = {}\nenergy_lop = {}\nio = {}\nleakage_periph = {}\nleakage_route = {}\nleakage_cell = {}\nlevel_shift_j_per_bit = {:e}\n",
        c.periph_area,
        c.route_pitch,
        c.route_pitch_top,
        c.ecc_bits_per_data_bit,
        c.delay_array,
        c.delay_route,
        c.energy_array,
        c.energy_bitline,
        c.energy_route,
        c.energy_addr_dist,
        c.energy_top,
        c.energy_hp,
        c.energy_lstp,
        c.energy_lop,
        c.io,
        c.leakage_periph,
        c.leakage_route,
        c.leakage_cell,
        c.level_shift_j_per_bit
    )
}

fn accuracy_section(name: &str, a: &SramAccuracy) -> String {
    format!(
        "[accuracy.{name}]\narea_mape_pct = {}\nread_energy_mape_pct = {}\nleakage_mape_pct = {}\naccess_time_mape_pct = {}\nrows = {}\n",
        a.area_mape_pct, a.read_energy_mape_pct, a.leakage_mape_pct, a.access_time_mape_pct, a.rows
    )
}

/// The calibration file text: planar factors fitted on all rows and on the training split, the
/// FinFET scalars with their fit errors, and the measured accuracy (all rows; held-out rows with
/// the training-split factors).
pub fn calib_toml(
    planar: &Calib,
    planar_train: &Calib,
    finfet: &FinfetScalars,
    all_rows: &SramAccuracy,
    held_out: &SramAccuracy,
) -> String {
    format!(
        "# Global scale factors of the SRAM model (models/src/sram/calib.rs), written by the fit code.\n# Regenerate: cargo run --release -p models --example sram_fit -- --write\n\n{}\n{}\n# FinFET scalars on top of [planar], fitted to the MRF/SRF rows (finfet7-and-sram-data.md §4)\n[finfet]\nenergy_scale = {}\nmrf_energy_structural_err_pct = {}\nleakage_scale = {}\nlevel_shift_j_per_bit = {:e}\nmrf_energy_err_pct = {}\nmrf_leakage_err_pct = {}\nsrf_energy_err_pct = {}\nsrf_leakage_err_pct = {}\n\n# MAPE (percent) against cacti7_train.csv: [planar] on all rows, [planar_train] on the held-out rows\n{}\n{}",
        calib_section(
            "planar",
            planar,
            &format!(
                "fitted to all {} rows of cacti7_train.csv",
                all_rows.rows
            )
        ),
        calib_section(
            "planar_train",
            planar_train,
            &format!(
                "fitted to the training split only ({} rows held out: every {}th row)",
                held_out.rows,
                super::reference::HELD_OUT_EVERY
            )
        ),
        finfet.energy_scale,
        finfet.mrf_energy_structural_err_pct,
        finfet.leakage_scale,
        finfet.level_shift_j_per_bit,
        finfet.mrf_energy_err_pct,
        finfet.mrf_leakage_err_pct,
        finfet.srf_energy_err_pct,
        finfet.srf_leakage_err_pct,
        accuracy_section("all_rows", all_rows),
        accuracy_section("held_out", held_out),
    )
}

/// One register-file calibration point of the FinFET node (finfet7-and-sram-data.md §4).
#[derive(Debug, Clone, Copy)]
pub struct RfPoint {
    /// Register file name (`MRF`, `SRF`).
    pub label: &'static str,
    /// Operating point name (`stv`, `ntv`).
    pub op: &'static str,
    /// Capacity in bytes.
    pub capacity_bytes: u64,
    /// Published energy per 128-byte access (pJ).
    pub access_pj: f64,
    /// Published leakage power of the whole register file (mW).
    pub leakage_mw: f64,
}

/// SIMT lanes of the register files: a 128-byte entry is one 4-byte register per lane, each
/// lane's slice of every bank sitting by its datapath (see the lane-sliced storage in the
/// module doc of [`super`]).
pub const RF_LANES: u32 = 32;

/// The MRF (256 KB, STV) and SRF (224 KB, NTV) rows: 24 banks, 128-B entries, 8T cells, one
/// read and one write port, back gates tied; modelled as [`RF_LANES`] lane slices.
pub const RF_POINTS: [RfPoint; 2] = [
    RfPoint {
        label: "MRF",
        op: "stv",
        capacity_bytes: 256 * 1024,
        access_pj: 14.98,
        leakage_mw: 33.8,
    },
    RfPoint {
        label: "SRF",
        op: "ntv",
        capacity_bytes: 224 * 1024,
        access_pj: 7.03,
        leakage_mw: 13.4,
    },
];

/// The register-file spec of an [`RfPoint`] (the whole structure; evaluate it with
/// [`super::evaluate_sliced`] and [`RF_LANES`]).
pub fn rf_spec(p: &RfPoint) -> super::SramSpec {
    super::SramSpec {
        capacity_bytes: p.capacity_bytes,
        block_bytes: 128,
        rw_ports: 0,
        read_ports: 1,
        write_ports: 1,
        banks: 24,
        cell: super::CellKind::EightT,
        objective: super::Objective::default(),
    }
}

/// The finfet7 technology of an [`RfPoint`] (LVT devices, 300 K, back gates tied).
pub fn rf_tech(p: &RfPoint) -> Result<super::SramTech, super::SramError> {
    // the fit's data are the finfet7 register-file rows: this node, whatever is studied
    let point =
        techlib::ResolvedPoint::resolve("finfet7", Some("lvt"), None, Some(p.op), Some(300.0))
            .map_err(|e| super::SramError::Tech(e.to_string()))?;
    let vdd = point
        .node()
        .operating_point(p.op)
        .map_err(|e| super::SramError::Tech(e.to_string()))?
        .vdd_v;
    let point = point
        .with_vdd_v(vdd)
        .map_err(|e| super::SramError::Tech(e.to_string()))?;
    super::sram_tech(&super::TechRequest::new(point))
}

/// Result of the FinFET fit: the scalars (with their errors) and, per point, (model pJ,
/// model mW).
#[derive(Debug, Clone)]
pub struct FinfetFit {
    /// The fitted scalars and their recorded errors.
    pub scalars: FinfetScalars,
    /// Each calibration point with the model's access energy (pJ) and leakage (mW) after the fit.
    pub points: Vec<(RfPoint, f64, f64)>,
}

/// Fit the FinFET scalars to [`RF_POINTS`] on top of the planar structural factors `planar`
/// (the same structure and factors as the planar nodes, on the finfet7 device, cell and wire
/// data). Three scalars are fitted: a common leakage multiplier γ (least squares in log space
/// over both rows: the NTV/STV leakage ratio itself comes from the device's DIBL and
/// subthreshold law), a common dynamic-energy multiplier α (from the MRF row, at the nominal
/// supply) and the level-shifter energy per read bit `e_ls` of arrays below the nominal supply
/// (from the SRF row: the part of its energy the C·V² structure does not give). The MRF error of
/// the structure alone (α = 1) is recorded too. The organisation search runs at every step; the
/// fit iterates until the scalars settle.
pub fn fit_finfet(planar: &Calib) -> Result<FinfetFit, super::SramError> {
    let techs: Vec<_> = RF_POINTS.iter().map(rf_tech).collect::<Result<_, _>>()?;
    let mut s = FinfetScalars {
        energy_scale: 1.0,
        mrf_energy_structural_err_pct: 0.0,
        leakage_scale: 1.0,
        level_shift_j_per_bit: 0.0,
        mrf_energy_err_pct: 0.0,
        mrf_leakage_err_pct: 0.0,
        srf_energy_err_pct: 0.0,
        srf_leakage_err_pct: 0.0,
    };
    let run = |s: &FinfetScalars| -> Result<Vec<super::SramResult>, super::SramError> {
        let c = with_finfet_scalars(planar, s);
        RF_POINTS
            .iter()
            .zip(&techs)
            .map(|(p, t)| super::evaluate_sliced_with(&rf_spec(p), RF_LANES, t, &c))
            .collect()
    };
    let shifted_bits = |p: &RfPoint, t: &super::SramTech| {
        RF_LANES as f64
            * (rf_spec(p).block_bytes / RF_LANES as u64) as f64
            * 8.0
            * super::array_level_shift_gap(t)
    };
    let structural = run(&s)?;
    s.mrf_energy_structural_err_pct =
        100.0 * (structural[0].read_energy_j * 1e12 / RF_POINTS[0].access_pj - 1.0);
    for _ in 0..8 {
        let res = run(&s)?;
        let mut leak_log = 0.0;
        for (p, r) in RF_POINTS.iter().zip(&res) {
            leak_log += (p.leakage_mw * 1e-3 / r.leakage_w).ln();
        }
        s.leakage_scale *= (leak_log / RF_POINTS.len() as f64).exp();
        // E_i = α·D_i + e_ls·b_i, D_i the structural energy at α = 1 and b_i the shifted bits
        let d: Vec<f64> = res
            .iter()
            .zip(&techs)
            .zip(&RF_POINTS)
            .map(|((r, t), p)| {
                (r.read_energy_j - s.level_shift_j_per_bit * shifted_bits(p, t)) / s.energy_scale
            })
            .collect();
        s.energy_scale = RF_POINTS[0].access_pj * 1e-12 / d[0];
        let b1 = shifted_bits(&RF_POINTS[1], &techs[1]);
        s.level_shift_j_per_bit = if b1 > 0.0 {
            ((RF_POINTS[1].access_pj * 1e-12 - s.energy_scale * d[1]) / b1).max(0.0)
        } else {
            0.0
        };
    }
    let res = run(&s)?;
    let err = |m: f64, r: f64| 100.0 * (m / r - 1.0);
    s.mrf_energy_err_pct = err(res[0].read_energy_j * 1e12, RF_POINTS[0].access_pj);
    s.mrf_leakage_err_pct = err(res[0].leakage_w * 1e3, RF_POINTS[0].leakage_mw);
    s.srf_energy_err_pct = err(res[1].read_energy_j * 1e12, RF_POINTS[1].access_pj);
    s.srf_leakage_err_pct = err(res[1].leakage_w * 1e3, RF_POINTS[1].leakage_mw);
    let points = RF_POINTS
        .iter()
        .zip(&res)
        .map(|(p, r)| (*p, r.read_energy_j * 1e12, r.leakage_w * 1e3))
        .collect();
    Ok(FinfetFit { scalars: s, points })
}
