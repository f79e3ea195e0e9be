//! Register allocation by graph colouring over exact live sets, for the kernels that the hull
//! linear scan of [`super::regalloc`] cannot fit in [`super::regalloc::MAX_REGS`] registers.
//!
//! Two virtual GPRs interfere when both are present at one read point (live-in and operands) or
//! one write point (live-out and results) of an instruction — the sets [`super::regalloc::verify`]
//! checks — so a value's live range has holes where it is dead (between a loop's last use and
//! the next iteration's definition, on the other side of a branch), which the hull of the linear
//! scan fills. The graph is coloured by Chaitin's simplify/select with Briggs's optimistic
//! spilling (G. J. Chaitin, "Register allocation & spilling via graph coloring", SIGPLAN 1982;
//! P. Briggs, K. D. Cooper, L. Torczon, "Improvements to graph coloring register allocation",
//! TOPLAS 16(3), 1994), adapted to aligned register pairs: a 32-bit value is trivially
//! colourable when its neighbours occupy fewer than K registers, a pair when it has fewer than
//! ⌊K/2⌋ neighbours (each neighbour, single or pair, blocks at most one aligned pair).
//!
//! When no node is trivially colourable the one with the least spill cost per blocked register
//! is pushed (Chaitin's rule). The spill cost of a value is Σ over the instructions that read or
//! write it of 10^d, d the instruction's loop depth (the number of backward branches whose span
//! holds it, at most 6). Values that must not be spilled (the spill code's own temporaries) have
//! infinite cost. Select gives each value the lowest free register (aligned pair); the values it
//! cannot colour are the spills. Everything is ordered by virtual register number on ties, so
//! the result is deterministic.

use super::decode::RegClass;
use super::isa::{Inst, Op};
use super::regalloc::liveness;
use std::collections::VecDeque;

/// The result of one colouring attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every virtual GPR has a register: the physical register of each (`u16::MAX` when never
    /// named) and the registers used (highest + 1).
    Coloured {
        /// Physical register (pair base) of every virtual GPR.
        gpr: Vec<u16>,
        /// Registers used.
        regs: u32,
    },
    /// These virtual GPRs (ascending) are to be spilled before the next attempt.
    Spill(Vec<usize>),
}

/// Loop depth of every instruction: the number of backward branches (`bra` to an instruction at
/// or before it) whose span `target..=branch` holds it.
pub fn loop_depth(insts: &[Inst]) -> Vec<u32> {
    let n = insts.len();
    let mut diff = vec![0i64; n + 1];
    for (j, x) in insts.iter().enumerate() {
        if matches!(x.op, Op::Bra { .. }) && (x.target as usize) <= j {
            diff[x.target as usize] += 1;
            diff[j + 1] -= 1;
        }
    }
    let mut d = 0i64;
    diff[..n]
        .iter()
        .map(|&x| {
            d += x;
            d.max(0) as u32
        })
        .collect()
}

/// Interference graph of the virtual GPRs: for each, its neighbours in ascending order, and
/// whether it is named at all.
struct Graph {
    nbrs: Vec<Vec<u32>>,
    named: Vec<bool>,
}

fn interference(insts: &[Inst], classes: &[RegClass], n_pred: usize) -> (Graph, Vec<f64>) {
    let n_gpr = classes.len();
    let lv = liveness(insts, n_gpr, n_pred);
    let gw = n_gpr.div_ceil(64).max(1);
    let mut adj = vec![0u64; n_gpr * gw];
    let mut named = vec![false; n_gpr];
    let mut set = vec![0u64; gw];
    let mut members: Vec<usize> = Vec::new();
    let mut last: Vec<u64> = Vec::new();
    for i in 0..insts.len() {
        for point in 0..2 {
            set.iter_mut().for_each(|w| *w = 0);
            let (live, named_here) = if point == 0 {
                (&lv.live_in, &lv.use_sets[i])
            } else {
                (&lv.live_out, &lv.def_sets[i])
            };
            for (w, s) in set.iter_mut().enumerate().take(lv.words.min(gw)) {
                *s = live[i * lv.words + w];
            }
            // keep GPR bits only (predicates follow the GPRs in the combined space)
            if !n_gpr.is_multiple_of(64) {
                set[gw - 1] &= (1u64 << (n_gpr % 64)) - 1;
            }
            for &v in named_here {
                if v < n_gpr {
                    set[v / 64] |= 1 << (v % 64);
                }
            }
            if set == last {
                continue;
            }
            members.clear();
            for (w, &b) in set.iter().enumerate() {
                let mut b = b;
                while b != 0 {
                    members.push(w * 64 + b.trailing_zeros() as usize);
                    b &= b - 1;
                }
            }
            for &v in &members {
                named[v] = true;
                let row = &mut adj[v * gw..(v + 1) * gw];
                for (r, &s) in row.iter_mut().zip(&set) {
                    *r |= s;
                }
            }
            last.clone_from(&set);
        }
    }
    let nbrs = (0..n_gpr)
        .map(|v| {
            let mut out = Vec::new();
            for w in 0..gw {
                let mut b = adj[v * gw + w];
                while b != 0 {
                    let u = w * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    if u != v {
                        out.push(u as u32);
                    }
                }
            }
            out
        })
        .collect();
    let depth = loop_depth(insts);
    let mut cost = vec![0f64; n_gpr];
    for (i, &d) in depth.iter().enumerate() {
        let w = 10f64.powi(d.min(6) as i32);
        for &v in lv.use_sets[i].iter().chain(&lv.def_sets[i]) {
            if v < n_gpr {
                cost[v] += w;
            }
        }
    }
    (Graph { nbrs, named }, cost)
}

/// Colours the virtual GPRs of `insts` with `k` registers. `no_spill[v]` marks values that may
/// not be spilled. Errors when a value that may not be spilled cannot be coloured and none of
/// the values it interferes with may be spilled instead.
pub fn colour(
    insts: &[Inst],
    classes: &[RegClass],
    n_pred: usize,
    no_spill: &[bool],
    k: u32,
) -> Result<Outcome, String> {
    let n_gpr = classes.len();
    let (g, cost) = interference(insts, classes, n_pred);
    let wide = |v: usize| classes[v] == RegClass::R64;
    let width = |v: usize| if wide(v) { 2u32 } else { 1 };
    let avail = |v: usize| if wide(v) { k / 2 } else { k };
    let blocks = |v: usize, by: usize| if wide(v) { 1 } else { width(by) };
    let mut blocked: Vec<u32> = (0..n_gpr)
        .map(|v| g.nbrs[v].iter().map(|&u| blocks(v, u as usize)).sum())
        .collect();
    let mut active = g.named.clone();
    let mut remaining = active.iter().filter(|&&a| a).count();
    let mut queued = vec![false; n_gpr];
    let mut queue: VecDeque<usize> = VecDeque::new();
    for v in 0..n_gpr {
        if active[v] && blocked[v] < avail(v) {
            queued[v] = true;
            queue.push_back(v);
        }
    }
    // Simplify.
    let mut stack: Vec<usize> = Vec::with_capacity(remaining);
    while remaining > 0 {
        let v = match queue.pop_front() {
            Some(v) => v,
            None => {
                // Chaitin's spill choice: least cost per blocked register; values that may not
                // be spilled last.
                let mut best: Option<(bool, f64, usize)> = None;
                for v in 0..n_gpr {
                    if !active[v] || queued[v] {
                        continue;
                    }
                    let key = (
                        no_spill.get(v).copied().unwrap_or(false),
                        cost[v] / f64::from(blocked[v].max(1)),
                        v,
                    );
                    let better = match best {
                        None => true,
                        Some(b) => key.0.cmp(&b.0).then(key.1.total_cmp(&b.1)).is_lt(),
                    };
                    if better {
                        best = Some(key);
                    }
                }
                match best {
                    Some((_, _, v)) => v,
                    None => break,
                }
            }
        };
        if !active[v] {
            continue;
        }
        active[v] = false;
        remaining -= 1;
        stack.push(v);
        for &u in &g.nbrs[v] {
            let u = u as usize;
            if active[u] {
                blocked[u] -= blocks(u, v);
                if blocked[u] < avail(u) && !queued[u] {
                    queued[u] = true;
                    queue.push_back(u);
                }
            }
        }
    }
    // Select.
    let mut phys = vec![u16::MAX; n_gpr];
    let mut failed: Vec<usize> = Vec::new();
    let mut taken = vec![false; k as usize + 2];
    let mut regs = 0u32;
    while let Some(v) = stack.pop() {
        taken.iter_mut().for_each(|t| *t = false);
        for &u in &g.nbrs[v] {
            let p = phys[u as usize];
            if p != u16::MAX {
                for q in p as usize..(p as u32 + width(u as usize)) as usize {
                    if q < taken.len() {
                        taken[q] = true;
                    }
                }
            }
        }
        let w = width(v);
        let mut p = 0u32;
        let mut found = None;
        while p + w <= k {
            if (0..w).all(|d| !taken[(p + d) as usize]) {
                found = Some(p);
                break;
            }
            p += w;
        }
        match found {
            Some(p) => {
                phys[v] = p as u16;
                regs = regs.max(p + w);
            }
            None => failed.push(v),
        }
    }
    if failed.is_empty() {
        return Ok(Outcome::Coloured { gpr: phys, regs });
    }
    // A value that may not be spilled gives way to the cheapest spillable value it interferes
    // with.
    let mut spill: Vec<usize> = Vec::new();
    for &v in &failed {
        if !no_spill.get(v).copied().unwrap_or(false) {
            spill.push(v);
            continue;
        }
        let pick = g.nbrs[v]
            .iter()
            .map(|&u| u as usize)
            .filter(|&u| !no_spill.get(u).copied().unwrap_or(false))
            .min_by(|&a, &b| cost[a].total_cmp(&cost[b]).then(a.cmp(&b)));
        match pick {
            Some(u) => spill.push(u),
            None => {
                let at = insts
                    .iter()
                    .position(|x| names(x, v))
                    .map_or(String::new(), |i| {
                        format!(" at instruction {i} (line {})", insts[i].line)
                    });
                return Err(format!(
                    "more than {k} registers are live at once{at}, with every other value \
                     spilled to local memory"
                ));
            }
        }
    }
    spill.sort_unstable();
    spill.dedup();
    Ok(Outcome::Spill(spill))
}

/// True when instruction `x` names virtual GPR `v`.
fn names(x: &Inst, v: usize) -> bool {
    use super::isa::{AddrBase, Opnd};
    let is = |o: &Opnd| matches!(*o, Opnd::R32(r) | Opnd::R64(r) if r as usize == v);
    x.dsts().iter().any(is)
        || x.srcs().iter().any(is)
        || matches!(x.addr.base, AddrBase::R32(r) | AddrBase::R64(r) if r as usize == v)
}
