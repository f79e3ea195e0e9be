//! Register allocation (spec simulator.md §3.1.5): liveness by backward data-flow over the
//! instruction-level control-flow graph, live intervals in program order, and a deterministic
//! linear scan that maps virtual registers to R0…R(n−1) (64-bit values in aligned pairs) and
//! predicates to P0…P7.
//!
//! Each instruction i has two points: 2i (operands are read) and 2i+1 (results are written). A
//! register read for the last time at i and a register first written at i therefore do not
//! overlap and may share a physical register, as in hardware. A guarded write does not kill the
//! old value (lanes whose guard is false keep it). Intervals are the hull of all live points, which
//! is conservative for loops and divergent paths. Ties are broken by virtual register number, and
//! the lowest free register (pair) is always taken, so the result is deterministic.

use super::decode::RegClass;
use super::isa::{AddrBase, Inst, Opnd};

/// Number of architectural predicate registers.
pub const NUM_PREDS: u32 = 8;

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

/// Successor instruction indices of instruction `i` (the instruction-level CFG).
pub fn successors(insts: &[Inst], i: usize) -> impl Iterator<Item = usize> {
    let inst = &insts[i];
    let n = insts.len();
    let guarded = inst.guard.is_some();
    let (a, b) = match inst.op {
        super::isa::Op::Bra { .. } => (
            Some(inst.target as usize),
            if guarded { Some(i + 1) } else { None },
        ),
        super::isa::Op::Ret | super::isa::Op::Exit => {
            (None, if guarded { Some(i + 1) } else { None })
        }
        _ => (Some(i + 1), None),
    };
    [a, b].into_iter().flatten().filter(move |&s| s < n)
}

/// Allocates registers for `insts` in place (rewriting virtual numbers to physical ones).
/// `classes` gives the class of every virtual GPR; `n_pred` is the number of virtual predicates.
/// Errors when more than [`NUM_PREDS`] predicates are live at once.
pub fn allocate(
    insts: &mut [Inst],
    classes: &[RegClass],
    n_pred: usize,
) -> Result<Allocation, String> {
    let n_gpr = classes.len();
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
    let succs: Vec<Vec<usize>> = (0..n).map(|i| successors(insts, i).collect()).collect();
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
    // Intervals over points 2i (read) and 2i+1 (write).
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
            let mut bits = live_in[i * words + w];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                touch(w * 64 + b, 2 * i, &mut start, &mut end);
            }
            let mut bits = live_out[i * words + w];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                touch(w * 64 + b, 2 * i + 1, &mut start, &mut end);
            }
        }
        for &u in &use_sets[i] {
            touch(u, 2 * i, &mut start, &mut end);
        }
        for &d in &def_sets[i] {
            touch(d, 2 * i + 1, &mut start, &mut end);
        }
    }
    // Linear scan, GPRs and predicates separately.
    let scan = |ids: std::ops::Range<usize>,
                wide: &dyn Fn(usize) -> bool,
                limit: Option<u32>|
     -> Result<(Vec<u16>, u32), String> {
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
            if let Some(l) = limit {
                if p as u32 >= l {
                    return Err(format!("more than {l} predicates are live at once (the PTX subset maps predicates to P0-P{})", l - 1));
                }
            }
            hi = hi.max((p + step) as u32);
            if p + step > 255 {
                return Err("more than 255 registers are needed".to_string());
            }
            phys[v - ids.start] = p as u16;
            active.push((end[v], p as u16, w));
        }
        Ok((phys, hi))
    };
    let (gpr, regs) = scan(0..n_gpr, &|v| classes[v] == RegClass::R64, None)?;
    let (pred, preds) = scan(n_gpr..nv, &|_| false, Some(NUM_PREDS))?;
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
    Ok(Allocation {
        gpr,
        pred,
        regs,
        preds,
    })
}
