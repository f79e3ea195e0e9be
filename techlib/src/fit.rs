//! Fitting the FinFET drive law to measured delay and drive data.
//!
//! The `finfet7` LVT device is fitted to the source's 40-point FO4-chain delay curve and to the
//! ratio of the 8T cells' ON currents at 0.45 V and 0.30 V (both back gates tied):
//!
//! * delay model: `T_chain(V) = A · V / S_eff(V)` with `S_eff` the effective-current shape of
//!   [`crate::law::DriveLaw`] (the load capacitance is voltage independent);
//! * cost: squared log errors of the delay points (points at 0.25 V and above weighted 3×, the
//!   operating range), plus `40·ln²(r / r_target)` for the ON-current ratio `r = S(0.45)/S(0.30)`;
//!   `ln A` is eliminated in closed form (weighted mean of the log residuals);
//! * minimiser: Nelder–Mead over (Vth, α, m, η) from several starts, within physical bounds.
//!
//! The back-gate-off threshold shift is then solved (bisection) so that the drive ratio of
//! tied to back-gate-off at the STV supply equals the measured one, with the off state
//! conducting through one of the two channels.

use crate::law::DriveLaw;

/// Weight of the ON-current-ratio term against the delay points.
pub const ION_RATIO_WEIGHT: f64 = 40.0;
/// Weight of delay points at or above [`OPERATING_RANGE_MIN_V`].
pub const OPERATING_RANGE_WEIGHT: f64 = 3.0;
/// Lower end of the operating range of the delay fit, V.
pub const OPERATING_RANGE_MIN_V: f64 = 0.25;

/// Result of [`fit_delay_and_drive`].
#[derive(Debug, Clone, PartialEq)]
pub struct DelayFit {
    /// Fitted threshold at 300 K, V.
    pub vth_v: f64,
    /// Fitted velocity-saturation index α.
    pub alpha: f64,
    /// Fitted EKV smoothing factor m (subthreshold ideality n = m / α).
    pub ekv_m: f64,
    /// Fitted drain-induced barrier lowering, V of Vth per V of Vds.
    pub dibl_v_per_v: f64,
    /// `A` of `T_chain = A·V/S_eff(V)`, s·V^(α−1).
    pub scale_s: f64,
    /// Fitted ON-current ratio at the two supplies.
    pub ion_ratio: f64,
    /// Max relative delay error on `[0.25, 0.45]` V.
    pub max_err_operating: f64,
    /// Max relative delay error on `[0.15, 0.45]` V.
    pub max_err_to_015: f64,
    /// Max relative delay error over all points.
    pub max_err_all: f64,
}

impl DelayFit {
    /// The fitted law at 300 K.
    pub fn law(&self) -> DriveLaw {
        DriveLaw {
            vth_v: self.vth_v,
            alpha: self.alpha,
            ekv_m: self.ekv_m,
            dibl_v_per_v: self.dibl_v_per_v,
            temperature_k: 300.0,
        }
    }

    /// Modelled chain delay at `v`, s.
    pub fn delay_s(&self, v: f64) -> f64 {
        self.scale_s * v / self.law().eff_shape(v)
    }
}

fn law_of(p: &[f64]) -> DriveLaw {
    DriveLaw {
        vth_v: p[0],
        alpha: p[1],
        ekv_m: p[2],
        dibl_v_per_v: p[3],
        temperature_k: 300.0,
    }
}

fn in_bounds(p: &[f64]) -> bool {
    (0.05..0.45).contains(&p[0])
        && (0.8..3.0).contains(&p[1])
        && (0.8..6.0).contains(&p[2])
        && (0.0..0.3).contains(&p[3])
}

/// Weighted mean log residual `ln T − ln(V/S_eff)` (the optimal `ln A`).
fn log_scale(law: &DriveLaw, pts: &[(f64, f64)]) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for &(v, t) in pts {
        let w = if v >= OPERATING_RANGE_MIN_V {
            OPERATING_RANGE_WEIGHT
        } else {
            1.0
        };
        num += w * (t.ln() - (v / law.eff_shape(v)).ln());
        den += w;
    }
    num / den
}

fn cost(p: &[f64], pts: &[(f64, f64)], ion: (f64, f64, f64)) -> f64 {
    if !in_bounds(p) {
        return 1e9;
    }
    let law = law_of(p);
    let c = log_scale(&law, pts);
    let mut e = 0.0;
    for &(v, t) in pts {
        let w = if v >= OPERATING_RANGE_MIN_V {
            OPERATING_RANGE_WEIGHT
        } else {
            1.0
        };
        let r = t.ln() - (v / law.eff_shape(v)).ln() - c;
        e += w * r * r;
    }
    let (v_hi, v_lo, target) = ion;
    let ratio = law.on_shape(v_hi) / law.on_shape(v_lo);
    e + ION_RATIO_WEIGHT * (ratio / target).ln().powi(2)
}

/// Nelder–Mead minimisation of `f` from `x0` (standard coefficients 1, 2, 0.5, 0.5).
pub fn nelder_mead(
    f: &dyn Fn(&[f64]) -> f64,
    x0: &[f64],
    step: f64,
    iterations: usize,
) -> (Vec<f64>, f64) {
    let n = x0.len();
    let mut pts: Vec<Vec<f64>> = vec![x0.to_vec()];
    for i in 0..n {
        let mut y = x0.to_vec();
        y[i] = y[i] * (1.0 + step) + 0.01;
        pts.push(y);
    }
    let mut vals: Vec<f64> = pts.iter().map(|p| f(p)).collect();
    for _ in 0..iterations {
        let mut idx: Vec<usize> = (0..=n).collect();
        idx.sort_by(|&a, &b| vals[a].total_cmp(&vals[b]));
        pts = idx.iter().map(|&i| pts[i].clone()).collect();
        vals = idx.iter().map(|&i| vals[i]).collect();
        let cen: Vec<f64> = (0..n)
            .map(|j| pts[..n].iter().map(|p| p[j]).sum::<f64>() / n as f64)
            .collect();
        let along =
            |t: f64| -> Vec<f64> { (0..n).map(|j| cen[j] + t * (pts[n][j] - cen[j])).collect() };
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
            let xc = along(0.5);
            let fc = f(&xc);
            if fc < vals[n] {
                pts[n] = xc;
                vals[n] = fc;
            } else {
                for i in 1..=n {
                    pts[i] = (0..n)
                        .map(|j| pts[0][j] + 0.5 * (pts[i][j] - pts[0][j]))
                        .collect();
                    vals[i] = f(&pts[i]);
                }
            }
        }
    }
    let best = (0..=n)
        .min_by(|&a, &b| vals[a].total_cmp(&vals[b]))
        .unwrap_or(0);
    (pts[best].clone(), vals[best])
}

/// [`nelder_mead`] from each of `starts` (first step 0.1), restarted once from its optimum
/// with step 0.05 to escape a collapsed simplex, `iterations` each: the parameters with the
/// lowest `f` over all starts (the first start when every value is NaN).
pub fn multistart(f: &dyn Fn(&[f64]) -> f64, starts: &[[f64; 4]], iterations: usize) -> Vec<f64> {
    let mut best: Option<(Vec<f64>, f64)> = None;
    for s in starts {
        let (mut p, mut v) = nelder_mead(f, s, 0.1, iterations);
        let (p2, v2) = nelder_mead(f, &p, 0.05, iterations);
        if v2 < v {
            p = p2;
            v = v2;
        }
        if best.as_ref().is_none_or(|b| v < b.1) {
            best = Some((p, v));
        }
    }
    best.map(|b| b.0)
        .unwrap_or_else(|| starts.first().map(|s| s.to_vec()).unwrap_or_default())
}

/// Fits the drive law to chain delays `(vdd_v, delay_s)` and to the ON-current ratio
/// `ion = (v_hi, v_lo, I(v_hi)/I(v_lo))`.
pub fn fit_delay_and_drive(pts: &[(f64, f64)], ion: (f64, f64, f64)) -> DelayFit {
    let starts = [
        [0.18, 1.6, 2.2, 0.05],
        [0.22, 1.3, 3.0, 0.1],
        [0.15, 2.0, 2.0, 0.0],
        [0.25, 1.1, 1.6, 0.12],
    ];
    let f = |p: &[f64]| cost(p, pts, ion);
    let p = multistart(&f, &starts, 3000);
    let law = law_of(&p);
    let scale_s = log_scale(&law, pts).exp();
    let err = |lo: f64| {
        pts.iter()
            .filter(|(v, _)| *v >= lo - 1e-12)
            .map(|&(v, t)| (scale_s * v / law.eff_shape(v) / t - 1.0).abs())
            .fold(0.0, f64::max)
    };
    DelayFit {
        vth_v: p[0],
        alpha: p[1],
        ekv_m: p[2],
        dibl_v_per_v: p[3],
        scale_s,
        ion_ratio: law.on_shape(ion.0) / law.on_shape(ion.1),
        max_err_operating: err(OPERATING_RANGE_MIN_V),
        max_err_to_015: err(0.15),
        max_err_all: err(0.0),
    }
}

/// Solves the back-gate-off threshold shift ΔVth so that
/// `S_tied(V, V) / (fraction · S(V, V; Vth + ΔVth)) = ratio` (bisection on [0, 1] V).
pub fn solve_back_gate_shift(law: &DriveLaw, vdd_v: f64, channel_fraction: f64, ratio: f64) -> f64 {
    let tied = law.on_shape(vdd_v);
    let r = |dv: f64| {
        let mut l = *law;
        l.vth_v += dv;
        tied / (channel_fraction * l.on_shape(vdd_v))
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if r(mid) < ratio {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Parses the machine-readable `VDD,Tmin` block of the FinFET reference notes
/// (`vdd_v,delay_ps` pairs separated by whitespace, inside the fenced block that follows the line
/// containing "Machine-readable copy"). Returns `(vdd_v, delay_s)`.
pub fn parse_delay_block(text: &str) -> Result<Vec<(f64, f64)>, String> {
    let start = text
        .find("Machine-readable copy")
        .ok_or("no line containing 'Machine-readable copy'")?;
    let rest = &text[start..];
    let open = rest
        .find("```")
        .ok_or("no fenced block after 'Machine-readable copy'")?;
    let body = &rest[open + 3..];
    let close = body.find("```").ok_or("unterminated fenced block")?;
    let mut out = Vec::new();
    for tok in body[..close].split_whitespace() {
        let (a, b) = tok
            .split_once(',')
            .ok_or_else(|| format!("'{tok}': expected vdd,ps"))?;
        let v: f64 = a.parse().map_err(|_| format!("'{tok}': bad vdd"))?;
        let t: f64 = b.parse().map_err(|_| format!("'{tok}': bad delay"))?;
        out.push((v, t * 1e-12));
    }
    if out.is_empty() {
        return Err("empty delay block".into());
    }
    Ok(out)
}
