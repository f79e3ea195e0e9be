//! num_mp (analytical-model §4.3): the number of multiprocessors from when blocks start to
//! share one. With b = c2x warps per block (the first c where fu(2c) ≥ c2x_ratio·fu(c), so two
//! such blocks on one MP take about twice as long), `measure_fu` runs with G blocks synced
//! through the global semaphore; `n_mp = G − 1` at the first G whose largest per-block time
//! exceeds `num_mp_jump_ratio` × the time of one block, or whose launch times out (a block that
//! cannot become resident). The predicate is monotone in G under greedy round-robin placement,
//! so the first such G is found by doubling and bisection instead of a linear scan.
//!
//! c2x comes from the measured class curve with the smallest c2x (the most saturated unit).

use super::functional_units::Found as Fu;
use super::harness::{self, Extra, RunSpec};
use super::kernel_limits::{last_true, Found as Limits};
use super::kernels::{fu_kernel, Class};
use super::{Param, Thresholds};
use sim::config::GpuConfig;

/// The class and c2x used: the class whose fu doubles first.
pub fn c2x(fu: &Fu, ratio: f64) -> Option<(Class, u32)> {
    let mut best: Option<(Class, u32)> = None;
    for &class in Class::ALL.iter().filter(|c| !c.is_memory()) {
        let Some(cur) = fu.curve(class) else { continue };
        let cs: Vec<u32> = cur.points.iter().map(|p| p.0).collect();
        let found = cs.iter().copied().find(|&c| {
            cs.contains(&(2 * c)) && cur.fu_at(2 * c) >= ratio * cur.fu_at(c)
        });
        if let Some(c) = found {
            if best.is_none_or(|b| c < b.1) {
                best = Some((class, c));
            }
        }
    }
    best
}

/// Runs the test and appends its parameter; returns the recovered n_mp.
pub fn run(
    cfg: &GpuConfig,
    th: &Thresholds,
    lim: &Limits,
    fu: &Fu,
    out: &mut Vec<Param>,
) -> Result<u32, String> {
    let (class, b) = c2x(fu, th.diag.c2x_ratio).unwrap_or((Class::IntAdd, lim.max_warps()));
    let k = harness::kernel(&fu_kernel(class, fu.unroll, true), "measure_fu")
        .map_err(|e| e.to_string())?;
    let trips = 4u32;
    let mut err = None;
    let mut time = |g: u32, budget: u64| -> Option<(bool, u32)> {
        let spec = RunSpec {
            kernel: &k,
            blocks: g,
            threads: b * lim.w,
            budget_cycles: budget,
            extra: vec![Extra::U32(trips), Extra::ChaseBuffer],
            twice: true,
        };
        match harness::run(cfg, &spec, budget * 8) {
            Ok(r) => Some((r.timed_out(), r.max_dt_cycles())),
            Err(e) => {
                err = Some(e);
                None
            }
        }
    };
    let (_, t1) = time(1, 1 << 24).ok_or("num_mp: one block did not run")?;
    // the sync budget: generous against the timed region itself
    let budget = (t1 as u64 * 4).max(th.diag.deadline_floor_cycles);
    let mut shares = |g: u64| -> bool {
        match time(g as u32, budget) {
            Some((to, t)) => to || t as f64 > th.diag.num_mp_jump_ratio * t1 as f64,
            None => true,
        }
    };
    // doubling to an upper bound, then bisection for the first sharing G
    let mut hi = 2u64;
    while !shares(hi) {
        hi *= 2;
        if hi > 1 << 16 {
            return Err("num_mp: no sharing up to 65536 blocks".into());
        }
    }
    let lo = hi / 2;
    let first_share = last_true(lo.max(1), hi, |g| g == lo.max(1) || !shares(g)) + 1;
    if let Some(e) = err {
        return Err(format!("num_mp: {e}"));
    }
    let n_mp = (first_share - 1) as u32;
    out.push(
        Param::discrete("num_mp.n_mp", cfg.gpu.n_sm as f64, Some(n_mp as f64)).with_note(format!(
            "{} blocks of c2x = {b} warps ({})",
            first_share,
            class.name()
        )),
    );
    Ok(n_mp)
}
