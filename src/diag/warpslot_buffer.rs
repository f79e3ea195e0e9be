//! warpslot_buffer (analytical-model §4.5): N_slot,wsb(b) with s = 0 and the kernel's own few
//! registers, for b = 1 … L(T/B)/w (the quick suite measures powers of two); then
//! `N1 = N_slot(1)` and `N2 = max_b b·N_slot(b)`, and the whole curve against §2.2.

use super::configured;
use super::kernel_limits::Found as Limits;
use super::nslot::{Prober, Shape};
use super::{Param, Suite};
use rayon::prelude::*;
use sim::config::GpuConfig;

/// The measured curve and the buffer sizes.
#[derive(Clone, Debug)]
pub struct Found {
    /// (b, N_slot(b)).
    pub curve: Vec<(u32, u32)>,
    /// Barrier-buffer entries.
    pub n1: u32,
    /// Warp slots.
    pub n2: u32,
}

impl Found {
    /// N_slot,wsb(b) where measured, else from N1 and N2.
    pub fn at(&self, b: u32) -> u32 {
        self.curve
            .iter()
            .find(|p| p.0 == b)
            .map(|p| p.1)
            .unwrap_or_else(|| self.n1.min(self.n2 / b.max(1)))
    }
}

/// Cap of every N_slot search (the simulator's resident-block counts are far below).
pub const SEARCH_CAP: u32 = 4096;

/// Runs the test and appends its parameters.
pub fn run(
    cfg: &GpuConfig,
    suite: Suite,
    lim: &Limits,
    probe: &Prober,
    out: &mut Vec<Param>,
) -> Result<Found, String> {
    let bmax = lim.max_warps();
    let bs: Vec<u32> = match suite {
        Suite::Quick => [1u32, 2, 4, 8, 16, 32]
            .into_iter()
            .filter(|&b| b <= bmax)
            .collect(),
        Suite::Full => (1..=bmax).collect(),
    };
    let curve: Vec<(u32, u32)> = bs
        .par_iter()
        .map(|&b| {
            probe
                .n_slot(Shape { b, s: 0, r: 0 }, SEARCH_CAP)
                .map(|n| (b, n))
        })
        .collect::<Result<_, _>>()?;
    let n1 = curve.first().map(|p| p.1).unwrap_or(0);
    let n2 = curve.iter().map(|p| p.0 * p.1).max().unwrap_or(0);
    let m = configured::machine(cfg);
    out.push(Param::discrete(
        "warpslot_buffer.n1",
        m.buf.n1.unwrap_or(0) as f64,
        Some(n1 as f64),
    ));
    out.push(Param::discrete(
        "warpslot_buffer.n2",
        m.buf.n2 as f64,
        Some(n2 as f64),
    ));
    // the curve against §2.2 with the configured buffers
    let mismatches: Vec<String> = curve
        .iter()
        .filter(|&&(b, n)| m.n_slot(b, 0, &[0]).0 != n)
        .map(|&(b, n)| format!("b={b}: {n} vs {}", m.n_slot(b, 0, &[0]).0))
        .collect();
    out.push(
        Param::discrete(
            "warpslot_buffer.curve_mismatches",
            0.0,
            Some(mismatches.len() as f64),
        )
        .with_note(if mismatches.is_empty() {
            format!("N_slot(b) = §2.2 at all {} measured b", curve.len())
        } else {
            mismatches.join("; ")
        }),
    );
    Ok(Found { curve, n1, n2 })
}
