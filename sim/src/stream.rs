//! Contracts between the front ends (PTX emulator, Accel-Sim traces) and their consumers
//! (the functional runner, the trace writer, the cycle-level timing model).
//!
//! A host program (a workload, or the user's `--ptx` launch) talks to a [`Gpu`]: it allocates and
//! copies memory and launches kernels. The functional emulator is one `Gpu`; the timing simulator
//! is another that, for each launch, asks the front end for a [`KernelStream`] and steps warps in
//! the order its schedulers choose.

use crate::inst::WarpInst;
use crate::SimError;

/// Grid or CTA shape.
pub type Dim3 = [u32; 3];

/// Device address in the global memory space.
pub type DevPtr = u64;

/// Static facts of one kernel launch that the CTA scheduler and occupancy calculation need.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KernelInfo {
    /// Kernel name.
    pub name: String,
    /// Grid size in CTAs (x, y, z).
    pub grid: Dim3,
    /// CTA size in threads (x, y, z).
    pub block: Dim3,
    /// Static + dynamic shared memory per CTA, bytes.
    pub shared_bytes: u32,
    /// Registers per thread after allocation (spec §3.1.5) or from the trace header.
    pub regs_per_thread: u32,
}

impl KernelInfo {
    /// Threads per CTA.
    pub fn threads_per_cta(&self) -> u32 {
        self.block[0] * self.block[1] * self.block[2]
    }
    /// Warps per CTA (the last warp may be partial).
    pub fn warps_per_cta(&self) -> u32 {
        self.threads_per_cta()
            .div_ceil(crate::inst::WARP_SIZE as u32)
    }
    /// CTAs in the grid.
    pub fn num_ctas(&self) -> u32 {
        self.grid[0] * self.grid[1] * self.grid[2]
    }
    /// CTA coordinates of linear id `cta` (x fastest).
    pub fn cta_coords(&self, cta: u32) -> Dim3 {
        let [gx, gy, _] = self.grid;
        [cta % gx, (cta / gx) % gy, cta / (gx * gy)]
    }
}

/// What stepping a warp produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// An instruction was written to the output record.
    Inst,
    /// The warp has exited; no more instructions.
    Done,
}

/// Dynamic instructions of one kernel launch, produced warp by warp on demand.
///
/// Rules for the consumer:
/// - `begin_cta` before any `next_inst` of that CTA; `end_cta` once all its warps are `Done`.
/// - After a warp returns a `Barrier` instruction, the consumer must not step it again until every
///   non-exited warp of its CTA has returned that barrier (this is what makes shared-memory
///   communication across warps functionally correct in execution-driven mode).
/// - Several CTAs may be open at once; CTAs may begin in any order.
pub trait KernelStream {
    /// Static facts of the launch.
    fn info(&self) -> &KernelInfo;
    /// The CTA with linear id `cta` is placed on SM `sm`; `first_warp_slot` is the warp slot of its
    /// warp 0 in that SM (for `%warpid`).
    fn begin_cta(&mut self, cta: u32, sm: u32, first_warp_slot: u32) -> Result<(), SimError>;
    /// Writes the next dynamic instruction of warp `warp` (index within the CTA) into `out`.
    /// `cycle` is the current core cycle (for `%clock`; 0 in functional runs).
    fn next_inst(
        &mut self,
        cta: u32,
        warp: u32,
        cycle: u64,
        out: &mut WarpInst,
    ) -> Result<Step, SimError>;
    /// Releases the CTA's state.
    fn end_cta(&mut self, cta: u32) -> Result<(), SimError>;
    /// Did the instruction the last [`KernelStream::next_inst`] wrote read the cycle counter
    /// into a register (`mov` from `%clock` or `%clock64`)? Its value is then the cycle passed
    /// to `next_inst`, the fetch cycle. A timing consumer that wants the hardware's value, the
    /// cycle the instruction issues, calls [`KernelStream::issue_clock`] when it issues, and
    /// before stepping the warp again while a clock read is unissued asks
    /// [`KernelStream::next_uses_clock_read`]: an instruction that reads or writes an unissued
    /// read's destination must wait until that read has issued. Front ends without a clock
    /// (traces) return `false`.
    fn reads_clock(&self) -> bool {
        false
    }
    /// Asks the stream to keep each clock read's destination pending for
    /// [`KernelStream::issue_clock`] (the timing model does; a consumer that never rewrites
    /// leaves it off, and nothing is kept).
    fn track_clock_reads(&mut self) {}
    /// Does warp `warp`'s (CTA `cta`) next instruction read or write the destination of one of
    /// its clock reads not yet rewritten by [`KernelStream::issue_clock`]? `Some(its PC)` if
    /// so (the instruction is not executed), `None` if not or when the warp has none.
    fn next_uses_clock_read(&self, cta: u32, warp: u32) -> Option<u32> {
        let _ = (cta, warp);
        None
    }
    /// Rewrites the destination of warp `warp`'s (CTA `cta`) oldest pending clock read at
    /// `pc` with `cycle`, in its active lanes; nothing when there is none.
    fn issue_clock(&mut self, cta: u32, warp: u32, pc: u32, cycle: u64) -> Result<(), SimError> {
        let _ = (cta, warp, pc, cycle);
        Ok(())
    }
    /// Bytes between consecutive instructions (the PC step of straight-line code): 8 for the
    /// emulator's PTX, 16 for SASS traces. The fetch stage uses it to tell a branch that
    /// redirects the warp from one that falls through.
    fn inst_bytes(&self) -> u32 {
        8
    }
}

/// A kernel parameter value, in declaration order.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// 32-bit unsigned integer (`.u32`, `.b32`).
    U32(u32),
    /// 32-bit signed integer (`.s32`).
    S32(i32),
    /// 64-bit value: a `.u64`/`.s64` integer or a device pointer.
    U64(u64),
    /// 32-bit float (`.f32`).
    F32(f32),
    /// 64-bit float (`.f64`).
    F64(f64),
    /// 16-bit integer (`.u16`, `.s16`, `.b16`).
    U16(u16),
    /// 8-bit integer (`.u8`, `.s8`, `.b8`).
    U8(u8),
    /// Raw little-endian bytes of exactly the parameter's size: a structure passed by value
    /// (an array parameter `.b8 p[N]`), or any parameter given as its bytes.
    Bytes(Vec<u8>),
}

/// Host-side device interface that workloads (host programs) drive.
pub trait Gpu {
    /// Allocates `bytes` of zeroed global memory, aligned to 256 bytes.
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError>;
    /// Copies `data` to device address `dst`.
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError>;
    /// Copies device memory at `src` into `out` (`out.len()` bytes).
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError>;
    /// Runs one kernel to completion (functionally, or with timing, depending on the `Gpu`).
    fn launch(&mut self, launch: &crate::Launch) -> Result<(), SimError>;
    /// True when the last launch stopped before its kernel finished (a timing run's
    /// `sim.max_cycles` or `sim.max_warp_insts`): its device results are partial, so a host
    /// loop that iterates until the device reports convergence should stop.
    fn last_launch_truncated(&self) -> bool {
        false
    }
    /// Sets the call-stack bytes per thread of the kernels launched from now on that call
    /// recursive device functions (`cudaDeviceSetLimit(cudaLimitStackSize, bytes)`). A device
    /// that cannot run such kernels refuses it.
    fn set_stack_limit(&mut self, bytes: u32) -> Result<(), SimError> {
        let _ = bytes;
        Err(SimError::Other(
            "this device does not run recursive device functions, so it takes no stack limit"
                .into(),
        ))
    }
    /// Creates a texture object over device memory (`cudaCreateTextureObject`) and returns
    /// its handle, the 64-bit `cudaTextureObject_t` a kernel passes to `tex`. A device that
    /// does not run texture fetches refuses it.
    fn create_texture(&mut self, desc: &crate::texture::TextureDesc) -> Result<u64, SimError> {
        let _ = desc;
        Err(SimError::Other(
            "this device does not run texture fetches, so it creates no texture objects".into(),
        ))
    }
}
