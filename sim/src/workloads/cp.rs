//! cp (ISPASS CP): direct Coulombic potential on a 2-D lattice slice.
//!
//! Every lattice point sums `q / r` over all atoms. Each thread of a 16×8 CTA computes 8
//! points spaced 16 apart in x; the atoms `(x, y, dz², q)` are staged in constant memory in
//! chunks of up to 1024 (one `.const` bank load per launch, like `cudaMemcpyToSymbol`), and
//! every launch adds its chunk's contribution to the energy grid. Per atom and point:
//! `dx = x − ax; r² = dx² + (dy² + dz²); e += q · rsqrt(r²)` — FMA and SFU bound.
//!
//! Reference: same operation order in f32 (`rsqrt.approx` = `1 / sqrt`, rounded twice, spec
//! §3.1.3), so results agree to rounding; tolerance 1e-5 relative with an absolute floor of
//! 1e-3 (energies are sums of ±q/r terms that can cancel).

use super::{
    alloc_words, compare_f32, download_f32, launch, ptr, Manifest, Rng, RunReport, Size, Workload,
    WorkloadInfo,
};
use crate::ptx::Module;
use crate::stream::{Gpu, ParamValue};
use crate::SimError;

const PTX: &str = include_str!("../../workloads/cp.ptx");
const PTX_FILE: &str = "sim/workloads/cp.ptx";
const NAME: &str = "cp";
/// Atoms per constant-memory chunk (4096 floats = 16 KiB of `.const`).
const CHUNK_MAX: usize = 1024;
/// Lattice points per thread (x unroll).
const UNROLL: u32 = 8;
const BLOCK: [u32; 3] = [16, 8, 1];

/// The cp workload.
pub struct Cp;

/// Problem shape of one tier.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Lattice points in x (multiple of 128) and y (multiple of 8).
    pub nx: u32,
    /// Lattice points in y (multiple of 8).
    pub ny: u32,
    /// Atoms in total, and per launch.
    pub atoms: usize,
    /// Atoms per launch (the constant-memory chunk, at most 1024).
    pub chunk: usize,
    /// Lattice spacing, Å.
    pub spacing: f32,
}

/// The problem shape of tier `size`.
pub fn shape(size: Size) -> Shape {
    match size {
        Size::Test => Shape {
            nx: 128,
            ny: 32,
            atoms: 100,
            chunk: 50,
            spacing: 0.5,
        },
        Size::Bench => Shape {
            nx: 256,
            ny: 256,
            atoms: 2048,
            chunk: 1024,
            spacing: 0.5,
        },
    }
}

/// One atom as stored in constant memory: position x, y, squared distance to the lattice
/// plane (z = 0), charge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Atom {
    /// x position, Å.
    pub x: f32,
    /// y position, Å.
    pub y: f32,
    /// Squared distance to the lattice plane, Å².
    pub dz2: f32,
    /// Charge, uniform in [−1, 1).
    pub q: f32,
}

/// Seeded atoms: uniform over the slice's x/y extent, 0.5–4.5 Å above the plane, q in [−1, 1).
pub fn generate(size: Size) -> Vec<Atom> {
    let s = shape(size);
    let mut rng = Rng::for_workload(NAME, size);
    let xmax = s.nx as f32 * s.spacing;
    let ymax = s.ny as f32 * s.spacing;
    (0..s.atoms)
        .map(|_| {
            let x = rng.range_f32(0.0, xmax);
            let y = rng.range_f32(0.0, ymax);
            let z = rng.range_f32(0.5, 4.5);
            let q = rng.range_f32(-1.0, 1.0);
            Atom {
                x,
                y,
                dz2: z * z,
                q,
            }
        })
        .collect()
}

/// CPU reference: the energy grid (row-major, `ny × nx`), one partial sum per chunk as the
/// kernel accumulates it.
pub fn reference(s: &Shape, atoms: &[Atom]) -> Vec<f32> {
    let mut energy = vec![0.0f32; (s.nx * s.ny) as usize];
    for (yi, row) in energy.chunks_mut(s.nx as usize).enumerate() {
        let y = yi as f32 * s.spacing;
        for (xi, e_out) in row.iter_mut().enumerate() {
            let x = xi as f32 * s.spacing;
            for chunk in atoms.chunks(s.chunk) {
                let mut e = 0.0f32;
                for a in chunk {
                    let dy = y - a.y;
                    let dyz2 = dy.mul_add(dy, a.dz2);
                    let dx = x - a.x;
                    let r2 = dx.mul_add(dx, dyz2);
                    let rs = 1.0 / r2.sqrt();
                    e = a.q.mul_add(rs, e);
                }
                *e_out += e;
            }
        }
    }
    energy
}

fn const_bytes(chunk: &[Atom]) -> Vec<u8> {
    chunk
        .iter()
        .flat_map(|a| [a.x, a.y, a.dz2, a.q])
        .flat_map(|v| v.to_bits().to_le_bytes())
        .collect()
}

impl Workload for Cp {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: NAME,
            suite: "ispass",
            character: "F S",
            description: "Coulombic potential on a lattice slice: 8 points per thread, atoms in \
                          constant memory, rsqrt; one launch per atom chunk",
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let s = shape(size);
        debug_assert!(
            s.chunk <= CHUNK_MAX
                && s.nx.is_multiple_of(BLOCK[0] * UNROLL)
                && s.ny.is_multiple_of(BLOCK[1])
        );
        let atoms = generate(size);
        let mut module = Module::parse(PTX, PTX_FILE)?;
        let d_energy = alloc_words(gpu, (s.nx * s.ny) as usize)?;
        let mut launches = 0;
        for chunk in atoms.chunks(s.chunk) {
            module.set_const("c_atoms", &const_bytes(chunk))?;
            let kernel = module
                .kernel("cenergy")
                .ok_or_else(|| SimError::Other(format!("{PTX_FILE}: no kernel 'cenergy'")))?;
            launch(
                gpu,
                &kernel,
                [s.nx / (BLOCK[0] * UNROLL), s.ny / BLOCK[1], 1],
                BLOCK,
                vec![
                    ParamValue::U32(chunk.len() as u32),
                    ParamValue::F32(s.spacing),
                    ParamValue::U32(s.nx),
                    ptr(d_energy),
                ],
            )?;
            launches += 1;
        }
        let check = if check {
            let got = download_f32(gpu, d_energy, (s.nx * s.ny) as usize)?;
            Some(compare_f32(
                "energy",
                &got,
                &reference(&s, &atoms),
                1e-5,
                1e-3,
            ))
        } else {
            None
        };
        Ok(RunReport { launches, check })
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("cenergy", 64896)],
            regs_hint: Some(12),
        }
    }
}
