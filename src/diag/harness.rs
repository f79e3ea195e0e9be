//! Running one microbenchmark kernel on the timing simulator (analytical-model §3.1): a fresh
//! [`TimingGpu`] of the configuration under test, the kernel's buffers, one or two launches in
//! the same context (the second measured, the first warming the I-cache), and the per-block
//! records read back from device memory. Timing comes only from the in-kernel `%clock64`
//! values; the outcome is `OK`, or `TIMEOUT` when any block's spin ran past its budget, a block
//! never ran, or the cycle watchdog (`sim.max_cycles`) stopped the launch.

use super::kernels::{RECORD_BYTES, STATUS_OK};
use sim::config::GpuConfig;
use sim::ptx::Kernel;
use sim::stream::{Gpu, ParamValue};
use sim::timing::TimingGpu;
use std::sync::Arc;

/// One block's record: start clock, measured cycles, status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// `%clock64` at the start of the timed region (or at kernel entry for `measure_nslot`).
    pub t0_cycles: u64,
    /// Cycles of the timed region (`measure_fu`) or of the wait (`measure_nslot`).
    pub dt_cycles: u32,
    /// [`super::kernels::STATUS_OK`], [`super::kernels::STATUS_TIMEOUT`], or 0 (never ran).
    pub status: u32,
    /// `%smid` of the multiprocessor the block ran on.
    pub smid: u32,
}

/// What a run observed.
#[derive(Clone, Debug, Default)]
pub struct RunOut {
    /// Per-block records of the measured launch.
    pub records: Vec<Record>,
    /// The watchdog stopped the measured launch.
    pub watchdog: bool,
}

impl RunOut {
    /// The §3.2 deadlock signal: any block timed out or never finished, or the watchdog fired.
    pub fn timed_out(&self) -> bool {
        self.watchdog || self.records.iter().any(|r| r.status != STATUS_OK)
    }

    /// Distinct multiprocessors the blocks ran on (`%smid`).
    pub fn distinct_sms(&self) -> usize {
        let mut v: Vec<u32> = self.records.iter().map(|r| r.smid).collect();
        v.sort_unstable();
        v.dedup();
        v.len()
    }

    /// Longest per-block cycle count.
    pub fn max_dt_cycles(&self) -> u32 {
        self.records.iter().map(|r| r.dt_cycles).max().unwrap_or(0)
    }

    /// Cycles from the earliest block start to the latest block end (in-kernel clocks).
    pub fn span_cycles(&self) -> u64 {
        let start = self.records.iter().map(|r| r.t0_cycles).min().unwrap_or(0);
        let end = self
            .records
            .iter()
            .map(|r| r.t0_cycles + r.dt_cycles as u64)
            .max()
            .unwrap_or(0);
        end.saturating_sub(start)
    }
}

/// A kernel launch of the suite.
pub struct RunSpec<'a> {
    /// The kernel (registers per thread already set).
    pub kernel: &'a Arc<Kernel>,
    /// Blocks in the grid.
    pub blocks: u32,
    /// Threads per block.
    pub threads: u32,
    /// Cycle budget of every spin (the in-kernel deadline).
    pub budget_cycles: u64,
    /// Extra parameters after the four common ones.
    pub extra: Vec<Extra>,
    /// Launch twice and measure the second launch.
    pub twice: bool,
}

/// An extra kernel parameter.
#[derive(Clone, Copy, Debug)]
pub enum Extra {
    /// A 32-bit value.
    U32(u32),
    /// A device buffer of 256 bytes whose first 8 bytes hold its own address.
    ChaseBuffer,
}

/// Parses a generated PTX module and returns its kernel `name`.
pub fn kernel(text: &str, name: &str) -> Result<Arc<Kernel>, sim::SimError> {
    let m = sim::ptx::Module::parse(text, &format!("diag:{name}.ptx"))?;
    m.kernel(name)
        .ok_or_else(|| sim::SimError::Other(format!("generated PTX has no kernel '{name}'")))
}

/// The launch of `kernel` as `blocks` × `threads` with zero parameters, for checks only.
pub fn launch_of(
    k: &Arc<Kernel>,
    blocks: u32,
    threads: u32,
    params: Vec<ParamValue>,
) -> sim::Launch {
    sim::Launch {
        kernel: k.clone(),
        grid: [blocks, 1, 1],
        block: [threads, 1, 1],
        params,
        shared_bytes: 0,
        cooperative: false,
    }
}

/// The launch's `Ok`/`Err` without running it ([`TimingGpu::check_launch`]); `Err` holds the
/// simulator's message naming the limit.
pub fn check(cfg: &GpuConfig, k: &Arc<Kernel>, blocks: u32, threads: u32) -> Result<(), String> {
    let gpu = TimingGpu::new(cfg.clone());
    let params = k
        .code
        .params
        .iter()
        .map(|p| match p.ty {
            sim::ptx::Ty::U64 | sim::ptx::Ty::S64 | sim::ptx::Ty::B64 => ParamValue::U64(0),
            _ => ParamValue::U32(0),
        })
        .collect();
    gpu.check_launch(&launch_of(k, blocks, threads, params))
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The largest warp count `c ≤ cmax` whose one-block launch of `k` (c·w threads) the
/// simulator accepts, found through [`check`] (the launch API's `Ok`/`Err`, observable without
/// the configuration). A block that does not fit the register file or the warp slots with the
/// template's own registers is refused; the suite measures only shapes that launch. 0 when not
/// even one warp launches.
pub fn max_fitting_warps(cfg: &GpuConfig, k: &Arc<Kernel>, w: u32, cmax: u32) -> u32 {
    (1..=cmax)
        .rev()
        .find(|&c| check(cfg, k, 1, c * w).is_ok())
        .unwrap_or(0)
}

/// Runs `spec` on a fresh GPU of `cfg`. The watchdog is `watchdog_cycles` per launch (after
/// the launch gap). A launch the simulator refuses is an `Err` with its message.
pub fn run(cfg: &GpuConfig, spec: &RunSpec, watchdog_cycles: u64) -> Result<RunOut, String> {
    let mut cfg = cfg.clone();
    cfg.sim.max_cycles = watchdog_cycles + cfg.gpu.kernel_launch_latency + 1;
    cfg.sim.max_warp_insts = 0;
    let mut gpu = TimingGpu::new(cfg);
    let e = |x: sim::SimError| x.to_string();
    let out = gpu.alloc(spec.blocks as u64 * RECORD_BYTES).map_err(e)?;
    let sem = gpu.alloc(4).map_err(e)?;
    let mut params = vec![
        ParamValue::U64(out),
        ParamValue::U64(sem),
        ParamValue::U32(spec.blocks),
        ParamValue::U64(spec.budget_cycles),
    ];
    for x in &spec.extra {
        match x {
            Extra::U32(v) => params.push(ParamValue::U32(*v)),
            Extra::ChaseBuffer => {
                let p = gpu.alloc(256).map_err(e)?;
                gpu.copy_to_device(p, &p.to_le_bytes()).map_err(e)?;
                params.push(ParamValue::U64(p));
            }
        }
    }
    let l = launch_of(spec.kernel, spec.blocks, spec.threads, params);
    let n = if spec.twice { 2 } else { 1 };
    let mut watchdog = false;
    for _ in 0..n {
        gpu.copy_to_device(sem, &[0; 4]).map_err(e)?;
        gpu.copy_to_device(
            out,
            &vec![0u8; (spec.blocks as u64 * RECORD_BYTES) as usize],
        )
        .map_err(e)?;
        gpu.launch(&l).map_err(e)?;
        watchdog = gpu.last_launch_truncated();
    }
    let mut bytes = vec![0u8; (spec.blocks as u64 * RECORD_BYTES) as usize];
    gpu.copy_from_device(out, &mut bytes).map_err(e)?;
    let records = bytes
        .chunks_exact(RECORD_BYTES as usize)
        .map(|c| Record {
            t0_cycles: u64::from_le_bytes(c[0..8].try_into().expect("8 bytes")),
            dt_cycles: u32::from_le_bytes(c[8..12].try_into().expect("4 bytes")),
            status: u32::from_le_bytes(c[12..16].try_into().expect("4 bytes")) & 0xff,
            smid: u32::from_le_bytes(c[12..16].try_into().expect("4 bytes")) >> 8,
        })
        .collect();
    Ok(RunOut { records, watchdog })
}

/// Runs the warp-id logger with one block of `threads` threads and returns, per warp,
/// `(warpid, [clock values])`.
pub fn run_warpid(
    cfg: &GpuConfig,
    k: &Arc<Kernel>,
    threads: u32,
    k_reads: usize,
) -> Result<Vec<(u32, Vec<u32>)>, String> {
    let mut gpu = TimingGpu::new(cfg.clone());
    let e = |x: sim::SimError| x.to_string();
    let warps = threads.div_ceil(32) as usize;
    let words = warps * (k_reads + 1);
    let out = gpu.alloc(4 * words as u64).map_err(e)?;
    let l = launch_of(k, 1, threads, vec![ParamValue::U64(out)]);
    gpu.launch(&l).map_err(e)?;
    gpu.launch(&l).map_err(e)?;
    let mut bytes = vec![0u8; 4 * words];
    gpu.copy_from_device(out, &mut bytes).map_err(e)?;
    let w: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    Ok(w.chunks_exact(k_reads + 1)
        .map(|c| (c[0], c[1..].to_vec()))
        .collect())
}
