//! shmem_buffer (analytical-model §4.6): with b = 1, sweep the shared bytes per block s from the
//! sweep step (4096 B) up to L(S/B), plus sizes a little above each step; measure N_slot(s);
//! `S = max_s s·N_slot(s)` over the points below the warp-slot cap, and s_min by the §4.8
//! search.

use super::configured;
use super::granularity::{self, Point};
use super::kernel_limits::Found as Limits;
use super::nslot::{Prober, Shape};
use super::warpslot_buffer::{Found as Wsb, SEARCH_CAP};
use super::{Param, Suite};
use rayon::prelude::*;
use sim::config::GpuConfig;

/// Sweep step of s, bytes.
pub const STEP_BYTES: u32 = 4096;

/// The measured points and the recovered sizes.
#[derive(Clone, Debug)]
pub struct Found {
    /// (s, N_slot(s)) with b = 1.
    pub points: Vec<(u32, u32)>,
    /// Shared bytes per MP.
    pub s_bytes: u32,
    /// Allocation granularity, bytes.
    pub s_min: Option<u32>,
}

/// Runs the test and appends its parameters.
pub fn run(
    cfg: &GpuConfig,
    suite: Suite,
    lim: &Limits,
    wsb: &Wsb,
    probe: &Prober,
    out: &mut Vec<Param>,
) -> Result<Found, String> {
    let top = lim.s_per_b;
    let mut ss: Vec<u32> = match suite {
        Suite::Quick => [1u32, 2, 3, 4, 6, 8, 12]
            .iter()
            .map(|k| k * STEP_BYTES)
            .chain([STEP_BYTES + 4, 3 * STEP_BYTES + 36, 5 * STEP_BYTES + 100])
            .collect(),
        Suite::Full => (1..=top / STEP_BYTES)
            .flat_map(|k| [k * STEP_BYTES, k * STEP_BYTES + 4, k * STEP_BYTES + 100])
            .collect(),
    };
    ss.retain(|&s| s <= top);
    ss.push(top);
    ss.sort_unstable();
    ss.dedup();
    let points: Vec<(u32, u32)> = ss
        .par_iter()
        .map(|&s| {
            probe
                .n_slot(Shape { b: 1, s, r: 0 }, SEARCH_CAP)
                .map(|n| (s, n))
        })
        .collect::<Result<_, _>>()?;
    let cap = wsb.at(1);
    let below: Vec<&(u32, u32)> = points.iter().filter(|p| p.1 < cap).collect();
    let s_bytes = below.iter().map(|p| p.0 * p.1).max().unwrap_or(0);
    let s_min = granularity::search(
        &below
            .iter()
            .map(|p| Point {
                x: p.0,
                b: 1,
                n: p.1,
            })
            .collect::<Vec<_>>(),
        s_bytes as u64,
        STEP_BYTES,
    );
    let m = configured::machine(cfg);
    out.push(
        Param::discrete(
            "shmem_buffer.shared_memory_size",
            m.buf.s as f64,
            Some(s_bytes as f64),
        )
        .with_note(format!(
            "{} of {} points below the cap of {cap}",
            below.len(),
            points.len()
        )),
    );
    out.push(Param::discrete(
        "shmem_buffer.s_min",
        m.buf.s_min as f64,
        s_min.map(|x| x as f64),
    ));
    Ok(Found {
        points,
        s_bytes,
        s_min,
    })
}
