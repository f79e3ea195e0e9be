//! cutcp (Parboil CUTCP): cutoff Coulomb potential on a 3-D lattice.
//!
//! Atoms are binned on the host into cubes of side 4 Å (= the cutoff = 8 lattice spacings of
//! 0.5 Å), at most 32 per bin. One CTA (8×8×2 threads, 4 points per thread along z) owns the
//! 8×8×8 lattice points of one bin and visits the up to 27 neighbouring bins, clipped at the
//! domain edge (CTA-dependent loop bounds); each bin's atoms are staged in shared memory
//! between two barriers. Per atom and point, a divergent cutoff test guards
//! `s = 1 − r²/c²; e += (q · rsqrt(r²)) · s²` (Parboil's smoothed potential).
//!
//! Reference: the same bin visiting order and f32 operations per point (`rsqrt.approx` =
//! `1 / sqrt`, rounded twice); tolerance 1e-5 relative with an absolute floor of 1e-3
//! (potentials are sums of ±q/r terms that can cancel).

use super::{
    alloc_words, compare_f32, download_f32, launch, load_kernels, ptr, upload_f32, upload_u32,
    Manifest, Rng, RunReport, Size, Workload, WorkloadInfo,
};
use crate::stream::{Gpu, ParamValue};
use crate::SimError;

const PTX: &str = include_str!("../../workloads/cutcp.ptx");
const PTX_FILE: &str = "sim/workloads/cutcp.ptx";
const NAME: &str = "cutcp";
/// Atom slots per bin (x, y, z, q each).
pub const BIN_CAP: usize = 32;
/// Lattice points per bin edge.
const BIN_PTS: usize = 8;
/// Lattice spacing and cutoff, Å.
const H: f32 = 0.5;
const CUTOFF: f32 = 4.0;

/// The cutcp workload.
pub struct Cutcp;

/// Problem shape of one tier.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Bins per dimension (lattice = 8·nb points per dimension).
    pub nb: usize,
    /// Atoms per bin are uniform in [0, max_per_bin].
    pub max_per_bin: u32,
}

/// The problem shape of tier `size`.
pub fn shape(size: Size) -> Shape {
    match size {
        Size::Test => Shape {
            nb: 2,
            max_per_bin: 24,
        },
        Size::Bench => Shape {
            nb: 8,
            max_per_bin: 24,
        },
    }
}

/// Binned atoms: `bins[(b·32 + slot)·4 + {0,1,2,3}] = (x, y, z, q)`, unused slots zero.
pub struct Binned {
    /// Bins per dimension.
    pub nb: usize,
    /// Atom slots, four floats each (x, y, z in Å, then q).
    pub bins: Vec<f32>,
    /// Atoms in each bin.
    pub counts: Vec<u32>,
}

/// Seeded atoms, generated bin by bin (z, y, x order), uniform inside their bin.
pub fn generate(size: Size) -> Binned {
    let s = shape(size);
    let mut rng = Rng::for_workload(NAME, size);
    let nbins = s.nb * s.nb * s.nb;
    let mut bins = vec![0.0f32; nbins * BIN_CAP * 4];
    let mut counts = vec![0u32; nbins];
    let side = BIN_PTS as f32 * H;
    for (b, count) in counts.iter_mut().enumerate() {
        let (bx, by, bz) = (b % s.nb, (b / s.nb) % s.nb, b / (s.nb * s.nb));
        let n = rng.below(s.max_per_bin + 1);
        *count = n;
        for a in 0..n as usize {
            let o = (b * BIN_CAP + a) * 4;
            bins[o] = (bx as f32 + rng.unit_f32()) * side;
            bins[o + 1] = (by as f32 + rng.unit_f32()) * side;
            bins[o + 2] = (bz as f32 + rng.unit_f32()) * side;
            bins[o + 3] = rng.range_f32(-1.0, 1.0);
        }
    }
    Binned {
        nb: s.nb,
        bins,
        counts,
    }
}

/// CPU reference: the lattice potential, index `(gz·L + gy)·L + gx`.
pub fn reference(m: &Binned) -> Vec<f32> {
    let nb = m.nb;
    let l = nb * BIN_PTS;
    let c2 = CUTOFF * CUTOFF;
    let inv_c2 = 1.0 / c2;
    let mut out = vec![0.0f32; l * l * l];
    for gz in 0..l {
        for gy in 0..l {
            for gx in 0..l {
                let (px, py, pz) = (gx as f32 * H, gy as f32 * H, gz as f32 * H);
                let (cx, cy, cz) = (gx / BIN_PTS, gy / BIN_PTS, gz / BIN_PTS);
                let range = |c: usize| c.saturating_sub(1)..=(c + 1).min(nb - 1);
                let mut e = 0.0f32;
                for bz in range(cz) {
                    for by in range(cy) {
                        for bx in range(cx) {
                            let b = (bz * nb + by) * nb + bx;
                            for a in 0..m.counts[b] as usize {
                                let o = (b * BIN_CAP + a) * 4;
                                let (ax, ay, az, q) =
                                    (m.bins[o], m.bins[o + 1], m.bins[o + 2], m.bins[o + 3]);
                                let dx = ax - px;
                                let dy = ay - py;
                                let dxy2 = dy.mul_add(dy, dx * dx);
                                let dz = az - pz;
                                let r2 = dz.mul_add(dz, dxy2);
                                if r2 < c2 {
                                    let s = 1.0 - r2 * inv_c2;
                                    let w = q * (1.0 / r2.sqrt());
                                    e = w.mul_add(s * s, e);
                                }
                            }
                        }
                    }
                }
                out[(gz * l + gy) * l + gx] = e;
            }
        }
    }
    out
}

impl Workload for Cutcp {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: NAME,
            suite: "parboil",
            character: "F S D Sh B",
            description: "cutoff Coulomb potential: spatial bins of atoms staged in shared \
                          memory, divergent cutoff test, rsqrt",
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let m = generate(size);
        let l = m.nb * BIN_PTS;
        let kernel = load_kernels(PTX, PTX_FILE, &["cutcp_kernel"])?.remove(0);
        let d_bins = upload_f32(gpu, &m.bins)?;
        let d_counts = upload_u32(gpu, &m.counts)?;
        let d_lat = alloc_words(gpu, l * l * l)?;
        let nb = m.nb as u32;
        let c2 = CUTOFF * CUTOFF;
        launch(
            gpu,
            &kernel,
            [nb, nb, nb],
            [8, 8, 2],
            vec![
                ParamValue::U32(nb),
                ParamValue::U32(l as u32),
                ParamValue::F32(H),
                ParamValue::F32(c2),
                ParamValue::F32(1.0 / c2),
                ptr(d_bins),
                ptr(d_counts),
                ptr(d_lat),
            ],
        )?;
        let check = if check {
            let got = download_f32(gpu, d_lat, l * l * l)?;
            Some(compare_f32("lattice", &got, &reference(&m), 1e-5, 1e-3))
        } else {
            None
        };
        Ok(RunReport { launches: 1, check })
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("cutcp_kernel", 98648)],
            regs_hint: Some(20),
        }
    }
}
