//! stencil (Parboil STENCIL): 7-point 3-D Jacobi iteration.
//!
//! `next = (below + above + north + south + west + east) · c1 − cur · c0` on interior points;
//! boundary points keep their initial value (both buffers start identical). A 32×32 CTA
//! (1024 threads: one CTA per SM on Fermi) streams along z with the three z-neighbours in
//! registers and the current plane in shared memory; tile-edge lanes fetch their halo
//! neighbour from global memory. One launch per iteration, buffers swapped on the host.
//!
//! Reference: same summation order and FMA in f32; tolerance 1e-5 relative, absolute floor
//! 1e-6 (values stay in [0, 1)).

use super::{
    compare_f32, download_f32, launch, load_kernels, ptr, upload_f32, Manifest, Rng, RunReport,
    Size, Workload, WorkloadInfo,
};
use crate::stream::{Gpu, ParamValue};
use crate::SimError;

const PTX: &str = include_str!("../../workloads/stencil.ptx");
const PTX_FILE: &str = "sim/workloads/stencil.ptx";
const NAME: &str = "stencil";
const TILE: u32 = 32;
const C0: f32 = 1.0 / 6.0;
const C1: f32 = 1.0 / 6.0 / 6.0;

/// The stencil workload.
pub struct Stencil;

/// Problem shape of one tier.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Grid size (nx, ny multiples of 32; nz ≥ 3) and iterations.
    pub nx: usize,
    /// Grid points in y.
    pub ny: usize,
    /// Grid points in z.
    pub nz: usize,
    /// Jacobi iterations.
    pub iters: usize,
}

/// The problem shape of tier `size`.
pub fn shape(size: Size) -> Shape {
    match size {
        Size::Test => Shape {
            nx: 64,
            ny: 64,
            nz: 16,
            iters: 2,
        },
        Size::Bench => Shape {
            nx: 256,
            ny: 256,
            nz: 64,
            iters: 5,
        },
    }
}

/// Seeded grid, values in [0, 1), index `(k ny + j) nx + i`.
pub fn generate(size: Size) -> Vec<f32> {
    let s = shape(size);
    Rng::for_workload(NAME, size).vec_f32(s.nx * s.ny * s.nz, 0.0, 1.0)
}

/// CPU reference: the grid after `iters` sweeps.
pub fn reference(s: &Shape, a0: &[f32]) -> Vec<f32> {
    let (nx, ny, nz) = (s.nx, s.ny, s.nz);
    let idx = |i: usize, j: usize, k: usize| (k * ny + j) * nx + i;
    let mut cur = a0.to_vec();
    let mut next = a0.to_vec();
    for _ in 0..s.iters {
        for k in 1..nz - 1 {
            for j in 1..ny - 1 {
                for i in 1..nx - 1 {
                    let mut sum = cur[idx(i, j, k - 1)] + cur[idx(i, j, k + 1)];
                    sum += cur[idx(i, j - 1, k)];
                    sum += cur[idx(i, j + 1, k)];
                    sum += cur[idx(i - 1, j, k)];
                    sum += cur[idx(i + 1, j, k)];
                    let t = cur[idx(i, j, k)] * C0;
                    next[idx(i, j, k)] = sum.mul_add(C1, -t);
                }
            }
        }
        std::mem::swap(&mut cur, &mut next);
    }
    cur
}

impl Workload for Stencil {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: NAME,
            suite: "parboil",
            character: "F M B Sh",
            description: "7-point 3-D Jacobi stencil, 32x32 CTAs streaming along z with the \
                          current plane in shared memory; one launch per iteration",
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let s = shape(size);
        debug_assert!(
            s.nx.is_multiple_of(TILE as usize) && s.ny.is_multiple_of(TILE as usize) && s.nz >= 3
        );
        let a0 = generate(size);
        let kernel = load_kernels(PTX, PTX_FILE, &["stencil_kernel"])?.remove(0);
        let mut cur = upload_f32(gpu, &a0)?;
        let mut next = upload_f32(gpu, &a0)?;
        for _ in 0..s.iters {
            launch(
                gpu,
                &kernel,
                [s.nx as u32 / TILE, s.ny as u32 / TILE, 1],
                [TILE, TILE, 1],
                vec![
                    ParamValue::U32(s.nx as u32),
                    ParamValue::U32(s.ny as u32),
                    ParamValue::U32(s.nz as u32),
                    ParamValue::F32(C0),
                    ParamValue::F32(C1),
                    ptr(cur),
                    ptr(next),
                ],
            )?;
            std::mem::swap(&mut cur, &mut next);
        }
        let check = if check {
            let got = download_f32(gpu, cur, a0.len())?;
            Some(compare_f32("grid", &got, &reference(&s, &a0), 1e-5, 1e-6))
        } else {
            None
        };
        Ok(RunReport {
            launches: s.iters as u32,
            check,
        })
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("stencil_kernel", 125696)],
            regs_hint: Some(15),
        }
    }
}
