//! srad (Rodinia SRAD v2): speckle-reducing anisotropic diffusion on 16×16 tiles.
//!
//! Per iteration the host reads the image back and computes the speckle scale
//! `q0² = var/mean²` over the region of interest (the top-left quarter), then launches
//! `srad1` (derivatives and diffusion coefficient: four divisions per pixel on the SFU, tile
//! plus halo staged in shared memory) and `srad2` (divergence and update, coefficient tile
//! plus south/east halo in shared memory). Halo loads by edge lanes are divergent branches.
//! See the kernel file for the formulas (Yu & Acton 2002, as in Rodinia).
//!
//! Input: `J = exp(u)`, u uniform in [0, 1) (Rodinia's `exp(I/255)`). λ = 0.5.
//!
//! Reference: the same f32 operations in the same order (IEEE division and FMA), and the
//! same f64 ROI statistics; tolerance 1e-5 relative, absolute floor 1e-6 on J, dN..dE and c.

use super::{
    alloc_words, compare_f32, download_f32, launch, load_kernels, ptr, upload_f32, CheckResult,
    Manifest, Rng, RunReport, Size, Workload, WorkloadInfo,
};
use crate::stream::{DevPtr, Gpu, ParamValue};
use crate::SimError;

const PTX: &str = include_str!("../../workloads/srad.ptx");
const PTX_FILE: &str = "sim/workloads/srad.ptx";
const NAME: &str = "srad";
const TILE: usize = 16;
const LAMBDA: f32 = 0.5;

/// The srad workload.
pub struct Srad;

/// Problem shape of one tier (rows, cols multiples of 16).
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Image rows (multiple of 16).
    pub rows: usize,
    /// Image columns (multiple of 16).
    pub cols: usize,
    /// SRAD iterations.
    pub iters: usize,
}

/// The problem shape of tier `size`.
pub fn shape(size: Size) -> Shape {
    match size {
        Size::Test => Shape {
            rows: 64,
            cols: 64,
            iters: 2,
        },
        Size::Bench => Shape {
            rows: 2048,
            cols: 2048,
            iters: 2,
        },
    }
}

/// Seeded image `exp(u)`, row-major.
pub fn generate(size: Size) -> Vec<f32> {
    let s = shape(size);
    let mut rng = Rng::for_workload(NAME, size);
    (0..s.rows * s.cols)
        .map(|_| libm::expf(rng.unit_f32()))
        .collect()
}

/// `q0² = var / mean²` over the top-left quarter, accumulated in f64 in row-major order.
pub fn q0sqr(s: &Shape, j: &[f32]) -> f32 {
    let (r2, c2) = (s.rows / 2, s.cols / 2);
    let (mut sum, mut sum2) = (0.0f64, 0.0f64);
    for r in 0..r2 {
        for &v in &j[r * s.cols..r * s.cols + c2] {
            let v = v as f64;
            sum += v;
            sum2 += v * v;
        }
    }
    let n = (r2 * c2) as f64;
    let mean = sum / n;
    let var = sum2 / n - mean * mean;
    (var / (mean * mean)) as f32
}

/// `min(x, 1)` then `max(·, 0)`, as the kernel's `min.f32`/`max.f32` (differs from
/// `f32::clamp` only for NaN).
#[allow(clippy::manual_clamp)]
fn clamp01(x: f32) -> f32 {
    x.min(1.0).max(0.0)
}

/// Final state of the CPU reference.
pub struct Output {
    /// The image after the last iteration, row-major.
    pub j: Vec<f32>,
    /// North derivative of the last iteration.
    pub dn: Vec<f32>,
    /// South derivative of the last iteration.
    pub ds: Vec<f32>,
    /// West derivative of the last iteration.
    pub dw: Vec<f32>,
    /// East derivative of the last iteration.
    pub de: Vec<f32>,
    /// Diffusion coefficient of the last iteration.
    pub c: Vec<f32>,
}

/// CPU reference: `iters` SRAD iterations.
pub fn reference(s: &Shape, j0: &[f32]) -> Output {
    let (rows, cols) = (s.rows, s.cols);
    let n = rows * cols;
    let mut o = Output {
        j: j0.to_vec(),
        dn: vec![0.0; n],
        ds: vec![0.0; n],
        dw: vec![0.0; n],
        de: vec![0.0; n],
        c: vec![0.0; n],
    };
    let k = 0.25 * LAMBDA;
    for _ in 0..s.iters {
        let q0 = q0sqr(s, &o.j);
        for r in 0..rows {
            for cc in 0..cols {
                let i = r * cols + cc;
                let jc = o.j[i];
                let dn = o.j[r.saturating_sub(1) * cols + cc] - jc;
                let ds = o.j[(r + 1).min(rows - 1) * cols + cc] - jc;
                let dw = o.j[r * cols + cc.saturating_sub(1)] - jc;
                let de = o.j[r * cols + (cc + 1).min(cols - 1)] - jc;
                let mut g = dn * dn;
                g = ds.mul_add(ds, g);
                g = dw.mul_add(dw, g);
                g = de.mul_add(de, g);
                let g2 = g / (jc * jc);
                let l = (dn + ds + dw + de) / jc;
                let num = (l * l).mul_add(-0.0625, g2 * 0.5);
                let den = l.mul_add(0.25, 1.0);
                let qsqr = num / (den * den);
                let den = (qsqr - q0) / (q0 * (q0 + 1.0));
                let c = clamp01(1.0 / (den + 1.0));
                o.dn[i] = dn;
                o.ds[i] = ds;
                o.dw[i] = dw;
                o.de[i] = de;
                o.c[i] = c;
            }
        }
        for r in 0..rows {
            for cc in 0..cols {
                let i = r * cols + cc;
                let cn = o.c[i];
                let cs = o.c[(r + 1).min(rows - 1) * cols + cc];
                let ce = o.c[r * cols + (cc + 1).min(cols - 1)];
                let mut d = cn * o.dn[i];
                d = cs.mul_add(o.ds[i], d);
                d = cn.mul_add(o.dw[i], d);
                d = ce.mul_add(o.de[i], d);
                o.j[i] = k.mul_add(d, o.j[i]);
            }
        }
    }
    o
}

impl Workload for Srad {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: NAME,
            suite: "rodinia",
            character: "F S B Sh M",
            description: "SRAD v2 diffusion: coefficient kernel (FP divisions) and update \
                          kernel on 16x16 shared-memory tiles; host ROI statistics per iteration",
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let s = shape(size);
        debug_assert!(s.rows.is_multiple_of(TILE) && s.cols.is_multiple_of(TILE));
        let n = s.rows * s.cols;
        let j0 = generate(size);
        let kernels = load_kernels(PTX, PTX_FILE, &["srad1", "srad2"])?;
        let d_j = upload_f32(gpu, &j0)?;
        let bufs: Vec<DevPtr> = (0..5)
            .map(|_| alloc_words(gpu, n))
            .collect::<Result<_, _>>()?;
        let grid = [(s.cols / TILE) as u32, (s.rows / TILE) as u32, 1];
        let block = [TILE as u32, TILE as u32, 1];
        let mut launches = 0;
        for _ in 0..s.iters {
            let j_now = download_f32(gpu, d_j, n)?;
            let q0 = q0sqr(&s, &j_now);
            for (kernel, scalar) in kernels.iter().zip([q0, 0.25 * LAMBDA]) {
                let mut params = vec![
                    ParamValue::U32(s.rows as u32),
                    ParamValue::U32(s.cols as u32),
                    ParamValue::F32(scalar),
                    ptr(d_j),
                ];
                params.extend(bufs.iter().map(|&b| ptr(b)));
                launch(gpu, kernel, grid, block, params)?;
                launches += 1;
            }
        }
        let check = if check {
            let want = reference(&s, &j0);
            let names = ["dN", "dS", "dW", "dE", "c"];
            let wants = [&want.dn, &want.ds, &want.dw, &want.de, &want.c];
            let mut parts = vec![compare_f32(
                "J",
                &download_f32(gpu, d_j, n)?,
                &want.j,
                1e-5,
                1e-6,
            )];
            for ((name, w), &b) in names.iter().zip(wants).zip(&bufs) {
                parts.push(compare_f32(name, &download_f32(gpu, b, n)?, w, 1e-5, 1e-6));
            }
            Some(CheckResult::all(parts))
        } else {
            None
        };
        Ok(RunReport { launches, check })
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("srad1", 25056), ("srad2", 15616)],
            regs_hint: Some(12),
        }
    }
}
