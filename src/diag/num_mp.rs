//! num_mp (analytical-model §4.3): the number of multiprocessors.
//!
//! Primary method, the §4.3 timeout case made deliberate: a block that fills one MP's register
//! file (b = L(T/B)/w warps with the largest register count that launches, both from
//! kernel_limits) has N_slot = 1, so `measure_nslot` with G such blocks deadlocks exactly when
//! G > n_mp. The first timing-out G is found by doubling and bisection; n_mp = G − 1. This
//! depends only on the block scheduler placing a block wherever resources are free.
//!
//! Secondary method, §4.3 as written: with b = c2x warps per block (the first c where
//! fu(2c) ≥ c2x_ratio·fu(c) for the most saturated ALU class), `measure_fu` with G semaphore-
//! synced blocks; the first G whose largest block time exceeds `num_mp_jump_ratio` × one
//! block's time is where two blocks first share an MP. Under an even spread that G is n_mp + 1;
//! with the `%smid` of every block recorded, the suite also reports how many distinct MPs the
//! first G blocks used, which shows whether the block scheduler spreads blocks evenly.

use super::functional_units::Found as Fu;
use super::harness::{self, Extra, RunSpec};
use super::kernel_limits::Found as Limits;
use super::kernels::{fu_kernel, nslot_kernel, Class};
use super::{Kind, Param, Thresholds};
use sim::config::GpuConfig;

/// The class and c2x used: the ALU chain class whose fu doubles first.
pub fn c2x(fu: &Fu, ratio: f64) -> Option<(Class, u32)> {
    let mut best: Option<(Class, u32)> = None;
    for &class in Class::ALL.iter().filter(|c| c.is_alu_chain()) {
        let Some(cur) = fu.curve(class) else { continue };
        let cs: Vec<u32> = cur.points.iter().map(|p| p.0).collect();
        let found = cs
            .iter()
            .copied()
            .find(|&c| cs.contains(&(2 * c)) && cur.fu_at(2 * c) >= ratio * cur.fu_at(c));
        if let Some(c) = found {
            if best.is_none_or(|b| c < b.1) {
                best = Some((class, c));
            }
        }
    }
    best
}

/// First x ≥ 1 with `pred(x)` for a predicate false then true, by doubling and bisection.
pub fn first_true(
    limit: u64,
    mut pred: impl FnMut(u64) -> Result<bool, String>,
) -> Result<Option<u64>, String> {
    if pred(1)? {
        return Ok(Some(1));
    }
    let mut lo = 1u64;
    let mut hi = 2u64;
    while !pred(hi)? {
        lo = hi;
        if hi >= limit {
            return Ok(None);
        }
        hi = (hi * 2).min(limit);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if pred(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(Some(hi))
}

/// The deadlock method; returns n_mp.
fn by_deadlock(cfg: &GpuConfig, th: &Thresholds, lim: &Limits) -> Result<u32, String> {
    let b = lim.max_warps();
    let r = lim
        .r_of_b
        .iter()
        .find(|p| p.0 == b)
        .map(|p| p.1)
        .ok_or("num_mp: kernel_limits did not search the largest block")?;
    let k = harness::kernel(&nslot_kernel(0), "measure_nslot")
        .map_err(|e| e.to_string())?
        .with_regs_per_thread(r)
        .map_err(|e| e.to_string())?;
    let mut longest = 0u64;
    let mut run = |g: u64| -> Result<bool, String> {
        let budget = ((longest as f64 * th.diag.deadline_multiple) as u64)
            .max(th.diag.deadline_floor_cycles);
        let spec = RunSpec {
            kernel: &k,
            blocks: g as u32,
            threads: b * lim.w,
            budget_cycles: budget,
            extra: vec![],
            twice: false,
        };
        let o = harness::run(
            cfg,
            &spec,
            (budget as f64 * th.diag.watchdog_multiple) as u64,
        )?;
        if !o.timed_out() {
            longest = longest.max(o.max_dt_cycles() as u64);
        }
        Ok(o.timed_out())
    };
    if run(1)? {
        // One block never deadlocks: its deadline (the floor, nothing succeeded before it) was
        // too short for a one-block launch, and every grid would count as a deadlock.
        return Err(format!(
            "diag.deadline_floor_cycles = {}: a one-block sync did not finish within it, so \
             the deadlock search cannot start; allowed: a floor that covers a one-block launch \
             (the embedded diag.toml has 4000 cycles)",
            th.diag.deadline_floor_cycles
        ));
    }
    let g = first_true(1 << 16, run)?.ok_or("num_mp: no deadlock up to 65536 blocks")?;
    Ok((g - 1) as u32)
}

/// Runs the test and appends its parameters; returns the recovered n_mp.
pub fn run(
    cfg: &GpuConfig,
    th: &Thresholds,
    lim: &Limits,
    fu: &Fu,
    out: &mut Vec<Param>,
) -> Result<u32, String> {
    let n_mp = by_deadlock(cfg, th, lim)?;
    out.push(
        Param::discrete("num_mp.n_mp", cfg.gpu.n_sm as f64, Some(n_mp as f64))
            .with_note("blocks that fill an MP's register file: the first deadlocking grid"),
    );
    // the timing method, with the placement it saw
    let Some((class, b)) = c2x(fu, th.diag.c2x_ratio) else {
        return Ok(n_mp);
    };
    let k = harness::kernel(&fu_kernel(class, fu.unroll, true), "measure_fu")
        .map_err(|e| e.to_string())?;
    let time = |g: u32, budget: u64| -> Result<harness::RunOut, String> {
        let spec = RunSpec {
            kernel: &k,
            blocks: g,
            threads: b * lim.w,
            budget_cycles: budget,
            extra: vec![Extra::U32(4), Extra::ChaseBuffer],
            twice: true,
        };
        harness::run(cfg, &spec, budget * 8)
    };
    let t1 = time(1, 1 << 24)?.max_dt_cycles();
    let budget = (t1 as u64 * 16).max(th.diag.deadline_floor_cycles);
    let first_shared = first_true(1 << 16, |g| {
        let o = time(g as u32, budget)?;
        Ok(o.timed_out() || o.max_dt_cycles() as f64 > th.diag.num_mp_jump_ratio * t1 as f64)
    })?
    .unwrap_or(0);
    out.push(Param {
        name: "num_mp.timing_method".into(),
        configured: Some(cfg.gpu.n_sm as f64),
        recovered: Some(first_shared.saturating_sub(1) as f64),
        predicted: Some(n_mp as f64),
        kind: Kind::Label,
        pass: Some(first_shared.saturating_sub(1) == n_mp as u64),
        note: format!(
            "G − 1 at the first G whose slowest block of c2x = {b} warps ({}) exceeds {}× one \
             block's time; assumes an even spread",
            class.name(),
            th.diag.num_mp_jump_ratio
        ),
    });
    let spread = time(n_mp, budget)?;
    let used = spread.distinct_sms();
    out.push(Param {
        name: "num_mp.spread_distinct_sms".into(),
        configured: None,
        recovered: Some(used as f64),
        predicted: Some(n_mp as f64),
        kind: Kind::Label,
        pass: Some(used as u32 == n_mp),
        note: format!(
            "distinct %smid of {n_mp} blocks launched together (an even spread uses every MP)"
        ),
    });
    Ok(n_mp)
}
