//! Reference-mode model of thread scheduling under divergence (control-flow spec §3.4, §4,
//! §5): one model that runs the PDOM baseline, NREC, MIMD and dynamic warp formation (DWF) with
//! its five issue policies under the same scheduler-level timing, so that their cycle counts
//! compare like for like.
//!
//! Timing (control-flow spec §4.1, after W. Fung, *Dynamic Warp Formation*, MASc thesis, UBC
//! 2008): a SIMD pipeline of `n = dwf.simd_width` lanes, so a warp of `w` threads issues over
//! a *scheduler cycle* of `w/n` pipeline cycles, and each core issues at most one warp per
//! scheduler cycle. Each thread has at most one instruction in flight: it is locked from issue
//! until its write-back. An instruction writes back `w/n` cycles plus its latency after issue:
//! the `[latency]` table for arithmetic (via `timing::exec::classify`), `shmem.latency` for
//! shared memory, and for global and local memory the per-core data cache (`[l1d]`: a hit
//! costs `l1d.latency`; a miss adds `dram.latency` and occupies the core's share of the DRAM
//! bandwidth for one line). Stores complete after the hit latency and take bandwidth per line.
//! Cores do not contend with each other (no interconnect model): this is a scheduler study
//! model, not the cycle-level pipeline of `timing::sm`.
//!
//! A load line that hits a line whose fill is still in flight completes when the fill arrives
//! (it merges with the outstanding miss). The memory stage coalesces per issue slot: a line
//! that several thread groups of one slot touch (MIMD and DWF slots may hold several) is one
//! access. A thread that executes `bar.sync` continues, once the barrier releases, at the later
//! of the release and its own write-back, as a PDOM warp does.
//!
//! Modes (`reconv.mode`):
//! - `pdom`: static warps under their PDOM stacks, round-robin issue;
//! - `nrec`: a warp splits at divergence into warps that are never merged again; the scheduler
//!   visits static warps in PDOM's round-robin order and issues the oldest ready split warp of
//!   the first one that has one;
//! - `mimd`: each scheduler cycle up to `w` ready threads issue, at any PCs. The ready threads
//!   of a static warp at one PC form one group (a group arriving at a PC where one waits joins
//!   it), and the lanes fill with whole groups of consecutive static warps in PDOM's
//!   round-robin order, the last group split if it does not fit (its warp comes first next
//!   cycle). So where no warp diverges MIMD and NREC issue the same warps in the same cycles as
//!   PDOM;
//! - `dwf`: threads reaching write-back are formed into pool warps (§5.3) and a pool warp is
//!   chosen by `dwf.policy` (§5.4, §5.5 for DMaj/DMin with the port-budget model).
//!
//! Functional results are the emulator's in every mode (the thread-pool stream executes each
//! instruction with the emulator's semantics).
//!
//! Code: [`launch`] runs one launch (CTA placement, the scheduler-cycle loop), [`schedule`] one
//! core's scheduler cycle (write-back, formation, issue, execution), [`memory`] an issued
//! instruction's latency, [`state`] the model's state and [`stats`] its counters.

mod launch;
mod memory;
mod schedule;
mod state;
mod stats;

pub use launch::run_launch;
pub use stats::{DwfOccupancy, RefMemStats, RefStats, ThreadFairness, W0Split};

use super::refactivity::{self, Recorder};
use crate::activity::Activity;
use crate::config::GpuConfig;
use crate::emu::Emulator;
use crate::inst::WARP_SIZE;
use crate::stream::{DevPtr, Gpu};
use crate::{Launch, SimError};

/// A [`Gpu`] that runs every launch on the reference-mode model of `cfg.reconv.mode`; memory
/// and host copies are the emulator's.
pub struct RefGpu {
    /// The functional emulator (device memory, functional state).
    pub emu: Emulator,
    cfg: GpuConfig,
    /// Counters summed over the launches so far.
    pub stats: RefStats,
    /// Cycles of each launch, in order, with the kernel name.
    pub launches: Vec<(String, u64)>,
    recorder: Recorder,
    activity: Activity,
}

impl RefGpu {
    /// A device for `cfg` (its `reconv.mode` and `[dwf]` choose the scheduling).
    pub fn new(cfg: &GpuConfig) -> Result<Self, SimError> {
        if cfg.gpu.warp_size as usize != WARP_SIZE {
            return Err(SimError::Other(format!(
                "'gpu.warp_size' = {}: the reference-mode model needs {WARP_SIZE}",
                cfg.gpu.warp_size
            )));
        }
        unmodelled(cfg)?;
        let mut emu = Emulator::new();
        emu.configure(cfg);
        let mut activity = Activity::new(&cfg.gpu.name, &cfg.hash_hex());
        activity.provenance = Some(refactivity::provenance());
        Ok(RefGpu {
            emu,
            cfg: cfg.clone(),
            stats: RefStats::default(),
            launches: Vec::new(),
            recorder: Recorder::new(cfg)?,
            activity,
        })
    }

    /// The activity record of the launches so far ([`refactivity`]).
    pub fn activity(&self) -> &Activity {
        &self.activity
    }

    /// Consumes the device and returns its activity record.
    pub fn into_activity(self) -> Activity {
        self.activity
    }
}

/// Refuses a configuration that switches on a mechanism the reference-mode model does not
/// run ([`GpuConfig::reference_mode_unmodelled`]): its results would be the baseline's,
/// labelled with the technique.
fn unmodelled(cfg: &GpuConfig) -> Result<(), SimError> {
    let on = cfg.reference_mode_unmodelled();
    if on.is_empty() {
        return Ok(());
    }
    Err(SimError::Other(format!(
        "{}: the reference-mode model (what --activity-source reference and reconv.mode = \
         dwf, mimd or nrec run on) does not run this mechanism, so its result would be the \
         baseline's; switch it off, or use the cycle-level simulator (--activity-source sim \
         with reconv.mode = \"pdom\")",
        on.join(", ")
    )))
}

impl Gpu for RefGpu {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.emu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.recorder.host_copy(&self.cfg, dst, data.len() as u64);
        self.emu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.emu.copy_from_device(src, out)
    }
    fn set_stack_limit(&mut self, bytes: u32) -> Result<(), SimError> {
        self.emu.set_stack_limit(bytes)
    }
    fn create_texture(&mut self, desc: &crate::texture::TextureDesc) -> Result<u64, SimError> {
        self.emu.create_texture(desc)
    }
    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        let (c, k) = run_launch(
            &self.cfg,
            &mut self.emu,
            launch,
            &mut self.stats,
            Some(&mut self.recorder),
        )?;
        if let Some(k) = k {
            self.activity.add_launch(k);
        }
        self.stats.cycles += c;
        self.launches.push((launch.kernel.name.clone(), c));
        Ok(())
    }
}
