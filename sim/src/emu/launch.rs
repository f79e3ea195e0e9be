//! Launch preparation (checks against `.maxntid`/`.reqntid`, parameter count and types, shared
//! memory size; parameter buffer; placement of the module's `.global` variables; for a
//! cooperative launch the co-residency check and the zeroed grid-synchronisation workspace)
//! and the functional run of a whole grid.
//!
//! The functional run executes groups of CTAs in rounds: one CTA at a time for an ordinary
//! launch, the whole grid at once for a cooperative one. A round gives every runnable warp of
//! the group, in CTA then warp order, up to [`QUANTUM`] instructions, then releases each CTA's
//! barrier when all its live warps have arrived. A round in which no warp ran is a barrier
//! deadlock. A round that wrote no memory (no store, atomic, reduction or system call), retired
//! no warp and released no barrier ends in a state that is a function of the state it started
//! from; when that end state (every live warp's registers, predicates, carry flags, barrier
//! flag and reconvergence top and depth) repeats one seen since the last write, the run would
//! repeat for ever, and it stops with an error naming the kernel and the spinning warps.

use super::exec::{self, Ctx, Outcome};
use super::warp::Cta;
use super::{Emulator, QUANTUM};
use crate::inst::{Family, OpClass, WarpInst};
use crate::ptx::Ty;
use crate::stream::{KernelInfo, ParamValue};
use crate::{Launch, SimError};

/// A checked launch.
pub struct Prepared {
    /// Static facts of the launch (grid, block, shared bytes, registers).
    pub info: KernelInfo,
    /// The parameter buffer, laid out as the kernel's `.param` offsets say.
    pub params: Vec<u8>,
    /// Device address of each module-scope `.global` variable, by index.
    pub global_syms: Vec<u64>,
    /// Address of the zeroed grid-synchronisation workspace of a cooperative launch, 0 for
    /// any other.
    pub grid_ws: u64,
}

/// Bytes of the grid-synchronisation workspace of a cooperative launch (cooperative groups
/// use its first 8: an arrival counter whose top bit flips at each grid barrier).
pub const GRID_WS_BYTES: u64 = 256;

/// Distinct state hashes a functional run keeps between memory writes to recognise a spin
/// that cannot end (a spin whose state cycles with a longer period is caught by the launch's
/// instruction limit).
const MAX_SPIN_STATES: usize = 64;

/// Largest CTA the emulator launches, threads (the PTX limit of 1024 threads per CTA).
pub const MAX_THREADS_PER_CTA: u64 = 1024;

/// Largest grid the emulator launches, CTAs (x·y·z fits a 32-bit linear CTA id).
pub const MAX_CTAS_PER_GRID: u64 = u32::MAX as u64;

fn lerr(l: &Launch, msg: String) -> SimError {
    SimError::Launch {
        kernel: l.kernel.name.clone(),
        msg,
    }
}

fn ty_name(t: Ty) -> String {
    format!(".{t:?}").to_lowercase()
}

/// The launch's parameter buffer: each value of `l.params` checked against the kernel's
/// `.param` declaration (count, type, array size) and written at its offset.
fn param_buffer(l: &Launch) -> Result<Vec<u8>, SimError> {
    let code = &l.kernel.code;
    if l.params.len() != code.params.len() {
        return Err(lerr(
            l,
            format!(
                "{} parameters given, the kernel declares {}",
                l.params.len(),
                code.params.len()
            ),
        ));
    }
    let mut buf = vec![0u8; code.param_bytes as usize];
    for (i, (v, p)) in l.params.iter().zip(&code.params).enumerate() {
        let bytes: Vec<u8> = match (v, p.ty) {
            // 32-bit integers of either signedness (C `int` parameters are declared .u32 by
            // the CUDA compiler); the bits are the same.
            (ParamValue::U32(x), Ty::U32 | Ty::S32 | Ty::B32) if !p.is_array => {
                x.to_le_bytes().to_vec()
            }
            (ParamValue::S32(x), Ty::U32 | Ty::S32 | Ty::B32) if !p.is_array => {
                x.to_le_bytes().to_vec()
            }
            (ParamValue::F32(x), Ty::F32 | Ty::B32) if !p.is_array => x.to_le_bytes().to_vec(),
            (ParamValue::U64(x), Ty::U64 | Ty::S64 | Ty::B64) if !p.is_array => {
                x.to_le_bytes().to_vec()
            }
            (ParamValue::F64(x), Ty::F64 | Ty::B64) if !p.is_array => x.to_le_bytes().to_vec(),
            (ParamValue::U16(x), Ty::U16 | Ty::S16 | Ty::B16) if !p.is_array => {
                x.to_le_bytes().to_vec()
            }
            (ParamValue::U8(x), Ty::U8 | Ty::S8 | Ty::B8) if !p.is_array => vec![*x],
            (ParamValue::Bytes(b), _) if b.len() == p.bytes as usize => b.clone(),
            (ParamValue::Bytes(b), _) => {
                return Err(lerr(
                    l,
                    format!(
                        "parameter {i} ('{}') takes {} bytes but {} were given",
                        p.name,
                        p.bytes,
                        b.len()
                    ),
                ));
            }
            _ => {
                return Err(lerr(
                    l,
                    format!(
                        "parameter {i} ('{}') is declared {}{} but given {v:?}",
                        p.name,
                        ty_name(p.ty),
                        if p.is_array {
                            format!("[{}] (give its {} bytes)", p.bytes / p.ty.bytes(), p.bytes)
                        } else {
                            String::new()
                        }
                    ),
                ));
            }
        };
        let o = p.offset as usize;
        buf[o..o + bytes.len()].copy_from_slice(&bytes);
    }
    Ok(buf)
}

/// Checks the launch and builds its parameter buffer; places `.global` variables on first use.
pub fn prepare(emu: &mut Emulator, l: &Launch) -> Result<Prepared, SimError> {
    let code = &l.kernel.code;
    if l.grid.contains(&0) || l.block.contains(&0) {
        return Err(lerr(
            l,
            format!(
                "grid {:?} and block {:?} must be positive in every dimension",
                l.grid, l.block
            ),
        ));
    }
    let threads = l.block[0] as u64 * l.block[1] as u64 * l.block[2] as u64;
    if threads > MAX_THREADS_PER_CTA {
        return Err(lerr(
            l,
            format!("{threads} threads per CTA exceed {MAX_THREADS_PER_CTA}"),
        ));
    }
    if l.grid[1] > 65535
        || l.grid[2] > 65535
        || l.grid[0] as u64 * l.grid[1] as u64 * l.grid[2] as u64 > MAX_CTAS_PER_GRID
    {
        return Err(lerr(l, format!("grid {:?} is too large", l.grid)));
    }
    if let Some(m) = code.maxntid {
        let lim = m[0] as u64 * m[1] as u64 * m[2] as u64;
        if threads > lim || l.block[0] > m[0] || l.block[1] > m[1] || l.block[2] > m[2] {
            return Err(lerr(
                l,
                format!("block {:?} exceeds .maxntid {:?}", l.block, m),
            ));
        }
    }
    if let Some(m) = code.minnctapersm {
        let warps = threads.div_ceil(crate::inst::WARP_SIZE as u64);
        if m as u64 * warps > emu.warp_slots as u64 {
            return Err(lerr(
                l,
                format!(
                    ".minnctapersm {m} with {warps} warps per CTA needs {} warp slots per SM; the emulator models {}",
                    m as u64 * warps,
                    emu.warp_slots
                ),
            ));
        }
    }
    if let Some(r) = code.reqntid {
        if l.block != r {
            return Err(lerr(
                l,
                format!("block {:?} differs from .reqntid {:?}", l.block, r),
            ));
        }
    }
    if let Some(c) = &code.calls {
        if emu.stack_limit_bytes > super::MAX_STACK_LIMIT_BYTES {
            return Err(lerr(
                l,
                format!(
                    "stack limit of {} bytes per thread exceeds {}",
                    emu.stack_limit_bytes,
                    super::MAX_STACK_LIMIT_BYTES
                ),
            ));
        }
        if c.kernel_need_bytes > emu.stack_limit_bytes {
            return Err(lerr(
                l,
                format!(
                    "stack overflow: the calls of recursive device function '{}' need {} bytes \
                     of stack per thread before the first call, beyond the stack limit of {} \
                     bytes (cudaLimitStackSize)",
                    c.funcs.first().map_or("?", |s| s.as_str()),
                    c.kernel_need_bytes,
                    emu.stack_limit_bytes
                ),
            ));
        }
    }
    let buf = param_buffer(l)?;
    let shared = code.static_shared_bytes as u64 + l.shared_bytes as u64;
    if shared > emu.max_shared_per_cta as u64 {
        return Err(lerr(l, format!("{shared} bytes of shared memory per CTA ({} static + {} dynamic) exceed the {}-byte limit", code.static_shared_bytes, l.shared_bytes, emu.max_shared_per_cta)));
    }
    let module = &l.kernel.module;
    let global_syms = match emu.module_globals.get(&module.id) {
        Some(v) => v.clone(),
        None => {
            let mut v = Vec::with_capacity(module.globals.len());
            for g in &module.globals {
                let a = emu
                    .mem
                    .alloc(g.size, g.align as u64)
                    .ok_or_else(|| lerr(l, format!("cannot place .global '{}'", g.name)))?;
                emu.mem
                    .write_bytes(a, &g.init)
                    .map_err(|_| lerr(l, format!("cannot initialise .global '{}'", g.name)))?;
                v.push(a);
            }
            emu.module_globals.insert(module.id, v.clone());
            v
        }
    };
    let info = KernelInfo {
        name: l.kernel.name.clone(),
        grid: l.grid,
        block: l.block,
        shared_bytes: shared as u32,
        regs_per_thread: l.kernel.regs_per_thread(),
    };
    let grid_ws = if l.cooperative {
        if let Some(check) = &emu.coop_check {
            check(&info).map_err(|m| {
                lerr(
                    l,
                    format!(
                        "cooperative launch too large (cudaErrorCooperativeLaunchTooLarge): {m}"
                    ),
                )
            })?;
        }
        let ws = match emu.grid_ws {
            Some(a) => a,
            None => {
                let a = emu.mem.alloc(GRID_WS_BYTES, 256).ok_or_else(|| {
                    lerr(
                        l,
                        "no device memory for the grid-synchronisation workspace".into(),
                    )
                })?;
                emu.grid_ws = Some(a);
                a
            }
        };
        emu.mem
            .write_bytes(ws, &[0; GRID_WS_BYTES as usize])
            .map_err(|_| lerr(l, "cannot zero the grid-synchronisation workspace".into()))?;
        ws
    } else {
        0
    };
    emu.launches += 1;
    Ok(Prepared {
        info,
        params: buf,
        global_syms,
        grid_ws,
    })
}

/// Runs every CTA of the launch to completion: one after another in linear CTA order, or, for
/// a cooperative launch, all at once (module doc).
pub fn run_functional(emu: &mut Emulator, l: &Launch) -> Result<(), SimError> {
    run_functional_observed(emu, l, &mut NoObserver)
}

/// What a functional run hands each executed warp instruction to (a launch's signature for
/// kernel sampling counts them). A run without one ([`NoObserver`]) does not write the
/// records at all.
pub trait InstObserver {
    /// Whether the observer reads the records.
    const RECORDS: bool;
    /// One executed warp instruction.
    fn observe(&mut self, inst: &WarpInst);
}

/// The observer of a plain functional run: nothing is recorded.
pub struct NoObserver;

impl InstObserver for NoObserver {
    const RECORDS: bool = false;
    #[inline(always)]
    fn observe(&mut self, _inst: &WarpInst) {}
}

/// [`run_functional`] handing every executed warp instruction to `obs`.
pub fn run_functional_observed<O: InstObserver>(
    emu: &mut Emulator,
    l: &Launch,
    obs: &mut O,
) -> Result<(), SimError> {
    let p = prepare(emu, l)?;
    let code = &l.kernel.code;
    let module = &l.kernel.module;
    let mut ctx = Ctx {
        code,
        mem: &mut emu.mem,
        params: &p.params,
        const_bank: &module.const_bank,
        global_syms: &p.global_syms,
        ntid: l.block,
        nctaid: l.grid,
        nwarpid: emu.warp_slots,
        cycle: 0,
        order: emu.push_order,
        max_depth: emu.max_stack_depth,
        stack_limit: emu.stack_limit_bytes,
        dev: &mut emu.dev,
        grid_ws: p.grid_ws,
        core_mhz: emu.core_mhz,
        writes: 0,
    };
    let mut rounds = Rounds {
        scratch: WarpInst::new(0, Family::Int, OpClass::Nop, 0),
        count: 0,
        limit: emu.max_warp_insts_per_launch,
        cooperative: l.cooperative,
    };
    let n = p.info.num_ctas();
    let at_once = if l.cooperative { n } else { 1 };
    let mut first = 0u32;
    while first < n {
        let last = first.saturating_add(at_once).min(n);
        let mut ctas: Vec<Cta> = (first..last)
            .map(|id| {
                Cta::new(
                    code,
                    id,
                    p.info.cta_coords(id),
                    l.block,
                    p.info.shared_bytes,
                    0,
                    0,
                    emu.reconvergence.as_ref(),
                    emu.stack_limit_bytes,
                )
            })
            .collect();
        let r = rounds.run(&mut ctx, &mut ctas, obs);
        for c in &ctas {
            emu.stack_stats.merge(&c.stack_stats());
        }
        if let Err(e) = r {
            emu.warp_insts += rounds.count;
            return Err(e);
        }
        first = last;
    }
    emu.warp_insts += rounds.count;
    Ok(())
}

/// The round-robin scheduler of a functional run (module doc).
struct Rounds {
    scratch: WarpInst,
    /// Warp instructions executed in the launch so far.
    count: u64,
    /// The launch's instruction limit.
    limit: Option<u64>,
    /// The launch is cooperative (for messages).
    cooperative: bool,
}

impl Rounds {
    /// Runs `ctas` together to completion.
    fn run<O: InstObserver>(
        &mut self,
        ctx: &mut Ctx,
        ctas: &mut [Cta],
        obs: &mut O,
    ) -> Result<(), SimError> {
        let mut seen: Vec<u64> = Vec::new();
        while ctas.iter().any(|c| c.live > 0) {
            let writes = ctx.writes;
            let (mut progressed, mut event) = (false, false);
            for cta in ctas.iter_mut().filter(|c| c.live > 0) {
                for w in 0..cta.warps.len() {
                    if cta.warps[w].done || cta.warps[w].at_barrier {
                        continue;
                    }
                    let (o, n) = exec::run_warp(ctx, cta, w, QUANTUM, &mut self.scratch, obs)?;
                    self.count += n as u64;
                    progressed |= n > 0;
                    match o {
                        Outcome::Barrier => {
                            cta.arrived += 1;
                            event = true;
                        }
                        Outcome::Finished => {
                            cta.live -= 1;
                            event = true;
                        }
                        Outcome::Executed | Outcome::Idle => {}
                    }
                }
                if cta.try_release_barrier() {
                    progressed = true;
                    event = true;
                }
            }
            if let Some(lim) = self.limit.filter(|lim| self.count > *lim) {
                return Err(SimError::WarpInstLimit {
                    kernel: ctx.code.name.clone(),
                    executed: self.count,
                    limit: lim,
                });
            }
            if !progressed {
                let ids: Vec<String> = ctas
                    .iter()
                    .filter(|c| c.live > 0)
                    .map(|c| c.id.to_string())
                    .collect();
                return Err(SimError::Runtime {
                    kernel: ctx.code.name.clone(),
                    pc: 0,
                    msg: format!("CTA {} made no progress (barrier deadlock)", ids.join(", ")),
                });
            }
            if event || ctx.writes != writes {
                seen.clear();
                continue;
            }
            let h = state_hash(ctas);
            if seen.contains(&h) {
                return Err(self.spin_error(ctx, ctas));
            }
            if seen.len() >= MAX_SPIN_STATES {
                seen.clear();
            }
            seen.push(h);
        }
        Ok(())
    }

    /// The error of a spin that cannot end: the spinning warps and their PCs.
    fn spin_error(&self, ctx: &Ctx, ctas: &[Cta]) -> SimError {
        let mut spinning = Vec::new();
        let mut pc0 = None;
        for c in ctas.iter().filter(|c| c.live > 0) {
            for w in c.warps.iter().filter(|w| !w.done && !w.at_barrier) {
                if let Some(t) = w.stack.top() {
                    pc0.get_or_insert(t.pc);
                    if spinning.len() < 8 {
                        spinning.push(format!("CTA {} warp {} at pc {}", c.id, w.index, t.pc * 8));
                    }
                }
            }
        }
        let hint = if self.cooperative {
            ""
        } else {
            "; a functional run executes the CTAs of an ordinary launch one after another, so \
             a CTA cannot wait for another (a grid-wide synchronisation needs a cooperative \
             launch)"
        };
        let pc = pc0.unwrap_or(0) as usize;
        exec::runtime(
            ctx,
            pc,
            format!(
                "deadlock: the running warps spin without end (a round of every warp wrote no \
                 memory and came back to a state seen before): {}{hint}",
                spinning.join(", ")
            ),
        )
    }
}

/// A hash of the architectural state of the live warps of `ctas` (module doc).
fn state_hash(ctas: &[Cta]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for c in ctas.iter().filter(|c| c.live > 0) {
        c.id.hash(&mut h);
        for w in &c.warps {
            (w.done, w.at_barrier, w.carry).hash(&mut h);
            w.preds.hash(&mut h);
            w.regs.hash(&mut h);
            w.stack.top().map(|t| (t.pc, t.mask)).hash(&mut h);
            w.stack.depth().hash(&mut h);
        }
    }
    h.finish()
}
