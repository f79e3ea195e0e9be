//! nw (Rodinia needle): Needleman–Wunsch global alignment of two random sequences over a
//! 24-letter alphabet with a seeded symmetric substitution matrix and linear gap penalty 10.
//! The score matrix is computed in 16×16 blocks along block anti-diagonals (one launch per block
//! anti-diagonal, 2·n/16 − 1 launches); inside a block, 16 threads sweep the 31 cell
//! anti-diagonals of a 17×17 shared-memory tile with a barrier after each (INT, barrier-heavy,
//! shared memory, low occupancy, many launches).

use super::*;

const PTX: &str = include_str!("../../workloads/nw.ptx");
const FILE: &str = "sim/workloads/nw.ptx";
const B: usize = 16;
const PENALTY: i32 = 10;
const ALPHABET: u32 = 24;

/// The nw workload.
pub struct Nw;

fn length(size: Size) -> usize {
    match size {
        Size::Test => 128,
        Size::Bench => 2048,
    }
}

/// (cols, reference scores, initial score matrix), both `(n+1) × (n+1)` row-major.
fn generate(size: Size) -> (usize, Vec<i32>, Vec<i32>) {
    let n = length(size);
    let cols = n + 1;
    let mut rng = Rng::for_workload("nw", size);
    let a = ALPHABET as usize;
    let mut subst = vec![0i32; a * a];
    for x in 0..a {
        for y in x..a {
            let s = if x == y {
                4 + rng.below(8) as i32
            } else {
                rng.below(9) as i32 - 4
            };
            subst[x * a + y] = s;
            subst[y * a + x] = s;
        }
    }
    let s1 = rng.vec_below(cols, ALPHABET);
    let s2 = rng.vec_below(cols, ALPHABET);
    let mut reference = vec![0i32; cols * cols];
    for i in 1..cols {
        for j in 1..cols {
            reference[i * cols + j] = subst[s1[i] as usize * a + s2[j] as usize];
        }
    }
    let mut matrix = vec![0i32; cols * cols];
    for k in 0..cols {
        matrix[k] = -(k as i32) * PENALTY;
        matrix[k * cols] = -(k as i32) * PENALTY;
    }
    (cols, reference, matrix)
}

/// CPU reference: the full score matrix, row by row.
fn reference(cols: usize, r: &[i32], init: &[i32]) -> Vec<i32> {
    let mut m = init.to_vec();
    for i in 1..cols {
        for j in 1..cols {
            let diag = m[(i - 1) * cols + j - 1] + r[i * cols + j];
            let left = m[i * cols + j - 1] - PENALTY;
            let up = m[(i - 1) * cols + j] - PENALTY;
            m[i * cols + j] = diag.max(left).max(up);
        }
    }
    m
}

impl Workload for Nw {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: "nw",
            suite: "rodinia",
            character: "I B Sh O K",
            description: "Needleman-Wunsch wavefront: 16-thread CTAs sweep a 17x17 shared-memory \
                          tile, max of 3, one launch per block anti-diagonal",
        }
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("needle_1", 46368), ("needle_2", 36092)],
            regs_hint: Some(21),
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let (cols, r, init) = generate(size);
        let ks = load_kernels(PTX, FILE, &["needle_1", "needle_2"])?;
        let bw = (cols - 1) / B;
        let d_ref = upload_i32(gpu, &r)?;
        let d_m = upload_i32(gpu, &init)?;
        let params = |i: usize| {
            vec![
                ptr(d_ref),
                ptr(d_m),
                ParamValue::S32(cols as i32),
                ParamValue::S32(PENALTY),
                ParamValue::S32(i as i32),
                ParamValue::S32(bw as i32),
            ]
        };
        let mut launches = 0;
        for i in 1..=bw {
            launch(gpu, &ks[0], [i as u32, 1, 1], [B as u32, 1, 1], params(i))?;
            launches += 1;
        }
        for i in (1..bw).rev() {
            launch(gpu, &ks[1], [i as u32, 1, 1], [B as u32, 1, 1], params(i))?;
            launches += 1;
        }
        let check = if check {
            let got = download_i32(gpu, d_m, cols * cols)?;
            Some(compare_exact(
                "score matrix",
                &got,
                &reference(cols, &r, &init),
            ))
        } else {
            None
        };
        Ok(RunReport { launches, check })
    }
}
