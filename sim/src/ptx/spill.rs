//! Spilling to local memory, for kernels whose values do not fit in
//! [`super::regalloc::MAX_REGS`] registers even with exact live ranges ([`super::colour`]).
//! [`allocate_kernel`] is the front end's register allocation: the hull scan of `regalloc.rs`
//! when it fits (every such kernel's allocation is the scan's), this module's otherwise.
//!
//! Each round colours the virtual program; the values it cannot colour are spilled whole
//! (Chaitin's spill-everywhere rewrite): every spilled value gets a slot in the thread's
//! local memory after the kernel's own `.local` variables (4 bytes, or 8 aligned to 8 for a
//! pair), and at every instruction that names it the value is renamed to a fresh temporary,
//! loaded from the slot just before the instruction (`ld.local`) when the instruction reads it
//! or writes it under a guard (lanes whose guard is false keep the old value), and stored to the
//! slot just after it (`st.local`) when the instruction writes it. The temporaries live from the
//! load to the instruction and from the instruction to the store, and are never spilled
//! themselves; the program is coloured again, until it fits.
//!
//! A tensor instruction and the carriers of its fragment registers (`tensor.rs`) execute as
//! one instruction, so its loads go before the head and its stores after the last carrier.
//! Branch targets move to the first load in front of their instruction. The spill code is
//! ordinary `ld.local`/`st.local`: the emulator computes with it the same values, and the timing
//! model sees it as local-memory traffic, as it sees ptxas's `LDL`/`STL`.
//!
//! Kernels that call recursive device functions keep their call stack after `local_bytes` and
//! are not spilled (their allocation errors as before).

use super::colour::{colour, Outcome};
use super::decode::RegClass;
use super::isa::{Addr, AddrBase, Inst, Op, Opnd, Space, Ty};
use super::regalloc::{
    allocate_hull, allocate_with_gprs, pressure, AllocError, Allocation, MAX_REGS,
};

/// Colouring rounds before the allocation gives up.
pub const MAX_ROUNDS: usize = 64;

/// What spilling added to a kernel (all zero when it was not spilled).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpillStats {
    /// Virtual registers held in local memory.
    pub values: u32,
    /// Static `st.local` instructions added.
    pub store_insts: u32,
    /// Static `ld.local` instructions added.
    pub load_insts: u32,
    /// Local-memory bytes per thread the spill slots take.
    pub bytes_per_thread: u32,
    /// The register demand of the kernel's own program, measured when the hull scan did not fit
    /// ([`super::regalloc::pressure`]); `None` when it did.
    pub demand: Option<super::regalloc::Pressure>,
}

/// A kernel allocated with spilling.
#[derive(Clone, Debug)]
pub struct Spilled {
    /// The rewritten program with virtual registers (spill code included), for
    /// [`super::regalloc::verify`].
    pub virt: Vec<Inst>,
    /// The class of every virtual GPR of `virt` (the temporaries follow the kernel's own).
    pub classes: Vec<RegClass>,
    /// `virt` with physical registers.
    pub insts: Vec<Inst>,
    /// The allocation of `virt`.
    pub alloc: Allocation,
    /// What spilling added.
    pub stats: SpillStats,
    /// Local bytes per thread, spill slots included.
    pub local_bytes: u64,
}

/// The allocation of a kernel's virtual program `insts` (registers of `classes`, `n_pred`
/// predicates; `local_bytes` of `.local` variables per thread): the hull linear scan
/// ([`allocate_hull`]) when it fits, unchanged; otherwise, for a kernel that calls no recursive
/// function, [`allocate_spilling`].
pub fn allocate_kernel(
    insts: &[Inst],
    classes: &[RegClass],
    n_pred: usize,
    local_bytes: u64,
) -> Result<Spilled, String> {
    let mut phys = insts.to_vec();
    match allocate_hull(&mut phys, classes, n_pred) {
        Ok(alloc) => Ok(Spilled {
            virt: insts.to_vec(),
            classes: classes.to_vec(),
            insts: phys,
            alloc,
            stats: SpillStats::default(),
            local_bytes,
        }),
        // A kernel that calls recursive functions keeps its call stack after its local
        // variables: it is not spilled.
        Err(AllocError::Registers)
            if !insts
                .iter()
                .any(|x| matches!(x.op, Op::Call { .. } | Op::Return { .. })) =>
        {
            allocate_spilling(insts, classes, n_pred, local_bytes).map_err(|m| {
                let p = pressure(insts, classes, n_pred);
                format!(
                    "more than {MAX_REGS} registers are needed ({} live at once at line {}) and \
                     spilling failed: {m}",
                    p.peak_regs, insts[p.peak_inst].line
                )
            })
        }
        Err(e) => Err(e.message()),
    }
}

/// Allocates `insts` (virtual registers of `classes`, `n_pred` predicates; `local_bytes` of
/// `.local` variables per thread) with spilling: colouring over exact live ranges, spilling
/// until the program fits [`MAX_REGS`] registers.
pub fn allocate_spilling(
    insts: &[Inst],
    classes: &[RegClass],
    n_pred: usize,
    local_bytes: u64,
) -> Result<Spilled, String> {
    let mut virt = insts.to_vec();
    let mut classes = classes.to_vec();
    let mut no_spill = vec![false; classes.len()];
    let mut stats = SpillStats {
        demand: Some(pressure(insts, &classes, n_pred)),
        ..SpillStats::default()
    };
    let base = local_bytes.next_multiple_of(8);
    let mut next = base;
    for _ in 0..MAX_ROUNDS {
        match colour(&virt, &classes, n_pred, &no_spill, MAX_REGS)? {
            Outcome::Coloured { gpr, regs } => {
                let mut phys = virt.clone();
                let alloc = allocate_with_gprs(&mut phys, &classes, n_pred, gpr, regs)
                    .map_err(|e| e.message())?;
                stats.bytes_per_thread = u32::try_from(next - base).unwrap_or(u32::MAX);
                return Ok(Spilled {
                    virt,
                    classes,
                    insts: phys,
                    alloc,
                    stats,
                    local_bytes: if stats.values > 0 { next } else { local_bytes },
                });
            }
            Outcome::Spill(vs) => {
                let mut slot = vec![None; classes.len()];
                for &v in &vs {
                    let bytes = if classes[v] == RegClass::R64 { 8 } else { 4 };
                    next = next.next_multiple_of(bytes);
                    slot[v] = Some(next);
                    next += bytes;
                }
                stats.values += vs.len() as u32;
                virt = rewrite(&virt, &mut classes, &mut no_spill, &slot, &mut stats)?;
            }
        }
    }
    Err(format!(
        "register allocation with spilling did not fit {MAX_REGS} registers in {MAX_ROUNDS} rounds"
    ))
}

/// The virtual GPR an operand names.
fn gpr_of(o: &Opnd) -> Option<usize> {
    match *o {
        Opnd::R32(r) | Opnd::R64(r) => Some(r as usize),
        _ => None,
    }
}

/// `o` with virtual GPR `from` renamed to `to`.
fn renamed(o: Opnd, from: usize, to: u16) -> Opnd {
    match o {
        Opnd::R32(r) if r as usize == from => Opnd::R32(to),
        Opnd::R64(r) if r as usize == from => Opnd::R64(to),
        o => o,
    }
}

/// A load (`st` false) or store of temporary `t` of class `cls` from or to local offset `slot`.
fn slot_access(st: bool, t: u16, cls: RegClass, slot: u64, line: u32) -> Inst {
    let (ty, reg) = if cls == RegClass::R64 {
        (Ty::B64, Opnd::R64(t))
    } else {
        (Ty::B32, Opnd::R32(t))
    };
    let space = Space::Local;
    let mut x = Inst::new(
        if st {
            Op::St { space, ty, vec: 1 }
        } else {
            Op::Ld { space, ty, vec: 1 }
        },
        line,
    );
    if st {
        x.nsrc = 1;
        x.src[0] = reg;
    } else {
        x.ndst = 1;
        x.dst[0] = reg;
    }
    x.addr = Addr {
        base: AddrBase::None,
        off: slot as i64,
    };
    x
}

/// Instructions executed as one from `i`: a tensor instruction and its carriers, or one.
fn group_len(insts: &[Inst], i: usize) -> usize {
    match insts[i].op {
        Op::Tensor(t) => (1 + t.carriers()).min(insts.len() - i),
        _ => 1,
    }
}

/// Rewrites `insts` with the values that have a `slot` in local memory: renamed to a fresh
/// temporary (appended to `classes`, marked in `no_spill`) at every instruction group that names
/// them, with the loads before and stores after the group.
fn rewrite(
    insts: &[Inst],
    classes: &mut Vec<RegClass>,
    no_spill: &mut Vec<bool>,
    slot: &[Option<u64>],
    stats: &mut SpillStats,
) -> Result<Vec<Inst>, String> {
    let n = insts.len();
    let spilled = |v: usize| slot.get(v).copied().flatten();
    let mut out: Vec<Inst> = Vec::with_capacity(n + n / 4);
    let mut new_start = vec![0u32; n + 1];
    let mut i = 0;
    while i < n {
        let len = group_len(insts, i);
        let group = &insts[i..i + len];
        // (value, read, written) in order of first mention
        let mut vs: Vec<(usize, bool, bool)> = Vec::new();
        let mut note = |v: usize, read: bool| {
            if spilled(v).is_none() {
                return;
            }
            match vs.iter_mut().find(|e| e.0 == v) {
                Some(e) => {
                    e.1 |= read;
                    e.2 |= !read;
                }
                None => vs.push((v, read, !read)),
            }
        };
        for x in group {
            for s in x.srcs() {
                if let Some(v) = gpr_of(s) {
                    note(v, true);
                }
            }
            if let AddrBase::R32(r) | AddrBase::R64(r) = x.addr.base {
                note(r as usize, true);
            }
            for d in x.dsts() {
                if let Some(v) = gpr_of(d) {
                    note(v, false);
                }
            }
        }
        new_start[i] = out.len() as u32;
        if vs.is_empty() {
            for (k, x) in group.iter().enumerate() {
                new_start[i + k] = out.len() as u32;
                out.push(*x);
            }
            i += len;
            continue;
        }
        let guarded = group[0].guard.is_some();
        let line = group[0].line;
        let mut temps: Vec<(usize, u16)> = Vec::with_capacity(vs.len());
        for &(v, read, written) in &vs {
            if classes.len() >= u16::MAX as usize {
                return Err("too many registers with the spill temporaries".into());
            }
            let t = classes.len() as u16;
            classes.push(classes[v]);
            no_spill.push(true);
            temps.push((v, t));
            if read || (written && guarded) {
                let s = spilled(v).unwrap_or(0);
                out.push(slot_access(false, t, classes[v], s, line));
                stats.load_insts += 1;
            }
        }
        for (k, x) in group.iter().enumerate() {
            if k > 0 {
                new_start[i + k] = out.len() as u32;
            }
            let mut y = *x;
            for &(v, t) in &temps {
                let nd = y.ndst as usize;
                for d in &mut y.dst[..nd] {
                    *d = renamed(*d, v, t);
                }
                let ns = y.nsrc as usize;
                for s in &mut y.src[..ns] {
                    *s = renamed(*s, v, t);
                }
                match &mut y.addr.base {
                    AddrBase::R32(r) | AddrBase::R64(r) if *r as usize == v => *r = t,
                    _ => {}
                }
            }
            out.push(y);
        }
        for (&(v, _, written), &(_, t)) in vs.iter().zip(&temps) {
            if written {
                let s = spilled(v).unwrap_or(0);
                out.push(slot_access(true, t, classes[v], s, line));
                stats.store_insts += 1;
            }
        }
        i += len;
    }
    new_start[n] = out.len() as u32;
    if out.len() >= (u32::MAX / 8) as usize {
        return Err("kernel too long with its spill code".into());
    }
    for x in &mut out {
        if matches!(x.op, Op::Bra { .. } | Op::Call { .. }) {
            x.target = new_start[(x.target as usize).min(n)];
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::regalloc::verify;

    fn inst(op: Op, dst: &[Opnd], src: &[Opnd]) -> Inst {
        let mut i = Inst::new(op, 1);
        i.ndst = dst.len() as u8;
        i.dst[..dst.len()].copy_from_slice(dst);
        i.nsrc = src.len() as u8;
        i.src[..src.len()].copy_from_slice(src);
        i
    }

    /// `n` values defined, then summed in reverse order: all `n` are live at once.
    fn wide_program(n: usize) -> (Vec<Inst>, Vec<RegClass>) {
        let mut p = Vec::new();
        for v in 0..n {
            p.push(inst(
                Op::Mov(Ty::U32),
                &[Opnd::R32(v as u16)],
                &[Opnd::Imm(v as u64)],
            ));
        }
        let acc = n as u16;
        p.push(inst(Op::Mov(Ty::U32), &[Opnd::R32(acc)], &[Opnd::Imm(0)]));
        for v in (0..n).rev() {
            p.push(inst(
                Op::Add(Ty::U32),
                &[Opnd::R32(acc)],
                &[Opnd::R32(acc), Opnd::R32(v as u16)],
            ));
        }
        p.push(inst(Op::Ret, &[], &[]));
        (p, vec![RegClass::R32; n + 1])
    }

    #[test]
    fn a_program_over_the_limit_is_spilled_and_verified() {
        let (virt, classes) = wide_program(300);
        let s = allocate_spilling(&virt, &classes, 0, 12).unwrap();
        verify(&s.virt, &s.classes, 0, &s.alloc).unwrap();
        assert!(s.alloc.regs <= MAX_REGS, "{}", s.alloc.regs);
        assert!(s.stats.values > 0);
        assert_eq!(s.stats.store_insts, s.stats.values);
        assert_eq!(s.stats.load_insts, s.stats.values);
        assert_eq!(s.stats.bytes_per_thread, 4 * s.stats.values);
        // the slots follow the kernel's 12 bytes of .local, 8-aligned
        assert_eq!(s.local_bytes, 16 + u64::from(s.stats.bytes_per_thread));
        let slots: Vec<i64> = s
            .insts
            .iter()
            .filter(|x| matches!(x.op, Op::St { .. }))
            .map(|x| x.addr.off)
            .collect();
        assert!(slots.iter().all(|&o| o >= 16), "{slots:?}");
    }

    #[test]
    fn values_that_cannot_be_spilled_and_do_not_fit_are_an_error() {
        let (virt, classes) = wide_program(300);
        let no_spill = vec![true; classes.len()];
        let e = colour(&virt, &classes, 0, &no_spill, MAX_REGS).unwrap_err();
        assert!(
            e.contains("more than 255 registers are live at once"),
            "{e}"
        );
        assert!(e.contains("at instruction"), "{e}");
        // with room for them, the same values colour
        let ok = colour(&virt, &classes, 0, &no_spill, 400).unwrap();
        assert!(matches!(ok, Outcome::Coloured { regs: 301, .. }), "{ok:?}");
    }

    #[test]
    fn branch_targets_move_to_the_loads_in_front() {
        // v0..v299 live across a loop whose body reads them all.
        let (mut virt, mut classes) = wide_program(300);
        let n = virt.len();
        // turn the final `ret` into a backward branch guarded by predicate 0, then `ret`
        let mut b = inst(Op::Bra { uni: false }, &[], &[]);
        b.target = 301;
        b.guard = Some((0, false));
        virt[n - 1] = b;
        virt.push(inst(Op::Ret, &[], &[]));
        classes.truncate(301);
        let s = allocate_spilling(&virt, &classes, 1, 0).unwrap();
        verify(&s.virt, &s.classes, 1, &s.alloc).unwrap();
        let bra = s
            .virt
            .iter()
            .find(|x| matches!(x.op, Op::Bra { .. }))
            .unwrap();
        let t = bra.target as usize;
        // the target is the first instruction of the old instruction 301's group: loads, if
        // any, then the add
        let mut k = t;
        while matches!(s.virt[k].op, Op::Ld { .. }) {
            k += 1;
        }
        assert!(matches!(s.virt[k].op, Op::Add(_)), "{:?}", s.virt[k].op);
        assert!(t == 0 || !matches!(s.virt[t - 1].op, Op::Ld { .. }));
    }
}
