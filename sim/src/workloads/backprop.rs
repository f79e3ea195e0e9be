//! backprop (Rodinia): one training step of a two-layer perceptron (`in` inputs → 16 hidden
//! units → 1 output), sigmoid activations, learning rate 0.3 and momentum 0.3.
//! The GPU computes the input→hidden products (16×16 tiles in shared memory, column sums by a
//! `ty % 2^k` tree with a barrier per level) and the input-weight update; the host program
//! finishes the forward pass (partial sums → hidden units → output) and the error terms, as in
//! the original (FP, barrier-heavy, shared memory, divergent reduction).

use super::*;

const PTX: &str = include_str!("../../workloads/backprop.ptx");
const FILE: &str = "sim/workloads/backprop.ptx";
const HID: usize = 16;
const ETA: f32 = 0.3;
const MOMENTUM: f32 = 0.3;
const TARGET: f32 = 0.1;

/// The backprop workload.
pub struct Backprop;

/// Input units. Bench uses 128 K inputs (grid 1×8192) instead of the spec's 64 K (grid
/// 1×4096), which runs only ~4.7·10⁶ warp instructions, below the bench tier.
fn n_inputs(size: Size) -> usize {
    match size {
        Size::Test => 1024,
        Size::Bench => 131_072,
    }
}

struct Net {
    n_in: usize,
    /// Input units, index 0 unused (bias handled by weight row 0), length n_in + 1.
    input: Vec<f32>,
    /// (n_in + 1) × (HID + 1), row-major.
    w_in: Vec<f32>,
    /// (HID + 1) × 2, row-major (one output unit in column 1).
    w_hid: Vec<f32>,
}

fn generate(size: Size) -> Net {
    let n_in = n_inputs(size);
    let mut rng = Rng::for_workload("backprop", size);
    let mut input = rng.vec_f32(n_in + 1, 0.0, 1.0);
    input[0] = 0.0;
    let w_in = rng.vec_f32((n_in + 1) * (HID + 1), -0.1, 0.1);
    let w_hid = rng.vec_f32((HID + 1) * 2, -0.5, 0.5);
    Net {
        n_in,
        input,
        w_in,
        w_hid,
    }
}

fn squash(x: f32) -> f32 {
    1.0 / (1.0 + libm::expf(-x))
}

/// Host part: partial sums → hidden units → output → hidden error terms (length HID + 1).
fn hidden_deltas(net: &Net, partial: &[f32]) -> Vec<f32> {
    let blocks = net.n_in / 16;
    let mut h = [1.0f32; HID + 1];
    for (j, hj) in h.iter_mut().enumerate().skip(1) {
        let mut sum = 0.0f32;
        for k in 0..blocks {
            sum += partial[k * HID + j - 1];
        }
        sum += net.w_in[j];
        *hj = squash(sum);
    }
    let mut o_sum = 0.0f32;
    for (j, hj) in h.iter().enumerate() {
        o_sum += net.w_hid[j * 2 + 1] * hj;
    }
    let o = squash(o_sum);
    let delta_o = o * (1.0 - o) * (TARGET - o);
    let mut delta = vec![0.0f32; HID + 1];
    for j in 1..=HID {
        delta[j] = h[j] * (1.0 - h[j]) * (delta_o * net.w_hid[j * 2 + 1]);
    }
    delta
}

/// CPU reference of `layerforward`: per-CTA column sums in the kernel's tree order.
fn ref_partial(net: &Net) -> Vec<f32> {
    let blocks = net.n_in / 16;
    let mut partial = vec![0f32; blocks * HID];
    for by in 0..blocks {
        let mut wm = [[0f32; 16]; 16];
        for (ty, row) in wm.iter_mut().enumerate() {
            let r = 16 * by + ty + 1;
            for (tx, v) in row.iter_mut().enumerate() {
                *v = net.w_in[(HID + 1) * r + tx + 1] * net.input[r];
            }
        }
        for i in 1..=4 {
            let p2 = 1 << i;
            for ty in (0..16).step_by(p2) {
                let src = wm[ty + p2 / 2];
                for (v, s) in wm[ty].iter_mut().zip(src) {
                    *v += s;
                }
            }
        }
        partial[by * HID..(by + 1) * HID].copy_from_slice(&wm[0]);
    }
    partial
}

/// CPU reference of `adjust_weights` (in place on w and oldw).
#[allow(clippy::needless_range_loop)] // mirrors the kernel's (row, column) indexing
fn ref_adjust(net: &Net, delta: &[f32], w: &mut [f32], oldw: &mut [f32]) {
    for r in 1..=net.n_in {
        for j in 1..=HID {
            let idx = (HID + 1) * r + j;
            let t = MOMENTUM.mul_add(oldw[idx], ETA * delta[j] * net.input[r]);
            w[idx] += t;
            oldw[idx] = t;
        }
    }
    for j in 1..=HID {
        let t = MOMENTUM.mul_add(oldw[j], ETA * delta[j]);
        w[j] += t;
        oldw[j] = t;
    }
}

impl Workload for Backprop {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: "backprop",
            suite: "rodinia",
            character: "F B Sh D",
            description: "perceptron training step: 16x16 input x weight tiles reduced in shared \
                          memory with ty % 2^k, then weight adjustment",
        }
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("adjust_weights", 21513), ("layerforward", 51264)],
            regs_hint: Some(13),
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let net = generate(size);
        let ks = load_kernels(PTX, FILE, &["layerforward", "adjust_weights"])?;
        let blocks = (net.n_in / 16) as u32;
        let d_input = upload_f32(gpu, &net.input)?;
        let d_w = upload_f32(gpu, &net.w_in)?;
        let d_partial = alloc_words(gpu, blocks as usize * HID)?;
        let d_oldw = alloc_words(gpu, net.w_in.len())?;
        launch(
            gpu,
            &ks[0],
            [1, blocks, 1],
            [16, 16, 1],
            vec![
                ptr(d_input),
                ptr(d_w),
                ptr(d_partial),
                ParamValue::S32(HID as i32),
            ],
        )?;
        let partial = download_f32(gpu, d_partial, blocks as usize * HID)?;
        let delta = hidden_deltas(&net, &partial);
        let d_delta = upload_f32(gpu, &delta)?;
        launch(
            gpu,
            &ks[1],
            [1, blocks, 1],
            [16, 16, 1],
            vec![
                ptr(d_delta),
                ParamValue::S32(HID as i32),
                ptr(d_input),
                ptr(d_w),
                ptr(d_oldw),
                ParamValue::F32(ETA),
                ParamValue::F32(MOMENTUM),
            ],
        )?;
        let check = if check {
            let want_partial = ref_partial(&net);
            let want_delta = hidden_deltas(&net, &want_partial);
            let mut want_w = net.w_in.clone();
            let mut want_oldw = vec![0f32; net.w_in.len()];
            ref_adjust(&net, &want_delta, &mut want_w, &mut want_oldw);
            let got_w = download_f32(gpu, d_w, net.w_in.len())?;
            let got_oldw = download_f32(gpu, d_oldw, net.w_in.len())?;
            Some(CheckResult::all(vec![
                compare_f32("partial sums", &partial, &want_partial, 1e-5, 1e-3),
                compare_f32("weights", &got_w, &want_w, 1e-5, 1e-3),
                compare_f32("weight steps", &got_oldw, &want_oldw, 1e-5, 1e-6),
            ]))
        } else {
            None
        };
        Ok(RunReport { launches: 2, check })
    }
}
