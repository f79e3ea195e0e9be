//! Fitting of the global calibration factors ([`Calib`]) against reference results.
//!
//! Planar: the factors minimise `Σ_q MAPE_q / bound_q` over the CACTI 7 rows for the four
//! checked quantities q (area, read energy, leakage per bank, access time; bounds 15/15/15/20 %),
//! by Nelder–Mead in log space with the full model (organisation search included) evaluated at
//! every step. FinFET: see [`fit_finfet`].

use super::calib::Calib;
use super::reference::{mapes, run_rows, CactiRow, TechCache};

/// Bounds of the accuracy test (percent): area, read energy, leakage, access time.
pub const MAPE_BOUNDS: [f64; 4] = [15.0, 15.0, 15.0, 20.0];

/// Minimise `f` over `x0.len()` dimensions by Nelder–Mead (standard coefficients), starting
/// from a simplex of relative size `step`. Returns (x, f(x)).
pub fn nelder_mead(
    f: &mut dyn FnMut(&[f64]) -> f64,
    x0: &[f64],
    step: f64,
    iters: usize,
) -> (Vec<f64>, f64) {
    let n = x0.len();
    let mut pts: Vec<Vec<f64>> = vec![x0.to_vec()];
    for i in 0..n {
        let mut p = x0.to_vec();
        p[i] += step;
        pts.push(p);
    }
    let mut vals: Vec<f64> = pts.iter().map(|p| f(p)).collect();
    for _ in 0..iters {
        let mut idx: Vec<usize> = (0..=n).collect();
        idx.sort_by(|&a, &b| vals[a].total_cmp(&vals[b]));
        pts = idx.iter().map(|&i| pts[i].clone()).collect();
        vals = idx.iter().map(|&i| vals[i]).collect();
        if (vals[n] - vals[0]).abs() < 1e-9 * (1.0 + vals[0].abs()) {
            break;
        }
        let centroid: Vec<f64> = (0..n)
            .map(|j| pts[..n].iter().map(|p| p[j]).sum::<f64>() / n as f64)
            .collect();
        let along = |t: f64| -> Vec<f64> {
            (0..n)
                .map(|j| centroid[j] + t * (pts[n][j] - centroid[j]))
                .collect()
        };
        let xr = along(-1.0);
        let fr = f(&xr);
        if fr < vals[0] {
            let xe = along(-2.0);
            let fe = f(&xe);
            if fe < fr {
                pts[n] = xe;
                vals[n] = fe;
            } else {
                pts[n] = xr;
                vals[n] = fr;
            }
        } else if fr < vals[n - 1] {
            pts[n] = xr;
            vals[n] = fr;
        } else {
            let xc = if fr < vals[n] {
                along(-0.5)
            } else {
                along(0.5)
            };
            let fc = f(&xc);
            if fc < vals[n].min(fr) {
                pts[n] = xc;
                vals[n] = fc;
            } else {
                for i in 1..=n {
                    let p: Vec<f64> = (0..n)
                        .map(|j| pts[0][j] + 0.5 * (pts[i][j] - pts[0][j]))
                        .collect();
                    vals[i] = f(&p);
                    pts[i] = p;
                }
            }
        }
    }
    let best = (0..=n)
        .min_by(|&a, &b| vals[a].total_cmp(&vals[b]))
        .unwrap_or(0);
    (pts[best].clone(), vals[best])
}

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
        ..*base
    }
}

/// Result of a planar fit.
#[derive(Debug, Clone, Copy)]
pub struct PlanarFit {
    pub calib: Calib,
    /// MAPEs (percent) at the fitted factors: area, read energy, leakage, access time.
    pub mapes: (f64, f64, f64, f64),
    pub evaluations: usize,
}

/// Fit the planar factors to `rows`, starting from `start`.
pub fn fit_planar(rows: &[CactiRow], start: &Calib, iters: usize) -> Result<PlanarFit, String> {
    let mut cache = TechCache::default();
    let mut evals = 0usize;
    let mut err: Option<String> = None;
    let mut objective = |x: &[f64]| -> f64 {
        evals += 1;
        let c = planar_from(x, start);
        match run_rows(rows, &c, &mut cache) {
            Ok(res) => {
                let m = mapes(&res);
                m.0 / MAPE_BOUNDS[0]
                    + m.1 / MAPE_BOUNDS[1]
                    + m.2 / MAPE_BOUNDS[2]
                    + m.3 / MAPE_BOUNDS[3]
            }
            Err(e) => {
                err.get_or_insert(e);
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
    ];
    // restart the simplex around the best point: the objective is piecewise smooth (the
    // organisation search switches discretely), so a fresh simplex escapes shallow traps
    let mut x = x0.to_vec();
    for step in [0.5, 0.25, 0.1] {
        let (xn, _) = nelder_mead(&mut objective, &x, step, iters);
        x = xn;
    }
    if let Some(e) = err {
        return Err(e);
    }
    let calib = planar_from(&x, start);
    let res = run_rows(rows, &calib, &mut cache)?;
    Ok(PlanarFit {
        calib,
        mapes: mapes(&res),
        evaluations: evals,
    })
}

/// The calibration file text for the given planar and FinFET factors.
pub fn calib_toml(planar: &Calib, finfet: &Calib, planar_note: &str, finfet_note: &str) -> String {
    let sect = |name: &str, c: &Calib, note: &str| {
        format!(
            "# {note}\n[{name}]\nperiph_area = {}\nroute_pitch = {}\ndelay_array = {}\ndelay_route = {}\nenergy_array = {}\nenergy_bitline = {}\nenergy_route = {}\nenergy_top = {}\nenergy_hp = {}\nenergy_lstp = {}\nenergy_lop = {}\nio = {}\nleakage_periph = {}\nleakage_cell = {}\nlevel_shift_j_per_bit = {:e}\n",
            c.periph_area,
            c.route_pitch,
            c.delay_array,
            c.delay_route,
            c.energy_array,
            c.energy_bitline,
            c.energy_route,
            c.energy_top,
            c.energy_hp,
            c.energy_lstp,
            c.energy_lop,
            c.io,
            c.leakage_periph,
            c.leakage_cell,
            c.level_shift_j_per_bit
        )
    };
    format!(
        "# Global scale factors of the SRAM model (models/src/sram/calib.rs), fitted by code.\n# Regenerate: cargo run --release -p models --example sram_fit -- --write\n\n{}\n{}",
        sect("planar", planar, planar_note),
        sect("finfet", finfet, finfet_note)
    )
}

/// One register-file calibration point of the FinFET node (finfet7-and-sram-data.md §4).
#[derive(Debug, Clone, Copy)]
pub struct RfPoint {
    pub label: &'static str,
    /// Operating point name (`stv`, `ntv`).
    pub op: &'static str,
    pub capacity_bytes: u64,
    pub access_pj: f64,
    pub leakage_mw: f64,
}

/// The MRF (256 KB, STV) and SRF (224 KB, NTV) rows: 24 banks, 128-B entries, 8T cells, one
/// read and one write port, back gates tied.
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

/// The register-file spec of an [`RfPoint`].
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
    let vdd = super::operating_point_vdd("finfet7", p.op)?;
    super::sram_tech(&super::TechRequest {
        node: "finfet7".into(),
        flavour: super::Flavour::Lvt,
        vdd_v: Some(vdd),
        temperature_k: Some(300.0),
        back_gate: super::BackGate::Vdd,
    })
}

/// Result of the FinFET fit: the factors and, per point, (model pJ, model mW).
#[derive(Debug, Clone)]
pub struct FinfetFit {
    pub calib: Calib,
    pub points: Vec<(RfPoint, f64, f64)>,
}

/// Fit the FinFET factors to [`RF_POINTS`]. The model structure is the planar one with unity
/// factors (pure physics on the finfet7 device, cell and wire data); three scalars are fitted:
/// a common leakage multiplier γ (least squares in log space over both rows: the NTV/STV
/// leakage ratio itself comes from the device's DIBL and subthreshold law), a common
/// dynamic-energy multiplier α and the level-shifter energy per read bit `e_ls` of arrays below
/// the nominal supply (solved exactly from the two access energies). The organisation search
/// runs at every step; the fit iterates until the factors settle.
pub fn fit_finfet() -> Result<FinfetFit, String> {
    let techs: Vec<_> = RF_POINTS
        .iter()
        .map(rf_tech)
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let mut c = Calib::default();
    for _ in 0..8 {
        let mut leak_log = 0.0;
        let mut dyn_e = [0.0; 2];
        let mut ls_bits = [0.0; 2];
        for (i, (p, t)) in RF_POINTS.iter().zip(&techs).enumerate() {
            let r = super::evaluate_with(&rf_spec(p), t, &c).map_err(|e| e.to_string())?;
            leak_log += (p.leakage_mw * 1e-3 / r.leakage_w).ln();
            let ls = 1024.0 * super::array_level_shift_gap(t);
            ls_bits[i] = ls;
            dyn_e[i] = r.read_energy_j - c.level_shift_j_per_bit * ls;
        }
        let gamma = (leak_log / 2.0).exp();
        c.leakage_cell *= gamma;
        c.leakage_periph *= gamma;
        // E_i = α'·D_i + e_ls·b_i with D_i the current dynamic energy (already scaled by α)
        let (p0, p1) = (&RF_POINTS[0], &RF_POINTS[1]);
        let (t0, t1) = (p0.access_pj * 1e-12, p1.access_pj * 1e-12);
        let (alpha, e_ls) = if ls_bits[0] == 0.0 && ls_bits[1] > 0.0 {
            let a = t0 / dyn_e[0];
            (a, ((t1 - a * dyn_e[1]) / ls_bits[1]).max(0.0))
        } else {
            (t0 / dyn_e[0], 0.0)
        };
        c.energy_array *= alpha;
        c.energy_bitline *= alpha;
        c.energy_route *= alpha;
        c.energy_top *= alpha;
        c.level_shift_j_per_bit = e_ls;
    }
    let mut points = Vec::new();
    for (p, t) in RF_POINTS.iter().zip(&techs) {
        let r = super::evaluate_with(&rf_spec(p), t, &c).map_err(|e| e.to_string())?;
        points.push((*p, r.read_energy_j * 1e12, r.leakage_w * 1e3));
    }
    Ok(FinfetFit { calib: c, points })
}
