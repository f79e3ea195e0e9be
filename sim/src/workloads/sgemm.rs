//! sgemm (Parboil SGEMM): `C = α Aᵀ B + β C`, register-tiled.
//!
//! A is K×M row-major, B is K×N row-major, C is M×N column-major. A CTA of 128 threads
//! computes a 128×16 block of C, 16 accumulators per thread; per step of 8 k-values it stages
//! an 8×16 tile of B in shared memory (two barriers) and each thread streams its column of A
//! from global memory, doing 16 FMAs per A value with B read as vectorised shared broadcasts.
//!
//! Reference: the same k-ordered FMA chain per output in f32; tolerance 1e-5 relative with
//! an absolute floor of 1e-2 (a length-K dot product of ±1 values is O(√K) and can cancel).

use super::{
    compare_f32, download_f32, launch, load_kernels, ptr, upload_f32, Manifest, Rng, RunReport,
    Size, Workload, WorkloadInfo,
};
use crate::stream::{Gpu, ParamValue};
use crate::SimError;

const PTX: &str = include_str!("../../workloads/sgemm.ptx");
const PTX_FILE: &str = "sim/workloads/sgemm.ptx";
const NAME: &str = "sgemm";
const TILE_M: usize = 128;
const TILE_N: usize = 16;
const TILE_K: usize = 8;
const ALPHA: f32 = 1.25;
const BETA: f32 = 0.75;

/// The sgemm workload.
pub struct Sgemm;

/// Problem shape of one tier: M (multiple of 128), N (multiple of 16), K (multiple of 8).
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// M: rows of C (multiple of 128).
    pub m: usize,
    /// N: columns of C (multiple of 16).
    pub n: usize,
    /// K: the reduction length (multiple of 8).
    pub k: usize,
}

/// The problem shape of tier `size`.
pub fn shape(size: Size) -> Shape {
    match size {
        Size::Test => Shape {
            m: 128,
            n: 128,
            k: 128,
        },
        Size::Bench => Shape {
            m: 1024,
            n: 1024,
            k: 1024,
        },
    }
}

/// Seeded A (K×M), B (K×N), C (M×N column-major), all in [−1, 1).
pub fn generate(size: Size) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let s = shape(size);
    let mut rng = Rng::for_workload(NAME, size);
    let a = rng.vec_f32(s.k * s.m, -1.0, 1.0);
    let b = rng.vec_f32(s.k * s.n, -1.0, 1.0);
    let c = rng.vec_f32(s.m * s.n, -1.0, 1.0);
    (a, b, c)
}

/// CPU reference: the updated C.
pub fn reference(s: &Shape, a: &[f32], b: &[f32], c: &[f32]) -> Vec<f32> {
    let mut out = c.to_vec();
    for n in 0..s.n {
        for m in 0..s.m {
            let mut acc = 0.0f32;
            for k in 0..s.k {
                acc = a[k * s.m + m].mul_add(b[k * s.n + n], acc);
            }
            let o = &mut out[n * s.m + m];
            *o = o.mul_add(BETA, ALPHA * acc);
        }
    }
    out
}

impl Workload for Sgemm {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: NAME,
            suite: "parboil",
            character: "F B Sh",
            description: "C = alpha A^T B + beta C: 128 threads x 16 outputs per CTA, 8x16 B \
                          tile in shared memory",
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let s = shape(size);
        debug_assert!(
            s.m.is_multiple_of(TILE_M) && s.n.is_multiple_of(TILE_N) && s.k.is_multiple_of(TILE_K)
        );
        let (a, b, c) = generate(size);
        let kernel = load_kernels(PTX, PTX_FILE, &["sgemm_kernel"])?.remove(0);
        let d_a = upload_f32(gpu, &a)?;
        let d_b = upload_f32(gpu, &b)?;
        let d_c = upload_f32(gpu, &c)?;
        launch(
            gpu,
            &kernel,
            [(s.m / TILE_M) as u32, (s.n / TILE_N) as u32, 1],
            [TILE_M as u32, 1, 1],
            vec![
                ParamValue::U32(s.m as u32),
                ParamValue::U32(s.n as u32),
                ParamValue::U32(s.k as u32),
                ParamValue::F32(ALPHA),
                ParamValue::F32(BETA),
                ptr(d_a),
                ptr(d_b),
                ptr(d_c),
            ],
        )?;
        let check = if check {
            let got = download_f32(gpu, d_c, c.len())?;
            Some(compare_f32(
                "C",
                &got,
                &reference(&s, &a, &b, &c),
                1e-5,
                1e-2,
            ))
        } else {
            None
        };
        Ok(RunReport { launches: 1, check })
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("sgemm_kernel", 98304)],
            regs_hint: Some(27),
        }
    }
}
