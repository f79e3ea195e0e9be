//! The analytical scheduling model of a configuration's *configured* values (analytical-model
//! §2.3 "Map the simulator config"): launch limits, state buffers and functional units of a
//! [`GpuConfig`], read the way the simulator reads them. `gpuenergy diag` compares what its
//! microbenchmarks recover with this machine (`diag::configured`); the analytical activity
//! source (`crate::amodel`) evaluates it on a workload's functional counts.
//!
//! The mapping, per simulator mechanism:
//! - `L(T/B)`: the emulator's 1024-thread CTA limit, bounded by `sm.max_threads` and
//!   `sm.max_warps·w`; `L(T/G)`: the emulator's grid limit in CTAs; `L(S/B)`: the smallest of
//!   `sm.shmem_per_cta`, the emulator's per-CTA limit and `sm.shmem_bytes`;
//!   `L(R/T) = L(R/B) = R` (the simulator has no other register limit).
//! - `N1 = sm.max_ctas`, `N2 = min(sm.max_warps, sm.max_threads/w)`, `S = sm.shmem_bytes`,
//!   `s_min = 1`, `R = sm.n_registers/w` warp-registers, `r_min = sm.reg_alloc_granularity`.
//! - Units: one per pipe class (`sim::timing::classify_op` gives each instruction's class,
//!   latency and interval); a class of n units on k sub-cores has `s = k`, `m = n/k` when every
//!   sub-core owns one, else `s = 1`, `m = n`.
//! - Pseudo-unit `issue`: `t = 1/issue_per_sched`, `m = 1`, `s = sched.n_per_sm`; pseudo-units
//!   `rf` and `oc`: the operand path ([`models::sched::OperandPath`]).
//! - Pseudo-unit `fetch` [G], the front end: a fetch brings `E` instructions of one warp into
//!   its I-buffer, and the SM makes `frontend.fetch_throughput` fetches per cycle, so every
//!   instruction takes `t = 1/E` of a fetch slot, `m = fetch_throughput`, `s = 1`. `E` is
//!   `min(frontend.fetch_width, B)` with `B` the warp's fetch buffer
//!   ([`sim::config::GpuConfig::fetch_buffer_entries`]: the in-order I-buffer, or a per-warp
//!   out-of-order buffer that refills when that many entries are free). Bodies of independent warps that
//!   each issue back to back drain their buffers every `E` instructions; when the fetch slots
//!   run out first, the issue rate is the front end's.

use models::sched::{Buffers, Limits, OperandPath, SchedModel, Unit};
use sim::config::GpuConfig;
use sim::timing::{classify_op, PipeClass};

/// Index of the issue pseudo-unit in [`machine`]'s units.
pub const ISSUE: usize = 5;
/// Index of the register-file port pseudo-unit in [`machine`]'s units.
pub const RF: usize = 6;
/// Index of the operand-collector pseudo-unit in [`machine`]'s units.
pub const OC: usize = 7;
/// Index of the front end's fetch pseudo-unit in [`machine`]'s units.
pub const FETCH: usize = 8;

/// Unit order of [`machine`]: one per [`PipeClass`] with a unit, then `issue`, then the
/// operand path's `rf` and `oc` (set per body by `diag::configured::class_model`), then the
/// front end's `fetch`.
pub const UNIT_NAMES: [&str; 9] = [
    "sp", "dp", "int", "sfu", "ldst", "issue", "rf", "oc", "fetch",
];

/// Instructions one fetch brings into a warp's I-buffer, `E` (see the module doc).
pub fn fetch_group(cfg: &GpuConfig) -> u32 {
    let f = &cfg.frontend;
    f.fetch_width.min(cfg.fetch_buffer_entries()).max(1)
}

/// Index of a pipe class's unit in [`machine`]'s units (`None` for no unit).
pub fn pipe_index(p: PipeClass) -> Option<usize> {
    match p {
        PipeClass::Sp => Some(0),
        PipeClass::Dp => Some(1),
        PipeClass::Int => Some(2),
        PipeClass::Sfu => Some(3),
        PipeClass::Mem => Some(4),
        // the analytical model has no tensor-core unit: a tensor product's occupancy of its
        // core is not part of the demand bound
        PipeClass::Tensor | PipeClass::None => None,
    }
}

/// Replicas per partition and partitions of a class of `n` units on `nsub` sub-cores.
pub fn m_s(n: u32, nsub: u32) -> (Option<u32>, u32) {
    let nsub = nsub.max(1);
    if n == 0 {
        (None, 1)
    } else if n >= nsub && n.is_multiple_of(nsub) {
        (Some(n / nsub), nsub)
    } else {
        (Some(n), 1)
    }
}

/// Warp-registers per MP, `R = sm.n_registers / w`.
pub fn regfile_warp_regs(cfg: &GpuConfig) -> u32 {
    cfg.sm.n_registers / cfg.gpu.warp_size.max(1)
}

/// The model of `cfg` with every unit at its integer-add interval and latency (the per-class
/// interval comes from [`class_exec`]).
pub fn machine(cfg: &GpuConfig) -> SchedModel {
    let w = cfg.gpu.warp_size.max(1);
    let r = regfile_warp_regs(cfg);
    let sm = &cfg.sm;
    let emu_shared = sim::emu::DEFAULT_MAX_SHARED_PER_CTA;
    let t_per_b = (sim::emu::launch::MAX_THREADS_PER_CTA as u32)
        .min(sm.max_threads)
        .min(sm.max_warps.saturating_mul(w));
    let limits = Limits {
        t_per_b,
        t_per_g: sim::emu::launch::MAX_CTAS_PER_GRID,
        s_per_b: sm.shmem_per_cta.min(emu_shared).min(sm.shmem_bytes),
        r_per_t: vec![r],
        r_per_b: vec![r],
    };
    let buf = Buffers {
        n1: Some(sm.max_ctas),
        n1_single_warp_exempt: false,
        n2: sm.max_warps.min(sm.max_threads / w),
        s: sm.shmem_bytes,
        s_min: 1,
        r: vec![r],
        r_min: vec![sm.reg_alloc_granularity.max(1)],
    };
    let u = &cfg.units;
    let nsub = sm.n_subcores.max(1);
    let ec_int = classify_op(cfg, sim::inst::Family::Int, sim::inst::OpClass::Add);
    let mut units = Vec::new();
    for (name, n, pipe) in [
        ("sp", u.n_sp, PipeClass::Sp),
        ("dp", u.n_dp, PipeClass::Dp),
        ("int", u.n_int, PipeClass::Int),
        ("sfu", u.n_sfu, PipeClass::Sfu),
        ("ldst", u.n_ldst, PipeClass::Mem),
    ] {
        let (m, s) = m_s(n, nsub);
        let passes = sim::timing::warp_passes(cfg, pipe);
        let t = if pipe == PipeClass::Sp {
            ec_int.ii
        } else {
            passes
        };
        units.push(Unit::new(name, t as f64, ec_int.latency, m, s));
    }
    units.push(Unit::new(
        "issue",
        1.0 / cfg.sched.issue_per_sched.max(1) as f64,
        0,
        Some(1),
        cfg.sched.n_per_sm.max(1),
    ));
    let op = operand_path(cfg, PipeClass::Sp);
    units.push(op.rf_unit());
    units.push(op.collector_unit(1));
    units.push(Unit::new(
        "fetch",
        1.0 / fetch_group(cfg) as f64,
        0,
        Some(cfg.frontend.fetch_throughput.max(1)),
        1,
    ));
    SchedModel {
        w,
        n_mp: cfg.gpu.n_sm,
        limits,
        buf,
        units,
    }
}

/// The operand path of `cfg` for instructions of `pipe` (their collector class).
pub fn operand_path(cfg: &GpuConfig, pipe: PipeClass) -> OperandPath {
    let nsub = cfg.sm.n_subcores.max(1);
    let u = &cfg.opcoll.units;
    let own = match pipe {
        // tensor products take the SP collectors (`sim::timing` perclass)
        PipeClass::Sp | PipeClass::Tensor => u.sp,
        PipeClass::Sfu => u.sfu,
        PipeClass::Mem => u.mem,
        PipeClass::Dp => u.dp,
        PipeClass::Int => u.int,
        PipeClass::None => 0,
    };
    let n = if own > 0 { own } else { u.gen };
    let banks = if nsub > 1 {
        cfg.rf.n_banks / nsub
    } else {
        cfg.rf.n_banks
    };
    let port_cycles = if cfg.rf.port_occupancy == sim::config::PortOccupancy::FullLatency {
        cfg.rf.latency.max(1)
    } else {
        1
    };
    OperandPath {
        banks_per_partition: banks.max(1),
        ports_per_bank: cfg.rf.ports_per_bank.max(1),
        port_cycles_per_access: port_cycles,
        partitions: nsub,
        collectors_per_partition: (n / nsub).max(1),
    }
}
