//! The cycle-level timing model (simulator §2).
//!
//! [`Simulation`] is the way to run the model: it takes a configuration, named policies resolved
//! through a [`PolicyRegistry`] and a progress callback, and runs one kernel launch given as any
//! [`KernelStream`](crate::KernelStream) (the PTX emulator's execution-driven stream or a trace
//! reader), a host program on a [`TimingGpu`] (a [`Gpu`](crate::Gpu) that keeps memory in an
//! inner functional emulator and simulates every launch), or a trace folder.
//!
//! Structure: `engine` (the GPU cycle loop), `sm` (one SM as a composition of its stages and
//! the per-cycle work between them), the stages `warps`, `frontend`, `issueunit`, `opcoll`
//! (collectors and register file), `execunits` (units, writeback) and `ldstunit` (L1D, constant
//! and shared memory); `memsys` (crossbars, L2, DRAM), `cache` (tag arrays), `ldst`
//! (coalescing, bank conflicts), `localmem` (local memory's interleaved device layout), `exec`
//! (latency classes), `cta` (occupancy), `policy` (extension-point traits with the built-in
//! implementations), `registry` (policies by name).

mod cache;
mod cta;
mod divisor;
pub mod dwf;
mod engine;
mod exec;
mod execunits;
pub mod fold;
mod frontend;
pub mod funccount;
pub mod funcmem;
pub mod gating;
mod issueunit;
mod ldst;
mod ldstunit;
pub mod localmem;
mod memsys;
pub mod ooo;
mod opcoll;
mod perclass;
pub mod policy;
mod ports;
mod regchar;
pub mod registry;
mod reservations;
pub mod rf;
mod rfmonitor;
mod simulation;
pub mod slots;
mod sm;
pub mod synth;
pub mod tinst;
mod warpedrf;
mod warps;
mod warpset;

pub use cta::{cooperative_check, occupancy, OccupancyLimit};
pub use dwf::{dwf_hw_inputs, DwfArray, DwfHwInputs, DwfOrg};
pub use exec::{classify, classify_op, op_name, warp_passes, ExecClass, PipeClass, SpPipe};
pub use issueunit::IssueEvent;
pub use ldst::{coalesce, smem_degree, Segments};
pub use policy::{
    GatingPolicy, GatingView, Hazard, HeadType, InOrderScoreboard, IssueStage, MonolithicRf,
    NoGating, RegisterFileOrg, RfPart, RfRoute, UnitState, WarpScheduler, WarpView,
};
pub use policy::{Reconvergence, ReconvergenceFactory};
pub use registry::PolicyRegistry;
pub use simulation::{Program, Simulation, Source, Stream, TimingGpu, Traced};
