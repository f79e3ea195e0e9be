//! histo (Parboil-style): 256-bin histogram of a skewed byte stream.
//!
//! Each CTA of 256 threads accumulates a private histogram in shared memory with
//! `atom.shared.add` (the skewed input makes lanes of a warp collide on the same bins), then
//! merges the non-empty bins into the global histogram with `red.global.add`. Integer-only:
//! the check is exact.
//!
//! Input: bytes `floor(256 u^3)` with `u` uniform in [0, 1) (a third of all bytes fall in the
//! lowest 18 bins), packed four per little-endian 32-bit word.

use super::{
    alloc_words, compare_exact, download_u32, launch, load_kernels, ptr, upload_u32, Manifest, Rng,
    RunReport, Size, Workload, WorkloadInfo,
};
use crate::stream::{Gpu, ParamValue};
use crate::SimError;

const PTX: &str = include_str!("../../workloads/histo.ptx");
const PTX_FILE: &str = "sim/workloads/histo.ptx";
const NAME: &str = "histo";
const BINS: usize = 256;
const BLOCK: u32 = 256;

/// The histo workload.
pub struct Histo;

/// Problem shape of one tier.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Input bytes (a multiple of 4).
    pub bytes: usize,
    /// CTAs of the grid-stride loop.
    pub ctas: u32,
}

/// The problem shape of tier `size`.
pub fn shape(size: Size) -> Shape {
    match size {
        Size::Test => Shape {
            bytes: 64 * 1024,
            ctas: 16,
        },
        Size::Bench => Shape {
            bytes: 64 * 1024 * 1024,
            ctas: 240,
        },
    }
}

/// Seeded input words (four skewed bytes each).
pub fn generate(size: Size) -> Vec<u32> {
    let s = shape(size);
    let mut rng = Rng::for_workload(NAME, size);
    (0..s.bytes / 4)
        .map(|_| {
            let mut w = 0u32;
            for k in 0..4 {
                let u = rng.unit_f32();
                let b = ((256.0 * u * u * u) as u32).min(255);
                w |= b << (8 * k);
            }
            w
        })
        .collect()
}

/// CPU reference: the 256-bin histogram of all bytes.
pub fn reference(words: &[u32]) -> Vec<u32> {
    let mut bins = vec![0u32; BINS];
    for &w in words {
        for k in 0..4 {
            bins[((w >> (8 * k)) & 255) as usize] += 1;
        }
    }
    bins
}

impl Workload for Histo {
    fn info(&self) -> WorkloadInfo {
        WorkloadInfo {
            name: NAME,
            suite: "parboil",
            character: "I A Sh B",
            description: "256-bin byte histogram: shared-memory atomics per CTA, global atomic \
                          merge; skewed input",
        }
    }

    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError> {
        let s = shape(size);
        let words = generate(size);
        let kernel = load_kernels(PTX, PTX_FILE, &["histo_kernel"])?.remove(0);
        let d_in = upload_u32(gpu, &words)?;
        let d_bins = alloc_words(gpu, BINS)?;
        launch(
            gpu,
            &kernel,
            [s.ctas, 1, 1],
            [BLOCK, 1, 1],
            vec![ptr(d_in), ParamValue::U32(words.len() as u32), ptr(d_bins)],
        )?;
        let check = if check {
            let got = download_u32(gpu, d_bins, BINS)?;
            Some(compare_exact("bins", &got, &reference(&words)))
        } else {
            None
        };
        Ok(RunReport { launches: 1, check })
    }

    fn manifest(&self) -> Manifest {
        Manifest {
            test_warp_insts: &[("histo_kernel", 15744)],
            regs_hint: None,
        }
    }
}
