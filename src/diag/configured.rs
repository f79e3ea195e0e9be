//! The analytical model built from a configuration's *configured* values (analytical-model
//! §2.3 "Map the simulator config"): launch limits, state buffers and functional units of a
//! [`GpuConfig`], read the way the simulator reads them (the machine itself is
//! [`crate::schedcfg`], shared with the analytical activity source; this file adds the
//! per-class bodies of the microbenchmarks). The suite compares what it recovers
//! from behaviour with these values; it never uses them to recover anything.
//!
//! The mapping, per simulator mechanism:
//! - `L(T/B)`: the emulator's 1024-thread CTA limit, bounded by `sm.max_threads` and
//!   `sm.max_warps·w` (a larger CTA never fits an SM); `L(T/G)`: the emulator's grid limit in
//!   CTAs (a thread limit for one-thread blocks); `L(S/B)`: the smallest of `sm.shmem_per_cta`,
//!   the emulator's per-CTA limit and `sm.shmem_bytes`; the simulator has no per-thread or
//!   per-block register limit apart from one CTA fitting the register file, so
//!   `L(R/T) = L(R/B) = R`.
//! - `N1 = sm.max_ctas`, `N2 = min(sm.max_warps, sm.max_threads/w)`, `S = sm.shmem_bytes`,
//!   `s_min = 1` (shared memory is allocated to the byte), `R = sm.n_registers/w`
//!   warp-registers, `r_min = sm.reg_alloc_granularity`.
//! - Units: the simulator's own classification (`sim::timing::classify_op`) gives each
//!   instruction's unit class, latency and effective initiation interval. The simulator's
//!   interval is `max(II, ⌈w/lanes⌉)` (lanes bound the interval; a table II already states the
//!   lane limit where it is larger), where the specification's mapping writes
//!   `II·⌈w/lanes⌉`; the model follows the simulator's documented semantics. A class of n units
//!   on k sub-cores has `s = k`, `m = n/k` when every sub-core owns one (units go to sub-cores
//!   round-robin, and an instruction uses its own sub-core's unit), else `s = 1`, `m = n`.
//! - Pseudo-unit `issue`: `t = 1/issue_per_sched`, `m = 1`, `s = sched.n_per_sm`.
//! - Pseudo-units `rf` and `oc` ([`models::sched::OperandPath`]): the register-file port pool
//!   (`rf.n_banks` banks split over the sub-cores, `rf.ports_per_bank` ports each, an access
//!   holding its port `rf.latency` cycles under `rf.port_occupancy = "full_latency"`, else
//!   one) and the operand collectors of the body's class (`opcoll.units`, the generic class
//!   where the class has none, split over the sub-cores as the simulator assigns them,
//!   collector i to sub-core i mod k). Reads are the instruction's distinct non-predicate
//!   source registers, as the simulator's issue stage queues them; the bank of each is the
//!   simulator's `(reg + warp) mod banks` (or `reg mod banks`) within the sub-core.

use super::kernels::Class;
use crate::schedcfg::pipe_index;
pub use crate::schedcfg::{
    machine, operand_path, regfile_warp_regs, FETCH, ISSUE, OC, RF, UNIT_NAMES,
};
use models::sched::SchedModel;
use sim::config::GpuConfig;
use sim::timing::{classify_op, ExecClass, PipeClass};

/// Register-file use of one instruction: distinct non-predicate source registers (the reads
/// the issue stage queues), destination registers (the write-backs), and the reads that land
/// on its busiest bank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RfUse {
    /// Register reads.
    pub reads: u32,
    /// Register writes.
    pub writes: u32,
    /// Reads on the busiest bank.
    pub busiest_bank_reads: u32,
}

/// The register-file use of `class`'s body instruction for the first warp.
pub fn rf_use(cfg: &GpuConfig, class: Class) -> Result<RfUse, String> {
    let t = template(class)?;
    let nsub = cfg.sm.n_subcores.max(1);
    let per = if nsub > 1 {
        cfg.rf.n_banks / nsub
    } else {
        cfg.rf.n_banks
    }
    .max(1);
    let mut srcs: Vec<u16> = Vec::new();
    for &r in &t.src[..t.n_src as usize] {
        if r < sim::inst::PRED_BASE && !srcs.contains(&r) {
            srcs.push(r);
        }
    }
    let mut per_bank = vec![0u32; per as usize];
    for &r in &srcs {
        per_bank[(r as u32 % per) as usize] += 1;
    }
    let writes = t.dst[..t.n_dst as usize]
        .iter()
        .filter(|&&r| r < sim::inst::PRED_BASE)
        .count() as u32;
    Ok(RfUse {
        reads: srcs.len() as u32,
        writes,
        busiest_bank_reads: per_bank.into_iter().max().unwrap_or(0),
    })
}

/// The simulator's classification of `class`'s body instruction (family and operation class
/// from the PTX decoder, then `classify_op`).
pub fn class_exec(cfg: &GpuConfig, class: Class) -> Result<ExecClass, String> {
    let (family, op) = decoded(class)?;
    Ok(classify_op(cfg, family, op))
}

/// Family and operation class of `class`'s body instruction as the PTX decoder gives them.
pub fn decoded(class: Class) -> Result<(sim::inst::Family, sim::inst::OpClass), String> {
    let t = template(class)?;
    Ok((t.family, t.op))
}

/// The decoded record of `class`'s body instruction.
fn template(class: Class) -> Result<sim::inst::WarpInst, String> {
    let text = super::kernels::probe_kernel(class);
    let k = super::harness::kernel(&text, "probe").map_err(|e| e.to_string())?;
    k.code
        .templates
        .first()
        .copied()
        .ok_or_else(|| "the probe kernel has no instruction".to_string())
}

/// A class's model, its (unit, uses per period) list and the simulator's classification.
pub type ClassModel = (SchedModel, Vec<(usize, f64)>, ExecClass);

/// The model of one class's width kernel: the machine with the used units' intervals set from
/// the class, the operand path's `rf` and `oc` pseudo-units set from the class's register use,
/// and the uses per period `n_u` of each unit (the body once per period plus the loop
/// counter's `sub`, `setp` and `bra` once every `unroll` periods; every instruction takes an
/// issue slot and its share of a fetch; `sub` reads and writes one register, `setp` reads one; both take a collector).
/// Returns the model and the (unit, n_u) list.
pub fn class_model(cfg: &GpuConfig, class: Class, unroll: usize) -> Result<ClassModel, String> {
    let mut m = machine(cfg);
    let ec = class_exec(cfg, class)?;
    let loop_ec = classify_op(cfg, sim::inst::Family::Int, sim::inst::OpClass::Add);
    let per = 1.0 / unroll.max(1) as f64;
    // work per period on each unit, in cycles of its issue interval
    let mut work = [0.0f64; UNIT_NAMES.len()];
    if let Some(i) = pipe_index(ec.pipe) {
        work[i] += if ec.pipe == PipeClass::Mem {
            m.units[i].t
        } else {
            ec.ii as f64
        };
    }
    if let Some(i) = pipe_index(loop_ec.pipe) {
        work[i] += 3.0 * loop_ec.ii as f64 * per;
    }
    work[ISSUE] = (1.0 + 3.0 * per) * m.units[ISSUE].t;
    work[FETCH] = (1.0 + 3.0 * per) * m.units[FETCH].t;
    if let Some(i) = pipe_index(ec.pipe) {
        // the LD/ST class keeps (1, 1) in the table: its interval is the unit's
        // address-generation passes, already in `machine`
        if ec.pipe != PipeClass::Mem {
            m.units[i].t = ec.ii as f64;
        }
        m.units[i].lat = ec.latency;
    }
    // the operand path: the body's collector class and register accesses
    if ec.pipe != PipeClass::None {
        let ru = rf_use(cfg, class)?;
        let op = operand_path(cfg, ec.pipe);
        m.units[RF] = op.rf_unit();
        m.units[OC] = op.collector_unit(ru.busiest_bank_reads);
        work[RF] = (ru.reads + ru.writes) as f64 * m.units[RF].t;
        work[OC] = m.units[OC].t;
        if pipe_index(loop_ec.pipe) == pipe_index(ec.pipe) {
            work[OC] += 2.0 * per * op.collector_cycles(1);
        }
    }
    work[RF] += 3.0 * per * m.units[RF].t;
    let used = work
        .iter()
        .enumerate()
        .filter(|(_, &w)| w > 0.0)
        .map(|(i, &w)| (i, w / m.units[i].t))
        .collect();
    Ok((m, used, ec))
}

/// Cycles the operand reads of `class`'s body add to one link of a dependent chain
/// ([`OperandPath::chain_read_cycles`] of its busiest bank); 0 for a class without a unit.
/// Also 0 under an issue stage that captures the chained operand from its producer's result
/// broadcast ([`GpuConfig::chained_operand_captured`]): its collector unit reads the other
/// operands from the register file while it waits for that broadcast (issue-stage §3.2
/// steps 2–4), so the reads are off the link.
pub fn chain_read_cycles(cfg: &GpuConfig, class: Class) -> Result<u32, String> {
    let ec = class_exec(cfg, class)?;
    if ec.pipe == PipeClass::None || cfg.chained_operand_captured() {
        return Ok(0);
    }
    let ru = rf_use(cfg, class)?;
    Ok(operand_path(cfg, ec.pipe).chain_read_cycles(ru.busiest_bank_reads))
}
