//! Launch preparation (checks against `.maxntid`/`.reqntid`, parameter count and types, shared
//! memory size; parameter buffer; placement of the module's `.global` variables) and the
//! functional run of a whole grid.

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
}

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
    emu.launches += 1;
    Ok(Prepared {
        info: KernelInfo {
            name: l.kernel.name.clone(),
            grid: l.grid,
            block: l.block,
            shared_bytes: shared as u32,
            regs_per_thread: l.kernel.regs_per_thread(),
        },
        params: buf,
        global_syms,
    })
}

/// Runs every CTA of the launch to completion, in linear CTA order.
pub fn run_functional(emu: &mut Emulator, l: &Launch) -> Result<(), SimError> {
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
        dev: &mut emu.dev,
    };
    let mut scratch = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
    let mut count = 0u64;
    let limit = emu.max_warp_insts_per_launch;
    for id in 0..p.info.num_ctas() {
        let mut cta = Cta::new(
            code,
            id,
            p.info.cta_coords(id),
            l.block,
            p.info.shared_bytes,
            0,
            0,
            emu.reconvergence.as_ref(),
        );
        let nw = cta.warps.len();
        while cta.live > 0 {
            let mut progressed = false;
            for w in 0..nw {
                if cta.warps[w].done || cta.warps[w].at_barrier {
                    continue;
                }
                let (o, n) = exec::run_warp(&mut ctx, &mut cta, w, QUANTUM, &mut scratch)?;
                count += n as u64;
                progressed |= n > 0;
                match o {
                    Outcome::Barrier => cta.arrived += 1,
                    Outcome::Finished => cta.live -= 1,
                    Outcome::Executed | Outcome::Idle => {}
                }
            }
            if let Some(lim) = limit.filter(|lim| count > *lim) {
                emu.warp_insts += count;
                return Err(SimError::WarpInstLimit {
                    kernel: code.name.clone(),
                    executed: count,
                    limit: lim,
                });
            }
            if cta.try_release_barrier() {
                progressed = true;
            }
            if !progressed {
                emu.warp_insts += count;
                return Err(SimError::Runtime {
                    kernel: code.name.clone(),
                    pc: 0,
                    msg: format!("CTA {id} made no progress (barrier deadlock)"),
                });
            }
        }
        emu.stack_stats.merge(&cta.stack_stats());
    }
    emu.warp_insts += count;
    Ok(())
}
