//! kmeans (Rodinia): Lloyd's k-means. The GPU transposes the points to feature-major order once,
//! then each iteration assigns every point to its nearest centroid (one thread per point,
//! streaming loads of all features per centroid); the host reads the membership back and
//! recomputes the centroids (FP, memory-bound).

use super::*;

const PTX: &str = include_str!("../../workloads/kmeans.ptx");
const FILE: &str = "sim/workloads/kmeans.ptx";
const BLOCK: u32 = 256;
const CLUSTERS: usize = 5;
const ITERATIONS: usize = 3;

/// The kmeans workload.
pub struct Kmeans;

/// (points, features). Bench uses 128 K points instead of the spec's 494 K so that three
/// iterations stay within tens of seconds functionally.
fn dims(size: Size) -> (usize, usize) {
    match size {
        Size::Test => (2048, 16),
        Size::Bench => (131_072, 34),
    }
}

/// Points (point-major) scattered around `CLUSTERS` random centres.
fn generate(size: Size) -> (usize, usize, Vec<f32>) {
    let (n, f) = dims(size);
    let mut rng = Rng::for_workload("kmeans", size);
    let centres = rng.vec_f32(CLUSTERS * f, 0.0, 1.0);
    let mut pts = Vec::with_capacity(n * f);
    for _ in 0..n {
        let c = rng.below(CLUSTERS as u32) as usize;
        for l in 0..f {
            pts.push(centres[c * f + l] + rng.range_f32(-0.15, 0.15));
        }
    }
    (n, f, pts)
}

/// Nearest centroid of every point, same operation order as `kmeans_point`.
fn assign(n: usize, f: usize, pts: &[f32], clusters: &[f32]) -> Vec<i32> {
    (0..n)
        .map(|p| {
            let mut best = f32::MAX;
            let mut idx = -1i32;
            for c in 0..CLUSTERS {
                let mut dist = 0f32;
                for l in 0..f {
                    let d = pts[p * f + l] - clusters[c * f + l];
                    dist = d.mul_add(d, dist);
                }
                if dist < best {
                    best = dist;
                    idx = c as i32;
                }
            }
            idx
        })
        .collect()
}

/// Host part: new centroids = mean of their members (an empty cluster keeps its centroid).
fn update_centroids(f: usize, pts: &[f32], member: &[i32], clusters: &mut [f32]) {
    let mut sums = vec![0f32; CLUSTERS * f];
    let mut counts = [0u32; CLUSTERS];
    for (p, &m) in member.iter().enumerate() {
        let m = m as usize;
        counts[m] += 1;
        for l in 0..f {
            sums[m * f + l] += pts[p * f + l];
        }
    }
    for c in 0..CLUSTERS {
        if counts[c] > 0 {
            for l in 0..f {
                clusters[c * f + l] = sums[c * f + l] / counts[c] as f32;
            }
        }
    }
}

impl Workload for Kmeans {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: "kmeans",
            suite: "rodinia",
            character: "F M",
            description: "k-means: feature-major transpose, then nearest-centroid assignment per \
                          point, 3 host-driven iterations",
        }
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("invert_mapping", 8448), ("kmeans_point", 153024)],
            regs_hint: Some(9),
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let (n, f, pts) = generate(size);
        let ks = load_kernels(PTX, FILE, &["invert_mapping", "kmeans_point"])?;
        let grid = [(n as u32).div_ceil(BLOCK), 1, 1];
        let block = [BLOCK, 1, 1];
        let d_pts = upload_f32(gpu, &pts)?;
        let d_feat = alloc_words(gpu, n * f)?;
        let d_member = alloc_words(gpu, n)?;
        let mut clusters = pts[..CLUSTERS * f].to_vec();
        let d_clusters = upload_f32(gpu, &clusters)?;
        launch(
            gpu,
            &ks[0],
            grid,
            block,
            vec![
                ptr(d_pts),
                ptr(d_feat),
                ParamValue::S32(n as i32),
                ParamValue::S32(f as i32),
            ],
        )?;
        let mut memberships = Vec::with_capacity(ITERATIONS * n);
        for _ in 0..ITERATIONS {
            write_f32(gpu, d_clusters, &clusters)?;
            launch(
                gpu,
                &ks[1],
                grid,
                block,
                vec![
                    ptr(d_feat),
                    ParamValue::S32(f as i32),
                    ParamValue::S32(n as i32),
                    ParamValue::S32(CLUSTERS as i32),
                    ptr(d_member),
                    ptr(d_clusters),
                ],
            )?;
            let member = download_i32(gpu, d_member, n)?;
            if member.iter().any(|&m| m < 0 || m >= CLUSTERS as i32) {
                return Err(SimError::Other(
                    "kmeans: membership index out of range".to_string(),
                ));
            }
            update_centroids(f, &pts, &member, &mut clusters);
            memberships.extend(member);
        }
        let check = if check {
            let mut want_c = pts[..CLUSTERS * f].to_vec();
            let mut want_m = Vec::with_capacity(ITERATIONS * n);
            for _ in 0..ITERATIONS {
                let m = assign(n, f, &pts, &want_c);
                update_centroids(f, &pts, &m, &mut want_c);
                want_m.extend(m);
            }
            let mut want_feat = vec![0f32; n * f];
            for p in 0..n {
                for l in 0..f {
                    want_feat[l * n + p] = pts[p * f + l];
                }
            }
            Some(CheckResult::all(vec![
                compare_exact("transpose", &download_f32(gpu, d_feat, n * f)?, &want_feat),
                compare_exact("membership (all iterations)", &memberships, &want_m),
                compare_f32("centroids", &clusters, &want_c, 1e-5, 1e-3),
            ]))
        } else {
            None
        };
        Ok(RunReport {
            launches: 1 + ITERATIONS as u32,
            check,
        })
    }
}
