//! Register allocation (simulator §3.1.5): liveness by backward data-flow over the
//! instruction-level control-flow graph, live intervals in program order, and a deterministic
//! linear scan that maps virtual registers to R0…R(n−1) (64-bit values in aligned pairs) and
//! predicates to P0…P15.
//!
//! Each instruction i has two points: 2i (operands are read) and 2i+1 (results are written). A
//! register read for the last time at i and a register first written at i therefore do not
//! overlap and may share a physical register, as in hardware. A guarded write does not kill the
//! old value (lanes whose guard is false keep it). Intervals are the hull of all live points, which
//! is conservative for loops and divergent paths. Ties are broken by virtual register number, and
//! the lowest free register (pair) is always taken, so the result is deterministic.

use super::decode::RegClass;
use super::isa::{AddrBase, Inst, Opnd};

/// Number of architectural predicate registers ([`crate::inst::PRED_REGS`]).
pub const NUM_PREDS: u32 = crate::inst::PRED_REGS as u32;

/// Result of allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// Physical register of every virtual GPR (`u16::MAX` when never referenced).
    pub gpr: Vec<u16>,
    /// Physical predicate of every virtual predicate (`u16::MAX` when never referenced).
    pub pred: Vec<u16>,
    /// Registers per thread (highest used + 1).
    pub regs: u32,
    /// Predicates used (highest used + 1).
    pub preds: u32,
}

/// Virtual register uses and definitions of one instruction, as ids in a combined space where
/// predicates follow the GPRs (`n_gpr + p`).
fn uses_defs(inst: &Inst, n_gpr: usize, uses: &mut Vec<usize>, defs: &mut Vec<usize>) {
    uses.clear();
    defs.clear();
    let id = |o: &Opnd| -> Option<usize> {
        match *o {
            Opnd::R32(r) | Opnd::R64(r) => Some(r as usize),
            Opnd::Pred(p, _) => Some(n_gpr + p as usize),
            _ => None,
        }
    };
    for s in inst.srcs() {
        if let Some(v) = id(s) {
            uses.push(v);
        }
    }
    match inst.addr.base {
        AddrBase::R32(r) | AddrBase::R64(r) => uses.push(r as usize),
        _ => {}
    }
    if let Some((g, _)) = inst.guard {
        uses.push(n_gpr + g as usize);
    }
    for d in inst.dsts() {
        if let Some(v) = id(d) {
            defs.push(v);
        }
    }
}

/// Successor instruction indices of instruction `i` (the instruction-level CFG). A call of a
/// recursive function goes to the function's first instruction; its return (which has no
/// successor here) goes to every return point of the function's calls, which
/// [`successor_lists`] adds.
pub fn successors(insts: &[Inst], i: usize) -> impl Iterator<Item = usize> {
    let inst = &insts[i];
    let n = insts.len();
    let guarded = inst.guard.is_some();
    let (a, b) = match inst.op {
        super::isa::Op::Bra { .. } => (
            Some(inst.target as usize),
            if guarded { Some(i + 1) } else { None },
        ),
        super::isa::Op::Call { .. } => (Some(inst.target as usize), None),
        super::isa::Op::Ret | super::isa::Op::Exit | super::isa::Op::Return { .. } => {
            (None, if guarded { Some(i + 1) } else { None })
        }
        _ => (Some(i + 1), None),
    };
    [a, b].into_iter().flatten().filter(move |&s| s < n)
}

/// The successor list of every instruction: [`successors`], and for the return of a recursive
/// function the instruction after each call of that function (an interprocedural graph, so
/// that a value live after a call is live throughout the callee and the registers the callee
/// writes are kept apart from it).
pub fn successor_lists(insts: &[Inst]) -> Vec<Vec<usize>> {
    use super::isa::Op;
    let mut out: Vec<Vec<usize>> = (0..insts.len())
        .map(|i| successors(insts, i).collect())
        .collect();
    let mut returns: Vec<(u16, usize)> = Vec::new();
    for (i, x) in insts.iter().enumerate() {
        if let Op::Return { func } = x.op {
            returns.push((func, i));
        }
    }
    if returns.is_empty() {
        return out;
    }
    for (j, x) in insts.iter().enumerate() {
        if let Op::Call { func } = x.op {
            for &(f, r) in &returns {
                if f == func && j + 1 < insts.len() {
                    out[r].push(j + 1);
                }
            }
        }
    }
    out
}

/// Virtual registers (GPRs `0..classes.len()`, then predicates) live on entry to each
/// instruction of `points`, over the interprocedural graph of [`successor_lists`].
pub fn live_in_at(
    insts: &[Inst],
    classes: &[RegClass],
    n_pred: usize,
    points: &[usize],
) -> Vec<Vec<usize>> {
    let lv = liveness(insts, classes.len(), n_pred);
    points
        .iter()
        .map(|&p| {
            if p < insts.len() {
                lv.live_in(p).collect()
            } else {
                Vec::new()
            }
        })
        .collect()
}

/// Virtual registers (in the space of [`live_in_at`]) each instruction writes.
pub fn defs_of(inst: &Inst, n_gpr: usize) -> Vec<usize> {
    let (mut u, mut d) = (Vec::new(), Vec::new());
    uses_defs(inst, n_gpr, &mut u, &mut d);
    d
}

/// Live sets per instruction (bitsets over the combined virtual-register space).
pub(super) struct Liveness {
    pub(super) words: usize,
    pub(super) live_in: Vec<u64>,
    pub(super) live_out: Vec<u64>,
    pub(super) use_sets: Vec<Vec<usize>>,
    pub(super) def_sets: Vec<Vec<usize>>,
}

impl Liveness {
    fn bits(v: &[u64], i: usize, words: usize) -> impl Iterator<Item = usize> + '_ {
        (0..words).flat_map(move |w| {
            let mut b = v[i * words + w];
            std::iter::from_fn(move || {
                if b == 0 {
                    return None;
                }
                let t = b.trailing_zeros() as usize;
                b &= b - 1;
                Some(w * 64 + t)
            })
        })
    }
    pub(super) fn live_in(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        Self::bits(&self.live_in, i, self.words)
    }
    pub(super) fn live_out(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        Self::bits(&self.live_out, i, self.words)
    }
}

/// Backward data-flow liveness over the instruction-level CFG.
pub(super) fn liveness(insts: &[Inst], n_gpr: usize, n_pred: usize) -> Liveness {
    let nv = n_gpr + n_pred;
    let words = nv.div_ceil(64).max(1);
    let n = insts.len();
    let mut live_in = vec![0u64; n * words];
    let mut live_out = vec![0u64; n * words];
    let mut uses = Vec::new();
    let mut defs = Vec::new();
    let mut use_sets: Vec<Vec<usize>> = Vec::with_capacity(n);
    let mut kill_sets: Vec<Vec<usize>> = Vec::with_capacity(n);
    let mut def_sets: Vec<Vec<usize>> = Vec::with_capacity(n);
    for inst in insts.iter() {
        uses_defs(inst, n_gpr, &mut uses, &mut defs);
        use_sets.push(uses.clone());
        def_sets.push(defs.clone());
        kill_sets.push(if inst.guard.is_some() {
            Vec::new()
        } else {
            defs.clone()
        });
    }
    let succs = successor_lists(insts);
    // Iterate to a fixed point in reverse program order.
    let mut changed = true;
    let mut tmp = vec![0u64; words];
    while changed {
        changed = false;
        for i in (0..n).rev() {
            tmp.iter_mut().for_each(|w| *w = 0);
            for &s in &succs[i] {
                for w in 0..words {
                    tmp[w] |= live_in[s * words + w];
                }
            }
            let out = &mut live_out[i * words..(i + 1) * words];
            if out != tmp.as_slice() {
                out.copy_from_slice(&tmp);
            }
            for &k in &kill_sets[i] {
                tmp[k / 64] &= !(1u64 << (k % 64));
            }
            for &u in &use_sets[i] {
                tmp[u / 64] |= 1u64 << (u % 64);
            }
            let inn = &mut live_in[i * words..(i + 1) * words];
            if inn != tmp.as_slice() {
                inn.copy_from_slice(&tmp);
                changed = true;
            }
        }
    }
    Liveness {
        words,
        live_in,
        live_out,
        use_sets,
        def_sets,
    }
}

/// Checks an allocation of the *virtual* program `insts`: at every read point (live-in and
/// operands) and every write point (live-out and results) of every instruction, the virtual
/// registers present must occupy pairwise disjoint physical registers (a pair counts as two).
pub fn verify(
    insts: &[Inst],
    classes: &[RegClass],
    n_pred: usize,
    a: &Allocation,
) -> Result<(), String> {
    let n_gpr = classes.len();
    let lv = liveness(insts, n_gpr, n_pred);
    let mut owner_r: Vec<usize> = Vec::new();
    let mut owner_p: Vec<usize> = Vec::new();
    for i in 0..insts.len() {
        for point in 0..2 {
            let set: Vec<usize> = if point == 0 {
                lv.live_in(i)
                    .chain(lv.use_sets[i].iter().copied())
                    .collect()
            } else {
                lv.live_out(i)
                    .chain(lv.def_sets[i].iter().copied())
                    .collect()
            };
            owner_r.clear();
            owner_r.resize(a.regs as usize + 2, usize::MAX);
            owner_p.clear();
            owner_p.resize(NUM_PREDS as usize, usize::MAX);
            for v in set {
                let (slots, table): (Vec<usize>, &mut Vec<usize>) = if v < n_gpr {
                    let p = a.gpr[v] as usize;
                    if classes[v] == RegClass::R64 {
                        (vec![p, p + 1], &mut owner_r)
                    } else {
                        (vec![p], &mut owner_r)
                    }
                } else {
                    (vec![a.pred[v - n_gpr] as usize], &mut owner_p)
                };
                for s in slots {
                    match table.get(s) {
                        Some(&o) if o == usize::MAX || o == v => table[s] = v,
                        Some(&o) => {
                            return Err(format!(
                                "instruction {i}: virtual registers {o} and {v} share physical register {s}"
                            ))
                        }
                        None => return Err(format!("instruction {i}: register {s} out of range")),
                    }
                }
            }
        }
    }
    Ok(())
}

/// Registers per thread the PTX targets allow: 255 32-bit registers (CUDA C++ Programming
/// Guide, "Technical Specifications per Compute Capability": maximum number of 32-bit registers
/// per thread, 255 for compute capability 3.2 and later). ptxas spills to local memory beyond it,
/// as [`super::spill`] does.
pub const MAX_REGS: u32 = 255;

/// Why an allocation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AllocError {
    /// More than [`MAX_REGS`] registers would be needed (spilling may help).
    Registers,
    /// More than [`NUM_PREDS`] predicates are live at once (spilling does not help).
    Predicates(String),
}

impl AllocError {
    /// The message of the error.
    pub fn message(&self) -> String {
        match self {
            AllocError::Registers => format!("more than {MAX_REGS} registers are needed"),
            AllocError::Predicates(m) => m.clone(),
        }
    }
}

/// Live intervals over points 2i (read) and 2i+1 (write): the hull of every point where each
/// virtual register (combined space) is live or named; `start` is `usize::MAX` for a register
/// never named.
fn hull_intervals(lv: &Liveness, n: usize, nv: usize) -> (Vec<usize>, Vec<usize>) {
    let words = lv.words;
    let mut start = vec![usize::MAX; nv];
    let mut end = vec![0usize; nv];
    let touch = |v: usize, p: usize, start: &mut Vec<usize>, end: &mut Vec<usize>| {
        if p < start[v] {
            start[v] = p;
        }
        if p > end[v] {
            end[v] = p;
        }
    };
    for i in 0..n {
        for w in 0..words {
            let mut bits = lv.live_in[i * words + w];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                touch(w * 64 + b, 2 * i, &mut start, &mut end);
            }
            let mut bits = lv.live_out[i * words + w];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                touch(w * 64 + b, 2 * i + 1, &mut start, &mut end);
            }
        }
        for &u in &lv.use_sets[i] {
            touch(u, 2 * i, &mut start, &mut end);
        }
        for &d in &lv.def_sets[i] {
            touch(d, 2 * i + 1, &mut start, &mut end);
        }
    }
    (start, end)
}

/// Linear scan over the intervals of the virtual registers `ids` (one class): the physical
/// register (pair) of each, lowest free first, and the registers used (highest + 1). `limit` is
/// the number of physical registers; `preds` selects the predicate error message.
fn scan(
    ids: std::ops::Range<usize>,
    (start, end): (&[usize], &[usize]),
    wide: &dyn Fn(usize) -> bool,
    limit: u32,
    preds: bool,
) -> Result<(Vec<u16>, u32), AllocError> {
    let mut order: Vec<usize> = ids.clone().filter(|&v| start[v] != usize::MAX).collect();
    order.sort_by_key(|&v| (start[v], v));
    let mut busy: Vec<bool> = Vec::new();
    let mut active: Vec<(usize, u16, bool)> = Vec::new(); // (end, phys, wide)
    let mut phys = vec![u16::MAX; ids.len()];
    let mut hi = 0u32;
    for v in order {
        active.retain(|&(e, p, w)| {
            if e < start[v] {
                busy[p as usize] = false;
                if w {
                    busy[p as usize + 1] = false;
                }
                false
            } else {
                true
            }
        });
        let w = wide(v);
        let step = if w { 2 } else { 1 };
        let mut p = 0usize;
        loop {
            let free = |q: usize| busy.get(q).is_none_or(|b| !*b);
            if free(p) && (!w || free(p + 1)) {
                break;
            }
            p += step;
        }
        if busy.len() < p + step {
            busy.resize(p + step, false);
        }
        busy[p] = true;
        if w {
            busy[p + 1] = true;
        }
        if (p + step) as u32 > limit {
            return Err(if preds {
                AllocError::Predicates(format!(
                    "more than {limit} predicates are live at once (the PTX subset maps \
                     predicates to P0-P{})",
                    limit - 1
                ))
            } else {
                AllocError::Registers
            });
        }
        hi = hi.max((p + step) as u32);
        phys[v - ids.start] = p as u16;
        active.push((end[v], p as u16, w));
    }
    Ok((phys, hi))
}

/// Rewrites the virtual registers of `insts` to the physical ones of `gpr` and `pred`.
fn apply(insts: &mut [Inst], gpr: &[u16], pred: &[u16]) {
    let map = |o: &mut Opnd| match o {
        Opnd::R32(r) | Opnd::R64(r) => *r = gpr[*r as usize],
        Opnd::Pred(p, _) => *p = pred[*p as usize],
        _ => {}
    };
    for inst in insts.iter_mut() {
        let nd = inst.ndst as usize;
        inst.dst[..nd].iter_mut().for_each(map);
        let ns = inst.nsrc as usize;
        inst.src[..ns].iter_mut().for_each(map);
        match &mut inst.addr.base {
            AddrBase::R32(r) | AddrBase::R64(r) => *r = gpr[*r as usize],
            _ => {}
        }
        if let Some((g, _)) = &mut inst.guard {
            *g = pred[*g as usize];
        }
    }
}

/// Allocates registers for `insts` in place (rewriting virtual numbers to physical ones) by a
/// linear scan over hull intervals. `classes` gives the class of every virtual GPR; `n_pred` is
/// the number of virtual predicates. Errors when more than [`MAX_REGS`] registers or
/// [`NUM_PREDS`] predicates would be needed.
pub fn allocate(
    insts: &mut [Inst],
    classes: &[RegClass],
    n_pred: usize,
) -> Result<Allocation, String> {
    allocate_hull(insts, classes, n_pred).map_err(|e| e.message())
}

/// [`allocate`] with the reason of a failure.
pub fn allocate_hull(
    insts: &mut [Inst],
    classes: &[RegClass],
    n_pred: usize,
) -> Result<Allocation, AllocError> {
    let n_gpr = classes.len();
    let nv = n_gpr + n_pred;
    let lv = liveness(insts, n_gpr, n_pred);
    let (start, end) = hull_intervals(&lv, insts.len(), nv);
    let iv = (start.as_slice(), end.as_slice());
    let (gpr, regs) = scan(
        0..n_gpr,
        iv,
        &|v| classes[v] == RegClass::R64,
        MAX_REGS,
        false,
    )?;
    let (pred, preds) = scan(n_gpr..nv, iv, &|_| false, NUM_PREDS, true)?;
    apply(insts, &gpr, &pred);
    Ok(Allocation {
        gpr,
        pred,
        regs,
        preds,
    })
}

/// Allocates the predicates of `insts` by the hull scan and its GPRs as `gpr` gives (from
/// [`super::colour`]), rewriting `insts` in place.
pub fn allocate_with_gprs(
    insts: &mut [Inst],
    classes: &[RegClass],
    n_pred: usize,
    gpr: Vec<u16>,
    regs: u32,
) -> Result<Allocation, AllocError> {
    let n_gpr = classes.len();
    let nv = n_gpr + n_pred;
    let lv = liveness(insts, n_gpr, n_pred);
    let (start, end) = hull_intervals(&lv, insts.len(), nv);
    let (pred, preds) = scan(
        n_gpr..nv,
        (start.as_slice(), end.as_slice()),
        &|_| false,
        NUM_PREDS,
        true,
    )?;
    apply(insts, &gpr, &pred);
    Ok(Allocation {
        gpr,
        pred,
        regs,
        preds,
    })
}

/// Register demand of a virtual program, for reports and errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pressure {
    /// Most 32-bit registers (a pair counts two) live at one read or write point.
    pub peak_regs: u32,
    /// The instruction where the peak is first reached.
    pub peak_inst: usize,
    /// Registers the hull linear scan would use with no limit.
    pub hull_regs: u32,
}

/// The [`Pressure`] of `insts`.
pub fn pressure(insts: &[Inst], classes: &[RegClass], n_pred: usize) -> Pressure {
    let n_gpr = classes.len();
    let lv = liveness(insts, n_gpr, n_pred);
    let width = |v: usize| if classes[v] == RegClass::R64 { 2 } else { 1 };
    let (mut peak_regs, mut peak_inst) = (0u32, 0usize);
    let mut seen = vec![usize::MAX; n_gpr];
    for i in 0..insts.len() {
        for (k, set) in [
            lv.live_in(i)
                .chain(lv.use_sets[i].iter().copied())
                .collect::<Vec<_>>(),
            lv.live_out(i)
                .chain(lv.def_sets[i].iter().copied())
                .collect(),
        ]
        .into_iter()
        .enumerate()
        {
            let mut units = 0u32;
            for v in set {
                if v < n_gpr && seen[v] != 2 * i + k {
                    seen[v] = 2 * i + k;
                    units += width(v);
                }
            }
            if units > peak_regs {
                peak_regs = units;
                peak_inst = i;
            }
        }
    }
    let (start, end) = hull_intervals(&lv, insts.len(), n_gpr + n_pred);
    let hull_regs = scan(
        0..n_gpr,
        (start.as_slice(), end.as_slice()),
        &|v| classes[v] == RegClass::R64,
        u32::MAX,
        false,
    )
    .map_or(0, |r| r.1);
    Pressure {
        peak_regs,
        peak_inst,
        hull_regs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::isa::{Op, Ty};

    fn inst(op: Op, dst: &[Opnd], src: &[Opnd]) -> Inst {
        let mut i = Inst::new(op, 1);
        i.ndst = dst.len() as u8;
        i.dst[..dst.len()].copy_from_slice(dst);
        i.nsrc = src.len() as u8;
        i.src[..src.len()].copy_from_slice(src);
        i
    }

    /// v0 = 1; v1 = 2; v2 = v0 + v1 (64-bit); v3 = v0; ret.
    fn program() -> (Vec<Inst>, Vec<RegClass>) {
        let p = vec![
            inst(Op::Mov(Ty::U32), &[Opnd::R32(0)], &[Opnd::Imm(1)]),
            inst(Op::Mov(Ty::U32), &[Opnd::R32(1)], &[Opnd::Imm(2)]),
            inst(
                Op::MulWide(Ty::U32),
                &[Opnd::R64(2)],
                &[Opnd::R32(0), Opnd::R32(1)],
            ),
            inst(Op::Mov(Ty::U32), &[Opnd::R32(3)], &[Opnd::R32(0)]),
            inst(Op::Ret, &[], &[]),
        ];
        (
            p,
            vec![RegClass::R32, RegClass::R32, RegClass::R64, RegClass::R32],
        )
    }

    #[test]
    fn allocation_is_verified_and_pairs_are_aligned() {
        let (virt, classes) = program();
        let mut insts = virt.clone();
        let a = allocate(&mut insts, &classes, 0).unwrap();
        verify(&virt, &classes, 0, &a).unwrap();
        // v0 lives until instruction 3, v1 dies at 2: the pair may not overlap v0.
        assert_eq!(a.gpr[2] % 2, 0);
        assert_ne!(a.gpr[2], a.gpr[0] & !1);
        // v1's register is free at instruction 2's write point, so v3 may reuse registers.
        assert!(a.regs <= 4, "{a:?}");
    }

    #[test]
    fn verify_rejects_interfering_registers() {
        let (virt, classes) = program();
        let bad = Allocation {
            gpr: vec![0, 0, 2, 1],
            pred: vec![],
            regs: 4,
            preds: 0,
        };
        let e = verify(&virt, &classes, 0, &bad).unwrap_err();
        assert!(e.contains("share physical register 0"), "{e}");
        // A pair overlapping a live 32-bit register is caught too.
        let bad = Allocation {
            gpr: vec![1, 2, 0, 3],
            pred: vec![],
            regs: 4,
            preds: 0,
        };
        assert!(verify(&virt, &classes, 0, &bad).is_err());
    }
}
