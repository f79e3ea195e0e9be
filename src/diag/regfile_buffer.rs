//! regfile_buffer (analytical-model §4.7): with s = 0, sweep (b, r) and measure N_slot;
//! `R = max r·b·N_slot` over the points below the warp-slot cap, and r_min by the §4.8 search.
//! The grid comes from kernel_limits: for each b, r = ⌊r_max(b)/j⌋ − δ for j = 1, 2, 3, 5 and
//! δ ∈ {0, 1, 3}, where r_max(b) is the largest register count that launches with b warps, so
//! the points land on every regime of the register term, with sizes just off the allocation
//! grid to expose the granularity. The simulator has one register type.

use super::configured;
use super::granularity::{self, Point};
use super::kernel_limits::Found as Limits;
use super::nslot::{Prober, Shape};
use super::warpslot_buffer::{Found as Wsb, SEARCH_CAP};
use super::{Param, Suite};
use rayon::prelude::*;
use sim::config::GpuConfig;

/// The measured points and the recovered sizes.
#[derive(Clone, Debug)]
pub struct Found {
    /// (b, r, N_slot).
    pub points: Vec<(u32, u32, u32)>,
    /// Warp-registers per MP.
    pub r_warp_regs: u32,
    /// Allocation granularity, registers per thread.
    pub r_min: Option<u32>,
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
    let (bsel, js, ds): (Vec<u32>, Vec<u32>, Vec<u32>) = match suite {
        Suite::Quick => (vec![1, 8], vec![1, 3], vec![0, 3]),
        Suite::Full => (
            lim.r_of_b.iter().map(|p| p.0).collect(),
            vec![1, 2, 3, 5],
            vec![0, 1, 3],
        ),
    };
    // the probe kernel's own registers per thread: a declaration below it cannot be expressed
    let r0 = super::harness::kernel(&super::kernels::nslot_kernel(0), "measure_nslot")
        .map_err(|e| e.to_string())?
        .code
        .regs_per_thread;
    let mut shapes = Vec::new();
    for &(b, rmax) in lim.r_of_b.iter().filter(|p| bsel.contains(&p.0)) {
        for &j in &js {
            for &d in &ds {
                let r = (rmax / j).saturating_sub(d);
                if r >= r0.max(1) {
                    shapes.push((b, r));
                }
            }
        }
    }
    shapes.sort_unstable();
    shapes.dedup();
    let points: Vec<(u32, u32, u32)> = shapes
        .par_iter()
        .map(|&(b, r)| {
            probe
                .n_slot(Shape { b, s: 0, r }, SEARCH_CAP)
                .map(|n| (b, r, n))
        })
        .collect::<Result<_, _>>()?;
    let below: Vec<&(u32, u32, u32)> = points.iter().filter(|p| p.2 < wsb.at(p.0)).collect();
    let r_warp_regs = below.iter().map(|p| p.0 * p.1 * p.2).max().unwrap_or(0);
    let r_min = granularity::search(
        &below
            .iter()
            .map(|p| Point {
                x: p.1,
                b: p.0,
                n: p.2,
            })
            .collect::<Vec<_>>(),
        r_warp_regs as u64,
        256,
    );
    let m = configured::machine(cfg);
    out.push(
        Param::discrete(
            "regfile_buffer.register_file_type0_size",
            m.buf.r[0] as f64,
            Some(r_warp_regs as f64),
        )
        .with_note(format!(
            "warp-registers; {} of {} points below the warp-slot cap",
            below.len(),
            points.len()
        )),
    );
    out.push(Param::discrete(
        "regfile_buffer.r_min",
        m.buf.r_min[0] as f64,
        r_min.map(|x| x as f64),
    ));
    Ok(Found {
        points,
        r_warp_regs,
        r_min,
    })
}
