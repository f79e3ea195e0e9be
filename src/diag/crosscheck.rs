//! The end-to-end cross-check of analytical-model §5: one kernel family (the fp32-add body)
//! swept over grids `G = 1 + k·n_mp` and block shapes that put each limiter in charge (warp
//! slots / barrier buffer by b, shared memory by s, the register file by r), each shape taken
//! from the earlier tests so that its N_slot is measured. The simulated kernel time is the span
//! of the in-kernel clocks (earliest block start to latest block end, the blocks not synced);
//! the prediction is `T(g, b)` of §2.4 with g = ⌈G/n_mp⌉, once with the **measured** fu(c) and
//! N_slot (testing the block-scheduler model) and once with the **configured** model (fu of
//! §2.3 with the configured units and N_slot of §2.2 with the configured buffers; testing the
//! whole chain). `T_cycles = a·T + C0` is fitted by least squares; reported: the slope `a`
//! against `N_period·P1`, Pearson r, MAPE and the largest error of the fit, and Kendall τ
//! between T and T_cycles.
//!
//! Every shape runs with at least the timed kernel's own register allocation, and its N_slot is
//! measured for that shape with the `measure_nslot` probe.
//!
//! fu(c) beyond the largest block measured (c > L(T/B)/w) grows linearly from the last point,
//! the form §2.3 gives a saturated unit.

use super::configured;
use super::functional_units::Found as Fu;
use super::harness::{self, Extra, RunSpec};
use super::kernel_limits::Found as Limits;
use super::kernels::{fu_kernel, Class};
use super::nslot::{Prober, Shape};
use super::regfile_buffer::Found as Rf;
use super::shmem_buffer::Found as Shm;
use super::warpslot_buffer::{Found as Wsb, SEARCH_CAP};
use super::{Suite, Thresholds};
use rayon::prelude::*;
use sim::config::GpuConfig;

/// One sweep point.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Point {
    /// Blocks in the grid.
    pub grid_blocks: u32,
    /// Warps per block.
    pub b: u32,
    /// Shared bytes per block.
    pub s: u32,
    /// Registers per thread.
    pub r: u32,
    /// Measured N_slot used.
    pub n_slot: u32,
    /// Waves of N_slot blocks on the busiest MP, `⌈⌈G/n_mp⌉/N_slot⌉`.
    pub waves: u32,
    /// Which limiter the shape was chosen for.
    pub limiter: &'static str,
    /// Simulated kernel time, cycles (in-kernel clocks).
    pub cycles: f64,
    /// T(g, b) with measured fu and N_slot.
    pub t_measured_model: f64,
    /// T(g, b) with the configured model.
    pub t_configured_model: f64,
}

/// Fit statistics of one prediction against the simulated cycles.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Pearson r between T and the cycles.
    pub pearson_r: f64,
    /// Mean absolute percentage error of the fit `a·T + C0`, %.
    pub mape_pct: f64,
    /// Largest absolute percentage error of the fit, %.
    pub max_abs_err_pct: f64,
    /// Kendall τ-b between T and the cycles.
    pub kendall_tau: f64,
    /// Fitted slope `a`, cycles per unit of T.
    pub slope: f64,
    /// Fitted intercept `C0`, cycles.
    pub intercept_cycles: f64,
    /// All four thresholds of `[crosscheck]` hold.
    pub pass: bool,
    /// The residual diagnosis of §5 step 4 by waves ([`wave_fit`]); `None` when every point
    /// runs the same number of waves.
    pub wave_fit: Option<WaveFit>,
}

/// A diagnosis, not a verdict (§5 step 4, "diagnose systematic residuals"): the fit
/// `T_cycles = a·T + C0 + C1·(waves − 1)`. T(g, b) charges each wave its body periods and
/// nothing else, and one intercept `C0` covers the fixed cost once per kernel. A cost per wave
/// that T does not count (each wave's prologue, epilogue and launch, or waves that do not
/// follow each other back to back as the model's do) shows as one-wave points below the
/// line and multi-wave points above it; `C1` is fitted here with its error reported, and it
/// enters no PASS/FAIL.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WaveFit {
    /// Fitted slope `a`, cycles per unit of T.
    pub slope: f64,
    /// Fitted intercept `C0`, cycles.
    pub intercept_cycles: f64,
    /// Fitted cost of each wave after the first, `C1`, cycles.
    pub per_wave_cycles: f64,
    /// Mean absolute percentage error of this fit, %.
    pub mape_pct: f64,
    /// Largest absolute percentage error of this fit, %.
    pub max_abs_err_pct: f64,
}

/// Least squares of `cycles` on `(T, 1, waves − 1)` ([`WaveFit`]); `None` when the waves do
/// not vary (C1 is then not identifiable) or the system is degenerate.
pub fn wave_fit(t: &[f64], waves: &[u32], cycles: &[f64]) -> Option<WaveFit> {
    let n = t.len();
    if n < 3 || waves.iter().all(|&w| w == waves[0]) {
        return None;
    }
    let a = nalgebra::DMatrix::from_fn(n, 3, |i, j| match j {
        0 => t[i],
        1 => 1.0,
        _ => waves[i].saturating_sub(1) as f64,
    });
    let y = nalgebra::DVector::from_column_slice(cycles);
    let x = a.clone().svd(true, true).solve(&y, 1e-9).ok()?;
    let fitted = &a * &x;
    let errs: Vec<f64> = fitted
        .iter()
        .zip(cycles)
        .map(|(f, y)| 100.0 * (f - y).abs() / y.abs().max(1.0))
        .collect();
    Some(WaveFit {
        slope: x[0],
        intercept_cycles: x[1],
        per_wave_cycles: x[2],
        mape_pct: errs.iter().sum::<f64>() / n as f64,
        max_abs_err_pct: errs.iter().copied().fold(0.0, f64::max),
    })
}

/// The cross-check of one configuration.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CrossCheck {
    /// Instruction class of the body.
    pub class: &'static str,
    /// Body instances per warp, `N_period`.
    pub n_period: u32,
    /// Measured single-warp period of the class, cycles.
    pub p1_cycles: f64,
    /// Expected slope `N_period·P1`, cycles.
    pub slope_expected: f64,
    /// With measured fu(c) and N_slot.
    pub measured: Stats,
    /// With the configured model.
    pub configured: Stats,
    /// The sweep.
    pub points: Vec<Point>,
}

/// Least-squares line `y = a·x + c`.
pub fn fit_line(xs: &[f64], ys: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if n < 2.0 {
        return (0.0, ys.first().copied().unwrap_or(0.0));
    }
    let mx = xs.iter().sum::<f64>() / n;
    let my = ys.iter().sum::<f64>() / n;
    let sxx: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
    let sxy: f64 = xs.iter().zip(ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    if sxx == 0.0 {
        return (0.0, my);
    }
    let a = sxy / sxx;
    (a, my - a * mx)
}

/// Kendall's τ-b (ties in either variable corrected).
pub fn kendall_tau(xs: &[f64], ys: &[f64]) -> f64 {
    let (mut c, mut d, mut tx, mut ty) = (0f64, 0f64, 0f64, 0f64);
    for i in 0..xs.len() {
        for j in i + 1..xs.len() {
            let a = (xs[i] - xs[j]).signum() * f64::from(xs[i] != xs[j]);
            let b = (ys[i] - ys[j]).signum() * f64::from(ys[i] != ys[j]);
            if a == 0.0 && b == 0.0 {
                continue;
            } else if a == 0.0 {
                tx += 1.0;
            } else if b == 0.0 {
                ty += 1.0;
            } else if a == b {
                c += 1.0;
            } else {
                d += 1.0;
            }
        }
    }
    let den = ((c + d + tx) * (c + d + ty)).sqrt();
    if den == 0.0 {
        0.0
    } else {
        (c - d) / den
    }
}

/// Statistics of predictions `t` against `cycles` (points running `waves` waves).
pub fn stats(t: &[f64], waves: &[u32], cycles: &[f64], th: &Thresholds) -> Stats {
    let (a, c0) = fit_line(t, cycles);
    let fitted: Vec<f64> = t.iter().map(|x| a * x + c0).collect();
    let errs: Vec<f64> = fitted
        .iter()
        .zip(cycles)
        .map(|(f, y)| 100.0 * (f - y).abs() / y.abs().max(1.0))
        .collect();
    let mape = errs.iter().sum::<f64>() / errs.len().max(1) as f64;
    let max_err = errs.iter().copied().fold(0.0, f64::max);
    let r = crate::correlate::pearson_r(t, cycles).unwrap_or(0.0);
    let tau = kendall_tau(t, cycles);
    let x = &th.crosscheck;
    Stats {
        pearson_r: r,
        mape_pct: mape,
        max_abs_err_pct: max_err,
        kendall_tau: tau,
        slope: a,
        intercept_cycles: c0,
        pass: r >= x.min_pearson_r
            && mape <= x.max_mape_pct
            && max_err <= x.max_abs_err_pct
            && tau >= x.min_kendall_tau,
        wave_fit: wave_fit(t, waves, cycles),
    }
}

/// Runs the cross-check.
#[allow(clippy::too_many_arguments)]
pub fn run(
    cfg: &GpuConfig,
    suite: Suite,
    th: &Thresholds,
    lim: &Limits,
    fu: &Fu,
    n_mp: u32,
    wsb: &Wsb,
    shm: &Shm,
    rf: &Rf,
    probe: &Prober,
) -> Result<CrossCheck, String> {
    let class = Class::FpAdd;
    let curve = fu.curve(class).ok_or("crosscheck: no fp32_add curve")?;
    let p1 = curve.p1_cycles;
    let trips: u32 = match suite {
        Suite::Quick => 4,
        Suite::Full => 16,
    };
    let n_period = trips * fu.unroll as u32;
    // shapes: (b, s, r, N_slot measured, limiter)
    let mut shapes: Vec<(u32, u32, u32, u32, &'static str)> = Vec::new();
    let bmax = lim.max_warps();
    for &(b, n) in &wsb.curve {
        let lim_name = if n == wsb.n1 && b * n < wsb.n2 {
            "barrier"
        } else {
            "warp_slot"
        };
        if suite == Suite::Full || [1, 4, bmax].contains(&b) {
            shapes.push((b, 0, 0, n, lim_name));
        }
    }
    let shm_pts: Vec<&(u32, u32)> = shm.points.iter().filter(|p| p.1 < wsb.at(1)).collect();
    for p in shm_pts
        .iter()
        .take(if suite == Suite::Quick { 1 } else { 4 })
    {
        shapes.push((1, p.0, 0, p.1, "shmem"));
    }
    let rf_pts: Vec<&(u32, u32, u32)> = rf.points.iter().filter(|p| p.2 < wsb.at(p.0)).collect();
    for p in rf_pts
        .iter()
        .rev()
        .take(if suite == Suite::Quick { 1 } else { 4 })
    {
        shapes.push((p.0, 0, p.1, p.2, "regfile"));
    }
    let ks: Vec<u32> = match suite {
        Suite::Quick => vec![0, 1, 2],
        Suite::Full => vec![0, 1, 2, 3, 4, 6],
    };
    // the timed kernel allocates its own registers: every shape runs with at least that many,
    // and its N_slot is measured again with them (the earlier tests used the smaller
    // `measure_nslot` kernel)
    let r_fu = harness::kernel(&fu_kernel(class, fu.unroll, false), "measure_fu")
        .map_err(|e| e.to_string())?
        .code
        .regs_per_thread;
    let fits = |b: u32, s: u32, r: u32| -> bool {
        harness::kernel(&fu_kernel_with_resources(class, fu.unroll, s), "measure_fu")
            .ok()
            .and_then(|k| k.with_regs_per_thread(r.max(r_fu)).ok())
            .is_some_and(|k| harness::check(cfg, &k, 1, b * lim.w).is_ok())
    };
    // a shape whose block the timed kernel cannot launch (its own registers per thread do not
    // fit b warps in the register file) is left out of the sweep
    let shapes: Vec<(u32, u32, u32, u32, &'static str)> = shapes
        .into_iter()
        .filter(|&(b, s, r, _, _)| fits(b, s, r))
        .collect();
    let shapes: Vec<(u32, u32, u32, u32, &'static str)> = shapes
        .par_iter()
        .map(|&(b, s, r, _, l)| {
            let r = r.max(r_fu);
            probe
                .n_slot(Shape { b, s, r }, SEARCH_CAP)
                .map(|n| (b, s, r, n, l))
        })
        .collect::<Result<_, _>>()?;
    let conf = configured::machine(cfg);
    let (cmodel, used, _) = configured::class_model(cfg, class, fu.unroll)?;
    let mut jobs = Vec::new();
    for &(b, s, r, n, l) in &shapes {
        // grids: one block, then around one and two full waves of N_slot blocks per MP
        let mut gs: Vec<u32> = ks
            .iter()
            .map(|&k| match k {
                0 => 1,
                k => (k * n).saturating_sub(1) * n_mp + 1,
            })
            .collect();
        gs.push(n * n_mp + 1);
        gs.sort_unstable();
        gs.dedup();
        for g in gs {
            jobs.push((g, b, s, r, n, l));
        }
    }
    let points: Vec<Point> = jobs
        .par_iter()
        .map(|&(g, b, s, r, n, l)| -> Result<Point, String> {
            let text = fu_kernel_with_resources(class, fu.unroll, s);
            let mut k = harness::kernel(&text, "measure_fu").map_err(|e| e.to_string())?;
            if r > 0 {
                k = k.with_regs_per_thread(r).map_err(|e| e.to_string())?;
            }
            let spec = RunSpec {
                kernel: &k,
                blocks: g,
                threads: b * lim.w,
                budget_cycles: 1 << 30,
                extra: vec![Extra::U32(trips), Extra::ChaseBuffer],
                twice: true,
            };
            let out = harness::run(cfg, &spec, 1 << 30)?;
            if out.timed_out() {
                return Err(format!("crosscheck: G = {g}, b = {b} did not finish"));
            }
            let gpm = g.div_ceil(n_mp.max(1));
            let t_meas = conf.t_rel(gpm, b, n, |c| curve.fu_at(c));
            let (nc, _) = conf.n_slot(b, s, &[r]);
            let gpm_c = g.div_ceil(conf.n_mp.max(1));
            let t_conf = cmodel.t_rel(gpm_c, b, nc, |c| {
                cmodel.fu_counts(c, used.iter().copied(), p1)
            });
            Ok(Point {
                grid_blocks: g,
                b,
                s,
                r,
                n_slot: n,
                waves: gpm.div_ceil(n.max(1)),
                limiter: l,
                cycles: out.span_cycles() as f64,
                t_measured_model: t_meas,
                t_configured_model: t_conf,
            })
        })
        .collect::<Result<_, _>>()?;
    let cycles: Vec<f64> = points.iter().map(|p| p.cycles).collect();
    let tm: Vec<f64> = points.iter().map(|p| p.t_measured_model).collect();
    let tc: Vec<f64> = points.iter().map(|p| p.t_configured_model).collect();
    let waves: Vec<u32> = points.iter().map(|p| p.waves).collect();
    Ok(CrossCheck {
        class: class.name(),
        n_period,
        p1_cycles: p1,
        slope_expected: n_period as f64 * p1,
        measured: stats(&tm, &waves, &cycles, th),
        configured: stats(&tc, &waves, &cycles, th),
        points,
    })
}

/// `measure_fu` without the semaphore, with a `.shared` declaration of `s` bytes (none when 0)
/// that the code never touches.
fn fu_kernel_with_resources(class: Class, unroll: usize, s: u32) -> String {
    let k = fu_kernel(class, unroll, false);
    if s == 0 {
        return k;
    }
    k.replacen(
        "    .shared .align 8 .b8 s_chase[8];\n",
        &format!(
            "    .shared .align 8 .b8 s_chase[8];\n    .shared .align 4 .b8 s_res[{}];\n",
            s.saturating_sub(8).max(4)
        ),
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_and_rank_statistics() {
        let x = [1.0, 2.0, 3.0, 4.0];
        let y = [12.0, 22.0, 32.0, 42.0];
        let (a, c) = fit_line(&x, &y);
        assert!((a - 10.0).abs() < 1e-12 && (c - 2.0).abs() < 1e-12);
        assert_eq!(kendall_tau(&x, &y), 1.0);
        assert_eq!(kendall_tau(&x, &[4.0, 3.0, 2.0, 1.0]), -1.0);
        let th = Thresholds::default_embedded();
        let s = stats(&x, &[1, 1, 1, 1], &y, &th);
        assert!(s.pass && s.mape_pct < 1e-9 && (s.pearson_r - 1.0).abs() < 1e-12);
        assert!(
            s.wave_fit.is_none(),
            "one wave everywhere: C1 is not identifiable"
        );
    }

    #[test]
    fn the_wave_fit_recovers_a_per_wave_cost() {
        // cycles = 100·T + 50 + 30·(waves − 1), exactly
        let t = [1.0, 2.0, 2.0, 3.0, 4.0, 4.5];
        let w = [1u32, 1, 2, 2, 3, 1];
        let y: Vec<f64> = t
            .iter()
            .zip(&w)
            .map(|(t, &w)| 100.0 * t + 50.0 + 30.0 * (w - 1) as f64)
            .collect();
        let f = wave_fit(&t, &w, &y).unwrap();
        assert!((f.slope - 100.0).abs() < 1e-6, "{f:?}");
        assert!((f.intercept_cycles - 50.0).abs() < 1e-6, "{f:?}");
        assert!((f.per_wave_cycles - 30.0).abs() < 1e-6, "{f:?}");
        assert!(f.mape_pct < 1e-6);
        // the one-intercept line misses it
        let th = Thresholds::default_embedded();
        assert!(stats(&t, &w, &y, &th).mape_pct > 0.5);
    }
}
