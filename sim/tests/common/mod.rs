//! Helpers shared by the integration tests: [`Replay`], a kernel stream replaying prepared
//! per-warp instruction lists (trace tests), [`Counting`], an emulator that attributes
//! executed warp instructions to kernel names (workload tests), and [`run_checked`] /
//! [`pipe_ops`] for timing runs whose functional results must hold. Each test binary uses
//! part of them.
#![allow(dead_code)]

use sim::emu::Emulator;
use sim::inst::WarpInst;
use sim::{DevPtr, Gpu, KernelInfo, KernelStream, Launch, SimError, Step};
use std::collections::BTreeMap;

/// Per-warp instruction lists keyed by (CTA, warp).
pub type Streams = BTreeMap<(u32, u32), Vec<WarpInst>>;

/// A kernel stream replaying prepared per-warp instruction lists.
pub struct Replay {
    pub info: KernelInfo,
    pub warps: Streams,
    pub pos: BTreeMap<(u32, u32), usize>,
}

impl Replay {
    pub fn new(info: KernelInfo, warps: Streams) -> Replay {
        Replay {
            info,
            warps,
            pos: BTreeMap::new(),
        }
    }
}

impl KernelStream for Replay {
    fn info(&self) -> &KernelInfo {
        &self.info
    }
    fn begin_cta(&mut self, _cta: u32, _sm: u32, _slot: u32) -> Result<(), SimError> {
        Ok(())
    }
    fn next_inst(
        &mut self,
        cta: u32,
        warp: u32,
        _c: u64,
        out: &mut WarpInst,
    ) -> Result<Step, SimError> {
        let p = self.pos.entry((cta, warp)).or_insert(0);
        match self.warps.get(&(cta, warp)).and_then(|v| v.get(*p)) {
            Some(i) => {
                *out = *i;
                *p += 1;
                Ok(Step::Inst)
            }
            None => Ok(Step::Done),
        }
    }
    fn end_cta(&mut self, _cta: u32) -> Result<(), SimError> {
        Ok(())
    }
}

/// An emulator that attributes executed warp instructions to kernel names.
pub struct Counting {
    pub emu: Emulator,
    pub per_kernel: BTreeMap<String, u64>,
}

impl Gpu for Counting {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.emu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.emu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.emu.copy_from_device(src, out)
    }
    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        let before = self.emu.warp_insts();
        self.emu.launch(launch)?;
        *self
            .per_kernel
            .entry(launch.kernel.name.clone())
            .or_default() += self.emu.warp_insts() - before;
        Ok(())
    }
}

/// Runs workload `name` at test size on `cfg` with its functional check, which must pass, and
/// returns the Activity.
pub fn run_checked(cfg: &sim::config::GpuConfig, name: &str) -> sim::activity::Activity {
    let mut gpu = sim::timing::Simulation::new(cfg).gpu().unwrap();
    let rep = sim::workloads::find(name)
        .unwrap()
        .run(sim::workloads::Size::Test, &mut gpu, true)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let check = rep.check.unwrap();
    assert!(check.passed, "{name}: {}", check.detail);
    gpu.activity().clone()
}

/// Per pipe name (`int`, `fp`, `sfu`, …) and op: (ops, active lanes) summed over units and SMs.
pub fn pipe_ops(k: &sim::activity::KernelActivity) -> BTreeMap<(String, String), (u64, u64)> {
    let mut m = BTreeMap::new();
    for sm in &k.sms {
        for p in &sm.exec {
            for (op, v) in &p.ops {
                let e = m.entry((p.pipe.clone(), op.clone())).or_insert((0, 0));
                e.0 += v.ops;
                e.1 += v.lanes;
            }
        }
    }
    m
}

/// Copies `v` into a fresh device allocation (at least 4 bytes) and returns its address.
pub fn up<T: Copy>(gpu: &mut Emulator, v: &[T]) -> u64 {
    let bytes = std::mem::size_of_val(v);
    // a byte view of plain numbers (T: Copy, no padding in the element types the tests use)
    let raw: Vec<u8> =
        unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, bytes) }.to_vec();
    let p = gpu.alloc(bytes.max(4) as u64).unwrap();
    gpu.copy_to_device(p, &raw).unwrap();
    p
}

/// `n` little-endian u32 words from device address `p`.
pub fn down_u32(gpu: &mut Emulator, p: u64, n: usize) -> Vec<u32> {
    let mut b = vec![0u8; n * 4];
    gpu.copy_from_device(p, &mut b).unwrap();
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// `n` little-endian u64 words from device address `p`.
pub fn down_u64(gpu: &mut Emulator, p: u64, n: usize) -> Vec<u64> {
    let mut b = vec![0u8; n * 8];
    gpu.copy_from_device(p, &mut b).unwrap();
    b.chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// The project's one nvcc search, shared with the root build script.
#[path = "../../../src/program/nvcc_find.rs"]
pub mod nvcc_find;

/// `cu` compiled to PTX (sm_75, -O3) with the nvcc the project finds, as text; `None` (the
/// test reported as ignored) when there is none, which fails under `CI`.
pub fn nvcc_ptx(cu: &std::path::Path) -> Option<String> {
    nvcc_ptx_arch(cu, "sm_75")
}

/// `cu` compiled to PTX for `arch` (`sm_80`, ...) at -O3, as [`nvcc_ptx`].
pub fn nvcc_ptx_arch(cu: &std::path::Path, arch: &str) -> Option<String> {
    let Some(nvcc) = nvcc_find::find() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "nvcc not found under CI (pip install nvidia-cuda-nvcc nvidia-cuda-cccl)"
        );
        eprintln!("ignored: nvcc not found (pip install nvidia-cuda-nvcc nvidia-cuda-cccl)");
        return None;
    };
    let stem = cu.file_stem().unwrap().to_string_lossy().into_owned();
    let tmp = std::env::temp_dir().join(format!("gpuenergy-{stem}-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let out = tmp.join(format!("{stem}.ptx"));
    let st = std::process::Command::new(&nvcc)
        .args(["-ptx", "-O3", &format!("-arch={arch}"), "-o"])
        .arg(&out)
        .arg(cu)
        .status()
        .unwrap();
    assert!(st.success(), "nvcc failed on {}", cu.display());
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_dir_all(&tmp);
    Some(text)
}

/// Deterministic test data: `n` words of a xorshift32 sequence started from `seed`.
pub fn data(n: usize, seed: u32) -> Vec<u32> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect()
}
