//! spmv (Parboil SPMV): sparse matrix–vector product `y = A x` in JDS format.
//!
//! Rows are sorted by decreasing length (`perm` maps sorted row → original row); the d-th
//! non-zero of every row long enough forms jagged diagonal d, stored contiguously from
//! `jds_ptr[d]`. One thread per sorted row walks its diagonals: the diagonal offsets are
//! constant-memory broadcasts, the `x` gathers are irregular (memory-bound), and row lengths
//! differ within a warp where the power-law tail is steep (divergent loop exits).
//!
//! Input: row lengths from a Pareto law (α = 2.5, clamped to [1, 2048]), uniformly random
//! columns, values and `x` in [−1, 1).
//!
//! Reference: the same fused multiply-add chain per row in f32, so results agree to
//! rounding; tolerance 1e-5 relative with an absolute floor of 1e-3 (sums of ±1 terms).

use super::{
    alloc_words, compare_f32, download_f32, launch, ptr, upload_f32, upload_u32, Manifest, Rng,
    RunReport, Size, Workload, WorkloadInfo,
};
use crate::ptx::Module;
use crate::stream::{Gpu, ParamValue};
use crate::SimError;

const PTX: &str = include_str!("../../workloads/spmv.ptx");
const PTX_FILE: &str = "sim/workloads/spmv.ptx";
const NAME: &str = "spmv";
/// Capacity of the constant-memory diagonal table.
const MAX_DIAGONALS: usize = 2048;
const BLOCK: u32 = 128;

/// The spmv workload.
pub struct Spmv;

/// Problem shape of one tier.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Rows = columns.
    pub n: usize,
    /// Pareto scale: the minimum row length before clamping (mean = 5/3 of it).
    pub xm: f64,
}

/// The problem shape of tier `size`.
pub fn shape(size: Size) -> Shape {
    match size {
        // mean ≈ 10 non-zeros per row
        Size::Test => Shape { n: 4096, xm: 6.0 },
        // mean ≈ 16 non-zeros per row
        Size::Bench => Shape {
            n: 1 << 20,
            xm: 9.6,
        },
    }
}

/// A matrix in JDS form plus the dense vector.
pub struct Jds {
    /// Rows (= columns).
    pub n: usize,
    /// Values and column indices, diagonal-major.
    pub data: Vec<f32>,
    /// Column index of each value in `data`.
    pub cols: Vec<u32>,
    /// Start of each jagged diagonal in `data`.
    pub jds_ptr: Vec<u32>,
    /// Length of each sorted row.
    pub rowlen: Vec<u32>,
    /// Original row index of each sorted row.
    pub perm: Vec<u32>,
    /// The dense vector multiplied.
    pub x: Vec<f32>,
}

/// Seeded matrix (CSR-like rows first, then converted to JDS).
#[allow(clippy::needless_range_loop)] // d indexes the d-th entry of many rows
pub fn generate(size: Size) -> Jds {
    let s = shape(size);
    let mut rng = Rng::for_workload(NAME, size);
    let cap = MAX_DIAGONALS.min(s.n) as f64;
    let lens: Vec<usize> = (0..s.n)
        .map(|_| {
            let u = 1.0 - rng.unit_f32() as f64; // (0, 1]
            let l = (s.xm * libm::pow(u, -1.0 / 2.5)).floor();
            l.clamp(1.0, cap) as usize
        })
        .collect();
    let rows: Vec<Vec<(u32, f32)>> = lens
        .iter()
        .map(|&l| {
            (0..l)
                .map(|_| (rng.below(s.n as u32), rng.range_f32(-1.0, 1.0)))
                .collect()
        })
        .collect();
    let x = rng.vec_f32(s.n, -1.0, 1.0);

    let mut order: Vec<usize> = (0..s.n).collect();
    order.sort_by_key(|&r| (std::cmp::Reverse(lens[r]), r));
    let ndiag = lens[order[0]];
    let mut jds_ptr = Vec::with_capacity(ndiag);
    let mut data = Vec::new();
    let mut cols = Vec::new();
    for d in 0..ndiag {
        jds_ptr.push(data.len() as u32);
        for &r in order.iter().take_while(|&&r| lens[r] > d) {
            let (c, v) = rows[r][d];
            cols.push(c);
            data.push(v);
        }
    }
    Jds {
        n: s.n,
        data,
        cols,
        jds_ptr,
        rowlen: order.iter().map(|&r| lens[r] as u32).collect(),
        perm: order.iter().map(|&r| r as u32).collect(),
        x,
    }
}

/// CPU reference: `y` in original row order.
pub fn reference(m: &Jds) -> Vec<f32> {
    let mut y = vec![0.0f32; m.n];
    for r in 0..m.n {
        let mut sum = 0.0f32;
        for d in 0..m.rowlen[r] as usize {
            let idx = m.jds_ptr[d] as usize + r;
            sum = m.data[idx].mul_add(m.x[m.cols[idx] as usize], sum);
        }
        y[m.perm[r] as usize] = sum;
    }
    y
}

impl Workload for Spmv {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: NAME,
            suite: "parboil",
            character: "F M D",
            description: "JDS sparse matrix-vector product, one thread per row, power-law row \
                          lengths, diagonal offsets in constant memory",
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let m = generate(size);
        let mut module = Module::parse(PTX, PTX_FILE)?;
        let bytes: Vec<u8> = m.jds_ptr.iter().flat_map(|v| v.to_le_bytes()).collect();
        module.set_const("c_jds_ptr", &bytes)?;
        let kernel = module
            .kernel("spmv_jds")
            .ok_or_else(|| SimError::Other(format!("{PTX_FILE}: no kernel 'spmv_jds'")))?;
        let d_data = upload_f32(gpu, &m.data)?;
        let d_cols = upload_u32(gpu, &m.cols)?;
        let d_rowlen = upload_u32(gpu, &m.rowlen)?;
        let d_perm = upload_u32(gpu, &m.perm)?;
        let d_x = upload_f32(gpu, &m.x)?;
        let d_y = alloc_words(gpu, m.n)?;
        launch(
            gpu,
            &kernel,
            [m.n.div_ceil(BLOCK as usize) as u32, 1, 1],
            [BLOCK, 1, 1],
            vec![
                ParamValue::U32(m.n as u32),
                ptr(d_data),
                ptr(d_cols),
                ptr(d_rowlen),
                ptr(d_perm),
                ptr(d_x),
                ptr(d_y),
            ],
        )?;
        let check = if check {
            let got = download_f32(gpu, d_y, m.n)?;
            Some(compare_f32("y", &got, &reference(&m), 1e-5, 1e-3))
        } else {
            None
        };
        Ok(RunReport { launches: 1, check })
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("spmv_jds", 23751)],
            regs_hint: None,
        }
    }
}
