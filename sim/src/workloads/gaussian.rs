//! gaussian (Rodinia): Gaussian elimination of a dense `n × n` system without pivoting. For each
//! column t the host launches Fan1 (multipliers, one 512-thread CTA) and Fan2 (row updates over
//! a grid of 4×4-thread CTAs covering the whole matrix, most of which exit immediately); the host
//! then back-substitutes. 2(n−1) launches of tiny CTAs: occupancy is limited by CTA slots (FP,
//! low occupancy, many launches, divergent bounds checks).
//!
//! The matrix is made diagonally dominant so that elimination without pivoting is stable.

use super::*;

const PTX: &str = include_str!("../../workloads/gaussian.ptx");
const FILE: &str = "sim/workloads/gaussian.ptx";
const FAN1_BLOCK: u32 = 512;
const FAN2_BLOCK: u32 = 4;

/// The gaussian workload.
pub struct Gaussian;

/// Matrix order. Test 40 and bench 256 instead of the spec's 64 and 1024: Fan2 launches a
/// (n/4)² grid per column, so the work grows as n³ and the spec's sizes exceed the tier budgets.
fn order(size: Size) -> usize {
    match size {
        Size::Test => 40,
        Size::Bench => 256,
    }
}

fn generate(size: Size) -> (usize, Vec<f32>, Vec<f32>) {
    let n = order(size);
    let mut rng = Rng::for_workload("gaussian", size);
    let mut a = rng.vec_f32(n * n, -1.0, 1.0);
    for i in 0..n {
        a[i * n + i] += n as f32;
    }
    let b = rng.vec_f32(n, -1.0, 1.0);
    (n, a, b)
}

/// CPU reference of the elimination: (a, b, m) after all columns, same FMA order as Fan2.
fn reference(n: usize, a: &[f32], b: &[f32]) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    let mut m = vec![0f32; n * n];
    for t in 0..n - 1 {
        for i in t + 1..n {
            m[i * n + t] = a[i * n + t] / a[t * n + t];
        }
        for i in t + 1..n {
            let mi = -m[i * n + t];
            for j in t..n {
                a[i * n + j] = mi.mul_add(a[t * n + j], a[i * n + j]);
            }
            b[i] = mi.mul_add(b[t], b[i]);
        }
    }
    (a, b, m)
}

/// Back substitution on the upper-triangular system (host part of the program).
fn back_substitute(n: usize, a: &[f32], b: &[f32]) -> Vec<f32> {
    let mut x = vec![0f32; n];
    for i in (0..n).rev() {
        let mut s = b[i];
        for j in i + 1..n {
            s -= a[i * n + j] * x[j];
        }
        x[i] = s / a[i * n + i];
    }
    x
}

impl Workload for Gaussian {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: "gaussian",
            suite: "rodinia",
            character: "F O K D",
            description: "Gaussian elimination: Fan1 (512-thread CTA) and Fan2 (4x4-thread CTAs) \
                          per column, n-1 launches each",
        }
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("fan1", 8710), ("fan2", 106410)],
            regs_hint: None,
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let (n, a, b) = generate(size);
        let ks = load_kernels(PTX, FILE, &["fan1", "fan2"])?;
        let d_a = upload_f32(gpu, &a)?;
        let d_b = upload_f32(gpu, &b)?;
        let d_m = alloc_words(gpu, n * n)?;
        let g1 = (n as u32).div_ceil(FAN1_BLOCK);
        let g2 = (n as u32).div_ceil(FAN2_BLOCK);
        let mut launches = 0;
        for t in 0..n - 1 {
            launch(
                gpu,
                &ks[0],
                [g1, 1, 1],
                [FAN1_BLOCK, 1, 1],
                vec![
                    ptr(d_m),
                    ptr(d_a),
                    ParamValue::S32(n as i32),
                    ParamValue::S32(t as i32),
                ],
            )?;
            launch(
                gpu,
                &ks[1],
                [g2, g2, 1],
                [FAN2_BLOCK, FAN2_BLOCK, 1],
                vec![
                    ptr(d_m),
                    ptr(d_a),
                    ptr(d_b),
                    ParamValue::S32(n as i32),
                    ParamValue::S32(t as i32),
                ],
            )?;
            launches += 2;
        }
        let got_a = download_f32(gpu, d_a, n * n)?;
        let got_b = download_f32(gpu, d_b, n)?;
        let x = back_substitute(n, &got_a, &got_b);
        let check = if check {
            let (want_a, want_b, want_m) = reference(n, &a, &b);
            let want_x = back_substitute(n, &want_a, &want_b);
            let got_m = download_f32(gpu, d_m, n * n)?;
            // Eliminated entries are cancellation residues of O(1) values: error relative to 1.
            Some(CheckResult::all(vec![
                compare_f32("a", &got_a, &want_a, 1e-5, 1.0),
                compare_f32("b", &got_b, &want_b, 1e-5, 1.0),
                compare_f32("m", &got_m, &want_m, 1e-5, 1.0 / n as f32),
                compare_f32("x", &x, &want_x, 1e-5, 1.0 / n as f32),
            ]))
        } else {
            None
        };
        Ok(RunReport { launches, check })
    }
}
