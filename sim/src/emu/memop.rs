//! Lane loops of `ld`, `st`, `atom` and `red`. Each state space is an [`Access`] implementation
//! so the per-lane loop is specialised per space (no dispatch inside the loop). Lanes are served
//! in ascending lane order, which also fixes the order of conflicting atomics within a warp.

#![allow(clippy::needless_range_loop)]

use super::alu::{self, Lanes};
use super::exec::{fetch, runtime, write, Ctx};
use super::memory::{window_load, window_store, Fault, GlobalMem};
use super::warp::Warp;
use crate::inst::WARP_SIZE;
use crate::ptx::isa::{AtomOp, Inst, Op, Opnd, Space, Ty};
use crate::SimError;

/// A state space as seen by the lanes of one warp.
trait Access {
    /// An address names the same bytes for every lane (all spaces but local), so lanes of one
    /// load that read the same address read the same value.
    const SHARED_BY_LANES: bool = true;
    fn load(&self, a: u64, lane: usize, bytes: u32) -> Result<u64, Fault>;
    fn store(&mut self, a: u64, lane: usize, bytes: u32, v: u64) -> Result<(), Fault>;
}

struct Global<'a>(&'a mut GlobalMem);
impl Access for Global<'_> {
    #[inline(always)]
    fn load(&self, a: u64, _: usize, bytes: u32) -> Result<u64, Fault> {
        self.0.load(a, bytes)
    }
    #[inline(always)]
    fn store(&mut self, a: u64, _: usize, bytes: u32, v: u64) -> Result<(), Fault> {
        self.0.store(a, bytes, v)
    }
}

/// Shared memory (read-write window) or const/param (read-only window).
struct Window<'a>(&'a mut [u8]);
impl Access for Window<'_> {
    #[inline(always)]
    fn load(&self, a: u64, _: usize, bytes: u32) -> Result<u64, Fault> {
        window_load(self.0, a, bytes)
    }
    #[inline(always)]
    fn store(&mut self, a: u64, _: usize, bytes: u32, v: u64) -> Result<(), Fault> {
        window_store(self.0, a, bytes, v)
    }
}

struct ReadOnly<'a>(&'a [u8]);
impl Access for ReadOnly<'_> {
    #[inline(always)]
    fn load(&self, a: u64, _: usize, bytes: u32) -> Result<u64, Fault> {
        window_load(self.0, a, bytes)
    }
    fn store(&mut self, _: u64, _: usize, _: u32, _: u64) -> Result<(), Fault> {
        Err(Fault::OutOfBounds)
    }
}

/// Thread-private memory: lane `l` of warp `w` owns bytes `[(32w+l)·n, (32w+l+1)·n)`.
struct Local<'a> {
    buf: &'a mut [u8],
    per_thread: usize,
    first_thread: usize,
}
impl Local<'_> {
    #[inline(always)]
    fn window(&self, a: u64, lane: usize, bytes: u32) -> Result<usize, Fault> {
        if a.checked_add(bytes as u64)
            .is_none_or(|e| e > self.per_thread as u64)
        {
            return Err(Fault::OutOfBounds);
        }
        Ok((self.first_thread + lane) * self.per_thread)
    }
}
impl Access for Local<'_> {
    const SHARED_BY_LANES: bool = false;
    #[inline(always)]
    fn load(&self, a: u64, lane: usize, bytes: u32) -> Result<u64, Fault> {
        let s = self.window(a, lane, bytes)?;
        window_load(&self.buf[s..s + self.per_thread], a, bytes)
    }
    #[inline(always)]
    fn store(&mut self, a: u64, lane: usize, bytes: u32, v: u64) -> Result<(), Fault> {
        let s = self.window(a, lane, bytes)?;
        let n = self.per_thread;
        window_store(&mut self.buf[s..s + n], a, bytes, v)
    }
}

/// Extends a loaded value of type `t` to the destination register width.
#[inline(always)]
fn extend(v: u64, t: Ty, wide_dst: bool) -> u64 {
    if t.is_signed() && t.bits() < 64 {
        let x = alu::sext(v, t.bits()) as u64;
        if wide_dst {
            x
        } else {
            x & 0xFFFF_FFFF
        }
    } else {
        v
    }
}

/// A failed lane access: (fault, address, lane).
type LaneFault = (Fault, u64, usize);

#[inline(always)]
fn ld_lanes<A: Access>(
    m: &A,
    addrs: &Lanes,
    mask: u32,
    ty: Ty,
    vec: u32,
    wide: [bool; 4],
    vals: &mut [Lanes],
) -> Result<(), LaneFault> {
    let bytes = ty.bytes();
    let mut mm = mask;
    // the previous lane's address: memory does not change within one load, so a lane that
    // repeats it (uniform parameter and constant loads, broadcasts) takes the same values
    let mut prev: Option<(u64, usize)> = None;
    while mm != 0 {
        let l = mm.trailing_zeros() as usize;
        mm &= mm - 1;
        let a = addrs[l];
        if A::SHARED_BY_LANES {
            if let Some((pa, pl)) = prev {
                if pa == a {
                    for k in 0..vec as usize {
                        vals[k][l] = vals[k][pl];
                    }
                    continue;
                }
            }
            prev = Some((a, l));
        }
        if vec > 1 && !a.is_multiple_of((bytes * vec) as u64) {
            return Err((Fault::Misaligned, a, l));
        }
        for k in 0..vec as usize {
            let ea = a.wrapping_add((k as u32 * bytes) as u64);
            let v = m.load(ea, l, bytes).map_err(|f| (f, ea, l))?;
            vals[k][l] = extend(v, ty, wide[k]);
        }
    }
    Ok(())
}

#[inline(always)]
fn st_lanes<A: Access>(
    m: &mut A,
    addrs: &Lanes,
    mask: u32,
    ty: Ty,
    vec: u32,
    data: &[Lanes],
) -> Result<(), LaneFault> {
    let bytes = ty.bytes();
    let mut mm = mask;
    while mm != 0 {
        let l = mm.trailing_zeros() as usize;
        mm &= mm - 1;
        let a = addrs[l];
        if vec > 1 && !a.is_multiple_of((bytes * vec) as u64) {
            return Err((Fault::Misaligned, a, l));
        }
        for k in 0..vec as usize {
            let ea = a.wrapping_add((k as u32 * bytes) as u64);
            m.store(ea, l, bytes, data[k][l]).map_err(|f| (f, ea, l))?;
        }
    }
    Ok(())
}

/// Read-modify-write per lane in ascending lane order; returns the old values.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn atom_lanes<A: Access>(
    m: &mut A,
    addrs: &Lanes,
    mask: u32,
    op: AtomOp,
    ty: Ty,
    b: &Lanes,
    c: &Lanes,
    old: &mut Lanes,
) -> Result<(), LaneFault> {
    let bytes = ty.bytes();
    let bits = ty.bits();
    let mut mm = mask;
    while mm != 0 {
        let l = mm.trailing_zeros() as usize;
        mm &= mm - 1;
        let a = addrs[l];
        let o = m.load(a, l, bytes).map_err(|f| (f, a, l))?;
        let x = alu::trunc(b[l], bits);
        let new = match (op, ty) {
            (AtomOp::Add, Ty::F32) => {
                (f32::from_bits(o as u32) + f32::from_bits(x as u32)).to_bits() as u64
            }
            (AtomOp::Add, Ty::F64) => (f64::from_bits(o) + f64::from_bits(x)).to_bits(),
            (AtomOp::Add, _) => alu::trunc(o.wrapping_add(x), bits),
            (AtomOp::Min, Ty::S32 | Ty::S64) => {
                alu::trunc(alu::sext(o, bits).min(alu::sext(x, bits)) as u64, bits)
            }
            (AtomOp::Max, Ty::S32 | Ty::S64) => {
                alu::trunc(alu::sext(o, bits).max(alu::sext(x, bits)) as u64, bits)
            }
            (AtomOp::Min, _) => o.min(x),
            (AtomOp::Max, _) => o.max(x),
            (AtomOp::And, _) => o & x,
            (AtomOp::Or, _) => o | x,
            (AtomOp::Xor, _) => o ^ x,
            (AtomOp::Inc, _) => {
                if o >= x {
                    0
                } else {
                    o + 1
                }
            }
            (AtomOp::Dec, _) => {
                if o == 0 || o > x {
                    x
                } else {
                    o - 1
                }
            }
            (AtomOp::Exch, _) => x,
            (AtomOp::Cas, _) => {
                if o == x {
                    alu::trunc(c[l], bits)
                } else {
                    o
                }
            }
        };
        m.store(a, l, bytes, new).map_err(|f| (f, a, l))?;
        old[l] = o;
    }
    Ok(())
}

/// Runs `f` against the access object of `space`.
macro_rules! with_space {
    ($space:expr, $ctx:expr, $shared:expr, $local:expr, $lb:expr, $warp:expr, |$m:ident| $body:expr) => {
        match $space {
            Space::Global => {
                let mut $m = Global(&mut *$ctx.mem);
                $body
            }
            Space::Shared => {
                let mut $m = Window(&mut *$shared);
                $body
            }
            Space::Local => {
                let mut $m = Local {
                    buf: &mut *$local,
                    per_thread: $lb as usize,
                    first_thread: $warp.index as usize * WARP_SIZE,
                };
                $body
            }
            Space::Const => {
                let mut $m = ReadOnly($ctx.const_bank);
                $body
            }
            Space::Param => {
                let mut $m = ReadOnly($ctx.params);
                $body
            }
            // resolved by `exec` before the access (`resolve_generic`)
            Space::Generic => {
                let mut $m = ReadOnly(&[]);
                $body
            }
        }
    };
}

/// Executes a memory instruction for the lanes in `mask` at the per-lane addresses `addrs`.
#[allow(clippy::too_many_arguments)]
pub fn execute(
    ctx: &mut Ctx,
    warp: &mut Warp,
    inst: &Inst,
    mask: u32,
    addrs: &Lanes,
    shared: &mut [u8],
    local: &mut [u8],
    local_bytes: u32,
    pc: usize,
    cta: (&[u32; 3], u32),
) -> Result<(), SimError> {
    let (space, ty, vec) = match inst.op {
        Op::Ld { space, ty, vec } | Op::St { space, ty, vec } => (space, ty, vec as u32),
        Op::Atom { space, ty, .. } | Op::Red { space, ty, .. } => (space, ty, 1),
        _ => {
            return Err(runtime(
                ctx,
                pc,
                "internal: not a memory instruction".into(),
            ))
        }
    };
    let r = match inst.op {
        Op::Ld { .. } => {
            let wide = [0, 1, 2, 3].map(|k| matches!(inst.dst[k], Opnd::R64(_)));
            let mut one = [[0u64; 32]; 1];
            let mut four;
            let vals: &mut [Lanes] = if vec == 1 {
                &mut one
            } else {
                four = [[0u64; 32]; 4];
                &mut four
            };
            let r = with_space!(space, ctx, shared, local, local_bytes, warp, |m| {
                let _ = &mut m;
                ld_lanes(&m, addrs, mask, ty, vec, wide, vals)
            });
            if r.is_ok() {
                for k in 0..vec as usize {
                    write(warp, inst.dst[k], &vals[k], mask);
                }
            }
            r
        }
        Op::St { .. } => {
            let mut one = [[0u64; 32]; 1];
            let mut four;
            let data: &mut [Lanes] = if vec == 1 {
                &mut one
            } else {
                four = [[0u64; 32]; 4];
                &mut four
            };
            for k in 0..vec as usize {
                data[k] = fetch(warp, inst.src[k], ctx, cta);
            }
            with_space!(space, ctx, shared, local, local_bytes, warp, |m| st_lanes(
                &mut m, addrs, mask, ty, vec, data
            ))
        }
        Op::Atom { op, .. } | Op::Red { op, .. } => {
            let b = fetch(warp, inst.src[0], ctx, cta);
            let c = if op == AtomOp::Cas {
                fetch(warp, inst.src[1], ctx, cta)
            } else {
                [0; 32]
            };
            let mut old = [0u64; 32];
            let r = with_space!(
                space,
                ctx,
                shared,
                local,
                local_bytes,
                warp,
                |m| atom_lanes(&mut m, addrs, mask, op, ty, &b, &c, &mut old)
            );
            if r.is_ok() && matches!(inst.op, Op::Atom { .. }) {
                write(warp, inst.dst[0], &old, mask);
            }
            r
        }
        _ => Ok(()),
    };
    r.map_err(|(f, a, l)| {
        let name = space_name(space);
        runtime(
            ctx,
            pc,
            format!("lane {l}: {}", f.describe(name, a, ty.bytes() * vec)),
        )
    })
}

/// Resolves a generic access of the lanes `mask`: the state space every lane's address falls in
/// (global below [`GENERIC_SHARED_BASE`], then the shared and the local window) and the
/// addresses within it. An access whose lanes fall in different spaces is an error.
pub fn resolve_generic(addrs: &mut Lanes, mask: u32) -> Result<Space, String> {
    use super::memory::{GENERIC_LOCAL_BASE, GENERIC_SHARED_BASE, GENERIC_WINDOW_BYTES};
    let of = |a: u64| {
        if (GENERIC_LOCAL_BASE..GENERIC_LOCAL_BASE + GENERIC_WINDOW_BYTES).contains(&a) {
            (Space::Local, a - GENERIC_LOCAL_BASE)
        } else if (GENERIC_SHARED_BASE..GENERIC_LOCAL_BASE).contains(&a) {
            (Space::Shared, a - GENERIC_SHARED_BASE)
        } else {
            (Space::Global, a)
        }
    };
    let first = mask.trailing_zeros() as usize;
    let space = of(addrs[first]).0;
    let mut mm = mask;
    while mm != 0 {
        let l = mm.trailing_zeros() as usize;
        mm &= mm - 1;
        let (sp, a) = of(addrs[l]);
        if sp != space {
            return Err(format!(
                "a generic access whose lanes fall in two state spaces ({space:?} at lane \
                 {first}, {sp:?} at lane {l}) is not supported"
            ));
        }
        addrs[l] = a;
    }
    Ok(space)
}

/// One element per lane of the lanes in `mask`: loads `ty.bytes()` bytes at each lane's
/// address in `space` into `vals` (zero-extended), or stores `data`'s low bytes there when it
/// is given. The access of a tensor-core instruction's fragment element (`emu/tensor.rs`);
/// the error names the lane, the address and the space.
#[allow(clippy::too_many_arguments)]
pub(super) fn element_access(
    ctx: &mut Ctx,
    warp: &Warp,
    space: Space,
    (shared, local, local_bytes): (&mut [u8], &mut [u8], u32),
    addrs: &Lanes,
    mask: u32,
    ty: Ty,
    data: Option<&Lanes>,
    vals: &mut Lanes,
) -> Result<(), String> {
    let r = match data {
        None => {
            let mut one = [[0u64; 32]; 1];
            let r = with_space!(space, ctx, shared, local, local_bytes, warp, |m| {
                let _ = &mut m;
                ld_lanes(&m, addrs, mask, ty, 1, [false; 4], &mut one)
            });
            *vals = one[0];
            r
        }
        Some(d) => with_space!(space, ctx, shared, local, local_bytes, warp, |m| st_lanes(
            &mut m,
            addrs,
            mask,
            ty,
            1,
            std::slice::from_ref(d)
        )),
    };
    r.map_err(|(f, a, l)| {
        let name = space_name(space);
        format!("lane {l}: {}", f.describe(name, a, ty.bytes()))
    })
}

/// The PTX name of a state space, for the messages of a failed access.
fn space_name(space: Space) -> &'static str {
    match space {
        Space::Global => "global",
        Space::Shared => "shared",
        Space::Local => "local",
        Space::Const => "const",
        Space::Param => "param",
        Space::Generic => "generic",
    }
}
