//! heartwall_like (after Rodinia HEARTWALL): template tracking by normalised
//! cross-correlation, one CTA of 256 threads per (point, frame).
//!
//! The CTA stages the 25×25 template around its point (frame 0) and the 41×41 search window
//! (frame f+1, clipped at the image edge so loop bounds depend on the point) in shared
//! memory, computes template statistics and the arg-max by shared-memory tree reductions
//! (barrier-heavy), box sums of the window, and then the NCC of every placement with two
//! placements per thread (17×9 pairs: a partial last warp; idle warps during the main loop).
//! Kernel file: `sim/workloads/heartwall_like.ptx` (formulas in its header).
//!
//! Input: a random base image; frame f > 0 is the base shifted by a per-frame offset of up to
//! ±3 pixels (periodic) plus uniform noise of amplitude 0.25; points at least 12 pixels from
//! the edge.
//!
//! Reference: every reduction replays the kernel's thread partition and tree order in f32,
//! so values agree to rounding; tolerance 1e-5 relative with an absolute floor of 1e-4 on
//! the NCC map (|NCC| ≤ 1); best indices must match exactly.

use super::{
    alloc_words, compare_exact, compare_f32, download_u32, launch, load_kernels, ptr, upload_f32,
    upload_u32, CheckResult, Manifest, Rng, RunReport, Size, Workload, WorkloadInfo,
};
use crate::stream::{Gpu, ParamValue};
use crate::SimError;

const PTX: &str = include_str!("../../workloads/heartwall_like.ptx");
const PTX_FILE: &str = "sim/workloads/heartwall_like.ptx";
const NAME: &str = "heartwall_like";
const BLOCK: usize = 256;
/// Template edge and pixel count.
const TS: usize = 25;
const TN: usize = TS * TS;
/// Half-width of the search window (41×41 when unclipped).
const WR: usize = 20;
/// Placements per dimension of an unclipped window, and of the NCC map.
const NP: usize = 2 * WR + 1 - TS + 1;

/// The heartwall_like workload.
pub struct HeartwallLike;

/// Problem shape of one tier.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Frame width in pixels.
    pub width: usize,
    /// Frame height in pixels.
    pub height: usize,
    /// Tracked points.
    pub points: usize,
    /// Search frames (frames 1..=frames; frame 0 holds the templates).
    pub frames: usize,
}

/// The problem shape of tier `size`.
pub fn shape(size: Size) -> Shape {
    match size {
        Size::Test => Shape {
            width: 96,
            height: 96,
            points: 8,
            frames: 1,
        },
        Size::Bench => Shape {
            width: 256,
            height: 256,
            points: 51,
            frames: 10,
        },
    }
}

/// Seeded frames (frame-major, row-major) and points `(px, py)`.
pub struct Inputs {
    /// Frame pixels, frame-major then row-major.
    pub frames: Vec<f32>,
    /// Tracked points `(px, py)` in pixels.
    pub points: Vec<(u32, u32)>,
}

/// Seeded inputs of tier `size`.
pub fn generate(size: Size) -> Inputs {
    let s = shape(size);
    let mut rng = Rng::for_workload(NAME, size);
    let (w, h) = (s.width, s.height);
    let base = rng.vec_f32(w * h, 0.0, 1.0);
    let mut frames = base.clone();
    for _ in 0..s.frames {
        let dx = rng.below(7) as usize;
        let dy = rng.below(7) as usize;
        for y in 0..h {
            for x in 0..w {
                let sx = (x + w + 3 - dx) % w;
                let sy = (y + h + 3 - dy) % h;
                frames.push(base[sy * w + sx] + 0.25 * rng.unit_f32());
            }
        }
    }
    let half = (TS / 2) as u32;
    let points = (0..s.points)
        .map(|_| {
            let px = half + rng.below((w - TS + 1) as u32);
            let py = half + rng.below((h - TS + 1) as u32);
            (px, py)
        })
        .collect();
    Inputs { frames, points }
}

/// Tree reduction of 256 partial sums exactly as the kernel does it.
fn tree_sum(mut red: Vec<f32>) -> f32 {
    let mut s = BLOCK / 2;
    while s > 0 {
        for t in 0..s {
            red[t] += red[t + s];
        }
        s /= 2;
    }
    red[0]
}

/// CPU reference for one CTA: the 17×17 NCC map and (best value, best index).
pub fn reference_cta(s: &Shape, inp: &Inputs, point: usize, frame: usize) -> (Vec<f32>, f32, u32) {
    let (w, h) = (s.width, s.height);
    let (px, py) = (inp.points[point].0 as usize, inp.points[point].1 as usize);
    let f0 = &inp.frames[..w * h];
    let ff = &inp.frames[(frame + 1) * w * h..(frame + 2) * w * h];
    // template, mean, centred energy
    let t: Vec<f32> = (0..TN)
        .map(|i| f0[(py - TS / 2 + i / TS) * w + px - TS / 2 + i % TS])
        .collect();
    let part = |f: &dyn Fn(f32, f32) -> f32, v: &[f32]| -> Vec<f32> {
        (0..BLOCK)
            .map(|tid| (tid..TN).step_by(BLOCK).fold(0.0f32, |p, i| f(p, v[i])))
            .collect()
    };
    let mean = tree_sum(part(&|p, x| p + x, &t)) / TN as f32;
    let tc: Vec<f32> = t.iter().map(|&x| x - mean).collect();
    let tn2 = tree_sum(part(&|p, x| x.mul_add(x, p), &tc));
    // clipped window
    let wx0 = px.saturating_sub(WR);
    let wy0 = py.saturating_sub(WR);
    let ww = (px + WR).min(w - 1) - wx0 + 1;
    let wh = (py + WR).min(h - 1) - wy0 + 1;
    let (npx, npy) = (ww + 1 - TS, wh + 1 - TS);
    let win = |r: usize, c: usize| ff[(wy0 + r) * w + wx0 + c];
    // box sums: rows, then columns
    let mut r1 = vec![0.0f32; wh * npx];
    let mut r2 = vec![0.0f32; wh * npx];
    for r in 0..wh {
        for c in 0..npx {
            let (mut a1, mut a2) = (0.0f32, 0.0f32);
            for k in 0..TS {
                let v = win(r, c + k);
                a1 += v;
                a2 = v.mul_add(v, a2);
            }
            r1[r * npx + c] = a1;
            r2[r * npx + c] = a2;
        }
    }
    let mut map = vec![0.0f32; NP * NP];
    let ncc = |oy: usize, ox: usize| {
        let (mut s1, mut s2) = (0.0f32, 0.0f32);
        for k in 0..TS {
            s1 += r1[(oy + k) * npx + ox];
            s2 += r2[(oy + k) * npx + ox];
        }
        let mut acc = 0.0f32;
        for k in 0..TS {
            for j in 0..TS {
                acc = win(oy + k, ox + j).mul_add(tc[k * TS + j], acc);
            }
        }
        let varw = (s2 - s1 * s1 * (1.0 / TN as f32)).max(1e-6);
        acc / (varw * tn2).sqrt()
    };
    // per-thread candidates (pairs of placements), then the arg-max tree
    let pairs_x = npx.div_ceil(2);
    let mut val = vec![f32::NEG_INFINITY; BLOCK];
    let mut idx = vec![u32::MAX; BLOCK];
    for tid in 0..npy * pairs_x {
        let (oy, ox) = (tid / pairs_x, 2 * (tid % pairs_x));
        let v0 = ncc(oy, ox);
        map[oy * NP + ox] = v0;
        val[tid] = v0;
        idx[tid] = (oy * NP + ox) as u32;
        if ox + 1 < npx {
            let v1 = ncc(oy, ox + 1);
            map[oy * NP + ox + 1] = v1;
            if v1 > v0 {
                val[tid] = v1;
                idx[tid] = (oy * NP + ox + 1) as u32;
            }
        }
    }
    let mut s = BLOCK / 2;
    while s > 0 {
        for t in 0..s {
            let (v2, i2) = (val[t + s], idx[t + s]);
            if v2 > val[t] || (v2 == val[t] && i2 < idx[t]) {
                val[t] = v2;
                idx[t] = i2;
            }
        }
        s /= 2;
    }
    (map, val[0], idx[0])
}

impl Workload for HeartwallLike {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: NAME,
            suite: "rodinia",
            character: "F D B Sh",
            description: "NCC template tracking: one CTA per point and frame, 25x25 template \
                          over a clipped 41x41 window in shared memory, tree reductions, \
                          partial warps",
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let s = shape(size);
        let inp = generate(size);
        let kernel = load_kernels(PTX, PTX_FILE, &["heartwall_kernel"])?.remove(0);
        let ctas = s.points * s.frames;
        let d_frames = upload_f32(gpu, &inp.frames)?;
        let pts: Vec<u32> = inp.points.iter().flat_map(|&(x, y)| [x, y]).collect();
        let d_points = upload_u32(gpu, &pts)?;
        let d_ncc = alloc_words(gpu, ctas * NP * NP)?;
        let d_best = alloc_words(gpu, ctas * 2)?;
        launch(
            gpu,
            &kernel,
            [s.points as u32, s.frames as u32, 1],
            [BLOCK as u32, 1, 1],
            vec![
                ParamValue::U32(s.width as u32),
                ParamValue::U32(s.height as u32),
                ptr(d_frames),
                ptr(d_points),
                ptr(d_ncc),
                ptr(d_best),
            ],
        )?;
        let check = if check {
            let mut want_map = Vec::with_capacity(ctas * NP * NP);
            let mut want_val = Vec::with_capacity(ctas);
            let mut want_idx = Vec::with_capacity(ctas);
            for f in 0..s.frames {
                for p in 0..s.points {
                    let (map, v, i) = reference_cta(&s, &inp, p, f);
                    want_map.extend(map);
                    want_val.push(v);
                    want_idx.push(i);
                }
            }
            let got_map: Vec<f32> = download_u32(gpu, d_ncc, ctas * NP * NP)?
                .into_iter()
                .map(f32::from_bits)
                .collect();
            let best = download_u32(gpu, d_best, ctas * 2)?;
            let got_val: Vec<f32> = best.iter().step_by(2).map(|&b| f32::from_bits(b)).collect();
            let got_idx: Vec<u32> = best.iter().skip(1).step_by(2).copied().collect();
            Some(CheckResult::all(vec![
                compare_f32("ncc", &got_map, &want_map, 1e-5, 1e-4),
                compare_f32("best value", &got_val, &want_val, 1e-5, 1e-4),
                compare_exact("best index", &got_idx, &want_idx),
            ]))
        } else {
            None
        };
        Ok(RunReport { launches: 1, check })
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("heartwall_kernel", 156667)],
            regs_hint: None,
        }
    }
}
