//! functional_units (analytical-model §4.2): per instruction class, the single-warp period P1
//! and the width curve fu(c) = P(c)/P1 for one block of c = 1 … L(T/B)/w warps, from
//! `measure_fu` kernels of `unroll` dependent copies per loop trip. Each point uses the
//! difference method over two trip counts, `P(c) = (t(c, T2) − t(c, T1)) / ((T2 − T1)·unroll)`,
//! which cancels the fixed clock, barrier and loop-entry overhead; P1 = P(1).
//!
//! Derived: `n_bot = max_c c/fu(c)`, `thr_bot = n_bot/P1`, the knee (first c with
//! fu > 1 + tol). Compared: fu(c) against §2.3 with the configured (t_u, m_u, s_u), n_bot
//! against the model's, and each ALU class's latency: P1 − o − r against the configured
//! latency, where r is the cycles the class's operand reads add to a chain link (reads that
//! share a bank port serialise: [`models::sched::OperandPath::chain_read_cycles`] of the
//! decoded registers) and o is the one issue→dependent-ready overhead the simulator adds to
//! every link, estimated as the median of P1 − latency − r over the ALU classes (reported
//! with its spread). The read cost itself is measured: `second_read_cycles` is the period
//! difference of an add reading two distinct registers and one reading the same register
//! twice, compared with the configured operand path's prediction.

use super::configured;
use super::harness::{self, Extra, RunSpec};
use super::kernel_limits::Found as Limits;
use super::kernels::{fu_kernel, Class};
use super::{Param, Suite, Thresholds};
use rayon::prelude::*;
use sim::config::GpuConfig;

/// One point of a curve: (c, P(c) in cycles, measured fu(c), predicted fu(c)).
pub type Point = (u32, f64, f64, f64);

/// A measured fu(c) curve of one class.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FuCurve {
    /// Class name.
    pub class: &'static str,
    /// Single-warp period, cycles per dependent instruction.
    pub p1_cycles: f64,
    /// (c, P(c) in cycles, measured fu(c), predicted fu(c)).
    pub points: Vec<Point>,
    /// `max_c c/fu(c)`.
    pub n_bot: f64,
    /// Largest warps per block the template launches with (`L(T/B)/w`, or fewer where its
    /// registers do not fit).
    pub c_max: u32,
}

impl FuCurve {
    /// Measured fu at c warps (linear in c past the largest measured c, which is where a
    /// saturated unit's fu grows; 1 below the first point).
    pub fn fu_at(&self, c: u32) -> f64 {
        if c == 0 {
            return 0.0;
        }
        if let Some(p) = self.points.iter().find(|p| p.0 == c) {
            return p.2;
        }
        let last = self.points.last().copied().unwrap_or((1, 0.0, 1.0, 1.0));
        if c > last.0 {
            return (last.2 * c as f64 / last.0 as f64).max(1.0);
        }
        // between measured points: interpolate
        let hi = self.points.iter().position(|p| p.0 > c).unwrap_or(0);
        let (a, b) = (self.points[hi.saturating_sub(1)], self.points[hi]);
        a.2 + (b.2 - a.2) * (c - a.0) as f64 / (b.0 - a.0).max(1) as f64
    }
}

/// Output of the test.
#[derive(Clone, Debug)]
pub struct Found {
    /// Curves, in [`Class::ALL`] order.
    pub curves: Vec<FuCurve>,
    /// Unroll factor of the width kernels.
    pub unroll: usize,
}

impl Found {
    /// The curve of `class`.
    pub fn curve(&self, class: Class) -> Option<&FuCurve> {
        self.curves.iter().find(|c| c.class == class.name())
    }
}

/// Warp counts measured.
fn widths(suite: Suite, cmax: u32) -> Vec<u32> {
    let v: Vec<u32> = match suite {
        Suite::Quick => vec![1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 28, 32, cmax],
        Suite::Full => (1..=cmax).collect(),
    };
    let mut v: Vec<u32> = v.into_iter().filter(|&c| c <= cmax).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Period P(c) of `class` with c warps in one block, cycles per instance.
pub fn period(
    cfg: &GpuConfig,
    class: Class,
    unroll: usize,
    trips: (u32, u32),
    c: u32,
    w: u32,
    kernel: &std::sync::Arc<sim::ptx::Kernel>,
) -> Result<f64, String> {
    let t = |trips: u32| -> Result<u64, String> {
        let spec = RunSpec {
            kernel,
            blocks: 1,
            threads: c * w,
            budget_cycles: 1 << 30,
            extra: vec![Extra::U32(trips), Extra::ChaseBuffer],
            twice: true,
        };
        let r = harness::run(cfg, &spec, 1 << 28)?;
        if r.timed_out() {
            return Err(format!(
                "functional_units: {} with {c} warps timed out",
                class.name()
            ));
        }
        Ok(r.max_dt_cycles() as u64)
    };
    let (t1, t2) = (t(trips.0)?, t(trips.1)?);
    Ok((t2 as f64 - t1 as f64) / ((trips.1 - trips.0) as f64 * unroll as f64))
}

/// Runs the test and appends its parameters.
pub fn run(
    cfg: &GpuConfig,
    suite: Suite,
    th: &Thresholds,
    lim: &Limits,
    out: &mut Vec<Param>,
) -> Result<Found, String> {
    let unroll = 32usize;
    let trips = match suite {
        Suite::Quick => (2, 6),
        Suite::Full => (2, 18),
    };
    let tol = th.diag.tol_fu;
    let curves: Vec<Result<FuCurve, String>> = Class::ALL
        .par_iter()
        .map(|&class| {
            let k = harness::kernel(&fu_kernel(class, unroll, false), "measure_fu")
                .map_err(|e| e.to_string())?;
            // the widths the template's block launches at: its own registers per thread may
            // not fit L(T/B) threads in the register file
            let cmax = harness::max_fitting_warps(cfg, &k, lim.w, lim.max_warps());
            if cmax == 0 {
                return Err(format!(
                    "functional_units: one warp of the {} kernel does not launch",
                    class.name()
                ));
            }
            let cs = widths(suite, cmax);
            let p: Vec<(u32, f64)> = cs
                .par_iter()
                .map(|&c| period(cfg, class, unroll, trips, c, lim.w, &k).map(|p| (c, p)))
                .collect::<Result<_, _>>()?;
            let p1 = p.first().map(|x| x.1).unwrap_or(f64::NAN);
            let (model, used, _) = configured::class_model(cfg, class, unroll)?;
            let points = p
                .iter()
                .map(|&(c, pc)| (c, pc, pc / p1, model.fu_counts(c, used.iter().copied(), p1)))
                .collect::<Vec<_>>();
            let n_bot = points.iter().map(|p| p.0 as f64 / p.2).fold(0.0, f64::max);
            Ok(FuCurve {
                class: class.name(),
                p1_cycles: p1,
                points,
                n_bot,
                c_max: cmax,
            })
        })
        .collect();
    let curves: Vec<FuCurve> = curves.into_iter().collect::<Result<_, _>>()?;
    // the operand reads' share of a chain link: measured as the period difference of two
    // adds that differ only in reading one or two distinct registers, next to the
    // configured operand path's prediction (the reads of one instruction serialise on a bank
    // with too few ports)
    let k_same = harness::kernel(
        &fu_kernel(Class::IntAddSameReg, unroll, false),
        "measure_fu",
    )
    .map_err(|e| e.to_string())?;
    let p1_same = period(cfg, Class::IntAddSameReg, unroll, trips, 1, lim.w, &k_same)?;
    let p1_two = curves
        .iter()
        .find(|c| c.class == Class::IntAdd.name())
        .map(|c| c.p1_cycles)
        .unwrap_or(f64::NAN);
    let read_pred = configured::chain_read_cycles(cfg, Class::IntAdd)? as f64
        - configured::chain_read_cycles(cfg, Class::IntAddSameReg)? as f64;
    let read_meas = p1_two - p1_same;
    out.push(
        Param::discrete(
            "functional_units.second_read_cycles",
            read_pred,
            Some(
                if (read_meas - read_meas.round()).abs() <= th.diag.tol_latency_cycles {
                    read_meas.round()
                } else {
                    read_meas
                },
            ),
        )
        .with_note(format!(
            "P1(add r,r,s) − P1(add r,r,r) = {p1_two:.2} − {p1_same:.2}: a second operand read \
             on the same bank port (configured: the banks and ports of the operand path)"
        )),
    );
    // the shared issue overhead: median of P1 − latency − operand-read cycles over the ALU
    // classes; the read cycles of each class come from its decoded registers and the
    // configured operand path, checked above by measurement
    let mut resid: Vec<(Class, f64, u32)> = Vec::new();
    let mut reads: Vec<f64> = Vec::new();
    for (&class, cur) in Class::ALL.iter().zip(&curves) {
        let rc = if class.is_alu_chain() {
            configured::chain_read_cycles(cfg, class)? as f64
        } else {
            0.0
        };
        reads.push(rc);
        if class.is_alu_chain() {
            let ec = configured::class_exec(cfg, class)?;
            resid.push((class, cur.p1_cycles - ec.latency as f64 - rc, ec.latency));
        }
    }
    let mut o: Vec<f64> = resid.iter().map(|r| r.1).collect();
    o.sort_by(f64::total_cmp);
    let overhead = o.get(o.len() / 2).copied().unwrap_or(0.0);
    out.push(Param::info(
        "functional_units.issue_overhead_cycles",
        overhead,
        &format!(
            "median of P1 − latency − operand-read cycles over {} ALU classes (range {:.2} … {:.2})",
            o.len(),
            o.first().copied().unwrap_or(0.0),
            o.last().copied().unwrap_or(0.0)
        ),
    ));
    for ((&class, cur), &rc) in Class::ALL.iter().zip(&curves).zip(&reads) {
        let name = class.name();
        let (model, used, ec) = configured::class_model(cfg, class, unroll)?;
        if class.is_alu_chain() {
            let lat = cur.p1_cycles - overhead - rc;
            let rec = if (lat - lat.round()).abs() <= th.diag.tol_latency_cycles {
                Some(lat.round())
            } else {
                Some(lat)
            };
            out.push(
                Param::discrete(
                    &format!("functional_units.{name}.latency"),
                    ec.latency as f64,
                    rec,
                )
                .with_note(format!(
                    "P1 = {:.2} cycles, of which {rc} operand-read cycles",
                    cur.p1_cycles
                )),
            );
        } else {
            out.push(Param::info(
                &format!("functional_units.{name}.p1"),
                cur.p1_cycles,
                "cycles per dependent instance (memory path or control, outside the latency table)",
            ));
        }
        // fu(c) against §2.3: the worst relative error over the measured c
        let (worst_c, worst) =
            cur.points
                .iter()
                .map(|p| (p.0, (p.2 - p.3) / p.3))
                .fold(
                    (0, 0.0f64),
                    |a, b| if b.1.abs() > a.1.abs() { b } else { a },
                );
        out.push(Param {
            name: format!("functional_units.{name}.fu_max_rel_err"),
            configured: None,
            recovered: Some(worst),
            predicted: Some(0.0),
            kind: super::Kind::Continuous,
            pass: Some(worst.abs() <= tol),
            note: format!("worst (measured − model)/model over c, at c = {worst_c}"),
        });
        let knee = |f: &dyn Fn(&Point) -> f64| {
            cur.points
                .iter()
                .find(|p| f(p) > 1.0 + tol)
                .map(|p| p.0 as f64)
                .unwrap_or(0.0)
        };
        let km = knee(&|p| p.2);
        let kp = knee(&|p| p.3);
        out.push(Param {
            name: format!("functional_units.{name}.knee"),
            configured: None,
            recovered: Some(km),
            predicted: Some(kp),
            kind: super::Kind::Continuous,
            pass: Some(km == kp),
            note: "first measured c with fu > 1 + tol (0: none)".into(),
        });
        let n_bot_pred = model.n_bot(cur.c_max, |c| {
            model.fu_counts(c, used.iter().copied(), cur.p1_cycles)
        });
        out.push(Param::continuous(
            &format!("functional_units.{name}.n_bot"),
            None,
            cur.n_bot,
            n_bot_pred,
            tol,
        ));
    }
    Ok(Found { curves, unroll })
}
