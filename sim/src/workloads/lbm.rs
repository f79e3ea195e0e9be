//! lbm (Parboil LBM): lattice-Boltzmann D3Q19 stream-and-collide with BGK collision.
//!
//! Structure-of-arrays distributions `f[q][z][y][x]`, periodic boundaries, push streaming.
//! One thread per cell, one CTA per x-row (120 threads: the fourth warp is partial), grid
//! ny × nz. Obstacle cells (a sphere plus scattered 4 % cells) bounce back, fluid cells
//! relax towards the local equilibrium — a divergent branch between a swap-only path and
//! ~150 FP operations. One launch per time step with the two grids swapped on the host.
//! Kernel file: `sim/workloads/lbm.ptx` (direction order and formulas in its header).
//!
//! Reference: the same f32 operations in the same order (IEEE reciprocal, FMA); tolerance
//! 1e-5 relative with an absolute floor of 1e-6 (distributions are around 0.03–0.33).

use super::{
    compare_f32, download_f32, launch, load_kernels, ptr, upload_f32, upload_u32, Manifest, Rng,
    RunReport, Size, Workload, WorkloadInfo,
};
use crate::stream::{Gpu, ParamValue};
use crate::SimError;

const PTX: &str = include_str!("../../workloads/lbm.ptx");
const PTX_FILE: &str = "sim/workloads/lbm.ptx";
const NAME: &str = "lbm";
const OMEGA: f32 = 1.95;
const Q: usize = 19;

/// Lattice velocities in the kernel's order: C N S E W T B NE NW SE SW NT NB ST SB ET EB WT WB.
pub const DIRS: [(i32, i32, i32); Q] = [
    (0, 0, 0),
    (0, 1, 0),
    (0, -1, 0),
    (1, 0, 0),
    (-1, 0, 0),
    (0, 0, 1),
    (0, 0, -1),
    (1, 1, 0),
    (-1, 1, 0),
    (1, -1, 0),
    (-1, -1, 0),
    (0, 1, 1),
    (0, 1, -1),
    (0, -1, 1),
    (0, -1, -1),
    (1, 0, 1),
    (1, 0, -1),
    (-1, 0, 1),
    (-1, 0, -1),
];
/// Opposite direction of each direction.
const OPP: [usize; Q] = [
    0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15,
];

/// The lbm workload.
pub struct Lbm;

/// Problem shape of one tier.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Cells in x.
    pub nx: usize,
    /// Cells in y.
    pub ny: usize,
    /// Cells in z.
    pub nz: usize,
    /// Time steps.
    pub steps: usize,
}

/// The problem shape of tier `size`.
pub fn shape(size: Size) -> Shape {
    match size {
        Size::Test => Shape {
            nx: 120,
            ny: 8,
            nz: 8,
            steps: 2,
        },
        Size::Bench => Shape {
            nx: 120,
            ny: 120,
            nz: 40,
            steps: 3,
        },
    }
}

/// Seeded distributions (SoA) and obstacle flags.
pub struct Inputs {
    /// Distribution functions, structure of arrays `f[q][z][y][x]`.
    pub f: Vec<f32>,
    /// Per cell: 1 for an obstacle, 0 for fluid.
    pub flags: Vec<u32>,
}

fn weight(q: usize) -> f32 {
    match q {
        0 => 1.0 / 3.0,
        1..=6 => 1.0 / 18.0,
        _ => 1.0 / 36.0,
    }
}

/// Distributions `w_q · (0.9 … 1.1)`; obstacles: a sphere of radius max(2, min(ny, nz)/4)
/// centred at (nx/3, ny/2, nz/2), plus each other cell with probability 4 %.
pub fn generate(size: Size) -> Inputs {
    let s = shape(size);
    let n = s.nx * s.ny * s.nz;
    let mut rng = Rng::for_workload(NAME, size);
    let mut f = vec![0.0f32; Q * n];
    for (q, fq) in f.chunks_mut(n).enumerate() {
        for v in fq {
            *v = weight(q) * rng.range_f32(0.9, 1.1);
        }
    }
    let r = ((s.ny.min(s.nz) / 4).max(2)) as i64;
    let (cx, cy, cz) = ((s.nx / 3) as i64, (s.ny / 2) as i64, (s.nz / 2) as i64);
    let mut flags = vec![0u32; n];
    for z in 0..s.nz {
        for y in 0..s.ny {
            for x in 0..s.nx {
                let (dx, dy, dz) = (x as i64 - cx, y as i64 - cy, z as i64 - cz);
                let sphere = dx * dx + dy * dy + dz * dz <= r * r;
                let scattered = rng.below(100) < 4;
                flags[(z * s.ny + y) * s.nx + x] = u32::from(sphere || scattered);
            }
        }
    }
    Inputs { f, flags }
}

/// BGK collision of one fluid cell, in the kernel's operation order.
fn collide(f: &mut [f32; Q]) {
    let mut rho = f[0] + f[1];
    for v in &f[2..] {
        rho += *v;
    }
    let sd = |p: [usize; 5], m: [usize; 5]| {
        let a = f[p[0]] + f[p[1]] + f[p[2]] + f[p[3]] + f[p[4]];
        let b = f[m[0]] + f[m[1]] + f[m[2]] + f[m[3]] + f[m[4]];
        a - b
    };
    let ux = sd([3, 7, 9, 15, 16], [4, 8, 10, 17, 18]);
    let uy = sd([1, 7, 8, 11, 12], [2, 9, 10, 13, 14]);
    let uz = sd([5, 11, 13, 15, 17], [6, 12, 14, 16, 18]);
    let inv = 1.0 / rho;
    let (ux, uy, uz) = (ux * inv, uy * inv, uz * inv);
    let mut u2 = ux * ux;
    u2 = uy.mul_add(uy, u2);
    u2 = uz.mul_add(uz, u2);
    u2 *= 1.5;
    let c1 = 1.0 - u2;
    let wr = [rho * (1.0 / 3.0), rho * (1.0 / 18.0), rho * (1.0 / 36.0)];
    let feq0 = wr[0] * c1;
    f[0] = OMEGA.mul_add(feq0 - f[0], f[0]);
    for (q, &(ex, ey, ez)) in DIRS.iter().enumerate().skip(1) {
        let mut comps = [(0i32, 0.0f32); 2];
        let mut k = 0;
        for (e, u) in [(ex, ux), (ey, uy), (ez, uz)] {
            if e != 0 {
                comps[k] = (e, u);
                k += 1;
            }
        }
        let eu = if k == 1 {
            let (e, u) = comps[0];
            if e > 0 {
                u
            } else {
                -u
            }
        } else {
            let ((e1, u1), (e2, u2)) = (comps[0], comps[1]);
            match (e1 > 0, e2 > 0) {
                (true, true) => u1 + u2,
                (true, false) => u1 - u2,
                (false, true) => u2 - u1,
                (false, false) => -(u1 + u2),
            }
        };
        let mut t = eu.mul_add(4.5, 3.0);
        t = eu.mul_add(t, c1);
        let feq = wr[if q <= 6 { 1 } else { 2 }] * t;
        f[q] = OMEGA.mul_add(feq - f[q], f[q]);
    }
}

/// CPU reference: the distributions after `steps` steps.
pub fn reference(s: &Shape, inp: &Inputs) -> Vec<f32> {
    let (nx, ny, nz) = (s.nx, s.ny, s.nz);
    let n = nx * ny * nz;
    let mut src = inp.f.clone();
    let mut dst = vec![0.0f32; Q * n];
    let wrap = |v: usize, d: i32, m: usize| ((v as i64 + d as i64).rem_euclid(m as i64)) as usize;
    for _ in 0..s.steps {
        for z in 0..nz {
            for y in 0..ny {
                for x in 0..nx {
                    let cell = (z * ny + y) * nx + x;
                    let mut f = [0.0f32; Q];
                    for (q, v) in f.iter_mut().enumerate() {
                        *v = src[q * n + cell];
                    }
                    if inp.flags[cell] != 0 {
                        let g = f;
                        for q in 0..Q {
                            f[q] = g[OPP[q]];
                        }
                    } else {
                        collide(&mut f);
                    }
                    for (q, &(ex, ey, ez)) in DIRS.iter().enumerate() {
                        let t = (wrap(z, ez, nz) * ny + wrap(y, ey, ny)) * nx + wrap(x, ex, nx);
                        dst[q * n + t] = f[q];
                    }
                }
            }
        }
        std::mem::swap(&mut src, &mut dst);
    }
    src
}

impl Workload for Lbm {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: NAME,
            suite: "parboil",
            character: "F M D",
            description: "D3Q19 lattice Boltzmann stream-and-collide, SoA layout, obstacle \
                          bounce-back branch; one launch per time step",
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let s = shape(size);
        let inp = generate(size);
        let kernel = load_kernels(PTX, PTX_FILE, &["lbm_kernel"])?.remove(0);
        let mut src = upload_f32(gpu, &inp.f)?;
        let mut dst = upload_f32(gpu, &inp.f)?;
        let d_flags = upload_u32(gpu, &inp.flags)?;
        for _ in 0..s.steps {
            launch(
                gpu,
                &kernel,
                [s.ny as u32, s.nz as u32, 1],
                [s.nx as u32, 1, 1],
                vec![
                    ParamValue::U32(s.nx as u32),
                    ParamValue::U32(s.ny as u32),
                    ParamValue::U32(s.nz as u32),
                    ParamValue::F32(OMEGA),
                    ptr(src),
                    ptr(dst),
                    ptr(d_flags),
                ],
            )?;
            std::mem::swap(&mut src, &mut dst);
        }
        let check = if check {
            let got = download_f32(gpu, src, inp.f.len())?;
            Some(compare_f32("f", &got, &reference(&s, &inp), 1e-5, 1e-6))
        } else {
            None
        };
        Ok(RunReport {
            launches: s.steps as u32,
            check,
        })
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("lbm_kernel", 195360)],
            regs_hint: Some(26),
        }
    }
}
