//! mriq (Parboil MRI-Q): the Q matrix of non-Cartesian MRI reconstruction.
//!
//! `phimag_kernel` computes |φ|² per k-space sample; the host reads it back and stages the
//! samples `(kx, ky, kz, |φ|²)` in constant memory in chunks (as Parboil does with
//! `cudaMemcpyToSymbol`); `q_kernel` (one thread per voxel) then loops over the chunk, two
//! samples per iteration (the test tier's odd chunk length exercises the tail):
//! `arg = 2π (kx x + ky y + kz z); Qr += |φ|² cos arg; Qi += |φ|² sin arg`, accumulating
//! across launches in global memory. Two SFU operations per 8 FP operations.
//!
//! Reference: same f32 operation order; sin/cos from the `libm` crate exactly as the
//! emulator evaluates `sin.approx`/`cos.approx`. Tolerance 1e-5 relative with an absolute
//! floor of 1.0: Q sums K terms of magnitude ≤ 2 whose signs cancel, so |Q| is typically
//! √K ≫ 1 and a near-zero Q carries no relative precision.

use super::{
    alloc_words, compare_f32, download_f32, launch, ptr, upload_f32, CheckResult, Manifest, Rng,
    RunReport, Size, Workload, WorkloadInfo,
};
use crate::ptx::Module;
use crate::stream::{Gpu, ParamValue};
use crate::SimError;

const PTX: &str = include_str!("../../workloads/mriq.ptx");
const PTX_FILE: &str = "sim/workloads/mriq.ptx";
const NAME: &str = "mriq";
/// Samples per constant-memory chunk (16 KiB of `.const`).
const CHUNK_MAX: usize = 1024;
const BLOCK: u32 = 256;
/// 2π rounded to f32 (0x40C90FDB), as in the kernel.
const TWO_PI: f32 = std::f32::consts::TAU;

/// The mriq workload.
pub struct Mriq;

/// Problem shape of one tier.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Voxels (multiple of 256).
    pub numx: usize,
    /// k-space samples, and samples per launch.
    pub numk: usize,
    /// k-space samples per launch.
    pub chunk: usize,
}

/// The problem shape of tier `size`.
pub fn shape(size: Size) -> Shape {
    match size {
        Size::Test => Shape {
            numx: 4096,
            numk: 98,
            chunk: 49,
        },
        Size::Bench => Shape {
            numx: 32768,
            numk: 2048,
            chunk: 1024,
        },
    }
}

/// Seeded inputs.
pub struct Inputs {
    /// k-space sample x coordinates.
    pub kx: Vec<f32>,
    /// k-space sample y coordinates.
    pub ky: Vec<f32>,
    /// k-space sample z coordinates.
    pub kz: Vec<f32>,
    /// Real parts of φ per sample.
    pub phi_r: Vec<f32>,
    /// Imaginary parts of φ per sample.
    pub phi_i: Vec<f32>,
    /// Voxel x coordinates.
    pub x: Vec<f32>,
    /// Voxel y coordinates.
    pub y: Vec<f32>,
    /// Voxel z coordinates.
    pub z: Vec<f32>,
}

/// k in [−4, 4), voxel coordinates in [−1, 1), φ in [−1, 1).
pub fn generate(size: Size) -> Inputs {
    let s = shape(size);
    let mut rng = Rng::for_workload(NAME, size);
    let kx = rng.vec_f32(s.numk, -4.0, 4.0);
    let ky = rng.vec_f32(s.numk, -4.0, 4.0);
    let kz = rng.vec_f32(s.numk, -4.0, 4.0);
    let phi_r = rng.vec_f32(s.numk, -1.0, 1.0);
    let phi_i = rng.vec_f32(s.numk, -1.0, 1.0);
    let x = rng.vec_f32(s.numx, -1.0, 1.0);
    let y = rng.vec_f32(s.numx, -1.0, 1.0);
    let z = rng.vec_f32(s.numx, -1.0, 1.0);
    Inputs {
        kx,
        ky,
        kz,
        phi_r,
        phi_i,
        x,
        y,
        z,
    }
}

/// |φ|² as the kernel computes it: `fma(φi, φi, φr·φr)`.
pub fn phi_mag(inp: &Inputs) -> Vec<f32> {
    inp.phi_r
        .iter()
        .zip(&inp.phi_i)
        .map(|(&r, &i)| i.mul_add(i, r * r))
        .collect()
}

/// CPU reference: (Qr, Qi) per voxel.
pub fn reference(inp: &Inputs) -> (Vec<f32>, Vec<f32>) {
    let mag = phi_mag(inp);
    let n = inp.x.len();
    let mut qr = vec![0.0f32; n];
    let mut qi = vec![0.0f32; n];
    for v in 0..n {
        let (x, y, z) = (inp.x[v], inp.y[v], inp.z[v]);
        let (mut r, mut i) = (0.0f32, 0.0f32);
        for (k, &m) in mag.iter().enumerate() {
            let mut t = inp.kx[k] * x;
            t = inp.ky[k].mul_add(y, t);
            t = inp.kz[k].mul_add(z, t);
            let arg = t * TWO_PI;
            r = m.mul_add(libm::cosf(arg), r);
            i = m.mul_add(libm::sinf(arg), i);
        }
        qr[v] = r;
        qi[v] = i;
    }
    (qr, qi)
}

fn kernel_of(module: &Module, name: &str) -> Result<std::sync::Arc<crate::ptx::Kernel>, SimError> {
    module
        .kernel(name)
        .ok_or_else(|| SimError::Other(format!("{PTX_FILE}: no kernel '{name}'")))
}

impl Workload for Mriq {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: NAME,
            suite: "parboil",
            character: "F S",
            description: "MRI-Q: |phi|^2 per sample, then Q per voxel over k-space samples \
                          staged in constant memory (sin/cos); one launch per chunk",
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let s = shape(size);
        debug_assert!(s.chunk <= CHUNK_MAX && s.numx.is_multiple_of(BLOCK as usize));
        let inp = generate(size);
        let mut module = Module::parse(PTX, PTX_FILE)?;

        let d_phir = upload_f32(gpu, &inp.phi_r)?;
        let d_phii = upload_f32(gpu, &inp.phi_i)?;
        let d_mag = alloc_words(gpu, s.numk)?;
        launch(
            gpu,
            &kernel_of(&module, "phimag_kernel")?,
            [s.numk.div_ceil(BLOCK as usize) as u32, 1, 1],
            [BLOCK, 1, 1],
            vec![
                ptr(d_phir),
                ptr(d_phii),
                ptr(d_mag),
                ParamValue::U32(s.numk as u32),
            ],
        )?;
        let mut launches = 1;
        let mag = download_f32(gpu, d_mag, s.numk)?;

        let d_x = upload_f32(gpu, &inp.x)?;
        let d_y = upload_f32(gpu, &inp.y)?;
        let d_z = upload_f32(gpu, &inp.z)?;
        let d_qr = alloc_words(gpu, s.numx)?;
        let d_qi = alloc_words(gpu, s.numx)?;
        for start in (0..s.numk).step_by(s.chunk) {
            let end = (start + s.chunk).min(s.numk);
            let bytes: Vec<u8> = (start..end)
                .flat_map(|k| [inp.kx[k], inp.ky[k], inp.kz[k], mag[k]])
                .flat_map(|v| v.to_bits().to_le_bytes())
                .collect();
            module.set_const("c_k", &bytes)?;
            launch(
                gpu,
                &kernel_of(&module, "q_kernel")?,
                [(s.numx / BLOCK as usize) as u32, 1, 1],
                [BLOCK, 1, 1],
                vec![
                    ParamValue::U32((end - start) as u32),
                    ParamValue::U32(s.numx as u32),
                    ptr(d_x),
                    ptr(d_y),
                    ptr(d_z),
                    ptr(d_qr),
                    ptr(d_qi),
                ],
            )?;
            launches += 1;
        }

        let check = if check {
            let (want_r, want_i) = reference(&inp);
            let got_r = download_f32(gpu, d_qr, s.numx)?;
            let got_i = download_f32(gpu, d_qi, s.numx)?;
            Some(CheckResult::all(vec![
                compare_f32("phimag", &mag, &phi_mag(&inp), 1e-6, 1e-6),
                compare_f32("Qr", &got_r, &want_r, 1e-5, 1.0),
                compare_f32("Qi", &got_i, &want_i, 1e-5, 1.0),
            ]))
        } else {
            None
        };
        Ok(RunReport { launches, check })
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("phimag_kernel", 124), ("q_kernel", 152320)],
            regs_hint: Some(12),
        }
    }
}
