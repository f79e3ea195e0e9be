//! Built-in workload suite (simulator §4): hand-written PTX kernels with deterministic
//! seeded inputs, a CPU reference for each, and a host program that drives any [`Gpu`].
//!
//! Every workload is a unit struct implementing [`Workload`], registered in [`all`]. Its kernels
//! live in `sim/workloads/NAME.ptx` and are embedded with `include_str!`.
//!
//! Inputs come from [`Rng`]: SplitMix64 seeded with FNV-1a-64(name) XOR tier (test = 0,
//! bench = 1); a float is `(u >> 40) · 2^-24` scaled to its range.

use crate::stream::{DevPtr, Dim3, Gpu, ParamValue};
use crate::SimError;

// ======================= REGISTRY: module declarations =======================
// One `pub mod NAME;` line per workload (file sim/src/workloads/NAME.rs). Append only.
// ---- workload engineer #1 (rows 1-10) ----
pub mod backprop;
pub mod bfs;
pub mod btree;
pub mod gaussian;
pub mod hotspot;
pub mod kmeans;
pub mod lavamd;
pub mod lud;
pub mod nw;
pub mod pathfinder;
// ---- workload engineer #2 (rows 11-20) ----
pub mod cp;
pub mod cutcp;
pub mod heartwall_like;
pub mod histo;
pub mod lbm;
pub mod mriq;
pub mod sgemm;
pub mod spmv;
pub mod srad;
pub mod stencil;
// ======================= END module declarations =============================

/// The registered workloads, in any order ([`all`] sorts them by name).
fn registry() -> Vec<&'static dyn Workload> {
    vec![
        // ======================= REGISTRY: entries =======================
        // One `&NAME::Type,` line per workload. Append only.
        // ---- workload engineer #1 (rows 1-10) ----
        &backprop::Backprop,
        &bfs::Bfs,
        &btree::Btree,
        &gaussian::Gaussian,
        &hotspot::Hotspot,
        &kmeans::Kmeans,
        &lavamd::Lavamd,
        &lud::Lud,
        &nw::Nw,
        &pathfinder::Pathfinder,
        // ---- workload engineer #2 (rows 11-20) ----
        &cp::Cp,
        &cutcp::Cutcp,
        &heartwall_like::HeartwallLike,
        &histo::Histo,
        &lbm::Lbm,
        &mriq::Mriq,
        &sgemm::Sgemm,
        &spmv::Spmv,
        &srad::Srad,
        &stencil::Stencil,
        // ======================= END entries =============================
    ]
}

/// Input size tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Size {
    /// CI tier: at most 2·10^5 warp instructions.
    Test,
    /// Benchmark tier: about 10^7–10^8 warp instructions.
    Bench,
}

impl Size {
    /// The tier number XOR-ed into the seed (test = 0, bench = 1).
    pub fn tier(self) -> u64 {
        match self {
            Size::Test => 0,
            Size::Bench => 1,
        }
    }

    /// Tier name as written on the command line: `test` or `bench`.
    pub fn as_str(self) -> &'static str {
        match self {
            Size::Test => "test",
            Size::Bench => "bench",
        }
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Size {
    type Err = SimError;
    fn from_str(s: &str) -> Result<Self, SimError> {
        match s {
            "test" => Ok(Size::Test),
            "bench" => Ok(Size::Bench),
            _ => Err(SimError::Other(format!(
                "unknown workload size '{s}': expected 'test' or 'bench'"
            ))),
        }
    }
}

/// Static description of a workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct WorkloadInfo {
    /// Short name, e.g. "hotspot".
    pub name: &'static str,
    /// "rodinia" | "parboil" | "ispass" | ...
    pub suite: &'static str,
    /// Space-separated tags from spec §4, e.g. "F B Sh D" (see [`tag_word`]).
    pub character: &'static str,
    /// One-line description of what the kernels compute.
    pub description: &'static str,
}

/// Outcome of comparing device results with the CPU reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// True when the device results match the reference (within tolerance for floats).
    pub passed: bool,
    /// e.g. "max rel err 3.1e-7 over 4096 floats".
    pub detail: String,
}

impl CheckResult {
    /// Combines several checks: passes when all pass; details are joined with "; ".
    pub fn all(parts: Vec<CheckResult>) -> CheckResult {
        CheckResult {
            passed: parts.iter().all(|c| c.passed),
            detail: parts
                .iter()
                .map(|c| c.detail.as_str())
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
}

/// What one run of a workload did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunReport {
    /// Number of kernel launches issued.
    pub launches: u32,
    /// Present when `run` was asked to check.
    pub check: Option<CheckResult>,
}

/// Regression data of a workload (spec §4 "manifest").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    /// Expected dynamic warp instructions per kernel name, summed over all launches of a
    /// `Size::Test` run on the functional emulator. Sorted by kernel name.
    pub test_warp_insts: &'static [(&'static str, u64)],
    /// Register-count hint from the spec table (allocator cross-check, informative only).
    pub regs_hint: Option<u32>,
}

/// A built-in workload: a host program with seeded inputs and a CPU reference.
pub trait Workload: Sync {
    /// Name, suite, character tags and description.
    fn info(&self) -> WorkloadInfo;
    /// Generates the seeded inputs, allocates and copies them to `gpu`, launches the kernels
    /// (a host loop may read results back between launches), and, when `check` is true, copies
    /// the results back and compares them with the CPU reference.
    fn run(&self, size: Size, gpu: &mut dyn Gpu, check: bool) -> Result<RunReport, SimError>;
    /// Regression data; the default is empty (the suite test reports it as missing).
    fn manifest(&self) -> Manifest {
        Manifest::default()
    }
    /// What on-disk caches key this workload's runs by: the name for a built-in workload
    /// (its code is part of the executable, which the caches also key by); a host program
    /// loaded from files returns a hash of their contents, so that an edited program is never
    /// read back under its old results.
    fn identity(&self) -> String {
        self.info().name.to_string()
    }
}

/// All workloads, sorted by name.
pub fn all() -> Vec<&'static dyn Workload> {
    let mut v = registry();
    v.sort_by_key(|w| w.info().name);
    v
}

/// The workload called `name`, if any.
pub fn find(name: &str) -> Option<&'static dyn Workload> {
    registry().into_iter().find(|w| w.info().name == name)
}

/// The word for one character tag of spec §4 (e.g. "F" → "FP-heavy"); `None` if unknown.
pub fn tag_word(tag: &str) -> Option<&'static str> {
    Some(match tag {
        "F" => "FP-heavy",
        "I" => "INT-heavy",
        "S" => "SFU-heavy",
        "D" => "divergent",
        "M" => "memory-bound",
        "O" => "low occupancy",
        "B" => "barrier-heavy",
        "Sh" => "shared memory",
        "A" => "atomics",
        "K" => "many launches",
        _ => return None,
    })
}

/// The tags of a `character` string expanded to words, comma-separated
/// ("F B Sh" → "FP-heavy, barrier-heavy, shared memory"). Unknown tags are kept as they are.
pub fn character_words(character: &str) -> String {
    character
        .split_whitespace()
        .map(|t| tag_word(t).unwrap_or(t))
        .collect::<Vec<_>>()
        .join(", ")
}

// ------------------------------------------------------------------------------------------
// Seeded inputs
// ------------------------------------------------------------------------------------------

/// FNV-1a 64-bit hash of a byte string (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// SplitMix64 (Steele, Lea, Flood 2014): state += golden gamma, then a 3-step xor-shift-multiply
/// finaliser.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    /// The input stream of workload `name` at tier `size`: seed = FNV-1a-64(name) XOR tier.
    pub fn for_workload(name: &str, size: Size) -> Self {
        Rng::new(fnv1a64(name.as_bytes()) ^ size.tier())
    }

    /// Next 64-bit output (SplitMix64 step).
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Next 32-bit output: the high half of `next_u64`.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// Uniform float in [0, 1): `(u >> 40) · 2^-24` (exact in f32).
    pub fn unit_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / 16_777_216.0)
    }

    /// Uniform float in [lo, hi).
    pub fn range_f32(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit_f32()
    }

    /// Uniform integer in [0, n) for n ≥ 1 (multiply-high, bias < n / 2^64).
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u32
    }

    /// `n` floats uniform in [lo, hi).
    pub fn vec_f32(&mut self, n: usize, lo: f32, hi: f32) -> Vec<f32> {
        (0..n).map(|_| self.range_f32(lo, hi)).collect()
    }

    /// `n` integers uniform in [0, bound).
    pub fn vec_below(&mut self, n: usize, bound: u32) -> Vec<u32> {
        (0..n).map(|_| self.below(bound)).collect()
    }
}

// ------------------------------------------------------------------------------------------
// Device buffers
// ------------------------------------------------------------------------------------------

fn words_to_bytes(words: impl Iterator<Item = u32>) -> Vec<u8> {
    words.flat_map(|w| w.to_le_bytes()).collect()
}

/// Allocates `n` zeroed 4-byte words (at least one, so every buffer has its own address).
pub fn alloc_words(gpu: &mut dyn Gpu, n: usize) -> Result<DevPtr, SimError> {
    gpu.alloc(4 * n.max(1) as u64)
}

/// Allocates a buffer for `data` and copies it to the device.
pub fn upload_u32(gpu: &mut dyn Gpu, data: &[u32]) -> Result<DevPtr, SimError> {
    let p = alloc_words(gpu, data.len())?;
    gpu.copy_to_device(p, &words_to_bytes(data.iter().copied()))?;
    Ok(p)
}

/// Allocates a buffer for `data` and copies it to the device.
pub fn upload_i32(gpu: &mut dyn Gpu, data: &[i32]) -> Result<DevPtr, SimError> {
    let p = alloc_words(gpu, data.len())?;
    gpu.copy_to_device(p, &words_to_bytes(data.iter().map(|&v| v as u32)))?;
    Ok(p)
}

/// Allocates a buffer for `data` and copies it to the device.
pub fn upload_f32(gpu: &mut dyn Gpu, data: &[f32]) -> Result<DevPtr, SimError> {
    let p = alloc_words(gpu, data.len())?;
    gpu.copy_to_device(p, &words_to_bytes(data.iter().map(|v| v.to_bits())))?;
    Ok(p)
}

/// Overwrites an existing device buffer with `data`.
pub fn write_u32(gpu: &mut dyn Gpu, dst: DevPtr, data: &[u32]) -> Result<(), SimError> {
    gpu.copy_to_device(dst, &words_to_bytes(data.iter().copied()))
}

/// Overwrites an existing device buffer with `data`.
pub fn write_f32(gpu: &mut dyn Gpu, dst: DevPtr, data: &[f32]) -> Result<(), SimError> {
    gpu.copy_to_device(dst, &words_to_bytes(data.iter().map(|v| v.to_bits())))
}

/// Copies `n` 4-byte words back from the device.
pub fn download_u32(gpu: &mut dyn Gpu, src: DevPtr, n: usize) -> Result<Vec<u32>, SimError> {
    let mut bytes = vec![0u8; 4 * n];
    gpu.copy_from_device(src, &mut bytes)?;
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// Copies `n` 4-byte words from `src` to the host as `i32`.
pub fn download_i32(gpu: &mut dyn Gpu, src: DevPtr, n: usize) -> Result<Vec<i32>, SimError> {
    Ok(download_u32(gpu, src, n)?
        .into_iter()
        .map(|v| v as i32)
        .collect())
}

/// Copies `n` 4-byte words from `src` to the host as `f32`.
pub fn download_f32(gpu: &mut dyn Gpu, src: DevPtr, n: usize) -> Result<Vec<f32>, SimError> {
    Ok(download_u32(gpu, src, n)?
        .into_iter()
        .map(f32::from_bits)
        .collect())
}

/// Parses an embedded PTX module and returns its kernels `names`, in that order.
pub fn load_kernels(
    text: &str,
    file: &str,
    names: &[&str],
) -> Result<Vec<std::sync::Arc<crate::ptx::Kernel>>, SimError> {
    let module = crate::ptx::Module::parse(text, file)?;
    names
        .iter()
        .map(|n| {
            module.kernel(n).ok_or_else(|| {
                SimError::Other(format!("{file}: no kernel named '{n}' (workload manifest)"))
            })
        })
        .collect()
}

/// Launches `kernel` on `gpu` with no dynamic shared memory.
pub fn launch(
    gpu: &mut dyn Gpu,
    kernel: &std::sync::Arc<crate::ptx::Kernel>,
    grid: Dim3,
    block: Dim3,
    params: Vec<ParamValue>,
) -> Result<(), SimError> {
    gpu.launch(&crate::Launch {
        kernel: kernel.clone(),
        grid,
        block,
        params,
        shared_bytes: 0,
        cooperative: false,
    })
}

/// A 1-D or 2-D shape helper: `[x, y, 1]`.
pub fn dim2(x: u32, y: u32) -> Dim3 {
    [x, y, 1]
}

/// Device pointer as a kernel parameter (`.param .u64`).
pub fn ptr(p: DevPtr) -> ParamValue {
    ParamValue::U64(p)
}

// ------------------------------------------------------------------------------------------
// Comparison with the CPU reference
// ------------------------------------------------------------------------------------------

/// Compares floats: element i passes when `|got − want| ≤ rel_tol · max(|want|, abs_floor)`.
/// `abs_floor` keeps near-zero references from demanding impossible relative accuracy; state
/// it in the workload. NaN in either side fails. The detail reports the worst error and, on
/// failure, the first failing element.
pub fn compare_f32(
    label: &str,
    got: &[f32],
    want: &[f32],
    rel_tol: f32,
    abs_floor: f32,
) -> CheckResult {
    if got.len() != want.len() {
        return CheckResult {
            passed: false,
            detail: format!(
                "{label}: length {} differs from reference length {}",
                got.len(),
                want.len()
            ),
        };
    }
    let mut worst = 0.0f64;
    let mut first_bad: Option<usize> = None;
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let scale = (w.abs() as f64).max(abs_floor as f64);
        let err = if g.is_nan() || w.is_nan() {
            f64::INFINITY
        } else if g == w {
            0.0
        } else {
            (g as f64 - w as f64).abs() / scale
        };
        if err > worst {
            worst = err;
        }
        if err > rel_tol as f64 && first_bad.is_none() {
            first_bad = Some(i);
        }
    }
    match first_bad {
        None => CheckResult {
            passed: true,
            detail: format!(
                "{label}: max rel err {worst:.2e} over {} floats (tol {rel_tol:.0e})",
                got.len()
            ),
        },
        Some(i) => CheckResult {
            passed: false,
            detail: format!(
                "{label}: max rel err {worst:.2e} over {} floats exceeds tol {rel_tol:.0e}; \
                 first at [{i}]: got {} want {}",
                got.len(),
                got[i],
                want[i]
            ),
        },
    }
}

/// Compares integers (or anything with `==`) exactly.
pub fn compare_exact<T: PartialEq + std::fmt::Debug>(
    label: &str,
    got: &[T],
    want: &[T],
) -> CheckResult {
    if got.len() != want.len() {
        return CheckResult {
            passed: false,
            detail: format!(
                "{label}: length {} differs from reference length {}",
                got.len(),
                want.len()
            ),
        };
    }
    let bad: Vec<usize> = (0..got.len()).filter(|&i| got[i] != want[i]).collect();
    match bad.first() {
        None => CheckResult {
            passed: true,
            detail: format!("{label}: {} values exact", got.len()),
        },
        Some(&i) => CheckResult {
            passed: false,
            detail: format!(
                "{label}: {} of {} values differ; first at [{i}]: got {:?} want {:?}",
                bad.len(),
                got.len(),
                got[i],
                want[i]
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_known_values() {
        // Reference values of the FNV-1a 64-bit hash.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn splitmix64_known_sequence() {
        // SplitMix64 from seed 0: first outputs of the reference generator.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn floats_in_range_and_seeds_differ_by_tier() {
        let mut a = Rng::for_workload("x", Size::Test);
        let mut b = Rng::for_workload("x", Size::Bench);
        assert_ne!(a.next_u64(), b.next_u64());
        for _ in 0..1000 {
            let f = a.range_f32(-2.0, 3.0);
            assert!((-2.0..3.0).contains(&f));
            assert!(a.below(7) < 7);
        }
    }

    #[test]
    fn compare_helpers_detect_errors() {
        assert!(compare_f32("v", &[1.0, 2.0], &[1.0, 2.0], 1e-5, 1e-6).passed);
        assert!(!compare_f32("v", &[1.0, 2.1], &[1.0, 2.0], 1e-5, 1e-6).passed);
        assert!(!compare_f32("v", &[f32::NAN], &[1.0], 1e-5, 1e-6).passed);
        assert!(!compare_f32("v", &[1.0], &[1.0, 2.0], 1e-5, 1e-6).passed);
        assert!(compare_exact("v", &[1u32, 2], &[1, 2]).passed);
        assert!(!compare_exact("v", &[1u32, 3], &[1, 2]).passed);
    }

    #[test]
    fn character_words_expand() {
        assert_eq!(
            character_words("F B Sh"),
            "FP-heavy, barrier-heavy, shared memory"
        );
    }

    #[test]
    fn registry_sorted_and_unique() {
        let names: Vec<_> = all().iter().map(|w| w.info().name).collect();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(names, sorted);
        for n in &names {
            assert_eq!(find(n).unwrap().info().name, *n);
        }
    }
}
