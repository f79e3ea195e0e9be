//! Functional SIMT emulator of the PTX subset (simulator §3.1, control-flow §3).
//!
//! [`Emulator`] is a [`Gpu`]: host programs allocate sparse global memory, copy data and launch
//! kernels. A functional launch runs the CTAs one after another; within a CTA the warps run
//! round-robin, each for up to [`QUANTUM`] instructions or until it reaches `bar.sync` or exits,
//! and the barrier releases when every live warp has arrived.
//!
//! For the cycle-level timing model, [`Emulator::stream`] gives a [`KernelStream`]: the timing
//! model opens CTAs on SMs and pulls one dynamic [`WarpInst`](crate::inst::WarpInst) per call, in
//! whatever order its schedulers choose (see the rules on [`KernelStream`]).
//!
//! What each [`WarpInst`](crate::inst::WarpInst) record holds:
//! - `pc` = 8 × instruction index; `family`/`op` per simulator §3.1.4 (see
//!   [`crate::ptx::build::classify`]);
//! - `active_mask` = SIMT-stack mask ∧ guard (0 when every lane is predicated off);
//! - `reconv_pc` on a branch that diverged: the first PC of the ipdom block, or
//!   [`RPC_EXIT`](crate::ptx::RPC_EXIT) when the ipdom is EXIT;
//! - registers are architectural numbers from the allocator: destinations list every 32-bit
//!   register written (both halves of a 64-bit pair) and predicates as `PRED_BASE + p`; sources
//!   list the address base and the low (or only) register of each operand, then high halves,
//!   then the guard predicate, cut at `MAX_SRC` (see [`crate::ptx::build::template`]);
//! - `mem` for ld/st/atom/red: space, bytes per thread (vector width included), and per-lane
//!   addresses of active lanes: global = device address; shared = offset in the CTA's shared
//!   window; local = offset in the thread's private window (the timing model applies its
//!   thread-interleaved local layout); const = offset in the module's constant bank; param =
//!   offset in the parameter buffer.
//!
//! The PDOM stack follows control-flow §3 with `stack_update_at = issue` semantics: the stack
//! is updated as the instruction is produced. [`Emulator::push_order`] selects
//! `taken_on_top` (default) or `fallthrough_on_top`; [`Emulator::stack_stats`] sums the stack
//! counters of completed CTAs.

pub mod alu;
mod alu_ext;
mod alu_more;
mod callret;
pub mod cvt;
pub mod devcall;
pub mod exec;
pub mod launch;
mod memop;
pub mod memory;
pub mod pool;
pub mod reconv;
pub mod simt;
pub mod stream;
pub mod tensor;
mod texture;
pub mod warp;
pub mod warpops;

use crate::stream::{DevPtr, Gpu, KernelStream};
use crate::{Launch, SimError};
use memory::GlobalMem;
pub use reconv::{Reconvergence, ReconvergenceFactory, ReconvergenceSlot, WarpControl};
pub use simt::{Entry, EntryKind, PushOrder, SimtStack, StackStats};
use std::collections::HashMap;

/// Instructions a warp runs before the functional scheduler moves to the next warp.
pub const QUANTUM: u32 = 256;

/// Default `%nwarpid` (warp slots per SM of the GTX480 preset).
pub const DEFAULT_WARP_SLOTS: u32 = 48;

/// Default core clock of `%globaltimer`, MHz: the GTX480 preset's `gpu.core_mhz`, used until
/// [`Emulator::configure`] sets the configured one.
pub const DEFAULT_CORE_MHZ: f64 = 700.0;

/// Default call-stack bytes per thread of a kernel that calls recursive device functions:
/// CUDA's default `cudaLimitStackSize` (1 KiB).
pub const DEFAULT_STACK_LIMIT_BYTES: u32 = 1024;

/// Largest accepted call-stack limit per thread (bytes): CUDA's per-thread local-memory limit.
pub const MAX_STACK_LIMIT_BYTES: u32 = 512 * 1024;

/// Default largest shared memory per CTA (bytes).
pub const DEFAULT_MAX_SHARED_PER_CTA: u32 = 48 * 1024;

/// The co-residency check of cooperative launches ([`Emulator::coop_check`]).
pub type CoopCheck = Box<dyn Fn(&crate::stream::KernelInfo) -> Result<(), String> + Send + Sync>;

/// The functional GPU.
pub struct Emulator {
    pub(crate) mem: GlobalMem,
    /// Device addresses of each module's `.global` variables, by module id.
    pub(crate) module_globals: HashMap<u64, Vec<u64>>,
    pub(crate) warp_insts: u64,
    pub(crate) launches: u64,
    pub(crate) stack_stats: StackStats,
    /// `%nwarpid` reported to kernels.
    pub warp_slots: u32,
    /// Largest static + dynamic shared memory a launch may use.
    pub max_shared_per_cta: u32,
    /// SIMT stack push order.
    pub push_order: PushOrder,
    /// Hardware PDOM stack depth bound (entries): a warp whose stack grows deeper stops with a
    /// runtime error (control-flow §3.1; `reconv.max_depth`, 2 × warp size by default).
    pub max_stack_depth: usize,
    /// Call-stack bytes per thread of kernels that call recursive device functions
    /// (`cudaDeviceSetLimit(cudaLimitStackSize, n)`; [`DEFAULT_STACK_LIMIT_BYTES`] by
    /// default): a call whose activation does not fit stops the kernel with a stack-overflow
    /// error naming kernel, function and limit.
    pub stack_limit_bytes: u32,
    /// Functional launches stop with [`SimError::WarpInstLimit`] after this many warp
    /// instructions in one launch (guards against kernels that never terminate); `None` = no
    /// limit.
    pub max_warp_insts_per_launch: Option<u64>,
    /// Per-warp reconvergence mechanism of launches from now on (`None`: the PDOM stack).
    pub reconvergence: Option<ReconvergenceFactory>,
    /// The device heap (`malloc`/`free`) and the `printf` output not yet taken.
    pub(crate) dev: devcall::DeviceServices,
    /// Core clock that converts cycles to `%globaltimer` nanoseconds, MHz.
    pub core_mhz: f64,
    /// The co-residency check of cooperative launches: given the launch, `Err` with the
    /// reason when its grid cannot be resident at once on the machine (CUDA's
    /// `cudaErrorCooperativeLaunchTooLarge`). The timing model installs its configuration's
    /// occupancy (`timing::cooperative_check`); `None` (a bare emulator, which models no
    /// machine) checks nothing.
    pub coop_check: Option<CoopCheck>,
    /// The grid-synchronisation workspace of cooperative launches (allocated on the first,
    /// zeroed at each).
    pub(crate) grid_ws: Option<u64>,
}

impl Default for Emulator {
    fn default() -> Self {
        Self::new()
    }
}

impl Emulator {
    /// An emulator with empty device memory.
    pub fn new() -> Self {
        Emulator {
            mem: GlobalMem::new(),
            module_globals: HashMap::new(),
            warp_insts: 0,
            launches: 0,
            stack_stats: StackStats::default(),
            warp_slots: DEFAULT_WARP_SLOTS,
            max_shared_per_cta: DEFAULT_MAX_SHARED_PER_CTA,
            push_order: PushOrder::TakenOnTop,
            max_stack_depth: exec::MAX_STACK_DEPTH,
            stack_limit_bytes: DEFAULT_STACK_LIMIT_BYTES,
            max_warp_insts_per_launch: None,
            reconvergence: None,
            dev: devcall::DeviceServices::default(),
            core_mhz: DEFAULT_CORE_MHZ,
            coop_check: None,
            grid_ws: None,
        }
    }

    /// Applies the `[reconv]` knobs of `cfg` that the functional model honours (the push order
    /// of diverged groups and the stack depth bound) and its core clock (`%globaltimer`).
    pub fn configure(&mut self, cfg: &crate::config::GpuConfig) {
        use crate::config::reconv::PushOrderKnob;
        self.push_order = match cfg.reconv.push_order {
            PushOrderKnob::TakenOnTop => PushOrder::TakenOnTop,
            PushOrderKnob::FallthroughOnTop => PushOrder::FallthroughOnTop,
        };
        self.max_stack_depth = cfg.reconv.depth_bound(cfg.gpu.warp_size) as usize;
        self.core_mhz = cfg.gpu.core_mhz;
    }

    /// Warp instructions executed so far (functional launches and streams).
    pub fn warp_insts(&self) -> u64 {
        self.warp_insts
    }

    /// Kernel launches so far (functional launches and streams).
    pub fn launches(&self) -> u64 {
        self.launches
    }

    /// PDOM-stack counters (control-flow §6) summed over every CTA completed so far: pushes,
    /// pops, divergent branches, reconvergence and cascade pops, maximum depth.
    pub fn stack_stats(&self) -> StackStats {
        self.stack_stats
    }

    /// Bytes of global address space allocated.
    pub fn allocated_bytes(&self) -> u64 {
        self.mem.allocated_bytes()
    }

    /// The `printf` output of the kernels run since the last call, one string per `printf`
    /// call, ordered by CTA, thread and call order within each launch (`emu/devcall.rs`).
    pub fn take_printf_output(&mut self) -> Vec<String> {
        self.dev.take_output()
    }

    /// Opens a checkpoint: global memory keeps an undo journal from now on
    /// ([`memory::GlobalMem::begin_journal`]) and the returned record holds the rest of the
    /// state a launch may change (module variables' addresses, counters, the device heap and
    /// `printf` output, the grid-synchronisation workspace). [`Emulator::rollback`] returns
    /// to this point; [`Emulator::commit`] keeps everything done since.
    pub fn checkpoint(&mut self) -> Checkpoint {
        self.mem.begin_journal();
        Checkpoint {
            module_globals: self.module_globals.clone(),
            warp_insts: self.warp_insts,
            launches: self.launches,
            stack_stats: self.stack_stats,
            dev: self.dev.clone(),
            grid_ws: self.grid_ws,
        }
    }

    /// Restores the state of checkpoint `c`: memory contents and allocations, and the state
    /// the record holds.
    pub fn rollback(&mut self, c: Checkpoint) {
        self.mem.rollback();
        self.module_globals = c.module_globals;
        self.warp_insts = c.warp_insts;
        self.launches = c.launches;
        self.stack_stats = c.stack_stats;
        self.dev = c.dev;
        self.grid_ws = c.grid_ws;
    }

    /// Closes the open checkpoint and keeps every change since it opened.
    pub fn commit(&mut self) {
        self.mem.commit_journal();
    }

    /// Runs `launch` functionally, as [`Gpu::launch`] does, and hands every executed warp
    /// instruction to `observer` (in the functional run's order: CTA by CTA, warps round
    /// robin).
    pub fn launch_observed<O: launch::InstObserver>(
        &mut self,
        launch: &Launch,
        observer: &mut O,
    ) -> Result<(), SimError> {
        launch::run_functional_observed(self, launch, observer)
    }

    /// Per-launch instruction stream for the timing model (borrows the emulator's memory).
    pub fn stream<'a>(
        &'a mut self,
        launch: &Launch,
    ) -> Result<Box<dyn KernelStream + 'a>, SimError> {
        Ok(Box::new(stream::EmuStream::new(self, launch)?))
    }
}

/// What [`Emulator::checkpoint`] saves besides global memory's journal.
pub struct Checkpoint {
    module_globals: HashMap<u64, Vec<u64>>,
    warp_insts: u64,
    launches: u64,
    stack_stats: StackStats,
    dev: devcall::DeviceServices,
    grid_ws: Option<u64>,
}

fn mem_err(what: &str, addr: u64, len: usize) -> SimError {
    SimError::Other(format!(
        "{what} of {len} bytes at device address {addr:#x} is outside allocated global memory"
    ))
}

impl Gpu for Emulator {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.mem.alloc(bytes, 256).ok_or_else(|| {
            SimError::Other(format!(
                "device allocation of {bytes} bytes exceeds the {} GiB address space",
                memory::MAX_GLOBAL_BYTES >> 30
            ))
        })
    }

    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.mem
            .write_bytes(dst, data)
            .map_err(|_| mem_err("copy to device", dst, data.len()))
    }

    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        let n = out.len();
        self.mem
            .read_bytes(src, out)
            .map_err(|_| mem_err("copy from device", src, n))
    }

    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        launch::run_functional(self, launch)
    }

    fn set_stack_limit(&mut self, bytes: u32) -> Result<(), SimError> {
        if bytes > MAX_STACK_LIMIT_BYTES {
            return Err(SimError::Other(format!(
                "stack limit of {bytes} bytes per thread exceeds {MAX_STACK_LIMIT_BYTES}"
            )));
        }
        self.stack_limit_bytes = bytes;
        Ok(())
    }

    fn create_texture(&mut self, desc: &crate::texture::TextureDesc) -> Result<u64, SimError> {
        desc.check()
            .map_err(|m| SimError::Other(format!("texture object: {m}")))?;
        let (base, bytes) = (desc.base, desc.bytes());
        let end = base.checked_add(bytes - 1);
        if end.is_none_or(|e| self.mem.load(e, 1).is_err() || self.mem.load(base, 1).is_err()) {
            return Err(mem_err("texture object", base, bytes as usize));
        }
        self.dev.textures.push(desc.clone());
        Ok(self.dev.textures.len() as u64)
    }
}
